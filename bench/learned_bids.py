"""Does the learned trick estimator bid better than the basic estimate? The basic bot against
itself with one change: its contract bids aim at the learned estimator's tricks
(``israeli_whist.bots.judgement.learned``) instead of the basic estimate, with the same zero line. Everything
else (calls, Frisch, play) is the basic bot's. A duplicate match (``israeli_whist.bots.matches.tournament``):
the same deals in every seating, the difference paired by deal with its 95% CI.

Run:  python bench/learned_bids.py [--game israeli] [--deals 334] [--seed 11]
"""

from __future__ import annotations

import argparse

from israeli_whist.bots.judgement.basic_bidding import ZERO_LINE
from israeli_whist.bots.judgement.learned import LearnedEstimator
from israeli_whist.bots.matches.tournament import run_tournament, spec_from
from israeli_whist.bots.players import registry
from israeli_whist.bots.players.basic import BasicBot
from israeli_whist.core.actions import Action, Phase, contract_tricks
from israeli_whist.core.views import SeatView


class LearnedBidsBot(BasicBot):
    """The basic bot, bidding the contract nearest the learned estimate of its tricks."""

    level = "basic-learned-bids"

    def choose(self, view: SeatView) -> Action:
        if view.phase != Phase.CONTRACT or len(view.legal_actions) == 1:
            return super().choose(view)
        estimate = LearnedEstimator.load(view.game).tricks(view)
        if view.rules.traits.rewards_zero_bids and estimate < ZERO_LINE:
            estimate = 0.0
        return min(view.legal_actions, key=lambda a: (abs(contract_tricks(a) - estimate), contract_tricks(a)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="israeli", choices=["israeli", "whistiti"])
    parser.add_argument("--deals", type=int, default=334)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    registry.BOT_LEVELS[LearnedBidsBot.level] = LearnedBidsBot  # this process only: the bench's own level
    result = run_tournament(spec_from(args.game, [LearnedBidsBot.level, "basic"], args.deals, seed=args.seed),
                            workers=1)
    for difference in result.differences:
        low, high = difference.mean.low, difference.mean.high
        print(f"{args.game}: {difference.first} - {difference.second} = {difference.mean.mean:+.2f} points a hand, "
              f"95% CI [{low:+.2f}, {high:+.2f}], {len(result.rows)} hands ({args.deals} deals), seed {args.seed}")


if __name__ == "__main__":
    main()
