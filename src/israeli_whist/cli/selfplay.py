"""``whist selfplay``: bots play hands and every decision is written as a row of Parquet files
(``israeli_whist.rl.selfplay``), here or on Ray, with a progress bar in hands per second."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.progress import ProgressColumn, Task
from rich.text import Text

from israeli_whist.bots.players.registry import LEVEL_HELP
from israeli_whist.cli.backends import (
    BACKEND_HELP,
    RAY_ADDRESS_HELP,
    Backend,
    WorkersOption,
    check_backend,
    ray_session,
)
from israeli_whist.cli.errors import cannot_run, usage_error
from israeli_whist.cli.options import GameOption, PresetOption, RuleOptions, parse_options
from israeli_whist.cli.progress import progress
from israeli_whist.core.errors import WhistError
from israeli_whist.core.wording import count_text, needs_extra

MAX_HANDS = 100_000_000  # some six billion decisions: more is a typo


def refuse(message: str) -> NoReturn:
    usage_error(message, "whist selfplay")


class HandsPerSecond(ProgressColumn):
    """The speed of the run so far, in hands per second."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("- hands/s" if speed is None else f"{speed:,.1f} hands/s")


def selfplay(
    out: Annotated[Path, typer.Option(help="The folder to write the Parquet files and _selfplay.json to.")],
    game: GameOption = "israeli",
    preset: PresetOption = None,
    option: RuleOptions = None,
    bots: Annotated[str, typer.Option(
        help=f"Comma-separated bots: {LEVEL_HELP}. With several, they take the seats in turn "
             "(seat s of hand h: level (s + h) mod the number of levels). expert:deals=N searches a fixed number "
             "of deals: the same rows on any machine, where expert (by CPU time) depends on the machine's speed."
    )] = "basic",
    hands: Annotated[int, typer.Option(min=1, max=MAX_HANDS, help="Hands to play.")] = 100,
    seed: Annotated[int, typer.Option(
        help="Seed of the deals and the bots: the same seed, the same files (bots without a time budget).")] = 0,
    chunk_hands: Annotated[int, typer.Option(
        min=1, max=MAX_HANDS, help="Hands in each Parquet file (part-00000.parquet, ...), each one unit of work.")
    ] = 100,
    workers: WorkersOption = None,
    backend: Annotated[Backend, typer.Option(help=BACKEND_HELP)] = Backend.local,
    ray_address: Annotated[str | None, typer.Option(help=RAY_ADDRESS_HELP)] = None,
) -> None:
    """Self-play data: bots play hands, and each decision is a row of Parquet files in --out.

    A row holds the game and its options, the seat, the observation vector, the legal-action mask,
    the action, the bot's own value of each choice where it has them (the expert), and the hand's
    final points. _selfplay.json in --out describes the run and every column.
    """
    try:  # the rl extra; imported here so that the other commands start without pyarrow
        from israeli_whist.rl.selfplay import check_spec, prepare_folder, run_selfplay, selfplay_spec, timed_levels
    except ImportError:
        cannot_run(needs_extra("whist selfplay", "rl"))
    check_backend(backend, ray_address, workers, "whist selfplay")
    try:
        spec = selfplay_spec(game, [level.strip() for level in bots.split(",") if level.strip()], hands, seed,
                             preset, parse_options(option or ()), chunk_hands)
        hand_game = check_spec(spec)
        prepare_folder(out)
    except WhistError as error:
        refuse(str(error))
    console = Console(highlight=False)
    for level in timed_levels(spec.levels):
        typer.echo(f"Note: {level} searches for a time a decision, so its rows depend on this machine's speed and "
                   f"load; {level.split('@')[0]}:deals=N gives the same rows for the seed on any machine", err=True)
    with ray_session(backend, ray_address, workers) as session:
        console.print(f"{hand_game.title}: {', '.join(spec.levels)}; {count_text(hands, 'hand')} in "
                      f"{count_text(spec.chunks, 'file')}, seed {seed}, on {backend.value}", markup=False)
        with progress("Playing", "hands", hands, [HandsPerSecond()]) as on_hands:
            summary = run_selfplay(spec, out, workers or os.cpu_count() or 1,
                                   session.map_unordered if session is not None else None, on_hands)
    console.print(f"Wrote {count_text(summary.decisions, 'decision')} in {count_text(len(summary.files), 'file')} "
                  f"to {out} (_selfplay.json there describes them)", markup=False)
