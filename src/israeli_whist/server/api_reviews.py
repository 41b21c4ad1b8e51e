"""Reviews of games (issue 45): a finished game's review, started and followed by whoever may see
its replay, and a hand's review for the table's hand summary, for the player of a seat.

``POST`` starts the job (or joins the one in hand) and answers at once; ``GET`` answers where it
stands: ``{"state": "none"|"queued"|"running"|"done"|"failed", "done": n, "total": m, "review": ...}``,
the review (the engine's ``review_json``) once done. The jobs are ``israeli_whist.server.reviews``'.

A finished game's review shows every seat's cards, as its replay does, to whoever may see the
replay (``api_history.visible_finished_game``). While the game is in play there is no replay, and
the review of a hand that is over is the player's own: it shows the cards the hand's end revealed
to every seat (the deal), and the decisions of the asker's seat only, never another seat's (its
Frisch cards, say, which its neighbours never saw).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import RowMapping, select
from sqlalchemy.engine import Connection
from starlette.concurrency import run_in_threadpool

from israeli_whist.server import history
from israeli_whist.server.api_history import connection, visible_finished_game
from israeli_whist.server.auth import require_user
from israeli_whist.server.db import seats
from israeli_whist.server.inputs import RowNumber
from israeli_whist.server.limits import count_request
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.replay import replay_match
from israeli_whist.server.replies import Refused
from israeli_whist.server.reviews import Answer, Record, ReviewJobs

router = APIRouter(prefix="/api")

# What the review of a hand in play shows of the other seats: what the hand's end made public.
PUBLIC_SEAT_FIELDS = ("name", "score", "par", "par_error")


def review_jobs(request: Request) -> ReviewJobs:
    jobs: ReviewJobs = request.app.state.reviews  # made with the app's analyses at startup (app.py)
    return jobs


def _finished_game(request: Request, table_id: str, invite: str | None) -> RowMapping:
    with connection(request) as c:
        return visible_finished_game(c, request, table_id, invite)


def _record(request: Request, row: RowMapping) -> Record:
    with connection(request) as c:
        return history.game_record(c, row)


@router.post("/history/{table_id}/review")
async def start_game_review(table_id: str, request: Request, invite: str | None = None) -> Answer:
    """Start the game's review, or join the job in hand; its state at once. A request that starts a
    job is counted as ``analyses`` (429 past the limit); 503 ``analyses_busy`` past the jobs' bound."""
    row = await run_in_threadpool(_finished_game, request, table_id, invite)
    return await review_jobs(request).start_game(table_id, partial(run_in_threadpool, _record, request, row),
                                                 on_start=lambda: count_request(request, "analyses"))


@router.get("/history/{table_id}/review")
async def game_review(table_id: str, request: Request, invite: str | None = None) -> Answer:
    """The game's review: its state and progress, and the review once done."""
    await run_in_threadpool(_finished_game, request, table_id, invite)
    return await review_jobs(request).game_status(table_id)


# A hand of a table in play -------------------------------------------------------------------

def _seat_and_hands(c: Connection, table_id: str, user_id: int) -> tuple[RowMapping, int, int]:
    """The table's row, the user's seat at it and how many of its hands are over."""
    row = history.table_row(c, table_id)
    if row is None:
        raise Refused(404, Refusal.NO_TABLE, "No such table")
    seat = c.execute(select(seats.c.seat).where(seats.c.table_id == table_id, seats.c.user_id == user_id,
                                                seats.c.kind == "human").order_by(seats.c.seat)).scalar()
    if seat is None:
        raise Refused(403, Refusal.SPECTATOR, "Only a seat's player sees the review of its hands")
    return row, seat, len(replay_match(c, row).results)


def hands_over_record(c: Connection, row: RowMapping) -> Record:
    """The table's record with the hands that are over only: the hand under way, whose cards are
    still hidden, is not even sent to the workers."""
    record = history.game_record(c, row)
    return {**record, "hands": [hand for hand in record["hands"] if "points" in hand]}


def for_seat(review: Answer, seat: int) -> Answer:
    """A review as a seat's player may see it during the game: its own decisions, and of the other
    seats what the hand's end made public."""

    def seat_part(index: int, part: dict[str, Any]) -> dict[str, Any]:
        return part if index == seat else {k: v for k, v in part.items() if k in PUBLIC_SEAT_FIELDS}

    hands = [{**hand, "decisions": [d for d in hand["decisions"] if d["seat"] == seat],
              "seats": [seat_part(i, part) for i, part in enumerate(hand["seats"])]} for hand in review["hands"]]
    return {**review, "seat": seat, "hands": hands,
            "seats": [seat_part(i, part) for i, part in enumerate(review["seats"])],
            "timeline": [line if i == seat else [] for i, line in enumerate(review["timeline"])]}


async def _hand_review(table_id: str, number: int, request: Request, start: bool) -> Answer:
    user_id = require_user(request)

    def look() -> tuple[RowMapping, int, int]:
        with connection(request) as c:
            return _seat_and_hands(c, table_id, user_id)

    row, seat, over = await run_in_threadpool(look)
    if not 1 <= number <= over:
        raise Refused(404, Refusal.NO_HAND, f"Hand {number} of this table is not over, or there is no such hand")

    def record() -> Record:
        with connection(request) as c:
            return hands_over_record(c, row)

    answer = await review_jobs(request).hand_review(table_id, number, partial(run_in_threadpool, record),
                                                       on_start=lambda: count_request(request, "analyses"),
                                                       start=start)
    if answer["review"] is not None:
        answer = {**answer, "review": for_seat(answer["review"], seat)}
    return answer


@router.post("/tables/{table_id}/hands/{number}/review")
async def start_hand_review(table_id: str, number: RowNumber, request: Request) -> Answer:
    """Start the review of a hand that is over (or join the job in hand), for the player of a seat."""
    return await _hand_review(table_id, number, request, start=True)


@router.get("/tables/{table_id}/hands/{number}/review")
async def hand_review(table_id: str, number: RowNumber, request: Request) -> Answer:
    """The state of a hand's review, and the review once done (the seat's own decisions)."""
    return await _hand_review(table_id, number, request, start=False)
