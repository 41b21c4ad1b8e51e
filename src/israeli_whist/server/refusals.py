"""Every code the server refuses with: the one list, for HTTP answers and the table's socket alike.

A refusal is sent with a stable ``code`` beside its detail for people (``Refused`` in
``replies.py``, ``ActionRefused`` in ``live.py``, the socket's ``error`` replies). Clients depend
on the spelling; the pages word each code from their catalogues, ``static/i18n/en.json`` and
``he.json`` (``error.<code>``). ``tests/server/test_refusal_codes.py`` holds them together:
every code here has both entries, every ``error.*`` entry is a code here (or a page's own word),
no refusal in the server's source spells its code as a literal, and docs/server-protocol.md lists
these codes in this order.

>>> Refusal.NOT_YOUR_TURN == "not_your_turn", f"error.{Refusal.STALE}"
(True, 'error.stale')
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any


class Refusal(enum.StrEnum):
    """A refusal's code; the value is what the client reads, so it never changes once sent."""

    # The request or message itself: any route, and the table's socket.
    ORIGIN = "origin"  # a page of another site (guard.py)
    CONTENT_TYPE = "content_type"  # a change that is neither JSON nor marked X-Whist-Request (guard.py)
    TOO_LARGE = "too_large"  # a body past the limit (bodylimit.py), a socket message past it
    INVALID_REQUEST = "invalid_request"  # a body or parameter of the wrong shape
    NOT_FOUND = "not_found"  # no page or route at this address
    MALFORMED = "malformed"  # a socket message that is not a well-formed action
    UNKNOWN_TYPE = "unknown_type"  # a socket message of a type the table does not know
    TOO_MANY = "too_many"  # past a rate limit (limits.py): 429 with Retry-After
    INTERNAL = "internal"  # the server's own fault, logged: never the client's
    # Who is asking.
    SIGN_IN = "sign_in"
    NAME = "name"
    LOGIN_FORMAT = "login_format"
    PASSWORD_LENGTH = "password_length"
    LOGIN_TAKEN = "login_taken"
    WRONG_LOGIN = "wrong_login"
    CLAIM_NOT_YOURS = "claim_not_yours"  # a registration claiming a guest this browser is not (claims.py)
    CLAIM_NOT_GUEST = "claim_not_guest"  # ... claiming a player who already has an account
    # Tables and their seats.
    RULES = "rules"  # the engine refused rules, options, seats or an entry
    NO_TABLE = "no_table"
    PRIVATE = "private"
    TOO_MANY_TABLES = "too_many_tables"
    NO_SEAT = "no_seat"
    SEATED = "seated"
    TAKEN = "taken"
    # An action at a table, in the order the table checks it (live.py ``LiveTable.act``).
    OVER = "over"
    SPECTATOR = "spectator"
    NOT_YOUR_TURN = "not_your_turn"
    STALE = "stale"  # the reply carries the current state
    ILLEGAL = "illegal"
    UNAVAILABLE = "unavailable"  # not stored, or the table is moving between servers: send it again
    # Score sheets for real cards.
    NO_SHEET = "no_sheet"
    NOT_SCORER = "not_scorer"
    SHEET_OVER = "sheet_over"
    SHEET_FULL = "sheet_full"
    SHEET_CHANGED = "sheet_changed"
    HAND_ENTERED = "hand_entered"
    NO_HAND = "no_hand"  # in a sheet, or in a finished game's record
    NOT_LAST_HAND = "not_last_hand"
    # Finished games, their analyses and players.
    NO_GAME = "no_game"
    STILL_PLAYING = "still_playing"
    NO_ANALYSIS = "no_analysis"
    ANALYSES_BUSY = "analyses_busy"
    NO_PLAYER = "no_player"
    # Play again at a finished table (rematch.py).
    NO_REMATCH = "no_rematch"  # a decline or a start with no new game asked for, or a start before accepting
    REMATCH_UNDECIDED = "rematch_undecided"  # a start while nobody has declined or left
    REMATCH_STARTED = "rematch_started"  # a decline or a start once the new game has started
    # Talk at a table (chat.py), in the order the table checks a message.
    CHAT_OFF = "chat_off"  # the table's creator turned its chat off
    CHAT_SEATED = "chat_seated"  # only the seated players talk at this table
    CHAT_LENGTH = "chat_length"  # a message empty once normalised, or past its length
    REACTION = "reaction"  # not one of the quick reactions
    NOT_CREATOR = "not_creator"  # only the table's creator sets who may talk
    # Hints at a table (hints.py), in the order the table checks an ask (after over, spectator, not_your_turn).
    HINTS_RATED = "hints_rated"  # a table asked for both rated and with hints: hints make a practice table
    HINTS_OFF = "hints_off"  # the table's creator did not allow hints
    HINT_BUSY = "hint_busy"  # this person's last hint is still being worked out
    # Duplicate events (events.py).
    NO_EVENT = "no_event"
    NO_BOARD = "no_board"  # a board number the event does not have
    BOARD_PLAYED = "board_played"  # a board is played once
    BOARD_UNPLAYED = "board_unplayed"  # a board's cards and results are shown to those who played it
    EVENT_CLOSED = "event_closed"  # a board started outside the event's window


class SocketClosed(enum.IntEnum):
    """Why the server closes a table's socket. The pages word the codes of the application's own
    range, 4000-4999, as ``error.closed_<code>``; WebSocket's own codes are the browser's to say."""

    SIGNED_OUT = 4401  # the session ended, here or on another device (sessions.py)
    PRIVATE = 4403  # a private table, without its invite
    NO_TABLE = 4404
    OTHER_ORIGIN = 1008  # "policy violation": the handshake of a page of another site (guard.py)

    @property
    def worded(self) -> bool:
        """Whether the pages word this close (the application's range).

        >>> SocketClosed.SIGNED_OUT.worded, SocketClosed.OTHER_ORIGIN.worded
        (True, False)
        """
        return 4000 <= self.value <= 4999


def framework_refusal(status: int) -> Refusal:
    """The code of a refusal the framework raised itself (no route, a method the route does not
    take, a body it could not parse): it has no code of its own.

    >>> [framework_refusal(status).value for status in (404, 405, 400, 500)]
    ['not_found', 'invalid_request', 'invalid_request', 'internal']
    """
    if status == 404:
        return Refusal.NOT_FOUND
    return Refusal.INVALID_REQUEST if status < 500 else Refusal.INTERNAL


def refusal_in(answer: Mapping[str, Any]) -> Refusal:
    """The code of another node's refusal (cluster.py carries it as JSON): one of the list, or
    ``unavailable`` where it names none, so that a client is never sent a code it cannot word.

    >>> refusal_in({"code": "stale"}), refusal_in({"code": "no such code"}), refusal_in({})
    (<Refusal.STALE: 'stale'>, <Refusal.UNAVAILABLE: 'unavailable'>, <Refusal.UNAVAILABLE: 'unavailable'>)
    """
    code = answer.get("code")
    return Refusal(code) if isinstance(code, str) and code in Refusal._value2member_map_ else Refusal.UNAVAILABLE
