"""Whistiti by the conventions of OpenSpiel's oh_hell: the ``first_lead`` option and the
``oh_hell`` preset (docs/rules-notes.md, OpenSpiel's ``open_spiel/games/oh_hell/oh_hell.cc``)."""

from __future__ import annotations

import random

import pytest
from helpers import act, check_state, expect_illegal, play_match, start, whistiti

from israeli_whist.core.actions import Phase, contract_action
from israeli_whist.core.cards import card_set, hand_name, parse_hand
from israeli_whist.core.errors import RulesError
from israeli_whist.core.games import make_game
from israeli_whist.core.games.whistiti import WhistitiRules
from israeli_whist.core.match import Match
from israeli_whist.core.state import HandState


def oh_hell_bidding(dealer: int = 0) -> HandState:
    game = make_game("whistiti", "oh_hell")
    return game.new_hand(dealer, "oh-hell-bidding")


@pytest.mark.parametrize(("dealer", "bids"), [
    (0, "2 3 5 0"),  # seat 3 bids highest, seat 1 still leads
    (2, "0 0 4 1"),
    (3, "3 3 3 0"),
])
def test_left_of_dealer_leads_the_first_trick(dealer: int, bids: str) -> None:
    state = act(oh_hell_bidding(dealer), bids)
    assert state.phase == Phase.PLAY
    first = (dealer + 1) % 4
    assert state.player == first and state.leader == first and state.declarer == first


def test_the_highest_bidder_still_leads_by_default() -> None:
    game = whistiti(schedule="12")
    state = act(game.new_hand(0, "oh-hell-bidding"), "2 3 5 0")
    assert state.player == 3  # bidding order 1 2 3 0: seat 3 bid 5


def test_the_preset() -> None:
    rules = WhistitiRules.preset("oh_hell")
    assert rules.players == 4 and rules.hand_sizes() == (12,) and rules.first_lead == "left_of_dealer"
    game = make_game("whistiti", "oh_hell")
    assert game.hands_in_game() == 1


def test_the_trump_is_the_card_after_the_deal() -> None:
    """oh_hell turns up the 49th card for 4 players and 12 tricks: there is always a trump."""
    game = make_game("whistiti", "oh_hell")
    pack = list(range(52))
    random.Random(5).shuffle(pack)
    state = game.deal_cards(1, pack)
    assert state.turned_card == pack[48] and state.trump == pack[48] // 13
    assert state.player == 2 and state.hand_size == 12
    check_state(state)


def test_the_last_bidder_may_not_make_the_bids_add_up() -> None:
    state = act(oh_hell_bidding(), "4 4 3")
    assert contract_action(1) not in state.legal_actions()
    expect_illegal(state, contract_action(1), "As the last bidder you may not bid 1")


def test_scores_are_oh_hells_with_an_off_bid_penalty_and_five_a_trick() -> None:
    """oh_hell(off_bid_penalty=true, points_per_trick=5): made, 5 a trick and 10; missed,
    -5 a trick of difference: Whistiti's own scores."""
    state = act(oh_hell_bidding(), "4 4 3 0")  # seats 1 2 3 0
    final = state._replace(phase=Phase.OVER, player=-1, is_terminal=True, tricks_won=(0, 4, 6, 2))
    assert final.scores() == (10, 30, -10, -5)


def test_a_whole_small_hand_led_from_left_of_the_dealer() -> None:
    game = make_game("whistiti", None, {"schedule": "2", "first_lead": "left_of_dealer"})
    hands = ("AH 2S", "KH 3C", "2H 4D", "5C 6D")
    unseen = hand_name(card_set(range(52)) & ~parse_hand(" ".join(hands)))
    state = start(game, hands, dealer=0, unseen=unseen, turned="9C", hand_size=2)
    state = act(state, "0 0 2 1")  # seat 3 bids the most; seat 1 leads all the same
    assert state.player == 1
    state = act(state, "KH 2H 5C AH")
    assert state.tricks[-1][2] == 3, "the clubs ruff wins"
    state = act(state, "6D 2S 3C 4D")
    assert state.tricks[-1][2] == 1, "seat 1 ruffs the diamond"
    assert state.phase == Phase.OVER and state.tricks_won == (0, 1, 0, 1)
    assert state.scores() == (-5, -5, 10, -5)


def test_a_bad_first_lead_is_refused() -> None:
    with pytest.raises(RulesError, match="first_lead must be one of highest_bidder, left_of_dealer"):
        make_game("whistiti", None, {"first_lead": "dealer"})


def test_more_players_need_a_smaller_hand() -> None:
    with pytest.raises(RulesError, match="1 to 10 cards"):
        make_game("whistiti", "oh_hell", {"players": 5})
    game = make_game("whistiti", "oh_hell", {"players": 5, "schedule": "10"})
    match = play_match(Match.start(game, 3), random.Random(3))
    assert match.over and len(match.results) == 1
