"""Who sits where, and saving the record: what the interactive and the watched game share."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from israeli_whist.bots.matches.runner import BotsAt, BotSeats
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.core.match import Match
from israeli_whist.core.records import dump_record, to_record


class Leave(Exception):
    """The player leaves before the game is over (quit, end of input, Ctrl-C)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Seats:
    players: list[str]  # names by player index, as the record keeps them
    names: list[str]  # names by seat, as the screen shows them
    human: int  # the human's seat; -1 when bots play every seat
    bots: BotSeats | BotsAt  # the same bots all game, or made for each decision (an event board's)


def make_seats(match: Match, level: str, seed: int, human_name: str | None) -> Seats:
    """Player 0 is the human (unless every seat is a bot); a cut for partners may seat them anywhere."""
    n = match.game.players
    # A bot is named by its seat, counted from 1, as the web's table names it (Bot 2 to 4 beside a
    # person in seat 1), so that a game reads the same in both; a cut for partners may move seats.
    seat_of = {player: seat for seat, player in enumerate(match.seating)}
    players = [f"Bot {seat_of[i] + 1}" for i in range(n)]
    if human_name is not None:
        players[0] = human_name
    names = [players[match.seating[seat]] for seat in range(n)]
    human = match.seating.index(0) if human_name is not None else -1
    # Each bot's randomness derives from the game seed, so --seed replays the bots' choices too.
    bots = {seat: make_bot(level, f"{seed}/bot/{seat}") for seat in range(n) if seat != human}
    return Seats(players, names, human, bots)


def save_record(console: Console, match: Match, seats: Seats, path: Path,
                hints: Mapping[int, Sequence[tuple[int, int]]] | None = None) -> bool:
    """Write the game's record (with the ``hints`` used: per hand number, (step, seat) pairs)."""
    try:
        dump_record(to_record(match, seats.players, hints=hints), path)
    except OSError as error:
        print(f"Could not save the game to {path}: {error.strerror}", file=sys.stderr)
        return False
    note = "" if match.over else f" (unfinished; `whist check {path}` replays it)"
    console.print(f"Saved the game to {escape(str(path))}{escape(note)}.")
    return True
