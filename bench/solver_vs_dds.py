"""Time israeli_whist.bots.search.dd against DDS (endplay) on full 13-card deals, asked the same question.

    python bench/solver_vs_dds.py [--deals 240] [--skewed 0.5] [--seed 1] [--slowest 8]

``israeli_whist.bots.search.dd.solve`` answers one question: the tricks of the side on move with best play
(one strain, one leader). DDS's mode for that question is ``SolveMode.OptimalOne`` (one best card
and its tricks): that is the primary ratio. DDS's default mode, which scores every legal card of
the position, is timed beside it and labelled "all cards". Whole tables (5 strains x 4 leaders,
20 results) are timed as CPU time (``time.process_time``, all threads) against
``calc_dd_table``, which may use several threads.

Deals come from ``--seed``: a share ``--skewed`` of them are shaped (long suits, voids, many
trumps, 4-3-3-3 everywhere, two-suiters), and a fixed list of hard deals is always included.
Which solver runs first alternates from deal to deal, and every timed call starts cold (each
solver keeps its table for the deal it solved last, so a one-card ending is solved in between). Every answer
is checked against DDS; any disagreement is printed and the script exits with status 1.

Prints each ratio's spread over deals (median, p90, max of ours / DDS per deal) and the slowest
deals for us against DDS, as PBN with strain and leader.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from endplay.dds import calc_dd_table, solve_board
from endplay.dds.solve import SolveMode
from endplay.types import Deal

from israeli_whist.bots.search.dd import STRAINS, dd_table, solve
from israeli_whist.bots.search.dd.dds import denomination, to_deal
from israeli_whist.core.cards import RANK_LETTERS, STRAIN_LETTERS

SEAT_NAMES = ("North", "East", "South", "West")
SKEWED_KINDS = ("long suit", "voids", "many trumps", "4333", "two-suiter")

# (PBN from North, strain, leader): deals found hard for us, always measured.
HARD_DEALS: tuple[tuple[str, int, int], ...] = (
    ("N:9.T8.AKQJT9754.3 KQJ75.AQ4.3.AQ98 T84.K52.62.KT542 A632.J9763.8.J76", 1, 1),  # diamonds, East leads
)


@dataclass(frozen=True)
class Case:
    kind: str
    hands: list[int]
    trump: int
    leader: int

    def describe(self) -> str:
        pbn = to_deal(self.hands, self.trump, self.leader).to_pbn()
        return f"{pbn}  strain {STRAIN_LETTERS[self.trump]}, {SEAT_NAMES[self.leader]} leads  ({self.kind})"


@dataclass
class Timing:
    case: Case
    ours: float
    dds_one: float
    dds_all: float
    ours_table: float
    dds_table: float


def parse_pbn(pbn: str) -> list[int]:
    """Hands as masks from a PBN deal ``"N:spades.hearts.diamonds.clubs ..."`` given from North."""
    first, _, body = pbn.partition(":")
    start = "NESW".index(first)
    hands = [0, 0, 0, 0]
    for offset, hand in enumerate(body.split()):
        for pbn_suit, ranks in enumerate(hand.split(".")):
            suit = 3 - pbn_suit
            for rank in ranks:
                hands[(start + offset) % 4] |= 1 << (13 * suit + RANK_LETTERS.index(rank))
    return hands


def deal_by_lengths(rng: random.Random, lengths: dict[int, Sequence[int]]) -> list[int]:
    """A deal where each seat in ``lengths`` holds that many cards of each suit (clubs first)."""
    by_suit = [rng.sample(range(13 * suit, 13 * suit + 13), 13) for suit in range(4)]
    hands = [0, 0, 0, 0]
    for seat, row in lengths.items():
        for suit, count in enumerate(row):
            for _ in range(count):
                hands[seat] |= 1 << by_suit[suit].pop()
    rest = [card for cards in by_suit for card in cards]
    rng.shuffle(rest)
    for seat in range(4):
        while hands[seat].bit_count() < 13:
            hands[seat] |= 1 << rest.pop()
    return hands


def shaped(rng: random.Random, kind: str) -> Case:
    suits = rng.sample(range(4), 4)  # suits[0] is the long (or chosen) suit
    seat = rng.randrange(4)
    trump = rng.choice((*range(4), 4))
    lengths: dict[int, Sequence[int]]
    if kind == "long suit":
        long = rng.randint(7, 10)
        others = [1, 1, 1]
        for _ in range(13 - long - 3):
            others[rng.randrange(3)] += 1
        lengths = {seat: _row(suits, [long, *others])}
    elif kind == "voids":
        row = [0, rng.randint(3, 5), rng.randint(3, 5)]
        row.append(13 - sum(row))
        other_row = [rng.randint(4, 6), 0, rng.randint(2, 4)]
        other_row.append(13 - sum(other_row))
        lengths = {seat: _row(suits, row), (seat + rng.choice((1, 2))) % 4: _row(suits[::-1], other_row)}
    elif kind == "many trumps":
        trump = suits[0]
        first = rng.randint(5, 7)
        second = min(rng.randint(4, 5), 11 - first)
        lengths = {
            seat: _row(suits, [first, *_split(rng, 13 - first)]),
            (seat + 2) % 4: _row(suits, [second, *_split(rng, 13 - second)]),
        }
    elif kind == "4333":
        lengths = {seat: _row(order, [4, 3, 3, 3]) for seat, order in _latin_4333(rng).items()}
    else:  # two-suiter
        first, second = rng.choice(((6, 5), (5, 5), (6, 6), (7, 5), (5, 4)))
        short = 13 - first - second
        third = rng.randint(0, short)
        lengths = {seat: _row(suits, [first, second, third, short - third])}
    return Case(kind, deal_by_lengths(rng, lengths), trump, rng.randrange(4))


def _row(suits: Sequence[int], counts: Sequence[int]) -> list[int]:
    """Suit lengths clubs first, given ``counts[i]`` cards of ``suits[i]``."""
    row = [0, 0, 0, 0]
    for suit, count in zip(suits, counts, strict=True):
        row[suit] = count
    return row


def _split(rng: random.Random, cards: int) -> list[int]:
    """``cards`` spread over three suits, at most 5 each, so two such hands fit in the deck."""
    parts = [0, 0, 0]
    for _ in range(cards):
        parts[rng.choice([suit for suit in range(3) if parts[suit] < 5])] += 1
    return parts


def _latin_4333(rng: random.Random) -> dict[int, list[int]]:
    """Every seat 4-3-3-3, each suit the four-card suit of exactly one seat."""
    fours = rng.sample(range(4), 4)
    return {seat: [fours[seat], *(suit for suit in range(4) if suit != fours[seat])] for seat in range(4)}


def cases(rng: random.Random, count: int, skewed_share: float) -> list[Case]:
    found = [Case("hard", parse_pbn(pbn), trump, leader) for pbn, trump, leader in HARD_DEALS]
    skewed = round((count - len(found)) * skewed_share)
    for index in range(count - len(found)):
        if index < skewed:
            found.append(shaped(rng, SKEWED_KINDS[index % len(SKEWED_KINDS)]))
        else:
            found.append(Case("random", deal_by_lengths(rng, {}), rng.choice(STRAINS), rng.randrange(4)))
    rng.shuffle(found)
    return found


# A one-card ending, solved untimed before each timed call: both solvers keep their table when
# asked about the deal they solved last, so without it the later calls on a deal start warm.
ENDING = [1 << 0, 1 << 13, 1 << 26, 1 << 39]
ENDING_DEAL = to_deal(ENDING, 4, 0)


def forget() -> None:
    solve(ENDING, 4, 0)
    solve_board(ENDING_DEAL, SolveMode.OptimalOne)


def time_ours(case: Case) -> tuple[float, int, float, dict[tuple[int, int], int]]:
    """Our answer and wall time for the case, then our table and its CPU time."""
    forget()
    start = time.perf_counter()
    tricks = solve(case.hands, case.trump, case.leader)
    seconds = time.perf_counter() - start
    forget()
    start = time.process_time()
    table = dd_table(case.hands)
    return seconds, tricks, time.process_time() - start, table


def time_dds(deal: Deal) -> tuple[float, int, float, int, float, list[list[int]]]:
    """DDS's best card (answer, wall time), all cards (answer, wall time), then its table and CPU time."""
    forget()
    start = time.perf_counter()
    one = solve_board(deal, SolveMode.OptimalOne)
    one_seconds = time.perf_counter() - start
    forget()
    start = time.perf_counter()
    every = solve_board(deal, SolveMode.Default)
    every_seconds = time.perf_counter() - start
    forget()
    start = time.process_time()
    table = calc_dd_table(deal)
    table_seconds = time.process_time() - start
    best = max(tricks for _card, tricks in one)
    return one_seconds, best, every_seconds, max(tricks for _card, tricks in every), table_seconds, table.to_list()


def measure(case: Case, ours_first: bool) -> tuple[Timing, list[str]]:
    """Time one case in every mode; the disagreements with DDS, if any, come back as messages."""
    deal = to_deal(case.hands, case.trump, case.leader)
    if ours_first:
        ours, tricks, ours_table, table = time_ours(case)
        one, best, every, all_best, dds_table, rows = time_dds(deal)
    else:
        one, best, every, all_best, dds_table, rows = time_dds(deal)
        ours, tricks, ours_table, table = time_ours(case)
    problems = [] if tricks == best == all_best else [f"ours {tricks}, DDS best card {best}, all cards {all_best}"]
    for (strain, leader), leader_tricks in table.items():
        theirs = 13 - rows[denomination(strain).value][(leader + 3) % 4]  # rows[denomination][declarer]
        if leader_tricks != theirs:
            problems.append(
                f"table {STRAIN_LETTERS[strain]} {SEAT_NAMES[leader]} leads: ours {leader_tricks}, DDS {theirs}"
            )
    return Timing(case, ours, one, every, ours_table, dds_table), problems


def spread(ratios: Sequence[float]) -> str:
    ordered = sorted(ratios)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"median {statistics.median(ordered):6.2f}x   p90 {p90:7.2f}x   max {ordered[-1]:8.2f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=240, help="deals in all, the hard ones included")
    parser.add_argument("--skewed", type=float, default=0.5, help="share of shaped deals among the generated ones")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slowest", type=int, default=8, help="slowest deals to print")
    parser.add_argument("--quiet", action="store_true", help="no line per deal")
    args = parser.parse_args()
    results: list[Timing] = []
    failures = 0
    for number, case in enumerate(cases(random.Random(args.seed), args.deals, args.skewed), 1):
        timing, problems = measure(case, ours_first=number % 2 == 0)
        results.append(timing)
        for problem in problems:
            failures += 1
            print(f"DISAGREE on deal {number}: {problem}: {case.describe()}", flush=True)
        if not args.quiet:
            print(
                f"deal {number:3d} {case.kind:11s} ours {timing.ours * 1000:8.1f} ms  "
                f"DDS best card {timing.dds_one * 1000:6.1f} ms  all cards {timing.dds_all * 1000:6.1f} ms  "
                f"table CPU ours {timing.ours_table * 1000:8.1f} ms  DDS {timing.dds_table * 1000:6.1f} ms",
                flush=True,
            )
    kinds = {timing.case.kind for timing in results}
    skewed = sum(timing.case.kind not in ("random",) for timing in results)
    print()
    print(f"deals: {len(results)} (seed {args.seed}), shaped or hard: {skewed}; kinds: {', '.join(sorted(kinds))}")
    print("per-deal ratio, ours / DDS (one strain, one leader, wall time):")
    same, every = [t.ours / t.dds_one for t in results], [t.ours / t.dds_all for t in results]
    print(f"  DDS asked the same question (OptimalOne, best card only): {spread(same)}")
    print(f"  DDS scoring every legal card (Default, all cards):        {spread(every)}")
    tables = [t.ours_table / t.dds_table for t in results]
    print(f"  whole table, CPU time (calc_dd_table, 20 results):        {spread(tables)}")
    total = sum(t.ours_table for t in results) / sum(t.dds_table for t in results)
    print(f"  whole tables, total CPU time over all deals: {total:.2f}x")
    print(
        "medians of time: "
        + ", ".join(
            f"{name} {statistics.median(values) * 1000:.2f} ms"
            for name, values in (
                ("ours", [t.ours for t in results]),
                ("DDS best card", [t.dds_one for t in results]),
                ("DDS all cards", [t.dds_all for t in results]),
                ("ours table CPU", [t.ours_table for t in results]),
                ("DDS table CPU", [t.dds_table for t in results]),
            )
        )
    )
    print(f"slowest deals for us against DDS asked the same question (top {args.slowest} by ratio):")
    for timing in sorted(results, key=lambda t: t.ours / t.dds_one, reverse=True)[: args.slowest]:
        print(
            f"  {timing.ours / timing.dds_one:7.1f}x  ours {timing.ours * 1000:8.1f} ms, "
            f"DDS {timing.dds_one * 1000:6.2f} ms  {timing.case.describe()}"
        )
    if failures:
        print(f"FAILED: {failures} disagreement(s) with DDS", file=sys.stderr)
        sys.exit(1)
    print("agreement: every answer and every table entry matches DDS")


if __name__ == "__main__":
    main()
