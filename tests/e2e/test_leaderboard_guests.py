"""The leaderboard with guests of one name, in Chromium: each has "guest #<id>" beside the name,
on the board, in the history and in the replay's standings; and a guest who makes an account from
the lobby ("Keep your games") is one player on the board, with the games and the rating they had.

The games are played first through an in-process app on the server's own database, signing its
cookies with the server's key, so that the browser can be the guest who played them.
Screenshots, at 375x812 in Hebrew and 1280x800 in English, in ``test-artifacts/screenshots/``:
``<viewport>-leaderboard-guests.png``, ``<viewport>-lobby-claim.png`` (the guest's form) and
``<viewport>-leaderboard-claimed.png`` after the claim.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_kit import browser_page
from fastapi.testclient import TestClient
from history_kit import BOTS, new_table, play_to_the_end, sign_in
from playwright.sync_api import Browser, Locator, Page, expect

from israeli_whist.server.app import create_app
from israeli_whist.server.sessions import COOKIE
from israeli_whist.server.settings import ServerSettings

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
VIEWPORTS = {"phone-he": (375, 812, "he-IL"), "laptop-en": (1280, 800, "en-US")}
GUEST = {"he-IL": "אורח #{id}", "en-US": "guest #{id}"}


@dataclasses.dataclass
class Played:
    mine: int  # the guest whose cookie the browser gets
    theirs: int  # another guest of the same name
    cookie: str
    their_game: str


@pytest.fixture
def played(server: Any, app_settings: ServerSettings, tmp_path: Path) -> Iterator[Played]:
    key = (tmp_path / "session.key").read_text().strip()  # the server's: its cookies are ours
    app = create_app(dataclasses.replace(app_settings, secret_key=key))
    with TestClient(app) as mine, TestClient(app) as theirs:
        me, other = sign_in(mine, "Dana"), sign_in(theirs, "Dana")
        for client, seed in ((mine, 1), (mine, 2), (theirs, 3)):
            game = new_table(client, "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS])["id"]
            play_to_the_end(client, game, seed)
        cookie = mine.cookies.get(COOKIE)
        assert cookie
        yield Played(me, other, cookie, game)


def row_of(page: Page, user_id: int) -> Locator:
    return page.get_by_test_id("board-row").filter(has=page.locator(f"a[href='/history?player={user_id}']"))


def open_as_guest(page: Page, url: str, played: Played) -> None:
    page.context.add_cookies([{"name": COOKIE, "value": played.cookie, "url": url}])
    page.goto(url)


@pytest.mark.parametrize("name", VIEWPORTS)
def test_guests_of_one_name_are_told_apart(browser: Browser, server: Any, played: Played, name: str) -> None:
    width, height, locale = VIEWPORTS[name]
    with browser_page(browser, server, locale=locale, width=width, height=height) as (_, page):
        page.goto(server.url + "/leaderboard")
        expect(page.get_by_test_id("board-row")).to_have_count(2)
        for user_id in (played.mine, played.theirs):
            expect(row_of(page, user_id)).to_contain_text("Dana")
            expect(row_of(page, user_id).locator(".guest-tag")).to_have_text(GUEST[locale].format(id=user_id))
        # One scale with the bots' levels: a whole number, provisional after a game or two.
        expect(row_of(page, played.mine).locator("td.rating")).to_have_text(re.compile(r"^\d+ \(\S+\)$"))
        expect(page.locator("#provisional-about")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-leaderboard-guests.png"), full_page=True)

        page.goto(server.url + "/history")
        expect(page.get_by_test_id("game")).to_have_count(3)
        for user_id in (played.mine, played.theirs):
            expect(page.locator(".guest-tag", has_text=GUEST[locale].format(id=user_id)).first).to_be_visible()
        page.goto(f"{server.url}/replay/{played.their_game}")
        expect(page.locator("#results .guest-tag")).to_have_text(GUEST[locale].format(id=played.theirs))


@pytest.mark.parametrize("name", VIEWPORTS)
def test_a_guest_who_makes_an_account_keeps_their_games(browser: Browser, server: Any, played: Played,
                                                        name: str) -> None:
    width, height, locale = VIEWPORTS[name]
    with browser_page(browser, server, locale=locale, width=width, height=height) as (_, page):
        open_as_guest(page, server.url + "/leaderboard", played)
        expect(page.get_by_test_id("board-row")).to_have_count(2)
        # Read once the page is drawn in its language: rows may come before the words do.
        expect(page.locator("main")).not_to_have_attribute("aria-busy", "true")
        mine = row_of(page, played.mine)
        rating, games = mine.locator("td.rating").inner_text(), mine.locator("td.num").first.inner_text()
        assert games == "2"

        page.goto(server.url + "/")
        expect(page.get_by_test_id("user-name")).to_have_text("Dana")
        page.get_by_test_id("claim").locator("summary").click()
        page.fill("#claim-login", "dana")
        page.fill("#claim-password", "correct horse")
        page.get_by_test_id("claim").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"{name}-lobby-claim.png"))
        page.click("#claim-button")
        expect(page.locator("#user-guest")).to_be_hidden()
        expect(page.get_by_test_id("claim")).to_be_hidden()
        expect(page.get_by_test_id("user-name")).to_have_text("Dana")

        page.goto(server.url + "/leaderboard")
        expect(page.get_by_test_id("board-row")).to_have_count(2)  # one player, not a guest and an account
        expect(mine.locator(".guest-tag")).to_have_count(0)
        expect(mine.locator("td.rating")).to_have_text(rating)
        expect(mine.locator("td.num").first).to_have_text(games)
        expect(row_of(page, played.theirs).locator(".guest-tag")).to_have_text(GUEST[locale].format(id=played.theirs))
        page.screenshot(path=str(SCREENSHOTS / f"{name}-leaderboard-claimed.png"), full_page=True)
        mine.get_by_role("link").click()
        expect(page.get_by_test_id("game")).to_have_count(2)
