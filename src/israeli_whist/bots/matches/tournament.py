"""Duplicate tournaments between bot levels: the same deals, replayed with the bots in every
seat arrangement, so that the luck of the cards cancels out.

The scheme (``seat_arrangements``):

- **Partnerships** (Classic Whist): exactly two bots, each one a side: ``ABAB`` (A in seats 0
  and 2) and ``BABA``.
- **Individual games** (Israeli Whist, Whistiti) with ``k`` bots in ``n`` seats (2 <= k <= n):
  every seating in which each bot holds ``n // k`` or ``n // k + 1`` seats. For 4 seats and
  2 bots that is the six seatings with two of each (AABB, ABAB, ABBA, BAAB, BABA, BBAA); for 3
  seats and 2 bots the six with 2 + 1. The set is closed under permuting seats and under
  renaming bots, so every bot sits in every seat equally often and meets every mix of opponents
  equally often.

Deal ``d`` is dealt from the seed ``f"{seed}/{d}"`` (as ``Match`` does) by dealer ``d % n``, as
hand number ``d`` (the Whistiti schedule cycles by it). An Israeli Whist deal that is cancelled
(no bid after the last Frisch) is redealt by the same dealer from ``f"{seed}/{d}/r{k}"``; such
deals are counted apart. A bot in seat ``s`` of arrangement ``a`` on deal ``d`` is seeded
``f"{seed}/{d}/{a}/{s}"``, so results do not depend on how many workers run the deals.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass, field
from typing import Any

from israeli_whist.bots.matches.processes import process_pool
from israeli_whist.bots.matches.runner import play_hand
from israeli_whist.bots.matches.stats import MeanInterval, mean_interval
from israeli_whist.bots.players.base import Bot
from israeli_whist.bots.players.registry import check_level, make_bot
from israeli_whist.core.actions import Action, Phase
from israeli_whist.core.cards import strain_name
from israeli_whist.core.errors import WhistError
from israeli_whist.core.games import make_game
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.match import deal_seed
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView

MAX_ARRANGEMENTS = 720
MAX_REDEALS = 100
Seating = tuple[int, ...]  # the index (into the tournament's bots) of the bot in each seat
# Runs ``play`` on each deal number, yielding the results in any order (see ``run_tournament``).
DealMapper = Callable[[Callable[[int], "DealResult"], Sequence[int]], Iterable["DealResult"]]


class TournamentError(WhistError):
    """A tournament that cannot be run as asked (bad bots, too many arrangements)."""


@dataclass(frozen=True)
class TournamentSpec:
    """Everything that decides a tournament's results."""

    game: str
    levels: tuple[str, ...]
    deals: int
    seed: int = 0
    preset: str | None = None
    options: tuple[tuple[str, str], ...] = ()

    def build_game(self) -> HandGame:
        return make_game(self.game, self.preset, dict(self.options))

    @property
    def labels(self) -> tuple[str, ...]:
        """A name for each bot: its level, numbered when a level plays more than once (basic, basic#2)."""
        seen: dict[str, int] = {}
        names = []
        for level in self.levels:
            seen[level] = seen.get(level, 0) + 1
            names.append(level if seen[level] == 1 else f"{level}#{seen[level]}")
        return tuple(names)


@dataclass(frozen=True)
class HandRow:
    """One hand played in one arrangement of one deal."""

    deal: int
    arrangement: int
    seating: Seating
    dealer: int
    redeals: int  # cancelled deals before this one was played
    trump: int
    over_under: str | None
    contracts: tuple[int, ...]  # empty in Classic Whist
    tricks: tuple[int, ...]
    points: tuple[int, ...]  # Classic Whist: the side's points, honours included


@dataclass(frozen=True)
class DealResult:
    deal: int
    rows: tuple[HandRow, ...]
    decision_times: tuple[tuple[float, ...], ...]  # per bot: seconds each of its decisions took


@dataclass(frozen=True)
class BotSummary:
    label: str
    mean: MeanInterval  # points per hand; the interval over the per-deal means
    seat_hands: int
    contracts: int
    contracts_made: int
    zero_bids: int
    zero_bids_made: int
    over: tuple[int, float, int]  # hands, mean points, contracts made in over hands
    under: tuple[int, float, int]

    def as_dict(self) -> dict[str, Any]:
        return {
            "bot": self.label, "mean_per_hand": _finite(self.mean.mean),
            "ci95": [_finite(self.mean.low), _finite(self.mean.high)], "seat_hands": self.seat_hands,
            "contracts": self.contracts, "contracts_made": self.contracts_made,
            "contracts_made_pct": _percent(self.contracts_made, self.contracts),
            "zero_bids": self.zero_bids, "zero_bids_made": self.zero_bids_made,
            "zero_bids_made_pct": _percent(self.zero_bids_made, self.zero_bids),
            "over_hands": _split_dict(self.over), "under_hands": _split_dict(self.under),
        }


@dataclass(frozen=True)
class Difference:
    first: str
    second: str
    mean: MeanInterval  # of the per-deal differences first - second

    def as_dict(self) -> dict[str, Any]:
        return {"first": self.first, "second": self.second, "mean_difference": _finite(self.mean.mean),
                "ci95": [_finite(self.mean.low), _finite(self.mean.high)], "deals": self.mean.count,
                "above_zero": self.mean.above_zero()}


@dataclass(frozen=True)
class DecisionTime:
    label: str
    decisions: int
    mean_ms: float
    median_ms: float


@dataclass(frozen=True)
class TournamentResult:
    spec: TournamentSpec
    arrangements: tuple[Seating, ...]
    rows: tuple[HandRow, ...]
    bots: tuple[BotSummary, ...]
    differences: tuple[Difference, ...]
    decision_times: tuple[DecisionTime, ...] = field(compare=False)  # wall-clock, so not reproducible

    @property
    def cancelled_deals(self) -> int:
        return sum(row.redeals for row in self.rows)

    def summary(self) -> dict[str, Any]:
        """The results as JSON-ready data; everything but ``decision_time`` is reproducible."""
        spec = self.spec
        return {
            "game": spec.game, "preset": spec.preset, "options": dict(spec.options), "levels": list(spec.levels),
            "bots": list(spec.labels), "deals": spec.deals, "seed": spec.seed,
            "arrangements": ["".join(chr(ord("A") + b) for b in seating) for seating in self.arrangements],
            "hands_played": len(self.rows), "cancelled_deals": self.cancelled_deals,
            "results": [bot.as_dict() for bot in self.bots],
            "differences": [difference.as_dict() for difference in self.differences],
            "decision_time": {t.label: {"decisions": t.decisions, "mean_ms": t.mean_ms, "median_ms": t.median_ms}
                              for t in self.decision_times},
        }


# Seat arrangements -----------------------------------------------------------------------------


def is_partnership(game: HandGame) -> bool:
    return game.rules.traits.partnerships


def seat_arrangements(players: int, bots: int, partnership: bool = False) -> tuple[Seating, ...]:
    """Every seating of the scheme in the module's docstring, in lexicographic order.

    >>> seat_arrangements(4, 2, partnership=True)
    ((0, 1, 0, 1), (1, 0, 1, 0))
    >>> ["".join("AB"[b] for b in s) for s in seat_arrangements(4, 2)]
    ['AABB', 'ABAB', 'ABBA', 'BAAB', 'BABA', 'BBAA']
    """
    if bots < 2:
        raise TournamentError(f"A tournament needs at least two bots, not {bots}")
    if partnership:
        if players != 4 or bots != 2:
            raise TournamentError(f"A partnership game takes exactly two bots, one for each side, not {bots}")
        return ((0, 1, 0, 1), (1, 0, 1, 0))
    if bots > players:
        raise TournamentError(f"{bots} bots do not fit {players} seats")
    low, extra = divmod(players, bots)
    per_counts = math.factorial(players) // (math.factorial(low) ** (bots - extra) * math.factorial(low + 1) ** extra)
    total = math.comb(bots, extra) * per_counts
    if total > MAX_ARRANGEMENTS:
        raise TournamentError(f"{bots} bots in {players} seats need {total} seat arrangements per deal "
                              f"(at most {MAX_ARRANGEMENTS}); use fewer bots")
    seatings: list[Seating] = []
    for with_extra in itertools.combinations(range(bots), extra):
        counts = [low + (b in with_extra) for b in range(bots)]
        seatings.extend(_multiset_orders(counts, players))
    return tuple(sorted(seatings))


def _multiset_orders(counts: list[int], length: int) -> Iterator[Seating]:
    if length == 0:
        yield ()
        return
    for bot, count in enumerate(counts):
        if count:
            counts[bot] -= 1
            for rest in _multiset_orders(counts, length - 1):
                yield (bot, *rest)
            counts[bot] += 1


# Playing ---------------------------------------------------------------------------------------


def check_spec(spec: TournamentSpec) -> tuple[Seating, ...]:
    """The seat arrangements of ``spec``; raises ``WhistError`` for bad bots, deals or rules."""
    for level in spec.levels:
        check_level(level)  # a name, or a budget as in expert@100ms
    if spec.deals < 1:
        raise TournamentError(f"A tournament needs at least one deal, not {spec.deals}")
    game = spec.build_game()
    return seat_arrangements(game.players, len(spec.levels), is_partnership(game))


_GAMES: dict[TournamentSpec, HandGame] = {}


def play_deal(spec: TournamentSpec, deal: int) -> DealResult:
    """Deal ``deal`` of the tournament, played once in every seat arrangement."""
    game = _GAMES.get(spec)
    if game is None:
        game = _GAMES.setdefault(spec, spec.build_game())
    arrangements = seat_arrangements(game.players, len(spec.levels), is_partnership(game))
    times: list[list[float]] = [[] for _ in spec.levels]
    rows = tuple(_play_arrangement(spec, game, deal, index, seating, times)
                 for index, seating in enumerate(arrangements))
    return DealResult(deal, rows, tuple(tuple(t) for t in times))


class TimedBot(Bot):
    """A bot whose decisions are timed, each one added to ``times``."""

    def __init__(self, bot: Bot, times: list[float]) -> None:  # no randomness of its own: ``bot`` decides
        self.bot = bot
        self.times = times

    def choose(self, view: SeatView) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view)
        self.times.append(time.perf_counter() - start)
        return action


def _play_arrangement(spec: TournamentSpec, game: HandGame, deal: int, index: int, seating: Seating,
                      times: list[list[float]]) -> HandRow:
    n = game.players
    bots = {seat: TimedBot(make_bot(spec.levels[seating[seat]], f"{spec.seed}/{deal}/{index}/{seat}"),
                           times[seating[seat]]) for seat in range(n)}
    dealer = deal % n
    for redeals in range(MAX_REDEALS):
        seed = deal_seed(spec.seed, deal) if redeals == 0 else f"{deal_seed(spec.seed, deal)}/r{redeals}"
        hand = play_hand(game.new_hand(dealer, seed, deal), bots)
        if hand.phase != Phase.CANCELLED:
            return _row(game, hand, deal, index, seating, redeals)
    raise TournamentError(f"Deal {deal} was cancelled {MAX_REDEALS} times in a row")


def _row(game: HandGame, hand: HandState, deal: int, index: int, seating: Seating, redeals: int) -> HandRow:
    # Honours (Classic Whist) as at the start of a game: the hand is scored on its own.
    points, _ = game.match_points(hand, (0, 0))
    return HandRow(deal, index, seating, hand.dealer, redeals, hand.trump, hand.over_under,
                   tuple(hand.contracts), tuple(hand.tricks_won), tuple(points))


def run_tournament(spec: TournamentSpec, workers: int | None = None,
                   on_progress: Callable[[int, int], None] | None = None,
                   map_deals: DealMapper | None = None) -> TournamentResult:
    """Play every deal in every arrangement on ``workers`` processes (default: all cores; 1 plays
    here) and summarize. ``on_progress(done, total)`` is called after each deal.

    ``map_deals`` runs the deals elsewhere instead (``israeli_whist.rl.raybackend``: on Ray): given
    ``play`` and the deal numbers, it yields ``play(deal)`` of each, in any order. Each deal is
    seeded on its own, so where it runs does not change the results."""
    arrangements = check_spec(spec)
    workers = max(1, workers or os.cpu_count() or 1)
    results: list[DealResult] = []
    if map_deals is not None:
        for result in map_deals(functools.partial(play_deal, spec), range(spec.deals)):
            results.append(result)
            if on_progress is not None:
                on_progress(len(results), spec.deals)
    elif workers == 1:
        for deal in range(spec.deals):
            results.append(play_deal(spec, deal))
            if on_progress is not None:
                on_progress(len(results), spec.deals)
    else:
        with process_pool(min(workers, spec.deals)) as pool:
            futures = [pool.submit(play_deal, spec, deal) for deal in range(spec.deals)]
            for future in as_completed(futures):
                results.append(future.result())
                if on_progress is not None:
                    on_progress(len(results), spec.deals)
    results.sort(key=lambda result: result.deal)
    return summarize(spec, arrangements, results)


# Statistics ------------------------------------------------------------------------------------


def summarize(spec: TournamentSpec, arrangements: tuple[Seating, ...],
              results: Sequence[DealResult]) -> TournamentResult:
    labels = spec.labels
    rows = tuple(row for result in results for row in result.rows)
    per_deal = deal_means(rows, len(labels))
    bots = tuple(_bot_summary(labels[bot], bot, rows, [means[bot] for means in per_deal.values()])
                 for bot in range(len(labels)))
    differences = tuple(
        Difference(labels[a], labels[b], mean_interval([means[a] - means[b] for means in per_deal.values()]))
        for a, b in itertools.combinations(range(len(labels)), 2))
    timing = []
    for bot, label in enumerate(labels):
        seconds = [t for result in results for t in result.decision_times[bot]]
        seconds.sort()
        middle = len(seconds) // 2
        median = (seconds[middle] if len(seconds) % 2 else (seconds[middle - 1] + seconds[middle]) / 2) \
            if seconds else math.nan
        mean = math.fsum(seconds) / len(seconds) if seconds else math.nan
        timing.append(DecisionTime(label, len(seconds), mean * 1000, median * 1000))
    return TournamentResult(spec, arrangements, rows, bots, differences, tuple(timing))


def deal_means(rows: Sequence[HandRow], bots: int) -> dict[int, tuple[float, ...]]:
    """Per deal, each bot's mean points over the seats it held in all arrangements of that deal.

    >>> row = HandRow(0, 0, (0, 1, 0, 1), 0, 0, 0, None, (), (), (10, -5, 20, 5))
    >>> deal_means([row], 2)
    {0: (15.0, 0.0)}
    """
    sums: dict[int, list[float]] = {}
    counts: dict[int, list[int]] = {}
    for row in rows:
        deal_sums = sums.setdefault(row.deal, [0.0] * bots)
        deal_counts = counts.setdefault(row.deal, [0] * bots)
        for seat, bot in enumerate(row.seating):
            deal_sums[bot] += row.points[seat]
            deal_counts[bot] += 1
    return {deal: tuple(s / c if c else math.nan for s, c in zip(sums[deal], counts[deal], strict=True))
            for deal in sorted(sums)}


def _bot_summary(label: str, bot: int, rows: Sequence[HandRow], means: Sequence[float]) -> BotSummary:
    seat_hands = contracts = made = zeros = zeros_made = 0
    split: dict[str, list[int]] = {"over": [0, 0, 0], "under": [0, 0, 0]}  # hands, points, made
    for row in rows:
        for seat, holder in enumerate(row.seating):
            if holder != bot:
                continue
            seat_hands += 1
            if not row.contracts:
                continue
            contract = row.contracts[seat]
            hit = row.tricks[seat] == contract
            contracts += 1
            made += hit
            zeros += contract == 0
            zeros_made += contract == 0 and hit
            if row.over_under in split:
                tally = split[row.over_under]
                tally[0] += 1
                tally[1] += row.points[seat]
                tally[2] += hit
    return BotSummary(label, mean_interval(means), seat_hands, contracts, made, zeros, zeros_made,
                      _split(split["over"]), _split(split["under"]))


def _split(tally: list[int]) -> tuple[int, float, int]:
    hands, points, made = tally
    return hands, points / hands if hands else math.nan, made


def _split_dict(split: tuple[int, float, int]) -> dict[str, Any]:
    hands, mean, made = split
    return {"seat_hands": hands, "mean_points": _finite(mean), "contracts_made_pct": _percent(made, hands)}


def _percent(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 2) if whole else None


def _finite(value: float) -> float | None:
    """JSON has no NaN: an undefined figure is null."""
    return None if math.isnan(value) else value


def csv_header(players: int) -> list[str]:
    header = ["deal", "arrangement", "dealer", "redeals", "trump", "over_under"]
    for seat in range(players):
        header += [f"bot{seat}", f"contract{seat}", f"tricks{seat}", f"points{seat}"]
    return header


def trump_text(trump: int) -> str:
    """The trump as results.csv writes it: C, D, H, S, NT, or empty when the hand had none yet."""
    return strain_name(trump) if trump >= 0 else ""


def csv_rows(result: TournamentResult) -> Iterator[list[Any]]:
    """results.csv: one row per hand played, with each seat's bot, contract, tricks and points."""
    labels = result.spec.labels
    for row in result.rows:
        cells: list[Any] = [row.deal, row.arrangement, row.dealer, row.redeals, trump_text(row.trump),
                            row.over_under or ""]
        for seat, bot in enumerate(row.seating):
            contract = row.contracts[seat] if row.contracts else ""
            cells += [labels[bot], contract, row.tricks[seat], row.points[seat]]
        yield cells


def spec_from(game: str, levels: Sequence[str], deals: int, seed: int = 0, preset: str | None = None,
              options: Mapping[str, str] | None = None) -> TournamentSpec:
    return TournamentSpec(game, tuple(levels), deals, seed, preset, tuple(sorted((options or {}).items())))
