"""Players: guests (a name) and accounts (a login and a password), and who a request is.

Passwords are hashed with scrypt (memory-hard, in the standard library) and a random salt,
and compared in constant time. The session is Starlette's signed cookie, holding the user id.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

from fastapi import Request

from israeli_whist.core.names import NameRefused, normal_name
from israeli_whist.server.replies import Refused

SCRYPT = {"n": 2**14, "r": 8, "p": 1}
LOGIN = re.compile(r"[A-Za-z0-9_.\-]{3,40}")  # whole: ``fullmatch``, as ``$`` would let a final newline by


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, dklen=32, **SCRYPT)
    return "scrypt$" + base64.b64encode(salt).decode() + "$" + base64.b64encode(digest).decode()


def check_password(password: str, stored: str) -> bool:
    try:
        scheme, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    candidate = hashlib.scrypt(password.encode(), salt=base64.b64decode(salt), dklen=32, **SCRYPT)
    return hmac.compare_digest(candidate, base64.b64decode(digest))


def clean_name(name: str) -> str:
    """A person's name as stored (``israeli_whist.core.names``), or 422 with the reason."""
    try:
        return normal_name(name)
    except NameRefused as refused:
        raise Refused(422, "name", str(refused)) from None


def check_login(login: str, password: str) -> None:
    if not LOGIN.fullmatch(login):
        raise Refused(422, "login_format", "A login is 3 to 40 letters, digits, '.', '_' or '-'")
    if not 8 <= len(password) <= 200:
        raise Refused(422, "password_length", "A password is 8 to 200 characters")


def session_user(request: Request) -> int | None:
    user_id = request.session.get("user_id")
    return user_id if isinstance(user_id, int) else None


def require_user(request: Request) -> int:
    user_id = session_user(request)
    if user_id is None:
        raise Refused(401, "sign_in", "Sign in or choose a guest name first")
    return user_id
