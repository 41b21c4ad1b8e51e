"""``whist tournament``: duplicate matches between bot levels (``israeli_whist.bots.matches.tournament``), here or
on Ray, with a progress bar, a summary table, and optionally results.csv, summary.json and chart.png
in --out."""

from __future__ import annotations

import csv
import json
import math
import os
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from israeli_whist.bots.matches.tournament import (
    TournamentResult,
    check_spec,
    csv_header,
    csv_rows,
    run_tournament,
    spec_from,
)
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
from israeli_whist.cli.tournamentchart import write_chart
from israeli_whist.core.errors import WhistError
from israeli_whist.core.folders import writable_folder
from israeli_whist.core.games import GAMES
from israeli_whist.core.wording import count_text

MAX_DEALS = 1_000_000  # six million hands with two bots at four seats: more is a typo


def refuse(message: str) -> NoReturn:
    usage_error(message, "whist tournament")


def tournament(
    game: GameOption = "israeli",
    preset: PresetOption = None,
    option: RuleOptions = None,
    bots: Annotated[str, typer.Option(
        help=f"Comma-separated bots, two or more: {LEVEL_HELP}. Classic Whist takes two, one for each side."
    )] = "basic,random",
    deals: Annotated[int, typer.Option(min=1, max=MAX_DEALS,
                                       help="Deals; each is played in every seat arrangement.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the deals and the bots.")] = 0,
    workers: WorkersOption = None,
    out: Annotated[Path | None, typer.Option(
        file_okay=False, help="Write results.csv, summary.json and chart.png to this folder (made, and tried, "
                              "before the first deal).")] = None,
    backend: Annotated[Backend, typer.Option(help=BACKEND_HELP)] = Backend.local,
    ray_address: Annotated[str | None, typer.Option(help=RAY_ADDRESS_HELP)] = None,
) -> None:
    """Duplicate matches between bots: the same deals with the bots in every seat arrangement.

    Prints each bot's mean score per hand with its 95% confidence interval, and the paired
    (per deal) difference between bots.
    """
    check_backend(backend, ray_address, workers, "whist tournament")
    try:
        spec = spec_from(game, [level.strip() for level in bots.split(",") if level.strip()], deals, seed,
                         preset, parse_options(option or ()))
        arrangements = check_spec(spec)
        if out is not None:
            writable_folder(out)
    except WhistError as error:
        refuse(str(error))
    console = Console(highlight=False)
    with ray_session(backend, ray_address, workers) as session:
        console.print(f"{GAMES[spec.game].title}: {', '.join(spec.labels)}; {count_text(deals, 'deal')} x "
                      f"{count_text(len(arrangements), 'seat arrangement')}, seed {seed}", markup=False)
        with progress("Playing", "deals", deals) as on_deals:
            result = run_tournament(spec, workers or os.cpu_count() or 1, on_deals,
                                    session.map_unordered if session is not None else None)
    console.print(summary_table(result))
    for line in difference_lines(result):
        console.print(line, markup=False)
    if out is not None:
        try:
            write_outputs(result, out)
        except OSError as error:  # the folder was writable before the run; it may not be now
            cannot_run(f"Cannot write the results to {out}: {error.strerror or error}")
        console.print(f"Wrote {out / 'results.csv'}, {out / 'summary.json'} and {out / 'chart.png'}", markup=False)


def _number(value: float | None, digits: int = 2) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def summary_table(result: TournamentResult) -> Table:
    summary = result.summary()
    table = Table(caption="mean: points a hand; made: contracts made; 0 made: zero bids made; "
                          "over, under: mean points a hand in over and in under hands; ms: time per decision",
                  title=f"{summary['hands_played']} hands played"
                        + (f", {result.cancelled_deals} cancelled deals redealt" if result.cancelled_deals else ""))
    for column in ("bot", "mean", "±95% CI", "made", "0 made", "over", "under", "ms mean", "ms med"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for bot, timing in zip(result.bots, result.decision_times, strict=True):
        table.add_row(
            bot.label, _number(bot.mean.mean), _number(bot.mean.half_width),
            _percent(bot.contracts_made, bot.contracts), _percent(bot.zero_bids_made, bot.zero_bids),
            _split_text(bot.over), _split_text(bot.under), _number(timing.mean_ms, 3), _number(timing.median_ms, 3))
    return table


def _split_text(split: tuple[int, float, int]) -> str:
    hands, mean, _made = split
    return _number(mean) if hands else "-"


def difference_lines(result: TournamentResult) -> list[str]:
    lines = []
    for difference in result.differences:
        mean = difference.mean
        verdict = ("above zero" if mean.low > 0 else "below zero" if mean.high < 0 else "includes zero")
        lines.append(f"{difference.first} - {difference.second}: {mean.mean:+.2f} points a hand, paired by deal; "
                     f"95% CI [{_number(mean.low)}, {_number(mean.high)}] ({verdict})")
    return lines


def write_outputs(result: TournamentResult, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "results.csv").open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(csv_header(len(result.arrangements[0])))
        writer.writerows(csv_rows(result))
    (folder / "summary.json").write_text(json.dumps(result.summary(), indent=2) + "\n", encoding="utf-8")
    write_chart(result, folder / "chart.png")
