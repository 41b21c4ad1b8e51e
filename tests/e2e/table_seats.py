"""The test's own seats at a table the page under test sits at: guests made and seated over the
API, their moves made over their own WebSockets whenever it is their turn, while the page is read
through the table's data attributes; and the screenshots the tests write for a person to look at."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2
from playwright.sync_api import Page, expect
from server_kit import COOKIE, RealConn, connect_real

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


# How many of the elements ``selector`` finds are moving (a running animation on them).
MOVING = """(selector) => [...document.querySelectorAll(selector)].filter(
  (el) => el.getAnimations().some((a) => a.playState === "running")).length"""


def guest_cookie(base_url: str, name: str) -> str:
    response = httpx2.post(base_url + "/api/guest", json={"name": name})
    assert response.status_code == 200, response.text
    return response.cookies[COOKIE]


def join(base_url: str, cookie: str, table_id: str, seat: int) -> None:
    response = httpx2.post(f"{base_url}/api/tables/{table_id}/join", json={"seat": seat},
                           cookies={COOKIE: cookie})
    assert response.status_code == 200, response.text


def seat_of(conn: RealConn) -> int:
    seat: int = conn.state["you"]
    return seat


def others_act(conns: list[RealConn]) -> bool:
    """Each of the test's seats whose turn it is acts once: pass in every auction, the first legal
    Frisch card, contract and card. True if one acted."""
    acted = False
    for conn in conns:
        conn.quiet(0.01)
        view = conn.state["view"]
        if conn.state["score"]["over"] or view["player"] != seat_of(conn) or not view["legal"]:
            continue
        names = {item["name"]: item["action"] for item in view["legal"]}
        action = names["pass"] if "pass" in names else view["legal"][0]["action"]
        reply = conn.act(action, message_id=f"{seat_of(conn)}-{conn.state['version']}")
        assert reply["type"] == "ack", reply
        acted = True
    return acted


def table_data(page: Page) -> dict[str, str]:
    data: dict[str, str] = page.evaluate("() => ({...document.getElementById('table').dataset})")
    return data


def until(page: Page, conns: list[RealConn], done: Callable[[dict[str, str]], bool], seconds: float = 30.0,
          one_by_one: bool = False) -> None:
    """The test's seats play on until the page's state is ``done``; ``one_by_one``: looking after
    each move, so that the state is caught before the next one."""
    deadline = time.monotonic() + seconds
    while not done(data := table_data(page)):
        assert time.monotonic() < deadline, data
        acted = False
        for conn in conns:
            acted = others_act([conn]) or acted
            if one_by_one and acted:
                time.sleep(0.3)  # the page's state follows the move before the next one
                break
        if not acted:
            time.sleep(0.02)


def my_turn(phase: str) -> Callable[[dict[str, str]], bool]:
    return lambda d: d.get("phase") == phase and d.get("myTurn") == "true" and d.get("pending") == "false"


def shoot(page: Page, name: str, phase: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")  # as the page comes, not scrolled by a test's click
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{phase}.png"))


def sit_with_people(page: Page, base_url: str, stack: ExitStack, *, name: str = "Noa",
                    others: Sequence[str] = ("Ben", "Dana", "Eli"), options: dict[str, Any] | None = None,
                    table: dict[str, Any] | None = None) -> list[RealConn]:
    """The page's guest ``name`` at seat 0 of a new Israeli Whist table of four people (one hand,
    and ``options``; ``table``: more of the table's settings, such as hints), the ``others`` at
    seats 1 to 3 over their own sockets (closed with ``stack``): their connections, once the page
    shows the table with its 13 cards."""
    response = page.request.post(base_url + "/api/guest", data={"name": name})
    assert response.ok, response.text()
    response = page.request.post(base_url + "/api/tables", data={
        "game": "israeli", "options": {"hands": 1, **(options or {})}, "seats": [{"kind": "human"}] * 4,
        "take_seat": 0, **(table or {})})
    assert response.status == 201, response.text()
    table_id = response.json()["id"]
    conns = []
    for seat, guest in enumerate(others, start=1):
        cookie = guest_cookie(base_url, guest)
        join(base_url, cookie, table_id, seat)
        conns.append(stack.enter_context(connect_real(base_url, cookie, table_id)))
    page.goto(f"{base_url}/table/{table_id}")
    expect(page.locator("#table")).to_have_attribute("data-you", "0")
    expect(page.locator("#hand .card")).to_have_count(13)
    return conns


def frisch_step(page: Page) -> None:
    """One click of the page's Frisch: "Pass to …" once three cards are picked, else the next card."""
    confirm = page.get_by_test_id("frisch-confirm")
    if confirm.is_enabled():
        confirm.click()
    else:
        page.locator("#hand .card:not([disabled]):not(.selected)").first.click()
