"""Talk at a table: chat messages and quick reactions, the rules they pass, and who receives them.

A message is text its sender typed, or one of a fixed list of reactions. Every message passes the
same checks in this order (``speak``): the sender has a name (a session), the table's creator has
not turned the chat off, or limited it to the seated players while the sender only watches; the
text is 1 to ``MAX_CHAT`` characters once normalised, or the reaction is one of ``REACTIONS``; the
sender is under the chat rate limit (``limits.py``, counted per user and per address). Then it is
stored with the game (``chatstore.py``), so that a page opened later shows the recent ones and the
replay shows each at its place in the game, and only then sent to every connection: each seat and
each spectator, the spectators' messages marked as theirs.

Text is normalised as names are (``core/names.py``), but what a name refuses a message drops:
control characters, invisible formatting characters (bidi overrides and isolates, zero-width
spaces; the zero-width joiner stays, since emoji are drawn with it and it moves no text), private-use
and unassigned code points and the characters drawn as nothing. Then it is put in NFC and its runs of
white space (new lines too: a message is one line) made one. ``<`` and ``>`` stay: the pages show
a message as text, never as markup.

In a cluster (``cluster.py``) a message is stored and sent by the node its sender is connected to,
and its number told to the other nodes on the tables' channel; each reads it and sends it to its
own connections to the table (``relay``): talk changes nothing in the game, so it needs no owner to
order it. A change of who may talk goes the same way.
"""

from __future__ import annotations

import logging
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from israeli_whist.core.names import BLANK, REFUSED
from israeli_whist.server.chatstore import (
    CHAT_MODES,
    add_message,
    set_chat_mode,
    stored_chat_mode,
    stored_message,
)
from israeli_whist.server.cluster import TABLES_CHANNEL
from israeli_whist.server.inputs import MAX_ROW_NUMBER
from israeli_whist.server.live import LiveTable, RemoteConnection
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.replies import Refused

if TYPE_CHECKING:  # limits.py counts the hub's tables: imported at run time, the two would import each other
    from israeli_whist.server.limits import RateLimiter

log = logging.getLogger("whist.server")

MAX_CHAT = 200  # characters, once normalised: a sentence or two across a card table
# The quick reactions: words the pages say in the reader's language, and a few emoji.
REACTIONS = ("well_played", "sorry", "one_more", "👍", "👏", "😂", "😮", "🙈", "🎉")
ZERO_WIDTH_JOINER = "\u200d"
# The socket's message types that are talk (``api_tables.handle_message`` hands them here).
CHAT_TYPES = ("chat", "react", "chat_mode")


class ChatRefused(Exception):
    """A message not sent; ``code`` is for programs, the message for people."""

    def __init__(self, code: Refusal, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Speaker:
    """Who sends a socket's messages: their user (None without a session), their seat (-1:
    watching) and their address, which the chat's rate limit counts beside the user."""

    user_id: int | None
    seat: int
    address: str


def chat_text(text: str) -> str:
    """A message's text as stored and shown; ChatRefused if nothing is left or it is too long.

    >>> chat_text("  hi\\u202e  there\\n ")
    'hi there'
    >>> chat_text("Cafe\\u0301 <b>") == "Caf\\u00e9 <b>"
    True
    >>> chat_text("\\u200b \\u2066")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    israeli_whist.server.chat.ChatRefused: A message is 1 to 200 characters: this one is empty
    """
    kept = "".join(char for char in text if char == ZERO_WIDTH_JOINER or char.isspace() or not dropped(char))
    message = " ".join(unicodedata.normalize("NFC", kept).split())
    if not message:
        raise ChatRefused(Refusal.CHAT_LENGTH, f"A message is 1 to {MAX_CHAT} characters: this one is empty")
    if len(message) > MAX_CHAT:
        raise ChatRefused(Refusal.CHAT_LENGTH, f"A message is 1 to {MAX_CHAT} characters, not {len(message)}")
    return message


def dropped(char: str) -> bool:
    """Whether a message drops ``char``: what a name refuses (``core/names.py``)."""
    return unicodedata.category(char) in REFUSED or char in BLANK


def chat_mode_of(value: Any) -> str:
    """A table's chat mode from a client; ChatRefused for anything else."""
    if not isinstance(value, str) or value not in CHAT_MODES:
        raise ChatRefused(Refusal.MALFORMED, f"Who may talk: one of {', '.join(CHAT_MODES)}")
    return value


async def speak(table: LiveTable, speaker: Speaker, message: dict[str, Any], limiter: RateLimiter) -> None:
    """Check a ``chat`` or ``react`` message, store it and send it to everyone at the table."""
    if speaker.user_id is None:
        raise ChatRefused(Refusal.SIGN_IN, "Give a name (sign in as a guest) to talk at the table")
    if table.chat_mode == "off":
        raise ChatRefused(Refusal.CHAT_OFF, "The table's creator turned its chat off")
    if table.chat_mode == "seated" and speaker.seat < 0:
        raise ChatRefused(Refusal.CHAT_SEATED, "Only the players seated at this table talk here")
    text, reaction = None, None
    if message.get("type") == "chat":
        if not isinstance(message.get("text"), str):
            raise ChatRefused(Refusal.MALFORMED, "'chat' needs a 'text'")
        text = chat_text(message["text"])
    else:
        reaction = message.get("reaction")
        if not isinstance(reaction, str) or reaction not in REACTIONS:
            raise ChatRefused(Refusal.REACTION, f"A reaction is one of {', '.join(REACTIONS)}")
    try:
        limiter.hit("chat", f"user {speaker.user_id}", speaker.address, counted_as="user")
    except Refused as refused:
        raise ChatRefused(Refusal.TOO_MANY, str(refused.detail)) from None
    try:
        said = await table.store.off_loop(add_message, table.store, table.id, table.version, speaker.seat,
                                          speaker.user_id, text, reaction)
    except SQLAlchemyError:
        log.exception("table %s: a chat message could not be stored", table.id)
        raise ChatRefused(Refusal.UNAVAILABLE, "The message could not be saved; please send it again") from None
    await tell(table, {"type": "chat", "message": said})
    await tell_cluster(table, {"chat": said["id"]})


async def set_mode(table: LiveTable, speaker: Speaker, value: Any) -> None:
    """The creator's choice of who may talk: stored, then everyone's page shows it (a new state)."""
    if speaker.user_id is None or speaker.user_id != table.row.created_by:
        raise ChatRefused(Refusal.NOT_CREATOR, "Only the table's creator chooses who may talk")
    mode = chat_mode_of(value)
    try:
        await table.store.off_loop(set_chat_mode, table.store, table.id, mode)
    except SQLAlchemyError:
        log.exception("table %s: the chat mode could not be stored", table.id)
        raise ChatRefused(Refusal.UNAVAILABLE, "The change could not be saved; please try again") from None
    table.chat_mode = mode
    await table.broadcast()
    await tell_cluster(table, {"chat_mode": True})


async def tell(table: LiveTable, message: dict[str, Any]) -> None:
    """Send ``message`` to this node's connections to the table, seats and spectators alike."""
    sends = [*table.spectators, *(send for seat in table.seats for send in seat.connections)]
    for send in sends:
        if isinstance(send, RemoteConnection):  # another node's: that node sends its own (``relay``)
            continue
        try:
            await send(message)
        except Exception:  # a connection closing as we write: its own handler cleans up
            log.debug("table %s: a chat message could not be sent", table.id)


async def tell_cluster(table: LiveTable, news: dict[str, Any]) -> None:
    """Tell the other nodes of the cluster (if there are any) what was said or changed."""
    if table.cluster is None:
        return
    try:
        await table.cluster.notify(TABLES_CHANNEL, {"table": table.id, "from": table.cluster.node, **news})
    except Exception:  # the message is stored: the other nodes' pages find it when they reload
        log.exception("table %s: the other nodes could not be told of a chat message", table.id)


async def relay(table: LiveTable | None, news: dict[str, Any]) -> None:
    """Another node's news of the table's talk, for this node's connections to it: a message, or a
    new chat mode. Each is read from the database, not taken from the notification, which any
    user of the database could send: a message that is not stored is not shown."""
    if table is None:
        return
    said = news.get("chat")
    if said.__class__ is int and 0 < said <= MAX_ROW_NUMBER:  # a number the id column holds
        found = await table.store.off_loop(stored_message, table.store, table.id, said)
        if found is not None:
            await tell(table, {"type": "chat", "message": found})
    if news.get("chat_mode") is True:
        mode = await table.store.off_loop(stored_chat_mode, table.store, table.id)
        if mode is not None and mode != table.chat_mode:
            table.chat_mode = mode
            await table.broadcast()
