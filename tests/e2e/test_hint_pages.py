"""Hints at the table in the browser (static/hint.js): at a practice table the page says so and
offers a Hint button, enabled on the player's turn only; asked in the auction and in the play it
shows the expert's choices, best first, with the points expected and the reason; the hint goes once
the table moves on. A rated table shows no hint at all, and the lobby's form makes a practice table.
axe-core finds nothing in the open hint, in Hebrew on a phone and in English on a laptop;
screenshots of both are written to ``test-artifacts/screenshots/hint-*.png``. Once the game is over,
its history entry says it is not rated for the hint used, and its replay shows where it was asked."""

from __future__ import annotations

import random
from contextlib import ExitStack
from typing import Any

import pytest
from bench_kit import load_bench
from e2e_kit import browser_page
from playwright.sync_api import Browser, Page, expect
from server_kit import COOKIE, connect_real, drive
from table_seats import SCREENSHOTS, my_turn, sit_with_people, until

tour_kit = load_bench("page_tour")
VIEWPORTS = {"phone-he": (375, 812, "he-IL", "375x812-he"), "laptop-en": (1280, 800, "en-US", "1280x800-en")}
WORDS = {"en-US": ("Hint", "Practice table"), "he-IL": ("רמז", "שולחן אימון")}


def no_axe_violation(page: Page) -> None:
    results = tour_kit.axe_results(page)
    assert results["passes"], "axe checked nothing"
    assert [tour_kit.describe(v) for v in results["violations"]] == []


def ask_for_a_hint(page: Page) -> None:
    """Ask, and wait for the answer: the choices, or (in a bidding where the expert sees one
    sensible call) the words saying there is nothing to weigh."""
    page.get_by_test_id("hint-button").click()
    expect(page.locator(".hint-option, .hint-none").first).to_be_visible()


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_a_hint_at_a_practice_table(browser: Browser, server: Any, name: str) -> None:
    width, height, locale, shot = VIEWPORTS[name]
    button_word, note_word = WORDS[locale]
    with browser_page(browser, server, locale=locale, width=width, height=height) as (_, page), ExitStack() as stack:
        conns = sit_with_people(page, server.url, stack, table={"hints": True})
        button = page.get_by_test_id("hint-button")
        expect(button).to_have_text(button_word)
        expect(page.get_by_test_id("hint-note")).to_contain_text(note_word)

        # The auction: the others pass up to the page, whose hint values its calls.
        until(page, conns, my_turn("auction"))
        expect(button).to_be_enabled()
        ask_for_a_hint(page)
        options = page.get_by_test_id("hint-option")
        assert options.count() <= 3
        values = [float(v) for v in page.locator(".hint-value").all_text_contents()]
        assert values == sorted(values, reverse=True), values  # best first
        page.locator("#actions [data-kind=bid]").first.click()
        expect(page.get_by_test_id("hint-option")).to_have_count(0)  # the table moved on: the hint went
        expect(button).to_be_disabled()  # not the page's turn

        # The contracts, then the play: the hint names cards of the page's own hand, and a reason.
        until(page, conns, my_turn("contract"))
        page.locator("#actions [data-kind=contract]").first.click()
        until(page, conns, my_turn("play"))
        ask_for_a_hint(page)
        expect(page.get_by_test_id("hint-option").first).to_be_visible()  # the lead: many cards to weigh
        hand = set(page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)"))
        shown = page.locator("#hint-result .card-face").evaluate_all("els => els.map(e => e.dataset.card)")
        assert shown and set(shown) <= hand, (shown, hand)
        expect(page.get_by_test_id("hint-reason")).to_be_visible()
        no_axe_violation(page)
        page.evaluate("window.scrollTo(0, 0)")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"hint-{shot}.png"), full_page=True)
        page.get_by_test_id("hint-close").click()
        expect(page.get_by_test_id("hint-option")).to_have_count(0)


def test_a_rated_table_shows_no_hint_and_the_lobby_makes_a_practice_table(browser: Browser, server: Any) -> None:
    with browser_page(browser, server, width=1280, height=800) as (_, page), ExitStack() as stack:
        sit_with_people(page, server.url, stack)
        expect(page.get_by_test_id("hint-panel")).to_be_hidden()
        page.goto(server.url + "/")
        box = page.get_by_test_id("create-hints")
        expect(box).not_to_be_checked()  # off unless asked for
        expect(page.locator("label", has=box)).to_contain_text("not rated")
        box.check()
        page.locator("#create-button").click()
        page.wait_for_url("**/table/**")
        expect(page.get_by_test_id("hint-note")).to_contain_text("Practice table")


def test_the_history_and_the_replay_show_the_hints_used(browser: Browser, server: Any) -> None:
    with browser_page(browser, server, width=1280, height=800) as (context, page):
        assert page.request.post(server.url + "/api/guest", data={"name": "Noa"}).ok
        created = page.request.post(server.url + "/api/tables", data={
            "game": "israeli", "options": {"hands": 1}, "hints": True, "take_seat": 0,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "basic"}] * 3})
        table_id = created.json()["id"]
        cookie = next(c["value"] for c in context.cookies() if c["name"] == COOKIE)
        with connect_real(server.url, cookie, table_id) as conn:
            conn.until(lambda m: m["type"] == "state" and m["view"]["player"] == 0)
            conn.send({"type": "hint", "id": "h"})
            hint = conn.until(lambda m: m.get("id") == "h")
            assert hint["type"] == "hint", hint
            drive({0: conn}, random.Random(2), timeout=90)
        page.goto(server.url + "/history")
        expect(page.get_by_test_id("unrated-note")).to_have_text("One hint used: not rated")
        page.goto(f"{server.url}/replay/{table_id}#hand=1&step={hint['step']}")
        expect(page.get_by_test_id("unrated")).to_have_text("One hint used: not rated")
        expect(page.get_by_test_id("hint-here")).to_have_text("Noa asked for a hint here.")
        page.get_by_test_id("next").click()
        expect(page.get_by_test_id("hint-here")).to_be_hidden()  # only at the place it was asked
