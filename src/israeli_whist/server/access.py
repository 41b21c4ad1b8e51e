"""Who may see a table, playing or finished: one rule, asked by every path that shows one.

A public table is seen by everyone. A private one is seen by whoever holds its invite (the
link its creator shares), by the people seated at it, and by its creator, who may only watch.
The same holds while it is played (the lobby, join, the WebSocket: ``api_tables``) and once it
is over (the replay, the record, the analysis: ``api_history``), so a game does not hide from
someone who could watch it live, nor show itself to anyone who could not.

``visible_to`` is the rule as SQL, for the history list, which holds no invite: a private game
is listed for its players and its creator only.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from sqlalchemy import ColumnElement, RowMapping, or_, select, true
from sqlalchemy.engine import Connection

from israeli_whist.server.db import seats, tables
from israeli_whist.server.live import LiveTable


@dataclass(frozen=True)
class Visibility:
    """What the rule reads of a table."""

    public: bool
    invite: str
    created_by: int | None
    seated: frozenset[int]  # the users in its seats


def may_see(table: Visibility, viewer: int | None, invite: str | None) -> bool:
    """Whether user ``viewer`` (None: no session), holding ``invite`` (None: none), sees ``table``.

    >>> private = Visibility(False, "secret", created_by=1, seated=frozenset({2}))
    >>> [may_see(private, viewer, None) for viewer in (None, 1, 2, 3)], may_see(private, None, "secret")
    ([False, True, True, False], True)
    """
    if table.public or (invite is not None and same_invite(invite, table.invite)):
        return True
    return viewer is not None and (viewer == table.created_by or viewer in table.seated)


def same_invite(given: str, invite: str) -> bool:
    # In constant time, so that the answer's timing does not spell the invite out; as bytes,
    # because compare_digest takes only ASCII str, and a client may send any text.
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), invite.encode("utf-8"))


def live_visibility(table: LiveTable) -> Visibility:
    seated = frozenset(s.user_id for s in table.seats if s.user_id is not None and not s.is_bot)
    return Visibility(table.row.public, table.row.invite, table.row.created_by, seated)


def stored_visibility(c: Connection, row: RowMapping) -> Visibility:
    """A stored table's (``history.table_row``), with its seats read from the database."""
    seated = c.execute(select(seats.c.user_id).where(seats.c.table_id == row["id"], seats.c.user_id.is_not(None)))
    return Visibility(bool(row["public"]), row["invite"], row["created_by"], frozenset(seated.scalars()))


def visible_to(viewer: int | None) -> ColumnElement[bool]:
    """``may_see`` without an invite, as a condition on ``tables``."""
    public = tables.c.public == true()
    if viewer is None:
        return public
    seated = select(seats.c.table_id).where(seats.c.user_id == viewer)
    return or_(public, tables.c.created_by == viewer, tables.c.id.in_(seated))
