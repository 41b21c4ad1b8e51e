"""A game of several hands: dealer rotation, totals, the end of a game, places (israeli_whist.core.match)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from helpers import israeli, play_match, whistiti

from israeli_whist.core.actions import PASS, Phase
from israeli_whist.core.errors import IllegalActionError
from israeli_whist.core.match import Match, deal_seed


def finish(match: Match, contracts: tuple[int, ...], won: tuple[int, ...]) -> Match:
    """Finish the hand under way as if it had been played to these contracts and tricks."""
    final = match.hand._replace(phase=Phase.OVER, player=-1, is_terminal=True, contracts=contracts, tricks_won=won)
    return match.finish_hand(final)


def test_israeli_game_ends_after_the_hands() -> None:
    match = play_match(Match.start(israeli(hands=3), 2), random.Random(2))
    assert match.over and match.hands_played == 3 and match.hands_total == 3
    played = play_match(Match.start(israeli(), 2), random.Random(2))
    assert played.hands_played == 12 and played.hands_total == 12
    assert played.totals == tuple(sum(r.points[s] for r in played.results) for s in range(4))
    with pytest.raises(IllegalActionError, match="The hand is over"):
        played.apply(PASS)
    assert list(played.legal_actions()) == [] and played.current_player == -1


def test_cancelled_hands_do_not_count() -> None:
    match = Match.start(israeli(hands=1, frisch_rounds=0), 4)
    for _ in range(4):
        match = match.apply(PASS)
    assert not match.over and match.hands_played == 0 and len(match.results) == 1
    match = finish(match, (3, 4, 0, 5), (3, 6, 0, 4))
    assert match.over and match.hands_played == 1 and len(match.results) == 2


def test_israeli_game_ends_at_the_target() -> None:
    match = Match.start(israeli(hands=0, target=50), 1)
    assert match.hands_total is None
    match = finish(match, (3, 4, 0, 5), (3, 6, 0, 4))  # 19, -20, 50, -10
    assert match.totals == (19, -20, 50, -10)
    assert match.over
    match = Match.start(israeli(hands=0, target=51), 1)
    assert not finish(match, (3, 4, 0, 5), (3, 6, 0, 4)).over


def test_the_target_can_end_a_game_before_its_hands() -> None:
    match = finish(Match.start(israeli(hands=12, target=40), 1), (3, 4, 0, 5), (3, 6, 0, 4))
    assert match.over and match.hands_played == 1


def test_the_dealer_moves_left_and_each_deal_has_its_own_seed() -> None:
    match = Match.start(israeli(), 8, first_dealer=3)
    dealers = []
    for _ in range(5):
        dealers.append(match.hand.dealer)
        expected = israeli().new_hand(match.hand.dealer, deal_seed(8, len(match.results)))
        assert match.hand.deal == expected.deal
        match = finish(match, (3, 4, 0, 5), (3, 6, 0, 4))
    assert dealers == [3, 0, 1, 2, 3]


def test_equal_totals_share_a_place() -> None:
    match = Match.start(israeli(), 1)
    assert replace(match, totals=(10, 10, 5, 20)).places() == (2, 2, 4, 1)
    assert replace(match, totals=(0, 0, 0, 0)).places() == (1, 1, 1, 1)
    assert replace(match, totals=(-5, 7, 7, 7)).places() == (4, 1, 1, 1)
    assert replace(Match.start(whistiti(players=5), 1), totals=(3, 9, 3, 1, 9)).places() == (3, 1, 3, 5, 1)


def test_whistiti_game_length() -> None:
    assert Match.start(whistiti(schedule="up_down"), 1).hands_total == 25
    assert Match.start(whistiti(players=7, schedule="2,4"), 1).hands_total == 2


def test_match_is_immutable() -> None:
    match = Match.start(israeli(), 1)
    before = repr(match)
    after = match.apply(match.legal_actions()[1])
    assert repr(match) == before and after is not match
    assert after.hand.history == (match.legal_actions()[1],)
