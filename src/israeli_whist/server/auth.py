"""Players: guests (a name) and accounts (a login and a password), and who a request is.

Who a request is comes from its session (``israeli_whist.server.sessions``), looked up before any
route runs; passwords are ``israeli_whist.server.passwords``'.
"""

from __future__ import annotations

import re

from fastapi import Request
from starlette.requests import HTTPConnection

from israeli_whist.core.names import NameRefused, normal_name
from israeli_whist.server.passwords import MAX_PASSWORD
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.replies import Refused
from israeli_whist.server.sessions import SCOPE_KEY, TOKEN_KEY, Sessions, SignedIn

LOGIN = re.compile(r"[A-Za-z0-9_.\-]{3,40}")  # whole: ``fullmatch``, as ``$`` would let a final newline by
MIN_PASSWORD = 8


def clean_name(name: str) -> str:
    """A person's name as stored (``israeli_whist.core.names``), or 422 with the reason."""
    try:
        return normal_name(name)
    except NameRefused as refused:
        raise Refused(422, Refusal.NAME, str(refused)) from None


def check_login(login: str, password: str) -> None:
    if not LOGIN.fullmatch(login):
        raise Refused(422, Refusal.LOGIN_FORMAT, "A login is 3 to 40 letters, digits, '.', '_' or '-'")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise Refused(422, Refusal.PASSWORD_LENGTH, f"A password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")


def signed_in(connection: HTTPConnection) -> SignedIn | None:
    """The session of a request or a WebSocket handshake, or None."""
    found = connection.scope.get(SCOPE_KEY)
    return found if isinstance(found, SignedIn) else None


def session_user(connection: HTTPConnection) -> int | None:
    found = signed_in(connection)
    return None if found is None else found.user_id


def require_user(connection: HTTPConnection) -> int:
    user_id = session_user(connection)
    if user_id is None:
        raise Refused(401, Refusal.SIGN_IN, "Sign in or choose a guest name first")
    return user_id


def sessions_of(connection: HTTPConnection) -> Sessions:
    sessions: Sessions = connection.app.state.sessions
    return sessions


async def sign_in(request: Request, user_id: int) -> None:
    """``user_id`` signs in on this browser, in a new session; the browser's earlier one ends (its
    cookie no longer holds it, and a copy of it must not outlive it)."""
    sessions = sessions_of(request)
    earlier = signed_in(request)
    if earlier is not None:
        await sessions.end(earlier.session)
    token, session = await sessions.start(user_id)
    request.session.pop("user_id", None)  # a cookie from before the server kept sessions
    request.session[TOKEN_KEY] = token
    request.scope[SCOPE_KEY] = session


async def sign_out(request: Request, everywhere: bool = False) -> None:
    """End this browser's session (``everywhere``: every session of its user) and drop the cookie."""
    sessions = sessions_of(request)
    current = signed_in(request)
    if current is not None:
        await (sessions.end_all(current.user_id) if everywhere else sessions.end(current.session))
    request.session.clear()
    request.scope[SCOPE_KEY] = None
