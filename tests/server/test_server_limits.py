"""The server's limits: new tables, guests, accounts and sign-in attempts per session and per
address (429 with ``Retry-After``), the cap on a player's unfinished tables (409), and tables
that nobody watches, whose bots wait until someone connects.

The rate limits run on a clock of the test's own, moved forward instead of waited for. The
address of a request is set by a small ASGI wrapper from a test header, as a proxy would."""

from __future__ import annotations

import dataclasses
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx2 import Response
from server_kit import connect, create_table, live, seats_json, sign_in, stored_actions, use
from starlette.types import ASGIApp, Receive, Scope, Send
from typer.testing import CliRunner

from israeli_whist.cli.main import app as cli_app
from israeli_whist.server.app import create_app
from israeli_whist.server.limits import SlidingWindow, duration
from israeli_whist.server.live import LiveTable
from israeli_whist.server.settings import Limit, RateLimits, ServerSettings

ADDRESS = "x-test-address"
PLENTY = Limit(1000, 1000, 60)


class FakeClock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def from_test_addresses(app: ASGIApp) -> ASGIApp:
    """``app``, seeing each request come from the address in its ``x-test-address`` header."""

    async def addressed(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            address = dict(scope["headers"]).get(ADDRESS.encode())
            if address is not None:
                scope = {**scope, "client": (address.decode(), 50000)}
        await app(scope, receive, send)

    return addressed


@dataclasses.dataclass
class App:
    """An in-process app, its TestClient, and the clock of its rate limits."""

    client: TestClient
    app: FastAPI
    clock: FakeClock


@contextmanager
def running(settings: ServerSettings, max_open_tables: int | None = 100, bot_delay: float = 0.0,
            grace_seconds: float = 0.5, **limits: Limit | None) -> Iterator[App]:
    """An in-process app on a fake clock, stopped at the end; limits not given are far above
    what a test asks for."""
    rate_limits = RateLimits(**{"tables": PLENTY, "guests": PLENTY, "accounts": PLENTY, "logins": PLENTY, **limits})
    settings = dataclasses.replace(settings, rate_limits=rate_limits, max_open_tables=max_open_tables,
                                   bot_delay=bot_delay, grace_seconds=grace_seconds)
    clock = FakeClock()
    app = create_app(settings, clock)
    with TestClient(from_test_addresses(app)) as client:
        yield App(client, app, clock)


@pytest.fixture
def make_server(app_settings: ServerSettings) -> Iterator[Callable[..., App]]:
    """``make_server(tables=Limit(...), max_open_tables=..., ...)``: ``running``, stopped after the test."""
    with ExitStack() as stack:
        yield lambda **options: stack.enter_context(running(app_settings, **options))


def refused(response: Response, retry_after: int, scope: str) -> str:
    """Check a 429 with its ``Retry-After`` and a message naming the limit; returns the message."""
    assert response.status_code == 429, response.text
    assert response.headers["Retry-After"] == str(retry_after)
    detail: str = response.json()["detail"]
    assert f"from this {scope}" in detail and detail.endswith(f"Try again in {duration(retry_after)}.")
    return detail


# Rate limits ---------------------------------------------------------------------------------------

TABLE = {"game": "israeli", "options": {"hands": 1}, "seats": seats_json("hbbb")}


def test_new_tables_per_session(make_server: Callable[..., App]) -> None:
    server = make_server(tables=Limit(3, 100, 60))
    client, clock = server.client, server.clock
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    for _ in range(3):
        assert use(client, ann).post("/api/tables", json=TABLE).status_code == 201
        clock.advance(10)
    # At 30 s: the first of the three leaves the window at 60 s.
    detail = refused(use(client, ann).post("/api/tables", json=TABLE), 30, "session")
    assert detail == "Too many new tables from this session: at most 3 in 1 minute. Try again in 30 seconds."
    assert use(client, bob).post("/api/tables", json=TABLE).status_code == 201  # another session, same address
    clock.advance(29.5)
    refused(use(client, ann).post("/api/tables", json=TABLE), 1, "session")  # half a second: whole seconds, up
    clock.advance(0.5)
    assert use(client, ann).post("/api/tables", json=TABLE).status_code == 201
    refused(use(client, ann).post("/api/tables", json=TABLE), 10, "session")  # the refused ones did not count


def test_new_tables_per_address(make_server: Callable[..., App]) -> None:
    server = make_server(tables=Limit(100, 3, 60))
    client = server.client
    people = [sign_in(client, name) for name in ("Ann", "Bob", "Cid", "Dan")]
    for person in people[:3]:
        assert use(client, person).post("/api/tables", json=TABLE).status_code == 201
    dan = people[3]
    refused(use(client, dan).post("/api/tables", json=TABLE), 60, "address")
    assert use(client, dan).post("/api/tables", json=TABLE, headers={ADDRESS: "10.0.0.7"}).status_code == 201
    server.clock.advance(60)
    assert use(client, dan).post("/api/tables", json=TABLE).status_code == 201


def guest_body(number: int) -> dict[str, Any]:
    return {"name": f"Guest {number}"}


def account_body(number: int) -> dict[str, Any]:
    return {"login": f"player{number}", "password": "a good password"}


def login_body(number: int) -> dict[str, Any]:
    return {"login": "ann", "password": "a wrong password"}


KINDS = [("guests", "/api/guest", guest_body, 200), ("accounts", "/api/register", account_body, 200),
         ("logins", "/api/login", login_body, 401)]


@pytest.mark.parametrize(("kind", "path", "body", "status"), KINDS, ids=[k[0] for k in KINDS])
def test_players_per_session(make_server: Callable[..., App], kind: str, path: str,
                             body: Callable[[int], dict[str, Any]], status: int) -> None:
    server = make_server(**{kind: Limit(2, 100, 600)})
    client = server.client
    client.cookies.clear()
    for number in range(2):  # one browser: the cookie it is given is sent back
        assert client.post(path, json=body(number)).status_code == status
    server.clock.advance(100)
    detail = refused(client.post(path, json=body(2)), 500, "session")
    assert "at most 2 in 10 minutes" in detail
    cookies = dict(client.cookies)
    client.cookies.clear()
    assert client.post(path, json=body(3)).status_code == status  # a new browser on the same address
    client.cookies.update(cookies)
    server.clock.advance(500)
    assert client.post(path, json=body(4)).status_code == status


@pytest.mark.parametrize(("kind", "path", "body", "status"), KINDS, ids=[k[0] for k in KINDS])
def test_players_per_address(make_server: Callable[..., App], kind: str, path: str,
                             body: Callable[[int], dict[str, Any]], status: int) -> None:
    server = make_server(**{kind: Limit(100, 2, 600)})
    client = server.client
    for number in range(2):
        client.cookies.clear()  # a client that drops its cookies: a new session every time
        assert client.post(path, json=body(number)).status_code == status
    client.cookies.clear()
    refused(client.post(path, json=body(2)), 600, "address")
    assert client.post(path, json=body(3), headers={ADDRESS: "10.0.0.8"}).status_code == status
    server.clock.advance(600)
    assert client.post(path, json=body(4)).status_code == status


def test_a_right_password_is_refused_too_while_the_logins_are_limited(make_server: Callable[..., App]) -> None:
    server = make_server(logins=Limit(2, 100, 300))
    client = server.client
    assert client.post("/api/register", json={"login": "ann", "password": "the right one"}).status_code == 200
    for _ in range(2):
        assert client.post("/api/login", json={"login": "ann", "password": "a guess"}).status_code == 401
    refused(client.post("/api/login", json={"login": "ann", "password": "the right one"}), 300, "session")
    server.clock.advance(300)
    assert client.post("/api/login", json={"login": "ann", "password": "the right one"}).status_code == 200


def test_limits_off(make_server: Callable[..., App]) -> None:
    server = make_server(tables=None, guests=None)
    for number in range(30):
        player = sign_in(server.client, f"Guest {number}")
        assert use(server.client, player).post("/api/tables", json=TABLE).status_code == 201


def test_idle_keys_are_dropped() -> None:
    """Keys are dropped once their window has passed, when the keys held have doubled: many
    clients, each seen once, do not fill the memory."""
    window = SlidingWindow(1, 10)
    for number in range(3000):
        window.record(f"early{number}", now=0.0)
    for number in range(1200):
        window.record(f"late{number}", now=20.0)
    assert len(window.times) == 1200 and not any(key.startswith("early") for key in window.times)
    assert window.wait("late1", 25.0) == 5.0 and window.wait("early1", 25.0) == 0.0


def test_serve_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """``whist serve``'s limit options reach the server's settings; a malformed one is refused."""
    started: list[tuple[object, ...]] = []
    monkeypatch.setattr("israeli_whist.server.run.run_server", lambda *args, **_: started.append(args))
    runner = CliRunner()
    assert runner.invoke(cli_app, ["serve", "--limit", "tables=2,5,60", "--limit", "logins=off"]).exit_code == 0
    assert runner.invoke(cli_app, ["serve", "--no-rate-limits", "--max-open-tables", "0"]).exit_code == 0
    assert started[0][-2:] == (RateLimits(tables=Limit(2, 5, 60), logins=None), 10)
    assert started[1][-2:] == (RateLimits.off(), None)
    result = runner.invoke(cli_app, ["serve", "--limit", "tables=10,30"])
    assert result.exit_code == 2 and "KIND=SESSION,ADDRESS,SECONDS" in result.output
    result = runner.invoke(cli_app, ["serve", "--limit", "bots=1,1,1"])
    assert result.exit_code == 2 and "Unknown limit 'bots'" in result.output
    assert len(started) == 2


def test_serve_bot_workers_by_flag_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """One worker process per core unless told; flags and WHIST_* variables set the same settings;
    a bad count is refused before anything starts."""
    started: list[dict[str, object]] = []
    monkeypatch.setattr("israeli_whist.server.run.run_server", lambda *args, **kwargs: started.append(kwargs))
    runner = CliRunner()
    assert runner.invoke(cli_app, ["serve"]).exit_code == 0
    defaults = {"bot_workers": None, "bot_deadline": 5.0, "ray_address": None, "node_name": None,
                "lease_seconds": 10.0, "allowed_origins": (), "daily_bot_level": "hard"}
    assert started[-1] == defaults  # bot_workers None: one per core
    assert runner.invoke(cli_app, ["serve", "--bot-workers", "0", "--bot-deadline", "2"]).exit_code == 0
    assert started[-1] == {**defaults, "bot_workers": 0, "bot_deadline": 2.0}
    env = {"WHIST_BOT_WORKERS": "3", "WHIST_BOT_DEADLINE": "9", "WHIST_RAY_ADDRESS": "ray://head:10001",
           "WHIST_NODE_NAME": "north", "WHIST_LEASE_SECONDS": "4", "WHIST_DAILY_LEVEL": "medium"}
    assert runner.invoke(cli_app, ["serve"], env=env).exit_code == 0
    assert started[-1] == {"bot_workers": 3, "bot_deadline": 9.0, "ray_address": "ray://head:10001",
                           "node_name": "north", "lease_seconds": 4.0, "allowed_origins": (),
                           "daily_bot_level": "medium"}
    count = len(started)
    for args, env in ((["--bot-workers", "-1"], {}), ([], {"WHIST_BOT_WORKERS": "lots"}),
                      (["--bot-deadline", "0"], {}), ([], {"WHIST_PORT": "0"}), (["--lease-seconds", "0.5"], {}),
                      (["--daily-level", "expert"], {})):
        result = runner.invoke(cli_app, ["serve", *args], env=env)
        assert result.exit_code == 2 and "Invalid value" in result.output, result.output
    assert len(started) == count


def test_serve_allowed_origins_by_flag_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--allowed-origin`` (repeatable) and ``WHIST_ALLOWED_ORIGINS`` (comma separated) reach the
    server in one spelling; something that is not an origin is refused before anything starts."""
    started: list[object] = []
    monkeypatch.setattr("israeli_whist.server.run.run_server",
                        lambda *args, **kwargs: started.append(kwargs["allowed_origins"]))
    runner = CliRunner()
    flags = ["--allowed-origin", "https://Whist.Example", "--allowed-origin", "http://10.0.0.5:8000/"]
    assert runner.invoke(cli_app, ["serve", *flags]).exit_code == 0
    env = {"WHIST_ALLOWED_ORIGINS": "https://whist.example:443,https://www.whist.example"}
    assert runner.invoke(cli_app, ["serve"], env=env).exit_code == 0
    assert started == [("https://whist.example", "http://10.0.0.5:8000"),
                       ("https://whist.example", "https://www.whist.example")]
    for args, env in ((["--allowed-origin", "whist.example"], {}), ([], {"WHIST_ALLOWED_ORIGINS": "null"})):
        result = runner.invoke(cli_app, ["serve", *args], env=env)
        assert result.exit_code == 2 and "is not an origin" in result.output, result.output
    assert len(started) == 2


# Unfinished tables ----------------------------------------------------------------------------------

BOTS_ONLY = {"game": "israeli", "options": {"hands": 1}, "seats": seats_json("bbbb", "random"), "take_seat": None}


def test_a_player_may_have_only_so_many_unfinished_tables(make_server: Callable[..., App]) -> None:
    server = make_server(max_open_tables=2)
    client = server.client
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    assert use(client, ann).post("/api/tables", json=TABLE).status_code == 201
    bots_only = use(client, ann).post("/api/tables", json=BOTS_ONLY)
    assert bots_only.status_code == 201
    third = use(client, ann).post("/api/tables", json=TABLE)
    assert third.status_code == 409
    assert third.json()["detail"] == ("You have 2 unfinished tables, the most one player may have: "
                                      "finish a game before you open another table")
    assert "Retry-After" not in third.headers
    assert use(client, bob).post("/api/tables", json=TABLE).status_code == 201  # a cap per player
    # The bots' game ends while Ann watches it: one place is free again.
    with connect(client, ann, bots_only.json()["id"]) as watching:
        watching.until(lambda m: m["type"] == "state" and m["score"]["over"])
    assert use(client, ann).post("/api/tables", json=TABLE).status_code == 201
    assert use(client, ann).post("/api/tables", json=TABLE).status_code == 409


# Tables nobody watches -----------------------------------------------------------------------------

def still(table: LiveTable, seconds: float = 0.3) -> int:
    """The table's version, checked not to move for ``seconds``."""
    version = table.version
    time.sleep(seconds)
    assert table.version == version, "the table played on with nobody watching"
    return version


def gone(table: LiveTable) -> None:
    """Wait until the server has seen every connection close."""
    deadline = time.monotonic() + 5
    while table.watched:
        assert time.monotonic() < deadline, "the connections did not close"
        time.sleep(0.01)


def test_bots_wait_while_nobody_watches(make_server: Callable[..., App]) -> None:
    # Bots that wait a little between moves: the game lasts long enough to be left mid-way.
    server = make_server(bot_delay=0.01)
    client = server.client
    ann = sign_in(client, "Ann")
    body = {**BOTS_ONLY, "options": {"hands": 20}}
    table_id = use(client, ann).post("/api/tables", json=body).json()["id"]
    table = live(server.app, table_id)
    assert still(table) == 0  # made, but nobody has come to watch
    with connect(client, None, table_id) as spectator:
        spectator.state_at(5)
    gone(table)
    paused_at = still(table)
    assert len(stored_actions(server.app.state.settings.database_url, table_id)) == paused_at
    with connect(client, ann, table_id) as watching:  # the creator watching is a spectator too
        watching.state_at(paused_at + 5)
    gone(table)
    assert still(table) >= paused_at + 5


def test_a_table_everyone_left_waits_with_its_stand_ins(make_server: Callable[..., App]) -> None:
    """People who all left are played by stand-in bots only while someone watches."""
    server = make_server(bot_delay=0.01, grace_seconds=0.2)
    client = server.client
    ann = sign_in(client, "Ann")
    table_id = create_table(client, ann, "hbbb", options={"hands": 20})["id"]
    table = live(server.app, table_id)
    with connect(client, ann, table_id) as a:
        a.state_at(3)  # the bots call; Ann's turn
        left_at = a.state["version"]
    gone(table)
    deadline = time.monotonic() + 5
    while not table.seats[0].away:  # the grace period runs out: a stand-in takes Ann's seat...
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert still(table) == left_at  # ...and waits, as nobody is here
    with connect(client, None, table_id) as spectator:
        state = spectator.state_at(left_at + 8)
        assert state["table"]["seats"][0]["away"]
    stand_in = [seq for seq, seat, _, by_bot in stored_actions(server.app.state.settings.database_url, table_id)
                if seat == 0 and by_bot]
    assert stand_in and min(stand_in) >= left_at


def test_after_a_restart_a_table_waits_for_someone(app_settings: ServerSettings) -> None:
    with running(app_settings, bot_delay=0.01) as first:
        ann = sign_in(first.client, "Ann")
        body = {**BOTS_ONLY, "options": {"hands": 20}}
        table_id = use(first.client, ann).post("/api/tables", json=body).json()["id"]
        with connect(first.client, ann, table_id) as watching:  # watched while the server stops
            watching.state_at(5)
    stopped_at = len(stored_actions(app_settings.database_url, table_id))
    with running(app_settings, bot_delay=0.01) as second:
        table = live(second.app, table_id)
        assert table.version == stopped_at and still(table) == stopped_at
        with connect(second.client, None, table_id) as spectator:
            spectator.state_at(stopped_at + 5)


def test_nodes_of_one_site_share_a_session_key_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    """WHIST_SESSION_KEY signs the cookies of every node alike; without it each data folder keeps its own
    key; a key too short to be safe is refused before the server starts."""
    monkeypatch.setenv("WHIST_DATA_DIR", str(tmp_path / "a"))
    own = ServerSettings.default("sqlite://").secret_key
    assert own == ServerSettings.default("sqlite://").secret_key  # kept in the folder
    monkeypatch.setenv("WHIST_DATA_DIR", str(tmp_path / "b"))
    assert ServerSettings.default("sqlite://").secret_key != own
    shared = "k" * 40
    monkeypatch.setenv("WHIST_SESSION_KEY", shared)
    assert ServerSettings.default("sqlite://").secret_key == shared
    monkeypatch.setenv("WHIST_DATA_DIR", str(tmp_path / "a"))
    assert ServerSettings.default("sqlite://").secret_key == shared
    monkeypatch.setenv("WHIST_SESSION_KEY", "short")
    with socket.socket() as probe:  # a free port: the port is checked before the key
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = CliRunner().invoke(cli_app, ["serve", "--port", str(port)])
    assert result.exit_code == 1 and "WHIST_SESSION_KEY is at least 32 characters" in result.output


def test_a_node_name_that_cannot_name_a_channel_is_refused_before_start() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    for name in ("a b", "", "-lead", "x" * 49, "נוד"):
        result = CliRunner().invoke(cli_app, ["serve", "--port", str(port), "--node-name", name])
        assert result.exit_code == 1 and "A node's name is 1 to 48 letters" in result.output, (name, result.output)
