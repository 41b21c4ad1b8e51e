"""One flat integer action space shared by every game and phase.

Like OpenSpiel: cards first, then calls at fixed offsets. The phase of the hand
says what a card action means (play it, or pass it in a Frisch), so one int is
enough for every decision and a record is a list of ints (written as text).

- ``0..51``: a card
- ``PASS``: pass in the trump auction
- ``bid_action(level, strain)``: a trump-auction bid; a higher bid is a larger int
- ``contract_action(n)``: a contract of ``n`` tricks (Israeli Whist phase 2, Whistiti bids)
"""

from __future__ import annotations

from enum import IntEnum

from israeli_whist.core.cards import (
    DECK_SIZE,
    NO_TRUMP,
    STRAIN_LETTERS,
    card_name,
    parse_card,
    parse_strain,
    symbol_name,
)
from israeli_whist.core.digits import leading_digits, read_number
from israeli_whist.core.errors import NotationError, quoted

Action = int

MAX_TRICKS = 17  # three-player Israeli Whist with one random card removed
PASS: Action = DECK_SIZE
BID_BASE: Action = PASS + 1
STRAINS = 5
CONTRACT_BASE: Action = BID_BASE + MAX_TRICKS * STRAINS
NUM_ACTIONS: Action = CONTRACT_BASE + MAX_TRICKS + 1


class Phase(IntEnum):
    AUCTION = 0  # Israeli Whist phase 1: calls for trump
    FRISCH = 1  # Israeli Whist: each player picks three cards to pass
    CONTRACT = 2  # Israeli Whist phase 2 and Whistiti bidding: tricks each player will take
    PLAY = 3
    OVER = 4  # played out and scored
    CANCELLED = 5  # no bid after the last Frisch: the same dealer deals again


def bid_action(level: int, strain: int) -> Action:
    if not 1 <= level <= MAX_TRICKS:
        raise NotationError(f"A bid's level is a number of tricks, at most {MAX_TRICKS}, not {level}")
    if not 0 <= strain <= NO_TRUMP:
        raise NotationError(f"A bid's strain is C, D, H, S or NT, not {strain}")
    return BID_BASE + (level - 1) * STRAINS + strain


def bid_level(action: Action) -> int:
    return (action - BID_BASE) // STRAINS + 1


def bid_strain(action: Action) -> int:
    return (action - BID_BASE) % STRAINS


def contract_action(tricks: int) -> Action:
    if not 0 <= tricks <= MAX_TRICKS:
        raise NotationError(f"A contract is a number of tricks from 0 to {MAX_TRICKS}, not {tricks}")
    return CONTRACT_BASE + tricks


def contract_tricks(action: Action) -> int:
    return action - CONTRACT_BASE


def is_card(action: Action) -> bool:
    return 0 <= action < DECK_SIZE


def is_bid(action: Action) -> bool:
    return BID_BASE <= action < CONTRACT_BASE


def is_contract(action: Action) -> bool:
    return CONTRACT_BASE <= action < NUM_ACTIONS


def action_name(action: Action) -> str:
    """Record notation: ``QH``, ``pass``, ``6S``, ``7NT``, or a bare number for a contract."""
    if is_card(action):
        return card_name(action)
    if action == PASS:
        return "pass"
    if is_bid(action):
        return f"{bid_level(action)}{STRAIN_LETTERS[bid_strain(action)]}"
    if is_contract(action):
        return str(contract_tricks(action))
    raise NotationError(f"Not an action: {action}")


def action_display(action: Action) -> str:
    """Like ``action_name`` with suit symbols, for screens."""
    if is_card(action):
        return symbol_name(action)
    if is_bid(action):
        strain = bid_strain(action)
        return f"{bid_level(action)}{'NT' if strain == NO_TRUMP else '♣♦♥♠'[strain]}"
    return action_name(action)


def parse_action(text: str, phase: Phase) -> Action:
    """Read an action typed by a person or stored in a record, in the given phase.

    Numbers are ASCII digits only (``israeli_whist.core.digits``): ``"٣"`` is not a contract of 3.
    """
    key = text.strip()
    if phase in (Phase.PLAY, Phase.FRISCH):
        return parse_card(key)
    if phase == Phase.CONTRACT:
        tricks = read_number(key)
        if tricks is None:
            raise NotationError(f"A contract is a number of tricks, like 3, not {quoted(text)}")
        return contract_action(tricks)
    if phase == Phase.AUCTION:
        if key.lower() in ("pass", "p", "-"):
            return PASS
        digits = leading_digits(key)
        level = read_number(key[:digits])
        if level is None or digits == len(key):
            raise NotationError(f"A call is 'pass' or a level and strain, like 5S or 7NT, not {quoted(text)}")
        return bid_action(level, parse_strain(key[digits:]))
    raise NotationError(f"No action can be taken once the hand is {phase.name.lower()}")
