"""The one registry of games: each game class names its rules type and its name, and
``GAMES`` maps names to classes. Rules, games and their lookups by name all come from here."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from israeli_whist.core.classic import ClassicWhist
from israeli_whist.core.errors import RulesError, quoted
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.israeli import IsraeliWhist
from israeli_whist.core.rules import Rules
from israeli_whist.core.whistiti import Whistiti

# A new game of the family is a module with its HandGame subclass, and a line here.
GAMES: dict[str, type[HandGame]] = {game.name: game for game in (IsraeliWhist, ClassicWhist, Whistiti)}

RULES_BY_GAME: dict[str, type[Rules]] = {name: game.rules_type for name, game in GAMES.items()}
_GAME_BY_RULES: dict[type[Rules], type[HandGame]] = {game.rules_type: game for game in GAMES.values()}


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
