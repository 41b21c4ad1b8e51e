"""Hints at the table: a seated person asks, on their turn, for the expert's top choices.

A table allows hints only when its creator chose so (``hints``, off by default): such a table is a
practice table, and its games are not rated (``ratings.py``). An ask passes these checks in this
order, each refused with its code: the table allows hints (``hints_off``), the game is not over
(``over``), the asker has a seat (``spectator``), it is their turn (``not_your_turn``), and their
last hint is not still being worked out (``hint_busy``: one at a time per person, whatever the
table). Then the hint is worked out by the bot workers beside the bots' decisions
(``Thinkers.ask``), never on the event loop, from the seat's view alone: what the seat may see, so
a hint names no card the seat cannot see (``israeli_whist.bots.review.hint_for``). If the table
moved on meanwhile the hint is dropped (``stale``). Otherwise it is stored with the game
(``hintstore.py``) and only then sent, to the asking connection alone.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from israeli_whist.core.views import SeatView, seat_view
from israeli_whist.server.hintstore import add_hint
from israeli_whist.server.live import LiveTable
from israeli_whist.server.refusals import Refusal

log = logging.getLogger("whist.server")

# Seconds a person waits for a hint before it is given up (``unavailable``): the workers are swamped.
HINT_WAIT = 60.0


class HintRefused(Exception):
    """A hint not given; ``code`` is for programs, the message for people."""

    def __init__(self, code: Refusal, message: str) -> None:
        super().__init__(message)
        self.code = code


def work_out_hint(view: SeatView, seed: str) -> dict[str, Any]:
    """The hint for ``view``, as the page gets it (``hint_json``): run by a bot worker."""
    from israeli_whist.bots.review import hint_for, hint_json  # the workers import the search once, not the web

    return hint_json(hint_for(view, seed=seed))


@dataclass
class Hints:
    """The hints being worked out on this node: the people waiting for one."""

    waiting: set[int] = field(default_factory=set)  # user ids
    wait: float = HINT_WAIT

    def check(self, table: LiveTable, seat: int, user_id: int | None) -> None:
        """Refuse an ask that may not be answered (see the module's order)."""
        if not table.row.hints:
            raise HintRefused(Refusal.HINTS_OFF, "The table's creator did not allow hints: this table is rated")
        if table.match.over:
            raise HintRefused(Refusal.OVER, "The game is over")
        if seat < 0 or user_id is None:
            raise HintRefused(Refusal.SPECTATOR, "Spectators watch; only a seated player asks for a hint")
        if seat != table.match.current_player or table.seats[seat].away:
            raise HintRefused(Refusal.NOT_YOUR_TURN, "A hint is for your own turn: it is not your turn")
        if user_id in self.waiting:
            raise HintRefused(Refusal.HINT_BUSY, "Your last hint is still being worked out")

    async def give(self, table: LiveTable, seat: int, user_id: int | None) -> dict[str, Any]:
        """The hint for ``seat`` at ``table``, stored with the game; HintRefused with its code."""
        self.check(table, seat, user_id)
        assert user_id is not None
        self.waiting.add(user_id)
        try:
            return await self._work_out(table, seat, user_id)
        finally:
            self.waiting.discard(user_id)

    async def _work_out(self, table: LiveTable, seat: int, user_id: int) -> dict[str, Any]:
        match, version = table.match, table.version
        hand_number, step = len(match.results) + 1, len(match.hand.history)
        seed = f"{table.row.seed}/hint/{version}"
        future = table.thinkers.ask(work_out_hint, seat_view(match.hand, seat), seed)
        try:
            hint = await asyncio.wait_for(asyncio.wrap_future(future), self.wait)
        except TimeoutError:
            future.cancel()
            log.warning("table %s seat %d: no hint in %g s", table.id, seat, self.wait)
            raise HintRefused(Refusal.UNAVAILABLE, "The hint took too long: please try again in a moment") from None
        except Exception:
            log.exception("table %s seat %d: the hint failed", table.id, seat)
            raise HintRefused(Refusal.UNAVAILABLE, "The hint could not be worked out: please try again") from None
        if table.version != version or table.closed:
            raise HintRefused(Refusal.STALE, "The table moved on while the hint was worked out")
        try:
            await table.store.off_loop(add_hint, table.store, table.id, hand_number, step, seat, user_id)
        except SQLAlchemyError:
            log.exception("table %s: a hint could not be stored", table.id)
            raise HintRefused(Refusal.UNAVAILABLE, "The hint could not be saved; please ask again") from None
        return {"type": "hint", "version": version, "hand": hand_number, "step": step, "hint": hint}
