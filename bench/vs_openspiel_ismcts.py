"""Our expert bot against OpenSpiel's ISMCTS, at equal CPU time per decision and at ten times it.

Two matches on the same deals, four players, 12 cards each, scored as Whistiti is:

1. **oh_hell**: OpenSpiel's own ``oh_hell(players=4, num_tricks_fixed=12, off_bid_penalty=true,
   points_per_trick=5)`` and its C++ ISMCTS bot (``pyspiel.ISMCTSBot``, random rollouts, oh_hell's
   own resampler). Our expert plays through ``israeli_whist.rl.openspiel_ohhell``: its seat's view is
   rebuilt from the seat's information state each time.
2. **python_whistiti**: our registered game with the ``oh_hell`` preset (the same conventions:
   docs/rules-notes.md 25-26) and OpenSpiel's Python ISMCTS
   (``open_spiel.python.algorithms.ismcts``, random rollouts) with our exact deal sampler as its
   resampler (``israeli_whist.rl.openspiel_resample``).

Duplicate: each deal (the dealer and the 49 cards, the last turned up for trump) is played six
times, once for every choice of the two seats the expert takes; ISMCTS takes the other two. A
deal's score is the mean over its six hands of (expert's points - ISMCTS's points) a hand per
player; the result is the mean of those over the deals with a 95% t interval
(``israeli_whist.bots.matches.stats.mean_interval``), so the luck of the cards cancels.

Time is CPU time of this process (one core), per decision with two or more legal actions
(either side answers a forced play at once). First the expert plays calibration hands and its
decisions are timed; then ISMCTS's simulation count is set so its CPU time per decision on the
same positions is at least the expert's (or ten times it), and both sides are timed again in
the match itself, where the count is corrected after every deal so that ISMCTS's time so far
stays at or above its mark. The expert's time includes rebuilding its view from oh_hell's
information state.

Our side is ``--expert``, a level as ``israeli_whist.bots.players.registry.make_bot`` reads it: ``expert`` (the
anytime expert at its default CPU time a decision) by default, or ``expert@20ms``,
``expert:deals=64``, ``expert-2026`` (the fixed 16/24-deal search that was ``expert`` before).

Run:  python bench/vs_openspiel_ismcts.py [--hands 1000] [--seed 1] [--quick] [--match both]
                                          [--factors 1,10] [--expert expert]
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from israeli_whist.bots.matches.stats import MeanInterval, mean_interval
from israeli_whist.bots.players.base import Bot
from israeli_whist.bots.players.expert import ExpertBot
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.rl.openspiel import load
from israeli_whist.rl.openspiel_ohhell import oh_hell_action, oh_hell_view, our_card
from israeli_whist.rl.openspiel_resample import resampler

OH_HELL = "oh_hell(players=4,num_tricks_fixed=12,off_bid_penalty=true,points_per_trick=5)"
PLAYERS, TRICKS = 4, 12
SEATINGS = tuple(itertools.combinations(range(PLAYERS), 2))  # the expert's two seats, all six ways
MARGIN = 1.05  # ISMCTS's budget is set 5% above the time it must match: the match's own timing varies


@dataclass(frozen=True)
class Deal:
    """A deal as oh_hell draws it: the dealer and 49 cards (oh_hell numbering), player 0 first."""

    dealer: int
    cards: tuple[int, ...]


def draw_deals(count: int, rng: random.Random) -> list[Deal]:
    deals = []
    for _ in range(count):
        cards = rng.sample(range(52), PLAYERS * TRICKS + 1)
        deals.append(Deal(rng.randrange(PLAYERS), tuple(cards)))
    return deals


# The two games: how a deal is dealt, and how our expert takes a decision --------------------------


class OhHellMatch:
    name = "oh_hell: expert against OpenSpiel's C++ ISMCTS"
    game_text = OH_HELL

    def __init__(self, uct_c: float) -> None:
        self.game = pyspiel.load_game(OH_HELL)
        self.uct_c = uct_c
        self.view_seconds: list[float] = []  # of the expert's time: rebuilding its view
        self.last_value: float | None = None  # the expert's own value of its last choice, where it searched

    def deal(self, deal: Deal) -> pyspiel.State:
        state = self.game.new_initial_state()
        for action in (TRICKS, deal.dealer, *deal.cards):
            state.apply_action(action)
        return state

    def expert_action(self, bot: Bot, state: pyspiel.State) -> int:
        start = time.process_time()
        view = oh_hell_view(state, state.current_player())
        if len(view.legal_actions) > 1:
            self.view_seconds.append(time.process_time() - start)
        if not isinstance(bot, ExpertBot):
            return oh_hell_action(bot.choose(view))
        action, values = bot.choose_with_values(view)
        self.last_value = values.get(action) if values else None
        return oh_hell_action(action)

    def ismcts(self, simulations: int, seed: int) -> Callable[[pyspiel.State], int]:
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        bot = pyspiel.ISMCTSBot(seed, evaluator, self.uct_c, simulations, -1,
                                pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        return lambda state: int(bot.step(state))


class WhistitiMatch:
    name = "python_whistiti (oh_hell preset): expert against OpenSpiel's Python ISMCTS with our resampler"
    game_text = "python_whistiti (preset oh_hell: 4 players, 12 cards, first_lead=left_of_dealer)"

    def __init__(self, uct_c: float) -> None:
        self.games = [load("whistiti", preset="oh_hell", dealer=dealer) for dealer in range(PLAYERS)]
        self.uct_c = uct_c
        self.view_seconds: list[float] = []  # the view is the state's own here: nothing to rebuild
        self.last_value: float | None = None  # play_hand clears it; only the oh_hell match sets it

    def deal(self, deal: Deal) -> pyspiel.State:
        """The same cards to the same seats: ours deals from the dealer's left, oh_hell to player 0 first."""
        state = self.games[deal.dealer].new_initial_state()
        for j in range(PLAYERS * TRICKS):
            seat, k = (deal.dealer + 1 + j) % PLAYERS, j // PLAYERS
            state.apply_action(our_card(deal.cards[PLAYERS * k + seat]))
        state.apply_action(our_card(deal.cards[-1]))
        return state

    def expert_action(self, bot: Bot, state: pyspiel.State) -> int:
        return int(bot.choose(state.seat_view(state.current_player())))

    def ismcts(self, simulations: int, seed: int) -> Callable[[pyspiel.State], int]:
        bots: dict[int, Any] = {}
        resample = resampler(seed)

        def step(state: pyspiel.State) -> int:
            game = state.get_game()
            if game.dealer not in bots:
                evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
                bot = ismcts.ISMCTSBot(game, evaluator, self.uct_c, max(2, simulations),
                                       random_state=np.random.RandomState(seed))
                bot.set_resampler(resample)
                bots[game.dealer] = bot
            return int(bots[game.dealer].step(state))

        return step


Match = OhHellMatch | WhistitiMatch


# Playing and timing --------------------------------------------------------------------------------


@dataclass
class Clock:
    """CPU seconds of each decision with two or more legal actions, per side."""

    expert: list[float] = field(default_factory=list)
    ismcts: list[float] = field(default_factory=list)


PHASES = ("all", "bid", "play")  # where our bot decides in its seats (ISMCTS takes the rest)


def play_hand(match: Match, deal: Deal, expert_seats: Sequence[int], experts: Sequence[Bot],
              ismcts_step: Callable[[pyspiel.State], int], clock: Clock,
              positions: list[pyspiel.State] | None = None, ours: str = "all",
              bids: dict[int, tuple[int, float | None]] | None = None) -> list[float]:
    """The hand's points for each seat. ``bids``, where given, gets each seat's bid action less
    52 (oh_hell's bid) and, where the expert searched it, the expert's own value of that bid."""
    state = match.deal(deal)
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        bidding = min(legal) >= 52  # both games number the cards 0..51 and their bids above
        expert = seat in expert_seats and ours in ("all", "bid" if bidding else "play")
        if len(legal) > 1 and positions is not None:
            positions.append(state.clone())
        start = time.process_time()
        match.last_value = None
        action = match.expert_action(experts[seat], state) if expert else ismcts_step(state)
        spent = time.process_time() - start
        if len(legal) > 1:
            (clock.expert if expert else clock.ismcts).append(spent)
        if bidding and bids is not None:
            bids[seat] = (action - 52, match.last_value)
        state.apply_action(action)
    return list(state.returns())


def calibrate(match: Match, positions: Sequence[pyspiel.State], target: float, seed: int) -> tuple[int, float]:
    """A simulation count whose mean CPU time per decision over ``positions`` is at least
    ``target`` seconds, and that mean: from 2 simulations up, each try scaled by the time
    still missing (so it ends at or just above the smallest such count)."""
    simulations = 2  # the fewest with which ISMCTS has visited a child of the root
    for _ in range(12):
        step = match.ismcts(simulations, seed)
        start = time.process_time()
        for position in positions:
            step(position.clone())
        mean = (time.process_time() - start) / len(positions)
        if mean >= target:
            return simulations, mean
        simulations = max(simulations + 1, math.ceil(simulations * target * MARGIN / max(mean, 1e-9)))
    return simulations, mean


@dataclass
class Result:
    """A match: per deal, the mean over its seatings of expert - ISMCTS points a hand; per hand,
    each side's mean points; and the clock."""

    differences: list[float] = field(default_factory=list)
    expert_points: list[float] = field(default_factory=list)
    ismcts_points: list[float] = field(default_factory=list)
    clock: Clock = field(default_factory=Clock)
    simulations: list[int] = field(default_factory=list)  # ISMCTS's budget in each deal
    expert_made: int = 0  # seat-hands whose bid was made
    ismcts_made: int = 0
    seat_hands: list[SeatHand] = field(default_factory=list)  # with --by-place only


@dataclass(frozen=True)
class SeatHand:
    """One seat's hand in one seating: the deal's number, the seat's place in the bidding
    (0: first, 3: the dealer, last), who played it, its bid, its points, and the expert's own
    value of the bid where it searched (None for ISMCTS or a forced bid)."""

    deal: int
    place: int
    expert: bool
    bid: int
    points: float
    imagined: float | None


def run_match(match: Match, deals: Sequence[Deal], simulations: int, factor: int, seed: int, level: str,
              ours: str, calibrated: float, by_place: bool = False) -> Result:
    """Every deal with each of the six seatings. After each deal ISMCTS's simulation count is
    scaled by how far its CPU time per decision so far is from ``factor`` times the expert's so
    far (with ``MARGIN``): this shared machine's speed drifts, and the drift then falls on both.
    Where our bot decides only bids or only cards, its time in the calibration (``calibrated``,
    every decision) stays the mark."""
    experts = [make_bot(level, f"{seed}/expert/{seat}") for seat in range(PLAYERS)]
    result = Result()
    for number, deal in enumerate(deals):
        clock = result.clock
        if clock.ismcts:
            mark = statistics.fmean(clock.expert) if ours == "all" else calibrated
            wanted = factor * mark * MARGIN
            simulations = max(2, round(simulations * wanted / statistics.fmean(clock.ismcts)))
        result.simulations.append(simulations)
        step = match.ismcts(simulations, seed + number)
        per_seating = []
        for seats in SEATINGS:
            bids: dict[int, tuple[int, float | None]] = {}
            points = play_hand(match, deal, seats, experts, step, result.clock, ours=ours,
                               bids=bids if by_place else None)
            for seat, (bid, imagined) in bids.items():
                place = (seat - deal.dealer - 1) % PLAYERS
                result.seat_hands.append(SeatHand(number, place, seat in seats, bid, points[seat], imagined))
            mine = statistics.fmean(points[s] for s in seats)
            theirs = statistics.fmean(points[s] for s in range(PLAYERS) if s not in seats)
            result.expert_points.append(mine)
            result.ismcts_points.append(theirs)
            # A made bid scores 10 and more, a missed one -5 a trick or less.
            result.expert_made += sum(points[s] > 0 for s in seats)
            result.ismcts_made += sum(points[s] > 0 for s in range(PLAYERS) if s not in seats)
            per_seating.append(mine - theirs)
        result.differences.append(statistics.fmean(per_seating))
    return result


def interval_text(interval: MeanInterval) -> str:
    return f"{interval.mean:+.2f} [{interval.low:+.2f}, {interval.high:+.2f}]"


def report(label: str, result: Result) -> None:
    clock, differences = result.clock, result.differences
    expert_ms, ismcts_ms = 1000 * statistics.fmean(clock.expert), 1000 * statistics.fmean(clock.ismcts)
    expert_points, ismcts_points = result.expert_points, result.ismcts_points
    difference = mean_interval(differences)
    sims = result.simulations
    print(f"  {label}: ISMCTS {statistics.fmean(sims):.0f} simulations a decision on average "
          f"({min(sims)} to {max(sims)}, set deal by deal)")
    print(f"    CPU per decision in the match: expert {expert_ms:.2f} ms ({len(clock.expert)} decisions), "
          f"ISMCTS {ismcts_ms:.2f} ms ({len(clock.ismcts)}) = {ismcts_ms / expert_ms:.2f}x the expert's")
    print(f"    points a hand: expert {interval_text(mean_interval(expert_points))}, "
          f"ISMCTS {interval_text(mean_interval(ismcts_points))}")
    seat_hands = 2 * len(expert_points)
    print(f"    bids made: expert {100 * result.expert_made / seat_hands:.1f}%, "
          f"ISMCTS {100 * result.ismcts_made / seat_hands:.1f}% of {seat_hands} seat-hands each")
    print(f"    expert - ISMCTS a hand, paired by deal: {interval_text(difference)} (95% CI, {len(differences)} deals, "
          f"{len(expert_points)} hands)")
    if difference.low > 0:
        verdict = "the expert wins"
    elif difference.high < 0:
        verdict = "ISMCTS wins"
    else:
        verdict = "no clear winner (the interval holds 0)"
    print(f"    winner: {verdict}")


def report_by_place(result: Result) -> None:
    """Where the points go: by place in the bidding, the expert's points on a seat's cards less
    ISMCTS's on the same cards (paired by deal), and by bid, how often each side made it and
    what it scored, beside the expert's own value of the bid when it chose it."""
    print("    by place in the bidding (expert - ISMCTS on the same seat's cards, paired by deal):")
    for place in range(PLAYERS):
        hands = [h for h in result.seat_hands if h.place == place]
        per_deal: dict[int, tuple[list[float], list[float]]] = {}
        for hand in hands:
            per_deal.setdefault(hand.deal, ([], []))[0 if hand.expert else 1].append(hand.points)
        differences = [statistics.fmean(e) - statistics.fmean(i) for e, i in per_deal.values() if e and i]
        mine = [h for h in hands if h.expert]
        theirs = [h for h in hands if not h.expert]
        bid_gap = statistics.fmean(h.bid for h in mine) - statistics.fmean(h.bid for h in theirs)
        made_mine = 100 * sum(h.points > 0 for h in mine) / len(mine)
        made_theirs = 100 * sum(h.points > 0 for h in theirs) / len(theirs)
        name = ("first", "second", "third", "last (dealer)")[place]
        print(f"      {name:14} {interval_text(mean_interval(differences))}; expert's bid - ISMCTS's {bid_gap:+.2f}; "
              f"made {made_mine:.1f}% / {made_theirs:.1f}%")
    print("    by bid: seat-hands, made, mean points (expert: and its own mean value of the bid when chosen)")
    for bid in sorted({h.bid for h in result.seat_hands}):
        mine = [h for h in result.seat_hands if h.expert and h.bid == bid]
        theirs = [h for h in result.seat_hands if not h.expert and h.bid == bid]
        text = []
        for side, hands in (("expert", mine), ("ISMCTS", theirs)):
            if not hands:
                text.append(f"{side} none")
                continue
            made = 100 * sum(h.points > 0 for h in hands) / len(hands)
            line = f"{side} {len(hands)}, {made:.0f}%, {statistics.fmean(h.points for h in hands):+.2f}"
            imagined = [h.imagined for h in hands if h.imagined is not None]
            if imagined:
                line += f" (valued {statistics.fmean(imagined):+.2f} over {len(imagined)})"
            text.append(line)
        print(f"      bid {bid:2}: " + "; ".join(text))


def bench(match: Match, deals: Sequence[Deal], calibration: Sequence[Deal], seed: int, factors: Sequence[int],
          level: str, ours: str = "all", by_place: bool = False) -> None:
    print(f"\n{match.name}\n  game: {match.game_text}; ISMCTS uct_c {match.uct_c}, random rollouts; "
          f"our bot: {level}")
    if ours != "all":
        print(f"  our bot decides only the {'bids' if ours == 'bid' else 'cards'} of its seats; ISMCTS the rest")
    experts = [make_bot(level, f"{seed}/calibration/{seat}") for seat in range(PLAYERS)]
    clock, positions = Clock(), list[pyspiel.State]()
    for deal in calibration:  # the expert in every seat; ISMCTS is never asked
        play_hand(match, deal, range(PLAYERS), experts, lambda state: 0, clock, positions)
    expert_time = statistics.fmean(clock.expert)
    rebuilding = f", of which {1000 * statistics.fmean(match.view_seconds):.2f} ms rebuilding its view" \
        if match.view_seconds else ""
    print(f"  calibration: expert {1000 * expert_time:.2f} ms CPU a decision{rebuilding} ({len(clock.expert)} "
          f"decisions, {len(calibration)} hands)")
    sample = random.Random(seed).sample(positions, min(len(positions), 120))
    for factor in factors:
        simulations, mean = calibrate(match, sample, factor * expert_time, seed)
        print(f"  ISMCTS at {factor}x: {simulations} simulations, {1000 * mean:.2f} ms a decision on "
              f"{len(sample)} calibration positions")
        start = time.time()
        result = run_match(match, deals, simulations, factor, seed, level, ours, expert_time, by_place)
        report(f"at {factor}x the expert's time", result)
        if by_place:
            report_by_place(result)
        if ours != "all":
            print("    (our bot's decisions here are only its bids or only its cards: ISMCTS's mark stays "
                  f"{factor}x the expert's time over every decision in the calibration)")
        print(f"    ({time.time() - start:.0f} s wall)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1000, help="hands per match and budget (6 per deal)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="12 hands, 1 calibration hand: a smoke test")
    parser.add_argument("--match", choices=("oh_hell", "whistiti", "both"), default="both")
    parser.add_argument("--uct-c", type=float, default=10.0, help="ISMCTS's exploration constant")
    parser.add_argument("--factors", default="1,10", help="ISMCTS's CPU time as multiples of the expert's")
    parser.add_argument("--calibration-hands", type=int, default=8)
    parser.add_argument("--ours", choices=PHASES, default="all",
                        help="where our bot decides in its seats: everything, or only the bids or the cards "
                             "(ISMCTS decides the rest): which part of the game wins or loses")
    parser.add_argument("--expert", default="expert", help="our bot's level, as israeli_whist.bots.make_bot reads it:"
                        " expert (its default time a decision), expert@20ms, expert:deals=64, expert-2026")
    parser.add_argument("--by-place", action="store_true",
                        help="oh_hell only: also the points by place in the bidding and by bid")
    args = parser.parse_args()
    if args.by_place and args.match != "oh_hell":
        parser.error("--by-place reads oh_hell's bids: give --match oh_hell")
    hands = 12 if args.quick else args.hands
    rng = random.Random(args.seed)
    deals = draw_deals(math.ceil(hands / len(SEATINGS)), rng)
    calibration = draw_deals(1 if args.quick else args.calibration_hands, rng)
    factors = [int(f) for f in args.factors.split(",")]
    make_bot(args.expert)  # a bad level is refused before any hand is played
    print(f"{len(deals)} deals x {len(SEATINGS)} seatings = {len(deals) * len(SEATINGS)} hands a match; "
          f"seed {args.seed}")
    if args.match in ("oh_hell", "both"):
        bench(OhHellMatch(args.uct_c), deals, calibration, args.seed, factors, args.expert, args.ours,
              args.by_place)
    if args.match in ("whistiti", "both"):
        bench(WhistitiMatch(args.uct_c), deals, calibration, args.seed, factors, args.expert, args.ours)


if __name__ == "__main__":
    main()
