"""Find a game by name and build it from a preset and options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from whist.core.classic import ClassicWhist
from whist.core.game import HandGame
from whist.core.israeli import IsraeliWhist
from whist.core.rules import ClassicRules, IsraeliRules, Rules, WhistitiRules, make_rules
from whist.core.whistiti import Whistiti

GAMES: dict[str, type[HandGame]] = {"israeli": IsraeliWhist, "classic": ClassicWhist, "whistiti": Whistiti}


def game_for_rules(rules: Rules) -> HandGame:
    if isinstance(rules, IsraeliRules):
        return IsraeliWhist(rules)
    if isinstance(rules, ClassicRules):
        return ClassicWhist(rules)
    if isinstance(rules, WhistitiRules):
        return Whistiti(rules)
    raise TypeError(f"No game plays {type(rules).__name__}")


def make_game(name: str, preset: str | None = None, options: Mapping[str, Any] | None = None) -> HandGame:
    """``make_game("israeli", "achim", {"hands": "8"})``: option values may be text or typed."""
    return game_for_rules(make_rules(name, preset, options))
