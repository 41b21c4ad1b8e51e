"""Game analysis: what perfect-information search says of every card played in a saved game,
and what a bot would have called, passed and bid in each player's place.

After the game every card is known, so each card is judged on the real deal:

- **Classic Whist** (partnerships): the double-dummy solver (``israeli_whist.bots.search.dd``) gives the most
  tricks the player's side takes in the hand after each legal card.
- **Israeli Whist and Whistiti** (each for their own contract): ``paranoid_value`` gives the
  final score the player can be sure of after each legal card, the others playing against them
  (the concept of ``israeli_whist.bots.search.individual``), scored by the game's own rules.

A card's cost is the best legal card's value less the played card's value: an error costs
more than zero. Only positions with at most ``max_tricks`` tricks left are analysed; earlier
cards are "not analysed". By default that is the whole hand, except where the paranoid search
runs in Python (the install could not compile it), which could not answer in time. The
compiled paranoid search has a budget of positions for each card played (for the best value,
the card's own and whether each other card reaches the best: ``card_judgement``): a card whose
search runs out is "not proven" (not judged) rather than given a value the search could not
show.

Calls, Frisch passes and contract bids are put to a bot (``expert`` by default) with the acting
seat's view at that moment, as it would have seen them at the table.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from israeli_whist.bots.players.registry import make_bot
from israeli_whist.bots.search import individual
from israeli_whist.bots.search.card_judgement import equivalent_groups, judge_card
from israeli_whist.bots.search.dd import solve
from israeli_whist.bots.search.determinize import own_points
from israeli_whist.core.actions import Action, Phase, action_name
from israeli_whist.core.cards import Card, card_name
from israeli_whist.core.errors import WhistError
from israeli_whist.core.records import replay
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view

Unit = Literal["tricks", "points"]
Progress = Callable[[int, int], None]  # (actions judged, actions in all) after each one

# Tricks left from which cards are analysed when the caller does not say, by search (docs in
# ``default_max_tricks``): the whole hand where the search is compiled.
DD_MAX_TRICKS = 13
PARANOID_MAX_TRICKS = individual.COMPILED_MAX_TRICKS
PARANOID_PYTHON_MAX_TRICKS = 5
# Positions the compiled paranoid search may visit to judge one card (``judge_card``), all its
# questions together, before the card is "not proven": two to three seconds on one core, which
# keeps a 12-hand game's analysis near two minutes (docs/benchmarks.md).
PARANOID_NODE_BUDGET = 20_000_000

BID_PHASES = {Phase.AUCTION: "auction", Phase.FRISCH: "frisch", Phase.CONTRACT: "contract"}


@dataclass(frozen=True)
class CardVerdict:
    """One card played, judged against the other legal cards; values None when not analysed:
    earlier than the depth asked for, or not proven (a card's search ran out of its budget)."""

    step: int  # the action's number in the hand, from 1 (the replay viewer's step after it)
    trick: int  # from 1
    seat: int
    card: Card
    value: int | None  # tricks for the side, or points for the player, after the card played
    best: int | None  # ... after the best legal card
    best_cards: tuple[Card, ...] = ()  # the cards that reach ``best``
    proven: bool = True  # False: in the depth analysed, but a search ran out of its budget
    all_best_cards: bool = True  # False: proven, but the budget ran out before every card was asked

    @property
    def analysed(self) -> bool:
        return self.value is not None

    @property
    def cost(self) -> int:
        return 0 if self.value is None or self.best is None else self.best - self.value

    @property
    def is_error(self) -> bool:
        return self.cost > 0


@dataclass(frozen=True)
class BidVerdict:
    """A call, a Frisch pass (three cards, one decision) or a contract bid, beside the bot's."""

    steps: tuple[int, ...]  # the actions' numbers in the hand, from 1
    seat: int
    phase: str  # "auction", "frisch" or "contract"
    actual: tuple[Action, ...]
    suggested: tuple[Action, ...]

    @property
    def agrees(self) -> bool:
        # A Frisch pass is a set of cards: the order they were picked in does not matter.
        return sorted(self.actual) == sorted(self.suggested)


@dataclass(frozen=True)
class HandAnalysis:
    number: int
    dealer: int
    cancelled: bool
    cards: tuple[CardVerdict, ...]
    bids: tuple[BidVerdict, ...]

    def errors(self, seat: int) -> int:
        return sum(1 for v in self.cards if v.seat == seat and v.is_error)

    def cost(self, seat: int) -> int:
        return sum(v.cost for v in self.cards if v.seat == seat)

    def bids_differing(self, seat: int) -> int:
        return sum(1 for b in self.bids if b.seat == seat and not b.agrees)

    @property
    def not_proven(self) -> int:
        return sum(1 for v in self.cards if not v.proven)


@dataclass(frozen=True)
class GameAnalysis:
    game: str
    title: str
    players: tuple[str, ...]  # names by seat
    unit: Unit
    bot: str
    max_tricks: int
    hands: tuple[HandAnalysis, ...]

    def errors(self, seat: int) -> int:
        return sum(h.errors(seat) for h in self.hands)

    def cost(self, seat: int) -> int:
        return sum(h.cost(seat) for h in self.hands)

    def bids_differing(self, seat: int) -> int:
        return sum(h.bids_differing(seat) for h in self.hands)

    @property
    def not_proven(self) -> int:
        return sum(h.not_proven for h in self.hands)


def analyze_record(record: dict[str, Any], *, bot: str = "expert", max_tricks: int | None = None,
                   hands: Collection[int] | None = None, on_step: Progress | None = None) -> GameAnalysis:
    """Analyse a game record (``hands``: only these hand numbers). Raises RecordError for a record
    that does not replay, WhistError for an unknown bot level. ``on_step(done, total)`` is told
    after each action judged, counted over every hand analysed, for a progress bar."""
    make_bot(bot)  # an unknown level fails before any search
    checked = replay(record)
    match = checked.match
    game = match.game
    unit: Unit = "tricks" if game.rules.traits.partnerships else "points"
    depth = default_max_tricks(unit) if max_tricks is None else max_tricks
    check_depth(unit, depth)
    finals = [(r.number, r.final) for r in match.results]
    if not match.over and match.hand.action_log:  # a record saved in the middle of a hand
        finals.append((len(match.results) + 1, match.hand))
    seed = record["seed"]
    chosen = [(number, final) for number, final in finals if hands is None or number in hands]
    total, done = sum(len(final.history) for _, final in chosen), 0

    def step() -> None:
        nonlocal done
        done += 1
        if on_step is not None:
            on_step(done, total)

    analysed = tuple(analyze_hand(final, number, depth, bot, f"{seed}/{number}", step) for number, final in chosen)
    names = tuple(checked.players[match.seating[seat]] for seat in range(game.players))
    return GameAnalysis(game.name, game.title, names, unit, bot, depth, analysed)


def default_max_tricks(unit: Unit) -> int:
    """How deep to analyse by default. Measured on a 12-hand Israeli Whist game and a Classic
    Whist game of basic bots: the partnership solver takes about 2 s a hand from the first card;
    the compiled paranoid search, with its budget per card, a few seconds a hand from the first
    card (docs/benchmarks.md); the Python one, if the install could not compile, about 1 s a
    hand from 5 tricks left, 10 s from 6."""
    if unit == "tricks":
        return DD_MAX_TRICKS
    return PARANOID_MAX_TRICKS if individual.compiled_search_available() else PARANOID_PYTHON_MAX_TRICKS


# The Python paranoid search takes about 10 s a hand from 6 tricks left and grows about tenfold
# a trick: deeper asks would run for many minutes with no answer (a 2-hand game at 9 ran past 9
# minutes), so they are refused at once with what to do instead.
PARANOID_PYTHON_DEEPEST = PARANOID_PYTHON_MAX_TRICKS + 1


def check_depth(unit: Unit, depth: int) -> None:
    """AnalysisTooSlow for an analysis that would take minutes a hand on this install."""
    if unit == "points" and not individual.compiled_search_available() and depth > PARANOID_PYTHON_DEEPEST:
        raise AnalysisTooSlow(
            f"Analysing {depth} tricks from the end would take many minutes a hand without the compiled "
            f"search (this install could not build it): ask for {PARANOID_PYTHON_DEEPEST} or fewer, "
            "or reinstall where a C compiler is at hand")


class AnalysisTooSlow(WhistError):
    """An analysis asked for at a depth this install cannot answer in reasonable time."""


def analyze_hand(final: HandState, number: int, max_tricks: int, bot: str, seed: str,
                 after_each: Callable[[], None] | None = None) -> HandAnalysis:
    """Every card and bidding decision of one hand, replayed from its deal up to ``final``;
    ``after_each()`` is called once per action of the hand, when it has been judged."""
    cards: list[CardVerdict] = []
    bids: list[BidVerdict] = []
    history = final.history
    for step, state in enumerate(hand_states(final), start=1):
        action = history[step - 1]
        if state.phase == Phase.PLAY:
            cards.append(_card_verdict(state, action, step, max_tricks))
        elif state.phase == Phase.FRISCH:
            if not state.frisch_selected[state.player]:  # a seat's Frisch pass is judged once, whole
                bids.append(_frisch_verdict(state, history, step, bot, f"{seed}/{step}"))
        elif state.phase in BID_PHASES:
            choice = make_bot(bot, f"{seed}/{step}").choose(seat_view(state, state.player))
            bids.append(BidVerdict((step,), state.player, BID_PHASES[state.phase], (action,), (choice,)))
        if after_each is not None:
            after_each()
    return HandAnalysis(number, final.dealer, final.phase == Phase.CANCELLED, tuple(cards), tuple(bids))


def hand_states(final: HandState) -> Iterator[HandState]:
    """The state before each action of the hand, replayed from its deal."""
    state = final.game.start_hand(final.dealer, final.deal, final.unseen, final.turned_card, final.hand_size,
                                  checked=False)
    for action in final.history:
        yield state
        state = state.apply(action)


def _frisch_verdict(state: HandState, history: tuple[Action, ...], step: int, bot: str, seed: str) -> BidVerdict:
    seat = state.player
    actual = history[step - 1:step + 2]
    player = make_bot(bot, seed)
    suggested = []
    for _ in range(3):  # the bot picks its three cards in turn, as a player does
        card = player.choose(seat_view(state, seat))
        suggested.append(card)
        state = state.apply(card)
    return BidVerdict((step, step + 1, step + 2), seat, "frisch", actual, tuple(suggested))


def _card_verdict(state: HandState, card: Card, step: int, max_tricks: int) -> CardVerdict:
    trick = len(state.tricks) + 1
    if state.hand_size - len(state.tricks) > max_tricks:
        return CardVerdict(step, trick, state.player, card, None, None)
    if state.game.rules.traits.partnerships:
        values = card_values(state)
        best = max(values.values())
        best_cards = tuple(c for c in sorted(values) if values[c] == best)
        return CardVerdict(step, trick, state.player, card, values[card], best, best_cards)
    judged = judge_card(state, card, contract_score(state, state.player), PARANOID_NODE_BUDGET)
    if judged is None:
        return CardVerdict(step, trick, state.player, card, None, None, proven=False)
    return CardVerdict(step, trick, state.player, card, judged.value, judged.best, judged.best_cards,
                       all_best_cards=judged.all_best_cards)


def card_values(state: HandState) -> dict[Card, int]:
    """The value of each legal card for the player on move: tricks their side takes in the hand
    (Classic Whist), or the points they can be sure of (the others)."""
    if not state.game.rules.traits.partnerships and individual.compiled_search_available():
        seat = state.player  # the compiled search tries each card itself, sharing what it learns
        return individual.paranoid_card_values(state.hands, state.trump, state.leader, contract_score(state, seat),
                                               state.trick, state.tricks_won[seat])
    value = _side_tricks if state.game.rules.traits.partnerships else _paranoid_points
    values: dict[Card, int] = {}
    for group in equivalent_groups(state):
        # Cards with no other live card between them are worth the same: search one of each run.
        v = value(state, group[0])
        values.update(dict.fromkeys(group, v))
    return values


def _side_tricks(state: HandState, card: Card) -> int:
    """Tricks the side of the player on move takes in the whole hand if they play ``card`` now."""
    side = state.player % 2
    after = state.apply(card)
    won = after.tricks_won[side] + after.tricks_won[side + 2]
    if after.is_terminal:
        return won
    future = solve(after.hands, after.trump, after.leader, after.trick)  # for the side on move next
    if after.player % 2 != side:
        future = after.hand_size - len(after.tricks) - future
    return won + future


def _paranoid_points(state: HandState, card: Card) -> int:
    """Points the player on move can be sure of in this hand if they play ``card`` now."""
    seat = state.player
    score = contract_score(state, seat)
    after = state.apply(card)
    taken = after.tricks_won[seat]
    if after.is_terminal:
        return score(taken)
    return individual.paranoid_value(after.hands, after.trump, after.leader, seat, score, after.trick, taken)


def contract_score(state: HandState, seat: int) -> Callable[[int], int]:
    """``seat``'s points in this hand as a function of its final trick count, from the game's
    own scoring (the contracts, and so over or under, are fixed once play starts)."""
    return own_points(state, seat).__getitem__


# The JSON form, shared by ``whist analyze --json`` and the web replay viewer. ----------------


def analysis_json(analysis: GameAnalysis) -> dict[str, Any]:
    seats = range(len(analysis.players))
    return {
        "game": analysis.game,
        "title": analysis.title,
        "players": list(analysis.players),
        "unit": analysis.unit,
        "bot": analysis.bot,
        "max_tricks": analysis.max_tricks,
        "hands": [hand_json(h, len(analysis.players)) for h in analysis.hands],
        "errors": [analysis.errors(s) for s in seats],
        "cost": [analysis.cost(s) for s in seats],
        "bids_differing": [analysis.bids_differing(s) for s in seats],
        "not_proven": analysis.not_proven,
    }


def hand_json(hand: HandAnalysis, players: int) -> dict[str, Any]:
    seats = range(players)
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "cancelled": hand.cancelled,
        "cards": [{"step": v.step, "trick": v.trick, "seat": v.seat, "card": v.card, "name": card_name(v.card),
                   "analysed": v.analysed, "proven": v.proven, "value": v.value, "best": v.best,
                   "best_cards": list(v.best_cards), "all_best_cards": v.all_best_cards, "cost": v.cost,
                   "error": v.is_error} for v in hand.cards],
        "bids": [{"steps": list(b.steps), "seat": b.seat, "phase": b.phase,
                  "actual": [action_name(a) for a in b.actual], "suggested": [action_name(a) for a in b.suggested],
                  "agrees": b.agrees} for b in hand.bids],
        "errors": [hand.errors(s) for s in seats],
        "cost": [hand.cost(s) for s in seats],
        "bids_differing": [hand.bids_differing(s) for s in seats],
        "not_proven": hand.not_proven,
    }
