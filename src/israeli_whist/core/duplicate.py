"""Duplicate for people (issue 46's first step): an event's boards, and each result scored
against the field, everyone else who held the same cards in the same seat.

- **A board** is one hand of an event, dealt from the event's seed and the board's number, its
  dealer turning with the boards as at a table. Whoever plays board 3 of an event, wherever and
  whenever, meets the same cards; the bots of a board are seeded from the board and their seat,
  so the same play gets the same answers.
- **Matchpoints**: each result is compared with every other result of its board and seat, one
  point for each it beats, half for each it ties, given as a percentage of the comparisons (a
  result alone in its field gets 50%: nothing to beat or lose to, as bridge scores a board played
  once).
- **Above the field**: the result's points less the field's average, the result itself counted
  in it (the datum, as bridge's IMP scoring takes it).
- **Standings**: each player's mean matchpoint percentage over the boards they played, ties
  broken by their total points above the field, then by name.
"""

from __future__ import annotations

import bisect
import math
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from israeli_whist.core.errors import RulesError
from israeli_whist.core.games import make_game
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.match import Match

Player = TypeVar("Player", bound=Hashable)
Field = TypeVar("Field", bound=Hashable)  # what tells one field from another (board and seat)

ALONE_PERCENT = 50.0  # a result with no other in its field
# What an event against bots is, in the web app and in ``whist event``'s files alike: the bots it may
# have, those whose answers do not depend on the machine's speed (the expert's time budget does), so
# that everyone's board meets the same play; its number of boards; the seat a player takes on each.
EVENT_LEVELS = ("easy", "medium", "hard")
MAX_BOARDS = 24
PLAYER_SEAT = 0
SHOWN_DECIMALS = 2  # of a percentage or points above the field, as the pages and the terminal show them


@dataclass(frozen=True)
class FieldScore:
    points: float
    percent: float  # matchpoints as a percentage of the field beaten, ties half
    above_average: float  # points less the field's average (this result included)
    field: int  # results in the field, this one included


def score_field(points: Mapping[Player, float]) -> dict[Player, FieldScore]:
    """Every result of one board and seat against the others: ``points`` by player."""
    ordered = sorted(points.values())  # a daily event's field is hundreds: counted by bisection
    count = len(ordered)
    average = math.fsum(ordered) / count if count else 0.0
    scored = {}
    for player, own in points.items():
        if count == 1:
            percent = ALONE_PERCENT
        else:
            beaten = bisect.bisect_left(ordered, own)
            tied = bisect.bisect_right(ordered, own) - beaten - 1  # not itself
            percent = 100.0 * (beaten + tied / 2) / (count - 1)
        scored[player] = FieldScore(own, percent, own - average, count)
    return scored


@dataclass(frozen=True)
class Standing:
    player: Hashable
    boards: int
    percent: float  # mean matchpoint percentage over the boards played
    above_average: float  # total points above the field


def standings(results: Mapping[Field, Mapping[Player, float]]) -> list[Standing]:
    """An event's standings from its results: by field (board and seat), each player's points."""
    percents: dict[Hashable, list[float]] = defaultdict(list)
    above: dict[Hashable, float] = defaultdict(float)
    for field in results.values():
        for player, scored in score_field(field).items():
            percents[player].append(scored.percent)
            above[player] += scored.above_average
    rows = [Standing(player, len(found), math.fsum(found) / len(found), above[player])
            for player, found in percents.items()]
    return sorted(rows, key=lambda row: (-row.percent, -row.above_average, str(row.player)))


def places(rows: Sequence[Standing], decimals: int = SHOWN_DECIMALS) -> list[int]:
    """Each row's place in ``standings``: players level on both measures to the ``decimals`` shown
    share a place (sums taken in another order may differ in their last bits), the next one after
    them is placed by its row (1, 2, 2, 4)."""
    found: list[int] = []
    for index, row in enumerate(rows):
        level = index > 0 and _shown(rows[index - 1], decimals) == _shown(row, decimals)
        found.append(found[-1] if level else index + 1)
    return found


def _shown(row: Standing, decimals: int) -> tuple[float, float]:
    return round(row.percent, decimals), round(row.above_average, decimals)


def board_seed(event_seed: str, number: int) -> str:
    """The seed that deals board ``number`` (from 1) of the event."""
    if number < 1:
        raise ValueError(f"Boards are numbered from 1, not {number}")
    return f"{event_seed}/board/{number}"


def decision_seed(table_seed: str, seat: int, step: int) -> str:
    """The seed of the bot that decides for ``seat`` at ``step`` (actions taken so far in the game)
    of a table dealt from ``table_seed``: a fresh bot each decision, so its answer depends on the
    cards and the play alone, never on which server asks, when, or what it asked before."""
    return f"{table_seed}/bot/{seat}/{step}"


def actions_taken(match: Match) -> int:
    """The step of ``decision_seed``: the actions taken so far in the game, a deal thrown in
    (everyone passed) and dealt again counted with the rest, as a table numbers its actions."""
    finished = sum(len(result.final.history) for result in match.results)
    return finished if match.over else finished + len(match.hand.history)


def board_bot_seed(event_seed: str, number: int, seat: int, step: int) -> str:
    """``decision_seed`` on board ``number`` of an event: the same play gets the same answers."""
    return decision_seed(board_seed(event_seed, number), seat, step)


def board_game(name: str, preset: str | None, options: Mapping[str, Any], number: int) -> HandGame:
    """Board ``number``'s rules: the event's, as a game of one hand (``WholeGame.board_options``).
    Raises ``RulesError`` for rules that make no one-hand game (Classic Whist's rubbers)."""
    return make_game(name, preset, board_options(name, preset, options, number))


def board_options(name: str, preset: str | None, options: Mapping[str, Any], number: int) -> dict[str, Any]:
    """The rule options of board ``number``'s one-hand game: the event's, and what makes it one hand."""
    return {**options, **make_game(name, preset, options).board_options(number)}


def options_set_by_boards(name: str) -> list[str] | None:
    """The rule options that the boards of an event of game ``name`` set themselves (an event's form
    leaves them out); None for a game that has no one-hand boards (Classic Whist)."""
    try:
        return list(make_game(name, None, {}).options_set_by_boards())
    except RulesError:
        return None


def board_first_dealer(number: int, players: int) -> int:
    """Board 1 is dealt by seat 0, board 2 by seat 1, and so on round the table."""
    if number < 1:
        raise ValueError(f"Boards are numbered from 1, not {number}")
    return (number - 1) % players


def board_match(game: HandGame, event_seed: str, number: int) -> Match:
    """Board ``number`` (its ``board_game``) as dealt: its cards from the event's seed, its
    dealer the board's turn."""
    return Match.start(game, board_seed(event_seed, number), board_first_dealer(number, game.players))


def seats_of(boards: Sequence[int], players: int, rotation: int) -> list[int]:
    """Friends at one table play the boards in rotated seats: the seat of the player at
    ``rotation`` (0 .. players-1) on each of ``boards``, so over as many boards as seats each
    sits everywhere once."""
    return [(rotation + number - 1) % players for number in boards]
