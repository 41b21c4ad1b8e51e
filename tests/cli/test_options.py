"""--players, --hands, --preset and --option become one set of rule options."""

from __future__ import annotations

import pytest

from israeli_whist.cli.options import build_game, default_bot_level, parse_options
from israeli_whist.core.errors import RulesError
from israeli_whist.core.games.israeli import IsraeliRules
from israeli_whist.core.games.whistiti import WhistitiRules


def test_options_are_name_value_pairs() -> None:
    assert parse_options(["hands=8", " nt_minimum = 5 "]) == {"hands": "8", "nt_minimum": "5"}
    with pytest.raises(RulesError, match="NAME=VALUE"):
        parse_options(["hands"])
    with pytest.raises(RulesError, match="NAME=VALUE"):
        parse_options(["hands="])


def test_three_israeli_players_play_without_clubs_by_default() -> None:
    rules = build_game("israeli", players=3).rules
    assert isinstance(rules, IsraeliRules)
    assert rules.form == "three_no_clubs"


def test_a_chosen_three_player_form_wins() -> None:
    by_preset = build_game("israeli", "three_short_deck", players=3).rules
    by_option = build_game("israeli", None, ["form=three_random_card"], players=3).rules
    assert isinstance(by_preset, IsraeliRules) and isinstance(by_option, IsraeliRules)
    assert by_preset.form == "three_short_deck"
    assert by_option.form == "three_random_card"


def test_players_that_contradict_the_form_are_refused() -> None:
    with pytest.raises(RulesError, match="does not fit"):
        build_game("israeli", None, ["form=three_no_clubs"], players=4)


def test_israeli_hands_sets_the_hands_option() -> None:
    rules = build_game("israeli", "achim", hands=3).rules
    assert isinstance(rules, IsraeliRules)
    assert (rules.hands, rules.zero_scoring) == (3, "achim")


def test_whistiti_hands_keeps_the_first_hands_of_the_schedule() -> None:
    game = build_game("whistiti", "up_down", players=6, hands=12)
    rules = game.rules
    assert isinstance(rules, WhistitiRules)
    assert rules.players == 6
    assert rules.hand_sizes() == (1, 2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4)


def test_whistiti_players_agree_with_the_option() -> None:
    assert build_game("whistiti", None, ["players=5"], players=5).players == 5
    with pytest.raises(RulesError, match="disagree"):
        build_game("whistiti", None, ["players=5"], players=6)


def test_classic_refuses_hands_and_other_player_counts() -> None:
    assert build_game("classic", players=4).players == 4
    with pytest.raises(RulesError, match="target"):
        build_game("classic", hands=2)
    with pytest.raises(RulesError, match="4 players"):
        build_game("classic", players=5)


def test_default_bots_are_registered() -> None:
    from israeli_whist.bots.players.registry import BOT_LEVELS

    assert default_bot_level() in BOT_LEVELS
