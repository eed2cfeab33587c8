"""The driver: run every step that needs no decision and stop at the next one.

`decide` works on a working copy: each event is applied to it as it is emitted, so a step reads the state the
previous step left, and a rejected command leaves the caller's state untouched. Each roll is recorded with what it
decided: the modifiers with their reasons, the total and the number it was compared with.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from msgspec.structs import replace

from domain.dice import Dice
from domain.uboat_leader.evolve import evolve
from domain.uboat_leader.state import State, working_copy
from events.core import DiceRolled, RollModifier, RollResult
from events.vocabulary import Event

MAX_STEPS = 10_000  # a guard against a procedure that would never stop
STAND_IN = "(stand-in rule, not from the text)"


def stand_in(rule_id: str, heading: str) -> str:
    """The `rule` of a roll made under a completion rule: labelled as such in every roll record."""
    return f"{rule_id} {STAND_IN}: {heading}"


class Ctx:
    def __init__(self, state: State, dice: Dice):
        self.state = working_copy(state)
        self.dice = dice
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for e in events:
            self.events.append(e)
            evolve(self.state, e)

    def roll(self, sides: Sequence[int], purpose: str, rule: str, emit: bool = True) -> DiceRolled:
        r = self.dice.roll(list(sides), purpose, rule)
        if emit:
            self.emit(r)
        return r

    def d10(
        self,
        purpose: str,
        rule: str,
        mods: Sequence[tuple[str, int]] = (),
        target: int | None = None,
        judge: Callable[[int, int], str] | None = None,
    ) -> tuple[int, int]:
        """Roll one d10 (El Dado, UL-2), add the modifiers; `judge(face, total)` names the outcome. Returns
        (face, total)."""
        r = self.dice.roll([10], purpose, rule)
        face = r.faces[0]
        total = face + sum(v for _, v in mods)
        result = RollResult(
            outcome=judge(face, total) if judge else str(total),
            target=target,
            total=total,
            modifiers=[RollModifier(reason=why, value=v, side="roll") for why, v in mods if v],
        )
        self.emit(replace(r, result=result))
        return face, total


def run(ctx: Ctx, awaited: Callable[[State], str | None], advance: Callable[[Ctx], None]) -> list[Event]:
    """Advance until a decision is awaited or the game is over."""
    for _ in range(MAX_STEPS):
        s = ctx.state
        if s.over or awaited(s) is not None:
            return ctx.events
        advance(ctx)
    raise RuntimeError("the procedure did not reach a decision")
