"""The HTTP API (docs/api.md): `create_app` makes the service and the app, its middleware and error handlers, and adds
the route areas of service/routes/ in order. Thin routes: read the request, call the service, encode the answer with
msgspec. Every error is application/problem+json with a stable `code`; openapi/openapi.json describes every operation."""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, cast

import msgspec
from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.telemetry import TelemetryConfig
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route
from starlette.types import ASGIApp

from domain import engine
from domain.engine import Rejected
from events.store import StoreUnavailable, open_store
from service import ENGINE_VERSION, metrics
from service.games import GameService, unavailable
from service.http import (
    Guards,
    HeadAsGet,
    InternalErrors,
    ProblemCORS,
    bearer,
    internal_error,
    problem,
    rejected_response,
)
from service.logs import RequestIds
from service.openapi import Operation
from service.reads import MAX_PAGE
from service.routes import Conditional, registrar
from service.routes import docs as docs_routes
from service.routes import games as games_routes
from service.routes import health as health_routes
from service.routes import notifications as notification_routes
from service.routes import record as record_routes
from service.routes import rulesets as ruleset_routes
from service.routes import verification as verification_routes
from service.routes import whatif as whatif_routes
from service.rulesets import Loaded
from service.settings import Settings

EXPOSED = ["ETag", "Location", "Retry-After", "WWW-Authenticate", "Allow", "X-Request-ID"]  # headers a browser page may read


TELEMETRY_OFF: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}


def telemetry_wanted(settings: Settings) -> bool:
    """Whether FastAPI's own OpenTelemetry spans, metrics and logs run (docs/operations.md "OpenTelemetry"). FastAPI
    asks on every request whether a provider is set up (34,000 instructions, 2% of a command); `auto` asks once, as
    the app is made: on when OpenTelemetry is set up for this process then (an `OTEL_` variable, FastAPI's
    `FASTAPI_OTEL_AUTO_CONFIGURE`, or a tracer provider set already, as `opentelemetry-instrument` sets one)."""
    if settings.telemetry != "auto":
        return settings.telemetry == "on"
    if any(name.startswith(("OTEL_", "FASTAPI_OTEL_")) for name in os.environ):
        return True
    from opentelemetry import trace

    return not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)


class App(FastAPI):
    """FastAPI with layers in front of its own outermost middleware (the server-error one): `front`, innermost
    first, each made from the app inside it. The command path sits there (service.routes.games.LeanCommands)."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.front: list[Callable[[Any], Any]] = []

    def build_middleware_stack(self) -> ASGIApp:
        app = super().build_middleware_stack()
        for layer in self.front:
            app = layer(app)
        return app


YOUNGEST_GENERATION = 10_000  # objects allocated between collections of the youngest generation (CPython's: 700)


def collect_less_often() -> None:
    """The cyclic garbage collector's youngest generation collected every 10,000 allocations, not 700: a command
    allocates thousands of objects that die young, and at 700 the collector ran several times a command, promoting
    what the command still held (the entries `awaiting` keeps, domain/entries.py) into older generations whose
    collections walk the whole heap (1% of an aa1942 raid's instructions, 5% before its answer allocated less:
    docs/performance.md). Memory freed by reference counting, nearly all of it, is unaffected; the older generations
    keep CPython's ratios."""
    young, middle, old = gc.get_threshold()
    if 0 < young < YOUNGEST_GENERATION:  # 0: the collector was switched off on purpose; leave it so
        gc.set_threshold(YOUNGEST_GENERATION, middle, old)


def create_app(
    db_path: str | None = None,
    service: GameService | None = None,
    settings: Settings | None = None,
    rulesets: Mapping[str, Loaded] | None = None,
):
    """`rulesets`: what a service made here plays (by default those service/rulesets.py serves); a `service` passed in
    plays its own, and the app serves those."""
    settings = settings or Settings.from_env(db=db_path)
    collect_less_often()
    svc = service or GameService(
        open_store(settings.db, settings.sqlite_sync, settings.db_start_wait), settings=settings, rulesets=rulesets
    )
    telemetry = telemetry_wanted(settings)
    app = App(
        telemetry=None if telemetry else TELEMETRY_OFF,
        title="Naval Umpire",
        version=ENGINE_VERSION,
        docs_url=None,
        redoc_url=None,
        # a path with a slash too many is a 404 saying which path is meant: the framework's 307 had no body and took its
        # Location from the Host header, whatever a client sent there
        redirect_slashes=False,
        description=(
            "An event-sourced rules server for naval wargames: every command is judged by the rules, every die is "
            "verifiable (umpire1 commit-reveal dice) and every game is a hash-chained log. Errors are "
            f"application/problem+json with a stable `code`. Request bodies are limited to {settings.max_body} "
            f"bytes ({settings.max_bundle_body} for /bundles/verify); pages to {MAX_PAGE} items. Reads are public; "
            "a seat's or the referee's bearer token adds what that reader may see."
        ),
    )
    app.state.service = svc
    app.state.settings = settings
    for loaded in svc.rulesets.values():  # every command's schema made as the server starts, not by its first command
        for command in loaded.ruleset.command_types:
            engine.command_schema(cast(type[msgspec.Struct], command))
    ops: list[Operation] = []
    guarded: dict[str, Any] = {
        "max_body": settings.max_body,
        "max_bundle_body": settings.max_bundle_body,
        "cors": bool(settings.cors_origins),
        "body_timeout": settings.body_timeout,
    }
    app.add_middleware(Guards, **guarded)
    # in front of the framework's own middleware, so its 500 too carries the request's id
    app.front.append(RequestIds)
    # commands at the door, but with CORS (every answer goes through its middleware) or telemetry (a command's span
    # and its exceptions are the framework's route's, as any request's)
    if not settings.cors_origins and not telemetry:
        app.front.append(partial(games_routes.LeanCommands, service=svc, guards=Guards(None, **guarded)))
    app.add_middleware(HeadAsGet)
    if settings.cors_origins:  # outside the guards, and around the 500s: every answer of the app carries its headers
        app.add_middleware(InternalErrors)
        app.add_middleware(
            ProblemCORS,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST", "PUT", "DELETE"],
            allow_headers=["Authorization", "Content-Type", "Last-Event-ID", "If-None-Match", "If-Match"],
            expose_headers=EXPOSED,
        )
    if settings.trusted_proxies:  # X-Forwarded-For is believed from these addresses only (outermost: first to run)
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        app.front.append(partial(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxies)))


    @app.exception_handler(Rejected)
    async def on_rejected(request: Request, e: Rejected):
        return rejected_response(request, e)

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, e: RequestValidationError):
        errors = e.errors()
        if any(tuple(err["loc"]) == ("path", "game_id") for err in errors):
            # an id of another form names no game: 404 as an unknown one, as jobs' ids (the pattern is the document's)
            game_id = str(request.path_params.get("game_id", ""))
            game_id = game_id if len(game_id) <= 64 else game_id[:64] + "…"  # echoed in part, as `instance`
            return problem(
                404,
                "unknown-game",
                f"no game {game_id!r} here (a game's id is 1 to 64 of A-Z, a-z, 0-9, '.', '_' and '-'); "
                "POST /games creates one",
                request.url.path,
            )
        parts = "; ".join(f"{'.'.join(str(x) for x in err['loc'])}: {err['msg']}" for err in errors[:10])
        return problem(422, "invalid-request", f"fix these and send again: {parts}", request.url.path)

    @app.exception_handler(StarletteHTTPException)
    async def on_http_error(request: Request, e: StarletteHTTPException):
        code = {404: "not-found", 405: "method-not-allowed"}.get(e.status_code, "http-error")
        detail = {404: "no such resource; GET / lists where to start", 405: "this method is not served here; see /docs"}
        path = request.url.path
        meant = path.rstrip("/")
        if e.status_code == 404 and meant != path and any(
            isinstance(r, Route) and r.path_regex.match(meant) for r in app.routes
        ):
            detail[404] = f"no such resource: the API's paths end without a slash; send {meant}"
        resp = problem(e.status_code, code, detail.get(e.status_code, str(e.detail)), path)
        resp.headers.update(e.headers or {})
        if e.status_code == 405:  # every method the path serves, not only its first route's
            routes = [r for r in app.routes if isinstance(r, Route) and r.methods and r.path_regex.match(path)]
            allowed = {m for r in routes for m in r.methods or ()}
            resp.headers["Allow"] = ", ".join(sorted(allowed | ({"HEAD"} if "GET" in allowed else set())))
        return resp

    @app.exception_handler(StoreUnavailable)
    async def on_store_unavailable(request: Request, e: StoreUnavailable):
        return rejected_response(request, unavailable(e))

    @app.exception_handler(Exception)
    async def on_internal(request: Request, e: Exception):
        return internal_error()

    app.router.on_startup.append(svc.dispatcher.start)  # webhook deliveries (service/webhooks.py)
    app.router.on_shutdown.append(svc.dispatcher.stop)
    app.router.on_startup.append(svc.clocks.start)  # turn clocks run out (service/deadlines.py)
    app.router.on_shutdown.append(svc.clocks.stop)
    app.router.on_shutdown.append(svc.notifier.flush)
    app.router.on_shutdown.append(metrics.process_ended)  # multiprocess mode: this worker's live gauges go with it
    scrape = metrics.FromStore(svc.store.outbox_pending, lambda: len(svc.store.clocks()))

    @app.get("/metrics", include_in_schema=False)  # an operator's endpoint, as /docs: docs/operations.md "Metrics"
    async def prometheus_metrics(request: Request):
        metrics.scraper_may(settings.metrics_token, bearer(request))
        body, content_type = await asyncio.to_thread(metrics.exposition, scrape)
        return Response(body, media_type=content_type)
  # the last appends' NOTIFY goes out before the process ends
    route = registrar(app, ops)  # each area registers its routes with it, in this order
    conditional = Conditional(svc.bundles, settings.large_answers_per_minute)

    ruleset_routes.add_routes(route, svc)
    health_routes.add_routes(route, svc)
    games_routes.add_routes(route, svc, conditional)
    whatif_routes.add_routes(route, svc)
    notification_routes.add_routes(route, svc)
    notification_routes.add_mail_page(app, svc)
    record_routes.add_routes(route, svc, conditional)
    app.state.verifier = verification_routes.add_routes(route, svc, settings)
    app.router.on_shutdown.append(app.state.verifier.close)  # its worker processes end with the server
    docs_routes.add_routes(app, ops, settings, svc.rulesets)  # last: the document describes every route above
    return app
