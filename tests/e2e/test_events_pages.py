"""Duplicate events in a real browser (issue 46's Done-when): a player on a phone in Hebrew
(375x812) comes to the events page with no session, gives a name, plays a board of the daily
event to its end at the table against the event's bots, is offered the board's results rather
than "Play again", and sees them against the field: two lines, because a second player (Ben)
played that board first through the API and the table's WebSocket. Before that, the board's
results page showed neither the cards nor Ben's line, only "Play this board first". The
leaderboard ranks them against the field, provisional after one board; a board's results page left
open shows a third player's line once it is looked at again.

Screenshots, for a person to look at, go to ``test-artifacts/screenshots/`` (git-ignored):
``phone-he-events*.png`` and ``laptop-en-events*.png`` (the events page, an event, a board's
results, the table at the board's end), ``phone-he-leaderboard-field.png`` and
``laptop-en-leaderboard-field.png`` (the ranking against the field); axe-core checks each page shown."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

import httpx2
import pytest
from bench_kit import load_bench
from e2e_kit import TIMEOUT_MS, RunningServer, browser_page
from playwright.sync_api import Browser, BrowserContext, Page, expect
from server_kit import COOKIE, connect_real
from table_seats import SCREENSHOTS, guest_cookie, others_act
from test_browser_play import game_over, play_until

from israeli_whist.server.eventscores import RANKING_SECONDS

pytestmark = pytest.mark.usefixtures("same_utc_day")  # the daily event: conftest.same_utc_day

tour_kit = load_bench("page_tour")
BOARD_SECONDS = 60.0
BARE_KEY = re.compile(r"\b(?:events?|results|eventlink)\.[a-z_]+")  # a word missing from the catalogue


@pytest.fixture(autouse=True)
def patient_expect() -> Iterator[None]:
    expect.set_options(timeout=TIMEOUT_MS)
    yield
    expect.set_options(timeout=None)


def shoot(page: Page, name: str) -> None:
    """The page whole, as a player scrolls through it; and axe-core finds nothing wrong with it."""
    page.evaluate("window.scrollTo(0, 0)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    results = tour_kit.axe_results(page)
    assert results["passes"], "axe checked nothing"
    assert not results["violations"], (name, [tour_kit.describe(v) for v in results["violations"]])
    width: int = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= page.evaluate("innerWidth"), (name, width, "wider than the screen")


def phone(browser: Browser, server: RunningServer) -> AbstractContextManager[tuple[BrowserContext, Page]]:
    return browser_page(browser, server, locale="he-IL", width=375, height=812)


def laptop(browser: Browser, server: RunningServer) -> AbstractContextManager[tuple[BrowserContext, Page]]:
    return browser_page(browser, server, locale="en-US", width=1280, height=800)


def drawn(page: Page) -> None:
    expect(page.locator("main")).not_to_have_attribute("aria-busy", "true")


def api(base_url: str, cookie: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    response = httpx2.request(method, base_url + path, json=body, cookies={COOKIE: cookie},
                              headers={"X-Whist-Request": "1", "Origin": base_url})
    assert response.status_code in (200, 201), (path, response.status_code, response.text)
    return response.json()


def ranked_rows(page: Page, base_url: str, count: int) -> None:
    """The leaderboard's ranking against the field shows ``count`` players: it is worked out at most
    every 10 s (eventscores.RANKING_SECONDS), so the page is opened again until it does."""
    deadline = time.monotonic() + RANKING_SECONDS + 10
    while True:
        page.goto(base_url + "/leaderboard")
        drawn(page)
        if page.get_by_test_id("field-rows").locator("tbody tr").count() == count or time.monotonic() > deadline:
            break
        time.sleep(1)
    expect(page.get_by_test_id("field-rows").locator("tbody tr")).to_have_count(count)


def play_board_by_socket(base_url: str, cookie: str, event_id: str, number: int) -> None:
    """A player's board played to its end over the table's WebSocket: pass in every auction, then
    the first legal card (the bots play the other seats)."""
    seat = api(base_url, cookie, "POST", f"/api/events/{event_id}/boards/{number}/play", {"invite": None})
    with connect_real(base_url, cookie, seat["table"]) as conn:
        while not conn.state["score"]["over"]:
            if not others_act([conn]):
                conn.quiet(0.05)


def test_a_player_on_a_phone_in_hebrew_plays_the_daily_event_and_sees_the_field(
        browser: Browser, server: RunningServer) -> None:
    ben = guest_cookie(server.url, "Ben")
    daily = api(server.url, ben, "GET", "/api/events/daily")
    play_board_by_socket(server.url, ben, daily["id"], 1)

    with phone(browser, server) as (_, noa):
        # No session yet: a name is enough to play, as at a table.
        noa.goto(server.url + "/events")
        drawn(noa)
        expect(noa.get_by_test_id("guest")).to_be_visible()
        noa.get_by_test_id("play-1").click()  # too soon: the page asks for the name first
        expect(noa.get_by_test_id("error")).to_contain_text("קודם צריך להיכנס")
        expect(noa.locator("#guest-name")).to_be_focused()
        noa.locator("#guest-name").fill("נועה")
        noa.locator("#guest-form button[type=submit]").click()
        expect(noa.get_by_test_id("guest")).to_be_hidden()
        daily_panel = noa.get_by_test_id("daily")
        expect(daily_panel.locator(".event-board")).to_have_count(daily["boards"])
        expect(daily_panel).to_contain_text("האירוע היומי")
        shoot(noa, "phone-he-events")

        # The board's results are not shown before it is played: no cards, no lines, a Play button.
        noa.goto(f"{server.url}/event/{daily['id']}/board/1")
        drawn(noa)
        expect(noa.get_by_test_id("unplayed")).to_be_visible()
        expect(noa.get_by_test_id("result-line")).to_have_count(0)
        expect(noa.locator(".card-face")).to_have_count(0)
        assert "Ben" not in noa.locator("main").inner_text()
        shoot(noa, "phone-he-events-board-unplayed")

        # Play board 1 at the table, to its end.
        noa.get_by_test_id("play-1").click()
        noa.wait_for_url(re.compile(r"/table/[\w-]+$"))
        expect(noa.locator("#table")).to_have_attribute("data-you", "0")
        expect(noa.get_by_test_id("event-board-link")).to_have_text("לוח 1 באירוע")
        # Alone against bots: no talk box, and no button to open one (nobody to talk to).
        expect(noa.locator("#chat")).to_be_hidden()
        expect(noa.get_by_test_id("chat-toggle")).to_be_hidden()
        play_until([noa], game_over([noa]), seconds=BOARD_SECONDS)
        expect(noa.get_by_test_id("event-next")).to_be_visible()
        expect(noa.get_by_test_id("play-again")).to_have_count(0)  # a board is played once
        expect(noa.get_by_test_id("invite")).to_be_hidden()  # nobody else sits at or watches a board's table
        expect(noa.get_by_test_id("event-next-board")).to_have_attribute("href", f"/event/{daily['id']}")
        noa.get_by_test_id("standings").scroll_into_view_if_needed()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        noa.screenshot(path=str(SCREENSHOTS / "phone-he-events-table-over.png"))

        # Its results against the field: Ben's line and hers, hers marked, the deal shown.
        noa.get_by_test_id("event-results").click()
        noa.wait_for_url(re.compile(rf"/event/{daily['id']}/board/1$"))
        drawn(noa)
        lines = noa.get_by_test_id("result-line")
        expect(lines).to_have_count(2)
        expect(noa.locator("tr.mine")).to_have_count(1)
        expect(noa.locator("tr.mine")).to_contain_text("נועה")
        expect(lines.filter(has_text="Ben")).to_have_count(1)
        expect(noa.get_by_test_id("field")).to_contain_text("שני שחקנים")
        expect(noa.get_by_test_id("deal").locator(".deal-hand")).to_have_count(4)
        expect(noa.get_by_test_id("deal").locator(".card-face")).to_have_count(52)
        board = noa.request.get(f"{server.url}/api/events/{daily['id']}/boards/1").json()
        shown = noa.locator("tr[data-testid=result-line] td.percent").all_inner_texts()
        assert shown == [f"{line['percent']:.1f}%" for line in board["results"]]
        hrefs = noa.get_by_test_id("replay-link").evaluate_all("links => links.map((a) => a.getAttribute('href'))")
        assert hrefs == [line["replay"] for line in board["results"]]
        shoot(noa, "phone-he-events-board")

        # The event's page: board 1 played with its percentage, the others to play; the standings.
        noa.goto(f"{server.url}/event/{daily['id']}")
        drawn(noa)
        mine = next(line for line in board["results"] if line["you"])
        expect(noa.locator(".event-board[data-board='1']")).to_have_attribute("data-status", "played")
        expect(noa.get_by_test_id("percent-1")).to_contain_text(f"{mine['percent']:.1f}%")
        expect(noa.get_by_test_id("play-2")).to_be_visible()
        expect(noa.get_by_test_id("standings").locator("tbody tr")).to_have_count(2)
        shoot(noa, "phone-he-events-event")

        # The ranking against the field, its own on the leaderboard: one board each, provisional.
        ranked_rows(noa, server.url, 2)
        ranked = noa.get_by_test_id("field-rows").locator("tbody tr")
        expect(ranked.filter(has_text="נועה")).to_have_class(re.compile(r"\bmine\b"))
        expect(noa.locator("tr.provisional")).to_have_count(2)
        expect(noa.get_by_test_id("field-ranking")).to_contain_text("זמני")
        noa.get_by_test_id("field-ranking").scroll_into_view_if_needed()
        shoot(noa, "phone-he-leaderboard-field")

    # The same pages in English on a laptop, as Ben sees them.
    with laptop(browser, server) as (context, page):
        context.add_cookies([{"name": COOKIE, "value": ben, "url": server.url}])
        for path, name in (("/events", "laptop-en-events"), (f"/event/{daily['id']}", "laptop-en-events-event"),
                           (f"/event/{daily['id']}/board/1", "laptop-en-events-board")):
            page.goto(server.url + path)
            drawn(page)
            expect(page.locator("main")).not_to_contain_text(BARE_KEY)
            shoot(page, name)
        expect(page.get_by_test_id("result-line")).to_have_count(2)
        expect(page.locator("tr.mine")).to_contain_text("Ben")
        # The results keep up with the field: Dana plays the board while Ben has its page open, and
        # the page shows her line when it is looked at again (the page also asks every 30 s).
        dana = guest_cookie(server.url, "Dana")
        play_board_by_socket(server.url, dana, daily["id"], 1)
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        expect(page.get_by_test_id("result-line")).to_have_count(3)
        expect(page.get_by_test_id("result-line").filter(has_text="Dana")).to_have_count(1)
        ranked_rows(page, server.url, 3)
        expect(page.get_by_test_id("field-ranking")).to_contain_text("provisional")
        page.get_by_test_id("field-ranking").scroll_into_view_if_needed()
        shoot(page, "laptop-en-leaderboard-field")
        page.goto(f"{server.url}/event/{daily['id']}/board/1")
        drawn(page)
        # The language switches in place: the same page, now right to left in Hebrew.
        page.get_by_test_id("lang-he").click()
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        expect(page.get_by_test_id("field")).to_contain_text("3 שחקנים")
        expect(page.locator("main")).not_to_contain_text(BARE_KEY)


def test_a_club_creates_a_private_event_and_a_friend_opens_it_by_its_invite(
        browser: Browser, server: RunningServer) -> None:
    """The form on the events page (English, a laptop): a private Whistiti event of 3 boards with
    medium bots, open for 3 days; its invite link is shown to copy, opens the event for a friend
    (and without it the friend is refused in the page's words), and the creator's own event page
    shows the link too."""
    with laptop(browser, server) as (_, dana):
        assert dana.request.post(server.url + "/api/guest", data={"name": "Dana"}).ok
        dana.goto(server.url + "/events")
        drawn(dana)
        dana.locator("#event-name").fill("Thursday club")
        dana.locator("#game").select_option("whistiti")
        expect(dana.locator("[data-field=schedule]")).to_have_count(0)  # each board sets its own hand size
        dana.locator("#boards").fill("3")
        dana.locator("#bot-level").select_option("medium")
        dana.locator("#hours").select_option("72")
        expect(dana.locator("#public")).not_to_be_checked()
        dana.get_by_test_id("create-event").locator("button[type=submit]").click()
        link = dana.get_by_test_id("event-invite-link")
        expect(link).to_have_value(re.compile(r"/event/[\w-]+\?invite=\S+$"))
        invite_url = link.input_value()
        event_id = re.search(r"/event/([\w-]+)\?", invite_url).group(1)  # type: ignore[union-attr]
        made = dana.request.get(f"{server.url}/api/events/{event_id}").json()["event"]
        assert (made["name"], made["game"], made["boards"], made["bot_level"], made["public"]) == (
            "Thursday club", "whistiti", 3, "medium", False)
        open_for = datetime.fromisoformat(made["ends_at"]) - datetime.fromisoformat(made["starts_at"])
        assert open_for.total_seconds() == pytest.approx(72 * 3600, abs=60)
        shoot(dana, "laptop-en-events-created")
        dana.get_by_test_id("created-link").click()
        drawn(dana)
        expect(dana.get_by_test_id("event-invite-link")).to_have_value(invite_url)
        expect(dana.get_by_test_id("event-boards").locator(".event-board")).to_have_count(3)

    with phone(browser, server) as (_, friend):
        assert friend.request.post(server.url + "/api/guest", data={"name": "אלי"}).ok
        friend.goto(f"{server.url}/event/{event_id}")
        drawn(friend)
        expect(friend.get_by_test_id("error")).to_contain_text("פרטי")
        expect(friend.get_by_test_id("event-boards")).to_have_count(0)
        friend.goto(invite_url)
        drawn(friend)
        expect(friend.locator("#event-name")).to_have_text("Thursday club")
        expect(friend.get_by_test_id("event-boards").locator("[data-testid^=play-]")).to_have_count(3)
        expect(friend.get_by_test_id("event-invite")).to_have_count(0)  # the link is its creator's to share
        shoot(friend, "phone-he-events-private")
        friend.get_by_test_id("play-1").click()  # the invite goes with the request to play
        friend.wait_for_url(re.compile(r"/table/[\w-]+$"))
        expect(friend.locator("#table")).to_have_attribute("data-you", "0")

        # Board 2 with a friend at one table: Dana opens it for one friend; the table's link (with its
        # invite, shown to copy) seats the friend in the next seat round the table.
        with laptop(browser, server) as (_, noa):  # the choice, in English on a laptop
            assert noa.request.post(server.url + "/api/guest", data={"name": "Noa"}).ok
            noa.goto(invite_url)
            drawn(noa)
            friends = noa.get_by_test_id("friends")
            expect(friends.locator("option")).to_have_count(4)  # the bots only, or 1 to 3 friends (4 seats)
            friends.select_option("1")
            shoot(noa, "laptop-en-events-friends")
        friend.goto(invite_url)
        drawn(friend)
        friend.get_by_test_id("friends").select_option("1")
        friend.get_by_test_id("play-2").click()
        friend.wait_for_url(re.compile(r"/table/[\w-]+\?invite=\S+$"))
        table_link = friend.url
        expect(friend.locator("#table")).to_have_attribute("data-you", "1")  # board 2: one seat round
        expect(friend.get_by_test_id("invite")).to_be_visible()
        with laptop(browser, server) as (_, gal):
            assert gal.request.post(server.url + "/api/guest", data={"name": "Gal"}).ok
            gal.goto(table_link)
            gal.get_by_test_id("join-seat-2").click()
            expect(gal.locator("#table")).to_have_attribute("data-you", "2")
            expect(gal.locator("#chat")).to_be_visible()  # friends at one board talk (the seated only)
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            gal.screenshot(path=str(SCREENSHOTS / "laptop-en-events-friends-table.png"))
