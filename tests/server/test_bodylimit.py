"""Request bodies past ``ServerSettings.max_body_bytes`` are refused (413, ``too_large``) before any
route reads them, declared or streamed, on the app and on a real uvicorn; WebSocket messages past
``max_message_bytes`` close the socket with 1009 on a real uvicorn; and the largest legitimate
bodies (a Whistiti sheet and table of seven players with its own schedule of a thousand hands,
a register with the longest password) are well inside the limit and still saved."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from server_kit import COOKIE, seats_json, sign_in, use
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope, Send
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from israeli_whist.core.games.whistiti import WhistitiRules
from israeli_whist.core.names import MAX_NAME
from israeli_whist.server.app import create_app
from israeli_whist.server.bodylimit import BodyLimit
from israeli_whist.server.settings import ServerSettings

LIMIT = ServerSettings.max_body_bytes


# The middleware, on a route that reads whatever it is sent ---------------------------------------------

class Echo:
    """An app that reads the whole body and answers its length; it counts the bytes it was handed."""

    def __init__(self) -> None:
        self.read = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def counting() -> Message:
            message = await receive()
            self.read += len(message.get("body", b""))
            return message

        body = await Request(scope, counting).body()
        await JSONResponse({"length": len(body)})(scope, receive, send)


def request(limit: int, chunks: list[bytes], declared: bool) -> tuple[int, dict[str, Any], int, int]:
    """The status and JSON answer of ``BodyLimit(Echo(), limit)`` to a body sent as ``chunks``, with
    or without its Content-Length; the bytes the route was handed and the chunks taken from the client."""
    app = Echo()
    headers = [(b"content-length", str(sum(map(len, chunks))).encode())] if declared else []
    scope = {"type": "http", "method": "POST", "path": "/", "headers": headers, "query_string": b""}
    taken = 0
    sent: list[Message] = []

    async def receive() -> Message:
        nonlocal taken
        taken += 1
        if taken > len(chunks):
            return {"type": "http.disconnect"}
        return {"type": "http.request", "body": chunks[taken - 1], "more_body": taken < len(chunks)}

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(BodyLimit(app, limit)(scope, receive, send))
    status = sent[0]["status"]
    answer = json.loads(b"".join(m.get("body", b"") for m in sent[1:]))
    return status, answer, app.read, taken


@settings(max_examples=200, deadline=None)
@given(sizes=st.lists(st.integers(0, 120), max_size=8), declared=st.booleans(), limit=st.integers(1, 300))
def test_a_body_past_the_limit_is_refused_before_the_route_has_it(sizes: list[int], declared: bool,
                                                                 limit: int) -> None:
    chunks = [bytes(size) for size in sizes] or [b""]
    total = sum(sizes)
    status, answer, read, taken = request(limit, chunks, declared)
    if total <= limit:
        assert (status, answer) == (200, {"length": total})
        return
    assert status == 413
    assert answer == {"detail": f"A request body is at most {limit} bytes", "code": "too_large"}
    if declared:
        assert taken == 0 and read == 0  # refused from the header: not a byte read
    else:  # read up to the chunk that passed the limit, and no further
        assert taken == next(n for n in range(1, len(chunks) + 1) if sum(sizes[:n]) > limit)
        assert read <= limit


# The app -------------------------------------------------------------------------------------------

@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


@pytest.mark.parametrize("path", ["/api/login", "/api/guest", "/api/tables", "/api/sheets", "/health"])
def test_the_app_refuses_a_large_body_on_every_route(client: TestClient, path: str) -> None:
    sign_in(client, "Ann")
    body = json.dumps({"name": "x" * (LIMIT + 1)}).encode()
    response = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 413, response.text
    assert response.json()["code"] == "too_large"


def escaped_name(number: int) -> str:
    """A name of the most characters, each the longest in JSON's escapes (a pair of surrogates)."""
    return "🂡" * (MAX_NAME - 2) + f"{number:02d}"


def own_schedule(hands: int) -> str:
    """A Whistiti schedule of ``hands`` hands for seven players, the longest to write."""
    return ",".join(str(7 - n % 7) for n in range(hands))


def largest_bodies() -> dict[str, tuple[str, dict[str, Any], int]]:
    """Each route's largest legitimate body: (path, body, the status it gets)."""
    rules = {"players": 7, "schedule": own_schedule(1000), "first_lead": "left_of_dealer"}
    assert len(WhistitiRules().with_options(rules).hand_sizes()) == 1000
    table = {"game": "whistiti", "options": rules, "seats": seats_json("h" + "b" * 6, "expert"), "public": True,
             "move_timer": 120.5, "take_seat": 0}
    sheet = {"game": "whistiti", "preset": None, "options": rules, "players": [escaped_name(n) for n in range(7)]}
    account = {"login": "x" * 40, "password": "🂡" * 200, "name": escaped_name(0)}
    return {"table": ("/api/tables", table, 201), "sheet": ("/api/sheets", sheet, 201),
            "account": ("/api/register", account, 200)}


@pytest.mark.parametrize("kind", ["table", "sheet", "account"])
def test_the_largest_legitimate_bodies_are_well_inside_the_limit_and_saved(client: TestClient, kind: str) -> None:
    path, body, status = largest_bodies()[kind]
    content = json.dumps(body, ensure_ascii=True).encode()  # every non-ASCII character as an escape
    assert len(content) <= LIMIT / 2, f"{kind}: {len(content)} bytes, over half the limit of {LIMIT}"
    use(client, sign_in(client, "Ann") if kind != "account" else None)
    response = client.post(path, content=content, headers={"Content-Type": "application/json"})
    assert response.status_code == status, response.text
    if kind == "sheet":
        assert response.json()["players"] == body["players"] and response.json()["hands_total"] == 1000


# A real uvicorn ------------------------------------------------------------------------------------

def raw_request(url: str, head: bytes, body: Callable[[socket.socket], None], timeout: float = 10.0) -> bytes:
    """Send ``head`` and then whatever ``body`` writes (stopping where the server has closed); the answer,
    read as it comes, while the body is still being sent (the server's close may reset the connection,
    and a reset drops what was not read yet)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as connection:
        answer = bytearray()

        def read() -> None:
            with contextlib.suppress(OSError):
                while chunk := connection.recv(65536):
                    answer.extend(chunk)

        reader = threading.Thread(target=read)
        reader.start()
        try:
            connection.sendall(head)
            body(connection)
        except OSError:  # the server answered and closed while the body was still going
            pass
        reader.join(timeout)
        return bytes(answer)


def test_uvicorn_refuses_a_declared_and_a_chunked_flood(server: Any) -> None:
    megabytes = 16
    declared = (f"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: {megabytes << 20}\r\n\r\n").encode()
    began = time.monotonic()
    answer = raw_request(server.url, declared, lambda c: c.sendall(b"{" + b" " * 1000))  # and nothing more
    assert answer.startswith(b"HTTP/1.1 413") and b'"code":"too_large"' in answer, answer[:300]
    assert time.monotonic() - began < 5  # answered from the header, not after waiting for 16 MB

    def chunks(connection: socket.socket) -> None:
        piece = b" " * 65536
        for _ in range(megabytes * 16):
            connection.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
        connection.sendall(b"0\r\n\r\n")

    chunked = (b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               b"Transfer-Encoding: chunked\r\n\r\n")
    answer = raw_request(server.url, chunked, chunks)
    assert answer.startswith(b"HTTP/1.1 413") and b'"code":"too_large"' in answer, answer[:300]
    assert httpx2.get(server.url + "/health", timeout=10).status_code == 200


def test_uvicorn_closes_a_socket_that_sends_a_message_past_the_limit(server: Any) -> None:
    cookie = httpx2.post(server.url + "/api/guest", json={"name": "Ann"}, timeout=10).cookies[COOKIE]
    table = httpx2.post(server.url + "/api/tables", cookies={COOKIE: cookie}, timeout=10,
                        json={"game": "israeli", "options": {"hands": 1}, "seats": seats_json("hbbb")}).json()
    url = server.url.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
    limit = ServerSettings.max_message_bytes
    with ws_connect(url, additional_headers={"Cookie": f"{COOKIE}={cookie}"}, max_size=None) as ws:
        ws.recv(timeout=10)  # the first state
        ws.send(json.dumps({"type": "ping", "pad": "x" * (limit - 40)}))  # at the limit: answered
        while json.loads(ws.recv(timeout=10))["type"] != "pong":
            pass
        ws.send("x" * (limit + 1))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
