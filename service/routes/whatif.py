"""What-if: the odds from a position as a bounded job (POST /games/{id}/odds, GET /jobs/{id}, its stream)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import msgspec
from fastapi import Path, Request
from fastapi.responses import StreamingResponse

from service import models
from service.games import GameService
from service.http import JSON, bearer, decode
from service.routes import GAME_ID
from service.whatif import JOB_ID_RE, OddsJobs, job_key

# the id's form in the document only: an id of another form names no job, 404 `unknown-job` as an unknown one (not a
# 422 about a pattern: OddsJobs.get)
JOB_ID = Path(description="a job's id", json_schema_extra={"pattern": f"^{JOB_ID_RE.pattern}$", "maxLength": 64})


def add_routes(route: Callable, svc: GameService) -> None:
    """Registered with create_app's `route` (which describes each for the OpenAPI document), in this order."""

    jobs = OddsJobs(svc)

    @route(
        "POST",
        "/games/{game_id}/odds",
        ok="OddsJob",
        status=202,
        body="OddsRequest",
        errors=(404, 409, 413, 415, 422, 429),
        summary="The odds from a position: continuations played by the bot (a bounded job)",
        description=f"At most {models.MAX_API_GAMES} games; one job at a time per server process (429 otherwise). "
        "Follow `stream` for progress; the result gives, per figure the ruleset reports, a quantity's distribution, "
        "histogram and the real game's value with its percentile, and a category's shares and the real game's "
        "category (never a mean of codes). Without a token (or with the referee's, or once the game is over) "
        "the odds are the public picture's: from the game's public bundle, at any position whose closed seals its log "
        "opens later (every position of a finished game), refused (409 `fork-sealed`) where a sealed record is closed "
        "and not yet opened (a game still being played). With a seat's token in a game not yet over they are that "
        "seat's own: from "
        "any seq that ends a command, from what the seat may read, what it may not (the other side's sealed orders, "
        "fog, the server seed) re-drawn for every continuation (`redrawn` in the result says what); that job and its "
        "stream are then readable with that seat's token only.",
    )
    async def start_odds(request: Request, game_id: str = GAME_ID):
        req = decode(await request.body(), models.OddsRequest, "POST /games/{id}/odds")
        token = bearer(request)
        seat = await asyncio.to_thread(svc.credentials.seat_for, game_id, token) if token else None
        started = await asyncio.to_thread(jobs.start, game_id, req.at, req.games, req.seed, seat)
        return JSON(started, status_code=202)

    @route(
        "GET",
        "/jobs/{job_id}",
        ok="OddsJob",
        summary="A job's progress and result",
        description="`status` is `running` until the job is `done` (then `result` holds the odds), `failed` (`error` "
        "says why) or `lost` (its process stopped). A seat's own odds (`as_seat`) are readable with that seat's token "
        "only (404 to anyone else).",
    )
    def get_job(request: Request, job_id: str = JOB_ID):
        return JSON(jobs.get(job_id, bearer(request)))

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
        await asyncio.to_thread(jobs.get, job_id, bearer(request))  # 404 before the stream starts
        return StreamingResponse(job_stream(jobs, request, job_id), media_type="text/event-stream")


async def job_stream(jobs: OddsJobs, request: Request, job_id: str):
    """A job's progress until it is no longer running, then its result."""
    last = -1
    sub = jobs.svc.notifier.subscribe(job_key(job_id))  # woken by its progress; a job in another process: each second
    try:
        while not (await request.is_disconnected() or jobs.svc.notifier.closing):  # closing: the server is stopping
            job = await asyncio.to_thread(jobs.get, job_id, bearer(request))
            if job["status"] != "running":
                yield f"event: result\ndata: {msgspec.json.encode(job).decode()}\n\n"
                return
            if job["done"] != last:
                last = job["done"]
                progress = models.JobProgress(done=last, games=job["games"])
                yield f"event: progress\ndata: {msgspec.json.encode(progress).decode()}\n\n"
            await sub.wait(1.0)
    finally:
        jobs.svc.notifier.unsubscribe(sub)
