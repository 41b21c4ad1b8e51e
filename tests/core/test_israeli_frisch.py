"""Israeli Whist, the Frisch: all pass, three cards each, a new auction (docs/rules.md#israeli-whist-frisch)."""

from __future__ import annotations

import pytest
from helpers import SUIT_DEAL, act, expect_illegal, frisch_exchange, israeli, pass_round, start

from israeli_whist.core.actions import PASS, Phase, action_name, bid_action
from israeli_whist.core.cards import NO_TRUMP, SPADES, parse_card, parse_hand
from israeli_whist.core.match import Match
from israeli_whist.core.state import HandState

# Each seat passes its three lowest cards: seat 0 2C 3C 4C, seat 1 2D 3D 4D, and so on.
LOW = ("2C 3C 4C", "2D 3D 4D", "2H 3H 4H", "2S 3S 4S")


def frisch(dealer: int = 0, **options: object) -> HandState:
    return pass_round(start(israeli(**options), SUIT_DEAL, dealer=dealer))


def lowest_bids(state: HandState) -> tuple[str, str]:
    """The lowest suit bid and the lowest no-trump bid now allowed."""
    bids = [action_name(a) for a in state.legal_actions() if a != PASS]
    return bids[0], next((b for b in bids if b.endswith("NT")), "none")


def test_three_cards_are_chosen_one_at_a_time() -> None:
    state = frisch()
    assert state.phase == Phase.FRISCH and state.player == 1
    assert sorted(state.legal_actions()) == sorted(parse_card(c) for c in SUIT_DEAL[1].split())
    state = state.apply(parse_card("2D"))
    assert state.player == 1 and parse_card("2D") not in state.legal_actions()
    expect_illegal(state, parse_card("2D"), "You have already chosen the 2 of diamonds")
    expect_illegal(state, parse_card("2C"), "You don't hold the 2 of clubs")
    expect_illegal(state, PASS, "It is time to choose a card to pass, not pass")
    state = act(state, "3D 4D")
    assert state.player == 2 and state.phase == Phase.FRISCH


def test_the_exchange_is_simultaneous() -> None:
    state = frisch()
    dealt = state.hands
    for seat in (1, 2, 3):
        state = act(state, LOW[seat])
        assert state.hands == dealt, "no card moves before every seat has chosen"
    assert state.player == 0
    state = act(state, LOW[0])
    assert state.phase == Phase.AUCTION and state.frisch_round == 1
    assert state.frisch_passes == (tuple(parse_hand(t) for t in LOW),)
    assert state.frisch_selected == (0, 0, 0, 0)
    assert state.deal == dealt, "the deal keeps the cards as dealt"


@pytest.mark.parametrize(("direction", "offset"), [("left", 1), ("right", 3)])
def test_frisch_direction(direction: str, offset: int) -> None:
    state = frisch_exchange(frisch(frisch_direction=direction), LOW)
    for seat in range(4):
        giver = (seat - offset) % 4
        expected = parse_hand(SUIT_DEAL[seat]) & ~parse_hand(LOW[seat]) | parse_hand(LOW[giver])
        assert state.hands[seat] == expected


def test_left_means_seat_plus_one() -> None:
    state = frisch_exchange(frisch(), LOW)
    assert state.hands[1] & parse_hand("2C 3C 4C") == parse_hand("2C 3C 4C")


def test_rotating_direction_goes_left_across_right() -> None:
    state = frisch(frisch_direction="rotating")
    received = []
    for _ in range(3):
        before = state.hands
        state = pass_round(frisch_exchange(state))
        passes = state.frisch_passes[-1]
        received.append(tuple(next(g for g in range(4) if passes[g] & state.hands[s] & ~before[s]) for s in range(4)))
    # Seat s receives from s-1 (left), then s-2 (across), then s+1 (right).
    assert received == [(3, 0, 1, 2), (2, 3, 0, 1), (1, 2, 3, 0)]


def test_the_new_auction_starts_with_the_same_player() -> None:
    state = frisch_exchange(frisch(dealer=2))
    assert state.phase == Phase.AUCTION and state.player == 3
    state = frisch_exchange(frisch(dealer=2, auction_starts="dealer"))
    assert state.player == 2


def test_minimum_rises_to_six_seven_eight() -> None:
    state = frisch()
    minimums = []
    for _ in range(3):
        state = frisch_exchange(state)
        minimums.append(lowest_bids(state))
        state = pass_round(state)
    assert minimums == [("6C", "7NT"), ("7C", "7NT"), ("8C", "8NT")]
    assert state.phase == Phase.CANCELLED


def test_minimum_message_after_a_frisch() -> None:
    state = frisch_exchange(frisch())
    expect_illegal(state, bid_action(5, SPADES), "The minimum bid in spades is now 6")
    assert state.apply(bid_action(6, SPADES)).high_bid == bid_action(6, SPADES)


def test_nt_minimum_five_rises_with_the_frisch() -> None:
    state = frisch(nt_minimum=5)
    minimums = []
    for _ in range(3):
        state = frisch_exchange(state)
        minimums.append(lowest_bids(state)[1])
        state = pass_round(state)
    assert minimums == ["6NT", "7NT", "8NT"]


def test_nt_minimum_above_eight_still_holds_in_the_third_frisch() -> None:
    """docs/rules.md#israeli-whist-frisch: 8 for every strain in the third Frisch with nt_minimum 5
    or 7; with nt_minimum 9 the engine keeps 9 for no trump (the higher of the two minimums)."""
    state = frisch(nt_minimum=9)
    for _ in range(2):
        state = pass_round(frisch_exchange(state))
    assert lowest_bids(frisch_exchange(state)) == ("8C", "9NT")


def test_frisch_raises_minimum_off() -> None:
    state = frisch(frisch_raises_minimum=False)
    for _ in range(3):
        state = frisch_exchange(state)
        assert lowest_bids(state) == ("5C", "7NT")
        state = pass_round(state)


@pytest.mark.parametrize("rounds", [0, 1, 2, 3])
def test_frisch_rounds_then_the_hand_is_cancelled(rounds: int) -> None:
    state = start(israeli(frisch_rounds=rounds), SUIT_DEAL)
    for _ in range(rounds):
        state = pass_round(state)
        assert state.phase == Phase.FRISCH
        state = frisch_exchange(state)
    state = pass_round(state)
    assert state.phase == Phase.CANCELLED
    assert state.is_terminal and state.player == -1
    assert list(state.legal_actions()) == []
    assert state.scores() == (0, 0, 0, 0)
    assert state.frisch_round == rounds
    expect_illegal(state, PASS, "The hand is over")


def test_a_bid_after_a_frisch_leads_to_contracts() -> None:
    state = act(frisch_exchange(frisch()), "pass 7NT pass pass pass")
    assert state.phase == Phase.CONTRACT
    assert state.declarer == 2 and state.trump == NO_TRUMP
    assert min(state.legal_actions()) - max(state.legal_actions()) == 7 - 13


def test_a_cancelled_hand_is_redealt_by_the_same_dealer() -> None:
    match = Match.start(israeli(frisch_rounds=0, hands=2), seed=5, first_dealer=1)
    first = match.hand
    for _ in range(4):
        match = match.apply(PASS)
    assert len(match.results) == 1 and match.results[0].cancelled
    assert match.results[0].points == (0, 0, 0, 0) and match.totals == (0, 0, 0, 0)
    assert match.hands_played == 0 and not match.over
    assert match.hand.dealer == 1 and match.hand.phase == Phase.AUCTION
    assert match.hand.deal != first.deal, "a new shuffle"


def test_a_cancelled_hand_after_three_frisch_rounds_in_a_match() -> None:
    match = Match.start(israeli(), seed=9, first_dealer=3)
    for _ in range(3):
        for _ in range(4):
            match = match.apply(PASS)
        while match.hand.phase == Phase.FRISCH:
            match = match.apply(match.legal_actions()[0])
    for _ in range(4):
        match = match.apply(PASS)
    assert match.results[-1].cancelled and match.results[-1].final.frisch_round == 3
    assert match.hand.dealer == 3 and match.hand.frisch_round == 0 and match.hands_played == 0
