"""6.1-6.2 Damage types and locations: what each glossary code does to a ship, and where it lands.

A code is rolled (its locations and any critical it triggers) into `Effect`s, then applied. Outside Step 2 the
two follow at once; Step 2 rolls everything first and applies after (BF-R28, rules/hits.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from domain.battlefleet_1900.data import COMPARTMENTS, codes
from domain.battlefleet_1900.rules import orders, sealing
from domain.battlefleet_1900.state import GONE, State, dc_dice, propulsion_hit
from events import battlefleet_1900 as ev

if TYPE_CHECKING:
    from domain.procedure import Ctx

THIRDS = {  # BATTLEFLEET.md §3: the compartments a 1D6 splits into thirds, by embattled side
    "port": ("F", "PA", "A"),
    "starboard": ("F", "SA", "A"),
    "ahead": ("F", "PA", "SA"),
    "astern": ("A", "PA", "SA"),
}
ADJOINING = {"F": ("PA", "SA"), "PA": ("F", "SA", "A"), "SA": ("F", "PA", "A"), "A": ("PA", "SA")}  # all but F-A


# ---- pure rules ---------------------------------------------------------------------------------


def pick_dice(n: int) -> int:
    """BF-R32: the fewest D6s k with 6^k >= n."""
    k = 0
    while 6**k < n:
        k += 1
    return k


def pick_index(faces: list[int], n: int) -> int | None:
    """BF-R32: v = sum (d_i - 1) 6^(k-i); q = 6^k // n; v >= n q rerolls (None), else item v // q."""
    k = len(faces)
    v = sum((d - 1) * 6 ** (k - 1 - i) for i, d in enumerate(faces))
    q = 6**k // n
    return None if v >= n * q else v // q


def column(pen: int, armour: int, bounds: list[int]) -> int:
    """BATTLEFLEET.md §2: the column by (pen - armour) * 100 // armour; no armour reads the last column."""
    if armour == 0:
        return len(bounds)
    c = (pen - armour) * 100 // armour
    return sum(1 for b in bounds if c >= b)


def table_row(rows, face: int):
    return next(r[2] for r in rows if r[0] <= face <= r[1])


NO_SIDE = "none"  # 13.0.0 (BF-E13-1): a Step One critical's damage (a fire's) came from no side: no third left out


def main_locations(state: State, ship: str, side: str) -> list[str]:
    """BF-R18: the main positions a main hit from `side` may land on, in data order: every one, but a lozenge (main
    wings both sides) breaks the roll "into thirds" by "the embattled-side rule" (6.2): hit on a beam, not its
    disengaged wing; from 13.0.0 (BF-E13-1) hit from ahead or astern, not its far end (the centre-line positions in
    the aft compartment from ahead, in the forward one from astern; its wings stay). Before, a lozenge hit from ahead
    or astern rolled among all four."""
    main, at = main_positions(state, ship), state.data.positions
    if {at[p].wing for p in main} - {None} != {"port", "starboard"}:
        return main
    if side in ("port", "starboard"):
        return [p for p in main if at[p].wing != ("starboard" if side == "port" else "port")]
    if side in ("ahead", "astern") and state.edition.has("BF-E13-1"):
        (far,) = {"F", "A"} - set(THIRDS[side])  # the end compartment the embattled side's thirds leave out
        return [p for p in main if at[p].wing is not None or at[p].compartment != far]
    return main


def main_positions(state: State, ship: str) -> list[str]:
    return [p for w in state.cls(ship).weapons if w.cat == "main" for p in w.pos or []]


def has_feature(state: State, ship: str, kind: str) -> bool:
    """6.1: a code for a feature the ship lacks has no effect (unless its data says what it does instead)."""
    k = state.cls(ship)
    if kind in ("main", "secondary", "tertiary"):
        return any(w.cat == kind for w in k.weapons)
    if kind == "boat":
        return any(w.boat for w in k.weapons)
    return True


def item_types(state: State, ship: str, cat: str, picked: list[str]) -> list[str]:
    """BF-R19: the ship's entries of a category with an item available: a lettered entry always, a pattern entry
    while it has an undamaged gun not already picked this step."""
    s, out = state.ships[ship], []
    for w in state.cls(ship).weapons:
        if w.cat != cat:
            continue
        if w.pos or any(g == "ok" and f"{w.id}:{i}" not in picked for i, g in enumerate(s.guns[w.id])):
            out.append(w.id)
    return out


def gun_items(state: State, ship: str, cat: str, picked: list[str]) -> list[str]:
    """BF-R19 (4.0.0, BF-E4-7): 6.2 "The locations of all S and T hits are always assigned randomly from existing
    weapons throughout the entire vessel": one pick among every item of the category, in data order: each position
    of a lettered entry (regardless of damage, 6.2 "Lettered Positions") and each undamaged pattern gun not picked
    this step ("Numbered Patterns"). 3.0.0 picked the entry first (`item_types`), so Peresvet's single stem gun took
    half her S hits instead of 1 in 11."""
    s, out = state.ships[ship], []
    for w in state.cls(ship).weapons:
        if w.cat != cat:
            continue
        if w.pos:
            out.extend(w.pos)
        else:
            out.extend(f"{w.id}:{i}" for i, g in enumerate(s.guns[w.id]) if g == "ok" and f"{w.id}:{i}" not in picked)
    return out


# ---- rolling a code into effects ------------------------------------------------------------------


@dataclass
class Effect:
    ship: str
    code: str
    kind: str
    source: str
    location: str | None = None
    destroy: bool = False
    n: int = 1
    note: str = ""
    then: list[Effect] = field(default_factory=list)  # what it triggers (a main critical's codes)


def pick(ctx: Ctx, items: list[str], purpose: str, rule: str) -> str:
    """BF-R32: a pick among items with D6s (one die gives the text's halves and thirds)."""
    if len(items) == 1:
        return items[0]
    superseded = None  # from 15.0.0 (BF-E15-1) a re-roll names the roll it supersedes
    while True:
        faces = ctx.roll(pick_dice(len(items)), purpose, rule, lambda fs: _picked(items, fs), rerolls=superseded)
        i = pick_index(faces, len(items))
        if i is not None:
            return items[i]
        if ctx.state.edition.has("BF-E15-1"):
            superseded = ctx.dice.next_roll - 1


def _picked(items: list[str], faces: list[int]) -> str:
    i = pick_index(faces, len(items))
    return "re-roll" if i is None else items[i]


def roll_code(ctx: Ctx, ship: str, code: str, side: str, source: str, picked: list[str]) -> list[Effect]:
    """Everything a code needs rolled (locations, the main critical) on the state as it is now."""
    s, g = ctx.state, ctx.state.data.glossary[code]
    if not has_feature(s, ship, g.kind):
        if g.if_missing:
            return [e for c in codes(g.if_missing) for e in roll_code(ctx, ship, c, side, source, picked)]
        return [Effect(ship, code, "none", source, note=f"no effect: {ship} has no {g.kind} (6.1)")]
    e = Effect(ship, code, g.kind, source, destroy=g.destroy, n=g.n)
    if g.kind == "main":
        e.location = pick(ctx, main_locations(s, ship, side), f"main hit location on {ship}", "BF:6.2 BF-R18 BF-R32")
        if not s.ships[ship].mounts[e.location].flooded:  # 6.2: a flooded magazine spares the critical roll
            e.then = critical_main(ctx, ship, e.location, side)
    elif g.kind in ("secondary", "tertiary") and s.edition.has("BF-E4-7"):
        items = gun_items(s, ship, g.kind, picked)
        if not items:
            return [Effect(ship, code, "none", source, note=f"no effect: no {g.kind} gun left undamaged (6.1)")]
        e.location = pick(ctx, items, f"{g.kind} hit location on {ship}", "BF:6.2 BF-R19 BF-R32")
        if ":" in e.location:
            picked.append(e.location)
    elif g.kind in ("secondary", "tertiary"):
        types = item_types(s, ship, g.kind, picked)
        if not types:
            return [Effect(ship, code, "none", source, note=f"no effect: no {g.kind} gun left undamaged (6.1)")]
        wid = pick(ctx, types, f"{g.kind} type hit on {ship}", "BF:6.2 BF-R19 BF-R32")
        w = s.weapon(ship, wid)
        if w.pos:
            e.location = pick(ctx, list(w.pos), f"{wid} position hit on {ship}", "BF:6.2 BF-R19 BF-R32")
        else:
            ok = [f"{wid}:{i}" for i, gun in enumerate(s.ships[ship].guns[wid]) if gun == "ok"]
            e.location = pick(ctx, [x for x in ok if x not in picked], f"{wid} gun hit on {ship}", "BF:6.2 BF-R19")
            picked.append(e.location)
    elif g.kind == "boat":
        return boat_losses(ctx, ship, code, g.n, source, picked)
    elif g.kind == "flooding":
        said = "" if sealing.aspects_sealed(s) or side == NO_SIDE else f" ({side})"  # BF-E9-1: from sealed poses
        where = list(COMPARTMENTS if side == NO_SIDE else THIRDS[side])  # from no side (BF-E13-1): any of the four
        e.location = pick(ctx, where, f"flooding location on {ship}{said}", "BF:6.2 BF-R32")
    elif g.kind == "rudder":
        if s.ships[ship].secured or s.ships[ship].rudder is not None:
            return [
                Effect(ship, code, "none", source, note="no effect: the rudder is secured (RC) or jammed already")
            ]  # BF-R43
        side_roll = ctx.roll(1, f"jammed rudder's side on {ship}", "BF:6.1 BF-R30", _port_on_1_3)
        e.location = _port_on_1_3(side_roll)
    elif g.kind == "explosion":
        e.location = pick(ctx, list(COMPARTMENTS), f"explosion compartment on {ship}", "BF:6.2 BF-R32")
    return [e]


def _port_on_1_3(faces: list[int]) -> str:
    return "port" if faces[0] <= 3 else "starboard"


def boat_losses(ctx: Ctx, ship: str, code: str, n: int, source: str, picked: list[str]) -> list[Effect]:
    """Bn (BF-R20): n boat guns lost, at most one when their crews are not deployed (6.2); each an undamaged gun of
    the pattern not picked this step (6.2 "Numbered Patterns", BF-R43)."""
    s = ctx.state
    if not s.sealed[s.ships[ship].seat].manned.get(ship, True) and s.cls(ship).armoured_deck:
        n = min(n, 1)
    out = []
    wid = next(w.id for w in s.cls(ship).weapons if w.boat)
    for _ in range(n):
        ok = [f"{wid}:{i}" for i, g in enumerate(s.ships[ship].guns[wid]) if g == "ok"]
        ok = [x for x in ok if x not in picked]
        if not ok:
            break
        loc = pick(ctx, ok, f"boat gun lost on {ship}", "BF:6.2 BF-R20 BF-R32")
        picked.append(loc)
        out.append(Effect(ship, code, "boat", source, location=loc, destroy=True))
    return out or [Effect(ship, code, "none", source, note="no effect: no undamaged boat gun left (6.1)")]


def critical_main(ctx: Ctx, ship: str, pos: str, side: str) -> list[Effect]:
    """6.2 glossary M: a main hit rolls 2D6 on Critical Effects (main): 2 BOOM, 3-4 X+Fi, 5-6 Fi."""
    rows = ctx.state.data.tables.critical["main"]
    faces = ctx.roll(2, f"main critical on {ship} ({pos})", "BF:6.2", lambda f: table_row(rows, sum(f)), sides=6)
    result = table_row(rows, sum(faces))
    ctx.emit(ev.CriticalRolled(ship=ship, source=f"main:{pos}", result=result))
    return [e for c in codes(result) for e in roll_code(ctx, ship, c, side, f"critical:main:{pos}", [])]


# ---- applying effects ---------------------------------------------------------------------------


def damage(ctx: Ctx, ship: str, code: str, side: str, source: str) -> None:
    """A code rolled and applied at once (Steps 1 and 3: effects apply in order, BF-R28)."""
    for e in roll_code(ctx, ship, code, side, source, []):
        apply(ctx, e)


def apply(ctx: Ctx, e: Effect) -> None:
    s = ctx.state
    ship = s.ships[e.ship]
    if ship.lost in GONE:
        return  # gone already (BF-R28): nothing left to damage
    note = e.note or describe(s, e)
    ctx.emit(
        ev.DamageApplied(
            ship=e.ship, code=e.code, kind=e.kind, location=e.location, destroy=e.destroy, source=e.source, effect=note
        )
    )
    if e.kind == "flooding":
        flood(ctx, e.ship, e.location, e.n, e.source)
    elif e.kind in ("fire_external", "fire_internal"):
        ext = ship.fires_ext + (e.kind == "fire_external")
        ctx.emit(
            ev.FireChanged(
                ship=e.ship, external=ext, internal=ship.fires_int + (e.kind == "fire_internal"), cause=e.source
            )
        )
    elif e.kind == "explosion":
        flood(ctx, e.ship, e.location, 2, e.source)
        ctx.emit(ev.FireChanged(ship=e.ship, external=ship.fires_ext, internal=ship.fires_int + 1, cause=e.source))
    elif e.kind == "blow_up":
        lose(ctx, e.ship, "blown_up")
    for t in e.then:
        apply(ctx, t)


def describe(s: State, e: Effect) -> str:
    """A short account of what the effect does, read off the state before it applies."""
    ship = s.ships[e.ship]
    if e.kind == "propulsion":
        d, g, m = propulsion_hit(ship.destroyed, ship.damaged, ship.margin, e.destroy)
        return f"propulsion: {d} destroyed, {g} damaged, {m} in the margin"
    if e.kind == "dc" and ship.dc_damaged >= dc_dice(s, e.ship):
        return "no effect: every DC box is marked"
    return f"{e.kind} {e.location or ''} {'destroyed' if e.destroy else 'hit'}".replace("  ", " ")


def flood(
    ctx: Ctx, ship: str, compartment: str, level: int, cause: str, how: str = "hit", mark: bool = False
) -> None:
    """BF-R21: FLn floods a compartment to at least level n (severe at most); a new heavy or severe hit is
    recorded even where the level stands, since it breaks a containment (6.3), and so is a `mark`ed flooding (a
    counter-flood to the level the zone already has, BF-R59)."""
    now = ctx.state.ships[ship].flooding[compartment]
    new = min(4, max(now, level))
    if new != now or (how == "hit" and level >= 3) or mark:
        ctx.emit(ev.FloodingChanged(ship=ship, compartment=compartment, level=new, cause=cause, how=how))


def lose(ctx: Ctx, ship: str, how: str) -> None:
    """The ship is gone (BF-R26, R28); a flagship's command passes at once (2.1)."""
    orders.leave(ctx, ship, ev.VesselLost(ship=ship, how=how))
