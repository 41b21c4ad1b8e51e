"""The inputs of the learned trick estimator (``israeli_whist.bots.judgement.learned``), computed from a seat's view.

The network sees a hand as it was at the seat's contract bid, with the context the seat saw then:

- its cards, suit by suit in a canonical order: the trump suit first, then the other suits
  longest first (a hand and the same hand with two side suits swapped are one input, so the data
  teaches a quarter as many different hands);
- each suit's length, and the basic bot's estimate of its tricks (``estimate_tricks``), which the
  network corrects rather than learns from nothing;
- no trump, the seat's place in the bidding order and relative to the dealer and the auction's
  winner (who leads the first trick in Israeli Whist), whether it is that winner and the level it
  promised, the hand's size and the number of players;
- the contracts bid before it, by the bidder's place to its left, and their sum.

Everything is scaled to about [0, 1]; ``FEATURE_NAMES`` names each column.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from israeli_whist.bots.judgement.basic_bidding import Outlook, estimate_tricks
from israeli_whist.bots.judgement.basic_knowledge import game_deck, played_by_seat
from israeli_whist.core.actions import bid_level
from israeli_whist.core.cards import NO_TRUMP, RANKS_PER_SUIT, SUIT_MASKS, SUITS, CardSet, Suit
from israeli_whist.core.views import SeatView

MAX_PLAYERS = 4
RANK_MASK = (1 << RANKS_PER_SUIT) - 1
# Row h: the 13 bits of a suit's holding h, lowest rank first (a look-up: the features are asked of
# many imagined hands, and a Python loop over the bits was a third of their time).
RANK_BITS = ((np.arange(1 << RANKS_PER_SUIT)[:, None] >> np.arange(RANKS_PER_SUIT)) & 1).astype(np.float64)

FEATURE_NAMES: tuple[str, ...] = (
    *(f"suit{slot}_rank{rank}" for slot in range(4) for rank in range(RANKS_PER_SUIT)),
    *(f"suit{slot}_length" for slot in range(4)),
    "basic_estimate", "no_trump", "hand_size", "players",
    *(f"bid_order_{i}" for i in range(MAX_PLAYERS)),
    *(f"left_of_dealer_{i}" for i in range(MAX_PLAYERS)),
    *(f"auction_winner_left_{i}" for i in range(MAX_PLAYERS)),  # 0: this seat won the auction
    "auction_level",
    *(f"bid_before_left_{k}" for k in range(1, MAX_PLAYERS)),
    *(f"contract_before_left_{k}" for k in range(1, MAX_PLAYERS)),
    "contracts_before_sum",
)


def suit_order(hand: CardSet, trump: int) -> list[Suit]:
    """The trump suit first, then the other suits longest first (higher cards first among equals).

    >>> from israeli_whist.core.cards import HEARTS, card_set, parse_card
    >>> hand = card_set(parse_card(c) for c in ("AS", "KS", "2C", "3D", "4D"))
    >>> suit_order(hand, HEARTS)  # hearts, then spades (AK beats the 43 of diamonds), diamonds, clubs
    [2, 3, 1, 0]
    """
    def key(suit: Suit) -> tuple[int, int]:
        cards = hand & SUIT_MASKS[suit]
        return -cards.bit_count(), -(cards >> (RANKS_PER_SUIT * suit))

    sides = sorted((suit for suit in SUITS if suit != trump), key=key)
    return [trump, *sides] if trump != NO_TRUMP else sides


def auction_winner(view: SeatView) -> int:
    """The seat that won the trump auction (-1 in a game without one)."""
    return view.declarer if view.rules.traits.trump_auction else -1


def first_bidder(view: SeatView) -> int:
    """The seat that bids the first contract: the auction's winner, else the dealer's left."""
    winner = auction_winner(view)
    return winner if winner >= 0 else (view.dealer + 1) % view.players


def contracts_before(seat: int, view: SeatView) -> dict[int, int]:
    """The contracts bid before ``seat``'s own, by seat (those ``view`` shows: all of them once
    ``seat`` has bid)."""
    n = view.players
    start = first_bidder(view)
    seen: dict[int, int] = {}
    for step in range((seat - start) % n):
        bidder = (start + step) % n
        if view.contracts and view.contracts[bidder] >= 0:
            seen[bidder] = view.contracts[bidder]
    return seen


def hand_at_bid(view: SeatView) -> CardSet:
    """The viewing seat's cards as they were when contracts were bid: those it holds and those it
    has played since."""
    return view.hand | played_by_seat(view)[view.seat] if view.seat >= 0 else view.hand


def features_for(hand: CardSet, trump: int, seat: int, view: SeatView) -> npt.NDArray[np.float64]:
    """The inputs for ``seat`` holding ``hand`` at its contract bid, the context read from ``view``
    (any view of the hand from that bid on)."""
    n, size = view.players, view.hand_size
    if n > MAX_PLAYERS:
        raise ValueError(f"The learned estimator knows tables of up to {MAX_PLAYERS} players, not {n}")
    row = np.zeros(len(FEATURE_NAMES), dtype=np.float64)
    at = 0
    order = suit_order(hand, trump)
    for slot, suit in enumerate(order):
        start = at + slot * RANKS_PER_SUIT
        row[start:start + RANKS_PER_SUIT] = RANK_BITS[(hand >> (RANKS_PER_SUIT * suit)) & RANK_MASK]
    at += 4 * RANKS_PER_SUIT
    for slot, suit in enumerate(order):
        row[at + slot] = (hand & SUIT_MASKS[suit]).bit_count() / size
    at += 4
    outlook = Outlook(n, size, game_deck(view) & ~hand)
    row[at] = estimate_tricks(hand, trump, outlook) / size
    row[at + 1] = float(trump == NO_TRUMP)
    row[at + 2] = size / RANKS_PER_SUIT
    row[at + 3] = n / MAX_PLAYERS
    at += 4
    row[at + (seat - first_bidder(view)) % n] = 1.0
    at += MAX_PLAYERS
    row[at + (seat - view.dealer) % n] = 1.0
    at += MAX_PLAYERS
    winner = auction_winner(view)
    if winner >= 0:
        row[at + (winner - seat) % n] = 1.0
        row[at + MAX_PLAYERS] = bid_level(view.high_bid) / size
    at += MAX_PLAYERS + 1
    before = contracts_before(seat, view)
    for bidder, contract in before.items():
        left = (bidder - seat) % n
        row[at + left - 1] = 1.0
        row[at + MAX_PLAYERS - 1 + left - 1] = contract / size
    row[at + 2 * (MAX_PLAYERS - 1)] = sum(before.values()) / size
    return row


def features(view: SeatView) -> npt.NDArray[np.float64]:
    """The inputs for the viewing seat, from its view at its contract bid (or later)."""
    if view.seat < 0:
        raise ValueError("A spectator's view has no hand to estimate")
    return features_for(hand_at_bid(view), view.trump, view.seat, view)
