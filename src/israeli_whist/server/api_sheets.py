"""Score sheets for games played with real cards (docs/rules.md#score-sheet-for-real-cards), over HTTP.

The scoring and every check are ``israeli_whist.core.scoresheet``'s; this module stores the entries,
says who may change a sheet (its owner: the session that created it, guests included) and
turns errors into answers. Anyone with a sheet's link may read it, so the other players at the
table can follow the score on their phones.

  POST   /api/sheets                   {"game", "preset"?, "options"?, "players": [names]}: 201, the sheet
  GET    /api/sheets                   {"sheets": [summary, ...]}: mine, newest first
  GET    /api/sheets/{id}              the sheet: entries, points, totals, the end, the next hand
  POST   /api/sheets/{id}/hands        {"entry": {...}, "number"?}: 201, the sheet; 422 with the reason
  DELETE /api/sheets/{id}/hands/{n}    take back hand n, which must be the last: the sheet
  DELETE /api/sheets/{id}              204

Without a session: 401; another user's sheet: 403 for changes; no such sheet: 404; a hand after
the end, or a ``number`` that is not the next hand's (a second tap, another device): 409.
Entries are the JSON forms of ``IsraeliEntry``, ``ClassicEntry`` and ``WhistitiEntry``.
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import Field

from israeli_whist.core.errors import WhistError
from israeli_whist.core.games import game_for_rules
from israeli_whist.core.scoresheet import Sheet, SheetError, entry_from_dict
from israeli_whist.server import sheetstore
from israeli_whist.server.auth import clean_name, require_user, session_user
from israeli_whist.server.db import Store
from israeli_whist.server.inputs import Body, RowNumber
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.replies import Refused
from israeli_whist.server.sheetstore import HandNumberTaken, SheetRow

router = APIRouter(prefix="/api/sheets")

# Every request replays the sheet from its entries; a game played to a target could go on forever.
MAX_HANDS = 1000


class SheetIn(Body):
    game: str = "israeli"
    preset: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    players: list[str]


class HandIn(Body):
    entry: dict[str, Any]
    # The number the new hand will have, as the client saw the sheet: a second tap on "add",
    # or a hand added from another device meanwhile, is refused instead of stored twice.
    number: RowNumber | None = None


def store_of(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def row_or_404(store: Store, sheet_id: str) -> SheetRow:
    row = sheetstore.sheet_row(store, sheet_id)
    if row is None:
        raise Refused(404, Refusal.NO_SHEET, "No such score sheet")
    return row


def owned_row(request: Request, sheet_id: str) -> SheetRow:
    user_id = require_user(request)
    row = row_or_404(store_of(request), sheet_id)
    if row.owner_id != user_id:
        raise Refused(403, Refusal.NOT_SCORER, "Only the scorer who made this sheet may change it")
    return row


def replay(row: SheetRow, entries: list[dict[str, Any]]) -> Sheet:
    return Sheet.replay(row.game, row.options, row.players, entries)


def sheet_json(row: SheetRow, sheet: Sheet, user_id: int | None) -> dict[str, Any]:
    rules = sheet.rules
    info: dict[str, Any] = {
        "id": row.id,
        "game": sheet.game,
        "title": game_for_rules(rules).title,
        "traits": rules.traits.to_json(),
        "options": rules.changed_options(),
        "rules": rules.to_dict(),
        "players": list(sheet.players),
        "mine": user_id is not None and user_id == row.owner_id,
        "created_at": row.created_at.isoformat() + "Z",
        "hands": [score.to_dict() for score in sheet.scores],
        "totals": list(sheet.totals),
        "hands_played": sheet.hands_played,
        "hands_total": sheet.hands_total,
        "over": sheet.over,
        "places": list(sheet.places()) if sheet.over else None,
        "next": None if sheet.over else {"number": len(sheet.scores) + 1, "dealer": sheet.dealer,
                                         "hand_size": sheet.hand_size},
    }
    if sheet.hand_game.game_target is not None:  # a match made of games (Classic Whist)
        info["game_points"] = list(sheet.game_points)
        info["games_won"] = list(sheet.games_won)
    info.update(sheet.hand_game.entry_choices())
    return info


def summary_json(row: SheetRow, sheet: Sheet) -> dict[str, Any]:
    return {"id": row.id, "game": sheet.game, "title": game_for_rules(sheet.rules).title,
            "players": list(sheet.players), "created_at": row.created_at.isoformat() + "Z",
            "hands_played": sheet.hands_played, "hands_total": sheet.hands_total, "totals": list(sheet.totals),
            "over": sheet.over}


@router.post("", status_code=201)
def create_sheet(body: SheetIn, request: Request) -> dict[str, Any]:
    user_id = require_user(request)
    names = [clean_name(name) for name in body.players]
    try:
        sheet = Sheet.start(body.game, names, body.preset, body.options)
    except WhistError as error:
        raise Refused(422, Refusal.RULES, str(error)) from None
    row = sheetstore.new_sheet_row(secrets.token_urlsafe(9), user_id, sheet.game, sheet.rules.changed_options(),
                                   sheet.players)
    sheetstore.add_sheet(store_of(request), row)
    return sheet_json(row, sheet, user_id)


@router.get("")
def list_sheets(request: Request) -> dict[str, Any]:
    user_id = require_user(request)
    return {"sheets": [summary_json(row, replay(row, entries))
                       for row, entries in sheetstore.sheets_of(store_of(request), user_id)]}


@router.get("/{sheet_id}")
def get_sheet(sheet_id: str, request: Request) -> dict[str, Any]:
    store = store_of(request)
    row = row_or_404(store, sheet_id)
    return sheet_json(row, replay(row, sheetstore.hand_entries(store, sheet_id)), session_user(request))


@router.post("/{sheet_id}/hands", status_code=201)
def add_hand(sheet_id: str, body: HandIn, request: Request) -> dict[str, Any]:
    row = owned_row(request, sheet_id)
    store = store_of(request)
    sheet = replay(row, sheetstore.hand_entries(store, sheet_id))
    number = len(sheet.scores) + 1
    if sheet.over:
        raise Refused(409, Refusal.SHEET_OVER, "The game is over: no more hands")
    if number > MAX_HANDS:
        raise Refused(409, Refusal.SHEET_FULL, f"A score sheet holds at most {MAX_HANDS} hands: start a new one")
    if body.number is not None and body.number != number:
        raise Refused(409, Refusal.SHEET_CHANGED,
                      f"The sheet has changed: the next hand is number {number}, not {body.number}")
    try:
        entry = entry_from_dict(sheet.game, body.entry)
        sheet = sheet.add(entry)
    except SheetError as error:
        raise Refused(422, Refusal.RULES, str(error)) from None
    try:
        sheetstore.append_hand(store, sheet_id, number, entry.to_dict())
    except HandNumberTaken:
        raise Refused(409, Refusal.HAND_ENTERED, f"Hand {number} was entered meanwhile: reload the sheet") from None
    return sheet_json(row, sheet, row.owner_id)


@router.delete("/{sheet_id}/hands/{number}")
def delete_hand(sheet_id: str, number: RowNumber, request: Request) -> dict[str, Any]:
    """Take back the last hand (only the last: the later hands were scored after it)."""
    row = owned_row(request, sheet_id)
    store = store_of(request)
    entries = sheetstore.hand_entries(store, sheet_id)
    if not 1 <= number <= len(entries):
        raise Refused(404, Refusal.NO_HAND, f"This sheet has no hand {number}")
    if number != len(entries):
        raise Refused(409, Refusal.NOT_LAST_HAND, f"Only the last hand, number {len(entries)}, can be taken back")
    sheetstore.delete_hand(store, sheet_id, number)
    return sheet_json(row, replay(row, entries[:-1]), row.owner_id)


@router.delete("/{sheet_id}", status_code=204)
def delete_sheet(sheet_id: str, request: Request) -> Response:
    owned_row(request, sheet_id)
    sheetstore.delete_sheet(store_of(request), sheet_id)
    return Response(status_code=204)
