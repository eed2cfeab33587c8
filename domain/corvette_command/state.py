"""The corvette campaign's state. Only `evolve` (evolve.py) changes it; decide runs on a working copy (domain/procedure.py).

The procedure's position — which step of the box comes next, the engagement's step, the decision
awaited — is state too, and changes only through events, so folding the log rebuilds it exactly.
Nothing here is hidden: decks and counter pools are multisets (CC-R42), drawn from only when the rules draw.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Literal

import msgspec

from domain.corvette_command.commands import Options
from domain.corvette_command.data import DataSet
from domain.corvette_command.editions import EDITIONS
from domain.editions import Edition
from events import corvette_command as ev
from events.core import GameCreated

STATIONS = ("lookout", "asdic", "aa", "gun", "depth_charge", "engineer")  # the six crew skill sections
AREAS = STATIONS + ("radar", "hfdf", "hedgehog")
WEATHER = ("good", "poor", "fog", "storm")
RANGES = ("close", "medium", "long", "beyond")
COUNTER_KINDS = ("U", "R", "blank")  # CC-R42: the fixed order in which a zone's counters left are counted
BOX_STEPS = ("weather", "collision", "mechanical", "reveal", "repair")  # CC-R1: per box entered
ONCE_PER_BOX = ("weather", "reveal")  # the others are made by each escort (CC-44)
# CC-40: the dated rules, as (year, month). Allied equipment dates move with delays and Boffin rescue (CC-R22).
DATES = {
    "radar": (1941, 9),
    "decoys": (1942, 6),
    "hedgehog": (1942, 10),
    "hfdf": (1942, 11),
    "ew": (1942, 11),  # ASDIC joins the electronic warfare roll
    "falke": (1943, 3),
    "foxer": (1943, 5),
    "revised-map": (1942, 6),
}
ALLIED_EQUIPMENT = ("radar", "hedgehog", "hfdf", "foxer")
DEPTH_CHARGES = 25
HEDGEHOG_SALVOES = 15
GRADES = ("confirmed", "probable", "possible")


def kill_grade(weapon: str, hits: int, total: int, before: str | None) -> str | None:
    """CC-28 / CC-R15: depth charges: 4 in a pattern confirmed, 3 probable; Hedgehog: 2 confirmed, 1 probable;
    4 or more in all is at least a possible kill; a grade once earned is kept."""
    rank = {"confirmed": 3, "probable": 2, "possible": 1, None: 0}
    if weapon == "hedgehog":
        now = "confirmed" if hits >= 2 else "probable" if hits == 1 else None
    else:
        now = "confirmed" if hits >= 4 else "probable" if hits == 3 else None
    if now is None and total >= 4:
        now = "possible"
    return max((now, before), key=lambda gr: rank[gr])


def pattern_grade(weapon: str, hits: int, total: int) -> str | None:
    """The grade this pattern scores by itself (CC-28): its own hits, or the 4 in all it makes; not one the boat bore
    before it (`kill_grade` keeps that)."""
    return kill_grade(weapon, hits, total, None)


def month_index(year: int, month: int) -> int:
    return year * 12 + month - 1


def ymd(ordinal: int) -> tuple[int, int, int]:
    d = datetime.date.fromordinal(ordinal)
    return d.year, d.month, d.day


def iso(ordinal: int) -> str:
    return datetime.date.fromordinal(ordinal).isoformat()


# ---- records: kept as they are written (the campaign sheet reads them as they stand) -----------------------


class Record(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


class Encounter(Record, frozen=True):  # frozen as Record is (said again for the type checker)
    uboat: str
    escort: str
    fate: ev.Fate
    hits: int


class Award(Record, frozen=True):
    award: str
    reason: str
    date: str


class Growth(Record, frozen=True):
    escort: str
    station: str
    roll: int
    before: int
    after: int
    date: str


class ConvoyLine(Record, frozen=True):
    """A convoy's line on the campaign sheet; `arrived`, `vp` and `result` are written on arrival (CC-39)."""

    number: int
    card: str
    code: str
    direction: ev.Direction
    speed: ev.Speed
    size: int
    sailed: str
    from_: str = msgspec.field(name="from")
    to: str
    weather: list[ev.Weather]
    encounters: list[Encounter]
    ships_lost: int
    tonnage: int
    vital: list[str]
    stragglers: int
    arrived: str | None = None
    vp: int | None = None
    result: str | None = None


class BoxStep(Record, frozen=True):
    """A step still to make in the box entered (CC-R1); `escort` for the steps each escort makes (CC-44)."""

    name: Literal["weather", "collision", "mechanical", "reveal", "repair"]
    escort: str | None = None


class Waiting(Record, frozen=True):
    """A U-boat to come at an escort's section: from a U counter or event, or called by the wolfpack (`caller`: the
    U-boat that called it, which cannot answer its own call, CC-E5-4)."""

    escort: str
    wolfpack: bool = False
    caller: str | None = None


@dataclass
class Sheet:
    """The corvette's sheet."""

    skills: dict[str, int] = field(default_factory=dict)  # the six stations, plus radar/hfdf operators (option)
    equipment: list[str] = field(default_factory=list)
    harder: dict[str, list[int]] = field(default_factory=dict)  # area -> repair difficulty of each counter
    officers_lost: list[str] = field(default_factory=list)  # +1 Task Harder at that station until port (CC-29)
    hull: int = 0
    depth_charges: int = DEPTH_CHARGES
    hedgehog: int = 0
    awards: list[Award] = field(default_factory=list)
    used: dict[str, bool] = field(default_factory=dict)  # stations used successfully since the last review
    kill_since_review: bool = False
    kills: dict[str, int] = field(default_factory=dict)  # grade -> U-boats credited to this escort

    def counters(self, area: str) -> int:
        """Task Harder counters on an area: damage still to repair, and a lost officer's station."""
        return len(self.harder.get(area, [])) + (1 if area in self.officers_lost else 0)

    def damaged(self, area: str) -> bool:
        """Damaged, for the rules that say so (3 pattern dice, engineering): any Task Harder counter (CC-29)."""
        return self.counters(area) > 0

    def damaged_components(self) -> int:
        """CC-36: the areas with damage to repair (a lost officer is replaced, not repaired)."""
        return sum(1 for counters in self.harder.values() if counters)


@dataclass(frozen=True)
class Departure:
    """A U-boat as it left the convoy (not out of the game): drawn again in the same convoy it comes back so, with
    its hits, grade and bar (CC-E5-2), the attacks it had left (CC-E5-5; the card's maximum holds for the convoy)
    and whether it may still call the wolfpack (CC-E5-6: once a convoy, again after a pattern hits it from 7.0.0, CC-E7-1; never a wolfpack boat); and the escort its
    grade is credited to (CC-R15: a boat is credited once, with the best grade it earned)."""

    escort: str
    hits: int
    grade: str | None
    barred: bool
    attacks_left: int
    summons: bool
    came_with_wolfpack: bool = False  # CC-31: it came with a wolfpack in this convoy, so it never calls (CC-E7-1)
    hit_by: tuple[str, ...] = ()  # the escorts whose patterns hit it in this convoy (CC-R45, CC-E8-3)


@dataclass
class Convoy:
    number: int
    card: str
    code: str
    speed: str
    direction: str
    start_port: str
    destination: str
    size: int
    orders: str
    channel: int
    map: str
    sailed: int
    position: list[int] | str = ""
    path: list = field(default_factory=list)
    half_days: int = 0
    weather: str = "good"
    weather_track: list[str] = field(default_factory=list)
    ships_lost: int = 0
    tonnage: int = 0
    vital: list[str] = field(default_factory=list)
    stragglers: int = 0
    encounters: list[Encounter] = field(default_factory=list)
    last_move: str | None = None
    luck: bool = False  # Luck of the Irish: one re-roll this convoy
    repair_bonus: bool = False
    arrived: bool = False
    departed: dict[str, Departure] = field(default_factory=dict)  # U-boats that left this convoy, as they left

    @property
    def ships_left(self) -> int:
        """CC-R43: the merchant ships still with the convoy (not sunk, not straggling behind)."""
        return max(self.size - self.ships_lost - self.stragglers, 0)

    def line(self) -> ConvoyLine:
        """Its line on the campaign sheet, as it stands."""
        return ConvoyLine(
            number=self.number,
            card=self.card,
            code=self.code,
            direction=self.direction,
            speed=self.speed,
            size=self.size,
            sailed=iso(self.sailed),
            from_=self.start_port,
            to=self.destination,
            weather=list(self.weather_track),
            encounters=list(self.encounters),
            ships_lost=self.ships_lost,
            tonnage=self.tonnage,
            vital=list(self.vital),
            stragglers=self.stragglers,
        )


@dataclass
class Engagement:
    uboat: str
    type: str
    attack: int
    evade: int
    profile: str
    range: int
    designated: int  # CC-R40: the range it attacks the convoy from (sighted at): its card as the weather allows
    surfaced: bool
    night: bool
    attacks_left: int
    wolfpack: bool
    step: str  # spot | guns | attack | detect | pattern | board | evaded | gone
    decoys: bool = False  # CC-R32: BOLD decoys out since its last attack
    spotted: bool = False
    hits: int = 0
    depth_charged: bool = False
    attacked_since: bool = False  # a pattern since it last attacked the convoy: the next may be held (CC-R28, 8.0.0)
    consecutive: int = 0
    contact: str = "normal"  # normal | broken (after depth charges) | kept (after a Hedgehog miss)
    barred: bool = False  # damaged: it will not attack again
    summons: bool = True  # it may call the wolfpack when it leaves
    wolfpack_earlier: bool = False  # it came with a wolfpack earlier in this convoy (CC-E7-1)
    hit_by: tuple[str, ...] = ()  # the escorts whose patterns hit it in this convoy (CC-R45, CC-E8-3)
    grade: str | None = None


@dataclass
class State:
    data: DataSet
    options: Options
    date: int  # proleptic ordinal of the current day
    edition: Edition  # the rules this game plays under (domain/editions.py)
    half: int = 0  # a half day past `date`
    awaiting: str | None = "start"
    deciding: str = ""  # the seat that takes the awaited decision
    escorts: list[str] = field(default_factory=list)  # the seats, each with its corvette (two-player: two)
    sheets: dict[str, Sheet] = field(default_factory=dict)
    active: str = ""  # the escort the engagement or event at hand concerns
    convoy: Convoy | None = None
    box_steps: list[BoxStep] = field(default_factory=list)
    engagement: Engagement | None = None
    queue: list[Waiting] = field(default_factory=list)  # U-boats to come
    quick_faces: list[int] = field(default_factory=list)  # quick play: the six dice to allocate
    pending_collision: list[int] = field(default_factory=list)  # [k, face] awaiting the RADAR re-roll decision
    decks: dict[str, list[str]] = field(default_factory=dict)  # uboats, convoys, orders: the cards left, data order
    discards: dict[str, list[str]] = field(default_factory=dict)
    type_ix_face_down: int = 0  # CC-6: Type IX cards in the U-boat deck, which ones drawn when drawn (CC-R42)
    sunk_uboats: list[str] = field(default_factory=list)
    pools: dict[str, dict[str, int]] = field(default_factory=dict)  # zone -> face-down counters left by kind
    revealed: dict[str, str] = field(default_factory=dict)  # "ch,col" -> the kind its counter showed
    delays: dict[str, int] = field(default_factory=dict)  # equipment -> months late (negative: early)
    convoys_done: int = 0
    log: list[ConvoyLine] = field(default_factory=list)  # the campaign sheet: one line per convoy
    years: dict[int, int] = field(default_factory=dict)  # convoy VP by year of arrival
    year_status: dict[int, str] = field(default_factory=dict)
    growth: list[Growth] = field(default_factory=list)
    over: bool = False

    # ---- derived facts the rules read ----

    @property
    def sheet(self) -> Sheet:
        """The corvette of the escort at hand."""
        return self.sheets[self.active]

    @property
    def pending_uboats(self) -> int:
        return len(self.queue)

    def partner(self, escort: str) -> str | None:
        """Two-player: the other escort, when no U-boat of its own section is attacking or waiting (CC-44)."""
        others = [e for e in self.escorts if e != escort]
        if not others or any(w.escort == others[0] for w in self.queue):
            return None
        return others[0]

    @property
    def month(self) -> int:
        y, m, _ = ymd(self.date)
        return month_index(y, m)

    def due(self, rule: str) -> int:
        """The month index a dated rule comes into force, with its delays (CC-40, CC-R22)."""
        return month_index(*DATES[rule]) + self.delays.get(rule, 0)

    def on(self, rule: str) -> bool:
        """Has a dated rule come into force (with any delay)?"""
        return self.month >= self.due(rule)

    def fitted(self, equipment: str, escort: str | None = None) -> bool:
        return equipment in self.sheets[escort or self.active].equipment

    def box_key(self, box) -> str:
        return f"{box[0]},{box[1]}"

    def zone_of(self, box) -> str:
        m = self.data.maps[self.convoy.map]
        return next(z.name for z in m.zones if list(box) in z.boxes)


def initial_state(created: GameCreated, options: Options, data: DataSet) -> State:
    start = datetime.date(options.year, options.month, 1).toordinal()
    state = State(data=data, options=options, date=start, edition=EDITIONS.of(created.ruleset.version))
    state.escorts = list(created.seats)
    state.sheets = {e: Sheet() for e in state.escorts}
    state.active = state.deciding = state.escorts[0]
    state.awaiting = "start"
    return state
