"""decide's working copy: each event emitted is applied to it at once, so a step reads what the last one left,
and a rejected command leaves the caller's state untouched."""

from __future__ import annotations

from msgspec.structs import replace

from domain.battlefleet_1900.evolve import evolve
from domain.battlefleet_1900.state import State
from domain.dice import Dice
from events.core import RollModifier, RollResult
from events.vocabulary import Event


class Ctx:
    def __init__(self, state: State, dice: Dice):
        self.state = state.clone()
        self.dice = dice
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for e in events:
            self.events.append(e)
            evolve(self.state, e)

    def roll(self, n: int, purpose: str, rule: str, outcome=None, sides: int = 6) -> list[int]:
        """Roll n dice and record them; `outcome(faces)` says what they decided (a str or a RollResult)."""
        r = self.dice.roll([sides] * n, purpose, rule)
        if outcome is not None:
            said = outcome(r.faces)
            r = replace(r, result=said if isinstance(said, RollResult) else RollResult(outcome=said))
        self.emit(r)
        return r.faces

    def check(self, purpose: str, rule: str, need: int, mods: list[tuple[str, int]] = ()) -> bool:
        """1D6 + modifiers >= need, recorded with its target and each modifier."""
        bonus = sum(v for _, v in mods)

        def judged(faces: list[int]) -> RollResult:
            total = faces[0] + bonus
            return RollResult(
                outcome="success" if total >= need else "failure",
                target=need,
                total=total,
                modifiers=[RollModifier(reason=r, value=v, side="active") for r, v in mods if v],
            )

        return self.roll(1, purpose, rule, judged)[0] + bonus >= need
