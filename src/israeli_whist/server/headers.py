"""The headers every answer carries: pages, static files, the API, refusals, 404s and 500s.

- A Content Security Policy: scripts, styles, images, fonts and connections (the table's
  WebSocket included: CSP's ``'self'`` covers ``ws:``/``wss:`` to the same host) from this
  server only; no inline script or style, no plugin, no ``<base>``; forms post only here; and
  no page may be framed by any other (``frame-ancestors 'none'``, with ``X-Frame-Options`` for
  older browsers): a table in a stranger's frame could be clicked through (clickjacking). The
  app's manifest and its service worker (``webapp.py``) come from here too (``manifest-src``,
  ``worker-src``: said outright, not left to ``default-src``).
- ``X-Content-Type-Options: nosniff``: a JSON answer is never run as a script or a style.
- ``Referrer-Policy: no-referrer``: an invite link holds its table's secret in the URL.
- ``Cross-Origin-Opener-Policy`` and ``Cross-Origin-Resource-Policy`` ``same-origin``: another
  site's page neither keeps a handle on a window of ours nor embeds our answers.
- ``Strict-Transport-Security`` only with ``--secure-cookies`` (the site is behind HTTPS):
  sent over plain http it would be ignored at best, and would lock out a site without TLS.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from israeli_whist.server.refusals import Refusal
from israeli_whist.server.replies import JSONReply

log = logging.getLogger("whist.server")

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "font-src 'self'",
    "connect-src 'self'", "manifest-src 'self'", "worker-src 'self'",
    "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
])
HSTS = "max-age=31536000"  # a year


def security_headers(https_only: bool) -> dict[str, str]:
    found = {
        "Content-Security-Policy": CONTENT_SECURITY_POLICY,
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cross-Origin-Opener-Policy": "same-origin",
        "Cross-Origin-Resource-Policy": "same-origin",
    }
    if https_only:
        found["Strict-Transport-Security"] = HSTS
    return found


class SecurityHeaders:
    """Pure ASGI middleware that adds ``security_headers`` to every answer that passes through it
    (a WebSocket's refused handshake too)."""

    def __init__(self, app: ASGIApp, https_only: bool = False) -> None:
        self.app = app
        self.headers = security_headers(https_only)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                message["headers"] = list(message.get("headers", []))
                headers = MutableHeaders(scope=message)
                for name, value in self.headers.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


def install_security_headers(app: FastAPI, https_only: bool) -> None:
    """The middleware, added last so that it is the outermost and sees every answer; and the
    answer to a fault of ours, which Starlette sends from outside every middleware."""
    app.add_middleware(SecurityHeaders, https_only=https_only)
    headers = security_headers(https_only)

    async def server_error(request: Request, error: Exception) -> Response:
        # Starlette logs the traceback and re-raises after sending this.
        return JSONReply({"detail": "The server failed to answer", "code": Refusal.INTERNAL}, status_code=500,
                         headers=headers)

    app.add_exception_handler(Exception, server_error)
