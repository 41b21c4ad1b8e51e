"""How a game against bots is shown in the terminal, for ``whist play`` and ``whist event play``: the
full-screen card table (``cli.fullscreen``) or the plain log (``cli.play``)."""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from israeli_whist.cli.scores import final_results
from israeli_whist.cli.session import Seats
from israeli_whist.core.match import Match

if TYPE_CHECKING:
    from israeli_whist.cli.fullscreen import TableGame

MAX_DELAY = 60.0  # seconds between the bots' moves at the card table


class View(StrEnum):
    table = "table"
    plain = "plain"


ViewOption = Annotated[View | None, typer.Option(
    help="table: the full-screen card table; plain: a scrolling log, for scripts and screen readers. "
         "Default: table when input and output are a terminal, plain otherwise.")]
DelayOption = Annotated[float, typer.Option(
    min=0, max=MAX_DELAY, help="Seconds between the bots' moves in the full-screen table (the plain log never waits).")]


def default_view() -> View:
    """The card table needs a terminal to draw on and keys to read; anything else gets the log
    (a pipe, a file, a script, or a terminal that says it cannot draw: TERM=dumb)."""
    drawable = sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM", "") != "dumb"
    return View.table if drawable else View.plain


def full_screen(match: Match, seats: Seats, console: Console, delay: float, hints: bool = True,
                no_hints: str | None = None) -> tuple[TableGame, int]:
    """Play in the full-screen view, then tell its end on the terminal's own screen, where it stays:
    the final scores, or why the player left. The game as it ended, and the exit code."""
    from israeli_whist.cli.fullscreen import run_full_screen  # Textual loads only for the full-screen view

    game, code = run_full_screen(match, seats, delay, hints, no_hints)
    if game.match.over:
        console.print(final_results(game.match, game.names))
    elif game.farewell:
        console.print(game.farewell, style="bold", markup=False)
    return game, code
