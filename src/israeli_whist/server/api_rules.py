"""``GET /api/rules``: every game's options and presets, from the rules' own metadata, so that the
lobby and the score sheet build their forms from it and a new option needs no page work."""

from __future__ import annotations

import functools
from typing import Any

from fastapi import APIRouter

from israeli_whist.core.duplicate import options_set_by_boards
from israeli_whist.core.errors import RulesError
from israeli_whist.core.games import GAMES, RULES_BY_GAME
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.rules import Rules, option_specs

router = APIRouter(prefix="/api")


def seats_by_option(rules_cls: type[Rules], spec: dict[str, Any]) -> dict[str, int] | str | None:
    """How this option sets the number of seats, found by asking the rules, so that the page can
    lay out the seats for any value: "value" where the option is the count itself, a map from each
    choice to its count where the choices differ, None where the option leaves the seats alone."""
    standard = rules_cls()
    if spec["kind"] == "number":
        ends = (spec["low"], spec["high"])
        try:
            if all(standard.with_options({spec["name"]: end}).players == end for end in ends):
                return "value"
        except RulesError:  # an end that the other options refuse says nothing about the seats
            return None
    if spec["kind"] == "choice":
        counts = {}
        for choice in spec["choices"]:
            try:
                counts[choice] = standard.with_options({spec["name"]: choice}).players
            except RulesError:  # refused with the other options' defaults: seats as standard
                counts[choice] = standard.players
        if len(set(counts.values())) > 1:
            return counts
    return None


def game_rules_json(name: str) -> dict[str, Any]:
    rules_cls = RULES_BY_GAME[name]
    options = option_specs(rules_cls)
    for spec in options:
        spec["seats"] = seats_by_option(rules_cls, spec)
    presets = [{"name": preset, "options": dict(changes)} for preset, changes in rules_cls.PRESETS.items()]
    return {"name": name, "title": GAMES[name].title, "traits": rules_cls.traits.to_json(),
            "players": rules_cls().players, "options": options, "presets": presets,
            "set_by_boards": options_set_by_boards(name)}


def rules_json() -> dict[str, Any]:
    """The same for every caller and every request while the registry stays as it is."""
    return _rules_json(tuple(GAMES.items()))


@functools.cache
def _rules_json(games: tuple[tuple[str, type[HandGame]], ...]) -> dict[str, Any]:
    return {"games": [game_rules_json(name) for name, _ in games]}


@router.get("/rules")
def list_rules() -> dict[str, Any]:
    return rules_json()
