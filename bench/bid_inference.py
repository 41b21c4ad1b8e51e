"""What inference from the bids buys and costs, on positions of real play.

Hands of Israeli Whist (or ``--game whistiti``) are played by four bots (``--bots``, the expert
with a fixed number of deals by default, so that the bids are a searching player's) and stopped
at a random card of the play. From each stopped position, the seat on move draws deals three
ways: uniformly (``israeli_whist.bots.search.sampling``), and by the bids with the basic estimate (``infer=1``)
or the learned estimator (``infer=2``) as the model of how the others bid
(``israeli_whist.bots.search.inference``); and, where the compiled module is built, the first two again in C as
the anytime expert draws them (``fastplayout.draw_deals``). It prints, for each way, the share
of the hidden cards a drawn deal puts in the hand that truly holds them (the closer the deals
are to the truth, the better the search's votes), the uniform draws made a kept deal (Python
only), and the CPU time a deal.

Run:  python bench/bid_inference.py [--game israeli] [--positions 60] [--draws 20] [--seed 3]
                                    [--bots expert:deals=8]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from israeli_whist.bots.players.registry import make_bot
from israeli_whist.bots.search.deal_scoring import DealBatches, compiled_scoring_available
from israeli_whist.bots.search.inference import BidLikelihood, InferringSampler
from israeli_whist.bots.search.sampling import Deal, DealSampler
from israeli_whist.core.actions import Phase
from israeli_whist.core.games import make_game
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView, seat_view


def stopped_positions(game_name: str, count: int, seed: int, level: str) -> list[tuple[HandState, SeatView]]:
    game, rng = make_game(game_name), random.Random(seed)
    bots = [make_bot(level, seed=f"{seed}-{seat}") for seat in range(game.players)]
    positions: list[tuple[HandState, SeatView]] = []
    hand = 0
    while len(positions) < count:
        state, stop = game.new_hand(hand % game.players, rng), rng.randrange(game.players * 10)
        hand += 1
        while not state.is_terminal:
            if state.phase == Phase.PLAY:
                hidden = any(state.hands[seat] for seat in range(game.players) if seat != state.player)
                if stop == 0 and hidden:  # a position with nothing hidden has nothing to draw
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
        start = time.thread_time()
        sampler = make(view)
        deals: list[Deal] = [sampler.sample(rng) for _ in range(draws)]
        seconds += time.thread_time() - start
        placed.extend(placed_right(state, view, deals))
        tries.append(sampler.tries / draws if isinstance(sampler, InferringSampler) else 1.0)
    print(f"{name:<22} cards placed right {statistics.mean(placed):.3f}   draws a kept deal: mean "
          f"{statistics.mean(tries):.1f}, 90th pct {sorted(tries)[int(0.9 * len(tries))]:.1f}   "
          f"{seconds / (len(positions) * draws) * 1e6:.0f} us a deal")


def measure_compiled(name: str, by_bids: bool, positions: list[tuple[HandState, SeatView]], draws: int,
                     seed: int) -> None:
    """The deals as the anytime expert draws them in C: uniform, or by the basic model of the bids."""
    rng = random.Random(seed)
    placed: list[float] = []
    seconds = 0.0
    for state, view in positions:
        start = time.thread_time()
        batches = DealBatches(DealSampler(view), batch=draws,
                              bids=BidLikelihood(view).compiled_arguments() if by_bids else None)
        deals = [batches.sample(rng) for _ in range(draws)]
        seconds += time.thread_time() - start
        placed.extend(placed_right(state, view, deals))
    print(f"{name:<22} cards placed right {statistics.mean(placed):.3f}   "
          f"{seconds / (len(positions) * draws) * 1e6:.1f} us a deal")


def placed_right(state: HandState, view: SeatView, deals: list[Deal]) -> list[float]:
    """For each deal, the share of the hidden cards it puts in the hand that holds them."""
    others = [seat for seat in range(view.players) if seat != view.seat]
    hidden = sum(state.hands[seat].bit_count() for seat in others)
    return [sum((deal[s] & state.hands[s]).bit_count() for s in others) / hidden for deal in deals]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("israeli", "whistiti"), default="israeli")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--draws", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--bots", default="expert:deals=8")
    args = parser.parse_args()
    positions = stopped_positions(args.game, args.positions, args.seed, args.bots)
    print(f"{len(positions)} positions of {args.game} played by {args.bots}, {args.draws} deals drawn at each")
    measure("uniform", DealSampler, positions, args.draws, args.seed)
    measure("bids, basic estimate", InferringSampler, positions, args.draws, args.seed)
    measure("bids, learned", lambda view: InferringSampler(view, learned=True), positions, args.draws, args.seed)
    if compiled_scoring_available():
        measure_compiled("uniform, in C", False, positions, args.draws, args.seed)
        measure_compiled("bids, basic, in C", True, positions, args.draws, args.seed)


if __name__ == "__main__":
    main()
