"""Rule options and presets (israeli_whist.core.rules, israeli_whist.core.games).

Every option of docs/rules.md is a field of a rules dataclass. ``OPTION_TESTS`` names, for each
option, the tests that fail if the engine ignored it; ``PRESET_CHECKS`` holds, for each preset,
a check of what it changes. Adding an option or a preset without a test fails here.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import SUIT_DEAL, act, start

from israeli_whist.core.actions import PASS, Phase, action_name
from israeli_whist.core.errors import RulesError
from israeli_whist.core.games import GAMES, RULES_BY_GAME, make_game, make_rules
from israeli_whist.core.games.classic import ClassicRules, ClassicWhist
from israeli_whist.core.games.israeli import IsraeliRules
from israeli_whist.core.games.whistiti import WhistitiRules
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.match import Match
from israeli_whist.core.rules import Rules, option_rows

HERE = Path(__file__).parent

OPTION_TESTS: dict[str, list[str]] = {
    "israeli.form": ["test_israeli_three.py::test_deck_and_hand_sizes",
                     "test_israeli_three.py::test_the_last_bidder_may_not_make_the_tricks"],
    "israeli.auction_starts": ["test_israeli_auction.py::test_auction_starts_dealer",
                               "test_israeli_frisch.py::test_the_new_auction_starts_with_the_same_player"],
    "israeli.nt_minimum": ["test_israeli_auction.py::test_nt_minimum_five",
                           "test_israeli_auction.py::test_nt_minimum_nine_shifts_the_nt_bids",
                           "test_israeli_frisch.py::test_nt_minimum_five_rises_with_the_frisch"],
    "israeli.auction_end": ["test_israeli_auction.py::test_four_passes_lets_the_high_bidder_raise_their_own_bid",
                            "test_israeli_three.py::test_three_players_four_passes_means_every_player_passes"],
    "israeli.no_trump_allowed": ["test_israeli_auction.py::test_no_trump_allowed_off"],
    "israeli.frisch_rounds": ["test_israeli_frisch.py::test_frisch_rounds_then_the_hand_is_cancelled"],
    "israeli.frisch_raises_minimum": ["test_israeli_frisch.py::test_frisch_raises_minimum_off"],
    "israeli.frisch_direction": ["test_israeli_frisch.py::test_frisch_direction",
                                 "test_israeli_frisch.py::test_rotating_direction_goes_left_across_right",
                                 "test_israeli_three.py::test_three_players_frisch_left_or_right"],
    "israeli.high_contract_first_undertrick": [
        "test_israeli_hand.py::test_hand_scores_follow_high_contract_first_undertrick"],
    "israeli.zero_scoring": ["test_israeli_hand.py::test_hand_scores_follow_zero_scoring"],
    "israeli.hands": ["test_match.py::test_israeli_game_ends_after_the_hands"],
    "israeli.target": ["test_match.py::test_israeli_game_ends_at_the_target"],
    "classic.target": ["test_classic.py::test_a_game_ends_when_a_side_reaches_the_target"],
    "classic.honours": ["test_classic.py::test_honours_three_of_them_score_two",
                        "test_classic.py::test_honours_are_off_by_default"],
    "classic.rubber": ["test_classic.py::test_rubber_is_best_of_three",
                       "test_classic.py::test_without_rubber_one_game_is_the_whole_match"],
    "classic.cut_for_partners": ["test_classic.py::test_seating_is_fixed_unless_cutting_for_partners"],
    "whistiti.players": ["test_whistiti.py::test_three_to_seven_players"],
    "whistiti.schedule": ["test_whistiti.py::test_schedules", "test_whistiti.py::test_a_game_follows_the_schedule"],
    "whistiti.first_lead": ["test_whistiti_ohhell.py::test_left_of_dealer_leads_the_first_trick",
                            "test_whistiti_ohhell.py::test_the_highest_bidder_still_leads_by_default"],
}


def test_every_option_has_tests() -> None:
    options = {f"{game}.{name}" for game, cls in RULES_BY_GAME.items() for name in cls.option_names()}
    assert set(OPTION_TESTS) == options
    for tests in OPTION_TESTS.values():
        for test in tests:
            filename, name = test.split("::")
            assert re.search(rf"^def {name}\(", (HERE / filename).read_text(), re.MULTILINE), test


def test_defaults_are_those_of_rules_md() -> None:
    assert IsraeliRules().to_dict() == {
        "form": "four_players", "auction_starts": "left_of_dealer", "nt_minimum": 7, "auction_end": "three_passes",
        "no_trump_allowed": True, "frisch_rounds": 3, "frisch_raises_minimum": True, "frisch_direction": "left",
        "high_contract_first_undertrick": False, "zero_scoring": "standard", "hands": 12, "target": None}
    assert ClassicRules().to_dict() == {"target": 5, "honours": False, "rubber": False, "cut_for_partners": False}
    assert WhistitiRules().to_dict() == {"players": 4, "schedule": "up", "first_lead": "highest_bidder"}


# Presets -----------------------------------------------------------------------------------------


def israeli_legal(game: HandGame, calls: str = "") -> list[str]:
    return [action_name(a) for a in act(start(game, SUIT_DEAL), calls).legal_actions()]


def check_israeli_standard(game: HandGame) -> None:
    assert "6NT" not in israeli_legal(game) and "7NT" in israeli_legal(game)
    assert act(start(game, SUIT_DEAL), "5S pass pass pass").phase == Phase.CONTRACT


def check_achim(game: HandGame) -> None:
    state = act(start(game, SUIT_DEAL), "5S pass pass pass 5 0 9 0")
    assert state.over_under == "over"
    final = state._replace(phase=Phase.OVER, player=-1, is_terminal=True, tricks_won=(2, 5, 0, 6))
    assert final.scores() == (-30, 35, 30, -30)


def check_pagat(game: HandGame) -> None:
    assert act(start(game, SUIT_DEAL), "5S pass pass pass").phase == Phase.AUCTION


def check_nt5(game: HandGame) -> None:
    assert israeli_legal(game)[:6] == ["pass", "5C", "5D", "5H", "5S", "5NT"]


def check_no_nt(game: HandGame) -> None:
    assert not [name for name in israeli_legal(game) if name.endswith("NT")]


def deck_check(players: int, deck: int, size: int) -> Callable[[HandGame], None]:
    def check(game: HandGame) -> None:
        state = game.new_hand(0, 1)
        assert (game.players, len(game.deck()), state.hand_size) == (players, deck, size)
    return check


def check_classic_standard(game: HandGame) -> None:
    assert isinstance(game, ClassicWhist)
    assert game.rules.target == 5
    assert game.honour_points(start(game, SUIT_DEAL, turned="5C"), (0, 0)) == (0, 0)


def check_honours(game: HandGame) -> None:
    assert isinstance(game, ClassicWhist)
    assert game.honour_points(start(game, SUIT_DEAL, turned="5C"), (0, 0)) == (4, 0)


def check_rubber(game: HandGame) -> None:
    match = Match.start(game, 1)
    final = match.hand._replace(phase=Phase.OVER, player=-1, is_terminal=True, tricks_won=(7, 0, 6, 0))
    match = match.finish_hand(final)
    assert match.games_won == (1, 0, 1, 0) and not match.over


def check_long(game: HandGame) -> None:
    check_honours(game)
    match = Match.start(game, 1)
    final = match.hand._replace(phase=Phase.OVER, player=-1, is_terminal=True, tricks_won=(7, 0, 6, 0))
    match = match.finish_hand(final)
    assert not match.over and match.game_points[0] >= 7


def schedule_check(sizes: tuple[int, ...]) -> Callable[[HandGame], None]:
    def check(game: HandGame) -> None:
        assert tuple(game.hand_size(i) for i in range(len(sizes))) == sizes
    return check


def check_oh_hell(game: HandGame) -> None:
    schedule_check((12,))(game)
    state = act(game.new_hand(0, 1), "2 3 5 0")  # seat 3 bids the most
    assert state.leader == 1, "the player left of the dealer leads"


PRESET_CHECKS: dict[tuple[str, str], Callable[[HandGame], None]] = {
    ("israeli", "standard"): check_israeli_standard,
    ("israeli", "achim"): check_achim,
    ("israeli", "pagat"): check_pagat,
    ("israeli", "nt5"): check_nt5,
    ("israeli", "no_nt"): check_no_nt,
    ("israeli", "three_no_clubs"): deck_check(3, 39, 13),
    ("israeli", "three_short_deck"): deck_check(3, 36, 12),
    ("israeli", "three_short_deck_40"): deck_check(3, 40, 12),
    ("israeli", "three_random_card"): deck_check(3, 52, 17),
    ("classic", "standard"): check_classic_standard,
    ("classic", "honours"): check_honours,
    ("classic", "rubber"): check_rubber,
    ("classic", "long"): check_long,
    ("whistiti", "standard"): schedule_check(tuple(range(1, 14))),
    ("whistiti", "up_down"): schedule_check((*range(1, 14), *range(12, 0, -1))),
    ("whistiti", "down_up"): schedule_check((*range(13, 0, -1), *range(2, 14))),
    ("whistiti", "oh_hell"): check_oh_hell,
}


def test_every_preset_has_a_check() -> None:
    presets = {(game, preset) for game, cls in RULES_BY_GAME.items() for preset in cls.PRESETS}
    assert set(PRESET_CHECKS) == presets


@pytest.mark.parametrize(("game", "preset"), list(PRESET_CHECKS))
def test_preset(game: str, preset: str) -> None:
    built = make_game(game, preset)
    assert built.rules == RULES_BY_GAME[game].preset(preset)
    assert built.rules.changed_options() == dict(RULES_BY_GAME[game].PRESETS[preset])
    PRESET_CHECKS[game, preset](built)


@pytest.mark.parametrize(("game", "preset"), [(g, p) for g, cls in RULES_BY_GAME.items() for p in cls.PRESETS
                                              if p != "standard"])
def test_each_preset_check_fails_on_the_standard_rules(game: str, preset: str) -> None:
    """So each check tests what its preset changes."""
    with pytest.raises(AssertionError):
        PRESET_CHECKS[game, preset](make_game(game, "standard"))


def test_unknown_preset_and_game() -> None:
    with pytest.raises(RulesError, match="No preset 'fast' for israeli; presets: standard, achim"):
        make_rules("israeli", "fast")
    with pytest.raises(RulesError, match="Unknown game 'bridge'; games: israeli, classic, whistiti"):
        make_rules("bridge")
    assert set(GAMES) == set(RULES_BY_GAME)


def test_a_preset_with_options() -> None:
    rules = make_rules("israeli", "pagat", {"hands": "4", "nt_minimum": 5})
    assert isinstance(rules, IsraeliRules)
    assert (rules.auction_end, rules.hands, rules.nt_minimum) == ("four_passes", 4, 5)
    assert rules.changed_options() == {"auction_end": "four_passes", "hands": 4, "nt_minimum": 5}


# Values ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "value"), [
    ({"hands": "8"}, ("hands", 8)),
    ({"no_trump_allowed": "off"}, ("no_trump_allowed", False)),
    ({"no_trump_allowed": "Yes"}, ("no_trump_allowed", True)),
    ({"hands": "0", "target": "200"}, ("target", 200)),
    ({"target": "none"}, ("target", None)),
    ({"frisch_direction": " right "}, ("frisch_direction", "right")),
])
def test_option_values_from_text(options: dict[str, str], value: tuple[str, Any]) -> None:
    rules = IsraeliRules().with_options(options)
    assert getattr(rules, value[0]) == value[1]


@pytest.mark.parametrize(("cls", "options", "message"), [
    (IsraeliRules, {"nt_minimum": 4}, "Option nt_minimum must be between 5 and 13, not 4"),
    (IsraeliRules, {"frisch_rounds": 4}, "Option frisch_rounds must be between 0 and 3, not 4"),
    (IsraeliRules, {"frisch_direction": "across"}, "Option frisch_direction must be one of left, rotating, right"),
    (IsraeliRules, {"zero_scoring": "house"}, "Option zero_scoring must be one of standard, achim"),
    (IsraeliRules, {"form": "five_players"}, "Option form must be one of"),
    (IsraeliRules, {"auction_end": "two_passes"}, "Option auction_end must be one of"),
    (IsraeliRules, {"auction_starts": "right"}, "Option auction_starts must be one of"),
    (IsraeliRules, {"hands": 0}, "A game needs an end"),
    (IsraeliRules, {"target": 0}, "Option target must be between 1 and 100000"),
    (IsraeliRules, {"no_trump_allowed": 1}, "Option no_trump_allowed is true or false"),
    (IsraeliRules, {"high_contract_first_undertrick": "yes"}, "is true or false"),
    (IsraeliRules, {"frisch_raises_minimum": None}, "is true or false"),
    (IsraeliRules, {"hands": 1.5}, "Option hands is a whole number, not 1.5"),
    (IsraeliRules, {"hands": [1]}, "Option hands is a whole number"),
    (IsraeliRules, {"nt_minimum": True}, "Option nt_minimum is a whole number"),
    (IsraeliRules, {"target": 10.0}, "Option target is a whole number"),
    (IsraeliRules, {"form": 3}, "Option form is text"),
    (ClassicRules, {"target": 0}, "Option target must be between 1 and 100"),
    (ClassicRules, {"honours": "true"}, "Option honours is true or false"),
    (ClassicRules, {"rubber": 0}, "Option rubber is true or false"),
    (ClassicRules, {"cut_for_partners": 1}, "Option cut_for_partners is true or false"),
    (WhistitiRules, {"players": 8}, "Option players must be between 3 and 7, not 8"),
    (WhistitiRules, {"schedule": 5}, "Option schedule is text"),
    (WhistitiRules, {"schedule": "up,down"}, "schedule"),
])
def test_bad_option_values(cls: type[Rules], options: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=re.escape(message)):
        cls(**options)
    if not any(isinstance(value, str) for value in options.values()):  # text is parsed: see below
        with pytest.raises(RulesError, match=re.escape(message)):
            cls().with_options(options)


@pytest.mark.parametrize(("options", "message"), [
    ({"hands": "many"}, "Option hands is a whole number, not 'many'"),
    ({"no_trump_allowed": "maybe"}, "Option no_trump_allowed is true or false, not 'maybe'"),
    ({"colour": "red"}, "Unknown option 'colour' for israeli; options: form, auction_starts"),
])
def test_bad_option_text(options: dict[str, str], message: str) -> None:
    with pytest.raises(RulesError, match=re.escape(message)):
        IsraeliRules().with_options(options)


def test_rules_are_values() -> None:
    rules = IsraeliRules(nt_minimum=5, target=300)
    assert IsraeliRules(**rules.to_dict()) == rules
    assert hash(rules) == hash(IsraeliRules(nt_minimum=5, target=300))
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.nt_minimum = 6  # type: ignore[misc]
    assert make_game("israeli", None, {"nt_minimum": 5}) == make_game("israeli", "nt5")
    assert make_game("israeli") != make_game("israeli", "nt5")


@pytest.mark.parametrize("cls", [IsraeliRules, ClassicRules, WhistitiRules])
def test_option_rows_describe_every_option(cls: type[Rules]) -> None:
    rows = option_rows(cls)
    assert [row[0] for row in rows] == cls.option_names()
    assert all(row[3] for row in rows), "every option has help text"
    by_name = {row[0]: row for row in rows}
    if cls is IsraeliRules:
        assert by_name["nt_minimum"][1:3] == ("7", "5..13")
        assert by_name["no_trump_allowed"][1:3] == ("true", "true | false")
        assert by_name["frisch_direction"][2] == "left | rotating | right"
        assert by_name["target"][1:3] == ("none", "1..100000 or none")


def test_players_of_each_game() -> None:
    assert IsraeliRules().players == 4 and IsraeliRules(form="three_short_deck").players == 3
    assert ClassicRules().players == 4
    assert WhistitiRules(players=6).players == 6
    assert PASS not in make_game("classic").new_hand(0, 1).legal_actions()
