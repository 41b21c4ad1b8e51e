"""Shared trick-taking parts: legal plays and the winner of a trick (israeli_whist.core.tricks)."""

from __future__ import annotations

import pytest
from helpers import expected_plays, expected_winner
from hypothesis import given, settings
from hypothesis import strategies as st

from israeli_whist.core.cards import (
    CLUBS,
    DIAMONDS,
    FULL_DECK,
    HEARTS,
    NO_TRUMP,
    SPADES,
    card_set,
    parse_card,
    parse_hand,
)
from israeli_whist.core.tricks import playable, trick_winner


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def test_worked_example_diamonds_trump() -> None:
    assert trick_winner(cards("9C QC 7D 8C"), DIAMONDS) == 2


@pytest.mark.parametrize(("trick", "trump", "winner"), [
    ("9C QC 7D 8C", NO_TRUMP, 1),  # no trump: highest club
    ("9C QC 7D 8C", CLUBS, 1),
    ("9C QC 7D 8C", HEARTS, 1),  # a discard of another suit cannot win
    ("2H AS KS 3H", DIAMONDS, 3),  # aces of another suit are discards
    ("2H 3D AH 4D", DIAMONDS, 3),  # the higher of two ruffs
    ("AS 2S 3S 4S", SPADES, 0),
    ("5C", CLUBS, 0),
    ("TC JC", HEARTS, 1),
])
def test_trick_winner(trick: str, trump: int, winner: int) -> None:
    assert trick_winner(cards(trick), trump) == winner


def test_follow_suit_if_able() -> None:
    hand = parse_hand("AS 2H 9H KD")
    assert playable(hand, cards("5H")) == parse_hand("2H 9H")
    assert playable(hand, cards("5C")) == hand, "void in clubs: any card, ruff or discard"
    assert playable(hand, []) == hand, "any card may lead"


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=1, max_size=7, unique=True), st.integers(0, 4))
def test_trick_winner_matches_the_rule(trick: list[int], trump: int) -> None:
    assert trick_winner(trick, trump) == expected_winner(trick, trump)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, FULL_DECK), st.lists(st.integers(0, 51), max_size=3, unique=True))
def test_playable_matches_the_rule(hand: int, trick: list[int]) -> None:
    hand &= ~card_set(trick)
    assert playable(hand, trick) == card_set(expected_plays(hand, trick))
