"""Webhooks per reader (service/webhooks.py): register, read, remove, rotate the secret, send a ping."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from fastapi import Request, Response

from service import models
from service.games import GameService
from service.http import JSON, bearer, decode
from service.routes import GAME_ID
from service.webhooks import parse_target

PATH = "/games/{game_id}/notifications"


def _refuse_url(url: object) -> None:
    """A `url` string the schema refuses (not http or https, empty, too long) is 422 `webhook-refused`, saying why, as
    a URL refused for where it points is (docs/api.md "Errors"); a `url` that is not a string, like a body of another
    shape (no `url`, an unknown field), stays `invalid-request`."""
    if type(url) is str:
        parse_target(url)  # webhook-refused, saying what is wrong with the URL


def add_routes(route: Callable, svc: GameService) -> None:
    hooks = svc.webhooks

    def reader(game_id: str, request: Request) -> str:
        return svc.credentials.seat_for(game_id, bearer(request))

    @route(
        "PUT",
        PATH,
        ok="NotificationRegistered",
        body="NotificationTarget",
        auth="required",
        errors=(401, 404, 413, 415, 422),
        summary="Register this reader's webhook target (replaces the previous one)",
        description="With a seat's (or the referee's) token: notifications for that reader are POSTed to `url`, "
        "signed as Standard Webhooks specifies with the secret in the answer (shown only here). Targets at loopback, "
        "private, link-local, metadata and other non-public addresses are refused (422 `webhook-refused`, saying "
        "why) unless the operator allows them. Kinds: `your-turn`, `game-over`, `ping`, `deadline-warning`, "
        "`deadline-expired` (docs/api.md).",
    )
    async def put_notifications(request: Request, game_id: str = GAME_ID):
        raw = await request.body()
        req = decode(raw, models.NotificationTarget, "PUT /games/{id}/notifications", at={"$.url": _refuse_url})
        who = reader(game_id, request)
        return JSON(await asyncio.to_thread(hooks.put, game_id, who, {"url": req.url}))

    @route(
        "GET",
        PATH,
        ok="Notifications",
        auth="required",
        errors=(401, 404, 422),
        summary="This reader's webhook target and its latest deliveries",
        description="404 `no-notifications` when the reader has none.",
    )
    async def get_notifications(request: Request, game_id: str = GAME_ID):
        who = reader(game_id, request)
        return JSON(await asyncio.to_thread(hooks.get, game_id, who))

    @route(
        "DELETE",
        PATH,
        status=204,
        auth="required",
        errors=(401, 404, 422),
        summary="Remove this reader's webhook target",
        description="Nothing more is delivered to it, including what was still being retried.",
    )
    async def delete_notifications(request: Request, game_id: str = GAME_ID):
        who = reader(game_id, request)
        await asyncio.to_thread(hooks.delete, game_id, who)
        return Response(status_code=204)

    @route(
        "POST",
        PATH + "/secret",
        ok="SecretRotated",
        status=201,
        auth="required",
        errors=(401, 404, 413, 415, 422),
        summary="Rotate the signing secret",
        description="A new secret signs from now on; for a day the previous one signs too (a second signature in "
        "`webhook-signature`), so a receiver can switch without losing a notification. No request body.",
    )
    async def rotate_notification_secret(request: Request, game_id: str = GAME_ID):
        who = reader(game_id, request)
        out = await asyncio.to_thread(hooks.rotate, game_id, who)
        # as every 201: where what it made is read (the registration, whose `rotation_overlap_until` it set)
        return JSON(out, status_code=201, headers={"Location": PATH.format(game_id=game_id)})

    @route(
        "POST",
        PATH + "/test",
        ok="PingQueued",
        status=202,
        auth="required",
        errors=(401, 404, 413, 415, 422),
        summary="Send a signed ping to the target",
        description="Queued and delivered as any notification (retried if it fails); GET shows how it went. No "
        "request body.",
    )
    async def test_notifications(request: Request, game_id: str = GAME_ID):
        who = reader(game_id, request)
        return JSON(await asyncio.to_thread(hooks.test, game_id, who), status_code=202)
