"""Who is playing: guests, accounts, sign-in and sign-out (this browser's session, or all the user's).

Passwords are hashed off the event loop, a few at a time (``hashed``); each sign-in costs one hash
whether or not its login exists (``israeli_whist.server.passwords``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import anyio.to_thread
from anyio import CapacityLimiter
from fastapi import APIRouter, Depends, Request
from pydantic import Strict
from sqlalchemy.exc import IntegrityError

from israeli_whist.server.auth import (
    check_login,
    clean_name,
    require_user,
    session_user,
    sessions_of,
    sign_in,
    sign_out,
)
from israeli_whist.server.claims import check_claim, claim_guest
from israeli_whist.server.db import Store
from israeli_whist.server.inputs import Body, RowNumber
from israeli_whist.server.limits import rate_limited
from israeli_whist.server.passwords import MAX_PASSWORD, hash_password, sign_in_check
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.replies import Refused

router = APIRouter(prefix="/api")
T = TypeVar("T")

# Hashes computed at once by one server: each takes 128 MiB and most of a core for a third of a
# second, so a burst of sign-ins queues (in the event loop, holding no thread) rather than
# swapping or starving the bots.
HASHING_AT_ONCE = max(1, min(4, (os.cpu_count() or 2) // 2))


class GuestIn(Body):
    name: str


class AccountIn(Body):
    login: str
    password: str
    name: str | None = None
    # The guest this browser is, to keep their games (register only): an id, never "1" or true.
    claim: Annotated[RowNumber, Strict()] | None = None


def store_of(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def me_json(store: Store, user_id: int | None) -> dict[str, Any]:
    user = store.user(user_id) if user_id is not None else None
    if user is None:
        return {"user": None}
    return {"user": {"id": user["id"], "name": user["name"], "guest": user["login"] is None}}


async def hashed(request: Request, work: Callable[..., T], *args: Any) -> T:
    """``work(*args)``, which hashes a password, in a worker thread, at most ``HASHING_AT_ONCE`` at once."""
    state = request.app.state
    if not hasattr(state, "hashing"):  # made in the app's event loop, at its first use
        state.hashing = CapacityLimiter(HASHING_AT_ONCE)
    return await anyio.to_thread.run_sync(work, *args, limiter=state.hashing)


async def signed_in_as(request: Request, user_id: int) -> dict[str, Any]:
    await sign_in(request, user_id)
    store = store_of(request)
    return await store.off_loop(me_json, store, user_id)


@router.get("/me")
def me(request: Request) -> dict[str, Any]:
    return me_json(store_of(request), session_user(request))


@router.post("/guest", dependencies=[Depends(rate_limited("guests"))])
async def guest(body: GuestIn, request: Request) -> dict[str, Any]:
    store = store_of(request)
    user_id = await store.off_loop(store.add_user, clean_name(body.name))
    return await signed_in_as(request, user_id)


@router.post("/register", dependencies=[Depends(rate_limited("accounts"))])
async def register(body: AccountIn, request: Request) -> dict[str, Any]:
    """A new account; with ``claim``, the guest this browser is becomes it (``claims``)."""
    store = store_of(request)
    check_login(body.login, body.password)
    guest_name = None
    if body.claim is not None:
        guest_name = await store.off_loop(check_claim, store, session_user(request), body.claim)
    login, name = body.login.lower(), clean_name(body.name or guest_name or body.login)
    if await store.off_loop(store.user_by_login, login) is not None:
        raise Refused(409, Refusal.LOGIN_TAKEN, "That login is taken")
    password_hash = await hashed(request, hash_password, body.password)
    try:
        if body.claim is None:
            user_id = await store.off_loop(store.add_user, name, login, password_hash)
        else:
            await store.off_loop(claim_guest, store, body.claim, name, login, password_hash)
            user_id = body.claim
            await sessions_of(request).end_all(user_id)  # the guest's cookie, wherever it was copied
    except IntegrityError:  # the same login registered while this one was hashed
        raise Refused(409, Refusal.LOGIN_TAKEN, "That login is taken") from None
    return await signed_in_as(request, user_id)


@router.post("/login", dependencies=[Depends(rate_limited("logins"))])
async def login(body: AccountIn, request: Request) -> dict[str, Any]:
    if len(body.password) > MAX_PASSWORD:  # before any hashing: no account has a longer one
        raise Refused(422, Refusal.PASSWORD_LENGTH, f"A password is at most {MAX_PASSWORD} characters")
    store = store_of(request)
    user = await store.off_loop(store.user_by_login, body.login.lower())
    stored = None if user is None else user["password_hash"]
    right, rehashed = await hashed(request, sign_in_check, body.password, stored)
    if user is None or not right:
        raise Refused(401, Refusal.WRONG_LOGIN, "Wrong login or password")
    if rehashed is not None:  # made at an older, cheaper cost: stored again at today's
        await store.off_loop(store.set_password_hash, user["id"], rehashed)
    return await signed_in_as(request, user["id"])


@router.post("/logout")
async def logout(request: Request) -> dict[str, Any]:
    await sign_out(request)
    return {"user": None}


@router.post("/logout-everywhere")
async def logout_everywhere(request: Request) -> dict[str, Any]:
    """End every session of the signed-in user, on every device and every server of the site."""
    require_user(request)
    await sign_out(request, everywhere=True)
    return {"user": None}
