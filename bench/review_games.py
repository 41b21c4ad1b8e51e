"""What the review benchmarks share: games played by a mix of bot levels, their hands reviewed in
a pool of processes (one hand a task, as the server's review jobs split a game), and the
statistics: each level's mean cost per decision and mean accuracy, with 95% intervals from a
bootstrap over hands (a hand is the unit: its decisions are not independent of each other).

The games: each of the four levels (``LEVELS``) takes one seat; a game is played four times
with the same seed (the same deals), the levels rotated a seat each time, so that every level
sits everywhere on the same cards and a hand holds a decision of every level to pair.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass
from typing import Any

import numpy as np

from israeli_whist.bots.matches.processes import process_pool
from israeli_whist.bots.matches.runner import play_to_end
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.bots.review import ReviewSettings, merge_hands, review_hand, review_json
from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match
from israeli_whist.core.records import to_record

LEVELS = ("random", "easy", "medium", "expert")  # weakest first: the order the review should find
GAMES = ("israeli", "whistiti", "classic")
TITLES = {"israeli": "Israeli Whist", "whistiti": "Whistiti", "classic": "Classic Whist"}
ROTATIONS = len(LEVELS)
BOOTSTRAP = 2000  # resamples of the hands


def seat_levels(rotation: int) -> list[str]:
    """The level in each seat for one rotation: rotation r moves every level r seats on."""
    return [LEVELS[(seat - rotation) % ROTATIONS] for seat in range(ROTATIONS)]


def play_game(game_name: str, seed: str, rotation: int) -> dict[str, Any]:
    """A whole game of the default rules, the levels seated by ``rotation``, as a record whose
    players are named by their level (by seat: ``review_json``'s ``players``)."""
    game = make_game(game_name)
    match = Match.start(game, seed)
    levels = seat_levels(rotation)
    bots = {seat: make_bot(level, f"{seed}/{rotation}/{seat}") for seat, level in enumerate(levels)}
    match = play_to_end(match, bots)
    names = [""] * game.players
    for seat, player in enumerate(match.seating):
        names[player] = levels[seat]
    return to_record(match, names)


def spread(count: int, available: int) -> list[int]:
    """``count`` hand numbers of 1..``available``, evenly spread (Whistiti's hands grow from one
    card to thirteen: the first few alone would be the smallest)."""
    if count >= available:
        return list(range(1, available + 1))
    if count == 1:
        return [1]
    return sorted({1 + round(i * (available - 1) / (count - 1)) for i in range(count)})


@dataclass(frozen=True)
class Task:
    record: dict[str, Any]
    game_index: int  # the record's place in the list of games
    number: int  # the hand's


def game_tasks(game_name: str, hands: int, seed: str, workers: int = 1) -> tuple[list[dict[str, Any]], list[Task]]:
    """Games of ``game_name`` in rotated sets of four, played in a pool of ``workers`` processes,
    and at least ``hands`` of their hands to review: the same hand numbers in the four games of
    a set (the same deals, each level in each seat). The sets are taken in order, so the games
    and hands do not depend on ``workers``."""
    records: list[dict[str, Any]] = []
    tasks: list[Task] = []
    first = 0
    with process_pool(workers) as pool:
        while len(tasks) < hands:
            batch = range(first, first + 2 * workers)  # a few sets at once, so that every worker plays
            played = {(s, r): pool.submit(play_game, game_name, f"{seed}/{game_name}/{s}", r)
                      for s in batch for r in range(ROTATIONS)}
            for game_set in batch:
                if len(tasks) >= hands:
                    break
                games = [played[game_set, r].result() for r in range(ROTATIONS)]
                # Each rotated game holds the same deals, but a game to a target may end sooner in one.
                available = min(len(g["hands"]) for g in games)
                numbers = spread(min(available, math.ceil((hands - len(tasks)) / ROTATIONS)), available)
                for game in games:
                    records.append(game)
                    tasks.extend(Task(game, len(records) - 1, n) for n in numbers)
            first = batch.stop
    return records, tasks


def _review_one(task: Task, seed: str, settings: ReviewSettings, par: bool) -> tuple[int, Any]:
    return task.game_index, review_hand(task.record, task.number, seed=seed, settings=settings, par=par)


def review_tasks(records: Sequence[dict[str, Any]], tasks: Sequence[Task], seed: str, settings: ReviewSettings,
                 par: bool, workers: int, on_hand: Callable[[int, int], None] | None = None
                 ) -> list[dict[str, Any]]:
    """Each task's hand reviewed in a pool of ``workers`` processes; the reviews of each game
    merged (``merge_hands``) and returned as ``review_json`` documents, the games in order."""
    by_game: dict[int, list[Any]] = {}
    with process_pool(workers) as pool:
        futures = [pool.submit(_review_one, task, seed, settings, par) for task in tasks]
        for done, future in enumerate(as_completed(futures), start=1):
            index, hand = future.result()
            by_game.setdefault(index, []).append(hand)
            if on_hand is not None:
                on_hand(done, len(futures))
    reviews = []
    for index in sorted(by_game):
        hands = sorted(by_game[index], key=lambda h: h.number)
        reviews.append(review_json(merge_hands(records[index], hands, settings)))
    return reviews


# Statistics ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandTallies:
    """Per hand reviewed, per level (``LEVELS``' order): decisions, their cost and accuracy summed."""

    decisions: np.ndarray  # (hands, levels)
    cost: np.ndarray
    accuracy: np.ndarray


def decisions_by_level(reviews: Sequence[dict[str, Any]]) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """(hand unit, level index, decision) for every decision listed; a hand unit counts the
    reviewed hands in order."""
    unit = 0
    for review in reviews:
        levels = [LEVELS.index(name) for name in review["players"]]
        for hand in review["hands"]:
            for decision in hand["decisions"]:
                yield unit, levels[decision["seat"]], decision
            unit += 1


def tallies(reviews: Sequence[dict[str, Any]]) -> HandTallies:
    units = sum(len(r["hands"]) for r in reviews)
    decisions, cost, accuracy = (np.zeros((units, ROTATIONS)) for _ in range(3))
    for unit, level, decision in decisions_by_level(reviews):
        decisions[unit, level] += 1
        cost[unit, level] += decision["cost"]
        accuracy[unit, level] += decision["accuracy"]
    return HandTallies(decisions, cost, accuracy)


@dataclass(frozen=True)
class Estimate:
    """A figure with its 95% bootstrap interval (percentiles)."""

    value: float
    low: float
    high: float

    def text(self, digits: int = 2) -> str:
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


def per_decision(sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Each level's sum over its decisions divided by their count (the last axis: levels)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        found: np.ndarray = sums.sum(axis=-2) / counts.sum(axis=-2)
    return found


def bootstrap(table: HandTallies, figure: str, seed: int = 0, resamples: int = BOOTSTRAP
              ) -> tuple[list[Estimate], list[Estimate]]:
    """``figure`` per decision for each level, and each step's difference, with 95% intervals
    from resampling the hands with replacement: a hand's decisions of every level are drawn
    together, so the differences are paired by hand. A step's difference is the one that
    should be above zero: the weaker level's cost less the stronger's, the stronger level's
    accuracy less the weaker's."""
    sums = getattr(table, figure)
    sign = 1 if figure == "cost" else -1
    observed = per_decision(sums, table.decisions)
    draws = np.random.default_rng(seed).integers(0, len(sums), size=(resamples, len(sums)))
    resampled = per_decision(sums[draws], table.decisions[draws])  # (resamples, levels)
    steps = sign * (resampled[:, :-1] - resampled[:, 1:])
    observed_steps = sign * (observed[:-1] - observed[1:])

    def estimate(value: float, column: np.ndarray) -> Estimate:
        low, high = np.nanpercentile(column, [2.5, 97.5])
        return Estimate(float(value), float(low), float(high))

    levels = [estimate(observed[i], resampled[:, i]) for i in range(ROTATIONS)]
    differences = [estimate(observed_steps[i], steps[:, i]) for i in range(ROTATIONS - 1)]
    return levels, differences
