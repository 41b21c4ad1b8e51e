"""The basic bot against the random bot over fixed seeded games.

The margins are far below what the seeds below show (see the comments), and far above what
chance gives: two random bots differ by a few points a hand at most over this many hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from israeli_whist.bots.matches.runner import play_to_end
from israeli_whist.bots.players.base import Bot, RandomBot
from israeli_whist.bots.players.basic import BasicBot
from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match


@dataclass(frozen=True)
class Tally:
    basic_per_hand: float  # mean points a basic seat scored per hand played
    random_per_hand: float
    basic_games: int  # Classic Whist: games won by the basic side
    random_games: int


def tally(name: str, options: Mapping[str, Any], seeds: range, basic_seats: set[int]) -> Tally:
    game = make_game(name, None, options)
    seats = range(game.players)
    random_seats = set(seats) - basic_seats
    basic_points = random_points = hands = basic_games = random_games = 0
    for seed in seeds:
        bots: dict[int, Bot] = {s: BasicBot(seed) if s in basic_seats else RandomBot(seed * 10 + s) for s in seats}
        match = play_to_end(Match.start(game, seed), bots)
        hands += match.hands_played
        basic_points += sum(match.totals[s] for s in basic_seats)
        random_points += sum(match.totals[s] for s in random_seats)
        if match.games_won:
            basic_games += match.games_won[min(basic_seats)]
            random_games += match.games_won[min(random_seats)]
    return Tally(basic_points / len(basic_seats) / hands, random_points / len(random_seats) / hands,
                 basic_games, random_games)


def test_israeli_basic_outscores_random() -> None:
    # 24 games of 12 hands; the seeds show about -6 a hand for basic against -72 for random
    # (random players call and bid wildly, so even good play often misses).
    result = tally("israeli", {}, range(24), {0, 2})
    assert result.basic_per_hand - result.random_per_hand > 30
    assert result.basic_per_hand > -15


def test_israeli_basic_alone_among_random_players_outscores_them() -> None:
    result = tally("israeli", {"hands": 8}, range(12), {1})
    assert result.basic_per_hand - result.random_per_hand > 30


def test_whistiti_basic_outscores_random() -> None:
    # 20 games of 13 hands; the seeds show about +6 a hand for basic against -12 for random.
    result = tally("whistiti", {}, range(20), {0, 2})
    assert result.basic_per_hand > 0
    assert result.basic_per_hand - result.random_per_hand > 8


def test_whistiti_basic_outscores_random_with_seven_players() -> None:
    result = tally("whistiti", {"players": 7, "schedule": "up_down"}, range(10), {0, 3})
    assert result.basic_per_hand - result.random_per_hand > 8


def test_classic_basic_side_beats_random_side() -> None:
    # 60 games to 5 points; the seeds show the basic side winning nearly all of them.
    result = tally("classic", {}, range(60), {0, 2})
    assert result.basic_games >= 48
    assert result.basic_games + result.random_games == 60
    assert result.basic_per_hand > result.random_per_hand + 1
