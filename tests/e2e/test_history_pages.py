"""The history, replay and leaderboard pages in Chromium, on a phone and a desktop, in English
and Hebrew. The games are played first through an in-process app on the same database."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from fastapi.testclient import TestClient
from history_kit import BOTS, new_table, play_to_the_end, sign_in
from playwright.sync_api import Browser, Page, expect

from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def play_games(settings: ServerSettings) -> dict[str, Any]:
    with TestClient(create_app(settings)) as client:
        me = sign_in(client, "Ann")
        two_hands = new_table(client, "israeli", {"hands": 2}, [{"kind": "human"}, *BOTS])["id"]
        play_to_the_end(client, two_hands)
        playing = new_table(client, "israeli", {"hands": 2}, [{"kind": "human"}, *BOTS])["id"]
        replay = client.get(f"/api/games/{two_hands}").json()
    return {"me": me, "game": two_hands, "playing": playing, "replay": replay}


def open_page(browser: Browser, url: str, viewport: dict[str, int], language: str) -> Page:
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    context.add_init_script(f"localStorage.setItem('whist-lang', '{language}')")
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.goto(url)
    page.problems = problems  # type: ignore[attr-defined]
    return page


def fits(page: Page) -> bool:
    """Nothing sticks out sideways (a phone would scroll the page left and right)."""
    width: bool = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    return width


def test_history_replay_and_leaderboard_pages(server: Any, browser: Browser, app_settings: ServerSettings) -> None:
    games = play_games(app_settings)
    replay = games["replay"]
    steps_first_hand = len(replay["hands"][0]["steps"])

    for viewport in (PHONE, DESKTOP):
        page = open_page(browser, server.url + "/history", viewport, "en")
        expect(page.get_by_test_id("game")).to_have_count(1)
        expect(page.get_by_test_id("game")).to_contain_text("Israeli Whist")
        expect(page.get_by_test_id("game")).to_contain_text("Ann")
        assert fits(page)

        page.get_by_test_id("game").get_by_role("link", name="Replay").click()
        expect(page.get_by_test_id("step")).to_have_text(f"0 / {steps_first_hand - 1}")
        expect(page.get_by_test_id("action")).to_contain_text("deals")
        for seat in range(4):  # every hand is shown from the deal
            expect(page.get_by_test_id(f"seat-{seat}").locator(".cardchip")).to_have_count(13)
        page.get_by_test_id("next").click()
        expect(page.get_by_test_id("step")).to_have_text(f"1 / {steps_first_hand - 1}")
        page.keyboard.press("ArrowRight")
        expect(page.get_by_test_id("step")).to_have_text(f"2 / {steps_first_hand - 1}")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("End")
        expect(page.get_by_test_id("step")).to_have_text(f"{steps_first_hand - 1} / {steps_first_hand - 1}")
        expect(page.get_by_test_id("action")).to_contain_text("The hand is over" if not replay["hands"][0]["cancelled"]
                                                              else "dealt again")
        page.get_by_test_id("next").click()  # on into the next hand's deal
        expect(page.get_by_test_id("hand-select")).to_have_value("1")
        expect(page.get_by_test_id("step")).to_have_text(f"0 / {len(replay['hands'][1]['steps']) - 1}")
        page.get_by_test_id("last").click()
        assert "#hand=2&step=" in page.url
        assert fits(page)

        # Hebrew: right to left, and the left arrow goes on.
        page.get_by_test_id("lang-he").click()
        assert page.evaluate("document.documentElement.dir") == "rtl"
        page.get_by_test_id("hand-select").select_option("0")
        page.locator("body").press("ArrowLeft")
        expect(page.get_by_test_id("step")).to_have_text(f"1 / {steps_first_hand - 1}")
        expect(page.get_by_test_id("first")).to_have_attribute("title", "תחילת היד")
        assert fits(page)
        assert page.problems == []  # type: ignore[attr-defined]
        page.context.close()

        page = open_page(browser, server.url + "/leaderboard", viewport, "he")
        expect(page.get_by_test_id("board-row")).to_have_count(1)
        expect(page.get_by_test_id("board-row")).to_contain_text("Ann")
        assert fits(page)
        page.get_by_role("link", name="Ann").click()
        expect(page.get_by_test_id("player")).to_contain_text("דירוג")
        expect(page.get_by_test_id("game")).to_have_count(1)
        assert page.url.endswith(f"/history?player={games['me']}")
        assert fits(page)
        page.context.close()

    page = open_page(browser, f"{server.url}/replay/{games['playing']}", PHONE, "en")
    expect(page.get_by_test_id("error")).to_contain_text("still being played")
    expect(page.get_by_role("link", name="Go to the table")).to_have_attribute("href", f"/table/{games['playing']}")
    page.context.close()


def test_the_replay_shows_the_analysis(server: Any, browser: Browser, app_settings: ServerSettings) -> None:
    with TestClient(create_app(app_settings)) as client:
        sign_in(client, "Ann")
        table_id = new_table(client, "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS])["id"]
        play_to_the_end(client, table_id)
    # Asked here first, with time to search (the expert bot's bids): the page then finds it kept.
    with urllib.request.urlopen(f"{server.url}/api/games/{table_id}/analysis", timeout=300) as response:
        analysis = json.load(response)
    [hand] = [h for h in analysis["hands"] if not h["cancelled"]] or analysis["hands"][-1:]
    page = open_page(browser, f"{server.url}/replay/{table_id}#hand={len(analysis['hands'])}&step=1", PHONE, "en")
    expect(page.get_by_test_id("analysis")).to_contain_text(f"Analysis of hand {hand['number']}")
    expect(page.get_by_test_id("verdict")).to_contain_text("expert bot")  # the first call, beside the bot's
    expect(page.locator("[data-testid=bid-differs], [data-testid=bid-agrees]")).to_have_count(len(hand["bids"]))
    errors = [c for c in hand["cards"] if c["error"]]
    expect(page.get_by_test_id("error-item")).to_have_count(len(errors))
    if errors:  # a link to the error's step, where its card is marked in the trick and the verdict says why
        page.get_by_test_id("error-item").first.get_by_role("button").click()
        assert page.url.endswith(f"step={errors[0]['step']}")
        expect(page.get_by_test_id("verdict")).to_contain_text("Error: it costs")
        expect(page.get_by_test_id("verdict")).to_contain_text(str(errors[0]["cost"]))
        expect(page.get_by_test_id("error-mark")).to_contain_text(f"−{errors[0]['cost']}")
    page.get_by_test_id("last").click()
    expect(page.get_by_test_id("verdict")).to_contain_text("best card" if not hand["cards"][-1]["error"] else "Error")
    assert fits(page)
    page.get_by_test_id("lang-he").click()
    expect(page.get_by_test_id("analysis")).to_contain_text(f"ניתוח יד {hand['number']}")
    assert fits(page)
    assert page.problems == []  # type: ignore[attr-defined]
    page.context.close()
