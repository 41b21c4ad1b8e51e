"""Each player's statistics: counts over the hands a user played in finished games.

A cancelled deal (everyone passed) is no hand: every hand that is played out gives away all its
tricks, so a deal whose seats won no trick at all was cancelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, Subquery, and_, case, func, select
from sqlalchemy.engine import Connection

from israeli_whist.server.db import hand_results, tables


@dataclass(frozen=True)
class PlayerStats:
    """Counts over the hands a player played in finished games; the rates follow from them."""

    games: int = 0
    hands: int = 0
    contracts: int = 0  # hands with a contract (Israeli Whist, Whistiti)
    contracts_made: int = 0  # ... where the tricks taken equal the contract
    zero_bids: int = 0
    zero_bids_made: int = 0
    points: int = 0

    @property
    def contracts_made_pct(self) -> float | None:
        return percent(self.contracts_made, self.contracts)

    @property
    def zero_bids_made_pct(self) -> float | None:
        return percent(self.zero_bids_made, self.zero_bids)

    @property
    def average_points(self) -> float | None:
        """Average score per hand.

        >>> PlayerStats(hands=3, points=100).average_points
        33.33
        """
        return round(self.points / self.hands, 2) if self.hands else None

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "hands": self.hands, "contracts": self.contracts,
                "contracts_made": self.contracts_made, "contracts_made_pct": self.contracts_made_pct,
                "zero_bids": self.zero_bids, "zero_bids_made": self.zero_bids_made,
                "zero_bids_made_pct": self.zero_bids_made_pct, "points": self.points,
                "average_points": self.average_points}


def percent(part: int, whole: int) -> float | None:
    """``part`` of ``whole`` in percent, one decimal; None when there is nothing to count.

    >>> percent(2, 3), percent(0, 0)
    (66.7, None)
    """
    return round(100 * part / whole, 1) if whole else None


def player_stats(c: Connection, user_ids: Sequence[int]) -> dict[int, PlayerStats]:
    """The statistics of each of these users (all zero for one who has played no hand)."""
    if not user_ids:
        return {}
    h = hand_results
    played = _played_out(select(h.c.table_id, h.c.hand_number)
                         .join(tables, and_(tables.c.id == h.c.table_id, tables.c.status == "finished")))
    has_contract = h.c.contract.is_not(None)
    made = and_(has_contract, h.c.contract == h.c.tricks)
    zero = h.c.contract == 0
    query = (select(h.c.user_id, func.count(func.distinct(h.c.table_id)), func.count(), _count(has_contract),
                    _count(made), _count(zero), _count(and_(zero, h.c.tricks == 0)), func.sum(h.c.points))
             .join(played, and_(played.c.table_id == h.c.table_id, played.c.hand_number == h.c.hand_number))
             .where(h.c.user_id.in_(user_ids))
             .group_by(h.c.user_id))
    stats = {u: PlayerStats() for u in user_ids}
    for user_id, *counts in c.execute(query):
        stats[user_id] = PlayerStats(*(int(n or 0) for n in counts))
    return stats


def hands_played(c: Connection, table_ids: Sequence[str]) -> dict[str, int]:
    """How many hands of each table were played out (cancelled deals not counted)."""
    h = hand_results
    per_hand = _played_out(select(h.c.table_id, h.c.hand_number).where(h.c.table_id.in_(table_ids)))
    rows = c.execute(select(per_hand.c.table_id, func.count()).group_by(per_hand.c.table_id))
    return {table_id: int(n) for table_id, n in rows}


def _played_out(hands: Select[Any]) -> Subquery:
    """(table, hand number) of each of ``hands`` that was played out, once."""
    h = hand_results
    return (hands.group_by(h.c.table_id, h.c.hand_number)
            .having(func.sum(h.c.tricks) > 0)  # a cancelled deal gives no trick to anyone
            .subquery())


def _count(condition: Any) -> Any:
    return func.sum(case((condition, 1), else_=0))


