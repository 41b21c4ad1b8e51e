"""The database: its tables (created by the Alembic migrations in ``migrations/``) and the
``Store`` through which the server reads and writes them. SQLite and PostgreSQL alike.

Every action of a table is a row keyed by (table, sequence number): an action is stored
before it is broadcast, a duplicate can never be stored twice, and a table is rebuilt after a
restart by replaying its rows through the engine.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    event,
    false,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection

metadata = MetaData()
T = TypeVar("T")


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


users = Table(
    "users", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    # Accounts have a unique login name and a password; guests have neither.
    Column("login", String(40), unique=True, nullable=True),
    Column("password_hash", String(300), nullable=True),
    Column("created_at", DateTime, nullable=False),
)

tables = Table(
    "tables", metadata,
    Column("id", String(24), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("preset", String(40), nullable=True),
    Column("options", JSON, nullable=False),
    Column("seed", String(40), nullable=False),
    Column("first_dealer", Integer, nullable=False),
    Column("public", Boolean, nullable=False),
    Column("invite", String(40), nullable=False),
    Column("status", String(12), nullable=False),  # playing, finished
    Column("move_timer", Float, nullable=True),
    Column("created_by", Integer, ForeignKey("users.id"), nullable=True),
    Column("created_at", DateTime, nullable=False),
    Column("finished_at", DateTime, nullable=True),
    Column("totals", JSON, nullable=True),
    Column("chat", String(8), nullable=False, server_default="everyone"),  # who may talk: chat.CHAT_MODES
    Column("hints", Boolean, nullable=False, server_default=false()),  # the creator allowed hints (hintstore.py)
    # A board of a duplicate event (events.py): the event, and the board's number; None at other tables.
    Column("event_id", String(24), nullable=True),
    Column("event_board", Integer, nullable=True),
)

seats = Table(
    "seats", metadata,
    Column("table_id", String(24), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human, bot
    Column("bot_level", String(16), nullable=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=True),
)

actions = Table(
    "actions", metadata,
    Column("table_id", String(24), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Integer, nullable=False),
    Column("by_bot", Boolean, nullable=False),
    Column("created_at", DateTime, nullable=False),
)

hand_results = Table(
    "hand_results", metadata,
    Column("table_id", String(24), ForeignKey("tables.id"), primary_key=True),
    Column("hand_number", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=True),
    Column("contract", Integer, nullable=True),  # None in games without contracts
    Column("tricks", Integer, nullable=False),
    Column("points", Integer, nullable=False),
)

ratings = Table(
    "ratings", metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
)

sheets = Table(
    "sheets", metadata,
    Column("id", String(24), primary_key=True),
    Column("owner_id", Integer, ForeignKey("users.id"), nullable=True),
    Column("game", String(16), nullable=False),
    Column("options", JSON, nullable=False),
    Column("players", JSON, nullable=False),
    Column("created_at", DateTime, nullable=False),
)

sheet_hands = Table(
    "sheet_hands", metadata,
    Column("sheet_id", String(24), ForeignKey("sheets.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("entry", JSON, nullable=False),
)

# A signed-in browser (israeli_whist.server.sessions): its cookie holds a random token, and the row
# the token's SHA-256, so that a copy of the database holds no session anyone could use.
sessions = Table(
    "sessions", metadata,
    Column("id", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("created_at", DateTime, nullable=False),
    Column("expires_at", DateTime, nullable=False),
)


# Several servers on one PostgreSQL (israeli_whist.server.cluster): who plays each table, and who lives.
table_owners = Table(
    "table_owners", metadata,
    Column("table_id", String(24), ForeignKey("tables.id"), primary_key=True),
    Column("node", String(64), nullable=False),
    Column("expires_at", DateTime, nullable=False),
)

nodes = Table(
    "nodes", metadata,
    Column("node", String(64), primary_key=True),
    Column("expires_at", DateTime, nullable=False),
)


MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = 0x77686973  # "whis": the advisory lock held while a PostgreSQL database is migrated


def is_postgresql(url: str) -> bool:
    return url.startswith(("postgresql:", "postgresql+", "postgres:"))


def migrate(url: str) -> None:
    """Bring the database at ``url`` to the newest schema (creating it if it is empty)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if not is_postgresql(url):
        command.upgrade(config, "head")
        return
    # Nodes of a cluster start together: one migrates while the others wait, then find it done.
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            c.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            try:
                command.upgrade(config, "head")
            finally:
                c.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
    finally:
        engine.dispose()


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection: Any, _record: Any) -> None:
            # WAL: a commit survives the process being killed, without an fsync per action.
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    # Enough kept open for the threads that store actions at once (asyncio's default executor has
    # the cores + 4) and the event loop's own queries: a connection past the pool is opened and
    # closed for each use, and PostgreSQL starts a process for each, tens of milliseconds.
    # pool_pre_ping: after a database restart every pooled connection is dead; each is tested (one
    # round trip on loopback) as it leaves the pool, so no request meets a dead one.
    return create_engine(url, pool_size=12, max_overflow=8, pool_pre_ping=True)


@dataclass(frozen=True)
class TableRow:
    id: str
    game: str
    preset: str | None
    options: dict[str, Any]
    seed: str
    first_dealer: int
    public: bool
    invite: str
    status: str
    move_timer: float | None
    created_by: int | None
    totals: list[int] | None
    chat: str = "everyone"  # who may talk at the table (server/chat.py)
    hints: bool = False  # a practice table: its players may ask for hints, and its games are not rated
    event_id: str | None = None  # a duplicate event's board (events.py), played as a one-hand private table
    event_board: int | None = None


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: str
    bot_level: str | None
    user_id: int | None


class Store:
    """All reads and writes of the server. Each method is one short transaction."""

    def __init__(self, url: str) -> None:
        migrate(url)
        self.engine = make_engine(url)
        # A server's queries travel to PostgreSQL and back: the event loop must not wait for them.
        self.over_network = is_postgresql(url)

    async def off_loop(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` from the event loop: in a thread where it waits on the network (PostgreSQL),
        so that the other tables go on meanwhile; at once on SQLite, in this process and quick."""
        if self.over_network:
            return await asyncio.to_thread(work, *args)
        return work(*args)

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        with self.engine.begin() as connection:
            yield connection

    def close(self) -> None:
        self.engine.dispose()

    # Users -----------------------------------------------------------------------------------

    def add_user(self, name: str, login: str | None = None, password_hash: str | None = None) -> int:
        with self.begin() as c:
            result = c.execute(insert(users).values(name=name, login=login, password_hash=password_hash,
                                                    created_at=now()))
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    def user(self, user_id: int) -> dict[str, Any] | None:
        with self.begin() as c:
            row = c.execute(select(users).where(users.c.id == user_id)).mappings().first()
            return dict(row) if row else None

    def user_by_login(self, login: str) -> dict[str, Any] | None:
        with self.begin() as c:
            row = c.execute(select(users).where(users.c.login == login)).mappings().first()
            return dict(row) if row else None

    def set_password_hash(self, user_id: int, password_hash: str) -> None:
        with self.begin() as c:
            c.execute(update(users).where(users.c.id == user_id).values(password_hash=password_hash))

    def user_names(self, ids: Sequence[int]) -> dict[int, str]:
        if not ids:
            return {}
        with self.begin() as c:
            return {r.id: r.name for r in c.execute(select(users.c.id, users.c.name).where(users.c.id.in_(ids)))}

    # Tables ----------------------------------------------------------------------------------

    def add_table(self, row: TableRow, seat_rows: Sequence[SeatRow],
                  also: Callable[[Connection], None] | None = None) -> None:
        """Store a new table and its seats; ``also`` runs in the same transaction (an event's board
        stores its play there) and may raise to store nothing."""
        with self.begin() as c:
            values = {k: v for k, v in row.__dict__.items()}
            c.execute(insert(tables).values(**values, created_at=now()))
            c.execute(insert(seats), [{"table_id": row.id, **s.__dict__} for s in seat_rows])
            if also is not None:
                also(c)

    def set_seat_user(self, table_id: str, seat: int, user_id: int,
                      also: Callable[[Connection], None] | None = None) -> None:
        """Seat a user; ``also`` runs in the same transaction (a friend's play of an event board)."""
        with self.begin() as c:
            c.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat)
                      .values(user_id=user_id))
            if also is not None:
                also(c)

    def tables_with_status(self, status: str) -> list[TableRow]:
        with self.begin() as c:
            rows = c.execute(select(tables).where(tables.c.status == status).order_by(tables.c.created_at))
            return [_table_row(r) for r in rows.mappings()]

    def open_tables_made_by(self, user_id: int) -> int:
        with self.begin() as c:
            return int(c.execute(select(func.count()).select_from(tables)
                                 .where(tables.c.created_by == user_id, tables.c.status == "playing")).scalar_one())

    def table(self, table_id: str) -> TableRow | None:
        with self.begin() as c:
            row = c.execute(select(tables).where(tables.c.id == table_id)).mappings().first()
            return _table_row(row) if row else None

    def seats_of(self, table_id: str) -> list[SeatRow]:
        with self.begin() as c:
            rows = c.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat))
            return [SeatRow(r.seat, r.kind, r.bot_level, r.user_id) for r in rows]

    def actions_of(self, table_id: str) -> list[tuple[int, int, int]]:
        """(sequence number, seat, action) of every stored action, in order."""
        with self.begin() as c:
            rows = c.execute(select(actions.c.seq, actions.c.seat, actions.c.action)
                             .where(actions.c.table_id == table_id).order_by(actions.c.seq))
            return [(r.seq, r.seat, r.action) for r in rows]

    def actions_since(self, table_id: str, seq: int) -> list[tuple[int, int, int]]:
        """``actions_of`` from sequence number ``seq`` on."""
        with self.begin() as c:
            rows = c.execute(select(actions.c.seq, actions.c.seat, actions.c.action)
                             .where(actions.c.table_id == table_id, actions.c.seq >= seq).order_by(actions.c.seq))
            return [(r.seq, r.seat, r.action) for r in rows]

    def append_action(self, table_id: str, seq: int, seat: int, action: int, by_bot: bool,
                      hand_rows: Sequence[dict[str, Any]] = (), finished_totals: Sequence[int] | None = None,
                      before_finishing: Callable[[Connection], None] | None = None,
                      insert_action: Callable[[Connection, dict[str, Any]], None] | None = None) -> None:
        """Store one action, with what it completed (a hand's results, the game's end), at once.

        ``before_finishing`` runs in the same transaction just before a game's end is stored (the
        live table rates the game there), so that a game is rated exactly when its end is stored.
        ``insert_action`` stores the action's row instead of a plain insert (a node of a cluster
        inserts it only while it holds the table) and may raise to store nothing. The primary key
        (table, seq) refuses a second action with the same number: the caller holds the table's
        lock, and in a cluster the table's lease.
        """
        with self.begin() as c:
            row = {"table_id": table_id, "seq": seq, "seat": seat, "action": action, "by_bot": by_bot,
                   "created_at": now()}
            if insert_action is None:
                c.execute(insert(actions).values(**row))
            else:
                insert_action(c, row)
            if hand_rows:
                c.execute(insert(hand_results), [{"table_id": table_id, **r} for r in hand_rows])
            if finished_totals is not None:
                if before_finishing is not None:
                    before_finishing(c)
                c.execute(update(tables).where(tables.c.id == table_id)
                          .values(status="finished", finished_at=now(), totals=list(finished_totals)))


def _table_row(r: Any) -> TableRow:
    return TableRow(r["id"], r["game"], r["preset"], dict(r["options"]), r["seed"], r["first_dealer"], r["public"],
                    r["invite"], r["status"], r["move_timer"], r["created_by"], r["totals"], r["chat"],
                    r["hints"], r["event_id"], r["event_board"])
