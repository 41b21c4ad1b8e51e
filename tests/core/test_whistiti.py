"""Whistiti: 3-7 players, a growing deal, trump from the stock, bids and scores (docs/rules.md#whistiti)."""

from __future__ import annotations

import random

import pytest
from helpers import act, check_state, expect_illegal, play_match, start, whistiti

from israeli_whist.core.actions import Phase, contract_action
from israeli_whist.core.cards import CLUBS, NO_TRUMP, card_set, hand_name, parse_card, parse_hand
from israeli_whist.core.errors import RulesError
from israeli_whist.core.games.whistiti import WhistitiRules
from israeli_whist.core.match import Match
from israeli_whist.core.state import HandState
from israeli_whist.core.views import hidden_cards, seat_view


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_three_to_seven_players(players: int) -> None:
    game = whistiti(players=players)
    assert game.players == players
    state = game.new_hand(0, 1, hand_number=2)
    assert state.players == players and state.hand_size == 3
    check_state(state)


@pytest.mark.parametrize("players", [2, 8])
def test_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(RulesError, match="players must be between 3 and 7"):
        WhistitiRules(players=players)


@pytest.mark.parametrize(("players", "schedule", "sizes"), [
    (4, "up", tuple(range(1, 14))),
    (4, "up_down", (*range(1, 14), *range(12, 0, -1))),
    (4, "down_up", (*range(13, 0, -1), *range(2, 14))),
    (7, "up", tuple(range(1, 8))),
    (7, "up_down", (1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1)),
    (3, "up", tuple(range(1, 18))),
    (5, "1,3, 5", (1, 3, 5)),
    (6, "8,8", (8, 8)),
])
def test_schedules(players: int, schedule: str, sizes: tuple[int, ...]) -> None:
    rules = WhistitiRules(players=players, schedule=schedule)
    assert rules.hand_sizes() == sizes
    assert rules.max_cards == 52 // players
    game = whistiti(players=players, schedule=schedule)
    assert tuple(game.hand_size(i) for i in range(len(sizes))) == sizes


@pytest.mark.parametrize("schedule", ["0", "14", "1,x", "sideways", "1,,2", ""])
def test_bad_schedules(schedule: str) -> None:
    with pytest.raises(RulesError, match="schedule"):
        WhistitiRules(schedule=schedule)


def test_eight_cards_are_too_many_for_seven_players() -> None:
    with pytest.raises(RulesError, match="1 to 7 cards"):
        WhistitiRules(players=7, schedule="8")


@pytest.mark.parametrize(("players", "schedule"), [(4, "up"), (7, "up_down"), (5, "2,10,4")])
def test_a_game_follows_the_schedule(players: int, schedule: str) -> None:
    game = whistiti(players=players, schedule=schedule)
    match = play_match(Match.start(game, 5, first_dealer=1), random.Random(1))
    assert match.over
    assert tuple(r.final.hand_size for r in match.results) == game.rules.hand_sizes()
    assert [r.final.dealer for r in match.results] == [(1 + i) % players for i in range(len(match.results))]
    assert match.totals == tuple(sum(r.points[s] for r in match.results) for s in range(players))


def test_trump_is_the_top_card_of_the_stock() -> None:
    game = whistiti()
    state = game.deal_cards(0, list(range(52)))
    assert state.hand_size == 1
    assert [state.hands[s] for s in range(4)] == [1 << 3, 1 << 0, 1 << 1, 1 << 2]
    assert state.turned_card == 4 and state.trump == 0
    assert not state.unseen >> 4 & 1 and state.unseen == card_set(range(5, 52))
    for seat in (-1, 0, 1, 2, 3):
        assert seat_view(state, seat).turned_card == 4
        assert not hidden_cards(state, seat) >> 4 & 1
    first = [parse_card("AS"), 1, 2, 3, parse_card("9H")]
    state = game.deal_cards(2, first + [c for c in range(52) if c not in first])
    assert state.turned_card == parse_card("9H") and state.trump == 2


def test_no_stock_means_no_trump() -> None:
    state = whistiti().new_hand(0, 3, hand_number=12)
    assert state.hand_size == 13 and state.turned_card == -1 and state.trump == NO_TRUMP
    state = whistiti(players=3).new_hand(0, 3, hand_number=16)
    assert state.hand_size == 17 and state.turned_card >= 0 and state.trump == state.turned_card // 13


def test_the_turned_card_stays_face_up_all_hand() -> None:
    state = whistiti(schedule="3").new_hand(0, 4)
    card = state.turned_card
    for _ in range(state.players):
        state = state.apply(state.legal_actions()[0])
    while not state.is_terminal:
        assert all(seat_view(state, s).turned_card == card for s in (-1, 0, 1, 2, 3))
        state = state.apply(state.legal_actions()[0])
    assert seat_view(state, 2).turned_card == card


UNSEEN = hand_name(card_set(range(52)) & ~parse_hand("AH 2S KH 3C 2H 4D 5C 6D"))


def bidding(dealer: int = 0, size: int = 3, players: int = 4) -> HandState:
    return whistiti(players=players, schedule=str(size)).new_hand(dealer, 1)


def test_bidding_starts_left_of_the_dealer_from_zero_to_the_cards_in_hand() -> None:
    state = bidding(dealer=2)
    assert state.phase == Phase.CONTRACT and state.player == 3
    assert list(state.legal_actions()) == [contract_action(n) for n in range(4)]
    expect_illegal(state, contract_action(4), "There are only 3 tricks: you cannot bid 4")
    state = act(state, "1")
    assert state.player == 0


def test_the_last_bidder_may_not_make_the_cards_dealt() -> None:
    state = act(bidding(), "1 0 1")
    assert state.player == 0
    assert list(state.legal_actions()) == [contract_action(n) for n in (0, 2, 3)]
    expect_illegal(state, contract_action(1), "As the last bidder you may not bid 1")
    assert act(state, "0").over_under == "under"
    assert act(state, "3").over_under == "over"


def test_the_last_bidder_is_free_when_the_sum_is_already_over() -> None:
    state = act(bidding(), "3 3 3")
    assert list(state.legal_actions()) == [contract_action(n) for n in range(4)]


@pytest.mark.parametrize(("dealer", "bids", "leader"), [
    (0, "2 3 3 0", 2),  # order 1 2 3 0: the first of the equal highest bids, seat 2
    (0, "0 0 0 1", 0),
    (2, "3 3 1 1", 3),  # order 3 0 1 2: seat 3 bids before seat 0
    (1, "0 0 0 0", 2),  # everyone bids zero: the first bidder leads
])
def test_the_highest_bidder_leads(dealer: int, bids: str, leader: int) -> None:
    state = act(bidding(dealer=dealer), bids)
    assert state.phase == Phase.PLAY
    assert state.player == leader and state.leader == leader


def test_a_whole_small_hand() -> None:
    game = whistiti()
    state = start(game, ("AH 2S", "KH 3C", "2H 4D", "5C 6D"), dealer=0, unseen=UNSEEN, turned="9C", hand_size=2)
    assert state.trump == CLUBS and state.player == 1
    state = act(state, "1 0 0 0 KH")
    expect_illegal(state, parse_card("4D"), "You must follow hearts: you hold the 2 of hearts")
    state = act(state, "2H 5C AH")
    assert state.tricks[-1][2] == 3, "the ruff wins"
    state = act(state, "6D 2S 3C 4D")
    assert state.phase == Phase.OVER
    assert state.tricks_won == (0, 1, 0, 1)
    assert state.scores() == (10, 15, 10, -5)


def test_whistiti_scores() -> None:
    state = act(bidding(size=7), "3 0 4 2")
    final = state._replace(phase=Phase.OVER, player=-1, is_terminal=True, tricks_won=(3, 0, 6, 1))
    # Seats bid in order 1 2 3 0: contracts (2, 3, 0, 4).
    assert final.contracts == (2, 3, 0, 4)
    assert final.scores() == (-5, -15, -30, -15)
    final = state._replace(phase=Phase.OVER, player=-1, is_terminal=True, tricks_won=(2, 3, 0, 2))
    assert final.scores() == (20, 25, 10, -10)
