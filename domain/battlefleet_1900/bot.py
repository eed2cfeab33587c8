"""A documented policy for either side, playing only from what its own seat may read (the state redacted for it:
its own ships exact, the enemy as sighted through the fog).

Policy, per step:
- start: surface skimmers where a tube may carry them, boat guns manned.
- give_orders: each division steers for the enemy's nearest ship until it is within `CLOSE` mm, then turns to
  run parallel to it (battleships stay out of torpedo range; destroyers close to launch). A turn of 45 degrees or
  more takes an arrow (in succession in line ahead, together otherwise); a smaller one is made free in the move.
  From 4.0.0 (every base an obstacle, BF-R29) a division whose lead has one of its own side's ships close ahead
  first turns 90 degrees together away from it.
- move: the lead's greatest distance; each follower its own nearest (it clamps itself).
- fire: every ship fires every gun that may fire at the nearest enemy in play, AP from the main guns, HE from the
  rest (from 4.0.0, one ammunition per target, BF-E4-24: AP for all its guns if a main gun fires, else HE),
  estimating the range as the funnel-to-funnel distance it sees, aimed into the danger zone.
- launch_torpedoes: every loaded tube bearing on a sighted enemy well within range, at the nearest.
- damage_control: contain heavy flooding, counter-flood a list of 2 or more, then repairs (propulsion, steering,
  rudder, main, secondary, DC), the sink roll's -1 at five points or more, and recovering from a CT hit.
It never drops out, transfers command, sends messages, surrenders, scuttles or concedes.
"""

from __future__ import annotations

from math import isqrt
from typing import Any

from domain.battlefleet_1900 import geometry as geo
from domain.battlefleet_1900.rules import damage_control as dcr
from domain.battlefleet_1900.rules import gunnery, movement, torpedoes
from domain.battlefleet_1900.rules.sealing import redact
from domain.battlefleet_1900.rules.sinking import listing
from domain.battlefleet_1900.rules.turn import shares
from domain.battlefleet_1900.state import State
from domain.engine import CommandSpec
from events.battlefleet_1900 import Pose

CLOSE = 900  # mm: about the middle of bracket 2, beyond torpedo range (400)
TORPEDO_CLOSE = 380  # destroyers run in this close, then turn to bring the target abeam of their tubes


def choose(state: State, legal: list[CommandSpec], seat: str) -> dict[str, Any] | None:
    """The seat's command for this step, from the state as that seat may read it (redacted here again, so a caller
    that hands over the whole state gets the same choice)."""
    mine = {s.type: s for s in legal if seat in s.seats and s.type != "concede"}
    if not mine:
        return None
    kind = next(iter(mine))
    return {"type": kind, **POLICY[kind](redact(state, seat), seat)}


def outcomes(state: State) -> dict[str, int]:
    """winner: 0 a draw, 1 the first seat (japan), 2 the second (russia), -1 not over; turns played; ships lost in all
    and per seat (sunk, capsized, scuttled, blown up, surrendered or going under, BF-R31, R39)."""
    result = state.result
    out = {
        "winner": -1 if result is None else 0 if result == "draw" else state.seats.index(result) + 1,
        "turns": state.turn,
    }
    lost = {sh.seat: sh.ships_lost for sh in shares(state)}
    out["ships_lost"] = sum(lost.values())
    out |= {f"ships_lost_{seat}": n for seat, n in lost.items()}
    return out


def categories(state: State) -> dict[str, dict[int, str]]:
    """`winner` is a category: a seat, a draw, or a game not over."""
    return {"winner": {**{i + 1: seat for i, seat in enumerate(state.seats)}, 0: "drawn", -1: "not over"}}


# ---- what the seat sees -------------------------------------------------------------------------


def seen(state: State, ship: str) -> Pose | None:
    """Own ships exact; the enemy as this seat sees it (exact under fog open)."""
    sec = state.sealed[state.ships[ship].seat]
    if ship in sec.poses:
        return sec.poses[ship]
    for s in state.sealed.values():
        if ship in s.sighting:
            return s.sighting[ship]
    return None


def funnel_of(state: State, ship: str, p: Pose) -> geo.Pt:
    return geo.point(p.x, p.y, p.h, state.cls(ship).funnel_mm, 0)


def sighted(state: State, seat: str) -> list[tuple[str, geo.Pt]]:
    """The enemy ships in play this seat sees, in scenario order, with their funnels: worked out once per step's
    choice, however many of its own ships look for the nearest."""
    out = []
    for n in state.own(state.enemy(seat)):
        p = seen(state, n)
        if p is not None and state.ships[n].in_play:
            out.append((n, funnel_of(state, n, p)))
    return out


def nearest(state: State, seat: str, ship: str, enemies: list[tuple[str, geo.Pt]]) -> tuple[str, int] | None:
    """The nearest of the `sighted` enemies, funnel to funnel (the first of those as near), and its distance."""
    me = funnel_of(state, ship, state.sealed[seat].poses[ship])
    best = None
    for n, f in enemies:
        d2 = geo.dist2(me, f)
        if best is None or d2 < best[1]:
            best = (n, d2)
    return None if best is None else (best[0], isqrt(best[1]))


def bearing_to(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Whole degrees from a to b clockwise from north, read off the U table (no float trigonometry): the first of
    the 720 half-degree directions nearest the line, found among every tenth and then the 21 around the best of
    them (the nearest lies within 6 of it), as a search of all 720 finds it (tests/battlefleet_1900/test_bot.py)."""
    vx, vy = b[0] - a[0], b[1] - a[1]
    if vx == vy == 0:
        return 0
    along = [ux * vx + uy * vy for ux, uy in geo.U[::10]]  # no call per direction: index() finds the first best
    coarse = 10 * along.index(max(along))
    window = sorted({(coarse + k) % 720 for k in range(-10, 11)})
    along = [geo.U[i][0] * vx + geo.U[i][1] * vy for i in window]
    return window[along.index(max(along))] // 2


def wanted_turn(state: State, seat: str, division: str, enemies: list[tuple[str, geo.Pt]]) -> int:
    d = state.divisions[division]
    lead = d.ships[0]
    p = state.sealed[seat].poses[lead]
    near = nearest(state, seat, lead, enemies)
    if near is None:
        return 0
    target, dist = near
    tp = seen(state, target)
    destroyer = state.cls(lead).type in ("destroyer", "torpedo_boat")
    close = TORPEDO_CLOSE if destroyer else CLOSE
    toward = bearing_to((p.x, p.y), (tp.x, tp.y))
    if dist > close:
        want = toward
    elif destroyer:  # bring the target abeam, where the tubes bear
        want = min((toward + 90) % 360, (toward + 270) % 360, key=lambda w: abs((w - p.h + 540) % 360 - 180))
    else:
        want = tp.h
    delta = (want - p.h + 540) % 360 - 180
    w, h = state.data.scale.table_mm
    ahead = geo.straight(p.x, p.y, p.h, 500)
    if not (150 <= ahead.x <= w - 150 and 150 <= ahead.y <= h - 150):  # keep on the table: head for its middle
        delta = (bearing_to((p.x, p.y), (w // 2, h // 2)) - p.h + 540) % 360 - 180
    return delta


# ---- the steps ----------------------------------------------------------------------------------


def start(state: State, seat: str) -> dict:
    ships = [
        {"ship": n, "torpedo_depth": "shallow"}
        for n in state.own(seat)
        if any(t.shallow_ok for t in state.cls(n).torpedoes)
    ]
    return {"ships": ships}


def own_ship_ahead(state: State, seat: str, division: str) -> int:
    """From 4.0.0 every base is an obstacle (BF-R29): which way one of its own side's ships lies close ahead of the
    division's lead, within a move and 45 degrees of its heading (+1 starboard, -1 port or dead ahead), else 0."""
    lead = state.divisions[division].ships[0]
    p = state.sealed[seat].poses[lead]
    reach = movement.limits(state, lead)[1] + 2 * state.cls(lead).base_mm[0]
    fx, fy = geo.forward(p.h)
    sx, sy = geo.starboard(p.h)
    for n in state.own(seat):
        if n == lead or not state.ships[n].on_table:
            continue
        q = state.sealed[seat].poses[n]
        for c in geo.base(q.x, q.y, q.h, *state.cls(n).base_mm):
            ahead = geo.rnd((c.x - p.x) * fx + (c.y - p.y) * fy)
            side = geo.rnd((c.x - p.x) * sx + (c.y - p.y) * sy)
            if 0 < ahead <= reach and abs(side) <= ahead:
                return 1 if side > 0 else -1
    return 0


def give_orders(state: State, seat: str) -> dict:
    out = []
    enemies = sighted(state, seat)
    for d in state.divisions.values():
        if d.seat != seat or not d.ships or d.flagship is None or state.ships[d.flagship].ct:
            continue
        if state.edition.has("BF-E4-6") and (side := own_ship_ahead(state, seat, d.id)):
            # turn together away from it (each ship on its own circle: a line meeting itself head on parts)
            to = "port" if side > 0 else "starboard"
            out.append({"division": d.id, "orders": [{"turn": "together", "to": to, "arrow": 90}]})
            continue
        delta = wanted_turn(state, seat, d.id, enemies)
        if abs(delta) < 45:
            continue
        kind = "succession" if movement.formation(state, d.id) == "line_ahead" else "together"
        out.append(
            {
                "division": d.id,
                "orders": [
                    {"turn": kind, "to": "starboard" if delta > 0 else "port", "arrow": 90 if abs(delta) >= 90 else 45}
                ],
            }
        )
    return {"divisions": out}


def move(state: State, seat: str) -> dict:
    out = []
    enemies = sighted(state, seat)
    for d in state.divisions.values():
        if d.seat != seat or not d.ships or not movement.can_move(state, d.ships[0]):
            continue
        lo, hi = movement.limits(state, d.ships[0])
        stop = any(a.stop for a in d.orders)
        entry: dict[str, Any] = {"division": d.id, "distance_mm": lo if stop else hi}
        arrows = [a for a in d.orders if not a.stop]
        delta = wanted_turn(state, seat, d.id, enemies)
        if d.dropped_out:
            entry["turns_deg"] = [45]
        elif arrows:
            lo_b, hi_b = movement.BANDS[arrows[0].arrow]
            entry["turns_deg"] = [min(max(abs(delta), lo_b), hi_b)]
        elif not stop and delta and d.flagship is not None and not state.ships[d.flagship].ct:
            entry["turns_deg"] = [max(-44, min(44, delta))]  # a free turn is the flagship's too (glossary CT)
        out.append(entry)
    return {"divisions": out}


def fire(state: State, seat: str) -> dict:
    salvos = []
    b = state.data.scale.bracket_mm
    enemies = sighted(state, seat)
    for n in state.own(seat):
        if not gunnery.can_fire(state, n):
            continue
        near = nearest(state, seat, n, enemies)
        if near is None:
            continue
        target, dist = near
        if dist > 4 * b:
            continue
        k = max(1, -(-dist // b))
        estimate = max(1, min(4 * b, dist - 6 + {1: b // 4, 2: b // 8}.get(k, 0)))
        p, tp = state.sealed[seat].poses[n], seen(state, target)
        side = "starboard" if geo.cw(geo.forward(p.h), (tp.x - p.x, tp.y - p.y)) > 0 else "port"
        guns = []
        for mount, s in gunnery.mounts_of(state, n):
            if s not in (None, side):
                continue
            g, cyc = gunnery.capacity(state, n, mount, s)
            if not g or not cyc:
                continue
            w = gunnery.mount_weapon(state, n, mount)
            entry = {
                "mount": mount,
                "cycles": min(cyc, 1 if k >= 3 else cyc),
                "ammo": "AP" if w.cat == "main" else "HE",
            }
            if s:
                entry |= {"side": s, "guns": g}
            guns.append(entry)
        if guns and state.edition.has("BF-E4-24"):
            ammo = "AP" if any(g["ammo"] == "AP" for g in guns) else "HE"
            guns = [g | {"ammo": ammo} for g in guns]
        if guns:
            salvos.append({"ship": n, "target": target, "estimate_mm": estimate, "guns": guns})
    return {"salvos": salvos}


def launch_torpedoes(state: State, seat: str) -> dict:
    launches = []
    enemies = sighted(state, seat)
    for n in state.own(seat):
        sh = state.ships[n]
        if not torpedoes.loaded(state, n):
            continue
        p = state.sealed[seat].poses[n]
        f = funnel_of(state, n, p)
        normal = state.sealed[seat].depth.get(n, "normal") == "normal"
        for t in state.cls(n).torpedoes:
            for key, left in sh.tubes.items():
                mount, _, side = key.partition(":")
                if mount != t.id or not left:
                    continue
                arcs = (
                    state.data.tube_arcs[t.pos]
                    if side != "port"
                    else [[-b, -a] for a, b in state.data.tube_arcs[t.pos]]
                )
                target = _torpedo_target(state, enemies, f, p.h, arcs, t.range_mm * 95 // 100, normal)
                if target is not None:
                    launches.append(
                        {"ship": n, "mount": mount, "target": target, "count": left} | ({"side": side} if side else {})
                    )
    return {"launches": launches}


def _torpedo_target(
    state: State, enemies: list[tuple[str, geo.Pt]], f: geo.Pt, h: int, arcs, reach: int, normal: bool
) -> str | None:
    """The nearest `sighted` enemy within reach and the arc that a torpedo at this depth can strike."""
    best = None
    for n, g in enemies:
        if normal and state.cls(n).size <= 4:
            continue
        d2 = geo.dist2(f, g)
        if d2 <= reach * reach and geo.in_arcs(h, arcs, (g[0] - f[0], g[1] - f[1])) and (best is None or d2 < best[1]):
            best = (n, d2)
    return None if best is None else best[0]


def damage_control(state: State, seat: str) -> dict:
    actions = []
    for n in state.own(seat):
        if not dcr.able(state, n):
            continue
        sh = state.ships[n]
        dice = dcr.dice_left(state, n)
        wants: list[dict] = [
            {"function": "contain_flooding", "compartment": c}
            for c, v in sh.flooding.items()
            if v == 3 and c not in sh.contained
        ]
        li, _ = listing(sh)
        if li >= 2 and not sh.ct:
            low = "PA" if sh.flooding["PA"] < sh.flooding["SA"] else "SA"
            wants.append(
                {"function": "counterflood", "compartment": low, "level": max(sh.flooding["PA"], sh.flooding["SA"])}
            )
        wants += [{"function": "repair_propulsion"}] * (sh.margin or sh.damaged)  # the margin first (6.2)
        wants += [{"function": "repair_steering"}] * sh.tr
        if sh.rudder:
            wants.append({"function": "repair_rudder"})
        for pos, m in sh.mounts.items():
            cat = state.weapon(n, m.weapon).cat
            if m.slashes and not (m.destroyed or m.flooded) and cat in ("main", "secondary"):
                wants += [{"function": f"repair_{cat}", "mount": pos}] * m.slashes
        if sh.points >= 5:
            wants.append({"function": "sink_minus_1"})
        wants += [{"function": "repair_dc"}] * sh.dc_damaged
        if sh.ct:
            wants.append({"function": "recover_ct"})
        actions += [{"ship": n, **w} for w in wants[:dice]]
    return {"actions": actions}


POLICY = {
    "start": start,
    "give_orders": give_orders,
    "move": move,
    "fire": fire,
    "launch_torpedoes": launch_torpedoes,
    "damage_control": damage_control,
}
