"""The HTTP routes, one module per area, and what they share: `registrar` (the `route` each area registers with), the
path parameters and `Conditional` (every read of a game with its ETag); service/app.py `create_app` adds the areas in
order (the order is the OpenAPI document's)."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import parse_qsl

from fastapi import FastAPI, Path, Request
from fastapi.responses import Response, StreamingResponse
from fastapi.routing import APIRoute

from domain.engine import InvalidInput
from service.bundles import Bundles
from service.http import JSON, client_of
from service.openapi import Operation
from service.ratelimit import PerWindow

GAME_ID = Path(max_length=64, pattern="^[A-Za-z0-9._-]{1,64}$", description="the game's id")
LARGE_ANSWER = 1024 * 1024  # bytes: a bundle larger than this counts against the client's large answers
CHUNK = 1024 * 1024  # bytes: a large answer is sent in chunks of this size


class Conditional:
    """A read of a game with its ETag (Bundles.etag: the head, the reader and what is read), and 304 Not Modified
    when the client's If-None-Match holds it: the one mechanism every read of a game uses. Large answers cost the
    server: a few a minute per client (`large_answers_per_minute`)."""

    def __init__(self, bundles: Bundles, large_answers_per_minute: int):
        self.bundles = bundles
        self.large_answers = PerWindow(large_answers_per_minute, f"answers over {LARGE_ANSWER // 2**20} MiB")

    def __call__(self, request: Request, game_id: str, reader, build: Callable[[], Any], what: str | None = None):
        what = what or request.url.path + "?" + request.url.query
        etag = self.bundles.etag(game_id, reader, what)
        headers = {"ETag": etag, "Cache-Control": "no-cache"}  # revalidate: the game may move on
        if etag in (t.strip() for t in request.headers.get("if-none-match", "").split(",")):
            return Response(status_code=304, headers=headers)
        body = build()
        if isinstance(body, bytes) and len(body) > LARGE_ANSWER:  # large answers cost the server: a few a minute
            self.large_answers.take(client_of(request))
            return streamed(body, headers)
        return JSON(body, headers=headers)


def streamed(body: bytes, headers: dict[str, str]) -> StreamingResponse:
    """A large answer sent a chunk at a time: each waits for the client to take the one before (the server keeps no
    second copy of it in a socket buffer) and the event loop serves other requests between them."""
    view = memoryview(body)

    async def chunks() -> AsyncIterator[memoryview]:
        for i in range(0, len(body), CHUNK):
            yield view[i : i + CHUNK]

    return StreamingResponse(
        chunks(), media_type="application/json", headers={**headers, "Content-Length": str(len(body))}
    )


def registrar(app: FastAPI, ops: list[Operation]) -> Callable:
    """create_app's `route`: each area's add_routes registers its routes with it, and `ops` collects their
    descriptions for the OpenAPI document (service/openapi.py)."""

    def route(method: str, path: str, **meta: Any) -> Callable:
        """Register a route and describe it (service/openapi.py turns the description into the document)."""

        def register(fn: Callable) -> Callable:
            ops.append(Operation(method=method, path=path, name=fn.__name__, **meta))
            app.add_api_route(
                path,
                fn,
                methods=[method],
                name=fn.__name__,
                response_class=JSON,
                status_code=meta.get("status", 200),
            )
            added = app.router.routes[-1]
            assert isinstance(added, APIRoute)  # the route just added
            added.app = only_query(fn, added.app)  # around the route's ASGI app: no per-request dependency to solve
            return fn

        return register

    return route


def only_query(fn: Callable, route_app: Callable) -> Callable:
    """The route's ASGI app refusing query parameters the route does not take (a typo is told, not silently ignored)
    and any named twice (the framework would read the last one: `?limit=1&limit=3` read 3, as a body's repeated key
    is never read). No operation takes a list parameter (tests/test_api_contract.py checks the document), so every
    parameter is taken once. A request without a query string goes straight through."""
    known = {
        name
        for name, p in inspect.signature(fn).parameters.items()
        if type(p.default).__name__ == "Query"
    }

    async def checked(scope, receive, send) -> None:
        if scope.get("query_string"):
            names = [k for k, _ in parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True)]
            sent = set(names)
            unknown = sorted(sent - known)
            if unknown:
                raise InvalidInput(
                    "unknown-parameter",
                    f"this operation takes no query parameter {', '.join(map(repr, unknown))}"
                    + (f"; it takes {sorted(known)}" if known else ""),
                )
            if len(names) != len(sent):
                twice = sorted({n for n in names if names.count(n) > 1})
                raise InvalidInput(
                    "invalid-request",
                    f"the query parameter {', '.join(map(repr, twice))} is named more than once: send each parameter "
                    "once (a repeated one is never read as the last one)",
                )
        await route_app(scope, receive, send)

    return checked
