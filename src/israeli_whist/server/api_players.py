"""Who is playing: guests, accounts, sign-in and sign-out."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from israeli_whist.server.auth import check_login, check_password, clean_name, hash_password, session_user
from israeli_whist.server.db import Store
from israeli_whist.server.inputs import Body
from israeli_whist.server.limits import rate_limited
from israeli_whist.server.replies import Refused

router = APIRouter(prefix="/api")


class GuestIn(Body):
    name: str


class AccountIn(Body):
    login: str
    password: str
    name: str | None = None


def store_of(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def me_json(store: Store, user_id: int | None) -> dict[str, Any]:
    user = store.user(user_id) if user_id is not None else None
    if user is None:
        return {"user": None}
    return {"user": {"id": user["id"], "name": user["name"], "guest": user["login"] is None}}


@router.get("/me")
def me(request: Request) -> dict[str, Any]:
    return me_json(store_of(request), session_user(request))


@router.post("/guest", dependencies=[Depends(rate_limited("guests"))])
def guest(body: GuestIn, request: Request) -> dict[str, Any]:
    store = store_of(request)
    user_id = store.add_user(clean_name(body.name))
    request.session["user_id"] = user_id
    return me_json(store, user_id)


@router.post("/register", dependencies=[Depends(rate_limited("accounts"))])
def register(body: AccountIn, request: Request) -> dict[str, Any]:
    store = store_of(request)
    check_login(body.login, body.password)
    login = body.login.lower()
    if store.user_by_login(login) is not None:
        raise Refused(409, "login_taken", "That login is taken")
    user_id = store.add_user(clean_name(body.name or body.login), login, hash_password(body.password))
    request.session["user_id"] = user_id
    return me_json(store, user_id)


@router.post("/login", dependencies=[Depends(rate_limited("logins"))])
def login(body: AccountIn, request: Request) -> dict[str, Any]:
    store = store_of(request)
    user = store.user_by_login(body.login.lower())
    if user is None or not check_password(body.password, user["password_hash"] or ""):
        raise Refused(401, "wrong_login", "Wrong login or password")
    request.session["user_id"] = user["id"]
    return me_json(store, user["id"])


@router.post("/logout")
def logout(request: Request) -> dict[str, Any]:
    request.session.clear()
    return {"user": None}
