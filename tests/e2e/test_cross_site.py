"""Another page of the same host cannot act as the signed-in player (real Chromium, ``whist serve``).

The review's attack: a page served from another port of 127.0.0.1 is the same *site* as the
server, so Chromium sends it the player's ``SameSite=Lax`` cookie. From there it opened the
seated player's WebSocket, read the cards and played one, and a form signed the guest out for
good. Here such a page, in the player's own browser context (their cookie), tries every one of
those, and a framed table page; each must fail, and the player must be as before: still signed
in, no action stored, no new table. Then every page and the API are read for their headers.
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_kit import TIMEOUT_MS, browser_page
from playwright.sync_api import Browser, BrowserContext, Page, expect
from server_kit import stored_actions

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
BOT = {"kind": "bot", "level": "basic"}
HEADERS = {"content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy"}


class AttackerSite:
    """Pages served from another port of 127.0.0.1, in a thread: ``url(name)`` for each."""

    def __init__(self, pages: dict[str, str]) -> None:
        served = {f"/{name}": html.encode() for name, html in pages.items()}

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = served.get(self.path, b"")
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, name: str) -> str:
        return f"{self.base}/{name}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


SOCKET_PAGE = """<script>
  window.events = [];
  const ws = new WebSocket(SOCKET_URL);
  ws.onopen = () => events.push("open");
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    events.push("message " + m.type);
    if (m.type === "state" && m.view.legal.length)
      ws.send(JSON.stringify({type: "act", action: m.view.legal[0].action, version: m.version, id: "x"}));
  };
  ws.onerror = () => events.push("error");
  ws.onclose = (e) => { events.push("close " + e.code); window.finished = true; };
</script>"""

FETCH_PAGE = """<script>
  const post = (path, body) => fetch(SERVER_URL + path, {method: "POST", mode: "no-cors", credentials: "include",
                                                        headers: {"Content-Type": "text/plain"}, body});
  // Sent either way; the answers are opaque, or blocked by Cross-Origin-Resource-Policy.
  window.sent = Promise.allSettled([post("/api/tables", TABLE_BODY), post("/api/tables/TABLE_ID/join", '{"seat": 1}'),
                                    post("/api/logout", ""), post("/api/logout-everywhere", "")]).then(() => true);
</script>"""


def attack_pages(server_url: str, table_id: str) -> dict[str, str]:
    socket_url = server_url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    seats = json.dumps([{"kind": "human"}, BOT, BOT, BOT])
    # A text/plain form whose body reads as JSON: name '{"a":..., "x":"' and value '"}' make
    # {"a":..., "x":"="}, the usual way to send JSON from a form.
    create_json = '{"game":"israeli","options":{"hands":1},"seats":' + seats + ',"take_seat":0,"x":"'
    join_json = '{"seat":1,"x":"'

    def form(action: str, body: str = "", enctype: str = "application/x-www-form-urlencoded") -> str:
        return (f'<form id="f" method="POST" enctype="{enctype}" action="{server_url}{action}">{body}</form>'
                '<script>document.getElementById("f").submit()</script>')

    return {
        # Opens the player's socket; on any state it reads the hand and plays the first legal action.
        "socket.html": SOCKET_PAGE.replace("SOCKET_URL", json.dumps(socket_url)),
        # The same requests as a script can send them without a preflight (no-cors: simple requests).
        "fetch.html": FETCH_PAGE.replace("SERVER_URL", json.dumps(server_url)).replace("TABLE_ID", table_id)
                                .replace("TABLE_BODY", json.dumps(json.dumps({"seats": json.loads(seats)}))),
        "logout.html": form("/api/logout"),
        "logout-everywhere.html": form("/api/logout-everywhere"),
        "create.html": form("/api/tables", f"<input name='{create_json}' value='\"}}'>", "text/plain"),
        "join.html": form(f"/api/tables/{table_id}/join", f"<input name='{join_json}' value='\"}}'>", "text/plain"),
        "frame.html": f'<iframe id="table" src="{server_url}/table/{table_id}" width="800" height="600"></iframe>',
    }


@pytest.fixture
def victim(browser: Browser, server: Any) -> Iterator[tuple[BrowserContext, Page, str]]:
    """A guest seated at a table of bots, in a browser context of their own (their cookie)."""
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    assert page.request.post(server.url + "/api/guest", data={"name": "Ann"}).ok
    response = page.request.post(server.url + "/api/tables", data={
        "game": "israeli", "options": {"hands": 1}, "seats": [{"kind": "human"}, BOT, BOT, BOT], "take_seat": 0})
    assert response.status == 201, response.text()
    yield context, page, response.json()["id"]
    context.close()


def player_state(page: Page, server: Any, table_id: str) -> dict[str, Any]:
    me = page.request.get(server.url + "/api/me").json()["user"]
    tables = page.request.get(server.url + "/api/tables").json()["tables"]
    table = page.request.get(f"{server.url}/api/tables/{table_id}").json()
    return {"me": me, "tables": sorted(t["id"] for t in tables), "you": table["you"],
            "actions": stored_actions(f"sqlite:///{server.data_dir / 'whist.db'}", table_id)}


def test_a_page_on_another_port_cannot_act_as_the_player(victim: tuple[BrowserContext, Page, str],
                                                         server: Any) -> None:
    context, page, table_id = victim
    before = player_state(page, server, table_id)
    assert before["me"]["name"] == "Ann" and before["you"] == 0 and before["tables"] == [table_id]
    site = AttackerSite(attack_pages(server.url, table_id))
    framing_refused: list[str] = []
    try:
        attacker = context.new_page()
        attacker.on("console", lambda message: framing_refused.append(message.text)
                    if "frame-ancestors" in message.text else None)
        # (a) The player's socket: refused at the handshake, so nothing is read and nothing played.
        attacker.goto(site.url("socket.html"))
        attacker.wait_for_function("window.finished === true || window.events.includes('message ack')")
        events = attacker.evaluate("window.events")
        assert "open" not in events and not any(e.startswith("message") for e in events), events
        assert events[-1] == "close 1006", events  # the handshake failed
        # (b) Requests a script may send without asking first, and forms: each refused.
        attacker.goto(site.url("fetch.html"))
        assert attacker.evaluate("window.sent") is True
        for name in ("logout.html", "logout-everywhere.html", "create.html", "join.html"):
            with attacker.expect_navigation(url=f"{server.url}/**"):
                attacker.goto(site.url(name))
            answer = json.loads(attacker.locator("body").inner_text())
            assert answer["code"] == "origin", (name, answer)
        # (c) The table page in a frame: the browser refuses to show it.
        attacker.goto(site.url("frame.html"))
        expect(attacker.locator("#table")).to_be_attached()
        attacker.wait_for_timeout(1000)
        framed = [frame for frame in attacker.frames if frame != attacker.main_frame]
        assert len(framed) == 1
        assert not framed[0].url.startswith(server.url), framed[0].url  # an error page, not the table
        assert framing_refused, "Chromium did not say it refused to frame the table"
    finally:
        site.close()
    assert player_state(page, server, table_id) == before
    # And the player's own page still plays.
    page.goto(f"{server.url}/table/{table_id}")
    expect(page.locator("#table")).to_have_attribute("data-you", "0")
    expect(page.get_by_test_id("connection")).to_have_attribute("data-online", "true")


def test_every_page_and_the_api_carry_the_security_headers(browser: Browser, server: Any) -> None:
    with browser_page(browser, server) as (_, page):
        assert page.request.post(server.url + "/api/guest", data={"name": "Ann"}).ok
        paths = ["/", "/table/nope", "/replay/nope", "/history", "/leaderboard", "/sheet", "/sheet/nope",
                 "/static/common.js", "/static/style.css", "/static/i18n/he.json", "/favicon.ico", "/health",
                 "/api/me", "/api/tables", "/api/rules", "/api/tables/nope", "/no/such/page"]
        for path in paths:
            headers = page.request.get(server.url + path).headers
            assert set(headers) >= HEADERS, (path, HEADERS - set(headers))
            assert "frame-ancestors 'none'" in headers["content-security-policy"]
            assert headers["x-frame-options"] == "DENY"
            assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer"
            assert "strict-transport-security" not in headers  # plain http: no HSTS
        refused = page.request.post(server.url + "/api/logout", headers={"Origin": "http://127.0.0.1:1"})
        assert refused.status == 403 and set(refused.headers) >= HEADERS


@pytest.mark.parametrize(("name", "locale", "width", "height"), [("phone-he", "he-IL", 375, 812),
                                                                 ("laptop-en", "en-US", 1280, 800)])
def test_log_out_everywhere_ends_the_other_devices_session(browser: Browser, server: Any, name: str, locale: str,
                                                           width: int, height: int) -> None:
    """One account on a laptop and a phone; the lobby's button on one signs both out, and the
    other's table page is told so (its socket closed, code 4401), in the page's language, and
    goes on as a spectator's, without the cards."""
    account = {"login": f"anna-{name}", "password": "correct horse"}
    with (browser_page(browser, server, locale=locale, width=width, height=height) as (_, here),
          browser_page(browser, server, locale=locale, width=width, height=height) as (_, there)):
        assert here.request.post(server.url + "/api/register", data=account).ok
        assert there.request.post(server.url + "/api/login", data=account).ok
        response = there.request.post(server.url + "/api/tables", data={
            "game": "israeli", "options": {"hands": 1}, "seats": [{"kind": "human"}, BOT, BOT, BOT],
            "take_seat": 0})
        table_id = response.json()["id"]
        there.goto(f"{server.url}/table/{table_id}")
        expect(there.locator("#table")).to_have_attribute("data-you", "0")
        here.reload()
        button = here.get_by_test_id("logout-everywhere")
        expect(button).to_be_visible()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        here.screenshot(path=str(SCREENSHOTS / f"{name}-lobby-signed-in.png"))
        button.click()
        expect(here.locator("#signed-out")).to_be_visible()
        expect(there.locator("#error")).to_contain_text("התנתקת" if locale == "he-IL" else "You were signed out")
        # The page watches from then on: the seat's cards are gone.
        expect(there.locator("#table")).to_have_attribute("data-you", "-1")
        expect(there.locator("#hand .card")).to_have_count(0)
        expect(there.get_by_test_id("connection")).to_have_attribute("data-online", "true")
        there.screenshot(path=str(SCREENSHOTS / f"{name}-table-signed-out.png"))
        for page in (here, there):
            assert page.request.get(server.url + "/api/me").json() == {"user": None}


def test_the_browser_tests_fail_on_what_the_policy_blocks(browser: Browser, server: Any) -> None:
    """``browser_page`` fails its test when a page breaks the policy, as an inline style would (so
    every browser test checks the pages against it)."""
    with pytest.raises(AssertionError, match="Content Security Policy"), browser_page(browser, server) as (_, page):
        page.evaluate("document.body.setAttribute('style', 'color: red')")
        page.wait_for_timeout(200)
