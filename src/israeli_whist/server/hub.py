"""Every live table of the server: made on request, and rebuilt from the database at start.

In a cluster (``israeli_whist.server.cluster``) the hub holds the tables this node plays, a mirror of
each table another node plays that this node is asked about, and it takes over the tables whose
owner died."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection

from israeli_whist.bots.players.registry import check_level_name
from israeli_whist.core.errors import WhistError
from israeli_whist.core.games import make_game
from israeli_whist.server.chat import relay
from israeli_whist.server.chatstore import CHAT_MODES
from israeli_whist.server.cluster import Cluster, Message
from israeli_whist.server.db import SeatRow, Store, TableRow
from israeli_whist.server.eventstore import boards_being_played_by, event
from israeli_whist.server.live import MOVING, ActionRefused, LiveTable, RemoteConnection, Send
from israeli_whist.server.mirror import MirrorTable
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.workers import Thinkers, ThreadThinkers

log = logging.getLogger("whist.server")


class TableRequestError(ValueError):
    """A table that cannot be made as asked; the message says why."""


@dataclass(frozen=True)
class TableRequest:
    game: str
    preset: str | None
    options: dict[str, Any]
    seats: list[dict[str, Any]]  # per seat: {"kind": "human"} or {"kind": "bot", "level": "basic"}
    public: bool = True
    move_timer: float | None = None
    seed: str | None = None
    chat: str = "everyone"  # who may talk at the table: chatstore.CHAT_MODES
    hints: bool = False  # a practice table: hints allowed, games not rated (hints.py)
    first_dealer: int = 0
    event_id: str | None = None  # a duplicate event's board (events.py)
    event_board: int | None = None


class Hub:
    def __init__(self, store: Store, bot_delay: float, grace_seconds: float,
                 thinkers: Thinkers | None = None, cluster: Cluster | None = None) -> None:
        self.store = store
        self.thinkers = thinkers or ThreadThinkers()
        self.bot_delay = bot_delay
        self.grace_seconds = grace_seconds
        self.tables: dict[str, LiveTable] = {}  # the tables this node plays (and finished ones shown)
        self.cluster = cluster
        self.mirrors: dict[str, MirrorTable] = {}  # tables other nodes play
        self.later: set[asyncio.Task[None]] = set()
        self.introduce_again = False  # the mirrors tell their owners of their connections at the next upkeep
        if cluster is not None:
            cluster.on_table = self._announced
            cluster.on_request = self._requested
            cluster.on_heard_again = self._heard_again

    def resume(self) -> int:
        """Rebuild every unfinished table from its stored actions (in a cluster, those no live node
        holds); returns how many.

        A table whose stored actions no longer replay (rules changed under it, a hand-edited
        database) is logged and left out, so that one bad table cannot keep the others down."""
        for row in self.store.tables_with_status("playing"):
            if self.cluster is not None and not self.cluster.claim(row.id):
                continue
            table = self._rebuilt(row)
            if table is not None:
                self.tables[row.id] = table
            elif self.cluster is not None:
                self.cluster.release(row.id)
        return len(self.tables)

    def _rebuilt(self, row: TableRow) -> LiveTable | None:
        """A stored table as its stored actions left it; None (and logged) if they no longer replay."""
        try:
            table = self._live(row, self.store.seats_of(row.id))
            table.replay(self.store.actions_of(row.id))
        except (ValueError, RuntimeError):  # WhistError is a ValueError
            log.exception("table %s (%s) cannot be rebuilt from its stored actions: left out", row.id, row.status)
            return None
        return table

    def start_tables(self) -> None:
        """Once the event loop runs: absent players get their grace period. No one is connected
        yet, so every table waits (``LiveTable.watched``) and its bots play once someone comes."""
        for table in self.tables.values():
            self.start(table)

    def _live(self, row: TableRow, seat_rows: list[SeatRow]) -> LiveTable:
        names = self.store.user_names([s.user_id for s in seat_rows if s.user_id is not None])
        table = LiveTable(row, seat_rows, names, self.store, self.bot_delay, self.grace_seconds, self.thinkers)
        table.cluster = self.cluster
        if row.event_id is not None:
            found = event(self.store, row.event_id)
            table.event_name = "" if found is None else found.name
        return table

    def start(self, table: LiveTable) -> None:
        """A table this node has begun to play (at start, or taken over): absent players get their
        grace period, and the bots go on if someone watches."""
        for seat in table.seats:
            if not seat.is_bot and seat.user_id is not None:  # a free seat waits for someone to join
                table.start_grace(seat)
        table.schedule_turn()

    def create(self, request: TableRequest, user_id: int | None,
               also: Callable[[Connection, TableRow], None] | None = None) -> LiveTable:
        """A new table as asked, stored; ``also(connection, row)`` runs in the transaction that
        stores it (and may raise, to store nothing)."""
        try:
            game = make_game(request.game, request.preset, request.options)
        except (WhistError, ValueError, TypeError) as error:
            raise TableRequestError(str(error)) from None
        if len(request.seats) != game.players:
            raise TableRequestError(f"{game.title} with these options has {game.players} seats, "
                                    f"not {len(request.seats)}")
        seat_rows = []
        for number, seat in enumerate(request.seats):
            kind = seat.get("kind")
            if kind == "bot":
                level = seat.get("level") or "basic"  # the API sends None for a level not given
                try:  # names only: no budget, and never an entry point for the server to import
                    check_level_name(level)
                except WhistError as error:
                    raise TableRequestError(str(error)) from None
                seat_rows.append(SeatRow(number, "bot", level, None))
            elif kind == "human":
                seat_rows.append(SeatRow(number, "human", None, seat.get("user")))
            else:
                raise TableRequestError(f"Seat {number + 1}: 'human' or 'bot', not {kind!r}")
        if request.move_timer is not None and not 5 <= request.move_timer <= 600:
            raise TableRequestError("A move timer is 5 to 600 seconds")
        if request.chat not in CHAT_MODES:
            raise TableRequestError(f"Who may talk: one of {', '.join(CHAT_MODES)}")
        row = TableRow(id=secrets.token_urlsafe(9), game=request.game, preset=request.preset,
                       options=dict(request.options), seed=request.seed or secrets.token_hex(8),
                       first_dealer=request.first_dealer,
                       public=request.public, invite=secrets.token_urlsafe(12), status="playing",
                       move_timer=request.move_timer, created_by=user_id, totals=None, chat=request.chat,
                       hints=request.hints, event_id=request.event_id, event_board=request.event_board)
        self.store.add_table(row, seat_rows, None if also is None else lambda c: also(c, row))
        if self.cluster is not None:
            self.cluster.claim(row.id)  # a new table: nobody else can hold it
        table = self._live(row, seat_rows)
        self.tables[row.id] = table
        log.info("table %s created: %s, seats %s", row.id, request.game, [s.kind for s in seat_rows])
        return table

    def get(self, table_id: str) -> LiveTable | None:
        """A table by id. A finished table that is not in memory (after a restart) is rebuilt
        from its stored actions, so that its page still shows the end of the game."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        mirror = self.mirrors.get(table_id)
        if mirror is not None and self.cluster is not None:
            mirror.read_stored()
            return mirror
        row = self.store.table(table_id)
        if row is None:
            return None
        if row.status == "playing":
            return None if self.cluster is None else self._found_in_cluster(row)
        table = self._rebuilt(row)
        if table is None:
            return None
        table.close()
        self.tables[row.id] = table
        return table

    def current(self, table_id: str, known: LiveTable) -> LiveTable:
        """The object that stands for the table now: in a cluster, a table taken over replaces its
        mirror, and a mirror replaces a table whose lease was lost (the connections move with it)."""
        return self.tables.get(table_id) or self.mirrors.get(table_id) or known

    def public_tables(self) -> list[LiveTable]:
        if self.cluster is not None:  # every node's tables
            found = (self.get(row.id) for row in self.store.tables_with_status("playing") if row.public)
            return [t for t in found if t is not None and not t.match.over]
        return [t for t in self.tables.values() if t.row.public and not t.match.over]

    def open_tables_of(self, user_id: int) -> int:
        """How many unfinished tables ``user_id`` made (those left out at start do not count; in a
        cluster, those of every node), and event boards they are playing: an event's board is a
        table too, and a flood of them would cost as much."""
        boards = boards_being_played_by(self.store, user_id)
        if self.cluster is not None:
            return self.store.open_tables_made_by(user_id) + boards
        return boards + sum(1 for t in self.tables.values() if t.row.created_by == user_id and not t.match.over)

    def close(self) -> None:
        for table in (*self.tables.values(), *self.mirrors.values()):
            table.close()
        self.thinkers.close()

    # The cluster ----------------------------------------------------------------------------------

    def _found_in_cluster(self, row: TableRow, moving: LiveTable | None = None) -> LiveTable | None:
        """An unfinished table this node does not hold: a mirror of it if a live node plays it, else
        this node takes it over (with the connections of ``moving``, its last copy here)."""
        assert self.cluster is not None
        owner = self.cluster.owner_of(row.id)
        if owner is None and self.cluster.claim(row.id):
            return self._take_over(row, moving)
        owner = owner or self.cluster.owner_of(row.id)
        if owner is None or owner == self.cluster.node:
            return None
        seat_rows = self.store.seats_of(row.id)
        names = self.store.user_names([s.user_id for s in seat_rows if s.user_id is not None])
        mirror = MirrorTable(row, seat_rows, names, self.store, self.thinkers, self.cluster, owner)
        try:
            mirror.replay(self.store.actions_of(row.id))
        except (ValueError, RuntimeError):
            log.exception("table %s cannot be rebuilt from its stored actions", row.id)
            return None
        self.mirrors[row.id] = mirror
        return mirror

    def _take_over(self, row: TableRow, moving: LiveTable | None = None) -> LiveTable | None:
        """Play a table whose owner is gone: rebuilt from its stored actions, with the connections
        this node had to its mirror (or to ``moving``, its own last copy)."""
        table = self._rebuilt(row)
        if table is None:
            assert self.cluster is not None
            self.cluster.release(row.id)
            return None
        self.tables[row.id] = table
        mirror = self.mirrors.pop(row.id, None)
        log.info("table %s: taken over by node %s at version %d", row.id, table.cluster and table.cluster.node,
                 table.version)
        for before in (mirror, moving):
            if before is not None:
                before.close()
                self._move_connections(before, table)
        self.start(table)  # after the connections came: a watched table's bots go on
        # Announces the new owner too: the other nodes' mirrors introduce their connections.
        self._later(table.broadcast())
        return table

    def _let_go(self, table: LiveTable) -> None:
        """This node lost the table's lease (it stalled, or the database was out of reach for longer
        than a lease): it stops playing it at once, and its connections go, at once too, to whatever
        shows the table now (a mirror of the new owner's, or this node's own copy taken back)."""
        log.warning("table %s: lease lost; handed over", table.id)
        table.close()
        del self.tables[table.id]
        now = self._found_in_cluster(table.row, moving=table)
        if now is None:
            log.error("table %s: neither played nor shown here after its lease was lost", table.id)
        elif isinstance(now, MirrorTable):
            self._move_connections(table, now)
            self._later(now.catch_up(always=True))

    @staticmethod
    def _move_connections(old: LiveTable, new: LiveTable) -> None:
        """This node's own connections to ``old`` count on ``new`` from now (before anything can await:
        a socket that closes meanwhile finds itself where ``Hub.current`` looks, and no sweep of
        mirrors finds the new one empty). Those of other nodes stay behind: they introduce themselves."""
        local = [(-1, send) for send in old.spectators] + [
            (seat.number, send) for seat in old.seats for send in seat.connections]
        for seat_number, send in local:
            if not isinstance(send, RemoteConnection):
                new.adopt(seat_number, send)

    def _later(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.later.add(task)
        task.add_done_callback(self.later.discard)

    def _announced(self, message: Message) -> None:
        """Another node's announcement of a table's change."""
        assert self.cluster is not None
        if "chat" in message or "chat_mode" in message:  # talk: told by whichever node heard it
            if message.get("from") != self.cluster.node:
                table_id = str(message.get("table"))
                self._later(relay(self.tables.get(table_id) or self.mirrors.get(table_id), message))
            return
        mirror = self.mirrors.get(str(message.get("table")))
        if mirror is None or message.get("owner") == self.cluster.node:
            return
        if mirror.has_connections:
            self._later(mirror.changed(message))
        else:
            mirror.note(message)

    async def _requested(self, message: Message) -> Message | None:
        """What a mirror on another node asks of a table this node plays."""
        table = self.tables.get(str(message.get("table")))
        if table is None or table.closed or not isinstance(message.get("from"), str):
            return {"ok": False, "code": Refusal.UNAVAILABLE, "message": MOVING}
        op, seat = message.get("op"), message.get("seat")
        if seat.__class__ is not int or not -1 <= seat < len(table.seats):
            return {"ok": False, "code": Refusal.MALFORMED, "message": "No such seat"}
        try:
            if op == "act":
                return {"ok": True, "version": await table.act(seat, message.get("action"), message.get("version"))}
            remote: Send = RemoteConnection(str(message["from"]), str(message.get("connection")))
            if op == "connect":
                await table.connect(seat, remote)
            elif op == "disconnect":
                table.disconnect(seat, remote)
            elif op == "join":
                user, name = message.get("user"), message.get("name")
                if user.__class__ is not int or not 0 < user < 2**31 or not isinstance(name, str):
                    return {"ok": False, "code": Refusal.MALFORMED, "message": "A join names a user and a name"}
                if self.store.user(user) is None:  # the asking node checked its session; a forged request has none
                    return {"ok": False, "code": Refusal.SIGN_IN, "message": "No such player"}
                await table.seat_user(seat, user, name)
            else:
                return {"ok": False, "code": Refusal.UNKNOWN_TYPE, "message": f"Unknown request {op!r}"}
        except ActionRefused as refused:
            return {"ok": False, "code": refused.code, "message": str(refused)}
        return {"ok": True}

    async def _heard_again(self) -> None:
        """This node hears the others again after a break in the messages (a database restart): what
        it missed meanwhile is read from the database. Each mirror learns who plays its table now,
        tells it of this node's connections (the owner may have missed comings or goings) and sends
        them the newest state; each table this node plays is announced, for the others' mirrors."""
        assert self.cluster is not None
        cluster = self.cluster
        for table in list(self.tables.values()):
            if not table.match.over and not table.closed:
                table.announce()
        for table_id, mirror in list(self.mirrors.items()):
            owner = await self.store.off_loop(cluster.owner_of, table_id)
            if self.mirrors.get(table_id) is not mirror:
                continue
            if owner is not None and owner != cluster.node:
                mirror.owner = owner
            mirror.introduce_all()
            await mirror.catch_up(always=True)
        cluster.upkeep_now.set()  # tables whose owner died meanwhile: taken over now, not at the next pass

    def _upkeep_queries(self) -> tuple[bool, set[str], list[str], set[str]]:
        """The upkeep's database work, away from the event loop: this node's heartbeat (whether it had
        lapsed), its leases renewed (the tables it still holds), the tables nobody holds, and the
        nodes alive."""
        assert self.cluster is not None
        lapsed = self.cluster.heartbeat()
        return lapsed, self.cluster.renew(), self.cluster.orphans(), self.cluster.live_nodes()

    async def upkeep(self) -> None:
        """Every third of a lease: renew this node's leases; let go of tables another node took;
        take over tables nobody holds; forget the connections of nodes that died."""
        assert self.cluster is not None
        playing = dict(self.tables)  # a table made or taken while the queries run is not judged by them
        unsure = {table_id for table_id in playing if not self.cluster.holds(table_id)}
        lapsed, held, orphans, alive = await self.store.off_loop(self._upkeep_queries)
        if lapsed or self.introduce_again:
            # The owners took this node for dead and forgot its connections: it tells them again, and
            # once more at the next pass, for an owner whose upkeep read this node dead just before.
            for mirror in self.mirrors.values():
                mirror.introduce_all()
            self.introduce_again = lapsed
        for table_id, table in playing.items():
            if self.tables.get(table_id) is not table or table.match.over:
                continue
            if table_id not in held:
                self._let_go(table)
            elif table_id in unsure:  # held all along: what it did meanwhile was not announced
                table.announce()
        for table_id in orphans:
            if table_id not in self.tables and self.cluster.claim(table_id):
                row = self.store.table(table_id)
                if row is not None:
                    self._take_over(row)
        for table in self.tables.values():
            for seat_number, remote in table.remote_connections():
                if remote.node not in alive:
                    table.disconnect(seat_number, remote)
        for table_id, mirror in list(self.mirrors.items()):
            if not mirror.has_connections and table_id not in self.tables:
                mirror.close()
                del self.mirrors[table_id]
