"""Notifications per reader (service/webhooks.py): register a webhook or an e-mail address, confirm an address, read,
remove, rotate a webhook's secret, send a ping; and the page a mail's links open (`add_mail_page`)."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Callable

from fastapi import FastAPI, Request, Response
from fastapi.responses import HTMLResponse

from service import models
from service.games import GameService
from service.http import JSON, bearer, client_of, decode
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
        errors=(401, 404, 413, 415, 422, 429),
        summary="Register this reader's notification target: a webhook or an e-mail address (replaces the previous)",
        description="With a seat's (or the referee's) token: notifications for that reader are POSTed to `url`, "
        "signed as Standard Webhooks specifies with the secret in the answer (shown only here). Targets at loopback, "
        "private, link-local, metadata and other non-public addresses are refused (422 `webhook-refused`, saying "
        "why) unless the operator allows them. Kinds: `your-turn`, `game-over`, `ping`, `deadline-warning`, "
        "`deadline-changed`, `deadline-expired` (docs/api.md). A `mailto:` address, where the server sends e-mail, "
        "is mailed a code and nothing more until the code is confirmed (`confirmed: false` until then).",
    )
    async def put_notifications(request: Request, game_id: str = GAME_ID):
        raw = await request.body()
        req = decode(raw, models.NotificationTarget, "PUT /games/{id}/notifications", at={"$.url": _refuse_url})
        who = reader(game_id, request)
        return JSON(await asyncio.to_thread(hooks.put, game_id, who, {"url": req.url}, client_of(request)))

    @route(
        "POST",
        PATH + "/confirm",
        ok="Notifications",
        body="AddressConfirmation",
        auth="required",
        errors=(401, 404, 413, 415, 422),
        summary="Confirm this reader's e-mail address with the code mailed to it",
        description="From now on notifications are mailed to it. A code that is not the one last mailed is 422 "
        "`confirmation-refused`; a webhook target has nothing to confirm (422 `webhook-refused`).",
    )
    async def confirm_notifications(request: Request, game_id: str = GAME_ID):
        raw = await request.body()
        req = decode(raw, models.AddressConfirmation, "POST /games/{id}/notifications/confirm")
        who = reader(game_id, request)
        return JSON(await asyncio.to_thread(hooks.confirm, game_id, who, req.code))

    @route(
        "GET",
        PATH,
        ok="Notifications",
        auth="required",
        errors=(401, 404, 422),
        summary="This reader's notification target and its latest deliveries",
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
        summary="Remove this reader's notification target",
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
        errors=(401, 404, 413, 415, 422, 429),
        summary="Send a ping to the target",
        description="Queued and delivered as any notification (retried if it fails; a webhook's signed, an "
        "address's as a mail once confirmed); GET shows how it went. No request body.",
    )
    async def test_notifications(request: Request, game_id: str = GAME_ID):
        who = reader(game_id, request)
        return JSON(await asyncio.to_thread(hooks.test, game_id, who), status_code=202)


_PARAM = re.compile(r"[A-Za-z0-9._~-]{1,64}")
# a confirmation's page names no seat: a game's creator names the seats of some rulesets, and the address is not
# confirmed yet (a stranger's, maybe)
_DONE = {
    "confirm": "Confirmed: notifications of game {game} will be mailed to {address}.",
    "stop": "Stopped: no more mail about game {game} (seat {reader}) will be sent to {address}. To have them again, "
    "register the address again from your client.",
}
_ASK = {
    "confirm": "Mail notifications of game {game} to {address}?",
    "stop": "Stop mail about game {game} (seat {reader}) to {address}?",
}
_BUTTON = {"confirm": "Confirm", "stop": "Stop these mails"}
_GONE = (
    "Nothing to do: this link is no longer good. The mails it was for were stopped already, a newer mail replaced "
    "it, or its game's notifications were removed."
)


def add_mail_page(app: FastAPI, svc: GameService) -> None:
    """`/mail`: where a notification mail's links lead (service/mail.py `Mailer.link`; no token, the link's code is
    the key). GET shows what the link would do, to which address, with a button, and changes nothing (mail scanners
    open links); POST does it: confirms the address or stops its mails, and is what a mail client's one-click
    unsubscribe sends (RFC 8058). Its answers are pages, not API answers, and it is not in the OpenAPI document."""

    def page(text: str, status: int = 200, form: str = "") -> HTMLResponse:
        body = (
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Naval Umpire</title>'
            '<meta name="viewport" content="width=device-width"></head><body><main>'
            f"<h1>Naval Umpire</h1><p>{html.escape(text)}</p>{form}</main></body></html>"
        )
        headers = {"Content-Security-Policy": "default-src 'none'; form-action 'self'", "Cache-Control": "no-store"}
        return HTMLResponse(body, status_code=status, headers={**headers, "Referrer-Policy": "no-referrer"})

    def params(request: Request) -> tuple[str, str, str, str] | None:
        q = request.query_params
        values = (q.get("game", ""), q.get("reader", ""), q.get("code", ""), q.get("do", ""))
        if not all(_PARAM.fullmatch(v) for v in values) or values[3] not in _DONE:
            return None
        return values

    bad = "This link is not one the server mailed: copy the whole link from the mail."

    @app.get("/mail", include_in_schema=False)
    async def mail_page(request: Request):
        p = params(request)
        if p is None:
            return page(bad, 400)
        game, who, code, action = p
        address = await asyncio.to_thread(svc.webhooks.peek, game, who, code)
        if address is None:
            return page(_GONE, 404)
        button = f'<form method="post"><button type="submit">{_BUTTON[action]}</button></form>'
        return page(_ASK[action].format(game=game, reader=who, address=address), form=button)

    @app.post("/mail", include_in_schema=False)
    async def mail_action(request: Request):
        p = params(request)
        if p is None:
            return page(bad, 400)
        game, who, code, action = p
        address = await asyncio.to_thread(svc.webhooks.by_link, game, who, code, action)
        if address is None:
            return page(_GONE, 404)
        return page(_DONE[action].format(game=game, reader=who, address=address))
