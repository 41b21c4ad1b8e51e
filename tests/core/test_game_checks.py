"""Which game is played is asked only of the game (docs/style.md#each-game-answers-for-itself): the match,
the score sheet, the terminal and the bots call the game's hooks (``israeli_whist.core.wholegame``) or read
its traits (``israeli_whist.core.traits``) instead of testing its name or type, and so do the web pages
(``server/static/*.js``), which read ``traits`` from the JSON: a new game of the family is one module and a
line in ``israeli_whist.core.games``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from israeli_whist.core.games import GAMES, RULES_BY_GAME, game_for_rules, make_rules

SRC = Path(__file__).parent.parent.parent / "src" / "israeli_whist"
GAME_NAMES = "|".join(GAMES)
GAME_TYPES = r"ClassicRules|IsraeliRules|WhistitiRules|ClassicWhist|IsraeliWhist|Whistiti"
# The spellings of "which game is this?": a name compared, a type tested.
GAME_CHECK = re.compile(
    r"""(game|GAME) *(==|!=|in) *[("']"""
    rf"""|isinstance\([^)]*({GAME_TYPES})\b"""
    rf"""|["']({GAME_NAMES})["'] *(==|!=|in)"""
    rf"""|(==|!=) *["']({GAME_NAMES})["']""")
# Everywhere but the games' own modules and the registry, ``core/games/`` (migrations are frozen history).
GAME_HOMES = SRC / "core" / "games"
CHECKED = [path for path in sorted(SRC.rglob("*.py"))
           if GAME_HOMES not in path.parents and "migrations" not in path.parts]
PAGES = sorted((SRC / "server" / "static").glob("*.js"))


def game_checks(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [f"{path.relative_to(SRC)}:{number}: {line.strip()}"
            for number, line in enumerate(lines, start=1) if GAME_CHECK.search(line)]


def test_the_search_finds_a_check() -> None:
    assert GAME_CHECK.search('if view.game == "classic":')
    assert GAME_CHECK.search("assert isinstance(view.rules, IsraeliRules)")
    assert GAME_CHECK.search('if match.game.name != "whistiti":')
    assert GAME_CHECK.search("f\"Your {'bid' if view.game == 'whistiti' else 'contract'}\"")
    assert not GAME_CHECK.search("if game.partnerships:")
    assert GAME_CHECK.search('if (view.declarer === seat && view.game === "israeli") {')
    assert GAME_CHECK.search('$("declarer-item").hidden = view.game !== "israeli";')
    assert GAME_CHECK.search('if ($("game").value === "classic") rows.push(note);')
    assert not GAME_CHECK.search("if (view.traits.trump_auction) {")
    assert not GAME_CHECK.search('dialect = postgresql if c.dialect.name == "postgresql" else sqlite')


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: str(p.relative_to(SRC)))
def test_no_check_of_which_game_is_played(path: Path) -> None:
    assert game_checks(path) == []


def test_the_pages_are_read() -> None:
    assert {path.name for path in PAGES} >= {"table.js", "sheet.js", "replay.js", "lobby.js"}


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_no_page_checks_which_game_is_played(path: Path) -> None:
    assert game_checks(path) == []


def test_one_registry_names_every_game_and_its_rules() -> None:
    for name, game in GAMES.items():
        assert game.name == name == game.rules_type.GAME
        assert RULES_BY_GAME[name] is game.rules_type
        rules = make_rules(name)
        assert type(game_for_rules(rules)) is game
        assert game_for_rules(rules) == game(rules)
