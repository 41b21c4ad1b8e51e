"""Every house rule in the browser: the lobby's options (the common ones and the "advanced" fold,
made from GET /api/rules) create a table that shows its rules in force, and the score sheet page
offers the same options ("no Frisch", "no raise")."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

TIMEOUT_MS = 15_000


def lobby(browser: Browser, server: Any, name: str = "Ann", locale: str = "en-US") -> tuple[Page, list[str]]:
    context = browser.new_context(locale=locale, viewport={"width": 1000, "height": 800})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/")
    assert page.request.post(server.url + "/api/guest", data={"name": name}).ok
    page.reload()
    expect(page.get_by_test_id("user-name")).to_have_text(name, timeout=TIMEOUT_MS)
    return page, errors


def seat_count(page: Page) -> int:
    count: int = page.locator("#seats select").count()
    return count


def test_the_advanced_fold_creates_a_table_that_shows_its_house_rules(server: Any, browser: Browser) -> None:
    page, errors = lobby(browser, server)
    fold = page.get_by_test_id("rules-advanced")
    expect(fold.locator("#opt-frisch_rounds")).to_be_hidden()  # folded until asked for
    # A preset fills the fold with its values.
    page.select_option("#preset", "achim")
    page.locator("[data-testid=rules-advanced] > summary").click()
    expect(page.locator("#opt-zero_scoring")).to_have_value("achim")
    expect(page.locator("#opt-nt_minimum")).to_have_value("7")
    # One option of each kind changed: a number list, a choice, a checkbox; and the common hands.
    page.select_option("#opt-frisch_rounds", "0")
    page.select_option("#opt-frisch_direction", "right")
    page.check("#opt-high_contract_first_undertrick")
    page.fill("#opt-hands", "2")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/table/"), timeout=TIMEOUT_MS)
    house = page.get_by_test_id("house-rules")
    for words in ("Zero-bid scoring: Achim", "Frisch rounds: 0", "Frisch direction: To the right",
                  "The 15-point rule: yes", "Hands in the game: 2"):
        expect(house).to_contain_text(words, timeout=TIMEOUT_MS)
    table_id = page.url.rsplit("/", 1)[-1]
    info = page.request.get(f"{server.url}/api/tables/{table_id}").json()
    assert info["preset"] == "achim"
    assert info["house_rules"] == {"zero_scoring": "achim", "frisch_rounds": 0, "frisch_direction": "right",
                                   "high_contract_first_undertrick": True, "hands": 2}
    # The same rules in the players' words.
    page.get_by_test_id("lang-he").click()
    expect(house).to_contain_text("חוקי הבית")
    expect(house).to_contain_text("סבבי פריש: 0")
    expect(house).to_contain_text("כלל ה־15: כן")
    assert not errors, errors


def test_the_options_decide_the_seats(server: Any, browser: Browser) -> None:
    page, errors = lobby(browser, server)
    assert seat_count(page) == 4
    page.select_option("#opt-form", "three_random_card")
    expect(page.locator("#seats select")).to_have_count(3)
    page.select_option("#preset", "pagat")  # a preset of four players puts the form back
    expect(page.locator("#seats select")).to_have_count(4)
    expect(page.locator("#opt-auction_end")).to_be_attached()
    assert page.locator("#opt-auction_end").input_value() == "four_passes"
    # Whistiti: the number of players, and a schedule of its own typed after "other".
    page.select_option("#game", "whistiti")
    page.select_option("#opt-players", "5")
    expect(page.locator("#seats select")).to_have_count(5)
    page.select_option("#opt-schedule-pick", label="Other…")
    page.fill("#opt-schedule", "3,1")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/table/"), timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("house-rules")).to_contain_text("Players: 5")
    expect(page.get_by_test_id("house-rules")).to_contain_text("Cards per hand: 3,1")
    table_id = page.url.rsplit("/", 1)[-1]
    info = page.request.get(f"{server.url}/api/tables/{table_id}").json()
    assert info["house_rules"] == {"players": 5, "schedule": "3,1"} and info["hands_total"] == 2
    assert not errors, errors


def test_a_table_of_standard_rules_says_so(server: Any, browser: Browser) -> None:
    page, errors = lobby(browser, server)
    page.select_option("#game", "classic")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/table/"), timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("house-rules")).to_have_text("House rules: the standard rules")
    assert not errors, errors


def new_sheet(browser: Browser, server: Any, choose: Any) -> Page:
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server.url + "/sheet")
    page.get_by_test_id("scorer-name").fill("Ann")
    choose(page)
    for seat, name in enumerate(["Ann", "Ben", "Dan", "Eve"]):
        page.get_by_test_id(f"player-name-{seat}").fill(name)
    page.get_by_test_id("create-sheet").click()
    page.wait_for_url("**/sheet/*")
    expect(page.get_by_test_id("hand-form")).to_be_visible()
    return page


def test_a_sheet_without_frisch_and_one_without_the_raise(server: Any, browser: Browser) -> None:
    def no_frisch(page: Page) -> None:
        page.locator("[data-testid=rules-advanced] > summary").click()
        page.select_option("#opt-frisch_rounds", "0")

    page = new_sheet(browser, server, no_frisch)
    expect(page.get_by_test_id("sheet-rules")).to_contain_text("Frisch rounds: 0")
    expect(page.get_by_test_id("frisch")).to_have_count(0)  # no Frisch to enter

    def no_raise(page: Page) -> None:
        page.locator("[data-testid=rules-advanced] > summary").click()
        page.uncheck("#opt-frisch_raises_minimum")

    page = new_sheet(browser, server, no_raise)
    expect(page.get_by_test_id("sheet-rules")).to_contain_text("Each Frisch raises the minimum bid: no")
    page.get_by_test_id("declarer").select_option("0")
    page.get_by_test_id("strain").select_option("H")
    page.get_by_test_id("frisch").select_option("2")
    levels = page.get_by_test_id("level").locator("option").evaluate_all("els => els.map(e => e.value)")
    assert levels[:2] == ["5", "6"]  # after two Frisches the lowest bid is still 5
    sheet_id = page.url.rsplit("/", 1)[-1]
    sheet = page.request.get(f"{server.url}/api/sheets/{sheet_id}").json()
    assert sheet["options"] == {"frisch_raises_minimum": False}
