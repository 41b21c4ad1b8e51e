"""Every answer carries the security headers (``israeli_whist.server.headers``): every page, every
static file, the API, its refusals (a route's, a validation's, the guard's), a 404, a 405, a
refused WebSocket handshake and a fault of ours; HSTS only behind HTTPS (``--secure-cookies``).
Pages and static files are asked for again each time (``Cache-Control: no-cache``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from httpx2 import Response
from server_kit import create_table, sign_in, use
from starlette.testclient import WebSocketDenialResponse

from israeli_whist.server.app import PAGES, REVALIDATE, STATIC, create_app
from israeli_whist.server.headers import CONTENT_SECURITY_POLICY
from israeli_whist.server.settings import ServerSettings

EVERY_ANSWER = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}


def boom() -> None:
    raise RuntimeError("a fault of ours")


@pytest.fixture(params=[False, True], ids=["http", "https-only"])
def client(request: pytest.FixtureRequest, app_settings: ServerSettings) -> Iterator[TestClient]:
    app = create_app(dataclasses.replace(app_settings, https_only=request.param))
    app.add_api_route("/boom", boom)  # a route that fails, as a bug would
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def answers(client: TestClient) -> dict[str, Response]:
    ann = sign_in(client, "Ann")
    table_id = create_table(client, ann, "hbbb")["id"]
    found = {path: use(client, ann).get(path.replace("{table_id}", table_id).replace("{sheet_id}", "nope"))
             for path in PAGES}
    found |= {f"/static/{file.relative_to(STATIC)}": client.get(f"/static/{file.relative_to(STATIC)}")
              for file in sorted(Path(STATIC).rglob("*")) if file.is_file()}
    found |= {
        "/health": client.get("/health"),
        "/favicon.ico": client.get("/favicon.ico"),
        "/api/me": use(client, ann).get("/api/me"),
        "/api/tables": client.get("/api/tables"),
        "gzipped /api/rules": client.get("/api/rules", headers={"accept-encoding": "gzip"}),
        "a route's refusal": client.get("/api/tables/nope"),
        "a validation's refusal": client.post("/api/guest", json={"name": 5}),
        "the guard's refusal": client.post("/api/guest", json={"name": "Eve"}, headers={"origin": "http://x.test"}),
        "a form's refusal": client.post("/api/logout"),
        "404": client.get("/no/such/page"),
        "static 404": client.get("/static/nothing.js"),
        "405": client.delete("/api/me", headers={"x-whist-request": "1"}),
        "HEAD": client.head("/"),
        "500": client.get("/boom"),
    }
    return found


def test_every_answer_carries_the_headers(client: TestClient) -> None:
    https_only = client.app.state.settings.https_only  # type: ignore[attr-defined]
    found = answers(client)
    assert found["/"].status_code == 200 and found["500"].status_code == 500
    assert found["gzipped /api/rules"].headers["content-encoding"] == "gzip"
    assert len([path for path in found if path.startswith("/static/")]) >= 20
    for what, answer in found.items():
        for name, value in EVERY_ANSWER.items():
            assert answer.headers.get(name) == value, (what, answer.status_code, name)
        hsts = answer.headers.get("strict-transport-security")
        assert hsts == ("max-age=31536000" if https_only else None), what


def test_pages_and_static_files_are_asked_for_again_each_time(client: TestClient) -> None:
    """No guess by the browser of how long its copy is good for (heuristic caching, which could run
    an old script against an upgraded server): it asks each time, and a static file that has not
    changed answers 304, with the same headers."""
    found = answers(client)
    files = {what: answer for what, answer in found.items() if what in PAGES or what.startswith("/static/")}
    assert len(files) >= 25 and all(answer.status_code == 200 for answer in files.values())
    for what, answer in files.items():
        assert answer.headers.get("cache-control") == REVALIDATE == "no-cache", what
    again = client.get("/static/common.js", headers={"if-none-match": found["/static/common.js"].headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == "no-cache"
    for name, value in EVERY_ANSWER.items():
        assert again.headers[name] == value


def test_a_refused_socket_handshake_carries_them_too(client: TestClient) -> None:
    with (pytest.raises(WebSocketDenialResponse) as refused,
          client.websocket_connect("/ws/tables/nope", headers={"origin": "http://127.0.0.1:1"})):
        pass
    for name, value in EVERY_ANSWER.items():
        assert refused.value.headers[name] == value


def test_the_policy_allows_no_inline_script_or_style_and_no_framing() -> None:
    directives = dict(part.split(" ", 1) for part in CONTENT_SECURITY_POLICY.split("; "))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"
    assert directives["base-uri"] == "'none'" and directives["default-src"] == "'self'"
