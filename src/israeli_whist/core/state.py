"""The state of one hand: an immutable value; ``apply`` returns a new one.

The state is a NamedTuple so that making the next state is one tuple copy. That
keeps random playouts fast while states stay true values (equal when equal,
safe to share between threads and keep in a history).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, NamedTuple, Protocol

from israeli_whist.core.actions import Action, Phase, action_name
from israeli_whist.core.cards import (
    CARD_BITS,
    CLUB_CHUNKS,
    DIAMOND_CHUNKS,
    HEART_CHUNKS,
    SPADE_CHUNKS,
    SUIT_CHUNKS,
    CardSet,
    cards_tuple,
)
from israeli_whist.core.rules import Rules
from israeli_whist.core.tricks import SUIT_MASK_OF_CARD, trick_winner

Trick = tuple[int, tuple[int, ...], int]  # (leader seat, cards in playing order, winner seat)
Call = tuple[int, int, Action]  # (Frisch round, seat, auction call)


class Game(Protocol):
    """A hand's game, as its states and their readers see it: ``HandGame``
    (``israeli_whist.core.handgame``) is the one kind, declared here so that a state can name its
    game without importing the module that acts on states."""

    rules: Rules
    players: int

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    def legal_actions(self, state: HandState) -> Sequence[Action]: ...

    def apply(self, state: HandState, action: Action) -> HandState: ...

    def hand_scores(self, state: HandState) -> tuple[int, ...]: ...

    def frisch_offset(self, frisch_round: int) -> int: ...

    def start_hand(self, dealer: int, hands: tuple[CardSet, ...], unseen: CardSet, turned_card: int,
                   hand_size: int, *, checked: bool = True) -> HandState: ...



class HandState(NamedTuple):
    game: Game
    dealer: int
    deal: tuple[CardSet, ...]  # each seat's cards as dealt, before any Frisch
    unseen: CardSet  # cards dealt to nobody and never shown (stock, removed cards)
    hands: tuple[CardSet, ...]  # each seat's cards now
    phase: Phase
    player: int  # seat to act, -1 when the hand is over
    # Every action of the hand as a chain (earlier chain, action), newest last: adding a link is
    # one small tuple, where a flat tuple would be copied whole at every action. See ``history``.
    action_log: tuple[Any, ...]
    calls: tuple[Call, ...]  # the trump auction, all rounds
    high_bid: Action  # -1 before the first bid
    declarer: int  # Israeli: high bidder, then declarer; Whistiti: first leader; -1 none
    passes: int  # passes in a row in the trump auction
    frisch_round: int  # Frisch exchanges completed
    frisch_selected: tuple[CardSet, ...]  # cards chosen so far in the Frisch under way
    frisch_passes: tuple[tuple[CardSet, ...], ...]  # cards each seat passed, per completed round
    trump: int  # a suit, 4 for no trump, -1 not yet known
    contracts: tuple[int, ...]  # -1: not yet bid
    leader: int  # seat that led the current trick
    trick: tuple[int, ...]  # cards of the current trick in playing order
    tricks: tuple[Trick, ...]  # completed tricks
    tricks_won: tuple[int, ...]
    turned_card: int  # Classic: the dealer's turned-up trump card; Whistiti: the stock's top card
    hand_size: int  # cards each seat is dealt, which is the number of tricks
    # Derivable from ``player`` (-1 once the hand ends), but a field is read without a Python
    # call, and playout loops ask it after every action.
    is_terminal: bool

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def current_player(self) -> int:
        return self.player

    # Replaced at import: when the compiled ``fastplay`` module was built, ``use_compiled_play``
    # (at the end of this file) puts its ``legal_actions`` and ``apply`` in place of the two
    # methods below, which stay as the reference (tests compare the two) and the fallback.
    def legal_actions(self) -> Sequence[Action]:
        """Every action the player to act may take, in action order; empty once the hand is over.
        Usually served by ``fastplay.legal_actions``: see ``use_compiled_play``."""
        if self.phase == _PLAY:  # the hot path of playouts stays in this one frame
            trick = self.trick
            hand = self.hands[self.player]
            try:
                if trick:
                    lead = trick[0]
                    follow = hand & _SUIT_MASK_OF_CARD[lead]
                    if follow:
                        suit = lead // 13
                        return SUIT_CHUNKS[suit][follow >> 13 * suit]
                return (CLUB_CHUNKS[hand & 0x1FFF] + DIAMOND_CHUNKS[hand >> 13 & 0x1FFF]
                        + HEART_CHUNKS[hand >> 26 & 0x1FFF] + SPADE_CHUNKS[hand >> 39])
            except KeyError:  # a suit pattern not listed yet
                return cards_tuple(follow if trick and follow else hand)
        return self.game.legal_actions(self)

    def apply(self, action: Action) -> HandState:
        """The state after ``action``; raises IllegalActionError (the state is unchanged) if not allowed.
        Usually served by ``fastplay.apply``: see ``use_compiled_play``."""
        if self.phase != _PLAY or action.__class__ is not int or not 0 <= action < 52:
            return self.game.apply(self, action)
        seat = self.player
        hands = list(self.hands)
        hand = hands[seat]
        bit = _CARD_BITS[action]
        trick = self.trick
        if not hand & bit:
            return self.game.apply(self, action)  # not held: the game explains why
        if trick:
            led = _SUIT_MASK_OF_CARD[trick[0]]
            if hand & led and not bit & led:
                return self.game.apply(self, action)  # fails to follow suit: the game explains why
        # Trick play is the same in every game, so it lives here, in one Python frame.
        v: list[Any] = list(self)
        hands[seat] = hand ^ bit
        v[_HANDS] = tuple(hands)
        v[_LOG] = (self.action_log, action)
        trick += (action,)
        n = len(hands)
        if len(trick) < n:
            v[_TRICK] = trick
            v[_PLAYER] = (seat + 1) % n
            return _new_state(HandState, v)
        leader = self.leader
        winner = (leader + trick_winner(trick, self.trump)) % n
        won = list(self.tricks_won)
        won[winner] += 1
        v[_TRICKS_WON] = tuple(won)
        tricks = self.tricks + ((leader, trick, winner),)
        v[_TRICKS] = tricks
        v[_TRICK] = ()
        v[_LEADER] = winner
        if len(tricks) == self.hand_size:
            v[_PHASE], v[_PLAYER], v[_IS_TERMINAL] = Phase.OVER, -1, True
        else:
            v[_PLAYER] = winner
        return _new_state(HandState, v)

    def scores(self) -> tuple[int, ...]:
        """Points of each seat for this hand; all zero unless the hand is over."""
        if self.phase != Phase.OVER:
            return (0,) * self.players
        return self.game.hand_scores(self)

    @property
    def contract_sum(self) -> int:
        return sum(c for c in self.contracts if c > 0)

    @property
    def over_under(self) -> str | None:
        """'over' or 'under' once every contract is bid (None before, and in games without contracts)."""
        if not self.contracts or -1 in self.contracts:
            return None
        return "over" if sum(self.contracts) > self.hand_size else "under"

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action of the hand, in order."""
        actions = []
        link = self.action_log
        while link:
            link, action = link
            actions.append(action)
        return tuple(reversed(actions))

    def history_names(self) -> list[str]:
        return [action_name(a) for a in self.history]


# Field positions, so that the hot paths build the next state from a list of values in one step.
FIELD = {name: i for i, name in enumerate(HandState._fields)}
_HANDS, _PHASE, _PLAYER, _LOG = FIELD["hands"], FIELD["phase"], FIELD["player"], FIELD["action_log"]
_TRICK, _TRICKS, _TRICKS_WON, _LEADER = FIELD["trick"], FIELD["tricks"], FIELD["tricks_won"], FIELD["leader"]
_IS_TERMINAL = FIELD["is_terminal"]
_PLAY = Phase.PLAY
_CARD_BITS = CARD_BITS
_SUIT_MASK_OF_CARD = SUIT_MASK_OF_CARD
_new_state: Callable[[type, Sequence[Any]], HandState] = tuple.__new__
# The next state from a list of field values: a C-level call, no Python frame.
make_state: Callable[[Sequence[Any]], HandState] = functools.partial(_new_state, HandState)

# Trick play, the bulk of every hand, is served by the compiled ``fastplay`` module when the
# install could build it; the Python methods above are the reference and the fallback.
PYTHON_PLAY = (HandState.legal_actions, HandState.apply)
_fastplay: ModuleType | None
try:
    from israeli_whist.core import fastplay
except ImportError:  # built without a C compiler
    _fastplay = None
else:
    fastplay.bind(FIELD, _PLAY, Phase.OVER)
    _fastplay = fastplay


def compiled_play_available() -> bool:
    return _fastplay is not None


def use_compiled_play(enabled: bool) -> bool:
    """Serve trick play from the compiled module (if it was built) or from the Python methods;
    returns whether the compiled module is now in use. Both give the same states."""
    if enabled and _fastplay is not None:
        HandState.legal_actions, HandState.apply = _fastplay.legal_actions, _fastplay.apply  # type: ignore[method-assign]
        return True
    HandState.legal_actions, HandState.apply = PYTHON_PLAY  # type: ignore[method-assign]
    return False


use_compiled_play(True)
