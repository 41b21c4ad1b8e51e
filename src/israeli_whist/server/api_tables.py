"""The lobby (list, create, join tables) and the table's WebSocket.

WebSocket messages, client to server (JSON objects):
  {"type": "act", "action": 61, "version": 12, "id": "c7"}   take an action from ``view.legal``
  {"type": "sync"}                                            send me the state again
  {"type": "ping"}
  {"type": "rematch", "do": "accept"}                         play again at a finished table (rematch.py)
  {"type": "chat", "text": "well played!", "id": "m3"}         say something to the table (chat.py)
  {"type": "react", "reaction": "sorry", "id": "m4"}          a quick reaction
  {"type": "chat_mode", "mode": "seated", "id": "m5"}         who may talk (the table's creator only)
  {"type": "chat_log"}                                        send me the recent messages
  {"type": "hint", "id": "h1"}                                the expert's top choices, on my turn (hints.py)
Server to client:
  {"type": "state", "version": ..., "you": seat or -1, "table": ..., "score": ..., "view": ...}
  {"type": "ack", "id": "c7", "version": 13}
  {"type": "error", "id": "c7", "code": "not_your_turn", "message": "It is not your turn"}
  {"type": "pong"}
  {"type": "rematch", "asked_by": 0, "answers": ["accepted", "bot", ...], "next": null}
  {"type": "chat", "message": {"id": 8, "name": "Dana", "seat": 2, "spectator": false, "text": ...}}
  {"type": "chat_log", "messages": [...]}                     the recent messages
  {"type": "hint", "id": "h1", "version": 12, "hand": 2, "step": 9, "hint": {...}}   to the asker only
``docs/server-protocol.md`` describes every field.
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, Depends, Request, WebSocket, WebSocketDisconnect
from pydantic import Field
from starlette.websockets import WebSocketDisconnected

from israeli_whist.server.access import live_visibility, may_see
from israeli_whist.server.auth import require_user, session_user, sessions_of, signed_in
from israeli_whist.server.chat import CHAT_TYPES, ChatRefused, Speaker, set_mode, speak
from israeli_whist.server.chatstore import recent_messages
from israeli_whist.server.hints import HintRefused, Hints
from israeli_whist.server.hub import Hub, TableRequest, TableRequestError
from israeli_whist.server.inputs import Body, json_problem
from israeli_whist.server.limits import RateLimiter, address_of, check_open_tables, rate_limited
from israeli_whist.server.live import ActionRefused, LiveTable
from israeli_whist.server.refusals import Refusal, SocketClosed
from israeli_whist.server.rematch import Rematches
from israeli_whist.server.replies import Refused, json_text

log = logging.getLogger("whist.server")
router = APIRouter()


class SeatIn(Body):
    kind: str
    level: str | None = None


class TableIn(Body):
    game: str = "israeli"
    preset: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatIn]
    public: bool = True
    move_timer: float | None = None
    # The creator sits here (None: only watch). Strict: JSON's true is not seat 1.
    take_seat: int | None = Field(default=0, strict=True)
    chat: str = "everyone"  # who may talk at the table: everyone, seated (the players only) or off
    # Hints on request (hints.py): a practice table, whose games are not rated. ``rated`` true with
    # hints is refused (``hints_rated``); left out, a table is rated exactly when it has no hints.
    hints: bool = Field(default=False, strict=True)
    rated: bool | None = Field(default=None, strict=True)


class JoinIn(Body):
    seat: int = Field(strict=True)
    invite: str | None = None


def hub_of(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def table_or_404(hub: Hub, table_id: str) -> LiveTable:
    table = hub.get(table_id)
    if table is None:
        raise Refused(404, Refusal.NO_TABLE, "No such table")
    return table


def lobby_json(table: LiveTable, user_id: int | None) -> dict[str, Any]:
    info = table.table_json()
    info["you"] = table.seat_of_user(user_id)
    info["hands_played"] = table.match.hands_played
    info["hands_total"] = table.match.hands_total
    if user_id is not None and user_id == table.row.created_by:
        info["invite"] = table.row.invite
    return info


@router.get("/api/tables")
async def list_tables(request: Request) -> dict[str, Any]:
    user_id = session_user(request)
    return {"tables": [lobby_json(t, user_id) for t in hub_of(request).public_tables()]}


@router.post("/api/tables", status_code=201, dependencies=[Depends(rate_limited("tables"))])
async def create_table(body: TableIn, request: Request) -> dict[str, Any]:
    user_id = require_user(request)
    hub = hub_of(request)
    check_open_tables(hub, user_id, request.app.state.settings.max_open_tables)
    # Checked before the table is made: a refused request must not leave an empty table behind.
    if body.take_seat is not None and not (0 <= body.take_seat < len(body.seats)
                                           and body.seats[body.take_seat].kind == "human"):
        raise Refused(422, Refusal.INVALID_REQUEST, "'take_seat' is the number of a human seat, or null to only watch")
    if body.hints and body.rated:
        raise Refused(422, Refusal.HINTS_RATED, "A rated table allows no hints: a table with hints is a practice "
                                                "table, and its games are not rated")
    req = TableRequest(body.game, body.preset, body.options, [s.model_dump() for s in body.seats], body.public,
                       body.move_timer, chat=body.chat, hints=body.hints)
    try:
        table = hub.create(req, user_id)
        if body.take_seat is not None:
            user = request.app.state.store.user(user_id)
            table.take_seat(body.take_seat, user_id, user["name"])
    except TableRequestError as error:
        raise Refused(422, Refusal.RULES, str(error)) from None
    except ActionRefused as refused:
        raise seat_refused(refused) from None
    table.schedule_turn()
    return lobby_json(table, user_id)


@router.get("/api/tables/{table_id}")
async def get_table(table_id: str, request: Request, invite: str | None = None) -> dict[str, Any]:
    user_id = session_user(request)
    table = table_or_404(hub_of(request), table_id)
    if not may_see(live_visibility(table), user_id, invite):
        raise Refused(403, Refusal.PRIVATE, "This table is private: ask for its invite link")
    return lobby_json(table, user_id)


@router.post("/api/tables/{table_id}/join")
async def join_table(table_id: str, body: JoinIn, request: Request) -> dict[str, Any]:
    user_id = require_user(request)
    table = table_or_404(hub_of(request), table_id)
    if not may_see(live_visibility(table), user_id, body.invite):
        raise Refused(403, Refusal.PRIVATE, "This table is private: ask for its invite link")
    if table.match.over:
        raise Refused(409, Refusal.OVER, "The game is over")
    user = request.app.state.store.user(user_id)
    try:
        await table.seat_user(body.seat, user_id, user["name"])
    except ActionRefused as refused:
        raise seat_refused(refused) from None
    return lobby_json(table, user_id)


def seat_refused(refused: ActionRefused) -> Refused:
    """A seat not taken, as an HTTP answer: a seat that does not exist is a bad request, a table that
    cannot store it just now is unavailable, and the rest (taken, seated) a conflict."""
    status = {Refusal.NO_SEAT: 422, Refusal.UNAVAILABLE: 503}.get(refused.code, 409)
    return Refused(status, refused.code, str(refused))


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    # A page of another origin never gets here (israeli_whist.server.guard refuses its handshake).
    hub = hub_of(websocket)
    table = hub.get(table_id)
    session = signed_in(websocket)
    user_id = None if session is None else session.user_id
    # Accepted before closing: a refusal before the handshake reaches a browser only as code 1006,
    # without the reason.
    await websocket.accept()
    if table is None:
        await websocket.close(code=SocketClosed.NO_TABLE, reason="No such table")
        return
    if not may_see(live_visibility(table), user_id, websocket.query_params.get("invite")):
        await websocket.close(code=SocketClosed.PRIVATE, reason="This table is private")
        return
    seat = table.seat_of_user(user_id)
    signed_out = False

    async def send(message: dict[str, Any]) -> None:
        if not signed_out:
            await websocket.send_text(json_text(message))  # not send_json: it cannot send an echoed lone surrogate

    async def close_signed_out() -> None:
        # The session ended (signed out here or elsewhere, on any node): its seat's cards stop here.
        nonlocal signed_out
        signed_out = True
        with contextlib.suppress(RuntimeError):  # closed by the client meanwhile
            await websocket.close(code=SocketClosed.SIGNED_OUT, reason="Signed out")

    limit: int = websocket.app.state.settings.max_message_bytes
    rematches: Rematches = websocket.app.state.rematches
    sessions = sessions_of(websocket)
    sessions.watch(session, close_signed_out)
    try:
        # Inside the try: a client gone before its first state must not stay among the connections.
        await table.connect(seat, send)
        await rematches.connected(table, seat, send)
        speaker = Speaker(user_id, seat, address_of(websocket))
        limiter: RateLimiter = websocket.app.state.limiter
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect" or signed_out:  # nothing more once the session ended
                break
            text = frame.get("text")
            if text is None:  # a binary frame: answered, not let through to kill the connection
                size = len(frame.get("bytes") or b"")
                reply: dict[str, Any] | None = (
                    error(None, Refusal.TOO_LARGE, f"A message is at most {limit} bytes") if size > limit
                    else error(None, Refusal.MALFORMED, "A message is a JSON object, sent as text"))
            else:
                table = hub.current(table_id, table)  # in a cluster the table may have moved to or from this node
                try:
                    reply = await handle_message(table, seat, text, limit, rematches, speaker, limiter,
                                                 websocket.app.state.hints)
                except Exception:  # a fault of ours: logged, answered, and the connection kept
                    log.exception("table %s: message from seat %d failed", table.id, seat)
                    reply = error(None, Refusal.INTERNAL, "The server failed to answer this message")
            if reply is not None:
                await send(reply)
    except (WebSocketDisconnect, WebSocketDisconnected):
        # The client went: found by a receive, or by a send to the closed socket. Starlette 1.x raises
        # WebSocketDisconnect for the send that finds it closed, and WebSocketDisconnected (a
        # RuntimeError) for every send after that one (a broadcast may have found it first).
        pass
    finally:
        sessions.unwatch(session, close_signed_out)
        hub.current(table_id, table).disconnect(seat, send)
        rematches.disconnected(hub.current(table_id, table), seat)


async def handle_message(table: LiveTable, seat: int, text: str, limit: int, rematches: Rematches,
                         speaker: Speaker | None = None, limiter: RateLimiter | None = None,
                         hints: Hints | None = None) -> dict[str, Any] | None:
    """The reply to one client message; every error path leaves the table as it was. Talk (chat,
    reactions, who may talk) needs the ``speaker`` and the chat's rate ``limiter``; a hint, the
    ``speaker`` and the node's ``hints``."""
    if len(text.encode("utf-8", "surrogatepass")) > limit:  # measured even if it holds a lone surrogate
        return error(None, Refusal.TOO_LARGE, f"A message is at most {limit} bytes")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # deep nesting fits in 4096 bytes and overflows the parser
        return error(None, Refusal.MALFORMED, "A message is a JSON object")
    if not isinstance(message, dict):
        return error(None, Refusal.MALFORMED, "A message is a JSON object")
    message_id = message_id_of(message)
    problem = json_problem(message)
    if problem is not None:
        return error(message_id, Refusal.MALFORMED, problem)
    kind = message.get("type")
    if kind == "ping":
        return {"type": "pong"}
    if kind == "sync":
        return table.state_message(seat)
    if kind == "rematch":  # answered by the question to every connection, or refused
        try:
            return await rematches.handle(table, seat, message)
        except ActionRefused as refused:
            return error(message_id, refused.code, str(refused))
    if kind == "chat_log":
        return {"type": "chat_log", "messages": await table.store.off_loop(recent_messages, table.store, table.id)}
    if kind in CHAT_TYPES and speaker is not None and limiter is not None:
        try:
            if kind == "chat_mode":
                await set_mode(table, speaker, message.get("mode"))
            else:
                await speak(table, speaker, message, limiter)
        except ChatRefused as refused:
            return error(message_id, refused.code, str(refused))
        return {"type": "ack", "id": message_id, "version": table.version}
    if kind == "hint" and speaker is not None and hints is not None:
        try:
            return {**await hints.give(table, seat, speaker.user_id), "id": message_id}
        except HintRefused as refused:
            reply = error(message_id, refused.code, str(refused))
            if refused.code == Refusal.STALE:
                reply["state"] = table.state_message(seat)
            return reply
    if kind != "act":
        return error(message_id, Refusal.UNKNOWN_TYPE,
                     "Message types: act, sync, ping, rematch, chat, react, chat_mode, chat_log, hint")
    action, version = message.get("action"), message.get("version")
    if action.__class__ is not int or version.__class__ is not int:
        return error(message_id, Refusal.MALFORMED, "'act' needs an integer 'action' and 'version'")
    try:
        new_version = await table.act(seat, action, version)
    except ActionRefused as refused:
        reply = error(message_id, refused.code, str(refused))
        if refused.code == Refusal.STALE:
            reply["state"] = table.state_message(seat)
        return reply
    return {"type": "ack", "id": message_id, "version": new_version}


def message_id_of(message: dict[str, Any]) -> str | int | None:
    """The id to echo in the reply: a string or a whole number that the reply can carry (no lone
    surrogate, nothing past 2**53). Any other id is answered without one."""
    found = message.get("id")
    if isinstance(found, bool) or not isinstance(found, str | int) or json_problem(found) is not None:
        return None
    return found


def error(message_id: Any, code: Refusal, text: str) -> dict[str, Any]:
    return {"type": "error", "id": message_id, "code": code, "message": text}
