"""``whist check``: replay a record, then report its scores as a table or as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console

from israeli_whist.cli.errors import refused_input
from israeli_whist.cli.scores import final_results, score_sheet
from israeli_whist.core.errors import RecordError
from israeli_whist.core.records import CheckedGame, load_record, replay
from israeli_whist.core.recordshape import shown_path


def check_file(path: Path) -> CheckedGame:
    return replay(load_record(path))


def seat_names(checked: CheckedGame) -> list[str]:
    """Names by seat (the record lists them by player, and a cut for partners may reorder them)."""
    match = checked.match
    return [checked.players[match.seating[seat]] for seat in range(match.game.players)]


def summary(checked: CheckedGame) -> dict[str, Any]:
    """Per-hand points, totals and places, all by seat."""
    match = checked.match
    return {
        "game": match.game.name,
        "players": seat_names(checked),
        "complete": checked.complete,
        "hands": [{"number": r.number, "dealer": r.final.dealer, "points": list(r.points), "cancelled": r.cancelled}
                  for r in match.results],
        "totals": list(match.totals),
        "places": list(match.places()),
    }


def run_check(path: Path, as_json: bool, console: Console) -> int:
    """Exit status 0 for a valid record, with its scores on stdout; 1 and one line for anything else
    (the core's RecordError messages are one line, whatever the file holds): on stderr, or with
    ``as_json`` a JSON object ``{"error": ...}`` on stdout."""
    try:
        checked = check_file(path)
    except RecordError as error:
        return refused_input("whist check", str(error), as_json)
    if as_json:
        print(json.dumps(summary(checked), ensure_ascii=False))
        return 0
    match = checked.match
    names = seat_names(checked)
    state = "complete" if checked.complete else f"unfinished (it stops during hand {len(match.results) + 1})"
    console.print(f"{shown_path(path)}: a valid record of {match.game.title}, {state}.", markup=False, highlight=False)
    console.print(score_sheet(match, names))
    if checked.complete:
        console.print(final_results(match, names))
    return 0
