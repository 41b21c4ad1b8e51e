"""Request bodies past a small size are refused (413, code ``too_large``) before anything reads them.

Without a limit a client could send any body, and the route would read all of it into memory and
parse it on the event loop before any check of its own: one client sending 16 MB JSON bodies
slowed every table and the health check by seconds. The largest legitimate body is a few
kilobytes (``ServerSettings.max_body_bytes`` says which), so the limit costs people nothing.

A pure ASGI middleware, so that it sees the request before Starlette or FastAPI read a byte: a
declared ``Content-Length`` over the limit is answered at once, without reading the body; a body
sent without one (chunked) is counted as it arrives, and refused as soon as it passes the limit.
The answer says ``Connection: close``, and uvicorn closes the connection: the rest is never read.
WebSocket messages have their own limit (``ServerSettings.max_message_bytes``), which
uvicorn applies to each frame (``server/run.py``).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from israeli_whist.server.refusals import Refusal
from israeli_whist.server.replies import Refused, http_error


class BodyTooLarge(Refused):
    """A body past the limit. A ``Refused``, so that a route reading the body when it passes the
    limit answers it as any refusal; this middleware answers it where nothing else did."""

    def __init__(self, limit: int) -> None:
        # Connection: close, so that uvicorn closes the connection once it has answered, rather than
        # read (and drop) the rest of the body, and keep the connection for the next request.
        super().__init__(413, Refusal.TOO_LARGE, f"A request body is at most {limit} bytes",
                         headers={"Connection": "close"})


class BodyLimit:
    """``app`` with every HTTP request's body limited to ``max_bytes``."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = declared_length(scope)
        if declared is not None and declared > self.max_bytes:
            await refuse(BodyTooLarge(self.max_bytes), scope, receive, send)
            return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge as refusal:  # read by something that does not answer refusals itself
            if started:
                raise
            await refuse(refusal, scope, receive, send)


def declared_length(scope: Scope) -> int | None:
    """The request's ``Content-Length``, None where it has none. uvicorn has refused one that is not
    a number; a malformed one that reaches here is left to the count as the body arrives.

    >>> [declared_length({"headers": [(b"content-length", value)]}) for value in (b"17", b"9" * 5000, b"x")]
    [17, 1000000000000000000, None]
    """
    for name, value in scope["headers"]:
        if name == b"content-length":
            if not value.isdigit():
                return None
            return int(value) if len(value) <= FAR_PAST_ANY_LIMIT_DIGITS else 10**FAR_PAST_ANY_LIMIT_DIGITS
    return None


# Digits of a length read as a number (Python refuses to read a number of thousands of digits).
FAR_PAST_ANY_LIMIT_DIGITS = 18


async def refuse(refusal: BodyTooLarge, scope: Scope, receive: Receive, send: Send) -> None:
    """The refusal in the API's shape, by the app's own error handler."""
    reply = await http_error(Request(scope, receive), refusal)
    await reply(scope, receive, send)
