"""The individual-contract search (paranoid per player) against plain minimax over every
line of play, and against max-n, on random small endings of every strain, mid-trick too."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

import pytest

from whist.bots.individual import maxn_values, paranoid_value, paranoid_value_exhaustive, playable
from whist.core.cards import NO_TRUMP, SPADES, CardSet, parse_hand
from whist.core.scoring import israeli_score, whistiti_score


def random_ending(rng: random.Random, tricks: int, players: int = 4
                  ) -> tuple[tuple[CardSet, ...], int, tuple[int, ...]]:
    """Hands of ``tricks`` cards each from a shuffled pack, then 0 to players-1 cards played
    legally to the first trick. Returns (hands now, leader, trick so far)."""
    cards = rng.sample(range(52), tricks * players)
    hands = [sum(1 << c for c in cards[s::players]) for s in range(players)]
    leader = rng.randrange(players)
    trick: tuple[int, ...] = ()
    for offset in range(rng.randrange(players)):
        seat = (leader + offset) % players
        card = rng.choice(playable(hands[seat], trick))
        hands[seat] &= ~(1 << card)
        trick += (card,)
    return tuple(hands), leader, trick


def random_score(rng: random.Random, tricks: int) -> Callable[[int], int]:
    """A player's score by final tricks: Israeli Whist (under or over) or Whistiti, some contract."""
    contract = rng.randrange(tricks + 2)
    if rng.random() < 0.5:
        return partial(israeli_score, contract, over=rng.random() < 0.5)
    return partial(whistiti_score, contract)


@pytest.mark.parametrize("tricks", [1, 2, 3, 4])
def test_paranoid_search_equals_plain_minimax(tricks: int) -> None:
    rng = random.Random(tricks)
    for _ in range(60 if tricks < 4 else 25):
        hands, leader, trick = random_ending(rng, tricks)
        trump = rng.randrange(5)
        player = rng.randrange(4)
        score = random_score(rng, tricks)
        taken = rng.randrange(3)
        expected = paranoid_value_exhaustive(hands, trump, leader, player, score, trick, taken)
        assert paranoid_value(hands, trump, leader, player, score, trick, taken) == expected


def test_five_trick_endings_and_three_players() -> None:
    rng = random.Random(5)
    for players, tricks, cases in ((4, 5, 3), (3, 5, 6)):
        for _ in range(cases):
            hands, leader, trick = random_ending(rng, tricks, players)
            trump, player, score = rng.randrange(5), rng.randrange(players), random_score(rng, tricks)
            expected = paranoid_value_exhaustive(hands, trump, leader, player, score, trick)
            assert paranoid_value(hands, trump, leader, player, score, trick) == expected


def test_max_n_never_gives_a_player_less_than_their_paranoid_value() -> None:
    rng = random.Random(11)
    for _ in range(40):
        hands, leader, trick = random_ending(rng, 3)
        trump = rng.randrange(5)
        scores = tuple(random_score(rng, 3) for _ in range(4))
        together = maxn_values(hands, trump, leader, scores, trick)
        for player in range(4):
            assert paranoid_value(hands, trump, leader, player, scores[player], trick) <= together[player]


def test_a_worked_ending() -> None:
    hands = tuple(parse_hand(h) for h in ("AS KS", "AH 2C", "KH QH", "3C 2D"))
    one_trick = partial(israeli_score, 1, over=False)
    # North (seat 0) leads two top spades, trumps or not: both win, and taking 2 tricks on a
    # contract of 1 scores -10.
    assert paranoid_value(hands, SPADES, 0, 0, one_trick) == -10
    assert paranoid_value(hands, NO_TRUMP, 0, 0, one_trick) == -10
    # East leads at no trump: the ace of hearts wins (North discards a spade), then the 2C is
    # won by South's 3C (North discards again). North takes nothing: a zero made scores 50 under.
    assert paranoid_value(hands, NO_TRUMP, 1, 0, partial(israeli_score, 0, over=False)) == 50
    # With spades trump, holding only spades, North must ruff the ace of hearts, then wins the
    # last trick too: -10 again, while a contract of 2 is made (4 + 10 = 14).
    assert paranoid_value(hands, SPADES, 1, 0, one_trick) == -10
    assert paranoid_value(hands, SPADES, 1, 0, partial(israeli_score, 2, over=False)) == 14
