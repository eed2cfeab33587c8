"""uvicorn's HTTP protocol with what it lacks against slow or too many clients (issue 19, D6):

- a **header read timeout**: a connection whose request head (request line and headers) has not fully arrived
  `header_timeout` seconds after it opened, or after the first byte of a later request on it, gets 408 and is closed
  (uvicorn's own keep-alive timeout only closes a connection idle *between* requests, and only after a first one);
- a **connection cap**: beyond `max_connections` open connections in this process, a new connection gets 503
  `too-many-connections` and is closed at once; the connections already open are served as before (uvicorn's
  `limit_concurrency` instead answers 503 to every request on every connection once the cap is reached);
- **forwarded addresses** are believed only from the proxies the operator names (`UMPIRE_TRUSTED_PROXIES`, applied
  by the app): uvicorn's own X-Forwarded-For handling, on by default for 127.0.0.1, is taken off.

The body read timeout is the app's (service/http.py `Guards`), so it holds under any server.

`umpire serve` uses it with its flags; under plain uvicorn: `uvicorn service.asgi:app --http service.server:Protocol`
(the settings then come from UMPIRE_HEADER_TIMEOUT and UMPIRE_MAX_CONNECTIONS)."""

from __future__ import annotations

import asyncio
import json

from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.notify import shutting_down
from service.settings import Settings


def _response(status: int, reason: str, code: str, detail: str, retry_after: int | None = None) -> bytes:
    body = json.dumps(
        {
            "type": f"https://naval-umpire.invalid/problems/{code}",
            "title": reason,
            "status": status,
            "code": code,
            "detail": detail,
            "instance": None,
        }
    ).encode()
    head = [
        f"HTTP/1.1 {status} {reason}",
        "content-type: application/problem+json",
        f"content-length: {len(body)}",
        "connection: close",
    ]
    if retry_after is not None:
        head.append(f"retry-after: {retry_after}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


class Protocol(HttpToolsProtocol):
    """One connection; the class attributes are the limits (`configured` makes a class with other ones)."""

    header_timeout: float = Settings.from_env().header_timeout
    max_connections: int = Settings.from_env().max_connections

    @classmethod
    def configured(cls, header_timeout: float, max_connections: int) -> type[Protocol]:
        return type("Protocol", (cls,), {"header_timeout": header_timeout, "max_connections": max_connections})

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if isinstance(self.app, ProxyHeadersMiddleware):  # the app applies UMPIRE_TRUSTED_PROXIES itself
            self.app = self.app.app
        self._head_timer: asyncio.TimerHandle | None = None
        self._refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if self.max_connections > 0 and len(self.connections) >= self.max_connections:
            self._refused = True
            self.transport = transport
            transport.write(
                _response(
                    503,
                    "Service Unavailable",
                    "too-many-connections",
                    f"this server process has {len(self.connections)} connections open, its limit; retry shortly",
                    retry_after=1,
                )
            )
            transport.close()
            return
        super().connection_made(transport)
        self._arm_head_timer()

    def shutdown(self) -> None:
        """The server begins a graceful shutdown: it waits for every answer under way to complete, and a live stream
        never completes, so this process's streams end first (service.notify.shutting_down)."""
        shutting_down()
        super().shutdown()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:
            return
        self._disarm_head_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        super().data_received(data)

    # parser callbacks: a request's first byte arms the timer (unless armed already), its complete head disarms it
    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._head_timer is None:
            self._arm_head_timer()

    def on_headers_complete(self) -> None:
        self._disarm_head_timer()
        super().on_headers_complete()

    def _arm_head_timer(self) -> None:
        if self.header_timeout > 0:
            self._head_timer = self.loop.call_later(self.header_timeout, self._head_timed_out)

    def _disarm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.transport is None or self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            self._arm_head_timer()  # a pipelined request behind one still answering: its turn comes after
            return
        self.transport.write(
            _response(
                408,
                "Request Timeout",
                "request-timeout",
                f"the request's head did not arrive within {self.header_timeout:g} s",
            )
        )
        self.transport.close()
