"""Only the server's own pages change things or open a table's socket (``israeli_whist.server.guard``).

Every state-changing route of the API (read from the app, so a route added later is tried too)
is sent what another site's page could send: a form (no JSON, no custom header), a request from
another origin, one the browser marks cross-site. Each is refused with its code, and nothing
changes. The Origin rule itself is tried with any text at all in Origin and Host.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_kit import CHANGE, connect, create_table, sign_in, stored_actions, use
from starlette.testclient import WebSocketDenialResponse
from starlette.types import Message

from israeli_whist.server.app import create_app
from israeli_whist.server.guard import SAFE_METHODS, BrowserGuard
from israeli_whist.server.origins import normal_origin, origin_allowed, own_origin
from israeli_whist.server.settings import ServerSettings, allowed_origins

OWN = "http://testserver"  # the TestClient's Host is testserver, over http
OTHER_PORT = "http://testserver:8001"  # the same site, another origin: the attack of the review
PROXY = "https://whist.example"


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    settings = dataclasses.replace(app_settings, allowed_origins=(PROXY,))
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def changing_routes(client: TestClient) -> list[tuple[str, str]]:
    """(method, path) of every API route that is not GET, HEAD or OPTIONS (from the app's OpenAPI
    schema, as the fuzz reads it: the pages, outside it, only GET), with its path's ids filled."""
    app: Any = client.app
    found = [(method.upper(), path) for path, operations in app.openapi()["paths"].items()
             for method in operations if method.upper() not in SAFE_METHODS]
    assert ("POST", "/api/logout") in found and ("DELETE", "/api/sheets/{sheet_id}") in found
    return [(method, path.replace("{table_id}", "t").replace("{sheet_id}", "s").replace("{number}", "1"))
            for method, path in found]


def world(client: TestClient) -> tuple[int, int, int]:
    """What a change would move: the users, the tables, the sheets."""
    app: Any = client.app
    with app.state.store.begin() as c:
        users, tables, sheets = (c.exec_driver_sql(f"SELECT count(*) FROM {name}").scalar_one()
                                 for name in ("users", "tables", "sheets"))
        return users, tables, sheets


FORM_BODIES = [
    # What an HTML form can send: its three encodings, the text/plain one shaped as JSON.
    ({"content-type": "application/x-www-form-urlencoded"}, b"name=Mallory"),
    ({"content-type": "multipart/form-data; boundary=x"},
     b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--'),
    ({"content-type": "text/plain"}, b'{"name": "Mallory", "seats": [], "x": "="}'),
    ({}, b""),  # a body-less POST, as the old sign-out was
]


def test_a_change_a_form_could_send_is_refused_on_every_route(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    before = world(client)
    for method, path in changing_routes(client):
        for headers, body in FORM_BODIES:
            answer = use(client, ann).request(method, path, headers=headers, content=body)
            assert answer.status_code == 415 and answer.json()["code"] == "content_type", (method, path, headers)
    assert world(client) == before
    assert use(client, ann).get("/api/me").json()["user"]["id"] == ann.user_id


@pytest.mark.parametrize("headers", [
    {"origin": OTHER_PORT}, {"origin": "http://evil.example"}, {"origin": "https://testserver"},
    {"origin": "null"}, {"origin": OWN, "sec-fetch-site": "cross-site"},
], ids=["another-port", "another-site", "another-scheme", "null", "cross-site"])
def test_a_change_from_another_origin_is_refused_on_every_route(client: TestClient, headers: dict[str, str]) -> None:
    ann = sign_in(client, "Ann")
    before = world(client)
    for method, path in changing_routes(client):
        # Even with a JSON body and the pages' own header: the origin decides first.
        answer = use(client, ann).request(method, path, headers={**headers, **CHANGE}, json={"name": "Mallory"})
        assert answer.status_code == 403 and answer.json()["code"] == "origin", (method, path)
    assert world(client) == before
    assert use(client, ann).get("/api/me").json()["user"]["id"] == ann.user_id


def test_the_own_origin_a_proxy_origin_and_no_origin_may_change_things(client: TestClient) -> None:
    for headers in ({"origin": OWN}, {"origin": "HTTP://TestServer:80"}, {"origin": PROXY}, {},
                    {"origin": OWN, "sec-fetch-site": "same-origin"}):
        answer = client.post("/api/guest", headers=headers, json={"name": "Ann"})
        assert answer.status_code == 200, headers
    # A sign-out needs no body: the pages' header instead.
    assert client.post("/api/logout", headers={"origin": OWN, **CHANGE}).json() == {"user": None}


def test_reading_is_not_refused_whatever_the_origin(client: TestClient) -> None:
    for path in ("/api/me", "/api/tables", "/", "/static/common.js"):
        assert client.get(path, headers={"origin": "http://evil.example", "sec-fetch-site": "cross-site"}).is_success


def test_a_socket_from_another_origin_is_refused_before_it_opens(client: TestClient,
                                                                 app_settings: ServerSettings) -> None:
    ann = sign_in(client, "Ann")
    table_id = create_table(client, ann, "hbbb")["id"]
    path = f"/ws/tables/{table_id}"
    for headers in ({"origin": OTHER_PORT}, {"origin": "null"}, {"origin": "http://testserver.evil.example"},
                    {"origin": OWN, "sec-fetch-site": "cross-site"}):
        with (pytest.raises(WebSocketDenialResponse) as refused,
              use(client, ann).websocket_connect(path, headers=headers)):
            pass
        assert refused.value.status_code == 403, headers
        assert refused.value.json()["code"] == "origin"
        assert refused.value.headers["x-frame-options"] == "DENY"
    assert stored_actions(app_settings.database_url, table_id) == []
    # The pages' own origin, a proxy's, and a client that is no browser page (no Origin) get in.
    for headers in ({"origin": OWN}, {"origin": PROXY}, {}):
        with use(client, ann).websocket_connect(path, headers=headers) as ws:
            assert json.loads(ws.receive_text())["you"] == 0
    with connect(client, ann, table_id) as conn:
        assert conn.state["you"] == 0


header_text = st.one_of(st.text(), st.binary().map(lambda b: b.decode("latin-1")),
                        st.sampled_from([OWN, OTHER_PORT, PROXY, "testserver", "testserver:80", "[::1]:8000"]))


@settings(max_examples=300, deadline=None)
@given(origin=header_text, host=header_text, scheme=st.sampled_from(["http", "https", "ws", "wss", "ftp", ""]))
def test_the_origin_rule_answers_for_any_text(origin: str, host: str, scheme: str) -> None:
    allowed = origin_allowed(origin, scheme, host, (PROXY,))
    assert isinstance(allowed, bool)
    if allowed:  # only an origin in one of the two spellings gets in
        assert normal_origin(origin) in (own_origin(scheme, host), PROXY)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(origin=st.binary(max_size=60), host=st.binary(max_size=60))
def test_any_origin_and_host_bytes_get_a_clear_answer(client: TestClient, origin: bytes, host: bytes) -> None:
    """Header values as the ASGI server hands them over, any bytes: a refusal with its code, or
    the request taken; never a 500."""
    headers = [(b"origin", origin), (b"host", host), (b"content-type", b"application/json")]
    answer = client.post("/api/guest", headers=headers, content=b'{"name": "Ann"}')
    assert answer.status_code in (200, 403), answer.text
    if answer.status_code == 403:
        assert answer.json()["code"] == "origin"
    assert socket_answer(headers) in ("let in", "refused")


def socket_answer(headers: list[tuple[bytes, bytes]]) -> str:
    """What the guard does with a WebSocket handshake of these raw headers: lets it through to
    the app, or refuses it with a 403 carrying the code ``origin``."""
    scope: dict[str, Any] = {"type": "websocket", "path": "/ws/tables/t", "scheme": "ws", "headers": headers,
                             "extensions": {"websocket.http.response": {}}}
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        sent.append({"type": "let in"})

    async def receive() -> Message:
        return {"type": "websocket.connect"}

    async def send(message: Message) -> None:
        sent.append(dict(message))

    anyio.run(BrowserGuard(app, (PROXY,)), scope, receive, send)
    if sent == [{"type": "let in"}]:
        return "let in"
    start, body = sent
    assert start["type"] == "websocket.http.response.start" and start["status"] == 403
    assert json.loads(body["body"])["code"] == "origin"
    return "refused"


def test_allowed_origins_are_checked_and_spelt_one_way() -> None:
    assert allowed_origins(["https://Whist.Example/", "http://10.0.0.5:8000,https://whist.example:443"]) == (
        "https://whist.example", "http://10.0.0.5:8000")
    for bad in ("whist.example", "ftp://whist.example", "https://whist.example/path", "https://שלום.example",
                "https://whist.example:70000", "null"):
        with pytest.raises(ValueError, match="is not an origin"):
            allowed_origins([bad])
