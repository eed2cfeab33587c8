"""SECUENCIA DE JUEGO: which decision the game awaits, the commands that answer it, and the next automatic step
when none is awaited."""

from __future__ import annotations

from domain.engine import CommandSpec
from domain.uboat_leader.rules import (
    campaign,
    contact,
    enemy,
    escorts,
    missions,
    operations,
    refit,
    setup,
    strategic,
    tactical,
)
from domain.uboat_leader.state import State


def awaited(s: State) -> str | None:
    if s.over:
        return None
    if s.segment == "setup":
        return "select"
    if s.segment == "strategic":
        return "strategic"
    if s.segment == "operations":
        return missions.awaited(s) if s.ops.box else operations.awaited(s)
    if s.segment == "tactical":
        return contact.awaited(s)
    return None


def advance(ctx) -> None:
    s = ctx.state
    if s.segment == "operations":
        (missions.advance if s.ops.box else operations.advance)(ctx)
    elif s.segment == "tactical":
        contact.advance(ctx)
    elif s.segment == "refit":
        refit.refit(ctx)
        campaign.after_refit(ctx)
    else:
        raise RuntimeError(f"nothing to advance in segment {s.segment!r}")


SPECS = {
    "select": setup.specs,
    "strategic": strategic.specs,
    "ops": operations.specs,
    "attack_box": lambda s: missions.specs(s, "attack_box"),
    "fire": lambda s: missions.specs(s, "fire"),
    "raider": lambda s: missions.specs(s, "raider"),
    **{d: (lambda s, d=d: contact.specs(s, d)) for d in ("activate", "contacts", "choose_card", "engage", "place")},
    **{d: (lambda s, d=d: contact.specs(s, d)) for d in ("wolfpack", "next")},
    **{d: (lambda s, d=d: tactical.specs(s, d)) for d in ("move", "bearing", "drift", "attack")},
    **{d: (lambda s, d=d: escorts.specs(s, d)) for d in ("escort_order", "pursue")},
    "target": enemy.specs,
}


def legal_commands(state: State, only: str | None = None) -> list[CommandSpec]:
    decision = awaited(state)
    if decision is None:
        return []
    out = SPECS[decision](state)
    return [s for s in out if only is None or s.type == only]
