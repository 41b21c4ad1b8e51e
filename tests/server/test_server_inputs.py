"""What a client sends that the server cannot take is answered (a 4xx, or an error message on a
connection that stays open), never a traceback: numbers past every limit, lone surrogates,
names made of invisible characters. Each class of mistake is tried on every way in that takes it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_kit import (
    CHANGE,
    connect,
    create_table,
    errors_logged,
    live,
    logged_text,
    my_turn,
    reply_to,
    sign_in,
    stored_actions,
    use,
)

from israeli_whist.core.actions import Phase
from israeli_whist.core.errors import IllegalActionError, RulesError
from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match
from israeli_whist.server.app import create_app
from israeli_whist.server.live import ActionRefused
from israeli_whist.server.replies import json_text
from israeli_whist.server.settings import ServerSettings

JSON = {"content-type": "application/json"}
HUGE = [2**63, 2**64, 10**30, -(2**63) - 1]


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client, errors_logged() as logged:
        yield test_client
        assert not logged, logged_text(logged)


def post_raw(client: TestClient, path: str, body: Any) -> Any:
    """POST ``body`` as a client may write it: ``json.dumps`` writes a lone surrogate as \\ud800."""
    return client.post(path, content=json.dumps(body), headers=JSON)


def detail_text(answer: Any) -> str:
    """The reason of a 4xx, which must be UTF-8 JSON whatever the request held."""
    detail = json.loads(answer.content.decode("utf-8"))["detail"]
    return detail if isinstance(detail, str) else " ".join(d["msg"] for d in detail)


# 1. Numbers past the engine's and the protocol's limits -------------------------------------------


def play_phase(client: TestClient) -> tuple[Any, str]:
    """Ann at a table of three bots, her turn, in the play of the cards (the compiled trick play)."""
    ann = sign_in(client, "Ann")
    table_id = create_table(client, ann, "hbbb", options={"hands": 8})["id"]
    return ann, table_id


def test_an_action_past_a_c_long_is_refused_on_the_socket_in_every_phase(
        client: TestClient, app_settings: ServerSettings) -> None:
    ann, table_id = play_phase(client)
    table = live(client.app, table_id)
    phases = set()
    with connect(client, ann, table_id) as conn:
        while "play" not in phases:
            state = my_turn(conn)
            version, match = table.version, table.match
            phases.add(state["view"]["phase"])
            for action in [*HUGE, 1e30, 2**53 + 1]:
                reply = reply_to(conn, json.dumps({"type": "act", "action": action, "version": version, "id": 7}))
                assert (reply["type"], reply["code"], reply["id"]) == ("error", "malformed", 7), reply
            for version_sent in (2**63, -(10**30), 1e30):
                reply = reply_to(conn, json.dumps({"type": "act", "action": 0, "version": version_sent}))
                assert reply["code"] == "malformed", reply
            assert table.version == version and table.match is match
            assert reply_to(conn, '{"type": "ping"}') == {"type": "pong"}
            assert conn.act(state["view"]["legal"][0]["action"])["type"] == "ack"
    assert {"auction", "play"} <= phases
    assert len(stored_actions(app_settings.database_url, table_id)) == table.version


def test_the_table_refuses_a_huge_action_as_illegal(client: TestClient) -> None:
    """Past the protocol's check, the engine itself: ``Match.apply`` raises IllegalActionError for
    any int, as the table's ``act`` shows (an OverflowError from the compiled play would escape it)."""
    ann, table_id = play_phase(client)
    table = live(client.app, table_id)
    with connect(client, ann, table_id) as conn:
        state = my_turn(conn)
        while state["view"]["phase"] != "play":
            conn.act(state["view"]["legal"][-1]["action"])
            state = my_turn(conn)
        portal: Any = conn.ws.portal
        for action in HUGE:
            with pytest.raises(ActionRefused) as refused:
                portal.call(table.act, 0, action, table.version)
            assert refused.value.code == "illegal"


@pytest.mark.parametrize("game, options", [("israeli", {}), ("classic", {}), ("whistiti", {"players": 4})])
def test_the_engine_refuses_ints_of_any_size(game: str, options: dict[str, Any]) -> None:
    match = Match.start(make_game(game, None, options), "seed", 0)
    seen = set()
    for _ in range(300):  # a hand or two: every phase
        if match.over:
            break
        seen.add(match.hand.phase)
        for action in [*HUGE, -1, 2**53]:
            with pytest.raises(IllegalActionError):
                match.apply(action)
        match = match.apply(match.hand.legal_actions()[-1])  # the highest call: on to the play
    assert Phase.PLAY in seen


@pytest.mark.parametrize("url", [
    "/api/history?offset={n}", "/api/history?limit={n}", "/api/history?player={n}", "/api/leaderboard?offset={n}",
    "/api/leaderboard?limit={n}", "/api/players/{n}/stats", "/api/history?offset=-1", "/api/players/-1/stats",
    "/api/history?player=1e30", "/api/players/nan/stats"])
def test_numbers_in_the_url_past_every_limit_are_422(client: TestClient, url: str) -> None:
    for n in HUGE:
        answer = client.get(url.format(n=n))
        assert answer.status_code == 422, (url, answer.text)
        assert "than or equal" in detail_text(answer) or "integer" in detail_text(answer)


def test_numbers_in_bodies_past_every_limit_are_422(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    use(client, ann)
    table_id = create_table(client, ann, "hhbb")["id"]
    sheet_id = client.post("/api/sheets", json={"players": ["A", "B", "C", "D"]}).json()["id"]
    for n in HUGE:
        for path, body in [(f"/api/tables/{table_id}/join", {"seat": n}),
                           ("/api/tables", {"seats": [{"kind": "human"}] * 4, "take_seat": n}),
                           ("/api/tables", {"seats": [{"kind": "human"}] * 4, "options": {"hands": n}}),
                           (f"/api/sheets/{sheet_id}/hands", {"entry": {"tricks": [n]}, "number": 1}),
                           (f"/api/sheets/{sheet_id}/hands", {"entry": {}, "number": n})]:
            answer = post_raw(client, path, body)
            assert answer.status_code == 422, (path, body, answer.text)
            assert "2**53" in detail_text(answer)
        assert client.delete(f"/api/sheets/{sheet_id}/hands/{n}", headers=CHANGE).status_code == 422
    for not_finite in ("NaN", "Infinity", "-Infinity", "1e400"):
        answer = client.post("/api/tables", content=f'{{"seats": [], "move_timer": {not_finite}}}', headers=JSON)
        assert answer.status_code == 422 and "finite" in detail_text(answer)


# 2. Lone surrogates ------------------------------------------------------------------------------------


def test_a_lone_surrogate_anywhere_in_a_message_is_answered_on_an_open_connection(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    table_id = create_table(client, ann, "hbbb")["id"]
    table = live(client.app, table_id)
    with connect(client, ann, table_id) as conn:
        state = my_turn(conn)
        version, match = table.version, table.match
        good = {"type": "act", "action": state["view"]["legal"][0]["action"], "version": version, "id": "ok"}
        for message, echoed in [({"type": "ping", "id": "\ud800"}, None), ({"type": "x\udfff", "id": "a"}, "a"),
                                ({**good, "id": "\ud800"}, None), ({**good, "pad": ["\udc00"]}, "ok"),
                                ({**good, "action": "\ud800"}, "ok"), ({**good, "\ud800": 1}, "ok")]:
            reply = reply_to(conn, json.dumps(message))
            assert (reply["type"], reply["code"], reply["id"]) == ("error", "malformed", echoed), (message, reply)
            assert "surrogate" in reply["message"]
            assert table.version == version and table.match is match
        # Raw in the frame's text (only an in-process client can: a real frame is UTF-8) it is
        # measured and answered, not a UnicodeEncodeError.
        for text in ["\ud800", '{"type": "ping", "id": "\ud800"}', '{"type": "x", "id": "\udfff"}']:
            assert reply_to(conn, text)["type"] in ("error", "pong")
        assert reply_to(conn, '{"type": "ping"}') == {"type": "pong"}
        for message in conn.messages:  # nothing sent carries a lone surrogate, even escaped
            json.dumps(message, ensure_ascii=False).encode("utf-8")


@pytest.mark.parametrize("path, body", [
    ("/api/guest", {"name": "Ann\ud800"}),
    ("/api/register", {"login": "ann", "password": "12345678\ud800"}),
    ("/api/register", {"login": "ann\ud800", "password": "12345678"}),
    ("/api/register", {"login": "ann", "password": "12345678", "name": "\udfffAnn"}),
    ("/api/login", {"login": "ann\ud800", "password": "12345678"}),
    ("/api/login", {"login": "ann", "password": "\ud800" * 8}),
    ("/api/tables", {"game": "israeli\ud800", "seats": []}),
    ("/api/tables", {"options": {"hands\ud800": 1}, "seats": []}),
    ("/api/tables", {"options": {"hands": "\ud800"}, "seats": []}),
    ("/api/tables", {"seats": [{"kind": "bot", "level": "\ud800"}] * 4}),
    ("/api/sheets", {"players": ["Ann", "Bob\ud800", "Cid", "Dan"]}),
    ("/api/sheets", {"players": ["Ann", "Bob", "Cid", "Dan"], "preset": "\ud800"}),
])
def test_a_lone_surrogate_in_any_body_is_422(client: TestClient, path: str, body: dict[str, Any]) -> None:
    use(client, sign_in(client, "Ann"))
    post_raw(client, "/api/register", {"login": "ann", "password": "12345678"})
    answer = post_raw(client, path, body)
    assert answer.status_code == 422, answer.text
    assert "surrogate" in detail_text(answer)


def test_every_reply_encodes() -> None:
    assert json_text({"id": "\ud800", "name": "שלום"}) == '{"id":"\\ud800","name":"\\u05e9\\u05dc\\u05d5\\u05dd"}'
    assert json_text({"name": "שלום"}) == '{"name":"שלום"}'  # as it is, where it can be


# 3. The answers to mistakes -------------------------------------------------------------------------


def test_a_rules_error_a_route_lets_through_is_422(app_settings: ServerSettings,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(app_settings)

    @app.get("/api/test-rules")
    def refuse() -> None:
        raise RulesError("Option hands must be between 0 and 1000")

    with TestClient(app) as client, caplog.at_level(logging.WARNING, "whist"):
        answer = client.get("/api/test-rules")
    assert answer.status_code == 422 and answer.json() == {"detail": "Option hands must be between 0 and 1000",
                                                          "code": "rules"}
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_validation_errors_say_why_without_echoing_the_body(client: TestClient) -> None:
    answer = post_raw(client, "/api/guest", {"name": 7, "pad": "x" * 10_000})
    assert answer.status_code == 422 and len(answer.content) < 500
    assert answer.json()["detail"] == [{"type": "string_type", "loc": ["body", "name"],
                                        "msg": "Input should be a valid string"}]
    answer = post_raw(client, "/api/guest", {"name": "\u202e"})
    assert answer.json() == {"detail": "A name may not hold an invisible formatting character "
                                       "(U+202E RIGHT-TO-LEFT OVERRIDE)", "code": "name"}
    assert client.get("/api/nothing-here").json() == {"detail": "Not Found", "code": "not_found"}


# 4. Names --------------------------------------------------------------------------------------------

# Refused anywhere in a name: bidi controls, zero-width and other format characters, fillers drawn
# as nothing, control characters, private use, a noncharacter, an unassigned code point.
REFUSED_IN_NAMES = ["\u202e", "\u202e\u200b", "\u2066\u2069", "\u200b\u200c\u200d", "\ufeff", "\u00ad", "\u3164",
                    "\u115f\u1160", "\u2800", "\x00", "\x1b[31m", "\ue000", "\U000e0001", "\U0010fffe", "\u0378"]
# Refused alone, fine after a letter: marks on nothing, and spaces of every kind.
NOTHING_VISIBLE = ["\u0301", "\ufe0f", " \u2028 ", "\u3000", ""]


@pytest.mark.parametrize("name", REFUSED_IN_NAMES + NOTHING_VISIBLE)
def test_names_of_invisible_characters_are_refused_everywhere(client: TestClient, name: str) -> None:
    ann = sign_in(client, "Ann")
    client.cookies.clear()
    for path, body in [("/api/guest", {"name": name}),
                       ("/api/register", {"login": "someone", "password": "12345678", "name": name or " "})]:
        answer = post_raw(client, path, body)
        assert answer.status_code == 422, (path, body, answer.text)
        assert "name" in detail_text(answer).lower()
    use(client, ann)
    answer = post_raw(client, "/api/sheets", {"players": ["Ann", "Bob", "Cid", f"Dan{name}"]})
    assert answer.status_code == (422 if name in REFUSED_IN_NAMES else 201), (name, answer.text)


def test_names_are_trimmed_and_normalised(client: TestClient) -> None:
    answer = client.post("/api/guest", json={"name": "  Cafe\u0301   au   lait \u3000"})
    assert answer.json()["user"]["name"] == "Caf\u00e9 au lait"
    answer = client.post("/api/register", json={"login": "eve", "password": "12345678", "name": " שלום  עולם "})
    assert answer.json()["user"]["name"] == "שלום עולם"
    # A composed and a decomposed é are the same name: a score sheet refuses them as two players.
    answer = client.post("/api/sheets", json={"players": ["Ren\u00e9", "Rene\u0301", "Cid", "Dan"]})
    assert answer.status_code == 422 and "Two players are called" in detail_text(answer)
    assert client.post("/api/guest", json={"name": "x" * 41}).status_code == 422
    assert client.post("/api/guest", json={"name": "🂡" * 40}).status_code == 200


def test_a_login_ends_where_it_seems_to(client: TestClient) -> None:
    """``$`` in a regular expression lets a final newline through; a login is matched whole."""
    for login in ("anne\n", "anne\r\n", "\nanne"):
        assert client.post("/api/register", json={"login": login, "password": "12345678"}).status_code == 422
