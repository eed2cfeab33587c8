"""What `awaiting` shows of battlefleet-1900 (BF-R1): one entry per seat that still owes the step's sealed
command, its schema narrowed to the names that seat may use, and `concede` for every seat."""

from __future__ import annotations

import copy
import functools

from domain.battlefleet_1900 import commands as c
from domain.battlefleet_1900.state import State
from domain.engine import CommandSpec, command_schema

DESCRIPTIONS = {
    "start": "Log each ship's torpedo running depth and boat gun crews before the battle (sealed).",
    "give_orders": "Command Phase: each division's arrows or stop, drop-outs, transfers, boat guns, messages, surrenders (sealed).",
    "move": "Movement Phase: each division's distance and the degrees of each ordered turn (sealed).",
    "fire": "Gunnery Phase: estimate the range and fire a salvo at each target: guns, cycles, ammunition (sealed).",
    "launch_torpedoes": "Torpedo Phase: declare every launch and its target at once (sealed).",
    "damage_control": "Damage Phase Step 3: one DC die per repair or command function; scuttling (sealed).",
    "concede": "Concede the battle now: the other side wins.",
}


def _spec(cmd: type, seats: list[str], schema: dict, choices: list[dict] | None = None, labels=None) -> CommandSpec:
    name = cmd.__struct_config__.tag
    return CommandSpec(
        type=name, seats=seats, choices=choices, schema=schema, description=DESCRIPTIONS[name], labels=labels
    )


def legal_commands(state: State, only: str | None = None) -> list[CommandSpec]:
    """One entry per seat that still owes this step's sealed command (choices null: they would leak or exceed 64;
    the schema is narrowed to that seat's own names), and `concede` for every seat."""
    if state.over:
        return []
    out = []
    cmd = c.STEP_COMMAND.get(state.step)
    if cmd is not None and only in (None, cmd.__struct_config__.tag):
        for seat in state.owing:
            if seat not in state.submitted:  # the command path (only) needs who, not the narrowed schema
                out.append(_spec(cmd, [seat], command_schema(cmd) if only else narrowed(state, seat, cmd)))
    if only in (None, "concede"):
        out.append(_spec(c.Concede, list(state.seats), command_schema(c.Concede), [{}], ["concede the battle"]))
    return out


def narrowed(state: State, seat: str, cmd: type) -> dict:
    """The command's schema with enums of what this seat may name now (its ships, divisions, the enemy in play)."""
    names = (
        ("ship", tuple(n for n in state.own(seat) if state.ships[n].in_play)),
        ("target", tuple(n for n in state.own(state.enemy(seat)) if state.ships[n].in_play)),
        ("division", tuple(d.id for d in state.divisions.values() if d.seat == seat and d.ships)),
        ("to_seat", tuple(x for x in state.seats if x != seat)),
    )
    return _narrowed(cmd, names)


@functools.lru_cache(maxsize=256)
def _narrowed(cmd: type, names: tuple) -> dict:
    """Cached: callers must not mutate it."""
    schema = copy.deepcopy(command_schema(cmd))
    enums = dict(names)

    def walk(node):
        if isinstance(node, dict):
            for key, prop in node.get("properties", {}).items():
                if key in enums and prop.get("type") == "string":
                    prop["enum"] = list(enums[key])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    return schema
