"""Whole games in a real browser: the lobby, the table page and its WebSocket, against ``whist serve``.

Every move is a click on the page. Each page plays a simple policy: pass in the first trump
auction (so that a Frisch is played when nobody bids); after a Frisch, bid the lowest bid if no
bid stands, else pass; then the lowest contract, and the first legal card.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from e2e_kit import TIMEOUT_MS, RunningServer, browser_page
from playwright.sync_api import Browser, Page, expect
from table_seats import frisch_step

GAME_SECONDS = 90.0
HEBREW = re.compile(r"[\u0590-\u05FF]")
SUIT_ORDER = [3, 2, 0, 1]  # the page sorts spades, hearts, clubs, diamonds
ENABLED_CARD = "#hand .card:not([disabled])"


@pytest.fixture(autouse=True)
def patient_expect() -> Iterator[None]:
    """A loaded two-core machine can take more than ``expect``'s default 5 s."""
    expect.set_options(timeout=TIMEOUT_MS)
    yield
    expect.set_options(timeout=None)


def sign_in_as_guest(page: Page, server: RunningServer, name: str) -> None:
    """Set-up through the API (the page's own cookies), where signing in is not what a test checks."""
    response = page.request.post(server.url + "/api/guest", data={"name": name})
    assert response.ok, response.text()


def create_table(page: Page, server: RunningServer, seats: Sequence[str], hands: int = 1, public: bool = True) -> str:
    """An Israeli Whist table whose creator sits in seat 0; ``seats`` for the others: human, random, basic."""
    kinds = [{"kind": "human"}] + [{"kind": "human"} if s == "human" else {"kind": "bot", "level": s} for s in seats]
    response = page.request.post(server.url + "/api/tables", data={
        "game": "israeli", "options": {"hands": hands}, "seats": kinds, "take_seat": 0, "public": public})
    assert response.status == 201, response.text()
    table_id: str = response.json()["id"]
    return table_id


def table_data(page: Page) -> dict[str, str]:
    """The data attributes the table page keeps on <main id="table">: phase, myTurn, over..."""
    data: dict[str, str] = page.evaluate("() => ({...document.getElementById('table').dataset})")
    return data


def card_suits(page: Page, selector: str) -> list[int]:
    cards: list[str] = page.locator(selector).evaluate_all("els => els.map(e => e.dataset.card)")
    return [int(card) // 13 for card in cards]


FOLLOW_SUIT_FACTS = """(enabled) => {
  const suits = (selector) => [...document.querySelectorAll(selector)].map((e) => Math.floor(e.dataset.card / 13));
  const lead = document.querySelector("#trick:not(.previous) .played .card-face");
  return {lead: lead ? Math.floor(lead.dataset.card / 13) : -1, held: suits("#hand .card"), enabled: suits(enabled)};
}"""


def check_follow_suit(page: Page) -> None:
    """Only legal cards are clickable: with a suit led and held, every enabled card is of that suit."""
    facts: dict[str, Any] = page.evaluate(FOLLOW_SUIT_FACTS, ENABLED_CARD)
    assert facts["enabled"], facts
    if facts["lead"] in facts["held"]:
        assert set(facts["enabled"]) == {facts["lead"]}, facts


def take_turn(page: Page, data: dict[str, str] | None = None) -> bool:
    """Click one legal button if it is this page's turn (as ``data`` read it); True if it did."""
    data = table_data(page) if data is None else data
    if data.get("myTurn") != "true" or data.get("pending") == "true":
        return False
    phase = data["phase"]
    if phase == "auction":
        bid = data["frischRound"] != "0" and not data["highBid"]
        page.locator("#actions [data-kind=bid]" if bid else "#actions [data-name=pass]").first.click()
    elif phase == "contract":
        page.locator("#actions [data-kind=contract]").first.click()
    elif phase == "frisch":  # three cards picked, then the pass confirmed
        frisch_step(page)
    else:
        check_follow_suit(page)
        page.locator(ENABLED_CARD).first.click()
    return True


def play_until(pages: Sequence[Page], done: Callable[[], bool], seconds: float = GAME_SECONDS) -> int:
    """Each page acts when it is its turn, until ``done``; returns the number of clicks."""
    deadline = time.monotonic() + seconds
    clicks = 0
    while not done():
        assert time.monotonic() < deadline, [table_data(p) for p in pages]
        acted = [take_turn(page) for page in pages]
        clicks += sum(acted)
        if not any(acted):
            time.sleep(0.03)
    return clicks


def game_over(pages: Sequence[Page]) -> Callable[[], bool]:
    return lambda: all(table_data(page).get("over") == "true" for page in pages)


def check_hand_summary(page: Page, players: int = 4) -> None:
    """The end-of-hand summary: every seat's contract, tricks and points, and all the cards dealt."""
    summary = page.get_by_test_id("hand-summary")
    expect(summary).to_be_visible()
    expect(summary.locator("tr[data-seat]")).to_have_count(players)
    dealt = summary.locator(".dealt").all_inner_texts()
    ranks = [[token for token in re.split(r"\s+", text) if token and token not in "♣♦♥♠"] for text in dealt]
    assert [len(r) for r in ranks] == [52 // players] * players, dealt
    standings = page.get_by_test_id("standings")
    expect(standings).to_be_visible()
    expect(standings.locator("li")).to_have_count(players)
    expect(page.locator("#score tbody tr")).to_have_count(1)


def scroll_width(page: Page) -> int:
    width: int = page.evaluate("document.scrollingElement.scrollWidth")
    return width


# 1. Four people, one hand, all through the pages -------------------------------------------------

def test_four_guests_play_a_hand_through_the_pages(browser: Browser, server: RunningServer) -> None:
    with (browser_page(browser, server) as (_, ann), browser_page(browser, server) as (_, bob),
          browser_page(browser, server) as (_, cat), browser_page(browser, server) as (_, dan)):
        # Ann signs in and creates the table in the lobby: one hand, three seats open for people.
        ann.fill("#guest-name", "Ann")
        ann.click("#guest-button")
        expect(ann.get_by_test_id("user-name")).to_have_text("Ann")
        ann.fill("#opt-hands", "1")
        for seat in (1, 2, 3):
            ann.select_option(f"#seat-{seat}", "human")
        ann.click("#create-button")
        ann.wait_for_url(re.compile(r"/table/"))
        expect(ann.locator("#table")).to_have_attribute("data-you", "0")
        table_url = ann.url

        # The others open the link: a guest name first, then a free seat.
        for seat, (page, name) in enumerate([(bob, "Bob"), (cat, "Cat"), (dan, "Dan")], start=1):
            page.goto(table_url)
            expect(page.locator("#table")).to_have_attribute("data-you", "-1")
            page.fill("#guest-name", name)
            page.click("#guest-submit")
            page.get_by_test_id(f"join-seat-{seat}").click()
            expect(page.locator("#table")).to_have_attribute("data-you", str(seat))
            expect(page.get_by_test_id("join")).to_be_hidden()
        pages = [ann, bob, cat, dan]
        for page in pages:
            expect(page.locator("#hand .card")).to_have_count(13)
            suits = [SUIT_ORDER.index(s) for s in card_suits(page, "#hand .card")]
            assert suits == sorted(suits)
            for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
                expect(page.get_by_test_id(f"seat-{seat}")).to_contain_text(name)

        # Everybody passes: a Frisch, each chooses three cards; then a bid, contracts, 13 tricks.
        clicks = play_until(pages, lambda: table_data(ann)["phase"] == "frisch")
        expect(ann.get_by_test_id("status")).to_contain_text("Frisch")
        clicks += play_until(pages, lambda: table_data(ann)["phase"] == "auction")
        for page in pages:
            expect(page.get_by_test_id("frisch-info")).to_contain_text("received")
        clicks += play_until(pages, lambda: table_data(ann)["phase"] == "play")
        expect(ann.get_by_test_id("trump")).to_have_text("♣")  # 6 clubs, the lowest bid after a Frisch
        expect(ann.get_by_test_id("over-under")).to_contain_text("under")
        clicks += play_until(pages, lambda: int(table_data(ann)["tricksPlayed"]) >= 1)
        ann.get_by_test_id("last-trick-button").click()
        expect(ann.get_by_test_id("last-trick").locator(".played")).to_have_count(4)
        clicks += play_until(pages, game_over(pages))
        # Four passes, 4 x (3 Frisch cards and the pass confirmed), a bid and three passes, four
        # contracts, 52 cards: one click each.
        assert clicks == 4 + 4 * 4 + 4 + 4 + 52
        for page in pages:
            check_hand_summary(page)
            expect(page.get_by_test_id("status")).to_have_text("Game over")
        totals = [int(ann.get_by_test_id(f"total-{seat}").inner_text()) for seat in range(4)]
        points = [int(text) for text in ann.locator("#score tbody td .points").all_inner_texts()]
        assert totals == points


# 2. A reload, and a server restart, in the middle of a hand --------------------------------------

def test_reload_and_reconnect_mid_hand(browser: Browser, server: RunningServer) -> None:
    with browser_page(browser, server) as (_, page):
        sign_in_as_guest(page, server, "Eve")
        table_id = create_table(page, server, ["basic", "random", "basic"])
        page.goto(f"{server.url}/table/{table_id}")
        expect(page.locator("#table")).to_have_attribute("data-you", "0")
        expect(page.get_by_test_id("connection")).to_have_attribute("data-online", "true")

        # An action that is not legal (or not this seat's turn) is refused, and the page says so.
        # The bots play on meanwhile, so the page's version may be behind: that refusal counts too.
        page.evaluate("act(999)")
        error = page.get_by_test_id("error")
        expect(error).to_have_attribute("data-code", re.compile("not_your_turn|illegal|stale"))
        if error.get_attribute("data-code") != "stale":  # a stale reply brings the new state, which clears it
            expect(error).to_be_visible()

        play_until([page], lambda: int(table_data(page).get("tricksPlayed", "0")) >= 3)
        held = page.locator("#hand .card").count()
        page.reload()
        expect(page.locator("#table")).to_have_attribute("data-you", "0")
        assert page.locator("#hand .card").count() in (held, held - 1)  # a stand-in may have played
        connection = page.get_by_test_id("connection")
        expect(connection).to_have_attribute("data-connects", "1")

        play_until([page], lambda: int(table_data(page).get("tricksPlayed", "0")) >= 6)
        server.restart()  # the socket drops; the page reconnects by itself and asks for the state
        expect(connection).to_have_attribute("data-connects", "2", timeout=20_000)
        expect(connection).to_have_attribute("data-online", "true")
        play_until([page], game_over([page]))
        check_hand_summary(page)


# 3. The lobby's Join button; a player who leaves is played by a bot ------------------------------

def test_lobby_join_and_a_bot_for_a_player_who_left(browser: Browser, server: RunningServer) -> None:
    with browser_page(browser, server) as (_, ann):
        ann.fill("#guest-name", "Ann")
        ann.click("#guest-button")
        expect(ann.get_by_test_id("user-name")).to_have_text("Ann")
        ann.fill("#opt-hands", "1")
        ann.select_option("#seat-1", "human")
        ann.select_option("#seat-2", "bot:random")
        ann.select_option("#seat-3", "bot:basic")
        ann.click("#create-button")
        ann.wait_for_url(re.compile(r"/table/"))
        table_id = ann.url.rsplit("/", 1)[1]

        with browser_page(browser, server) as (_, bob):
            expect(bob.locator(f"[data-table='{table_id}']")).to_contain_text("Ann")
            bob.get_by_test_id(f"join-{table_id}-1").click()
            expect(bob.get_by_test_id("tables-error")).to_contain_text("Sign in first")
            bob.fill("#guest-name", "Bob")
            bob.click("#guest-button")
            expect(bob.get_by_test_id("user-name")).to_have_text("Bob")
            bob.get_by_test_id(f"join-{table_id}-1").click()
            bob.wait_for_url(re.compile(r"/table/"))
            expect(bob.locator("#table")).to_have_attribute("data-you", "1")
            expect(ann.get_by_test_id("seat-1")).to_contain_text("Bob")
            expect(ann.get_by_test_id("connected-1")).to_have_class(re.compile(r"\bon\b"))
            # Bob calls first (left of the dealer), then leaves.
            expect(bob.locator("#table")).to_have_attribute("data-my-turn", "true")
            assert take_turn(bob)
            expect(ann.get_by_test_id("seat-1")).to_contain_text("Pass")
        # Bob's page is closed: the others see it at once, and after the grace period a bot plays
        # for him and the game goes on.
        expect(ann.get_by_test_id("connected-1")).to_have_class(re.compile(r"\boff\b"))
        expect(ann.get_by_test_id("away-1")).to_be_visible()
        play_until([ann], game_over([ann]))
        check_hand_summary(ann)


# 4. Hebrew by default for a Hebrew browser, English on request ----------------------------------

def test_hebrew_lobby_is_right_to_left_and_switches_to_english(browser: Browser, server: RunningServer) -> None:
    with browser_page(browser, server, locale="he-IL") as (_, page):
        html = page.locator("html")
        expect(html).to_have_attribute("dir", "rtl")
        expect(html).to_have_attribute("lang", "he")
        for selector in ("h1", "#create-button", "#guest-button", "nav"):  # dir is set before the words load
            expect(page.locator(selector)).to_contain_text(HEBREW)
        expert = page.locator("#seat-1 option[value='bot:expert']")  # the level menu, with its rating
        expect(expert).to_contain_text(re.compile(r"מומחה.*דירוג \d+$"))
        page.get_by_test_id("lang-en").click()
        expect(html).to_have_attribute("dir", "ltr")
        expect(html).to_have_attribute("lang", "en")
        expect(expert).to_contain_text(re.compile(r"expert.*rating \d+$"))
        expect(page.locator("h1")).to_have_text("Play whist")
        assert not HEBREW.search(page.locator("main").inner_text())
        page.reload()  # the choice is remembered
        expect(html).to_have_attribute("dir", "ltr")
        page.get_by_test_id("lang-he").click()
        expect(html).to_have_attribute("dir", "rtl")


# 5. A phone: 375 px wide, no sideways scrolling, in both languages -------------------------------

def test_table_page_fits_a_phone(browser: Browser, server: RunningServer) -> None:
    with browser_page(browser, server, locale="he-IL", width=375) as (_, page):
        sign_in_as_guest(page, server, "Noa Bat-Sheva Levi-Montalcini")
        table_id = create_table(page, server, ["basic", "basic", "basic"])
        page.goto(f"{server.url}/table/{table_id}")
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        seen: set[str] = set()
        deadline = time.monotonic() + GAME_SECONDS
        while (data := table_data(page)).get("over") != "true":
            assert time.monotonic() < deadline, data
            key = data.get("phase", "connecting") + ("/mine" if data.get("myTurn") == "true" else "")
            if key not in seen:  # each screen once: the auction's call buttons, the contracts, the hand
                seen.add(key)
                assert scroll_width(page) <= 375, (key, scroll_width(page))
            if not take_turn(page, data):
                time.sleep(0.03)
        assert {"auction/mine", "contract/mine", "play/mine"} <= seen
        check_hand_summary(page)
        page.locator("#summary-close").click()  # on a phone the summary lies over the felt
        page.get_by_test_id("last-trick-button").click()
        assert scroll_width(page) <= 375
        page.get_by_test_id("lang-en").click()
        expect(page.locator("html")).to_have_attribute("dir", "ltr")
        assert scroll_width(page) <= 375
        page.goto(server.url + "/")
        assert scroll_width(page) <= 375


def test_lobby_lists_tables_with_free_seats_and_watch_links(browser: Browser, server: RunningServer) -> None:
    with browser_page(browser, server) as (_, page):
        sign_in_as_guest(page, server, "Ann")
        table_id = create_table(page, server, ["human", "basic", "human"], hands=12)
        private_id = create_table(page, server, ["basic", "basic", "basic"], public=False)
        page.reload()
        expect(page.locator(f"[data-table='{private_id}']")).to_have_count(0)  # private: not listed
        item = page.locator(f"[data-table='{table_id}']")
        expect(item).to_contain_text("Israeli Whist")
        expect(item).to_contain_text("hand 1 of 12")
        expect(item.locator("button")).to_have_count(0)  # Ann sits there already: no Join for her
        expect(page.get_by_test_id(f"watch-{table_id}")).to_have_text("Back to my seat")
        with browser_page(browser, server) as (_, guest):
            guest_item = guest.locator(f"[data-table='{table_id}']")
            expect(guest_item.locator("button")).to_have_count(2)
            guest.get_by_test_id(f"watch-{table_id}").click()
            expect(guest.locator("#table")).to_have_attribute("data-you", "-1")
            expect(guest.locator("#guest-form")).to_be_visible()
            expect(guest.locator("#hand .card")).to_have_count(0)  # a spectator sees no cards
            guest.goto(f"{server.url}/table/{private_id}")  # without its invite
            expect(guest.get_by_test_id("error")).to_contain_text("private")


# 6. Three players without the clubs: no clubs bid button ------------------------------------------

def test_three_players_without_clubs_get_no_clubs_bid_button(browser: Browser, server: RunningServer) -> None:
    with browser_page(browser, server) as (_, page):
        sign_in_as_guest(page, server, "Ann")
        response = page.request.post(server.url + "/api/tables", data={
            "game": "israeli", "preset": "three_no_clubs", "options": {"hands": 1},
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "basic"}],
            "take_seat": 0})
        assert response.status == 201, response.text()
        page.goto(f"{server.url}/table/{response.json()['id']}")
        # Seat 0 calls third, after the two bots: it always gets a call in the first auction.
        expect(page.locator("#table")).to_have_attribute("data-my-turn", "true")
        expect(page.locator("#table")).to_have_attribute("data-phase", "auction")
        bids = page.locator("#actions [data-kind=bid]")
        expect(bids.first).to_be_visible()
        names: list[str] = bids.evaluate_all("els => els.map(e => e.dataset.name)")
        assert names and not [name for name in names if name.endswith("C")], names
        # The picker shows one level at a time, its strains in order: no clubs among them.
        strains = [name.lstrip("0123456789") for name in names]
        assert strains == [s for s in ("D", "H", "S", "NT") if s in strains], names
        assert len({name.rstrip("CDHSNT") for name in names}) == 1, names
