"""The lobby's level menu says when a level is unrated in the chosen game: ``GET /api/levels``
answers null there (``server/api_levels.py``), and the seat reads "unrated", never another
level's rating. The answer is the server's own, with one level made unmeasured in one game.

A screenshot of the seats is written to ``test-artifacts/screenshots/<viewport>-lobby-unrated.png``
at 375x812 in Hebrew and 1280x800 in English."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from e2e_kit import RunningServer, browser_page
from playwright.sync_api import Browser, Route, expect

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
VIEWPORTS = {"phone-he": (375, 812, "he-IL"), "laptop-en": (1280, 800, "en-US")}
WORDS = {"he-IL": {"hard": "קשה", "expert": "מומחה"}, "en-US": {"hard": "hard", "expert": "expert"}}


def rated(word: str) -> re.Pattern[str]:
    return re.compile(rf"{word}\) · (rating|דירוג) \d+$")


def unrated(word: str) -> re.Pattern[str]:
    return re.compile(rf"{word}\) · (unrated|ללא דירוג)$")


@pytest.mark.parametrize("name", VIEWPORTS)
def test_a_level_unmeasured_in_the_game_reads_unrated(browser: Browser, server: RunningServer, name: str) -> None:
    width, height, locale = VIEWPORTS[name]
    with browser_page(browser, server, locale=locale, width=width, height=height) as (_, page):
        def hard_unmeasured_in_israeli(route: Route) -> None:
            levels = route.fetch().json()
            for entry in levels["levels"]:
                if entry["level"] == "hard":
                    entry["ratings"]["israeli"] = None
            route.fulfill(status=200, content_type="application/json", body=json.dumps(levels))

        page.route("**/api/levels", hard_unmeasured_in_israeli)
        page.reload()
        page.select_option("#game", "israeli")
        page.select_option("#seat-1", "bot:hard")
        page.select_option("#seat-2", "bot:expert")
        hard = page.locator("#seat-1 option[value='bot:hard']")
        words = WORDS[locale]
        expect(hard).to_have_text(unrated(words["hard"]))
        expect(page.locator("#seat-2 option[value='bot:expert']")).to_have_text(rated(words["expert"]))
        page.select_option("#game", "classic")  # measured there: its rating again
        expect(hard).to_have_text(rated(words["hard"]))
        page.select_option("#game", "israeli")
        page.locator("#seat-1").scroll_into_view_if_needed()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-lobby-unrated.png"), full_page=True)
