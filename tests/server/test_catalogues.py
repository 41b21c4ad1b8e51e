"""The pages' words: one catalogue per language (static/i18n/en.json and he.json), complete in both,
in the words Israeli players use. A text for every refusal the server sends by code: test_refusal_codes.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

SERVER = Path(__file__).resolve().parents[2] / "src" / "israeli_whist" / "server"
STATIC = SERVER / "static"
LANGUAGES = ("en", "he")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# A bet and a gambler, an auction bought at a sale, no trump as "without a trump": not the game's words.
BANNED = ("הימור", "מהמר", "מכרז", "בלי שליט")


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
        assert set(PLACEHOLDER.findall(english[key])) == set(PLACEHOLDER.findall(hebrew[key])), key


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
