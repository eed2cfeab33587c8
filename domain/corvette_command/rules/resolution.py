"""The Resolution Table (CC-1) and the matching-dice damage rolls (CC-13, CC-22)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from msgspec.structs import replace

from domain.dice import Dice
from events.core import DiceRolled, RollModifier, RollResult


def target(active: int, passive: int) -> int:
    """CC-1: success on 1d20 <= 10 + ACTIVE - PASSIVE (the five worked examples of the text agree)."""
    return 10 + active - passive


@dataclass
class Task:
    roll: DiceRolled
    success: bool


def task(
    dice: Dice,
    purpose: str,
    rule: str,
    active: int,
    passive: int,
    mods: Sequence[tuple[str, int, str]] = (),
) -> Task:
    """An opposed task roll; `mods` are (reason, value, "active"|"passive"). Always rolled and recorded (CC-R2)."""
    a = active + sum(v for _, v, side in mods if side == "active")
    p = passive + sum(v for _, v, side in mods if side == "passive")
    t = target(a, p)
    roll = dice.roll([20], purpose, rule)
    ok = roll.faces[0] <= t
    result = RollResult(
        outcome="success" if ok else "failure",
        target=t,
        active=a,
        passive=p,
        total=roll.faces[0],
        modifiers=[RollModifier(reason=r, value=v, side=side) for r, v, side in mods if v],
    )
    return Task(replace(roll, result=result), ok)


def plain(dice: Dice, sides: list[int], purpose: str, rule: str, outcome: str = "") -> DiceRolled:
    roll = dice.roll(sides, purpose, rule)
    return replace(roll, result=RollResult(outcome=outcome)) if outcome else roll


def matching(dice: Dice, skill: int, evade: int, count: int, purpose: str, rule: str) -> tuple[DiceRolled, int]:
    """CC-13/CC-22: a d10 if the skill is at most the U-boat's Evade, else a d6, beside `count` d6;
    one hit per d6 that matches it."""
    special = 10 if skill <= evade else 6
    roll = dice.roll([special] + [6] * count, purpose, rule)
    hits = sum(1 for f in roll.faces[1:] if f == roll.faces[0])
    why = f"{'d10' if special == 10 else 'd6'} (skill {skill} {'<=' if special == 10 else '>'} Evade {evade})"
    result = RollResult(outcome=f"{hits} hit(s): d6 matching the {why}", total=hits)
    return replace(roll, result=result), hits
