"""The replay's analysis comes hand by hand, the hand on the screen first, with its progress shown:
a hand's verdicts appear as soon as that hand is analysed, not after the whole game's search."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from e2e_kit import browser_page
from fastapi.testclient import TestClient
from history_kit import BOTS, new_table, play_to_the_end, sign_in
from playwright.sync_api import Browser, Route, expect

from israeli_whist.bots import analysis
from israeli_whist.bots.analysis import analysis_json, analyze_record
from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

TIMEOUT_MS = 15_000


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
