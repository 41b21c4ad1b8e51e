"""The one registry of games. A game is one module (its rules type and presets, its hooks, its
scoring and its score sheet's entry: ``israeli.py``, ``classic.py``, ``whistiti.py``) and one
``register_game`` call; everything else (the engine, the terminal, ``whist rules``, the server
and its pages, the research interfaces) finds it here and asks its traits and hooks, never its
name. ``GAMES`` maps names to game classes; rules, games and their lookups by name come from here.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from israeli_whist.core.errors import RulesError, quoted
from israeli_whist.core.games.classic import ClassicWhist
from israeli_whist.core.games.israeli import IsraeliWhist
from israeli_whist.core.games.whistiti import Whistiti
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.rules import Rules

__all__ = ["GAMES", "RULES_BY_GAME", "game_for_rules", "make_game", "make_rules", "register_game"]

GAMES: dict[str, type[HandGame]] = {}
RULES_BY_GAME: dict[str, type[Rules]] = {}
_GAME_BY_RULES: dict[type[Rules], type[HandGame]] = {}


def register_game(game: type[HandGame]) -> type[HandGame]:
    """Make ``game`` known to every part of the platform under its rules type's ``GAME`` name
    (docs/architecture.md#adding-a-game). Registering the same class again changes nothing;
    another game under a name already taken is a ValueError."""
    name = game.name
    if not name:
        raise ValueError(f"{game.__name__}'s rules type names no GAME")
    if GAMES.get(name, game) is not game:
        raise ValueError(f"A game named {name!r} is registered already: {GAMES[name].__name__}")
    GAMES[name] = game
    RULES_BY_GAME[name] = game.rules_type
    _GAME_BY_RULES[game.rules_type] = game
    return game


for _game in (IsraeliWhist, ClassicWhist, Whistiti):
    register_game(_game)


def make_rules(game: str, preset: str | None = None, options: Mapping[str, Any] | None = None) -> Rules:
    """Rules of a game by name, from a preset (default: standard) and option overrides."""
    if game not in RULES_BY_GAME:
        raise RulesError(f"Unknown game {quoted(game)}; games: {', '.join(RULES_BY_GAME)}")
    rules = RULES_BY_GAME[game].preset(preset or "standard")
    return rules.with_options(options or {})


# Games are stateless apart from their rules (and memos of them), so one per rules serves every
# caller: the bots and the terminal ask a view's game for its hooks at every decision.
@functools.lru_cache(maxsize=256)
def game_for_rules(rules: Rules) -> HandGame:
    """The game played by these rules."""
    for rules_type in type(rules).__mro__:
        game = _GAME_BY_RULES.get(rules_type)
        if game is not None:
            return game(rules)
    raise TypeError(f"No game plays {type(rules).__name__}")


def make_game(name: str, preset: str | None = None, options: Mapping[str, Any] | None = None) -> HandGame:
    """``make_game("israeli", "achim", {"hands": "8"})``: option values may be text or typed."""
    return game_for_rules(make_rules(name, preset, options))
