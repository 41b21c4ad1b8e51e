"""A stored game rebuilt by replaying its actions through the engine, exactly as they were
first taken: the live table after a restart, the rating and the history all use this one loop,
so a replay and the record of a game are the engine's own."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import RowMapping, select
from sqlalchemy.engine import Connection

from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match
from israeli_whist.server.db import actions


def replay_actions(match: Match, stored: Iterable[tuple[int, int, int]], table_id: str) -> Match:
    """``match`` (as it starts) after the stored (sequence number, seat, action) rows.

    A row out of sequence, or for a seat not to act, means the rules or the database changed
    under the table: a RuntimeError, and the caller leaves the table out.
    """
    for number, (seq, seat, action) in enumerate(stored):
        if seq != number or seat != match.current_player:
            raise RuntimeError(f"Table {table_id}: stored action {seq} does not follow the game")
        match = match.apply(action)
    return match


def replay_match(c: Connection, row: RowMapping) -> Match:
    """The game of a table row, rebuilt from its stored actions through the engine."""
    match = Match.start(make_game(row["game"], row["preset"], row["options"]), row["seed"], row["first_dealer"])
    stored = c.execute(select(actions.c.seq, actions.c.seat, actions.c.action)
                       .where(actions.c.table_id == row["id"]).order_by(actions.c.seq))
    return replay_actions(match, ((seq, seat, action) for seq, seat, action in stored), row["id"])
