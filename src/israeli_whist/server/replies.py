"""What the server sends: JSON that always encodes, and one place that answers a client's mistakes.

A client can put a lone surrogate (``"\\ud800"``) in any string it sends. Python's ``json``
writes it back into a str that no UTF-8 encoder takes, so Starlette's JSON response and
``send_json`` would fail while answering, with a traceback instead of an answer. ``json_text``
falls back to ASCII escapes for such text: every reply encodes, whatever it echoes.

The error handlers answer in the API's shape, ``{"detail": ...}``, through ``json_text``, with a
stable ``code`` beside the detail (``Refused``, or the framework's own refusal given one by its
status; the codes are ``refusals.py``'s one list, and the pages word them in the reader's language):
a validation error without the ``input`` FastAPI would echo (the whole body, however large),
and a rules error (``WhistError``) that a route did not turn into an answer itself as 422.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException

from israeli_whist.core.errors import WhistError
from israeli_whist.server.inputs import LONE_SURROGATE
from israeli_whist.server.refusals import Refusal, framework_refusal

log = logging.getLogger("whist.server")


def json_text(value: Any) -> str:
    """``value`` as compact JSON that encodes as UTF-8 (non-ASCII kept as it is where it can be).

    >>> json_text({"name": "שלום"}), json_text(["\\ud800"])
    ('{"name":"שלום"}', '["\\\\ud800"]')
    """
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    if LONE_SURROGATE.search(text) is None:
        return text
    return json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))


class JSONReply(JSONResponse):
    """The app's default response: ``json_text``, encoded."""

    def render(self, content: Any) -> bytes:
        return json_text(content).encode("utf-8")


class Refused(HTTPException):
    """A refusal the pages know by ``code`` (their catalogues' ``error.<code>``); the detail is for people."""

    def __init__(self, status_code: int, code: Refusal, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(status_code, detail, headers)
        self.code = code


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(WhistError, rules_error)
    app.add_exception_handler(OperationalError, database_unavailable)


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return refusal_reply(error)


def refusal_reply(error: HTTPException) -> Response:
    """The answer to a refusal, raised in a route or sent by a middleware before any route."""
    headers = error.headers  # Retry-After of a 429, WWW-Authenticate...
    if error.status_code in (204, 304):  # answers that have no body
        return Response(status_code=error.status_code, headers=headers)
    code = error.code if isinstance(error, Refused) else framework_refusal(error.status_code)
    body = {"detail": error.detail, "code": code}
    return JSONReply(body, status_code=error.status_code, headers=headers)


async def invalid_request(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    detail = [{"type": e["type"], "loc": list(e["loc"]), "msg": message_of(e)} for e in error.errors()]
    return JSONReply({"detail": detail, "code": Refusal.INVALID_REQUEST}, status_code=422)


def message_of(error: dict[str, Any]) -> str:
    """Pydantic's message, without the "Value error, " it puts before our own checks' messages."""
    reason = error.get("ctx", {}).get("error")
    if error["type"] == "value_error" and isinstance(reason, ValueError):
        return str(reason)
    return str(error["msg"])


async def database_unavailable(request: Request, error: Exception) -> Response:
    # The database did not answer (restarting, or gone): nobody's mistake, and nothing to trace
    # back. The client is told to try again, as a 503 tells a load balancer.
    log.warning("%s %s: the database did not answer: %s", request.method, request.url.path,
                str(error).splitlines()[0] if str(error) else error.__class__.__name__)
    return JSONReply({"detail": "The server cannot reach its database; please try again in a moment",
                      "code": Refusal.UNAVAILABLE}, status_code=503, headers={"Retry-After": "2"})


async def rules_error(request: Request, error: Exception) -> Response:
    # A route that took rules, options or an entry from the client, and let the engine's refusal
    # through: the client's mistake, said in the engine's words. Logged, so that the route gets
    # its own answer, but no traceback: nothing failed on the server.
    log.warning("%s %s: %s", request.method, request.url.path, error)
    return JSONReply({"detail": str(error), "code": Refusal.RULES}, status_code=422)
