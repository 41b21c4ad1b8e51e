"""Talk at a table, stored with its game (the migration ``0004_chat`` makes the table): each message
with the number of actions taken when it was said (``version``), so that the replay shows it at
its place in the game, and the sender's name as it was then."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, DateTime, ForeignKey, Integer, String, Table, insert, select, update
from sqlalchemy.engine import Connection

from israeli_whist.server.db import Store, metadata, now, tables, users

RECENT = 50  # the messages a page is sent when it connects
# Who may talk at a table; its creator chooses (at creation, or later at the table).
CHAT_MODES = ("everyone", "seated", "off")

chat_messages = Table(
    "chat_messages", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(24), ForeignKey("tables.id"), nullable=False, index=True),
    Column("version", Integer, nullable=False),  # actions taken when it was said
    Column("seat", Integer, nullable=False),  # -1: a spectator
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("name", String(40), nullable=False),
    Column("text", String(400), nullable=True),  # a message, or
    Column("reaction", String(16), nullable=True),  # one of chat.REACTIONS
    Column("created_at", DateTime, nullable=False),
)


def message_json(row: Any) -> dict[str, Any]:
    """A message as the pages get it, live and in the replay."""
    said = {"id": row.id, "version": row.version, "seat": row.seat, "spectator": row.seat < 0, "name": row.name,
            "user_id": row.user_id, "at": row.created_at.isoformat() + "Z"}
    if row.reaction is not None:
        said["reaction"] = row.reaction
    else:
        said["text"] = row.text
    return said


def add_message(store: Store, table_id: str, version: int, seat: int, user_id: int, text: str | None,
                reaction: str | None) -> dict[str, Any]:
    """Store a message (the sender's name as it is now); the message as the pages get it."""
    with store.begin() as c:
        name = c.execute(select(users.c.name).where(users.c.id == user_id)).scalar_one()
        key = c.execute(insert(chat_messages).values(
            table_id=table_id, version=version, seat=seat, user_id=user_id, name=name, text=text, reaction=reaction,
            created_at=now())).inserted_primary_key
        assert key is not None
        row = c.execute(select(chat_messages).where(chat_messages.c.id == key[0])).one()
        return message_json(row)


def recent_messages(store: Store, table_id: str, count: int = RECENT) -> list[dict[str, Any]]:
    """The table's last ``count`` messages, oldest first."""
    with store.begin() as c:
        rows = c.execute(select(chat_messages).where(chat_messages.c.table_id == table_id)
                         .order_by(chat_messages.c.id.desc()).limit(count)).all()
    return [message_json(row) for row in reversed(rows)]


def game_chat(c: Connection, table_id: str) -> list[dict[str, Any]]:
    """Every message of a game, in order: the replay shows each at its ``version``."""
    rows = c.execute(select(chat_messages).where(chat_messages.c.table_id == table_id)
                     .order_by(chat_messages.c.id)).all()
    return [message_json(row) for row in rows]


def stored_message(store: Store, table_id: str, message_id: int) -> dict[str, Any] | None:
    """One message of the table, by its number; None if the table has no such message."""
    with store.begin() as c:
        row = c.execute(select(chat_messages).where(chat_messages.c.id == message_id,
                                                    chat_messages.c.table_id == table_id)).first()
    return None if row is None else message_json(row)


def stored_chat_mode(store: Store, table_id: str) -> str | None:
    with store.begin() as c:
        mode = c.execute(select(tables.c.chat).where(tables.c.id == table_id)).scalar()
    return mode if isinstance(mode, str) and mode in CHAT_MODES else None


def set_chat_mode(store: Store, table_id: str, mode: str) -> None:
    with store.begin() as c:
        c.execute(update(tables).where(tables.c.id == table_id).values(chat=mode))
