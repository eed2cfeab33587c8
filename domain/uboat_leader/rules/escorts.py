"""Escorts detect (UL-34, UL-R21) and move (UL-36, cut mid-sentence: UL-S1); Merchants never detect (UL-35). Enemy
attacks: enemy.py."""

from __future__ import annotations

from itertools import permutations

from domain.engine import IllegalCommand
from domain.uboat_leader import commands as c
from domain.uboat_leader.display import distance, steps_toward
from domain.uboat_leader.legal import require, spec
from domain.uboat_leader.rules.attack import attack_step
from domain.uboat_leader.rules.reveal import reveal
from domain.uboat_leader.rules.ships import damage_mod, piece_speed, tactic
from domain.uboat_leader.state import State
from events import uboat_leader as ev

DETECTION = "Detección del Escolta (UL-34)"


def escorts_on(s: State) -> list[str]:
    return [lb for lb, p in s.battle.ships.items() if p.escort]


def begin(ctx) -> None:
    """UL-34: the escorts act one by one in the order the player prefers (asked only when there are two or more,
    UL-R46)."""
    s = ctx.state
    labels = escorts_on(s)
    ctx.emit(ev.CombatStep(turn=s.battle.turn, step="escorts", queue=labels if len(labels) < 2 else []))


def awaited(s: State) -> str | None:
    bt = s.battle
    if not bt.ordered:
        return "escort_order" if len(escorts_on(s)) >= 2 else None
    if bt.queue and bt.searched == bt.queue[0] and len(pursuit(s, bt.queue[0])) > 1:
        return "pursue"
    return None


def advance(ctx) -> None:
    s = ctx.state
    bt = s.battle
    if not bt.ordered or not bt.queue:
        attack_step(ctx, "aggressive")
        return
    label = bt.queue[0]
    if bt.searched != label:
        detect(ctx, label)
        if label in bt.ships:
            ctx.emit(ev.EscortSearched(escort=label))
        return
    ctx.emit(ev.EscortMoved(escort=label, to=pursuit(s, label)[0]))


def order(ctx, cmd: c.EscortOrder) -> None:
    labels = escorts_on(ctx.state)
    if sorted(cmd.labels) != sorted(labels):
        raise IllegalCommand(f"order every escort on the display once: {labels}")
    ctx.emit(ev.EscortsOrdered(labels=list(cmd.labels)))


def in_detection_range(s: State, label: str) -> list[str]:
    """UL-34: surfaced boats at 0–2, submerged at 0–1, each range +1 per Alerted counter."""
    bt = s.battle
    p = bt.ships[label]
    rng = s.rules.detection_range
    return [
        b
        for b, sub in bt.subs.items()
        if distance(s.data, p.area, sub.area) <= rng[0 if sub.side == "surfaced" else 1] + bt.alerted
    ]


def detect(ctx, label: str) -> None:
    """UL-34, UL-R21: an Unknown escort with a boat in its range is revealed (UL-31); it rolls against each boat in
    range not yet Detected: d10 + Alerted − damage + Tactics >= the card's Surfaced / Submerged number."""
    s = ctx.state
    bt = s.battle
    near = in_detection_range(s, label)
    if near and bt.ships[label].number is None:
        reveal(ctx, label)
        if label not in bt.ships:
            return
    p = bt.ships[label]
    for boat in near:
        sub = bt.subs[boat]
        if sub.detected or p.number is None:
            continue
        card = s.data.card(p.deck, p.number)
        need = card.detect[0 if sub.side == "surfaced" else 1]
        mods = [("Alerted", bt.alerted), ("damage", damage_mod(s, p)), ("Tactics", tactic(s, p, 0))]
        _, total = ctx.d10(
            f"{label} ({card.name}) detects {boat} ({sub.side}, needs {need})",
            DETECTION,
            mods,
            target=need,
            judge=lambda f, t, need=need: "Detected" if t >= need else "not detected",
        )
        ctx.emit(ev.DetectionRolled(escort=label, boat=boat, detected=total >= need))


def pursuit(s: State, label: str) -> list[str]:
    """UL-S1: with a Detected boat on the display the escort moves its Speed in areas toward the nearest Detected
    boat, by a shortest path, stopping on reaching its area; otherwise it holds. Ties: the player (UL-R26)."""
    bt = s.battle
    p = bt.ships[label]
    hunted = [sub for sub in bt.subs.values() if sub.detected]
    if not hunted:
        return [p.area]
    near = min(distance(s.data, p.area, sub.area) for sub in hunted)
    ends: list[str] = []
    for sub in hunted:
        if distance(s.data, p.area, sub.area) == near:
            ends += [a for a in steps_toward(s.data, p.area, sub.area, piece_speed(s, label)) if a not in ends]
    return ends


def pursue(ctx, cmd: c.Pursue) -> None:
    s = ctx.state
    label = s.battle.queue[0]
    require(cmd, [{"escort": label, "to": a} for a in pursuit(s, label)], f"{label} moves to one of its nearest areas")
    ctx.emit(ev.EscortMoved(escort=label, to=cmd.to))


# ---- enemy attacks (UL-S4, UL-S5) ----------------------------------------------------------------------------


def specs(s: State, decision: str) -> list:
    bt = s.battle
    if decision == "escort_order":
        labels = escorts_on(s)
        orders = [list(x) for x in permutations(labels)] if len(labels) <= 4 else None
        choices = [{"labels": x} for x in orders] if orders else None
        return [
            spec(
                c.EscortOrder,
                choices,
                [" then ".join(x) for x in orders] if orders else None,
                narrow={"labels": {"minItems": len(labels), "maxItems": len(labels), "items": {"enum": labels}}},
            )
        ]
    if decision == "pursue":
        label = bt.queue[0]
        ends = pursuit(s, label)
        return [spec(c.Pursue, [{"escort": label, "to": a} for a in ends], [f"{label} to {a}" for a in ends])]
    raise ValueError(f"no escort decision {decision!r}")
