"""SECUENCIA DE JUEGO: which decision the game awaits (the commands that answer it: awaiting.py), and the next
automatic step when none is awaited."""

from __future__ import annotations

from domain.procedure import memoized
from domain.uboat_leader.rules import campaign, contact, missions, operations, refit
from domain.uboat_leader.state import State


@memoized  # asked about four times a command of one state: to judge it, after each step, for its answer
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
