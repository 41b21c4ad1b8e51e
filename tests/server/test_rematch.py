"""Play again (``server/rematch.py``) over the finished table's socket: the people accept and the
new table starts with the same seats and rules and a new deal; a decline or a leave is told to
everyone, and the others may start with a bot in that seat; every refusal has its code, and no
message of any shape breaks the connection or logs an error."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from server_kit import (
    Conn,
    Message,
    Player,
    TestConn,
    connect,
    create_table,
    drive,
    errors_logged,
    join,
    live,
    logged_text,
    sign_in,
)
from test_server_fuzz import fuzz, json_values, raw_json, texts

from israeli_whist.server.app import create_app
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.settings import ServerSettings


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def app_of(client: TestClient) -> Any:
    return client.app


def rematch(conn: Conn, do: Any, message_id: str = "r") -> Message:
    """Send a rematch message; the answer to it: the question as it stands, or the refusal."""
    conn.send({"type": "rematch", "do": do, "id": message_id})
    return conn.until(lambda m: m["type"] == "rematch" or (m["type"] == "error" and m.get("id") == message_id))


def asked(conn: Conn) -> Message:
    return conn.until(lambda m: m["type"] == "rematch")


@contextmanager
def finished_table(client: TestClient, kinds: str = "hhbb", **extra: Any
                   ) -> Iterator[tuple[str, list[Player], list[TestConn], TestConn]]:
    """A one-hand game played to its end by its people (seats "h" of ``kinds``), each connected,
    and a spectator: the table's id, its people, their connections (by seat order) and the spectator's."""
    names = iter(["Ann", "Bob", "Cid", "Dan"])
    people = [sign_in(client, next(names)) for kind in kinds if kind == "h"]
    table = create_table(client, people[0], kinds, **extra)
    table_id, invite = table["id"], table.get("invite")
    seats = [seat for seat, kind in enumerate(kinds) if kind == "h"]
    for person, seat in zip(people[1:], seats[1:], strict=True):
        join(client, person, table_id, seat, invite)
    with ExitStack() as stack:
        conns = [stack.enter_context(connect(client, person, table_id)) for person in people]
        watcher = stack.enter_context(connect(client, None, table_id, invite))
        drive(dict(zip(seats, conns, strict=True)), random.Random(3))
        for conn in (*conns, watcher):
            if not conn.state["score"]["over"]:
                conn.until(lambda m: m["type"] == "state" and m["score"]["over"])
        yield table_id, people, conns, watcher


def test_everyone_accepts_and_the_new_table_has_the_same_seats_and_rules(client: TestClient) -> None:
    with finished_table(client, public=False, move_timer=30) as (table_id, (ann, bob), (a, b), watcher):
        old = live(client.app, table_id)
        first = rematch(a, "accept")
        assert first == {"type": "rematch", "asked_by": 0, "answers": ["accepted", "waiting", "bot", "bot"],
                         "next": None}
        assert asked(b) == first and asked(watcher) == first
        assert rematch(watcher, "accept")["code"] == Refusal.SPECTATOR
        started = rematch(b, "accept")
        assert started["answers"] == ["accepted", "accepted", "bot", "bot"] and started["next"]
        assert asked(a) == started
        # A private table's spectator is told that it started, not where.
        assert asked(watcher) == {**started, "next": None}
        new = live(client.app, started["next"])
        assert (new.row.game, new.row.preset, new.row.options, new.row.public, new.row.move_timer) == \
               (old.row.game, old.row.preset, old.row.options, False, 30)
        assert new.row.seed != old.row.seed and not new.match.over and new.row.created_by == ann.user_id
        assert [(s.kind, s.bot_level, s.user_id) for s in new.seats] == \
               [(s.kind, s.bot_level, s.user_id) for s in old.seats] == \
               [("human", None, ann.user_id), ("human", None, bob.user_id), ("bot", "basic", None),
                ("bot", "basic", None)]
        # One finished game, one new table: asking again is told where it is; a decline is too late.
        assert rematch(a, "accept") == started
        assert rematch(b, "decline")["code"] == Refusal.REMATCH_STARTED
        assert len([t for t in app_of(client).state.hub.tables.values() if not t.match.over]) == 1
    with connect(client, bob, started["next"]) as moved:  # Bob's page goes there and has his seat
        assert moved.state["you"] == 1 and len(moved.state["view"]["hand"]) == 13


def test_a_decline_is_told_and_the_others_start_with_a_bot_in_that_seat(client: TestClient) -> None:
    with finished_table(client, "hhhb") as (_, (ann, _bob, cid), (a, b, c), _watcher):
        assert rematch(b, "decline")["code"] == Refusal.NO_REMATCH  # nobody asked yet
        first = rematch(c, "accept")
        assert first["answers"] == ["waiting", "waiting", "accepted", "bot"]
        assert asked(a) == asked(b) == first
        assert rematch(c, "start")["code"] == Refusal.REMATCH_UNDECIDED  # the others are still to answer
        assert rematch(a, "start")["code"] == Refusal.NO_REMATCH  # Ann has not accepted
        declined = rematch(b, "decline")
        assert declined["answers"] == ["waiting", "declined", "accepted", "bot"] and declined["next"] is None
        assert asked(a) == asked(c) == declined
        # Not started: Bob said no.
        assert rematch(a, "accept")["answers"] == ["accepted", "declined", "accepted", "bot"]
        started = rematch(a, "start")
        assert started["answers"] == ["accepted", "declined", "accepted", "bot"] and started["next"]
        new = live(client.app, started["next"])
        assert [(s.kind, s.bot_level, s.user_id) for s in new.seats] == [
            ("human", None, ann.user_id), ("bot", "basic", None), ("human", None, cid.user_id), ("bot", "basic", None)]
        assert new.row.created_by == cid.user_id  # who asked


def test_a_player_who_leaves_is_told_and_one_who_comes_back_is_asked(client: TestClient) -> None:
    with finished_table(client, "hhbb") as (table_id, (_ann, bob), (a, b), _watcher):
        b.ws.close()
        assert rematch(a, "accept")["answers"] == ["accepted", "left", "bot", "bot"]  # not at the table when asked
        with connect(client, bob, table_id) as back:
            assert asked(back)["answers"] == ["accepted", "waiting", "bot", "bot"]
            assert asked(a)["answers"] == ["accepted", "waiting", "bot", "bot"]
        assert asked(a)["answers"] == ["accepted", "left", "bot", "bot"]  # gone again
        started = rematch(a, "start")
        assert [s.kind for s in live(client.app, started["next"]).seats] == ["human", "bot", "bot", "bot"]


def test_a_player_who_accepted_and_leaves_is_not_moved(client: TestClient) -> None:
    with finished_table(client, "hhhb") as (_, _people, (a, b, c), _watcher):
        rematch(a, "accept")
        asked(b), asked(c)
        rematch(b, "accept")
        asked(a), asked(c)
        b.ws.close()
        assert asked(a)["answers"] == asked(c)["answers"] == ["accepted", "left", "waiting", "bot"]
        started = rematch(c, "accept")  # Bob left: not everyone accepted, so nothing starts yet
        assert started["next"] is None and started["answers"] == ["accepted", "left", "accepted", "bot"]
        assert [s.kind for s in live(client.app, rematch(c, "start")["next"]).seats] == ["human", "bot", "human", "bot"]


def test_no_rematch_while_the_game_is_played(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    table_id = create_table(client, ann, "hbbb")["id"]
    with connect(client, ann, table_id) as conn:
        assert rematch(conn, "accept")["code"] == Refusal.STILL_PLAYING
        assert app_of(client).state.rematches.questions == {}


def test_the_cap_of_unfinished_tables_holds(client: TestClient) -> None:
    app_of(client).state.rematches.max_open_tables = 0
    with finished_table(client, "hbbb") as (table_id, _people, (a,), _watcher):
        assert rematch(a, "accept")["answers"] == ["accepted", "bot", "bot", "bot"]  # accepted, told
        refused = a.until(lambda m: m["type"] == "error")
        assert refused["code"] == Refusal.TOO_MANY_TABLES and "Ann" in refused["message"]
        assert app_of(client).state.rematches.questions[table_id].next_table is None


@st.composite
def rematch_messages(draw: st.DrawFn) -> str:
    """A rematch message, its ``do`` often right and often anything, with any id and extra fields."""
    message: dict[str, Any] = {"type": "rematch"}
    if draw(st.booleans()):
        message["do"] = draw(st.one_of(st.sampled_from(["accept", "decline", "start", "Accept", ""]), json_values))
    message.update(draw(st.dictionaries(st.sampled_from(["id", "seat", "next", "answers", "extra"]),
                                        st.one_of(texts, json_values), max_size=3)))
    return raw_json(message)


def test_rematch_messages_of_any_shape(client: TestClient) -> None:
    """Any JSON in any field, by any seat or a spectator: a refusal with its code (never
    ``internal``) or the question; the connection stays; nothing is logged as an error."""
    codes = {str(code) for code in Refusal} - {Refusal.INTERNAL}
    with errors_logged() as logged, finished_table(client, "hhbb") as (_, _people, conns, watcher):
        seen: set[str] = set()

        @fuzz(300)
        @given(text=rematch_messages(), who=st.integers(0, 2))
        def one_message(text: str, who: int) -> None:
            conn = (*conns, watcher)[who]
            conn.send_text(text)
            reply = conn.until(lambda m: m["type"] in ("rematch", "error"))
            if reply["type"] == "error":
                assert reply["code"] in codes and reply["message"], reply
                seen.add(reply["code"])
            else:
                assert set(reply) == {"type", "asked_by", "answers", "next"}
            for other in (*conns, watcher):
                other.quiet(0.01)
            conn.send({"type": "ping"})
            assert conn.until(lambda m: m["type"] == "pong") == {"type": "pong"}
            assert not logged, logged_text(logged)

        one_message()
    assert {Refusal.MALFORMED, Refusal.SPECTATOR} <= seen
