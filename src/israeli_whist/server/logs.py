"""Structured logs: one JSON object a line, for the server's own messages and uvicorn's."""

from __future__ import annotations

import logging
import time
from typing import Any

from israeli_whist.server.replies import json_text


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json_text(entry)  # a message may quote a client's text, lone surrogates and all


def log_config(level: str = "info") -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for uvicorn's ``log_config``: JSON lines on stderr."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    loggers = {name: {"handlers": ["default"], "level": level.upper(), "propagate": False}
               for name in ("whist", "uvicorn", "uvicorn.error", "uvicorn.access")}
    return {"version": 1, "disable_existing_loggers": False,
            "formatters": {"json": {"()": JsonFormatter}}, "handlers": {"default": handler}, "loggers": loggers}
