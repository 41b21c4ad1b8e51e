"""Israeli Whist, the trump auction (docs/rules.md#israeli-whist-trump-auction)."""

from __future__ import annotations

import pytest
from helpers import SUIT_DEAL, act, expect_illegal, israeli, pass_round, start

from israeli_whist.core.actions import PASS, Phase, action_name, bid_action, parse_action
from israeli_whist.core.cards import CLUBS, HEARTS, NO_TRUMP, SPADES
from israeli_whist.core.state import HandState


def auction(dealer: int = 0, **options: object) -> HandState:
    return start(israeli(**options), SUIT_DEAL, dealer=dealer)


def names(state: HandState) -> list[str]:
    return [action_name(a) for a in state.legal_actions()]


@pytest.mark.parametrize(("dealer", "first"), [(0, 1), (1, 2), (3, 0)])
def test_the_player_left_of_the_dealer_calls_first(dealer: int, first: int) -> None:
    state = auction(dealer)
    assert state.phase == Phase.AUCTION
    assert state.player == first


@pytest.mark.parametrize("dealer", [0, 2, 3])
def test_auction_starts_dealer(dealer: int) -> None:
    assert auction(dealer, auction_starts="dealer").player == dealer


def test_calling_goes_round_to_the_left() -> None:
    state = auction(2)
    seats = []
    for _ in range(3):
        seats.append(state.player)
        state = state.apply(PASS)
    assert seats == [3, 0, 1]


def test_minimum_level_is_five() -> None:
    state = auction()
    legal = names(state)
    assert legal[:6] == ["pass", "5C", "5D", "5H", "5S", "6C"]
    expect_illegal(state, bid_action(4, SPADES), "The minimum bid in spades is now 5")
    expect_illegal(state, bid_action(1, CLUBS), "minimum bid in clubs is now 5")


def test_no_trump_needs_seven() -> None:
    state = auction()
    assert "6NT" not in names(state) and "7NT" in names(state)
    expect_illegal(state, bid_action(6, NO_TRUMP), "The minimum bid in no trump is now 7")
    assert state.apply(bid_action(7, NO_TRUMP)).high_bid == bid_action(7, NO_TRUMP)


def test_nt_minimum_five() -> None:
    state = auction(nt_minimum=5)
    assert names(state)[:6] == ["pass", "5C", "5D", "5H", "5S", "5NT"]
    assert state.apply(bid_action(5, NO_TRUMP)).high_bid == bid_action(5, NO_TRUMP)


def test_nt_minimum_nine_shifts_the_nt_bids() -> None:
    legal = names(auction(nt_minimum=9))
    assert "8NT" not in legal and "9NT" in legal


def test_no_trump_allowed_off() -> None:
    state = auction(no_trump_allowed=False)
    assert not any(name.endswith("NT") for name in names(state))
    expect_illegal(state, bid_action(7, NO_TRUMP), "No-trump bids are not allowed at this table")
    assert any(name.endswith("NT") for name in names(auction()))


def test_a_bid_must_beat_the_highest_bid() -> None:
    state = act(auction(), "5S")
    legal = names(state)
    assert legal[:4] == ["pass", "6C", "6D", "6H"]
    expect_illegal(state, bid_action(5, CLUBS), "A bid must beat 5 spades")
    expect_illegal(state, bid_action(5, SPADES), "A bid must beat 5 spades")
    assert act(state, "6H").high_bid == bid_action(6, HEARTS)


def test_same_level_in_a_higher_strain_beats() -> None:
    state = act(auction(), "5D")
    assert act(state, "5S").high_bid == bid_action(5, SPADES)
    expect_illegal(act(state, "5S"), bid_action(5, HEARTS), "A bid must beat 5 spades")


def test_maximum_level_is_thirteen() -> None:
    state = auction()
    assert names(state)[-1] == "13NT"
    expect_illegal(state, bid_action(14, SPADES), "There are only 13 tricks: the highest level is 13")
    top = act(state, "13NT")
    assert names(top) == ["pass"]


def test_a_bid_and_three_passes_end_the_auction() -> None:
    state = act(auction(), "pass 6H pass pass")
    assert state.phase == Phase.AUCTION and state.player == 1
    state = act(state, "pass")
    assert state.phase == Phase.CONTRACT
    assert state.declarer == 2 and state.player == 2
    assert state.trump == HEARTS
    assert state.high_bid == bid_action(6, HEARTS)
    assert [c[1:] for c in state.calls] == [(1, PASS), (2, bid_action(6, HEARTS)), (3, PASS), (0, PASS), (1, PASS)]


def test_no_trump_declarer_plays_without_trumps() -> None:
    state = act(auction(), "7NT pass pass pass")
    assert state.phase == Phase.CONTRACT and state.trump == NO_TRUMP


def test_a_player_who_passed_may_bid_later() -> None:
    state = act(auction(), "pass 5C pass pass")
    assert state.player == 1
    assert bid_action(5, SPADES) in state.legal_actions()
    state = act(state, "5S pass pass pass")
    assert state.phase == Phase.CONTRACT and state.declarer == 1 and state.trump == SPADES


def test_passes_in_a_row_restart_after_a_bid() -> None:
    state = act(auction(), "5C pass pass 5D pass pass")
    assert state.phase == Phase.AUCTION and state.passes == 2
    state = act(state, "pass")
    assert state.phase == Phase.CONTRACT and state.declarer == 0


def test_four_passes_lets_the_high_bidder_raise_their_own_bid() -> None:
    state = act(auction(auction_end="four_passes"), "5S pass pass pass")
    assert state.phase == Phase.AUCTION and state.player == 1
    assert bid_action(6, CLUBS) in state.legal_actions()
    state = act(state, "6S pass pass pass")
    assert state.phase == Phase.AUCTION and state.player == 1 and state.high_bid == bid_action(6, SPADES)
    state = act(state, "pass")
    assert state.phase == Phase.CONTRACT and state.declarer == 1 and state.trump == SPADES
    assert min(state.legal_actions()) == parse_action("6", Phase.CONTRACT)


def test_three_passes_never_give_the_high_bidder_a_raise() -> None:
    state = act(auction(auction_end="three_passes"), "5S pass pass pass")
    assert state.phase == Phase.CONTRACT


def test_four_passes_a_new_bidder_resets_the_count() -> None:
    state = act(auction(auction_end="four_passes"), "5S pass 6C pass pass pass")
    assert state.phase == Phase.AUCTION and state.player == 3 and state.declarer == 3
    state = act(state, "pass")
    assert state.phase == Phase.CONTRACT and state.declarer == 3 and state.trump == CLUBS


def test_all_pass_without_a_bid_is_a_frisch() -> None:
    state = pass_round(auction())
    assert state.phase == Phase.FRISCH
    assert state.player == 1
    assert state.high_bid == -1


def test_auction_illegal_actions() -> None:
    state = auction()
    expect_illegal(state, parse_action("QH", Phase.PLAY),
                   "It is time to make a trump call (pass or a bid), not QH")
    expect_illegal(state, parse_action("3", Phase.CONTRACT), "It is time to make a trump call")
