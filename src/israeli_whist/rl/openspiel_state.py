"""One hand of a whist game as an OpenSpiel state: the deal as chance actions, then the
engine's own ``HandState`` for everything after it.

Where the game's ``hand_number`` is drawn (Whistiti's default), a first chance action chooses
the hand's place in the schedule (``israeli_whist.rl.hands``), every place equally likely: it
sets how many cards are dealt. The deal is one chance action per card, in the order the cards leave the pack: the first
goes to the seat left of the dealer, and so on round the table, then the card turned up for
trump where the game turns one from the stock (Whistiti). Cards never drawn are the stock or
the cards a form leaves out; nobody sees them. Once the last card is drawn, the hand is the
engine's ``deal_cards`` of that pack, and every later action is ``HandState.apply``: the
rules, the checks and the scores are the engine's, never repeated here.

OpenSpiel copies a Python state by deep-copying the attributes in its ``__dict__``, and
serializes it by pickling them. The one attribute here, ``_held``, is immutable, so a copy
shares it (``__deepcopy__`` returns it), and it pickles as the rules, the dealer, the hand's
place and the actions, which are replayed on loading.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import pyspiel

from israeli_whist.core.actions import Action, action_name
from israeli_whist.core.cards import CardSet, card_name, hand_name, strain_symbol
from israeli_whist.core.games import game_for_rules
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.rules import Rules
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView, seat_view
from israeli_whist.rl.hands import DRAWN, hand_places
from israeli_whist.rl.openspiel_resample import resample


class HandSetup(Protocol):
    """What a state needs of its OpenSpiel game (``israeli_whist.rl.openspiel.WhistGame``): the
    engine's game, the dealer, and the hand's place in the game (``DRAWN``: chance draws it)."""

    whist_game: HandGame
    dealer: int
    hand_number: int


def cards_drawn(game: HandGame, hand_number: int) -> int:
    """How many chance actions deal a hand: the cards dealt, and the stock's card turned up
    for trump when it lies beyond them (Classic Whist turns up the dealer's own last card)."""
    dealt = game.players * game.hand_size(hand_number)
    pack = len(game.deck())
    return max(dealt, game.turned_position(dealt, pack) + 1)


@dataclass(frozen=True)
class Held:
    """What a state holds: the rules' game, the dealer, the hand's place in the game (``DRAWN``
    until chance draws it), the cards drawn so far, and the hand once dealt (None while dealing).
    Immutable, so copies of a state share it."""

    game: HandGame
    dealer: int
    hand_number: int
    drawn: tuple[int, ...] = ()
    hand: HandState | None = None
    draws: int = 0  # chance actions in the deal (``cards_drawn``)
    first: HandState | None = None  # the hand as dealt, before any action
    drawn_mask: CardSet = 0  # ``drawn`` as a set
    # Texts already made of this position (ISMCTS asks a node's key several times a simulation).
    memo: dict[Any, str] = field(default_factory=dict, compare=False, repr=False)
    place_drawn: bool = False  # chance drew ``hand_number`` (its first action)

    def __deepcopy__(self, memo: dict[int, Any]) -> Held:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (replay, (self.game.rules, self.dealer, DRAWN if self.place_drawn else self.hand_number,
                         self.chance_and_actions()))

    def chance_and_actions(self) -> tuple[int, ...]:
        """Every action so far, chance's first: the place where it was drawn, the cards, the rest."""
        place = (self.hand_number,) if self.place_drawn else ()
        return (*place, *self.drawn, *(self.hand.history if self.hand is not None else ()))

    def draw_place(self, place: int) -> Held:
        if place not in hand_places(self.game):
            raise ValueError(f"There is no hand {place} to draw in this game")
        return replace(start(self.game, self.dealer, place), place_drawn=True)

    def undrawn(self) -> list[int]:
        """The cards of the pack not drawn yet, in pack order."""
        mask = self.drawn_mask
        return [card for card in self.game.deck() if not mask >> card & 1]

    def draw(self, card: int) -> Held:
        mask = self.drawn_mask
        if not (0 <= card < 52 and self.game.rules.deck_mask >> card & 1) or mask >> card & 1 \
                or len(self.drawn) >= self.draws:
            raise ValueError(f"{card_name(card) if 0 <= card < 52 else card} cannot be dealt now")
        drawn, mask = (*self.drawn, card), mask | 1 << card
        if len(drawn) < self.draws:
            return Held(self.game, self.dealer, self.hand_number, drawn, None, self.draws, None, mask,
                        place_drawn=self.place_drawn)
        pack = list(drawn) + [c for c in self.game.deck() if not mask >> c & 1]
        hand = self.game.deal_cards(self.dealer, pack, self.hand_number)
        return Held(self.game, self.dealer, self.hand_number, drawn, hand, self.draws, hand, mask,
                    place_drawn=self.place_drawn)

    def act(self, action: Action) -> Held:
        if self.hand_number == DRAWN:
            return self.draw_place(action)
        if self.hand is None:
            return self.draw(action)
        hand = self.hand.apply(action)
        return Held(self.game, self.dealer, self.hand_number, self.drawn, hand, self.draws, self.first,
                    self.drawn_mask, place_drawn=self.place_drawn)


def start(game: HandGame, dealer: int, hand_number: int) -> Held:
    """A hand about to be dealt: at place ``hand_number`` of the game, or ``DRAWN`` for chance to draw it."""
    draws = 0 if hand_number == DRAWN else cards_drawn(game, hand_number)
    return Held(game, dealer, hand_number, (), None, draws)


def replay(rules: Rules, dealer: int, hand_number: int, actions: Sequence[Action]) -> Held:
    """The hand ``start`` makes with ``actions`` applied, chance's included: how a pickled state comes back."""
    held = start(game_for_rules(rules), dealer, hand_number)
    for action in actions:
        held = held.act(action)
    return held


class WhistState(pyspiel.State):  # type: ignore[misc]
    """A hand under way, for OpenSpiel: chance deals the cards, then the seats act."""

    def __init__(self, game: HandSetup, held: Held | None = None) -> None:
        super().__init__(game)
        self._held = held if held is not None else start(game.whist_game, game.dealer, game.hand_number)

    # What the engine says ---------------------------------------------------------------------

    @property
    def hand(self) -> HandState | None:
        """The engine's hand once the cards are dealt; None while dealing."""
        return self._held.hand

    @property
    def memo(self) -> dict[Any, str]:
        """Texts made of this very position, kept while it lasts (it is immutable)."""
        return self._held.memo

    @property
    def drawn(self) -> tuple[int, ...]:
        """The cards dealt so far, in the order they left the pack."""
        return self._held.drawn

    @property
    def place_drawn(self) -> tuple[int, ...]:
        """The chance action that drew the hand's place in the game, where one did (else empty)."""
        held = self._held
        return (held.hand_number,) if held.place_drawn else ()

    def seat_view(self, seat: int) -> SeatView | None:
        """What ``seat`` may know (None while dealing): the one source of every observation."""
        hand = self._held.hand
        return None if hand is None else seat_view(hand, seat)

    def dealt_view(self, seat: int) -> SeatView | None:
        """What ``seat`` saw when the cards were dealt (a turned-up card it still remembers)."""
        first = self._held.first
        return None if first is None else seat_view(first, seat)

    def cards_received(self, seat: int) -> tuple[int, ...]:
        """While dealing: the cards ``seat`` has been dealt so far, in order."""
        held = self._held
        if held.hand_number == DRAWN:
            return ()
        n = held.game.players
        first = (held.dealer + 1) % n
        dealt = n * held.game.hand_size(held.hand_number)
        return tuple(card for i, card in enumerate(held.drawn[:dealt]) if (first + i) % n == seat)

    # OpenSpiel's API --------------------------------------------------------------------------

    def current_player(self) -> int:
        hand = self._held.hand
        if hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        if hand.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        return hand.player

    def _legal_actions(self, player: int) -> list[int]:
        hand = self._held.hand
        if hand is None or hand.is_terminal or player != hand.player:
            return []
        return sorted(int(a) for a in hand.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        held = self._held
        if held.hand is not None:
            return []
        outcomes = hand_places(held.game) if held.hand_number == DRAWN else held.undrawn()
        return [(outcome, 1.0 / len(outcomes)) for outcome in outcomes]

    def _apply_action(self, action: int) -> None:
        self._held = self._held.act(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._held.hand_number == DRAWN:
                return f"Hand {action + 1} of the game: {self._held.game.hand_size(action)} cards each"
            return f"Deal {card_name(action)}"
        return action_name(action)

    def is_terminal(self) -> bool:
        hand = self._held.hand
        return hand is not None and hand.is_terminal

    def returns(self) -> list[float]:
        hand = self._held.hand
        if hand is None:
            return [0.0] * self._held.game.players
        return [float(points) for points in hand.scores()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> WhistState:
        """A state ``player_id`` cannot tell from this one, the hidden cards drawn by our exact
        deal sampler (``israeli_whist.rl.openspiel_resample``), seeded from ``probability_sampler``
        (OpenSpiel's ``UniformProbabilitySampler``): what Python ISMCTS asks without a resampler."""
        seed = int(probability_sampler() * 2**53)
        return resample(self, player_id, random.Random(seed))

    def __str__(self) -> str:
        """Everything, hidden cards too: for logs and for checking two states are the same."""
        held = self._held
        hand = held.hand
        if hand is None:
            return f"dealer {held.dealer}; dealing: {' '.join(card_name(c) for c in held.drawn)}"
        lines = [f"dealer {hand.dealer}; phase {hand.phase.name.lower()}; player {hand.player}",
                 "trump " + (strain_symbol(hand.trump) if hand.trump >= 0 else "-")
                 + (f"; turned {card_name(hand.turned_card)}" if hand.turned_card >= 0 else "")]
        lines += [f"seat {seat}: {hand_name(cards) or '-'}" for seat, cards in enumerate(hand.hands)]
        lines.append("actions: " + " ".join(hand.history_names()))
        return "\n".join(lines)
