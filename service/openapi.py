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

from domain.engine import CommandSpec, command_schema
from events.bundle import Bundle
from events.core import CORE_EVENTS
from service import models
from service.http import PROBLEM, TITLES
from service.rulesets import RULESETS

REF = "#/components/schemas/{name}"
MODELS = [
    models.Problem,
    models.Root,
    models.RulesetInfo,
    models.CreateGame,
    models.ForkGame,
    models.OddsRequest,
    models.OddsJob,
    models.GameCreatedOut,
    models.SeedRequest,
    models.CommandResult,
    models.GameSummary,
    models.GamesPage,
    models.Me,
    models.EventsPage,
    models.RollOut,
    models.RollsPage,
    models.ViewOut,
    models.StreamEnd,
    models.JobProgress,
    models.VerifyReport,
    CommandSpec,
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


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(name=name)}


def camel(text: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[^A-Za-z0-9]+", text) if p)


def build_document(app, ops: list[Operation], settings) -> dict[str, Any]:
    doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    doc["servers"] = [{"url": "/", "description": "the server that serves this document"}]
    doc["tags"] = []
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
    seen: set[str] = set()
    todo = _refs({k: v for k, v in doc.items() if k != "components"})
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo |= _refs(schemas[name])
    for name in [n for n in schemas if n not in seen]:
        del schemas[name]


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
    if params:
        out["parameters"] = params
    responses: dict[str, Any] = {}
    if op.stream:
        responses["200"] = {
            "description": f"Server-Sent Events, each message as `{op.stream}` describes it",
            "content": {"text/event-stream": {"schema": ref(op.stream)}},
        }
    else:
        responses[str(op.status)] = {"description": "OK", "content": {"application/json": {"schema": ref(op.ok)}}}
    for status in op.errors:
        r: dict[str, Any] = {"description": TITLES[status], "content": {PROBLEM: {"schema": ref("Problem")}}}
        if status == 401:
            r["headers"] = {"WWW-Authenticate": {"schema": {"type": "string"}, "description": "Bearer"}}
        if status == 429:
            r["headers"] = {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds to wait"}}
        responses[str(status)] = r
    out["responses"] = responses
    if op.body:
        out["requestBody"] = {"required": True, "content": {"application/json": {"schema": ref(op.body)}}}
    out["security"] = {
        "public": [],
        "optional": [{}, {"bearer": []}],
        "required": [{"bearer": []}],
        "create": [{}, {"bearer": []}],
    }[op.auth]


# ---- components ----


def _components() -> dict[str, Any]:
    loaded = list(RULESETS.values())
    # the events of the rulesets served here (a test may register more event types than it serves)
    event_types = list(dict.fromkeys([*CORE_EVENTS, *(e for x in loaded for e in x.ruleset.event_types)]))
    view_models = [v.model for x in loaded for v in x.ruleset.views.values() if v.model is not None]
    options = [x.ruleset.options_type for x in loaded]
    commands = [c for x in loaded for c in x.ruleset.command_types]
    types = [*MODELS, *event_types, *view_models, *options, *commands]
    refs, schemas = msgspec.json.schema_components(types, ref_template=REF)
    schemas, renames = _rename(schemas)
    names = {}
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
    _streams(schemas)
    _views(schemas, names, loaded)
    _commands(schemas, names, loaded, renames)
    _options(schemas, names, loaded)
    _together(schemas)
    return dict(sorted(schemas.items()))


def _rename(schemas: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """msgspec names colliding Structs by module path ("domain.corvette_command.commands.Options"); a generated client
    wants plain identifiers: "CorvetteCommandOptions"."""
    renames = {}
    for name in schemas:
        if "." in name:
            parts = name.split(".")
            package = next((p for p in parts[1:-1] if p not in ("commands", "views", "state", "data")), parts[-2])
            renames[name] = camel(package) + parts[-1]
    if not renames:
        return schemas, renames
    text = msgspec.json.encode(schemas).decode()
    for old, new in renames.items():
        text = text.replace(f'"{REF.format(name=old)}"', f'"{REF.format(name=new)}"')
    return {renames.get(k, k): v for k, v in msgspec.json.decode(text).items()}, renames


def _events(schemas: dict[str, Any], names: dict[type, str], event_types: list[type]) -> None:
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


def _streams(schemas: dict[str, Any]) -> None:
    """One message of each Server-Sent Events stream, as an EventSource delivers it (OpenAPI 3.1 describes each
    message of a `text/event-stream` by the response schema): `data` is JSON text, typed by `contentSchema`.
    `StreamMessage` is the game log's; `JobStreamMessage` an odds job's."""

    def message(name: str, description: str, event: dict[str, Any], data: str, seq: bool = False) -> dict[str, str]:
        properties = {"id": {"type": "string", "pattern": "^[0-9]{1,16}$"}} if seq else {}
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

    schemas["StreamMessage"] = {
        "oneOf": [
            message(
                "StreamEventMessage",
                "One event of the log: `id` is its seq, `event` its type, `data` the `Event` as JSON.",
                {"pattern": "^[A-Z][A-Za-z0-9]{0,63}$"},
                "Event",
                seq=True,
            ),
            message(
                "StreamEndMessage",
                "The last message, when the game is over or revealed; the stream closes after it.",
                {"enum": ["end"]},
                "StreamEnd",
            ),
        ]
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


def _views(schemas: dict[str, Any], names: dict[type, str], loaded) -> None:
    """`View`: one object per ruleset view, discriminated by `kind` ("<ruleset>/<view>")."""
    base = schemas.pop("ViewOut")
    variants, mapping = [], {}
    for x in loaded:
        for view_name, view in sorted(x.ruleset.views.items()):
            kind = f"{x.ruleset.id}/{view_name}"
            name = camel(kind) + "View"
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
                "type": {"type": "string", "enum": [tag]},
                **request["properties"],
                **{name: msgspec.json.schema(kind) for name, kind, _ in models.COMMAND_EXTRAS},
            }
            request["required"] = ["type", *args.get("required", [])]
            schemas[stem + "Command"] = request
            requests.append(ref(stem + "Command"))
            spec = copy.deepcopy(spec_base)
            spec["title"] = stem + "Spec"
            spec["description"] = f"{x.ruleset.id}: `{tag}` is legal now; send `{{type, ...choice}}`."
            spec["properties"]["type"] = {"type": "string", "enum": [tag]}
            spec["properties"]["choices"] = {
                "anyOf": [{"type": "array", "items": ref(stem + "Args")}, {"type": "null"}],
                "description": "every legal argument object (at most 64), or null: then `schema` says what to send",
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
        v["properties"]["ruleset"] = {"type": "string", "enum": [x.ruleset.id]}
        v["properties"]["options"] = {"anyOf": [ref(names[x.ruleset.options_type]), {"type": "null"}]}
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
    and always in public-seed mode; exactly one of `client_seed` and `passphrase`."""
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
