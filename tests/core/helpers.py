"""Helpers shared by the core tests: positions from card text, independent oracles of the
rules (written from docs/rules.md, not from the engine), and invariants checked on every state."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from israeli_whist.core.actions import NUM_ACTIONS, PASS, Action, Phase, is_card, parse_action
from israeli_whist.core.cards import NO_TRUMP, CardSet, card_set, cards_in, parse_hand
from israeli_whist.core.errors import IllegalActionError
from israeli_whist.core.games import make_game
from israeli_whist.core.games.classic import ClassicWhist
from israeli_whist.core.games.israeli import IsraeliRules, IsraeliWhist
from israeli_whist.core.games.whistiti import Whistiti
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.match import Match
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView, hidden_cards, seat_view

# Every preset of every game, and a few option combinations, for the shared contract tests.
CONFIGS: list[tuple[str, str | None, dict[str, Any]]] = [
    *[("israeli", preset, {}) for preset in IsraeliRules.PRESETS],
    ("israeli", None, {"auction_starts": "dealer", "frisch_direction": "rotating", "frisch_raises_minimum": False}),
    ("israeli", None, {"frisch_rounds": 0, "hands": 3}),
    ("israeli", None, {"frisch_rounds": 1, "frisch_direction": "right", "nt_minimum": 5}),
    ("israeli", "three_random_card", {"frisch_direction": "right", "auction_end": "four_passes"}),
    ("israeli", "achim", {"high_contract_first_undertrick": True, "no_trump_allowed": False}),
    ("israeli", None, {"hands": 6, "target": 40}),
    ("classic", "standard", {}),
    ("classic", "honours", {}),
    ("classic", "rubber", {}),
    ("classic", "long", {}),
    ("classic", None, {"cut_for_partners": True, "honours": True, "rubber": True, "target": 2}),
    ("whistiti", "standard", {}),
    ("whistiti", "up_down", {"players": 3}),
    ("whistiti", "down_up", {"players": 5}),
    ("whistiti", None, {"players": 6, "schedule": "8,1,3"}),
    ("whistiti", None, {"players": 7, "schedule": "up_down"}),
]


def config_id(config: tuple[str, str | None, dict[str, Any]]) -> str:
    game, preset, options = config
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return "-".join(part for part in (game, preset or "", extra) if part)


def game_of(config: tuple[str, str | None, dict[str, Any]]) -> HandGame:
    return make_game(*config)


# Positions -------------------------------------------------------------------------------------


def hands_from(game: HandGame, texts: Sequence[str | None], unseen: CardSet = 0) -> tuple[CardSet, ...]:
    """Hands from card text; one ``None`` takes every card of the deck that no one else has."""
    given = [parse_hand(t) if t is not None else 0 for t in texts]
    rest = card_set(game.deck()) & ~unseen
    for mask in given:
        rest &= ~mask
    return tuple(rest if t is None else mask for t, mask in zip(texts, given, strict=True))


def start(game: HandGame, texts: Sequence[str | None], dealer: int = 0, unseen: str = "",
          turned: str | None = None, hand_size: int | None = None) -> HandState:
    """A hand from given cards, checked by the engine; ``turned`` names the turned-up card."""
    unseen_mask = parse_hand(unseen)
    hands = hands_from(game, texts, unseen_mask)
    size = hand_size if hand_size is not None else hands[0].bit_count()
    turned_card = cards_in(parse_hand(turned))[0] if turned else -1
    return game.start_hand(dealer, hands, unseen_mask, turned_card, size)


def act(state: HandState, text: str) -> HandState:
    """Apply actions written as in records (``pass 5S pass``, ``6 3 0``, ``9C QC``), in order."""
    for token in text.split():
        state = state.apply(parse_action(token, state.phase))
    return state


def israeli(**options: Any) -> IsraeliWhist:
    game = make_game("israeli", None, options)
    assert isinstance(game, IsraeliWhist)
    return game


def classic(**options: Any) -> ClassicWhist:
    game = make_game("classic", None, options)
    assert isinstance(game, ClassicWhist)
    return game


def whistiti(**options: Any) -> Whistiti:
    game = make_game("whistiti", None, options)
    assert isinstance(game, Whistiti)
    return game


# Each seat holds one whole suit: seat 0 clubs, 1 diamonds, 2 hearts, 3 spades.
SUIT_DEAL: tuple[str, ...] = (
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
)

# The worked trick of docs/rules.md#tricks (diamonds trump): A (seat 1) leads 9C, B (seat 2) QC,
# C (seat 3, no clubs) 7D, D (seat 0) 8C.
EXAMPLE_DEAL: tuple[str, ...] = (
    "8C 6D 8D 9D 6H 7H 8H 9H 6S 7S 8S 9S TS",
    "9C 2C 3C 4C AD KD QD AH KH QH AS KS QS",
    "QC 5C 6C 7C TC JC KC AC JD TD JH TH JS",
    "7D 2D 3D 4D 5D 2H 3H 4H 5H 2S 3S 4S 5S",
)


def pass_round(state: HandState) -> HandState:
    """Every seat passes once."""
    for _ in range(state.players):
        state = state.apply(PASS)
    return state


def frisch_exchange(state: HandState, choices: Sequence[str] | None = None) -> HandState:
    """Every seat chooses three cards (the named ones, else its three lowest) to pass."""
    assert state.phase == Phase.FRISCH
    for i in range(state.players):
        seat = state.player
        cards = cards_in(parse_hand(choices[seat])) if choices else cards_in(state.hands[seat])[:3]
        assert len(cards) == 3
        for card in cards:
            assert state.player == seat
            state = state.apply(card)
        assert i == state.players - 1 or state.phase == Phase.FRISCH
    return state


def expect_illegal(state: HandState, action: Action, *fragments: str) -> str:
    """Applying ``action`` raises IllegalActionError naming ``fragments`` and leaves ``state`` as it was."""
    before = repr(state[1:])
    try:
        state.apply(action)
    except IllegalActionError as error:
        message = str(error)
    else:
        raise AssertionError(f"{action} was allowed")
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert repr(state[1:]) == before
    return message


# Oracles: the rules of docs/rules.md written again, independently of the engine. -----------------


def expected_plays(hand: CardSet, trick: Sequence[int]) -> set[int]:
    cards = set(cards_in(hand))
    if not trick:
        return cards
    same = {c for c in cards if c // 13 == trick[0] // 13}
    return same or cards


def expected_winner(cards: Sequence[int], trump: int) -> int:
    """Position in ``cards`` of the winner: highest trump, else highest card of the suit led."""
    trumps = [i for i, c in enumerate(cards) if c // 13 == trump]
    pool = trumps or [i for i, c in enumerate(cards) if c // 13 == cards[0] // 13]
    return max(pool, key=lambda i: cards[i] % 13)


def expected_israeli_points(contract: int, taken: int, over: bool, zero_scoring: str = "standard",
                            high_contract_first_undertrick: bool = False) -> int:
    if contract == 0:
        if taken == 0:
            return (30 if zero_scoring == "achim" else 25) if over else 50
        if zero_scoring == "achim" and over:
            return -30
        return -50 + 10 * (taken - 1)
    if taken == contract:
        return contract * contract + 10
    if high_contract_first_undertrick and contract >= 7 and taken < contract:
        return -15 - 10 * (contract - taken - 1)
    return -10 * abs(taken - contract)


def expected_whistiti_points(contract: int, taken: int) -> int:
    return 10 + 5 * contract if taken == contract else -5 * abs(taken - contract)


def expected_scores(state: HandState) -> tuple[int, ...]:
    game = state.game
    if isinstance(game, IsraeliWhist):
        over = sum(state.contracts) > state.hand_size
        rules = game.rules
        return tuple(expected_israeli_points(c, t, over, rules.zero_scoring, rules.high_contract_first_undertrick)
                     for c, t in zip(state.contracts, state.tricks_won, strict=True))
    if isinstance(game, Whistiti):
        return tuple(expected_whistiti_points(c, t) for c, t in zip(state.contracts, state.tricks_won, strict=True))
    sides = (state.tricks_won[0] + state.tricks_won[2], state.tricks_won[1] + state.tricks_won[3])
    return tuple(max(0, sides[seat % 2] - 6) for seat in range(4))


# Invariants --------------------------------------------------------------------------------------


def played_cards(state: HandState) -> CardSet:
    return card_set(c for _, cards, _ in state.tricks for c in cards) | card_set(state.trick)


def view_cards(view: SeatView) -> CardSet:
    """Every card that a view shows, in any field."""
    mask = view.hand | view.frisch_selected
    for part in (*view.frisch_passed, *view.frisch_received, *view.revealed):
        mask |= part
    mask |= card_set(card for _, card in view.trick)
    mask |= card_set(c for _, cards, _ in view.tricks for c in cards)
    mask |= card_set(a for a in view.legal_actions if is_card(a))
    if view.turned_card >= 0:
        mask |= 1 << view.turned_card
    return mask


def check_conservation(state: HandState) -> None:
    deck = state.game.rules.deck_mask
    played = played_cards(state)
    seen = 0
    total = 0
    for hand in state.hands:
        assert not seen & hand, "a card is in two hands"
        seen |= hand
        total += hand.bit_count()
    assert not seen & played and not seen & state.unseen and not played & state.unseen
    total += played.bit_count() + state.unseen.bit_count()
    everything = seen | played | state.unseen
    if state.turned_card >= 0:
        turned = 1 << state.turned_card
        if state.game.rules.traits.turned_card == "dealer":
            assert (state.hands[state.dealer] | played) & turned, "the turned card belongs to the dealer"
        else:
            assert not everything & turned, "the stock's turned card is in no hand"
            total += 1
        everything |= turned
    assert everything == deck
    assert total == deck.bit_count()


def check_counts(state: HandState) -> None:
    n = state.players
    assert sum(state.tricks_won) == len(state.tricks)
    for leader, cards, winner in state.tricks:
        assert len(cards) == n
        assert winner == (leader + expected_winner(cards, state.trump)) % n
    plays = [0] * n
    for leader, cards, _ in state.tricks:
        for i in range(len(cards)):
            plays[(leader + i) % n] += 1
    for i in range(len(state.trick)):
        plays[(state.leader + i) % n] += 1
    for seat in range(n):
        assert state.hands[seat].bit_count() == state.hand_size - plays[seat]
    if state.phase == Phase.OVER:
        assert len(state.tricks) == state.hand_size and not state.trick
        assert state.scores() == expected_scores(state)
    else:
        assert len(state.tricks) < state.hand_size or state.phase == Phase.CANCELLED
        assert state.scores() == (0,) * n
    if state.contracts and -1 not in state.contracts:
        assert sum(state.contracts) != state.hand_size
        assert state.over_under == ("over" if sum(state.contracts) > state.hand_size else "under")


def check_views(state: HandState) -> None:
    n = state.players
    everything_hidden = state.unseen
    for hand in state.hands:
        everything_hidden |= hand
    spectator = seat_view(state, -1)
    if spectator.turned_card >= 0:
        everything_hidden &= ~(1 << spectator.turned_card)
    assert spectator.seat == -1 and spectator.hand == 0 and spectator.legal_actions == ()
    assert not view_cards(spectator) & everything_hidden, "a spectator sees a hidden card"
    for seat in range(n):
        view = seat_view(state, seat)
        assert view.hand == state.hands[seat]
        leaked = view_cards(view) & hidden_cards(state, seat)
        assert not leaked, f"seat {seat} sees {cards_in(leaked)}"
        assert view.revealed == (state.deal if state.phase == Phase.OVER else ())
        if seat == state.player:
            assert view.legal_actions == tuple(state.legal_actions())
        else:
            assert view.legal_actions == ()


def check_legal(state: HandState) -> None:
    legal = list(state.legal_actions())
    if state.is_terminal:
        assert legal == [] and state.player == -1
        return
    assert legal, "no legal action before the end"
    assert legal == sorted(set(legal))
    if state.phase == Phase.PLAY:
        assert set(legal) == expected_plays(state.hands[state.player], state.trick)


def check_state(state: HandState) -> None:
    check_conservation(state)
    check_counts(state)
    check_legal(state)
    check_views(state)


def choose(state: HandState | Match, rng: random.Random, pass_bias: float) -> Action:
    legal = list(state.legal_actions())
    if PASS in legal and rng.random() < pass_bias:
        return PASS
    return rng.choice(legal)


def apply_checked(state: HandState, action: Action, rng: random.Random) -> HandState:
    """Apply ``action``, checking that the old state is untouched and that an illegal action
    (drawn at random) is refused without changing anything."""
    before = repr(state[1:])
    legal = set(state.legal_actions())
    wrong = rng.randrange(-1, NUM_ACTIONS + 1)
    if wrong not in legal:
        expect_illegal(state, wrong)
    after = state.apply(action)
    assert repr(state[1:]) == before, "apply changed the old state"
    assert after.history == state.history + (action,)
    return after


def play_hand(state: HandState, rng: random.Random, pass_bias: float = 0.0, check: bool = True) -> HandState:
    """Play a hand to its end with random legal actions, checking every state on the way."""
    while True:
        if check:
            check_state(state)
        if state.is_terminal:
            return state
        action = choose(state, rng, pass_bias)
        state = apply_checked(state, action, rng) if check else state.apply(action)


def play_match(match: Match, rng: random.Random, pass_bias: float = 0.0, max_actions: int = 100_000) -> Match:
    for _ in range(max_actions):
        if match.over:
            return match
        match = match.apply(choose(match, rng, pass_bias))
    raise AssertionError("the game did not end")


def trump_of(state: HandState) -> int:
    return state.trump if state.trump >= 0 else NO_TRUMP
