"""Israeli Whist, contract bidding, play and the scores of a hand (docs/rules.md#israeli-whist)."""

from __future__ import annotations

import pytest
from helpers import EXAMPLE_DEAL, SUIT_DEAL, act, expect_illegal, israeli, start

from israeli_whist.core.actions import PASS, Phase, contract_action, parse_action
from israeli_whist.core.cards import DIAMONDS, NO_TRUMP, SPADES, parse_card
from israeli_whist.core.games.israeli import IsraeliWhist
from israeli_whist.core.state import HandState


def contracts_phase(game: IsraeliWhist | None = None) -> HandState:
    """Seat 1 (left of the dealer) is declarer in 5 diamonds."""
    return act(start(game or israeli(), EXAMPLE_DEAL), "5D pass pass pass")


def legal_contracts(state: HandState) -> list[int]:
    return [int(a - contract_action(0)) for a in state.legal_actions()]


def test_the_declarer_bids_first_at_least_the_auction_level() -> None:
    state = contracts_phase()
    assert state.phase == Phase.CONTRACT and state.player == 1
    assert legal_contracts(state) == list(range(5, 14))
    expect_illegal(state, contract_action(4), "As declarer you must bid at least your auction level, 5")
    expect_illegal(state, contract_action(14), "There are only 13 tricks: you cannot bid 14")
    expect_illegal(state, PASS, "It is time to bid a number of tricks, not pass")


def test_a_higher_auction_level_raises_the_declarer_minimum() -> None:
    state = act(start(israeli(), EXAMPLE_DEAL), "5D 7S pass pass pass")
    assert state.declarer == 2 and state.player == 2
    assert legal_contracts(state)[0] == 7


def test_the_others_bid_zero_to_thirteen_in_turn_to_the_left() -> None:
    state = act(contracts_phase(), "6")
    assert state.player == 2 and legal_contracts(state) == list(range(14))
    state = act(state, "0")
    assert state.player == 3 and legal_contracts(state) == list(range(14))
    state = act(state, "4")
    assert state.player == 0
    assert state.contracts == (-1, 6, 0, 4)


def test_the_last_bidder_may_not_make_thirteen() -> None:
    state = act(contracts_phase(), "6 3 2")
    assert legal_contracts(state) == [0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    expect_illegal(state, contract_action(2),
                   "As the last bidder you may not bid 2: the contracts would add up to 13, the number of tricks")


@pytest.mark.parametrize(("last", "kind"), [("3", "over"), ("1", "under"), ("13", "over"), ("0", "under")])
def test_over_and_under(last: str, kind: str) -> None:
    state = act(contracts_phase(), "6 3 2")
    assert state.over_under is None
    state = act(state, last)
    assert state.over_under == kind
    assert state.phase == Phase.PLAY


def test_when_the_others_already_pass_thirteen_nothing_is_forbidden() -> None:
    state = act(contracts_phase(), "13 13 13")
    assert legal_contracts(state) == list(range(14))


def test_the_declarer_leads_the_first_trick() -> None:
    state = act(contracts_phase(), "5 3 4 0")
    assert state.phase == Phase.PLAY
    assert state.player == 1 and state.leader == 1
    assert state.trump == DIAMONDS


def test_the_worked_example_trick() -> None:
    state = act(contracts_phase(), "5 3 4 0 9C QC 7D 8C")
    assert state.tricks == ((1, tuple(parse_card(c) for c in ("9C", "QC", "7D", "8C")), 3),)
    assert state.tricks_won == (0, 0, 0, 1)
    assert state.player == 3 and state.leader == 3, "the winner leads next"


def test_follow_suit_message() -> None:
    state = act(contracts_phase(), "5 3 4 0 9C QC 7D 8C 2H")
    assert state.player == 0
    expect_illegal(state, parse_card("6S"), "You must follow hearts: you hold the 9 of hearts")
    expect_illegal(state, parse_card("AS"), "You don't hold the ace of spades")
    assert sorted(state.legal_actions()) == [parse_card(c) for c in ("6H", "7H", "8H", "9H")]


def test_must_follow_clubs_when_holding_clubs() -> None:
    state = act(contracts_phase(), "5 3 4 0 9C")
    expect_illegal(state, parse_card("JD"), "You must follow clubs: you hold the ace of clubs")
    expect_illegal(state, parse_action("pass", Phase.AUCTION), "It is time to play a card, not pass")


def test_a_discard_cannot_win() -> None:
    # Seat 3 wins trick 1 and leads 2S; seat 1 would win with AS, seat 0 follows with TS.
    state = act(contracts_phase(), "5 3 4 0 9C QC 7D 8C 2S TS AS JS")
    assert state.tricks[-1][2] == 1
    # Seat 1 leads AH; seat 2 follows JH, seat 3 2H, seat 0 9H: the ace wins.
    state = act(state, "AH JH 2H 9H")
    assert state.tricks[-1][2] == 1
    # Seat 1 leads 2C, seat 2 follows with 5C; seats 3 and 0 have no clubs and choose to
    # discard rather than ruff: their discards (5H, the 9 of spades) cannot win, though higher.
    state = act(state, "2C 5C 5H 9S")
    assert state.tricks[-1][2] == 2


def test_a_no_trump_hand_has_no_trumps() -> None:
    state = act(start(israeli(), EXAMPLE_DEAL), "7NT pass pass pass 7 3 2 0 9C QC 7D 8C")
    assert state.trump == NO_TRUMP
    assert state.tricks[-1][2] == 2, "the queen of clubs wins: diamonds are not trumps"


def test_thirteen_tricks_end_the_hand_and_score_it() -> None:
    # Seat 3 holds every spade and is declarer in spades: it takes all 13 tricks.
    state = act(start(israeli(), SUIT_DEAL), "pass pass 5S pass pass pass 13 0 0 1")
    assert state.declarer == 3 and state.trump == SPADES and state.over_under == "over"
    for _ in range(13):
        assert state.player == 3
        state = state.apply(max(state.legal_actions()))
        for _ in range(3):
            state = state.apply(state.legal_actions()[0])
    assert state.phase == Phase.OVER and state.is_terminal
    assert state.tricks_won == (0, 0, 0, 13)
    assert state.scores() == (25, 25, -10, 179)
    expect_illegal(state, parse_card("AS"), "The hand is over: no more actions")


def over(state: HandState, contracts: tuple[int, ...], won: tuple[int, ...]) -> HandState:
    return state._replace(phase=Phase.OVER, player=-1, is_terminal=True, contracts=contracts, tricks_won=won)


@pytest.mark.parametrize(("contracts", "won", "standard", "achim"), [
    ((3, 4, 0, 7), (3, 6, 0, 4), (19, -20, 25, -30), (19, -20, 30, -30)),
    ((3, 4, 0, 5), (3, 6, 0, 4), (19, -20, 50, -10), (19, -20, 50, -10)),
    ((3, 4, 0, 7), (2, 4, 1, 6), (-10, 26, -50, -10), (-10, 26, -30, -10)),
    ((3, 4, 0, 5), (2, 4, 2, 5), (-10, 26, -40, 35), (-10, 26, -40, 35)),
    ((8, 4, 0, 2), (5, 4, 3, 1), (-30, 26, -30, -10), (-30, 26, -30, -10)),
])
def test_hand_scores_follow_zero_scoring(contracts: tuple[int, ...], won: tuple[int, ...],
                                         standard: tuple[int, ...], achim: tuple[int, ...]) -> None:
    assert over(contracts_phase(), contracts, won).scores() == standard
    assert over(contracts_phase(israeli(zero_scoring="achim")), contracts, won).scores() == achim


def test_hand_scores_follow_high_contract_first_undertrick() -> None:
    contracts, won = (8, 3, 0, 3), (5, 3, 2, 3)
    assert over(contracts_phase(), contracts, won).scores() == (-30, 19, -40, 19)
    state = contracts_phase(israeli(high_contract_first_undertrick=True))
    assert over(state, contracts, won).scores() == (-35, 19, -40, 19)


def test_scores_are_zero_until_the_hand_is_over() -> None:
    assert act(contracts_phase(), "5 3 4 0").scores() == (0, 0, 0, 0)
