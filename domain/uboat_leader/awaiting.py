"""What `awaiting` shows: the commands that answer the decision the game awaits (sequence.py says which), each
rule area describing its own (`specs`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from domain.engine import CommandSpec
from domain.uboat_leader.rules import (
    contact,
    enemy,
    escorts,
    missions,
    operations,
    setup,
    strategic,
    tactical,
)
from domain.uboat_leader.sequence import awaited
from domain.uboat_leader.state import State

SPECS: dict[str, Callable[[State], list[CommandSpec]]] = {
    "select": setup.specs,
    "strategic": strategic.specs,
    "ops": operations.specs,
    "attack_box": lambda s: missions.specs(s, "attack_box"),
    "fire": lambda s: missions.specs(s, "fire"),
    "raider": lambda s: missions.specs(s, "raider"),
    **{d: partial(contact.specs, decision=d) for d in ("activate", "contacts", "choose_card", "engage", "place")},
    **{d: partial(contact.specs, decision=d) for d in ("wolfpack", "next")},
    **{d: partial(tactical.specs, decision=d) for d in ("move", "bearing", "drift", "attack")},
    **{d: partial(escorts.specs, decision=d) for d in ("escort_order", "pursue")},
    "target": enemy.specs,
}


def legal_commands(state: State, only: str | None = None) -> list[CommandSpec]:
    decision = awaited(state)
    if decision is None:
        return []
    out = SPECS[decision](state)
    return [s for s in out if only is None or s.type == only]
