"""whist.t (static/common.js) picks a counted text's plural form by the browser's Intl.PluralRules:
Hebrew one, two and other («יד אחת», «שתי ידיים», «5 ידיים»), English one and other. The page is
common.js alone, served with the real catalogues from a stand-in origin, so no server is needed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route

STATIC = Path(__file__).resolve().parents[2] / "src" / "israeli_whist" / "server" / "static"
ORIGIN = "http://whist.test"
PAGE = '<!doctype html><meta charset="utf-8"><title>t</title><script src="/static/common.js"></script>'


def serve(route: Route) -> None:
    path = route.request.url.removeprefix(ORIGIN)
    if path == "/":
        route.fulfill(body=PAGE, content_type="text/html")
    elif path.startswith("/static/") and (STATIC / path.removeprefix("/static/")).is_file():
        file = STATIC / path.removeprefix("/static/")
        route.fulfill(body=file.read_bytes(), content_type="application/json" if file.suffix == ".json"
                      else "text/javascript")
    else:
        route.fulfill(status=404, body="")


@pytest.fixture
def words_page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    context.route(f"{ORIGIN}/**", serve)
    page = context.new_page()
    page.goto(ORIGIN + "/")
    page.evaluate("whist.ready")
    yield page
    context.close()


def texts(page: Page, language: str, key: str, counts: list[int], **params: object) -> list[str]:
    """t(key) for each count, in the language, with the page's direction marks taken out."""
    found: list[str] = page.evaluate("""([language, key, counts, params]) => {
        localStorage.setItem("whist-lang", language);
        return counts.map((n) => whist.t(key, { ...params, n }).replace(/[\\u2066-\\u2069]/g, ""));
    }""", [language, key, counts, params])
    return found


def test_hebrew_has_a_form_for_one_for_two_and_for_the_rest(words_page: Page) -> None:
    assert texts(words_page, "he", "history.hands", [1, 2, 3, 10, 11, 20, 100, 0]) == [
        "יד אחת", "שתי ידיים", "3 ידיים", "10 ידיים", "11 ידיים", "20 ידיים", "100 ידיים", "0 ידיים"]
    assert texts(words_page, "he", "an.tricks", [1, 2, 7]) == ["לקיחה אחת", "שתי לקיחות", "7 לקיחות"]
    assert texts(words_page, "he", "cards.held", [1, 2, 13]) == ["קלף אחד", "שני קלפים", "13 קלפים"]


def test_english_has_a_form_for_one_and_for_the_rest(words_page: Page) -> None:
    assert texts(words_page, "en", "history.hands", [1, 2, 0, 21, 1234]) == [
        "1 hand", "2 hands", "0 hands", "21 hands", "1,234 hands"]
    assert texts(words_page, "en", "replay.hands", [1, 4]) == ["1 hand played", "4 hands played"]


def test_a_select_beside_other_placeholders_and_an_exact_form(words_page: Page) -> None:
    """The other placeholders are filled inside and around a form; "=0" wins over the category."""
    mixed = "{name}: {n, plural, =0 {none} one {# card of {name}} other {# cards}}, hand {hand}"
    found = words_page.evaluate("""(mixed) => {
        whist.addTranslations({ en: { "test.mixed": mixed } });
        localStorage.setItem("whist-lang", "en");
        return [0, 1, 5].map((n) => whist.t("test.mixed", { n, name: "Ann", hand: 3 }));
    }""", mixed)
    assert found == ["Ann: none, hand 3", "Ann: 1 card of Ann, hand 3", "Ann: 5 cards, hand 3"]
    # A Hebrew text filled from the English one where the key has no Hebrew: English's own rules.
    found = words_page.evaluate("""() => {
        whist.addTranslations({ en: { "test.english_only": "{n, plural, one {# trick} other {# tricks}}" } });
        localStorage.setItem("whist-lang", "he");
        return [1, 2].map((n) => whist.t("test.english_only", { n }));
    }""")
    assert found == ["1 trick", "2 tricks"]
