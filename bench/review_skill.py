"""Does the review measure skill? Games of each game played by a mix of levels (random, easy,
medium, expert: each seat a level, the levels rotated over the same deals so that every level
sits everywhere; ``review_games``), their hands reviewed without par (only the decisions), and
per level the mean cost per decision and the mean accuracy, with 95% intervals; then each
step's difference (random-easy, easy-medium, medium-expert), paired by hand, with its 95%
interval from a bootstrap over hands. The review measures skill where every step's interval
lies above zero, for the cost and for the accuracy, in every game.

Run:  python bench/review_skill.py [--games israeli,whistiti,classic] [--hands 200] [--deals N]
          [--seed 0] [--workers 2] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from israeli_whist.bots.review import ReviewSettings
from israeli_whist.cli.progress import progress
from review_games import GAMES, LEVELS, TITLES, Estimate, bootstrap, game_tasks, review_tasks, tallies

FIGURES = {"cost": ("mean cost per decision (points)", 3), "accuracy": ("mean accuracy per decision", 1)}


def run_game(game: str, hands: int, seed: str, settings: ReviewSettings, workers: int) -> dict[str, Any]:
    """One game's tables: per level and per step, for each figure."""
    started = time.monotonic()
    records, tasks = game_tasks(game, hands, seed, workers)
    played = time.monotonic()
    with progress(f"Reviewing {TITLES[game]}", "hands", total=len(tasks), every=30) as on_hand:
        reviews = review_tasks(records, tasks, seed, settings, False, workers, on_hand)
    table = tallies(reviews)
    result: dict[str, Any] = {"game": game, "hands": len(tasks), "games": len(records),
                              "decisions": {level: int(table.decisions[:, i].sum()) for i, level in enumerate(LEVELS)},
                              "play_seconds": round(played - started),
                              "review_seconds": round(time.monotonic() - played)}
    for figure in FIGURES:
        levels, steps = bootstrap(table, figure)
        result[figure] = {"levels": {level: asdict(e) for level, e in zip(LEVELS, levels, strict=True)},
                          "steps": {f"{a}-{b}": asdict(e) for a, b, e in zip(LEVELS, LEVELS[1:], steps, strict=False)}}
    return result


def print_game(result: dict[str, Any]) -> None:
    title = TITLES[result["game"]]
    counts = ", ".join(f"{level} {n}" for level, n in result["decisions"].items())
    print(f"\n{title}: {result['hands']} hands of {result['games']} games (played in {result['play_seconds']} s), "
          f"reviewed in {result['review_seconds']} s; decisions: {counts}")
    for figure, (label, digits) in FIGURES.items():
        print(f"  {label}, 95% CI:")
        for level, estimate in result[figure]["levels"].items():
            print(f"    {level:<8} {Estimate(**estimate).text(digits)}")
        word = "weaker less stronger" if figure == "cost" else "stronger less weaker"
        print(f"  each step ({word}), paired by hand, 95% bootstrap CI:")
        for step, estimate in result[figure]["steps"].items():
            e = Estimate(**estimate)
            print(f"    {step:<15} {e.text(digits)}  {'above zero' if e.low > 0 else 'NOT above zero'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--hands", type=int, default=200, help="hands reviewed in each game (at least)")
    parser.add_argument("--deals", type=int, default=None, help="deals drawn a decision (default: the review's)")
    parser.add_argument("--seed", default="0")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    settings = ReviewSettings() if args.deals is None else replace(ReviewSettings(), deals=args.deals)
    print(f"review_skill: --hands {args.hands}, {settings.deals} deals a decision, seed {args.seed}, "
          f"{args.workers} workers", flush=True)
    results = []
    for game in args.games.split(","):
        if game not in GAMES:
            parser.error(f"unknown game {game!r}: {', '.join(GAMES)}")
        results.append(run_game(game, args.hands, args.seed, settings, args.workers))
        print_game(results[-1])
        sys.stdout.flush()
    if args.json:
        args.json.write_text(json.dumps({"deals": settings.deals, "seed": args.seed, "games": results}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
