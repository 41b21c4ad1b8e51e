"""Hints at the table (server/hints.py): the creator's setting, each refusal with its code, a hint
given on one's turn to the asker alone, stored with the game and shown by its history, replay and
record, and a game with a hint used (or at a practice table) not rated."""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_kit import Conn, Message, Player, connect, create_table, drive, join, sign_in, use
from sqlalchemy import insert, select

from israeli_whist.core.actions import action_name
from israeli_whist.core.cards import cards_in, parse_card
from israeli_whist.core.errors import WhistError
from israeli_whist.core.records import replay
from israeli_whist.core.views import hidden_cards, seat_view
from israeli_whist.server import hints as hints_module
from israeli_whist.server.app import create_app
from israeli_whist.server.db import make_engine, now, ratings
from israeli_whist.server.hintstore import hints_used
from israeli_whist.server.hub import TableRequest
from israeli_whist.server.settings import ServerSettings

ONE_HAND = {"hands": 1}


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def ask(conn: Conn, message_id: str = "h") -> Message:
    """Ask for a hint; the answer (the hint, or an error with its code)."""
    conn.send({"type": "hint", "id": message_id})
    return conn.until(lambda m: m["type"] in ("hint", "error") and m.get("id") == message_id)


def my_turn(conn: Conn) -> Message:
    return conn.until(lambda m: m["type"] == "state" and m["view"]["player"] == m["you"])


def practice_table(client: TestClient, player: Player, kinds: str = "hbbb", **extra: Any) -> str:
    return str(create_table(client, player, kinds, options=ONE_HAND, hints=True, **extra)["id"])


def test_the_creator_chooses_hints_and_a_rated_table_allows_none(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    rated = create_table(client, ann, "hbbb")
    assert (rated["hints"], rated["rated"]) == (False, True)  # hints are off unless asked for
    practice = create_table(client, ann, "hbbb", hints=True)
    assert (practice["hints"], practice["rated"]) == (True, False)
    assert use(client, ann).get(f"/api/tables/{practice['id']}").json()["hints"] is True
    both = use(client, ann).post("/api/tables", json={"game": "israeli", "options": ONE_HAND, "hints": True,
                                                      "rated": True, "seats": [{"kind": "human"}] * 4})
    assert (both.status_code, both.json()["code"]) == (422, "hints_rated")
    for wrong in ("yes", 1, None, [True]):  # strict: only JSON's true and false
        answer = use(client, ann).post("/api/tables", json={"options": ONE_HAND, "hints": wrong,
                                                            "seats": [{"kind": "human"}] * 4})
        assert (answer.status_code, answer.json()["code"]) == (422, "invalid_request"), wrong


def test_a_hint_is_refused_where_the_table_allows_none(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    table_id = create_table(client, ann, "hbbb", options=ONE_HAND)["id"]
    with connect(client, ann, table_id) as conn:
        my_turn(conn)
        refused = ask(conn)
        assert (refused["type"], refused["code"]) == ("error", "hints_off")
    assert use(client, ann).get(f"/api/games/{table_id}").status_code == 409  # still playing


def test_watchers_and_those_not_on_turn_are_refused(client: TestClient) -> None:
    ann, bob, cid = sign_in(client, "Ann"), sign_in(client, "Bob"), sign_in(client, "Cid")
    table_id = practice_table(client, ann, "hhbb")
    join(client, bob, table_id, 1)
    with connect(client, ann, table_id) as a, connect(client, bob, table_id) as b, \
            connect(client, cid, table_id) as watching, connect(client, None, table_id) as nobody:
        state = a.until(lambda m: m["type"] == "state" and m["view"]["player"] in (0, 1))
        on_turn, waiting = (a, b) if state["view"]["player"] == 0 else (b, a)
        assert ask(waiting)["code"] == "not_your_turn"
        assert ask(watching)["code"] == "spectator"
        assert ask(nobody)["code"] == "spectator"
        assert ask(on_turn)["type"] == "hint"


@pytest.fixture
def held_hint(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The hint waits until the test lets it go: a second ask meets the first still running."""
    let_go = threading.Event()
    real = hints_module.work_out_hint

    def slow(view: Any, seed: str) -> dict[str, Any]:
        let_go.wait(20)
        return real(view, seed)

    monkeypatch.setattr(hints_module, "work_out_hint", slow)
    yield let_go
    let_go.set()


def test_one_hint_at_a_time_per_person(client: TestClient, held_hint: threading.Event) -> None:
    ann = sign_in(client, "Ann")
    table_id = practice_table(client, ann)
    with connect(client, ann, table_id) as conn, connect(client, ann, table_id) as second_page:
        my_turn(conn)
        conn.send({"type": "hint", "id": "first"})
        assert ask(second_page, "second")["code"] == "hint_busy"  # the same person on another page
        held_hint.set()
        assert conn.until(lambda m: m.get("id") == "first")["type"] == "hint"
        assert ask(conn, "third")["type"] == "hint"  # once answered, the next is worked out


def test_a_hint_goes_to_the_asker_alone_and_names_no_hidden_card(client: TestClient) -> None:
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    # A fixed deal (the API deals at random), played to its end: the hints meet every phase.
    hub = client.app.state.hub  # type: ignore[attr-defined]
    table = hub.create(TableRequest("israeli", None, ONE_HAND, [{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2,
                                    seed="hints-7", hints=True), ann.user_id)
    table_id = table.id
    join(client, ann, table_id, 0)
    join(client, bob, table_id, 1)
    rng = random.Random(5)
    with connect(client, ann, table_id) as a, connect(client, bob, table_id) as b:
        state = a.until(lambda m: m["type"] == "state" and m["view"]["player"] in (0, 1))
        seen: dict[str, int] = {"options": 0, "reasons": 0}
        for _ in range(60):  # at many points of the hand: the auction, the Frisch, the contracts, the play
            seat = state["view"]["player"]
            conn = a if seat == 0 else b
            hint = ask(conn, f"h{state['version']}")
            assert hint["type"] == "hint", hint
            view = seat_view(table.match.hand, seat)
            legal = {action_name(action) for action in view.legal_actions}
            hidden = set(cards_in(hidden_cards(table.match.hand, seat)))
            assert hint["hint"]["seat"] == seat
            for option in hint["hint"]["options"]:
                assert option["action"] in view.legal_actions and option["name"] in legal
            # Options are legal actions, so the seat's own; the reason names no card the seat cannot see.
            assert not hidden & set(_cards_named(hint["hint"]["reason"])), hint
            seen["options"] += len(hint["hint"]["options"])
            seen["reasons"] += hint["hint"]["reason"] is not None
            other = b if conn is a else a
            assert all(m.get("id") != hint["id"] for m in other.messages)  # the other seat is not sent it
            state = drive({0: a, 1: b}, rng, stop=moved_on_from(state["version"]))
            if state["score"]["over"]:
                break
        assert state["score"]["over"] and seen["options"] > 10 and seen["reasons"] > 2, seen  # checked something


def moved_on_from(version: int) -> Callable[[Message], bool]:
    """A state a few actions on, at one of the people's turns."""
    return lambda state: bool(state["version"] > version + 3 and state["view"]["player"] in (0, 1))


def _cards_named(value: Any) -> Iterator[int]:
    """Every card a JSON value names in its texts."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _cards_named(item)
    elif isinstance(value, list):
        for item in value:
            yield from _cards_named(item)
    elif isinstance(value, str):
        with contextlib.suppress(WhistError):
            yield parse_card(value)


def rating_games(url: str, user_id: int) -> int:
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            games = c.execute(select(ratings.c.games).where(ratings.c.user_id == user_id)).scalar()
    finally:
        engine.dispose()
    return int(games or 0)


def play_out(client: TestClient, player: Player, table_id: str, hint_at_first_turn: bool) -> list[Message]:
    """Play the game to its end at random; a hint asked at the player's first turn. The hints received."""
    got = []
    with connect(client, player, table_id) as conn:
        my_turn(conn)
        if hint_at_first_turn:
            got.append(ask(conn))
        drive({0: conn}, random.Random(1))
    return got


def test_a_game_with_a_hint_used_is_not_rated_and_its_history_says_so(client: TestClient,
                                                                      app_settings: ServerSettings) -> None:
    ann = sign_in(client, "Ann")
    rated = create_table(client, ann, "hbbb", options=ONE_HAND)["id"]
    play_out(client, ann, rated, hint_at_first_turn=False)
    assert rating_games(app_settings.database_url, ann.user_id) == 1  # the same game, rated: the rule is real
    practice = practice_table(client, ann)
    [hint] = play_out(client, ann, practice, hint_at_first_turn=True)
    assert hint["type"] == "hint" and (hint["hand"], hint["hint"]["seat"]) == (1, 0)
    assert rating_games(app_settings.database_url, ann.user_id) == 1  # not rated
    games = {g["id"]: g for g in use(client, ann).get("/api/history").json()["games"]}
    assert (games[rated]["rated"], games[rated]["hints_used"], games[rated]["unrated"]) == (True, 0, None)
    assert (games[practice]["rated"], games[practice]["hints_used"], games[practice]["unrated"]) == (False, 1, "hints")
    shown = use(client, ann).get(f"/api/games/{practice}").json()
    assert shown["hints"] == [{"hand": 1, "step": hint["step"], "seat": 0}] and shown["unrated"] == "hints"
    record = use(client, ann).get(f"/api/games/{practice}/record").json()
    assert record["version"] == 2 and record["hands"][0]["hints"] == [[hint["step"], 0]]
    assert replay(record).complete  # the record with its hints replays, checked
    old = use(client, ann).get(f"/api/games/{rated}/record").json()
    assert old["version"] == 1 and "hints" not in old["hands"][0]  # no hint: a record as before


def test_a_practice_game_without_hints_is_not_rated_either(client: TestClient, app_settings: ServerSettings) -> None:
    ann = sign_in(client, "Ann")
    practice = practice_table(client, ann)
    play_out(client, ann, practice, hint_at_first_turn=False)
    assert rating_games(app_settings.database_url, ann.user_id) == 0
    game = use(client, ann).get("/api/history").json()["games"][0]
    assert (game["rated"], game["hints_allowed"], game["hints_used"], game["unrated"]) == (False, True, 0, "practice")


def test_a_stored_hint_unrates_the_game_whatever_the_table(client: TestClient, app_settings: ServerSettings) -> None:
    """The rating reads the hints stored, not only the table's setting."""
    ann = sign_in(client, "Ann")
    table_id = create_table(client, ann, "hbbb", options=ONE_HAND)["id"]
    engine = make_engine(app_settings.database_url)
    try:
        with engine.begin() as c:
            c.execute(insert(hints_used).values(table_id=table_id, hand_number=1, step=0, seat=0, user_id=ann.user_id,
                                                created_at=now()))
    finally:
        engine.dispose()
    play_out(client, ann, table_id, hint_at_first_turn=False)
    assert rating_games(app_settings.database_url, ann.user_id) == 0
