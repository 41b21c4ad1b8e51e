"""The anytime expert's strength curve: the expert at each CPU-time budget a decision against
itself at the next lower budget (or, with --reference, against a fixed level such as
``expert-2026``), in duplicate, per game.

Each match is a ``israeli_whist.bots.matches.tournament`` run: the same deals with the two bots in every seat
arrangement (Israeli Whist and Whistiti: the 6 seatings of two bots at four seats; Classic
Whist: each bot one side, both ways). It prints the mean points a hand of the first bot less
the second's, paired by deal, with its 95% confidence interval, and each side's CPU time per
decision with a choice (two or more legal actions): median and 90th percentile, and the mean
over all its decisions (what a server's CPU must supply), timed in the process that plays
(``time.thread_time``), so a busy machine slows the run but does not skew the times. Budgets
are anytime: the results depend on the machine's speed and are not reproducible to the last
hand.

Run:  python bench/expert_strength_curve.py [--games classic,whistiti,israeli]
          [--budgets 10ms,100ms,1s] [--hands 120] [--seed 0] [--workers 1] [--reference expert-2026]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any
from unittest import mock

from israeli_whist.bots.matches.tournament import (
    DealResult,
    TournamentSpec,
    play_deal,
    run_tournament,
    seat_arrangements,
    spec_from,
)
from israeli_whist.bots.players.expert import ExpertBot, ExpertSettings
from israeli_whist.bots.players.registry import parse_level
from israeli_whist.core.actions import Action
from israeli_whist.core.games import make_game
from israeli_whist.core.views import SeatView

TITLES = {"israeli": "Israeli Whist", "whistiti": "Whistiti", "classic": "Classic Whist"}
Times = dict[str, list[float]]  # CPU seconds of each decision with a choice, by the bot's settings


def settings_of(level: str) -> ExpertSettings:
    cls, settings = parse_level(level)
    if settings is None:
        settings = getattr(cls, "settings", None)
    if not isinstance(settings, ExpertSettings):
        raise SystemExit(f"{level} is not a searching level: its time cannot be told apart")
    return settings


def timed_deal(spec: TournamentSpec, deal: int) -> tuple[DealResult, Times]:
    """``play_deal``, with the CPU time of every expert decision, by settings: those with a
    choice under ``repr(settings)``, all of them (for the mean load) under ``repr(settings)/all``."""
    times: Times = defaultdict(list)
    choose = ExpertBot.choose

    def timed(bot: ExpertBot, view: SeatView) -> Action:
        start = time.thread_time()
        action = choose(bot, view)
        seconds = time.thread_time() - start
        times[f"{bot.settings!r}/all"].append(seconds)
        if len(view.legal_actions) > 1:
            times[repr(bot.settings)].append(seconds)
        return action

    with mock.patch.object(ExpertBot, "choose", timed):
        result = play_deal(spec, deal)
    return result, dict(times)


def run_match(spec: TournamentSpec, workers: int) -> tuple[dict[str, Any], Times]:
    """The tournament's summary, and the CPU times of its decisions by settings."""
    times: Times = defaultdict(list)

    def map_deals(_play: Callable[[int], DealResult], deals: Sequence[int]) -> Iterator[DealResult]:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(timed_deal, spec, deal) for deal in deals]
            for future in as_completed(futures):
                result, deal_times = future.result()
                for key, seconds in deal_times.items():
                    times[key].extend(seconds)
                yield result

    return run_tournament(spec, map_deals=map_deals).summary(), times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[int(fraction * (len(ordered) - 1))]


def figure(value: float | None, form: str = ".2f") -> str:
    """A figure of the summary; None where it is undefined (a CI needs two deals)."""
    return "n/a" if value is None else format(value, form)


def time_text(values: list[float]) -> str:
    if not values:
        return "no decisions"
    return (f"median {1000 * statistics.median(values):.1f} ms, 90th pct {1000 * percentile(values, 0.9):.1f} ms "
            f"over {len(values)} decisions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="classic,whistiti,israeli")
    parser.add_argument("--budgets", default="10ms,100ms,1s", help="comma-separated, lowest first")
    parser.add_argument("--hands", type=int, default=120, help="hands a match (rounded up to whole deals)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--reference", help="play each budget against this level instead of the next lower budget")
    parser.add_argument("--json", type=Path, help="also write every match's figures here")
    args = parser.parse_args()
    levels = [f"expert@{budget}" for budget in args.budgets.split(",")]
    if args.reference:
        pairs = [(level, args.reference) for level in levels]
    else:
        pairs = list(zip(levels[1:], levels[:-1], strict=True))
    records = []
    for game_name in args.games.split(","):
        game = make_game(game_name)
        arrangements = len(seat_arrangements(game.players, 2, game.rules.traits.partnerships))
        deals = -(-args.hands // arrangements)
        for high, low in pairs:
            spec = spec_from(game_name, [high, low], deals, args.seed)
            started = time.monotonic()
            summary, times = run_match(spec, args.workers)
            (difference,) = summary["differences"]
            low_ci, high_ci = difference["ci95"]
            print(f"{TITLES[game_name]}: {high} - {low} = {figure(difference['mean_difference'], '+.2f')} points a "
                  f"hand, 95% CI [{figure(low_ci)}, {figure(high_ci)}], {summary['hands_played']} hands "
                  f"({deals} deals x {arrangements}), {time.monotonic() - started:.0f} s", flush=True)
            record: dict[str, Any] = {"game": game_name, "first": high, "second": low, "deals": deals,
                                      "hands": summary["hands_played"], "difference": difference, "cpu_ms": {}}
            for level in (high, low):
                seconds = times.get(repr(settings_of(level)), [])
                every = times.get(f"{settings_of(level)!r}/all", [])
                mean = 1000 * statistics.fmean(every) if every else float("nan")
                print(f"  {level}: {time_text(seconds)}; mean over all {len(every)} decisions {mean:.1f} ms",
                      flush=True)
                record["cpu_ms"][level] = {"decisions": len(seconds), "all_decisions": len(every), "mean_all": mean} | (
                    {"median": 1000 * statistics.median(seconds), "p90": 1000 * percentile(seconds, 0.9)}
                    if seconds else {})
            records.append(record)
    if args.json:
        args.json.write_text(json.dumps(records, indent=2) + "\n")


if __name__ == "__main__":
    main()
