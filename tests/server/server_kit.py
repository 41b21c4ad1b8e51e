"""Shared pieces of the server tests: people with their own session on one TestClient,
WebSocket connections that read with a time limit and keep every message, and the check that
no message shows a seat a card it may not see."""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import httpx2
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from israeli_whist.bots.players.basic import BasicBot
from israeli_whist.core.actions import Action, is_card
from israeli_whist.core.cards import cards_in
from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match
from israeli_whist.core.views import SeatView, hidden_cards, seat_view
from israeli_whist.server.db import Store, TableRow, actions, make_engine
from israeli_whist.server.eventstore import events
from israeli_whist.server.live import LiveTable
from israeli_whist.server.viewjson import scoreboard_json, view_json

Message = dict[str, Any]
COOKIE = "whist_session"
# What a change without a JSON body (a sign-out, a DELETE) carries, as the pages send it:
# no cross-site form can (israeli_whist.server.guard).
CHANGE = {"X-Whist-Request": "1"}
# Every field of a view: a field added later must be added here, and so to the leak check.
VIEW_FIELDS = {"game", "seat", "players", "dealer", "phase", "player", "hand", "hand_size", "legal", "calls",
               "high_bid", "declarer", "trump", "frisch_round", "frisch_selected", "frisch_passed",
               "frisch_received", "frisch_to", "contracts", "leader", "trick", "last_trick", "tricks_played",
               "tricks_won", "turned_card", "revealed", "scores", "over_under",
               "traits"}  # traits: what the game is, no cards


def seats_json(kinds: str, level: str = "basic") -> list[dict[str, Any]]:
    """``"hbhb"``: human, bot, human, bot."""
    return [{"kind": "human"} if k == "h" else {"kind": "bot", "level": level} for k in kinds]


@dataclass(frozen=True)
class Player:
    name: str
    user_id: int
    cookie: str


def sign_in(client: TestClient, name: str) -> Player:
    """A new guest with a session of their own."""
    client.cookies.clear()
    response = client.post("/api/guest", json={"name": name})
    assert response.status_code == 200, response.text
    player = Player(name, response.json()["user"]["id"], response.cookies[COOKIE])
    client.cookies.clear()
    return player


def use(client: TestClient, player: Player | None) -> TestClient:
    """Make the next requests (and WebSocket connections) of ``client`` as ``player``."""
    client.cookies.clear()
    if player is not None:
        client.cookies.set(COOKIE, player.cookie)
    return client


def create_table(client: TestClient, player: Player, kinds: str, game: str = "israeli",
                 options: dict[str, Any] | None = None, **extra: Any) -> Message:
    body = {"game": game, "options": options if options is not None else {"hands": 1},
            "seats": seats_json(kinds), **extra}
    response = use(client, player).post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    table: Message = response.json()
    return table


def join(client: TestClient, player: Player, table_id: str, seat: int, invite: str | None = None) -> None:
    response = use(client, player).post(f"/api/tables/{table_id}/join", json={"seat": seat, "invite": invite})
    assert response.status_code == 200, response.text


class Conn:
    """One WebSocket of a test: every message it was sent, in order, and the newest state.
    Subclasses read a text frame with a time limit (TimeoutError) and send one."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.state: Message = {}

    def receive_text(self, timeout: float) -> str:
        raise NotImplementedError

    def send_text(self, text: str) -> None:
        raise NotImplementedError

    def receive(self, timeout: float = 10.0) -> Message:
        message: Message = json.loads(self.receive_text(timeout))
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def send(self, message: Any) -> None:
        self.send_text(json.dumps(message))

    def until(self, wanted: Callable[[Message], bool], timeout: float = 10.0) -> Message:
        """Read until a message is ``wanted``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.01, deadline - time.monotonic()))
            if wanted(message):
                return message

    def state_at(self, version: int, timeout: float = 10.0) -> Message:
        """Read until a state of at least ``version`` (the newest one, if it came already)."""
        if self.state and self.state["version"] >= version:
            return self.state
        return self.until(lambda m: m["type"] == "state" and m["version"] >= version, timeout)

    def quiet(self, seconds: float = 0.2) -> list[Message]:
        """The messages that arrive within ``seconds``."""
        got = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                got.append(self.receive(left))
            except TimeoutError:
                break
        return got

    def act(self, action: int, version: int | None = None, message_id: str = "t") -> Message:
        """Send an action at the newest version (or ``version``); return the reply, an ack or an error."""
        self.send({"type": "act", "action": action, "version": self.state["version"] if version is None else version,
                   "id": message_id})
        return self.until(lambda m: m["type"] in ("ack", "error") and m.get("id") == message_id)


class TestConn(Conn):
    """A WebSocket of Starlette's TestClient, read in the app's event loop."""

    __test__ = False  # not a test class, whatever pytest thinks of the name

    def __init__(self, ws: WebSocketTestSession) -> None:
        super().__init__()
        self.ws = ws

    def receive_text(self, timeout: float) -> str:
        async def next_frame() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        frame = self.ws.portal.call(next_frame)
        if frame["type"] == "websocket.close":
            raise WebSocketDisconnect(frame.get("code", 1000), frame.get("reason", ""))
        text: str = frame["text"]
        return text

    def send_text(self, text: str) -> None:
        self.ws.send_text(text)


class RealConn(Conn):
    """A WebSocket to a real server (``whist serve``), by the websockets library."""

    def __init__(self, ws: ClientConnection) -> None:
        super().__init__()
        self.ws = ws

    def receive_text(self, timeout: float) -> str:
        data = self.ws.recv(timeout=timeout)
        assert isinstance(data, str)
        return data

    def send_text(self, text: str) -> None:
        self.ws.send(text)


@contextmanager
def connect(client: TestClient, player: Player | None, table_id: str, invite: str | None = None
            ) -> Iterator[TestConn]:
    """A WebSocket to the table as ``player`` (None: no session), after its first state."""
    path = f"/ws/tables/{table_id}" + (f"?invite={invite}" if invite else "")
    with use(client, player).websocket_connect(path) as ws:
        conn = TestConn(ws)
        conn.until(lambda m: m["type"] == "state")
        yield conn


@contextmanager
def connect_real(base_url: str, cookie: str, table_id: str) -> Iterator[RealConn]:
    """A WebSocket to a real server's table with the session ``cookie``, after its first state."""
    url = base_url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    with ws_connect(url, additional_headers={"Cookie": f"{COOKIE}={cookie}"}, open_timeout=10) as ws:
        conn = RealConn(ws)
        conn.until(lambda m: m["type"] == "state")
        yield conn


def drive(conns: dict[int, Conn], rng: random.Random, stop: Callable[[Message], bool] = lambda state: False,
          timeout: float = 20.0, patient: bool = False, wait: float = 10.0, lags: list[float] | None = None
          ) -> Message:
    """Play the people's seats (``conns``: seat to connection) at random, the bots playing theirs,
    until the game is over or a state is ``stop``; returns that state. Every action must be taken,
    unless ``patient``: then one answered ``unavailable`` (the table moving between nodes, the
    database away) or ``stale`` is sent again on the newest state, as a patient client does. Each
    state must come within ``wait``; with ``lags``, each new state reaches every connection within
    ``wait`` of the first one's, and the slowest one's lag is added to ``lags``."""
    watcher = next(iter(conns.values()))
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "the game did not move on"
        if lags is not None and len(conns) > 1:
            first = time.monotonic()
            for conn in conns.values():
                conn.state_at(watcher.state["version"], timeout=wait)
            lags.append(time.monotonic() - first)
        state = watcher.state
        if state["score"]["over"] or stop(state):
            return state
        player = state["view"]["player"]
        if player in conns:
            # Only that seat can move the table on from this version, so its own state catches up to it.
            mine = conns[player].state_at(state["version"], timeout=wait)
            reply = conns[player].act(choose(rng, mine), mine["version"])
            if patient and reply["type"] == "error" and reply["code"] in ("unavailable", "stale"):
                time.sleep(0.2)
                continue
            assert reply["type"] == "ack", reply
        watcher.state_at(state["version"] + 1, timeout=wait)


def check_stored(database_url: str, table_id: str, final: Message) -> None:
    """Actions 0..n-1, each once, which replayed through the engine end the game as the server said."""
    stored = stored_actions(database_url, table_id)
    assert [seq for seq, *_ in stored] == list(range(final["version"]))
    store = Store(database_url)
    try:
        row = store.table(table_id)
    finally:
        store.close()
    assert row is not None and row.status == "finished"
    end = matches_by_version(row, stored)[-1]
    assert end.over and list(end.totals) == final["score"]["totals"] == row.totals


def live(app: Any, table_id: str) -> LiveTable:
    """The live table in an in-process app (``client.app``, typed as any ASGI app)."""
    table = app.state.hub.get(table_id)
    assert isinstance(table, LiveTable)
    return table


def stored_actions(url: str, table_id: str) -> list[tuple[int, int, int, bool]]:
    """(seq, seat, action, by_bot) of the table's stored actions, read straight from the database."""
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            rows = c.execute(select(actions.c.seq, actions.c.seat, actions.c.action, actions.c.by_bot)
                             .where(actions.c.table_id == table_id).order_by(actions.c.seq))
            return [(r.seq, r.seat, r.action, bool(r.by_bot)) for r in rows]
    finally:
        engine.dispose()


def event_seed(url: str, event_id: str) -> str:
    """An event's secret seed, read straight from the database: what deals its boards and seeds their bots."""
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            seed: str = c.execute(select(events.c.seed).where(events.c.id == event_id)).scalar_one()
            return seed
    finally:
        engine.dispose()


def matches_by_version(row: TableRow, stored: Sequence[tuple[int, ...]]) -> list[Match]:
    """The match after 0, 1, 2 ... stored actions, replayed through the engine from the table's seed."""
    assert [r[0] for r in stored] == list(range(len(stored))), "sequence numbers with a gap"
    match = Match.start(make_game(row.game, row.preset, row.options), row.seed, row.first_dealer)
    found = [match]
    for _seq, seat, action, *_ in stored:
        assert seat == match.current_player
        match = match.apply(action)
        found.append(match)
    return found


def view_cards(view: Message) -> set[int]:
    """Every card a view shows, wherever it shows it."""
    assert set(view) == VIEW_FIELDS, "a new view field: teach the leak check where its cards are"
    cards = set(view["hand"]) | set(view["frisch_selected"])
    for group in view["frisch_passed"] + view["frisch_received"] + view["revealed"]:
        cards |= set(group)
    cards |= {card for _seat, card in view["trick"]}
    if view["last_trick"] is not None:
        cards |= set(view["last_trick"]["cards"])
    if view["turned_card"] >= 0:
        cards.add(view["turned_card"])
    cards |= {legal["action"] for legal in view["legal"] if is_card(legal["action"])}
    return cards


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def check_no_leak(messages: Sequence[Message], seat: int, matches: Sequence[Match]) -> int:
    """Every state in ``messages`` (stale errors carry one too) is exactly what ``seat`` may see at
    its version, and shows no card hidden from the seat; returns how many states were checked."""
    checked = 0
    for message in messages:
        state = message if message["type"] == "state" else message.get("state")
        if state is None:
            continue
        match = matches[state["version"]]
        view, hand = state["view"], match.hand
        assert state["you"] == seat
        leaked = view_cards(view) & set(cards_in(hidden_cards(hand, seat)))
        assert not leaked, f"seat {seat} sees hidden cards {sorted(leaked)} at version {state['version']}"
        if seat < 0:
            assert view["hand"] == [] and view["legal"] == [] and view["frisch_selected"] == []
            assert view["revealed"] == [] or view["phase"] == "over"
        assert view == as_json(view_json(seat_view(hand, seat)))
        assert state["score"] == as_json(scoreboard_json(match))
        checked += 1
    return checked


def choose(rng: random.Random, state: Message) -> int:
    """A legal action of the seat whose state this is, drawn at random."""
    legal = state["view"]["legal"]
    assert legal, "not this seat's turn"
    action: int = rng.choice(legal)["action"]
    return action


def reply_to(conn: Conn, text: str) -> Message:
    """Send ``text``; the answer to it (an ack comes after the new state, which is kept)."""
    try:
        sync = json.loads(text).get("type") == "sync"
    except (ValueError, RecursionError, AttributeError):
        sync = False
    conn.send_text(text)
    while True:
        message = conn.receive()
        if message["type"] in ("ack", "error", "pong") or (sync and message["type"] == "state"):
            return message


def my_turn(conn: Conn, seat: int = 0) -> Message:
    """The state once it is ``seat``'s turn (or the game is over): the newest state, if it is
    already (the bots may have played before an ack was sent), else the next one that is."""
    def mine(message: Message) -> bool:
        return message["type"] == "state" and (message["view"]["player"] == seat or bool(message["score"]["over"]))

    return conn.state if mine(conn.state) else conn.until(mine)


@contextmanager
def errors_logged() -> Iterator[list[logging.LogRecord]]:
    """Every record at ERROR or above, or with a traceback, that the app's loggers emit
    (attached to each, as a logging config may have stopped them propagating to the root)."""
    found: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.ERROR or record.exc_info:
                found.append(record)

    handler = Keep(logging.DEBUG)
    loggers = [logging.getLogger(name) for name in ("", "whist", "uvicorn", "uvicorn.error", "starlette", "fastapi")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield found
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


def logged_text(records: list[logging.LogRecord]) -> str:
    return "\n".join(f"{r.name} {r.levelname}: {r.getMessage()}" for r in records)


class SleepyBot(BasicBot):
    """The basic bot, after ``seconds`` of sleep a decision: a bot that is surely still thinking a
    second after it starts, and done a few seconds later, however loaded the machine (a search
    bot's time grows with the load, and a bot worker runs niced). Here, where worker processes
    can unpickle it."""

    level = "sleepy"

    def __init__(self, seed: int | str = 0, seconds: float = 4.0) -> None:
        super().__init__(seed)
        self.seconds = seconds

    def choose(self, view: SeatView) -> Action:
        time.sleep(self.seconds)
        return super().choose(view)


def guest(server: Any, name: str) -> str:
    """A new guest on a real server (``whist serve``, with its ``url``); returns the session cookie."""
    answer = httpx2.post(server.url + "/api/guest", json={"name": name}, timeout=10)
    assert answer.status_code == 200, answer.text
    return str(answer.cookies[COOKIE])


def real_call(server: Any, cookie: str, method: str, path: str, body: dict[str, Any]) -> Message:
    """A request to a real server as the session ``cookie``; its JSON answer, which must be a success."""
    answer = httpx2.request(method, server.url + path, json=body, cookies={COOKIE: cookie}, timeout=10)
    assert answer.status_code in (200, 201), answer.text
    result: Message = answer.json()
    return result
