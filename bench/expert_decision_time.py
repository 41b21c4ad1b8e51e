"""How long the expert bot thinks per decision at its default settings, beside OpenSpiel's
ISMCTS bot on ``oh_hell`` (Whistiti's scoring) measured in the same run.

Whole hands are played with the expert in every seat; every decision it makes is timed in
CPU time of this one process (so one core). Decisions with a single legal action are answered
at once; the median is given over all decisions and over those with a real choice, and the mean
(what a server's CPU carries). The peer
is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with random rollouts and the simulation
budget given (100 by default), playing every seat of 12-trick ``oh_hell`` hands.

Run:  python bench/expert_decision_time.py [--hands 6] [--peer-hands 2] [--peer-simulations 100]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from israeli_whist.bots.players.expert import ExpertBot
from israeli_whist.core.games import make_game
from israeli_whist.core.views import seat_view

GAMES = {"israeli": "Israeli Whist", "whistiti": "Whistiti", "classic": "Classic Whist"}
OH_HELL = "oh_hell(players=4,num_tricks_fixed=12,off_bid_penalty=true,points_per_trick=5)"


def expert_times(game_name: str, hands: int, seed: int) -> dict[str, list[float]]:
    """CPU seconds of each expert decision, by phase ('choice' holds those with 2+ actions)."""
    game = make_game(game_name)
    times: dict[str, list[float]] = defaultdict(list)
    for h in range(hands):
        bots = [ExpertBot(f"{seed}/{h}/{seat}") for seat in range(game.players)]
        # Whistiti's hand size follows the hand number: these run through its schedule.
        state = game.new_hand(h % game.players, f"{seed}/{h}", hand_number=h)
        while not state.is_terminal:
            view = seat_view(state, state.player)
            start = time.process_time()
            action = bots[state.player].choose(view)
            spent = time.process_time() - start
            times["all"].append(spent)
            if len(view.legal_actions) > 1:
                times["choice"].append(spent)
                times[state.phase.name.lower()].append(spent)
            state = state.apply(action)
    return times


def ismcts_times(hands: int, simulations: int, seed: int) -> list[float]:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(OH_HELL)
    rng = random.Random(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                           random_state=np.random.RandomState(seed))
    times: list[float] = []
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, chances)[0])
                continue
            start = time.process_time()
            action = bot.step(state)
            times.append(time.process_time() - start)
            state.apply_action(action)
    return times


def line(name: str, values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (f"  {name:<8} {len(values):5d} decisions   median {1000 * statistics.median(values):7.1f} ms   "
            f"90th pct {1000 * p90:7.1f} ms   max {1000 * ordered[-1]:7.1f} ms   "
            f"mean {1000 * statistics.fmean(values):7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=6, help="hands per game, the expert in every seat")
    parser.add_argument("--peer-hands", type=int, default=2)
    parser.add_argument("--peer-simulations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    medians = {}
    for name, title in GAMES.items():
        times = expert_times(name, args.hands, args.seed)
        print(f"expert, {title}, {args.hands} hands:")
        for phase in ("all", "choice", "auction", "contract", "play"):
            if times.get(phase):
                print(line(phase, times[phase]))
        medians[name] = statistics.median(times["choice"])
    peer = ismcts_times(args.peer_hands, args.peer_simulations, args.seed)
    print(f"OpenSpiel ISMCTS ({args.peer_simulations} simulations, random rollouts), oh_hell, {args.peer_hands} hands:")
    print(line("all", peer))
    peer_median = statistics.median(peer)
    for name, title in GAMES.items():
        print(f"{title}: expert median per real decision {1000 * medians[name]:.1f} ms; "
              f"ratio to ISMCTS median {medians[name] / peer_median:.2f}")
    worst = max(medians.values())
    print(f"Largest expert median per real decision: {1000 * worst:.1f} ms (limit 1000 ms): "
          f"{'within' if worst <= 1.0 else 'OVER'} the limit")


if __name__ == "__main__":
    main()
