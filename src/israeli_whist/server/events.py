"""Duplicate events for people (docs/rules-notes.md, "Duplicate events"): the same boards for
everyone, each result scored against the field of those who held the same cards.

- **An event** is a number of boards of one game's rules and a window of time. Against bots, a
  player sits in seat 0 on every board (the dealer turns with the boards, so seat 0 bids first on
  some and last on others), and the event's bots sit in the other seats.
- **A board** is played at a private table of one hand (``core.duplicate.board_game``), dealt
  from the event's secret seed; its bots are made afresh for each decision from the board, the
  seat and the step, so the same play gets the same answers wherever and whenever it is asked.
- **Fair play**: a player plays a board once (the play's primary key), sees its cards and the
  field only once they have finished it, and a board left mid-way is finished by the bots (its
  table plays on without watchers: ``LiveTable.watched``), its result counted as the player's.
- **The daily event** is made by whichever node is asked first each UTC day (its id is the day,
  so a second node's insert finds the first's).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy.exc import IntegrityError

from israeli_whist.core.cards import hand_name
from israeli_whist.core.duplicate import (
    EVENT_LEVELS,
    MAX_BOARDS,
    PLAYER_SEAT,
    SHOWN_DECIMALS,
    Standing,
    board_first_dealer,
    board_game,
    board_match,
    board_options,
    board_seed,
    places,
    score_field,
    seats_of,
)
from israeli_whist.core.errors import WhistError
from israeli_whist.core.games import make_game
from israeli_whist.server.db import Store, now
from israeli_whist.server.eventscores import EventScores, Ranked
from israeli_whist.server.eventstore import (
    CLUB,
    DAILY,
    FINISHED,
    EventRow,
    PlayRow,
    add_event,
    event,
    insert_play,
    plays_of_user_in,
)
from israeli_whist.server.hub import Hub, TableRequest, TableRequestError
from israeli_whist.server.limits import check_open_tables
from israeli_whist.server.live import LiveTable
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.replies import Refused

MAX_HOURS: Final = 720  # thirty days


@dataclass(frozen=True)
class DailyRules:
    """What the server's daily event is: its game, boards and bots."""

    game: str = "israeli"
    boards: int = 4
    bot_level: str = "hard"


def daily_event(store: Store, rules: DailyRules, moment: dt.datetime | None = None) -> EventRow:
    """Today's (UTC) daily event, made now if nobody has asked for it yet today."""
    moment = moment or now()
    day = moment.date()
    found = event(store, f"daily-{day.isoformat()}")
    if found is not None:
        return found
    start = dt.datetime.combine(day, dt.time())
    row = EventRow(id=f"daily-{day.isoformat()}", name=f"Daily {day.isoformat()}", kind=DAILY, game=rules.game,
                   preset=None, options={}, seed=secrets.token_hex(8), boards=rules.boards,
                   bot_level=rules.bot_level, public=True, invite=secrets.token_urlsafe(12), created_by=None,
                   starts_at=start, ends_at=start + dt.timedelta(days=1))
    return add_event(store, row)


def new_event(store: Store, user_id: int, name: str, game: str, preset: str | None, options: dict[str, Any],
              boards: int, bot_level: str, public: bool, hours: int) -> EventRow:
    """An event a player makes for a club or friends, open from now for ``hours``."""
    if not 1 <= boards <= MAX_BOARDS:
        raise Refused(422, Refusal.INVALID_REQUEST, f"An event has 1 to {MAX_BOARDS} boards")
    if not 1 <= hours <= MAX_HOURS:
        raise Refused(422, Refusal.INVALID_REQUEST, f"An event is open 1 to {MAX_HOURS} hours")
    if bot_level not in EVENT_LEVELS:
        raise Refused(422, Refusal.INVALID_REQUEST, f"An event's bots are one of {', '.join(EVENT_LEVELS)}")
    try:
        board_game(game, preset, options, 1)
    except (WhistError, ValueError, TypeError) as error:
        raise Refused(422, Refusal.RULES, str(error)) from None
    start = now()
    row = EventRow(id=secrets.token_urlsafe(9), name=name, kind=CLUB, game=game, preset=preset, options=dict(options),
                   seed=secrets.token_hex(8), boards=boards, bot_level=bot_level, public=public,
                   invite=secrets.token_urlsafe(12), created_by=user_id, starts_at=start,
                   ends_at=start + dt.timedelta(hours=hours))
    return add_event(store, row)


def board_of(row: EventRow, number: int) -> int:
    if not 1 <= number <= row.boards:
        raise Refused(404, Refusal.NO_BOARD, f"This event has boards 1 to {row.boards}")
    return number


# Playing a board -------------------------------------------------------------------------------


def human_seats(number: int, players: int, friends: int) -> list[int]:
    """The people's seats on board ``number``: seat 0 alone against bots; friends at one table turn
    round it board by board (``core.duplicate.seats_of``), so that over as many boards as seats
    each holds every seat's cards once. The first is the seat of the one who opens the table."""
    if friends == 0:
        return [PLAYER_SEAT]
    return [seats_of([number], players, rotation)[0] for rotation in range(friends + 1)]


def start_board(hub: Hub, row: EventRow, number: int, user_id: int, friends: int = 0,
                max_open_tables: int | None = None) -> tuple[LiveTable, bool]:
    """The table at which ``user_id`` plays board ``number``, and whether it is new: the one they
    are playing already, or a new one, against bots or with ``friends`` more people (who join its
    free seats with its invite). Refused once they have finished it, outside the window, or when
    they have ``max_open_tables`` unfinished tables and boards."""
    board_of(row, number)
    mine = own_plays(hub.store, row.id, user_id)
    if number in mine:
        return table_of_play(hub, mine[number]), False
    if not row.open_at(now()):
        raise Refused(409, Refusal.EVENT_CLOSED, "This event is not open now")
    check_open_tables(hub, user_id, max_open_tables)
    options = board_options(row.game, row.preset, row.options, number)
    players = make_game(row.game, row.preset, options).players
    if not 0 <= friends < players:
        raise Refused(422, Refusal.INVALID_REQUEST, f"'friends' is 0 to {players - 1}: the other people at the table")
    seats: list[dict[str, Any]] = [{"kind": "bot", "level": row.bot_level} for _ in range(players)]
    own_seat, *theirs = human_seats(number, players, friends)
    seats[own_seat] = {"kind": "human", "user": user_id}
    for seat in theirs:
        seats[seat] = {"kind": "human"}
    request = TableRequest(row.game, row.preset, options, seats, public=False,
                           seed=board_seed(row.seed, number),
                           chat="seated" if friends else "off",  # friends talk; alone, nobody to talk to
                           first_dealer=board_first_dealer(number, players), event_id=row.id, event_board=number)
    try:
        table = hub.create(request, None, also=lambda c, table_row: insert_play(c, row.id, number, user_id,
                                                                                own_seat, table_row.id))
    except IntegrityError:  # started at the same moment from another tab or node: that one stands
        mine = own_plays(hub.store, row.id, user_id)
        if number not in mine:
            raise
        return table_of_play(hub, mine[number]), False
    except TableRequestError as error:
        raise Refused(422, Refusal.RULES, str(error)) from None
    hub.start(table)  # the player's grace begins (they may never open it), and the bots' turns
    return table, True


def table_of_play(hub: Hub, play: PlayRow) -> LiveTable:
    if play.status == FINISHED:
        raise Refused(409, Refusal.BOARD_PLAYED, "You have played this board: a board is played once")
    table = hub.get(play.table_id)
    if table is None:
        raise Refused(503, Refusal.UNAVAILABLE, "This board's table cannot be opened just now; please try again")
    return table


def own_plays(store: Store, event_id: str, user_id: int) -> dict[int, PlayRow]:
    return {p.board: p for p in plays_of_user_in(store, event_id, user_id)}


# Scoring against the field ---------------------------------------------------------------------


def standing_json(place: int, row: Standing, user: int, name: str) -> dict[str, Any]:
    """A row of an event's standings or of the ranking."""
    return {"place": place, "user": user, "name": name, "boards": row.boards,
            "percent": round(row.percent, SHOWN_DECIMALS), "above_average": round(row.above_average, SHOWN_DECIMALS)}


def placed(rows: list[Standing]) -> list[tuple[int, Standing, int]]:
    """Each row of an event's standings with its place and its player."""
    found = []
    for place, row in zip(places(rows), rows, strict=True):
        assert isinstance(row.player, int)  # the server's players are user ids
        found.append((place, row, row.player))
    return found


def standings_json(rows: list[Standing], names: Mapping[int, str]) -> list[dict[str, Any]]:
    return [standing_json(place, row, user, names[user]) for place, row, user in placed(rows)]


def ranking_json(store: Store, ranked: list[Ranked], offset: int, limit: int) -> list[dict[str, Any]]:
    """A page of the events' ranking, with the players' names as they are now."""
    page = ranked[offset:offset + limit]
    names = store.user_names([r.user for r in page])
    return [{**standing_json(r.place, r.standing, r.user, names[r.user]), "provisional": r.provisional} for r in page]


def summary_json(row: EventRow, viewer: int | None, players: int, played: int) -> dict[str, Any]:
    game = make_game(row.game, row.preset, row.options)
    shown = {"id": row.id, "name": row.name, "kind": row.kind, "game": row.game, "title": game.title,
             "preset": row.preset, "options": row.options, "house_rules": game.rules.changed_options(),
             "boards": row.boards, "seats": game.players, "bot_level": row.bot_level, "public": row.public,
             "starts_at": _iso(row.starts_at), "ends_at": _iso(row.ends_at), "open": row.open_at(now()),
             "players": players, "played": played, "created_by": row.created_by}
    if viewer is not None and viewer == row.created_by:
        shown["invite"] = row.invite
    return shown


def _iso(moment: dt.datetime) -> str:
    return moment.replace(tzinfo=dt.UTC).isoformat()


def event_json(row: EventRow, viewer: int | None, mine: list[PlayRow], scores: EventScores,
               players: int, names: Mapping[int, str]) -> dict[str, Any]:
    """An event as ``viewer`` sees it: its boards with their own results (``mine``: their plays of
    it), and the standings. ``players``: how many have started a board of it; ``names``: the
    players' in the standings."""
    own = {p.board: p for p in mine if p.user_id == viewer}
    played = sum(1 for p in own.values() if p.status == FINISHED)
    boards, players_at_table = [], _players(row)
    for number in range(1, row.boards + 1):
        play = own.get(number)
        score = None if play is None else scores.boards.get((number, play.user_id))
        boards.append({"number": number, "dealer": board_first_dealer(number, players_at_table),
                       "seat": PLAYER_SEAT if play is None else play.seat,
                       "status": "open" if play is None else ("played" if play.status == FINISHED else "playing"),
                       "table": None if play is None else play.table_id,
                       "points": None if play is None else play.points,
                       "percent": None if score is None else round(score.percent, 2),
                       "above_average": None if score is None else round(score.above_average, 2)})
    return {"event": summary_json(row, viewer, players, played), "boards": boards,
            "standings": standings_json(scores.standings, names)}


def _players(row: EventRow) -> int:
    return make_game(row.game, row.preset, row.options).players


def board_json(row: EventRow, number: int, viewer: int, plays: list[PlayRow], players: int,
               played: int) -> dict[str, Any]:
    """A board's results for a player who has finished it: the deal, and the field of their seat.
    ``plays``: the board's (or more); ``players`` and ``played``: the event's players, and the
    viewer's finished boards, for its summary."""
    mine = next((p for p in plays if p.board == number and p.user_id == viewer), None)
    if mine is None or mine.status != FINISHED:
        raise Refused(403, Refusal.BOARD_UNPLAYED, "Play this board first: its cards and results are shown to "
                                                   "those who have played it")
    field = [p for p in plays if p.board == number and p.seat == mine.seat and p.status == FINISHED]
    points: Mapping[int, float] = {p.user_id: p.points or 0 for p in field}
    scores = score_field(points)
    deal = board_match(board_game(row.game, row.preset, row.options, number), row.seed, number).hand
    results: list[dict[str, Any]] = [{"user": p.user_id, "name": p.name, "you": p.user_id == viewer, "points": p.points,
                "percent": round(scores[p.user_id].percent, 2),
                "above_average": round(scores[p.user_id].above_average, 2),
                "contract": (p.line or {}).get("contract"), "tricks": (p.line or {}).get("tricks"),
                "trump": (p.line or {}).get("trump"), "table": p.table_id,
                "replay": f"/replay/{p.table_id}?invite={p.invite}"} for p in field]
    results.sort(key=lambda r: (-(r["points"] or 0), r["name"]))
    average = sum(points.values()) / len(points)
    return {"event": summary_json(row, viewer, players, played), "number": number, "dealer": deal.dealer,
            "seat": mine.seat, "hands": [hand_name(h) for h in deal.deal],
            "field": {"count": len(field), "average": round(average, 2)}, "results": results}
