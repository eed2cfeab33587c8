"""What the captain reads: the ship log, the campaign sheet, the map and the engagement.

Each view renders a msgspec Struct (its JSON Schema is the view's schema); all four are public: nothing in the
state is hidden (decks and counter pools are multisets, CC-R42), and they read running tallies, never the log.
"""

from __future__ import annotations

from typing import Literal

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
from domain.engine import Reader, View
from events import corvette_command as ev


class Model(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    pass


class Now(Model):
    date: str
    awaiting: ev.Decision | None
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


def engagement(s: State, reader: Reader = None) -> EngagementView:
    g = s.engagement
    uboat = None
    if g is not None:
        fields = {f: getattr(g, f) for f in UBoatView.__struct_fields__ if f not in ("range_band", "detected")}
        uboat = UBoatView(**fields, range_band=RANGES[min(g.range, 3)], detected=g.consecutive > 0)
    return EngagementView(now=_now(s), pending_uboats=s.pending_uboats, uboat=uboat)


VIEWS = {
    "ship-log": View(ship_log, ShipLog, description="The corvette sheet of each escort"),
    "campaign-sheet": View(campaign_sheet, CampaignSheet, description="Convoys escorted, years scored, crew growth"),
    "map": View(map_view, MapView, description="The convoy's map: zones, revealed counters, position, weather"),
    "engagement": View(engagement, EngagementView, description="The U-boat being fought, and how many are to come"),
}
