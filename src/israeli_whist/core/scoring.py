"""Scoring of one hand, shared by the engine and the score sheet for real cards.

>>> israeli_score(3, 3, over=True)
19
>>> israeli_score(4, 6, over=True)
-20
>>> whistiti_score(3, 3)
25
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ZeroScores:
    """What a zero bid scores. A failed zero scores ``first`` for the first trick taken and
    ``further`` for each trick after it (standard: -50, then +10 a trick: -50, -40, -30...)."""

    made_under: int
    made_over: int
    failed_under_first: int
    failed_under_further: int
    failed_over_first: int
    failed_over_further: int


# House rules differ mostly here, so they are data: add a row, not code.
ZERO_SCORES: dict[str, ZeroScores] = {
    "standard": ZeroScores(50, 25, -50, 10, -50, 10),
    "achim": ZeroScores(50, 30, -50, 10, -30, 0),
}


def israeli_score(contract: int, taken: int, *, over: bool, zero_scoring: str = "standard",
                  high_contract_first_undertrick: bool = False) -> int:
    """Points for one player in Israeli Whist; ``over`` is whether contracts sum above the tricks."""
    if contract == 0:
        table = ZERO_SCORES[zero_scoring]
        if taken == 0:
            return table.made_over if over else table.made_under
        first, further = ((table.failed_over_first, table.failed_over_further) if over
                          else (table.failed_under_first, table.failed_under_further))
        return first + further * (taken - 1)
    if taken == contract:
        return contract * contract + 10
    difference = abs(taken - contract)
    if high_contract_first_undertrick and contract >= 7 and taken < contract:
        return -15 - 10 * (difference - 1)
    return -10 * difference


def whistiti_score(contract: int, taken: int) -> int:
    """Exact: 10 + 5 a trick; missed: -5 for each trick of difference."""
    if taken == contract:
        return 10 + 5 * contract
    return -5 * abs(taken - contract)


def classic_trick_points(tricks_by_side: Sequence[int]) -> tuple[int, int]:
    """Points of sides (0+2, 1+3): the side with more tricks scores one per trick over six."""
    a, b = tricks_by_side
    return (max(0, a - 6), max(0, b - 6))


def classic_honour_points(honours_held: int) -> int:
    """A side holding all four of A K Q J of trumps scores 4, three of them 2."""
    return {4: 4, 3: 2}.get(honours_held, 0)
