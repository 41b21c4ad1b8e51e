"""A board of an event played in the terminal (``whist event play``), exactly as the web app plays it:
the board's rules and deal from ``core.duplicate``, the person in the first seat, and in the others
bots made afresh for each decision (``bots.matches.boardbots``), so that the same play gets the same
answers here and on the server. The game itself is ``whist play``'s (``TerminalGame``).

The result is added to the file only once the board is over: a player who leaves (quit, Ctrl-C,
the end of the input) records nothing, and the file keeps what it held.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console

from israeli_whist.bots.matches.boardbots import board_bots
from israeli_whist.cli.eventfile import (
    BoardResult,
    Event,
    EventFileError,
    load_event,
    replay_board,
    result_of,
    save_event,
)
from israeli_whist.cli.eventstandings import field_table
from israeli_whist.cli.play import Reader, TerminalGame
from israeli_whist.cli.session import Seats, make_seats
from israeli_whist.cli.views import View, full_screen
from israeli_whist.core.actions import action_name
from israeli_whist.core.duplicate import PLAYER_SEAT
from israeli_whist.core.match import Match
from israeli_whist.core.records import seats_and_actions, to_record

NO_HINTS = "Hints are off on an event's boards: everyone plays them on their own."


def board_seats(event: Event, match: Match, number: int, player: str) -> Seats:
    """``player`` in the first seat, and the event's bots, seeded for each decision, in the others."""
    seats = make_seats(match, event.bot_level, 0, player)  # its bots give way to the board's
    assert seats.human == PLAYER_SEAT  # no game an event plays cuts for seats
    others = frozenset(range(match.game.players)) - {PLAYER_SEAT}
    return replace(seats, bots=board_bots(event.bot_level, event.table_seed(number), others))


def board_record(event: Event, result: BoardResult) -> dict[str, Any]:
    """The game record of a board played (``core.records``), for ``whist check``, ``whist analyze``
    and its review: the player in the first seat, the bots named as at the table."""
    match = replay_board(event.board_match(result.board), result.actions, f"{result.player}'s board {result.board}")
    return to_record(match, board_seats(event, match, result.board, result.player).players)


def board_actions(match: Match) -> tuple[tuple[int, str], ...]:
    """Every action of a finished board, with the seat that took it, a deal thrown in included."""
    return tuple((seat, action_name(action)) for result in match.results
                 for seat, action in seats_and_actions(result.final))


def play_board(path: Path, event: Event, player: str, number: int, console: Console, read: Reader,
               view: View = View.plain, delay: float = 0.8) -> int:
    """Play board ``number`` of ``event`` (read from ``path``) as ``player``, in the plain log (answering
    with ``read``) or on the full-screen table; record it once it is over. The exit code: 0, or the
    game's when the player leaves before the end."""
    match = event.board_match(number)
    seats = board_seats(event, match, number, player)
    console.print(f"{event.name}, board {number} of {event.boards}: {event.title}, {player} against "
                  f"{match.game.players - 1} {event.bot_level} bots.", markup=False)
    game: TerminalGame
    if view == View.table:
        game, code = full_screen(match, seats, console, delay, hints=False, no_hints=NO_HINTS)
    else:
        game = TerminalGame(match, seats, console, read, None, hints=False, no_hints=NO_HINTS)
        code = game.run()
    if not game.match.over:
        console.print(f"Board {number} is not recorded: {player} may play it again.", markup=False)
        return code
    result = result_of(game.match, player, number, PLAYER_SEAT, board_actions(game.match))
    recorded = record_result(path, event, result)
    console.print(f"\nBoard {number} recorded for {player}.", markup=False)
    console.print(field_table(recorded, number))
    return 0


def record_result(path: Path, played: Event, result: BoardResult) -> Event:
    """Add ``result`` to the file as it is now (others may have recorded boards meanwhile); the event
    as written. EventFileError if the file is no longer that event, or holds the board already."""
    with folder_lock(path.parent):  # another player's board recorded at the same moment waits its turn
        current = load_event(path)
        if not current.same_event(played):
            raise EventFileError(f"{path} changed while the board was played: it is no longer the same event, "
                                 "so the board is not recorded")
        if current.played(result.player, result.board):
            raise EventFileError(f"{result.player} has played board {result.board} already (recorded meanwhile)")
        recorded = current.with_result(result)
        try:
            save_event(recorded, path)
        except OSError as error:
            raise EventFileError(f"Cannot write {path}: {error.strerror or error}") from None
    return recorded


@contextlib.contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold the folder's lock (``flock``, advisory: every ``whist event play`` asks for it) while the
    file is read and written again, so that two results recorded at once are both kept. The folder,
    not the file, is locked: the file is replaced by a new one at each write. Where there is no
    ``flock`` (Windows) or the folder cannot be opened, nothing is locked."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # and with it the lock
