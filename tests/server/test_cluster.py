"""Several servers, one site (``israeli_whist.server.cluster``): two apps on one PostgreSQL database.

A table is played by the node that holds its lease; a connection to another node sees the same
game and acts through it; when the owner dies, the other node takes the table over after the
lease and the game goes on, every action stored once."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient
from server_kit import (
    TestConn,
    connect,
    create_table,
    drive,
    join,
    matches_by_version,
    sign_in,
    stored_actions,
    use,
)

from israeli_whist.server.app import create_app
from israeli_whist.server.hub import Hub
from israeli_whist.server.live import LiveTable
from israeli_whist.server.mirror import MirrorTable
from israeli_whist.server.settings import ServerSettings

LEASE = 2.0


@pytest.fixture
def settings(app_settings: ServerSettings, postgres_url: str) -> ServerSettings:
    return dataclasses.replace(app_settings, database_url=postgres_url, lease_seconds=LEASE)


@contextmanager
def node(settings: ServerSettings, name: str) -> Iterator[TestClient]:
    with TestClient(create_app(dataclasses.replace(settings, node_name=name))) as client:
        yield client


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def kill(client: TestClient) -> None:
    """The node stops dead, as if killed: no more renewals, messages or moves, and nothing released."""
    hub = hub_of(client)
    assert hub.cluster is not None
    cluster = hub.cluster

    async def die() -> None:
        for task in cluster.tasks:
            task.cancel()
        for table in hub.tables.values():
            table.close()
        for connection in (cluster.listener, cluster.sender):
            await connection.close()
        cluster.on_request = lambda message: asyncio.sleep(3600)

    client.portal.call(die)  # type: ignore[union-attr]


def test_a_table_played_through_the_node_that_does_not_own_it(settings: ServerSettings) -> None:
    with node(settings, "north") as north, node(settings, "south") as south:
        ann, bob = sign_in(north, "Ann"), sign_in(south, "Bob")
        table_id = create_table(north, ann, "hhbb", options={"hands": 1})["id"]
        assert isinstance(hub_of(north).get(table_id), LiveTable)
        # Bob joins through the other node: his seat is taken on the owner.
        join(south, bob, table_id, 1)
        assert hub_of(north).tables[table_id].seats[1].user_id is not None
        assert isinstance(hub_of(south).get(table_id), MirrorTable)
        # Both lobbies list it, with Bob in his seat.
        for client in (north, south):
            listed = [t for t in client.get("/api/tables").json()["tables"] if t["id"] == table_id]
            assert len(listed) == 1 and listed[0]["seats"][1]["taken"]
        with connect(north, ann, table_id) as a, connect(south, bob, table_id) as b:
            # Each sees the other connected, whichever node they came through.
            a.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["connected"])
            b.until(lambda m: m["type"] == "state" and m["table"]["seats"][0]["connected"])
            final = drive({0: a, 1: b}, random.Random(3), timeout=60)
            assert final["score"]["over"]
            last = b.state_at(final["version"])
            assert last["score"] == final["score"] and last["you"] == 1
        stored = stored_actions(settings.database_url, table_id)
        row = hub_of(north).store.table(table_id)
        assert row is not None and row.status == "finished"
        matches_by_version(row, stored)  # numbered 0..n-1 and replaying in turn
        assert any(seat == 1 and not by_bot for _, seat, _, by_bot in stored)  # Bob's own moves, relayed


def test_a_stale_or_illegal_action_through_a_mirror_is_refused_as_on_the_owner(settings: ServerSettings) -> None:
    with node(settings, "north") as north, node(settings, "south") as south:
        ann = sign_in(north, "Ann")
        table_id = create_table(north, ann, "hbbb", options={"hands": 1})["id"]
        with connect(use(south, ann), ann, table_id) as a:
            state = a.state
            while state["view"]["player"] != 0:
                state = a.until(lambda m: m["type"] == "state")
            legal = {choice["action"] for choice in state["view"]["legal"]}
            illegal = next(action for action in range(200) if action not in legal)
            reply = a.act(illegal, state["version"])
            assert reply["type"] == "error" and reply["code"] == "illegal"
            reply = a.act(min(legal), state["version"] - 1)
            assert reply["type"] == "error" and reply["code"] == "stale"
            assert reply["state"]["version"] == state["version"]
            assert a.act(min(legal), state["version"])["type"] == "ack"


def test_when_the_owner_dies_the_other_node_takes_the_table_over(settings: ServerSettings) -> None:
    with node(settings, "north") as north, node(settings, "south") as south:
        ann = sign_in(north, "Ann")
        table_id = create_table(north, ann, "hbbb", options={"hands": 1})["id"]
        with connect(south, ann, table_id) as a:
            state = a.until(lambda m: m["type"] == "state" and m["view"]["player"] == 0)
            assert a.act(state["view"]["legal"][0]["action"], state["version"])["type"] == "ack"
            killed = time.monotonic()
            kill(north)
            stored_at_death = len(stored_actions(settings.database_url, table_id))
            # South takes the table over once north's lease runs out (its upkeep looks every third of a lease).
            while not isinstance(hub_of(south).tables.get(table_id), LiveTable):
                assert time.monotonic() - killed < LEASE + 5, "not taken over within the lease and 5 s"
                time.sleep(0.05)
            # Ann's connection, through south all along, sees the game go on from where it was stored.
            a.until(lambda m: m["type"] == "state" and m["version"] >= stored_at_death
                    and (m["view"]["player"] == 0 or m["version"] > stored_at_death), timeout=10)
            final = drive({0: a}, random.Random(5), timeout=60)
            assert final["score"]["over"]
        stored = stored_actions(settings.database_url, table_id)
        row = hub_of(south).store.table(table_id)
        assert row is not None
        matches_by_version(row, stored)


def away(client: TestClient, table_id: str, seat: int) -> bool:
    return bool(hub_of(client).tables[table_id].seats[seat].away)


@contextmanager
def ann_through_south(north: TestClient, south: TestClient) -> Iterator[tuple[str, TestConn]]:
    """Ann's table, made on north (which plays it), and her connection to it through south,
    once north counts her connected."""
    ann = sign_in(north, "Ann")
    table_id = create_table(north, ann, "hbbb", options={"hands": 1})["id"]
    with connect(south, ann, table_id) as a:
        a.until(lambda m: m["type"] == "state" and m["table"]["seats"][0]["connected"])
        yield table_id, a


def wait_until_away(client: TestClient, table_id: str, seconds: float, why: str) -> None:
    end = time.monotonic() + seconds
    while not away(client, table_id, 0):
        assert time.monotonic() < end, why
        time.sleep(0.05)


def test_a_player_gone_from_the_other_node_is_covered_after_the_grace(settings: ServerSettings) -> None:
    with node(settings, "north") as north, node(settings, "south") as south:
        with ann_through_south(north, south) as (table_id, _):
            assert not away(north, table_id, 0)
        # She left through south: north, which plays the table, counts her gone and, after the
        # grace period, lets the stand-in play her seat.
        wait_until_away(north, table_id, settings.grace_seconds + 5, "her seat was not covered")


def test_the_connections_of_a_node_that_died_are_forgotten(settings: ServerSettings) -> None:
    with (node(settings, "north") as north, node(settings, "south") as south,
          ann_through_south(north, south) as (table_id, _)):
        assert hub_of(north).tables[table_id].remote_connections()
        kill(south)  # with Ann's connection on it
        wait_until_away(north, table_id, LEASE + settings.grace_seconds + 5, "a dead node's connection kept the seat")
        assert not hub_of(north).tables[table_id].remote_connections()


def test_talk_reaches_the_connections_of_both_nodes(settings: ServerSettings) -> None:
    """A chat message is stored and sent by the node its sender came through and read by the other
    for its own connections; the creator's change of who may talk reaches the other node too."""
    with node(settings, "north") as north, node(settings, "south") as south:
        ann, bob, cid = sign_in(north, "Ann"), sign_in(south, "Bob"), sign_in(south, "Cid")
        table_id = create_table(north, ann, "hhbb", options={"hands": 1})["id"]
        join(south, bob, table_id, 1)
        with connect(north, ann, table_id) as a, connect(south, bob, table_id) as b, \
                connect(south, cid, table_id) as c:
            b.send({"type": "chat", "text": "Hi from the south", "id": "b1"})
            assert b.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
            assert a.until(lambda m: m["type"] == "chat")["message"]["text"] == "Hi from the south"
            a.send({"type": "react", "reaction": "sorry", "id": "a1"})
            for conn in (b, c):
                assert conn.until(lambda m: m["type"] == "chat" and "reaction" in m["message"])["message"] == \
                    {**conn.messages[-1]["message"], "name": "Ann", "seat": 0, "reaction": "sorry"}
            a.send({"type": "chat_mode", "mode": "seated", "id": "a2"})
            c.until(lambda m: m["type"] == "state" and m["table"]["chat"] == "seated")
            c.send({"type": "chat", "text": "me too", "id": "c1"})
            assert c.until(lambda m: m["type"] in ("ack", "error"))["code"] == "chat_seated"
