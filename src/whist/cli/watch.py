"""A game with bots in every seat: each hand's summary and the running score sheet, then the places."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.text import Text

from whist.cli.session import Seats, save_record
from whist.cli.sheet import final_results, score_sheet
from whist.core.match import Match
from whist.core.text import hand_text
from whist.core.views import seat_view


def watch(match: Match, seats: Seats, console: Console, save: Path | None) -> int:
    code = 0
    try:
        while not match.over:
            seat = match.current_player
            finished = len(match.results)
            match = match.apply(seats.bots[seat].choose(seat_view(match.hand, seat)))
            if len(match.results) > finished:
                result = match.results[-1]
                console.print()
                console.print(red_suits(hand_text(result.final, seats.names, result.number)))
                console.print(score_sheet(match, seats.names))
        console.print()
        console.print(final_results(match, seats.names))
    except KeyboardInterrupt:
        console.print("\nInterrupted: the game stops here.", style="bold")
        code = 130
    if save is not None and not save_record(console, match, seats, save):
        code = code or 1
    return code


def red_suits(text: str) -> Text:
    """Plain text with the hearts and diamonds coloured red."""
    out = Text(text)
    out.highlight_regex(r"(?:10|[2-9JQKA])[♥♦]", "red")
    return out
