"""The long agreement check of israeli_whist.bots.search.dd against DDS (endplay); prints every disagreement.

    python bench/solver_vs_dds_check.py [--deals 1000] [--tricks 13] [--single 0] [--mid-trick 1000]
                                        [--mid-trick-max 13] [--seed 1]

Part one compares whole tables (5 strains x 4 leaders) on ``--deals`` random deals of
``--tricks`` cards a hand; part two compares ``--single`` more deals of ``--tricks`` cards, each
with one random strain and leader (a cheaper way to cover many deals); part three compares
``--mid-trick`` positions with 1-3 cards already played to the current trick, of 2 to
``--mid-trick-max`` cards a hand.
"""

from __future__ import annotations

import argparse
import random
import time

from israeli_whist.bots.search.dd import dd_table, solve
from israeli_whist.bots.search.dd.dds import dds_solve, dds_table, to_deal
from israeli_whist.bots.search.dd.reference import legal_cards


def deal(rng: random.Random, tricks: int) -> list[int]:
    deck = rng.sample(range(52), 4 * tricks)
    return [sum(1 << card for card in deck[tricks * seat : tricks * (seat + 1)]) for seat in range(4)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--tricks", type=int, default=13)
    parser.add_argument("--single", type=int, default=0, help="deals checked for one random strain and leader")
    parser.add_argument("--mid-trick", type=int, default=1000)
    parser.add_argument("--mid-trick-max", type=int, default=13, help="most cards a hand in mid-trick positions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = time.perf_counter()
    disagreements = 0
    for number in range(args.deals):
        hands = deal(rng, args.tricks)
        ours, theirs = dd_table(hands), dds_table(hands)
        for key in ours:
            if ours[key] != theirs[key]:
                disagreements += 1
                print(f"DISAGREE table (strain, leader)={key}: ours {ours[key]}, DDS {theirs[key]}: "
                      f"{to_deal(hands, 4, 0).to_pbn()}")
        if (number + 1) % 50 == 0:
            print(f"{number + 1} deals, {time.perf_counter() - start:.0f} s", flush=True)
    for number in range(args.single):
        hands, trump, leader = deal(rng, args.tricks), rng.randrange(5), rng.randrange(4)
        ours_tricks, theirs_tricks = solve(hands, trump, leader), dds_solve(hands, trump, leader)
        if ours_tricks != theirs_tricks:
            disagreements += 1
            print(f"DISAGREE single: ours {ours_tricks}, DDS {theirs_tricks}: strain {trump} leader {leader} "
                  f"{to_deal(hands, trump, leader).to_pbn()}")
        if (number + 1) % 100 == 0:
            print(f"{number + 1} single deals, {time.perf_counter() - start:.0f} s", flush=True)
    for _ in range(args.mid_trick):
        tricks = rng.randint(2, args.mid_trick_max)
        hands, trump, leader = deal(rng, tricks), rng.randrange(5), rng.randrange(4)
        trick: list[int] = []
        for position in range(rng.randint(1, 3)):
            seat = (leader + position) % 4
            card = rng.choice(legal_cards(hands[seat], trick))
            hands[seat] &= ~(1 << card)
            trick.append(card)
        ours_tricks, theirs_tricks = solve(hands, trump, leader, trick), dds_solve(hands, trump, leader, trick)
        if ours_tricks != theirs_tricks:
            disagreements += 1
            print(f"DISAGREE mid-trick: ours {ours_tricks}, DDS {theirs_tricks}: trump {trump} leader {leader} "
                  f"trick {trick} hands {hands}")
    checked = args.deals * 20 + args.single + args.mid_trick
    print(f"checked {checked} positions ({args.deals} deals x 20 + {args.single} single + {args.mid_trick} mid-trick): "
          f"{disagreements} disagreements, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
