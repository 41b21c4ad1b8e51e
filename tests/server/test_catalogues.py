"""The pages' words: one catalogue per language (static/i18n/en.json and he.json), complete in both,
in the words Israeli players use, every count of a noun in its plural forms (plural_forms.py). A text for
every refusal the server sends by code: test_refusal_codes.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from plural_forms import NEEDED, counts_outside_plurals, placeholders, plural_selects

from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

SERVER = Path(__file__).resolve().parents[2] / "src" / "israeli_whist" / "server"
STATIC = SERVER / "static"
LANGUAGES = ("en", "he")
# A bet and a gambler, an auction bought at a sale, no trump as "without a trump": not the game's words;
# and the score sheet has one name, «דף ניקוד» (not «גיליון»).
BANNED = ("הימור", "מהמר", "מכרז", "בלי שליט", "גיליון")


def catalogue(language: str) -> dict[str, str]:
    words: dict[str, str] = json.loads((STATIC / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    return words


def test_every_key_is_in_both_catalogues_with_a_text_and_the_same_placeholders() -> None:
    english, hebrew = catalogue("en"), catalogue("he")
    assert sorted(set(english) - set(hebrew)) == [], "keys with no Hebrew"
    assert sorted(set(hebrew) - set(english)) == [], "keys with no English"
    assert list(english) == list(hebrew), "the same order in both, for a side-by-side review"
    for key in english:
        assert english[key].strip() and hebrew[key].strip(), f"{key}: an empty text"
        assert placeholders(english[key]) == placeholders(hebrew[key]), key


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_count_of_a_noun_is_written_through_the_plural_forms(language: str) -> None:
    """«1 ידיים שוחקו», "1 hands played", «קלף 1»: a number next to a counted noun is a plural select
    (what counts as counted: plural_forms.py), and every select has its language's forms."""
    words = catalogue(language)
    assert {key: found for key, text in words.items() if (found := counts_outside_plurals(text, language))} == {}
    selects = {key: plural_selects(text) for key, text in words.items()}
    assert {key: sorted(NEEDED[language] - set(select.forms)) for key, found in selects.items() for select in found
            if not NEEDED[language] <= set(select.forms)} == {}
    # A text written by hand for one ("an.player_line_one" beside "an.player_line"): the select chooses.
    assert [key for key in words if re.search(r"_(one|two)$", key)] == []
    assert sum(map(len, selects.values())) >= 20  # the check reads the selects it is meant to


def test_the_count_check_finds_a_count_outside_the_plural_forms() -> None:
    assert counts_outside_plurals("{n} hands played", "en") == ["{n} hands"]
    assert counts_outside_plurals("Dealer: {name} · 1 card each", "en") == ["1 card"]
    assert counts_outside_plurals("{n} ידיים שוחקו", "he") == ["{n} ידיים"]
    assert counts_outside_plurals("מחלק: {name} · קלף 1 לכל אחד", "he") == ["קלף 1"]
    assert counts_outside_plurals("נותרו {s} שנ׳", "he") == ["{s} שנ׳"]
    # Numbers that name, and counts written through the forms, are not counts outside them.
    assert counts_outside_plurals("Hand {n} of {total} · choose 3 cards · seats 1 and 3", "en") == []
    assert counts_outside_plurals("יד {n} מתוך {total}", "he") == []
    assert counts_outside_plurals("{n, plural, one {1 hand by {name}} other {# hands}} played", "en") == []
    written = "{n, plural, one {יד אחת} two {שתי ידיים} other {# ידיים}}"
    assert [(s.argument, s.forms["two"]) for s in plural_selects(written)] == [("n", "שתי ידיים")]
    for broken in ("{n, plural, one {x}", "{n, plural, some {x} other {y}}", "{n, plural, other {x"):
        with pytest.raises(ValueError):
            plural_selects(broken)


def test_no_banned_word_in_the_catalogues_or_any_static_file() -> None:
    texts = {f"i18n/{language}.json": json.dumps(catalogue(language), ensure_ascii=False) for language in LANGUAGES}
    texts |= {str(path.relative_to(STATIC)): path.read_text(encoding="utf-8")
              for path in STATIC.rglob("*") if path.is_file() and path.suffix != ".png"}  # the icons: no words
    found = [(name, word) for name, text in texts.items() for word in BANNED if word in text]
    assert found == []


def test_the_banned_words_check_finds_them() -> None:
    assert all(any(word in text for word in BANNED) for text in ("סך ההימורים", "זוכה המכרז", "בלי שליט מ־5"))


def test_every_key_a_page_names_is_in_the_catalogue() -> None:
    """Keys written out in the pages (t("..."), data-t="..."): a typo would show the bare key."""
    named = re.compile(r"""(?:\bt\(|data-t(?:-placeholder|-label)?=)\s*["'`]([a-z_]+(?:\.[a-z0-9_]+)*)["'`]""")
    english = catalogue("en")
    pages = [path for path in STATIC.iterdir() if path.suffix in (".js", ".html")]
    missing = sorted({(path.name, key) for path in pages for key in named.findall(path.read_text(encoding="utf-8"))
                      if key not in english})
    assert missing == []


@pytest.mark.parametrize(("path", "status", "code"), [("/api/tables/nothing-here", 404, "no_table"),
                                                      ("/api/games/nothing-here", 404, "no_game"),
                                                      ("/api/sheets/nothing-here", 404, "no_sheet")])
def test_an_http_refusal_carries_its_code_beside_the_detail(app_settings: ServerSettings, path: str, status: int,
                                                            code: str) -> None:
    with TestClient(create_app(app_settings)) as client:
        assert client.post("/api/guest", json={"name": "Ann"}).status_code == 200
        answer = client.get(path)
    assert answer.status_code == status
    assert answer.json()["code"] == code and answer.json()["detail"]


@pytest.mark.parametrize(("body", "code"), [
    ({"game": "israeli", "seats": "four"}, "invalid_request"),  # the request's shape
    ({"game": "israeli", "options": {"nt_minimum": "99"}, "seats": [{"kind": "human"}] * 4},
     "rules"),  # the engine's refusal
])
def test_a_refused_table_request_carries_its_code(app_settings: ServerSettings, body: dict[str, object],
                                                  code: str) -> None:
    with TestClient(create_app(app_settings)) as client:
        assert client.post("/api/guest", json={"name": "Ann"}).status_code == 200
        answer = client.post("/api/tables", json=body)
    assert answer.status_code == 422 and answer.json()["code"] == code and answer.json()["detail"]


@pytest.mark.parametrize(("body", "code"), [({"login": "a", "password": "long enough"}, "login_format"),
                                            ({"login": "anna", "password": "short"}, "password_length"),
                                            ({"login": "anna", "password": "long enough", "name": "\u202eAnn"},
                                             "name")])
def test_a_refused_account_carries_its_code(app_settings: ServerSettings, body: dict[str, str], code: str) -> None:
    with TestClient(create_app(app_settings)) as client:
        answer = client.post("/api/register", json=body)
    assert answer.status_code == 422 and answer.json()["code"] == code, answer.json()


def test_a_refusal_before_signing_in_says_sign_in(app_settings: ServerSettings) -> None:
    with TestClient(create_app(app_settings)) as client:
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3
        answer = client.post("/api/tables", json={"game": "israeli", "options": {}, "seats": seats, "take_seat": 0})
    assert answer.status_code == 401 and answer.json()["code"] == "sign_in"
