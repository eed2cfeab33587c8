"""The helpers behind what `awaiting` shows and what decide checks, from one predicate: a command's legal argument
objects (with a label each) when there are at most MAX_CHOICES, else none and a schema narrowed to what is legal now
(enums, maxima). The rule modules build their `specs` with them; awaiting.py gathers those of the awaited decision."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain import decisions as ui
from domain.decisions import Ui, descriptors_wanted
from domain.engine import MAX_CHOICES, CommandSpec, IllegalCommand, command_schema, spec_of

SEATS = ["commander"]


def spec(
    cmd: type,
    choices: list[dict] | None,
    labels: list[str] | None = None,
    narrow: dict[str, Any] | None = None,
    ui: Ui | None = None,
    form: Callable[[], Ui] | None = None,
) -> CommandSpec:
    """`narrow` maps a property (dotted into `items` / `$defs` by narrow_schema) to extra schema keywords; `ui` is
    what a UI needs to draw the command (docs/api.md `awaiting`), always; `form` builds it only where the choices
    are not listed (more than MAX_CHOICES, or none computed), so a short list is not said twice."""
    if choices is not None and len(choices) > MAX_CHOICES:
        choices = labels = None
    wanted = descriptors_wanted()  # not for a bot's awaiting (decisions.without_descriptors)
    if choices is None and form is not None and wanted:
        ui = form()
    # A bot reads no schema: the first game of a process would make every command's (msgspec.json.schema) for nothing.
    schema = command_schema(cmd) if wanted else {}
    if choices is None and narrow and wanted:
        schema = narrow_schema(schema, narrow)
    if choices is not None and labels is None:
        labels = [label_of(c) for c in choices]
    return spec_of(cmd, SEATS, choices, schema, (cmd.__doc__ or "").strip(), labels, ui=ui)


# The Spanish text's own words for what a player looks up (descriptors' `rulebook`), by the value a command sends.
RULEBOOK = {
    "green": "Verde (Tripulación Novata)",
    "trained": "Entrenada",
    "veteran": "Veterana",
    "ace": "As",
    "mine": "Misión Especial: Sembrar Minas",
    "attack": "Misión Especial: Ataque",
    "raider": "Misión Especial: Incursor",
    "air_search": "Búsqueda Aérea",
    "intel": "Inteligencia",
    "supply_ship": "Barco de Suministros",
    "rr": "Prioridad R&R",
    "radio_call": "Llamada por la Radio",
    "torpedo": "Torpedos Listos",
    "gun": "Cañón",
    "normal": "Torpedo",
    "FAT": "Torpedo FAT",
    "T5": "Torpedo Acústico (T5)",
    "ready": "Torpedos Listos",
    "stored": "Torpedos Almacenados",
    "surfaced": "Superficie",
    "submerged": "Sumergido",
}


def option(value, label: str) -> ui.Option:
    """A descriptor option, with the text's word for its value where it has one."""
    return ui.Option(value=value, label=label, rulebook=RULEBOOK.get(value) if isinstance(value, str) else None)


def so_text(half: int) -> str:
    """Half-points as the sheet writes them: 7, 3½ (UL-R2)."""
    whole = str(half // 2) if half >= 2 or half % 2 == 0 else ""
    return f"{whole}{'½' if half % 2 else ''}"


def label_of(choice: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in choice.items()) or "go"


def narrow_schema(schema: dict, narrow: dict[str, Any]) -> dict:
    """A copy of a command's schema with keywords added to properties: "picks.boat" reaches into an array's item
    Struct (through $defs), "speeds.*" into an object's values, "speeds" itself into the property."""
    out = msgspec.json.decode(msgspec.json.encode(schema))  # a deep copy: JSON in, JSON out, at a fifth of deepcopy's cost
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


def require(cmd: Any, choices: list[dict], why: str) -> None:
    """Refuse a command whose arguments are not among the legal ones, saying why and by which rule (the engine adds
    what is legal)."""
    if args_of(cmd) not in choices:
        raise IllegalCommand(why)
