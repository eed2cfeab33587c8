"""The server's logs: lines that a failing store repeats, at most one per condition every few seconds and never a
traceback per request; a request id on every line and every answer; JSON lines for an organiser's log stack; and no
ticket or token in any line (docs/operations.md "Logs")."""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

log = logging.getLogger("umpire.store")


class Every:
    """A log line per condition at most every `seconds`: a full disk answers every write, and a line (never a
    traceback) per request would bury the log (issue 34: 1,369 tracebacks in 8 s)."""

    def __init__(self, seconds: float = 10.0, clock: Callable[[], float] = time.monotonic):
        self.seconds, self.clock = seconds, clock
        self.last: dict[str, float] = {}
        self.quiet: dict[str, int] = {}
        self.lock = threading.Lock()

    def warn(self, condition: str, message: str) -> bool:
        """Log `message` unless `condition` was logged less than `seconds` ago; whether it was logged."""
        now = self.clock()
        with self.lock:
            if now - self.last.get(condition, -1e18) < self.seconds:
                self.quiet[condition] = self.quiet.get(condition, 0) + 1
                return False
            self.last[condition] = now
            held = self.quiet.pop(condition, 0)
        more = f" ({held} more since the last line)" if held else ""
        log.error("%s%s", message, more)
        return True


STORAGE_LOG = Every()  # the store cannot write (a full disk, read-only), or does not answer: requests and loops alike


# ---- request ids, JSON lines, and no secrets in any line (issue 34 items 5 and 7; docs/operations.md "Logs") ----

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
_GIVEN_ID = re.compile(r"^[A-Za-z0-9._:/+=-]{1,128}$")  # what a proxy's X-Request-ID may be to be kept as it is
# a stream ticket or token in a URL or a header as a log line might quote it: the value is never written
_SECRET = re.compile(r"((?:ticket|token|invitation)=|[Bb]earer\s+)[^\s&\"']+")


def request_id(scope: dict) -> str:
    """The id of an HTTP request: the proxy's `X-Request-ID` when it is a sane one, else a new one."""
    given = next((v for k, v in scope["headers"] if k == b"x-request-id"), b"").decode("latin-1")
    return given if _GIVEN_ID.match(given) else os.urandom(16).hex()  # uuid4().hex's 32 hex digits, without a UUID


class RequestIds:
    """Every request gets an id: the proxy's `X-Request-ID` when it is a sane one, else a new one; it is answered in
    `X-Request-ID` and stamped on every log line the request causes (`REQUEST_ID`). Outermost, so every answer has it."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        rid = request_id(scope)
        token = REQUEST_ID.set(rid)
        header = (b"x-request-id", rid.encode())

        async def sending(message: dict) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), header]
            await send(message)

        # not reset when the app raises: the ASGI server logs the error next ("Exception in ASGI application"), in
        # this request's own task, whose context ends with it, so that line carries the id the 500 answered
        await self.app(scope, receive, sending)
        REQUEST_ID.reset(token)


class Stamped(logging.Filter):
    """Every record carries the request id of the request that caused it ("-" outside one), and no secret: a
    ticket, token or invitation in its text (an access log's URL with `?ticket=`) is written as `…`."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get() or "-"
        message = record.getMessage()
        if _SECRET.search(message):
            record.msg, record.args = _SECRET.sub(r"\1…", message), None
        return True


class JsonLines(logging.Formatter):
    """One JSON object per line: time (UTC), level, logger, message, request_id, and the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def log_config(fmt: str = "text") -> dict[str, Any]:
    """The logging of a server process (`umpire serve`, and `uvicorn service.asgi:app` through service/asgi.py):
    uvicorn's loggers and ours to standard error, as text or JSON lines, every line stamped and cleaned (`Stamped`)."""
    text = "%(levelname)s:     [%(request_id)s] %(message)s"
    formatter = {"()": JsonLines} if fmt == "json" else {"format": text}
    handler = {"class": "logging.StreamHandler", "formatter": "main", "filters": ["stamped"], "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"stamped": {"()": Stamped}},
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "loggers": {
            name: {"handlers": ["main"], "level": "INFO", "propagate": False}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "umpire", "granian")
        },
        "root": {"handlers": ["main"], "level": "WARNING"},
    }
