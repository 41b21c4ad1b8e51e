"""A seat's view as numbers: the observation vector, the action mask, and a text form.

Every encoding here is a pure function of a ``SeatView`` (``israeli_whist.core.views``), the one place
hidden cards are removed, so no learner can see a card its seat could not. The vector's length
is fixed by the rules (``observation_size``): features a game does not have (an auction, contracts,
a turned-up card) take no room, and seats are counted by the rules' player count.

Seats are written relative to the observer: relative seat 0 is the observer, 1 the player on its
left (the next to play after it), and so on. The same situation seen from any seat then gives the
same vector, so one policy serves every seat.

The layout is one table, ``FEATURES``; ``observation_layout`` lists each slice's offset, length and
meaning, and ``docs/rl.md`` shows that list, so the documentation cannot drift from the code.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from israeli_whist.core.actions import (
    CONTRACT_BASE,
    MAX_TRICKS,
    PASS,
    STRAINS,
    Action,
    Phase,
    action_display,
    bid_level,
    bid_strain,
)
from israeli_whist.core.cards import DECK_SIZE, CardSet, sorted_for_display, strain_symbol, symbol_name
from israeli_whist.core.games import game_for_rules
from israeli_whist.core.rules import Rules, option_kind
from israeli_whist.core.views import SeatView

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

MAX_FRISCH_ROUNDS = 3  # the rules allow 0..3 Frisch rounds
MIN_PLAYERS, MAX_PLAYERS = 3, 7  # Whistiti seats 3 to 7; the other games 3 or 4
POINTS_SCALE = 100.0  # points are divided by this: most hands score within a few hundred
# Scaled points are kept within this: a million points, out of reach of any game the rules allow
# (1,000 hands of at most 299 points), so the bound only keeps the observation space finite.
POINTS_BOUND = 10_000.0
CALL_WIDTH = 2 + STRAINS  # per seat: called this round, level / MAX_TRICKS, strain one-hot
CONTRACT_WIDTH = MAX_TRICKS + 2  # per seat: not bid yet, then 0..MAX_TRICKS tricks


def card_bits(cards: CardSet) -> npt.NDArray[np.uint8]:
    """The 52 bits of a card set, card 0 (two of clubs) first.

    >>> card_bits(0b101)[:4].tolist()
    [1, 0, 1, 0]
    """
    raw = np.frombuffer(cards.to_bytes(7, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:DECK_SIZE]


# The features ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """What a fill function reads: the view, and the observer's frame of reference."""

    view: SeatView
    totals: Sequence[int]  # game points so far by absolute seat (zeros where no game is kept)

    @property
    def players(self) -> int:
        return self.view.players

    def relative(self, seat: int) -> int:
        """The observer is 0, the seat on its left 1, and so on."""
        return (seat - self.view.seat) % self.view.players


def _one_hot(out: Vector, index: int) -> None:
    if 0 <= index < len(out):
        out[index] = 1.0


def _per_seat(out: Vector, width: int, seat: int) -> Vector:
    """The ``width`` numbers of one relative seat in a per-seat slice."""
    return out[seat * width:(seat + 1) * width]


def _hand(seen: Seen, out: Vector) -> None:
    out[:] = card_bits(seen.view.hand)


def _played_by(seen: Seen, out: Vector) -> None:
    view = seen.view
    n = view.players
    for leader, cards, _winner in view.tricks:
        for i, card in enumerate(cards):
            _per_seat(out, DECK_SIZE, seen.relative((leader + i) % n))[card] = 1.0
    for seat, card in view.trick:
        _per_seat(out, DECK_SIZE, seen.relative(seat))[card] = 1.0


def _trick(seen: Seen, out: Vector) -> None:
    for seat, card in seen.view.trick:
        _per_seat(out, DECK_SIZE, seen.relative(seat))[card] = 1.0


def _trick_leader(seen: Seen, out: Vector) -> None:
    if seen.view.phase == Phase.PLAY:
        _one_hot(out, seen.relative(seen.view.leader))


def _to_act(seen: Seen, out: Vector) -> None:
    if seen.view.player >= 0:
        _one_hot(out, seen.relative(seen.view.player))


def _dealer(seen: Seen, out: Vector) -> None:
    _one_hot(out, seen.relative(seen.view.dealer))


def _phase(seen: Seen, out: Vector) -> None:
    _one_hot(out, int(seen.view.phase))


def _trump(seen: Seen, out: Vector) -> None:
    _one_hot(out, seen.view.trump)


def _turned_card(seen: Seen, out: Vector) -> None:
    _one_hot(out, seen.view.turned_card)


def _deck(seen: Seen, out: Vector) -> None:
    out[:] = card_bits(seen.view.rules.deck_mask)


def _shown_void(seen: Seen, out: Vector) -> None:
    """A seat that did not follow the suit led has shown it holds none of that suit."""
    view = seen.view
    n = view.players
    plays = [((leader + i) % n, card, cards[0]) for leader, cards, _ in view.tricks for i, card in enumerate(cards)]
    if view.trick:
        plays += [(seat, card, view.trick[0][1]) for seat, card in view.trick]
    for seat, card, led in plays:
        if card // 13 != led // 13:
            _per_seat(out, 4, seen.relative(seat))[led // 13] = 1.0


def _hand_size(seen: Seen, out: Vector) -> None:
    out[0] = seen.view.hand_size / MAX_TRICKS


def _tricks_played(seen: Seen, out: Vector) -> None:
    out[0] = len(seen.view.tricks) / MAX_TRICKS


def _tricks_won(seen: Seen, out: Vector) -> None:
    for seat, won in enumerate(seen.view.tricks_won):
        out[seen.relative(seat)] = won / MAX_TRICKS


def _write_call(out: Vector, call: Action) -> None:
    """A call as ``CALL_WIDTH`` numbers: it was made, its level, its strain (all zero after 1 for a pass)."""
    out[:] = 0.0
    out[0] = 1.0
    if call != PASS:
        out[1] = bid_level(call) / MAX_TRICKS
        out[2 + bid_strain(call)] = 1.0


def _last_calls(seen: Seen, out: Vector) -> None:
    view = seen.view
    for frisch_round, seat, call in view.calls:
        if frisch_round == view.frisch_round:  # the auction under way (earlier ones were all passes)
            _write_call(_per_seat(out, CALL_WIDTH, seen.relative(seat)), call)


def _high_bid(seen: Seen, out: Vector) -> None:
    if seen.view.high_bid >= 0:
        _write_call(out, seen.view.high_bid)


def _declarer(seen: Seen, out: Vector) -> None:
    if seen.view.declarer >= 0:
        _one_hot(out, seen.relative(seen.view.declarer))


def _frisch_round(seen: Seen, out: Vector) -> None:
    _one_hot(out, seen.view.frisch_round)


def _frisch_to(seen: Seen, out: Vector) -> None:
    if seen.view.phase == Phase.FRISCH:
        _one_hot(out, seen.view.frisch_offset % seen.players)


def _frisch_selected(seen: Seen, out: Vector) -> None:
    out[:] = card_bits(seen.view.frisch_selected)


def _frisch_passed(seen: Seen, out: Vector) -> None:
    out[:] = card_bits(functools.reduce(int.__or__, seen.view.frisch_passed, 0))


def _frisch_received(seen: Seen, out: Vector) -> None:
    out[:] = card_bits(functools.reduce(int.__or__, seen.view.frisch_received, 0))


def _contracts(seen: Seen, out: Vector) -> None:
    for seat, contract in enumerate(seen.view.contracts):
        _per_seat(out, CONTRACT_WIDTH, seen.relative(seat))[contract + 1] = 1.0


def _contract_sum(seen: Seen, out: Vector) -> None:
    view = seen.view
    out[0] = (sum(c for c in view.contracts if c > 0) - view.hand_size) / MAX_TRICKS
    if view.over_under is not None:
        out[1 if view.over_under == "over" else 2] = 1.0


def _scaled_points(points: int) -> float:
    return min(max(points / POINTS_SCALE, -POINTS_BOUND), POINTS_BOUND)


def _hand_points(seen: Seen, out: Vector) -> None:
    for seat, points in enumerate(seen.view.scores):
        out[seen.relative(seat)] = _scaled_points(points)


def _game_points(seen: Seen, out: Vector) -> None:
    for seat, points in enumerate(seen.totals):
        out[seen.relative(seat)] = _scaled_points(points)


def _players(seen: Seen, out: Vector) -> None:
    out[seen.players - MIN_PLAYERS] = 1.0


Fill = Callable[[Seen, Vector], None]
Size = Callable[[Rules], int]


@dataclass(frozen=True)
class Feature:
    """One slice of the vector: its name, its length under given rules, what it means, how to fill
    it, and the bounds of its numbers (most are bits or fractions, within 0..1)."""

    name: str
    size: Size
    meaning: str
    fill: Fill
    low: float = 0.0
    high: float = 1.0


def _fixed(length: int) -> Size:
    return lambda rules: length


def _seats(width: int, when: Callable[[Rules], bool] = lambda rules: True) -> Size:
    return lambda rules: width * rules.players if when(rules) else 0


def _only(when: Callable[[Rules], bool], length: int) -> Size:
    return lambda rules: length if when(rules) else 0


def _auction(rules: Rules) -> bool:
    return rules.traits.trump_auction


def _contracted(rules: Rules) -> bool:
    return rules.traits.contracts


def _turns_card(rules: Rules) -> bool:
    return rules.traits.turned_card != "none"


FEATURES: tuple[Feature, ...] = (
    Feature("hand", _fixed(DECK_SIZE), "the observer's cards now (card = suit * 13 + rank; rank 0 is the two)",
            _hand),
    Feature("played_by", _seats(DECK_SIZE), "52 per relative seat: the cards that seat has played this hand, "
            "the trick under way included", _played_by),
    Feature("trick", _seats(DECK_SIZE), "52 per relative seat: its card in the trick under way", _trick),
    Feature("trick_leader", _seats(1), "relative seat that led the trick under way (during play)", _trick_leader),
    Feature("to_act", _seats(1), "relative seat to act (none once the hand is over)", _to_act),
    Feature("dealer", _seats(1), "relative seat of the dealer", _dealer),
    Feature("phase", _fixed(len(Phase)), "one-hot: auction, frisch, contract, play, over, cancelled", _phase),
    Feature("trump", _fixed(STRAINS), "one-hot: clubs, diamonds, hearts, spades, no trump (none while unknown)",
            _trump),
    Feature("turned_card", _only(_turns_card, DECK_SIZE), "the card turned face up for trump, while it is "
            "visible", _turned_card),
    Feature("deck", _fixed(DECK_SIZE), "the cards of the pack these rules play with", _deck),
    Feature("shown_void", _seats(4), "4 per relative seat: suits it has shown it lacks by not following",
            _shown_void),
    Feature("hand_size", _fixed(1), f"cards dealt to each seat / {MAX_TRICKS}", _hand_size),
    Feature("tricks_played", _fixed(1), f"completed tricks / {MAX_TRICKS}", _tricks_played),
    Feature("tricks_won", _seats(1), f"per relative seat: tricks won / {MAX_TRICKS}", _tricks_won),
    Feature("last_calls", _seats(CALL_WIDTH, _auction), f"{CALL_WIDTH} per relative seat, its last call in the "
            f"auction under way: called, level / {MAX_TRICKS} (0 for a pass), strain one-hot", _last_calls),
    Feature("high_bid", _only(_auction, CALL_WIDTH), "the highest bid so far, written like a call", _high_bid),
    Feature("declarer", _seats(1, _auction), "relative seat of the high bidder, then the declarer", _declarer),
    Feature("frisch_round", _only(_auction, MAX_FRISCH_ROUNDS + 1), "one-hot: Frisch rounds completed (0..3)",
            _frisch_round),
    Feature("frisch_to", _seats(1, _auction), "during a Frisch: relative seat the observer's cards go to",
            _frisch_to),
    Feature("frisch_selected", _only(_auction, DECK_SIZE), "cards the observer has chosen in the Frisch under way",
            _frisch_selected),
    Feature("frisch_passed", _only(_auction, DECK_SIZE), "cards the observer passed in completed Frisch rounds",
            _frisch_passed),
    Feature("frisch_received", _only(_auction, DECK_SIZE), "cards the observer received in completed Frisch "
            "rounds", _frisch_received),
    Feature("contracts", _seats(CONTRACT_WIDTH, _contracted), f"{CONTRACT_WIDTH} per relative seat, one-hot: "
            f"not bid yet, then 0..{MAX_TRICKS} tricks", _contracts),
    # The contracts add up to at most every card dealt (52), and at least 0.
    Feature("contract_sum", _only(_contracted, 3), f"(sum of the contracts - tricks in the hand) / {MAX_TRICKS}; "
            "over; under (once all are bid)", _contract_sum, low=-1.0, high=DECK_SIZE / MAX_TRICKS),
    Feature("hand_points", _seats(1), f"per relative seat: the hand's points once it is over / {POINTS_SCALE:g}",
            _hand_points, low=-POINTS_BOUND, high=POINTS_BOUND),
    Feature("game_points", _seats(1), f"per relative seat: points of the game so far / {POINTS_SCALE:g} (zeros "
            "where the caller keeps no game)", _game_points, low=-POINTS_BOUND, high=POINTS_BOUND),
    Feature("players", _fixed(MAX_PLAYERS - MIN_PLAYERS + 1), f"one-hot: {MIN_PLAYERS}..{MAX_PLAYERS} players",
            _players),
)


# Rule options: every option of the rules, read from its definition in ``israeli_whist.core.rules``, so a
# new option is encoded without a change here. Text options (Whistiti's schedule) are left out:
# ``hand_size`` says what they mean for the hand under way.


def _option_fields(rules: Rules) -> list[dataclasses.Field[Any]]:
    return [f for f in dataclasses.fields(rules) if option_kind(f) != "text"]


def _option_size(f: dataclasses.Field[Any]) -> int:
    return len(f.metadata["choices"]) if option_kind(f) == "choice" else 1


def _option_meaning(f: dataclasses.Field[Any]) -> str:
    kind = option_kind(f)
    if kind == "choice":
        return "rule option, one-hot: " + ", ".join(f.metadata["choices"])
    if kind == "bool":
        return "rule option: 1 when true"
    return "rule option: its value / its highest allowed value (0 where an option allows none and is none)"


def _fill_option(rules: Rules, f: dataclasses.Field[Any], out: Vector) -> None:
    value = getattr(rules, f.name)
    kind = option_kind(f)
    if kind == "choice":
        out[f.metadata["choices"].index(value)] = 1.0
    elif kind == "bool":
        out[0] = float(value)
    elif value is not None:
        out[0] = value / f.metadata["high"]


# The layout --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Slice:
    """Where one feature lies in the vector."""

    name: str
    offset: int
    length: int
    meaning: str
    low: float = 0.0
    high: float = 1.0


@functools.lru_cache(maxsize=64)
def observation_layout(rules: Rules) -> tuple[Slice, ...]:
    """Every non-empty slice of the vector under ``rules``, in order.

    >>> from israeli_whist.core.games import make_rules
    >>> [s.name for s in observation_layout(make_rules("classic"))][:3]
    ['hand', 'played_by', 'trick']
    """
    slices = []
    offset = 0
    for feature in FEATURES:
        length = feature.size(rules)
        if length:
            slices.append(Slice(feature.name, offset, length, feature.meaning, feature.low, feature.high))
            offset += length
    for f in _option_fields(rules):
        length = _option_size(f)
        slices.append(Slice(f"option:{f.name}", offset, length, _option_meaning(f)))
        offset += length
    return tuple(slices)


def observation_size(rules: Rules) -> int:
    """The length of every observation vector under ``rules``."""
    last = observation_layout(rules)[-1]
    return last.offset + last.length


def observation_bounds(rules: Rules) -> tuple[Vector, Vector]:
    """The lowest and highest value of each number of the vector (for a Box space)."""
    size = observation_size(rules)
    low, high = np.zeros(size, dtype=np.float32), np.ones(size, dtype=np.float32)
    for piece in observation_layout(rules):
        low[piece.offset:piece.offset + piece.length] = piece.low
        high[piece.offset:piece.offset + piece.length] = piece.high
    return low, high


@functools.lru_cache(maxsize=64)
def _rule_options_vector(rules: Rules) -> Vector:
    """The rule options' part of the vector: the same for every view, so made once."""
    fields = _option_fields(rules)
    out = np.zeros(sum(_option_size(f) for f in fields), dtype=np.float32)
    offset = 0
    for f in fields:
        length = _option_size(f)
        _fill_option(rules, f, out[offset:offset + length])
        offset += length
    out.flags.writeable = False
    return out


def encode_observation(view: SeatView, totals: Sequence[int] | None = None) -> Vector:
    """The observation vector of a seated view (float32, ``observation_size(view.rules)`` long).

    ``totals`` are the game's points so far by absolute seat, where the caller keeps a game
    (a ``Match``'s ``totals``); without them the ``game_points`` slice is zero.
    """
    if view.seat < 0:
        raise ValueError("An observation is a seat's: a spectator's view (seat -1) has none")
    rules = view.rules
    if totals is not None and len(totals) != view.players:
        raise ValueError(f"totals has {len(totals)} entries for {view.players} players")
    seen = Seen(view, tuple(totals) if totals is not None else (0,) * view.players)
    out = np.zeros(observation_size(rules), dtype=np.float32)
    offset = 0
    for feature in FEATURES:
        length = feature.size(rules)
        if length:
            feature.fill(seen, out[offset:offset + length])
            offset += length
    out[offset:] = _rule_options_vector(rules)
    return out


# Actions ---------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def action_space_size(rules: Rules) -> int:
    """How many actions of the flat action space (``israeli_whist.core.actions``) the game can use:
    the cards, and in games with contracts also the calls and contracts up to the largest deal.
    Actions are ``0 .. action_space_size(rules) - 1``; a mask tells which are legal."""
    if not (rules.traits.contracts or rules.traits.trump_auction):
        return DECK_SIZE
    game = game_for_rules(rules)
    hands = game.hands_in_game() or 1  # a game to a target repeats its deals: the first stands for all
    return CONTRACT_BASE + max(game.hand_size(i) for i in range(hands)) + 1


def legal_mask(actions: Sequence[Action], size: int) -> Mask:
    """An int8 vector of ``size`` with 1 at each of ``actions``."""
    mask = np.zeros(size, dtype=np.int8)
    if actions:
        mask[np.fromiter(actions, dtype=np.int64, count=len(actions))] = 1
    return mask


def action_mask(view: SeatView) -> Mask:
    """1 for each action the view's seat may take now; all zero when it is not its turn."""
    return legal_mask(view.legal_actions, action_space_size(view.rules))


# Text ------------------------------------------------------------------------------------------


def _cards_text(cards: CardSet, trump: int) -> str:
    shown = sorted_for_display(cards, trump if trump >= 0 else 4)
    return " ".join(symbol_name(c) for c in shown) or "-"


def observation_text(view: SeatView, totals: Sequence[int] | None = None) -> str:
    """What the vector says, as lines a person reads (OpenSpiel's observation string). Seats are
    absolute here: ``seat 2 (you)``."""
    if view.seat < 0:
        raise ValueError("An observation is a seat's: a spectator's view (seat -1) has none")
    rules = view.rules

    def who(seat: int) -> str:
        return f"seat {seat}" + (" (you)" if seat == view.seat else "")

    lines = [f"{view.game}, {view.players} players, {who(view.seat)}, dealer {who(view.dealer)}",
             f"phase {view.phase.name.lower()}" + (f", {who(view.player)} to act" if view.player >= 0 else ""),
             f"hand: {_cards_text(view.hand, view.trump)}",
             "trump: " + (strain_symbol(view.trump) if view.trump >= 0 else "not yet known")]
    if view.turned_card >= 0:
        lines.append(f"turned up: {symbol_name(view.turned_card)}")
    if rules.traits.trump_auction:
        calls = [f"{who(s)} {'pass' if c == PASS else action_display(c)}"
                 for r, s, c in view.calls if r == view.frisch_round]
        lines.append(f"auction {view.frisch_round + 1}: " + (", ".join(calls) or "no call yet"))
        if view.high_bid >= 0:
            lines.append(f"high bid: {action_display(view.high_bid)} by {who(view.declarer)}")
        if view.frisch_selected:
            lines.append(f"frisch chosen: {_cards_text(view.frisch_selected, view.trump)}")
        for number, (passed, received) in enumerate(zip(view.frisch_passed, view.frisch_received, strict=True), 1):
            lines.append(f"frisch {number}: passed {_cards_text(passed, -1)}, received {_cards_text(received, -1)}")
    if rules.traits.contracts and view.contracts:
        said = ", ".join(f"{who(s)} {c if c >= 0 else '-'}" for s, c in enumerate(view.contracts))
        lines.append(f"contracts: {said}" + (f" ({view.over_under})" if view.over_under else ""))
    if view.trick:
        lines.append("trick: " + ", ".join(f"{who(s)} {symbol_name(c)}" for s, c in view.trick))
    lines.append("tricks won: " + ", ".join(f"{who(s)} {t}" for s, t in enumerate(view.tricks_won)))
    if view.phase == Phase.OVER:
        lines.append("points: " + ", ".join(f"{who(s)} {p:+d}" for s, p in enumerate(view.scores)))
    if totals is not None:
        lines.append("game: " + ", ".join(f"{who(s)} {p:+d}" for s, p in enumerate(totals)))
    return "\n".join(lines)


# Documentation -----------------------------------------------------------------------------------


def layout_markdown(tables: Sequence[tuple[str, Rules]]) -> str:
    """The layout under several rule sets as one Markdown table (``docs/rl.md`` holds its output):
    each slice's ``offset+length`` under each rule set, ``-`` where that table has no such slice."""
    layouts = [{s.name: s for s in observation_layout(rules)} for _, rules in tables]
    meanings: dict[str, str] = {}
    for feature in FEATURES:  # the features in their order, then the options as they come
        if any(feature.name in layout for layout in layouts):
            meanings[feature.name] = feature.meaning
    for layout in layouts:
        for name, piece in layout.items():
            meanings.setdefault(name, piece.meaning)
    names = list(meanings)
    header = "| slice | " + " | ".join(title for title, _ in tables) + " | meaning |"
    lines = [header, "|" + "---|" * (len(tables) + 2)]
    for name in names:
        cells = [f"{layout[name].offset}+{layout[name].length}" if name in layout else "-" for layout in layouts]
        lines.append(f"| `{name}` | " + " | ".join(cells) + f" | {meanings[name]} |")
    sizes = [str(observation_size(rules)) for _, rules in tables]
    lines.append("| (length) | " + " | ".join(sizes) + " | |")
    return "\n".join(lines)
