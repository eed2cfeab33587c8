"""6.3 Damage Control (Step Three): repairs and command functions, one DC die per damage event, declared before
rolling and resolved together (BF-R24, R25)."""

from __future__ import annotations

from typing import TYPE_CHECKING, get_args

import msgspec

from domain.battlefleet_1900.commands import DamageControl, DcAction, DcFunction
from domain.battlefleet_1900.data import COMPARTMENTS
from domain.battlefleet_1900.rules import sealing
from domain.battlefleet_1900.rules.damage import flood, main_positions
from domain.battlefleet_1900.rules.sinking import counterflood_levels, listing, relist
from domain.battlefleet_1900.state import State, dc_dice
from domain.engine import IllegalCommand
from events import battlefleet_1900 as ev

if TYPE_CHECKING:
    from domain.procedure import Ctx

COMMAND = ("flood_magazine", "counterflood")  # 6.3 command functions: not with a CT hit (recover_ct is the one)
REPAIR_ROW = {"repair_tertiary": "repair_secondary"}  # BF-R24: T repairs on the S row (data may differ)


def dice_left(state: State, ship: str) -> int:
    return dc_dice(state, ship) - state.ships[ship].dc_damaged


def able(state: State, ship: str) -> bool:
    s = state.ships[ship]
    return s.in_play and s.sinking is None and dice_left(state, ship) > 0


def owes(state: State, seat: str) -> bool:
    """BF-R45: a seat with a ship in play, not sinking, with DC dice: securing or freeing the rudder is always open
    to it, so there is always something to roll (6.3)."""
    return any(able(state, n) for n in state.own(seat))


def scuttle_rolls(state: State, ship: str) -> int:
    """BF-R25: each Step Three a scuttling ship rolls for every compartment not yet severe, while dice last;
    BF-R52: not while it has a CT hit (they are counter-flood rolls, a command function, 6.3)."""
    if state.ships[ship].ct:
        return 0
    return min(dice_left(state, ship), sum(1 for v in state.ships[ship].flooding.values() if v < 4))


def events_for(state: State, ship: str, a: DcAction) -> int | None:
    """How many damage events this action may address (6.3: one die each), or None when it cannot be taken."""
    s = state.ships[ship]
    f = a.function
    if f in COMMAND and s.ct:
        return None
    if f == "repair_propulsion":  # 6.2: the margin "must be repaired before repairs to any propulsion boxes may be
        return s.margin or s.damaged  # attempted" (BF-R23)
    if f == "repair_bridge":  # 6.3: a destroyed feature (BRx) is never repaired
        return 0 if s.bridge_x else s.bridge
    if f == "repair_steering":
        return s.tr
    if f == "repair_dc":
        return s.dc_damaged
    if f == "repair_rudder":
        return int(s.rudder is not None)
    if f == "secure_rudder":
        return int(s.rudder is None and not s.secured)
    if f == "free_rudder":
        return int(s.secured)
    if f in ("sink_minus_1", "recover_ct"):
        return int(f == "sink_minus_1" or s.ct > 0)
    if f in ("repair_main", "repair_secondary", "repair_tertiary"):
        cat = f.split("_")[1]
        return _slashes(state, ship, a.mount, cat)
    if f == "flood_magazine":  # BF-R38: "any main gun position's magazine" (6.3); 3.0.0 asked for a damaged one
        m = s.mounts.get(a.mount or "")
        if a.mount not in main_positions(state, ship) or m.flooded:
            return 0
        return int(state.edition.has("BF-E4-2") or bool(m.slashes or m.destroyed))
    if f == "contain_flooding":
        return int(a.compartment is not None and s.flooding[a.compartment] == 3 and a.compartment not in s.contained)
    if f == "counterflood":  # BF-R25: only against uneven flooding, to a level above the present one
        if a.compartment is None:
            return 0
        if state.edition.has("BF-E14-1"):  # in a zone opposing the list or trim, and leaving it smaller
            return int(a.level in counterflood_levels(s, a.compartment))
        return int(bool(any(listing(s)) and a.level is not None and a.level > s.flooding[a.compartment]))
    return None


def _slashes(state: State, ship: str, mount: str | None, cat: str) -> int | None:
    s = state.ships[ship]
    if mount in s.mounts:
        w = state.weapon(ship, s.mounts[mount].weapon)
        m = s.mounts[mount]  # 6.3: destroyed, or out of commission for the game with its magazine flooded
        return m.slashes if w.cat == cat and not (m.destroyed or m.flooded) else None
    if mount and ":" in mount:
        wid, _, i = mount.partition(":")
        guns = s.guns.get(wid)
        if guns and i.isdigit() and int(i) < len(guns) and state.weapon(ship, wid).cat == cat:
            return int(guns[int(i)] == "damaged")
    return None


def target_of(a: DcAction) -> str | None:
    return a.mount or a.compartment


def scuttles(state: State, ship: str, scuttle: list[str] | tuple[str, ...] = ()) -> bool:
    """BF-R25, R58: the ship is scuttling, or made to scuttle by this very command (`scuttle`): its scuttling rolls
    come first from its DC dice and are its counter-floods this phase."""
    return state.ships[ship].scuttling or ship in scuttle


def action_dice(state: State, ship: str, scuttle: list[str] | tuple[str, ...] = ()) -> int:
    """BF-R24, R25: the DC dice a ship has for actions this Step Three, its scuttling rolls taken first."""
    return dice_left(state, ship) - (scuttle_rolls(state, ship) if scuttles(state, ship, scuttle) else 0)


def may_scuttle(state: State, ship: str) -> bool:
    """6.3, BF-R25: scuttling is a command function (no CT hit), begun once, by a ship able to use DC."""
    return able(state, ship) and not state.ships[ship].scuttling and not state.ships[ship].ct


def open_actions(state: State, ship: str) -> list[tuple[DcAction, int]]:
    """Every action the ship may take now and how many DC dice it may spend on it (6.3: one per damage event, at
    most its dice), in the functions' order, then target: each position or pattern gun, compartment and level
    `events_for` has something for; a ship already scuttling takes no counterflood (BF-R58). What check_dc accepts
    of one ship, its dice apart."""
    if not able(state, ship) or action_dice(state, ship) <= 0:
        return []
    s, out = state.ships[ship], []
    # each position and pattern gun with its category, once: a repair is tried only on its own category's guns and
    # a magazine only on a main position (events_for would answer None or 0 for the others)
    cats = [(m, state.weapon(ship, mt.weapon).cat) for m, mt in s.mounts.items()]
    cats += [(f"{w}:{i}", state.weapon(ship, w).cat) for w, g in s.guns.items() for i in range(len(g))]
    mains = set(main_positions(state, ship))
    for f in get_args(DcFunction):
        if f in ("repair_main", "repair_secondary", "repair_tertiary"):
            cat = f.split("_")[1]
            tried = [DcAction(ship=ship, function=f, mount=m) for m, c in cats if c == cat]
        elif f == "flood_magazine":
            tried = [DcAction(ship=ship, function=f, mount=m) for m, _ in cats if m in mains]
        elif f == "contain_flooding":
            tried = [DcAction(ship=ship, function=f, compartment=c) for c in COMPARTMENTS]
        elif f == "counterflood":
            levels = [] if scuttles(state, ship) else range(1, 5)
            tried = [DcAction(ship=ship, function=f, compartment=c, level=n) for c in COMPARTMENTS for n in levels]
        else:
            tried = [DcAction(ship=ship, function=f)]
        out += [(a, n) for a in tried if (n := events_for(state, ship, a))]
    return out


def check_dc(state: State, seat: str, cmd: DamageControl) -> None:
    """6.3, BF-R24: own ships able to roll; each action has something to address, one die per damage event, and a
    ship's actions (and scuttling rolls) within its DC dice."""
    spent: dict[str, int] = {}
    per_event: dict[tuple, int] = {}
    for ship in cmd.scuttle:
        if ship not in state.own(seat) or not may_scuttle(state, ship):
            raise IllegalCommand(f"{ship!r}: scuttle a ship of yours in play, not sinking, with DC dice and no CT hit (BF:6.3, BF-R25)")
    for a in cmd.actions:
        if a.ship not in state.own(seat) or not able(state, a.ship):
            raise IllegalCommand(
                f"{a.ship!r} is not one of your ships able to use damage control: {[n for n in state.own(seat) if able(state, n)]} (BF:6.3, BF-R45)"
            )
        if a.function == "counterflood" and scuttles(state, a.ship, cmd.scuttle):
            raise IllegalCommand(  # 6.3: its scuttling rolls counter-flood every zone not yet severe, once a phase
                f"{a.ship} is scuttling: its DC dice this turn roll its scuttling counter-floods (BF:6.3, BF-R25)"
            )
        n = events_for(state, a.ship, a)
        key = (a.ship, a.function if a.function not in ("secure_rudder", "free_rudder") else "rudder", target_of(a))
        per_event[key] = per_event.get(key, 0) + 1
        if not n and a.function == "counterflood" and state.edition.has("BF-E14-1"):
            flooded = state.ships[a.ship]
            may = {z: r for z in sorted(COMPARTMENTS) if (r := counterflood_levels(flooded, z))}
            zones = {z: f"{r.start}-{r.stop - 1}" if len(r) > 1 else str(r.start) for z, r in may.items()}
            raise IllegalCommand(
                f"{a.ship}: counterflood an opposing zone, one less flooded than the zone across from it, to a level"
                f" that leaves the list or trim smaller: {zones or 'none, its flooding is even'} (BF:6.3, BF-R25)"
            )
        if not n or per_event[key] > n:
            raise IllegalCommand(
                f"{a.ship}: nothing (more) for {a.function}{f' on {target_of(a)}' if target_of(a) else ''} (BF:6.3)"
            )
        spent[a.ship] = spent.get(a.ship, 0) + 1
    for ship, n in spent.items():
        if n > action_dice(state, ship, cmd.scuttle):
            raise IllegalCommand(
                f"{ship} has {dice_left(state, ship)} DC dice this turn; scuttling rolls come first (BF-R24, R25)"
            )


# BF-R59 (4.0.0, BF-E4-5): 6.3's actions "are considered simultaneous, and they do not need to be executed in any
# particular order": they are rolled and applied in this order, whatever order the seat wrote them in. Containment
# comes before any flooding, so a compartment a magazine or a scuttling roll makes severe loses it at once (BF-R21:
# "severe flooding events cannot be contained"); flooded magazines (+1 level each) before counter-floods, so a zone
# counter-flooded in the same step ends at the degree the commander chose or higher, never at chosen + 1.
CANONICAL = (
    "repair_propulsion",
    "repair_bridge",
    "repair_main",
    "repair_steering",
    "repair_secondary",
    "repair_tertiary",
    "repair_dc",
    "repair_rudder",
    "secure_rudder",
    "free_rudder",
    "contain_flooding",
    "sink_minus_1",
    "recover_ct",
    "flood_magazine",
    "counterflood",
)


def canonical(state: State, seat: str, actions: list[DcAction]) -> list[DcAction]:
    """BF-R59: the seat's actions by function (CANONICAL), then ship (scenario order, `own`), then target and level."""
    ships = {n: i for i, n in enumerate(state.own(seat))}
    return sorted(
        actions, key=lambda a: (CANONICAL.index(a.function), ships[a.ship], target_of(a) or "", a.level or 0)
    )


def resolve(ctx: Ctx) -> None:
    s = ctx.state
    sealing.reveal(ctx, ["damage_control"])
    for seat in s.seats:
        cmd = msgspec.convert(s.sealed[seat].pending.get("damage_control", {}), DamageControl)
        for ship in cmd.scuttle:
            ctx.emit(ev.ScuttlingBegun(ship=ship))
        # who scuttles, and with how many rolls, is judged as the step begins (BF-R52: a CT hit recovered in this
        # step lets the rolls resume at the next)
        rolls = {n: scuttle_rolls(s, n) for n in s.own(seat) if s.ships[n].scuttling and able(s, n)}
        if s.edition.has("BF-E4-5"):  # BF-R59: one simultaneous set; the scuttling counter-floods come last
            for a in canonical(s, seat, cmd.actions):
                act(ctx, a)
        for name, n in rolls.items():
            if n:
                scuttle(ctx, name, n)
        if not s.edition.has("BF-E4-5"):  # 3.0.0: the actions in the order written, after the scuttling
            for a in cmd.actions:
                act(ctx, a)


def scuttle(ctx: Ctx, name: str, rolls: int) -> None:
    """BF-R25: counter-flood each compartment not yet severe to severe, F, PA, SA, A while dice last (`rolls`)."""
    s = ctx.state
    for c in [c for c in COMPARTMENTS if s.ships[name].flooding[c] < 4][:rolls]:
        ok = ctx.passes(f"{name} scuttles: counter-flood {c}", "BF:6.3 BF-R25", s.data.tables.dc["counterflood"])
        ctx.emit(ev.DcResolved(ship=name, function="counterflood", target=c, success=ok, level=4))
        if ok:
            flood(ctx, name, c, 4, "scuttling", how="counterflood")
    relist(ctx, name)


def act(ctx: Ctx, a: DcAction) -> None:
    s = ctx.state
    f = a.function
    need = s.data.tables.dc[REPAIR_ROW.get(f, f)]
    ok = ctx.passes(f"{a.ship}: {f}{f' {target_of(a)}' if target_of(a) else ''}", "BF:6.3 BF-R24", need)
    ctx.emit(ev.DcResolved(ship=a.ship, function=f, target=target_of(a), success=ok, level=a.level))
    if not ok:
        return
    if f == "counterflood":
        # BF-R59: a magazine flooded in the same step may already have brought the zone to the chosen degree; it is
        # still the commander's counter-flood (6.3: counterflooded compartments "do not trigger flooding effect rolls")
        mark = s.edition.has("BF-E4-5") and a.compartment not in s.ships[a.ship].counterflooded
        flood(ctx, a.ship, a.compartment, a.level, "counterflood", how="counterflood", mark=mark)
        relist(ctx, a.ship)  # 6.3: list and trim are redone at once
    elif f == "flood_magazine":
        comp = s.data.positions[a.mount].compartment
        level = min(4, s.ships[a.ship].flooding[comp] + 1)  # BF-R21: one level more, none becoming light
        flood(ctx, a.ship, comp, level, f"magazine {a.mount}", how="magazine")
