"""``whist event``: a duplicate event run from one file, without the web app: ``create`` writes it,
``play`` plays a player's boards in the terminal against the event's bots, ``standings`` scores
them against the field, ``record`` writes a board as a game record (``israeli_whist.cli.eventfile``
describes the file)."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from israeli_whist.cli.errors import WhistGroup, cannot_run, usage_error
from israeli_whist.cli.eventfile import Event, load_event, new_event, save_event
from israeli_whist.cli.eventplay import board_record, play_board
from israeli_whist.cli.eventstandings import field_table, standings_json, standings_table
from israeli_whist.cli.options import GameOption, PresetOption, RuleOptions, parse_options
from israeli_whist.cli.views import DelayOption, View, ViewOption, default_view
from israeli_whist.core.duplicate import EVENT_LEVELS, MAX_BOARDS
from israeli_whist.core.errors import WhistError
from israeli_whist.core.names import normal_name
from israeli_whist.core.records import dump_record
from israeli_whist.core.recordshape import shown_path

event_app = typer.Typer(
    name="event",
    help="Duplicate events in a file: everyone plays the same boards against the same bots, and each result "
         "is scored against the others of its board.",
    cls=WhistGroup,
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"max_content_width": 200},
)

EventLevel = StrEnum("EventLevel", {name: name for name in EVENT_LEVELS})  # type: ignore[misc]  # from core.duplicate
HARD = EventLevel("hard")
EventFile = Annotated[Path, typer.Argument(metavar="FILE", help="The event file (JSON).")]
BoardOption = Annotated[int | None, typer.Option(min=1, max=MAX_BOARDS, help="The board's number, from 1.")]


def refuse(message: str, command: str) -> NoReturn:
    usage_error(message, f"whist event {command}")


def read_event(file: Path) -> Event:
    """The event in ``file``; a file that is no event stops the command (exit status 1, as for a record
    that ``whist check`` refuses)."""
    try:
        return load_event(file)
    except WhistError as error:
        cannot_run(str(error))


def check_board(event: Event, number: int | None, command: str) -> None:
    if number is not None and number > event.boards:
        refuse(f"The event has {event.boards} boards: there is no board {number}", command)


def player_of(file: Path, player: str, number: int | None, command: str) -> tuple[str, Event]:
    """The player's name as it is kept, and the event, which has board ``number``."""
    try:
        player = normal_name(player)
    except WhistError as error:
        refuse(f"--player: {error}", command)
    event = read_event(file)
    check_board(event, number, command)
    return player, event


@event_app.command()
def create(
    file: EventFile,
    seed: Annotated[str, typer.Option(
        help="The seed the boards are dealt from: the same seed and rules deal the same boards.")],
    game: GameOption = "israeli",
    preset: PresetOption = None,
    option: RuleOptions = None,
    boards: Annotated[int, typer.Option(min=1, max=MAX_BOARDS, help="How many boards (deals of one hand).")] = 8,
    bot_level: Annotated[EventLevel, typer.Option(
        help="The bots in the other seats; each level plays the same for the same seed on any machine.")] = HARD,
    name: Annotated[str | None, typer.Option(help="The event's name (default: the file's name).")] = None,
) -> None:
    """Write a new event file: its boards' rules and seed, its bots, and no results yet.

    Each board is one hand of the game (Israeli Whist or Whistiti; Classic Whist is played in rubbers, so
    it makes no board). Board 1 is dealt by the first seat, board 2 by the second, and so on round the table.
    """
    if file.exists():
        refuse(f"{shown_path(file)} exists: an event file is never written over (choose another name)", "create")
    if not file.parent.is_dir():
        refuse(f"Cannot write {shown_path(file)}: no folder {shown_path(file.parent)}", "create")
    try:
        event = new_event(file.stem if name is None else name, game, preset, parse_options(option or ()), seed,
                          boards, bot_level.value)
    except WhistError as error:
        refuse(str(error), "create")
    try:
        save_event(event, file)
    except OSError as error:
        refuse(f"Cannot write {shown_path(file)}: {error.strerror or error}", "create")
    console = Console(highlight=False)
    console.print(f"Wrote {shown_path(file)}: {event.name}, {event.boards} boards of {event.title} against "
                  f"{event.bot_level} bots, dealt from the seed {event.seed!r}.", markup=False)
    console.print(f"Each player: whist event play {shown_path(file)} --player NAME", markup=False)


@event_app.command()
def play(
    file: EventFile,
    player: Annotated[str, typer.Option(help="Your name: each player plays each board once.")],
    board: BoardOption = None,
    view: ViewOption = None,
    delay: DelayOption = 0.8,
) -> None:
    """Play your next board (or --board N) against the event's bots, in the first seat; the result is
    added to the file when the board is over.

    The table and the prompts are whist play's (type help at any prompt). Leaving before the end (quit,
    Ctrl-C, Ctrl-D) records nothing. Hints are off.
    """
    player, event = player_of(file, player, board, "play")
    if board is None:
        board = event.next_board(player)
        if board is None:
            refuse(f"{player} has played all {event.boards} boards of the event", "play")
    elif event.played(player, board):
        refuse(f"{player} has played board {board} already: a board is played once", "play")
    shown_as = view or default_view()
    if shown_as == View.plain and sys.stdin.isatty():
        import readline  # noqa: F401  (line editing and history for input(); only where there is a terminal)
    try:
        code = play_board(file, event, player, board, Console(highlight=False), input, shown_as, delay)
    except WhistError as error:  # the file, read again to record the board, is no longer the event
        cannot_run(str(error))
    except KeyboardInterrupt:  # while the result is written: the file is whole, with it or without it
        typer.echo("Interrupted.", err=True)
        code = 130
    raise typer.Exit(code)


@event_app.command()
def record(
    file: EventFile,
    player: Annotated[str, typer.Option(help="Whose board.")],
    board: Annotated[int, typer.Option(min=1, max=MAX_BOARDS, help="The board's number, from 1.")],
    save: Annotated[Path, typer.Option(dir_okay=False, help="Write the game record (JSON) to this file.")],
) -> None:
    """Write a player's board as a game record, as whist play --save does: for whist check, whist analyze
    and its --review."""
    player, event = player_of(file, player, board, "record")
    played = [result for result in event.field(board) if result.player == player]
    if not played:
        refuse(f"{player} has not played board {board}", "record")
    try:
        dump_record(board_record(event, played[0]), save)
    except OSError as error:
        refuse(f"Cannot save to {shown_path(save)}: {error.strerror or error}", "record")
    Console(highlight=False).print(f"Saved {player}'s board {board} to {shown_path(save)} "
                                   f"(whist analyze {shown_path(save)} --review reviews it).", markup=False)


@event_app.command()
def standings(
    file: EventFile,
    board: BoardOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object instead of a table.")] = False,
) -> None:
    """The event's standings: each player's mean matchpoint percentage over the boards they played (the
    share of the board's field they beat, ties half) and their points above the field; or with --board N,
    that board's field: each player's points, percentage, contract and tricks."""
    event = read_event(file)
    check_board(event, board, "standings")
    if as_json:
        typer.echo(json.dumps(standings_json(event, board), ensure_ascii=False))
        return
    console = Console(highlight=False)
    if board is None:
        if not event.results:
            console.print(f"{event.name}: no board has been played yet.", markup=False)
            return
        console.print(standings_table(event))
    elif not event.field(board):
        console.print(f"{event.name}: no one has played board {board} yet.", markup=False)
    else:
        console.print(field_table(event, board))
