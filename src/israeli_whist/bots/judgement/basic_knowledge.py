"""What the basic bot reads from a seat's view during play: the cards still out, who has
shown out of a suit, and whether a card could still be beaten in the trick under way.

Everything here is derived from the public part of a ``SeatView`` and the seat's own hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from israeli_whist.core.cards import NO_TRUMP, SUIT_MASKS, Card, CardSet, Suit, card_set
from israeli_whist.core.rules import Rules
from israeli_whist.core.views import SeatView

# A seat is treated as possibly void when the chance of it is at least this: low enough to respect
# a real risk of a ruff, high enough that a fresh full hand is not suspected of every void.
VOID_SUSPICION = 0.2


def game_deck(view: SeatView) -> CardSet:
    """The cards that may be in some hand: the form's pack, less a face-up stock card."""
    return deck_less_stock_card(view.rules, view.turned_card)


def deck_less_stock_card(rules: Rules, turned_card: Card) -> CardSet:
    """``game_deck`` for a card on show (``turned_card``, -1 for none)."""
    if rules.traits.turned_card == "stock" and turned_card >= 0:
        return rules.deck_mask & ~(1 << turned_card)
    return rules.deck_mask


def cards_above(card: Card) -> CardSet:
    """The cards of the same suit that outrank ``card``."""
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def beats(card: Card, best: Card, trump: int) -> bool:
    """Whether ``card`` would take the trick from ``best``, the card winning it so far.

    >>> from israeli_whist.core.cards import HEARTS, NO_TRUMP, parse_card
    >>> beats(parse_card("2H"), parse_card("AS"), HEARTS), beats(parse_card("2H"), parse_card("AS"), NO_TRUMP)
    (True, False)
    """
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def played_cards(view: SeatView) -> CardSet:
    played = card_set(card for _, card in view.trick)
    for _, cards, _ in view.tricks:
        played |= card_set(cards)
    return played


def played_by_seat(view: SeatView) -> tuple[CardSet, ...]:
    """Per seat, the cards it has played this hand (a trick's cards are in playing order, from
    its leader)."""
    played = [0] * view.players
    for leader, cards, _ in view.tricks:
        for offset, card in enumerate(cards):
            played[(leader + offset) % view.players] |= 1 << card
    for seat, card in view.trick:
        played[seat] |= 1 << card
    return tuple(played)


def shown_voids(view: SeatView) -> tuple[int, ...]:
    """Per seat, a bit per suit the seat failed to follow, so it holds none of it."""
    voids = [0] * view.players
    tricks = [(leader, cards) for leader, cards, _ in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(card for _, card in view.trick)))
    for leader, cards in tricks:
        led = cards[0] // 13
        for position, card in enumerate(cards):
            if card // 13 != led:
                voids[(leader + position) % view.players] |= 1 << led
    return tuple(voids)


@dataclass(frozen=True)
class Knowledge:
    """The play-time picture of one seat."""

    seat: int
    players: int
    trump: int  # NO_TRUMP when there is none
    hand: CardSet
    legal: tuple[Card, ...]
    trick: tuple[tuple[int, Card], ...]  # (seat, card) of the trick under way
    outstanding: CardSet  # cards another seat may still hold
    voids: tuple[int, ...]
    tricks_left: int  # the trick under way included

    @classmethod
    def from_view(cls, view: SeatView) -> Knowledge:
        outstanding = game_deck(view) & ~view.hand & ~played_cards(view)
        return cls(view.seat, view.players, view.trump, view.hand, tuple(view.legal_actions), view.trick,
                   outstanding, shown_voids(view), view.hand_size - len(view.tricks))

    # The trick under way -------------------------------------------------------------------

    @property
    def leading(self) -> bool:
        return not self.trick

    @property
    def lead_suit(self) -> Suit:
        return self.trick[0][1] // 13 if self.trick else -1

    @property
    def following(self) -> bool:
        """Whether this seat must follow the suit led (its legal cards are all of that suit)."""
        return bool(self.trick) and self.legal[0] // 13 == self.lead_suit

    @property
    def later(self) -> tuple[int, ...]:
        """Seats still to play to this trick after this one."""
        return tuple((self.seat + k) % self.players for k in range(1, self.players - len(self.trick)))

    @property
    def winner(self) -> tuple[int, Card]:
        """(seat, card) winning the trick so far; the trick must have been led."""
        best_seat, best = self.trick[0]
        for seat, card in self.trick[1:]:
            if beats(card, best, self.trump):
                best_seat, best = seat, card
        return best_seat, best

    def wins_now(self, card: Card) -> bool:
        return not self.trick or beats(card, self.winner[1], self.trump)

    # Other seats' cards --------------------------------------------------------------------

    def higher_out(self, card: Card) -> int:
        """How many cards that outrank ``card`` in its suit another seat may hold."""
        return (self.outstanding & cards_above(card)).bit_count()

    def is_void(self, seat: int, suit: Suit) -> bool:
        return bool(self.voids[seat] >> suit & 1)

    def may_be_void(self, seat: int, suit: Suit) -> bool:
        if self.is_void(seat, suit):
            return True
        out = self.outstanding.bit_count()
        if not out:
            return True
        miss = 1 - (self.outstanding & SUIT_MASKS[suit]).bit_count() / out
        return miss ** min(self.tricks_left, out) >= VOID_SUSPICION

    def may_ruff(self, seat: int, suit: Suit) -> bool:
        trump = self.trump
        return (trump != NO_TRUMP and suit != trump and self.may_be_void(seat, suit)
                and not self.is_void(seat, trump) and bool(self.outstanding & SUIT_MASKS[trump]))

    def could_be_beaten(self, card: Card, seats: Sequence[int]) -> bool:
        """Whether one of ``seats``, playing after ``card`` wins the trick, might beat it."""
        suit = card // 13
        lead = self.lead_suit if self.trick else suit
        if suit not in (lead, self.trump):
            return True  # a discard never holds the trick
        higher = self.outstanding & cards_above(card)
        for seat in seats:
            if suit == lead:
                if higher and not self.is_void(seat, suit):
                    return True
                if self.may_ruff(seat, suit):
                    return True
            elif higher and self.may_be_void(seat, lead) and not self.is_void(seat, suit):
                return True  # an overruff: needs a void in the suit led and a higher trump
        return False

    def trumps_out(self) -> bool:
        """Whether another seat may still hold a trump."""
        if self.trump == NO_TRUMP or not self.outstanding & SUIT_MASKS[self.trump]:
            return False
        return any(not self.is_void(seat, self.trump) for seat in self.others())

    def others(self) -> tuple[int, ...]:
        return tuple((self.seat + k) % self.players for k in range(1, self.players))
