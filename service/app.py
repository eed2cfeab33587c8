"""The HTTP API (docs/api.md). Thin routes: read the request, call the service, encode the answer with msgspec.
Every error is application/problem+json with a stable `code`; openapi/openapi.json describes every operation."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from pathlib import Path as FilePath
from typing import Any
from urllib.parse import parse_qsl

import msgspec
from fastapi import FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from domain.engine import InvalidInput, Rejected
from events.bundle import decode_bundle
from events.store import open_store
from service import ENGINE_VERSION, models
from service.desk import mount_desk
from service.games import MAX_PAGE, GameService, loaded_for
from service.http import (
    JSON,
    BadRequest,
    Guards,
    TooLarge,
    TooMany,
    bearer,
    convert,
    decode,
    problem,
    rejected_response,
    whole_numbers,
)
from service.openapi import Operation, build_document
from service.replay import verify
from service.rulesets import RULESETS
from service.settings import Settings
from service.whatif import MAX_API_GAMES, OddsJobs

GAME_ID = Path(max_length=64, pattern="^[A-Za-z0-9._-]{1,64}$", description="the game's id")
JOB_ID = Path(max_length=64, pattern="^j-[0-9a-f]{16}$", description="a job's id")
DOCS_STATIC = "/docs-static"


def create_app(db_path: str | None = None, service: GameService | None = None, settings: Settings | None = None):
    settings = settings or Settings.from_env(db=db_path)
    svc = service or GameService(open_store(settings.db), settings=settings)
    app = FastAPI(
        title="Naval Umpire",
        version=ENGINE_VERSION,
        docs_url=None,
        redoc_url=None,
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
    ops: list[Operation] = []
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "Content-Type", "Last-Event-ID"],
        )
    app.add_middleware(
        Guards, max_body=settings.max_body, max_bundle_body=settings.max_bundle_body, cors=bool(settings.cors_origins)
    )

    @app.exception_handler(Rejected)
    async def on_rejected(request: Request, e: Rejected):
        return rejected_response(request, e)

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, e: RequestValidationError):
        parts = "; ".join(f"{'.'.join(str(x) for x in err['loc'])}: {err['msg']}" for err in e.errors()[:10])
        return problem(422, "invalid-request", f"fix these and send again: {parts}", request.url.path)

    @app.exception_handler(StarletteHTTPException)
    async def on_http_error(request: Request, e: StarletteHTTPException):
        code = {404: "not-found", 405: "method-not-allowed"}.get(e.status_code, "http-error")
        detail = {404: "no such resource; GET / lists where to start", 405: "this method is not served here; see /docs"}
        resp = problem(e.status_code, code, detail.get(e.status_code, str(e.detail)), request.url.path)
        resp.headers.update(e.headers or {})
        if e.status_code == 405:  # every method the path serves, not only its first route's
            path = request.url.path
            allowed = {m for r in app.routes if getattr(r, "methods", None) and r.path_regex.match(path) for m in r.methods}
            resp.headers["Allow"] = ", ".join(sorted(allowed - {"HEAD"}))
        return resp

    @app.exception_handler(Exception)
    async def on_internal(request: Request, e: Exception):
        return problem(500, "internal-error", "the server failed; nothing was appended. Report it with the bundle.")

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
            added.app = only_query(fn, added.app)  # around the route's ASGI app: no per-request dependency to solve
            return fn

        return register

    # ---- what can be played ----

    @route(
        "GET",
        "/",
        ok="Root",
        errors=(422,),
        summary="Where to start",
        description="The engine version, the rulesets served and where the documentation lives.",
    )
    def root():
        return JSON(
            models.Root(
                name="Naval Umpire",
                engine=ENGINE_VERSION,
                docs="/docs",
                openapi="/openapi.json",
                desk="/desk",
                rulesets=sorted(RULESETS),
            )
        )

    @route(
        "GET",
        "/rulesets",
        ok="RulesetList",
        errors=(422,),
        summary="What can be played",
        description="Every ruleset served here, each with its commands, views and options schema.",
    )
    def list_rulesets():
        return JSON([ruleset_info(x) for x in RULESETS.values()])

    @route(
        "GET",
        "/rulesets/{ruleset_id}",
        ok="RulesetInfo",
        summary="One ruleset: commands, views, options",
        description="Its version and data set hash, default seats, each command with its argument schema, each view "
        "and the options a new game takes (`options_schema`).",
    )
    def get_ruleset(ruleset_id: str = Path(max_length=64)):
        return JSON(ruleset_info(loaded_for(ruleset_id)))

    # ---- games ----

    @route(
        "POST",
        "/games",
        ok="GameCreatedOut",
        status=201,
        body="CreateGame",
        auth="create",
        errors=(401, 413, 415, 422, 429),
        summary="Create a game",
        description="Answers with one bearer token per seat and the referee token, shown only here. "
        "With UMPIRE_CREATE_TOKEN set, creating needs `Authorization: Bearer <that token>`.",
    )
    async def create_game(request: Request):
        req = decode(await request.body(), models.CreateGame, "POST /games")
        req.options = whole_numbers(req.options)  # the ruleset reads them: `2.0` is the integer 2 there too
        client = request.client.host if request.client else "?"
        return JSON(await asyncio.to_thread(svc.create_from_request, req, bearer(request), client), status_code=201)

    @route(
        "POST",
        "/games/{game_id}/forks",
        ok="GameCreatedOut",
        status=201,
        body="ForkGame",
        auth="create",
        errors=(401, 404, 409, 413, 415, 422, 429),
        summary="Fork: a new game from any position of this one",
        description="The fork's genesis records the parent (game, seq, the parent's hash there); its state is the "
        "parent's after event `at`; it has fresh seat tokens and dice of its own, so nothing of the parent's future "
        "(its later events, its seed) reaches it. Its bundle carries the parent's up to `at`. A position holding "
        "sealed records not yet revealed cannot be forked (409 `fork-sealed`).",
    )
    async def fork_game(request: Request, game_id: str = GAME_ID):
        req = decode(await request.body(), models.ForkGame, "POST /games/{id}/forks")
        client = request.client.host if request.client else "?"
        return JSON(
            await asyncio.to_thread(svc.fork_from_request, game_id, req, bearer(request), client), status_code=201
        )

    @route(
        "GET",
        "/games",
        ok="GamesPage",
        errors=(422,),
        summary="Find games (paged, newest first)",
        description="Filter by ruleset and status; follow `next_cursor` for the next page.",
    )
    def list_games(
        ruleset: str | None = Query(None, max_length=64),
        status: str | None = Query(None, pattern="^(open|over|revealed)$"),
        cursor: str | None = Query(
            None, description="`next_cursor` of the previous page", json_schema_extra={"pattern": models.CURSOR}
        ),
        limit: int = Query(50, ge=1, le=MAX_PAGE),
    ):
        return JSON(svc.list_games(ruleset, status, cursor, limit))

    @route(
        "GET",
        "/games/{game_id}",
        ok="GameSummary",
        auth="optional",
        errors=(401, 404, 422),
        summary="Summary, with `awaiting`: the legal commands now",
        description="With a seat's token, `awaiting` shows that seat's own pending commands in a simultaneous step; "
        "everyone sees `waiting_for`.",
    )
    def get_game(request: Request, game_id: str = GAME_ID):
        return JSON(svc.summary(game_id, svc.reader_for(game_id, bearer(request))))

    @route(
        "GET",
        "/games/{game_id}/me",
        ok="Me",
        auth="required",
        errors=(401, 404, 422),
        summary="Who this token is in this game, and what it may do now",
        description="The token's seat (or `referee`), its `awaiting`, and `may`: the game-level actions open to it "
        "(`command`, `seed`, `reveal`, `end`).",
    )
    def get_me(request: Request, game_id: str = GAME_ID):
        return JSON(svc.me(game_id, bearer(request)))

    @route(
        "POST",
        "/games/{game_id}/seeds",
        ok="CommandResult",
        body="SeedRequest",
        auth="required",
        errors=(401, 403, 404, 409, 413, 415, 422),
        summary="A seat contributes its client seed (before the seed locks)",
        description="Send exactly one of `client_seed` (64 hex) or `passphrase` (hashed into one). The seed locks at "
        "the first roll; a seat that sent none is recorded as server-only.",
    )
    async def contribute_seed(request: Request, game_id: str = GAME_ID):
        req = decode(await request.body(), models.SeedRequest, "POST /games/{id}/seeds")
        return JSON(
            await asyncio.to_thread(
                svc.contribute_seed, game_id, bearer(request), req.client_seed, req.passphrase, req.command_id
            )
        )

    @route(
        "POST",
        "/games/{game_id}/commands",
        ok="CommandResult",
        body="Command",
        auth="required",
        errors=(401, 403, 404, 409, 413, 415, 422),
        summary="Send one command",
        description="`{type, ...arguments, command_id?, expected_version?}`. The answer carries the events it made and "
        "the new `awaiting`, so no extra read is needed. A retry with the same `command_id` appends nothing.",
    )
    async def send_command(request: Request, game_id: str = GAME_ID):
        raw = await request.body()
        what = "a command is a JSON object {'type': ..., ...arguments}"
        body = whole_numbers(decode(raw, dict, what, "invalid-command"))
        for name, kind, code in models.COMMAND_EXTRAS if isinstance(body, dict) else ():
            if name in body:
                convert(body[name], kind, name, code)
        token = bearer(request)
        if svc.runs_inline(game_id):  # a cached game's command is shorter than the hop to a thread and back
            return JSON(svc.command(game_id, token, body))
        return JSON(await asyncio.to_thread(svc.command, game_id, token, body))

    @route(
        "POST",
        "/games/{game_id}/reveal",
        ok="CommandResult",
        auth="required",
        errors=(401, 403, 404, 409, 413, 415, 422),
        summary="Referee: publish the server seed; the game is closed from then on",
        description="After it every roll can be verified (GET /rolls shows `verified`) and the bundle verifies in "
        "full; no command is accepted any more. No request body.",
    )
    def reveal(request: Request, game_id: str = GAME_ID):
        return JSON(svc.reveal(game_id, bearer(request)))

    @route(
        "POST",
        "/games/{game_id}/end",
        ok="CommandResult",
        auth="required",
        errors=(401, 403, 404, 409, 413, 415, 422),
        summary="Referee: end the game without revealing the server seed",
        description="Every sealed record still closed is opened; the server seed stays secret until /reveal. "
        "No request body.",
    )
    def end_game(request: Request, game_id: str = GAME_ID):
        return JSON(svc.end(game_id, bearer(request)))

    # ---- what-if ----

    jobs = OddsJobs(svc)

    @route(
        "POST",
        "/games/{game_id}/odds",
        ok="OddsJob",
        status=202,
        body="OddsRequest",
        errors=(404, 409, 413, 415, 422, 429),
        summary="The odds from a position: continuations played by the bot (a bounded job)",
        description=f"At most {MAX_API_GAMES} games; one job at a time per server process (429 otherwise). Follow "
        "`stream` for progress; the result gives, per figure the ruleset reports, the distribution, a histogram and "
        "the real game's value with its percentile.",
    )
    async def start_odds(request: Request, game_id: str = GAME_ID):
        req = decode(await request.body(), models.OddsRequest, "POST /games/{id}/odds")
        return JSON(await asyncio.to_thread(jobs.start, game_id, req.at, req.games, req.seed), status_code=202)

    @route(
        "GET",
        "/jobs/{job_id}",
        ok="OddsJob",
        summary="A job's progress and result",
        description="`status` is `running` until the job is `done` (then `result` holds the odds), `failed` (`error` "
        "says why) or `lost` (its process stopped).",
    )
    def get_job(job_id: str = JOB_ID):
        return JSON(jobs.get(job_id))

    @route(
        "GET",
        "/jobs/{job_id}/stream",
        stream="JobStreamMessage",
        errors=(404, 422),
        summary="A job live (Server-Sent Events): `progress`, then `result`",
        description="`event: progress` carries `{done, games}` as continuations finish; `event: result` carries the "
        "job (schema `OddsJob`) once it is done, failed or lost, and the stream closes.",
    )
    async def stream_job(request: Request, job_id: str = JOB_ID):
        await asyncio.to_thread(jobs.get, job_id)  # 404 before the stream starts
        return StreamingResponse(job_stream(jobs, request, job_id), media_type="text/event-stream")

    # ---- the record ----

    @route(
        "GET",
        "/games/{game_id}/events",
        ok="EventsPage",
        auth="optional",
        errors=(401, 404, 422),
        summary="The log, paged",
        description="Events after seq `after`. With a seat's (or the referee's) token, that seat's sealed records "
        "carry their content in `sealed`.",
    )
    def list_events(
        request: Request,
        game_id: str = GAME_ID,
        after: int = Query(0, ge=0, le=2**53),
        limit: int = Query(100, ge=1, le=MAX_PAGE),
    ):
        return JSON(svc.events(game_id, after, limit, svc.reader_for(game_id, bearer(request))))

    @route(
        "GET",
        "/games/{game_id}/events/stream",
        stream="StreamMessage",
        last_event_id=True,
        errors=(400, 404, 422),
        summary="The log, live (Server-Sent Events), resumable with Last-Event-ID",
        description="Each message: `id` = the seq, `event` = the type, `data` = the event object (schema `Event`). "
        "When the game is over the stream sends a final `event: end` (data: schema `StreamEnd`) and closes. "
        "`timeout=0` sends the backlog, then closes. The 200 schema (`StreamMessage`) describes one message as an "
        "EventSource delivers it: `data` is a string holding that JSON.",
    )
    async def stream_events(
        request: Request,
        game_id: str = GAME_ID,
        after: int = Query(0, ge=0, le=2**53),
        timeout: int = Query(300, ge=0, le=3600, description="seconds to wait for new events; 0: the backlog only"),
    ):
        await asyncio.to_thread(svc.summary, game_id)  # 404 before the stream starts
        last = request.headers.get("last-event-id")
        if last is not None:
            if not last.isdigit() or len(last) > 16:
                raise BadRequest("invalid-last-event-id", "Last-Event-ID is the seq of the last event you received")
            after = int(last)
        return StreamingResponse(
            event_stream(svc, request, game_id, after, timeout),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache"},
        )

    @route(
        "GET",
        "/games/{game_id}/rolls",
        ok="RollsPage",
        summary="The roll ledger",
        description="Every roll after k `after`: its dice, faces, purpose, rule and result; `verification` is "
        "`pending` until the referee reveals the server seed.",
    )
    def list_rolls(
        game_id: str = GAME_ID,
        after: int = Query(-1, ge=-1, le=2**53, description="the last k already read"),
        limit: int = Query(100, ge=1, le=MAX_PAGE),
    ):
        return JSON(svc.rolls(game_id, after, limit))

    @route(
        "GET",
        "/games/{game_id}/rolls/{k}",
        ok="RollOut",
        summary="One roll, verified once the seed is revealed",
        description="Roll k (0, 1, …): once the seed is revealed the server recomputes its faces from the seeds "
        "(`verified` or `mismatch`).",
    )
    def get_roll(game_id: str = GAME_ID, k: int = Path(ge=0, le=2**53)):
        return JSON(svc.roll(game_id, k))

    @route(
        "GET",
        "/games/{game_id}/views/{view}",
        ok="View",
        auth="optional",
        errors=(401, 404, 422),
        summary="A projection at the head, or at any past seq",
        description="`kind` (`<ruleset>/<view>`) says which schema `data` follows. Per-seat views show a seat "
        "what it may see.",
    )
    def get_view(
        request: Request,
        game_id: str = GAME_ID,
        view: str = Path(max_length=64),
        at: int | None = Query(None, ge=1, le=2**53),
    ):
        return JSON(svc.view(game_id, view, at, svc.reader_for(game_id, bearer(request))))

    @route(
        "GET",
        "/games/{game_id}/bundle",
        ok="Bundle",
        auth="optional",
        errors=(401, 404, 422),
        summary="The replay bundle (docs/bundles.md)",
        description="A sealed command's payload shows as `{\"sealed\": <commitment>}` until it is revealed, except "
        "to its own seat and the referee.",
    )
    def get_bundle(request: Request, game_id: str = GAME_ID):
        return JSON(svc.bundle_bytes(game_id, svc.reader_for(game_id, bearer(request))))

    # ---- verification ----

    verifying = asyncio.Semaphore(max(1, settings.verify_concurrency))

    @route(
        "POST",
        "/bundles/verify",
        ok="VerifyReport",
        body="Bundle",
        errors=(413, 415, 422, 429),
        summary="Verify a bundle: chain, dice, sealed records, replay",
        description=f"At most {settings.max_bundle_body} bytes, {settings.max_bundle_events} events and "
        f"{settings.max_dice_per_roll} dice per roll; {settings.verify_concurrency} at a time (429 otherwise).",
    )
    async def verify_bundle(request: Request):
        if verifying.locked():
            raise TooMany(
                "too-many-requests", "the server is verifying other bundles; retry in a few seconds", retry_after=5
            )
        async with verifying:
            raw = await request.body()
            try:
                bundle = await asyncio.to_thread(read_bundle, raw)
            except (msgspec.ValidationError, msgspec.DecodeError, RecursionError) as e:
                raise InvalidInput("invalid-bundle", f"the body is not an umpire-bundle/1 (docs/bundles.md): {e}")
            check_caps(bundle, settings)
            return JSON(await asyncio.to_thread(verify, bundle, svc.server_inputs_if_stored))

    # ---- documentation, served from the package (works offline) ----

    app.mount(DOCS_STATIC, StaticFiles(directory=_docs_static()), name="docs-static")
    mount_desk(app)

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="Naval Umpire — API",
            swagger_js_url=f"{DOCS_STATIC}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_STATIC}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_STATIC}/favicon.png",
        )

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return get_redoc_html(
            openapi_url="/openapi.json",
            title="Naval Umpire — API",
            redoc_js_url=f"{DOCS_STATIC}/redoc.standalone.js",
            redoc_favicon_url=f"{DOCS_STATIC}/favicon.png",
            with_google_fonts=False,
        )

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build_document(app, ops, settings)
        return app.openapi_schema

    app.openapi = openapi
    return app


def only_query(fn: Callable, route_app: Callable) -> Callable:
    """The route's ASGI app refusing query parameters the route does not take: a typo is told, not silently ignored.
    A request without a query string goes straight through."""
    known = {
        name
        for name, p in inspect.signature(fn).parameters.items()
        if type(p.default).__name__ == "Query"
    }

    async def checked(scope, receive, send) -> None:
        if scope.get("query_string"):
            sent = {k for k, _ in parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True)}
            unknown = sorted(sent - known)
            if unknown:
                raise InvalidInput(
                    "unknown-parameter",
                    f"this operation takes no query parameter {', '.join(map(repr, unknown))}"
                    + (f"; it takes {sorted(known)}" if known else ""),
                )
        await route_app(scope, receive, send)

    return checked


def ruleset_info(loaded) -> models.RulesetInfo:
    from domain.engine import command_schema

    r = loaded.ruleset
    return models.RulesetInfo(
        id=r.id,
        version=r.version,
        title=r.title,
        data_sha256=loaded.data_sha256,
        default_seats=r.default_seats(r.options_type()),
        commands=[
            models.CommandInfo(
                type=c.__struct_config__.tag,
                description=(c.__doc__ or "").strip(),
                sealed=bool(getattr(c, "sealed", False)),
                schema=command_schema(c),
            )
            for c in r.command_types
        ],
        views=[models.ViewInfo(name=n, per_seat=v.per_seat, description=v.description) for n, v in sorted(r.views.items())],
        options_schema=msgspec.json.schema(r.options_type),
    )


def read_bundle(raw: bytes):
    """The uploaded bundle. A `seqs` entry written `2.0` is the integer its schema allows (in a fork's parents too);
    the event bodies are read as they are, since their bytes are what the chain hashes."""
    try:
        return decode_bundle(raw)
    except msgspec.ValidationError:
        data = part = msgspec.json.decode(raw)
        while isinstance(part, dict):
            commands = part.get("commands")
            for c in commands if isinstance(commands, list) else []:
                if isinstance(c, dict) and "seqs" in c:
                    c["seqs"] = whole_numbers(c["seqs"])
            part = part.get("parent")
        return decode_bundle(data)


def check_caps(bundle, settings: Settings) -> None:
    if len(bundle.events) > settings.max_bundle_events:
        raise TooLarge(
            "bundle-too-large",
            f"this server verifies bundles of at most {settings.max_bundle_events} events; "
            f"this one has {len(bundle.events)}: verify it offline with `umpire verify`",
            limit=settings.max_bundle_events,
        )
    for e in bundle.events:
        if e.body.get("type") == "DiceRolled":
            sides = (e.body.get("data") or {}).get("sides")
            if isinstance(sides, list) and len(sides) > settings.max_dice_per_roll:
                raise TooLarge(
                    "bundle-too-large",
                    f"roll at seq {e.body.get('seq')} has {len(sides)} dice; this server checks at most "
                    f"{settings.max_dice_per_roll} per roll: verify it offline with `umpire verify`",
                    limit=settings.max_dice_per_roll,
                )


async def event_stream(svc: GameService, request: Request, game_id: str, after: int, timeout: int):
    """The log from `after` on, live. Reads the store (so events written by any process arrive); stops when the
    client goes away, and ends with `event: end` once the game is over."""
    seq = after
    deadline = time.monotonic() + timeout
    idle = 0.0
    while True:
        if await request.is_disconnected():
            return
        status = await asyncio.to_thread(svc.status, game_id)  # before the page: an end it reports is in the page
        page = await asyncio.to_thread(svc.events, game_id, seq, MAX_PAGE, None)
        for e in page["events"]:
            seq = e["seq"]
            yield f"id: {seq}\nevent: {e['type']}\ndata: {msgspec.json.encode(e).decode()}\n\n"
        if page["events"]:
            continue
        if status["status"] != "open":
            end = models.StreamEnd(**status)  # its schema is the one the OpenAPI gives
            yield f"event: end\ndata: {msgspec.json.encode(end).decode()}\n\n"
            return
        if time.monotonic() >= deadline:
            return
        await asyncio.sleep(0.2)
        idle += 0.2
        if idle >= 15:
            idle = 0.0
            yield ": keep-alive\n\n"


async def job_stream(jobs: OddsJobs, request: Request, job_id: str):
    """A job's progress until it is no longer running, then its result."""
    last = -1
    while not await request.is_disconnected():
        job = await asyncio.to_thread(jobs.get, job_id)
        if job["status"] != "running":
            yield f"event: result\ndata: {msgspec.json.encode(job).decode()}\n\n"
            return
        if job["done"] != last:
            last = job["done"]
            progress = models.JobProgress(done=last, games=job["games"])
            yield f"event: progress\ndata: {msgspec.json.encode(progress).decode()}\n\n"
        await asyncio.sleep(0.25)


def _docs_static() -> str:
    import fastapi_offline

    return str(FilePath(fastapi_offline.__file__).parent / "static")
