"""Fuzzing the web API: no client mistake breaks a connection, changes a table or logs an error.

Hypothesis sends every route of the app (found from the app itself, so a new route is fuzzed
too) and every WebSocket message type random JSON of any type in every field: lone surrogates,
bidi controls, numbers past 64 bits, NaN and Infinity, wrong types in the path and the query.
Every answer must be a 2xx or a 4xx whose body is UTF-8 JSON; every WebSocket error must leave
the connection open (a ping still gets its pong) and the table as it was; and nothing may log
an error or a traceback. Examples are derandomized, so a run fails the same way every time.
"""

from __future__ import annotations

import dataclasses
import json
import re
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
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
    use,
)

from israeli_whist.core.actions import NUM_ACTIONS
from israeli_whist.server.app import create_app
from israeli_whist.server.settings import RateLimits, ServerSettings

WEBSOCKET_EXAMPLES = 1000
HTTP_EXAMPLES = 1000


def fuzz(examples: int) -> settings:
    """Hypothesis's settings: derandomized (the same examples on every run, in CI too), no
    example database, no deadline (the first request of an app is slow)."""
    return settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# Text that has broken servers: lone surrogates, bidi overrides and isolates, zero-width
# characters, a byte-order mark, NUL, private use, the last code point, markup.
NASTY_TEXT = ["\ud800", "\udfff", "a\ud83d", "\u202e", "\u2066x\u2069", "\u200b", "\u200d", "\ufeff", "\x00",
              "\ue000", "\U0010ffff", "\u3164", "<script>", "", " ", "\n", "x" * 5000]
HUGE_NUMBERS = [2**31, 2**53 + 1, 2**63 - 1, 2**63, -(2**63) - 1, 2**64, 10**30, -(10**30), 1e30, -1e308,
                float("inf"), float("-inf"), float("nan"), -1, 0.5]

texts = st.one_of(st.sampled_from(NASTY_TEXT), st.text(max_size=12),
                  st.text(st.characters(codec=None, categories=["Cs", "Cf", "Cc", "Co", "Cn", "Zl", "Mn"]),
                          max_size=6))
numbers = st.one_of(st.integers(-3, 130), st.sampled_from(HUGE_NUMBERS), st.integers(),
                    st.floats(allow_nan=True, allow_infinity=True))
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
json_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                            st.dictionaries(texts, inner, max_size=4)),
                           max_leaves=8)


def raw_json(value: Any) -> str:
    """``value`` as a client could send it: JSON text, with \\ud800 escapes, NaN and Infinity."""
    return json.dumps(value)


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    # Random bodies make guests and tables as fast as they can: no rate limits here.
    unlimited = dataclasses.replace(app_settings, rate_limits=RateLimits.off(), max_open_tables=None)
    with TestClient(create_app(unlimited)) as test_client:
        yield test_client


def strict_text(text: str) -> str:
    """What a real connection sends: UTF-8, which a lone surrogate cannot be."""
    text.encode("utf-8")
    return text


# The WebSocket ----------------------------------------------------------------------------------


# Stand-ins for a legal action and the current version, put in when the message is sent: what
# is legal changes as the game goes on, and Hypothesis wants strategies that do not.
LEGAL, CURRENT = "<a legal action>", "<the current version>"


def act_fields() -> st.SearchStrategy[dict[str, Any]]:
    """An ``act`` message, each field often right (a legal action is taken) and often anything at all."""
    return st.fixed_dictionaries(
        {"type": st.just("act"), "action": st.one_of(st.just(LEGAL), st.integers(0, NUM_ACTIONS), numbers, json_values),
         "version": st.one_of(st.just(CURRENT), numbers, json_values)},
        optional={"id": st.one_of(texts, numbers, json_values), "extra": json_values})


typed_messages = st.fixed_dictionaries({"type": st.one_of(st.sampled_from(["act", "sync", "ping", "rematch"]),
                                                         json_values)},
                                       optional={"id": json_values, "action": json_values, "version": json_values,
                                                 "do": json_values})
messages = st.one_of(act_fields(), typed_messages, json_values, texts.map(lambda text: {"raw": text}),
                     st.binary(max_size=5000).map(lambda data: {"bytes": data}),
                     st.sampled_from([{"raw": '{"type": "act", "action": 1e30, "version": 0, "id": "x"}'},
                                      {"raw": '{"type": "act", "action": 1e400, "version": 0}'},
                                      {"raw": "[" * 2000 + "]" * 2000}, {"raw": '{"id": "\\ud800", "type": "?"}'}]))


def message_text(message: Any, state: dict[str, Any], choice: int) -> str | bytes:
    """The text of a drawn message (bytes: a binary frame), with the stand-ins put in from ``state``."""
    if isinstance(message, dict) and set(message) == {"raw"}:
        return str(message["raw"])
    if isinstance(message, dict) and set(message) == {"bytes"}:
        return bytes(message["bytes"])
    if isinstance(message, dict) and message.get("type") == "act":
        legal = [option["action"] for option in state["view"]["legal"]] or [0]
        stand_ins = {LEGAL: legal[choice % len(legal)], CURRENT: state["version"]}
        message = {key: stand_ins.get(value, value) if isinstance(value, str) else value
                   for key, value in message.items()}
    return raw_json(message)


def test_websocket_messages_of_any_shape(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    # Eight hands with three bots: Ann's random legal actions (a fuzzed message can be one) cannot end it.
    table_id = create_table(client, ann, "hbbb", options={"hands": 8})["id"]
    table = live(client.app, table_id)
    counts = {"examples": 0, "errors": 0, "acks": 0}
    with errors_logged() as logged, connect(client, ann, table_id) as conn:

        my_turn(conn)  # while it is Ann's turn, the table stands still

        @fuzz(WEBSOCKET_EXAMPLES)
        @given(message=messages, choice=st.integers(0, 50))
        def one_message(message: Any, choice: int) -> None:
            text = message_text(message, conn.state, choice)
            version, match = table.version, table.match
            if isinstance(text, bytes):
                conn.ws.send_bytes(text)
                reply = conn.until(lambda m: m["type"] == "error")
            else:
                reply = reply_to(conn, text)
            counts["examples"] += 1
            if reply["type"] == "ack":  # a legal action at the current version: taken, as it should be
                counts["acks"] += 1
                my_turn(conn)
            else:
                assert table.version == version and table.match is match, "a refused message changed the table"
                if reply["type"] == "error":
                    counts["errors"] += 1
                    assert reply["code"] != "internal", reply
            assert reply_to(conn, '{"type": "ping"}') == {"type": "pong"}
            assert not logged, logged_text(logged)

        one_message()
    for message in conn.messages:
        strict_text(json.dumps(message, ensure_ascii=False))
    print(f"websocket fuzz: {counts}")
    assert counts["examples"] >= WEBSOCKET_EXAMPLES and counts["errors"] > counts["examples"] // 2
    assert not logged, logged_text(logged)


# HTTP -------------------------------------------------------------------------------------------

PATH_PARAM = re.compile(r"{(\w+)}")
# Plausible values of the fields of the bodies, so that fuzzed bodies get past the first check
# and reach the deeper ones (each is also sent spoiled by ``spoiled``).
PLAUSIBLE: dict[str, list[Any]] = {
    "name": ["Ann", "  Bob  ", "Caf\u00e9"], "login": ["ann.b", "bob"], "password": ["12345678"],
    "game": ["israeli", "classic", "whistiti"], "preset": [None, "short"], "options": [{}, {"hands": 1}],
    "seats": [[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}], [{"kind": "bot"}]],
    "public": [True, False], "move_timer": [None, 5, 601], "take_seat": [0, None, 3], "seat": [0, 1, 4],
    "invite": [None, "x"], "chat": ["everyone", "seated", "off"],
    "players": [["Ann", "Bob", "Cid", "Dan"], ["Ann"]], "number": [None, 1, 2],
    "entry": [{"declarer": 0, "level": 5, "strain": "S", "contracts": [5, 3, 3, 2], "tricks": [5, 3, 3, 2]}],
}
nasty_numbers = st.sampled_from(HUGE_NUMBERS)


@st.composite
def spoiled(draw: st.DrawFn, value: Any) -> Any:
    """``value`` with one part made nasty: a string with nasty text inside, a number past
    every limit, one item of a list or a dict spoiled in turn."""
    if isinstance(value, str):
        at = draw(st.integers(0, len(value)))
        return value[:at] + draw(st.sampled_from(NASTY_TEXT)) + value[at:]
    if isinstance(value, list) and value:
        at = draw(st.integers(0, len(value) - 1))
        return [*value[:at], draw(spoiled(value[at])), *value[at + 1:]]
    if isinstance(value, dict) and value:
        key = draw(st.sampled_from(sorted(value)))
        return {**value, key: draw(spoiled(value[key]))}
    return draw(st.one_of(nasty_numbers, json_values))


def field_value(name: str) -> st.SearchStrategy[Any]:
    plausible = st.sampled_from(PLAUSIBLE.get(name, [None, "x", 1]))
    return st.one_of(plausible, plausible.flatmap(spoiled), json_values)


@dataclasses.dataclass(frozen=True)
class Route:
    method: str
    path: str
    params: dict[str, tuple[str, bool]]  # name: (in "path" or "query", whether an integer)
    body: list[str] | None  # the fields of its JSON body; None: it takes none


def routes(client: TestClient) -> list[Route]:
    """Every operation of the app's API, read from its OpenAPI schema (pages take no input)."""
    app: Any = client.app
    schema = app.openapi()
    found = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            params = {p["name"]: (p["in"], "integer" in json.dumps(p["schema"]))
                      for p in operation.get("parameters", [])}
            body = None
            if "requestBody" in operation:
                ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
                body = list(schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]["properties"])
            found.append(Route(method.upper(), path, params, body))
    return found


def url_part(value: Any) -> str:
    """A path or query value as a client could write it: any bytes, percent-encoded."""
    text = value if isinstance(value, str) else json.dumps(value)
    return urllib.parse.quote(text, safe="", errors="surrogatepass")


def param_value(is_int: bool, ids: list[str]) -> st.SearchStrategy[Any]:
    good = st.sampled_from(["0", "1", "20", *ids]) if is_int else st.sampled_from(ids)
    bad = st.sampled_from(["-1", "99999999999999999999", str(2**63), str(-(2**63) - 1), "1e30", "nan", "1.5", "",
                           "\ud800", "\u202e"])
    return st.one_of(good, good, bad, nasty_numbers, texts)


@st.composite
def requests(draw: st.DrawFn, every: list[Route], ids: list[str]) -> tuple[str, str, str | None, bool]:
    """(method, URL, JSON body or None, signed in)."""
    route = draw(st.sampled_from(every))
    values = {name: draw(param_value(is_int, ids)) for name, (where, is_int) in route.params.items()
              if where == "path" or draw(st.booleans())}
    path = PATH_PARAM.sub(lambda m: url_part(values.pop(m[1])), route.path)
    url = path + ("?" + "&".join(f"{k}={url_part(v)}" for k, v in values.items()) if values else "")
    body = None
    if route.body is not None or draw(st.booleans()):
        shaped = st.fixed_dictionaries({f: field_value(f) for f in (route.body or [])[:1]},
                                       optional={f: field_value(f) for f in (route.body or [])[1:]})
        body = raw_json(draw(st.one_of(shaped, shaped, json_values)))
    return route.method, url, body, draw(st.booleans())


# Routes that end the caller's session (a sign-in ends the browser's earlier one): sent signed in
# as a guest of their own, so that Ann's session outlives the fuzz.
SESSION_ENDING = {"/api/logout", "/api/logout-everywhere", "/api/guest", "/api/login", "/api/register"}


def test_http_requests_of_any_shape(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    table_id = create_table(client, ann, "hbbb", public=False)["id"]
    sheet = use(client, ann).post("/api/sheets", json={"players": ["Ann", "Bob", "Cid", "Dan"]})
    assert sheet.status_code == 201
    every = routes(client)
    assert {"/api/guest", "/api/tables/{table_id}/join", "/api/players/{user_id}/stats"} <= {r.path for r in every}
    table = live(client.app, table_id)
    statuses: dict[int, int] = {}
    with errors_logged() as logged:

        @fuzz(HTTP_EXAMPLES)
        @given(request=requests(every, [table_id, sheet.json()["id"], str(ann.user_id), "1"]))
        def one_request(request: tuple[str, str, str | None, bool]) -> None:
            method, url, body, signed_in = request
            version, match = table.version, table.match
            # What the pages send (israeli_whist.server.guard; its own tests try the rest).
            headers = {"content-type": "application/json"} if body is not None else CHANGE
            who = ann if signed_in else None
            if signed_in and url.split("?")[0] in SESSION_ENDING:
                who = sign_in(client, "Eve")
            answer = use(client, who).request(method, url, content=body, headers=headers)
            statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
            assert answer.status_code < 500, (method, url, body, answer.text)
            if answer.headers.get("content-type", "").startswith("application/json"):
                json.loads(answer.content.decode("utf-8"))  # strict UTF-8, whatever the request held
            assert table.version == version and table.match is match
            assert not logged, logged_text(logged)

        one_request()
    print(f"http fuzz: {sum(statuses.values())} requests, statuses {dict(sorted(statuses.items()))}")
    assert sum(statuses.values()) >= HTTP_EXAMPLES
    assert not logged, logged_text(logged)
    # Ann's session still works after it all.
    assert use(client, ann).get("/api/me").json()["user"]["name"] == "Ann"
