"""Double-dummy (perfect-information) analysis for the partnership game: N/S (seats 0 and 2)
against E/W (seats 1 and 3), any strain, any number of cards left, at a trick's start or
part-way through it.

The search is compiled (``solver.pyx``); this module checks the position and is the API.
Hands are card masks (``israeli_whist.core.cards``), strains 0-3 a trump suit and 4 no trump.

>>> from israeli_whist.core.cards import parse_card
>>> hands = [1 << parse_card(name) for name in ("AS", "KS", "2H", "3H")]
>>> solve(hands, trump=2, leader=1)  # East leads the king of spades: South ruffs, West overruffs
1
>>> solve(hands, trump=4, leader=1)
0
>>> leader_side_tricks(hands, trump=4, leader=0)
1
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from israeli_whist.core.cards import DECK_SIZE, NO_TRUMP

_solver: ModuleType | None
try:
    from israeli_whist.bots.search.dd import solver as _solver
except ImportError:  # built without a C compiler: the extension is optional in setup.py
    _solver = None

Strain = int
Seat = int
STRAINS: tuple[Strain, ...] = (0, 1, 2, 3, NO_TRUMP)
SEATS: tuple[Seat, ...] = (0, 1, 2, 3)


class SolverUnavailableError(RuntimeError):
    """The compiled solver was not built (no C compiler at install time)."""


class InvalidPositionError(ValueError):
    """The hands, trick, strain or seat do not describe a position that can arise in play."""


def solve(hands: Sequence[int], trump: Strain, leader: Seat, trick: Sequence[int] = ()) -> int:
    """Most tricks the side of the player on move takes from the cards left, current trick included.

    ``hands`` are the four seats' cards (masks) without the cards of ``trick``, which lists the
    cards played so far to the current trick, in order, from ``leader`` on. The player on move is
    ``(leader + len(trick)) % 4``.
    """
    checked = _check(hands, trump, leader, trick)
    tricks: int = _compiled().solve_position(checked, trump, leader, tuple(trick))
    return tricks


def leader_side_tricks(hands: Sequence[int], trump: Strain, leader: Seat, trick: Sequence[int] = ()) -> int:
    """Most tricks the side of ``leader`` (who led or leads the current trick) takes from here."""
    tricks = solve(hands, trump, leader, trick)
    if len(trick) % 2 == 0:
        return tricks
    left = max(hand.bit_count() for hand in hands)
    return left - tricks


def dd_table(hands: Sequence[int]) -> dict[tuple[Strain, Seat], int]:
    """Tricks the leader's side takes, for every strain (0-4) and opening leader (0-3).

    Unlike a bridge table, this one is indexed by the leader, not the declarer (whose left-hand
    opponent leads): ``table[strain, leader]``.
    """
    checked = _check(hands, NO_TRUMP, 0, ())
    tricks = _compiled().solve_table(checked)
    return {(strain, leader): tricks[4 * index + leader]
            for index, strain in enumerate(STRAINS) for leader in SEATS}


def _compiled() -> ModuleType:
    if _solver is None:
        raise SolverUnavailableError(
            "israeli_whist.bots.search.dd.solver is not compiled: install a C compiler and run pip install -e . again"
        )
    return _solver


def _check(hands: Sequence[int], trump: Strain, leader: Seat, trick: Sequence[int]) -> tuple[int, int, int, int]:
    if len(hands) != 4:
        raise InvalidPositionError(f"four hands are needed, not {len(hands)}")
    if trump not in STRAINS:
        raise InvalidPositionError(f"strain must be 0-3 (a trump suit) or 4 (no trump), not {trump}")
    if leader not in SEATS:
        raise InvalidPositionError(f"seats are 0-3, not {leader}")
    if len(trick) > 3:
        raise InvalidPositionError(f"a trick in progress has at most 3 cards, not {len(trick)}")
    seen = 0
    for mask in hands:
        if mask < 0 or mask >> DECK_SIZE:
            raise InvalidPositionError(f"a hand must be a mask of the 52 cards, not {mask:#x}")
        if seen & mask:
            raise InvalidPositionError("a card is in two hands")
        seen |= mask
    for card in trick:
        if not 0 <= card < DECK_SIZE or seen >> card & 1:
            raise InvalidPositionError(f"card {card} of the trick is not a card, or is still in a hand")
        seen |= 1 << card
    left = hands[(leader + len(trick)) % 4].bit_count()
    for position in range(4):
        expected = left - 1 if position < len(trick) else left
        seat = (leader + position) % 4
        if hands[seat].bit_count() != expected:
            raise InvalidPositionError(f"seat {seat} holds {hands[seat].bit_count()} cards, not {expected}")
    if trick and left == 0:
        raise InvalidPositionError("the player on move has no card to play")
    return (hands[0], hands[1], hands[2], hands[3])
