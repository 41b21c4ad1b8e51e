"""Sessions kept by the server: signing out ends one for good, wherever its cookie was copied to.

Signing in (a guest, an account, a registration) makes a row of ``sessions`` and puts a random
token (256 bits) in the signed cookie (Starlette's ``SessionMiddleware``, which also keeps the
rate limits' id). The row holds the token's SHA-256, not the token. Every request and every
WebSocket handshake looks its token up (``SessionUser``, a middleware, so no route can forget):
a token whose row is gone or expired is nobody. Signing out deletes the row; "sign out
everywhere" deletes every row of the user.

Cookies from before these sessions (the signed user id alone) are nobody: their holders sign in
again. A guest so loses the old guest, as signing out always did; but nothing tells a copied
old cookie from its owner's, so none is let in.

**Several nodes.** A node remembers a token's user for ``CHECK_SECONDS`` (a lookup per request
costs a query to PostgreSQL), so a session ended through one node is refused by every other
within that bound; the node that ended it refuses it at once.

**Open sockets.** A table's socket belongs to the session that opened it: the node that ends a
session closes its sockets at once (code 4401), and every node checks the sessions of its open
sockets every ``CHECK_SECONDS`` and closes those that have ended elsewhere or expired.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass

from fastapi import FastAPI
from sqlalchemy import delete, insert, select
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from israeli_whist.server.db import Store, now
from israeli_whist.server.db import sessions as session_rows

log = logging.getLogger("whist.server")

SESSION_DAYS = 180
COOKIE = "whist_session"
TOKEN_KEY = "sid"  # the session's token, in the signed cookie
SCOPE_KEY = "whist.signed_in"  # where SessionUser leaves the request's SignedIn (or None)
CHECK_SECONDS = 5.0  # how long a node trusts what it read of a session
MOST_REMEMBERED = 10_000  # sessions a node remembers at once: its memory stays bounded
PRUNE_ROUNDS = int(3600 / CHECK_SECONDS)  # sweeps between two prunings of the expired sessions

Clock = Callable[[], float]
Close = Callable[[], Awaitable[None]]


@dataclass(frozen=True)
class SignedIn:
    """A request's session: its row's id (the token's hash) and its user."""

    session: str
    user_id: int


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# The rows ----------------------------------------------------------------------------------------

def add_session(store: Store, user_id: int) -> str:
    """A new session of ``user_id``; returns its token."""
    token = secrets.token_urlsafe(32)
    created = now()
    with store.begin() as c:
        c.execute(insert(session_rows).values(id=token_hash(token), user_id=user_id, created_at=created,
                                              expires_at=created + dt.timedelta(days=SESSION_DAYS)))
    return token


def user_of(store: Store, session: str) -> int | None:
    with store.begin() as c:
        found = c.execute(select(session_rows.c.user_id)
                          .where(session_rows.c.id == session, session_rows.c.expires_at > now())).scalar()
        return None if found is None else int(found)


def delete_session(store: Store, session: str) -> None:
    with store.begin() as c:
        c.execute(delete(session_rows).where(session_rows.c.id == session))


def delete_user_sessions(store: Store, user_id: int) -> list[str]:
    """End every session of ``user_id``; returns their ids."""
    with store.begin() as c:
        ended = list(c.execute(select(session_rows.c.id).where(session_rows.c.user_id == user_id)).scalars())
        c.execute(delete(session_rows).where(session_rows.c.user_id == user_id))
        return ended


def delete_expired(store: Store) -> int:
    """Drop the expired sessions (nobody already: this only keeps the table small); returns how many."""
    with store.begin() as c:
        return int(c.execute(delete(session_rows).where(session_rows.c.expires_at <= now())).rowcount)


def live_sessions(store: Store, ids: Collection[str]) -> set[str]:
    """Those of ``ids`` that are still sessions (not ended, not expired)."""
    if not ids:
        return set()
    with store.begin() as c:
        return set(c.execute(select(session_rows.c.id)
                             .where(session_rows.c.id.in_(list(ids)), session_rows.c.expires_at > now())).scalars())


# A node's view of them ---------------------------------------------------------------------------

class Sessions:
    """What this node knows of sessions: who each recent token is, and its open sockets'."""

    def __init__(self, store: Store, clock: Clock = time.monotonic) -> None:
        self.store = store
        self.clock = clock
        self.known: dict[str, tuple[int | None, float]] = {}  # session id: (user or None, when read)
        self.sockets: dict[str, set[Close]] = {}
        self.sweeper: asyncio.Task[None] | None = None

    async def signed_in(self, token: object) -> SignedIn | None:
        """Who holds ``token`` (a cookie's), or None for no session, an ended or an expired one."""
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            return None
        session = token_hash(token)
        moment = self.clock()
        remembered = self.known.get(session)
        if remembered is not None and moment - remembered[1] < CHECK_SECONDS:
            user_id = remembered[0]
        else:
            user_id = await self.store.off_loop(user_of, self.store, session)
            self._remember(session, user_id, moment)
        return None if user_id is None else SignedIn(session, user_id)

    def _remember(self, session: str, user_id: int | None, moment: float) -> None:
        if len(self.known) >= MOST_REMEMBERED:
            self.known = {key: seen for key, seen in self.known.items() if moment - seen[1] < CHECK_SECONDS}
            if len(self.known) >= MOST_REMEMBERED:
                self.known.clear()
        self.known[session] = (user_id, moment)

    async def start(self, user_id: int) -> tuple[str, SignedIn]:
        """A new session of ``user_id``: its token, for the cookie, and the session."""
        token = await self.store.off_loop(add_session, self.store, user_id)
        session = token_hash(token)
        self._remember(session, user_id, self.clock())
        return token, SignedIn(session, user_id)

    async def end(self, session: str) -> None:
        await self.store.off_loop(delete_session, self.store, session)
        await self._ended([session])

    async def end_all(self, user_id: int) -> None:
        await self._ended(await self.store.off_loop(delete_user_sessions, self.store, user_id))

    async def _ended(self, ended: Collection[str]) -> None:
        for session in ended:
            self.known[session] = (None, self.clock())
        closes = [close for session in ended for close in self.sockets.pop(session, ())]
        for failed in await asyncio.gather(*(close() for close in closes), return_exceptions=True):
            if failed is not None:  # that socket was going anyway; the sign-out still stands
                log.warning("a socket of an ended session could not be closed: %r", failed)

    # Open sockets ----------------------------------------------------------------------------

    def watch(self, signed_in: SignedIn | None, close: Close) -> None:
        """Await ``close`` when the session of ``signed_in`` ends (None: no session, nothing to watch),
        until ``unwatch``."""
        if signed_in is not None:
            self.sockets.setdefault(signed_in.session, set()).add(close)

    def unwatch(self, signed_in: SignedIn | None, close: Close) -> None:
        if signed_in is None:
            return
        closes = self.sockets.get(signed_in.session, set())
        closes.discard(close)
        if not closes:
            self.sockets.pop(signed_in.session, None)

    async def sweep(self) -> None:
        """Close the sockets whose session has ended on another node, or expired."""
        watched = list(self.sockets)
        if watched:
            live = await self.store.off_loop(live_sessions, self.store, watched)
            await self._ended([session for session in watched if session not in live])

    def start_sweeping(self) -> None:
        """``sweep`` every ``CHECK_SECONDS``, and drop the expired sessions at start and every hour."""

        async def sweep_often() -> None:
            for rounds in itertools.count():
                try:
                    if rounds % PRUNE_ROUNDS == 0:
                        await self.store.off_loop(delete_expired, self.store)
                    await asyncio.sleep(CHECK_SECONDS)
                    await self.sweep()
                except Exception:  # the database away for a moment: the next round tries again
                    log.exception("the sessions of open sockets could not be checked")

        self.sweeper = asyncio.get_running_loop().create_task(sweep_often())

    async def stop(self) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeper


class SessionUser:
    """Pure ASGI middleware, inside ``SessionMiddleware``: looks the cookie's token up once and
    leaves the request's ``SignedIn`` (or None) in its scope for ``auth.signed_in``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            sessions: Sessions = scope["app"].state.sessions
            scope[SCOPE_KEY] = await sessions.signed_in(scope["session"].get(TOKEN_KEY))
        await self.app(scope, receive, send)


def install_sessions(app: FastAPI, secret_key: str, https_only: bool) -> None:
    """The signed cookie, and the lookup of its session inside it (added first: the inner one)."""
    app.add_middleware(SessionUser)
    app.add_middleware(SessionMiddleware, secret_key=secret_key, session_cookie=COOKIE, same_site="lax",
                       https_only=https_only, max_age=SESSION_DAYS * 24 * 3600)
