"""What inference from the bids buys and costs, on positions of real play.

Hands of Israeli Whist are played by four bots (``--bots``, the expert with a fixed number of
deals by default, so that the bids are a searching player's) and stopped at a random card of the
play. From each stopped position, the seat on move draws deals three ways: uniformly
(``whist.bots.sampling``), and by the bids with the basic estimate (``infer=1``) or the learned
estimator (``infer=2``) as the model of how the others bid (``whist.bots.inference``). It prints,
for each way, the share of the hidden cards a drawn deal puts in the hand that truly holds them
(the closer the deals are to the truth, the better the search's votes), the uniform draws made
a kept deal, and the CPU time a deal.

Run:  python bench/bid_inference.py [--positions 60] [--draws 20] [--seed 3] [--bots expert:deals=8]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from whist.bots.inference import InferringSampler
from whist.bots.registry import make_bot
from whist.bots.sampling import Deal, DealSampler
from whist.core.actions import Phase
from whist.core.games import make_game
from whist.core.state import HandState
from whist.core.views import SeatView, seat_view


def stopped_positions(count: int, seed: int, level: str) -> list[tuple[HandState, SeatView]]:
    game, rng = make_game("israeli"), random.Random(seed)
    bots = [make_bot(level, seed=f"{seed}-{seat}") for seat in range(game.players)]
    positions: list[tuple[HandState, SeatView]] = []
    hand = 0
    while len(positions) < count:
        state, stop = game.new_hand(hand % game.players, rng), rng.randrange(40)
        hand += 1
        while not state.is_terminal:
            if state.phase == Phase.PLAY:
                if stop == 0:
                    positions.append((state, seat_view(state, state.player)))
                    break
                stop -= 1
            state = state.apply(bots[state.player].choose(seat_view(state, state.player)))
    return positions


def measure(name: str, make: Callable[[SeatView], DealSampler | InferringSampler],
            positions: list[tuple[HandState, SeatView]], draws: int, seed: int) -> None:
    rng = random.Random(seed)
    placed: list[float] = []
    tries: list[float] = []
    seconds = 0.0
    for state, view in positions:
        others = [seat for seat in range(view.players) if seat != view.seat]
        hidden = sum(state.hands[seat].bit_count() for seat in others)
        start = time.thread_time()
        sampler = make(view)
        deals: list[Deal] = [sampler.sample(rng) for _ in range(draws)]
        seconds += time.thread_time() - start
        placed.extend(sum((deal[s] & state.hands[s]).bit_count() for s in others) / hidden for deal in deals)
        tries.append(sampler.tries / draws if isinstance(sampler, InferringSampler) else 1.0)
    per_deal = seconds / (len(positions) * draws) * 1e6
    print(f"{name:<22} cards placed right {statistics.mean(placed):.3f}   draws a kept deal: mean "
          f"{statistics.mean(tries):.1f}, 90th pct {sorted(tries)[int(0.9 * len(tries))]:.1f}   "
          f"{per_deal:.0f} us a deal")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--draws", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--bots", default="expert:deals=8")
    args = parser.parse_args()
    positions = stopped_positions(args.positions, args.seed, args.bots)
    print(f"{len(positions)} positions of Israeli Whist played by {args.bots}, {args.draws} deals drawn at each")
    measure("uniform", DealSampler, positions, args.draws, args.seed)
    measure("bids, basic estimate", InferringSampler, positions, args.draws, args.seed)
    measure("bids, learned", lambda view: InferringSampler(view, learned=True), positions, args.draws, args.seed)


if __name__ == "__main__":
    main()
