"""Time the compiled individual-contract search (paranoid per player) on random 4-player deals.

    python bench/individual_search.py [--positions 20] [--tricks 3 5 8 13] [--seed 1] [--each]

For each size, ``positions`` random deals of that many tricks a seat, each with a random strain,
leader and player, and the Israeli Whist score (over) for a random contract of 0 to 6 tricks
capped at the size. Each search starts with an empty transposition table; the median, the
slowest and the median of positions visited are printed. For sizes up to 8 tricks it also times
``paranoid_card_values`` (every card of the player on move) the way the expert bot calls it,
deal after deal with the table kept.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from functools import partial

from whist.bots import individual_solver
from whist.bots.individual import paranoid_card_values, paranoid_value
from whist.core.cards import CardSet
from whist.core.scoring import israeli_score

PLAYERS = 4


def random_deal(rng: random.Random, tricks: int) -> tuple[CardSet, ...]:
    cards = rng.sample(range(52), tricks * PLAYERS)
    return tuple(sum(1 << card for card in cards[seat::PLAYERS]) for seat in range(PLAYERS))


def time_size(rng: random.Random, tricks: int, positions: int, each: bool) -> None:
    seconds: list[float] = []
    nodes: list[int] = []
    for _ in range(positions):
        hands = random_deal(rng, tricks)
        trump, leader, player = rng.randrange(5), rng.randrange(PLAYERS), rng.randrange(PLAYERS)
        score = partial(israeli_score, rng.randrange(min(tricks, 6) + 1), over=True)
        individual_solver.clear_table()
        start = time.perf_counter()
        paranoid_value(hands, trump, leader, player, score)
        seconds.append(time.perf_counter() - start)
        nodes.append(individual_solver.last_node_count())
        if each:
            print(f"   position {len(seconds)}: {seconds[-1] * 1000:.1f} ms, {nodes[-1]} nodes", flush=True)
    median, slowest = statistics.median(seconds) * 1000, max(seconds) * 1000
    print(f"{tricks:2d} tricks: median {median:9.2f} ms, slowest {slowest:9.1f} ms,"
          f" median nodes {statistics.median(nodes):11.0f}  ({positions} positions)", flush=True)


def time_card_values(rng: random.Random, tricks: int, positions: int) -> None:
    seconds: list[float] = []
    for _ in range(positions):
        hands = random_deal(rng, tricks)
        trump, leader = rng.randrange(5), rng.randrange(PLAYERS)
        score = partial(israeli_score, rng.randrange(min(tricks, 6) + 1), over=True)
        start = time.perf_counter()
        paranoid_card_values(hands, trump, leader, score)
        seconds.append(time.perf_counter() - start)
    print(f"{tricks:2d} tricks: median {statistics.median(seconds) * 1000:9.2f} ms for the values of every card"
          f" (table kept)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--tricks", type=int, nargs="+", default=[3, 5, 8, 13])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--each", action="store_true", help="print every position's time too")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for tricks in args.tricks:
        time_size(rng, tricks, args.positions, args.each)
        if tricks <= 8:
            time_card_values(rng, tricks, args.positions)


if __name__ == "__main__":
    main()
