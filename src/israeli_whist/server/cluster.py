"""Several ``whist serve`` processes, one site: the nodes share one PostgreSQL database.

**Ownership.** Each unfinished table is played by one node, its owner, which holds a lease on it:
a row of ``table_owners`` with an expiry in the database's own clock, renewed every third of the
lease. An action is stored only while its node still holds the table's lease (checked, with the
row locked, in the transaction that stores it), so a node that stalled past its lease can never
store an action beside the node that took the table over. Every node looks for tables whose
lease has run out (their owner died) and claims them; the claim is one atomic statement, so one
node wins, and it rebuilds the table from its stored actions, as a restart does.

**Messages.** PostgreSQL's LISTEN/NOTIFY, chosen because the database is shared already: nothing
more to run, secure and watch, and at a few hundred messages a second it is far from its limits
(Redis pub/sub would add a server for no gain here). The owner announces each change of a table
on one channel, ``whist_tables`` (the version, its owner, the seats as everyone sees them); a
node with connections to a table it does not own keeps a mirror of it (``israeli_whist.server.mirror``),
reads the new actions from the database and sends each of its connections its own view. A
mirror sends the owner its connections' actions, seat requests and comings and goings on the
owner's own channel, and the owner answers on the asker's. No card travels in a notification:
each node makes its connections' views from the stored actions, through ``seat_view``.

**Liveness.** Each node also renews a row of ``nodes``; the owner forgets the connections of a
node whose row has expired, so a dead node's people count as gone (and their seats get the
usual grace period, then a stand-in bot).

**Healing.** The listening connection is opened again, with a growing wait, whenever it breaks (a
database restart or outage), and the hub then reads every mirrored table again from the database,
since the notifications sent while it was away are lost by design; ``/health`` says the node is
down meanwhile. Announcements that could not be sent are kept and sent once the database answers.
A node knows how long its leases last from when it last renewed them: past that (it stalled, or
could not reach the database) it acts and announces nothing until its next renewal says which
tables it still holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import re
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import OperationalError

from israeli_whist.server.db import Store
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.settings import ServerSettings

log = logging.getLogger("whist.server")

TABLES_CHANNEL = "whist_tables"
DEFAULT_LEASE_SECONDS = ServerSettings.lease_seconds
REQUEST_TIMEOUT = 5.0  # at most: seconds a mirror waits for the owner's answer before it says "try again"
# Seconds between tries to reach the database again: doubling, up to the last. A node hears a request
# for its tables only once its listening connection is back, so the last wait is short.
FIRST_RETRY, LAST_RETRY = 0.1, 1.0
# libpq's TCP keepalives: a database that vanished without closing its sockets (a machine gone, a
# cut cable) is found out in about 11 s, not the operating system's two hours.
KEEPALIVES = {"keepalives": "1", "keepalives_idle": "5", "keepalives_interval": "2", "keepalives_count": "3"}
MAX_PAYLOAD = 7900  # PostgreSQL refuses a notification of 8,000 bytes or more
ANNOUNCEMENTS_A_TRIP = 50  # table announcements sent in one statement

Message = dict[str, Any]
Handler = Callable[[Message], Awaitable[Message | None]]


class LeaseLost(Exception):
    """This node no longer holds the table's lease: another node plays it now."""


class MessagingDown(ConnectionError):
    """A message could not be sent: the database does not answer (restarting, or gone)."""


NODE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,47}")


def default_node_name() -> str:
    """The host's name and the process id, with a random tail: unique across restarts."""
    host = re.sub(r"[^A-Za-z0-9_.-]", "-", socket.gethostname())[:30] or "node"
    return f"{host}-{os.getpid()}-{secrets.token_hex(2)}"


def check_node_name(name: str) -> str:
    """A node's name: its channel's name too, so letters, digits, '_', '.', '-', at most 48."""
    if not NODE_NAME.fullmatch(name):
        raise ValueError(f"A node's name is 1 to 48 letters, digits, '_', '.' or '-', starting with a letter or "
                         f"digit, not {name!r}")
    return name


def node_channel(node: str) -> str:
    return f"whist_node_{node}"[:63]  # PostgreSQL truncates identifiers to 63 bytes


_NOW = "(now() AT TIME ZONE 'UTC')"  # the database's clock, the same for every node
# An action stored only under the lease: one round trip for the check, the lock and the insert.
_INSERT_UNDER_LEASE = text(
    f"WITH lease AS (SELECT 1 FROM table_owners WHERE table_id = :table_id AND node = :me "
    f"AND expires_at > {_NOW} FOR UPDATE) "
    "INSERT INTO actions (table_id, seq, seat, action, by_bot, created_at) "
    "SELECT :table_id, :seq, :seat, :action, :by_bot, :created_at FROM lease RETURNING seq")


class Cluster:
    """This node's part in a cluster: its leases, its heartbeat and its messages."""

    def __init__(self, store: Store, database_url: str, node: str | None = None,
                 lease_seconds: float = DEFAULT_LEASE_SECONDS) -> None:
        if not lease_seconds >= 1:
            raise ValueError(f"A lease lasts at least 1 second, not {lease_seconds}")
        self.store = store
        url = make_url(database_url).set(drivername="postgresql")
        self.conninfo = url.update_query_dict(KEEPALIVES).render_as_string(hide_password=False)
        self.node = check_node_name(node) if node is not None else default_node_name()
        self.lease = lease_seconds
        # An owner that does not answer in half a lease is likely dead: the asker hears "try again" by then.
        self.request_timeout = min(REQUEST_TIMEOUT, max(0.5, lease_seconds / 2))
        self.listener: Any = None  # psycopg.AsyncConnection: psycopg is imported only where a cluster runs
        self.sender: Any = None
        self.sending = asyncio.Lock()
        self.stopping = False  # once set, a closed sender stays closed
        self.listening = False  # the listening connection is open: this node hears the others
        self.on_table: Callable[[Message], None] = lambda message: None  # set by the hub
        self.on_request: Handler = self._no_handler
        self.on_heard_again: Callable[[], Awaitable[None]] = self._nothing  # the hub reads its mirrors again
        # Until when (this process's monotonic clock) each lease of this node surely lasts: its last
        # claim or renewal's start plus a lease, since the database counts from a moment after that.
        self.held_until: dict[str, float] = {}
        self.alive_until = 0.0  # the same for this node's row of ``nodes``
        self.upkeep_now = asyncio.Event()  # set to run the upkeep at once (a lease found lost)
        self.replies: dict[str, asyncio.Future[Message]] = {}
        # Announcements not yet sent, the newest of each table only: a mirror reads the actions
        # from the database, so a later announcement says all an earlier one did.
        self.unannounced: dict[str, Message] = {}
        self.to_announce = asyncio.Event()
        self.numbers = itertools.count()
        self.tasks: list[asyncio.Task[None]] = []

    @staticmethod
    async def _no_handler(message: Message) -> Message | None:
        return None

    @staticmethod
    async def _nothing() -> None:
        return None

    @property
    def messaging(self) -> bool:
        """Whether this node hears the others now (its health check says so)."""
        return self.listening and not self.stopping

    def holds(self, table_id: str) -> bool:
        """Whether this node surely still holds the table's lease: it claimed or renewed it less than a
        lease ago. A node that stalled past that, or could not reach the database, must not act or
        speak for the table until its next renewal says whether it still holds it."""
        return time.monotonic() < self.held_until.get(table_id, 0.0)

    # Starting and stopping ----------------------------------------------------------------------

    async def start(self) -> None:
        import psycopg

        self.heartbeat()
        await self._open_listener()
        self.sender = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        self.tasks.append(asyncio.get_running_loop().create_task(self._listen()))
        self.tasks.append(asyncio.get_running_loop().create_task(self._announcer()))
        log.info("node %s: in the cluster, leases of %g s", self.node, self.lease)

    async def stop(self) -> None:
        """Leave: the tables this node played are free at once for the others to take."""
        self.stopping = True
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception), self.store.begin() as c:
            c.execute(text("DELETE FROM table_owners WHERE node = :me"), {"me": self.node})
            c.execute(text("DELETE FROM nodes WHERE node = :me"), {"me": self.node})
        for connection in (self.listener, self.sender):
            if connection is not None:
                with contextlib.suppress(Exception):
                    await connection.close()

    async def _open_listener(self) -> None:
        import psycopg
        from psycopg import sql

        listener = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        try:
            for channel in (TABLES_CHANNEL, node_channel(self.node)):
                await listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
        except BaseException:
            await listener.close()
            raise
        self.listener, self.listening = listener, True

    def run_every(self, seconds: float, step: Callable[[], Awaitable[None]]) -> None:
        """``step`` every ``seconds``, or at once when ``upkeep_now`` is set."""
        async def loop() -> None:
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.upkeep_now.wait(), seconds)
                self.upkeep_now.clear()
                try:
                    await step()
                except (OperationalError, MessagingDown) as error:  # the database away: tried again next time
                    log.warning("node %s: cluster upkeep could not reach the database: %s", self.node,
                                str(error).splitlines()[0] if str(error) else error.__class__.__name__)
                except Exception:  # a fault of ours: its traceback, and tried again next time
                    log.exception("node %s: cluster upkeep failed", self.node)

        self.tasks.append(asyncio.get_running_loop().create_task(loop()))

    # Leases -------------------------------------------------------------------------------------

    def heartbeat(self) -> bool:
        """Renew this node's row of ``nodes``; whether it may have run out since the last renewal (this
        node stalled, or could not reach the database): the owners have then forgotten this node's
        connections to their tables, and must be told of them again."""
        started = time.monotonic()
        with self.store.begin() as c:
            c.execute(text(f"INSERT INTO nodes (node, expires_at) VALUES (:me, {_NOW} + make_interval(secs => :s)) "
                           "ON CONFLICT (node) DO UPDATE SET expires_at = EXCLUDED.expires_at"),
                      {"me": self.node, "s": self.lease})
        lapsed = started >= self.alive_until
        self.alive_until = started + self.lease
        return lapsed

    def live_nodes(self) -> set[str]:
        with self.store.begin() as c:
            rows = c.execute(text(f"SELECT node FROM nodes WHERE expires_at > {_NOW}"))
            return {row.node for row in rows}

    def claim(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it (or its holder's has run out); whether we hold it."""
        started = time.monotonic()
        with self.store.begin() as c:
            won = c.execute(text(
                f"INSERT INTO table_owners (table_id, node, expires_at) "
                f"VALUES (:t, :me, {_NOW} + make_interval(secs => :s)) "
                f"ON CONFLICT (table_id) DO UPDATE SET node = EXCLUDED.node, expires_at = EXCLUDED.expires_at "
                f"WHERE table_owners.expires_at < {_NOW} OR table_owners.node = EXCLUDED.node RETURNING node"),
                {"t": table_id, "me": self.node, "s": self.lease}).first()
        if won is not None:
            self.held_until[table_id] = started + self.lease
        return won is not None

    def renew(self) -> set[str]:
        """Renew every lease this node holds; the tables it still holds."""
        started = time.monotonic()
        with self.store.begin() as c:
            rows = c.execute(text(f"UPDATE table_owners SET expires_at = {_NOW} + make_interval(secs => :s) "
                                  f"WHERE node = :me AND expires_at > {_NOW} RETURNING table_id"),
                             {"me": self.node, "s": self.lease})
            held = {row.table_id for row in rows}
        self.held_until = {table_id: started + self.lease for table_id in held}
        return held

    def release(self, table_id: str) -> None:
        self.held_until.pop(table_id, None)
        with self.store.begin() as c:
            c.execute(text("DELETE FROM table_owners WHERE table_id = :t AND node = :me"),
                      {"t": table_id, "me": self.node})

    def owner_of(self, table_id: str) -> str | None:
        """The node holding the table's lease now, or None."""
        with self.store.begin() as c:
            row = c.execute(text(f"SELECT node FROM table_owners WHERE table_id = :t AND expires_at > {_NOW}"),
                            {"t": table_id}).first()
            return None if row is None else str(row.node)

    def orphans(self) -> list[str]:
        """Unfinished tables that no node holds: their owner died, stopped, or never was."""
        with self.store.begin() as c:
            rows = c.execute(text(
                f"SELECT t.id FROM tables t LEFT JOIN table_owners o ON o.table_id = t.id "
                f"WHERE t.status = 'playing' AND (o.table_id IS NULL OR o.expires_at < {_NOW}) ORDER BY t.created_at"))
            return [row.id for row in rows]

    def insert_under_lease(self, c: Connection, row: dict[str, Any]) -> None:
        """For the transaction that stores an action: insert its row only while this node holds the
        table's lease, in one statement that also locks the lease row until the transaction ends (so
        that no claim slips in between), and raise ``LeaseLost`` when it inserted nothing."""
        stored = c.execute(_INSERT_UNDER_LEASE, {**row, "me": self.node}).first()
        if stored is None:
            raise LeaseLost(f"node {self.node} no longer holds table {row['table_id']}")

    # Messages -----------------------------------------------------------------------------------

    async def notify(self, channel: str, message: Message) -> None:
        payload = json.dumps(message, separators=(",", ":"))
        if len(payload.encode()) > MAX_PAYLOAD:
            raise ValueError(f"a cluster message of {len(payload.encode())} bytes is too long")
        await self._send("SELECT pg_notify(%s, %s)", (channel, payload))

    def publish(self, message: Message) -> None:
        """Tell every node that a table changed (``message["table"]``), soon: the announcements go
        out in the background, many in one round trip, so that no action waits for them."""
        self.unannounced[str(message["table"])] = message
        self.to_announce.set()

    async def _announcer(self) -> None:
        wait = FIRST_RETRY
        while True:
            await self.to_announce.wait()
            self.to_announce.clear()
            batch = list(self.unannounced.values())
            self.unannounced.clear()
            for start in range(0, len(batch), ANNOUNCEMENTS_A_TRIP):
                trip = batch[start:start + ANNOUNCEMENTS_A_TRIP]
                try:
                    await self.notify_many(TABLES_CHANNEL, trip)
                    wait = FIRST_RETRY
                except Exception as error:
                    # Kept to send again (unless a newer one of the same table came meanwhile): a mirror
                    # waits for its table's next announcement, which may be long in coming.
                    log.warning("node %s: %d announcements not sent (%s); trying again in %g s", self.node,
                                len(batch) - start, error.__class__.__name__, wait)
                    for message in batch[start:]:
                        self.unannounced.setdefault(str(message["table"]), message)
                    await asyncio.sleep(wait)
                    wait = min(2 * wait, LAST_RETRY)
                    self.to_announce.set()
                    break

    async def notify_many(self, channel: str, messages: list[Message]) -> None:
        """Several notifications in one statement."""
        payloads = [json.dumps(message, separators=(",", ":")) for message in messages]
        payloads = [payload for payload in payloads if len(payload.encode()) <= MAX_PAYLOAD]
        if not payloads:
            return
        statement = "SELECT " + ", ".join(["pg_notify(%s, %s)"] * len(payloads))
        await self._send(statement, [value for payload in payloads for value in (channel, payload)])

    async def _send(self, statement: str, values: Sequence[str]) -> None:
        """Run one ``pg_notify`` statement on the connection every message of this node goes out
        through. Shielded from the caller's cancellation (a socket that closed, a timeout): psycopg
        answers a cancellation in mid-query by closing the connection, which silenced the node for
        good. A connection found closed (so cut, or by the database) is opened again first."""
        import psycopg

        try:
            await asyncio.shield(self._send_on_open_connection(statement, values))
        except (psycopg.Error, OSError) as error:  # the database refused the connection, or dropped it
            raise MessagingDown(f"node {self.node}: {error}") from error

    async def _send_on_open_connection(self, statement: str, values: Sequence[str]) -> None:
        assert self.sender is not None, "the cluster is not started"
        async with self.sending:
            if self.sender.closed and not self.stopping:
                import psycopg

                log.warning("node %s: the sending connection was closed; opening it again", self.node)
                self.sender = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
            try:
                await self.sender.execute(statement, values)
            except Exception:
                # Whatever broke it (a database restart), the next message goes out on a new connection.
                with contextlib.suppress(Exception):
                    await self.sender.close()
                raise

    async def request(self, node: str, message: Message, timeout: float | None = None) -> Message:
        """Ask ``node`` (a table's owner) and wait for its answer (``request_timeout`` by default);
        TimeoutError if none comes."""
        number = f"{self.node}/{next(self.numbers)}"
        answer: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self.replies[number] = answer
        try:
            await self.notify(node_channel(node), {**message, "from": self.node, "request": number})
            return await asyncio.wait_for(answer, self.request_timeout if timeout is None else timeout)
        finally:
            self.replies.pop(number, None)

    async def _listen(self) -> None:
        """Hear the other nodes for as long as this node runs: a broken connection is opened again,
        with a growing wait between tries, and the hub then reads its mirrored tables again."""
        wait = FIRST_RETRY
        while not self.stopping:
            try:
                if not self.listening:
                    await self._open_listener()
                    log.warning("node %s: hearing the other nodes again", self.node)
                    wait = FIRST_RETRY
                    asyncio.get_running_loop().create_task(self._heard_again())
                await self._hear()
                raise ConnectionError("the listening connection ended")
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database went away: said once a try, and tried again
                if self.listening:
                    log.warning("node %s: cannot hear the other nodes (%s); trying again", self.node, error)
                self.listening = False
                with contextlib.suppress(Exception):
                    await self.listener.close()
                await asyncio.sleep(wait)
                wait = min(2 * wait, LAST_RETRY)

    async def _heard_again(self) -> None:
        try:
            await self.on_heard_again()
        except Exception:
            log.exception("node %s: the tables could not be read again after a reconnection", self.node)

    async def _hear(self) -> None:
        assert self.listener is not None
        async for notice in self.listener.notifies():
            try:
                message = json.loads(notice.payload)
            except ValueError:
                log.warning("node %s: a message that is not JSON on %s", self.node, notice.channel)
                continue
            if not isinstance(message, dict):
                continue
            if notice.channel == TABLES_CHANNEL:
                self.on_table(message)
            elif "reply" in message:
                waiting = self.replies.get(str(message["reply"]))
                if waiting is not None and not waiting.done():
                    waiting.set_result(message)
            else:
                asyncio.get_running_loop().create_task(self._answer(message))

    async def _answer(self, message: Message) -> None:
        try:
            answer = await self.on_request(message)
        except Exception:
            log.exception("node %s: a request from %s failed", self.node, message.get("from"))
            answer = {"ok": False, "code": Refusal.INTERNAL, "message": "The server failed to answer this message"}
        asker, number = message.get("from"), message.get("request")
        if answer is not None and isinstance(asker, str) and number is not None:
            with contextlib.suppress(Exception):  # the asker is gone: nobody to tell
                await self.notify(node_channel(asker), {**answer, "reply": number})
