"""The state of one hand: an immutable value; ``apply`` returns a new one.

The state is a NamedTuple so that making the next state is one tuple copy. That
keeps random playouts fast while states stay true values (equal when equal,
safe to share between threads and keep in a history).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from whist.core.actions import Action, Phase, action_name
from whist.core.cards import CardSet

if TYPE_CHECKING:
    from whist.core.game import HandGame

Trick = tuple[int, tuple[int, ...], int]  # (leader seat, cards in playing order, winner seat)
Call = tuple[int, int, Action]  # (Frisch round, seat, auction call)


class HandState(NamedTuple):
    game: HandGame
    dealer: int
    deal: tuple[CardSet, ...]  # each seat's cards as dealt, before any Frisch
    unseen: CardSet  # cards dealt to nobody and never shown (stock, removed cards)
    hands: tuple[CardSet, ...]  # each seat's cards now
    phase: Phase
    player: int  # seat to act, -1 when the hand is over
    history: tuple[Action, ...]  # every action of the hand, in order
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

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def is_terminal(self) -> bool:
        return self[6] < 0  # no one to act: the hand is over or cancelled (6 is ``player``)

    @property
    def current_player(self) -> int:
        return self.player

    def legal_actions(self) -> Sequence[Action]:
        """Every action the player to act may take, in action order; empty once the hand is over."""
        return self.game.legal_actions(self)

    def apply(self, action: Action) -> HandState:
        """The state after ``action``; raises IllegalActionError (the state is unchanged) if not allowed."""
        return self.game.apply(self, action)

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

    def history_names(self) -> list[str]:
        return [action_name(a) for a in self.history]
