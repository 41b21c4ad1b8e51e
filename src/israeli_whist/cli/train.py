"""``whist train``: the learned trick estimator fitted to ``whist selfplay`` data (``israeli_whist.rl.train``),
its held-out accuracy printed beside the basic bot's estimate, its weights written as .npz."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from israeli_whist.cli.errors import cannot_run, usage_error
from israeli_whist.cli.options import GameOption
from israeli_whist.cli.progress import progress
from israeli_whist.core.errors import WhistError
from israeli_whist.core.folders import writable_folder
from israeli_whist.core.wording import needs_extra

MAX_WIDTH = 4096  # a wider layer is a typo, and would ask for gigabytes of weights
MAX_SEED = 2**32 - 1  # numpy's and scikit-learn's seeds are 32-bit


def refuse(message: str) -> NoReturn:
    usage_error(message, "whist train")


def parse_hidden(text: str) -> list[int]:
    """``64,32`` -> [64, 32]."""
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        refuse(f"--hidden takes widths separated by commas, such as 64,32, not {text!r}")


def train(
    data: Annotated[Path, typer.Option(help="A folder of whist selfplay's Parquet files and _selfplay.json.")],
    out: Annotated[Path, typer.Option(help="The .npz file to write the trained weights to.")],
    game: GameOption = "israeli",
    seed: Annotated[int, typer.Option(
        min=0, max=MAX_SEED,
        help="Seed of the held-out split and of the training: the same data and seed, the same file.")] = 0,
    holdout: Annotated[float, typer.Option(help="The share of the hands held out to measure the model.")] = 0.2,
    hidden: Annotated[str, typer.Option(help="Width of each hidden layer, comma-separated.")] = "32",
    alpha: Annotated[float, typer.Option(help="L2 weight decay of the network (scikit-learn's alpha).")] = 1.0,
) -> None:
    """Train the learned trick estimator on self-play data.

    Each contract bid in the data is a row: the bidder's cards and what it saw, and the tricks it
    took. Whole hands are held out, and on them the model's accuracy is printed beside the basic
    bot's estimate: the mean absolute error in tricks, and how often the rounded estimate is the
    tricks taken (the bid exactly made). Needs the train extra: pip install 'israeli-whist[train]'.
    """
    try:  # the rl extra (pyarrow); imported here so that the other commands start without it
        from israeli_whist.rl.train import contract_rows, fit, require_sklearn
    except ImportError:
        cannot_run(needs_extra("whist train", "train"))
    widths = parse_hidden(hidden)
    if not widths or min(widths) < 1 or max(widths) > MAX_WIDTH:
        refuse(f"--hidden needs at least one layer, each 1 to {MAX_WIDTH} wide, not {hidden!r}")
    if not 0 < holdout < 1:
        refuse(f"--holdout is a share of the hands, above 0 and below 1, not {holdout}")
    if not (math.isfinite(alpha) and alpha >= 0):
        refuse(f"--alpha is a weight decay, 0 or more, not {alpha}")
    if out.is_dir():
        refuse(f"--out {out} is a folder; give the .npz file to write")
    try:
        writable_folder(out.parent)  # before the training, not after it
    except WhistError as error:
        refuse(str(error))
    console = Console(highlight=False)
    try:
        require_sklearn()
        with progress("Replaying", "hands") as on_hands:
            rows = contract_rows(data, game, on_hands)
        console.print(f"{len(rows):,} contract bids of {game} from {data}; training with seed {seed}", markup=False)
        result = fit(rows, seed, widths, holdout, {"data": str(data), "game": game}, alpha)
    except WhistError as error:
        cannot_run(str(error))
    table = Table(title=f"Held out: {result.held_out_rows:,} bids in {result.held_out_hands:,} hands "
                        f"(trained on {result.training_rows:,})")
    table.add_column("estimate")
    table.add_column("mean absolute error (tricks)", justify="right")
    table.add_column("bid exactly made", justify="right")
    for name, accuracy in (("learned", result.learned), ("basic", result.basic),
                           ("the self-play bot's bid", result.bid)):
        table.add_row(name, f"{accuracy.mean_absolute_error:.3f}", f"{accuracy.exact:.1%}")
    console.print(table)
    try:
        result.model.save(out)
    except OSError as error:
        cannot_run(f"Cannot write {out}: {error.strerror or error}")
    console.print(f"Wrote {out}", markup=False)
