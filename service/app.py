"""The HTTP API (spec/API.md). Every error is application/problem+json with a stable `code`."""

from __future__ import annotations

import asyncio
import json
import os
import time
from typing import Any

import msgspec
from fastapi import Depends, FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.exceptions import HTTPException as StarletteHTTPException

from domain.engine import IllegalCommand, InvalidInput, Rejected, command_schema
from events.bundle import Bundle, decode_bundle
from events.store import Store
from service import ENGINE_VERSION, models
from service.games import MAX_PAGE, GameService, loaded_for
from service.replay import verify
from service.rulesets import RULESETS

PROBLEM = "application/problem+json"
MAX_BODY = int(os.environ.get("UMPIRE_MAX_BODY", 256 * 1024))
MAX_BUNDLE_BODY = int(os.environ.get("UMPIRE_MAX_BUNDLE_BODY", 64 * 1024 * 1024))
GAME_ID = Path(max_length=64, pattern="^[A-Za-z0-9._-]{1,64}$")
TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Payload too large",
    415: "Unsupported media type",
    422: "Unprocessable content",
    500: "Internal error",
}


class JSONBytes(Response):
    media_type = "application/json"


def problem(status: int, code: str, detail: str, instance: str | None = None, **extra: Any) -> JSONResponse:
    body = {
        "type": f"https://naval-umpire.invalid/problems/{code}",
        "title": TITLES.get(status, "Error"),
        "status": status,
        "code": code,
        "detail": detail,
        "instance": instance,
    }
    body.update({k: v for k, v in extra.items() if v is not None})
    return JSONResponse(body, status_code=status, media_type=PROBLEM)


class BodyLimit:
    """Refuse request bodies over the documented size with 413, whether or not Content-Length is sent."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = MAX_BUNDLE_BODY if scope["path"] == "/bundles/verify" else MAX_BODY
        declared = dict(scope.get("headers") or []).get(b"content-length")
        too_big = problem(413, "body-too-large", f"request bodies here are at most {limit} bytes", scope["path"])
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            return await too_big(scope, receive, send)
        seen = 0

        async def limited():
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    raise _TooBig()
            return msg

        try:
            await self.app(scope, limited, send)
        except _TooBig:
            await too_big(scope, receive, send)


class _TooBig(Exception):
    pass


def command_request_schema() -> dict[str, Any]:
    """The body of POST /games/{id}/commands: one of every ruleset's commands, plus the envelope fields."""
    variants = []
    for loaded in RULESETS.values():
        for cls in loaded.ruleset.command_types:
            tag = cls.__struct_config__.tag
            args = command_schema(cls)
            props = {
                "type": {"type": "string", "enum": [tag]},
                **args["properties"],
                "command_id": {
                    "type": "string",
                    "pattern": "^[A-Za-z0-9._:-]{1,64}$",
                    "description": "client-chosen id; a retry with the same id appends nothing",
                },
                "expected_version": {"type": "integer", "description": "409 version-conflict unless the game is at it"},
            }
            variants.append(
                {
                    "title": f"{loaded.ruleset.id}: {tag}",
                    "description": (cls.__doc__ or "").strip(),
                    "type": "object",
                    "properties": props,
                    "required": ["type", *args.get("required", [])],
                    "additionalProperties": False,
                }
            )
    return {"oneOf": variants}


def create_app(db_path: str | None = None, service: GameService | None = None) -> FastAPI:
    svc = service or GameService(Store(db_path or os.environ.get("UMPIRE_DB", "umpire.db")))
    app = FastAPI(
        title="Naval Umpire",
        version=ENGINE_VERSION,
        description=(
            "An event-sourced rules server for naval wargames. Every error is application/problem+json with a "
            f"stable `code`. Request bodies are limited to {MAX_BODY} bytes ({MAX_BUNDLE_BODY} for "
            f"/bundles/verify); pages to {MAX_PAGE} items."
        ),
        responses={422: {"model": models.Problem, "description": "invalid request"}},
        generate_unique_id_function=lambda route: route.name,
    )
    app.state.service = svc
    origins = [o.strip() for o in os.environ.get("UMPIRE_CORS_ORIGINS", "").split(",") if o.strip()]
    if origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=origins,
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "Content-Type", "Last-Event-ID"],
        )
    app.add_middleware(BodyLimit)
    bearer = HTTPBearer(auto_error=False, description="a seat's or the referee's token from POST /games")

    async def token(cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> str | None:
        return cred.credentials if cred else None

    @app.exception_handler(Rejected)
    async def rejected(request: Request, e: Rejected):
        legal = e.legal if isinstance(e, IllegalCommand) else None
        return problem(e.status, e.code, e.detail, request.url.path, legal=legal, **e.extra)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, e: RequestValidationError):
        parts = "; ".join(f"{'.'.join(str(x) for x in err['loc'])}: {err['msg']}" for err in e.errors()[:10])
        return problem(422, "invalid-request", f"fix these and send again: {parts}", request.url.path)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException):
        if e.status_code == 400:  # FastAPI's "error parsing the body": the same answer as for /commands
            return problem(422, "invalid-json", "the body is not JSON; send a JSON object", request.url.path)
        code = {404: "not-found", 405: "method-not-allowed"}.get(e.status_code, "http-error")
        detail = {404: "no such resource; GET / lists where to start", 405: "this method is not served here; see /docs"}
        resp = problem(e.status_code, code, detail.get(e.status_code, str(e.detail)), request.url.path)
        resp.headers.update(e.headers or {})  # e.g. Allow on a 405
        return resp

    @app.exception_handler(Exception)
    async def internal(request: Request, e: Exception):
        return problem(
            500,
            "internal-error",
            "the server failed; nothing was appended. Report it with the bundle.",
            request.url.path,
        )

    errors = {s: {"model": models.Problem, "description": TITLES[s]} for s in (401, 403, 404, 409, 413)}
    # reads are public; a seat's or the referee's token adds what that reader may see (API.md "Per-seat reads")
    optional_token = {"security": [{}, {"HTTPBearer": []}]}

    @app.get("/", response_model=models.Root, summary="Where to start")
    def root():
        return {
            "name": "Naval Umpire",
            "engine": ENGINE_VERSION,
            "docs": "/docs",
            "openapi": "/openapi.json",
            "rulesets": sorted(RULESETS),
        }

    def ruleset_info(loaded) -> dict[str, Any]:
        r = loaded.ruleset
        return {
            "id": r.id,
            "version": r.version,
            "title": r.title,
            "data_sha256": loaded.data_sha256,
            "default_seats": r.default_seats(r.options_type()),
            "commands": [{"type": c.__struct_config__.tag, "schema": command_schema(c)} for c in r.command_types],
            "views": sorted(r.views),
            "options_schema": msgspec.json.schema(r.options_type),
        }

    @app.get("/rulesets", response_model=list[models.RulesetInfo], summary="What can be played")
    def list_rulesets():
        return [ruleset_info(x) for x in RULESETS.values()]

    @app.get("/rulesets/{ruleset_id}", response_model=models.RulesetInfo, responses=errors, summary="One ruleset")
    def get_ruleset(ruleset_id: str = Path(max_length=64)):
        return ruleset_info(loaded_for(ruleset_id))

    @app.post(
        "/games", status_code=201, response_model=models.GameCreatedOut, responses=errors, summary="Create a game"
    )
    def create_game(req: models.CreateGame):
        return svc.create(
            req.ruleset,
            req.options,
            req.seats,
            req.dice.mode,
            getattr(req.dice, "server_seed", None),
            req.dice.client_seeds,
            req.dice.beacon,
        )

    @app.post(
        "/games/{game_id}/seeds",
        response_model=models.CommandResult,
        responses=errors,
        summary="A seat contributes its client seed (before the seed locks)",
    )
    def contribute_seed(req: models.SeedRequest, game_id: str = GAME_ID, tok: str | None = Depends(token)):
        return svc.contribute_seed(game_id, tok, req.client_seed, req.passphrase, req.command_id)

    @app.post(
        "/games/{game_id}/commands",
        response_model=models.CommandResult,
        responses=errors,
        summary="Send one command",
        openapi_extra={
            "security": [{"HTTPBearer": []}],
            "requestBody": {"required": True, "content": {"application/json": {"schema": command_request_schema()}}},
        },
    )
    async def send_command(request: Request, game_id: str = GAME_ID):
        # the hottest path: the bearer token is read here rather than through dependency injection
        scheme, _, tok = request.headers.get("authorization", "").partition(" ")
        tok = tok.strip() if scheme.lower() == "bearer" else None
        raw = await request.body()
        try:
            body = msgspec.json.decode(raw)
        except msgspec.DecodeError:
            raise InvalidInput("invalid-json", "the body is not JSON; send a JSON object {'type': ..., ...}")
        # Run on the event loop: a command is a few hundred microseconds of Python and a WAL commit that does not
        # fsync (synchronous=NORMAL); a thread hop would cost more than it frees. The result is built by the
        # service to the CommandResult schema, so it is encoded as is.
        return JSONBytes(msgspec.json.encode(svc.command(game_id, tok, body)))

    @app.get(
        "/games/{game_id}",
        response_model=models.GameSummary,
        responses=errors,
        summary="Summary, with `awaiting`: the legal commands now",
        openapi_extra=optional_token,
    )
    def get_game(game_id: str = GAME_ID, tok: str | None = Depends(token)):
        return svc.summary(game_id, svc.reader_for(game_id, tok))

    @app.get("/games/{game_id}/events", response_model=models.EventsPage, responses=errors, summary="The log, paged")
    def list_events(game_id: str = GAME_ID, after: int = Query(0, ge=0), limit: int = Query(100, ge=1, le=MAX_PAGE)):
        return svc.events(game_id, after, limit)

    @app.get(
        "/games/{game_id}/events/stream",
        responses={
            **errors,
            200: {
                "content": {"text/event-stream": {}},
                "description": "Server-Sent Events: `id` is the seq, `event` the type, `data` the stored event",
            },
        },
        summary="The log, live (SSE), resumable with Last-Event-ID",
    )
    async def stream_events(
        request: Request,
        game_id: str = GAME_ID,
        after: int = Query(0, ge=0),
        timeout: int = Query(
            300, ge=0, le=3600, description="seconds to wait for new events; 0: the backlog, then close"
        ),
    ):
        svc.summary(game_id)  # 404 before the stream starts
        last = request.headers.get("last-event-id")
        start = int(last) if last and last.isdigit() else after

        async def gen():
            seq = start
            deadline = time.monotonic() + timeout
            idle = 0.0
            while True:
                rows = await asyncio.to_thread(svc.store.events, game_id, seq, None, MAX_PAGE)
                for r in rows:
                    seq = r.seq
                    yield f"id: {r.seq}\nevent: {r.type}\ndata: {json.dumps(svc.event_row_out(r), separators=(',', ':'))}\n\n"
                if rows:
                    continue
                if time.monotonic() >= deadline or await request.is_disconnected():
                    return
                await asyncio.sleep(0.2)
                idle += 0.2
                if idle >= 15:
                    idle = 0.0
                    yield ": keep-alive\n\n"

        return StreamingResponse(gen(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    @app.get("/games/{game_id}/rolls", response_model=models.RollsPage, responses=errors, summary="The roll ledger")
    def list_rolls(
        game_id: str = GAME_ID,
        after: int = Query(-1, ge=-1, description="the last k already read"),
        limit: int = Query(100, ge=1, le=MAX_PAGE),
    ):
        return svc.rolls(game_id, after, limit)

    @app.get("/games/{game_id}/rolls/{k}", response_model=models.RollOut, responses=errors, summary="One roll")
    def get_roll(game_id: str = GAME_ID, k: int = Path(ge=0, le=2**53)):
        return svc.roll(game_id, k)

    @app.get(
        "/games/{game_id}/views/{view}",
        response_model=models.ViewOut,
        responses=errors,
        summary="A projection at the head, or at any past seq",
        openapi_extra=optional_token,
    )
    def get_view(
        game_id: str = GAME_ID,
        view: str = Path(max_length=64),
        at: int | None = Query(None, ge=1, le=2**53),
        tok: str | None = Depends(token),
    ):
        return svc.view(game_id, view, at, svc.reader_for(game_id, tok))

    @app.post(
        "/games/{game_id}/reveal",
        response_model=models.CommandResult,
        responses=errors,
        summary="Referee: publish the server seed; the game is closed from then on",
    )
    def reveal(game_id: str = GAME_ID, tok: str | None = Depends(token)):
        return svc.reveal(game_id, tok)

    @app.post(
        "/games/{game_id}/end",
        response_model=models.CommandResult,
        responses=errors,
        summary="Referee: end the game without revealing the server seed",
    )
    def end_game(game_id: str = GAME_ID, tok: str | None = Depends(token)):
        return svc.end(game_id, tok)

    @app.get(
        "/games/{game_id}/bundle",
        responses={
            **errors,
            200: {
                "description": "the bundle (spec/EVENTS.md)",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Bundle"}}},
            },
        },
        summary="The replay bundle",
        openapi_extra=optional_token,
    )
    def get_bundle(game_id: str = GAME_ID, tok: str | None = Depends(token)):
        return JSONResponse(svc.bundle(game_id, svc.reader_for(game_id, tok)))

    @app.post(
        "/bundles/verify",
        response_model=models.VerifyReport,
        responses=errors,
        summary="Verify a bundle: chain, dice, replay",
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Bundle"}}},
            }
        },
    )
    async def verify_bundle(request: Request):
        raw = await request.body()
        try:
            bundle = decode_bundle(raw)
        except (msgspec.ValidationError, msgspec.DecodeError) as e:
            raise InvalidInput("invalid-bundle", f"the body is not an umpire-bundle/1 (spec/EVENTS.md): {e}")
        return await asyncio.to_thread(verify, bundle, svc.server_inputs_if_stored)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            _problems_as_problem_json(doc)
            # the bundle's schema is the Structs that decode it (events/bundle.py), not a second copy
            _, components = msgspec.json.schema_components([Bundle], ref_template="#/components/schemas/{name}")
            doc["components"]["schemas"].update(components)
            _link_created_game(doc)
            app.openapi_schema = doc
        return app.openapi_schema

    app.openapi = openapi
    return app


def _problems_as_problem_json(doc: dict[str, Any]) -> None:
    """Errors are served as application/problem+json: say so, and drop FastAPI's unused validation schemas."""
    ref = {"$ref": "#/components/schemas/Problem"}
    for ops in doc["paths"].values():
        for op in ops.values():
            for resp in op["responses"].values():
                content = resp.get("content", {})
                if content.get("application/json", {}).get("schema") == ref:
                    resp["content"] = {PROBLEM: {"schema": ref}}
    for name in ("HTTPValidationError", "ValidationError"):
        doc["components"]["schemas"].pop(name, None)


def _link_created_game(doc: dict[str, Any]) -> None:
    """OpenAPI links from a created game to what can be done with it (clients and stateful fuzzers follow them)."""
    game_id = {"game_id": "$response.body#/game_id"}
    links = {}
    for path, ops in doc["paths"].items():
        if path.startswith("/games/{game_id}"):
            for method, op in ops.items():
                links[op["operationId"]] = {"operationId": op["operationId"], "parameters": game_id}
    doc["paths"]["/games"]["post"]["responses"]["201"]["links"] = links
