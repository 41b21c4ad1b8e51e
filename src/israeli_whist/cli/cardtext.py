"""Cards, calls and numbers as text: coloured ``rich`` text for the screen, ASCII for prompts.

The screen shows suit symbols in colour; prompts show what a person types (``QH``, ``10C``,
``5S``), so the two stay side by side without the reader having to translate.

>>> from israeli_whist.core.cards import parse_card
>>> typed_name(parse_card("TC"))
'10C'
>>> number_ranges([0, 1, 2, 4, 5, 6])
'0-2, 4-6'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text

from israeli_whist.core.actions import (
    PASS,
    Action,
    bid_level,
    bid_strain,
    contract_tricks,
    is_bid,
    is_card,
    is_contract,
)
from israeli_whist.core.cards import DIAMONDS, HEARTS, NO_TRUMP, RANK_LETTERS, SUIT_LETTERS, SUIT_SYMBOLS, Card
from israeli_whist.core.wording import count_text

RED_SUITS = (DIAMONDS, HEARTS)


def suit_style(suit: int) -> str:
    return "red" if suit in RED_SUITS else ""


def card_text(card: Card, style: str = "") -> Text:
    """``Q♥`` in red (hearts and diamonds) or the default colour (clubs and spades)."""
    rank = card % 13
    letter = "10" if rank == 8 else RANK_LETTERS[rank]
    suit = card // 13
    return Text(letter + SUIT_SYMBOLS[suit], style=f"{suit_style(suit)} {style}".strip())


def strain_text(strain: int) -> Text:
    if strain == NO_TRUMP:
        return Text("NT")
    return Text(SUIT_SYMBOLS[strain], style=suit_style(strain))


def action_text(action: Action) -> Text:
    """A card, call or contract as it appears on screen."""
    if is_card(action):
        return card_text(action)
    if action == PASS:
        return Text("pass")
    if is_bid(action):
        return Text(str(bid_level(action))) + strain_text(bid_strain(action))
    if is_contract(action):
        return Text(str(contract_tricks(action)))
    return Text(str(action))


def cards_line(cards: Iterable[Card], sep: str = " ") -> Text:
    return Text(sep).join(card_text(c) for c in cards)


def typed_name(card: Card) -> str:
    """What to type for a card: ``QH``, ``10C``."""
    rank = card % 13
    return ("10" if rank == 8 else RANK_LETTERS[rank]) + SUIT_LETTERS[card // 13]


def typed_bid(action: Action) -> str:
    strain = bid_strain(action)
    return f"{bid_level(action)}{'NT' if strain == NO_TRUMP else SUIT_LETTERS[strain]}"


def over_under_text(total: int, tricks: int) -> str:
    """``12 for 13 tricks: under by 1`` (contracts never add up to the tricks, so it is one or the other)."""
    word = "over" if total > tricks else "under"
    return f"{total} for {count_text(tricks, 'trick')}: {word} by {abs(total - tricks)}"


def number_ranges(numbers: Sequence[int]) -> str:
    """Consecutive runs joined with a dash, so that a list of 14 contracts fits in a prompt."""
    parts: list[str] = []
    start = prev = None
    for n in [*numbers, None]:
        if n is not None and prev is not None and n == prev + 1:
            prev = n
            continue
        if start is not None and prev is not None:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = n
    return ", ".join(parts)
