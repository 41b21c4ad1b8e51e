"""Finished games, their replays and records, the leaderboard and each player's statistics.

A game's cards are shown only once it is over: a table still playing answers 409. A private
table's game is shown to its players, its creator and holders of its invite, as while it played.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from sqlalchemy import RowMapping
from sqlalchemy.engine import Connection

from israeli_whist.bots.analysis import analysis_json, analyze_record
from israeli_whist.bots.dd import SolverUnavailableError
from israeli_whist.server import history, playerstats, ratings
from israeli_whist.server.access import may_see, stored_visibility
from israeli_whist.server.auth import session_user
from israeli_whist.server.db import Store
from israeli_whist.server.inputs import RowNumber
from israeli_whist.server.replies import Refused
from israeli_whist.server.workers import Thinkers

router = APIRouter(prefix="/api")

PAGE = Query(20, ge=1, le=100)


@contextmanager
def connection(request: Request) -> Iterator[Connection]:
    store: Store = request.app.state.store
    with store.begin() as c:
        yield c


def visible_finished_game(c: Connection, request: Request, table_id: str, invite: str | None) -> RowMapping:
    row = history.table_row(c, table_id)
    if row is None:
        raise Refused(404, "no_game", "No such game")
    if not may_see(stored_visibility(c, row), session_user(request), invite):
        raise Refused(403, "private", "This game is private: ask for its invite link")
    if row["status"] != "finished":
        raise Refused(409, "still_playing", "This game is still being played: its replay opens when it is over")
    return row


@router.get("/history")
def game_history(request: Request, offset: RowNumber = 0, limit: int = PAGE,
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


ANALYSIS_BOT = "expert"
ANALYSIS_MAX_TRICKS: int | None = None  # None: the analysis's default for the game's search
ANALYSES_KEPT = 16


class AnalysisCache:
    """The last few games analysed: the analysis of a finished game never changes, and takes
    the search seconds a hand (about two minutes for a 12-hand Israeli Whist game, every card of
    every hand), so a second look at a replay should not pay for it again."""

    def __init__(self, size: int = ANALYSES_KEPT) -> None:
        self.size = size
        self.lock = threading.Lock()  # sync endpoints run in a thread pool
        self.entries: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.searching: dict[str, threading.Lock] = {}

    def lock_for(self, key: str) -> threading.Lock:
        """Held while ``key`` is analysed: a reload during the search waits for it, not a second one."""
        with self.lock:
            return self.searching.setdefault(key, threading.Lock())

    def get(self, key: str) -> dict[str, Any] | None:
        with self.lock:
            found = self.entries.get(key)
            if found is not None:
                self.entries.move_to_end(key)
            return found

    def put(self, key: str, value: dict[str, Any]) -> None:
        with self.lock:
            self.entries[key] = value
            self.entries.move_to_end(key)
            self.searching.pop(key, None)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)


_MAKING_CACHE = threading.Lock()


def analysis_cache(request: Request) -> AnalysisCache:
    """The app's cache, made on first use (one per app, so that test apps do not share one)."""
    with _MAKING_CACHE:
        cache: AnalysisCache | None = getattr(request.app.state, "analysis_cache", None)
        if cache is None:
            cache = request.app.state.analysis_cache = AnalysisCache()
    return cache


@router.get("/games/{table_id}/analysis")
def game_analysis(table_id: str, request: Request, invite: str | None = None,
                  hand: RowNumber | None = None) -> dict[str, Any]:
    """What the search says of every card played, and the bot's calls and bids beside the players'.
    ``hand``: that hand only (its number), so that a page can show each hand as it is done, with
    its progress, rather than wait for the whole game. The search runs on the bot workers
    (``israeli_whist.server.workers``); this plain ``def`` waits for it in FastAPI's thread pool, so the
    event loop does not."""
    cache = analysis_cache(request)
    key = table_id if hand is None else f"{table_id}#{hand}"
    with connection(request) as c:
        row = visible_finished_game(c, request, table_id, invite)  # checked on every request, cached or not
        found = cache.get(key) or (None if hand is None else one_hand(cache.get(table_id), hand))
        if found is not None:
            return found
        record = history.game_record(c, row)
    # Searched outside the database transaction, which it would hold for tens of seconds.
    with cache.lock_for(key):
        found = cache.get(key)
        if found is None:
            hands = None if hand is None else {hand}
            thinkers: Thinkers = request.app.state.hub.thinkers
            try:
                found = thinkers.submit(analysis_of, record, hands).result()
            except SolverUnavailableError as missing:  # installed without a C compiler
                raise Refused(503, "no_analysis", f"Analysis is not available on this server: {missing}") from missing
            if not found["hands"]:
                raise HTTPException(404, f"The game has no hand {hand}")
            cache.put(key, found)
    return found


def analysis_of(record: dict[str, Any], hands: set[int] | None) -> dict[str, Any]:
    """The analysis of a game record as the page reads it: a job for the bot workers."""
    return analysis_json(analyze_record(record, bot=ANALYSIS_BOT, max_tricks=ANALYSIS_MAX_TRICKS, hands=hands))


def one_hand(whole: dict[str, Any] | None, number: int) -> dict[str, Any] | None:
    """One hand's answer cut from the whole game's, when that is known already."""
    if whole is None:
        return None
    hands = [h for h in whole["hands"] if h["number"] == number]
    return {**whole, "hands": hands} if hands else None


@router.get("/leaderboard")
def leaderboard(request: Request, offset: RowNumber = 0, limit: int = PAGE) -> dict[str, Any]:
    """Rated players by ordinal (mu - 3 sigma), best first, with their statistics."""
    with connection(request) as c:
        total, page = ratings.leaderboard(c, offset, limit)
        stats = playerstats.player_stats(c, [rating.user_id for rating, _ in page])
    players = [{"rank": offset + i + 1, "user_id": rating.user_id, "name": name, **rating.to_json(),
                "stats": stats[rating.user_id].to_json()} for i, (rating, name) in enumerate(page)]
    return {"total": total, "offset": offset, "limit": limit, "players": players}


@router.get("/players/{user_id}/stats")
def player_stats(user_id: RowNumber, request: Request) -> dict[str, Any]:
    store: Store = request.app.state.store
    user = store.user(user_id)
    if user is None:
        raise Refused(404, "no_player", "No such player")
    with connection(request) as c:
        rating = ratings.rating_of(c, user_id)
        rank = ratings.rank_of(c, rating) if rating is not None else None
        stats = playerstats.player_stats(c, [user_id])[user_id]
    return {"user": {"id": user_id, "name": user["name"], "guest": user["login"] is None},
            "rating": None if rating is None else {**rating.to_json(), "rank": rank}, "stats": stats.to_json()}
