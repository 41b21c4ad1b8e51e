"""A table being played: the engine's ``Match``, its seats, and the people watching it.

Every action, whoever sends it, passes the same checks in the same order (the table is
still playing, this seat is to act, the message's state version is the current one, the
action is legal), is stored, and only then changes the table and is broadcast. Each
connection receives the view of its own seat, made by ``seat_view``: nothing else leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from israeli_whist.bots.matches.runner import bot_to_act
from israeli_whist.bots.players.base import Bot
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.core.actions import Action
from israeli_whist.core.duplicate import decision_seed
from israeli_whist.core.errors import IllegalActionError
from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match
from israeli_whist.core.views import seat_view
from israeli_whist.server.cluster import Cluster, LeaseLost
from israeli_whist.server.db import SeatRow, Store, TableRow
from israeli_whist.server.eventstore import insert_play, record_board
from israeli_whist.server.ratings import rate_finished_game
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.replay import replay_actions
from israeli_whist.server.standin import playing_level
from israeli_whist.server.viewjson import scoreboard_json, view_json
from israeli_whist.server.workers import Thinkers

log = logging.getLogger("whist.server")

Send = Callable[[dict[str, Any]], Awaitable[None]]

# A bot's wait, in bot delays, where the pages have more to show than one move (see _pause_in_delays).
TRICK_OVER_DELAYS = 2
HAND_OVER_DELAYS = 4
UNAVAILABLE_RETRY = 0.5  # at least: seconds a bot waits to move again when its move could not be stored
MOVING = "This table is moving to another server; please try again in a moment"
NOT_SAVED = "The action could not be saved; please try again"


class ActionRefused(Exception):
    """An action that was not taken; ``code`` is for programs, the message for people."""

    def __init__(self, code: Refusal, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Seat:
    number: int
    kind: str  # human, bot
    bot_level: str | None = None
    user_id: int | None = None
    name: str = ""
    connections: set[Send] = field(default_factory=set)
    away: bool = False  # played by the stand-in bot until its player returns
    grace: asyncio.Task[None] | None = None

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"


@dataclass(frozen=True)
class RemoteConnection:
    """A connection to this table on another node of the cluster, as its owner counts it: it
    makes the seat connected (and the table watched) here, and is sent nothing, since that node
    makes its connections' messages itself from what this one announces (``israeli_whist.server.cluster``)."""

    node: str
    connection: str

    async def __call__(self, message: dict[str, Any]) -> None:
        return None


class LiveTable:
    # Whether this node plays the table (and so announces its changes to the cluster); a mirror does not.
    plays = True

    def __init__(self, row: TableRow, seat_rows: list[SeatRow], names: dict[int, str], store: Store,
                 bot_delay: float, grace_seconds: float, thinkers: Thinkers) -> None:
        self.row = row
        self.thinkers = thinkers
        self.id = row.id
        self.store = store
        self.bot_delay = bot_delay
        self.grace_seconds = grace_seconds
        self.game = make_game(row.game, row.preset, row.options)
        self.match = Match.start(self.game, row.seed, row.first_dealer)
        self.version = 0  # actions taken so far; a message must name the current one
        self.seats = [Seat(s.seat, s.kind, s.bot_level, s.user_id, names.get(s.user_id or -1, ""))
                      for s in seat_rows]
        self.bots: dict[int, Bot] = {s.number: make_bot(playing_level(s.bot_level), f"{row.seed}/{s.number}")
                                     for s in self.seats}
        self.spectators: set[Send] = set()
        self.lock = asyncio.Lock()
        self.turn_task: asyncio.Task[None] | None = None  # bots playing their turns
        self.timer_task: asyncio.Task[None] | None = None  # the move timer of a person's turn
        self.later: set[asyncio.Task[None]] = set()  # broadcasts started where nothing can await them
        self.closed = False
        self.unsure = False  # a store failed: what the database holds is read before the next action
        self._score: tuple[Match, dict[str, Any]] | None = None  # scoreboard_json of that match
        self.cluster: Cluster | None = None  # set by the hub when this node is one of several
        self.chat_mode = row.chat  # who may talk here (israeli_whist.server.chat), changed by the creator
        self.event_name = ""  # an event board's event (set by the hub from the events table)

    @property
    def event_board(self) -> bool:
        """A board of a duplicate event (``israeli_whist.server.events``): its bots are fresh for each
        decision, it plays on without watchers, and its end is the board's result, not a rated game."""
        return self.row.event_id is not None

    # Rebuilding after a restart ---------------------------------------------------------------

    def replay(self, stored: list[tuple[int, int, int]]) -> None:
        """Bring a new table to where its stored actions left it, exactly as they were first taken."""
        self.match = replay_actions(self.match, stored, self.id)
        self.version = len(stored)

    # Seats and connections ----------------------------------------------------------------------

    def remote_connections(self) -> list[tuple[int, RemoteConnection]]:
        """The connections other nodes of the cluster hold to this table, with their seats (-1: watching)."""
        found = [(-1, send) for send in self.spectators if isinstance(send, RemoteConnection)]
        return found + [(seat.number, send) for seat in self.seats for send in seat.connections
                        if isinstance(send, RemoteConnection)]

    def seat_of_user(self, user_id: int | None) -> int:
        for seat in self.seats:
            if user_id is not None and seat.user_id == user_id and not seat.is_bot:
                return seat.number
        return -1

    def take_seat(self, seat_number: int, user_id: int, name: str) -> None:
        """Seat a user (called from the event loop, which runs the seat's grace period)."""
        if not 0 <= seat_number < len(self.seats):
            raise ActionRefused(Refusal.NO_SEAT, f"There is no seat {seat_number}")
        if self.seat_of_user(user_id) >= 0:
            raise ActionRefused(Refusal.SEATED, "You already have a seat at this table")
        seat = self.seats[seat_number]
        if seat.is_bot or seat.user_id is not None:
            raise ActionRefused(Refusal.TAKEN, f"Seat {seat_number + 1} is not free")
        try:
            self.store.set_seat_user(self.id, seat_number, user_id, self._event_play(seat_number, user_id))
        except IntegrityError:  # the primary key of the board's plays: this player has started it already
            raise ActionRefused(Refusal.BOARD_PLAYED, "You have played this board, or are playing it at another "
                                                      "table: a board is played once") from None
        seat.user_id, seat.name = user_id, name
        # Until the player opens the table, the seat is as if they had left: after the grace
        # period a bot plays for them, so that a table never waits for someone who never comes.
        if not seat.connections:
            self.start_grace(seat)

    def _event_play(self, seat_number: int, user_id: int) -> Callable[[Connection], None] | None:
        """At an event's board, what stores the player's play of it with their seat."""
        event_id, board = self.row.event_id, self.row.event_board
        if event_id is None or board is None:
            return None
        return lambda c: insert_play(c, event_id, board, user_id, seat_number, self.id)

    async def seat_user(self, seat_number: int, user_id: int, name: str) -> None:
        """``take_seat``, then everyone is told and the bots go on (a join from any node)."""
        self.take_seat(seat_number, user_id, name)
        await self.broadcast()
        self.schedule_turn()

    @property
    def watched(self) -> bool:
        """Someone is connected: a spectator, or a person at their seat. A table nobody watches
        takes no actions, so that bots (stand-ins too) do not play on for no one; the first
        connection starts them again."""
        # An event's board plays on: a player who left gets the bots' play for the rest, and the
        # board ends, so that its result counts in the field.
        return self.event_board or bool(self.spectators) or any(seat.connections for seat in self.seats)

    def adopt(self, seat_number: int, send: Send) -> None:
        """A connection that comes with the table from where it was played before (another node's
        copy, or this node's own before a lease moved): counted here at once, before anything can
        await, so that no sweep or leaving finds it nowhere. The caller sends the state after."""
        if seat_number < 0:
            self.spectators.add(send)
            return
        seat = self.seats[seat_number]
        seat.connections.add(send)
        if seat.grace is not None:
            seat.grace.cancel()
            seat.grace = None

    async def connect(self, seat_number: int, send: Send) -> None:
        resumed = not self.watched
        if seat_number < 0:
            self.spectators.add(send)
            await send(self.state_message(seat_number))
            if resumed:
                self.schedule_turn()
            return
        seat = self.seats[seat_number]
        arrived = not seat.connections
        seat.connections.add(send)
        if seat.grace is not None:
            seat.grace.cancel()
            seat.grace = None
        handed_back = seat.away
        if handed_back:
            # Handed back under the table's lock, which ``act`` holds from its checks until the action
            # is stored: a stand-in's move already being stored lands first (and the player is shown
            # it), and one that comes later is refused by ``act``, which finds the seat no longer away.
            async with self.lock:
                seat.away = not seat.connections  # still away if they left again while this waited
        if arrived or handed_back:
            # Everyone sees the seat connected again (this connection gets its first state too).
            await self.broadcast()
            if handed_back or resumed:
                self.schedule_turn()
        else:
            await send(self.state_message(seat_number))

    def disconnect(self, seat_number: int, send: Send) -> None:
        if seat_number < 0:
            self.spectators.discard(send)
            self._log_if_unwatched()
            return
        seat = self.seats[seat_number]
        seat.connections.discard(send)
        if not seat.connections and not self.closed:
            self.start_grace(seat)
            # The others see the seat's player gone (``connected`` false), not only at the next move.
            task = asyncio.get_running_loop().create_task(self.broadcast())
            self.later.add(task)
            task.add_done_callback(self.later.discard)
        self._log_if_unwatched()

    def _log_if_unwatched(self) -> None:
        if not self.watched and not self.closed and not self.match.over:
            log.info("table %s: nobody is connected; its bots wait", self.id)

    def start_grace(self, seat: Seat) -> None:
        if seat.is_bot or seat.away or seat.grace is not None or self.match.over:
            return
        seat.grace = asyncio.get_running_loop().create_task(self._grace(seat))

    async def _grace(self, seat: Seat) -> None:
        await asyncio.sleep(self.grace_seconds)
        seat.grace = None
        if not seat.connections:
            seat.away = True
            log.info("table %s seat %d: played by a bot until its player returns", self.id, seat.number)
            await self.broadcast()
            self.schedule_turn()

    # Actions ----------------------------------------------------------------------------------

    async def act(self, seat_number: int, action: Any, version: Any, by_bot: bool = False) -> int:
        """Take ``action`` for ``seat_number`` if every check passes; returns the new version."""
        return await self._take(seat_number, action, version, by_bot)

    async def _take(self, seat_number: int, action: Any, version: Any, by_bot: bool,
                    while_bot_plays: bool = False) -> int:
        """``act``; with ``while_bot_plays``, a bot's move taken only if a bot still plays the seat: a
        stand-in's move is dropped once its player is back, however long the bot thought."""
        async with self.lock:
            if self.unsure:
                await self._read_back()
            match = self.match
            if match.over:
                raise ActionRefused(Refusal.OVER, "The game is over")
            if seat_number < 0:
                raise ActionRefused(Refusal.SPECTATOR, "Spectators watch; they cannot act")
            if seat_number != match.current_player:
                raise ActionRefused(Refusal.NOT_YOUR_TURN, "It is not your turn")
            if version != self.version:
                raise ActionRefused(Refusal.STALE, f"The table has moved on (version {self.version}): here is the "
                                                   "current state")
            if while_bot_plays and not self._bot_plays(self.seats[seat_number]):
                raise ActionRefused(Refusal.STALE,
                                    f"Seat {seat_number + 1}'s player is back: the bot's move is dropped")
            if action.__class__ is not int:
                raise ActionRefused(Refusal.MALFORMED, "An action is a number from the legal list")
            if self.cluster is not None and not self.cluster.holds(self.id):
                # Stalled past the lease, or the database out of reach: the upkeep finds out at once
                # whether this node still plays the table, and hands it over if not.
                self.cluster.upkeep_now.set()
                raise ActionRefused(Refusal.UNAVAILABLE, MOVING)
            try:
                after = match.apply(action)
            except IllegalActionError as error:
                raise ActionRefused(Refusal.ILLEGAL, str(error)) from None
            hand_rows = [self._hand_row(r, s) for r in after.results[len(match.results):]
                         for s in range(self.game.players)]
            try:
                await self.store.off_loop(self.store.append_action, self.id, self.version, seat_number, action, by_bot,
                                          hand_rows, list(after.totals) if after.over else None,
                                          functools.partial(self._finished, after),
                                          None if self.cluster is None else self.cluster.insert_under_lease)
            except SQLAlchemyError:  # not taken: the table stays as it was
                log.exception("table %s: action %d could not be stored", self.id, self.version)
                self.unsure = True
                raise ActionRefused(Refusal.UNAVAILABLE, NOT_SAVED) from None
            except LeaseLost:  # another node plays the table now; the hub closes this copy at once
                log.warning("table %s: action %d refused, this node no longer holds the table", self.id, self.version)
                assert self.cluster is not None
                self.cluster.held_until.pop(self.id, None)
                self.cluster.upkeep_now.set()
                raise ActionRefused(Refusal.UNAVAILABLE, MOVING) from None
            self.match = after
            self.version += 1
            version_now = self.version
        await self._went_on()
        return version_now

    async def _went_on(self) -> None:
        """After the table took an action: everyone is shown it, and the next turn starts (or the
        finished table closes and lets its lease go)."""
        await self.broadcast()
        if self.match.over:
            self.close()
            if self.cluster is not None:
                await self.store.off_loop(self.cluster.release, self.id)
        else:
            self.schedule_turn()

    async def _read_back(self) -> None:
        """After a store that failed (under the lock): the failure may have come after the database
        committed it (a connection cut as the commit's answer came back), so the actions stored past
        this copy are read and taken before anything else is; without this, every later action would
        be refused as a number already stored."""
        try:
            stored = await self.store.off_loop(self.store.actions_since, self.id, self.version)
        except SQLAlchemyError:
            raise ActionRefused(Refusal.UNAVAILABLE, NOT_SAVED) from None
        self.unsure = False
        for seq, seat, action in stored:
            if seq != self.version or seat != self.match.current_player:  # not this copy's to take
                log.error("table %s: stored action %d does not follow this copy", self.id, seq)
                break
            log.warning("table %s: action %d was stored after all", self.id, seq)
            self.match = self.match.apply(action)
            self.version += 1
        if stored:
            task = asyncio.get_running_loop().create_task(self._went_on())
            self.later.add(task)
            task.add_done_callback(self.later.discard)

    def _finished(self, match: Match, c: Connection) -> None:
        """In the transaction that stores the game's end: a game is rated, an event's board is
        recorded as its player's result (scored against the field, never rated as a game)."""
        if self.event_board:
            record_board(c, self.id, match)
        else:
            rate_finished_game(c, self.id)

    def _hand_row(self, result: Any, seat: int) -> dict[str, Any]:
        final = result.final
        contract = final.contracts[seat] if final.contracts else None
        return {"hand_number": result.number, "seat": seat, "user_id": self.seats[seat].user_id,
                "contract": contract if contract is not None and contract >= 0 else None,
                "tricks": final.tricks_won[seat], "points": result.points[seat]}

    def schedule_turn(self) -> None:
        """Start the bot (or the stand-in for an away seat) whose turn it is, once; or the move
        timer of a person's turn, when the table has one."""
        cancel_others(self.timer_task)
        self.timer_task = None
        if self.closed or self.match.over or not self.watched:  # unwatched: the next connection calls again
            return
        seat = self.seats[self.match.current_player]
        loop = asyncio.get_running_loop()
        if self._bot_plays(seat):
            if self.turn_task is None or self.turn_task.done():
                self.turn_task = loop.create_task(self._bot_turn())
        elif self.row.move_timer:
            self.timer_task = loop.create_task(self._move_timer(seat.number, self.version, self.row.move_timer))

    async def _move_timer(self, seat_number: int, version: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if self.closed or self.version != version or not self.watched:
            return
        log.info("table %s seat %d: out of time, a bot moves", self.id, seat_number)
        action = await self._think(seat_number)
        with contextlib.suppress(ActionRefused):  # the person moved in the same instant
            await self.act(seat_number, action, version, by_bot=True)

    def _playing_bots(self) -> dict[int, Bot]:
        """The bots that act now: at bot seats, and the stand-ins of players away from theirs."""
        return {seat.number: self.bots[seat.number] for seat in self.seats if self._bot_plays(seat)}

    def _pause_in_delays(self) -> int:
        """How many bot delays a bot waits before its step: longer where the pages have something
        to show first. After a trick's last card the page holds the whole trick, then sends it to
        its winner (static/motion.js: about 1.3 s); at a new hand the last one's summary is read."""
        hand = self.match.hand
        if self.match.results and not hand.action_log:
            return HAND_OVER_DELAYS
        if hand.tricks and not hand.trick:
            return TRICK_OVER_DELAYS
        return 1

    @staticmethod
    def _bot_plays(seat: Seat) -> bool:
        return seat.is_bot or seat.away

    async def _bot_turn(self) -> None:
        """The bots' turns, one action at a time: between steps the table waits
        its delay and lets people act, come back or leave, so each step checks again."""
        while not self.closed and bot_to_act(self.match.hand, self._playing_bots()) is not None:
            seat_number = self.match.current_player
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay * self._pause_in_delays())
            if self.closed or self.match.current_player != seat_number:
                continue
            version = self.version
            if bot_to_act(self.match.hand, self._playing_bots()) is None:  # the player came back while the bot waited
                return
            if not self.watched:  # the last watcher left: the first to come back starts the bots again
                return
            action = await self._think(seat_number)
            if not self.watched:  # left while the bot thought: the action is not taken
                return
            if self.version != version:  # a person acted for the seat meanwhile: look again
                continue
            try:
                await self._take(seat_number, action, version, by_bot=True, while_bot_plays=True)
            except ActionRefused as refused:  # a person acted first for this seat, or came back: carry on
                log.info("table %s: bot action refused: %s", self.id, refused)
                if refused.code == Refusal.UNAVAILABLE:  # not stored (the database, the lease): later
                    await asyncio.sleep(max(self.bot_delay, UNAVAILABLE_RETRY))
            await asyncio.sleep(0)  # let messages out between bot moves

    async def _think(self, seat_number: int) -> Action:
        """The choice of the bot that plays the seat, worked out by the bot workers
        (``israeli_whist.server.workers``): a searching bot thinks for up to a second, and the other
        tables must not wait for it. The view is an immutable snapshot; an action that comes
        back stale is refused by ``act`` as any other. The bot that comes back (its randomness
        moved on) is kept only if the table is still where it was asked."""
        view, version = seat_view(self.match.hand, seat_number), self.version
        decided = await self.thinkers.decide(self._bot_for(seat_number), view)
        if decided.stand_in:
            log.warning("table %s seat %d: the bot did not answer in time; the basic bot moved", self.id, seat_number)
        elif self.version == version and not self.event_board:
            self.bots[seat_number] = decided.bot
        return decided.action

    def _bot_for(self, seat_number: int) -> Bot:
        """The bot that decides for the seat now. At an event's board a fresh one, seeded by the
        board, the seat and the step: the same play gets the same answer on every node, after a
        restart, at any hour of the event (``israeli_whist.core.duplicate.decision_seed``)."""
        if not self.event_board:
            return self.bots[seat_number]
        level = playing_level(self.seats[seat_number].bot_level)
        return make_bot(level, decision_seed(self.row.seed, seat_number, self.version))

    def close(self) -> None:
        self.closed = True
        for seat in self.seats:
            if seat.grace is not None:
                seat.grace.cancel()
        cancel_others(self.turn_task, self.timer_task, *self.later)

    # What each connection is sent -----------------------------------------------------------

    def table_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.row.game,
            "title": self.game.title,
            "traits": self.game.rules.traits.to_json(),
            "preset": self.row.preset,
            "options": self.row.options,
            "house_rules": self.game.rules.changed_options(),  # the rules in force, where not the defaults
            "public": self.row.public,
            "move_timer": self.row.move_timer,
            "status": "finished" if self.match.over else "playing",
            "chat": self.chat_mode,
            "hints": self.row.hints,  # a practice table: its players may ask for hints (hints.py)
            "rated": not self.row.hints and not self.event_board,  # practice tables and event boards are not rated
            "created_by": self.row.created_by,  # the one who may change ``chat``
            "event": None if self.row.event_id is None else {"id": self.row.event_id, "board": self.row.event_board,
                                                             "name": self.event_name},
            "seats": [{"seat": s.number, "kind": s.kind, "level": s.bot_level, "name": s.name,
                       "taken": s.is_bot or s.user_id is not None, "connected": bool(s.connections),
                       "away": s.away} for s in self.seats],
        }

    def score_json(self) -> dict[str, Any]:
        """The score of every deal so far: the same for every seat, so it is made once for each
        action, not for each connection (a long game has many deals and many watchers)."""
        if self._score is None or self._score[0] is not self.match:
            self._score = (self.match, scoreboard_json(self.match))
        return self._score[1]

    def state_message(self, seat_number: int, table: dict[str, Any] | None = None) -> dict[str, Any]:
        """What ``seat_number`` (-1: a spectator) is sent. Only ``view`` differs between seats:
        everything else is shared, so it must hold nothing that a seat may not see."""
        return {"type": "state", "version": self.version, "you": seat_number,
                "table": self.table_json() if table is None else table, "score": self.score_json(),
                "view": view_json(seat_view(self.match.hand, seat_number))}

    async def broadcast(self) -> None:
        sends: list[tuple[int, Send]] = [(-1, s) for s in self.spectators]
        sends += [(seat.number, s) for seat in self.seats for s in seat.connections]
        # One message per seat, all made before the first send waits: every connection gets the
        # table as it was at this moment, even if an action is taken while the sends go out.
        table = self.table_json()
        messages = {seat_number: self.state_message(seat_number, table) for seat_number in {n for n, _ in sends}}
        for seat_number, send in sends:
            try:
                await send(messages[seat_number])
            except Exception:  # a connection closing as we write: its own handler cleans up
                log.debug("table %s: send to seat %d failed", self.id, seat_number)
        if self.cluster is not None and self.plays:
            self.announce(table)

    def announce(self, table: dict[str, Any] | None = None) -> None:
        """Tell the other nodes the table changed: its version, and its seats as everyone sees them
        (no card: each node makes its own connections' views from the stored actions)."""
        assert self.cluster is not None
        if not self.cluster.holds(self.id):  # it may have lost the table: the upkeep announces it if not
            return
        seats = (table or self.table_json())["seats"]
        message = {"table": self.id, "version": self.version, "owner": self.cluster.node,
                   "seats": [{"user": seat.user_id, "name": seat.name, "connected": shown["connected"],
                              "away": shown["away"]} for seat, shown in zip(self.seats, seats, strict=True)]}
        self.cluster.publish(message)


def cancel_others(*tasks: asyncio.Task[None] | None) -> None:
    """Cancel ``tasks``, except the one this code runs in (a timer that moves for a person must
    not cancel itself halfway) and the Nones. From outside any event loop (a hub's shutdown, a
    test's teardown) there is no current task, and all are cancelled."""
    try:
        current = asyncio.current_task()
    except RuntimeError:  # no running event loop
        current = None
    for task in tasks:
        if task is not None and task is not current:
            task.cancel()
