"""Escorts detect (UL-34, UL-R21) and move (UL-36, cut mid-sentence: UL-S1); Merchants never detect (UL-35). Enemy
attacks: enemy.py."""

from __future__ import annotations

from itertools import permutations

from domain import decisions as ui
from domain.engine import IllegalCommand
from domain.procedure import memoized
from domain.uboat_leader import commands as c
from domain.uboat_leader.distances import distance, steps_toward
from domain.uboat_leader.el_dado import d10
from domain.uboat_leader.legal import require, spec
from domain.uboat_leader.rules.attack import attack_step
from domain.uboat_leader.rules.reveal import reveal
from domain.uboat_leader.rules.ships import damage_mod, piece_name, piece_speed, tactic
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


def one_at_a_time(s: State) -> bool:
    """UL-34: "Puedes hacerles actuar en el orden que prefieras. Realiza la Detección y el movimiento para un Escolta
    antes de proceder al siguiente": from UL-E3-8 the player names the next escort after seeing the previous one
    detect and move; before it, a whole order was asked up front."""
    return s.edition.has("UL-E3-8")


def to_act(s: State) -> list[str]:
    """The escorts still to detect and move in this turn's escort step."""
    return [lb for lb in escorts_on(s) if lb not in s.battle.acted]


def awaited(s: State) -> str | None:
    bt = s.battle
    if one_at_a_time(s) and not bt.queue:
        return "escort_order" if len(to_act(s)) >= 2 else None
    if not one_at_a_time(s) and not bt.ordered:
        return "escort_order" if len(escorts_on(s)) >= 2 else None
    if bt.queue and bt.searched == bt.queue[0] and len(pursuit(s, bt.queue[0])) > 1:
        return "pursue"
    return None


def advance(ctx) -> None:
    s = ctx.state
    bt = s.battle
    if one_at_a_time(s) and not bt.queue:
        left = to_act(s)
        if left:  # the last one (two or more are asked for): it is next without a choice (UL-R46)
            ctx.emit(ev.EscortsOrdered(labels=left))
        else:
            attack_step(ctx, "aggressive")
        return
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
    s = ctx.state
    if one_at_a_time(s):
        require(cmd, order_choices(s), f"name the one escort to act next, one of {to_act(s)} (UL-34, UL-R46)")
    elif sorted(cmd.labels) != sorted(escorts_on(s)):
        raise IllegalCommand(f"order every escort on the display once: {escorts_on(s)} (UL-34, UL-R46)")
    ctx.emit(ev.EscortsOrdered(labels=list(cmd.labels)))


def order_choices(s: State) -> list[dict] | None:
    """The legal `labels`: one escort still to act (UL-E3-8), else every order of all escorts (None past four)."""
    if one_at_a_time(s):
        return [{"labels": [lb]} for lb in to_act(s)]
    labels = escorts_on(s)
    return [{"labels": list(x)} for x in permutations(labels)] if len(labels) <= 4 else None


def order_ui(s: State, labels: list[str], size: int) -> ui.Form:
    """UL-34, UL-R46: the next escort to act (3.0.0), or every escort once in the order they act (2.0.0), each named
    as the display shows it (an Unknown one by its label only)."""
    opts = [ui.Option(value=lb, label=piece_name(s, lb)) for lb in labels]
    said = "the escort to act next" if size == 1 else "the escorts in the order they act"
    pick = ui.Pick(field="labels", label=said, options=opts, min=size, max=size, ordered=True, rulebook="Escoltas")
    return ui.Form(controls=[pick])


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


def rolls_against(s: State, near: list[str]) -> list[str]:
    """UL-34, UL-R21: the boats in an escort's range it rolls against. "Un Escolta chequea para Detección contra cada
    U-Boat" in range, and "No es necesario colocar más de una ficha de Detectado encima de cada U-Boat" (a success on
    a Detected boat adds no second counter): from 6.0.0 (UL-E6-1) each of them, Detected ones too; 2.0.0-5.0.0 only
    those not yet Detected."""
    return list(near) if s.edition.has("UL-E6-1") else [b for b in near if not s.battle.subs[b].detected]


def detect(ctx, label: str) -> None:
    """UL-34, UL-R21: an escort rolls against each boat in its range (`rolls_against`): d10 + Alerted − damage +
    Tactics >= the card's Surfaced / Submerged number. An Unknown one is revealed as it rolls (UL-31: "También revela
    a un Escolta cuando éste lanza el dado para Detectar"), so from 3.0.0 (UL-E3-11) only when it has a boat to roll
    against (from 6.0.0, UL-E6-1, any boat in its range); 2.0.0 revealed it with any boat in range."""
    s = ctx.state
    bt = s.battle
    near = in_detection_range(s, label)
    rolls = rolls_against(s, near)
    if (rolls if s.edition.has("UL-E3-11") else near) and bt.ships[label].number is None:
        reveal(ctx, label)
        if label not in bt.ships:
            return
    p = bt.ships[label]
    if p.number is None:  # still Unknown: it had no boat to roll against
        return
    for boat in rolls:
        sub = bt.subs[boat]
        card = s.data.card(p.deck, p.number)
        need = card.detect[0 if sub.side == "surfaced" else 1]
        mods = [("Alerted", bt.alerted), ("damage", damage_mod(s, p)), ("Tactics", tactic(s, p, 0))]
        already = ", already Detected" if sub.detected else ""  # UL-E6-1: the roll changes nothing either way
        yes, no = ("Detected", "not detected") if not already else ("Detected: no second counter", "it stays Detected")
        _, total = d10(
            ctx,
            f"{label} ({card.name}) detects {boat} ({sub.side}, needs {need}{already})",
            DETECTION,
            mods,
            target=need,
            judge=lambda f, t: yes if t >= need else no,  # called at once
        )
        ctx.emit(ev.DetectionRolled(escort=label, boat=boat, detected=total >= need))


@memoized  # asked by the decision awaited, its entries and the command's judgement
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
    require(cmd, [{"escort": label, "to": a} for a in pursuit(s, label)], f"{label} moves to one of its nearest areas (UL-S1, UL-R26)")
    ctx.emit(ev.EscortMoved(escort=label, to=cmd.to))


# ---- enemy attacks (UL-S4, UL-S5) ----------------------------------------------------------------------------


def specs(s: State, decision: str) -> list:
    bt = s.battle
    if decision == "escort_order":
        labels = to_act(s) if one_at_a_time(s) else escorts_on(s)
        size = 1 if one_at_a_time(s) else len(labels)
        choices = order_choices(s)
        said = (lambda x: f"{x[0]} detects and moves next") if one_at_a_time(s) else " then ".join
        return [
            spec(
                c.EscortOrder,
                choices,
                [said(x["labels"]) for x in choices] if choices else None,
                narrow={"labels": {"minItems": size, "maxItems": size, "items": {"enum": labels}}},
                form=lambda: order_ui(s, labels, size),
            )
        ]
    if decision == "pursue":
        label = bt.queue[0]
        ends = pursuit(s, label)
        return [spec(c.Pursue, [{"escort": label, "to": a} for a in ends], [f"{label} to {a}" for a in ends])]
    raise ValueError(f"no escort decision {decision!r}")
