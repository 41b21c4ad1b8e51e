"""A game's end in a real browser: two people (Ann on a laptop in English, Ben on a phone in
Hebrew) and two bots play a one-hand game to its end through the pages; the game-over panel shows
the standings, each player's contracts made, and the links to the replay, its analysis and the
lobby; Ann presses "Play again", Ben is asked and accepts, and both pages move to a new table with
the same seats and rules. Screenshots of the game-over panel and of the question, at 375x812 in
Hebrew and 1280x800 in English, go to test-artifacts/screenshots/ for a person to look at; axe-core
checks both pages there."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from bench_kit import load_bench
from e2e_kit import TIMEOUT_MS, RunningServer, browser_page
from playwright.sync_api import Browser, Page, expect
from table_seats import SCREENSHOTS
from test_browser_play import game_over, play_until, table_data

tour_kit = load_bench("page_tour")


@pytest.fixture(autouse=True)
def patient_expect() -> Iterator[None]:
    expect.set_options(timeout=TIMEOUT_MS)
    yield
    expect.set_options(timeout=None)


def shoot(page: Page, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def no_violations(page: Page) -> list[str]:
    results = tour_kit.axe_results(page)
    assert results["passes"], "axe checked nothing"
    return [tour_kit.describe(v) for v in results["violations"]]


def test_play_again_after_a_one_hand_game(browser: Browser, server: RunningServer) -> None:
    with (browser_page(browser, server, width=1280, height=800) as (_, ann),
          browser_page(browser, server, locale="he-IL", width=375, height=812) as (_, ben)):
        for page, name in ((ann, "Ann"), (ben, "Ben")):
            assert page.request.post(server.url + "/api/guest", data={"name": name}).ok
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "basic"},
                 {"kind": "bot", "level": "random"}]
        made = ann.request.post(server.url + "/api/tables", data={
            "game": "israeli", "options": {"hands": 1}, "seats": seats, "take_seat": 0, "public": False})
        assert made.status == 201, made.text()
        table_id, invite = made.json()["id"], made.json()["invite"]
        joined = ben.request.post(f"{server.url}/api/tables/{table_id}/join", data={"seat": 1, "invite": invite})
        assert joined.ok, joined.text()
        for page, seat in ((ann, 0), (ben, 1)):
            page.goto(f"{server.url}/table/{table_id}")
            expect(page.locator("#table")).to_have_attribute("data-you", str(seat))
        play_until([ann, ben], game_over([ann, ben]))

        # The game's end: every player with their total and, for each who bid, the contracts made.
        for page in (ann, ben):
            panel = page.get_by_test_id("standings")
            expect(panel).to_be_visible()
            expect(panel.locator("ol.places li")).to_have_count(4)
            totals = [page.get_by_test_id(f"total-{s}").inner_text() for s in range(4)]
            assert [page.get_by_test_id(f"final-total-{s}").inner_text() for s in range(4)] == totals
            expect(page.get_by_test_id("gameover-replay")).to_have_attribute("href", f"/replay/{table_id}")
            expect(page.get_by_test_id("gameover-analysis")).to_have_attribute("href", f"/replay/{table_id}#analysis")
            expect(page.get_by_test_id("rematch")).to_have_attribute("data-answer", "none")
        hand = ann.evaluate("() => state.score.hands[0]")
        if not hand["cancelled"]:
            for seat in range(4):
                made_it = int(hand["tricks_won"][seat] == hand["contracts"][seat])
                expect(ann.get_by_test_id(f"facts-{seat}")).to_have_text(f"contracts made: {made_it} of 1")
                expect(ben.get_by_test_id(f"facts-{seat}")).to_have_text(f"חוזים שבוצעו: {made_it} מתוך 1")
        shoot(ann, "gameover-laptop-en")
        shoot(ben, "gameover-phone-he")
        assert not no_violations(ann) and not no_violations(ben)

        # Ann asks; Ben is asked on his page, the bots have said yes.
        ann.get_by_test_id("play-again").click()
        expect(ann.get_by_test_id("rematch")).to_have_attribute("data-answer", "accepted")
        expect(ben.get_by_test_id("rematch")).to_have_attribute("data-answer", "waiting")
        expect(ben.get_by_test_id("rematch")).to_contain_text("Ann")
        expect(ann.locator(".rematch-answers .answer")).to_have_count(2)  # the people only
        shoot(ann, "gameover-asked-laptop-en")
        shoot(ben, "gameover-asked-phone-he")
        assert not no_violations(ann) and not no_violations(ben)

        # Ben accepts: both pages are at the new table, in their own seats, with a new deal.
        ben.get_by_test_id("rematch-accept").click()
        for page, seat in ((ann, 0), (ben, 1)):
            page.wait_for_url(re.compile(r"/table/(?!" + re.escape(table_id) + r")[\w-]+$"))
            expect(page.locator("#table")).to_have_attribute("data-you", str(seat))
            expect(page.locator("#table")).to_have_attribute("data-over", "false")
            expect(page.locator("#hand .card")).to_have_count(13)
        new_id = ann.url.rsplit("/", 1)[1]
        assert ben.url.endswith(f"/table/{new_id}")
        table = ann.request.get(f"{server.url}/api/tables/{new_id}").json()
        assert table["options"] == {"hands": 1} and table["public"] is False and table["game"] == "israeli"
        assert [(s["kind"], s["level"], s["name"]) for s in table["seats"]] == [
            ("human", None, "Ann"), ("human", None, "Ben"), ("bot", "basic", ""), ("bot", "random", "")]
        assert table_data(ann)["hands"] == "0"

        # Back at the finished table, the page offers the next game rather than moving by itself.
        ann.goto(f"{server.url}/table/{table_id}")
        expect(ann.get_by_test_id("rematch-next")).to_have_attribute("href", f"/table/{new_id}")
        ann.wait_for_timeout(500)
        assert ann.url.endswith(f"/table/{table_id}")

        # Its analysis link opens the replay with the analysis scrolled into view once it is made.
        if not hand["cancelled"]:
            ann.get_by_test_id("gameover-analysis").click()
            ann.wait_for_url(re.compile(rf"/replay/{table_id}"))
            expect(ann.get_by_test_id("analysis")).to_be_in_viewport(timeout=90_000)
            assert ann.evaluate("window.scrollY") > 0
