"""Research interfaces: the games as PettingZoo, Gymnasium and OpenSpiel environments, self-play
data for learners and the fitting of the learned trick estimator to it, and Ray as a backend
for self-play, tournaments and the web app's bots. It imports ``core`` and ``bots``; the
terminal and the web app import it. Needs the optional extra:
``pip install 'israeli-whist[rl]'``."""
