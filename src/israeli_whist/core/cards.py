"""Cards as small ints and hands as bit masks.

A card is ``suit * 13 + rank`` where rank 0 is the two and rank 12 the ace, so
cards of one suit are contiguous bits and comparing two cards of a suit is
comparing ints. A hand (or any set of cards) is an int with bit ``card`` set.

>>> card_name(parse_card("QH"))
'QH'
>>> card_name(parse_card("10c"))
'TC'
>>> symbol_name(parse_card("Q♥"))
'Q♥'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from israeli_whist.core.errors import NotationError, quoted

Card = int
CardSet = int  # bit mask of cards
Suit = int
Rank = int

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
NO_TRUMP = 4  # a strain, not a suit: used wherever "trump or none" is stored
SUITS: tuple[Suit, ...] = (CLUBS, DIAMONDS, HEARTS, SPADES)
RANKS_PER_SUIT = 13
DECK_SIZE = 52

SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
STRAIN_LETTERS = ("C", "D", "H", "S", "NT")
RANK_LETTERS = "23456789TJQKA"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace")

FULL_DECK: CardSet = (1 << DECK_SIZE) - 1
CARD_BITS: tuple[CardSet, ...] = tuple(1 << card for card in range(DECK_SIZE))  # a look-up beats a shift
SUIT_MASKS: tuple[CardSet, ...] = tuple(((1 << RANKS_PER_SUIT) - 1) << (13 * s) for s in SUITS)

TWO, THREE, FOUR, FIVE = 0, 1, 2, 3
JACK, QUEEN, KING, ACE = 9, 10, 11, 12


def make_card(suit: Suit, rank: Rank) -> Card:
    return suit * RANKS_PER_SUIT + rank


def card_suit(card: Card) -> Suit:
    return card // RANKS_PER_SUIT


def card_rank(card: Card) -> Rank:
    return card % RANKS_PER_SUIT


def card_bit(card: Card) -> CardSet:
    return 1 << card


def card_name(card: Card) -> str:
    """ASCII name, rank then suit: ``TC`` for the ten of clubs."""
    return RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13]


def symbol_name(card: Card) -> str:
    """Display name with the suit symbol; the ten is written ``10``."""
    rank = card % 13
    letter = "10" if rank == 8 else RANK_LETTERS[rank]
    return letter + SUIT_SYMBOLS[card // 13]


def long_name(card: Card) -> str:
    """Words a player reads in a message: ``the 9 of hearts``."""
    return f"the {RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}"


def strain_name(strain: int) -> str:
    return STRAIN_LETTERS[strain]


def strain_symbol(strain: int) -> str:
    return "NT" if strain == NO_TRUMP else SUIT_SYMBOLS[strain]


def parse_suit(text: str) -> Suit:
    """A suit from a letter, symbol or word (``h``, ``♥``, ``hearts``)."""
    key = text.strip().lower()
    for suit in SUITS:
        if key in (SUIT_LETTERS[suit].lower(), SUIT_SYMBOLS[suit], SUIT_NAMES[suit], SUIT_NAMES[suit][:-1]):
            return suit
    # Unicode has outline and filled forms of the suit symbols; accept both.
    outline = "♧♢♡♤"
    if len(key) == 1 and key in outline:
        return outline.index(key)
    raise NotationError(f"Not a suit: {quoted(text)} (use C, D, H, S or ♣ ♦ ♥ ♠)")


def parse_strain(text: str) -> int:
    key = text.strip().lower()
    if key in ("nt", "n", "notrump", "no-trump", "no trump", "notrumps"):
        return NO_TRUMP
    return parse_suit(key)


def parse_rank(text: str) -> Rank:
    key = text.strip().upper()
    if key == "10":
        return 8
    if len(key) == 1 and key in RANK_LETTERS:
        return RANK_LETTERS.index(key)
    raise NotationError(f"Not a rank: {quoted(text)} (use 2-9, T or 10, J, Q, K, A)")


def parse_card(text: str) -> Card:
    """A card from ``QH``, ``TC``, ``10C``, ``Q♥`` or ``h q`` (suit first also works)."""
    key = text.strip().replace(" ", "")
    if len(key) < 2:
        raise NotationError(f"Not a card: {quoted(text)} (write rank then suit, like QH, 10C or Q♥)")
    try:
        return make_card(parse_suit(key[-1]), parse_rank(key[:-1]))
    except NotationError:
        pass
    try:
        return make_card(parse_suit(key[0]), parse_rank(key[1:]))
    except NotationError:
        raise NotationError(f"Not a card: {quoted(text)} (write rank then suit, like QH, 10C or Q♥)") from None


def _suit_chunk_cards(suit: Suit, chunk: int) -> tuple[Card, ...]:
    base = suit * RANKS_PER_SUIT
    return tuple(base + rank for rank in range(RANKS_PER_SUIT) if chunk >> rank & 1)


# The cards of every 13-bit pattern of each suit, filled on first use: listing a hand is then
# four look-ups instead of a loop over its bits, which matters in random playouts.
SUIT_CHUNKS: tuple[dict[int, tuple[Card, ...]], ...] = tuple({} for _ in SUITS)


def suit_chunk_cards(suit: Suit, chunk: int) -> tuple[Card, ...]:
    """The cards of ``suit`` whose rank bits are set in the 13-bit ``chunk``."""
    table = SUIT_CHUNKS[suit]
    try:
        return table[chunk]
    except KeyError:
        cards = table[chunk] = _suit_chunk_cards(suit, chunk)
        return cards


CLUB_CHUNKS, DIAMOND_CHUNKS, HEART_CHUNKS, SPADE_CHUNKS = SUIT_CHUNKS


def cards_tuple(mask: CardSet) -> tuple[Card, ...]:
    """The cards of a set, lowest first, as a tuple."""
    try:
        return (CLUB_CHUNKS[mask & 0x1FFF] + DIAMOND_CHUNKS[mask >> 13 & 0x1FFF]
                + HEART_CHUNKS[mask >> 26 & 0x1FFF] + SPADE_CHUNKS[mask >> 39])
    except KeyError:  # a suit pattern not seen before: fill it in and look again
        for suit in SUITS:
            suit_chunk_cards(suit, mask >> 13 * suit & 0x1FFF)
        return cards_tuple(mask)


def cards_in(mask: CardSet) -> list[Card]:
    """The cards of a set, lowest first."""
    return list(cards_tuple(mask))


def iter_cards(mask: CardSet) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def card_set(cards: Iterable[Card]) -> CardSet:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def count(mask: CardSet) -> int:
    return mask.bit_count()


def suit_cards(mask: CardSet, suit: Suit) -> CardSet:
    return mask & SUIT_MASKS[suit]


def sorted_for_display(mask: CardSet, trump: int = NO_TRUMP) -> list[Card]:
    """Cards grouped by suit (trump first, then spades, hearts, diamonds, clubs), high to low."""
    order = [SPADES, HEARTS, CLUBS, DIAMONDS]  # alternate colours where trump allows
    if trump in order:
        order.remove(trump)
        order.insert(0, trump)
    out: list[Card] = []
    for suit in order:
        out.extend(reversed(cards_in(mask & SUIT_MASKS[suit])))
    return out


def parse_hand(text: str) -> CardSet:
    """A set of cards from space or comma separated names; duplicates are an error."""
    mask = 0
    for token in text.replace(",", " ").split():
        card = parse_card(token)
        if mask >> card & 1:
            raise NotationError(f"{card_name(card)} is listed twice in {quoted(text)}")
        mask |= 1 << card
    return mask


def hand_name(mask: CardSet) -> str:
    """Card names separated by spaces, high suits and ranks first; ``parse_hand`` reads it back."""
    return " ".join(card_name(c) for c in sorted(cards_in(mask), key=lambda c: (-(c // 13), -(c % 13))))
