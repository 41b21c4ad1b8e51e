"""Passwords (``israeli_whist.server.passwords``): scrypt at OWASP's minimum, hashes that carry their
cost and are made again at the next sign-in when it is lower, the same work for an unknown login
as for a known one, a cap on the length before any hashing, and the hashing off the event loop."""

from __future__ import annotations

import base64
import hashlib
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from israeli_whist.server import passwords
from israeli_whist.server.app import create_app
from israeli_whist.server.db import make_engine, users
from israeli_whist.server.passwords import CURRENT, LEGACY, Cost, hash_password, parse_hash, sign_in_check
from israeli_whist.server.settings import ServerSettings

ANNA = {"login": "anna", "password": "correct horse"}


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


@pytest.fixture
def scrypt_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, int, int]]:
    """(n, r, p, password bytes) of every scrypt the server runs from now on."""
    calls: list[tuple[int, int, int, int]] = []
    real = hashlib.scrypt

    def counted(password: bytes, **kwargs: Any) -> bytes:
        calls.append((kwargs["n"], kwargs["r"], kwargs["p"], len(password)))
        return real(password, **kwargs)

    monkeypatch.setattr("israeli_whist.server.passwords.hashlib.scrypt", counted)
    return calls


def stored_hash(settings: ServerSettings, login: str) -> str:
    engine = make_engine(settings.database_url)
    try:
        with engine.connect() as c:
            found: str = c.execute(select(users.c.password_hash).where(users.c.login == login)).scalar_one()
            return found
    finally:
        engine.dispose()


def set_stored_hash(settings: ServerSettings, login: str, password_hash: str) -> None:
    engine = make_engine(settings.database_url)
    with engine.begin() as c:
        c.execute(update(users).where(users.c.login == login).values(password_hash=password_hash))
    engine.dispose()


def test_the_cost_is_owasps_minimum_for_scrypt_and_is_stored_with_the_hash() -> None:
    assert Cost(n=2**17, r=8, p=1) == CURRENT
    stored = hash_password("correct horse")
    assert stored.startswith("scrypt$n=131072,r=8,p=1$")
    assert sign_in_check("correct horse", stored) == (True, None)
    assert sign_in_check("correct horsf", stored) == (False, None)


def test_a_hash_made_before_the_cost_was_stored_still_checks() -> None:
    salt = b"0123456789abcdef"
    digest = hashlib.scrypt(b"correct horse", salt=salt, n=2**14, r=8, p=1, dklen=32)
    legacy = f"scrypt${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"
    assert parse_hash(legacy) == (LEGACY, salt, digest)
    right, rehashed = sign_in_check("correct horse", legacy)
    assert right and rehashed is not None and parse_hash(rehashed)[0] == CURRENT  # type: ignore[index]
    assert sign_in_check("wrong horse", legacy) == (False, None)


def test_a_lower_cost_hash_is_made_again_at_the_next_sign_in(client: TestClient, app_settings: ServerSettings,
                                                             scrypt_calls: list[tuple[int, int, int, int]]) -> None:
    assert client.post("/api/register", json=ANNA).status_code == 200
    set_stored_hash(app_settings, "anna", hash_password(ANNA["password"], LEGACY))
    client.cookies.clear()
    scrypt_calls.clear()
    assert client.post("/api/login", json={**ANNA, "password": "wrong horse"}).status_code == 401
    assert parse_hash(stored_hash(app_settings, "anna"))[0] == LEGACY  # type: ignore[index]  # not on a wrong one
    # Its own check, and one at today's cost, as an unknown login costs: its time tells nothing.
    assert [call[:3] for call in scrypt_calls] == [(2**14, 8, 1), (2**17, 8, 1)]
    scrypt_calls.clear()
    assert client.post("/api/login", json=ANNA).status_code == 200
    assert [call[:3] for call in scrypt_calls] == [(2**14, 8, 1), (2**17, 8, 1)]  # checked, then made again
    upgraded = stored_hash(app_settings, "anna")
    assert parse_hash(upgraded)[0] == CURRENT  # type: ignore[index]
    scrypt_calls.clear()
    client.cookies.clear()
    assert client.post("/api/login", json=ANNA).status_code == 200
    assert [call[:3] for call in scrypt_calls] == [(2**17, 8, 1)] and stored_hash(app_settings, "anna") == upgraded


def test_an_unknown_login_costs_the_same_hash_as_a_known_one(client: TestClient, app_settings: ServerSettings,
                                                            scrypt_calls: list[tuple[int, int, int, int]]) -> None:
    assert client.post("/api/register", json=ANNA).status_code == 200
    client.post("/api/guest", json={"name": "guest"})  # a user without a password
    tries = [{**ANNA, "password": "wrong horse"}, {"login": "nobody", "password": "wrong horse"},
             {"login": "n\u00f6 such", "password": "wrong horse"}, {"login": "guest", "password": "wrong horse"}]
    for body in tries:
        scrypt_calls.clear()
        client.cookies.clear()
        answer = client.post("/api/login", json=body)
        assert answer.status_code == 401 and answer.json()["code"] == "wrong_login"
        assert scrypt_calls == [(2**17, 8, 1, len(b"wrong horse"))], body
    # A stored hash that is not ours (a cost far past ours, bytes that are not base64) costs the
    # same too, and is a wrong password, not a fault or a 128 GiB scrypt.
    for broken in ("scrypt$n=1073741824,r=8,p=1$AAAA$AAAA", "scrypt$n=16384,r=8,p=1$!!$!!", "md5$x", ""):
        set_stored_hash(app_settings, "anna", broken)
        scrypt_calls.clear()
        assert client.post("/api/login", json=ANNA).status_code == 401
        assert [call[:3] for call in scrypt_calls] == [(2**17, 8, 1)], broken


@pytest.mark.parametrize("path", ["/api/login", "/api/register"])
def test_a_password_past_the_cap_is_refused_before_any_hashing(client: TestClient, path: str,
                                                               scrypt_calls: list[tuple[int, int, int, int]]) -> None:
    if path == "/api/login":
        assert client.post("/api/register", json=ANNA).status_code == 200
        scrypt_calls.clear()
    # Past the cap but inside the body limit: the length check; past the body limit: the 413 first.
    for password, status, code in (("x" * 201, 422, "password_length"), ("\U0001f0a1" * 201, 422, "password_length"),
                                   ("x" * 10_000, 422, "password_length"), ("x" * 1_000_000, 413, "too_large")):
        client.cookies.clear()
        answer = client.post(path, json={**ANNA, "password": password})
        assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert scrypt_calls == []
    # At the cap, a password is taken.
    assert client.post("/api/register", json={"login": "bobby", "password": "y" * 200}).status_code == 200
    client.cookies.clear()
    assert client.post("/api/login", json={"login": "bobby", "password": "y" * 200}).status_code == 200


def test_two_registrations_of_one_login_at_once_get_a_409_not_a_500(client: TestClient,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    assert client.post("/api/register", json=ANNA).status_code == 200
    store = client.app.state.store  # type: ignore[attr-defined]
    # The second one looked while the first was still hashing: the login was free then.
    monkeypatch.setattr(store, "user_by_login", lambda login: None)
    client.cookies.clear()
    answer = client.post("/api/register", json=ANNA)
    assert answer.status_code == 409 and answer.json()["code"] == "login_taken"


def test_hashing_runs_off_the_event_loop(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sign-in's hash holds until the server has answered another request: were it hashed in
    the event loop, that request could not be answered until the hash gave up waiting."""
    assert client.post("/api/register", json=ANNA).status_code == 200
    real = passwords.sign_in_check
    hashing, answered = threading.Event(), threading.Event()
    gave_up: list[bool] = []

    def held_check(password: str, stored: str | None) -> tuple[bool, str | None]:
        hashing.set()
        gave_up.append(not answered.wait(20))
        return real(password, stored)

    monkeypatch.setattr("israeli_whist.server.api_players.sign_in_check", held_check)
    results: list[int] = []
    signing_in = threading.Thread(target=lambda: results.append(client.post("/api/login", json=ANNA).status_code))
    signing_in.start()
    assert hashing.wait(20)
    assert client.get("/api/tables").status_code == 200  # an async route: it runs in the event loop
    answered.set()
    signing_in.join()
    assert gave_up == [False] and results == [200]
