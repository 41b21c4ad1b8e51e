"""Sessions are the server's (``israeli_whist.server.sessions``): signing out ends one for good,
wherever its cookie was copied, "sign out everywhere" ends them all, an open socket of an ended
session is closed, and on several nodes a session ended through one is refused by the others
within ``CHECK_SECONDS``."""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import hashlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from itsdangerous import TimestampSigner
from server_kit import CHANGE, COOKIE, Player, connect, create_table, join, sign_in, use
from sqlalchemy import select, update
from starlette.websockets import WebSocketDisconnect

from israeli_whist.server.app import create_app
from israeli_whist.server.db import make_engine, sessions
from israeli_whist.server.refusals import SocketClosed
from israeli_whist.server.sessions import CHECK_SECONDS, SESSION_DAYS, delete_expired
from israeli_whist.server.settings import ServerSettings


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def session_rows(url: str) -> list[dict[str, Any]]:
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            return [dict(row) for row in c.execute(select(sessions)).mappings()]
    finally:
        engine.dispose()


def who(client: TestClient, player: Player | None) -> int | None:
    user = use(client, player).get("/api/me").json()["user"]
    return None if user is None else int(user["id"])


def account(client: TestClient, login: str = "anna") -> Player:
    """An account signed in on a browser of its own; a second call signs in again (a second device)."""
    client.cookies.clear()
    body = {"login": login, "password": "correct horse"}
    answer = client.post("/api/register", json=body)
    if answer.status_code == 409:
        answer = client.post("/api/login", json=body)
    assert answer.status_code == 200, answer.text
    player = Player(login, answer.json()["user"]["id"], answer.cookies[COOKIE])
    client.cookies.clear()
    return player


def test_the_cookie_names_a_random_session_stored_hashed(client: TestClient, app_settings: ServerSettings) -> None:
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    rows = session_rows(app_settings.database_url)
    assert sorted(row["user_id"] for row in rows) == sorted([ann.user_id, bob.user_id])
    tokens = [cookie_data(player.cookie, app_settings.secret_key)["sid"] for player in (ann, bob)]
    assert len(set(tokens)) == 2 and all(len(token) >= 43 for token in tokens)  # 256 random bits each
    # Only the token's hash is stored; the cookie holds no user id.
    assert {row["id"] for row in rows} == {hashlib.sha256(token.encode()).hexdigest() for token in tokens}
    assert all("user_id" not in cookie_data(player.cookie, app_settings.secret_key) for player in (ann, bob))
    for row in rows:
        assert row["expires_at"] - row["created_at"] == dt.timedelta(days=SESSION_DAYS)


def cookie_data(cookie: str, key: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(base64.b64decode(TimestampSigner(key).unsign(cookie)))
    return data


def sweep(client: TestClient) -> None:
    """The node's check of its open sockets' sessions, now rather than within ``CHECK_SECONDS``."""
    app: Any = client.app
    assert client.portal is not None
    client.portal.call(app.state.sessions.sweep)


def test_signing_out_ends_the_session_for_every_copy_of_the_cookie(client: TestClient,
                                                                   app_settings: ServerSettings) -> None:
    ann = sign_in(client, "Ann")
    table_id = create_table(client, ann, "hbbb")["id"]
    copy = Player(ann.name, ann.user_id, ann.cookie)  # taken before sign-out, as an attacker might
    with connect(client, ann, table_id) as conn:
        assert conn.state["you"] == 0
        assert use(client, ann).post("/api/logout", headers=CHANGE).json() == {"user": None}
        with pytest.raises(WebSocketDisconnect) as closed:
            conn.until(lambda m: False)
        assert closed.value.code == SocketClosed.SIGNED_OUT
    assert who(client, copy) is None
    assert use(client, copy).post("/api/tables", json={"seats": [{"kind": "human"}] * 4}).status_code == 401
    with connect(client, copy, table_id) as watcher:
        assert watcher.state["you"] == -1
    assert session_rows(app_settings.database_url) == []


def test_signing_in_again_ends_the_browsers_earlier_session(client: TestClient) -> None:
    guest = sign_in(client, "Ann")
    client.cookies.set(COOKIE, guest.cookie)
    answer = client.post("/api/register", json={"login": "anna", "password": "correct horse"})
    assert answer.status_code == 200 and answer.cookies[COOKIE] != guest.cookie
    anna = Player("anna", answer.json()["user"]["id"], answer.cookies[COOKIE])
    assert who(client, guest) is None  # the guest's cookie, copied before, is nobody now
    assert who(client, anna) == anna.user_id


def test_sign_out_everywhere_ends_every_session_of_the_user(client: TestClient) -> None:
    phone, laptop = account(client), account(client)
    other = account(client, "bobby")
    assert who(client, phone) == who(client, laptop) == phone.user_id
    table_id = create_table(client, laptop, "hbbb")["id"]
    with connect(client, laptop, table_id) as on_laptop, connect(client, other, table_id) as others:
        answer = use(client, phone).post("/api/logout-everywhere", headers=CHANGE)
        assert answer.json() == {"user": None} and "1970" in answer.headers["set-cookie"]
        with pytest.raises(WebSocketDisconnect) as closed:
            on_laptop.until(lambda m: False)
        assert closed.value.code == SocketClosed.SIGNED_OUT
        assert others.act(0, 0)["type"] == "error"  # another user's socket is still open (a spectator)
    assert who(client, phone) is None and who(client, laptop) is None
    assert who(client, other) == other.user_id
    # Signing in again works as ever.
    assert who(client, account(client)) == phone.user_id


def test_sign_out_everywhere_needs_a_session(client: TestClient) -> None:
    answer = use(client, None).post("/api/logout-everywhere", headers=CHANGE)
    assert answer.status_code == 401 and answer.json()["code"] == "sign_in"


def test_an_expired_session_is_nobody(client: TestClient, app_settings: ServerSettings) -> None:
    ann = sign_in(client, "Ann")
    engine = make_engine(app_settings.database_url)
    with engine.begin() as c:
        c.execute(update(sessions).values(expires_at=dt.datetime(2000, 1, 1)))
    engine.dispose()
    client.app.state.sessions.known.clear()  # type: ignore[attr-defined]  # as after CHECK_SECONDS
    assert who(client, ann) is None
    # Expired rows are dropped (at start and every hour), the others kept.
    bob = sign_in(client, "Bob")
    assert delete_expired(client.app.state.store) == 1  # type: ignore[attr-defined]
    assert [row["user_id"] for row in session_rows(app_settings.database_url)] == [bob.user_id]


def test_a_node_trusts_what_it_read_of_a_session_for_a_bounded_time(app_settings: ServerSettings) -> None:
    """One SQLite database, two apps: the second stands for another node of a cluster."""
    clock = Clock()
    with (TestClient(create_app(app_settings)) as north,
          TestClient(create_app(app_settings, clock=clock)) as south):
        ann = sign_in(north, "Ann")
        table_id = create_table(south, ann, "hhbb")["id"]  # played by south (SQLite: no cluster)
        assert who(south, ann) == ann.user_id
        with connect(south, ann, table_id) as on_south:
            assert use(north, ann).post("/api/logout", headers=CHANGE).status_code == 200
            clock.now += CHECK_SECONDS
            assert who(south, ann) is None  # read again: ended
            sweep(south)
            with pytest.raises(WebSocketDisconnect) as closed:
                on_south.until(lambda m: False)
            assert closed.value.code == SocketClosed.SIGNED_OUT


def test_a_session_ended_on_one_postgresql_node_is_refused_by_the_other(app_settings: ServerSettings,
                                                                        postgres_url: str) -> None:
    settings = dataclasses.replace(app_settings, database_url=postgres_url)
    clock = Clock()
    with (TestClient(create_app(dataclasses.replace(settings, node_name="north"))) as north,
          TestClient(create_app(dataclasses.replace(settings, node_name="south"), clock=clock)) as south):
        ann, bob = sign_in(north, "Ann"), sign_in(south, "Bob")
        table_id = create_table(north, ann, "hhbb")["id"]
        join(south, bob, table_id, 1)
        with connect(south, bob, table_id) as bob_on_south:
            assert bob_on_south.state["you"] == 1
            assert use(north, bob).post("/api/logout-everywhere", headers=CHANGE).status_code == 200
            assert who(north, bob) is None  # at once on the node that ended it
            clock.now += CHECK_SECONDS
            assert who(south, bob) is None
            sweep(south)
            with pytest.raises(WebSocketDisconnect) as closed:
                bob_on_south.until(lambda m: m["type"] not in ("state",))
            assert closed.value.code == SocketClosed.SIGNED_OUT
        assert who(south, ann) == ann.user_id
