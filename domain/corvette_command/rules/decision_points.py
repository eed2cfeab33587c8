"""CC-R8: the game runs on through every step that needs no decision and stops at the next one, which it names
(the shared driver and working copy are domain/procedure.py)."""

from __future__ import annotations

from domain.procedure import Ctx
from events import corvette_command as ev


def ask(ctx: Ctx, decision: str, seat: str | None = None) -> None:
    """Stop for a decision of `seat` (default: the escort at hand)."""
    ctx.emit(ev.DecisionRequired(decision=decision, seat=seat or ctx.state.active))
