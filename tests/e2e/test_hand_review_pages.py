""""Where did my points go?" under the table's hand summary (issue 45): the player asks for the
review of the hand that is over, sees its progress, then their score beside the expert's par,
what their decisions cost and the rest, the other seats with their score and par only; once the
game is over a link opens the replay's review at that hand. Screenshots at 375x812 in Hebrew and
1280x800 in English (``test-artifacts/screenshots/<viewport>-hand-review.png``), and axe-core's check.

The hand's review is the server's (docs/server-protocol.md, "Where your points went, during the
game"), answered here by a route with the engine's review of the real hand, as the seat's player sees it."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from bench_kit import load_bench
from e2e_kit import browser_page
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect
from review_kit import game_review
from test_review_pages import axe_clean, plain

from israeli_whist.server.api_reviews import for_seat
from israeli_whist.server.sessions import COOKIE

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
VIEWPORTS = {"phone-he": (375, 812, "he"), "laptop-en": (1280, 800, "en")}
WORDS = {"en": ("Where did my points go?", "Reviewing the hand", "The whole game's review"),
         "he": ("לאן הלכו הנקודות שלי?", "סוקרים את היד", "סקירת המשחק כולו")}
tour_kit = load_bench("page_tour")


def play_a_hand(server: Any, context: BrowserContext, page: Page) -> str:
    """Ann's one-hand game against three bots, played to its end with the table page open (its
    summary shown): the table's id."""
    assert page.request.post(server.url + "/api/guest", data={"name": "Ann"}).ok
    made = page.request.post(server.url + "/api/tables", data={
        "game": "israeli", "options": {"hands": 1}, "seats": [{"kind": "human"}, *tour_kit.BOTS], "take_seat": 0})
    table_id: str = made.json()["id"]
    page.goto(f"{server.url}/table/{table_id}")
    expect(page.locator("#table")).to_have_attribute("data-phase", "auction")
    cookie = next(c["value"] for c in context.cookies() if c["name"] == COOKIE)
    tour_kit.play_until(server.url, cookie, table_id, lambda state: state["score"]["over"], random.Random(1))
    return table_id


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_where_did_my_points_go(server: Any, browser: Browser, viewport: str) -> None:
    width, height, language = VIEWPORTS[viewport]
    ask, progress, replay_link = WORDS[language]
    with browser_page(browser, server, width=width, height=height) as (context, page):
        page.evaluate(f"localStorage.setItem('whist-lang', '{language}')")
        table_id = play_a_hand(server, context, page)
        summary = page.get_by_test_id("hand-summary")
        start = summary.get_by_test_id("hand-review-start")
        expect(start).to_have_text(ask)
        record = page.request.get(f"{server.url}/api/games/{table_id}/record").json()
        review = for_seat(game_review(record), 0)  # as the server's route cuts it
        asked: list[str] = []

        def answer(route: Route) -> None:
            asked.append(route.request.method)
            if route.request.method == "POST":
                route.fulfill(json={"state": "running", "done": 0, "total": 1, "review": None})
            else:
                route.fulfill(json={"state": "done", "done": 1, "total": 1, "review": review})

        page.route(f"**/api/tables/{table_id}/hands/1/review", answer)
        start.click()
        box = summary.get_by_test_id("hand-review")
        expect(box).to_contain_text(progress)
        mine = box.get_by_test_id("review-points-0")
        expect(mine).to_be_visible()
        assert asked == ["POST", "GET"]
        seat = review["hands"][0]["seats"][0]
        assert plain(mine.locator("td").first) == str(seat["score"])
        for other in (1, 2, 3):  # their decisions are theirs: score and par only
            cells = [plain(box.get_by_test_id(f"review-points-{other}").locator("td").nth(i)) for i in range(4)]
            assert cells[0] == str(review["hands"][0]["seats"][other]["score"]) and cells[2:] == ["—", "—"]
        link = box.get_by_role("link", name=replay_link)
        expect(link).to_have_attribute("href", f"/replay/{table_id}#hand=1&step=0&review")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{viewport}-hand-review.png"), full_page=True)
        axe_clean(page)

        # The replay's review, at that hand: the game's review asked for (POST), the points in view.
        game = {"state": "done", "done": 1, "total": 1, "review": game_review(record)}
        methods: list[str] = []

        def game_answer(route: Route) -> None:
            methods.append(route.request.method)
            route.fulfill(json=game)

        page.route("**/api/history/*/review*", game_answer)
        link.click()
        points = page.get_by_test_id("review-points")
        expect(points).to_be_in_viewport()
        assert methods == ["POST"]
        expect(page).not_to_have_url(f"{server.url}/replay/{table_id}#hand=1&step=0&review")


def test_the_servers_hand_review_is_asked_for(server: Any, browser: Browser) -> None:
    """The summary's button on the server's own route for a hand's review: the seat's player starts
    it and sees its progress."""
    with browser_page(browser, server, width=1280, height=800) as (context, page):
        page.evaluate("localStorage.setItem('whist-lang', 'en')")
        table_id = play_a_hand(server, context, page)
        summary = page.get_by_test_id("hand-summary")
        with page.expect_response(f"**/api/tables/{table_id}/hands/1/review") as started:
            summary.get_by_test_id("hand-review-start").click()
        assert started.value.request.method == "POST" and started.value.json()["total"] == 1
        expect(summary.get_by_test_id("hand-review")).to_contain_text(
            re.compile("The review waits for a free worker|Reviewing the hand"))
