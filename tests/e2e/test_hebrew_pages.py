"""Every page in Hebrew, as a player reads it: no bare catalogue key (``status.your_call``), none of
the words that are not the game's («הימור», «מהמר», «מכרז», «בלי שליט»), no untranslated "NT",
no Latin word but the players' names, the card ranks and the words allowed on purpose (LATIN_ALLOWED),
and the page titles in Hebrew. The pages are filled first: a finished game (history, replay,
leaderboard), a table where the page's player sits during the auction, a score sheet with a
no-trump hand."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from history_kit import BOTS, new_table, play_to_the_end, sign_in
from playwright.sync_api import Browser, Page, expect

from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

STATIC = Path(__file__).resolve().parents[2] / "src" / "israeli_whist" / "server" / "static"
BANNED = ("הימור", "מהמר", "מכרז", "בלי שליט")
HEBREW = re.compile(r"[\u0590-\u05FF]")
# What a key looks like (word.word, lower case with underscores): a Hebrew page has no such Latin text.
KEY_LIKE = re.compile(r"(?<![\w.])[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+(?![\w.])")
# Latin letters a Hebrew page may show: the ranks of cards (and A K Q J, the honours), the
# language switch's own name for English, and names: the rating method's (OpenSkill, which the
# leaderboard names). Anything else (a developer's word, "JSON", an English text the catalogue
# lacks) is a Latin word the Hebrew page should not show.
LATIN_ALLOWED = {"A", "K", "Q", "J", "English", "OpenSkill"}
LATIN_WORD = re.compile(r"[A-Za-z]+")
NAMES = ("Ann", "Ben", "Dana", "Ido")  # the players the pages are filled with: names stay as written
NT_HAND = {"declarer": 1, "level": 7, "strain": "NT", "contracts": [3, 7, 0, 4], "tricks": [3, 7, 0, 3]}

# Everything the reader may see: the text, the page's title, tooltips, placeholders, labels, options.
SEEN_TEXT = """() => [document.title, document.body.innerText,
  ...[...document.querySelectorAll("[title]")].map((el) => el.title),
  ...[...document.querySelectorAll("[placeholder]")].map((el) => el.placeholder),
  ...[...document.querySelectorAll("[aria-label]")].map((el) => el.getAttribute("aria-label")),
  ...[...document.querySelectorAll("option")].map((el) => el.textContent)].join("\\n")"""


def catalogue_keys() -> set[str]:
    keys: dict[str, str] = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    return set(keys)


def hebrew_page(browser: Browser, url: str) -> Page:
    context = browser.new_context(viewport={"width": 375, "height": 812}, locale="he-IL")
    context.add_init_script("localStorage.setItem('whist-lang', 'he')")
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.problems = problems  # type: ignore[attr-defined]
    page.goto(url)
    return page


def check_words(page: Page, keys: set[str]) -> str:
    """The page's visible words, after asserting they hold no key, banned word or "NT"."""
    text: str = page.evaluate(SEEN_TEXT)
    assert HEBREW.search(page.title()), page.title()
    shown_keys = sorted({found for found in KEY_LIKE.findall(text)} | {key for key in keys if key in text.split()})
    assert shown_keys == [], (page.url, shown_keys)
    assert [word for word in BANNED if word in text] == [], page.url
    assert not re.search(r"\bNT\b", text), page.url
    assert latin_words(text) == [], page.url
    assert page.problems == []  # type: ignore[attr-defined]
    return text


def latin_words(text: str) -> list[str]:
    """The Latin words of a Hebrew page's text that are neither a player's name nor allowed."""
    for name in NAMES:
        text = re.sub(rf"(?<![A-Za-z]){name}(?![A-Za-z])", " ", text)
    return sorted({word for word in LATIN_WORD.findall(text) if word not in LATIN_ALLOWED})


def fill_server(settings: ServerSettings) -> dict[str, Any]:
    with TestClient(create_app(settings)) as client:
        me = sign_in(client, "Ann")
        game = new_table(client, "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS])["id"]
        play_to_the_end(client, game)
        sheet = client.post("/api/sheets", json={"game": "israeli", "players": ["Ann", "Ben", "Dana", "Ido"]}).json()
        assert client.post(f"/api/sheets/{sheet['id']}/hands", json={"entry": NT_HAND}).status_code == 201
    return {"me": me, "game": game, "sheet": sheet["id"]}


def test_every_page_in_hebrew_has_only_the_games_words(server: Any, browser: Browser,
                                                        app_settings: ServerSettings) -> None:
    made = fill_server(app_settings)
    keys = catalogue_keys()

    page = hebrew_page(browser, server.url + "/")
    expect(page.locator("#preset option").first).to_have_text("רגיל")
    check_words(page, keys)
    page.evaluate("document.body.append(Object.assign(document.createElement('p'), {textContent: 'lobby.title'}))")
    with pytest.raises(AssertionError, match=r"lobby\.title"):  # the check sees a key on a real page
        check_words(page, keys)
    page.context.close()

    for path, ready in ((f"/history?player={made['me']}", "game"), ("/leaderboard", "board-row"),
                        (f"/replay/{made['game']}", "step")):
        page = hebrew_page(browser, server.url + path)
        expect(page.get_by_test_id(ready).first).to_be_visible()
        check_words(page, keys)
        page.context.close()

    page = hebrew_page(browser, f"{server.url}/sheet/{made['sheet']}")
    expect(page.get_by_test_id("bid-1")).to_have_text("7 ללא שליט")
    check_words(page, keys)
    page.goto(server.url + "/sheet")
    expect(page.get_by_test_id("create-sheet")).to_be_visible()
    check_words(page, keys)
    page.context.close()

    # A table: the page's player sits in seat 0 and waits for a turn in the auction.
    page = hebrew_page(browser, server.url + "/")
    assert page.request.post(server.url + "/api/guest", data={"name": "דנה"}).ok
    table = page.request.post(server.url + "/api/tables", data={
        "game": "israeli", "options": {"hands": 1}, "seats": [{"kind": "human"}, *BOTS], "take_seat": 0})
    assert table.status == 201, table.text()
    page.goto(f"{server.url}/table/{table.json()['id']}")
    expect(page.locator("#table[data-my-turn=true]")).to_be_attached(timeout=15_000)
    check_words(page, keys)
    if page.locator("#actions [data-kind=bid]").count():  # the trump auction: no trump in words
        labels = page.locator("#actions [data-kind=bid]").all_inner_texts()
        assert not any("NT" in label for label in labels), labels
    page.context.close()


def test_the_key_check_finds_a_bare_key() -> None:
    assert KEY_LIKE.findall("תורך: status.your_call") == ["status.your_call"]
    assert KEY_LIKE.findall("רישום המשחק (JSON, לבדיקה ב־whist check) 7.5") == []


def test_the_latin_check_finds_a_developers_word_and_lets_names_and_ranks_be() -> None:
    assert latin_words("רישום המשחק (JSON, לבדיקה ב־whist check)") == ["JSON", "check", "whist"]
    assert latin_words("Ann: K♠ · Dana לקיחות: 3 · English") == []
    assert latin_words("Annette") == ["Annette"]  # a name is a whole word
