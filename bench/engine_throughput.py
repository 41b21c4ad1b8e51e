"""Random full hands per second through the public API, beside OpenSpiel's oh_hell.

Every engine is driven the same way from Python: ask for the legal actions, pick one
uniformly with ``random.Random``, apply it, until the hand is over. OpenSpiel's chance
nodes (the deal) are sampled from ``chance_outcomes()`` the same way; ours deal from a
seed inside ``new_hand``. Time is the process's CPU time, and the engines take turns every
few hands, because this shared machine's speed varies from minute to minute: each engine
then sees the same mix of fast and slow moments.

Our games run twice: with trick play compiled (``fastplay.pyx``, built by pip install where
a C compiler is at hand, and what the package uses then) and in pure Python (the fallback).

Run:  python bench/engine_throughput.py [--seconds 10] [--batch 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from israeli_whist.core.games import make_game
from israeli_whist.core.state import compiled_play_available, use_compiled_play

OPEN_SPIEL_OH_HELL = "oh_hell(players=4,num_tricks_fixed=12,off_bid_penalty=true,points_per_trick=5)"


def whist_hands(game_name: str, options: dict[str, str], compiled: bool) -> Callable[[random.Random], int]:
    """Hands of one of our games, with trick play compiled (fastplay.pyx) or in pure Python."""
    game = make_game(game_name, None, options)

    def one_hand(rng: random.Random) -> int:
        use_compiled_play(compiled)
        state = game.new_hand(0, rng)
        actions = 0
        while not state.is_terminal:
            state = state.apply(rng.choice(state.legal_actions()))
            actions += 1
        return actions

    return one_hand


def open_spiel_hands() -> Callable[[random.Random], int]:
    import pyspiel

    game = pyspiel.load_game(OPEN_SPIEL_OH_HELL)

    def one_hand(rng: random.Random) -> int:
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        return actions

    return one_hand


def interleaved_rates(engines: dict[str, Callable[[random.Random], int]], seconds: float,
                      batch: int) -> tuple[dict[str, float], dict[str, float], dict[str, list[float]]]:
    """Hands per second and actions per hand of each engine, and per-slice rates.

    The engines take turns in batches of ``batch`` hands, so that they share whatever the
    machine is doing at each moment; CPU time is summed per engine.
    """
    rngs = {name: random.Random(index) for index, name in enumerate(engines)}
    cpu = dict.fromkeys(engines, 0.0)
    hands = dict.fromkeys(engines, 0)
    actions = dict.fromkeys(engines, 0)
    slices: dict[str, list[float]] = {name: [] for name in engines}
    deadline = time.process_time() + seconds * len(engines)
    while time.process_time() < deadline:
        for name, one_hand in engines.items():
            rng = rngs[name]
            start = time.process_time()
            for _ in range(batch):
                actions[name] += one_hand(rng)
            spent = time.process_time() - start
            cpu[name] += spent
            hands[name] += batch
            slices[name].append(batch / spent if spent > 0 else float("inf"))
    rates = {name: hands[name] / cpu[name] for name in engines}
    lengths = {name: actions[name] / hands[name] for name in engines}
    return rates, lengths, slices


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per engine")
    parser.add_argument("--batch", type=int, default=20, help="hands per turn before the next engine runs")
    args = parser.parse_args()
    peer_name = f"open_spiel {OPEN_SPIEL_OH_HELL}"
    if not compiled_play_available():
        print("The compiled trick play was not built (no C compiler at install): both rows run pure Python.")
    engines = {
        "whist israeli (4 players, 13 tricks, auction + contracts)": whist_hands("israeli", {}, True),
        "whist whistiti (4 players, 12 tricks)": whist_hands("whistiti", {"schedule": "12"}, True),
        "whist israeli, pure Python": whist_hands("israeli", {}, False),
        "whist whistiti, pure Python": whist_hands("whistiti", {"schedule": "12"}, False),
        peer_name: open_spiel_hands(),
    }
    for one_hand in engines.values():  # warm up: first imports, lazily filled tables
        for _ in range(200):
            one_hand(random.Random(99))
    rates, lengths, slices = interleaved_rates(engines, args.seconds, args.batch)
    peer = rates[peer_name]
    print(f"{'engine':<100} {'hands/s':>8} {'actions/hand':>12} {'vs oh_hell':>10}")
    for name in engines:
        print(f"{name:<100} {rates[name]:>8.0f} {lengths[name]:>12.1f} {rates[name] / peer:>9.2f}x")
    # The spread of paired ratios shows how much the machine's speed moved during the run.
    for name in engines:
        if name == peer_name:
            continue
        paired = sorted(a / b for a, b in zip(slices[name], slices[peer_name], strict=False))
        low, high = paired[len(paired) // 10], paired[len(paired) * 9 // 10]
        print(f"{name.split(' (')[0]:<27}: ratio per turn, 10th-90th percentile {low:.2f}-{high:.2f}x, "
              f"median {statistics.median(paired):.2f}x over {len(paired)} turns")
    print(f"(CPU time, engines taking turns every {args.batch} hands, {args.seconds:g} s each)")


if __name__ == "__main__":
    main()
