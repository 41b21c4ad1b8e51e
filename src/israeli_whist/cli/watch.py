"""A game with bots in every seat: each hand's summary and the running score sheet, then the places."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.text import Text

from israeli_whist.bots.matches.runner import play_match
from israeli_whist.cli.scores import final_results, score_sheet
from israeli_whist.cli.session import Seats, save_record
from israeli_whist.core.actions import Action
from israeli_whist.core.match import Match
from israeli_whist.core.text import hand_text


def watch(match: Match, seats: Seats, console: Console, save: Path | None) -> int:
    def told(seat: int, action: Action, after: Match) -> None:
        nonlocal match  # kept at each action, so that Ctrl-C saves the game as it stands
        hand_over = len(after.results) > len(match.results)
        match = after
        if hand_over:
            result = match.results[-1]
            console.print()
            console.print(red_suits(hand_text(result.final, seats.names, result.number)))
            console.print(score_sheet(match, seats.names))

    code = 0
    try:
        play_match(match, seats.bots, on_action=told)
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
