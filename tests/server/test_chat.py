"""Talk at a table through its WebSocket (server/chat.py): a message reaches every seat and every
spectator, is stored with the game and shown by its replay; each limit answers with its own code."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_kit import Conn, Message, Player, connect, create_table, drive, join, sign_in, use
from test_server_limits import FakeClock

from israeli_whist.server.app import create_app
from israeli_whist.server.chat import MAX_CHAT, REACTIONS
from israeli_whist.server.settings import Limit, ServerSettings


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def say(conn: Conn, message: Message, message_id: str = "m") -> Message:
    """Send a talk message; the reply to it (an ack, or an error with its code)."""
    conn.send({**message, "id": message_id})
    return conn.until(lambda m: m["type"] in ("ack", "error") and m.get("id") == message_id)


HEARD: dict[int, int] = {}  # per connection: how many of its messages ``heard`` has looked through


def heard(conn: Conn) -> Message:
    """The next chat message this connection was sent: one already read (the sender's own comes
    before its ack, which ``say`` reads past), else the next to come."""
    start = HEARD.get(id(conn), 0)
    found = next((n for n in range(start, len(conn.messages)) if conn.messages[n]["type"] == "chat"), None)
    if found is None:
        conn.until(lambda m: m["type"] == "chat")
        found = len(conn.messages) - 1
    HEARD[id(conn)] = found + 1
    return conn.messages[found]["message"]  # type: ignore[no-any-return]


def two_players_and_a_table(client: TestClient, kinds: str = "hhbb", **extra: Any) -> tuple[Player, Player, str]:
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    table_id = create_table(client, ann, kinds, **extra)["id"]
    join(client, bob, table_id, 1)
    return ann, bob, table_id


def test_a_message_reaches_every_seat_and_spectator_and_is_in_the_replay(client: TestClient) -> None:
    ann, bob, table_id = two_players_and_a_table(client)
    cid = sign_in(client, "Cid")
    with connect(client, ann, table_id) as a, connect(client, bob, table_id) as b, \
            connect(client, cid, table_id) as c, connect(client, None, table_id) as nobody:
        everyone = (a, b, c, nobody)
        assert say(a, {"type": "chat", "text": "Good luck, all"})["type"] == "ack"
        for conn in everyone:
            said = heard(conn)
            assert (said["name"], said["seat"], said["spectator"], said["text"]) == ("Ann", 0, False, "Good luck, all")
        assert say(c, {"type": "chat", "text": "Go Bob!"})["type"] == "ack"
        for conn in everyone:
            said = heard(conn)
            assert (said["name"], said["seat"], said["spectator"], said["text"]) == ("Cid", -1, True, "Go Bob!")
        assert say(b, {"type": "react", "reaction": "well_played"})["type"] == "ack"
        for conn in everyone:
            said = heard(conn)
            assert (said["name"], said["reaction"], "text" in said) == ("Bob", "well_played", False)
        # A page opened later asks for the recent messages.
        with connect(client, bob, table_id) as again:
            again.send({"type": "chat_log"})
            log = again.until(lambda m: m["type"] == "chat_log")["messages"]
            assert [m.get("text") or m.get("reaction") for m in log] == ["Good luck, all", "Go Bob!", "well_played"]
        # Said during the play: stored at its place in the game.
        final = drive({0: a, 1: b}, random.Random(3), stop=lambda state: state["version"] >= 5)
        assert say(a, {"type": "chat", "text": "Nice lead"})["type"] == "ack"
        at = heard(b)["version"]
        # The bots play on meanwhile: the message is at the table's version when it was said,
        # between the state seen before it and the one after.
        b.send({"type": "sync"})
        after = b.until(lambda m: m["type"] == "state")["version"]
        assert final["version"] <= at <= after, (final["version"], at, after)
        drive({0: a, 1: b}, random.Random(4))
    replay = use(client, ann).get(f"/api/games/{table_id}").json()
    in_replay = [(m["name"], m.get("text") or m.get("reaction"), m["spectator"]) for m in replay["chat"]]
    assert in_replay == [("Ann", "Good luck, all", False), ("Cid", "Go Bob!", True), ("Bob", "well_played", False),
                    ("Ann", "Nice lead", False)]
    assert [m["version"] for m in replay["chat"]] == [0, 0, 0, at]


def test_text_is_normalised_as_names_are_and_markup_stays_text(client: TestClient) -> None:
    ann, _, table_id = two_players_and_a_table(client)
    with connect(client, ann, table_id) as a:
        # A bidi override, a zero-width space, a decomposed é, a run of spaces and a newline.
        assert say(a, {"type": "chat", "text": "  \u202eCafe\u0301\u200b   is\n<b>open</b>  "})["type"] == "ack"
        assert heard(a)["text"] == "Caf\u00e9 is <b>open</b>"
        family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # drawn with zero-width joiners, which stay
        assert say(a, {"type": "chat", "text": family})["type"] == "ack"
        assert heard(a)["text"] == family


def test_each_limit_is_a_clear_refusal(client: TestClient) -> None:
    ann, bob, table_id = two_players_and_a_table(client)
    cid = sign_in(client, "Cid")
    with connect(client, ann, table_id) as a, connect(client, bob, table_id) as b, \
            connect(client, cid, table_id) as c, connect(client, None, table_id) as nobody:
        def refused(conn: Conn, message: Message) -> str:
            reply = say(conn, message)
            assert reply["type"] == "error" and reply["message"], reply
            return str(reply["code"])

        assert refused(a, {"type": "chat", "text": "x" * (MAX_CHAT + 1)}) == "chat_length"
        assert say(a, {"type": "chat", "text": "x" * MAX_CHAT})["type"] == "ack"
        assert refused(a, {"type": "chat", "text": " \u2066\u200b\n "}) == "chat_length"  # nothing visible
        assert refused(a, {"type": "chat", "text": 5}) == "malformed"
        assert refused(a, {"type": "react", "reaction": "<script>"}) == "reaction"
        assert refused(nobody, {"type": "chat", "text": "hi"}) == "sign_in"
        # Only the creator chooses who talks; then a spectator may not, a player may.
        assert refused(b, {"type": "chat_mode", "mode": "off"}) == "not_creator"
        assert refused(a, {"type": "chat_mode", "mode": "nobody"}) == "malformed"
        assert say(a, {"type": "chat_mode", "mode": "seated"})["type"] == "ack"
        assert c.until(lambda m: m["type"] == "state" and m["table"]["chat"] == "seated")
        assert refused(c, {"type": "react", "reaction": "sorry"}) == "chat_seated"
        assert say(b, {"type": "react", "reaction": "sorry"})["type"] == "ack"
        assert say(a, {"type": "chat_mode", "mode": "off"})["type"] == "ack"
        assert refused(b, {"type": "chat", "text": "hello?"}) == "chat_off"
        assert refused(a, {"type": "chat", "text": "not even me"}) == "chat_off"
        assert say(a, {"type": "chat_mode", "mode": "everyone"})["type"] == "ack"
        assert say(c, {"type": "chat", "text": "back"})["type"] == "ack"
    # The refused ones were not stored: a new page is sent the three that were said.
    with connect(client, cid, table_id) as again:
        again.send({"type": "chat_log"})
        log = again.until(lambda m: m["type"] == "chat_log")["messages"]
        assert [m.get("text") or m.get("reaction") for m in log] == ["x" * MAX_CHAT, "sorry", "back"]


def test_the_creator_chooses_at_creation(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    assert create_table(client, ann, "hbbb", chat="seated")["chat"] == "seated"
    answer = use(client, ann).post("/api/tables", json={"game": "israeli", "seats": [{"kind": "human"}] * 4,
                                                        "chat": "nobody"})
    assert answer.status_code == 422 and answer.json()["code"] == "rules"


def test_messages_are_rate_limited_per_user(app_settings: ServerSettings) -> None:
    limits = dataclasses.replace(app_settings.rate_limits, chat=Limit(3, 100, 30))
    clock = FakeClock()
    with TestClient(create_app(dataclasses.replace(app_settings, rate_limits=limits), clock)) as client:
        ann, bob, table_id = two_players_and_a_table(client)
        with connect(client, ann, table_id) as a, connect(client, ann, table_id) as a2, \
                connect(client, bob, table_id) as b:
            for n in range(2):
                assert say(a, {"type": "chat", "text": f"{n}"})["type"] == "ack"
            assert say(a2, {"type": "react", "reaction": REACTIONS[-1]})["type"] == "ack"  # one user, two pages
            reply = say(a, {"type": "chat", "text": "and more"})
            assert reply["code"] == "too_many"
            assert reply["message"] == ("Too many chat messages from this user: at most 3 in 30 seconds. "
                                        "Try again in 30 seconds.")
            assert say(b, {"type": "chat", "text": "Bob still may"})["type"] == "ack"
            clock.advance(30)
            assert say(a, {"type": "chat", "text": "and more"})["type"] == "ack"
