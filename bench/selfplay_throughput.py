"""Self-play decisions per second, and environment steps per second beside OpenSpiel's oh_hell.

Self-play (``israeli_whist.rl.selfplay``): bots of one level in every seat play hands, and every decision
becomes a Parquet row (observation, mask, values, points), written to a temporary folder. Each
level runs on one process, on a process pool of all cores, and on Ray with 2 local workers. Ray's
start and its workers' first imports are not counted: a cluster is started once for many runs.
Beside them, the same hands played by the same bots with no rows made, to show what rows cost.

Environments: random legal actions through the standard loop, stepped from Python:
``israeli_whist.rl.pettingzoo.env`` (``agent_iter``, ``last``, ``step``; every ``last`` builds the agent's
observation and mask), and OpenSpiel's ``oh_hell`` with its information-state tensor (it has no
observation tensor) and legal-action mask asked at every decision, so that both build what a
learner reads. Whistiti's ``oh_hell`` preset plays OpenSpiel's game (one hand of 12 cards,
off-bid penalty, the left of the dealer leads). A step is one action by a player; OpenSpiel's
deal (chance nodes) is not counted as steps, but its time is.

Times are wall-clock (the pool and Ray run several processes). Every measurement runs once in
each of ``--rounds`` rounds, in turns, and the median is reported with the range. Run:
    python bench/selfplay_throughput.py [--game israeli] [--seconds 5] [--rounds 3]
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from israeli_whist.bots.matches.runner import play_hand
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.core.match import deal_seed
from israeli_whist.rl.raybackend import RaySession
from israeli_whist.rl.selfplay import ChunkMapper, SelfPlaySpec, run_selfplay, selfplay_spec

OPEN_SPIEL_OH_HELL = "oh_hell(players=4,num_tricks_fixed=12,off_bid_penalty=true,points_per_trick=5)"
LEVELS = ("random", "basic", "expert")


def hands_for(level: str, game: str, seconds: float) -> int:
    """About ``seconds`` of one process's work at each level's speed on this machine's cores."""
    per_second = {"random": 120.0, "basic": 80.0, "expert": {"israeli": 0.8, "classic": 8.0, "whistiti": 20.0}[game]}
    return max(4, int(per_second[level] * seconds))


def selfplay_rate(spec: SelfPlaySpec, workers: int = 1, map_chunks: ChunkMapper | None = None) -> tuple[int, float]:
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        summary = run_selfplay(spec, Path(folder) / "data", workers, map_chunks)
        return summary.decisions, time.perf_counter() - start


def bots_alone_rate(spec: SelfPlaySpec) -> tuple[int, float]:
    """The same hands by the same bots, with no observation, mask or file made."""
    game = spec.build_game()
    decisions = 0
    start = time.perf_counter()
    for number in range(spec.hands):
        bots = {seat: make_bot(spec.seat_level(number, seat), f"{spec.seed}/{number}/{seat}")
                for seat in range(game.players)}
        hand = play_hand(game.new_hand(number % game.players, deal_seed(spec.seed, number), number), bots)
        decisions += len(hand.history)
    return decisions, time.perf_counter() - start


def pettingzoo_steps(game: str, options: dict[str, object], seconds: float) -> tuple[int, float]:
    from israeli_whist.rl.pettingzoo import env

    table = env(game, **options)
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    episode = 0
    while time.perf_counter() - start < seconds:
        table.reset(seed=episode)
        episode += 1
        for _agent in table.agent_iter():
            observation, _reward, terminated, truncated, _info = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            table.step(int(rng.choice(legal)))
            steps += 1
    return steps, time.perf_counter() - start


def open_spiel_steps(seconds: float) -> tuple[int, float]:
    import pyspiel

    game = pyspiel.load_game(OPEN_SPIEL_OH_HELL)
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            player = state.current_player()
            state.information_state_tensor(player)
            mask = state.legal_actions_mask(player)
            state.apply_action(rng.choice([a for a, legal in enumerate(mask) if legal]))
            steps += 1
    return steps, time.perf_counter() - start


def median_line(label: str, runs: list[tuple[int, float]], unit: str) -> str:
    """The median rate of the rounds, with the lowest and highest: this machine is shared, and the
    rounds let every configuration see the same mix of busy and quiet moments."""
    rates = sorted(count / seconds for count, seconds in runs)
    count = runs[0][0]
    return (f"| {label} | {count:,} | {statistics.median(rates):,.0f} {unit} | "
            f"{rates[0]:,.0f} - {rates[-1]:,.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="israeli", choices=("israeli", "classic", "whistiti"))
    parser.add_argument("--seconds", type=float, default=5.0, help="about this long for each measurement")
    parser.add_argument("--rounds", type=int, default=3, help="every measurement this many times, in turns")
    parser.add_argument("--levels", default=",".join(LEVELS))
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    specs = {level: selfplay_spec(args.game, [level], hands_for(level, args.game, args.seconds), seed=2026,
                                  chunk_hands=max(1, hands_for(level, args.game, args.seconds) // (4 * cores)))
             for level in args.levels.split(",")}
    started = time.perf_counter()
    with RaySession(cpus=2) as ray_session:
        ray_start = time.perf_counter() - started
        # Ray starts its workers, which import israeli_whist and pyarrow, at their first tasks: once, not per run.
        selfplay_rate(selfplay_spec(args.game, ["random"], 8, chunk_hands=1), 1, ray_session.map_unordered)
        measurements: dict[str, Callable[[], tuple[int, float]]] = {}
        for level, spec in specs.items():
            measurements[f"{level}, bots alone (no rows)"] = functools.partial(bots_alone_rate, spec)
            measurements[f"{level}, one process"] = functools.partial(selfplay_rate, spec, 1)
            measurements[f"{level}, {cores} processes"] = functools.partial(selfplay_rate, spec, cores)
            measurements[f"{level}, Ray, 2 local workers"] = functools.partial(
                selfplay_rate, spec, 1, ray_session.map_unordered)
        environments: dict[str, Callable[[], tuple[int, float]]] = {
            "israeli_whist.rl.pettingzoo `env('israeli')`": lambda: pettingzoo_steps("israeli", {}, args.seconds),
            "israeli_whist.rl.pettingzoo `env('whistiti', preset='oh_hell')`":
                lambda: pettingzoo_steps("whistiti", {"preset": "oh_hell"}, args.seconds),
            f"OpenSpiel `{OPEN_SPIEL_OH_HELL}`": lambda: open_spiel_steps(args.seconds),
        }
        runs: dict[str, list[tuple[int, float]]] = {label: [] for label in (*measurements, *environments)}
        for round_number in range(args.rounds):
            for label, measure in (*measurements.items(), *environments.items()):
                runs[label].append(measure())
                print(f"round {round_number + 1}: {label}: {runs[label][-1][0] / runs[label][-1][1]:,.0f}/s",
                      file=sys.stderr, flush=True)
    print(f"{args.game}, {cores} cores, {args.rounds} rounds; wall-clock; Ray started with 2 workers in "
          f"{ray_start:.1f} s (not counted)\n")
    print("| self-play | decisions a round | median decisions/s | range |\n|---|---:|---:|---:|")
    for label in measurements:
        print(median_line(label, runs[label], "decisions/s"))
    print("\n| environment, random actions | steps in the first round | median steps/s | range |\n"
          "|---|---:|---:|---:|")
    for label in environments:
        print(median_line(label, runs[label], "steps/s"))


if __name__ == "__main__":
    main()
