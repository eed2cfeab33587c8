"""4.0-4.3 Gunnery: targets and positions, rates of fire, line of sight, and measuring each estimate.

A seat's `fire` is judged on its own ship logs only (BF-R3, R14, R15): arcs, line of sight and range are what
the tape shows once every estimate is in (4.3), never reasons to refuse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from domain.battlefleet_1900 import geometry as geo
from domain.battlefleet_1900.commands import Fire, GunOrder
from domain.battlefleet_1900.data import Weapon
from domain.battlefleet_1900.rules import sealing
from domain.battlefleet_1900.rules.orders import funnel
from domain.battlefleet_1900.state import State
from domain.engine import IllegalCommand
from events import battlefleet_1900 as ev
from events.core import RollResult

if TYPE_CHECKING:
    from domain.procedure import Ctx

CYCLES = {"1/2": 1, "1": 1, "2": 2}  # 4.1: rounds per gun per turn (1/2: every other turn)


def mount_weapon(state: State, ship: str, mount: str) -> Weapon | None:
    s = state.ships[ship]
    if mount in s.mounts:
        return state.weapon(ship, s.mounts[mount].weapon)
    w = state.data.weapons(s.cls).get(mount)
    return w if w is not None and w.pattern is not None else None


def capacity(state: State, ship: str, mount: str, side: str | None) -> tuple[int, int]:
    """BF-R14: (guns able to fire, cycles each) for a position or a pattern's side this turn. A position fires
    only when intact; damaged, destroyed and unmanned guns are silent; ROF 1/2 rests the turn after firing."""
    s, w = state.ships[ship], mount_weapon(state, ship, mount)
    if w is None:
        raise IllegalCommand(f"{ship} has no gun position or pattern {mount!r} (BF:6.2, BF-R14)")
    cycles = CYCLES[w.rof]
    if mount in s.mounts:
        m = s.mounts[mount]
        guns = (w.guns or 0) if m.intact else 0  # a position's weapon has its guns (data check)
        fired = m.fired
    else:
        manned = not w.boat or state.sealed[s.seat].manned.get(ship, True)
        where = state.data.layout(s.cls, w.id)
        guns = sum(1 for g, (sd, _) in zip(s.guns[w.id], where) if sd == side and g == "ok") if manned else 0
        fired = s.fired.get(f"{w.id}:{side}", 0)
    if w.rof == "1/2" and fired and fired >= state.turn - 1:
        cycles = 0
    return guns, cycles


def mounts_of(state: State, ship: str) -> list[tuple[str, str | None]]:
    """Every position and pattern side of a ship, in data order."""
    out: list[tuple[str, str | None]] = []
    for w in state.cls(ship).weapons:
        out += [(p, None) for p in w.pos] if w.pos else [(w.id, "port"), (w.id, "starboard")]
    return out


def can_fire(state: State, ship: str) -> bool:
    s = state.ships[ship]
    if not s.in_play or s.abandoned:
        return False
    return any(g * c for g, c in (capacity(state, ship, m, side) for m, side in mounts_of(state, ship)))


def targets(state: State, seat: str) -> list[str]:
    """BF-R13: the enemy ships a seat may aim at: every one in play (afloat, not surrendered, not withdrawn), in
    scenario order, wherever it lies: arc, sight and range are outcomes (BF-R3). Public facts only."""
    return [n for n in state.own(state.enemy(seat)) if state.ships[n].in_play]


def owes(state: State, seat: str) -> bool:
    """A seat with a ship that may have a gun able to fire, read on public facts (BF-R3, §4 "being asked leaks
    nothing"): up to 5.0.0 the boat gun crews, logged in the sealed `start`, count as manned here; from 6.0.0 they
    are public (BF-E6-2) and count as they are."""
    public = sealing.redact(state, None)
    return bool(targets(state, seat)) and any(can_fire(public, n) for n in state.own(seat))


# ---- validation ---------------------------------------------------------------------------------


def check_fire(state: State, seat: str, cmd: Fire) -> None:
    """BF-R14, R15: own ships able to fire, enemy targets in play, one estimate per firer and target within four
    brackets (from 4.0.0 with one ammunition for all its guns, BF-E4-24), each position's cycles and each pattern
    side's guns x cycles within its rate of fire."""
    reach = state.data.scale.brackets * state.data.scale.bracket_mm
    pairs: set[tuple[str, str]] = set()
    used: dict[tuple[str, str, str | None], int] = {}

    def able() -> list[str]:  # for a refusal's text only: worked out when one is given
        return [n for n in state.own(seat) if can_fire(state, n)]

    for sv in cmd.salvos:
        if sv.ship not in state.own(seat):
            raise IllegalCommand(f"{sv.ship} is not one of your ships; those able to fire are {able()} (BF-R2)")
        if not can_fire(state, sv.ship):
            raise IllegalCommand(f"{sv.ship} has no gun able to fire this turn; those able to fire are {able()} (BF:4.1, BF-R14)")
        if sv.target not in targets(state, seat):
            raise IllegalCommand(
                f"{sv.target!r} is not an enemy ship in play (surrendered ships are no target, BF-R13)"
            )
        if (sv.ship, sv.target) in pairs:
            raise IllegalCommand(f"one estimate per firer and target each turn (BF:4.1): {sv.ship} at {sv.target} twice")
        pairs.add((sv.ship, sv.target))
        if not 1 <= sv.estimate_mm <= reach:
            raise IllegalCommand(f"an estimate lies within the four brackets: 1-{reach} mm (BF-R15)")
        if state.edition.has("BF-E4-24") and len({g.ammo for g in sv.guns}) > 1:
            raise IllegalCommand(
                f"{sv.ship} at {sv.target}: one ammunition for the target, AP or HE for all its guns (BF:4.0: the target"
                " is recorded with 'whether or not those guns are firing AP', BF-R15)"
            )
        for g in sv.guns:
            key = _check_gun(state, sv.ship, g)
            used[key] = used.get(key, 0) + (g.cycles * (g.guns or 1))
    for (ship, mount, side), n in used.items():
        guns, cycles = capacity(state, ship, mount, side)
        pattern = mount not in state.ships[ship].mounts
        if n > (guns * cycles if pattern else cycles):
            what = (
                f"{mount} {side}: guns x cycles at most {guns} x {cycles}" if pattern else f"{mount}: {cycles} cycle(s)"
            )
            raise IllegalCommand(f"{ship} {what} this turn (BF:4.1, BF-R14)")


def _check_gun(state: State, ship: str, g: GunOrder) -> tuple[str, str, str | None]:
    w = mount_weapon(state, ship, g.mount)
    if w is None:
        raise IllegalCommand(
            f"{ship} has no gun position or pattern {g.mount!r}: {[m for m, _ in mounts_of(state, ship)]} (BF:6.2, BF-R14)"
        )
    pattern = g.mount not in state.ships[ship].mounts
    if pattern and (g.side is None or g.guns is None):
        raise IllegalCommand(f"{ship} {g.mount} is a beam pattern: give side (port|starboard) and guns (BF-R14)")
    if not pattern and (g.side is not None or g.guns is not None):
        raise IllegalCommand(f"{ship} {g.mount} is a position: it fires all its guns, without side or guns (BF-R14)")
    guns, cycles = capacity(state, ship, g.mount, g.side)
    if pattern and (g.guns or 0) > guns:  # a pattern's order has its guns (checked above)
        raise IllegalCommand(f"{ship} {g.mount} {g.side} has {guns} guns able to fire (BF-R14)")
    if guns == 0 or cycles == 0 or g.cycles > cycles:
        raise IllegalCommand(
            f"{ship} {g.mount}{' ' + g.side if g.side else ''} may fire {cycles if guns else 0} cycle(s) this turn (BF:4.1)"
        )
    return ship, g.mount, g.side


# ---- measuring ----------------------------------------------------------------------------------


def sight_blocked(state: State, a: geo.Pt, b: geo.Pt, skip: tuple[str, ...], bases: bool = True) -> bool:
    """4.1, BF-R29: the closed segment touches another base (sinking ones too) or land."""
    sc = state.data.scenarios[state.scenario]
    if any(geo.segment_meets(a, b, [tuple(p) for p in poly]) for poly in sc.land):
        return True
    if not bases:
        return False
    lo_x, hi_x, lo_y, hi_y = min(a.x, b.x), max(a.x, b.x), min(a.y, b.y), max(a.y, b.y)
    for name, s in state.ships.items():
        if name in skip or not s.on_table:
            continue
        p = state.pose(name)
        length, width = state.cls(name).base_mm
        r = geo.rim(length, width)
        far = r + length // 2 + 1  # the centre lies within length // 2 + 1 of the bow (test_geometry)
        if p.x + far < lo_x or p.x - far > hi_x or p.y + far < lo_y or p.y - far > hi_y:
            continue  # so does the test below, told by the bow alone
        c = geo.centre(p.x, p.y, p.h, length)
        if c.x + r < lo_x or c.x - r > hi_x or c.y + r < lo_y or c.y - r > hi_y:
            continue  # the base lies wholly beside the segment's box: it cannot meet it
        if geo.segment_meets(a, b, geo.base(p.x, p.y, p.h, length, width)):
            return True
    return False


def arcs_of(state: State, ship: str, mount: str, side: str | None, group: str | None = None) -> list[list[int]]:
    """A position's arcs (4.1 POSITIONS), or a pattern gun group's on its side: starboard as given, port mirrored."""
    if mount in state.ships[ship].mounts:
        return state.data.positions[mount].arcs
    a, b = state.data.patterns[group]
    return [[a, b]] if side == "starboard" else [[-b, -a]]


def bearing(state: State, ship: str, g: GunOrder, v: tuple[int, int]) -> list[tuple]:
    """What of an order bears on direction v: a position as one unit (all its guns), or each undamaged gun of a
    pattern side whose group's arc holds the target (BF-R37), in gun order (bow, beam, stern)."""
    h = state.pose(ship).h
    s = state.ships[ship]
    if g.mount in s.mounts:
        return [(ship, g.mount)] if geo.in_arcs(h, arcs_of(state, ship, g.mount, None), v) else []
    groups = {grp for grp in ("bow", "beam", "stern") if geo.in_arcs(h, arcs_of(state, ship, g.mount, g.side, grp), v)}
    where = state.data.layout(s.cls, g.mount)
    return [
        (ship, g.mount, i)
        for i, (x, (sd, grp)) in enumerate(zip(s.guns[g.mount], where))
        if sd == g.side and x == "ok" and grp in groups
    ]


class Spent:
    """BF-R53: the cycles each gun (a position's guns together, a pattern's one by one) has fired this turn, and
    whether one went over half range: 4.1's rate of fire is the "rounds per turn which each gun ... may fire",
    and over half range "all guns are limited to a maximum ROF of 1"."""

    def __init__(self) -> None:
        self.cycles: dict[tuple, int] = {}
        self.far: set[tuple] = set()

    def fire(self, units: list[tuple], limit: int, cycles: int, rof: int, far: bool) -> tuple[int, bool]:
        """Up to `limit` of the units fire up to `cycles` each, within what they have left: (the cycles fired in
        all, whether the rate of fire voided a round the order asked of the guns that bear)."""
        total = used = 0
        for u in units:
            if used == limit:
                break
            c = min(cycles, rof - self.cycles.get(u, 0))
            if far:
                c = min(c, 0 if u in self.far else 1)
            if c <= 0:
                continue
            self.cycles[u] = self.cycles.get(u, 0) + c
            if far:
                self.far.add(u)
            total, used = total + c, used + 1
        return total, total < min(limit, len(units)) * cycles


MEASURED = ("hit", "short", "over")


def resolve(ctx: Ctx) -> None:
    """4.3: every estimate measured once all are in: a hit zone, a splash short or over, or no shot at all. From
    4.0.0 a sinking ship the sealed orders name first rolls to keep its guns (6.0, BF-R16, BF-E4-23)."""
    s = ctx.state
    sealing.reveal(ctx, ["fire"])
    fires = {seat: msgspec.convert(s.sealed[seat].pending.get("fire", {}), Fire) for seat in s.seats}
    if s.edition.has("BF-E4-23"):
        abandon_rolls(ctx, {sv.ship for cmd in fires.values() for sv in cmd.salvos})
    markers, unfired, spent = [], [], Spent()
    for seat in s.seats:
        for sv in fires[seat].salvos:
            if not s.ships[sv.target].in_play or s.ships[sv.ship].abandoned:  # 6.0: "No further gunfire"
                continue
            m = measure_salvo(ctx, sv, spent)
            if isinstance(m, ev.MarkerRecord):
                markers.append(m)
            elif m is not None:
                unfired.append(m)
    if s.fog == "blur" and (markers or unfired):
        sealing.seal(ctx, "referee", "markers", ev.Markers(turn=s.turn, markers=markers, unfired=unfired))


def measure_salvo(ctx: Ctx, sv, spent: Spent) -> ev.MarkerRecord | ev.Unfired | None:
    """4.3, BF-R41: no line of sight, then out of range, out of arc, guns that cannot reach; else the tape, and
    each order fires what bears within its guns' rate of fire left this turn (BF-R53). Returns the referee's
    record under fog `blur`: the marker of a measured salvo, or (from 4.0.0) the truth of one that fired nothing."""
    s = ctx.state
    sc = s.data.scale
    f, t = funnel(s, sv.ship), funnel(s, sv.target)
    v = (t[0] - f[0], t[1] - f[1])
    tp = s.pose(sv.target)
    m = geo.measure(
        f, t, geo.base(tp.x, tp.y, tp.h, *s.cls(sv.target).base_mm), sc.bracket_mm, sc.brackets, sv.estimate_mm
    )
    weapons = [mount_weapon(s, sv.ship, g.mount) for g in sv.guns]
    bears = [bearing(s, sv.ship, g, v) for g in sv.guns]
    reach = [m.bracket <= sc.brackets and w.pen[m.bracket - 1] is not None for w in weapons]
    outcome = m.outcome
    if sight_blocked(s, f, t, (sv.ship, sv.target)):
        outcome = "no_los"
    elif outcome != "out_of_range" and not any(bears):
        outcome = "out_of_arc"
    elif outcome != "out_of_range" and not any(b and r for b, r in zip(bears, reach)):
        outcome = "out_of_range"  # the guns that bear cannot reach this bracket (pen null)
    fired, capped = [], False
    far = m.bracket > sc.brackets // 2  # 4.1: "over half range (third and fourth range brackets)"
    for g, w, units, r in zip(sv.guns, weapons, bears, reach):
        rounds = 0
        if outcome in MEASURED and r:
            lettered = g.mount in s.ships[sv.ship].mounts
            n, cut = spent.fire(units, 1 if lettered else g.guns, g.cycles, CYCLES[w.rof], far)
            rounds, capped = n * ((w.guns or 0) if lettered else 1), capped or cut  # a position's guns (data check)
        fired.append(ev.GunFire(mount=g.mount, side=g.side, ammo=g.ammo, cat=w.cat, rounds=rounds))
    shown = s.fog == "open" and outcome in MEASURED
    bracket = m.bracket if outcome != "no_los" else None
    total = sum(x.rounds for x in fired)
    # BF-E4-21: a salvo that fires nothing costs nothing, so under fog its true outcome and bracket would be a free
    # range-finder on any enemy ship, every turn: out of arc, out of range, no sight, or measured with every gun that
    # bears already spent on an earlier target (BF-R53: rounds 0, and `rof_capped` said the guns bore). The public
    # and the firer learn only that its guns could not bear (it knows its own arcs); no round, no splash (BF-R41).
    unfired = s.fog == "blur" and (outcome not in MEASURED or total == 0) and s.edition.has("BF-E4-21")
    ctx.emit(
        ev.SalvoMeasured(
            firer=sv.ship,
            target=sv.target,
            estimate=sv.estimate_mm,
            outcome="could_not_bear" if unfired else outcome,
            bracket=None if unfired else bracket,
            rounds=total,
            rof_capped=capped and not unfired,
            guns=fired,
            marker=[m.marker.x, m.marker.y] if shown else None,
            lead=m.lead if shown else None,
            exit=m.exit if shown else None,
        )
    )
    if unfired:
        return ev.Unfired(firer=sv.ship, target=sv.target, outcome=outcome, bracket=bracket, rof_capped=capped)
    if outcome not in MEASURED:
        return None
    return ev.MarkerRecord(
        firer=sv.ship,
        target=sv.target,
        x=m.marker.x,
        y=m.marker.y,
        outcome=outcome,
        length=m.length,
        lead=m.lead,
        exit=m.exit,
    )


def abandon_at_start(ctx: Ctx) -> None:
    """3.0.0's BF-R16: every sinking ship with a gun able to fire rolls as the Gunnery Phase starts, whether or not
    it then fires. From 4.0.0 the roll waits for the sealed orders (resolve, BF-E4-23)."""
    if not ctx.state.edition.has("BF-E4-23"):
        abandon_rolls(ctx, None)


def abandon_rolls(ctx: Ctx, firing: set[str] | None) -> None:
    """6.0, BF-R16: "If a sinking vessel attempts to fire its guns, it must roll 1D6 at the start of each gunnery
    phase": a sinking ship with a gun able to fire (from 4.0.0: one of the `firing` ships, those the revealed
    orders name) rolls 1D6, in the order of the ships; on 4-6 its crews abandon every gun for good."""
    s = ctx.state
    for name, ship in s.ships.items():
        if ship.sinking is None or not ship.in_play or not can_fire(s, name):
            continue
        if firing is not None and name not in firing:
            continue
        faces = ctx.roll(1, f"{name} is sinking: do the gun crews stay?", "BF:6.0 BF-R16", _abandon_said)
        if faces[0] >= 4:
            ctx.emit(ev.GunsAbandoned(ship=name))


def _abandon_said(faces: list[int]) -> RollResult:
    return RollResult(outcome="crews abandon the guns" if faces[0] >= 4 else "the guns keep firing", target=4)
