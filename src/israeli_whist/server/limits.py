"""Limits on what costs the server to make: new tables, guests and accounts, sign-in attempts,
analyses of games (those not known yet), and the number of unfinished tables one user may have.

Each kind of request is counted twice in a sliding window (the times of the requests let
through), once for the session and once for the address. A request goes through only when both
counts are under their limits; a refused request is not counted, so a client that waits out
``Retry-After`` gets in then.

The session is a random id kept in the signed session cookie, not the user id: making a guest
changes the user id, and counting by it would let one browser make guest after guest. A client
that drops its cookies is a new session each time; that is what the address limit is for. The
address is ``request.client.host``. Behind a proxy that is the proxy's own address, unless
uvicorn takes it from ``X-Forwarded-For``, which it does only for the proxies it trusts (itself
on 127.0.0.1 by default; ``FORWARDED_ALLOW_IPS`` names others).

Written here rather than taken from the ``limits`` package: that one reads the system clock, so
its windows could only be tested by patching time, and the whole job is the forty lines below.
"""

from __future__ import annotations

import math
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import fields
from typing import Literal

from fastapi import Request
from starlette.requests import HTTPConnection

from israeli_whist.core.wording import count_text
from israeli_whist.server.hub import Hub
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.replies import Refused
from israeli_whist.server.settings import Limit, RateLimits

Clock = Callable[[], float]
Kind = Literal["tables", "guests", "accounts", "logins", "analyses", "chat"]
WHAT: dict[Kind, str] = {"tables": "new tables", "guests": "new guests", "accounts": "new accounts",
                         "logins": "sign-in attempts", "analyses": "analysis requests",
                         "chat": "chat messages"}
SESSION_KEY = "rate_id"  # the session's random id, in its cookie


class SlidingWindow:
    """The times of the requests let through in the last ``seconds``, per key."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count, self.seconds = count, seconds
        self.times: dict[str, deque[float]] = {}
        self.sweep_at = 1024  # keys held before the idle ones are dropped: memory stays bounded

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` may make another request; 0 if it may now."""
        times = self.times.get(key)
        if times is None:
            return 0.0
        while times and times[0] <= now - self.seconds:
            times.popleft()
        return 0.0 if len(times) < self.count else times[0] + self.seconds - now

    def record(self, key: str, now: float) -> None:
        self.times.setdefault(key, deque()).append(now)
        if len(self.times) > self.sweep_at:
            self.times = {k: t for k, t in self.times.items() if t and t[-1] > now - self.seconds}
            self.sweep_at = max(1024, 2 * len(self.times))


class RateLimiter:
    """Every kind's windows, per session and per address, on one clock (a test's own, to move time)."""

    def __init__(self, limits: RateLimits, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self.limits: dict[str, Limit] = {f.name: limit for f in fields(limits)
                                         if (limit := getattr(limits, f.name)) is not None}
        self.windows = {(kind, scope): SlidingWindow(count, limit.seconds) for kind, limit in self.limits.items()
                        for scope, count in (("session", limit.per_session), ("address", limit.per_address))}

    def hit(self, kind: Kind, session: str, address: str, counted_as: str = "session") -> None:
        """Count one request, or refuse it with 429 and ``Retry-After`` when either count is full.
        ``counted_as`` names what ``session`` stands for in the refusal (the chat counts a user)."""
        limit = self.limits.get(kind)
        if limit is None:
            return
        now = self.clock()
        by_session, by_address = self.windows[kind, "session"], self.windows[kind, "address"]
        waits = [(by_session.wait(session, now), counted_as, limit.per_session),
                 (by_address.wait(address, now), "address", limit.per_address)]
        wait, scope, count = max(waits)
        if wait > 0:
            retry = max(1, math.ceil(wait))
            raise Refused(429, Refusal.TOO_MANY, f"Too many {WHAT[kind]} from this {scope}: at most {count} in "
                                                 f"{duration(limit.seconds)}. Try again in {duration(retry)}.",
                          headers={"Retry-After": str(retry)})
        by_session.record(session, now)
        by_address.record(address, now)


def duration(seconds: int) -> str:
    """Seconds in words, in the largest unit that fits whole.

    >>> duration(1), duration(90), duration(600), duration(3600)
    ('1 second', '90 seconds', '10 minutes', '1 hour')
    """
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds % size == 0:
            return count_text(seconds // size, unit)
    return count_text(seconds, "second")


def session_of(request: Request) -> str:
    """The session's random id, put in its cookie on its first limited request."""
    key = request.session.get(SESSION_KEY)
    if not isinstance(key, str):
        key = request.session[SESSION_KEY] = secrets.token_urlsafe(12)
    return key


def address_of(request: HTTPConnection) -> str:
    """The client's address: a request's, or a table socket's (the chat's limit counts it)."""
    return request.client.host if request.client is not None else "unknown"


def count_request(request: Request, kind: Kind) -> None:
    """Count the request as ``kind`` (429 when a count is full). Called in the event loop only: the
    windows are changed by one coroutine at a time, without a lock."""
    limiter: RateLimiter = request.app.state.limiter
    limiter.hit(kind, session_of(request), address_of(request))


def rate_limited(kind: Kind) -> Callable[[Request], Awaitable[None]]:
    """A route dependency counting every request as ``kind``; async, so that it runs in the event loop."""

    async def check(request: Request) -> None:
        count_request(request, kind)

    return check


def check_open_tables(hub: Hub, user_id: int, cap: int | None) -> None:
    """409 when the user already has ``cap`` unfinished tables: waiting does not free one, so
    not a 429; finishing a game does."""
    if cap is not None and hub.open_tables_of(user_id) >= cap:
        raise Refused(409, Refusal.TOO_MANY_TABLES, f"You have {cap} unfinished tables, the most one player may have: "
                                                    "finish a game before you open another table")
