"""An event's standings and a board's field, as tables and as JSON (``whist event standings``), scored
by ``israeli_whist.core.duplicate``: matchpoints against everyone who played the same board in the
same seat, ties half, and points above the field's average."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.table import Table
from rich.text import Text

from israeli_whist.cli.eventfile import Event
from israeli_whist.core.duplicate import SHOWN_DECIMALS, places, score_field, standings


@dataclass(frozen=True)
class StandingRow:
    place: int  # players level on both measures share a place
    player: str
    boards: int
    percent: float
    above_average: float


@dataclass(frozen=True)
class FieldRow:
    player: str
    points: int
    percent: float
    above_average: float
    contract: int | None
    tricks: int


def standing_rows(event: Event) -> list[StandingRow]:
    fields: dict[tuple[int, int], dict[str, float]] = {}
    for result in event.results:
        fields.setdefault((result.board, result.seat), {})[result.player] = result.points
    rows = standings(fields)
    return [StandingRow(place, str(row.player), row.boards, row.percent, row.above_average)
            for place, row in zip(places(rows), rows, strict=True)]


def field_rows(event: Event, number: int) -> list[FieldRow]:
    """Board ``number``'s results, best first."""
    results = event.field(number)
    scored = score_field({result.player: result.points for result in results})
    rows = [FieldRow(r.player, r.points, scored[r.player].percent, scored[r.player].above_average, r.contract,
                     r.tricks) for r in results]
    return sorted(rows, key=lambda row: (-row.points, row.player))


def _percent(value: float) -> str:
    return f"{value:.1f}%"


def _above(value: float) -> Text:
    shown = f"{value:+.1f}"
    colour = "green" if shown.startswith("+") and shown != "+0.0" else "red" if shown.startswith("-") else ""
    return Text("0.0" if shown in ("+0.0", "-0.0") else shown, style=colour)


def standings_table(event: Event) -> Table:
    # Names are Text, never markup: a name like "a[/]b" is shown as it is.
    table = Table(title=Text(f"{event.name}: standings"), title_justify="left", show_edge=False,
                  caption=f"{event.title}, {event.boards} boards against {event.bot_level} bots; "
                          "% of the field beaten on each board (ties half), and points above its average",
                  caption_justify="left")
    for header in ("Place", "Player", "Boards", "Matchpoints", "Above the field"):
        table.add_column(header, justify="left" if header == "Player" else "right")
    for row in standing_rows(event):
        table.add_row(str(row.place), Text(row.player), str(row.boards), _percent(row.percent),
                      _above(row.above_average))
    return table


def field_table(event: Event, number: int) -> Table:
    rows = field_rows(event, number)
    average = sum(row.points for row in rows) / len(rows) if rows else 0.0
    table = Table(title=Text(f"{event.name}: board {number}"), title_justify="left", show_edge=False,
                  caption=f"{len(rows)} played it; the field's average {average:+.1f} points",
                  caption_justify="left")
    contracts = event.board_game(number).rules.traits.contracts
    for header in ("Player", "Points", "Matchpoints", "Above the field", *(("Contract",) if contracts else ()),
                   "Tricks"):
        table.add_column(header, justify="left" if header == "Player" else "right")
    for row in rows:
        contract = (("-" if row.contract is None else str(row.contract)),) if contracts else ()
        table.add_row(Text(row.player), f"{row.points:+d}" if row.points else "0", _percent(row.percent),
                      _above(row.above_average), *contract, str(row.tricks))
    return table


def standings_json(event: Event, number: int | None = None) -> dict[str, Any]:
    """The standings, or with ``number`` that board's field."""
    about = {"name": event.name, "game": event.game, "seed": event.seed, "boards": event.boards,
             "bot_level": event.bot_level}
    if number is None:
        return {"event": about, "standings": [
            {"place": row.place, "player": row.player, "boards": row.boards,
             "percent": round(row.percent, SHOWN_DECIMALS), "above_average": round(row.above_average, SHOWN_DECIMALS)}
            for row in standing_rows(event)]}
    rows = field_rows(event, number)
    return {"event": about, "board": number, "field": [
        {"player": row.player, "points": row.points, "percent": round(row.percent, SHOWN_DECIMALS),
         "above_average": round(row.above_average, SHOWN_DECIMALS), "contract": row.contract, "tricks": row.tricks}
        for row in rows]}
