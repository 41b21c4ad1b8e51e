"""From the play command's options (--game, --preset, --option, --players, --hands, --bots) to a game.

``--players`` and ``--hands`` are shortcuts for rule options, so they are translated into the
same ``NAME=VALUE`` options and the game is built by ``make_game`` like any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from whist.bots.registry import BOT_LEVELS
from whist.core.digits import read_number
from whist.core.errors import RulesError
from whist.core.game import HandGame
from whist.core.games import make_game
from whist.core.rules import ClassicRules, IsraeliRules, Rules, WhistitiRules, make_rules

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


def players_options(rules: Rules, players: int, options: dict[str, str]) -> dict[str, str]:
    """The options that ``--players N`` stands for in this game."""
    if isinstance(rules, ClassicRules):
        if players != 4:
            raise RulesError(f"Classic Whist is for 4 players, not {players}")
        return {}
    if isinstance(rules, WhistitiRules):
        if "players" in options and read_number(options["players"]) != players:
            raise RulesError(f"--players {players} and --option players={options['players']} disagree")
        return {"players": str(players)}
    assert isinstance(rules, IsraeliRules)
    if players == rules.players:
        return {}
    # Three players without a chosen form play without the clubs; a form the user chose wins,
    # and one that does not fit the count is an error rather than a silent change.
    if players == 3 and rules.form == "four_players" and "form" not in options:
        return {"form": "three_no_clubs"}
    if players in (3, 4):
        raise RulesError(f"--players {players} does not fit form {rules.form}, which is for {rules.players} players")
    raise RulesError(f"Israeli Whist is for 4 players, or 3 with a three-player form; not {players}")


def hands_options(rules: Rules, hands: int) -> dict[str, str]:
    """The options that ``--hands N`` stands for: Israeli Whist's ``hands``, or the first N
    hands of the Whistiti schedule (a short game of the same shape)."""
    if isinstance(rules, IsraeliRules):
        return {"hands": str(hands)}
    if isinstance(rules, WhistitiRules):
        sizes = rules.hand_sizes()
        if hands > len(sizes):
            raise RulesError(f"This Whistiti schedule has {len(sizes)} hands for {rules.players} players; "
                             f"--hands {hands} is too many")
        return {"schedule": ",".join(str(size) for size in sizes[:hands])}
    raise RulesError("Classic Whist is played to a target score, not a number of hands: "
                     "use --option target=N or --preset long")


def build_game(game: str, preset: str | None = None, options: Sequence[str] = (), players: int | None = None,
               hands: int | None = None) -> HandGame:
    """The game the play command's options describe; raises RulesError with a message for the user."""
    chosen = parse_options(options)
    if players is not None:
        chosen.update(players_options(make_rules(game, preset, chosen), players, chosen))
    if hands is not None:
        chosen.update(hands_options(make_rules(game, preset, chosen), hands))
    return make_game(game, preset, chosen)


def default_bot_level() -> str:
    return PREFERRED_BOT if PREFERRED_BOT in BOT_LEVELS else "random"


def check_bot_level(level: str) -> str:
    if level not in BOT_LEVELS:
        raise RulesError(f"Unknown bot level {level!r}; levels: {', '.join(BOT_LEVELS)}")
    return level
