"""The helpers behind what `awaiting` shows and what decide checks, from one predicate: a command's legal argument
objects (with a label each) when there are at most MAX_CHOICES, else none and a schema narrowed to what is legal now
(enums, maxima). The rule modules build their `specs` with them; awaiting.py gathers those of the awaited decision."""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from domain.decisions import Ui
from domain.engine import CommandSpec, IllegalCommand

MAX_CHOICES = 64
SEATS = ["commander"]


def tag(cmd: type) -> str:
    return cmd.__struct_config__.tag


def spec(
    cmd: type,
    choices: list[dict] | None,
    labels: list[str] | None = None,
    narrow: dict[str, Any] | None = None,
    ui: Ui | None = None,
) -> CommandSpec:
    """`narrow` maps a property (dotted into `items` / `$defs` by narrow_schema) to extra schema keywords; `ui` is
    what a UI needs to draw the command (docs/api.md `awaiting`)."""
    if choices is not None and len(choices) > MAX_CHOICES:
        choices = labels = None
    schema = command_schema(cmd)
    if choices is None and narrow:
        schema = narrow_schema(schema, narrow)
    if choices is not None and labels is None:
        labels = [label_of(c) for c in choices]
    doc = (cmd.__doc__ or "").strip()
    return CommandSpec(
        type=tag(cmd), seats=SEATS, choices=choices, schema=schema, description=doc, labels=labels, ui=ui
    )


_SCHEMAS: dict[type, dict] = {}


def command_schema(cmd: type) -> dict:
    """The JSON Schema of a command's arguments with nested Structs inlined (no `$ref` left to resolve). Computed
    once per class; callers copy before changing it."""
    if cmd not in _SCHEMAS:
        full = msgspec.json.schema(cmd)
        defs = full.get("$defs", {})

        def inline(node):
            if isinstance(node, dict):
                if "$ref" in node:
                    return inline(defs[node["$ref"].rsplit("/", 1)[-1]])
                return {k: inline(v) for k, v in node.items()}
            if isinstance(node, list):
                return [inline(v) for v in node]
            return node

        body = inline(full)
        props = {k: v for k, v in body.get("properties", {}).items() if k != "type"}
        out = {"type": "object", "properties": props, "additionalProperties": False}
        req = [r for r in body.get("required", []) if r != "type"]
        if req:
            out["required"] = req
        _SCHEMAS[cmd] = out
    return _SCHEMAS[cmd]


def so_text(half: int) -> str:
    """Half-points as the sheet writes them: 7, 3½ (UL-R2)."""
    whole = str(half // 2) if half >= 2 or half % 2 == 0 else ""
    return f"{whole}{'½' if half % 2 else ''}"


def label_of(choice: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in choice.items()) or "go"


def narrow_schema(schema: dict, narrow: dict[str, Any]) -> dict:
    """A copy of a command's schema with keywords added to properties: "picks.boat" reaches into an array's item
    Struct (through $defs), "speeds.*" into an object's values, "speeds" itself into the property."""
    out = copy.deepcopy(schema)
    for path, extra in narrow.items():
        node = out
        parts = path.split(".")
        for i, part in enumerate(parts):
            node = node["properties"][part] if part != "*" else node.setdefault("additionalProperties", {})
            if i < len(parts) - 1:
                node = node.get("items", node)
        if "anyOf" in node:  # an optional property: narrow its non-null branch
            node = next(b for b in node["anyOf"] if b.get("type") != "null")
        node.update(extra)
    return out


def args_of(cmd: Any) -> dict:
    return {k: v for k, v in msgspec.to_builtins(cmd).items() if k != "type"}


def require(cmd: Any, choices: list[dict], why: str | None = None) -> None:
    """Refuse a command whose arguments are not among the legal ones, saying why (the engine adds what is legal)."""
    if args_of(cmd) not in choices:
        raise IllegalCommand(why or f"{tag(type(cmd))} {args_of(cmd)} is not legal now")
