"""Time the compiled individual-contract search (paranoid per player) on random 4-player deals.

    python bench/individual_search.py [--hands 50] [--tricks 13] [--games israeli whistiti]
                                      [--budget 100000000] [--seed 1] [--each] [--card-values]
                                      [--threads 1|2]

For each game and size, ``hands`` random deals of that many tricks a seat, each with a random
strain, leader and player, and the game's score for a random contract of 0 to 6 tricks (capped
at the size): Israeli Whist over or under at random, or Whistiti (exactly the bid). Each search
starts with an empty transposition table and a budget of ``budget`` positions visited (the one
``whist analyze`` uses by default); a search that runs out answers "not proven" rather than run
on. Printed per game: the median, 90th percentile and slowest time, the median positions
visited, how many searches were not proven, and the positions and CPU time of all the hands
together (to compare two builds on hands they all prove), and the positions its helper thread
visited besides (with ``--threads 2``, the default where two cores are free: the budget counts
the search's positions, not the helper's). ``--card-values`` also times
``paranoid_card_values`` (every card of the player on move, what ``whist analyze`` asks at each
card) the same way.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from israeli_whist.bots.matches.analysis import PARANOID_NODE_BUDGET
from israeli_whist.bots.search import individual_solver
from israeli_whist.bots.search.individual import paranoid_card_values_within, paranoid_value_within
from israeli_whist.core.cards import CardSet
from israeli_whist.core.games.israeli import israeli_score
from israeli_whist.core.games.whistiti import whistiti_score

PLAYERS = 4


def random_deal(rng: random.Random, tricks: int) -> tuple[CardSet, ...]:
    cards = rng.sample(range(52), tricks * PLAYERS)
    return tuple(sum(1 << card for card in cards[seat::PLAYERS]) for seat in range(PLAYERS))


def random_score(rng: random.Random, game: str, tricks: int) -> Callable[[int], int]:
    contract = rng.randrange(min(tricks, 6) + 1)
    if game == "whistiti":
        return partial(whistiti_score, contract)
    return partial(israeli_score, contract, over=rng.random() < 0.5)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def time_game(rng: random.Random, game: str, tricks: int, hands: int, budget: int, each: bool,
              card_values: bool) -> None:
    seconds: list[float] = []
    nodes: list[int] = []
    helper_nodes = 0
    unproven = 0
    cpu_start = time.process_time()
    for _ in range(hands):
        deal = random_deal(rng, tricks)
        trump, leader, player = rng.randrange(5), rng.randrange(PLAYERS), rng.randrange(PLAYERS)
        score = random_score(rng, game, tricks)
        individual_solver.clear_table()
        start = time.perf_counter()
        if card_values:
            values = paranoid_card_values_within(deal, trump, leader, score, nodes=budget)
            proven = None not in values.values()
        else:
            proven = paranoid_value_within(deal, trump, leader, player, score, nodes=budget) is not None
        seconds.append(time.perf_counter() - start)
        nodes.append(individual_solver.last_node_count())
        helper_nodes += individual_solver.last_helper_node_count()
        unproven += not proven
        if each:
            print(f"   {game} {len(seconds)}: {seconds[-1]:8.3f} s, {nodes[-1]:11d} nodes"
                  + ("" if proven else "  NOT PROVEN"), flush=True)
    cpu = time.process_time() - cpu_start
    what = "every card's value" if card_values else "the position's value"
    print(f"{game:8s} {tricks:2d} tricks, {what}: median {statistics.median(seconds):7.3f} s,"
          f" p90 {percentile(seconds, 0.9):7.3f} s, max {max(seconds):7.3f} s,"
          f" median nodes {statistics.median(nodes):11.0f}, not proven {unproven} of {hands};"
          f" in all {sum(nodes) / 1e6:.2f} million nodes (the helper {helper_nodes / 1e6:.2f} million),"
          f" {cpu:.2f} s CPU", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--tricks", type=int, nargs="+", default=[13])
    parser.add_argument("--games", nargs="+", choices=["israeli", "whistiti"], default=["israeli", "whistiti"])
    parser.add_argument("--budget", type=int, default=PARANOID_NODE_BUDGET,
                        help="positions a search may visit before it answers 'not proven'")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--each", action="store_true", help="print every position's time too")
    parser.add_argument("--card-values", action="store_true",
                        help="time every card's value (paranoid_card_values) instead of the position's")
    parser.add_argument("--threads", type=int, choices=[1, 2], default=individual_solver.threads_in_use(),
                        help="threads a search runs on (2: with a helper thread on a second core)")
    args = parser.parse_args()
    individual_solver.set_threads(args.threads)
    print(f"searching on {individual_solver.threads_in_use()} thread(s)", flush=True)
    for tricks in args.tricks:
        for game in args.games:
            rng = random.Random(f"{args.seed}/{game}/{tricks}")
            time_game(rng, game, tricks, args.hands, args.budget, args.each, args.card_values)


if __name__ == "__main__":
    main()
