"""Duplicate events over HTTP (``israeli_whist.server.events``); a board is then played through the
table's own WebSocket. ``docs/server-protocol.md`` describes every field.

  GET  /api/events                          the daily event, public events, and the asker's
  GET  /api/events/daily                    today's daily event (made on the first ask)
  POST /api/events                          a new event for a club or friends
  GET  /api/events/mine                     the asker's event history (their newest events)
  GET  /api/events/ranking[?offset=&limit=] the events' own ranking, every board against its field
  GET  /api/events/{id}[?invite=]           an event: its boards (the asker's results) and standings
  POST /api/events/{id}/boards/{n}/play     the table at which the asker plays board n
  GET  /api/events/{id}/boards/{n}          board n's cards and field, once the asker has played it
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field
from starlette.responses import Response

from israeli_whist.core.duplicate import SHOWN_DECIMALS
from israeli_whist.server.access import same_invite
from israeli_whist.server.auth import clean_name, require_user, session_user
from israeli_whist.server.db import Store
from israeli_whist.server.events import (
    board_json,
    board_of,
    daily_event,
    event_json,
    new_event,
    placed,
    ranking_json,
    start_board,
    summary_json,
)
from israeli_whist.server.eventscores import NO_SCORES, EventScores, ScoreKeeper
from israeli_whist.server.eventstore import (
    FINISHED,
    EventRow,
    event,
    events_by_id,
    listed_events,
    player_counts,
    plays_of_board,
    plays_of_user,
    plays_of_user_in,
)
from israeli_whist.server.hub import Hub
from israeli_whist.server.inputs import Body, PageSize, RowNumber
from israeli_whist.server.limits import rate_limited
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.replies import Refused

router = APIRouter()


class EventIn(Body):
    name: str = Field(min_length=1, max_length=200)
    game: str = "israeli"
    preset: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    boards: int = Field(default=4, strict=True)
    bot_level: str = "hard"
    public: bool = Field(default=False, strict=True)
    hours: int = Field(default=24, strict=True)


class PlayIn(Body):
    invite: str | None = None
    # Other people at the table (0: the event's bots in the other seats); they join its free seats
    # with the table's invite, each board's seats turned round the table (events.human_seats).
    friends: int = Field(default=0, strict=True)


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _event_seen(request: Request, event_id: str, invite: str | None) -> EventRow:
    """The event, if the asker may see it: public, theirs, played by them, or with its invite."""
    store: Store = request.app.state.store
    row = event(store, event_id)
    if row is None:
        raise Refused(404, Refusal.NO_EVENT, "No such event")
    viewer = session_user(request)
    if row.public or (invite is not None and same_invite(invite, row.invite)):
        return row
    if viewer is not None and (viewer == row.created_by or plays_of_user_in(store, row.id, viewer)):
        return row
    raise Refused(403, Refusal.PRIVATE, "This event is private: ask for its invite link")


@router.get("/api/events")
async def list_events(request: Request) -> dict[str, Any]:
    store: Store = request.app.state.store
    viewer = session_user(request)
    today = await store.off_loop(daily_event, store, request.app.state.daily_rules)
    rows = await store.off_loop(listed_events, store, viewer)
    if all(r.id != today.id for r in rows):
        rows.insert(0, today)
    counts = await store.off_loop(player_counts, store, [r.id for r in rows])
    played: dict[str, int] = {}
    if viewer is not None:
        mine = await store.off_loop(plays_of_user, store, viewer)
        for play in mine:
            if play.status == FINISHED:
                played[play.event_id] = played.get(play.event_id, 0) + 1
    return {"events": [summary_json(r, viewer, counts.get(r.id, 0), played.get(r.id, 0)) for r in rows]}


@router.get("/api/events/daily")
async def get_daily(request: Request) -> dict[str, Any]:
    store: Store = request.app.state.store
    viewer = session_user(request)
    row = await store.off_loop(daily_event, store, request.app.state.daily_rules)

    def summary() -> dict[str, Any]:
        # Two counts, not the whole event: today's field is hundreds of plays, and every visit to the
        # events page asks for this.
        players = player_counts(store, [row.id]).get(row.id, 0)
        played = 0 if viewer is None else sum(
            1 for play in plays_of_user_in(store, row.id, viewer) if play.status == FINISHED)
        return summary_json(row, viewer, players, played)

    return await store.off_loop(summary)


@router.post("/api/events", status_code=201, dependencies=[Depends(rate_limited("tables"))])
async def create_event(body: EventIn, request: Request) -> dict[str, Any]:
    user_id = require_user(request)
    store: Store = request.app.state.store
    row = await store.off_loop(new_event, store, user_id, clean_name(body.name), body.game, body.preset, body.options,
                               body.boards, body.bot_level, body.public, body.hours)
    return summary_json(row, user_id, 0, 0)


MY_EVENTS = 50  # the newest events a player's history shows


@router.get("/api/events/mine")
async def my_events(request: Request) -> dict[str, Any]:
    user_id = require_user(request)
    store: Store = request.app.state.store
    keeper: ScoreKeeper = request.app.state.event_scores

    def history() -> list[dict[str, Any]]:
        mine = plays_of_user(store, user_id)
        rows = sorted(events_by_id(store, list({p.event_id for p in mine})), key=lambda r: (r.starts_at, r.id),
                      reverse=True)[:MY_EVENTS]
        ids = [r.id for r in rows]
        scores, counts = keeper.of_events(ids), player_counts(store, ids)
        shown = []
        for row in rows:
            standings = placed(scores.get(row.id, NO_SCORES).standings)
            own = next(((place, standing) for place, standing, user in standings if user == user_id), None)
            played = sum(1 for p in mine if p.event_id == row.id and p.status == FINISHED)
            shown.append({"event": summary_json(row, user_id, counts.get(row.id, 0), played), "boards": played,
                          "percent": None if own is None else round(own[1].percent, SHOWN_DECIMALS),
                          "above_average": None if own is None else round(own[1].above_average, SHOWN_DECIMALS),
                          "place": None if own is None else own[0], "of": len(standings)})
        return shown

    return {"events": await store.off_loop(history)}


@router.get("/api/events/ranking")
async def ranking(request: Request, offset: RowNumber = 0, limit: PageSize = 50) -> dict[str, Any]:
    store: Store = request.app.state.store
    keeper: ScoreKeeper = request.app.state.event_scores
    ranked = await store.off_loop(keeper.ranking)
    return {"total": len(ranked), "offset": offset, "limit": limit, "days": keeper.days,
            "ranked_boards": keeper.ranked_boards,
            "players": await store.off_loop(ranking_json, store, ranked, offset, limit)}


@router.get("/api/events/{event_id}")
async def get_event(event_id: str, request: Request, invite: str | None = None) -> dict[str, Any]:
    store: Store = request.app.state.store
    row = await store.off_loop(_event_seen, request, event_id, invite)
    return await store.off_loop(_shown_event, request, row, session_user(request))


@router.post("/api/events/{event_id}/boards/{number}/play", dependencies=[Depends(rate_limited("tables"))])
async def play_board(event_id: str, number: int, body: PlayIn, request: Request, response: Response) -> dict[str, Any]:
    user_id = require_user(request)
    row = _event_seen(request, event_id, body.invite)
    table, new = start_board(_hub(request), row, number, user_id, body.friends,
                             request.app.state.settings.max_open_tables)
    response.status_code = 201 if new else 200
    answer: dict[str, Any] = {"table": table.id, "seat": table.seat_of_user(user_id), "board": number}
    if any(not seat.is_bot and seat.user_id != user_id for seat in table.seats):  # friends join with its invite
        answer["invite"] = table.row.invite
    return answer


@router.get("/api/events/{event_id}/boards/{number}")
async def get_board(event_id: str, number: int, request: Request) -> dict[str, Any]:
    user_id = session_user(request)
    store: Store = request.app.state.store
    row = await store.off_loop(_event_seen, request, event_id, request.query_params.get("invite"))
    board_of(row, number)
    if user_id is None:
        raise Refused(403, Refusal.BOARD_UNPLAYED, "Play this board first: its cards and results are shown to "
                                                   "those who have played it")
    return await store.off_loop(_shown_board, store, row, number, user_id)


def _shown_event(request: Request, row: EventRow, viewer: int | None) -> dict[str, Any]:
    store: Store = request.app.state.store
    mine = [] if viewer is None else plays_of_user_in(store, row.id, viewer)
    scores: EventScores = request.app.state.event_scores.of_event(row.id)
    names = store.user_names(list(scores.percents))
    return event_json(row, viewer, mine, scores, player_counts(store, [row.id]).get(row.id, 0), names)


def _shown_board(store: Store, row: EventRow, number: int, viewer: int) -> dict[str, Any]:
    # The board's plays only: a daily event's page of one board need not read the whole event.
    played = sum(1 for p in plays_of_user_in(store, row.id, viewer) if p.status == FINISHED)
    return board_json(row, number, viewer, plays_of_board(store, row.id, number),
                      player_counts(store, [row.id]).get(row.id, 0), played)
