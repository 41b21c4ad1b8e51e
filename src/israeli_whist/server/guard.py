"""One place that decides whether a request may change something or open a table's socket.

Pages of other sites, and pages on another port of this host (the same *site*, so the browser
sends them the ``SameSite=Lax`` cookie), must not act as the signed-in player. So, before any
route runs (a middleware, so that a route added later is covered without remembering to be):

- **A WebSocket handshake** whose ``Origin`` is not the server's own (or an allowed one,
  ``israeli_whist.server.origins``) is refused with 403 before it is accepted. A client that
  sends no ``Origin`` is not a browser page (a script, the benchmarks) and is let through.
- **A state-changing request** (any method but GET, HEAD and OPTIONS, which change nothing)
  is refused with 403 when its ``Origin`` is not allowed, and with 415 unless it carries what
  no cross-site HTML form can send: a JSON ``Content-Type``, or the ``X-Whist-Request`` header.
  (A page's ``fetch`` of another origin with either gets a CORS preflight, which this server
  never grants.)
- Either is refused when the browser says the request is ``Sec-Fetch-Site: cross-site``.

The refusals are JSON with a stable ``code`` (``origin``, ``content_type``), like any other.
"""

from __future__ import annotations

import logging

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from israeli_whist.server.origins import origin_allowed
from israeli_whist.server.refusals import Refusal, SocketClosed
from israeli_whist.server.replies import Refused, refusal_reply

log = logging.getLogger("whist.server")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CLIENT_HEADER = "x-whist-request"  # the pages send it on every change; a form cannot

OTHER_ORIGIN = Refused(403, Refusal.ORIGIN, "Only this server's own pages may change things or open a table's "
                                            "connection: this request came from a page elsewhere")
NOT_JSON = Refused(415, Refusal.CONTENT_TYPE, "A change is sent as JSON (Content-Type: application/json) or with "
                                              "the header X-Whist-Request: 1")


def refusal_of(scope: Scope, allowed: tuple[str, ...]) -> Refused | None:
    """Why the request or handshake of ``scope`` is refused; None if it may go on."""
    if scope["type"] == "http" and scope["method"] in SAFE_METHODS:
        return None
    headers = Headers(scope=scope)
    if headers.get("sec-fetch-site") == "cross-site":
        return OTHER_ORIGIN
    origins = headers.getlist("origin")
    if len(origins) > 1 or (origins and not origin_allowed(origins[0], scope["scheme"], headers.get("host"),
                                                           allowed)):
        return OTHER_ORIGIN
    if scope["type"] == "http" and not (is_json(headers.get("content-type")) or CLIENT_HEADER in headers):
        return NOT_JSON
    return None


def is_json(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` says JSON (``application/json``, with parameters or not).

    >>> is_json("application/json; charset=utf-8"), is_json("text/plain"), is_json(None)
    (True, False, False)
    """
    return content_type is not None and content_type.split(";", 1)[0].strip().lower() == "application/json"


class BrowserGuard:
    """The rule above, as pure ASGI middleware around the app (``allowed``: ``--allowed-origin``)."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = refusal_of(scope, self.allowed) if scope["type"] in ("http", "websocket") else None
        if refusal is None:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        log.info("refused %s %s (%s): origin %r, host %r, content type %r", scope.get("method", "WebSocket"),
                 scope["path"], refusal.code, headers.get("origin"), headers.get("host"), headers.get("content-type"))
        if scope["type"] == "http":
            await refusal_reply(refusal)(scope, receive, send)
            return
        socket = WebSocket(scope, receive, send)
        if "websocket.http.response" in scope.get("extensions", {}):
            await socket.send_denial_response(refusal_reply(refusal))
        else:  # a server without the denial extension answers a close before the accept with 403
            await socket.close(code=SocketClosed.OTHER_ORIGIN)
