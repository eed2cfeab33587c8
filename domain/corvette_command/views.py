"""What the captain reads: the ship log, the campaign sheet, the map and the engagement.

Each view renders a msgspec Struct (its JSON Schema is the view's schema); all four are public: nothing in the
state is hidden (decks and counter pools are multisets, CC-R42), and they read running tallies, never the log.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.corvette_command.state import (
    ALLIED_EQUIPMENT,
    AREAS,
    DEPTH_CHARGES,
    HEDGEHOG_SALVOES,
    RANGES,
    Award,
    ConvoyLine,
    Growth,
    State,
    iso,
)
from domain.digest import core_line, count
from domain.engine import Reader, View
from events import corvette_command as ev
from events.vocabulary import Event


class Model(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    pass


class Now(Model):
    date: str
    awaiting: Annotated[
        ev.Decision | None,
        msgspec.Meta(
            description="the step the campaign waits on, by the rules' own name (`start`, `move`, ...; null when "
            "over): not a command type. The commands it takes are the game's `awaiting` (`choose_start_port`, "
            "`move_convoy`, ...)"
        ),
    ]
    over: bool
    convoys_done: int


def _now(s: State) -> Now:
    return Now(date=iso(s.date), awaiting=s.awaiting, over=s.over, convoys_done=s.convoys_done)


# ---- ship-log ----------------------------------------------------------------------------------------------


class TaskHarder(Model):
    counters: int
    repair_difficulty: list[int]
    officer_lost: bool


class Store(Model):
    left: int
    of: int


class EquipmentDue(Model):
    fitted: bool
    due: str  # yyyy-mm, with its delays
    months_late: int  # negative: early (Boffin rescue)


class Kills(Model):
    confirmed: int = 0
    probable: int = 0
    possible: int = 0


class EscortSheet(Model):
    seat: str
    skills: dict[str, int]
    task_harder: dict[str, TaskHarder]
    hull_damage: int
    depth_charges: Store
    hedgehog: Store | None
    equipment: dict[str, EquipmentDue]
    awards: list[Award]
    officers_lost: list[str]
    kills: Kills
    skills_used_since_review: list[str]


class ShipLog(Model):
    now: Now
    escorts: list[EscortSheet]


def ship_log(s: State, reader: Reader = None) -> ShipLog:
    """The corvette sheet of each escort (one, or two in the two-player game)."""
    return ShipLog(now=_now(s), escorts=[sheet_view(s, e) for e in s.escorts])


def sheet_view(s: State, escort: str) -> EscortSheet:
    sh = s.sheets[escort]
    due = {}
    for eq in ALLIED_EQUIPMENT:
        mi = s.due(eq)
        due[eq] = EquipmentDue(
            fitted=s.fitted(eq, escort), due=f"{mi // 12}-{mi % 12 + 1:02d}", months_late=s.delays.get(eq, 0)
        )
    return EscortSheet(
        seat=escort,
        skills=dict(sh.skills),
        task_harder={
            a: TaskHarder(
                counters=sh.counters(a),
                repair_difficulty=list(sh.harder.get(a, [])),
                officer_lost=a in sh.officers_lost,
            )
            for a in AREAS
            if sh.counters(a)
        },
        hull_damage=sh.hull,
        depth_charges=Store(left=sh.depth_charges, of=DEPTH_CHARGES),
        hedgehog=Store(left=sh.hedgehog, of=HEDGEHOG_SALVOES) if s.fitted("hedgehog", escort) else None,
        equipment=due,
        awards=list(sh.awards),
        officers_lost=list(sh.officers_lost),
        kills=Kills(**sh.kills),
        skills_used_since_review=sorted(k for k, v in sh.used.items() if v),
    )


# ---- campaign-sheet ----------------------------------------------------------------------------------------


class YearLine(Model):
    year: int
    vp: int
    status: str | None


class CampaignSheet(Model):
    now: Now
    convoys: list[ConvoyLine]
    current: ConvoyLine | None
    years: list[YearLine]
    skill_growth: list[Growth]


def campaign_sheet(s: State, reader: Reader = None) -> CampaignSheet:
    current = s.convoy.line() if s.convoy and not s.convoy.arrived else None
    years = [YearLine(year=y, vp=vp, status=s.year_status.get(y)) for y, vp in sorted(s.years.items())]
    return CampaignSheet(now=_now(s), convoys=list(s.log), current=current, years=years, skill_growth=list(s.growth))


# ---- map ---------------------------------------------------------------------------------------------------


class FaceDown(Model):
    """A zone's counters still face down, by kind (which box holds which is drawn on reveal, CC-R42)."""

    U: int
    R: int
    blank: int


class ZoneView(Model):
    name: ev.ZoneName
    boxes: list[ev.Box]
    face_down: FaceDown | None


class PortView(Model):
    side: Literal["west", "east"]
    boxes: list[ev.Box]


class RevealedBox(Model):
    box: ev.Box
    kind: ev.CounterKind


class ConvoyOnMap(Model):
    position: ev.Box | str
    path: list[ev.Box | str]
    direction: ev.Direction
    speed: ev.Speed
    orders_channel: int
    destination: str
    ships_left: int


class MapView(Model):
    now: Now
    map: Literal["standard", "revised-1942"] | None = None
    channels: int | None = None
    columns: int | None = None
    zones: list[ZoneView] | None = None
    ports: dict[str, PortView] | None = None
    revealed: list[RevealedBox] | None = None
    convoy: ConvoyOnMap | None = None
    weather: ev.Weather | None = None


def map_view(s: State, reader: Reader = None) -> MapView:
    c = s.convoy
    if c is None:
        return MapView(now=_now(s))
    m = s.data.maps[c.map]
    return MapView(
        now=_now(s),
        map=c.map,
        channels=m.channels,
        columns=m.columns,
        zones=[
            ZoneView(
                name=z.name,
                boxes=[list(b) for b in z.boxes],
                face_down=FaceDown(**s.pools[z.name]) if z.name in s.pools else None,
            )
            for z in m.zones
        ],
        ports={name: PortView(side=p.side, boxes=[list(b) for b in p.boxes]) for name, p in m.ports.items()},
        revealed=[
            RevealedBox(box=[int(x) for x in k.split(",")], kind=v)
            for k, v in sorted(s.revealed.items(), key=lambda kv: [int(x) for x in kv[0].split(",")])
        ],
        convoy=ConvoyOnMap(
            position=c.position,
            path=list(c.path),
            direction=c.direction,
            speed=c.speed,
            orders_channel=c.channel,
            destination=c.destination,
            ships_left=c.ships_left,
        ),
        weather=c.weather,
    )


# ---- engagement --------------------------------------------------------------------------------------------


class UBoatView(Model):
    uboat: str
    type: Literal["VII", "IX"]
    attack: int
    evade: int
    profile: Literal["L/M/C", "L/M", "M/C", "C"]
    range: int
    range_band: Literal["close", "medium", "long", "beyond"]
    designated: int  # the range it attacks the convoy from (CC-R40)
    surfaced: bool
    night: bool
    attacks_left: int
    wolfpack: bool
    step: Literal["spot", "guns", "attack", "detect", "pattern", "board", "evaded", "gone"]
    decoys: bool
    spotted: bool
    hits: int
    depth_charged: bool
    consecutive: int
    detected: bool
    contact: Literal["normal", "broken", "kept"]
    barred: bool
    summons: bool
    grade: ev.Grade | None


class EngagementView(Model):
    now: Now
    pending_uboats: int
    uboat: UBoatView | None
    # whose section the U-boat attacks (the escort fighting it), and in the two-player game the other escort when it
    # is free to add its ASDIC and HF/DF to the search (CC-44, CC-R38); None with no U-boat engaged
    escort: str | None = None
    helped_by: str | None = None


def engagement(s: State, reader: Reader = None) -> EngagementView:
    g = s.engagement
    uboat = None
    if g is not None:
        fields = {f: getattr(g, f) for f in UBoatView.__struct_fields__ if f not in ("range_band", "detected")}
        uboat = UBoatView(**fields, range_band=RANGES[min(g.range, 3)], detected=g.consecutive > 0)
    return EngagementView(
        now=_now(s),
        pending_uboats=s.pending_uboats,
        uboat=uboat,
        escort=s.active if g is not None else None,
        helped_by=s.partner(s.active) if g is not None else None,
    )


VIEWS = {
    "ship-log": View(ship_log, ShipLog, description="The corvette sheet of each escort"),
    "campaign-sheet": View(campaign_sheet, CampaignSheet, description="Convoys escorted, years scored, crew growth"),
    "map": View(map_view, MapView, description="The convoy's map: zones, revealed counters, position, weather"),
    "engagement": View(engagement, EngagementView, description="The U-boat being fought, and how many are to come"),
}


# ---- the digest ---------------------------------------------------------------------------------------------

RANGE_NAMES = ("close", "medium", "long", "beyond long")
FATES = {
    "confirmed": "a confirmed kill",
    "probable": "a probable kill",
    "possible": "a possible kill",
    "escaped": "escaped",
    "withdrew": "withdrew",
    "stood-off": "stood off",
}


def _escort(seat: str) -> str:
    return seat.replace("-", " ").title()


def _tons(n: int) -> str:
    return f"{n:,} tons"


def digest(before: State, events: list[Event], reader: Reader = None) -> list[str]:
    """What happened since `before`, a line per contact, attack, loss, pattern and score (docs/api.md "Since my last
    turn"). Nothing in the state or the events is hidden (CC-R42: no event names a face-down counter or an undrawn
    card), so every reader reads the same lines. The U-boat an event concerns is the engagement's: the one
    `before` holds, until a UBoatSighted names the next."""
    uboat = before.engagement.uboat if before.engagement else "the U-boat"
    escort = _escort(before.active) if before.active else "The escort"
    weather = before.convoy.weather if before.convoy else None
    lines = []
    for e in events:
        if isinstance(e, ev.UBoatSighted):
            uboat, escort = e.uboat, _escort(e.escort)
        if isinstance(e, ev.WeatherSet):  # a line when it changes (a forecast or a roll may keep it)
            line = f"The weather turned {e.weather}" if weather is not None and e.weather != weather else None
            weather = e.weather
        else:
            line = _line(e, uboat, escort)
        if line:
            lines.append(line)
    return lines


def _line(e: Event, uboat: str, escort: str) -> str | None:
    if isinstance(e, ev.ConvoyAssigned):
        return f"Convoy {e.code} {e.number} ({e.size} ships, {e.speed}) sails from {e.start_port} to {e.destination}"
    if isinstance(e, ev.CounterRevealed) and e.kind == "U":
        return f"A U-boat contact in the {e.zone.replace('-', ' ')}, against {_escort(e.section)}'s section"
    if isinstance(e, ev.RandomEventDrawn):
        return f"Random event for {_escort(e.escort)}: {e.name}"
    if isinstance(e, ev.UBoatSighted):
        how = "surfaced" if e.surfaced else "submerged"
        return f"{e.uboat} (Type {e.type}) sighted at {RANGE_NAMES[e.range]} range, {how}, against {escort}'s section"
    if isinstance(e, ev.UBoatStandsOff):
        return f"{e.uboat} stood off: {e.reason}"
    if isinstance(e, ev.GunneryResolved):
        out = ": she is out of the fight" if e.out else ""
        return f"{escort}'s guns on {uboat}: {count(e.hits, 'hit')} ({e.total_hits} in all){out}"
    if isinstance(e, ev.ConvoyAttacked):
        if e.target == "no-ship-left":
            return f"{uboat} found no ship left to attack"
        whom = "the convoy" if e.target == "convoy" else escort
        return f"{uboat} attacked {whom} from {RANGE_NAMES[e.range]} range: {'a hit' if e.hit else 'a miss'}"
    if isinstance(e, ev.ShipLost):
        return f"{'A ' + e.vital if e.vital else 'A ship'} of {_tons(e.tonnage)} was lost: {e.cause}"
    if isinstance(e, ev.TorpedoResolved):
        if not e.hit:
            return f"The torpedo missed {escort}"
        return f"A torpedo hit {escort}: {e.hull} hull damage, {count(e.areas, 'area')} damaged"
    if isinstance(e, ev.DetectionResolved):
        found = f"found {uboat} at {RANGE_NAMES[e.range]} range" if e.detected else f"did not find {uboat}"
        return f"{escort}'s ASDIC {found}"
    if isinstance(e, ev.PatternDropped):
        return _pattern(e, uboat, escort)
    if isinstance(e, ev.BoardingResolved) and e.result != "declined":
        return {
            "enigma": f"The boarding party took {uboat}'s Enigma machine",
            "lost": f"The boarding party was lost with {uboat}",
            "nothing": f"The boarding party found nothing on {uboat}",
        }[e.result]
    if isinstance(e, ev.UBoatLeft):
        return f"{e.uboat} left the fight: {FATES[e.fate]}, {count(e.hits, 'hit')} taken"
    if isinstance(e, ev.AwardGranted):
        return f"{e.award} awarded: {e.reason}"
    if isinstance(e, ev.WolfpackRolled) and e.uboats:
        return f"A wolfpack of {count(e.uboats, 'U-boat')} gathers on {_escort(e.escort)}'s section"
    if isinstance(e, ev.CollisionChecked) and e.result != "none":
        return f"{_escort(e.escort)}: a collision with {'the convoy' if e.result == 'convoy' else 'a corvette'}"
    if isinstance(e, ev.HullDamaged):
        return f"{_escort(e.escort)}'s hull took {e.points} damage ({e.hull} in all)" + (": she sank" if e.sunk else "")
    if isinstance(e, ev.AreaDamaged):
        return f"{_escort(e.escort)}: {e.area.replace('_', ' ')} damaged ({e.cause})"
    if isinstance(e, ev.RepairAttempted) and e.area:
        return f"{_escort(e.escort)}: repair of {e.area.replace('_', ' ')} {'succeeded' if e.success else 'failed'}"
    if isinstance(e, ev.StragglerResolved):
        return "A straggler " + ("caught up" if e.survived else "was lost")
    if isinstance(e, ev.ConvoyArrived):
        return f"The convoy arrived at {e.port}"
    if isinstance(e, ev.ConvoyScored):
        return f"Convoy {e.number}: {count(e.ships, 'ship')} lost ({_tons(e.tonnage)}), {e.vp} VP, {e.result}"
    if isinstance(e, ev.YearScored):
        return f"{e.year}: {e.vp} VP, {e.status}"
    if isinstance(e, ev.CrewImproved):
        return f"{_escort(e.escort)}'s {e.station.replace('_', ' ')} crew improved to {e.after}"
    if isinstance(e, ev.EquipmentFitted):
        return f"{_escort(e.escort)} fitted {e.equipment}"
    return core_line(e, _escort, {})


def _pattern(e: ev.PatternDropped, uboat: str, escort: str) -> str:
    what = "depth-charge pattern" if e.weapon == "depth-charges" else "Hedgehog salvo"
    grade = f"{e.grade} kill" if e.grade else "no kill"
    then = ": she surfaces and may be boarded" if e.surfaced else ": she is out of the fight" if e.out else ""
    return f"{escort}'s {what} on {uboat}: {count(e.hits, 'hit')} ({e.total_hits} in all), {grade}{then}"
