"""The hand state as a value: immutable, equal when equal, and strict about what it accepts."""

from __future__ import annotations

import dataclasses
from enum import IntEnum

import pytest
from helpers import EXAMPLE_DEAL, SUIT_DEAL, act, classic, expect_illegal, israeli, start, whistiti

from israeli_whist.core.actions import PASS, Phase, bid_action
from israeli_whist.core.cards import SPADES, parse_card
from israeli_whist.core.errors import IllegalActionError, WhistError
from israeli_whist.core.match import Match


def test_states_are_immutable_values() -> None:
    state = start(israeli(), SUIT_DEAL)
    with pytest.raises(AttributeError):
        state.phase = Phase.OVER  # type: ignore[misc]
    assert state == start(israeli(), SUIT_DEAL)
    assert hash(state) == hash(start(israeli(), SUIT_DEAL))
    after = state.apply(PASS)
    assert state.history == () and after.history == (PASS,)
    assert state != after
    match = Match.start(israeli(), 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        match.over = True  # type: ignore[misc]


def test_the_same_actions_give_the_same_state() -> None:
    one = act(start(israeli(), EXAMPLE_DEAL), "5D pass pass pass 5 3 4 0 9C")
    two = act(start(israeli(), EXAMPLE_DEAL), "5D pass pass pass 5 3 4 0 9C")
    assert one == two
    assert one.history_names() == ["5D", "pass", "pass", "pass", "5", "3", "4", "0", "9C"]


class Card(IntEnum):
    NINE_OF_CLUBS = 7


def test_int_like_actions_are_accepted_as_ints() -> None:
    state = act(start(israeli(), EXAMPLE_DEAL), "5D pass pass pass 5 3 4 0")
    assert parse_card("9C") == Card.NINE_OF_CLUBS
    after = state.apply(Card.NINE_OF_CLUBS)
    assert after.trick == (parse_card("9C"),)
    assert after == state.apply(parse_card("9C"))


@pytest.mark.parametrize("action", [-1, 52 + 200, 10**6])
def test_numbers_outside_the_action_space_are_illegal(action: int) -> None:
    for state in (start(israeli(), SUIT_DEAL), classic().new_hand(0, 1), whistiti().new_hand(0, 1)):
        expect_illegal(state, action, "is not an action")


@pytest.mark.parametrize("action", ["QH", None, 2.5])
def test_things_that_are_not_actions_are_illegal(action: object) -> None:
    playing = act(start(israeli(), EXAMPLE_DEAL), "5D pass pass pass 5 3 4 0")
    for state in (start(israeli(), SUIT_DEAL), playing, whistiti().new_hand(0, 1)):
        expect_illegal(state, action, "is not an action")  # type: ignore[arg-type]


def test_an_illegal_action_is_a_whist_error() -> None:
    state = start(israeli(), SUIT_DEAL)
    with pytest.raises(WhistError):
        state.apply(bid_action(1, SPADES))
    with pytest.raises(IllegalActionError):
        state.apply(parse_card("AS"))


def test_bad_deals_are_refused() -> None:
    game = israeli()
    hands = tuple(0 for _ in range(4))
    with pytest.raises(IllegalActionError, match="Seat 0 must hold 13 cards, not 0"):
        game.start_hand(0, hands, 0, -1, 13)
    with pytest.raises(IllegalActionError, match="Israeli Whist deals to 4 players, not 3"):
        game.start_hand(0, hands[:3], 0, -1, 13)
    with pytest.raises(IllegalActionError, match="A card is dealt twice: the ace of hearts"):
        start(game, (SUIT_DEAL[0], SUIT_DEAL[1], SUIT_DEAL[2], "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH"))
    with pytest.raises(IllegalActionError, match="No seat 4 to deal"):
        start(game, SUIT_DEAL, dealer=4)


def test_over_under_is_none_before_every_contract() -> None:
    assert start(israeli(), SUIT_DEAL).over_under is None
    assert classic().new_hand(0, 1).over_under is None
    assert whistiti().new_hand(0, 1).over_under is None
