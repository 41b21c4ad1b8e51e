"""Reviews stored with their games (the migration ``0006_reviews`` makes the tables): a game's row
says where its review job stands, and each hand's review is kept as it finishes, so that a job
taken up again after a restart, or a game review after the table's hand summaries, redoes no hand.

A table's reviews all use one seed, drawn at random when the first is asked for and kept in its
row: never the table's own seed, which deals the cards. A hand's review is used again only when it
was made with the seed and budget asked for now (a budget changed by an upgrade is reviewed anew).

States of a row: ``none`` (only hands reviewed for the table's hand summary, no game review asked
for), ``queued`` (asked for, no hand started), ``running``, ``done`` (``review`` holds it) and
``failed`` (``error`` says why; asked for again, it is queued again).
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import (
    JSON,
    Column,
    ColumnElement,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Table,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from israeli_whist.server.db import Store, metadata, now

NONE: Final = "none"
QUEUED: Final = "queued"
RUNNING: Final = "running"
DONE: Final = "done"
FAILED: Final = "failed"
UNFINISHED = (QUEUED, RUNNING)

reviews = Table(
    "reviews", metadata,
    Column("table_id", String(24), ForeignKey("tables.id"), primary_key=True),
    Column("state", String(8), nullable=False, index=True),
    Column("hands_done", Integer, nullable=False),
    Column("hands_total", Integer, nullable=False),  # 0 until a game review is asked for
    Column("seed", String(40), nullable=False),
    Column("budget", JSON, nullable=False),  # the engine's ReviewSettings, as a dict
    Column("review", JSON, nullable=True),  # the engine's review_json, once done
    Column("error", String(400), nullable=True),
    Column("created_at", DateTime, nullable=False),
    Column("updated_at", DateTime, nullable=False),  # each hand done moves it: a job that stopped shows here
    Column("finished_at", DateTime, nullable=True),
)

review_hands = Table(
    "review_hands", metadata,
    Column("table_id", String(24), ForeignKey("tables.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seed", String(40), nullable=False),
    Column("budget", JSON, nullable=False),
    Column("review", JSON, nullable=False),  # the engine's HandReview, as JSON
    Column("created_at", DateTime, nullable=False),
)

ERROR_LENGTH = 400


@dataclass(frozen=True)
class ReviewRow:
    table_id: str
    state: str
    hands_done: int
    hands_total: int
    seed: str
    budget: dict[str, Any]
    review: dict[str, Any] | None
    error: str | None
    updated_at: dt.datetime


def new_seed() -> str:
    return secrets.token_hex(8)


def _row(c: Connection, table_id: str) -> ReviewRow | None:
    r = c.execute(select(reviews).where(reviews.c.table_id == table_id)).mappings().first()
    if r is None:
        return None
    return ReviewRow(r["table_id"], r["state"], r["hands_done"], r["hands_total"], r["seed"], dict(r["budget"]),
                     r["review"], r["error"], r["updated_at"])


def review_row(store: Store, table_id: str) -> ReviewRow | None:
    with store.begin() as c:
        return _row(c, table_id)


def _matching(c: Connection, table_id: str, seed: str, budget: dict[str, Any]) -> dict[int, dict[str, Any]]:
    rows = c.execute(select(review_hands).where(review_hands.c.table_id == table_id, review_hands.c.seed == seed))
    # The budget is compared here rather than in SQL: PostgreSQL's json has no equality.
    return {r.number: r.review for r in rows if r.budget == budget}


def stored_hands(store: Store, table_id: str, seed: str, budget: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The table's hand reviews made with ``seed`` and ``budget``, by hand number."""
    with store.begin() as c:
        return _matching(c, table_id, seed, budget)


def _insert_row(store: Store, values: dict[str, Any]) -> ReviewRow:
    """Insert the table's row, or read the one another request (or node) inserted first."""
    table_id = values["table_id"]
    try:
        with store.begin() as c:
            c.execute(insert(reviews).values(**values, created_at=now(), updated_at=now()))
    except IntegrityError:
        pass
    found = review_row(store, table_id)
    assert found is not None
    return found


def table_seed(store: Store, table_id: str, budget: dict[str, Any]) -> str:
    """The seed of the table's reviews: its row's, or a new one in a new row (state ``none``)."""
    found = review_row(store, table_id)
    if found is None:
        found = _insert_row(store, {"table_id": table_id, "state": NONE, "hands_done": 0, "hands_total": 0,
                                    "seed": new_seed(), "budget": budget})
    return found.seed


def queue_review(store: Store, table_id: str, hands_total: int, budget: dict[str, Any]) -> ReviewRow:
    """The game review asked for: a new row, or one with no game review yet (or a failed one) queued
    with ``budget``, counting the hands already reviewed with it; any other row as it is."""
    found = review_row(store, table_id)
    if found is None:
        return _insert_row(store, {"table_id": table_id, "state": QUEUED, "hands_done": 0,
                                   "hands_total": hands_total, "seed": new_seed(), "budget": budget})
    if found.state not in (NONE, FAILED):
        return found
    with store.begin() as c:
        done = len(_matching(c, table_id, found.seed, budget))
        c.execute(update(reviews).where(reviews.c.table_id == table_id, reviews.c.state == found.state)
                  .values(state=QUEUED, hands_total=hands_total, hands_done=done, budget=budget, error=None,
                          updated_at=now()))
        queued = _row(c, table_id)
    assert queued is not None
    return queued


def store_hand(store: Store, table_id: str, number: int, seed: str, budget: dict[str, Any],
               review: dict[str, Any]) -> None:
    """Keep one hand's review; the game review's progress counts it where it was made for it."""
    try:
        with store.begin() as c:
            # A review of the same hand with another seed or budget is replaced.
            c.execute(delete(review_hands).where(review_hands.c.table_id == table_id,
                                                 review_hands.c.number == number))
            c.execute(insert(review_hands).values(table_id=table_id, number=number, seed=seed, budget=budget,
                                                  review=review, created_at=now()))
    except IntegrityError:
        pass  # stored meanwhile by another node of a cluster, which took the same job up: the same answer
    with store.begin() as c:
        game = _row(c, table_id)
        if game is not None and game.state in UNFINISHED and game.seed == seed and game.budget == budget:
            c.execute(update(reviews).where(reviews.c.table_id == table_id)
                      .values(hands_done=len(_matching(c, table_id, seed, budget)), updated_at=now()))


def set_running(store: Store, table_id: str) -> None:
    with store.begin() as c:
        c.execute(update(reviews).where(reviews.c.table_id == table_id, reviews.c.state.in_(UNFINISHED))
                  .values(state=RUNNING, updated_at=now()))


def finish(store: Store, table_id: str, review: dict[str, Any]) -> None:
    with store.begin() as c:
        c.execute(update(reviews).where(reviews.c.table_id == table_id)
                  .values(state=DONE, review=review, hands_done=reviews.c.hands_total, updated_at=now(),
                          finished_at=now()))


def fail(store: Store, table_id: str, error: str) -> None:
    with store.begin() as c:
        c.execute(update(reviews).where(reviews.c.table_id == table_id)
                  .values(state=FAILED, error=error[:ERROR_LENGTH], updated_at=now(), finished_at=now()))


def unfinished_reviews(store: Store, idle_since: dt.datetime | None = None) -> list[str]:
    """Tables whose game review is queued or running (and has not moved since ``idle_since``)."""
    where: list[ColumnElement[bool]] = [reviews.c.state.in_(UNFINISHED)]
    if idle_since is not None:
        where.append(reviews.c.updated_at < idle_since)
    with store.begin() as c:
        return list(c.execute(select(reviews.c.table_id).where(*where).order_by(reviews.c.created_at)).scalars())
