"""The lobby at a phone's size in Hebrew and a laptop's in English: every seat's menu reads whole
(a bot's level and rating, "Bot (expert) · rating 26.5", not cut by the menu's width), the levels
by strength (random, easy, basic, medium, hard, expert: docs/benchmarks.md, "The ladder"), and the
table's form first once the player has a name, the sign-in one line under it; signed out, the
account's form folded on a phone, so that a guest's name and the table's form come first.

Full-page screenshots, for a person to look at: ``test-artifacts/screenshots/<viewport>-lobby.png``
(a guest with a name) and ``<viewport>-lobby-signed-out.png``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from e2e_kit import RunningServer, browser_page
from playwright.sync_api import Browser, Page, expect

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
VIEWPORTS = {"phone-he": (375, 812, "he"), "laptop-en": (1280, 800, "en")}
BY_STRENGTH = ["random", "easy", "basic", "medium", "hard", "expert"]
ARROW_PX = 24  # the width a menu keeps for its arrow, beside its padding

# For each seat's menu, the options whose text is wider than the menu shows, measured in the menu's font.
CUT_OPTIONS = """(arrow) => {
    const canvas = document.createElement("canvas").getContext("2d");
    const cut = [];
    for (const select of document.querySelectorAll("#seats select")) {
        const style = getComputedStyle(select);
        canvas.font = style.font;
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
        for (const option of select.options) {
            if (canvas.measureText(option.textContent).width > room) cut.push(`${select.id}: ${option.textContent}`);
        }
    }
    return cut;
}"""


def open_lobby(page: Page, language: str) -> None:
    page.evaluate(f"localStorage.setItem('whist-lang', '{language}')")
    page.reload()
    expect(page.locator("#seats select")).to_have_count(4)
    expect(page.locator("#seat-3 option[value='bot:expert']")).to_contain_text(re.compile(r"\d"))  # the ratings are in


def top(page: Page, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box, selector
    return float(box["y"])


def every_seat_reads_whole_with_the_levels_by_strength(page: Page) -> None:
    for game in ("israeli", "classic", "whistiti"):
        page.select_option("#game", game)
        expect(page.locator("#seat-0")).to_be_visible()
        assert page.evaluate(CUT_OPTIONS, ARROW_PX) == [], game
        levels = page.locator("#seat-1 option").evaluate_all("options => options.map((o) => o.value)")
        assert levels == ["me", "human", *(f"bot:{level}" for level in BY_STRENGTH)]


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_a_signed_out_visitor_sees_a_guests_name_first_and_the_seats_whole(browser: Browser, server: RunningServer,
                                                                          viewport: str) -> None:
    width, height, language = VIEWPORTS[viewport]
    with browser_page(browser, server, width=width, height=height) as (_, page):
        open_lobby(page, language)
        every_seat_reads_whole_with_the_levels_by_strength(page)
        page.select_option("#game", "israeli")
        assert top(page, "#signin") < top(page, "#create") < top(page, "#tables-panel")
        assert top(page, "#guest-button") < height  # a guest's name, on the first screen
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{viewport}-lobby-signed-out.png"), full_page=True)
        if width < 700:  # folded on a phone: one tap opens it
            expect(page.locator("#login")).to_be_hidden()
            assert top(page, "#create") < height
            page.locator("#account-box summary").click()
        expect(page.locator("#login")).to_be_visible()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_a_guest_with_a_name_sees_the_tables_form_first(browser: Browser, server: RunningServer,
                                                        viewport: str) -> None:
    width, height, language = VIEWPORTS[viewport]
    with browser_page(browser, server, width=width, height=height) as (_, page):
        assert page.request.post(server.url + "/api/guest", data={"name": "Ann"}).ok
        open_lobby(page, language)
        expect(page.get_by_test_id("user-name")).to_have_text("Ann")
        assert top(page, "#create") < top(page, "#signin") < top(page, "#tables-panel")
        assert top(page, "#create") < height / 4  # the form starts at the top of the first screen
        expect(page.locator("#signed-out")).to_be_hidden()
        every_seat_reads_whole_with_the_levels_by_strength(page)
        page.select_option("#game", "israeli")
        create_bottom = top(page, "#create-button")
        signin_box = page.locator("#signin").bounding_box()
        claim_box = page.locator("#claim").bounding_box()  # a guest's folded "keep your games" line
        assert signin_box and claim_box
        # one line (two on a phone) under the form, and the guest's fold
        assert signin_box["height"] - claim_box["height"] < 140, (signin_box, claim_box)
        assert create_bottom < top(page, "#signin")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{viewport}-lobby.png"), full_page=True)
        # Signed out again: the sign-in comes back first.
        page.locator("#logout-button").click()
        expect(page.locator("#signed-out")).to_be_visible()
        assert top(page, "#signin") < top(page, "#create")
