"""What can be played: GET /, GET /rulesets, GET /rulesets/{id}, GET /rulesets/{id}/seats."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import msgspec
from fastapi import Path, Query, Request
from fastapi.responses import RedirectResponse, Response

from domain import engine
from service import ENGINE_VERSION, models
from service.games import GameService
from service.http import JSON, decode
from service.rulesets import loaded_for


def add_routes(route: Callable, svc: GameService) -> None:
    """Registered with create_app's `route` (which describes each for the OpenAPI document), in this order."""

    @route(
        "GET",
        "/",
        ok="Root",
        errors=(422,),
        summary="Where to start",
        description="The engine version, the rulesets served and where the documentation lives. A browser (whose "
        "`Accept` leads with `text/html`) is sent to the desk instead (303 to `/desk/`).",
    )
    def root(request: Request):
        vary = {"Vary": "Accept"}  # the answer depends on it: a cache keeps the two apart
        if request.headers.get("accept", "").lstrip().startswith("text/html"):  # a person at the banner's address
            return RedirectResponse("/desk/", status_code=303, headers=vary)
        return JSON(
            models.Root(
                name="Naval Umpire",
                engine=ENGINE_VERSION,
                docs="/docs",
                openapi="/openapi.json",
                desk="/desk",
                rulesets=sorted(svc.rulesets),
            ),
            headers=vary,
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
        return JSON([ruleset_info(x) for x in svc.rulesets.values()])

    ruleset_bodies: dict[str, tuple[bytes, str]] = {}  # id -> (its encoded info, its ETag): fixed while it runs

    @route(
        "GET",
        "/rulesets/{ruleset_id}",
        ok="RulesetInfo",
        etag=True,
        summary="One ruleset: commands, views, options",
        description="Its version and data set hash, default seats, each command with its argument schema (the static "
        "one: `awaiting` sends a narrowed one only where it lists no choices), each view and the options a new game "
        "takes (`options_schema`). It changes only with the engine, so a client keeps it by its `ETag`.",
    )
    def get_ruleset(request: Request, ruleset_id: str = Path(max_length=64)):
        known = ruleset_bodies.get(ruleset_id)
        if known is None:
            body = msgspec.json.encode(ruleset_info(loaded_for(svc.rulesets, ruleset_id)))
            known = ruleset_bodies[ruleset_id] = (body, f'"r-{hashlib.sha256(body).hexdigest()[:32]}"')
        body, etag = known
        headers = {"ETag": etag, "Cache-Control": "no-cache"}  # revalidate: another engine may serve it next
        if etag in (t.strip() for t in request.headers.get("if-none-match", "").split(",")):
            return Response(status_code=304, headers=headers)
        return JSON(body, headers=headers)

    @route(
        "GET",
        "/rulesets/{ruleset_id}/seats",
        ok="RulesetSeats",
        errors=(404, 422),
        summary="The seats a game gets with these options",
        description="The seats POST /games gives a game of this ruleset with these `options` when it names none "
        "(corvette-command's `two_player` makes two escorts of its one captain): what a lobby offers to seat people "
        "or bots in before it creates the game. `options` is the options object as JSON (default `{}`); options the "
        "ruleset does not take are 422 `invalid-options`, as POST /games answers them.",
    )
    def get_ruleset_seats(
        ruleset_id: str = Path(max_length=64),
        options: str = Query("{}", max_length=4096, description="the options object, as JSON"),
    ):
        r = loaded_for(svc.rulesets, ruleset_id).ruleset
        given = decode(
            options.encode(), dict, 'options is a JSON object, e.g. {"two_player": true}', "invalid-options",
            source="`options`",
        )  # fmt: skip
        return JSON(models.RulesetSeats(ruleset=r.id, seats=list(r.default_seats(engine.new_game_options(r, given)))))


def ruleset_info(loaded) -> models.RulesetInfo:
    from domain.engine import command_schema

    r = loaded.ruleset
    return models.RulesetInfo(
        id=r.id,
        version=r.version,
        editions=[
            models.EditionInfo(
                version=e.version,
                summary=e.summary,
                changes=[
                    models.ChangeInfo(id=c.id, rules=list(c.rules), summary=c.summary)
                    for c in r.editions.changes_in(e.version)
                ],
                data_sha256=loaded.data_for(e.version)[1],
                leaks=[c.id for c in r.editions.leaks(e.version)],
            )
            for e in r.editions.released
        ],
        retired=[f"{m}.x" for m in r.editions.retired],
        title=r.title,
        data_sha256=loaded.data_sha256,
        default_seats=r.default_seats(r.options_type()),
        commands=[
            models.CommandInfo(
                type=c.__struct_config__.tag,
                description=(c.__doc__ or "").strip(),
                sealed=bool(getattr(c, "sealed", False)),
                always_open=engine.always_open_of(c),
                ends_game=engine.ends_game_of(c),
                schema=command_schema(c),
            )
            for c in r.command_types
        ],
        views=[models.ViewInfo(name=n, per_seat=v.per_seat, description=v.description) for n, v in sorted(r.views.items())],
        options_schema=msgspec.json.schema(r.options_type),
    )
