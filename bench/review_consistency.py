"""Is the review consistent? The same games (a mix of levels, as ``review_skill.py`` plays them)
reviewed twice with different seeds (other deals drawn for every decision): the share of
decisions whose verdict class (none, inaccuracy, mistake, blunder) changes, of all decisions
and of those with a verdict in either review; and the mean cost of the expert's own decisions
by the review's measure, which should be near zero: the review values each option as the
expert would play on, so the expert's choice is usually its best, and what it costs is the
two searches' sampling differences. Each with a 95% interval from a bootstrap over hands.

Run:  python bench/review_consistency.py [--games israeli,whistiti,classic] [--hands 48] [--deals N]
          [--seeds 0,1] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from israeli_whist.bots.review import ReviewSettings
from israeli_whist.cli.progress import progress
from review_games import GAMES, LEVELS, TITLES, Estimate, decisions_by_level, game_tasks, review_tasks

EXPERT = LEVELS.index("expert")
CLASSES = (None, "inaccuracy", "mistake", "blunder")  # a decision's verdict class, in order
GAME_SEED = "consistency"  # the games' (their deals and the bots' choices); the reviews' seeds are --seeds
RESAMPLES = 2000


def ratio(numerators: np.ndarray, denominators: np.ndarray, seed: int = 0) -> Estimate:
    """Σ numerators / Σ denominators over hands, with a 95% bootstrap interval over hands."""
    observed = numerators.sum() / denominators.sum()
    draws = np.random.default_rng(seed).integers(0, len(numerators), size=(RESAMPLES, len(numerators)))
    with np.errstate(invalid="ignore", divide="ignore"):
        resampled = numerators[draws].sum(axis=1) / denominators[draws].sum(axis=1)
    low, high = np.nanpercentile(resampled, [2.5, 97.5])
    return Estimate(float(observed), float(low), float(high))


@dataclass(frozen=True)
class Consistency:
    decisions: int
    changed: Estimate  # share of all decisions whose verdict class changed
    changed_of_judged: Estimate  # ... of those with a verdict in either review
    jumped: Estimate  # share of all decisions whose class moved two or more (none to mistake, ...)
    expert_cost: Estimate  # mean cost of the expert's own decisions, over both reviews
    expert_judged: Estimate  # share of the expert's decisions with a verdict, over both reviews


def compare(first: Sequence[dict[str, Any]], second: Sequence[dict[str, Any]]) -> Consistency:
    """The two reviews of the same games, decision by decision (by hand and step)."""
    units = sum(len(r["hands"]) for r in first)
    columns = ("decisions", "changed", "jumped", "judged", "expert", "expert_cost", "expert_judged")
    tally = {name: np.zeros(units) for name in columns}
    again = {(unit, d["step"]): d for unit, _, d in decisions_by_level(second)}
    for unit, level, decision in decisions_by_level(first):
        other = again[(unit, decision["step"])]
        verdicts = decision["verdict"], other["verdict"]
        tally["decisions"][unit] += 1
        tally["changed"][unit] += verdicts[0] != verdicts[1]
        tally["jumped"][unit] += abs(CLASSES.index(verdicts[0]) - CLASSES.index(verdicts[1])) >= 2
        tally["judged"][unit] += any(verdicts)
        if level == EXPERT:
            tally["expert"][unit] += 2  # the expert's decision, in each review
            tally["expert_cost"][unit] += decision["cost"] + other["cost"]
            tally["expert_judged"][unit] += bool(verdicts[0]) + bool(verdicts[1])
    return Consistency(int(tally["decisions"].sum()), ratio(tally["changed"], tally["decisions"]),
                       ratio(tally["changed"], tally["judged"]), ratio(tally["jumped"], tally["decisions"]),
                       ratio(tally["expert_cost"], tally["expert"]),
                       ratio(tally["expert_judged"], tally["expert"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--hands", type=int, default=48, help="hands reviewed in each game (at least)")
    parser.add_argument("--deals", type=int, default=None, help="deals drawn a decision (default: the review's)")
    parser.add_argument("--seeds", default="0,1", help="the two review seeds")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args(argv)
    seeds = args.seeds.split(",")
    if len(seeds) != 2 or seeds[0] == seeds[1]:
        parser.error("--seeds takes two different seeds, like 0,1")
    settings = ReviewSettings() if args.deals is None else replace(ReviewSettings(), deals=args.deals)
    print(f"review_consistency: --hands {args.hands}, {settings.deals} deals a decision, review seeds "
          f"{seeds[0]} and {seeds[1]}, {args.workers} workers", flush=True)
    for game in args.games.split(","):
        if game not in GAMES:
            parser.error(f"unknown game {game!r}: {', '.join(GAMES)}")
        started = time.monotonic()
        records, tasks = game_tasks(game, args.hands, GAME_SEED, args.workers)
        reviews = []
        for seed in seeds:
            with progress(f"Reviewing {TITLES[game]} with seed {seed}", "hands", total=len(tasks), every=30) as on:
                reviews.append(review_tasks(records, tasks, seed, settings, False, args.workers, on))
        found = compare(*reviews)
        print(f"\n{TITLES[game]}: {len(tasks)} hands, {found.decisions} decisions, reviewed twice in "
              f"{time.monotonic() - started:.0f} s; 95% bootstrap CIs over hands")
        print(f"  verdict class changed, of all decisions:          {_percent(found.changed)}")
        print(f"  verdict class changed, of those with a verdict:   {_percent(found.changed_of_judged)}")
        print(f"  class moved by two or more, of all decisions:     {_percent(found.jumped)}")
        print(f"  the expert's own decisions: mean cost (points)    {found.expert_cost.text(3)}")
        print(f"  the expert's own decisions with a verdict:        {_percent(found.expert_judged)}")
    return 0


def _percent(estimate: Estimate) -> str:
    return f"{100 * estimate.value:.1f}% [{100 * estimate.low:.1f}%, {100 * estimate.high:.1f}%]"


if __name__ == "__main__":
    raise SystemExit(main())
