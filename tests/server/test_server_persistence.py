"""Tables outlive the server, on SQLite and on PostgreSQL: a real ``whist serve`` killed with
SIGKILL mid-hand comes back with the same state, and every action is stored exactly once.

PostgreSQL runs where ``$WHIST_TEST_POSTGRES_URL`` names a server (see ``postgres_url`` in
tests/conftest.py); without it these tests are skipped, except under CI, where they fail.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2
from fastapi.testclient import TestClient
from server_kit import (
    Conn,
    Message,
    check_stored,
    connect,
    connect_real,
    create_table,
    drive,
    guest,
    join,
    live,
    real_call,
    seats_json,
    sign_in,
    stored_actions,
)

from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings


def test_kill_and_restart_mid_hand(database_url: str, make_server: Callable[..., Any]) -> None:
    # A long grace: the people are back long before a bot would play for them.
    server = make_server(grace=30, bot_delay=0, database_url=database_url)
    server.start()
    cookies = [guest(server, name) for name in ("Ann", "Bob", "Cid")]
    table = real_call(server, cookies[0], "POST", "/api/tables",
                 {"game": "israeli", "options": {"hands": 2}, "seats": seats_json("hhhb")})
    table_id = table["id"]
    for seat in (1, 2):
        real_call(server, cookies[seat], "POST", f"/api/tables/{table_id}/join", {"seat": seat})
    rng = random.Random(11)

    def in_play_on_a_persons_turn(state: Message) -> bool:
        view = state["view"]
        return view["phase"] == "play" and view["tricks_played"] >= 2 and view["player"] in (0, 1, 2)

    with ExitStack() as stack:
        conns: dict[int, Conn] = {seat: stack.enter_context(connect_real(server.url, cookies[seat], table_id))
                                  for seat in range(3)}
        # Part of a hand, up to a person's turn: nothing is in flight, the bots wait.
        state = drive(conns, rng, stop=in_play_on_a_persons_turn)
        version = state["version"]
        views = {seat: conn.state_at(version)["view"] for seat, conn in conns.items()}
        assert all(view["hand"] for view in views.values())
        server.kill()

    server.start()
    assert httpx2.get(server.url + "/health").json()["tables"] == 1
    with ExitStack() as stack:
        conns = {seat: stack.enter_context(connect_real(server.url, cookies[seat], table_id)) for seat in range(3)}
        for seat, conn in conns.items():
            # The same cookie is the same seat, at the same version, with the same cards.
            assert conn.state["you"] == seat and conn.state["version"] == version
            assert conn.state["view"] == views[seat]
        # Killed again, now with an action on its way: it is stored whole, or not at all.
        player = state["view"]["player"]
        conns[player].send({"type": "act", "action": conns[player].state["view"]["legal"][0]["action"],
                            "version": version, "id": "in-flight"})
        server.kill()

    server.start()
    with ExitStack() as stack:
        conns = {seat: stack.enter_context(connect_real(server.url, cookies[seat], table_id)) for seat in range(3)}
        assert conns[0].state["version"] >= version
        final = drive(conns, rng, timeout=60)
        assert final["score"]["over"] and len(final["score"]["hands"]) >= 2
    check_stored(database_url, table_id, final)


def test_restart_resumes_every_table_still_playing(database_url: str, tmp_path: Path) -> None:
    """In-process, with a clean stop: tables come back, bots and grace periods start again."""
    # The grace period is long enough for a busy machine to connect within it after taking a seat.
    settings = ServerSettings(database_url=database_url, secret_key="test-secret-" + "z" * 20, bot_delay=0.0,
                              grace_seconds=1.0)
    rng = random.Random(2)
    with TestClient(create_app(settings)) as client:
        ann, bob, cid = sign_in(client, "Ann"), sign_in(client, "Bob"), sign_in(client, "Cid")
        # The game that finishes is played first: a seat taken at a table nobody opens is covered
        # by a bot after the grace period, and the other tables must still be Ann's and Cid's.
        finished = create_table(client, cid, "bbbh", take_seat=3)["id"]
        with connect(client, cid, finished) as conn:
            drive({3: conn}, rng)
        # Bob's table: seat 1 stays free; the auction starts there, so the table waits for someone to join.
        waiting = create_table(client, bob, "hhbb")["id"]
        playing = create_table(client, ann, "hbhb", options={"hands": 2})["id"]
        join(client, cid, playing, 2)
        with connect(client, ann, playing) as a, connect(client, cid, playing) as c:
            state = drive({0: a, 2: c}, rng, stop=lambda s: s["view"]["phase"] == "play" and s["view"]["player"] == 0)
            version = state["version"]
            views = {0: a.state_at(version)["view"], 2: c.state_at(version)["view"]}
    assert len(stored_actions(database_url, finished)) > 0

    with TestClient(create_app(settings)) as client:
        assert client.get("/health").json()["tables"] == 2  # the finished table is not rebuilt at start...
        shown = client.get(f"/api/tables/{finished}")  # ...but on demand, to show the end of the game
        assert shown.status_code == 200 and shown.json()["status"] == "finished"
        with connect(client, cid, finished) as conn:
            assert conn.state["score"]["over"] and conn.state["you"] == 3
            assert conn.act(0)["code"] == "over"
        assert live(client.app, playing).version == version
        with connect(client, ann, playing) as a, connect(client, cid, playing) as c:
            assert a.state["version"] == c.state["version"] == version
            assert a.state["view"] == views[0] and c.state["view"] == views[2]
            # Bob was seated but is not back: after the grace period a bot plays for him. The free seat
            # is nobody's: no bot plays it, and the table waits for a player to join.
            time.sleep(settings.grace_seconds * 3)
            table = live(client.app, waiting)
            assert table.seats[0].away and not table.seats[1].away and table.version == 0
            final = drive({0: a, 2: c}, rng, timeout=60)
        check_stored(database_url, playing, final)
