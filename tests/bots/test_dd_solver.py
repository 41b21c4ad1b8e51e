"""The compiled double-dummy solver against plain minimax (small endings) and against DDS (endplay).

The DDS sample here is sized for CI; ``bench/solver_vs_dds_check.py`` runs the long check.
"""

from __future__ import annotations

import random

import pytest

from israeli_whist.bots.search.dd import InvalidPositionError, dd_table, leader_side_tricks, solve
from israeli_whist.bots.search.dd.dds import dds_solve, dds_table
from israeli_whist.bots.search.dd.reference import legal_cards, reference_solve

Position = tuple[list[int], int, int, list[int]]


def random_position(rng: random.Random, tricks: int, cards_played: int) -> Position:
    """A deal of ``tricks`` cards a hand, then ``cards_played`` random legal cards to the first trick."""
    deck = rng.sample(range(52), 4 * tricks)
    hands = [sum(1 << card for card in deck[tricks * seat : tricks * (seat + 1)]) for seat in range(4)]
    trump, leader = rng.randrange(5), rng.randrange(4)
    trick: list[int] = []
    for position in range(cards_played):
        seat = (leader + position) % 4
        card = rng.choice(legal_cards(hands[seat], trick))
        hands[seat] &= ~(1 << card)
        trick.append(card)
    return hands, trump, leader, trick


@pytest.mark.parametrize("tricks", [1, 2, 3, 4])
def test_agrees_with_minimax_on_small_endings(tricks: int) -> None:
    rng = random.Random(tricks)
    for _ in range(150):
        hands, trump, leader, trick = random_position(rng, tricks, rng.randrange(4))
        assert solve(hands, trump, leader, trick) == reference_solve(hands, trump, leader, trick), (
            hands, trump, leader, trick,
        )


def test_agrees_with_minimax_on_five_card_endings() -> None:
    rng = random.Random(5)
    for _ in range(12):
        hands, trump, leader, trick = random_position(rng, 5, rng.randrange(4))
        assert solve(hands, trump, leader, trick) == reference_solve(hands, trump, leader, trick)


@pytest.mark.parametrize("tricks", [6, 9])
def test_tables_agree_with_dds_on_endings(tricks: int) -> None:
    rng = random.Random(100 + tricks)
    for _ in range(10):
        hands, _trump, _leader, _trick = random_position(rng, tricks, 0)
        assert dd_table(hands) == dds_table(hands), hands


def test_deep_endings_agree_with_dds() -> None:
    rng = random.Random(13)
    for _ in range(6):
        hands, trump, leader, _trick = random_position(rng, 10, 0)
        assert solve(hands, trump, leader) == dds_solve(hands, trump, leader), (hands, trump, leader)


def test_full_deals_agree_with_dds() -> None:
    # A CI-sized sample of whole deals; bench/solver_vs_dds_check.py checks thousands.
    rng = random.Random(2026)
    for number in range(10):
        hands, _trump, _leader, _trick = random_position(rng, 13, 0)
        trump, leader = number % 5, number % 4  # every strain and every leader
        assert solve(hands, trump, leader) == dds_solve(hands, trump, leader), (hands, trump, leader)


@pytest.mark.parametrize(
    ("hands", "trump", "leader", "trick"),
    [
        # A card that won by rank stood for the equal cards below it: their ranks count too.
        ([316660427008000, 8598880644, 11063902945312, 1130302787289153], 4, 3, []),
        ([2375656148992, 84967468, 2851035932656128, 439804651708546], 2, 1, [46]),
        # Cards are equal only if no card of the current trick lies between them.
        ([175939174533696, 1126180153459744, 2230321152, 249661751296], 0, 1, [3, 8, 28]),
    ],
)
def test_positions_that_once_disagreed_with_dds(hands: list[int], trump: int, leader: int, trick: list[int]) -> None:
    assert solve(hands, trump, leader, trick) == dds_solve(hands, trump, leader, trick)


def test_mid_trick_positions_agree_with_dds() -> None:
    rng = random.Random(7)
    for _ in range(60):
        hands, trump, leader, trick = random_position(rng, rng.randint(2, 8), rng.randint(1, 3))
        assert solve(hands, trump, leader, trick) == dds_solve(hands, trump, leader, trick), (
            hands, trump, leader, trick,
        )


def test_leader_side_counts_the_other_side_mid_trick() -> None:
    rng = random.Random(11)
    for _ in range(40):
        hands, trump, leader, trick = random_position(rng, 4, rng.randint(1, 3))
        on_move = solve(hands, trump, leader, trick)
        expected = on_move if len(trick) % 2 == 0 else 4 - on_move
        assert leader_side_tricks(hands, trump, leader, trick) == expected


@pytest.mark.parametrize(
    ("hands", "trump", "leader", "trick", "message"),
    [
        ([1, 2, 4], 4, 0, [], "four hands"),
        ([1, 2, 4, 8], 5, 0, [], "strain"),
        ([1, 2, 4, 8], 4, 4, [], "seats"),
        ([1, 1, 4, 8], 4, 0, [], "two hands"),
        ([1, 2, 4, 8 | 16], 4, 0, [], "holds"),
        ([1, 2, 4, 8], 4, 0, [0], "still in a hand"),
    ],
)
def test_rejects_impossible_positions(
    hands: list[int], trump: int, leader: int, trick: list[int], message: str
) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        solve(hands, trump, leader, trick)



def test_says_so_when_the_extension_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import israeli_whist.bots.search.dd as dd

    monkeypatch.setattr(dd, "_solver", None)
    with pytest.raises(dd.SolverUnavailableError, match="not compiled"):
        dd.solve([1, 2, 4, 8], 4, 0)
