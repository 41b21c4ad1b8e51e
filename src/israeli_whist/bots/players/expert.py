"""The ``expert`` bot: searches every decision over deals consistent with what it has seen.

Perfect-information Monte Carlo (PIMC). For each decision it draws deals uniformly among those
consistent with its seat's view (``israeli_whist.bots.search.sampling``: cards played, suits shown out of,
Frisch cards passed and received, the stock) and with what it remembers (Classic Whist's
turned-up trump, in the dealer's hand until played), and on each deal it tries every distinct
choice:

- **Card play:** the rest of the hand is played out by a perfect-information policy
  (``israeli_whist.bots.search.playout``) and scored by the game's own scoring, so over/under, zero bids and
  the exact-contract aim count as they do at the table. In Classic Whist, once few tricks are
  left, the partnership double-dummy solver (``israeli_whist.bots.search.dd``) gives the exact number of
  tricks instead.
- **Contract bids, trump calls and Frisch passes:** the hand is finished from each choice,
  the other seats' calls, bids and passes made by the basic bot's rules as they would see them
  (``seat_view`` of the imagined deal), the cards by the same policy. The last-bidder rule and
  the declarer's minimum are the engine's: only legal choices are tried, and the imagined bids
  are legal too. In a Frisch, the seats that chose before this one are imagined choosing by
  the basic bot's rules, since their cards are hidden; the cards tried are the few the basic
  bot ranks least useful, and the trump calls tried are pass and the strains the hand might
  carry. A contract bid's value may get a slope, points for each trick it bids
  (``ExpertSettings.bid_slope``; the anytime expert's default is the game's, ``BID_SLOPES``):
  the policy ducks perfectly and plays greedily, so low bids look safer and high bids harder
  than they are at the table.

The same draws serve every choice of one decision (common random numbers), so choices are
compared on the same deals. Ties go to the basic bot's choice: the search only overrules the
rules of thumb when it finds something better. The bot's randomness comes only from its seed.

**The budget** (``ExpertSettings``). Without a time budget the search draws exactly the deals
it is given, so the same seed makes the same choices on any machine (``expert-2026`` is such a
fixed budget, ``expert:deals=64`` another). With a time budget in CPU seconds per decision
(``budget_settings``) it is anytime: it draws deals one at a time until the next one would not
fit, or until its deal cap; at least ``min_deals`` whatever the time, so that a tiny budget
still decides on some evidence. It then also races (``israeli_whist.bots.search.budget``): a candidate
clearly worse than the leader on the deals so far is dropped, so the time goes to the close
ones, and the search stops as soon as one candidate is left. More time also buys exact play:
in Classic Whist the double-dummy solver takes over from more tricks out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from israeli_whist.bots.judgement.basic_bidding import Outlook, estimate_tricks, frisch_ranking, nearest_contract
from israeli_whist.bots.judgement.basic_knowledge import deck_less_stock_card
from israeli_whist.bots.players.base import ActionValues, Bot
from israeli_whist.bots.players.basic import BasicBot
from israeli_whist.bots.search.budget import Clock, Pacer, Race
from israeli_whist.bots.search.dd import solve
from israeli_whist.bots.search.deal_scoring import CardScorer, DealBatches, compiled_scoring_available
from israeli_whist.bots.search.determinize import state_for
from israeli_whist.bots.search.individual import paranoid_value
from israeli_whist.bots.search.inference import (
    BASIC_BIDS,
    LEARNED_BIDS,
    NO_INFERENCE,
    BidLikelihood,
    CompiledBids,
    InferringSampler,
)
from israeli_whist.bots.search.playout import final_tricks, played_out
from israeli_whist.bots.search.sampling import DealSampler
from israeli_whist.core.actions import PASS, Action, Phase, bid_level, bid_strain, contract_tricks, is_bid
from israeli_whist.core.cards import SUIT_MASKS, cards_in
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView, seat_view, turned_card_visible


@dataclass(frozen=True)
class ExpertSettings:
    """The search budget. The defaults are ``expert-2026``'s: a fixed number of deals per card
    played, per bid or call and per Frisch pass, no time budget and no racing.

    With ``time_budget`` (CPU seconds a decision) the deal counts are caps: the search stops at
    whichever comes first, the time or the cap, after at least ``min_deals``. ``racing`` drops
    candidates that are clearly worse and stops once the choice is settled
    (``israeli_whist.bots.search.budget``). ``exact_tricks`` is the number of tricks left from which Classic
    Whist positions are solved exactly."""

    play_deals: int = 16
    bid_deals: int = 24
    exact_tricks: int = 4
    bid_window: int = 2  # contracts tried on each side of the basic bot's own bid
    frisch_deals: int = 10
    frisch_cards: int = 4  # Frisch passes tried: the basic bot's least useful cards
    time_budget: float | None = None
    min_deals: int = 8
    racing: bool = False
    ending_tricks: int = 0  # Israeli Whist and Whistiti: tricks left from which the ending is searched
    # Deals drawn by how likely they make the others' bids (israeli_whist.bots.search.inference), the bids modelled by
    # the basic bot's estimate (BASIC_BIDS) or the learned estimator (LEARNED_BIDS); NO_INFERENCE: uniform.
    bid_inference: int = NO_INFERENCE
    # Points added to a contract bid's value for each trick it bids, None for the game's own
    # (BID_SLOPES): the imagined play undervalues the higher bids against the lower ones.
    bid_slope: float | None = 0.0

    def with_deals(self, deals: int) -> ExpertSettings:
        """The same settings with ``deals`` deals (or a cap of that many) for every decision."""
        return replace(self, play_deals=deals, bid_deals=deals, frisch_deals=deals)


# Trump calls searched: a strain whose estimated tricks fall this far below the bid is hopeless.
CALL_REACH = 1.5
# Deals a decision may draw under a time budget: a bound for the candidates the race cannot
# tell apart (their values kept per deal), far above what 100 ms draws (some 50 to 200 deals).
DEAL_CAP = 2000
# Classic Whist: the tricks left from which the double-dummy solver plays, by the least time a
# decision may have (CPU seconds). Solving from 8 tricks out costs about 0.4 ms, from 10
# about 1 ms, a whole hand about 28 ms at the median (bench/journal.md, "The anytime expert").
EXACT_TRICKS_BY_BUDGET = ((1.0, 10), (0.3, 9), (0.1, 8), (0.03, 7), (0.0, 6))

# The anytime expert's slope for its contract bids, by game (``ExpertSettings.bid_slope``): measured
# in Whistiti's scoring against OpenSpiel's ISMCTS (bench/runs/ismcts-bidslope); Israeli Whist's is
# not measured, so it has none.
BID_SLOPES = {"whistiti": 1.5}

# The web table's expert: CPU seconds a decision (chosen from the strength curve and the
# server's capacity, docs/benchmarks.md).
DEFAULT_BUDGET = 0.1

_BASIC = BasicBot()
MEMO_LIMIT = 4096  # basic bot answers kept within one decision's search
# Deals a batch of the compiled card search (``_search_compiled``): about 0.1 ms of work, so a
# budget is overrun by no more than a deal of the Python search would overrun it.
BATCH_DEALS = 8


def budget_settings(seconds: float, base: ExpertSettings | None = None) -> ExpertSettings:
    """The anytime expert for ``seconds`` of CPU time a decision: racing, a large deal cap,
    exact Classic Whist endings from as many tricks out as the time allows, and (without
    ``base``) each game's own slope for its contract bids."""
    if not seconds > 0:
        raise ValueError(f"A time budget is a positive number of seconds, not {seconds}")
    exact = next(tricks for least, tricks in EXACT_TRICKS_BY_BUDGET if seconds >= least)
    settings = (base or replace(ExpertSettings(), bid_slope=None)).with_deals(DEAL_CAP)
    return replace(settings, time_budget=seconds, racing=True, exact_tricks=exact)


@dataclass(frozen=True)
class SearchReport:
    """What the last search did: the candidates it weighed, the deals it drew, the candidates
    still in the race at the end and the CPU time the whole decision took."""

    phase: Phase
    candidates: int
    deals: int
    left: int
    seconds: float


class ExpertBot(Bot):
    """Perfect-information Monte Carlo over sampled deals, for every decision of the three games."""

    level = "expert"
    settings = budget_settings(DEFAULT_BUDGET)

    def __init__(self, seed: int | str = 0, settings: ExpertSettings | None = None) -> None:
        super().__init__(seed)
        if settings is not None:
            self.settings = settings
        self.turned_card = -1  # Classic Whist: the trump card this seat saw turned up this hand
        self.last_search: SearchReport | None = None
        self.fallback: Action = PASS  # the choice where ``weigh`` had nothing to weigh

    def remembered(self, view: SeatView) -> dict[int, int]:
        """Cards this seat saw and no longer sees, that a seat surely still holds: Classic
        Whist's turned-up trump goes face down into the dealer's hand after the first trick."""
        if view.turned_card >= 0 or not view.tricks:  # every hand starts with the card on show
            self.turned_card = view.turned_card
        card = self.turned_card
        if (view.rules.traits.turned_card != "dealer" or card < 0 or view.seat == view.dealer
                or view.turned_card >= 0):
            return {}
        played = any(card in cards for _, cards, _ in view.tricks) or any(c == card for _, c in view.trick)
        return {} if played else {view.dealer: 1 << card}

    def choose(self, view: SeatView) -> Action:
        return self.choose_with_values(view)[0]

    def choose_with_values(self, view: SeatView) -> tuple[Action, ActionValues | None]:
        """The choice, and where the search ran, each candidate's mean value over the deals drawn:
        the seat's points for the hand, or in Classic Whist's card play its side's tricks (for a
        candidate dropped from the race, see ``Race.means``)."""
        self.last_search = None
        weighed = self.weigh(view)
        if weighed is None:
            return self.fallback, None
        return weighed.leader(), weighed.means()

    def weigh(self, view: SeatView, also: Sequence[Action] = (),
              scale: Callable[[float], float] | None = None) -> Race | None:
        """The search of one decision: its candidates (and the legal actions ``also``, which the
        review adds: a choice the expert would not have weighed) each scored on the same deals.
        None where there is nothing to weigh (one legal action, a phase without a search), the
        choice then in ``fallback``. ``scale`` maps each deal's score before it is counted (the
        review's points for Classic Whist's side tricks; it works on the Python search only)."""
        clock = Clock(self.settings.time_budget)
        remembered = self.remembered(view)
        legal = view.legal_actions
        if len(legal) == 1:
            self.fallback = legal[0]
            return None
        basic_choice = _BASIC.choose(view)
        self.fallback = basic_choice
        if view.phase == Phase.PLAY:
            candidates = distinct_cards(view)
            evaluate = self._card_value(view)
            deals = self.settings.play_deals
        elif view.phase == Phase.CONTRACT:
            candidates = contract_candidates(view, basic_choice, self.settings.bid_window)
            slope = self.settings.bid_slope
            evaluate = _finish_value(view.seat, BID_SLOPES.get(view.rules.GAME, 0.0) if slope is None else slope)
            deals = self.settings.bid_deals
        elif view.phase == Phase.AUCTION:
            candidates = call_candidates(view, basic_choice)
            evaluate = _finish_value(view.seat)
            deals = self.settings.bid_deals
        elif view.phase == Phase.FRISCH:
            candidates = frisch_ranking(view)[:self.settings.frisch_cards]
            evaluate = _finish_value(view.seat)
            deals = self.settings.frisch_deals
        else:
            return None
        candidates += [action for action in also if action not in candidates]
        if len(candidates) == 1:
            self.fallback = candidates[0]
            return None
        if scale is not None:
            evaluate = _scaled(evaluate, scale)
        race = Race(candidates, basic_choice, self.settings.racing)
        if view.phase == Phase.PLAY and scale is None and self._scores_in_c(view):
            self._search_compiled(view, race, deals, remembered, clock)
        else:
            self._search(view, race, evaluate, deals, remembered, clock)
        self.last_search = SearchReport(view.phase, len(candidates), race.deals, len(race.alive), clock.spent())
        return race

    def _search(self, view: SeatView, race: Race, evaluate: Callable[[HandState], float], deals: int,
                remembered: dict[int, int], clock: Clock) -> None:
        """Deals drawn one at a time, every candidate still in ``race`` scored on each, until the
        cap, the time (the last deal's cost must fit again) or a settled race stops it."""
        inference = self.settings.bid_inference
        sampler: DealSampler | InferringSampler | DealBatches
        if self.settings.time_budget is not None and compiled_scoring_available() and inference != LEARNED_BIDS:
            # The same deals, drawn in C (with infer=1 by the bids, as israeli_whist.bots.search.inference models them).
            sampler = DealBatches(DealSampler(view, remembered), bids=self._compiled_bids(view))
        elif inference != NO_INFERENCE:
            sampler = InferringSampler(view, remembered, learned=inference == LEARNED_BIDS)
        else:
            sampler = DealSampler(view, remembered)
        pacer = Pacer(clock)
        while race.deals < deals:
            if race.deals >= self.settings.min_deals and (race.settled() or not pacer.another_fits()):
                break
            state = position(view, sampler.sample(self.rng))
            race.add({action: evaluate(state.apply(action)) for action in race.alive})
            pacer.step_done()

    def _scores_in_c(self, view: SeatView) -> bool:
        """Whether this card play is searched in C (``israeli_whist.bots.search.deal_scoring``): the anytime
        expert in the individual games, its deals uniform (or, with ``infer=1``, by the bids as
        ``BidLikelihood`` models them) and its playouts the policy's. The
        fixed-deal searches (``expert-2026``, ``expert:deals=N``) stay on the Python path,
        whose choices for a seed are the same with or without a C compiler."""
        s = self.settings
        traits = view.rules.traits  # the compiled scoring knows individual contracts only
        return (s.time_budget is not None and not traits.partnerships and traits.contracts and not s.ending_tricks
                and s.bid_inference != LEARNED_BIDS and compiled_scoring_available())

    def _compiled_bids(self, view: SeatView) -> CompiledBids | None:
        """With ``infer=1``, the bid model for the deals drawn in C; otherwise None (uniform)."""
        if self.settings.bid_inference != BASIC_BIDS:
            return None
        return BidLikelihood(view).compiled_arguments()

    def _search_compiled(self, view: SeatView, race: Race, deals: int, remembered: dict[int, int],
                         clock: Clock) -> None:
        """``_search`` for the card play, the deals drawn and played out in C a batch at a
        time: a batch is checked against the clock and the race as one deal was (the race
        drops candidates at the same deals as it would one deal at a time)."""
        sampler = DealSampler(view, remembered)
        scorer = CardScorer(view, sampler, position(view, sampler.sample(self.rng)), self._compiled_bids(view))
        pacer = Pacer(clock)
        while race.deals < deals:
            if race.deals >= self.settings.min_deals and (race.settled() or not pacer.another_fits()):
                break
            short = self.settings.min_deals - race.deals  # the minimum first, then a batch at a time
            batch = min(short if short > 0 else BATCH_DEALS, deals - race.deals)
            alive = list(race.alive)
            race.add_many(alive, scorer.score(alive, batch, self.rng))
            pacer.step_done()

    def _card_value(self, view: SeatView) -> Callable[[HandState], float]:
        seat = view.seat
        if not view.rules.traits.partnerships:
            return self._own_points(view) if self.settings.ending_tricks else _finish_value(seat)
        exact = self.settings.exact_tricks

        def side_tricks(state: HandState) -> float:
            won = state.tricks_won[seat] + state.tricks_won[(seat + 2) % 4]
            left = state.hand_size - len(state.tricks)
            if state.is_terminal:
                return won
            if left > exact:
                final = final_tricks(state)
                return final[seat] + final[(seat + 2) % 4]
            return won + dd_side_tricks(state, seat)

        return side_tricks

    def _own_points(self, view: SeatView) -> Callable[[HandState], float]:
        """Israeli Whist and Whistiti with ``ending_tricks``: once that few tricks are left, the
        points the seat can be sure of against all the others (``individual.paranoid_value``)."""
        seat, ending = view.seat, self.settings.ending_tricks

        def points(state: HandState) -> float:
            if state.is_terminal or state.hand_size - len(state.tricks) > ending:
                return finish(state).scores()[seat]

            def score(tricks: int) -> int:
                won = state.tricks_won[:seat] + (tricks,) + state.tricks_won[seat + 1:]
                return state._replace(tricks_won=won, phase=Phase.OVER, player=-1, is_terminal=True).scores()[seat]

            return paranoid_value(state.hands, state.trump, state.leader, seat, score, state.trick,
                                  state.tricks_won[seat])

        return points


def position(view: SeatView, hands: tuple[int, ...]) -> HandState:
    """The imagined state of ``view`` with ``hands``. In a Frisch, the seats that chose before
    this one choose again by the basic bot's rules (what they chose is hidden), then this seat's
    own choices so far are made again."""
    state = state_for(view, hands)
    if view.phase != Phase.FRISCH:
        return state
    while state.player != view.seat:
        state = state.apply(_BASIC.choose(seat_view(state, state.player)))
    for card in cards_in(view.frisch_selected):
        state = state.apply(card)
    return state


def _scaled(evaluate: Callable[[HandState], float], scale: Callable[[float], float]) -> Callable[[HandState], float]:
    return lambda state: scale(evaluate(state))


def _finish_value(seat: int, slope: float = 0.0) -> Callable[[HandState], float]:
    """The seat's points once the hand is finished, plus ``slope`` for each trick of its
    contract (its own bid's calibration; 0 outside the contract bidding). The basic bot's
    calls, bids and passes are remembered for the decision's length: on one deal, the seats
    that choose after this one in a Frisch see the same view whichever card this seat passes,
    and the basic bot always answers a view the same way."""
    memo: dict[SeatView, Action] = {}

    def value(state: HandState) -> float:
        final = finish(state, memo)
        return final.scores()[seat] + (slope * max(final.contracts[seat], 0) if final.contracts else 0.0)

    return value


def finish(state: HandState, memo: dict[SeatView, Action] | None = None) -> HandState:
    """The hand played to its end: bids and calls by the basic bot's rules (answers kept in
    ``memo`` where given), cards by the policy."""
    while not state.is_terminal:
        if state.phase == Phase.PLAY:
            return played_out(state)
        if state.phase == Phase.CONTRACT:  # the basic bot's bid, without building the seat's view
            state = state.apply(basic_contract(state))
            continue
        view = seat_view(state, state.player)
        if memo is None:
            action = _BASIC.choose(view)
        else:
            action = memo.get(view, -1)
            if action < 0:
                if len(memo) >= MEMO_LIMIT:  # the views of earlier deals do not come back
                    memo.clear()
                action = memo[view] = _BASIC.choose(view)
        state = state.apply(action)
    return state


def basic_contract(state: HandState) -> Action:
    """What the basic bot bids for the seat on move: ``BasicBot.choose`` of its view, read from
    the state (a view costs more than the bid; ``test_expert`` holds the two equal)."""
    seat, legal = state.player, state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    hand, rules = state.hands[seat], state.game.rules
    shown = state.turned_card if turned_card_visible(state) else -1
    outlook = Outlook(state.players, state.hand_size, deck_less_stock_card(rules, shown) & ~hand)
    return nearest_contract(hand, state.trump, outlook, seat == state.declarer, rules, legal)


def dd_side_tricks(state: HandState, seat: int) -> int:
    """Tricks still to come that ``seat``'s side takes with best play by all (double dummy)."""
    on_move = state.player
    tricks = solve(state.hands, state.trump, state.leader, state.trick)
    left = max(hand.bit_count() for hand in state.hands)
    return tricks if on_move % 2 == seat % 2 else left - tricks


def distinct_cards(view: SeatView) -> list[Action]:
    """The legal cards, one of each run of equivalent ones (``card_runs``)."""
    return sorted(set(card_runs(view).values()))


def card_runs(view: SeatView) -> dict[Action, Action]:
    """Each legal card and the lowest card of its run: cards of a suit with no card between
    them that another seat may still hold, or that lies in the trick under way, win and lose
    the same tricks."""
    gone = view.hand
    for _, cards, _ in view.tricks:
        for card in cards:
            gone |= 1 << card
    runs: dict[Action, Action] = {}
    previous = -1
    for card in sorted(view.legal_actions):
        between = SUIT_MASKS[card // 13] & ((1 << card) - 1) & ~((2 << previous) - 1) if previous >= 0 else 0
        same_run = previous >= 0 and previous // 13 == card // 13 and not between & ~gone
        runs[card] = runs[previous] if same_run else card
        previous = card
    return runs


def contract_candidates(view: SeatView, basic_choice: Action, window: int) -> list[Action]:
    """Legal contracts near the basic bot's estimate, and zero where it may be bid."""
    around = contract_tricks(basic_choice)
    legal = view.legal_actions
    return [a for a in legal if abs(contract_tricks(a) - around) <= window or contract_tricks(a) == 0]


def call_candidates(view: SeatView, basic_choice: Action) -> list[Action]:
    """Pass, and the cheapest legal bid (a higher one only promises more) in each strain the
    hand might carry: the basic bot's estimate of its tricks there falls short of the bid's
    level by at most ``CALL_REACH``."""
    outlook = Outlook.from_view(view)
    cheapest: dict[int, Action] = {}
    for action in view.legal_actions:
        if is_bid(action):
            cheapest.setdefault(bid_strain(action), action)
    candidates = [PASS] + [action for strain, action in cheapest.items()
                           if estimate_tricks(view.hand, strain, outlook) - bid_level(action) >= -CALL_REACH]
    if basic_choice not in candidates:
        candidates.append(basic_choice)
    return candidates
