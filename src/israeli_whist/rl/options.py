"""Rule options given to an environment as keyword arguments: ``env("israeli", nt_minimum=8)``.

The rules' own parsing and checks (``israeli_whist.core.games.make_rules``) decide what a value may be;
this module only tells a rule option from an environment's own parameter, so that a misspelt
keyword is refused with both lists, not silently taken for one or the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from israeli_whist.core.errors import RulesError, quoted
from israeli_whist.core.games import RULES_BY_GAME, make_rules
from israeli_whist.core.rules import Rules


def game_rules(game: str, preset: str | None, options: Mapping[str, Any], parameters: Sequence[str] = ()) -> Rules:
    """The rules of ``game`` from a preset and rule options (text or typed values).

    ``parameters`` are the keyword arguments of the environment itself, named in the message
    that refuses an unknown keyword.

    >>> game_rules("israeli", "achim", {"nt_minimum": "8"}).nt_minimum
    8
    """
    if game not in RULES_BY_GAME:
        raise RulesError(f"Unknown game {quoted(game)}; games: {', '.join(RULES_BY_GAME)}")
    known = RULES_BY_GAME[game].option_names()
    for name in options:
        if name not in known:
            also = f"; environment parameters: {', '.join(parameters)}" if parameters else ""
            raise RulesError(f"Unknown option {quoted(name)} for {game}; rule options: {', '.join(known)}{also}")
    return make_rules(game, preset, options)
