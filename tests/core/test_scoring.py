"""Scores of one hand (each game's, in israeli_whist.core.games), checked against the examples of docs/rules.md."""

from __future__ import annotations

import pytest
from helpers import expected_israeli_points, expected_whistiti_points
from hypothesis import given, settings
from hypothesis import strategies as st

from israeli_whist.core.games.classic import classic_honour_points, classic_trick_points
from israeli_whist.core.games.israeli import ZERO_SCORES, IsraeliRules, ZeroScores, israeli_score
from israeli_whist.core.games.whistiti import whistiti_score


@pytest.mark.parametrize(("contract", "taken", "over", "points"), [
    (3, 3, True, 19),  # c*c + 10
    (3, 3, False, 19),
    (13, 13, True, 179),
    (4, 6, True, -20),  # -10 a trick of difference
    (4, 2, False, -20),
    (0, 0, False, 50),  # zero made, under hand
    (0, 0, True, 25),  # zero made, over hand
    (0, 1, True, -50),
    (0, 2, False, -40),
    (0, 5, True, -10),
])
def test_israeli_worked_examples(contract: int, taken: int, over: bool, points: int) -> None:
    assert israeli_score(contract, taken, over=over) == points


@pytest.mark.parametrize(("contract", "taken", "off", "on"), [
    (7, 6, -10, -15),
    (7, 4, -30, -35),
    (9, 8, -10, -15),
    (7, 8, -10, -10),  # an overtrick is not a fall
    (6, 5, -10, -10),  # below 7 nothing changes
    (7, 7, 59, 59),
])
def test_high_contract_first_undertrick(contract: int, taken: int, off: int, on: int) -> None:
    assert israeli_score(contract, taken, over=True) == off
    assert israeli_score(contract, taken, over=True, high_contract_first_undertrick=True) == on


@pytest.mark.parametrize(("taken", "over", "points"), [
    (0, True, 30), (1, True, -30), (4, True, -30), (0, False, 50), (1, False, -50), (3, False, -30),
])
def test_achim_zero_scores(taken: int, over: bool, points: int) -> None:
    assert israeli_score(0, taken, over=over, zero_scoring="achim") == points


def test_achim_changes_nothing_but_zeros() -> None:
    for contract in range(1, 14):
        for taken in range(14):
            assert israeli_score(contract, taken, over=True, zero_scoring="achim") == israeli_score(
                contract, taken, over=True)


def test_zero_scores_are_data_for_every_choice() -> None:
    choices = IsraeliRules.__dataclass_fields__["zero_scoring"].metadata["choices"]
    assert set(choices) == set(ZERO_SCORES)
    assert ZERO_SCORES["standard"] == ZeroScores(50, 25, -50, 10, -50, 10)


def test_a_new_zero_table_needs_no_code() -> None:
    ZERO_SCORES["house"] = ZeroScores(40, 20, -40, 5, -40, 5)
    try:
        assert israeli_score(0, 0, over=True, zero_scoring="house") == 20
        assert israeli_score(0, 3, over=False, zero_scoring="house") == -30
    finally:
        del ZERO_SCORES["house"]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 17), st.integers(0, 17), st.booleans(), st.sampled_from(["standard", "achim"]), st.booleans())
def test_israeli_score_matches_the_table(contract: int, taken: int, over: bool, zero: str, high: bool) -> None:
    assert israeli_score(contract, taken, over=over, zero_scoring=zero, high_contract_first_undertrick=high) == \
        expected_israeli_points(contract, taken, over, zero, high)


@pytest.mark.parametrize(("contract", "taken", "points"), [(3, 3, 25), (0, 0, 10), (4, 6, -10), (2, 1, -5), (7, 7, 45)])
def test_whistiti_score(contract: int, taken: int, points: int) -> None:
    assert whistiti_score(contract, taken) == points == expected_whistiti_points(contract, taken)


@pytest.mark.parametrize(("tricks", "points"), [((7, 6), (1, 0)), ((6, 7), (0, 1)), ((13, 0), (7, 0)),
                                               ((9, 4), (3, 0))])
def test_classic_odd_tricks(tricks: tuple[int, int], points: tuple[int, int]) -> None:
    assert classic_trick_points(tricks) == points


@pytest.mark.parametrize(("held", "points"), [(4, 4), (3, 2), (2, 0), (1, 0), (0, 0)])
def test_classic_honours(held: int, points: int) -> None:
    assert classic_honour_points(held) == points
