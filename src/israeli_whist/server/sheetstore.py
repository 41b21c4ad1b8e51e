"""Storage of score sheets (``israeli_whist.core.scoresheet``) in the ``sheets`` and ``sheet_hands`` tables.

A sheet row holds the game, its rule options and the player names; each hand is one row keyed
by (sheet, number) holding the hand's entry as JSON. Points are never stored: they are computed
again from the entries, so the stored sheet is the scorer's input and nothing else. The primary
key refuses a second hand with the same number, so two devices adding a hand at once cannot
both succeed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError

from israeli_whist.server.db import Store, now, sheet_hands, sheets

LIST_LIMIT = 200


class HandNumberTaken(Exception):
    """Another hand with this number was stored first."""


@dataclass(frozen=True)
class SheetRow:
    id: str
    owner_id: int | None
    game: str
    options: dict[str, Any]
    players: list[str]
    created_at: dt.datetime


def add_sheet(store: Store, row: SheetRow) -> None:
    with store.begin() as c:
        c.execute(insert(sheets).values(id=row.id, owner_id=row.owner_id, game=row.game, options=row.options,
                                        players=row.players, created_at=row.created_at))


def new_sheet_row(sheet_id: str, owner_id: int | None, game: str, options: dict[str, Any],
                  players: Sequence[str]) -> SheetRow:
    return SheetRow(sheet_id, owner_id, game, dict(options), list(players), now())


def sheet_row(store: Store, sheet_id: str) -> SheetRow | None:
    with store.begin() as c:
        row = c.execute(select(sheets).where(sheets.c.id == sheet_id)).mappings().first()
        return _sheet_row(row) if row else None


def sheets_of(store: Store, owner_id: int, limit: int = LIST_LIMIT) -> list[tuple[SheetRow, list[dict[str, Any]]]]:
    """The owner's sheets, newest first, each with its entries in order."""
    with store.begin() as c:
        rows = [_sheet_row(r) for r in c.execute(
            select(sheets).where(sheets.c.owner_id == owner_id)
            .order_by(sheets.c.created_at.desc(), sheets.c.id).limit(limit)).mappings()]
        entries: dict[str, list[dict[str, Any]]] = {row.id: [] for row in rows}
        if rows:
            for hand in c.execute(select(sheet_hands.c.sheet_id, sheet_hands.c.entry)
                                  .where(sheet_hands.c.sheet_id.in_(list(entries)))
                                  .order_by(sheet_hands.c.sheet_id, sheet_hands.c.number)):
                entries[hand.sheet_id].append(dict(hand.entry))
    return [(row, entries[row.id]) for row in rows]


def hand_entries(store: Store, sheet_id: str) -> list[dict[str, Any]]:
    """The entries of a sheet's hands, in order."""
    with store.begin() as c:
        rows = c.execute(select(sheet_hands.c.entry).where(sheet_hands.c.sheet_id == sheet_id)
                         .order_by(sheet_hands.c.number))
        return [dict(r.entry) for r in rows]


def append_hand(store: Store, sheet_id: str, number: int, entry: dict[str, Any]) -> None:
    """Store hand ``number`` (1-based); HandNumberTaken if that number is already stored."""
    try:
        with store.begin() as c:
            c.execute(insert(sheet_hands).values(sheet_id=sheet_id, number=number, entry=entry))
    except IntegrityError:
        raise HandNumberTaken(f"Hand {number} of this sheet is already stored") from None


def delete_hand(store: Store, sheet_id: str, number: int) -> bool:
    """Delete hand ``number``; False if there was none."""
    with store.begin() as c:
        result = c.execute(delete(sheet_hands).where(sheet_hands.c.sheet_id == sheet_id,
                                                     sheet_hands.c.number == number))
        return result.rowcount > 0


def delete_sheet(store: Store, sheet_id: str) -> None:
    with store.begin() as c:
        c.execute(delete(sheet_hands).where(sheet_hands.c.sheet_id == sheet_id))
        c.execute(delete(sheets).where(sheets.c.id == sheet_id))


def _sheet_row(r: Any) -> SheetRow:
    return SheetRow(r["id"], r["owner_id"], r["game"], dict(r["options"]), list(r["players"]), r["created_at"])
