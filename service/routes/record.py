"""The record of a game: its log (paged and live, with the tickets that open a reader's own stream), the rolls, the
views and the bundle."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import msgspec
from fastapi import Path, Query, Request
from fastapi.responses import StreamingResponse
from starlette.background import BackgroundTask

from domain.engine import InvalidInput, Reader, Rejected
from service import metrics, models
from service.games import GameService
from service.http import JSON, BadRequest, bearer
from service.reads import MAX_PAGE, SINCE_PAGE
from service.routes import GAME_ID, Conditional


def add_routes(route: Callable, svc: GameService, conditional: Conditional) -> None:
    """Registered with create_app's `route` (which describes each for the OpenAPI document), in this order."""

    @route(
        "GET",
        "/games/{game_id}/events",
        ok="EventsPage",
        auth="optional",
        errors=(401, 404, 422),
        etag=True,
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
        reader = svc.reads.reader_for(game_id, bearer(request))
        return conditional(request, game_id, reader, lambda: svc.reads.events(game_id, after, limit, reader))

    @route(
        "GET",
        "/games/{game_id}/since",
        ok="Since",
        auth="optional",
        errors=(401, 404, 422),
        etag=True,
        summary="Since my last turn: what happened after a version, and its digest in plain words",
        description="The events after `version` (the last version this reader saw: a summary's, a command "
        "answer's or a `your-turn` webhook's), each as GET /events shows it to this reader, and `digest`: the "
        "ruleset's account of them in plain words, a line per meaningful event, saying only what this reader may "
        "read (without a token, the public's; a seat's token adds its own sealed content). At most `limit` events: "
        "`more` says there are others after `upto`, read with `version=upto`. A version beyond the game's is 422 "
        "`invalid-version`.",
    )
    def since(
        request: Request,
        game_id: str = GAME_ID,
        version: int = Query(ge=0, le=2**53, description="the last version this reader saw (0: from the start)"),
        limit: int = Query(SINCE_PAGE, ge=1, le=SINCE_PAGE, description="events in this answer, at most"),
    ):
        reader = svc.reads.reader_for(game_id, bearer(request))
        return conditional(request, game_id, reader, lambda: svc.reads.since(game_id, version, limit, reader))

    @route(
        "POST",
        "/games/{game_id}/tickets",
        ok="Ticket",
        status=201,
        auth="required",
        tag="live",
        errors=(401, 404, 413, 415, 422),
        summary="A ticket to open this reader's own stream (a browser's EventSource sends no Authorization header)",
        description="The ticket opens `GET /games/{id}/events/stream?ticket=` within `expires_in` seconds, as the "
        "token's seat (its own sealed content, its own `awaiting`) or the referee (everything); the stream then lives "
        "as long as the token: rotating the token closes it. One stream at a time: while a stream is open with a "
        "ticket, another connection with it is refused (409 `ticket-in-use`); once it closes, the ticket may open "
        "one again within its time (a dropped connection resuming). Clients ask for a new ticket at every "
        "(re)connection. No request body.",
    )
    def make_ticket(request: Request, game_id: str = GAME_ID):
        out = svc.credentials.ticket(game_id, bearer(request))
        return JSON(out, status_code=201, headers={"Location": out["stream"]})

    @route(
        "GET",
        "/games/{game_id}/events/stream",
        stream="StreamMessage",
        last_event_id=True,
        auth="optional",
        tag="live",
        errors=(400, 401, 404, 409, 422),
        summary="The log, live (Server-Sent Events) as one reader may read it, resumable with Last-Event-ID",
        description="Unnamed messages (`EventSource.onmessage` gets them all), `data` a JSON object whose `message` "
        "says what it is: `event` (`id` = its seq, `event` the event object: schema `Event`), `state` (sent once every "
        "event up to `version` is sent: on opening, after each command's events and when a seat is taken; this "
        "reader's `awaiting`, `waiting_for`, `open_seats` and `status`, so a client never polls) and `end` (the game is over; the stream closes). "
        "Whose stream: with `Authorization: Bearer <token>` that token's reader, as every read of the game (a "
        "token not of this game's is 401); with `?ticket=` from POST /games/{id}/tickets (for a browser's "
        "EventSource, which sends no header) that ticket's seat or the referee, one stream per ticket (409 "
        "`ticket-in-use`); both: they must stand for the same reader (400 `reader-conflict`), and the ticket's rule "
        "holds; neither: the public (sealed records as commitments only). A stream read with a token closes once "
        "that token is rotated. `named=true` adds an `event:` line (the event's "
        "type, `state`, `end`) for clients that listen by name. The stream starts with `retry:` and sends a comment "
        "every 15 s when idle. `timeout=0` sends the backlog and its state, then closes. An `after` (or "
        "`Last-Event-ID`) beyond the game's version is 422 `invalid-version`.",
    )
    async def stream_events(
        request: Request,
        game_id: str = GAME_ID,
        after: int = Query(0, ge=0, le=2**53, description="the seq of the last event already read"),
        timeout: int = Query(300, ge=0, le=3600, description="seconds to wait for new events; 0: the backlog only"),
        ticket: str | None = Query(
            None, max_length=128, description="from POST /games/{id}/tickets: read as its seat (or the referee)"
        ),
        named: bool = Query(False, description="add `event: <name>` to each message (the event's type, state, end)"),
    ):
        version = (await asyncio.to_thread(svc.reads.summary, game_id))["version"]  # 404 before the stream starts
        last = request.headers.get("last-event-id")
        if last is not None:
            if not last.isdigit() or len(last) > 16:
                raise BadRequest("invalid-last-event-id", "Last-Event-ID is the seq of the last event you received")
            after = int(last)
        if after > version:  # else the stream would wait for seqs past it, skip the events up to it, mislabel states
            raise beyond_head(after, version, "Last-Event-ID" if last is not None else "after")
        token = bearer(request)
        close: Callable[[], None] = lambda: None  # noqa: E731 - the ticket's lease, once taken
        reader = None
        if ticket is not None or token is not None:
            reader, close = await asyncio.to_thread(stream_reader, svc, game_id, token, ticket)
        return StreamingResponse(
            event_stream(svc, request, game_id, after, timeout, reader, ticket, named, close, token),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache"},
            background=BackgroundTask(close),  # also when the stream never started (closing twice is harmless)
        )

    @route(
        "GET",
        "/games/{game_id}/rolls",
        ok="RollsPage",
        auth="optional",
        errors=(401, 404, 422),
        etag=True,
        summary="The roll ledger",
        description="Every roll after k `after`: its dice, faces, purpose, rule and result; `verification` is "
        "`pending` until the referee reveals the server seed.",
    )
    def list_rolls(
        request: Request,
        game_id: str = GAME_ID,
        after: int = Query(-1, ge=-1, le=2**53, description="the last k already read"),
        limit: int = Query(100, ge=1, le=MAX_PAGE),
    ):
        svc.reads.reader_for(game_id, bearer(request))  # the ledger is public; a token, if sent, must be this game's
        return conditional(request, game_id, None, lambda: svc.reads.rolls(game_id, after, limit))

    @route(
        "GET",
        "/games/{game_id}/rolls/{k}",
        ok="RollOut",
        auth="optional",
        errors=(401, 404, 422),
        etag=True,
        summary="One roll, verified once the seed is revealed",
        description="Roll k (0, 1, …): once the seed is revealed the server recomputes its faces from the seeds "
        "(`verified` or `mismatch`).",
    )
    def get_roll(request: Request, game_id: str = GAME_ID, k: int = Path(ge=0, le=2**53)):
        svc.reads.reader_for(game_id, bearer(request))
        return conditional(request, game_id, None, lambda: svc.reads.roll(game_id, k))

    @route(
        "GET",
        "/games/{game_id}/views/{view}",
        ok="View",
        auth="optional",
        errors=(401, 404, 422),
        etag=True,
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
        reader = svc.reads.reader_for(game_id, bearer(request))
        return conditional(request, game_id, reader, lambda: svc.reads.view(game_id, view, at, reader))

    @route(
        "GET",
        "/games/{game_id}/bundle",
        ok="Bundle",
        auth="optional",
        errors=(401, 404, 422, 429),
        etag=True,
        summary="The replay bundle (docs/bundles.md)",
        description="A sealed command's payload shows as `{\"sealed\": <commitment>}` until it is revealed, whoever "
        "asks: the same file for every reader (a token of another game is still 401).",
    )
    def get_bundle(request: Request, game_id: str = GAME_ID):
        svc.reads.reader_for(game_id, bearer(request))  # a token, if sent, must be this game's
        return conditional(request, game_id, None, lambda: svc.bundles.bundle_bytes(game_id), "bundle")


def stream_reader(
    svc: GameService, game_id: str, token: str | None, ticket: str | None
) -> tuple[Reader, Callable[[], None]]:
    """Whom a stream reads as, and what frees its ticket's lease. A bearer token reads as every read of the game reads
    it (`reader_for`: a seat as itself, the referee as `reads_as` says; 401 for a token not of this game's seats); a
    ticket as its seat, its stream then the one open with it (409 `ticket-in-use` if another is). Both may come (a
    client whose every request carries its token, asking for a ticket as docs/api.md shows): then they must stand for
    the same seat (400 `reader-conflict` otherwise, nothing taken), and the ticket's lease holds."""
    if ticket is None:
        return svc.reads.reader_for(game_id, token), lambda: None
    seat, close = svc.credentials.open_stream(game_id, ticket, token)  # the checks in that order, then the lease
    return svc.reads.reads_as(game_id, seat), close


def beyond_head(after: int, version: int, sent: str) -> InvalidInput:
    """A resume point past the game's version (as /since's `version`): no seq of this game, so nothing to resume
    after; refused before the stream starts (a ticket's lease is not taken)."""
    return InvalidInput(
        "invalid-version",
        f"{sent} {after} is beyond this game's version {version}: send the seq of the last event you read of this "
        f"game, 0 to {version} (0 reads the game from the start)",
    )


RETRY_MS = 2000  # what the stream asks an EventSource to wait before reconnecting
KEEP_ALIVE = 15.0  # seconds between comments on an idle stream


def sse(data: Any, seq: int | None = None, name: str | None = None) -> str:
    """One Server-Sent Events message: unnamed unless the client asked for names (`?named=true`)."""
    head = (f"id: {seq}\n" if seq is not None else "") + (f"event: {name}\n" if name else "")
    return f"{head}data: {msgspec.json.encode(data).decode()}\n\n"


async def event_stream(
    svc: GameService,
    request: Request,
    game_id: str,
    after: int,
    timeout: int,
    reader: str | None = None,
    ticket: str | None = None,
    named: bool = False,
    close: Callable[[], None] = lambda: None,
    token: str | None = None,
):
    """The log from `after` on, live, as `reader` may read it (None: the public). Reads the store (so events written
    by any process arrive). Every time it has sent every event up to a version it sends that reader's state at that
    version; it stops when the client goes away or the token (the ticket's, or the bearer `token`) is rotated, and
    ends with an `end` message once the game is over."""
    seq = after
    sent_state = None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    quiet_until = loop.time() + KEEP_ALIVE
    woken = False  # the last wait ended with a wake (an append, a join, a rotation), not its time
    sub = svc.notifier.subscribe(game_id)  # before the first read: an append after it wakes the wait below
    metrics.STREAMS_OPEN.inc()
    try:
        while True:
            if await request.is_disconnected() or svc.notifier.closing:  # a client gone mid-backlog: one page
                return
            if sent_state is None:
                yield f"retry: {RETRY_MS}\n\n"
            # first: its version bounds the page
            state = await asyncio.to_thread(svc.reads.stream_state, game_id, reader)
            # before sending anything more, and when woken with nothing to send (a rotation wakes its game's streams)
            if (seq < state["version"] or woken) and (ticket is not None or token is not None):
                try:  # the token (the ticket's) was rotated: the stream closes before sending anything more
                    if ticket is not None:
                        await asyncio.to_thread(svc.credentials.ticket_reader, game_id, ticket, False)
                    else:
                        await asyncio.to_thread(svc.credentials.seat_for, game_id, token)
                except Rejected:
                    return
            page = await asyncio.to_thread(svc.reads.events_upto, game_id, seq, state["version"], reader)
            for e in page:
                seq = e["seq"]
                yield sse({"message": "event", "event": e}, seq, e["type"] if named else None)
            if seq < state["version"]:
                continue  # more than a page behind: the next page first
            if sent_state != (says := (state["version"], state["open_seats"])):
                sent_state = says  # (never None from here on: `retry:` goes out once); a join moves no version
                yield sse(state, seq, "state" if named else None)
            if state["status"] != "open":
                end = models.StreamEnd(
                    message="end", status=state["status"], version=state["version"], head=state["head"]
                )
                yield sse(end, None, "end" if named else None)
                return
            woken = False
            while not woken:  # woken by the notifier (service/notify.py) when the log may have grown: no polling
                now = loop.time()
                if now >= deadline:
                    return
                woken = await sub.wait(min(deadline, quiet_until) - now)
                if svc.notifier.closing:  # the server is stopping (service.notify.shutting_down)
                    return
                if not woken and loop.time() >= quiet_until:
                    quiet_until = loop.time() + KEEP_ALIVE
                    yield ": keep-alive\n\n"
    finally:
        metrics.STREAMS_OPEN.dec()
        svc.notifier.unsubscribe(sub)
        try:
            await asyncio.to_thread(close)  # the ticket is free for a reconnection within its time
        except Exception:  # noqa: BLE001 - a lease not freed runs out with the ticket anyway
            pass
