"""From the play command's options (--game, --preset, --option, --players, --hands, --bots) to a game.

``--players`` and ``--hands`` are shortcuts for rule options, so they are translated into the
same ``NAME=VALUE`` options and the game is built by ``make_game`` like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer

from israeli_whist.bots.players.registry import BOT_LEVELS
from israeli_whist.core.errors import RulesError
from israeli_whist.core.games import GAMES, game_for_rules, make_game, make_rules
from israeli_whist.core.handgame import HandGame

# The options every command that builds a game shares (play, tournament, selfplay).
*_others, _last = GAMES
GAME_CHOICES = f"{', '.join(_others)} or {_last}."  # from the registry: "israeli, classic or whistiti."
GameOption = Annotated[str, typer.Option("--game", "-g", help=GAME_CHOICES)]
PresetOption = Annotated[str | None, typer.Option(help="A named set of rule options (see: whist rules).")]
RuleOptions = Annotated[list[str] | None, typer.Option(
    "--option", "-o", metavar="NAME=VALUE", help="Set a rule option; repeatable (see: whist rules).")]

PREFERRED_BOT = "basic"


def parse_options(items: Sequence[str]) -> dict[str, str]:
    """``["hands=8", "nt_minimum=5"]`` as a dict; the values stay text for ``make_game`` to parse."""
    options: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise RulesError(f"--option takes NAME=VALUE, like hands=8, not {item!r}")
        options[name.strip()] = value.strip()
    return options


def build_game(game: str, preset: str | None = None, options: Sequence[str] = (), players: int | None = None,
               hands: int | None = None) -> HandGame:
    """The game the play command's options describe; raises RulesError with a message for the user."""
    chosen = parse_options(options)
    # Each game says what the shortcuts stand for (``WholeGame.players_options``, ``hands_options``).
    if players is not None:
        chosen.update(game_for_rules(make_rules(game, preset, chosen)).players_options(players, chosen))
    if hands is not None:
        chosen.update(game_for_rules(make_rules(game, preset, chosen)).hands_options(hands))
    return make_game(game, preset, chosen)


def default_bot_level() -> str:
    return PREFERRED_BOT if PREFERRED_BOT in BOT_LEVELS else "random"
