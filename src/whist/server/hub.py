"""Every live table of the server: made on request, and rebuilt from the database at start."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Any

from whist.bots.registry import BOT_LEVELS
from whist.core.errors import WhistError
from whist.core.games import make_game
from whist.server.db import SeatRow, Store, TableRow
from whist.server.live import LiveTable
from whist.server.workers import Thinkers, ThreadThinkers

log = logging.getLogger("whist.server")


class TableRequestError(ValueError):
    """A table that cannot be made as asked; the message says why."""


@dataclass(frozen=True)
class TableRequest:
    game: str
    preset: str | None
    options: dict[str, Any]
    seats: list[dict[str, Any]]  # per seat: {"kind": "human"} or {"kind": "bot", "level": "basic"}
    public: bool = True
    move_timer: float | None = None
    seed: str | None = None


class Hub:
    def __init__(self, store: Store, bot_delay: float, grace_seconds: float,
                 thinkers: Thinkers | None = None) -> None:
        self.store = store
        self.thinkers = thinkers or ThreadThinkers()
        self.bot_delay = bot_delay
        self.grace_seconds = grace_seconds
        self.tables: dict[str, LiveTable] = {}

    def resume(self) -> int:
        """Rebuild every unfinished table from its stored actions; returns how many.

        A table whose stored actions no longer replay (rules changed under it, a hand-edited
        database) is logged and left out, so that one bad table cannot keep the others down."""
        for row in self.store.tables_with_status("playing"):
            table = self._rebuilt(row)
            if table is not None:
                self.tables[row.id] = table
        return len(self.tables)

    def _rebuilt(self, row: TableRow) -> LiveTable | None:
        """A stored table as its stored actions left it; None (and logged) if they no longer replay."""
        try:
            table = self._live(row, self.store.seats_of(row.id))
            table.replay(self.store.actions_of(row.id))
        except (ValueError, RuntimeError):  # WhistError is a ValueError
            log.exception("table %s (%s) cannot be rebuilt from its stored actions: left out", row.id, row.status)
            return None
        return table

    def start_tables(self) -> None:
        """Once the event loop runs: absent players get their grace period. No one is connected
        yet, so every table waits (``LiveTable.watched``) and its bots play once someone comes."""
        for table in self.tables.values():
            for seat in table.seats:
                if not seat.is_bot and seat.user_id is not None:  # a free seat waits for someone to join
                    table.start_grace(seat)
            table.schedule_turn()

    def _live(self, row: TableRow, seat_rows: list[SeatRow]) -> LiveTable:
        names = self.store.user_names([s.user_id for s in seat_rows if s.user_id is not None])
        return LiveTable(row, seat_rows, names, self.store, self.bot_delay, self.grace_seconds, self.thinkers)

    def create(self, request: TableRequest, user_id: int | None) -> LiveTable:
        try:
            game = make_game(request.game, request.preset, request.options)
        except (WhistError, ValueError, TypeError) as error:
            raise TableRequestError(str(error)) from None
        if len(request.seats) != game.players:
            raise TableRequestError(f"{game.title} with these options has {game.players} seats, "
                                    f"not {len(request.seats)}")
        seat_rows = []
        for number, seat in enumerate(request.seats):
            kind = seat.get("kind")
            if kind == "bot":
                level = seat.get("level") or "basic"  # the API sends None for a level not given
                if level not in BOT_LEVELS:
                    raise TableRequestError(f"Unknown bot level {level!r}; levels: {', '.join(BOT_LEVELS)}")
                seat_rows.append(SeatRow(number, "bot", level, None))
            elif kind == "human":
                seat_rows.append(SeatRow(number, "human", None, None))
            else:
                raise TableRequestError(f"Seat {number + 1}: 'human' or 'bot', not {kind!r}")
        if request.move_timer is not None and not 5 <= request.move_timer <= 600:
            raise TableRequestError("A move timer is 5 to 600 seconds")
        row = TableRow(id=secrets.token_urlsafe(9), game=request.game, preset=request.preset,
                       options=dict(request.options), seed=request.seed or secrets.token_hex(8), first_dealer=0,
                       public=request.public, invite=secrets.token_urlsafe(12), status="playing",
                       move_timer=request.move_timer, created_by=user_id, totals=None)
        self.store.add_table(row, seat_rows)
        table = self._live(row, seat_rows)
        self.tables[row.id] = table
        log.info("table %s created: %s, seats %s", row.id, request.game, [s.kind for s in seat_rows])
        return table

    def get(self, table_id: str) -> LiveTable | None:
        """A table by id. A finished table that is not in memory (after a restart) is rebuilt
        from its stored actions, so that its page still shows the end of the game."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        row = self.store.table(table_id)
        if row is None or row.status != "finished":
            return None
        table = self._rebuilt(row)
        if table is None:
            return None
        table.close()
        self.tables[row.id] = table
        return table

    def public_tables(self) -> list[LiveTable]:
        return [t for t in self.tables.values() if t.row.public and not t.match.over]

    def open_tables_of(self, user_id: int) -> int:
        """How many unfinished tables ``user_id`` made (those left out at start do not count)."""
        return sum(1 for t in self.tables.values() if t.row.created_by == user_id and not t.match.over)

    def close(self) -> None:
        for table in self.tables.values():
            table.close()
        self.thinkers.close()
