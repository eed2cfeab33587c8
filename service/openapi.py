"""The OpenAPI document (openapi/openapi.json): FastAPI gives the paths and parameters; the schemas come from the
msgspec Structs that build and decode the bodies (service/models.py, events/, each ruleset's commands, options and
view models), with the parts that vary by ruleset typed as unions a client generator turns into discriminated types:
`Event` by `type`, `View` by `kind`, `CommandSpec` and `Command` per ruleset command."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec
from fastapi.openapi.utils import get_openapi

from domain.engine import command_schema
from events.bundle import Bundle
from events.core import CORE_EVENTS
from events.vocabulary import Event
from service import models
from service.http import PROBLEM, TITLES
from service.payloads import CORE_PAYLOADS
from service.rulesets import RULESETS

REF = "#/components/schemas/{name}"
MODELS = [
    models.Problem,
    models.Root,
    models.Health,
    models.RulesetInfo,
    models.RulesetSeats,
    models.CreateGame,
    models.ForkGame,
    models.OddsRequest,
    models.OddsJob,
    models.GameCreatedOut,
    models.SeedRequest,
    models.ChangeDeadlines,
    models.CommandResult,
    models.GameSummary,
    models.GamesPage,
    models.Me,
    models.EventsPage,
    models.Since,
    models.RollOut,
    models.RollsPage,
    models.ViewOut,
    models.StreamEnd,
    models.StreamState,
    models.StreamEvent,
    models.JoinRequest,
    models.JoinSeat,
    models.SeatCredential,
    models.Invitation,
    models.Ticket,
    models.JobProgress,
    models.VerifyReport,
    models.CommandSpec,
    models.NotificationTarget,
    models.AddressConfirmation,
    models.NotificationRegistered,
    models.Notifications,
    models.SecretRotated,
    models.PingQueued,
    Bundle,
]


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    name: str
    summary: str
    description: str  # what a client needs to know beyond the summary
    ok: str | None = None  # the component of the success body
    status: int = 200
    body: str | None = None  # the component of the request body
    auth: str = "public"  # public | optional | required | create
    errors: tuple[int, ...] = (404, 422)  # every error status it can answer (422: any unknown query parameter)
    stream: str | None = None  # a Server-Sent Events stream: the component describing one message
    last_event_id: bool = False  # the stream resumes after the Last-Event-ID header
    etag: bool = False  # answers with an ETag and 304 Not Modified to a matching If-None-Match
    if_match: bool = False  # takes If-Match (a version), 412 when it no longer holds
    tag: str | None = None  # the group in the document (else by path: see TAGS)


TAGS = {  # the groups of operations a generated client makes a module of each
    "rulesets": "What can be played: rulesets, their commands, views and options",
    "games": "Creating, forking and finding games; a game's summary",
    "seats": "Who plays: open seats and their invitations, a token's seat, rotating a token",
    "commands": "Playing: commands, client seeds, the referee's reveal and end",
    "live": "Following a game live: tickets and the event stream",
    "record": "The record: events, rolls, views and the replay bundle",
    "what-if": "The odds from a position, as jobs",
    "verification": "Verifying a bundle",
    "notifications": "Webhooks: a reader's signed notifications (your turn, game over)",
}


def tag_of(op: Operation) -> str:
    if op.tag:
        return op.tag
    p = op.path
    if p.startswith("/rulesets") or p == "/":
        return "rulesets"
    if p.startswith("/bundles"):
        return "verification"
    if "/notifications" in p:
        return "notifications"
    if p.startswith("/jobs") or p.endswith("/odds"):
        return "what-if"
    if p.endswith("/me"):
        return "seats"
    if p.endswith(("/commands", "/seeds", "/reveal", "/end")):
        return "commands"
    if any(x in p for x in ("/events", "/rolls", "/views", "/bundle")):
        return "record"
    return "games"


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(name=name)}


def camel(text: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[^A-Za-z0-9]+", text) if p)


def build_document(app, ops: list[Operation], settings) -> dict[str, Any]:
    doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    doc["servers"] = [{"url": "/", "description": "the server that serves this document"}]
    doc["tags"] = [{"name": k, "description": v} for k, v in TAGS.items()]
    schemas = _components()
    doc["components"] = {
        "schemas": schemas,
        "securitySchemes": {
            "bearer": {
                "type": "http",
                "scheme": "bearer",
                "description": "a seat's or the referee's token from POST /games (or the server's creation token)",
            }
        },
    }
    for op in ops:
        _describe(doc["paths"][op.path][op.method.lower()], op)
    _tidy(doc)
    return doc


def _tidy(doc: dict[str, Any]) -> None:
    """What generators need beyond valid JSON Schema: a model is named by its `title`, so each title is its
    component's name (msgspec titles two Structs named `Options` alike); an array says what it holds (`list[Any]`
    gives none); a component nothing refers to (a command Struct, once its `Args` and `Command` exist) goes."""
    schemas = doc["components"]["schemas"]
    for name, schema in schemas.items():
        schema["title"] = name
    _walk(doc, _array_items)
    _walk(doc, _open_object)
    _walk(doc, _titles)
    _walk(doc, _kind_tags)
    seen: set[str] = set()
    todo = _refs({k: v for k, v in doc.items() if k != "components"})
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo |= _refs(schemas[name])
    for name in [n for n in schemas if n not in seen]:
        del schemas[name]


def _kind_tags(node: dict[str, Any]) -> None:
    """A union's `kind` tag (msgspec writes a bare enum) says what it is, as every other property does."""
    tag = (node.get("properties") or {}).get("kind")
    if isinstance(tag, dict) and len(tag.get("enum") or ()) == 1 and "description" not in tag:
        tag["type"] = "string"
        tag["description"] = f"what this is: always `{tag['enum'][0]}` here"


def _refs(node: Any) -> set[str]:
    prefix = REF.format(name="")
    return set(re.findall(re.escape(f'"$ref":"{prefix}') + r'([^"]+)"', msgspec.json.encode(node).decode()))


def _array_items(node: dict[str, Any]) -> None:
    if node.get("type") == "array" and "items" not in node and "prefixItems" not in node:
        node["items"] = {}


def _open_object(node: dict[str, Any]) -> None:
    """An object whose keys are free (`dict[str, Any]`) says so: without it a TypeScript generator reads
    `{type: object}` as an object with no properties at all."""
    shape = ("properties", "additionalProperties", "patternProperties", "$ref", "oneOf", "anyOf", "allOf")
    if node.get("type") == "object" and not any(k in node for k in shape):
        node["additionalProperties"] = True


def _walk(node: Any, fn: Callable[[dict[str, Any]], None]) -> None:
    if isinstance(node, dict):
        fn(node)
        for v in node.values():
            _walk(v, fn)
    elif isinstance(node, list):
        for v in node:
            _walk(v, fn)


def _describe(out: dict[str, Any], op: Operation) -> None:
    out["operationId"] = op.name
    out["tags"] = [tag_of(op)]
    out["summary"] = op.summary
    out["description"] = op.description
    params = out.get("parameters", [])
    if op.last_event_id:
        params.append(
            {
                "name": "Last-Event-ID",
                "in": "header",
                "required": False,
                "description": "resume after this seq (sent by EventSource on reconnect)",
                "schema": {"type": "string", "pattern": "^[0-9]{1,16}$"},
            }
        )
    if op.etag:
        params.append(
            {
                "name": "If-None-Match",
                "in": "header",
                "required": False,
                "description": "the ETag of a copy the client holds: 304 Not Modified, no body, if it is still current",
                "schema": {"type": "string"},
            }
        )
    if op.if_match:
        params.append(
            {
                "name": "If-Match",
                "in": "header",
                "required": False,
                "description": "the ETag of a read of this game (`\"<version>-…\"`) or `\"<version>\"`: the command "
                "applies only if the game is still at that version (412 otherwise), like `expected_version`; `*` sets "
                "no version",
                "schema": {"type": "string", "pattern": '^(\\*|(W/)?"[0-9]{1,16}(-[0-9a-f]{1,64})?")$'},
            }
        )
    if params:
        out["parameters"] = params
    responses: dict[str, Any] = {}
    if op.stream:
        responses["200"] = {
            "description": f"Server-Sent Events; the `data` of each message is the JSON object `{op.stream}` describes",
            "content": {"text/event-stream": {"schema": ref(op.stream)}},
        }
    elif op.ok is not None:
        responses[str(op.status)] = {"description": "OK", "content": {"application/json": {"schema": ref(op.ok)}}}
    elif op.status == 204:
        responses["204"] = {"description": "Done; no body"}
    if op.status == 201:
        responses["201"]["headers"] = {
            "Location": {"schema": {"type": "string"}, "description": "where the new thing is read"}
        }
    if op.etag:
        tag = {"ETag": {"schema": {"type": "string"}, "description": "send it back as If-None-Match to revalidate"}}
        responses[str(op.status)]["headers"] = tag
        responses["304"] = {"description": "Not modified: the copy with this ETag is current", "headers": tag}
    for status in op.errors:
        r: dict[str, Any] = {"description": TITLES[status], "content": {PROBLEM: {"schema": ref("Problem")}}}
        if status == 401:
            r["headers"] = {"WWW-Authenticate": {"schema": {"type": "string"}, "description": "Bearer"}}
        if status in (429, 503):
            r["headers"] = {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds to wait"}}
        responses[str(status)] = r
    out["responses"] = responses
    if op.body:
        out["requestBody"] = {"required": True, "content": {"application/json": {"schema": ref(op.body)}}}
    out["security"] = {
        "public": [],
        # a token is optional here: no security requirement, so a generated client reads without one; the
        # description says what a token adds (the bearer header goes in as an ordinary header)
        "optional": [],
        "required": [{"bearer": []}],
        "create": [],
    }[op.auth]
    if op.auth == "optional":
        out["description"] += (
            " No token needed; `Authorization: Bearer <a seat's or the referee's token>` adds what that reader may see."
        )
    if op.auth == "create":
        out["description"] += " No token needed, unless the server sets UMPIRE_CREATE_TOKEN."


# ---- components ----


def _components() -> dict[str, Any]:
    loaded = list(RULESETS.values())
    # the events of the rulesets served here (a test may register more event types than it serves)
    event_types: list[type[Event]] = list(dict.fromkeys([*CORE_EVENTS, *(e for x in loaded for e in x.ruleset.event_types)]))
    view_models = [v.model for x in loaded for v in x.ruleset.views.values() if v.model is not None]
    options = [x.ruleset.options_type for x in loaded]
    commands = [c for x in loaded for c in x.ruleset.command_types]
    payloads: list[type] = list(CORE_PAYLOADS.values())
    types: list[type] = [*MODELS, *event_types, *view_models, *options, *commands, *payloads]
    refs, schemas = msgspec.json.schema_components(types, ref_template=REF)
    wrappers = {_view_name(f"{x.ruleset.id}/{view}") for x in loaded for view in x.ruleset.views}
    schemas, renames = _rename(schemas, taken=wrappers)
    names: dict[type, str] = {}
    for cls, r in zip(types, refs):
        name = r["$ref"].rsplit("/", 1)[-1]
        names[cls] = renames.get(name, name)
    for cls in event_types:  # private fields are kept beside the body, never in it
        for field in cls.private:
            schemas[names[cls]]["properties"].pop(field, None)
            if field in schemas[names[cls]].get("required", []):
                schemas[names[cls]]["required"].remove(field)
    schemas["RulesetList"] = {"type": "array", "items": ref("RulesetInfo")}
    _events(schemas, names, event_types)
    _bundles(schemas, names, event_types, payloads)
    _streams(schemas)
    _views(schemas, names, loaded)
    _commands(schemas, names, loaded, renames)
    _options(schemas, names, loaded)
    _together(schemas)
    return dict(sorted(schemas.items()))


def _rename(schemas: dict[str, Any], taken: set[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """msgspec names colliding Structs by module path ("domain.corvette_command.commands.Options"); a generated client
    wants plain identifiers: "CorvetteCommandOptions". A name `taken` by a schema made later (a view's wrapper:
    aa1942's `MapView` would be "Aa1942ConvoyMapView", its wrapper's name) gets "Data" after it."""
    renames = {}
    for name in schemas:
        if "." in name:
            parts = name.split(".")
            package = next((p for p in parts[1:-1] if p not in ("commands", "views", "state", "data")), parts[-2])
            plain = camel(package) + parts[-1]
            renames[name] = plain + "Data" if plain in taken else plain
    if not renames:
        return schemas, renames
    text = msgspec.json.encode(schemas).decode()
    for old, new in renames.items():
        text = text.replace(f'"{REF.format(name=old)}"', f'"{REF.format(name=new)}"')
    return {renames.get(k, k): v for k, v in msgspec.json.decode(text).items()}, renames


def _events(schemas: dict[str, Any], names: dict[type, str], event_types: list[type[Event]]) -> None:
    """`Event`: one object per event type, discriminated by `type`; what every list of events holds."""
    base = schemas.pop("EventOut")
    variants, mapping = [], {}
    for cls in sorted(event_types, key=lambda c: c.type_name()):
        t = cls.type_name()
        name = f"{t}Event"
        v = copy.deepcopy(base)
        v["title"] = name
        v["description"] = (cls.__doc__ or f"A {t} event.").strip()
        v["properties"]["type"] = {"type": "string", "enum": [t]}
        v["properties"]["v"] = {"type": "integer", "enum": [cls.v]}
        v["properties"]["data"] = ref(names[cls])
        if not cls.private:
            v["properties"].pop("sealed", None)
        schemas[name] = v
        variants.append(ref(name))
        mapping[t] = REF.format(name=name)
    schemas["Event"] = {"oneOf": variants, "discriminator": {"propertyName": "type", "mapping": mapping}}
    _retarget(schemas, "EventOut", "Event")


def _bundles(
    schemas: dict[str, Any], names: dict[type, str], event_types: list[type[Event]], payloads: list[type]
) -> None:
    """A bundle as the server answers it (`Bundle`): each event's `body` is one of `EventBody` (the hashed body:
    `{game, seq, type, v, command, data}`, discriminated by `type`) and each command's `payload` one of
    `BundlePayload` (a ruleset command, a core input such as `create_game`, or `{sealed}` while sealed). What
    POST /bundles/verify takes (`BundleUpload`) keeps the bodies open: a tampered body must reach the chain check to
    be named by its seq."""
    upload = {"Bundle": "BundleUpload", "BundleEvent": "BundleEventUpload", "BundleCommand": "BundleCommandUpload"}
    text = msgspec.json.encode({k: schemas[k] for k in upload}).decode()
    for old, new in upload.items():
        text = text.replace(f'"{REF.format(name=old)}"', f'"{REF.format(name=new)}"')
    for old, schema in msgspec.json.decode(text).items():
        schemas[upload[old]] = schema
    variants, mapping = [], {}
    for cls in sorted(event_types, key=lambda c: c.type_name()):
        t = cls.type_name()
        name = f"{t}Body"
        schemas[name] = {
            "type": "object",
            "description": f"The hashed body of a {t} event.",
            "properties": {
                "game": {"type": "string", "title": "Game", "description": "the game's id"},
                "seq": {"type": "integer", "minimum": 1, "title": "Seq", "description": "its place in the log"},
                "type": {"type": "string", "enum": [t], "title": "Type", "description": "the event's type"},
                "v": {"type": "integer", "enum": [cls.v], "title": "V", "description": "the version of its schema"},
                "command": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Command",
                            "description": "the id of the command that made it"},
                "data": {**ref(names[cls]), "title": "Data", "description": "what happened"},
            },
            "required": ["game", "seq", "type", "v", "command", "data"],
            "additionalProperties": False,
        }
        variants.append(ref(name))
        mapping[t] = REF.format(name=name)
    schemas["EventBody"] = {"oneOf": variants, "discriminator": {"propertyName": "type", "mapping": mapping}}
    schemas["SealedPayload"] = {
        "type": "object",
        "description": "A sealed command's payload while it is sealed (to readers other than its seat): its commitment.",
        "properties": {"sealed": {"type": "string", "pattern": "^[0-9a-f]{64}$", "title": "Sealed",
                                  "description": "the commitment of the SubmissionSealed it made"}},
        "required": ["sealed"],
        "additionalProperties": False,
    }
    schemas["BundlePayload"] = {
        "anyOf": [ref("Command"), *(ref(names[c]) for c in payloads), ref("SealedPayload")],
        "description": "a recorded command as sent: a ruleset command, a core input, or `{sealed}` while sealed",
    }
    schemas["BundleEvent"]["properties"]["body"] = {**ref("EventBody"), "title": "Body", "description": "the hashed body"}
    schemas["BundleCommand"]["properties"]["payload"] = {**ref("BundlePayload"), "title": "Payload",
                                                       "description": "the command as sent"}


def _titles(node: dict[str, Any]) -> None:
    """Every property says what it is: a `title` from its name where the model gave none."""
    for name, prop in (node.get("properties") or {}).items():
        if isinstance(prop, dict) and "title" not in prop:
            prop["title"] = name.replace("_", " ").strip().capitalize() or name


def _streams(schemas: dict[str, Any]) -> None:
    """One message of each Server-Sent Events stream, as an EventSource delivers it (OpenAPI 3.1 describes each
    message of a `text/event-stream` by the response schema): `data` is JSON text, typed by `contentSchema`.
    `StreamMessage` is the game log's; `JobStreamMessage` an odds job's."""

    def message(name: str, description: str, event: dict[str, Any], data: str, seq: bool = False) -> dict[str, str]:
        properties: dict[str, Any] = {"id": {"type": "string", "pattern": "^[0-9]{1,16}$"}} if seq else {}
        properties |= {
            "event": {"type": "string", **event},
            "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": ref(data)},
        }
        schemas[name] = {
            "type": "object",
            "description": description,
            "properties": properties,
            "required": [*(["id"] if seq else []), "event", "data"],
        }
        return ref(name)

    schemas["StreamData"] = {
        "oneOf": [ref("StreamEvent"), ref("StreamState"), ref("StreamEnd")],
        "discriminator": {
            "propertyName": "message",
            "mapping": {"event": REF.format(name="StreamEvent"), "state": REF.format(name="StreamState"),
                        "end": REF.format(name="StreamEnd")},
        },
        "description": "The JSON object in the `data` of one message of the game's stream, told apart by `message`.",
    }
    schemas["StreamMessage"] = {
        "type": "object",
        "description": "One message of the game's stream as an EventSource delivers it: unnamed (so `onmessage` "
        "receives it) unless `named=true`, `id` the seq of the last event sent, `data` JSON text of `StreamData`.",
        "properties": {
            "id": {"type": "string", "pattern": "^[0-9]{1,16}$", "title": "Id",
                   "description": "the seq of the last event sent (absent on the end)"},
            "event": {"type": "string", "pattern": "^(message|state|end|[A-Z][A-Za-z0-9]{0,63})$", "title": "Event",
                      "description": "the message's type: `message` (unnamed, the default) or, with named=true, the event's type, `state` or `end`"},
            "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": ref("StreamData"),
                     "title": "Data", "description": "JSON text of a `StreamData` object"},
        },
        "required": ["data"],
    }
    schemas["JobStreamMessage"] = {
        "oneOf": [
            message("JobProgressMessage", "Continuations finished so far.", {"enum": ["progress"]}, "JobProgress"),
            message(
                "JobResultMessage",
                "The job once it is done, failed or lost; the stream closes after it.",
                {"enum": ["result"]},
                "OddsJob",
            ),
        ]
    }


def _view_name(kind: str) -> str:
    """The schema of a view's answer: "aa1942-convoy/map" -> "Aa1942ConvoyMapView"."""
    return camel(kind) + "View"


def _views(schemas: dict[str, Any], names: dict[type, str], loaded) -> None:
    """`View`: one object per ruleset view, discriminated by `kind` ("<ruleset>/<view>")."""
    base = schemas.pop("ViewOut")
    variants, mapping = [], {}
    for x in loaded:
        for view_name, view in sorted(x.ruleset.views.items()):
            kind = f"{x.ruleset.id}/{view_name}"
            name = _view_name(kind)
            v = copy.deepcopy(base)
            v["title"] = name
            v["description"] = view.description or f"The {view_name} view of {x.ruleset.id}."
            v["properties"]["kind"] = {"type": "string", "enum": [kind]}
            v["properties"]["view"] = {"type": "string", "enum": [view_name]}
            if view.model is not None:
                v["properties"]["data"] = ref(names[view.model])
            schemas[name] = v
            variants.append(ref(name))
            mapping[kind] = REF.format(name=name)
    schemas["View"] = {"oneOf": variants, "discriminator": {"propertyName": "kind", "mapping": mapping}}
    _retarget(schemas, "ViewOut", "View")


def _commands(schemas: dict[str, Any], names: dict[type, str], loaded, renames: dict[str, str]) -> None:
    """`Command` (the body of POST /commands) and `CommandSpec` (an entry of `awaiting`), one variant per ruleset
    command; a command's arguments are its Struct's schema without `type`."""
    spec_base = schemas.pop("CommandSpec")
    requests, specs = [], []
    for x in loaded:
        for cls in x.ruleset.command_types:
            tag = cls.__struct_config__.tag
            stem = camel(x.ruleset.id) + camel(tag)
            args = _json(command_schema(cls), renames)
            schemas[stem + "Args"] = {
                "title": stem + "Args",
                "description": (cls.__doc__ or tag).strip(),
                **args,
            }
            request = copy.deepcopy(args)
            request["title"] = stem + "Command"
            request["description"] = f"{x.ruleset.id}: {(cls.__doc__ or tag).strip()}"
            request["properties"] = {
                "type": {"type": "string", "enum": [tag], "description": "the command's type"},
                **request["properties"],
                **{name: msgspec.json.schema(kind) for name, kind, _ in models.COMMAND_EXTRAS},
            }
            request["required"] = ["type", *args.get("required", [])]
            schemas[stem + "Command"] = request
            requests.append(ref(stem + "Command"))
            spec = copy.deepcopy(spec_base)
            spec["title"] = stem + "Spec"
            spec["description"] = f"{x.ruleset.id}: `{tag}` is legal now; send `{{type, ...choice}}`."
            spec["properties"]["type"] = {"type": "string", "enum": [tag], "description": "the command's type"}
            spec["properties"]["choices"] = {
                "anyOf": [{"type": "array", "items": ref(stem + "Args")}, {"type": "null"}],
                "description": "every legal argument object (at most 64), or null: then `schema` says what to send",
            }
            spec["properties"]["schema"] = {
                "anyOf": [{"type": "object"}, {"type": "null"}],
                "description": "null when `choices` lists them; else the JSON Schema of the arguments, narrowed to what "
                f"is legal now (the command's own schema, `{stem}Args`, is in GET /rulesets/{{id}})",
            }
            spec["required"] = list(spec["properties"])  # the server always sends every field of an entry
            schemas[stem + "Spec"] = spec
            specs.append(ref(stem + "Spec"))
    # anyOf: two rulesets may have a command of the same type and arguments (`start`)
    schemas["Command"] = {"anyOf": requests, "description": "one command: its `type`, its arguments, and optionally "
                          "`command_id` (idempotency) and `expected_version` (optimistic concurrency)"}
    schemas["CommandSpec"] = {"anyOf": specs, "description": "one entry of `awaiting`"}


def _options(schemas: dict[str, Any], names: dict[type, str], loaded) -> None:
    """A game's `options` is its ruleset's options object: `CreateGame` is one variant per ruleset, discriminated by
    `ruleset`; a summary's options are any ruleset's."""
    base = schemas.pop("CreateGame")
    variants, mapping = [], {}
    for x in loaded:
        name = "CreateGame" + camel(x.ruleset.id)
        v = copy.deepcopy(base)
        v["title"] = name
        v["description"] = f"Create a game of {x.ruleset.id}: {x.ruleset.title}."
        v["properties"]["ruleset"] = {"type": "string", "enum": [x.ruleset.id], "description": "the ruleset's id"}
        v["properties"]["options"] = {
            "anyOf": [ref(names[x.ruleset.options_type]), {"type": "null"}],
            "description": "the ruleset's options; null or left out: every default",
        }
        for field in ("seats", "bots"):  # the service refuses a name given twice
            v["properties"][field]["anyOf"][0]["uniqueItems"] = True
        schemas[name] = v
        variants.append(ref(name))
        mapping[x.ruleset.id] = REF.format(name=name)
    schemas["CreateGame"] = {"oneOf": variants, "discriminator": {"propertyName": "ruleset", "mapping": mapping}}
    schemas["ForkGame"]["properties"]["bots"]["anyOf"][0]["uniqueItems"] = True
    schemas["Options"] = {
        "anyOf": [ref(names[x.ruleset.options_type]) for x in loaded],
        "description": "the options of the game's ruleset (GET /rulesets/{id})",
    }
    schemas["GameSummary"]["properties"]["options"] = ref("Options")


def _together(schemas: dict[str, Any]) -> None:
    """Fields that go together, said with if/then/else on the one object a client builds (generators read the
    object; validators read the rule), so the schema refuses exactly what the service refuses: `server_seed` only
    and always in public-seed mode; exactly one of `client_seed` and `passphrase` (a join's: at most one)."""
    null = {"type": "null"}
    schemas["CreateDice"] |= {
        "if": {"properties": {"mode": {"enum": ["public-seed"]}}, "required": ["mode"]},
        "then": {"properties": {"server_seed": {"type": "string"}}, "required": ["server_seed"]},
        "else": {"properties": {"server_seed": null}},
    }
    schemas["SeedRequest"] |= {
        "if": {"properties": {"client_seed": null}},
        "then": {"properties": {"passphrase": {"type": "string"}}, "required": ["passphrase"]},
        "else": {"properties": {"passphrase": null}},
    }
    schemas["JoinSeat"] |= {
        "if": {"properties": {"client_seed": {"type": "string"}}, "required": ["client_seed"]},
        "then": {"properties": {"passphrase": null}},
    }


def _retarget(schemas: dict[str, Any], old: str, new: str) -> None:
    text = msgspec.json.encode(schemas).decode().replace(f'"{REF.format(name=old)}"', f'"{REF.format(name=new)}"')
    schemas.clear()
    schemas.update(msgspec.json.decode(text))


def _json(schema: dict[str, Any], renames: dict[str, str]) -> dict[str, Any]:
    """A command schema pointing at the components (its nested Structs are components already)."""
    text = msgspec.json.encode({k: v for k, v in schema.items() if k != "$defs"}).decode()
    for old, new in renames.items():
        text = text.replace(f'"#/$defs/{old}"', f'"#/$defs/{new}"')
    return msgspec.json.decode(text.replace('"#/$defs/', '"#/components/schemas/'))
