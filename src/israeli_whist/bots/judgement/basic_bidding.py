"""How the basic bot values a hand before play, and the calls it makes from that value:
trump calls in the Israeli auction, Frisch passes, and contract bids (Israeli Whist, Whistiti).

A hand is valued card by card as the chance that the card takes a trick with a given trump.
The other hands are unknown, so every unseen card of the pack is taken to be in another hand
with the same chance; in a full deal that chance is one, in a small Whistiti deal it is small.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

from israeli_whist.bots.judgement.basic_knowledge import cards_above, game_deck
from israeli_whist.core.actions import PASS, Action, bid_level, bid_strain, contract_tricks, is_bid
from israeli_whist.core.cards import NO_TRUMP, SUIT_MASKS, SUITS, Card, CardSet, Suit, cards_in
from israeli_whist.core.rules import Rules
from israeli_whist.core.views import SeatView

_compiled: ModuleType | None
try:
    from israeli_whist.bots.judgement import fastestimate as _compiled
except ImportError:  # built without a C compiler: the extension is optional in setup.py
    _compiled = None

# A trump call promises the contract at its level; the bot calls when its estimate falls short
# of the level by at most this, since the declarer also chooses trump and leads first.
CALL_MARGIN = 0.25
# Below this many expected tricks an Israeli player bids zero: a made zero scores 25 or 50,
# more than a made two (14) and far more than a missed small contract loses. Measured: among
# basic bots a line of 2.4 does best, among random players 1.5; this is between the two.
ZERO_LINE = 2.0
# The declarer chose the trump to suit its hand and leads first: it takes more than its cards
# alone promise (measured in games between basic bots).
DECLARER_BONUS = 0.75
# What a low trump is worth when the hand is short in a side suit and can ruff it.
RUFF_VALUE = 0.65
# A low card of a long suit wins once the others have run out: surely with trumps, less surely
# without, since the suit must first be set up and then reached.
LENGTH_VALUE_TRUMP = 0.8
LENGTH_VALUE_NO_TRUMP = 0.45


@functools.lru_cache(maxsize=1 << 16)  # a game asks the same few questions over and over
def binomial_at_most(k: int, n: int, p: float) -> float:
    """Chance of at most ``k`` successes in ``n`` tries of chance ``p``."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k + 1))


def _at_most(k: float, n: int, p: float) -> float:
    """``binomial_at_most`` for a fractional ``k``, read between the whole numbers around it."""
    low = math.floor(k)
    frac = k - low
    return (1 - frac) * binomial_at_most(low, n, p) + frac * binomial_at_most(low + 1, n, p)


@dataclass(frozen=True)
class Outlook:
    """What a seat can guess about the other hands before a card is played."""

    players: int
    hand_size: int
    unknown: CardSet  # cards that another seat may hold

    @classmethod
    def from_view(cls, view: SeatView) -> Outlook:
        return cls(view.players, view.hand_size, game_deck(view) & ~view.hand)

    @property
    def in_play(self) -> float:
        """Chance that a given unknown card is in another seat's hand."""
        unknown = self.unknown.bit_count()
        return min(1.0, (self.players - 1) * self.hand_size / unknown) if unknown else 0.0

    def share(self, suit: Suit) -> float:
        """Fraction of the unknown cards that are of ``suit``."""
        unknown = self.unknown.bit_count()
        return (self.unknown & SUIT_MASKS[suit]).bit_count() / unknown if unknown else 0.0

    def long_from(self, suit: Suit) -> int:
        """The round of a suit by which the others have probably run out of it."""
        others = (self.unknown & SUIT_MASKS[suit]).bit_count() * self.in_play / (self.players - 1)
        return math.ceil(others + 0.5)

    def survival(self, suit: Suit, trump: Suit, round_: int, drawn: int) -> float:
        """Chance that no other seat ruffs round ``round_`` (0 first) of side suit ``suit``,
        after this seat has drawn ``drawn`` rounds of trumps with its top trumps."""
        void = binomial_at_most(round_, self.hand_size, self.share(suit))
        has_trump = 1 - binomial_at_most(drawn, self.hand_size, self.share(trump))
        return float((1 - void * has_trump) ** (self.players - 1))

    def top_cards(self, hand: CardSet, suit: Suit) -> int:
        """How many of this seat's cards of ``suit`` no other seat can beat."""
        return sum(1 for card in cards_in(hand & SUIT_MASKS[suit]) if not self.unknown & cards_above(card))


_SUIT_MEMO: dict[tuple[object, ...], dict[Card, float]] = {}
SUIT_MEMO_LIMIT = 1 << 16


def _suit_values(mine: list[Card], suit: Suit, strain: int, outlook: Outlook, drawn: int) -> dict[Card, float]:
    """``_valued_suit``, remembered: a search values thousands of imagined hands, whose suits
    repeat far more often than the hands. The key is everything the valuation reads: the
    unknown cards of this suit, and only the counts of the rest (the trump's for the ruffs)."""
    unknown = outlook.unknown
    trumps_unknown = (unknown & SUIT_MASKS[strain]).bit_count() if strain not in (NO_TRUMP, suit) else -1
    key = (tuple(mine), suit, strain, drawn, unknown & SUIT_MASKS[suit], trumps_unknown, unknown.bit_count(),
           outlook.players, outlook.hand_size)
    values = _SUIT_MEMO.get(key)
    if values is None:
        if len(_SUIT_MEMO) >= SUIT_MEMO_LIMIT:
            _SUIT_MEMO.clear()
        values = _SUIT_MEMO[key] = _valued_suit(mine, suit, strain, outlook, drawn)
    return values


def _valued_suit(mine: list[Card], suit: Suit, strain: int, outlook: Outlook, drawn: int) -> dict[Card, float]:
    """Values of one suit's cards, highest first in ``mine``.

    A card wins when the others hold no more higher cards than those already spent on beating
    this seat's higher cards. A guarded honour that would lose still wins about half the time
    by position (the king under an ace played before it).
    """
    p = outlook.in_play
    length = len(mine)
    long_from = outlook.long_from(suit)
    values: dict[Card, float] = {}
    spent = 0.0  # the others' higher cards expected to be used up on this seat's higher cards
    for i, card in enumerate(mine):
        above = (outlook.unknown & cards_above(card)).bit_count()
        win = _at_most(spent, above, p)
        guards = length - 1 - i
        one_short = _at_most(spent + 1, above, p) - win
        two_short = _at_most(spent + 2, above, p) - win - one_short
        bonus = (0.5 if guards >= 1 else 0.25) * one_short + (0.25 if guards >= 2 else 0.125) * two_short
        spent += 1 - win - bonus
        value = win + bonus
        if strain in (NO_TRUMP, suit):
            if i >= long_from:
                value = max(value, LENGTH_VALUE_TRUMP if strain == suit else LENGTH_VALUE_NO_TRUMP)
        else:
            value *= outlook.survival(suit, strain, i, drawn)
        values[card] = value
    return values


def _add_ruffs(values: dict[Card, float], hand: CardSet, trump: Suit, outlook: Outlook) -> None:
    """Raise low trumps to a ruff's value, one per round of a short side suit."""
    rounds = max(1, round(2 * outlook.hand_size / 13))
    chances = sum(max(0, rounds - (hand & SUIT_MASKS[s]).bit_count()) for s in SUITS if s != trump)
    spare = sorted((c for c in cards_in(hand & SUIT_MASKS[trump]) if values[c] < RUFF_VALUE), key=values.__getitem__)
    for card in spare[:chances]:
        values[card] = RUFF_VALUE


def card_values(hand: CardSet, strain: int, outlook: Outlook) -> dict[Card, float]:
    """Each card's chance of taking a trick with ``strain`` as trump (NO_TRUMP: none)."""
    values: dict[Card, float] = {}
    drawn = outlook.top_cards(hand, strain) if strain != NO_TRUMP else 0
    for suit in SUITS:
        mine = cards_in(hand & SUIT_MASKS[suit])[::-1]
        values.update(_suit_values(mine, suit, strain, outlook, drawn))
    if strain != NO_TRUMP:
        _add_ruffs(values, hand, strain, outlook)
    return values


@functools.lru_cache(maxsize=1 << 12)  # each auction call weighs every strain again
def estimate_tricks(hand: CardSet, strain: int, outlook: Outlook) -> float:
    if _compiled is not None:  # the same arithmetic in C (fastestimate.pyx): the expert's searches ask it often
        return float(_compiled.estimate_tricks(hand, strain, outlook.players, outlook.hand_size, outlook.unknown))
    return estimate_tricks_python(hand, strain, outlook)


def estimate_tricks_python(hand: CardSet, strain: int, outlook: Outlook) -> float:
    """The hand's expected tricks with ``strain`` as trump: the sum of its cards' values."""
    return min(float(outlook.hand_size), sum(card_values(hand, strain, outlook).values()))


# Decisions ----------------------------------------------------------------------------------


def auction_call(view: SeatView) -> Action:
    """Israeli trump call: the cheapest bid in the strain with the most room over its level."""
    if view.declarer == view.seat:
        return PASS  # already the high bidder (four_passes lets the auction come back)
    outlook = Outlook.from_view(view)
    cheapest: dict[int, Action] = {}
    for action in view.legal_actions:
        if is_bid(action):
            cheapest.setdefault(bid_strain(action), action)  # legal bids come lowest first
    best, best_room = PASS, -CALL_MARGIN
    for strain, action in cheapest.items():
        room = estimate_tricks(view.hand, strain, outlook) - bid_level(action)
        if room >= best_room:
            best, best_room = action, room
    return best


def frisch_card(view: SeatView) -> Card:
    """The card to pass next: the least useful one, keeping the best suit and the high cards,
    and preferring cards of short suits so that voids open for ruffing."""
    return frisch_ranking(view)[0]


def frisch_ranking(view: SeatView) -> list[Card]:
    """The cards that may be passed now, the least useful first (see ``frisch_card``)."""
    hand = view.hand & ~view.frisch_selected
    outlook = Outlook.from_view(view)

    def strength(suit: Suit) -> float:
        as_trump = card_values(hand, suit, outlook)
        return sum(as_trump[c] for c in cards_in(hand & SUIT_MASKS[suit])) + (hand & SUIT_MASKS[suit]).bit_count()

    best = max((s for s in SUITS if hand & SUIT_MASKS[s]), key=strength)
    values = card_values(hand, best, outlook)

    def keep(card: Card) -> float:
        suit = card // 13
        return values[card] + (1.0 if suit == best else 0.0) + 0.05 * (hand & SUIT_MASKS[suit]).bit_count()

    return sorted(view.legal_actions, key=lambda c: (keep(c), c % 13))


def contract_bid(view: SeatView) -> Action:
    """The legal contract nearest the hand's expected tricks with the known trump."""
    return nearest_contract(view.hand, view.trump, Outlook.from_view(view), view.seat == view.declarer, view.rules,
                            view.legal_actions)


def nearest_contract(hand: CardSet, trump: int, outlook: Outlook, declarer: bool, rules: Rules,
                     legal: Sequence[Action]) -> Action:
    """``contract_bid`` from the parts of the view it reads (``declarer``: the seat won the
    auction), for a search that bids for imagined seats without building their views."""
    estimate = estimate_tricks(hand, trump, outlook)
    if declarer and rules.traits.trump_auction:  # the auction's winner must bid its level
        estimate += DECLARER_BONUS
    if rules.traits.rewards_zero_bids and estimate < ZERO_LINE:
        estimate = 0.0
    return min(legal, key=lambda a: (abs(contract_tricks(a) - estimate), contract_tricks(a)))
