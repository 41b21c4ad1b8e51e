"""Duplicate events as stored (the migration ``0007_events`` makes the tables): an event's rules and
window, and each player's play of a board, the private one-hand table it is played at and, once
that table's game ends, the player's points and line (contract, tricks, trump).

A board's play row is written in the transaction that stores its table (``insert_play``) and
finished in the one that stores the table's last action (``record_board``), so a board can
neither be started twice by one player (the primary key (event, board, user) refuses the second)
nor end without its result.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    ColumnElement,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Table,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from israeli_whist.core.match import Match
from israeli_whist.server.db import Store, metadata, now, tables, users

PLAYING: Final = "playing"
FINISHED: Final = "finished"
DAILY: Final = "daily"
CLUB: Final = "club"

events = Table(
    "events", metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("kind", String(8), nullable=False),  # daily (made by the server each day) or club
    Column("game", String(16), nullable=False),
    Column("preset", String(40), nullable=True),
    Column("options", JSON, nullable=False),
    Column("seed", String(40), nullable=False),  # secret: it deals every board
    Column("boards", Integer, nullable=False),
    Column("bot_level", String(16), nullable=False),
    Column("public", Boolean, nullable=False),
    Column("invite", String(40), nullable=False),
    Column("created_by", Integer, ForeignKey("users.id"), nullable=True),
    Column("starts_at", DateTime, nullable=False),
    Column("ends_at", DateTime, nullable=False, index=True),
    Column("created_at", DateTime, nullable=False),
)

event_plays = Table(
    "event_plays", metadata,
    Column("event_id", String(24), ForeignKey("events.id"), primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True, index=True),
    Column("seat", Integer, nullable=False),
    Column("table_id", String(24), ForeignKey("tables.id"), nullable=False, index=True),  # friends share one
    Column("status", String(12), nullable=False),  # playing, finished
    Column("points", Integer, nullable=True),
    Column("line", JSON, nullable=True),  # {"contract": int|None, "tricks": int, "trump": int|None}
    Column("started_at", DateTime, nullable=False),
    Column("finished_at", DateTime, nullable=True),
)


@dataclass(frozen=True)
class EventRow:
    id: str
    name: str
    kind: str
    game: str
    preset: str | None
    options: dict[str, Any]
    seed: str
    boards: int
    bot_level: str
    public: bool
    invite: str
    created_by: int | None
    starts_at: dt.datetime
    ends_at: dt.datetime

    def open_at(self, moment: dt.datetime) -> bool:
        return self.starts_at <= moment < self.ends_at


@dataclass(frozen=True)
class PlayRow:
    event_id: str
    board: int
    user_id: int
    name: str
    seat: int
    table_id: str
    status: str
    points: int | None
    line: dict[str, Any] | None
    invite: str  # the table's: the link to its replay, given only to those who played the board
    finished_at: dt.datetime | None


def _event_row(r: Any) -> EventRow:
    return EventRow(r["id"], r["name"], r["kind"], r["game"], r["preset"], dict(r["options"]), r["seed"], r["boards"],
                    r["bot_level"], bool(r["public"]), r["invite"], r["created_by"], r["starts_at"], r["ends_at"])


def add_event(store: Store, row: EventRow) -> EventRow:
    """Store a new event; an event of the same id stored first (the day's event, made by two
    nodes at once) wins, and is returned."""
    try:
        with store.begin() as c:
            c.execute(insert(events).values(**row.__dict__, created_at=now()))
        return row
    except IntegrityError:
        found = event(store, row.id)
        if found is None:
            raise
        return found


def event(store: Store, event_id: str) -> EventRow | None:
    with store.begin() as c:
        found = c.execute(select(events).where(events.c.id == event_id)).mappings().first()
        return _event_row(found) if found else None


def events_by_id(store: Store, event_ids: list[str]) -> list[EventRow]:
    if not event_ids:
        return []
    with store.begin() as c:
        return [_event_row(r) for r in c.execute(select(events).where(events.c.id.in_(event_ids))).mappings()]


def listed_events(store: Store, viewer: int | None, limit: int = 100) -> list[EventRow]:
    """The events shown to ``viewer``: the public ones, and those they made or played, newest first."""
    shown: ColumnElement[bool] = events.c.public.is_(True)
    if viewer is not None:
        played = select(event_plays.c.event_id).where(event_plays.c.user_id == viewer)
        shown = or_(shown, events.c.created_by == viewer, events.c.id.in_(played))
    with store.begin() as c:
        rows = c.execute(select(events).where(shown).order_by(events.c.starts_at.desc(), events.c.id).limit(limit))
        return [_event_row(r) for r in rows.mappings()]


def player_counts(store: Store, event_ids: list[str]) -> dict[str, int]:
    """How many players have started a board of each event."""
    if not event_ids:
        return {}
    with store.begin() as c:
        rows = c.execute(select(event_plays.c.event_id, func.count(event_plays.c.user_id.distinct()))
                         .where(event_plays.c.event_id.in_(event_ids)).group_by(event_plays.c.event_id))
        return {event_id: int(count) for event_id, count in rows}


def _plays(c: Connection, *conditions: Any) -> list[PlayRow]:
    rows = c.execute(select(event_plays, users.c.name, tables.c.invite)
                     .join(users, users.c.id == event_plays.c.user_id)
                     .join(tables, tables.c.id == event_plays.c.table_id)
                     .where(*conditions).order_by(event_plays.c.event_id, event_plays.c.board, event_plays.c.user_id))
    return [PlayRow(r["event_id"], r["board"], r["user_id"], r["name"], r["seat"], r["table_id"], r["status"],
                    r["points"], r["line"], r["invite"], r["finished_at"]) for r in rows.mappings()]


def plays_of_board(store: Store, event_id: str, board: int) -> list[PlayRow]:
    with store.begin() as c:
        return _plays(c, event_plays.c.event_id == event_id, event_plays.c.board == board)


def plays_of_user_in(store: Store, event_id: str, user_id: int) -> list[PlayRow]:
    with store.begin() as c:
        return _plays(c, event_plays.c.event_id == event_id, event_plays.c.user_id == user_id)


def plays_of_user(store: Store, user_id: int) -> list[PlayRow]:
    with store.begin() as c:
        return _plays(c, event_plays.c.user_id == user_id)


def boards_being_played_by(store: Store, user_id: int) -> int:
    """How many boards ``user_id`` has started and not finished, on any node."""
    with store.begin() as c:
        return int(c.execute(select(func.count()).select_from(event_plays)
                             .where(event_plays.c.user_id == user_id, event_plays.c.status == PLAYING)).scalar_one())


def finished_plays_of_events(store: Store, event_ids: list[str]) -> list[PlayRow]:
    with store.begin() as c:
        return _plays(c, event_plays.c.event_id.in_(event_ids), event_plays.c.status == FINISHED)


def insert_play(c: Connection, event_id: str, board: int, user_id: int, seat: int, table_id: str) -> None:
    """In the transaction that stores the board's table, or a friend's seat at it: raises
    ``IntegrityError`` (and so stores neither) when this player has already started the board."""
    c.execute(insert(event_plays).values(event_id=event_id, board=board, user_id=user_id, seat=seat, table_id=table_id,
                                         status=PLAYING, started_at=now()))


def record_board(c: Connection, table_id: str, match: Match) -> None:
    """In the transaction that stores the last action of a board's table: each of its players'
    results (one against bots; friends at one table, each in their seat)."""
    final = match.results[-1].final
    for seat in c.execute(select(event_plays.c.seat).where(event_plays.c.table_id == table_id)).scalars():
        contract = final.contracts[seat] if final.contracts else None
        line = {"contract": contract if contract is not None and contract >= 0 else None,
                "tricks": final.tricks_won[seat], "trump": final.trump if final.trump >= 0 else None}
        c.execute(update(event_plays).where(event_plays.c.table_id == table_id, event_plays.c.seat == seat,
                                            event_plays.c.status == PLAYING)
                  .values(status=FINISHED, points=match.totals[seat], line=line, finished_at=now()))
