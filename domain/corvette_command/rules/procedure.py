"""The driver: run every step that needs no decision, stop at the next one (CC-R8).

`decide` works on a working copy: each event is applied to it as it is emitted, so a step reads the
state the previous step left, and a rejected command leaves the caller's state untouched.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from domain.corvette_command.state import State, evolve
from domain.dice import Dice
from events import corvette_command as ev
from events.vocabulary import Event

MAX_STEPS = 10_000  # a guard against a procedure that would never stop


class Ctx:
    def __init__(self, state: State, dice: Dice):
        self.state = copy.deepcopy(state)
        self.dice = dice
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for e in events:
            self.events.append(e)
            evolve(self.state, e)

    def ask(self, decision: str, seat: str | None = None) -> None:
        """Stop for a decision of `seat` (default: the escort at hand)."""
        self.emit(ev.DecisionRequired(decision=decision, seat=seat or self.state.active))


def run(ctx: Ctx, step: Callable[[Ctx], bool]) -> list[Event]:
    """Call `step` until it says a decision is awaited (or the game is over)."""
    for _ in range(MAX_STEPS):
        s = ctx.state
        if s.over or s.awaiting is not None:
            return ctx.events
        step(ctx)
    raise RuntimeError("the procedure did not reach a decision")
