"""Every page of the web app in the state a player sees it, on a running ``whist serve``, and
axe-core's check of a page: shared by ``bench/page_audit.py`` (Lighthouse and axe figures) and
``tests/e2e/test_accessibility.py`` (no axe violation on any page, of any impact).

``make_tour(url)`` makes, through the API and the table's WebSocket as a player's browser would:
a guest, a table waiting for the guest's trump call (the auction), a table waiting for the
guest's card (the play), a finished one-hand game with its analysis searched (the replay finds
it kept), a table at each of the guest's other calls (a Frisch, the contract bidding), a score
sheet with two hands, and the daily event's first board played. Its pages are the lobby signed
out and signed in, every table, the replay at a card of the hand, the history, the leaderboard,
the list of sheets, the sheet, the offline page, the events, the daily event and its first
board's results (``last_card`` brings a table to the end of a hand, for a test to play it).

axe-core comes with the PyPI package ``axe-playwright-python`` (its bundled ``axe.min.js``), run
on the page through Playwright: no browser download, no npm.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page
from websockets.sync.client import connect as ws_connect

from israeli_whist.server.sessions import COOKIE
from server_flood import call, guest  # bench/ is on the path
from server_load import free_port, stop, wait_for_health

BOTS = [{"kind": "bot", "level": "basic"}] * 3
SHEET_HANDS = [  # two Israeli Whist hands, as a scorer enters them (tests/server/test_sheets_api.py's)
    {"declarer": 1, "level": 5, "strain": "S", "contracts": [3, 5, 0, 4], "tricks": [3, 6, 0, 4]},
    {"declarer": 2, "level": 6, "strain": "H", "contracts": [3, 5, 6, 0], "tricks": [3, 4, 6, 0]},
]

# The rules axe-core checks: WCAG 2.0 and 2.1, levels A and AA (axe's own "best-practice" rules
# are not WCAG's and are left to Lighthouse's accessibility score).
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = ("serious", "critical")  # page_audit.py counts these apart (the test fails on every impact)


@dataclass(frozen=True)
class TourPage:
    """A page to audit: its path, whether it is seen signed in (the guest's cookie), and an element
    that is there once the page has drawn what it fetched (a check before that would see a bare page)."""

    name: str
    path: str
    signed_in: bool
    ready: str


@dataclass(frozen=True)
class Tour:
    url: str
    cookie: str  # the guest's session
    pages: list[TourPage]


State = dict[str, Any]


@contextmanager
def served(folder: Path) -> Iterator[str]:
    """``whist serve`` on a free port with its data in ``folder``: its URL. Bots that move at once
    (the tour plays games against them) and no rate limits (the tour makes its guest, tables and
    sheet in a moment)."""
    port = free_port()
    log = folder / "server.log"
    command = [sys.executable, "-m", "israeli_whist.cli", "serve", "--port", str(port), "--bot-delay", "0",
               "--no-rate-limits", "--log-level", "warning"]
    with log.open("wb") as stderr:
        process = subprocess.Popen(command, env={**os.environ, "WHIST_DATA_DIR": str(folder)},
                                   stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_health(url, process, "whist serve", log)
        yield url
    finally:
        stop(process)


def make_tour(url: str, seed: int = 1) -> Tour:
    """The games, tables and sheet the pages show, made on the server at ``url`` (which must run
    with a small ``--bot-delay``: the bots play the finished game's other seats)."""
    rng = random.Random(seed)
    cookie = guest(url, "Noa")
    game_id = finished_game(url, cookie, rng)
    status, _, analysis = call(url, "GET", f"/api/games/{game_id}/analysis?hand=1", cookie=cookie, timeout=600)
    assert status == 200 and analysis["hands"], (status, analysis)
    auction_id = new_table(url, cookie)
    play_until(url, cookie, auction_id, lambda s: my_turn(s, "auction"), rng)
    playing_id = new_table(url, cookie)
    play_until(url, cookie, playing_id, lambda s: my_turn(s, "play"), rng)
    # A Frisch comes when all four pass: the guest passes, hand after hand, until the bots do too.
    frisch_id = new_table(url, cookie, hands=30)
    play_until(url, cookie, frisch_id, lambda s: my_turn(s, "frisch"), rng, passing=True)
    contract_id = new_table(url, cookie)
    play_until(url, cookie, contract_id, lambda s: my_turn(s, "contract"), rng)
    sheet_id = sheet_with_hands(url, cookie)
    daily_id = played_daily_board(url, cookie, rng)
    # The replay at the first card of the hand: the trick on the felt and the analysis's verdict.
    first_card = next(card["step"] for card in analysis["hands"][0]["cards"])
    pages = [
        TourPage("lobby-signed-out", "/", False, "#guest-form"),
        TourPage("lobby", "/", True, "#tables li"),
        TourPage("table-auction", f"/table/{auction_id}", True, "#actions:not([hidden]) button"),
        TourPage("table-play", f"/table/{playing_id}", True, "#hand .card:not([disabled])"),
        TourPage("table-frisch", f"/table/{frisch_id}", True, "#table[data-phase=frisch] #hand .card:not([disabled])"),
        TourPage("table-contract", f"/table/{contract_id}", True, "#table[data-phase=contract] #actions button"),
        TourPage("replay", f"/replay/{game_id}#hand=1&step={first_card}", True, "#analysis:not([hidden])"),
        TourPage("history", "/history", True, "[data-testid=game]"),
        TourPage("leaderboard", "/leaderboard", True, "[data-testid=board-row]"),
        TourPage("sheets", "/sheet", True, "[data-testid=sheet-item]"),
        TourPage("sheet", f"/sheet/{sheet_id}", True, "[data-testid=hand-row-2]"),
        TourPage("offline", "/offline", False, "main:not([aria-busy])"),
        TourPage("events", "/events", True, "[data-testid=daily] .event-board.played"),
        TourPage("event", f"/event/{daily_id}", True, "[data-testid=standings] tbody tr"),
        TourPage("event-board", f"/event/{daily_id}/board/1", True, "[data-testid=result-line]"),
    ]
    return Tour(url, cookie, pages)


def new_table(url: str, cookie: str, hands: int = 1) -> str:
    """An Israeli Whist table: the guest in seat 0, three basic bots."""
    status, _, table = call(url, "POST", "/api/tables", {"game": "israeli", "options": {"hands": hands},
                                                         "seats": [{"kind": "human"}, *BOTS], "take_seat": 0}, cookie)
    assert status == 201, table
    table_id: str = table["id"]
    return table_id


LAST_TRICK = 12  # tricks played before the last of a four-player hand


def last_card(state: State) -> bool:
    """The guest's turn at the hand's last trick: its card ends the hand."""
    return my_turn(state, "play") and state["view"]["tricks_played"] == LAST_TRICK


def my_turn(state: State, phase: str) -> bool:
    view = state["view"]
    return bool(view["phase"] == phase and view["player"] == state["you"] and view["legal"])


def play_until(url: str, cookie: str, table_id: str, done: Callable[[State], bool], rng: random.Random,
               seconds: float = 120.0, passing: bool = False) -> State:
    """The guest's seat plays a random legal action at each turn (a pass where it may, if
    ``passing``), over the table's WebSocket, until a state is ``done``; returns it (the table then
    waits there: it is the guest's turn, or over)."""
    socket_url = url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    deadline = time.monotonic() + seconds
    acted = -1
    with ws_connect(socket_url, additional_headers={"Cookie": f"{COOKIE}={cookie}"}, open_timeout=10) as socket:
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"table {table_id} did not come to the state wanted in {seconds:g} s"
            message: State = json.loads(socket.recv(timeout=left))
            if message["type"] == "error" and "state" in message:  # a stale action: the state it missed
                message = message["state"]
            if message["type"] != "state":
                continue
            if done(message):
                return message
            view = message["view"]
            if view["player"] == message["you"] and view["legal"] and message["version"] != acted:
                acted = message["version"]
                passes = [item for item in view["legal"] if passing and item["name"] == "pass"]
                action = (passes or [rng.choice(view["legal"])])[0]["action"]
                socket.send(json.dumps({"type": "act", "action": action, "version": acted, "id": f"a{acted}"}))


def finished_game(url: str, cookie: str, rng: random.Random, tries: int = 5) -> str:
    """A one-hand game played to its end whose hand was played out (not passed round and dealt
    again, which leaves nothing to analyse)."""
    for _ in range(tries):
        table_id = new_table(url, cookie)
        play_until(url, cookie, table_id, lambda s: bool(s["score"]["over"]), rng)
        status, _, game = call(url, "GET", f"/api/games/{table_id}", cookie=cookie)
        assert status == 200, game
        if not game["hands"][0]["cancelled"]:
            return table_id
    raise AssertionError(f"every one of {tries} games was passed round")


def played_daily_board(url: str, cookie: str, rng: random.Random) -> str:
    """The daily event with its first board played by the guest (its results page then opens): the
    event's id."""
    status, _, daily = call(url, "GET", "/api/events/daily", cookie=cookie)
    assert status == 200, daily
    status, _, seat = call(url, "POST", f"/api/events/{daily['id']}/boards/1/play", {"invite": None}, cookie)
    assert status == 201, seat
    play_until(url, cookie, seat["table"], lambda s: bool(s["score"]["over"]), rng)
    event_id: str = daily["id"]
    return event_id


def sheet_with_hands(url: str, cookie: str) -> str:
    status, _, sheet = call(url, "POST", "/api/sheets", {"game": "israeli", "players": ["Ann", "Ben", "Dan", "Eve"]},
                            cookie)
    assert status == 201, sheet
    for number, entry in enumerate(SHEET_HANDS, start=1):
        status, _, added = call(url, "POST", f"/api/sheets/{sheet['id']}/hands", {"entry": entry, "number": number},
                                cookie)
        assert status == 201, added
    sheet_id: str = sheet["id"]
    return sheet_id


# axe-core ------------------------------------------------------------------------------------------

PHONE_WIDTH = 700  # the pages' own line between a phone's layout and a wider one (lobby.css)

AXE = Axe()


def audit_context(browser: Browser, tour: Tour, page: TourPage, *, locale: str, width: int, height: int,
                  cookie: str | None = None) -> BrowserContext:
    """A browser context for auditing ``page`` in the language of ``locale`` (the pages follow the
    browser's language), signed in where the page is seen so: as the tour's guest, or ``cookie``'s.
    Narrower than ``PHONE_WIDTH``, a phone: touch, and scroll bars that float over the page (a
    desktop's take room, which a phone's screen never gives up)."""
    phone = width < PHONE_WIDTH
    context = browser.new_context(locale=locale, viewport={"width": width, "height": height}, is_mobile=phone,
                                  has_touch=phone)
    if page.signed_in or cookie is not None:
        context.add_cookies([{"name": COOKIE, "value": cookie or tour.cookie, "url": tour.url}])
    return context


def axe_results(page: Page, tags: list[str] = WCAG_TAGS) -> dict[str, Any]:
    """axe-core's check of the page as it is now, by the rules of ``tags`` (WCAG 2.1 A and AA): its
    ``violations``, and the rules it found kept (``passes``, one element each). axe's script is run
    through Playwright (the DevTools protocol), which the page's Content Security Policy does not
    govern: the page is checked under the policy its players get."""
    results = AXE.run(page, options={"runOnly": {"type": "tag", "values": tags}, "resultTypes": ["violations"]})
    response: dict[str, Any] = results.response
    return response




def describe(violation: dict[str, Any]) -> str:
    """One line a person can act on: the rule, its impact, how many elements, the first of them."""
    nodes = violation["nodes"]
    first = nodes[0]["target"] if nodes else []
    return f"{violation['id']} ({violation['impact']}, {len(nodes)} elements, e.g. {first}): {violation['help']}"
