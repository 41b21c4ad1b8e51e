"""The expert's card search in Israeli Whist and Whistiti: deals a second in C against Python.

The same search both ways: a fixed number of deals (no racing, no time limit), every distinct
card of the seat on move scored on each deal by playing the hand out with the policy. The
Python path (``ExpertBot._search``: ``DealSampler.sample``, a state per deal, ``state.apply``,
the compiled playout, the game's scoring, the race one deal at a time) is what the expert ran
until 2026-12-02 and still runs for its fixed-deal levels; the compiled path
(``ExpertBot._search_compiled``, ``fastplayout.score_deals``) is what the anytime expert runs.
Positions: the card play of random hands (bids and cards by the basic bot), every trick.
Each position is searched both ways, the order alternating, in CPU time of this process.
Printed per game: the CPU time a position each way (median, p90, max) and the ratio of the
Python path's time to the compiled one's, position by position (median, p90, min).

Run:  python bench/expert_card_search.py [--positions 60] [--deals 400] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from israeli_whist.bots.players.expert import ExpertBot, ExpertSettings, _finish_value, distinct_cards
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.bots.search.budget import Clock, Race
from israeli_whist.core.actions import Phase
from israeli_whist.core.games import make_game
from israeli_whist.core.views import SeatView, seat_view


def positions(game_name: str, count: int, rng: random.Random) -> list[SeatView]:
    game = make_game(game_name)
    basic = make_bot("basic")
    found: list[SeatView] = []
    while len(found) < count:
        state = game.new_hand(rng.randrange(game.players), rng.randrange(1 << 30), hand_number=rng.randrange(12))
        while not state.is_terminal and len(found) < count:
            view = seat_view(state, state.player)
            if state.phase == Phase.PLAY and len(distinct_cards(view)) > 1 and rng.random() < 0.3:
                found.append(view)
            state = state.apply(basic.choose(view))
    return found


def timed(view: SeatView, deals: int, compiled: bool) -> float:
    bot = ExpertBot(0, ExpertSettings(play_deals=deals, min_deals=deals))
    race = Race(distinct_cards(view), distinct_cards(view)[0], racing=False)
    start = time.process_time()
    if compiled:
        bot._search_compiled(view, race, deals, {}, Clock(None))
    else:
        bot._search(view, race, _finish_value(view.seat), deals, {}, Clock(None))
    spent = time.process_time() - start
    assert race.deals == deals
    return spent


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{args.positions} positions a game, {args.deals} deals each, CPU time of one process")
    for game_name in ("israeli", "whistiti"):
        python, compiled, ratios = [], [], []
        for k, view in enumerate(positions(game_name, args.positions, rng)):
            order = (False, True) if k % 2 else (True, False)
            times = {flag: timed(view, args.deals, flag) for flag in order}
            python.append(times[False])
            compiled.append(times[True])
            ratios.append(times[False] / times[True])
        for label, values in (("python", python), ("compiled", compiled)):
            print(f"{game_name:8s} {label:8s}: median {1e3 * statistics.median(values):7.2f} ms,"
                  f" p90 {1e3 * percentile(values, 0.9):7.2f} ms, max {1e3 * max(values):7.2f} ms a position,"
                  f" {args.deals / statistics.median(values):9.0f} deals/s at the median")
        print(f"{game_name:8s} python / compiled, position by position: median {statistics.median(ratios):5.1f}x,"
              f" p90 {percentile(ratios, 0.9):5.1f}x, min {min(ratios):5.1f}x")


if __name__ == "__main__":
    main()
