"""Classic Whist: partnerships, the turned-up trump, odd tricks, honours and rubbers (docs/rules.md#classic-whist)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from helpers import SUIT_DEAL, act, check_state, classic, expect_illegal, start

from israeli_whist.core.actions import PASS, Phase
from israeli_whist.core.cards import CLUBS, SPADES, parse_card
from israeli_whist.core.errors import IllegalActionError
from israeli_whist.core.games.classic import ClassicWhist, cut_for_partners, side_of
from israeli_whist.core.match import Match
from israeli_whist.core.state import HandState
from israeli_whist.core.views import hidden_cards, seat_view

# Side 0 (seats 0 and 2) holds A K Q of clubs, side 1 the jack.
HONOURS_DEAL = (
    "AC KC 2C 3C 4C 5C 6C 7C 8C 9C TC 2D 3D",
    "JC 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2H",
    "QC 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    None,
)


def test_partners_sit_opposite() -> None:
    assert [side_of(seat) for seat in range(4)] == [0, 1, 0, 1]


def test_the_turned_card_is_the_dealers_last_card_and_sets_trump() -> None:
    game = classic()
    state = game.deal_cards(0, list(range(52)))
    assert state.turned_card == parse_card("AS") and state.trump == SPADES
    assert state.hands[0] >> parse_card("AS") & 1
    state = game.deal_cards(1, list(range(51, -1, -1)))
    assert state.turned_card == parse_card("2C") and state.trump == CLUBS
    assert state.hands[1] >> parse_card("2C") & 1
    for seed in range(5):
        state = game.new_hand(seed % 4, seed)
        assert state.hands[state.dealer] >> state.turned_card & 1
        assert state.trump == state.turned_card // 13
        check_state(state)


def test_the_turned_card_must_be_the_dealers() -> None:
    with pytest.raises(IllegalActionError, match="turned-up trump card must be one of the dealer's cards"):
        start(classic(), SUIT_DEAL, dealer=0, turned="2D")


@pytest.mark.parametrize(("dealer", "leader"), [(0, 1), (1, 2), (3, 0)])
def test_the_player_left_of_the_dealer_leads(dealer: int, leader: int) -> None:
    state = classic().new_hand(dealer, 11)
    assert state.phase == Phase.PLAY and state.player == leader and state.leader == leader
    assert PASS not in state.legal_actions()


def turned_up_hand() -> HandState:
    """Dealer 0 turns up the 5 of clubs; seat 1 leads a diamond, seats 2 and 3 discard."""
    return act(start(classic(), SUIT_DEAL, dealer=0, turned="5C"), "2D 2H 2S")


def test_the_turned_card_is_visible_to_every_seat_during_the_first_trick() -> None:
    state = turned_up_hand()
    assert state.trump == CLUBS and state.player == 0
    for seat in (-1, 0, 1, 2, 3):
        assert seat_view(state, seat).turned_card == parse_card("5C")
        assert not hidden_cards(state, seat) >> parse_card("5C") & 1


def test_the_turned_card_is_hidden_after_the_first_trick() -> None:
    state = act(turned_up_hand(), "AC")
    assert state.hands[0] >> parse_card("5C") & 1, "the dealer still holds it"
    assert seat_view(state, 0).turned_card == -1
    for seat in (-1, 1, 2, 3):
        assert seat_view(state, seat).turned_card == -1
        assert hidden_cards(state, seat) >> parse_card("5C") & 1
    check_state(state)


def test_the_turned_card_once_played_is_in_the_trick() -> None:
    state = act(turned_up_hand(), "5C")
    assert state.tricks[-1] == (1, tuple(parse_card(c) for c in ("2D", "2H", "2S", "5C")), 0)
    assert all(seat_view(state, seat).turned_card == -1 for seat in range(4))


def test_follow_suit_and_trumps_win() -> None:
    state = act(start(classic(), HONOURS_DEAL, dealer=3, turned="5S"), "AC")
    assert state.trump == SPADES and state.player == 1
    expect_illegal(state, parse_card("4D"), "You must follow clubs: you hold the jack of clubs")
    state = act(state, "JC QC 2S")
    assert state.tricks[-1][2] == 3, "the two of trumps beats the ace of clubs"
    assert state.player == 3


def won(match: Match, tricks: tuple[int, int, int, int], hand: HandState | None = None) -> Match:
    """Finish the hand under way as if the seats had taken ``tricks``."""
    final = (hand or match.hand)._replace(phase=Phase.OVER, player=-1, is_terminal=True, tricks_won=tricks)
    return match.finish_hand(final)


def test_odd_tricks_score_for_both_partners() -> None:
    match = Match.start(classic(), 3)
    match = won(match, (4, 3, 4, 2))
    assert match.results[0].points == (2, 0, 2, 0)
    assert match.totals == match.game_points == (2, 0, 2, 0)
    match = won(match, (3, 4, 3, 3))
    assert match.results[1].points == (0, 1, 0, 1)


def test_the_dealer_moves_left() -> None:
    match = Match.start(classic(), 3, first_dealer=2)
    assert match.hand.dealer == 2
    assert won(match, (3, 4, 3, 3)).hand.dealer == 3


@pytest.mark.parametrize(("target", "hands_to_win"), [(5, 1), (10, 2), (1, 1)])
def test_a_game_ends_when_a_side_reaches_the_target(target: int, hands_to_win: int) -> None:
    match = Match.start(classic(target=target), 1)
    for _ in range(hands_to_win - 1):
        match = won(match, (4, 0, 3, 6))  # side 0 takes 7: one point
        assert not match.over
    if target == 10:
        match = won(match, (6, 0, 7, 0))  # seven points: 1 + 7 < 10, not yet
        assert not match.over
        match = won(match, (6, 0, 4, 3))
    else:
        match = won(match, (6, 0, 7, 0))
    assert match.over
    assert match.games_won == (1, 0, 1, 0)
    assert match.places() == (1, 2, 1, 2)
    assert list(match.legal_actions()) == [] and match.current_player == -1


def honours_match(**options: object) -> Match:
    match = Match.start(classic(**options), 4)
    return replace(match, hand=start(match.game, HONOURS_DEAL, dealer=0, turned="2C"))


def test_honours_held() -> None:
    match = honours_match(honours=True)
    game = match.game
    assert isinstance(game, ClassicWhist)
    assert game.honours_held(match.hand) == (3, 1)
    suit_hand = start(game, SUIT_DEAL, dealer=0, turned="5C")
    assert game.honours_held(suit_hand) == (4, 0)
    assert game.honour_points(suit_hand, (0, 0)) == (4, 0)


def test_honours_three_of_them_score_two() -> None:
    match = won(honours_match(honours=True), (3, 4, 3, 3))  # side 1 takes 7 tricks
    assert match.results[0].honours == (2, 0)
    assert match.results[0].points == (2, 1, 2, 1)
    assert match.game_points == (2, 1, 2, 1)


def test_honours_are_off_by_default() -> None:
    match = won(honours_match(), (3, 4, 3, 3))
    assert match.results[0].honours == (0, 0)
    assert match.results[0].points == (0, 1, 0, 1)


def test_honours_are_not_counted_at_target_minus_one() -> None:
    match = replace(honours_match(honours=True), game_points=(4, 0, 4, 0))
    match = won(match, (3, 4, 3, 3))
    assert match.results[0].honours == (0, 0) and not match.over
    match = replace(honours_match(honours=True, target=10), game_points=(8, 0, 8, 0))
    assert won(match, (3, 4, 3, 3)).results[0].honours == (2, 0)
    match = replace(honours_match(honours=True, target=10), game_points=(9, 0, 9, 0))
    assert won(match, (3, 4, 3, 3)).results[0].honours == (0, 0)


def test_honours_can_end_a_game() -> None:
    match = replace(honours_match(honours=True), game_points=(3, 0, 3, 0))
    match = won(match, (3, 4, 3, 3))
    assert match.over and match.games_won == (1, 0, 1, 0)


def test_tricks_score_before_honours() -> None:
    # Side 0 stands at 3 of 5 and takes 8 tricks: the game is won before side 1's honours count.
    match = replace(honours_match(honours=True), game_points=(3, 0, 3, 0))
    game = match.game
    assert isinstance(game, ClassicWhist) and game.honours_held(match.hand) == (3, 1)
    finished = won(match, (4, 2, 4, 3))
    assert finished.results[0].honours == (0, 0) and finished.games_won == (1, 0, 1, 0)


def test_rubber_is_best_of_three() -> None:
    match = Match.start(classic(rubber=True), 2)
    match = won(match, (7, 0, 6, 0))
    assert match.games_won == (1, 0, 1, 0) and match.game_points == (0, 0, 0, 0) and not match.over
    match = won(match, (0, 7, 0, 6))
    assert match.games_won == (1, 1, 1, 1) and not match.over
    match = won(match, (7, 0, 6, 0))
    assert match.games_won == (2, 1, 2, 1) and match.over
    assert match.places() == (1, 2, 1, 2)


def test_a_rubber_can_end_two_nil() -> None:
    match = Match.start(classic(rubber=True), 2)
    match = won(won(match, (0, 7, 0, 6)), (0, 7, 0, 6))
    assert match.over and match.games_won == (0, 2, 0, 2)


def test_without_rubber_one_game_is_the_whole_match() -> None:
    assert won(Match.start(classic(), 2), (7, 0, 6, 0)).over


def test_seating_is_fixed_unless_cutting_for_partners() -> None:
    assert Match.start(classic(), 7).seating == (0, 1, 2, 3)
    seatings = {Match.start(classic(cut_for_partners=True), seed).seating for seed in range(12)}
    assert len(seatings) > 1
    assert all(sorted(s) == [0, 1, 2, 3] for s in seatings)


@pytest.mark.parametrize("seed", [0, 1, 2, "x", 99])
def test_the_two_highest_cuts_play_together(seed: int | str) -> None:
    seating = cut_for_partners(seed)
    cards = random.Random(f"{seed}/cut").sample(range(52), 4)
    strength = [(cards[p] % 13, cards[p] // 13) for p in range(4)]
    top_two = sorted(range(4), key=lambda p: strength[p], reverse=True)[:2]
    assert {seating[0], seating[2]} == set(top_two)
    assert seating[0] == top_two[0]


def test_both_sides_reaching_the_target_in_one_hand() -> None:
    """Tricks score before honours (docs/rules-notes.md): when the tricks take one side to the
    target, the other side's honours do not count, so only one side wins the game."""
    match = replace(honours_match(honours=True), game_points=(3, 4, 3, 4))
    match = won(match, (3, 4, 3, 3))  # side 1: one odd trick; side 0: three honours
    assert match.results[0].points == (0, 1, 0, 1)
    assert match.games_won == (0, 1, 0, 1) and match.over
