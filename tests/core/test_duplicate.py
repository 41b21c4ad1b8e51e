"""Duplicate scoring against the field (israeli_whist.core.duplicate), checked against results
worked out by hand, and the boards dealt the same for everyone."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from israeli_whist.core.duplicate import (
    Standing,
    board_bot_seed,
    board_game,
    board_match,
    places,
    score_field,
    seats_of,
    standings,
)
from israeli_whist.core.errors import RulesError
from israeli_whist.core.games import make_game


def test_matchpoints_worked_by_hand() -> None:
    # Four results: 40 beats 3, 20 and 20 tie each other and beat -10, -10 beats nobody.
    field = score_field({"ann": 40, "ben": 20, "dana": 20, "eli": -10})
    assert field["ann"].percent == 100.0
    assert field["ben"].percent == field["dana"].percent == pytest.approx(100 * 1.5 / 3)
    assert field["eli"].percent == 0.0
    assert field["ann"].above_average == pytest.approx(40 - 17.5)
    assert field["eli"].above_average == pytest.approx(-27.5)
    assert {scored.field for scored in field.values()} == {4}


def test_a_result_alone_gets_half() -> None:
    assert score_field({"ann": 19})["ann"].percent == 50.0
    assert score_field({"ann": 19})["ann"].above_average == 0.0


@given(st.dictionaries(st.integers(0, 50), st.integers(-200, 200), min_size=2, max_size=12))
def test_matchpoints_share_the_field(points: dict[int, int]) -> None:
    """Every comparison gives out one point between two results: the percentages average 50,
    and the points above the average add to zero."""
    field = score_field(points)
    assert sum(s.percent for s in field.values()) / len(field) == pytest.approx(50.0)
    assert sum(s.above_average for s in field.values()) == pytest.approx(0.0, abs=1e-6)
    for a in points:
        for b in points:
            if points[a] > points[b]:
                assert field[a].percent > field[b].percent
    for player, own in points.items():  # the definition, one comparison at a time
        others = [p for other, p in points.items() if other != player]
        wins = sum(1.0 if own > p else 0.5 if own == p else 0.0 for p in others)
        assert field[player].percent == pytest.approx(100 * wins / len(others))


def test_standings_by_percent_then_points() -> None:
    results = {
        (1, 0): {"ann": 20, "ben": 10},  # ann 100, ben 0
        (2, 0): {"ann": -10, "ben": 30},  # ann 0, ben 100
        (3, 1): {"dana": 5},  # alone: 50
    }
    table = standings(results)
    # All three at 50%: then by points above the field, ben +15, dana 0 (alone), ann -15.
    assert [row.player for row in table] == ["ben", "dana", "ann"]
    assert [row.boards for row in table] == [2, 1, 2]
    assert table[0].percent == table[1].percent == table[2].percent == 50.0
    assert table[0].above_average == pytest.approx(15.0) and table[2].above_average == pytest.approx(-15.0)
    results[(4, 2)] = {"ann": 0, "eli": -5}  # ann beats eli: ann 66.7% over three boards
    assert standings(results)[0].player == "ann"


def test_a_board_is_dealt_the_same_for_everyone() -> None:
    game = make_game("israeli", None, {})
    first, again = board_match(game, "daily-2026-12-05", 3), board_match(game, "daily-2026-12-05", 3)
    assert first.hand.hands == again.hand.hands and first.hand.dealer == again.hand.dealer == 2
    other = board_match(game, "daily-2026-12-05", 4)
    assert other.hand.hands != first.hand.hands and other.hand.dealer == 3
    assert board_match(game, "daily-2026-12-06", 3).hand.hands != first.hand.hands
    assert len({board_bot_seed("e", 3, 1, 0), board_bot_seed("e", 3, 2, 0), board_bot_seed("e", 4, 2, 0),
                board_bot_seed("e", 3, 1, 1)}) == 4
    with pytest.raises(ValueError):
        board_match(game, "e", 0)


def test_rotated_seats_put_everyone_everywhere() -> None:
    boards = [1, 2, 3, 4]
    seats = [seats_of(boards, 4, rotation) for rotation in range(4)]
    for board in range(4):  # at each board, the four friends sit in four seats
        assert sorted(s[board] for s in seats) == [0, 1, 2, 3]
    for row in seats:  # each friend sits in every seat once
        assert sorted(row) == [0, 1, 2, 3]


def test_a_board_is_one_hand_of_the_events_rules() -> None:
    israeli = board_game("israeli", None, {"frisch_rounds": "1"}, 5)
    assert israeli.hands_in_game() == 1 and israeli.rules.to_dict()["frisch_rounds"] == 1
    match = board_match(israeli, "e", 5)
    assert match.hand.dealer == 0 and match.hands_total == 1
    sizes = [board_game("whistiti", None, {"players": "4"}, number).hands_in_game() for number in (1, 2)]
    assert sizes == [1, 1]
    first, second = (board_match(board_game("whistiti", None, {}, n), "e", n) for n in (1, 2))
    assert first.hand.hands[0].bit_count() == 1 and second.hand.hands[0].bit_count() == 2
    with pytest.raises(RulesError):
        board_game("classic", None, {}, 1)


def test_players_level_to_the_decimals_shown_share_a_place() -> None:
    rows = [Standing("ann", 2, 75.0, 10.0), Standing("ben", 1, 50.0, 0.1 + 0.2), Standing("cy", 3, 50.0, 0.3),
            Standing("dana", 1, 50.0, 0.0), Standing("eli", 1, 50.0, 0.0)]
    assert places(rows) == [1, 2, 2, 4, 4]  # 0.1 + 0.2 is 0.30000000000000004: level with 0.3 as shown
    assert places(rows, decimals=20) == [1, 2, 3, 4, 4]
    assert places([]) == []
