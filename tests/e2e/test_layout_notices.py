"""The table page's notices: a full table is offered for watching (no name asked for), a table
with a free seat offers both, and a lost connection covers the top of the page until it is back."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from e2e_kit import browser_page
from playwright.sync_api import Browser, Locator, Page, expect
from table_seats import frisch_step


@contextmanager
def open_page(browser: Browser, server: Any, locale: str = "en-US") -> Iterator[Page]:
    with browser_page(browser, server, locale=locale, width=1280) as (_, page):
        yield page


def new_table(page: Page, server: Any, seats: list[dict[str, str]], hands: int = 1) -> str:
    """As a guest of ``page``, who sits in seat 0; ``seats`` are the other three."""
    response = page.request.post(server.url + "/api/guest", data={"name": "Ann"})
    assert response.ok, response.text()
    response = page.request.post(server.url + "/api/tables", data={
        "game": "israeli", "options": {"hands": hands}, "seats": [{"kind": "human"}, *seats], "take_seat": 0})
    assert response.status == 201, response.text()
    table_id: str = response.json()["id"]
    return table_id


def test_a_visitor_at_a_full_table_is_offered_to_watch(browser: Browser, server: Any) -> None:
    bot = {"kind": "bot", "level": "basic"}
    with open_page(browser, server) as ann, open_page(browser, server) as visitor:
        table_id = new_table(ann, server, [bot, bot, bot])
        visitor.goto(f"{server.url}/table/{table_id}")
        expect(visitor.locator("#table")).to_have_attribute("data-you", "-1")
        expect(visitor.get_by_test_id("table-full")).to_have_text("Every seat is taken: you are watching the game.")
        expect(visitor.locator("#guest-form")).to_be_hidden()


def test_a_visitor_with_a_free_seat_may_sit_or_just_watch(browser: Browser, server: Any) -> None:
    bot = {"kind": "bot", "level": "basic"}
    with open_page(browser, server) as ann, open_page(browser, server) as visitor:
        table_id = new_table(ann, server, [{"kind": "human"}, bot, bot])
        visitor.goto(f"{server.url}/table/{table_id}")
        expect(visitor.locator("#guest-form")).to_be_visible()
        expect(visitor.get_by_test_id("table-full")).to_be_hidden()
        visitor.get_by_test_id("watch-only").click()
        expect(visitor.get_by_test_id("join")).to_be_hidden()
        expect(visitor.locator("#table")).to_have_attribute("data-you", "-1")


def test_a_lost_connection_shows_a_banner_until_it_is_back(browser: Browser, server: Any) -> None:
    bot = {"kind": "bot", "level": "basic"}
    with open_page(browser, server) as page:
        table_id = new_table(page, server, [bot, bot, bot])
        page.goto(f"{server.url}/table/{table_id}")
        connection = page.get_by_test_id("connection")
        expect(connection).to_have_attribute("data-online", "true")
        banner = page.get_by_test_id("offline")
        expect(banner).to_be_hidden()
        server.kill()
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Connection lost")
        box = banner.bounding_box()
        assert box is not None and box["y"] == 0 and box["width"] == 1280, box  # across the top of the page
        server.start()
        # The button's own click, at once: the page may have reconnected by itself meanwhile.
        page.evaluate("document.getElementById('reconnect-now').click()")
        expect(connection).to_have_attribute("data-online", "true", timeout=20_000)
        expect(banner).to_be_hidden()


def play_one_move(page: Page) -> None:
    """Pass every call, the first legal card or contract: enough to finish a hand against bots."""
    data: dict[str, str] = page.evaluate("() => ({...document.getElementById('table').dataset})")
    if data.get("myTurn") != "true" or data.get("pending") == "true":
        page.wait_for_timeout(30)
        return
    if data["phase"] == "auction":
        page.locator("#actions [data-name=pass]").click()
    elif data["phase"] == "contract":
        page.locator("#actions [data-kind=contract]").first.click()
    elif data["phase"] == "frisch":
        frisch_step(page)
    else:
        page.locator("#hand .card:not([disabled])").first.click()


@pytest.mark.parametrize("width", [1280, 375])
def test_the_hand_summary_never_pushes_the_table_for_a_whole_hand(browser: Browser, server: Any, width: int) -> None:
    """Beside the felt on a wide screen; on a phone over it, until the next hand's first move."""
    bot = {"kind": "bot", "level": "basic"}
    with open_page(browser, server) as page:
        page.set_viewport_size({"width": width, "height": 800})
        table_id = new_table(page, server, [bot, bot, bot], hands=2)
        page.goto(f"{server.url}/table/{table_id}")
        table = page.locator("#table")
        expect(table).to_have_attribute("data-you", "0")
        deadline = time.monotonic() + 90
        while table.get_attribute("data-hands") == "0":
            assert time.monotonic() < deadline, "the first hand did not end"
            play_one_move(page)
        summary = page.get_by_test_id("hand-summary")
        if width >= 1000:
            expect(summary).to_be_visible()
            assert summary.evaluate("el => el.parentElement.className") == "side-column"
            felt, panel = page.get_by_test_id("felt").bounding_box(), summary.bounding_box()
            assert felt and panel and panel["x"] >= felt["x"] + felt["width"], (felt, panel)
        else:
            # The second hand's first call is a bot's (left of the new dealer): the summary goes then.
            assert summary.evaluate("el => el.parentElement.id") == "felt"  # a panel over the felt: pushes nothing
            expect(summary).to_be_hidden()
            expect(table).to_have_attribute("data-hands", "1")



# Left to right, as the page lays out a hand in either language: spades, hearts, clubs, diamonds.
SUIT_SYMBOLS = "\u2660\u2665\u2663\u2666"


def left_to_right_suits(elements: Locator) -> list[str]:
    """The suit symbol of each of ``elements``, in the order they are read: line by line from the
    top (a long hand's suits wrap onto a second line, which starts again at the left), and from
    the left within a line."""
    boxes: list[tuple[float, float, float, str]] = elements.evaluate_all(
        """els => els.map(el => { const box = el.getBoundingClientRect();
                                  return [box.top, box.height, box.x,
                                          el.textContent.match(/[\u2660\u2665\u2663\u2666]/)[0]]; })""")
    lines: list[list[tuple[float, str]]] = []
    line_top = float("-inf")
    for top, height, x, suit in sorted(boxes):
        if top >= line_top + height / 2:  # below the line so far: a new line
            lines.append([])
            line_top = top
        lines[-1].append((x, suit))
    return [suit for line in lines for _, suit in sorted(line)]


def test_the_hand_summary_shows_each_hand_as_the_player_sees_their_own_in_hebrew(browser: Browser,
                                                                                 server: Any) -> None:
    """The summary's dealt cards run like the live hand: the same suits, left to right, in the
    same order, even on a right-to-left page."""
    bot = {"kind": "bot", "level": "basic"}
    with open_page(browser, server, locale="he-IL") as page:
        table_id = new_table(page, server, [bot, bot, bot], hands=2)
        page.goto(f"{server.url}/table/{table_id}")
        table = page.locator("#table")
        expect(table).to_have_attribute("data-you", "0")
        assert page.evaluate("document.documentElement.dir") == "rtl"
        live = left_to_right_suits(page.locator("#hand .suit-group"))
        settle = time.monotonic() + 10  # the hand may still be laid out when first read
        while live != sorted(live, key=SUIT_SYMBOLS.index) and time.monotonic() < settle:
            page.wait_for_timeout(100)
            live = left_to_right_suits(page.locator("#hand .suit-group"))
        assert live == sorted(live, key=SUIT_SYMBOLS.index) and len(live) >= 2, live
        summary = page.get_by_test_id("hand-summary")
        deadline = time.monotonic() + 90
        ended = 0
        while True:  # until a hand is played out: one all four passed is cancelled, with no cards to show
            while table.get_attribute("data-hands") == str(ended):
                assert time.monotonic() < deadline, "no hand was played out"
                play_one_move(page)
            ended += 1
            expect(summary.locator("h2")).to_be_visible()  # the panel is drawn whole, header and rows at once
            if summary.locator("table.summary-table").count():
                break
            summary.locator("#summary-close").click()
        rows = summary.locator("tr.dealt-row")
        expect(rows).to_have_count(4)  # waits for the rows: count() alone raced their rendering
        settle = time.monotonic() + 10  # the rows, like the live hand, may still be laid out when first read
        for seat in range(4):
            dealt = left_to_right_suits(rows.nth(seat).locator(".suit-row"))
            while dealt != sorted(dealt, key=SUIT_SYMBOLS.index) and time.monotonic() < settle:
                page.wait_for_timeout(100)
                dealt = left_to_right_suits(rows.nth(seat).locator(".suit-row"))
            assert dealt == sorted(dealt, key=SUIT_SYMBOLS.index) and dealt, (seat, dealt)
