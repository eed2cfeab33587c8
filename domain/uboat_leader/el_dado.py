"""U-Boat Leader's rolls: El Dado (UL-2) against a target, and the label of a roll made under a completion rule. The
working copy and the driver every ruleset shares are domain/procedure.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.procedure import Ctx

STAND_IN = "(stand-in rule, not from the text)"


def stand_in(rule_id: str, heading: str) -> str:
    """The `rule` of a roll made under a completion rule: labelled as such in every roll record."""
    return f"{rule_id} {STAND_IN}: {heading}"


def d10(
    ctx: Ctx,
    purpose: str,
    rule: str,
    mods: Sequence[tuple[str, int]] = (),
    target: int | None = None,
    judge: Callable[[int, int], str] | None = None,
) -> tuple[int, int]:
    """Roll one d10 (El Dado, UL-2), add the modifiers; `judge(face, total)` names the outcome (by default the
    total). Returns (face, total)."""
    return ctx.check(
        purpose, rule, mods, sides=10, target=target, judge=judge or (lambda f, t: str(t)), side="roll"
    )
