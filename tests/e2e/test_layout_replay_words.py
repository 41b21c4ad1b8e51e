"""The replay's analysis as a reader of either language sees it: cards drawn as the live hand draws
them (whist.cards.face), left to right in the hand's order, each whole on one line, «6♠» and not
«♠6» in a Hebrew sentence; a call such as "5♠" the same; the arrow from a player's call to the
bot's pointing the way the line reads (← in Hebrew, → in English); and the game record offered as
a file to download. The analysis is the search's, with one card made an error and one call made to
differ, so that every kind of line is on the page. Full-page screenshots at 375x812 in Hebrew and
1280x800 in English: ``test-artifacts/screenshots/<viewport>-replay-analysis.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from e2e_kit import browser_page
from fastapi.testclient import TestClient
from history_kit import BOTS, new_table, play_to_the_end, sign_in
from playwright.sync_api import Browser, Locator, expect

from israeli_whist.bots.matches.analysis import analysis_json, analyze_record
from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
VIEWPORTS = {"phone-he": (375, 812, "he"), "laptop-en": (1280, 800, "en")}
SIX_OF_SPADES, ACE_OF_HEARTS, SIX_OF_CLUBS = 43, 38, 4  # card numbers: suit * 13 + rank index
ARROWS = {"he": ("←", "→"), "en": ("→", "←")}  # the arrow the line shows, and the one it must not


def lefts(cards: Locator) -> list[float]:
    return [box["x"] for box in (cards.nth(i).bounding_box() for i in range(cards.count())) if box]


def character_left(node: Locator, character: str) -> float:
    """Where the first of that character in the node's text stands on the screen, from the left."""
    left: float = node.evaluate("""(el, character) => {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let text = walker.nextNode(); text; text = walker.nextNode()) {
            const at = text.data.indexOf(character);
            if (at < 0) continue;
            const range = document.createRange();
            range.setStart(text, at);
            range.setEnd(text, at + 1);
            return range.getBoundingClientRect().left;
        }
        return NaN;
    }""", character)
    return left


def characters_left_to_right(node: Locator) -> str:
    """The node's characters in the order they stand on the screen, left to right."""
    found: str = node.evaluate("""(el) => {
        const text = el.firstChild;
        const at = [...text.data].map((ch, i) => {
            const range = document.createRange();
            range.setStart(text, i);
            range.setEnd(text, i + 1);
            return [range.getBoundingClientRect().left, ch];
        });
        return at.sort((a, b) => a[0] - b[0]).map(([, ch]) => ch).join("");
    }""")
    return found


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_analysis_reads_in_the_pages_direction(server: Any, browser: Browser, app_settings: ServerSettings,
                                                   viewport: str) -> None:
    with TestClient(create_app(app_settings)) as client:
        sign_in(client, "Ann")
        table_id = new_table(client, "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS])["id"]
        play_to_the_end(client, table_id)
        record = client.get(f"/api/games/{table_id}/record").json()
    found = analysis_json(analyze_record(record, bot="basic", max_tricks=2))
    hand = found["hands"][0]
    # One error, made here: the deal is random, and the basic bot's analysis sometimes finds one of
    # its own, which made the count below 2 now and then.
    for card in hand["cards"]:
        card["error"] = False
    hand["errors"] = [0] * len(hand["errors"])
    error = next(card for card in hand["cards"] if card["analysed"])
    error.update(error=True, cost=1, best_cards=[SIX_OF_CLUBS, ACE_OF_HEARTS, SIX_OF_SPADES], all_best_cards=True)
    hand["errors"][error["seat"]] = 1
    call = next(bid for bid in hand["bids"] if bid["phase"] == "auction")
    call.update(agrees=False, actual=["5S"], suggested=["6H"])

    width, height, language = VIEWPORTS[viewport]
    shown, wrong = ARROWS[language]
    with browser_page(browser, server, width=width, height=height) as (_context, page):
        page.evaluate(f"localStorage.setItem('whist-lang', '{language}')")
        page.route("**/analysis?hand=*", lambda route: route.fulfill(json=found))
        page.goto(f"{server.url}/replay/{table_id}#hand=1&step={error['step']}")

        # The verdict's best cards: spades, hearts, clubs, left to right, each card whole, rank first.
        best = page.get_by_test_id("verdict").locator(".card-list .card-face")
        expect(best).to_have_count(3)
        analysis = page.get_by_test_id("analysis")
        expect(analysis.get_by_test_id("bid-differs").first).to_be_visible()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{viewport}-replay-analysis.png"), full_page=True)
        assert [int(best.nth(i).get_attribute("data-card") or -1) for i in range(3)] == [
            SIX_OF_SPADES, ACE_OF_HEARTS, SIX_OF_CLUBS]
        assert lefts(best) == sorted(lefts(best)) and len(set(lefts(best))) == 3
        for i in range(3):
            assert best.nth(i).evaluate("el => el.getClientRects().length") == 1
            rank, pip = best.nth(i).locator(".rank").bounding_box(), best.nth(i).locator(".corner-pip").bounding_box()
            assert rank and pip and rank["x"] < pip["x"] and abs(rank["y"] - pip["y"]) < rank["height"]
        # The action line's card is drawn the same way.
        expect(page.locator("#action .card-face")).to_have_count(1)

        expect(analysis.get_by_test_id("error-item")).to_have_count(1)
        expect(analysis.get_by_test_id("error-item").locator(".card-face")).to_have_count(1)
        differs = analysis.get_by_test_id("bid-differs").first
        expect(differs).to_contain_text(shown)
        expect(differs).not_to_contain_text(wrong)
        # "5♠" stands as written in either direction, as on the table.
        assert characters_left_to_right(differs.locator("bdi").first) == "5♠"
        assert characters_left_to_right(differs.locator("bdi").last) == "6♥"
        # The player's call comes first in the reading direction, the arrow after it, pointing on.
        actual = differs.locator("bdi").first.bounding_box()
        assert actual
        assert (character_left(differs, shown) < actual["x"]) == (language == "he")

        # The game record: a file to download, in the page's words.
        link = page.locator("#record-link")
        assert (link.get_attribute("download") or "").endswith(".json")
        with page.expect_download() as download:
            link.click()
        assert download.value.suggested_filename.endswith(".json")

