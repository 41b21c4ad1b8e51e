"""Finished games: the history list, a game's replay for the viewer, and its game record.

A finished game is rebuilt by replaying its stored actions through the engine
(``replay.replay_match``), exactly as the live table took them, so the replay and the record of
a game are the engine's own. Who may see which game is ``access``'s rule; the ratings and the
statistics are ``ratings`` and ``playerstats``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import RowMapping, func, select
from sqlalchemy.engine import Connection

from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match
from israeli_whist.core.records import to_record
from israeli_whist.server.access import visible_to
from israeli_whist.server.chatstore import game_chat
from israeli_whist.server.db import seats, tables, users
from israeli_whist.server.hintstore import game_hints, hint_counts, hints_by_hand
from israeli_whist.server.playerstats import hands_played
from israeli_whist.server.ratings import unrated_because
from israeli_whist.server.replay import replay_match
from israeli_whist.server.viewjson import hand_replay_json, result_json


def final_places(c: Connection, row: RowMapping) -> list[int]:
    """Places of a finished game. They follow from the totals, but where the match is made of
    games (a rubber) the games won decide, and those need the whole game replayed. Either way
    the engine's ``places`` decides."""
    game = make_game(row["game"], row["preset"], row["options"])
    if game.game_target is not None:
        return list(replay_match(c, row).places())
    start = Match.start(game, row["seed"], row["first_dealer"])
    return list(replace(start, totals=tuple(row["totals"])).places())


def table_row(c: Connection, table_id: str) -> RowMapping | None:
    return c.execute(select(tables).where(tables.c.id == table_id)).mappings().first()


def players_json(c: Connection, table_ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """The seats of each table: who sat there (a user's name and whether a guest, or a bot's level)."""
    rows = c.execute(select(seats, users.c.name, users.c.login).outerjoin(users, users.c.id == seats.c.user_id)
                     .where(seats.c.table_id.in_(table_ids)).order_by(seats.c.table_id, seats.c.seat))
    players: dict[str, list[dict[str, Any]]] = {t: [] for t in table_ids}
    for r in rows:
        players[r.table_id].append({"seat": r.seat, "kind": r.kind, "level": r.bot_level, "user_id": r.user_id,
                                    "name": r.name, "guest": r.user_id is not None and r.login is None})
    return players


def seat_label(player: Mapping[str, Any]) -> str:
    """A seat's name for a game record, as the pages show it: the person's name, the bot and
    its level, or the seat's number for a seat nobody took (the stand-in bot played it)."""
    if player["name"]:
        return str(player["name"])
    if player["kind"] == "bot":
        return f"Bot {player['seat'] + 1} ({player['level']})"
    return f"Seat {player['seat'] + 1}"


def finished_games(c: Connection, viewer: int | None, player: int | None, offset: int,
                   limit: int) -> tuple[int, list[dict[str, Any]]]:
    """(how many, a page of finished games newest first) that ``viewer`` may see; only the
    games ``player`` sat in when given."""
    where = [tables.c.status == "finished", visible_to(viewer)]
    if player is not None:
        where.append(tables.c.id.in_(select(seats.c.table_id).where(seats.c.user_id == player)))
    total = c.execute(select(func.count()).select_from(tables).where(*where)).scalar_one()
    rows = c.execute(select(tables).where(*where).order_by(tables.c.finished_at.desc(), tables.c.id)
                     .offset(offset).limit(limit)).mappings().all()
    ids = [r["id"] for r in rows]
    players = players_json(c, ids)
    hands = hands_played(c, ids)
    hints = hint_counts(c, ids)
    games = [{**game_summary(r, players[r["id"]], final_places(c, r), hints.get(r["id"], 0)),
              "hands_played": hands.get(r["id"], 0)} for r in rows]
    return int(total), games


def game_summary(row: RowMapping, players: list[dict[str, Any]], places: Sequence[int],
                 hints_used: int) -> dict[str, Any]:
    """A game as the history lists it; ``unrated`` says why a game is not rated (``ratings.unrated_because``)."""
    unrated = unrated_because(bool(row["hints"]), hints_used, row["event_id"] is not None)
    return {"id": row["id"], "game": row["game"], "preset": row["preset"], "options": row["options"],
            "created_at": iso(row["created_at"]), "finished_at": iso(row["finished_at"]), "players": players,
            "totals": list(row["totals"] or []), "places": list(places), "hints_allowed": bool(row["hints"]),
            "hints_used": hints_used, "rated": unrated is None, "unrated": unrated,
            # A board of a duplicate event (events.py): its results against the field are the event's.
            "event": None if row["event_id"] is None else {"id": row["event_id"], "board": row["event_board"]}}


def iso(moment: dt.datetime | None) -> str | None:
    """A stored time (UTC, without a zone) as ISO 8601 with its zone."""
    return None if moment is None else moment.replace(tzinfo=dt.UTC).isoformat()


def game_replay(c: Connection, row: RowMapping) -> dict[str, Any]:
    """A finished game for the replay viewer: every hand, every step, all cards shown."""
    match = replay_match(c, row)
    if not match.over:
        raise RuntimeError(f"Table {row['id']} is marked finished, but its actions do not finish the game")
    players = players_json(c, [row["id"]])[row["id"]]
    hands = [{**result_json(r), "steps": hand_replay_json(r.final)} for r in match.results]
    hints = game_hints(c, row["id"])
    return {**game_summary(row, players, match.places(), len(hints)), "title": match.game.title,
            "traits": match.game.rules.traits.to_json(),
            "rules": match.game.rules.to_dict(), "hands_total": match.hands_total,
            "games_won": list(match.games_won), "hands": hands,
            "chat": game_chat(c, row["id"]),  # what was said, each at its version (actions taken then)
            "hints": hints}  # each hint used: its hand, step (actions taken in the hand) and seat


def game_record(c: Connection, row: RowMapping) -> dict[str, Any]:
    """The game record (``whist check`` replays it). The record names players, not seats:
    with partners cut by cards, seat ``s`` holds player ``seating[s]``."""
    match = replay_match(c, row)
    labels = [seat_label(p) for p in players_json(c, [row["id"]])[row["id"]]]
    names = [""] * len(labels)
    for seat, label in enumerate(labels):
        names[match.seating[seat]] = label
    return to_record(match, players=names, first_dealer=row["first_dealer"],
                     hints=hints_by_hand(game_hints(c, row["id"])))

