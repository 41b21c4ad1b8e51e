"""A table another node of the cluster plays, as this node shows it to its own connections.

The mirror keeps a copy of the match, brought up to date from the stored actions whenever the
owner announces a change (``israeli_whist.server.cluster``), and sends each of its connections the view
of its own seat, made here by ``seat_view`` as on the owner: the same messages a connection to
the owner gets. What the connections ask (an action, a seat) goes to the owner, which checks and
takes it as any other; the answer comes back here. Their comings and goings go to the owner too,
which counts them as connections of its own (``RemoteConnection``): its grace periods, stand-ins
and bots see the table as watched from anywhere.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from israeli_whist.core.match import Match
from israeli_whist.server.cluster import FIRST_RETRY, LAST_RETRY, Cluster, Message, MessagingDown
from israeli_whist.server.db import SeatRow, Store, TableRow
from israeli_whist.server.live import MOVING, ActionRefused, LiveTable, Send
from israeli_whist.server.refusals import Refusal, refusal_in
from israeli_whist.server.replay import replay_actions
from israeli_whist.server.workers import Thinkers

log = logging.getLogger("whist.server")



class MirrorTable(LiveTable):
    plays = False

    def __init__(self, row: TableRow, seat_rows: list[SeatRow], names: dict[int, str], store: Store,
                 thinkers: Thinkers, cluster: Cluster, owner: str) -> None:
        super().__init__(row, seat_rows, names, store, bot_delay=0.0, grace_seconds=0.0, thinkers=thinkers)
        self.cluster = cluster
        self.owner = owner
        # The seats as the owner last showed them: its connections and this node's alike.
        self.shown: list[dict[str, bool]] = [{"connected": False, "away": False} for _ in self.seats]
        self.names_of: dict[Send, str] = {}  # this node's name for each of its connections, as the owner knows it
        self.numbers = 0
        self.catching_up = asyncio.Lock()
        self.announced = 0  # the newest version the owner announced
        # The comings and goings told to the owner, in the order they happened: each waits for the last.
        self.last_told: asyncio.Task[None] | None = None
        self.telling: set[asyncio.Task[None]] = set()  # not cancelled by ``close``: a going must still be told

    # What the owner says ---------------------------------------------------------------------------

    @property
    def has_connections(self) -> bool:
        return bool(self.spectators) or any(seat.connections for seat in self.seats)

    def note(self, message: Message) -> bool:
        """Take in the owner's announcement (seats, owner, version); whether the owner changed."""
        owner, moved = message.get("owner"), False
        if isinstance(owner, str) and owner != self.owner:
            self.owner, moved = owner, True
        seats = message.get("seats")
        if isinstance(seats, list) and len(seats) == len(self.seats):
            for seat, shown, told in zip(self.seats, self.shown, seats, strict=True):
                if isinstance(told, dict):
                    user, name = told.get("user"), told.get("name")
                    seat.user_id = user if user.__class__ is int else None  # not a bool, not a float
                    seat.name = name if isinstance(name, str) else ""
                    shown["connected"], shown["away"] = bool(told.get("connected")), bool(told.get("away"))
        version = message.get("version")
        if version.__class__ is int:
            self.announced = max(self.announced, version)
        return moved

    async def changed(self, message: Message) -> None:
        """The owner's announcement, for a mirror with connections: read the new actions and send
        the new state; a new owner is told of this node's connections."""
        if self.note(message):
            self.introduce_all()
        await self.catch_up(always=True)

    def read_stored(self) -> None:
        """Bring the copy up to the stored actions (a mirror nobody here watches, before it is shown)."""
        if self.announced <= self.version:
            return
        for seq, seat, action in self.store.actions_since(self.id, self.version):
            if seq != self.version or seat != self.match.current_player:
                break
            self.match = self.match.apply(action)
            self.version += 1

    async def catch_up(self, version: int | None = None, always: bool = False) -> None:
        """Read the actions stored since this copy's version, then send the connections the new state
        (``always``: even when no action was new, as when only the seats changed)."""
        async with self.catching_up:
            if version is not None and version <= self.version and not always:
                return
            stored = await self.store.off_loop(self.store.actions_since, self.id, self.version)
            moved = bool(stored)
            for seq, seat, action in stored:
                if seq != self.version or seat != self.match.current_player:
                    log.error("table %s: stored action %d does not follow this copy; rebuilt", self.id, seq)
                    return await self._rebuild()
                self.match = self.match.apply(action)
                self.version += 1
            if moved or always:
                await self.broadcast()

    async def _rebuild(self) -> None:
        stored = self.store.actions_of(self.id)
        self.match = replay_actions(Match.start(self.game, self.row.seed, self.row.first_dealer), stored, self.id)
        self.version = len(stored)
        await self.broadcast()

    # Seats as everyone sees them ---------------------------------------------------------------------

    def table_json(self) -> dict[str, Any]:
        table = super().table_json()
        for shown, seat in zip(self.shown, table["seats"], strict=True):
            seat["connected"], seat["away"] = shown["connected"], shown["away"]
        return table

    # What this node's connections do ----------------------------------------------------------------

    def adopt(self, seat_number: int, send: Send) -> None:
        if seat_number < 0:
            self.spectators.add(send)
        else:
            self.seats[seat_number].connections.add(send)
        self.numbers += 1
        self.names_of[send] = f"{id(self)}.{self.numbers}"
        self._tell({"op": "connect", "seat": seat_number, "connection": self.names_of[send]})

    async def connect(self, seat_number: int, send: Send) -> None:
        self.adopt(seat_number, send)
        told = self.last_told
        await send(self.state_message(seat_number))
        if told is not None and self.cluster is not None:  # the owner counts it before this returns (a while at most)
            await asyncio.wait([told], timeout=self.cluster.request_timeout)

    def disconnect(self, seat_number: int, send: Send) -> None:
        if seat_number < 0:
            self.spectators.discard(send)
        else:
            self.seats[seat_number].connections.discard(send)
        name = self.names_of.pop(send, None)
        if name is not None:
            self._tell({"op": "disconnect", "seat": seat_number, "connection": name})

    def introduce_all(self) -> None:
        """A new owner has not heard of this node's connections yet; after a break in the messages,
        the owner may have missed some (telling one twice is harmless)."""
        for seat_number, send in self._local_connections():
            name = self.names_of.get(send)
            if name is not None:
                self._tell({"op": "connect", "seat": seat_number, "connection": name})

    def _local_connections(self) -> list[tuple[int, Send]]:
        found: list[tuple[int, Send]] = [(-1, send) for send in self.spectators]
        return found + [(seat.number, send) for seat in self.seats for send in seat.connections]

    def _tell(self, message: Message) -> None:
        """Tell the owner of a connection's coming or going, after those before it: told out of order,
        a going before its coming would leave the owner counting a connection that is gone."""
        task = asyncio.get_running_loop().create_task(self._tell_after(self.last_told, message))
        self.last_told = task
        self.telling.add(task)
        task.add_done_callback(self.telling.discard)

    async def _tell_after(self, before: asyncio.Task[None] | None, message: Message) -> None:
        if before is not None:
            await asyncio.wait([before])
        await self._tell_owner(message)

    async def _tell_owner(self, message: Message) -> None:
        """Told until the owner answers: while the messages are down (a database restart) or the
        table moves, again with a growing wait, for two leases at most. By then an owner that never
        heard has lost its lease, or this node its heartbeat: either way the connection is counted
        afresh (a new owner is introduced to this node's connections; the owner forgets a dead node's)."""
        assert self.cluster is not None
        loop = asyncio.get_running_loop()
        give_up, wait = loop.time() + 2 * self.cluster.lease, FIRST_RETRY
        while True:
            try:
                await self._ask(message)
                return
            except ActionRefused as refused:
                if refused.code != Refusal.UNAVAILABLE or loop.time() + wait > give_up:
                    log.info("table %s: the owner did not take %s: %s", self.id, message.get("op"), refused)
                    return
            except Exception:  # runs as a task of its own: said in the log, not as a task's unread error
                log.exception("table %s: the owner could not be told of %s", self.id, message.get("op"))
                return
            await asyncio.sleep(wait)
            wait = min(2 * wait, LAST_RETRY)

    async def _ask(self, message: Message) -> Message:
        """The owner's answer to ``message``; ActionRefused if it refuses, does not answer in time, or
        cannot be reached (the messages are down)."""
        assert self.cluster is not None
        try:
            answer = await self.cluster.request(self.owner, {**message, "table": self.id})
        except (TimeoutError, MessagingDown):
            raise ActionRefused(Refusal.UNAVAILABLE, MOVING) from None
        if not answer.get("ok"):
            raise ActionRefused(refusal_in(answer), str(answer.get("message") or MOVING))
        return answer

    async def act(self, seat_number: int, action: Any, version: Any, by_bot: bool = False) -> int:
        if seat_number < 0:
            raise ActionRefused(Refusal.SPECTATOR, "Spectators watch; they cannot act")
        try:
            answer = await self._ask({"op": "act", "seat": seat_number, "action": action, "version": version})
        except ActionRefused as refused:
            if refused.code == Refusal.STALE:
                await self.catch_up()  # the refusal carries the current state: make it current here
            raise
        taken = answer.get("version")
        if isinstance(taken, int):
            await self.catch_up(taken)  # the new state reaches this node's connections before the ack
        return taken if isinstance(taken, int) else self.version

    async def seat_user(self, seat_number: int, user_id: int, name: str) -> None:
        await self._ask({"op": "join", "seat": seat_number, "user": user_id, "name": name})
        self.seats[seat_number].user_id, self.seats[seat_number].name = user_id, name

    def take_seat(self, seat_number: int, user_id: int, name: str) -> None:
        raise ActionRefused(Refusal.UNAVAILABLE, MOVING)  # seats are taken on the owner (``seat_user``)

    def schedule_turn(self) -> None:
        return None  # the owner's bots play

    def start_grace(self, seat: Any) -> None:
        return None  # the owner keeps the grace periods
