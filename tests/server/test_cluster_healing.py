"""Several nodes that heal (``israeli_whist.server.cluster``), each on a PostgreSQL of the test's own
that it stops and starts (``pg_kit.OwnPostgres``):

- a database restart mid-game: both nodes say they are down (``/health`` 503) while they cannot
  hear each other, hear each other again once it is back, and every connection, on either node,
  sees the game go on to its end;
- an owner stopped past its lease (SIGSTOP, then SIGCONT): the other node takes the table over,
  and once the old owner runs again its players' moves go through the new owner, and it stores
  nothing more itself;
- a database outage longer than the lease: every table resumes, nothing lost or stored twice.

The times measured are printed (``pytest -s``)."""

from __future__ import annotations

import dataclasses
import os
import random
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pg_kit import OwnPostgres
from server_kit import (
    Conn,
    Message,
    check_stored,
    choose,
    connect,
    connect_real,
    create_table,
    drive,
    guest,
    join,
    real_call,
    seats_json,
    sign_in,
    stored_actions,
)
from sqlalchemy import text

from israeli_whist.server.app import create_app
from israeli_whist.server.db import make_engine
from israeli_whist.server.settings import ServerSettings

LEASE = 3.0


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    postgres = OwnPostgres()
    postgres.start()
    yield postgres
    postgres.remove()


@contextmanager
def node(settings: ServerSettings, name: str) -> Iterator[TestClient]:
    with TestClient(create_app(dataclasses.replace(settings, node_name=name))) as client:
        yield client


def health(client: TestClient) -> tuple[int, list[str]]:
    answer = client.get("/health")
    return answer.status_code, answer.json()["down"]


def wait_for(check: Callable[[], bool], seconds: float, why: str) -> float:
    """Seconds until ``check()`` holds; fails after ``seconds``."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < seconds, why
        time.sleep(0.05)
    return time.monotonic() - start


SEEN_WITHIN = 5.0  # seconds: every new state reaches every connection by then, on either node


def play_on(conns: dict[int, Conn], rng: random.Random, stop: Callable[[Message], bool] = lambda state: False,
            lags: list[float] | None = None) -> Message:
    """The people play on as patient clients do (``drive``'s ``patient``), every state within ``SEEN_WITHIN``."""
    return drive(conns, rng, stop, timeout=90, patient=True, wait=SEEN_WITHIN, lags=lags)


def owner_of(url: str, table_id: str) -> str | None:
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            found = c.execute(text("SELECT node FROM table_owners WHERE table_id = :t AND expires_at > "
                                   "(now() AT TIME ZONE 'UTC')"), {"t": table_id}).scalar()
            return None if found is None else str(found)
    finally:
        engine.dispose()


def test_a_database_restart_mid_game(app_settings: ServerSettings, own_postgres: OwnPostgres) -> None:
    settings = dataclasses.replace(app_settings, database_url=own_postgres.url, lease_seconds=LEASE, bot_delay=0.05)
    with node(settings, "north") as north, node(settings, "south") as south:
        ann, bob, cid = sign_in(north, "Ann"), sign_in(south, "Bob"), sign_in(south, "Cid")
        table_id = create_table(north, ann, "hhhb", options={"hands": 1})["id"]  # north plays it
        join(south, bob, table_id, 1)
        rng = random.Random(7)
        with connect(north, ann, table_id) as a, connect(south, bob, table_id) as b:
            b.until(lambda m: m["type"] == "state" and m["table"]["seats"][0]["connected"])
            # Seat 2 waits for Cid, who joins once the database is back.
            play_on({0: a, 1: b}, rng, stop=lambda state: state["version"] >= 3 or state["view"]["player"] == 2)
            own_postgres.stop()
            # While the nodes cannot hear each other, they say so: a load balancer sends nobody there.
            def down() -> bool:
                return all(health(client) == (503, ["database", "messaging"]) for client in (north, south))

            def up() -> bool:
                return all(health(client)[0] == 200 for client in (north, south))

            wait_for(down, 5, "health said ok while the nodes could not hear each other")
            own_postgres.start()
            back = wait_for(up, 10, "not healthy again")
            # Cid joins through south, which does not play the table, and watches from there.
            join(south, cid, table_id, 2)
            with connect(south, cid, table_id) as c:
                lags: list[float] = []
                final = play_on({1: b, 0: a, 2: c}, rng, lags=lags)
                for conn in (a, b, c):  # the end reaches every connection, on either node
                    assert conn.state_at(final["version"], timeout=SEEN_WITHIN)["score"] == final["score"]
        print(f"database restart: both nodes healthy {back:.2f} s after the database was back; each later state "
              f"reached all three connections within {max(lags):.3f} s of the first (of {len(lags)} states)")
    check_stored(own_postgres.url, table_id, final)


def test_a_database_outage_longer_than_the_lease(app_settings: ServerSettings, own_postgres: OwnPostgres) -> None:
    settings = dataclasses.replace(app_settings, database_url=own_postgres.url, lease_seconds=LEASE, bot_delay=0.05)
    with node(settings, "north") as north, node(settings, "south") as south, ExitStack() as stack:
        players = [sign_in(client, name) for client, name in ((north, "Ann"), (south, "Bob"), (north, "Cid"))]
        homes = (north, south, north)
        # One table made on each node, and one played from the node that does not own it.
        tables = [create_table(client, player, "hbbb", options={"hands": 1})["id"]
                  for client, player in zip((north, south, south), players, strict=True)]
        conns = [stack.enter_context(connect(home, player, table_id))
                 for home, player, table_id in zip(homes, players, tables, strict=True)]
        rngs = [random.Random(n) for n in range(3)]
        for conn, rng in zip(conns, rngs, strict=True):
            play_on({0: conn}, rng, stop=lambda state: state["version"] >= 2)
        own_postgres.stop()
        time.sleep(2.5 * LEASE)  # every lease runs out meanwhile
        before = [conn.state["version"] for conn in conns]
        own_postgres.start()
        started = time.monotonic()
        moved_on = []
        for conn, rng, version in zip(conns, rngs, before, strict=True):  # each table's first step after
            def past(state: Message, version: int = version) -> bool:
                return bool(state["version"] > version)

            play_on({0: conn}, rng, stop=past)
            moved_on.append(time.monotonic() - started)
        finals = [play_on({0: conn}, rng) for conn, rng in zip(conns, rngs, strict=True)]
        print(f"outage of {2.5 * LEASE:g} s with leases of {LEASE:g} s: every table moved on within "
              f"{max(moved_on):.2f} s of the database's return (each: {', '.join(f'{t:.2f}' for t in moved_on)} s), "
              f"and all were over {time.monotonic() - started:.1f} s after it")
    for table_id, final in zip(tables, finals, strict=True):
        check_stored(own_postgres.url, table_id, final)


def test_an_owner_stopped_past_its_lease(make_server: Callable[..., Any], own_postgres: OwnPostgres) -> None:
    # A long grace: while north is stopped, Ann's seat waits for her (no stand-in moves for her).
    options = {"database_url": own_postgres.url, "lease_seconds": 2.0, "grace": 60, "bot_delay": 0.05}
    north, south = make_server(**options), make_server(**options)
    north.start()
    south.start()
    ann, bob = guest(north, "Ann"), guest(south, "Bob")
    table_id = real_call(north, ann, "POST", "/api/tables",
                         {"game": "israeli", "options": {"hands": 1}, "seats": seats_json("hhbb")})["id"]
    real_call(south, bob, "POST", f"/api/tables/{table_id}/join", {"seat": 1})
    # And Cid's table, which south plays, with Cid connected through north.
    cid = guest(south, "Cid")
    cids = real_call(south, cid, "POST", "/api/tables",
                     {"game": "israeli", "options": {"hands": 1}, "seats": seats_json("hbbb")})["id"]
    south_name = f"test-{south.port}"
    rng = random.Random(3)
    assert north.process is not None

    def cid_connected() -> bool:  # as south, which plays his table, counts him
        return bool(real_call(south, cid, "GET", f"/api/tables/{cids}", {})["seats"][0]["connected"])

    with connect_real(north.url, ann, table_id) as a, connect_real(south.url, bob, table_id) as b, \
            connect_real(north.url, cid, cids):
        b.until(lambda m: m["type"] == "state" and m["table"]["seats"][0]["connected"])
        play_on({0: a, 1: b}, rng, stop=lambda state: state["version"] >= 3)
        assert owner_of(own_postgres.url, table_id) == f"test-{north.port}"
        os.kill(north.process.pid, signal.SIGSTOP)
        try:
            taken = wait_for(lambda: owner_of(own_postgres.url, table_id) == south_name, 2.0 + 5,
                             "south did not take the table over")
            # Bob plays on through south, which plays the table now, until it is Ann's turn.
            play_on({1: b}, rng, stop=lambda state: state["view"]["player"] == 0)
            # South took north for dead, and forgot its connections: Cid's among them.
            wait_for(lambda: not cid_connected(), 2.0 + 5, "south still counted a stopped node's connection")
        finally:
            os.kill(north.process.pid, signal.SIGCONT)
        resumed = time.monotonic()
        # North, running again, tells south of Cid's connection again: his seat is not left to a stand-in.
        cid_back = wait_for(cid_connected, 5, "south never heard of Cid's connection again")
        stored_at_resume = len(stored_actions(own_postgres.url, table_id))
        # Ann's next move, sent to north, goes through south: north hands her connection over.
        mine = a.state
        while True:
            reply = a.act(choose(rng, mine), mine["version"])
            if reply["type"] == "ack":
                break
            assert reply["code"] in ("unavailable", "stale"), reply
            mine = a.until(lambda m: m["type"] == "state" and m["version"] > stored_at_resume - 1
                           and m["view"]["player"] == 0, timeout=15)
        handed_over = time.monotonic() - resumed
        final = play_on({0: a, 1: b}, rng)
        assert a.state_at(final["version"], timeout=5)["score"] == final["score"]
    print(f"owner stopped: taken over {taken:.2f} s after SIGSTOP (lease 2 s); "
          f"its player's move went through the new owner {handed_over:.2f} s after SIGCONT; the other owner "
          f"counted its connection again {cid_back:.2f} s after SIGCONT")
    stored = stored_actions(own_postgres.url, table_id)
    check_stored(own_postgres.url, table_id, final)
    # Ann's moves after north ran again were stored (through south: north holds no lease to store them).
    assert any(seat == 0 and not by_bot for seq, seat, _, by_bot in stored if seq >= stored_at_resume)
    north_log = north.log.read_text()
    assert "lease lost; handed over" in north_log, north_log[-3000:]
