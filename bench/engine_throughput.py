"""Random full hands per second through the public API, beside OpenSpiel's oh_hell.

Every engine is driven the same way from Python: ask for the legal actions, pick one
uniformly with ``random.Random``, apply it, until the hand is over. OpenSpiel's chance
nodes (the deal) are sampled from ``chance_outcomes()`` the same way; ours deal from a
seed inside ``new_hand``. Time is the process's CPU time, and rounds alternate between the
engines with the median reported, because this shared machine's speed varies from minute
to minute.

Run:  python bench/engine_throughput.py [--seconds 2] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from whist.core.games import make_game

OPEN_SPIEL_OH_HELL = "oh_hell(players=4,num_tricks_fixed=12,off_bid_penalty=true,points_per_trick=5)"


def whist_hands(game_name: str, options: dict[str, str]) -> Callable[[random.Random], int]:
    game = make_game(game_name, None, options)

    def one_hand(rng: random.Random) -> int:
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


def hands_per_second(one_hand: Callable[[random.Random], int], seconds: float, seed: int) -> tuple[float, float]:
    """(hands per second, actions per hand) over about ``seconds`` of play."""
    rng = random.Random(seed)
    hands = actions = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(50):
            actions += one_hand(rng)
        hands += 50
        now = time.process_time()
        if now >= deadline:
            return hands / (now - start), actions / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per engine per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    engines = {
        "whist israeli (4 players, 13 tricks, auction + contracts)": whist_hands("israeli", {}),
        "whist whistiti (4 players, 12 tricks)": whist_hands("whistiti", {"schedule": "12"}),
        f"open_spiel {OPEN_SPIEL_OH_HELL}": open_spiel_hands(),
    }
    rates: dict[str, list[float]] = {name: [] for name in engines}
    lengths: dict[str, float] = {}
    for round_ in range(args.rounds):
        for name, one_hand in engines.items():
            rate, length = hands_per_second(one_hand, args.seconds, seed=round_)
            rates[name].append(rate)
            lengths[name] = length
    peer = statistics.median(rates[f"open_spiel {OPEN_SPIEL_OH_HELL}"])
    print(f"{'engine':<110} {'hands/s':>9} {'actions/hand':>12} {'vs oh_hell':>10}")
    for name in engines:
        median = statistics.median(rates[name])
        print(f"{name:<110} {median:>9.0f} {lengths[name]:>12.1f} {median / peer:>9.2f}x")
    print(f"(median of {args.rounds} alternating rounds of {args.seconds:g} s each; "
          f"rounds: " + "; ".join(f"{n.split()[1]} " + ", ".join(f"{r:.0f}" for r in rs)
                                  for n, rs in rates.items()) + ")")


if __name__ == "__main__":
    main()
