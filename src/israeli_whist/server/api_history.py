"""Finished games, their replays and records, the leaderboard and each player's statistics.

A game's cards are shown only once it is over: a table still playing answers 409. A private
table's game is shown to its players, its creator and holders of its invite, as while it played.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import RowMapping
from sqlalchemy.engine import Connection
from starlette.concurrency import run_in_threadpool

from israeli_whist.bots.search.dd import SolverUnavailableError
from israeli_whist.server import history, playerstats, ratings
from israeli_whist.server.access import may_see, stored_visibility
from israeli_whist.server.analyses import AnalysisJobs
from israeli_whist.server.auth import session_user
from israeli_whist.server.db import Store
from israeli_whist.server.inputs import PageSize, RowNumber
from israeli_whist.server.limits import count_request
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.replies import Refused

router = APIRouter(prefix="/api")

@contextmanager
def connection(request: Request) -> Iterator[Connection]:
    store: Store = request.app.state.store
    with store.begin() as c:
        yield c


def visible_finished_game(c: Connection, request: Request, table_id: str, invite: str | None) -> RowMapping:
    row = history.table_row(c, table_id)
    if row is None:
        raise Refused(404, Refusal.NO_GAME, "No such game")
    if not may_see(stored_visibility(c, row), session_user(request), invite):
        raise Refused(403, Refusal.PRIVATE, "This game is private: ask for its invite link")
    if row["status"] != "finished":
        raise Refused(409, Refusal.STILL_PLAYING, "This game is still being played: its replay opens when it is over")
    return row


@router.get("/history")
def game_history(request: Request, offset: RowNumber = 0, limit: PageSize = 20,
                 player: RowNumber | None = None) -> dict[str, Any]:
    """Finished games, newest first; ``player`` keeps the games that user sat in."""
    with connection(request) as c:
        total, games = history.finished_games(c, session_user(request), player, offset, limit)
    return {"total": total, "offset": offset, "limit": limit, "games": games}


@router.get("/games/{table_id}")
def game_replay(table_id: str, request: Request, invite: str | None = None) -> dict[str, Any]:
    with connection(request) as c:
        return history.game_replay(c, visible_finished_game(c, request, table_id, invite))


@router.get("/games/{table_id}/record")
def game_record(table_id: str, request: Request, invite: str | None = None) -> dict[str, Any]:
    """The game record, which ``whist check`` replays with full validation."""
    with connection(request) as c:
        return history.game_record(c, visible_finished_game(c, request, table_id, invite))


def analysis_jobs(request: Request) -> AnalysisJobs:
    """The app's jobs and kept answers, made on first use (in the event loop: no lock)."""
    jobs: AnalysisJobs | None = getattr(request.app.state, "analyses", None)
    if jobs is None:
        jobs = request.app.state.analyses = AnalysisJobs(request.app.state.hub.thinkers)
    return jobs


@router.get("/games/{table_id}/analysis")
async def game_analysis(table_id: str, request: Request, invite: str | None = None,
                        hand: RowNumber | None = None) -> dict[str, Any]:
    """What the search says of every card played, and the bot's calls and bids beside the players'.
    ``hand``: that hand only (its number), so that a page can show each hand as it is done, with
    its progress, rather than wait for the whole game. One shared job per game and hand, in the
    analyses' own lane of the bot workers (``israeli_whist.server.analyses``); a request that would
    wait for one is counted as ``analyses`` (429 past the limit), a known answer is not."""
    jobs = analysis_jobs(request)
    key = (table_id, hand)

    def visible() -> RowMapping:
        with connection(request) as c:
            return visible_finished_game(c, request, table_id, invite)

    row = await run_in_threadpool(visible)  # checked on every request, known or not
    found = jobs.known(key)
    if found is None:
        jobs.check_room(key)  # before it is counted: a request refused for the server's load is not the asker's
        count_request(request, "analyses")

        def record() -> dict[str, Any]:
            with connection(request) as c:
                return history.game_record(c, row)

        try:
            found = await jobs.answer(key, partial(run_in_threadpool, record))
        except SolverUnavailableError as missing:  # installed without a C compiler
            raise Refused(503, Refusal.NO_ANALYSIS, f"Analysis is not available on this server: {missing}") from missing
    if not found["hands"]:
        raise Refused(404, Refusal.NO_HAND, f"The game has no hand {hand}")
    return found


@router.get("/leaderboard")
def leaderboard(request: Request, offset: RowNumber = 0, limit: PageSize = 20) -> dict[str, Any]:
    """Rated players by rating (``ratings.leaderboard``), best first, with their statistics."""
    with connection(request) as c:
        total, page = ratings.leaderboard(c, offset, limit)
        stats = playerstats.player_stats(c, [entry.rating.user_id for entry in page])
    players = [{"rank": offset + i + 1, "user_id": entry.rating.user_id, "name": entry.name, "guest": entry.guest,
                **entry.rating.to_json(), "stats": stats[entry.rating.user_id].to_json()}
               for i, entry in enumerate(page)]
    return {"total": total, "offset": offset, "limit": limit, "players": players}


@router.get("/players/{user_id}/stats")
def player_stats(user_id: RowNumber, request: Request) -> dict[str, Any]:
    store: Store = request.app.state.store
    user = store.user(user_id)
    if user is None:
        raise Refused(404, Refusal.NO_PLAYER, "No such player")
    with connection(request) as c:
        rating = ratings.rating_of(c, user_id)
        rank = ratings.rank_of(c, rating) if rating is not None else None
        stats = playerstats.player_stats(c, [user_id])[user_id]
    return {"user": {"id": user_id, "name": user["name"], "guest": user["login"] is None},
            "rating": None if rating is None else {**rating.to_json(), "rank": rank}, "stats": stats.to_json()}
