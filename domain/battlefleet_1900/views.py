"""What each reader sees (BATTLEFLEET.md §5): the ship log, the gunnery log, the table and the phase.

Every view is per seat: it renders `sealing.redact(state, reader)`, so a seat sees its own secrets, the
referee everything, the public what the fog leaves public, and everyone everything after the battle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import msgspec

from domain.battlefleet_1900 import commands as c
from domain.battlefleet_1900.rules import damage_control, gunnery, movement
from domain.battlefleet_1900.rules.sealing import redact
from domain.battlefleet_1900.state import State, dc_dice
from domain.digest import core_line, count, listed, tally, tidy, times
from domain.engine import REFEREE, Reader, View, tag
from events import battlefleet_1900 as ev
from events.vocabulary import Event


class Now(msgspec.Struct, forbid_unknown_fields=True):
    turn: int
    step: str
    over: bool
    result: str | None


class PoseView(msgspec.Struct, forbid_unknown_fields=True):
    x: int
    y: int
    h: int
    exact: bool  # False: a fog sighting (offset, heading rounded)


class Propulsion(msgspec.Struct, forbid_unknown_fields=True):
    boxes: list[int]
    destroyed: int
    damaged: int
    margin: int
    list_boxes: int
    top_box: int


class Speed(msgspec.Struct, forbid_unknown_fields=True):
    last_mm: int
    min_mm: int
    max_mm: int


class PositionLine(msgspec.Struct, forbid_unknown_fields=True):
    pos: str
    guns: int
    slashes: int
    destroyed: bool
    magazine_flooded: bool
    last_fired: int


class PatternGun(msgspec.Struct, forbid_unknown_fields=True):
    mount: str  # "weapon:index", as damage control names it
    side: str
    group: str
    status: str


class WeaponLine(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    cat: str
    bore: str
    rof: str
    pen: list[int | None]
    boat: bool
    positions: list[PositionLine]
    guns: list[PatternGun]


class TubeLine(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    pos: str
    side: str | None
    left: int


class Compartment(msgspec.Struct, forbid_unknown_fields=True):
    compartment: str
    level: int
    contained: bool
    counterflooded: bool


class ShipLogEntry(msgspec.Struct, forbid_unknown_fields=True):
    ship: str
    cls: str
    seat: str
    division: str
    flagship: bool
    fleet_flagship: bool
    status: Literal["afloat", "sinking", "sunk", "capsized", "scuttled", "blown_up", "surrendered", "withdrawn"]
    sinking_turns: int | None
    propulsion: Propulsion
    speed: Speed | None  # own ships (and the referee's read)
    weapons: list[WeaponLine]
    torpedoes: list[TubeLine]
    torpedo_depth: str | None
    boat_guns_manned: bool | None
    dc_boxes: int
    dc_damaged: int
    compartments: list[Compartment]
    points: int
    listing: int  # |PA - SA|
    trim: int
    fires_external: int
    fires_internal: int
    tr: int
    rudder_jammed: str | None
    rudder_secured: bool
    bridge: int
    bridge_destroyed: bool
    ct: int
    searchlight: int
    guns_abandoned: bool
    scuttling: bool
    able_to_fire: bool
    able_to_move: bool
    dc_dice_left: int
    pose: PoseView | None


class ShipLogView(msgspec.Struct, forbid_unknown_fields=True):
    now: Now
    ships: list[ShipLogEntry]


def _now(s: State) -> Now:
    return Now(turn=s.turn, step=s.step, over=s.over, result=s.result)


def pose_for(s: State, reader: Reader, ship: str) -> PoseView | None:
    """Exact for its owner, the referee, under fog `open` and after the battle; else this reader's sighting."""
    sec = s.sealed[s.ships[ship].seat]
    if ship in sec.poses:
        p = sec.poses[ship]
        return PoseView(p.x, p.y, p.h, True)
    seen = s.sealed[reader].sighting.get(ship) if reader in s.sealed else None
    return PoseView(seen.x, seen.y, seen.h, False) if seen else None


def ship_log(state: State, reader: Reader) -> ShipLogView:
    s = redact(state, reader)
    return ShipLogView(now=_now(s), ships=[_entry(s, reader, n) for n in s.ships])


def _entry(s: State, reader: Reader, name: str) -> ShipLogEntry:
    sh, k = s.ships[name], s.cls(name)
    sec = s.sealed[sh.seat]
    mine = name in sec.poses and (reader in (sh.seat, REFEREE) or s.over or s.fog == "open")
    d = s.divisions[sh.division]
    weapons = []
    for w in k.weapons:
        positions = [
            PositionLine(
                p, w.guns, sh.mounts[p].slashes, sh.mounts[p].destroyed, sh.mounts[p].flooded, sh.mounts[p].fired
            )
            for p in w.pos or []
        ]
        guns = [PatternGun(f"{w.id}:{i}", *s.gun_at(name, w.id, i), g) for i, g in enumerate(sh.guns.get(w.id, []))]
        weapons.append(WeaponLine(w.id, w.cat, w.bore, w.rof, list(w.pen), w.boat, positions, guns))
    tubes = [
        TubeLine(
            key.split(":")[0],
            next(t.pos for t in k.torpedoes if t.id == key.split(":")[0]),
            key.split(":")[1] if ":" in key else None,
            n,
        )
        for key, n in sh.tubes.items()
    ]
    lo_hi = movement.limits(s, name) if name in sec.last_move else None
    return ShipLogEntry(
        ship=name,
        cls=sh.cls,
        seat=sh.seat,
        division=sh.division,
        flagship=d.flagship == name,
        fleet_flagship=s.fleet_flagship[sh.seat] == name,
        status=sh.status,
        sinking_turns=sh.sinking,
        propulsion=Propulsion(
            list(k.speed_boxes), sh.destroyed, sh.damaged, sh.margin, sh.list_boxes, movement.top_box(s, name)
        ),
        speed=Speed(sec.last_move[name], *lo_hi) if lo_hi and mine else None,
        weapons=weapons,
        torpedoes=tubes,
        torpedo_depth=sec.depth.get(name),
        boat_guns_manned=sec.manned.get(name),
        dc_boxes=dc_dice(s, name),
        dc_damaged=sh.dc_damaged,
        compartments=[Compartment(c_, v, c_ in sh.contained, c_ in sh.counterflooded) for c_, v in sh.flooding.items()],
        points=sh.points,
        listing=sh.list,
        trim=sh.trim,
        fires_external=sh.fires_ext,
        fires_internal=sh.fires_int,
        tr=sh.tr,
        rudder_jammed=sh.rudder,
        rudder_secured=sh.secured,
        bridge=sh.bridge,
        bridge_destroyed=sh.bridge_x,
        ct=sh.ct,
        searchlight=sh.searchlight,
        guns_abandoned=sh.abandoned,
        scuttling=sh.scuttling,
        able_to_fire=gunnery.can_fire(s, name),
        able_to_move=sh.in_play and sh.sinking is None and movement.top_box(s, name) > 0,
        dc_dice_left=damage_control.dice_left(s, name),
        pose=pose_for(s, reader, name),
    )


# ---- gunnery log --------------------------------------------------------------------------------


class TurnOrders(msgspec.Struct, forbid_unknown_fields=True):
    turn: int
    arrows: list[ev.Arrow]


class DivisionColumn(msgspec.Struct, forbid_unknown_fields=True):
    division: str
    seat: str
    flagship: str | None
    ships: list[str]
    orders: list[TurnOrders]


class TargetRow(msgspec.Struct, forbid_unknown_fields=True):
    turn: int
    target: str
    estimate: int
    outcome: str
    bracket: int | None
    rounds: int
    guns: list[ev.GunFire]
    codes: list[str]


class ShipGunnery(msgspec.Struct, forbid_unknown_fields=True):
    ship: str
    seat: str
    rows: list[TargetRow]


class GunneryLogView(msgspec.Struct, forbid_unknown_fields=True):
    now: Now
    divisions: list[DivisionColumn]
    ships: list[ShipGunnery]
    pending: c.Fire | None  # the reader's own estimates, sealed until every seat is in


def gunnery_log(state: State, reader: Reader) -> GunneryLogView:
    s = redact(state, reader)
    cols = []
    for d in s.divisions.values():
        orders = [TurnOrders(t, list(a)) for t, div, a in s.orders_log if div == d.id]
        cols.append(DivisionColumn(d.id, d.seat, d.flagship, list(d.ships), orders))
    rows: dict[str, list[TargetRow]] = {n: [] for n in s.ships}
    for x in s.log:
        rows[x.firer].append(
            TargetRow(x.turn, x.target, x.estimate, x.outcome, x.bracket, x.rounds, list(x.guns), list(x.codes))
        )
    pending = s.sealed[reader].pending.get("fire") if reader in s.seats else None
    return GunneryLogView(
        now=_now(s),
        divisions=cols,
        ships=[ShipGunnery(n, s.ships[n].seat, r) for n, r in rows.items()],
        pending=msgspec.convert({"type": "fire", **pending}, c.Fire) if pending is not None else None,
    )


# ---- table --------------------------------------------------------------------------------------


class BaseView(msgspec.Struct, forbid_unknown_fields=True):
    ship: str
    seat: str
    status: str
    length: int
    width: int
    funnel: int
    pose: PoseView | None


class Pivot(msgspec.Struct, forbid_unknown_fields=True):
    ship: str
    route: list[ev.Turnpoint]


class TableView(msgspec.Struct, forbid_unknown_fields=True):
    now: Now
    bounds: ev.Point  # the table's width and depth
    bracket_mm: int
    land: list[list[ev.Point]]
    bases: list[BaseView]
    markers: list[ev.MarkerRecord]  # the turn's, where the reader may see them (referee; fog open; after)
    pivots: list[Pivot]  # the reader's own succession pivots still to pass


def table(state: State, reader: Reader) -> TableView:
    s = redact(state, reader)
    bases = []
    for n, sh in s.ships.items():
        if not sh.on_table:
            continue
        k = s.cls(n)
        bases.append(BaseView(n, sh.seat, sh.status, k.base_mm[0], k.base_mm[1], k.funnel_mm, pose_for(s, reader, n)))
    markers = [ev.MarkerRecord(**m.__dict__) for m in s.sealed["referee"].markers]
    pivots = [
        Pivot(n, [ev.Turnpoint(x=w.x, y=w.y, turns=list(w.turns)) for w in r])
        for sec in s.sealed.values()
        for n, r in sec.waypoints.items()
        if r
    ]
    return TableView(
        now=_now(s),
        bounds=list(s.data.scale.table_mm),
        bracket_mm=s.data.scale.bracket_mm,
        land=[list(map(list, poly)) for poly in s.data.scenarios[s.scenario].land],
        bases=bases,
        markers=markers,
        pivots=pivots,
    )


# ---- phase --------------------------------------------------------------------------------------


SealedOrders = c.Start | c.GiveOrders | c.Move | c.Fire | c.LaunchTorpedoes | c.DamageControl  # a step's sealed command


class Submitted(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    seat: str
    commitment: str
    # what the seat submitted, shown to the referee of an umpired game only (each seat sees its own in `mine`); absent
    # for every other reader, whose view is as it was
    orders: SealedOrders | None = None


class PhaseView(msgspec.Struct, forbid_unknown_fields=True):
    now: Now
    owing: list[str]
    waiting_for: list[str]
    submitted: list[Submitted]
    fog: str
    turns: int
    mine: SealedOrders | None  # own sealed content
    messages: list[ev.Note]  # fleet orders this reader may read (BF-R12)


def phase(state: State, reader: Reader) -> PhaseView:
    """The step and who owes it; a seat's own sealed submission (`mine`), and for the referee of an umpired game (the
    only referee reader: an unumpired game's reads as the public, `engine.reads_as`) every seat's (`submitted[].orders`),
    as the referee reads them in the log."""
    s = redact(state, reader)
    cmd = c.STEP_COMMAND.get(s.step)

    def sealed_by(seat: str) -> SealedOrders | None:
        content = s.sealed[seat].pending.get(tag(cmd)) if cmd is not None and seat in s.seats else None
        return None if cmd is None or content is None else msgspec.convert({"type": tag(cmd), **content}, cmd)

    mine = sealed_by(reader) if reader is not None else None
    umpire = reader == REFEREE
    seen = dict.fromkeys(  # each fleet order once: the sender's copy, and the addressee's once read
        (m.turn, m.from_seat, m.to_seat, m.text, m.signal) for sec in s.sealed.values() for m in sec.messages
    )
    notes = [ev.Note(turn=t, from_seat=f, to_seat=to, text=x, signal=sg) for (t, f, to, x, sg) in seen]
    return PhaseView(
        now=_now(s),
        owing=list(s.owing),
        waiting_for=[x for x in s.owing if x not in s.submitted] if not s.over else [],
        submitted=[
            Submitted(x, s.submitted[x], sealed_by(x) if umpire else None) for x in s.owing if x in s.submitted
        ],
        fog=s.fog,
        turns=s.turns,
        mine=mine,
        messages=notes,
    )


VIEWS = {
    "ship-log": View(
        ship_log,
        ShipLogView,
        per_seat=True,
        description="Each ship's log: boxes, guns, tubes, DC, flooding, fires, pose as the reader may see it.",
    ),
    "gunnery-log": View(
        gunnery_log,
        GunneryLogView,
        per_seat=True,
        description="Each division's command column per turn and each ship's target rows.",
    ),
    "table": View(
        table,
        TableView,
        per_seat=True,
        description="The table: bounds, land, bases (exact or sighted), markers, own pivots.",
    ),
    "phase": View(
        phase,
        PhaseView,
        per_seat=True,
        description="The turn, the step, who owes and who has submitted; the reader's own sealed submission; to the "
        "referee of an umpired game, every seat's (`submitted[].orders`).",
    ),
}


# ---- the digest ---------------------------------------------------------------------------------------------

SEALED_ORDERS = {  # the sealed commands a seat sends, as a digest names them
    "start": "setup",
    "give_orders": "orders",
    "move": "movement orders",
    "fire": "fire orders",
    "launch_torpedoes": "torpedo orders",
    "damage_control": "damage-control orders",
}
MEASURED = {
    "hit": "on target at",
    "short": "short of",
    "over": "over",
    "no_los": "without a line of sight to",
    "out_of_arc": "out of arc of",
    "out_of_range": "out of range of",
    "could_not_bear": "could not bear on",
}
CRITICAL = {"fire_external": "the fire on deck", "fire_internal": "the fire below decks"}
DAMAGE = {  # a damage code's kind, as a digest names it
    "fire_external": "fire on deck",
    "fire_internal": "fire below decks",
    "boat": "a boat gun out",
    "propulsion": "propulsion damaged",
    "steering": "steering hit",
    "dc": "damage control hit",
    "bridge": "bridge hit",
    "ct": "conning tower hit",
    "searchlight": "searchlight hit",
    "blow_up": "magazine exploded",
}
NOUNS = {"dc": "damage control", "ct": "conning tower"}
LOST = {"sunk": "sank", "capsized": "capsized", "scuttled": "was scuttled", "blown_up": "blew up"}


def _seat(seat: str) -> str:
    return "The referee" if seat == REFEREE else seat.replace("-", " ").title()


def _effect(d: ev.DamageApplied) -> str | None:
    """What one damage code did, in a player's words (the event's own `effect` where there are none shorter)."""
    out = "out" if d.destroy else "damaged"
    if d.kind == "none":
        return None
    if d.kind == "main":
        return f"turret {d.location} {out}"
    if d.kind in ("secondary", "tertiary"):
        return f"{d.kind} gun {d.location} {out}"
    if d.kind == "flooding":
        return f"flooding in {d.location}"
    if d.kind == "rudder":
        return f"rudder jammed to {d.location}"
    if d.kind == "explosion":
        return f"explosion in {d.location}"
    if d.destroy and d.kind != "boat":
        return f"{NOUNS.get(d.kind, d.kind.replace('_', ' '))} destroyed"
    return DAMAGE.get(d.kind, d.effect)


@dataclass
class _Salvo:
    """One firer's hits on one target in a hits step (its HitsRolled, a category each) and the damage codes the step
    applied from them: the step rolls every die before any effect lands (BF-R28), so those come later."""

    seat: str
    firer: str
    target: str
    vitals: int = 0
    upperworks: int = 0
    effects: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        hits = self.vitals + self.upperworks
        if not hits:
            return f"{self.seat}'s salvo: {self.firer}'s rounds on {self.target} did no harm"
        parts = f"{count(self.vitals, 'vital hit')}, {count(self.upperworks, 'upperworks hit')}"
        return f"{self.seat}'s salvo: {self.target} hit {times(hits)} by {self.firer} ({parts})" + _then(self.effects)


@dataclass
class _Told:
    """A torpedo attack or a critical, and the damage codes applied from it; a critical that did nothing says
    nothing (`quiet`)."""

    head: str
    effects: list[str] = field(default_factory=list)
    quiet: bool = False

    def __str__(self) -> str:
        return self.head + _then(self.effects)


@dataclass
class _Gunnery:
    """One side's salvos measured in a gunnery step, in one line."""

    seat: str
    salvos: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.seat}'s gunnery: {listed(self.salvos)}"


def _then(effects: list[str]) -> str:
    return f": {', '.join(tally(effects))}" if effects else ""


def digest(before: State, events: list[Event], reader: Reader) -> list[str]:
    """What happened since `before`: a line per side's gunnery, salvo that landed, torpedo attack, critical, loss
    and turn (docs/api.md "Since my last turn"), from the events as `reader` reads them. The fog's secrets
    (sightings, poses, markers, orders not yet opened) are sealed records, which give no line but "sent its
    orders"; which side a ship is on is public."""
    s = redact(before, reader)
    side = {n: _seat(sh.seat) for n, sh in s.ships.items()}
    lines: list[str | _Salvo | _Told | _Gunnery] = []
    told: dict[str, _Salvo | _Told] = {}  # this step's: a DamageApplied's source -> the line its effect joins
    gunnery: dict[str, _Gunnery] = {}  # this gunnery step's line of each side
    for e in events:
        if isinstance(e, ev.StepStarted):  # a salvo, a critical and its damage are all in one step
            told, gunnery = {}, {}
        elif isinstance(e, ev.SalvoMeasured):
            seat = side.get(e.firer, "")
            if seat not in gunnery:
                gunnery[seat] = _Gunnery(seat)
                lines.append(gunnery[seat])
            gunnery[seat].salvos.append(f"{e.firer} {MEASURED[e.outcome]} {e.target}")
        elif isinstance(e, ev.HitsRolled):
            key = f"salvo:{e.firer}:{e.target}"
            salvo = told.get(key)
            if not isinstance(salvo, _Salvo):
                salvo = told[key] = _Salvo(side.get(e.firer, ""), e.firer, e.target)
                lines.append(salvo)
            salvo.vitals += e.vitals
            salvo.upperworks += e.upperworks
        elif isinstance(e, ev.TorpedoesResolved):
            told[f"torpedo:{e.ship}:{e.target}"] = line = _Told(_torpedoes(e, side.get(e.ship, "")))
            lines.append(line)
        elif isinstance(e, ev.CriticalRolled):
            told[f"critical:{e.source}@{e.ship}"] = line = _Told(f"{e.ship}: {_critical(e.source)}", quiet=True)
            lines.append(line)
        elif isinstance(e, ev.DamageApplied):
            key = f"{e.source}@{e.ship}" if e.source.startswith("critical:") else e.source
            effect = _effect(e)
            if key in told and effect:
                told[key].effects.append(effect)
        elif line_ := _other(e, side):
            lines.append(line_)
    said = [x for x in lines if not (isinstance(x, _Told) and x.quiet and not x.effects)]
    return tidy([x if isinstance(x, str) else str(x) for x in said])


def _torpedoes(e: ev.TorpedoesResolved, seat: str) -> str:
    if e.outcome == "hit":
        return f"{seat}'s torpedoes: {e.target} hit {times(e.hits)} by {e.ship}"
    how = {
        "miss": "missed",
        "under": "ran under",
        "blocked": "were blocked short of",
        "out_of_arc": "could not bear on",
        "out_of_range": "could not reach",
        "could_not_reach": "could not reach",  # fog blur, 11.0.0: out of arc or range, or land in the way
    }[e.outcome]
    return f"{seat}'s torpedoes: {e.ship}'s {count(e.count, 'torpedo', 'torpedoes')} {how} {e.target}"


def _critical(source: str) -> str:
    kind, _, where = source.partition(":")
    if kind == "flooding":
        return f"the flooding in {where} spread"
    if kind == "main":
        return f"turret {where}'s magazine was hit"
    return f"{CRITICAL.get(source, source)} spread"


def _other(e: Event, side: dict[str, str]) -> str | None:
    if isinstance(e, ev.TurnStarted):
        return f"Turn {e.turn} began"
    if isinstance(e, ev.VesselLost):
        return f"{e.ship} ({side.get(e.ship, '')}) {LOST[e.how]}"
    if isinstance(e, ev.ShipSinking):
        return f"{e.ship} is sinking: {count(e.turns, 'turn')} left"
    if isinstance(e, ev.ShipSurrendered):
        return f"{e.ship} surrendered"
    if isinstance(e, ev.ShipWithdrew):
        return f"{e.ship} left the table"
    if isinstance(e, ev.GunsAbandoned):
        return f"{e.ship}'s crews abandoned her guns"
    if isinstance(e, ev.ScuttlingBegun):
        return f"{e.ship}'s crew began to scuttle her"
    if isinstance(e, ev.OrdersLapsed):
        return f"{e.division} has no flagship to command it: its orders lapse, it goes straight"
    if isinstance(e, ev.CommandTransferred):
        fleet = " and the fleet's" if e.fleet else ""
        return f"Command of {e.division}{fleet} passed from {e.from_ship} to {e.to_ship}"
    if isinstance(e, ev.DcResolved):
        what = e.function.replace("_", " ") + (f" ({e.target})" if e.target else "")
        return f"{e.ship}'s damage control: {what} {'succeeded' if e.success else 'failed'}"
    if isinstance(e, ev.MessageDelivered):
        late = ", delayed a turn" if e.delayed else ""
        return f"A fleet order from {_seat(e.from_seat)} reached {_seat(e.to_seat)}{late}"
    if isinstance(e, ev.BattleEnded):
        result = "a draw" if e.result == "draw" else f"{_seat(e.result)} wins"
        return f"The battle is over: {result} ({e.reason})"
    return core_line(e, _seat, SEALED_ORDERS)
