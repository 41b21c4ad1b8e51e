"""Shared trick-taking parts: which cards may be played, and who wins a trick.

>>> from israeli_whist.core.cards import parse_card, DIAMONDS
>>> trick = [parse_card(c) for c in ("9C", "QC", "7D", "8C")]
>>> trick_winner(trick, DIAMONDS)  # the worked example of docs/rules.md#tricks: the third card wins
2
"""

from __future__ import annotations

from collections.abc import Sequence

from israeli_whist.core.cards import SUIT_MASKS, Card, CardSet, Suit

# The mask of a suit, indexed by card, saves a division in the hottest loop.
SUIT_MASK_OF_CARD: tuple[CardSet, ...] = tuple(SUIT_MASKS[c // 13] for c in range(52))


def playable(hand: CardSet, trick: Sequence[Card]) -> CardSet:
    """The cards of ``hand`` that may be played to ``trick``: follow suit if able, else any."""
    if not trick:
        return hand
    follow = hand & SUIT_MASK_OF_CARD[trick[0]]
    return follow if follow else hand


def trick_winner(cards: Sequence[Card], trump: Suit | int) -> int:
    """Position in ``cards`` (0 = the lead) of the winning card; ``trump`` 4 means no trump."""
    best = 0
    best_card = cards[0]
    best_suit = best_card // 13
    for position in range(1, len(cards)):
        card = cards[position]
        suit = card // 13
        if suit == best_suit:
            if card > best_card:
                best, best_card = position, card
        elif suit == trump:
            best, best_card, best_suit = position, card, suit
    return best
