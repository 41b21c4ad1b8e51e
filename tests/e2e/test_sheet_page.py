"""The score sheet page (/sheet, /sheet/{id}) in Chromium: start a sheet, enter hands through the
form, see the points the server computed, fix a slip, take a hand back, come back to it later;
on a phone and a desktop, in English and in Hebrew (right to left)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def open_page(browser: Browser, url: str, viewport: dict[str, int], locale: str = "en-US") -> Page:
    context = browser.new_context(viewport=viewport, locale=locale)  # type: ignore[arg-type]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Refused entries answer 4xx on purpose; a script error or a broken server is what must not happen.
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    page.goto(url)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def fits(page: Page) -> bool:
    """Nothing sticks out sideways (a phone would scroll the whole page left and right)."""
    width: bool = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    return width


def create_sheet(page: Page, game: str, names: list[str], scorer: str | None = "Scorer", *,
                 preset: str | None = None, players: int | None = None) -> None:
    page.get_by_test_id("game").select_option(game)
    if preset is not None:
        page.get_by_test_id("preset").select_option(preset)
    if players is not None:
        page.get_by_test_id("opt-players").select_option(str(players))
    if scorer is not None:
        page.get_by_test_id("scorer-name").fill(scorer)
    for seat, name in enumerate(names):
        page.get_by_test_id(f"player-name-{seat}").fill(name)
    page.get_by_test_id("create-sheet").click()
    page.wait_for_url("**/sheet/*")
    expect(page.get_by_test_id("hand-form")).to_be_visible()


def enter_israeli(page: Page, declarer: int, level: int, strain: str, contracts: list[int], tricks: list[int],
                  revokes: list[int] | None = None) -> None:
    page.get_by_test_id("declarer").select_option(str(declarer))
    page.get_by_test_id("strain").select_option(strain)
    page.get_by_test_id("level").select_option(str(level))
    for seat, (contract, taken) in enumerate(zip(contracts, tricks, strict=True)):
        page.get_by_test_id(f"contract-{seat}").fill(str(contract))
        page.get_by_test_id(f"tricks-{seat}").fill(str(taken))
        page.get_by_test_id(f"revoke-{seat}").select_option(str((revokes or [0] * 4)[seat]))
    page.get_by_test_id("add-hand").click()


def test_an_israeli_sheet_on_a_phone(server: Any, browser: Browser) -> None:
    page = open_page(browser, server.url + "/sheet", PHONE)
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    expect(page.get_by_test_id("no-sheets")).to_be_visible()
    create_sheet(page, "israeli", ["Ann", "Ben", "Dan", "Eve"])
    expect(page.get_by_test_id("hand-heading")).to_contain_text("Hand 1")
    expect(page.get_by_test_id("hand-heading")).to_contain_text("Dealer: Ann")

    # Ben wins the auction with 5 spades; the contracts add up to 12 (under); Eve revokes once.
    enter_israeli(page, 1, 5, "S", [3, 5, 0, 4], [3, 6, 0, 4], revokes=[0, 0, 0, 1])
    expect(page.get_by_test_id("hand-row-1")).to_be_visible()
    expect(page.get_by_test_id("points-1-0")).to_contain_text("+19")
    expect(page.get_by_test_id("points-1-1")).to_contain_text("−10")
    expect(page.get_by_test_id("points-1-2")).to_contain_text("+50")
    expect(page.get_by_test_id("points-1-3")).to_contain_text("−74")
    expect(page.get_by_test_id("bid-1")).to_have_text("5♠")
    expect(page.get_by_test_id("total-3")).to_have_text("−74")
    expect(page.get_by_test_id("hand-heading")).to_contain_text("Dealer: Ben")
    assert fits(page)

    # A slip: the contracts add up to 13. The page says who bids last; nothing is stored.
    enter_israeli(page, 2, 6, "H", [3, 4, 6, 0], [3, 4, 6, 0])
    expect(page.get_by_test_id("hand-error")).to_have_text(
        "The contracts add up to 13, the number of tricks: the last bidder, Ben, must bid something else.")
    expect(page.get_by_test_id("hand-row-2")).to_have_count(0)
    page.get_by_test_id("contract-1").fill("5")
    page.get_by_test_id("tricks-1").fill("4")
    page.get_by_test_id("add-hand").click()
    expect(page.get_by_test_id("points-2-2")).to_contain_text("+46")
    expect(page.get_by_test_id("hand-error")).to_be_hidden()

    # Everything is stored: the sheet comes back after a reload.
    page.reload()
    expect(page.get_by_test_id("points-2-1")).to_contain_text("−10")
    expect(page.get_by_test_id("total-0")).to_have_text("+38")

    # Taking back a hand needs two taps, and puts its entry back in the form to be corrected.
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("undo")).to_have_text("Tap again to take back hand 2")
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("hand-row-2")).to_have_count(0)
    expect(page.get_by_test_id("contract-2")).to_have_value("6")
    expect(page.get_by_test_id("declarer")).to_have_value("2")
    expect(page.get_by_test_id("total-0")).to_have_text("+19")

    # The sheet is listed on /sheet, for coming back to it later.
    page.get_by_test_id("sheets-link").click()
    expect(page.get_by_test_id("sheet-item")).to_have_count(1)
    expect(page.get_by_test_id("sheet-item")).to_contain_text("Ann, Ben, Dan, Eve · 1 of 12 hands")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_sheet_in_hebrew_is_right_to_left(server: Any, browser: Browser) -> None:
    page = open_page(browser, server.url + "/sheet", PHONE, locale="he-IL")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "he")
    expect(page.get_by_test_id("create-sheet")).to_have_text("פתיחת הדף")
    create_sheet(page, "israeli", ["אנה", "בני", "דנה", "עידו"])
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.get_by_test_id("hand-heading")).to_contain_text("יד 1")
    page.get_by_test_id("all-passed").check()
    page.get_by_test_id("add-hand").click()
    expect(page.get_by_test_id("hand-row-1")).to_contain_text("כולם אמרו פאס")
    expect(page.get_by_test_id("hand-heading")).to_contain_text("מחלק: אנה")  # the same dealer deals again
    page.get_by_test_id("all-passed").uncheck()
    enter_israeli(page, 0, 7, "NT", [7, 0, 4, 3], [5, 1, 4, 3])
    expect(page.get_by_test_id("points-2-0")).to_contain_text("−20")
    expect(page.get_by_test_id("points-2-1")).to_contain_text("−50")
    # Signed numbers stay left to right inside the Hebrew page.
    expect(page.get_by_test_id("total-2")).to_have_attribute("dir", "ltr")
    expect(page.get_by_test_id("total-2")).to_have_text("+26")
    # A slip is explained in Hebrew.
    enter_israeli(page, 1, 5, "C", [3, 5, 0, 4], [3, 6, 0, 3])
    expect(page.get_by_test_id("hand-error")).to_have_text("סכום הלקיחות הוא 12, אבל ביד יש 13.")
    # Switching to English redraws the page left to right and keeps what was typed.
    page.get_by_test_id("lang-en").click()
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    expect(page.get_by_test_id("hand-heading")).to_contain_text("Hand 3")
    assert fits(page)
    assert not page.errors  # type: ignore[attr-defined]


def test_classic_and_whistiti_sheets_on_a_desktop(server: Any, browser: Browser) -> None:
    page = open_page(browser, server.url + "/sheet", DESKTOP)
    create_sheet(page, "classic", ["Ann", "Ben", "Dan", "Eve"], preset="honours")
    expect(page.get_by_test_id("sheet-rules")).to_contain_text("Honours: yes")
    page.get_by_test_id("side-tricks-0").fill("8")
    expect(page.get_by_test_id("side-tricks-1")).to_have_value("5")  # the rest of the 13 tricks
    page.get_by_test_id("honours").select_option("1")  # side B held three honours
    page.get_by_test_id("add-hand").click()
    expect(page.get_by_test_id("points-1-0")).to_contain_text("+2")
    expect(page.get_by_test_id("points-1-1")).to_contain_text("+2")
    expect(page.get_by_test_id("total-1")).to_have_text("+2")

    page.goto(server.url + "/sheet")
    create_sheet(page, "whistiti", ["Ann", "Ben", "Dan"], scorer=None, players=3)  # signed in already
    expect(page.get_by_test_id("hand-heading")).to_contain_text("1 card each")
    for seat, (bid, taken) in enumerate([(1, 1), (1, 0), (0, 0)]):
        page.get_by_test_id(f"contract-{seat}").fill(str(bid))
        page.get_by_test_id(f"tricks-{seat}").fill(str(taken))
    page.get_by_test_id("add-hand").click()
    expect(page.get_by_test_id("points-1-0")).to_contain_text("+15")
    expect(page.get_by_test_id("points-1-1")).to_contain_text("−5")
    expect(page.get_by_test_id("points-1-2")).to_contain_text("+10")
    expect(page.get_by_test_id("hand-heading")).to_contain_text("2 cards each")
    page.get_by_test_id("sheets-link").click()
    expect(page.get_by_test_id("sheet-item")).to_have_count(2)
    assert not page.errors  # type: ignore[attr-defined]


def test_three_players_without_clubs_offer_no_clubs_trump(server: Any, browser: Browser) -> None:
    page = open_page(browser, server.url + "/sheet", DESKTOP)
    create_sheet(page, "israeli", ["Ann", "Ben", "Dan"], preset="three_no_clubs")
    strains: list[str] = page.get_by_test_id("strain").locator("option").evaluate_all("els => els.map(e => e.value)")
    assert strains == ["D", "H", "S", "NT"]
    enter_israeli(page, 0, 5, "D", [5, 4, 2], [5, 4, 4], revokes=[0, 0, 0])
    expect(page.get_by_test_id("bid-1")).to_have_text("5♦")
    assert not page.errors  # type: ignore[attr-defined]
