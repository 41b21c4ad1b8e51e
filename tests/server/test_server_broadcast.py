"""A broadcast makes what every seat shares once, and only the view for each seat: the shared
part (the table, the score of every deal so far) is the same for all, so it can hide nothing."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match
from israeli_whist.server import live as live_module
from israeli_whist.server.db import SeatRow, Store, TableRow
from israeli_whist.server.live import LiveTable
from israeli_whist.server.viewjson import scoreboard_json
from israeli_whist.server.workers import ThreadThinkers

SPECTATOR = -1


def table_after_a_deal(tmp_path: Path) -> LiveTable:
    """Four people's table, replayed to a few actions into its second deal."""
    row = TableRow(id="shared", game="israeli", preset=None, options={"hands": 3}, seed="shared", first_dealer=0,
                   public=True, invite="inv", status="playing", move_timer=None, created_by=None, totals=None)
    seats = [SeatRow(n, "human", None, None) for n in range(4)]
    store = Store(f"sqlite:///{tmp_path / 'shared.db'}")
    store.add_table(row, seats)
    rng = random.Random(5)
    match = Match.start(make_game(row.game, row.preset, row.options), row.seed, row.first_dealer)
    stored: list[tuple[int, int, int]] = []
    while not match.results or len(match.hand.history) < 6:
        action = rng.choice(list(match.legal_actions()))
        stored.append((len(stored), match.current_player, action))
        match = match.apply(action)
    table = LiveTable(row, seats, {}, store, bot_delay=0.0, grace_seconds=30.0, thinkers=ThreadThinkers())
    table.replay(stored)
    return table


def test_each_seat_gets_its_own_view_and_everything_else_is_shared(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    table = table_after_a_deal(tmp_path)
    made = []

    def counted(match: Match) -> dict[str, Any]:
        made.append(match)
        return scoreboard_json(match)

    monkeypatch.setattr(live_module, "scoreboard_json", counted)
    received: list[tuple[int, dict[str, Any]]] = []

    def sender(seat: int) -> live_module.Send:
        async def send(message: dict[str, Any]) -> None:
            received.append((seat, message))
        return send

    for seat in (SPECTATOR, SPECTATOR, 0, 0, 1, 2, 3):  # two spectators, two connections at seat 0
        connections = table.spectators if seat == SPECTATOR else table.seats[seat].connections
        connections.add(sender(seat))
    asyncio.run(table.broadcast())
    asyncio.run(table.broadcast())

    assert len(received) == 14 and len(made) == 1  # the score once, for this action: not per connection
    assert table.match.results and made == [table.match]
    shared = [{k: v for k, v in message.items() if k not in ("you", "view")} for _, message in received]
    assert all(part == shared[0] for part in shared)
    for seat, message in received:
        assert message["you"] == seat
        assert message == table.state_message(seat)  # what a new connection at that seat is sent
    views = {seat: message["view"] for seat, message in received}
    assert len({repr(view["hand"]) for view in views.values()}) == 5  # each seat its own cards; none shown


def test_a_table_closed_outside_any_event_loop_cancels_its_tasks(tmp_path: Path) -> None:
    """A hub shutting down (or a test's teardown) closes its tables from plain code, where
    ``asyncio.current_task`` raises: the close still cancels every task the table started."""
    table = table_after_a_deal(tmp_path)
    loop = asyncio.new_event_loop()
    try:
        timer, pending = loop.create_task(asyncio.sleep(60)), loop.create_task(asyncio.sleep(60))
        table.timer_task = timer
        table.later.add(pending)
        table.close()  # no loop is running here
        loop.run_until_complete(asyncio.sleep(0))
        assert table.closed and timer.cancelled() and pending.cancelled()
    finally:
        loop.close()
