"""Probes for a load balancer or an orchestrator: GET /health/live (the process answers; no store access) and
GET /health/ready (the store answers a trivial query within READY_SECONDS), both cheap enough to poll every second
(docs/operations.md "Health and readiness")."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from service import ENGINE_VERSION, models
from service.games import GameService
from service.http import JSON, problem

READY_SECONDS = 1.0  # a store slower than this to answer `SELECT 1` is not ready


def add_routes(route: Callable, svc: GameService) -> None:
    @route(
        "GET",
        "/health/live",
        ok="Health",
        errors=(422,),
        summary="Is the process alive",
        description="200 while the process answers requests; it reads nothing from the store. For a liveness probe.",
    )
    def live():
        return JSON(models.Health(status="live", engine=ENGINE_VERSION))

    @route(
        "GET",
        "/health/ready",
        ok="Health",
        errors=(422, 503),
        summary="Can it serve games",
        description=(
            f"200 when the store answers a trivial query within {READY_SECONDS:g} s; otherwise 503 `not-ready` "
            "(problem+json, with Retry-After) saying what failed. For a readiness probe or a load balancer."
        ),
    )
    async def ready(request: Request):
        try:
            await asyncio.wait_for(run_in_threadpool(svc.store.ping), READY_SECONDS)
        except TimeoutError:
            return problem(
                503, "not-ready", f"the store did not answer within {READY_SECONDS:g} s", request.url.path, retry_after=1
            )
        except Exception as e:  # noqa: BLE001 - any failure of the store means not ready; say which
            return problem(503, "not-ready", f"the store failed: {type(e).__name__}: {e}", request.url.path, retry_after=1)
        return JSON(models.Health(status="ready", engine=ENGINE_VERSION))
