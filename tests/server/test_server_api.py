"""The HTTP API of docs/server-protocol.md, answer by answer, error paths included."""

from __future__ import annotations

import base64
import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from itsdangerous import TimestampSigner
from server_kit import CHANGE, COOKIE, connect, create_table, drive, seats_json, sign_in, use
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnect

import israeli_whist
from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

FOUR = seats_json("hbbb")


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def test_health_checks_the_database_and_counts_tables(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # "node": this server's name among several on one PostgreSQL; None on SQLite, a single server.
    health = {"status": "ok", "down": [], "version": israeli_whist.__version__, "tables": 0, "node": None}
    assert client.get("/health").json() == health
    create_table(client, sign_in(client, "Ann"), "hbbb")
    assert client.get("/health").json()["tables"] == 1
    # A database that does not answer: 503, naming it, so that a load balancer sends nobody here.
    store = client.app.state.store  # type: ignore[attr-defined]

    def unreachable() -> Any:
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    monkeypatch.setattr(store, "begin", unreachable)
    answer = client.get("/health")
    assert answer.status_code == 503 and answer.json()["status"] == "down" and answer.json()["down"] == ["database"]
    # And a request that needs it says to try again, not a 500.
    answer = client.get("/api/tables/anything")
    assert answer.status_code == 503 and answer.json()["code"] == "unavailable", answer.text
    assert answer.headers["Retry-After"] == "2"


def test_guest_me_and_logout(client: TestClient) -> None:
    assert client.get("/api/me").json() == {"user": None}
    answer = client.post("/api/guest", json={"name": "  Ann  "})
    assert answer.status_code == 200
    user = answer.json()["user"]
    assert user["name"] == "Ann" and user["guest"] is True and isinstance(user["id"], int)
    assert client.get("/api/me").json() == {"user": user}
    # A second guest is a new user, even with the same name.
    client.cookies.clear()
    other = client.post("/api/guest", json={"name": "Ann"}).json()["user"]
    assert other["id"] != user["id"]
    assert client.post("/api/logout", headers=CHANGE).json() == {"user": None}
    assert client.get("/api/me").json() == {"user": None}


def test_guest_refuses_bad_names(client: TestClient) -> None:
    for body in ({"name": ""}, {"name": "   "}, {"name": "<script>"}, {"name": "x" * 41}, {"name": "tab\there"},
                 {}, {"name": 7}, {"name": None}):
        assert client.post("/api/guest", json=body).status_code == 422, body
        assert client.get("/api/me").json() == {"user": None}


def test_register_login_logout(client: TestClient) -> None:
    answer = client.post("/api/register", json={"login": "Ann.B", "password": "correct horse", "name": "Ann B"})
    assert answer.status_code == 200
    user = answer.json()["user"]
    assert user["name"] == "Ann B" and user["guest"] is False
    assert client.get("/api/me").json()["user"] == user
    assert client.post("/api/logout", headers=CHANGE).status_code == 200
    # Logins are case-insensitive: taken in any case.
    assert client.post("/api/register", json={"login": "ann.b", "password": "another one"}).status_code == 409
    assert client.get("/api/me").json() == {"user": None}
    assert client.post("/api/login", json={"login": "ann.b", "password": "wrong password"}).status_code == 401
    assert client.post("/api/login", json={"login": "nobody", "password": "correct horse"}).status_code == 401
    assert client.get("/api/me").json() == {"user": None}
    answer = client.post("/api/login", json={"login": "ANN.B", "password": "correct horse"})
    assert answer.status_code == 200 and answer.json()["user"] == user
    assert client.get("/api/me").json()["user"] == user
    # Without a name, the login is the name.
    client.cookies.clear()
    assert client.post("/api/register", json={"login": "bob", "password": "12345678"}).json()["user"]["name"] == "bob"


def test_register_refuses_bad_accounts(client: TestClient) -> None:
    for body in ({"login": "ab", "password": "12345678"},  # login too short
                 {"login": "a b c", "password": "12345678"},  # a space
                 {"login": "x" * 41, "password": "12345678"},
                 {"login": "anne", "password": "1234567"},  # password too short
                 {"login": "anne", "password": "x" * 201},
                 {"login": "anne", "password": "12345678", "name": "<b>"},
                 {"login": "anne"}, {"password": "12345678"}):
        assert client.post("/api/register", json=body).status_code == 422, body
        assert client.get("/api/me").json() == {"user": None}


def test_a_guest_cannot_log_in_without_a_password(client: TestClient) -> None:
    sign_in(client, "guest")
    for password in ("", "x" * 8):
        assert client.post("/api/login", json={"login": "guest", "password": password}).status_code == 401


def test_forged_and_foreign_session_cookies_are_nobody(client: TestClient, app_settings: ServerSettings) -> None:
    ann = sign_in(client, "Ann")
    assert use(client, ann).get("/api/me").json()["user"]["id"] == ann.user_id
    payload = base64.b64encode(json.dumps({"user_id": ann.user_id}).encode())
    foreign = TimestampSigner("another-secret-key-" + "y" * 20).sign(payload).decode()
    own = TimestampSigner(app_settings.secret_key).sign(payload).decode()
    for cookie in (foreign, ann.cookie[:-3] + "AAA", base64.b64encode(b'{"user_id": 1}').decode(), "garbage"):
        client.cookies.clear()
        client.cookies.set(COOKIE, cookie)
        assert client.get("/api/me").json() == {"user": None}, cookie
    # The same payload signed with the server's key, as cookies were before the server kept
    # sessions, is nobody too: a session is a row of the server's, which the cookie names.
    client.cookies.clear()
    client.cookies.set(COOKIE, own)
    assert client.get("/api/me").json() == {"user": None}
    assert use(client, ann).get("/api/me").json()["user"]["id"] == ann.user_id


def test_create_a_table_and_see_it(client: TestClient) -> None:
    client.cookies.clear()
    body: dict[str, Any] = {"game": "israeli", "options": {"hands": "3"}, "seats": FOUR}
    assert client.post("/api/tables", json=body).status_code == 401
    ann = sign_in(client, "Ann")
    answer = use(client, ann).post("/api/tables", json={**body, "move_timer": 30})
    assert answer.status_code == 201
    table = answer.json()
    assert table["game"] == "israeli" and table["preset"] is None and table["public"] is True
    assert table["options"] == {"hands": "3"} and table["move_timer"] == 30 and table["status"] == "playing"
    assert table["you"] == 0 and table["hands_played"] == 0 and table["hands_total"] == 3
    assert isinstance(table["invite"], str) and len(table["invite"]) >= 12
    assert table["seats"][0] == {"seat": 0, "kind": "human", "level": None, "name": "Ann", "taken": True,
                                 "connected": False, "away": False}
    assert table["seats"][1] == {"seat": 1, "kind": "bot", "level": "basic", "name": "", "taken": True,
                                 "connected": False, "away": False}
    # The lobby and the table's page show it; the invite only to its creator.
    listed = use(client, ann).get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [table["id"]]
    assert use(client, ann).get(f"/api/tables/{table['id']}").json()["invite"] == table["invite"]
    bob = sign_in(client, "Bob")
    seen = use(client, bob).get(f"/api/tables/{table['id']}").json()
    assert "invite" not in seen and seen["you"] == -1
    seen = use(client, None).get("/api/tables").json()["tables"][0]
    assert "invite" not in seen and seen["you"] == -1
    assert use(client, None).get("/api/tables/no-such-table").status_code == 404


BAD_TABLES: list[dict[str, Any]] = [
    {"game": "bridge"},
    {"preset": "no-such-preset"},
    {"options": {"hands": "lots"}},
    {"options": {"hands": -1}},
    {"options": {"no_such_option": 1}},
    {"options": ["hands"]},
    {"seats": seats_json("hbb")},  # four players, three seats
    {"seats": seats_json("hbbbb")},
    {"seats": [{"kind": "human"}, {"kind": "robot"}, {"kind": "bot"}, {"kind": "bot"}]},
    {"seats": [{"kind": "human"}, {"kind": "bot", "level": "genius"}, {"kind": "bot"}, {"kind": "bot"}]},
    {"seats": "hbbb"},
    {"move_timer": 4.9},
    {"move_timer": 601},
    {"move_timer": "soon"},
    {"take_seat": 4},
    {"take_seat": -1},
    {"take_seat": 1},  # a bot's seat
    {"take_seat": True},
    {"public": "maybe"},
]


def test_create_refuses_bad_tables(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    for changes in BAD_TABLES:
        body = {"game": "israeli", "options": {"hands": 1}, "seats": FOUR, **changes}
        answer = use(client, ann).post("/api/tables", json=body)
        assert answer.status_code == 422, (changes, answer.text)
        assert isinstance(answer.json()["detail"], str | list)
        # A refused request leaves no table behind.
        assert client.get("/health").json()["tables"] == 0, changes


@pytest.mark.parametrize(("game", "preset", "options", "kinds"), [
    ("israeli", "pagat", {}, "hbbb"),
    ("israeli", None, {"form": "three_random_card", "hands": 2}, "hbb"),
    ("classic", "rubber", {}, "hbbb"),
    ("whistiti", None, {"players": 5, "schedule": "1,2"}, "hbbbb"),
])
def test_create_every_game(client: TestClient, game: str, preset: str | None, options: dict[str, Any],
                           kinds: str) -> None:
    ann = sign_in(client, "Ann")
    table = create_table(client, ann, kinds, game=game, options=options, preset=preset)
    assert table["game"] == game and table["preset"] == preset and len(table["seats"]) == len(kinds)


def test_edge_values_are_accepted(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    # A bot without a level plays at the basic level; 5 and 600 seconds are allowed timers.
    seats = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot", "level": "random"}, {"kind": "bot"}]
    for timer in (5, 600):
        answer = use(client, ann).post("/api/tables", json={"seats": seats, "move_timer": timer})
        assert answer.status_code == 201, answer.text
        assert [s["level"] for s in answer.json()["seats"]] == [None, "basic", "random", "basic"]
    watching = use(client, ann).post("/api/tables", json={"seats": FOUR, "take_seat": None}).json()
    assert watching["you"] == -1 and watching["seats"][0]["taken"] is False


def test_join(client: TestClient) -> None:
    ann, bob, cid = sign_in(client, "Ann"), sign_in(client, "Bob"), sign_in(client, "Cid")
    table = create_table(client, ann, "hhbh")
    path = f"/api/tables/{table['id']}/join"
    assert use(client, None).post(path, json={"seat": 1}).status_code == 401
    assert use(client, bob).post("/api/tables/nope/join", json={"seat": 1}).status_code == 404
    for seat in (True, "1", 1.5, None):
        assert use(client, bob).post(path, json={"seat": seat}).status_code == 422
    assert use(client, bob).post(path, json={"seat": 0}).status_code == 409  # Ann sits there
    assert use(client, bob).post(path, json={"seat": 2}).status_code == 409  # a bot
    for seat in (4, -1):
        assert use(client, bob).post(path, json={"seat": seat}).status_code == 422
    with connect(client, None, table["id"]) as watcher:
        joined = use(client, bob).post(path, json={"seat": 1})
        # Whoever watches the table is told at once.
        seen = watcher.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["taken"])
        assert seen["table"]["seats"][1]["name"] == "Bob"
    assert joined.status_code == 200
    assert joined.json()["you"] == 1 and joined.json()["seats"][1]["name"] == "Bob"
    assert "invite" not in joined.json()
    assert use(client, bob).post(path, json={"seat": 1}).status_code == 409  # already sits there
    assert use(client, bob).post(path, json={"seat": 3}).status_code == 409  # one seat each
    assert use(client, ann).post(path, json={"seat": 3}).status_code == 409
    assert use(client, cid).post(path, json={"seat": 1}).status_code == 409
    assert use(client, cid).post(path, json={"seat": 3}).json()["you"] == 3
    seats = use(client, None).get(f"/api/tables/{table['id']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Bob", "", "Cid"]
    assert all(s["taken"] for s in seats)


def test_private_tables_need_their_invite(client: TestClient) -> None:
    ann, bob, cid = sign_in(client, "Ann"), sign_in(client, "Bob"), sign_in(client, "Cid")
    table = create_table(client, ann, "hhbb", public=False)
    table_id, invite = table["id"], table["invite"]
    assert table["public"] is False
    assert use(client, bob).get("/api/tables").json()["tables"] == []
    assert use(client, ann).get("/api/tables").json()["tables"] == []  # the lobby lists public tables only
    for who in (None, bob):
        assert use(client, who).get(f"/api/tables/{table_id}").status_code == 403
        assert use(client, who).get(f"/api/tables/{table_id}?invite=wrong").status_code == 403
    assert use(client, bob).post(f"/api/tables/{table_id}/join", json={"seat": 1}).status_code == 403
    assert use(client, bob).post(f"/api/tables/{table_id}/join",
                                 json={"seat": 1, "invite": "wrong"}).status_code == 403
    # The WebSocket too: closed before a single state, without the invite.
    for who in (None, bob):
        with pytest.raises(WebSocketDisconnect) as closed, \
                use(client, who).websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.receive_json()
        assert closed.value.code == 4403 and closed.value.reason == "This table is private"
    seen = use(client, bob).get(f"/api/tables/{table_id}?invite={invite}")
    assert seen.status_code == 200 and "invite" not in seen.json()
    joined = use(client, bob).post(f"/api/tables/{table_id}/join", json={"seat": 1, "invite": invite})
    assert joined.status_code == 200 and joined.json()["you"] == 1
    # Seated, Bob sees the table without the invite; Cid watches with it.
    assert use(client, bob).get(f"/api/tables/{table_id}").json()["you"] == 1
    with connect(client, bob, table_id) as conn:
        assert conn.state["you"] == 1
    with connect(client, cid, table_id, invite=invite) as conn:
        assert conn.state["you"] == -1 and conn.state["table"]["public"] is False


def test_no_such_table_socket(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/ws/tables/nope") as ws:
        ws.receive_json()
    assert closed.value.code == 4404 and closed.value.reason == "No such table"


def test_finished_tables_leave_the_lobby_and_refuse_joins(client: TestClient) -> None:
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    table = create_table(client, ann, "bbbh", take_seat=3, options={"hands": 1})
    with connect(client, ann, table["id"]) as conn:
        drive({3: conn}, random.Random(1))
        assert conn.state["table"]["status"] == "finished"
    assert use(client, None).get("/api/tables").json()["tables"] == []
    done = use(client, None).get(f"/api/tables/{table['id']}").json()
    assert done["status"] == "finished" and done["hands_played"] == 1 and done["hands_total"] == 1
    assert use(client, bob).post(f"/api/tables/{table['id']}/join", json={"seat": 0}).status_code == 409


def test_secure_cookies_are_sent_for_https_only(app_settings: ServerSettings) -> None:
    with TestClient(create_app(app_settings)) as client:
        plain = client.post("/api/guest", json={"name": "Ann"}).headers["set-cookie"]
    assert "secure" not in plain.lower() and "httponly" in plain.lower() and "samesite=lax" in plain.lower()
    secure_settings = dataclasses.replace(app_settings, https_only=True)
    with TestClient(create_app(secure_settings), base_url="https://testserver") as client:
        cookie = client.post("/api/guest", json={"name": "Ann"}).headers["set-cookie"]
    assert "; secure" in cookie.lower()
