"""Ataque, Barcos Enemigos: enemy ships attack (UL-S4, UL-R38) and their hits (UL-S5); ties: the player (UL-R26)."""

from __future__ import annotations

from domain.procedure import memoized
from domain.uboat_leader import commands as c
from domain.uboat_leader.distances import distance
from domain.uboat_leader.el_dado import d10, stand_in
from domain.uboat_leader.legal import require, spec
from domain.uboat_leader.rules.attack import attack_step
from domain.uboat_leader.rules.crew import add_stress, evasion
from domain.uboat_leader.rules.reveal import reveal
from domain.uboat_leader.rules.ships import damage_mod, tactic
from domain.uboat_leader.state import State
from events import uboat_leader as ev


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


@memoized  # asked by the decision awaited, its entries and the command's judgement
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
    require(cmd, [{"ship": label, "boat": b} for b in t], f"{label} attacks one of {t} (UL-S4, UL-R26)")
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
    _, total = d10(
        ctx,
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

    face, _ = d10(
        ctx,
        f"{boat} is hit (10 sinks, <= EV {ev_} light)", stand_in("UL-S5", "Impacto"), target=ev_, judge=judge
    )
    if face >= r.hit_sunk_on:
        ctx.emit(ev.UBoatHit(boat=boat, result="sunk"), ev.UBoatSunk(boat=boat))
    elif face <= ev_:
        ctx.emit(ev.UBoatHit(boat=boat, result="light"))
        add_stress(ctx, boat, r.hit_light_stress, stand_in("UL-S5", "Impacto"))
    else:
        ctx.emit(ev.UBoatHit(boat=boat, result="heavy"))
        add_stress(ctx, boat, r.hit_heavy_stress, stand_in("UL-S5", "Impacto"))


def specs(s: State) -> list:
    label, t = next_attacker(s)
    return [spec(c.ChooseTarget, [{"ship": label, "boat": b} for b in t], [f"{label} attacks {b}" for b in t])]
