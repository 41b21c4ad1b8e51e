"""The bots' judgement, the ground floor: what a player reads from its hand and its seat's view
without searching (basic knowledge, the basic bot's bidding and play, the estimate of tricks a
hand takes, compiled in ``fastestimate.pyx``, and the learned trick estimator with its
features). It imports only the core."""
