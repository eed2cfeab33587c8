"""Games: create and fork, find, read one, seats (join, token), seeds, commands, reveal and end. A command comes in
by two doors that answer alike: the route, and `LeanCommands` ahead of the framework (create_app adds it)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from fastapi import Query, Request
from starlette.responses import Response

from domain.engine import GAME_ID_RE, Rejected
from events.store import StoreUnavailable, WouldBlock
from service import metrics, models
from service.games import GameService, unavailable
from service.http import (
    JSON,
    Guards,
    PreconditionFailed,
    _encode,
    bearer,
    bearer_token,
    check_command_extras,
    client_of,
    decode,
    if_match_version,
    internal_error,
    rejected_problem,
    whole_numbers,
)
from service.logs import REQUEST_ID, request_id
from service.payloads import DeadlinesPayload
from service.reads import MAX_PAGE
from service.routes import GAME_ID, Conditional


def add_routes(route: Callable, svc: GameService, conditional: Conditional) -> None:
    """Registered with create_app's `route` (which describes each for the OpenAPI document), in this order."""

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
        # a `deadlines` its schema refuses (a `turn_seconds` out of 1..MAX_TURN_SECONDS, an unknown `on_expiry`, …)
        # is `invalid-deadlines`, as the rules' own checks of it and POST /games/{id}/deadlines answer (docs/api.md
        # "Errors"); anything else the schema refuses stays `invalid-request`
        req = decode(await request.body(), models.CreateGame, "POST /games", at={"$.deadlines": "invalid-deadlines"})
        req.options = whole_numbers(req.options)  # the ruleset reads them: `2.0` is the integer 2 there too
        client = client_of(request)
        out = await asyncio.to_thread(svc.creation.create_from_request, req, bearer(request), client)
        return JSON(out, status_code=201, headers={"Location": f"/games/{out['game_id']}"})

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
        client = client_of(request)
        out = await asyncio.to_thread(svc.creation.fork_from_request, game_id, req, bearer(request), client)
        return JSON(out, status_code=201, headers={"Location": f"/games/{out['game_id']}"})

    @route(
        "GET",
        "/games",
        ok="GamesPage",
        errors=(404, 422),
        summary="Find games (paged, newest first)",
        description="Filter by ruleset and status; follow `next_cursor` for the next page. A ruleset that this server "
        "does not serve and that no stored game plays is 404 `unknown-ruleset`, as at GET /rulesets/{id}: a name "
        "nothing matches, not an empty page.",
    )
    def list_games(
        ruleset: str | None = Query(None, max_length=64),
        status: str | None = Query(None, pattern="^(open|over|revealed)$"),
        cursor: str | None = Query(
            None, description="`next_cursor` of the previous page", json_schema_extra={"pattern": models.CURSOR}
        ),
        limit: int = Query(50, ge=1, le=MAX_PAGE),
    ):
        return JSON(svc.reads.list_games(ruleset, status, cursor, limit))

    @route(
        "GET",
        "/games/{game_id}",
        ok="GameSummary",
        auth="optional",
        errors=(401, 404, 422),
        etag=True,
        summary="Summary, with `awaiting`: the legal commands now",
        description="With a seat's token, `awaiting` shows that seat's own pending commands in a simultaneous step; "
        "everyone sees `waiting_for`.",
    )
    def get_game(request: Request, game_id: str = GAME_ID):
        reader = svc.reads.reader_for(game_id, bearer(request))
        return conditional(request, game_id, reader, lambda: svc.reads.summary(game_id, reader), "summary")

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
        return JSON(svc.reads.me(game_id, bearer(request)))

    @route(
        "POST",
        "/games/{game_id}/join",
        ok="SeatCredential",
        status=201,
        body="JoinSeat",
        tag="seats",
        errors=(403, 404, 409, 413, 415, 422, 503),
        summary="Take an open seat: its invitation for its token",
        description="A game created with `open_seats` hands its creator one invitation per seat a person plays, not "
        "tokens. Whoever sends an invitation here receives that seat's bearer token, shown only in this answer; the "
        "invitation is spent (403 `invalid-invitation` for a spent or unknown one). With `client_seed` or "
        "`passphrase` the seat's seed for the dice is recorded with the join (409 `seed-locked` or "
        "`seed-already-contributed`, the invitation unspent, where it can no longer be). The game begins when every "
        "seat is taken: until then commands are refused (409 `seats-open`) and bot seats wait.",
    )
    async def join_game(request: Request, game_id: str = GAME_ID):
        req = decode(await request.body(), models.JoinSeat, "POST /games/{id}/join")
        out = await asyncio.to_thread(svc.join, game_id, req.invitation, req.client_seed, req.passphrase)
        return JSON(out, status_code=201, headers={"Location": f"/games/{game_id}/me"})

    @route(
        "POST",
        "/games/{game_id}/invitation",
        ok="Invitation",
        body="JoinRequest",
        tag="seats",
        errors=(403, 404, 413, 415, 422),
        summary="What an invitation offers, before it is accepted",
        description="The open seat an invitation is for, the game's ruleset and `umpired`: whether the organiser's "
        "referee token reads the seats' sealed content before the rules open it. Nothing is spent: the invitation "
        "still joins (POST /games/{id}/join). 403 `invalid-invitation` for a spent or unknown one.",
    )
    async def read_invitation(request: Request, game_id: str = GAME_ID):
        req = decode(await request.body(), models.JoinRequest, "POST /games/{id}/invitation")
        return JSON(await asyncio.to_thread(svc.reads.invitation, game_id, req.invitation))

    @route(
        "POST",
        "/games/{game_id}/token",
        ok="SeatCredential",
        status=201,
        auth="required",
        tag="seats",
        errors=(401, 404, 413, 415, 422, 503),
        summary="Rotate this token: a new one for the same seat, the old one void at once",
        description="For a seat (or the referee) whose token may have leaked: the answer holds the new token; the old "
        "one is refused from then on, by every server process, and the streams opened with its tickets close. The "
        "seat's notification target (a webhook or an address), which whoever held the old token may have registered, "
        "is removed (`notifications_removed`): register it again with the new token. No request body.",
    )
    def rotate_token(request: Request, game_id: str = GAME_ID):
        out = svc.rotate_token(game_id, bearer(request))
        return JSON(out, status_code=201, headers={"Location": f"/games/{game_id}/me"})

    @route(
        "POST",
        "/games/{game_id}/seeds",
        ok="CommandResult",
        body="SeedRequest",
        auth="required",
        errors=(401, 403, 404, 409, 413, 415, 422, 503),
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
        if_match=True,
        errors=(401, 403, 404, 409, 412, 413, 415, 422, 503),
        summary="Send one command",
        description="`{type, ...arguments, command_id?, expected_version?}`. The answer carries the events it made and "
        "the new `awaiting`, so no extra read is needed. A retry with the same `command_id` appends nothing. "
        "In a game with open seats no command is taken until every seat is (409 `seats-open`, naming them). "
        '`If-Match` (the ETag of any read of this game, or `"<version>"`) is the HTTP form of `expected_version`: '
        "412 if the game has moved on.",
    )
    async def send_command(request: Request, game_id: str = GAME_ID):
        # served by LeanCommands below, ahead of the framework; this route answers what it hands on (a query string,
        # an id the pattern refuses, a server with CORS), and describes the operation in the OpenAPI
        answer = await run_command(svc, game_id, await request.body(), bearer(request), request.headers.get("if-match"))
        return JSON(answer)

    @route(
        "POST",
        "/games/{game_id}/reveal",
        ok="CommandResult",
        auth="required",
        errors=(401, 403, 404, 409, 413, 415, 422, 503),
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
        errors=(401, 403, 404, 409, 413, 415, 422, 503),
        summary="Referee: end the game without revealing the server seed",
        description="Every sealed record still closed is opened; the server seed stays secret until /reveal. "
        "No request body.",
    )
    def end_game(request: Request, game_id: str = GAME_ID):
        return JSON(svc.end(game_id, bearer(request)))

    @route(
        "POST",
        "/games/{game_id}/deadlines",
        ok="CommandResult",
        body="ChangeDeadlines",
        auth="required",
        errors=(401, 403, 404, 409, 413, 415, 422, 503),
        summary="Referee: change, pause or extend the turn clock",
        description="Recorded like every input. `turn_seconds` and `on_expiry` apply from now on (to running turns "
        "too); `paused: true` stops every clock, `paused: false` starts each awaited seat's turn again; `extend` adds "
        "seconds to the running turns of the seats it names. 409 `no-deadlines` for a game created without them.",
    )
    async def change_deadlines(request: Request, game_id: str = GAME_ID):
        # every refusal of the change is `invalid-deadlines`, its schema's bounds as the rules' (docs/api.md "Errors")
        req = decode(await request.body(), models.ChangeDeadlines, "POST /games/{id}/deadlines", "invalid-deadlines")
        change = DeadlinesPayload(
            turn_seconds=req.turn_seconds, on_expiry=req.on_expiry, paused=req.paused, extend=dict(req.extend)
        )
        return JSON(await asyncio.to_thread(svc.set_deadlines, game_id, bearer(request), change, req.command_id))


async def run_command(
    svc: GameService, game_id: str, raw: bytes, token: str | None, if_match: str | None = None
) -> dict[str, Any]:
    """POST /games/{id}/commands: the body checked (and `If-Match`, HTTP's expected_version: 412 when it fails), then
    the command, on the loop when that is shorter than the hop to a thread and back (a cached game close to the store,
    SQLite), else in a thread."""
    what = "a command is a JSON object {'type': ..., ...arguments}"
    body = decode(raw, dict, what, "invalid-command")  # its whole numbers ints
    if isinstance(body, dict):
        check_command_extras(body)
    expected = if_match_version(if_match)
    if expected is not None and isinstance(body, dict):
        if body.get("expected_version", expected) != expected:  # the game cannot be at both versions
            await asyncio.to_thread(svc.credentials.seat_for, game_id, token)  # 404, 401 first, as for any command
            version = (await asyncio.to_thread(svc.reads.status, game_id))["version"]
            raise PreconditionFailed(
                "version-conflict",
                f"If-Match names version {expected}, expected_version {body['expected_version']}, and the game is "
                f"at {version}; send one of them",
                version=version,
            )
        body = {**body, "expected_version": expected}
    started, outcome = time.perf_counter(), "error"
    try:
        with svc.store.session():  # the check runs_inline makes serves the command's reads (never across an await)
            if svc.runs_inline(game_id, note=True):
                try:
                    answer = svc.command(game_id, token, body)
                    outcome = "ok"
                    return answer
                except WouldBlock:  # another writer holds the lock: wait for it in a thread, never on the loop
                    pass
                finally:
                    svc.cache.checked = None  # a command refused before its sync leaves no check behind
        answer = await asyncio.to_thread(svc.command, game_id, token, body)
        outcome = "ok"
        return answer
    except Rejected as e:
        outcome = "unavailable" if e.status >= 500 else "refused"
        if expected is not None and e.code == "version-conflict":  # HTTP's answer to a failed If-Match
            raise PreconditionFailed(e.code, e.detail, **e.extra) from None
        raise
    finally:
        cached = svc.cache.states.get(game_id)
        metrics.command_done(cached.row.ruleset if cached is not None else "unknown", outcome, time.perf_counter() - started)


class LeanCommands:
    """`POST /games/{id}/commands` taken at the door, ahead of the framework and its middleware (docs/performance.md:
    they cost more than the command itself): the body read whole, msgspec in and out, the same answers and
    problem+json errors as the route (which still describes the operation and answers whatever is handed on to it: a
    query string, a game id the pattern refuses). Everything the layers it passes by do for a command it does itself,
    each from their owner: the request id (service.logs.request_id; RequestIds' wrapping of `send` would cost 0.5% of
    a command, counted), the guards (size, content type, body timeout: service.http.Guards), and the server-error
    middleware's 500, answered as problem+json and raised on for the server to log. Placed by service.app.App,
    outermost but for the proxy headers."""

    PREFIX, SUFFIX = "/games/", "/commands"

    def __init__(self, app, service: GameService, guards: Guards):
        self.app, self.svc, self.guards = app, service, guards

    async def __call__(self, scope, receive, send):
        path = scope.get("path", "")
        if (
            scope["type"] != "http"
            or scope["method"] != "POST"
            or not path.endswith(self.SUFFIX)
            or not path.startswith(self.PREFIX)
            or scope.get("query_string")
        ):
            return await self.app(scope, receive, send)
        game_id = path[len(self.PREFIX) : -len(self.SUFFIX)]
        if not GAME_ID_RE.fullmatch(game_id):
            return await self.app(scope, receive, send)
        rid = request_id(scope)
        token = REQUEST_ID.set(rid)
        header = (b"x-request-id", rid.encode())
        started = failed = False
        try:
            answer = await self._answer(scope, receive, path, game_id)
            if answer is None:
                return
            if isinstance(answer, Response):
                answer.raw_headers.append(header)
                started = True
                return await answer(scope, receive, send)
            started = True
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [
                        (b"content-type", b"application/json"), (b"content-length", str(len(answer)).encode()), header
                    ],
                }  # fmt: skip
            )
            await send({"type": "http.response.body", "body": answer})
        except Exception:
            failed = True
            if not started:  # as the framework's server-error middleware: the app's 500, and the error to the server
                problem = internal_error()
                problem.raw_headers.append(header)
                await problem(scope, receive, send)
            raise
        finally:
            if not failed:  # else kept (service.logs.RequestIds): the server's line about the error carries the id
                REQUEST_ID.reset(token)

    async def _answer(self, scope, receive, path: str, game_id: str) -> bytes | Response | None:
        """The answer's JSON, the problem that refuses the command, or None: the client went away before its body."""
        refused = self.guards.refusal(scope)
        body = refused if refused is not None else await self.guards.body(path, receive)
        if not isinstance(body, bytes):
            return body
        authorization = if_match = None
        for k, v in scope["headers"]:  # the first of a repeated header, as the route reads it
            if k == b"authorization" and authorization is None:
                authorization = v.decode("latin-1")
            elif k == b"if-match" and if_match is None:
                if_match = v.decode("latin-1")
        token = bearer_token(authorization or "")
        try:
            return _encode(await run_command(self.svc, game_id, body, token, if_match))
        except Rejected as e:
            return rejected_problem(e, path)
        except StoreUnavailable as e:
            return rejected_problem(unavailable(e), path)
