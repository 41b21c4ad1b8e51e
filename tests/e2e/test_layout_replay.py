"""The replay's analysis comes hand by hand, the hand on the screen first, with its progress shown:
a hand's verdicts appear as soon as that hand is analysed, not after the whole game's search; and
a page told to wait (429, or a busy 503, with Retry-After) says so and asks again when told."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from e2e_kit import browser_page
from fastapi.testclient import TestClient
from history_kit import BOTS, new_table, play_to_the_end, sign_in
from playwright.sync_api import Browser, Route, expect

from israeli_whist.bots.matches import analysis
from israeli_whist.bots.matches.analysis import analysis_json, analyze_record
from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

TIMEOUT_MS = 15_000
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


def test_the_analysis_shows_each_hand_as_it_is_done(server: Any, browser: Browser,
                                                    app_settings: ServerSettings) -> None:
    with TestClient(create_app(app_settings)) as client:
        sign_in(client, "Ann")
        table_id = new_table(client, "israeli", {"hands": 2}, [{"kind": "human"}, *BOTS])["id"]
        play_to_the_end(client, table_id)
        numbers = [h["number"] for h in client.get(f"/api/games/{table_id}").json()["hands"]]
    first, last = numbers[0], numbers[-1]
    # The first hand searched here, with time (the expert bot): the page then finds it kept.
    with urllib.request.urlopen(f"{server.url}/api/games/{table_id}/analysis?hand={first}", timeout=300) as response:
        assert [h["number"] for h in json.load(response)["hands"]] == [first]

    context = browser.new_context(viewport={"width": 375, "height": 740})
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script("localStorage.setItem('whist-lang', 'en')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    held: list[Route] = []  # the last hand's request, held back: the page is seen half-way
    page.route(f"**/analysis?hand={last}", lambda route: held.append(route))
    try:
        page.goto(f"{server.url}/replay/{table_id}#hand=1&step=1")
        expect(page.get_by_test_id("analysis")).to_contain_text(f"Analysis of hand {first}")
        progress = page.get_by_test_id("analysis-progress")
        expect(progress).to_contain_text(f"Analysing hand {last}: 1 of {len(numbers)} hands done")
        assert page.locator("#analysis-progress progress").evaluate("bar => [bar.value, bar.max]") == [1, len(numbers)]
        # The last hand, on the screen while it is analysed, says so; then the search fails there.
        page.evaluate(f"location.hash = '#hand={len(numbers)}&step=1'")
        expect(page.get_by_test_id("verdict")).to_contain_text(f"Analysing hand {last}")
        assert held, "the page did not ask for the last hand"
        held[0].fulfill(status=503, json={"detail": "No solver here"})
        expect(progress).to_be_hidden()
        expect(page.get_by_test_id("verdict")).to_contain_text("The analysis is not available: No solver here")
        assert not errors, errors
    finally:
        context.close()


def test_cards_whose_search_ran_out_are_shown_as_not_proven(server: Any, browser: Browser,
                                                           app_settings: ServerSettings,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A card in the depth analysed whose search ran out of its budget says "not proven", not
    "more than N tricks left"; the hand's note counts such cards and, when the whole hand was
    analysed, says nothing of a depth."""
    with TestClient(create_app(app_settings)) as client:
        sign_in(client, "Ann")
        table_id = new_table(client, "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS])["id"]
        play_to_the_end(client, table_id)
        record = client.get(f"/api/games/{table_id}/record").json()
    monkeypatch.setattr(analysis, "PARANOID_NODE_BUDGET", 2_000)  # early cards run out of it
    found = analysis_json(analyze_record(record, bot="basic"))
    hand = found["hands"][0]
    unproven = [card for card in hand["cards"] if not card["proven"]]
    assert unproven and hand["not_proven"] == len(unproven) and found["max_tricks"] >= 13

    with browser_page(browser, server) as (_context, page):
        page.route("**/analysis?hand=*", lambda route: route.fulfill(json=found))
        page.goto(f"{server.url}/replay/{table_id}#hand=1&step={unproven[0]['step']}")
        note = page.get_by_test_id("analysis")
        count = len(unproven)
        expect(note).to_contain_text(f"{count} cards are not proven" if count > 1 else "1 card is not proven")
        expect(note).not_to_contain_text("tricks left are not analysed")
        expect(page.get_by_test_id("verdict")).to_contain_text("Not proven: the search reached its limit")


VIEWPORTS = {"phone-he": (375, 812, "he-IL"), "laptop-en": (1280, 800, "en-US")}
WAITING = {"phone-he": re.compile("ממתינים לשרת: הניתוח של יד 1 יתבקש שוב בעוד (3 שניות|שתי שניות|שנייה אחת)"),
           "laptop-en": re.compile("Waiting for the server: the analysis of hand 1 is asked for again in [1-3] s")}


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_page_waits_as_the_server_says_and_asks_again(server: Any, browser: Browser, app_settings: ServerSettings,
                                                          viewport: str) -> None:
    """Refused with 429 and Retry-After (too many analyses asked from here), the page says it waits,
    counts the seconds down, and asks again then; the hand's analysis comes. A screenshot of the
    waiting line at each size, for a person to look at."""
    with TestClient(create_app(app_settings)) as client:
        sign_in(client, "Ann")
        table_id = new_table(client, "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS])["id"]
        play_to_the_end(client, table_id)
        record = client.get(f"/api/games/{table_id}/record").json()
    found = analysis_json(analyze_record(record, bot="basic", max_tricks=2))
    asked: list[float] = []

    def answer(route: Route) -> None:
        asked.append(time.monotonic())
        if len(asked) == 1:
            route.fulfill(status=429, headers={"Retry-After": "3"},
                          json={"detail": "Too many analysis requests from this session", "code": "too_many"})
        else:
            route.fulfill(json=found)

    width, height, locale = VIEWPORTS[viewport]
    with browser_page(browser, server, locale=locale, width=width, height=height) as (_context, page):
        page.route("**/analysis?hand=*", answer)
        page.goto(f"{server.url}/replay/{table_id}#hand=1&step=1")
        progress = page.get_by_test_id("analysis-progress")
        expect(progress).to_have_attribute("data-waiting", "true")
        expect(progress).to_contain_text(WAITING[viewport])
        expect(page.get_by_test_id("verdict")).to_contain_text(WAITING[viewport])
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{viewport}-replay-waiting.png"))
        expect(page.get_by_test_id("analysis")).to_be_visible(timeout=TIMEOUT_MS)
        expect(progress).to_be_hidden()
        assert len(asked) == 2 and asked[1] - asked[0] >= 2.9  # asked again when told, not before
        page.screenshot(path=str(SCREENSHOTS / f"{viewport}-replay-analysed.png"))
