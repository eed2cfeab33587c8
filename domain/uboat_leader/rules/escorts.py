"""The enemy's steps of a combat turn: Escorts detect (UL-34, UL-R21) and move (UL-36, cut mid-sentence: UL-S1),
Merchants never detect (UL-35); enemy ships attack (UL-S4) and their hits (UL-S5)."""

from __future__ import annotations

from itertools import permutations

from domain.engine import IllegalCommand
from domain.uboat_leader import commands as c
from domain.uboat_leader.display import distance, steps_toward
from domain.uboat_leader.legal import require, spec
from domain.uboat_leader.procedure import stand_in
from domain.uboat_leader.rules.attack import attack_step
from domain.uboat_leader.rules.crew import add_stress, evasion
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


def enemy_targets(s: State, label: str) -> list[str]:
    """UL-S4: an escort attacks the nearest Detected boat at range <= 1 surfaced, 0 submerged; a Merchant or Lone
    ship the nearest surfaced boat at <= 1 (its card has a surface number only); a Naval ship the nearest boat at <= 1
    its card has a number for (surfaced, or submerged and Detected). An Unknown escort with a target is revealed
    first and attacks only if its card has a number for that side; Unknown Merchants and Naval ships do not attack;
    a ship with no target does nothing (UL-R38)."""
    bt = s.battle
    p = bt.ships[label]
    r = s.rules
    card = s.data.card(p.deck, p.number) if p.number is not None else None
    pool = []
    for b, sub in bt.subs.items():
        d = distance(s.data, p.area, sub.area)
        side = 0 if sub.side == "surfaced" else 1
        if p.escort:
            ok = sub.detected and d <= r.escort_attack_range[side] and (card is None or card.attack[side] is not None)
        elif card is None:
            ok = False
        elif p.deck == "merchants":
            ok = side == 0 and d <= r.ship_attack_range and card.attack[0] is not None
        else:
            ok = d <= r.ship_attack_range and card.attack[side] is not None and (side == 0 or sub.detected)
        if ok:
            pool.append((d, b))
    near = min((d for d, _ in pool), default=None)
    return [b for d, b in pool if d == near]


def next_attacker(s: State) -> tuple[str | None, list[str]]:
    """UL-S4: ships attack in label order, once each."""
    for label in s.battle.queue:
        t = enemy_targets(s, label) if label in s.battle.ships else []
        if t:
            return label, t
    return None, []


def enemy_awaited(s: State) -> str | None:
    label, t = next_attacker(s)
    return "target" if len(t) > 1 and s.battle.ships[label].number is not None else None


def enemy_advance(ctx) -> None:
    s = ctx.state
    label, t = next_attacker(s)
    if label is None:
        attack_step(ctx, "cautious")
    elif s.battle.ships[label].number is None:  # an Unknown escort is revealed before it attacks
        reveal(ctx, label)
    else:
        enemy_attack(ctx, label, t[0])


def choose_target(ctx, cmd: c.ChooseTarget) -> None:
    label, t = next_attacker(ctx.state)
    require(cmd, [{"ship": label, "boat": b} for b in t], f"{label} attacks one of {t}")
    enemy_attack(ctx, label, cmd.boat)


def enemy_attack(ctx, label: str, boat: str) -> None:
    """UL-S4: hit if d10 + Tactics − 1 Light / − 2 Heavy − 2 against a Deep boat >= the card's number for the boat's
    side."""
    s = ctx.state
    bt = s.battle
    p, sub = bt.ships[label], bt.subs[boat]
    card = s.data.card(p.deck, p.number)
    need = card.attack[0 if sub.side == "surfaced" or len(card.attack) == 1 else 1]
    mods = [
        ("Tactics", tactic(s, p, 1)),
        ("damage", damage_mod(s, p)),
        ("Deep", s.rules.deep_attack if sub.deep else 0),
    ]
    _, total = ctx.d10(
        f"{label} ({card.name}) attacks {boat} ({sub.side}, needs {need})",
        stand_in("UL-S4", "Ataque, Barcos Enemigos"),
        mods,
        target=need,
        judge=lambda f, t: "hit" if t >= need else "miss",
    )
    ctx.emit(ev.EnemyAttacked(ship=label, boat=boat, hit=total >= need))
    if total >= need:
        hit(ctx, boat)


def hit(ctx, boat: str) -> None:
    """UL-S5: an unmodified d10: 10 sinks the boat; at most EV (Unfit: Shaken EV) +1 stress; else +3 stress."""
    s = ctx.state
    r = s.rules
    ev_ = evasion(s, boat)

    def judge(f: int, t: int) -> str:
        return "sunk" if f >= r.hit_sunk_on else "light: +1 stress" if f <= ev_ else "heavy: +3 stress"

    face, _ = ctx.d10(
        f"{boat} is hit (10 sinks, <= EV {ev_} light)", stand_in("UL-S5", "Impacto"), target=ev_, judge=judge
    )
    if face >= r.hit_sunk_on:
        ctx.emit(ev.UBoatHit(boat=boat, result="sunk"), ev.UBoatSunk(boat=boat))
    elif face <= ev_:
        ctx.emit(ev.UBoatHit(boat=boat, result="light"))
        add_stress(ctx, boat, r.hit_light_stress, "hit by an enemy ship")
    else:
        ctx.emit(ev.UBoatHit(boat=boat, result="heavy"))
        add_stress(ctx, boat, r.hit_heavy_stress, "hit by an enemy ship")


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
    label, t = next_attacker(s)
    return [spec(c.ChooseTarget, [{"ship": label, "boat": b} for b in t], [f"{label} attacks {b}" for b in t])]
