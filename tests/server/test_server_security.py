"""No seat ever sees another seat's hidden cards, and no one acts for a seat but its player.

Whole games of several hands are played by four people on four WebSockets with four sessions,
watched by spectators; every state any connection receives is checked against the engine's
state at that version (``hidden_cards``), and at every step the others try to act out of turn,
spectators try to act, and the player sends its message twice. None of it may be stored.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_kit import (
    CHANGE,
    COOKIE,
    TestConn,
    check_no_leak,
    choose,
    connect,
    create_table,
    join,
    live,
    matches_by_version,
    sign_in,
    stored_actions,
    use,
)
from starlette.websockets import WebSocketDisconnect

from israeli_whist.core.actions import PASS
from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


GAMES = [
    # Israeli Whist, two hands: the auction, the Frisch (cards passed between seats), contracts.
    pytest.param("israeli", {"hands": 2}, 4, id="israeli"),
    # A card dealt to nobody, never shown.
    pytest.param("israeli", {"form": "three_random_card", "hands": 1}, 3, id="israeli-three-random-card"),
    # The dealer's turned-up trump card: public until the dealer plays it, then hidden in the hand.
    pytest.param("classic", {"target": 1}, 4, id="classic"),
    # A stock nobody sees, and its top card face up.
    pytest.param("whistiti", {"schedule": "3,5", "players": 4}, 4, id="whistiti"),
]


@pytest.mark.parametrize(("game", "options", "players"), GAMES)
def test_no_message_shows_a_hidden_card(client: TestClient, app_settings: ServerSettings, game: str,
                                        options: dict[str, Any], players: int) -> None:
    people = [sign_in(client, name) for name in ("Ann", "Bob", "Cid", "Dan")[:players]]
    watcher = sign_in(client, "Eve")  # signed in, but without a seat
    table = create_table(client, people[0], "h" * players, game=game, options=options)
    table_id = table["id"]
    for seat, person in enumerate(people[1:], start=1):
        join(client, person, table_id, seat)
    rng = random.Random(f"{game}{options}")
    with ExitStack() as stack:
        conns = [stack.enter_context(connect(client, person, table_id)) for person in people]
        spectators = [stack.enter_context(connect(client, None, table_id)),
                      stack.enter_context(connect(client, watcher, table_id))]
        everyone = [*conns, *spectators]
        for seat, conn in enumerate(conns):
            assert conn.state["you"] == seat
        version, hands_seen = 0, set()
        while not conns[0].state["score"]["over"]:
            player = conns[0].state["view"]["player"]
            actor = conns[player]
            action = choose(rng, actor.state)
            message = {"type": "act", "action": action, "version": version, "id": f"m{version}"}
            # Out of turn, every other seat tries the very action the player is about to take.
            for other in conns:
                if other is not actor:
                    assert other.act(action, version, "intruder")["code"] == "not_your_turn"
            if version % 7 == 0:
                for spectator in spectators:
                    assert spectator.act(action, version, "watcher")["code"] == "spectator"
            # The player's message twice, as a flaky network might deliver it.
            actor.send(message)
            actor.send(message)
            assert actor.until(lambda m: m["type"] == "ack")["version"] == version + 1
            second = actor.until(lambda m: m["type"] == "error")
            assert second["id"] == message["id"] and second["code"] in ("stale", "not_your_turn", "over")
            version += 1
            for conn in everyone:
                assert conn.state_at(version)["version"] == version
            hands_seen.add(len(conns[0].state["score"]["hands"]))
        assert len(hands_seen) >= 2 or game == "classic"  # several hands (a Classic game can end in one)
        # Each connection got exactly one state per action, in order, and nothing more (before the
        # first action, a new state each time a seat's player connected).
        for conn in everyone:
            assert conn.quiet(0.05) == []
            versions = [m["version"] for m in conn.messages if m["type"] == "state"]
            assert versions[versions.index(1):] == list(range(1, version + 1))
            assert set(versions[:versions.index(1)]) == {0}

        stored = stored_actions(app_settings.database_url, table_id)
        assert [row[0] for row in stored] == list(range(version)), "every action exactly once"
        assert not any(by_bot for *_, by_bot in stored)
        matches = matches_by_version(live(client.app, table_id).row, stored)
        assert matches[-1].over
        checked = sum(check_no_leak(conn.messages, seat, matches) for seat, conn in enumerate(conns))
        checked += sum(check_no_leak(s.messages, -1, matches) for s in spectators)
        assert checked >= len(everyone) * version


def test_no_one_acts_for_another_seat(client: TestClient, app_settings: ServerSettings) -> None:
    ann, bob, cid = sign_in(client, "Ann"), sign_in(client, "Bob"), sign_in(client, "Cid")
    table = create_table(client, ann, "hhhb", options={"hands": 1})
    table_id = table["id"]
    join(client, bob, table_id, 1)
    path = f"/api/tables/{table_id}/join"
    with connect(client, ann, table_id) as a, connect(client, bob, table_id) as b:
        # Bob calls; then it is seat 2's turn, a free seat; Cid takes it.
        assert b.act(PASS)["type"] == "ack"
        join(client, cid, table_id, 2)
        with connect(client, cid, table_id) as c:
            state = c.state_at(1)
            assert state["view"]["player"] == 2 and state["you"] == 2
            legal = state["view"]["legal"][0]["action"]
            # Ann and Bob cannot take Cid's seat, nor a second seat, nor the bot's, however they ask.
            for person in (ann, bob):
                for seat in (0, 1, 2, 3):
                    assert use(client, person).post(path, json={"seat": seat}).status_code == 409
            # Nor act in Cid's turn from their own sockets, whatever the message says it is for.
            for conn in (a, b):
                for extra in ({}, {"seat": 2}, {"you": 2}, {"user_id": cid.user_id}, {"player": 2}):
                    conn.send({"type": "act", "action": legal, "version": 1, "id": "steal", **extra})
                    assert conn.until(lambda m: m["type"] == "error")["code"] == "not_your_turn"
            # Signed out, or with a forged cookie naming Cid, a socket only watches.
            client.cookies.clear()
            client.cookies.set(COOKIE, cid.cookie[:-4] + "AAAA")
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                forged = TestConn(ws)
                assert forged.until(lambda m: m["type"] == "state")["you"] == -1
                assert forged.act(legal, 1)["code"] == "spectator"
            # Signing out ends Cid's session on the server and tells the browser to drop the cookie.
            dropped = use(client, cid).post("/api/logout", headers=CHANGE).headers["set-cookie"]
            assert dropped.startswith(f"{COOKIE}=null;") and "1970" in dropped
            # Cid's own socket, opened before, is closed: its session is over.
            with pytest.raises(WebSocketDisconnect) as closed:
                c.act(legal, 1)
            assert closed.value.code == 4401
            # Without the cookie, or with a copy of it kept from before, Cid only watches.
            for cookie in (None, cid):
                with use(client, cookie).websocket_connect(f"/ws/tables/{table_id}") as ws:
                    signed_out = TestConn(ws)
                    assert signed_out.until(lambda m: m["type"] == "state")["you"] == -1
                    assert signed_out.act(legal, 1)["code"] == "spectator"
            assert use(client, cid).get("/api/me").json() == {"user": None}
            assert stored_actions(app_settings.database_url, table_id) == [(0, 1, PASS, False)]


def test_duplicated_and_late_messages_store_one_action(client: TestClient, app_settings: ServerSettings) -> None:
    ann = sign_in(client, "Ann")
    table = create_table(client, ann, "hbhb", options={"hands": 1})
    table_id = table["id"]
    with connect(client, ann, table_id) as conn:
        # Seat 1 (a bot) called first; now seat 2, a free seat, is to act. Take it too, from a second person.
        bob = sign_in(client, "Bob")
        join(client, bob, table_id, 2)
        with connect(client, bob, table_id) as other:
            state = other.state_at(1)
            assert state["view"]["player"] == 2
            message = {"type": "act", "action": PASS, "version": state["version"], "id": "dup"}
            for _ in range(5):
                other.send(message)
            replies = [other.until(lambda m: m["type"] in ("ack", "error")) for _ in range(5)]
            assert [r["type"] for r in replies] == ["ack", "error", "error", "error", "error"]
            assert {r["code"] for r in replies[1:]} <= {"stale", "not_your_turn"}
            stored = stored_actions(app_settings.database_url, table_id)
            assert [(seq, seat) for seq, seat, *_ in stored[:3]] == [(0, 1), (1, 2), (2, 3)]
            assert sum(1 for _, seat, *_ in stored if seat == 2) == 1
        # A late message from an earlier version, on Ann's turn: stale, with the state to catch up.
        state = conn.state_at(3)
        assert state["view"]["player"] == 0
        late = conn.act(state["view"]["legal"][0]["action"], version=1)
        assert late["code"] == "stale" and late["state"]["version"] == 3
        assert len(stored_actions(app_settings.database_url, table_id)) == 3
