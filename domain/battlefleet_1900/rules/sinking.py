"""6.0 Step One - Fire & Flooding, and Step Four - Sinking & Listing.

Step One rolls each fire (external, then internal) and each uncontained heavy or severe compartment not
counter-flooded on Critical Effects, as they stood when the step began (BF-R22, R51). Step Four sets list and
trim, rolls the sink roll at five flooding points or more (BF-R26), counts down the ships going under, and
capsizes at the end (BF-R28).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.battlefleet_1900.data import COMPARTMENTS, codes
from domain.battlefleet_1900.rules.damage import ADJOINING, NO_SIDE, damage, flood, lose, pick, table_row
from domain.battlefleet_1900.rules.orders import leave
from domain.battlefleet_1900.state import Ship, State
from events import battlefleet_1900 as ev
from events.core import RollResult

if TYPE_CHECKING:
    from domain.procedure import Ctx


def uneven_boxes(state: State, list_: int, trim: int) -> int:
    """BATTLEFLEET.md §2 Uneven Flooding: list 2 costs 1 box, 3 costs 2; trim 3 costs 1, 4 costs 2."""
    u = state.data.tables.uneven
    cost = sum(n for lo, hi, n in u.list_boxes if lo <= list_ <= hi)
    return cost + sum(n for lo, hi, n in u.trim_boxes if lo <= trim <= hi)


def listing(ship) -> tuple[int, int]:
    """6.0 Step Four: list |PA - SA| side to side, trim |F - A| fore and aft, by the worst level in each."""
    f = ship.flooding
    return abs(f["PA"] - f["SA"]), abs(f["F"] - f["A"])


ACROSS = {"PA": "SA", "SA": "PA", "F": "A", "A": "F"}


def counterflood_levels(ship, zone: str) -> range:
    """6.3 Counter-flood (BF-E14-1): "flood all or part of an opposing zone in order to reduce the vessel's list": a
    zone flooded less than the zone across from it (port and starboard for the list, fore and aft for the trim), to the
    degrees that leave that list or trim smaller than it was (deeper than the zone across, by less than it led by).
    Empty for any other zone."""
    now, across = ship.flooding[zone], ship.flooding[ACROSS[zone]]
    return range(now + 1, min(4, 2 * across - now - 1) + 1) if across > now else range(0)


def sink_row(state: State, points: int, poor_stability: bool) -> tuple[int, int]:
    """BATTLEFLEET.md §2 Sinking: (roll needed, turns) by points; poor stability reads two points higher."""
    sk = state.data.tables.sinking
    rows = sk.rows
    at = min(points + (sk.poor_stability_shift if poor_stability else 0), rows[-1][1])
    return next((need, turns) for lo, hi, need, turns in rows if lo <= at <= hi)


def relist(ctx: Ctx, name: str) -> None:
    """List and trim and their temporary cost in boxes, recomputed (Step Four, and at once after a counter-flood)."""
    ship = ctx.state.ships[name]
    li, tr = listing(ship)
    boxes = uneven_boxes(ctx.state, li, tr)
    if (li, tr, boxes) != (ship.list, ship.trim, ship.list_boxes):
        ctx.emit(ev.ListingChanged(ship=name, list=li, trim=tr, boxes=boxes))


# ---- Step One -----------------------------------------------------------------------------------


def rolls_its_damage(state: State, ship: Ship) -> bool:
    """6.0 Steps One and Four: "*All* commanders whose vessels have active fires and/or heavy or severe flooding must
    roll", and a vessel at five flooding points or more rolls on the Sinking table: every ship in play, and from 13.0.0
    (BF-E13-2) a surrendered one too, which stays a base on the table (BF-R13) until it goes under. Before, a
    surrendered ship's fires and flooding never rolled, so it never sank."""
    return ship.in_play or (ship.lost == "surrendered" and state.edition.has("BF-E13-2"))


def step_one(ctx: Ctx) -> None:
    s = ctx.state
    crit = s.data.tables.critical
    for name, ship in s.ships.items():
        if not rolls_its_damage(s, ship):
            continue
        if ship.sinking is not None and not s.edition.has("BF-E4-3"):  # BF-R42 (3.0.0): a sinking ship skipped it
            continue
        # BF-R51: the fires and flooded compartments at the start of the step roll, each once: a compartment this
        # step's rolls flood to heavy rolls from the next Step One.
        ongoing = [c for c in COMPARTMENTS if rolls_for_flooding(ship, c)]
        for kind, count in (("fire_external", ship.fires_ext), ("fire_internal", ship.fires_int)):
            for _ in range(count):
                if not s.ships[name].on_table:  # gone under (an explosion, BOOM)
                    break
                face = ctx.roll(
                    1,
                    f"{kind.replace('_', ' ')} on {name}",
                    "BF:6.0 BF-R22",
                    lambda f: table_row(crit[kind], f[0]),  # called at once: kind is this one
                )[0]
                fire_result(ctx, name, kind, table_row(crit[kind], face))
        for c in ongoing:
            sh = s.ships[name]
            if not sh.on_table:
                break
            face = ctx.roll(
                1,
                f"{'severe' if sh.flooding[c] == 4 else 'heavy'} flooding in {name} {c}",
                "BF:6.0 BF-R22",
                lambda f: table_row(crit["flooding"], f[0]),
            )[0]
            result = table_row(crit["flooding"], face)
            ctx.emit(ev.CriticalRolled(ship=name, source=f"flooding:{c}", result=result))
            for code in codes(result):
                spreads(ctx, name, c, code)


def rolls_for_flooding(ship, c: str) -> bool:
    """BF-R22: an uncontained heavy or severe compartment, not counter-flooded (6.3), rolls on Hvy/Sev FL."""
    return ship.flooding[c] >= 3 and c not in ship.contained and c not in ship.counterflooded


def fire_result(ctx: Ctx, name: str, kind: str, result: str) -> None:
    ctx.emit(ev.CriticalRolled(ship=name, source=kind, result=result))
    ship = ctx.state.ships[name]
    if result == "out":
        ext, inn = ship.fires_ext - (kind == "fire_external"), ship.fires_int - (kind == "fire_internal")
        ctx.emit(ev.FireChanged(ship=name, external=ext, internal=inn, cause=f"{kind}: out"))
        return
    # a fire's damage comes from no side; up to 12.0.0 the stand-in "ahead" (none of S, P, F, Fi, X reads a side, but
    # a data set's M or FL would have: BF-E13-1)
    side = NO_SIDE if ctx.state.edition.has("BF-E13-1") else "ahead"
    for code in codes(result):
        damage(ctx, name, code, side, f"critical:{kind}")


def spreads(ctx: Ctx, name: str, c: str, code: str) -> None:
    """BF-R22: a new FL lands in the same compartment on 1-3, else (4-6) in one adjoining it (a pick, BF-R32)."""
    face = ctx.roll(
        1,
        f"does the flooding in {name} {c} spread?",
        "BF:6.0 BF-R22",
        lambda f: "same compartment" if f[0] <= 3 else "adjoining",
    )[0]
    where = (
        c
        if face <= 3
        else pick(ctx, list(ADJOINING[c]), f"adjoining compartment of {c} on {name}", "BF:6.0 BF-R22 BF-R32")
    )
    level = ctx.state.data.glossary[code].n
    ctx.emit(
        ev.DamageApplied(
            ship=name,
            code=code,
            kind="flooding",
            location=where,
            destroy=False,
            source=f"critical:flooding:{c}",
            effect=f"flooding {where} to at least {level}",
        )
    )
    flood(ctx, name, where, level, f"critical:flooding:{c}")


# ---- Step Four ----------------------------------------------------------------------------------


def step_four(ctx: Ctx) -> None:
    s = ctx.state
    capsize: list[str] = []
    for name, ship in s.ships.items():
        if not ship.on_table:
            continue
        if ship.sinking is not None:  # BF-R26: counts down at each later Step Four
            if ship.sinking <= 1:
                lose(ctx, name, "sunk")
            else:
                ctx.emit(ev.ShipSinking(ship=name, turns=ship.sinking - 1))
            continue
        if not rolls_its_damage(s, ship):
            continue
        if ship.scuttling and all(v == 4 for v in ship.flooding.values()):
            lose(ctx, name, "scuttled")  # BF-R25
            continue
        relist(ctx, name)
        sink_roll(ctx, name)
        if s.ships[name].sinking is None and s.ships[name].list >= s.data.tables.uneven.capsize_from:
            capsize.append(name)
    lo, hi = s.data.tables.uneven.capsize_on
    for name in capsize:  # BF-R28: a listing capsize comes at the end of Step Four
        face = ctx.roll(
            1,
            f"{name} lists {s.ships[name].list}: does she capsize?",
            "BF:6.0 BF-R28",
            lambda f: RollResult(outcome="capsizes" if lo <= f[0] <= hi else "stays up", target=lo),
        )[0]
        if lo <= face <= hi:
            lose(ctx, name, "capsized")


def sink_roll(ctx: Ctx, name: str) -> None:
    """6.0, BF-R26: at five points or more, the unmodified 1D6 (less the DC -1, which 6.3 grants) >= n sinks it
    in t turns."""
    s = ctx.state
    ship = s.ships[name]
    pts = ship.points
    if pts < s.data.tables.sinking.from_points:
        return
    need, turns = sink_row(s, pts, s.cls(name).stability == "poor")
    mod = -1 if ship.sink_minus else 0
    sinks = ctx.passes(
        f"sink roll for {name} ({pts} flooding points)",
        "BF:6.0 BF-R26",
        need,
        [("damage control -1 this turn (6.3)", mod)],
    )
    ctx.emit(ev.SinkRolled(ship=name, points=pts, need=need, sinks=sinks))
    if sinks:
        leave(ctx, name, ev.ShipSinking(ship=name, turns=turns))
