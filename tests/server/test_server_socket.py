"""The table's WebSocket, message by message: act, sync, ping, unknown types, and every refusal,
which must answer clearly and change nothing (the version and the stored actions stay)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from server_kit import (
    COOKIE,
    Message,
    Player,
    TestConn,
    connect,
    connect_real,
    create_table,
    drive,
    join,
    live,
    my_turn,
    seats_json,
    sign_in,
    stored_actions,
)
from sqlalchemy.exc import OperationalError

from israeli_whist.core.actions import NUM_ACTIONS, PASS
from israeli_whist.core.games import make_rules
from israeli_whist.server.app import create_app
from israeli_whist.server.db import Store
from israeli_whist.server.settings import ServerSettings


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def unchanged(client: TestClient, settings: ServerSettings, table_id: str, conn: TestConn, version: int) -> None:
    """The table is still at ``version``, with exactly that many actions stored."""
    assert live(client.app, table_id).version == version
    assert len(stored_actions(settings.database_url, table_id)) == version
    conn.send({"type": "sync"})
    assert conn.until(lambda m: m["type"] == "state")["version"] == version


def test_ping_sync_and_unknown_types(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    table = create_table(client, ann, "hbbb")
    with connect(client, ann, table["id"]) as conn:
        first = conn.state_at(3)  # the bots call once Ann is there; then the table waits for her
        assert first["type"] == "state" and first["you"] == 0 and first["table"]["id"] == table["id"]
        assert set(first) == {"type", "version", "you", "table", "score", "view"}
        assert set(first["score"]) >= {"totals", "hands", "hands_total", "over", "places", "games_won"}
        traits = make_rules("israeli").traits.to_json()
        assert first["table"]["traits"] == first["view"]["traits"] == traits and traits["trump_auction"]
        conn.send({"type": "ping"})
        assert conn.receive() == {"type": "pong"}
        conn.send({"type": "sync"})
        assert conn.receive() == first
        for message in ({"type": "hello", "id": "u1"}, {"id": "u2"}, {"type": None, "id": "u3"},
                        {"type": ["act"], "id": "u4"}):
            conn.send(message)
            reply = conn.receive()
            assert reply["type"] == "error" and reply["code"] == "unknown_type" and reply["id"] == message["id"]
            assert reply["message"]
        assert conn.quiet(0.1) == []


def test_act_is_acked_and_everyone_gets_the_new_state(client: TestClient, app_settings: ServerSettings) -> None:
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    table = create_table(client, ann, "hhhh", options={"hands": 1})
    join(client, bob, table["id"], 1)
    with connect(client, ann, table["id"]) as a, connect(client, bob, table["id"]) as b, \
            connect(client, None, table["id"]) as watcher:
        # The auction starts left of the dealer (seat 0): Bob calls first.
        assert b.state["view"]["player"] == 1 and b.state["version"] == 0
        action = b.state["view"]["legal"][0]["action"]
        b.send({"type": "act", "action": action, "version": 0, "id": "c7"})
        state = b.receive()
        assert state["type"] == "state" and state["version"] == 1
        assert b.receive() == {"type": "ack", "id": "c7", "version": 1}
        for conn in (a, watcher):
            assert conn.state_at(1)["version"] == 1
        assert state["view"]["calls"] == [[0, 1, state["view"]["calls"][0][2]]]
        assert stored_actions(app_settings.database_url, table["id"]) == [(0, 1, action, False)]
        # Ids may be numbers too; anything else comes back as null.
        a.state_at(1)
        b.state_at(1)
        for message_id, echoed in ((5, 5), (True, None), ([1], None), ({"x": 1}, None)):
            b.send({"type": "act", "action": PASS, "version": 1, "id": message_id})
            reply = b.until(lambda m: m["type"] == "error")
            assert reply["id"] == echoed and reply["code"] == "not_your_turn"


def test_refusals_answer_and_change_nothing(client: TestClient, app_settings: ServerSettings) -> None:
    people = [sign_in(client, name) for name in ("Ann", "Bob", "Cid", "Dan")]
    table_id = create_table(client, people[0], "hhhh", options={"hands": 1})["id"]
    for seat in (1, 2, 3):
        join(client, people[seat], table_id, seat)
    with ExitStack() as stack:
        conn, *others = [stack.enter_context(connect(client, person, table_id)) for person in people]
        # Bob, Cid and Dan call; then it is Ann's turn.
        for other in others:
            assert other.act(other.state_at(conn.state["version"])["view"]["legal"][0]["action"])["type"] == "ack"
            conn.state_at(conn.state["version"] + 1)
        state = conn.state_at(3)
        assert state["view"]["player"] == 0
        version = state["version"]
        legal = {item["action"] for item in state["view"]["legal"]}
        illegal_call = next(a for a in range(52, 200) if a not in legal)
        good = {"type": "act", "action": PASS, "version": version, "id": "x"}

        def refused(raw: str | bytes, code: str, message_id: Any = None) -> None:
            if isinstance(raw, bytes):
                conn.ws.send_bytes(raw)
            else:
                conn.send_text(raw)
            reply = conn.until(lambda m: m["type"] != "state")
            assert reply["type"] == "error", (raw, reply)
            assert reply["code"] == code and reply["id"] == message_id, (raw[:80], reply)
            assert isinstance(reply["message"], str) and reply["message"]
            unchanged(client, app_settings, table_id, conn, version)

        refused("not json", "malformed")
        refused("{'type': 'act'}", "malformed")
        refused("", "malformed")
        for not_an_object in ("[1, 2]", "42", '"act"', "null", "true", json.dumps([good])):
            refused(not_an_object, "malformed")
        refused("[" * 2000 + "]" * 2000, "malformed")  # nesting that overflows the JSON parser
        refused(json.dumps(good).encode(), "malformed")  # a binary frame
        refused(b"\xff" * 5000, "too_large")
        refused(json.dumps({**good, "pad": "x" * 4096}), "too_large")
        refused(json.dumps({**good, "pad": "x" * 300_000}), "too_large")
        refused(json.dumps({**good, "pad": "é" * 2100}), "too_large")  # bytes count, not characters
        for field, value in (("action", None), ("action", "61"), ("action", 61.0), ("action", True),
                             ("action", False), ("action", [PASS]), ("version", None), ("version", str(version)),
                             ("version", float(version)), ("version", True)):
            refused(json.dumps({**good, field: value}), "malformed", "x")
        for missing in ("action", "version"):
            refused(json.dumps({k: v for k, v in good.items() if k != missing}), "malformed", "x")
        for number in ("NaN", "Infinity", "1e400"):  # Python's JSON reads these as floats
            refused(f'{{"type": "act", "action": {number}, "version": {version}, "id": "x"}}', "malformed", "x")
        # A number past 2**53 is no number a client means (a browser cannot even read it exactly):
        # the message is wrong. One outside the action space, but not that large, is an illegal action.
        for action in (10**30, -(10**30), 2**63, 2**64 + PASS, 2**53 + 1):
            refused(json.dumps({**good, "action": action}), "malformed", "x")
        for action in (-1, NUM_ACTIONS, 2**53, -(2**53), illegal_call, 0):
            refused(json.dumps({**good, "action": action}), "illegal", "x")
        refused(json.dumps({**good, "version": version - 1}), "stale", "x")
        refused(json.dumps({**good, "version": version + 1}), "stale", "x")
        refused(json.dumps({**good, "version": 2**53}), "stale", "x")
        for impossible in (-(10**30), 2**63):
            refused(json.dumps({**good, "version": impossible}), "malformed", "x")
        # A message of exactly the limit is read; one byte more is not.
        exact = json.dumps({**good, "action": illegal_call, "pad": ""})
        exact = exact[:-2] + "x" * (4096 - len(exact.encode())) + exact[-2:]
        assert len(exact.encode()) == 4096
        refused(exact, "illegal", "x")
        refused(exact[:-2] + "x" + exact[-2:], "too_large")
        # After all that, the connection still works and the good action is taken.
        assert conn.act(PASS, message_id="ok") == {"type": "ack", "id": "ok", "version": version + 1}
        assert len(stored_actions(app_settings.database_url, table_id)) == version + 1


def test_stale_reply_carries_the_state(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    table = create_table(client, ann, "hhhh", take_seat=1)
    with connect(client, ann, table["id"]) as conn:
        action = conn.state["view"]["legal"][0]["action"]
        reply = conn.act(action, version=7)
        assert reply["code"] == "stale" and reply["state"]["type"] == "state"
        assert reply["state"]["version"] == 0 and reply["state"]["you"] == 1
        assert reply["state"]["view"] == conn.state["view"]


def test_checks_come_in_the_documented_order(client: TestClient) -> None:
    """over, then spectator, then not_your_turn, then stale, then illegal."""
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    table = create_table(client, ann, "hhbb", options={"hands": 1})
    join(client, bob, table["id"], 1)
    with connect(client, ann, table["id"]) as a, connect(client, bob, table["id"]) as b, \
            connect(client, None, table["id"]) as watcher:
        assert b.state["view"]["player"] == 1
        assert watcher.act(10**9, version=99)["code"] == "spectator"
        assert a.act(10**9, version=99)["code"] == "not_your_turn"
        assert b.act(10**9, version=99)["code"] == "stale"
        assert b.act(10**9)["code"] == "illegal"
        drive({0: a, 1: b}, random.Random(3))
        assert a.state["score"]["over"] and a.state["view"]["player"] == -1
        for conn in (a, b, watcher):
            conn.state_at(a.state["version"])
            assert conn.act(PASS, version=99)["code"] == "over"
            assert conn.act(PASS)["code"] == "over"
            conn.send({"type": "sync"})
            assert conn.until(lambda m: m["type"] == "state")["version"] == a.state["version"]


def test_a_spectator_cannot_act(client: TestClient, app_settings: ServerSettings) -> None:
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    table = create_table(client, ann, "hbbb", take_seat=None)
    waiting = live(client.app, table["id"])
    with connect(client, None, table["id"]) as nobody, connect(client, bob, table["id"]) as guest, \
            connect(client, ann, table["id"]) as creator:
        # The bots call, then the free human seat 0 is to act: it is nobody's to take but its player's.
        version = 3
        for conn in (nobody, guest, creator):
            state = conn.state_at(version)
            assert waiting.version == version and waiting.match.current_player == 0
            assert state["you"] == -1 and state["view"]["player"] == 0
            assert state["view"]["hand"] == [] and state["view"]["legal"] == []
            for action in (PASS, 0, 60, 10**9):
                reply = conn.act(action)
                assert reply["code"] == "spectator", reply
        assert len(stored_actions(app_settings.database_url, table["id"])) == version
        assert waiting.version == version


def bob_at_a_table(client: TestClient) -> tuple[Message, Player, Store, Callable[..., None]]:
    """Ann's table of four people, Bob in seat 1 (whose turn is first), the table's store, and its
    own ``append_action`` (for a test to put back after replacing it)."""
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    table = create_table(client, ann, "hhhh", options={"hands": 1})
    join(client, bob, table["id"], 1)
    store = live(client.app, table["id"]).store
    return table, bob, store, store.append_action


def test_an_action_the_database_cannot_store_is_refused_and_not_taken(
        client: TestClient, app_settings: ServerSettings, monkeypatch: pytest.MonkeyPatch) -> None:
    table, bob, store, working = bob_at_a_table(client)

    def failing(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("INSERT", {}, Exception("disk I/O error"))

    with connect(client, bob, table["id"]) as b:
        action = b.state["view"]["legal"][0]["action"]
        monkeypatch.setattr(store, "append_action", failing)
        reply = b.act(action, message_id="down")
        assert reply["code"] == "unavailable" and "try again" in reply["message"]
        monkeypatch.setattr(store, "append_action", working)
        unchanged(client, app_settings, table["id"], b, 0)
        assert b.act(action, message_id="up") == {"type": "ack", "id": "up", "version": 1}
        assert stored_actions(app_settings.database_url, table["id"]) == [(0, 1, action, False)]


def test_an_action_stored_though_its_store_failed_is_read_back(
        client: TestClient, app_settings: ServerSettings, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store whose commit reached the database, then failed (a connection cut as the answer came
    back): refused as not saved, yet stored. The table reads back what the database holds before
    the next action, so the table is not stuck refusing a number already stored; each action once."""
    table, bob, store, working = bob_at_a_table(client)

    def stored_then_failed(*args: Any, **kwargs: Any) -> None:
        working(*args, **kwargs)
        raise OperationalError("COMMIT", {}, Exception("server closed the connection unexpectedly"))

    with connect(client, bob, table["id"]) as b:
        action = b.state["view"]["legal"][0]["action"]
        monkeypatch.setattr(store, "append_action", stored_then_failed)
        assert b.act(action, message_id="cut")["code"] == "unavailable"
        monkeypatch.setattr(store, "append_action", working)
        # Sent again, as a client does after "try again": refused, the table having moved on (it is
        # the next seat's turn now), and everyone is shown the action taken.
        assert b.act(action, 0, message_id="again")["code"] == "not_your_turn"
        assert b.state_at(1)["view"]["player"] == 2
        assert live(client.app, table["id"]).version == 1
        assert stored_actions(app_settings.database_url, table["id"]) == [(0, 1, action, False)]


def test_a_socket_closed_right_after_an_act_logs_no_error(make_server: Callable[..., Any]) -> None:
    """A player who acts and closes the page at once: the server's sends to the closed socket (the
    bots' states, the ack) end the connection quietly, on a real uvicorn, try after try (each has
    logged an ERROR with a traceback: Starlette 1.x raises ``WebSocketDisconnected``, a
    ``RuntimeError``, for a send after the socket closed)."""
    server = make_server(bot_delay=0.0)
    server.start()
    cookie = httpx2.post(server.url + "/api/guest", json={"name": "Ann"}, timeout=10).cookies[COOKIE]
    table = httpx2.post(server.url + "/api/tables", cookies={COOKIE: cookie}, timeout=10,
                        json={"game": "israeli", "options": {"hands": 2}, "seats": seats_json("hbbb")}).json()
    tries = 12
    for attempt in range(tries):
        with connect_real(server.url, cookie, table["id"]) as conn:
            state = my_turn(conn)
            assert not state["score"]["over"], f"the game ended after {attempt} tries"
            conn.send({"type": "act", "action": state["view"]["legal"][0]["action"], "version": state["version"]})
        # Closed as the act left: the server answers into a closed socket.
    time.sleep(1.0)  # the last sends
    logged = [json.loads(line) for line in server.log.read_text().splitlines() if line.startswith("{")]
    assert not [entry for entry in logged if entry["level"] in ("error", "critical") or "error" in entry], logged
    stored = stored_actions(f"sqlite:///{server.data_dir / 'whist.db'}", table["id"])
    assert sum(seat == 0 and not by_bot for _, seat, _, by_bot in stored) == tries  # every act was taken
