"""Hints used at a table, stored with its game (the migration ``0005_hints`` makes the table and the
tables' ``hints`` column): each with its hand, its step in the hand (the actions taken in the hand
before it was asked) and the seat that asked, so that the history and the replay show where hints
were used, and the rating leaves such a game out (``ratings.py``)."""

from __future__ import annotations

from sqlalchemy import Column, DateTime, ForeignKey, Integer, String, Table, func, insert, select
from sqlalchemy.engine import Connection

from israeli_whist.server.db import Store, metadata, now

hints_used = Table(
    "hints_used", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(24), ForeignKey("tables.id"), nullable=False, index=True),
    Column("hand_number", Integer, nullable=False),  # 1, 2, ... as the game counts its deals
    Column("step", Integer, nullable=False),  # actions taken in the hand when the hint was asked
    Column("seat", Integer, nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("created_at", DateTime, nullable=False),
)


def add_hint(store: Store, table_id: str, hand_number: int, step: int, seat: int, user_id: int) -> None:
    """Store a hint given (before it is sent: a hint the game does not record is never shown)."""
    with store.begin() as c:
        c.execute(insert(hints_used).values(table_id=table_id, hand_number=hand_number, step=step, seat=seat,
                                            user_id=user_id, created_at=now()))


def game_hints(c: Connection, table_id: str) -> list[dict[str, int]]:
    """Every hint used in a game, in order: ``{"hand", "step", "seat"}``."""
    rows = c.execute(select(hints_used.c.hand_number, hints_used.c.step, hints_used.c.seat)
                     .where(hints_used.c.table_id == table_id).order_by(hints_used.c.id)).all()
    return [{"hand": r.hand_number, "step": r.step, "seat": r.seat} for r in rows]


def hint_counts(c: Connection, table_ids: list[str]) -> dict[str, int]:
    """How many hints each of these games used (games without any are left out)."""
    if not table_ids:
        return {}
    rows = c.execute(select(hints_used.c.table_id, func.count()).where(hints_used.c.table_id.in_(table_ids))
                     .group_by(hints_used.c.table_id)).all()
    return {table_id: int(count) for table_id, count in rows}


def hints_by_hand(hints: list[dict[str, int]]) -> dict[int, list[tuple[int, int]]]:
    """``game_hints`` as a game record holds them: per hand number, its (step, seat) pairs.

    >>> hints_by_hand([{"hand": 2, "step": 5, "seat": 0}, {"hand": 2, "step": 9, "seat": 0}])
    {2: [(5, 0), (9, 0)]}
    """
    found: dict[int, list[tuple[int, int]]] = {}
    for hint in hints:
        found.setdefault(hint["hand"], []).append((hint["step"], hint["seat"]))
    return found

