"""The corvette campaign's state. Only `evolve` changes it; decide runs on a working copy (rules/procedure.py).

The procedure's position — which step of the box comes next, the engagement's step, the decision
awaited — is state too, and changes only through events, so folding the log rebuilds it exactly.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
from dataclasses import dataclass, field

from domain.corvette_command.data import DataSet
from events import corvette_command as ev
from events.core import DiceRolled, GameCreated, GameEnded
from events.vocabulary import Event

STATIONS = ("lookout", "asdic", "aa", "gun", "depth_charge", "engineer")  # the six crew skill sections
AREAS = STATIONS + ("radar", "hfdf", "hedgehog")
WEATHER = ("good", "poor", "fog", "storm")
RANGES = ("close", "medium", "long", "beyond")
BOX_STEPS = ("weather", "collision", "mechanical", "reveal", "repair")  # CC-R1: per box entered
ONCE_PER_BOX = ("weather", "reveal")  # the others are made by each escort (CC-44)
# CC-D1: the dated rules, as (year, month). Allied equipment dates slip by one month per delay (CC-R10).
DATES = {
    "radar": (1941, 9),
    "decoys": (1942, 6),
    "hedgehog": (1942, 10),
    "hfdf": (1942, 11),
    "falke": (1943, 3),
    "foxer": (1943, 5),
    "revised-map": (1942, 6),
}
ALLIED_EQUIPMENT = ("radar", "hedgehog", "hfdf", "foxer")
DEPTH_CHARGES = 25
HEDGEHOG_SALVOES = 15


def month_index(year: int, month: int) -> int:
    return year * 12 + month - 1


def ymd(ordinal: int) -> tuple[int, int, int]:
    d = datetime.date.fromordinal(ordinal)
    return d.year, d.month, d.day


def iso(ordinal: int) -> str:
    return datetime.date.fromordinal(ordinal).isoformat()


@dataclass
class Sheet:
    """The corvette's sheet."""

    skills: dict[str, int] = field(default_factory=dict)  # the six stations, plus radar/hfdf operators (option)
    equipment: list[str] = field(default_factory=list)
    harder: dict[str, list[int]] = field(default_factory=dict)  # area -> repair difficulty of each counter
    officers_lost: list[str] = field(default_factory=list)  # a permanent +1 Task Harder at that station
    hull: int = 0
    depth_charges: int = DEPTH_CHARGES
    hedgehog: int = 0
    awards: list[dict] = field(default_factory=list)
    used: dict[str, bool] = field(default_factory=dict)  # stations used successfully since the last review
    kill_since_review: bool = False

    def copy(self) -> Sheet:
        """As deep as evolve mutates it (awards are appended, never changed)."""
        return dataclasses.replace(
            self,
            skills=dict(self.skills),
            equipment=list(self.equipment),
            harder={k: list(v) for k, v in self.harder.items()},
            officers_lost=list(self.officers_lost),
            awards=list(self.awards),
            used=dict(self.used),
        )

    def counters(self, area: str) -> int:
        """Task Harder counters on an area: damage still to repair, and a lost officer's station."""
        return len(self.harder.get(area, [])) + (1 if area in self.officers_lost else 0)

    def damaged(self, area: str) -> bool:
        return bool(self.harder.get(area))


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
    encounters: list[dict] = field(default_factory=list)
    last_move: str | None = None
    luck: bool = False  # Luck of the Irish: one re-roll this convoy
    repair_bonus: bool = False
    arrived: bool = False

    def copy(self) -> Convoy:
        """As deep as evolve mutates it (the path, weather track and encounters are only appended to)."""
        return dataclasses.replace(
            self,
            path=list(self.path),
            weather_track=list(self.weather_track),
            vital=list(self.vital),
            encounters=list(self.encounters),
        )


@dataclass
class Engagement:
    uboat: str
    type: str
    attack: int
    evade: int
    profile: str
    range: int
    surfaced: bool
    night: bool
    attacks_left: int
    wolfpack: bool
    decoys: bool
    step: str  # spot | guns | attack | detect | pattern | board | evaded
    spotted: bool = False
    hits: int = 0
    depth_charged: bool = False
    consecutive: int = 0
    contact: str = "normal"  # normal | broken (after depth charges) | kept (after a Hedgehog miss)
    barred: bool = False  # damaged: it will not attack again
    summons: bool = True  # it may call the wolfpack when it leaves
    grade: str | None = None


@dataclass
class State:
    data: DataSet
    options: object
    date: int  # proleptic ordinal of the current day
    half: int = 0  # a half day past `date`
    awaiting: str | None = "start"
    deciding: str = ""  # the seat that takes the awaited decision
    escorts: list[str] = field(default_factory=list)  # the seats, each with its corvette (two-player: two)
    sheets: dict[str, Sheet] = field(default_factory=dict)
    active: str = ""  # the escort the engagement or event at hand concerns
    convoy: Convoy | None = None
    box_steps: list[str] = field(default_factory=list)  # "weather", "collision:<escort>", ...
    engagement: Engagement | None = None
    queue: list[list] = field(default_factory=list)  # U-boats to come: [section escort, from the wolfpack]
    quick_faces: list[int] = field(default_factory=list)  # quick play: the six dice to allocate
    pending_collision: list[int] = field(default_factory=list)  # [k, face] awaiting the RADAR re-roll decision
    decks: dict[str, list[str]] = field(default_factory=dict)  # uboats, convoys, orders (top first)
    discards: dict[str, list[str]] = field(default_factory=dict)
    sunk_uboats: list[str] = field(default_factory=list)
    counters: dict[str, str] = field(default_factory=dict)  # "ch,col" -> kind
    revealed: dict[str, str] = field(default_factory=dict)
    delays: dict[str, int] = field(default_factory=dict)  # equipment -> months late
    convoys_done: int = 0
    log: list[dict] = field(default_factory=list)  # the campaign sheet: one line per convoy
    years: dict[int, int] = field(default_factory=dict)  # convoy VP by year of arrival
    year_status: dict[int, str] = field(default_factory=dict)
    growth: list[dict] = field(default_factory=list)
    over: bool = False

    def __deepcopy__(self, memo):
        """decide's working copy, made on every command, so made with care: the data set and options are
        shared (they never change); records only ever appended to (the campaign log, growth, years) are copied
        one level; the rest is copied as deep as it is mutated. tests/test_corvette_properties.py checks after
        every command of 200 campaigns that decide left the caller's state as it was."""
        clone = copy.copy(self)
        clone.sheets = {k: v.copy() for k, v in self.sheets.items()}
        clone.convoy = self.convoy.copy() if self.convoy else None
        clone.engagement = copy.copy(self.engagement)
        clone.box_steps, clone.quick_faces = list(self.box_steps), list(self.quick_faces)
        clone.pending_collision, clone.sunk_uboats = list(self.pending_collision), list(self.sunk_uboats)
        clone.escorts, clone.queue = list(self.escorts), [list(q) for q in self.queue]
        clone.decks = {k: list(v) for k, v in self.decks.items()}
        clone.discards = {k: list(v) for k, v in self.discards.items()}
        clone.counters, clone.revealed, clone.delays = dict(self.counters), dict(self.revealed), dict(self.delays)
        clone.log, clone.growth = list(self.log), list(self.growth)
        clone.years, clone.year_status = dict(self.years), dict(self.year_status)
        return clone

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
        if not others or any(q[0] == others[0] for q in self.queue):
            return None
        return others[0]

    @property
    def month(self) -> int:
        y, m, _ = ymd(self.date)
        return month_index(y, m)

    def on(self, rule: str) -> bool:
        """Has a dated rule come into force (with any delay)?"""
        y, m = DATES[rule]
        return self.month >= month_index(y, m) + self.delays.get(rule, 0)

    def fitted(self, equipment: str, escort: str | None = None) -> bool:
        return equipment in self.sheets[escort or self.active].equipment

    def box_key(self, box) -> str:
        return f"{box[0]},{box[1]}"


def initial_state(created: GameCreated, options, data: DataSet) -> State:
    start = datetime.date(options.year, options.month, 1).toordinal()
    state = State(data=data, options=options, date=start)
    state.escorts = list(created.seats)
    state.sheets = {e: Sheet() for e in state.escorts}
    state.active = state.deciding = state.escorts[0]
    state.awaiting = "start"
    return state


def evolve(state: State, e: Event) -> State:
    handler = _HANDLERS.get(type(e))
    if handler is not None:
        handler(state, e)
    return state


# ---- handlers, one per event type -----------------------------------------------------------------


def _campaign_began(s: State, e: ev.CampaignBegan) -> None:
    for escort, skills in e.skills.items():
        s.sheets[escort].skills = dict(skills)
        s.sheets[escort].depth_charges = e.depth_charges
    s.decks["uboats"] = list(e.uboat_deck)
    s.discards["uboats"] = []


def _skills_allocated(s: State, e: ev.SkillsAllocated) -> None:
    s.quick_faces = []


def _deck_reshuffled(s: State, e: ev.DeckReshuffled) -> None:
    s.decks[e.deck] = list(e.order)
    s.discards[e.deck] = []


def _counters_placed(s: State, e: ev.CountersPlaced) -> None:
    for ch, col, kind in e.boxes:
        s.counters[f"{ch},{col}"] = kind


def _equipment_fitted(s: State, e: ev.EquipmentFitted) -> None:
    sheet = s.sheets[e.escort]
    sheet.equipment.append(e.equipment)
    if e.skill is not None:
        sheet.skills[e.equipment] = e.skill
    if e.equipment == "hedgehog":
        sheet.hedgehog = HEDGEHOG_SALVOES


def _convoy_assigned(s: State, e: ev.ConvoyAssigned) -> None:
    s.convoy = Convoy(
        number=e.number,
        card=e.card,
        code=e.code,
        speed=e.speed,
        direction=e.direction,
        start_port=e.start_port,
        destination=e.destination,
        size=e.size,
        orders=e.orders,
        channel=e.channel,
        map=e.map,
        sailed=e.date,
        position=e.start_port,
        path=[e.start_port],
    )
    s.date, s.half = e.date, 0
    s.revealed = {}
    for deck, card in (("convoys", e.card), ("orders", e.orders)):
        s.decks[deck].remove(card)
        s.discards.setdefault(deck, []).append(card)


def _weather_set(s: State, e: ev.WeatherSet) -> None:
    s.convoy.weather = e.weather
    s.convoy.weather_track.append(e.weather)
    if e.cause == "change" and s.box_steps[:1] == ["weather"]:
        s.box_steps.pop(0)


def _convoy_moved(s: State, e: ev.ConvoyMoved) -> None:
    c = s.convoy
    forward = isinstance(e.to, str) or not isinstance(c.position, list) or e.to[1] != c.position[1]
    c.last_move = "forward" if forward else "sideways"
    c.position = e.to if isinstance(e.to, str) else list(e.to)
    c.path.append(c.position)
    c.half_days += e.half_days
    total = s.half + e.half_days
    s.date, s.half = e.date, total % 2
    if isinstance(e.to, str):
        c.arrived = True
        s.box_steps = []
    else:  # CC-R1 per box; CC-44: each escort has its own collision, mechanical and repair steps
        s.box_steps = [
            step if step in ONCE_PER_BOX else f"{step}:{escort}"
            for step in BOX_STEPS
            for escort in ([None] if step in ONCE_PER_BOX else s.escorts)
        ]


def _pop(step: str):
    def handler(s: State, e) -> None:
        name = step if step in ONCE_PER_BOX else f"{step}:{e.escort}"
        if s.box_steps[:1] == [name]:
            s.box_steps.pop(0)
        _after(s, e)

    return handler


def _after(s: State, e) -> None:
    if isinstance(e, ev.CollisionChecked):
        s.convoy.stragglers += e.stragglers
    elif isinstance(e, ev.CounterRevealed) and e.kind != "spent":
        s.revealed[s.box_key(e.box)] = e.kind
        if e.kind == "U" and s.convoy.weather != "storm":
            s.queue.append([e.section, False])
    elif isinstance(e, ev.RepairAttempted):
        sheet = s.sheets[e.escort]
        if e.success and e.area:
            sheet.harder[e.area].pop(0)
            if not sheet.harder[e.area]:
                del sheet.harder[e.area]
            sheet.used["engineer"] = True
        if e.area:
            s.convoy.repair_bonus = False


def _area_damaged(s: State, e: ev.AreaDamaged) -> None:
    s.sheets[e.escort].harder.setdefault(e.area, []).append(e.difficulty)


def _hull_damaged(s: State, e: ev.HullDamaged) -> None:
    s.sheets[e.escort].hull = e.hull


def _effect_applied(s: State, e: ev.EffectApplied) -> None:
    s.convoy.stragglers += e.stragglers
    if e.effect == "reroll_token":
        s.convoy.luck = True
    elif e.effect == "reroll_used":
        s.convoy.luck = False
    elif e.effect == "repair_bonus":
        s.convoy.repair_bonus = True
    elif e.effect == "uboat":
        s.queue.append([s.active, False])
    elif e.effect == "no-uboats":
        s.queue = []


def _uboat_sighted(s: State, e: ev.UBoatSighted) -> None:
    s.decks["uboats"].remove(e.uboat)
    s.engagement = Engagement(
        uboat=e.uboat,
        type=e.type,
        attack=e.attack,
        evade=e.evade,
        profile=e.profile,
        range=e.range,
        surfaced=e.surfaced,
        night=e.night,
        attacks_left=e.attacks_left,
        wolfpack=e.wolfpack,
        decoys=e.decoys,
        step="spot" if e.surfaced else "attack",
        summons=not e.wolfpack,
    )
    s.queue.pop(0)
    s.active = e.escort


def _stands_off(s: State, e: ev.UBoatStandsOff) -> None:
    s.decks["uboats"].remove(e.uboat)
    s.discards["uboats"].append(e.uboat)
    escort, _ = s.queue.pop(0)
    s.convoy.encounters.append({"uboat": e.uboat, "escort": escort, "fate": "stood-off", "hits": 0})


def _spotting(s: State, e: ev.SpottingResolved) -> None:
    s.engagement.spotted = e.spotted
    s.engagement.step = "guns" if e.spotted else "attack"
    if e.spotted:
        s.sheet.used["lookout"] = True
        for eq in ("radar", "hfdf"):  # CC-41: an operator grows only when its contact led to a spot
            if getattr(e, eq):
                s.sheet.used[eq] = True


def _gunnery(s: State, e: ev.GunneryResolved) -> None:
    g = s.engagement
    g.hits = e.total_hits
    for shot in e.shots:
        if shot["hit"]:
            s.sheet.used[shot["gun"]] = True


def _dived(s: State, e: ev.UBoatDived) -> None:
    g = s.engagement
    g.range, g.surfaced, g.step, g.consecutive, g.contact = e.range, False, "attack", 0, "normal"


def _attacked(s: State, e: ev.ConvoyAttacked) -> None:
    g = s.engagement
    g.attacks_left = e.attacks_left
    g.step = "detect"


def _ship_lost(s: State, e: ev.ShipLost) -> None:
    s.convoy.ships_lost += 1
    s.convoy.tonnage += e.tonnage
    if e.vital:
        s.convoy.vital.append(e.vital)
        _delay(s)
    if e.cause == "straggler":
        s.convoy.stragglers -= 1


def _delay(s: State) -> None:
    """CC-R10: the next Allied equipment not yet in force slips one month."""
    nxt = _next_equipment(s)
    if nxt:
        s.delays[nxt] = s.delays.get(nxt, 0) + 1


def _next_equipment(s: State) -> str | None:
    pending = [eq for eq in ALLIED_EQUIPMENT if not s.on(eq)]
    return min(pending, key=lambda eq: month_index(*DATES[eq]) + s.delays.get(eq, 0)) if pending else None


def _detection(s: State, e: ev.DetectionResolved) -> None:
    g = s.engagement
    g.range, g.consecutive, g.contact = e.range, e.consecutive, e.contact
    if e.detected:
        s.sheet.used["asdic"] = True
        g.step = "pattern" if e.range == 0 else "detect"
    elif e.range >= 3:
        g.step = "evaded"
    elif not g.depth_charged and g.attacks_left > 0 and not g.barred:
        g.step = "attack"  # not yet depth charged: it may attack again before the next search
    else:
        g.step = "detect"


def _pattern(s: State, e: ev.PatternDropped) -> None:
    g = s.engagement
    g.hits = e.total_hits
    g.depth_charged = True
    s.sheet.depth_charges, s.sheet.hedgehog = e.depth_charges, e.hedgehog
    if e.hits:
        s.sheet.used["depth_charge"] = True
        g.barred = True
    if e.grade:
        s.sheet.kill_since_review = True
        g.grade = e.grade
    if e.grade == "probable":
        g.summons = False  # badly damaged: no further attacks and no wolfpack
    if e.grade == "confirmed":
        g.step = "board"
    elif e.out:
        g.step = "gone"
    else:
        g.step = "detect"
        g.consecutive = 0
        g.contact = "kept" if (e.weapon == "hedgehog" and e.hits == 0) else "broken"


def _boarding(s: State, e: ev.BoardingResolved) -> None:
    if e.result == "lost":
        s.sheet.officers_lost.append(e.officer)
    s.engagement.step = "gone"


def _award(s: State, e: ev.AwardGranted) -> None:
    s.sheet.awards.append({"award": e.award, "reason": e.reason, "date": iso(s.date)})


def _uboat_left(s: State, e: ev.UBoatLeft) -> None:
    s.convoy.encounters.append({"uboat": e.uboat, "escort": s.active, "fate": e.fate, "hits": e.hits})
    if e.fate in ("confirmed", "possible"):
        s.sunk_uboats.append(e.uboat)
    else:
        s.discards["uboats"].append(e.uboat)
    s.engagement = None


def _wolfpack(s: State, e: ev.WolfpackRolled) -> None:
    s.queue.extend([e.escort, True] for _ in range(e.uboats))


def _decision_required(s: State, e: ev.DecisionRequired) -> None:
    s.awaiting, s.deciding = e.decision, e.seat


def _random_event(s: State, e: ev.RandomEventDrawn) -> None:
    s.active = e.escort


def _decision_taken(s: State, e: ev.DecisionTaken) -> None:
    s.awaiting = None
    if e.decision == "guns" and e.choice.get("fire") is False:
        s.engagement.step = "attack"


def _torpedo_tracked(s: State, e: ev.TorpedoTracked) -> None:
    for station in ("lookout", "asdic"):
        if getattr(e, station):
            s.sheet.used[station] = True


def _gunnery_out(s: State, e: ev.GunneryResolved) -> None:
    _gunnery(s, e)
    if e.total_hits >= 4:  # CC-28: four hits in all: a possible kill, out of the game
        s.engagement.grade, s.engagement.step = "possible", "gone"
        s.sheet.kill_since_review = True


def _dice(s: State, e: DiceRolled) -> None:
    if e.purpose == "quick-play-skills":
        s.quick_faces = list(e.faces)
    elif e.purpose == "collision":
        s.pending_collision = [e.k, e.faces[0]]


def _arrived(s: State, e: ev.ConvoyArrived) -> None:
    s.convoy.position = e.port


def _straggler(s: State, e: ev.StragglerResolved) -> None:
    if e.survived:
        s.convoy.stragglers -= 1


def _tech(s: State, e: ev.TechDelayRolled) -> None:
    if e.delayed:
        _delay(s)


def _repaired(s: State, e: ev.ShipRepaired) -> None:
    for escort, sheet in s.sheets.items():
        sheet.harder = {}
        sheet.hull = 0
        sheet.depth_charges = DEPTH_CHARGES
        if s.fitted("hedgehog", escort):
            sheet.hedgehog = HEDGEHOG_SALVOES
    s.date, s.half = e.date, 0


def _scored(s: State, e: ev.ConvoyScored) -> None:
    c = s.convoy
    year = ymd(s.date)[0]
    s.years[year] = s.years.get(year, 0) + e.vp
    s.convoys_done += 1
    s.log.append(convoy_line(c) | {"arrived": iso(s.date), "vp": e.vp, "result": e.result})


def convoy_line(c: Convoy) -> dict:
    """A convoy's line on the campaign sheet (CC-39 adds the result on arrival)."""
    return {
        "number": c.number,
        "card": c.card,
        "code": c.code,
        "direction": c.direction,
        "speed": c.speed,
        "size": c.size,
        "sailed": iso(c.sailed),
        "from": c.start_port,
        "to": c.destination,
        "weather": list(c.weather_track),
        "encounters": list(c.encounters),
        "ships_lost": c.ships_lost,
        "tonnage": c.tonnage,
        "vital": list(c.vital),
        "stragglers": c.stragglers,
    }


def _year(s: State, e: ev.YearScored) -> None:
    s.year_status[e.year] = e.status


def _improved(s: State, e: ev.CrewImproved) -> None:
    s.sheets[e.escort].skills[e.station] = e.after
    s.growth.append(
        {
            "escort": e.escort,
            "station": e.station,
            "roll": e.roll,
            "before": e.before,
            "after": e.after,
            "date": iso(s.date),
        }
    )


def _reviewed(s: State, e: ev.CrewReviewed) -> None:
    s.sheets[e.escort].used = {}
    s.sheets[e.escort].kill_since_review = False


def _ended(s: State, e: GameEnded) -> None:
    s.over = True
    s.awaiting = None


_HANDLERS = {
    ev.CampaignBegan: _campaign_began,
    ev.SkillsAllocated: _skills_allocated,
    ev.DeckReshuffled: _deck_reshuffled,
    ev.CountersPlaced: _counters_placed,
    ev.EquipmentFitted: _equipment_fitted,
    ev.ConvoyAssigned: _convoy_assigned,
    ev.WeatherSet: _weather_set,
    ev.ConvoyMoved: _convoy_moved,
    ev.CollisionChecked: _pop("collision"),
    ev.MechanicalChecked: _pop("mechanical"),
    ev.CounterRevealed: _pop("reveal"),
    ev.RepairAttempted: _pop("repair"),
    ev.AreaDamaged: _area_damaged,
    ev.HullDamaged: _hull_damaged,
    ev.EffectApplied: _effect_applied,
    ev.UBoatSighted: _uboat_sighted,
    ev.UBoatStandsOff: _stands_off,
    ev.SpottingResolved: _spotting,
    ev.GunneryResolved: _gunnery_out,
    ev.TorpedoTracked: _torpedo_tracked,
    ev.UBoatDived: _dived,
    ev.ConvoyAttacked: _attacked,
    ev.ShipLost: _ship_lost,
    ev.DetectionResolved: _detection,
    ev.PatternDropped: _pattern,
    ev.BoardingResolved: _boarding,
    ev.AwardGranted: _award,
    ev.UBoatLeft: _uboat_left,
    ev.WolfpackRolled: _wolfpack,
    ev.DecisionRequired: _decision_required,
    ev.RandomEventDrawn: _random_event,
    ev.DecisionTaken: _decision_taken,
    ev.ConvoyArrived: _arrived,
    ev.StragglerResolved: _straggler,
    ev.TechDelayRolled: _tech,
    ev.ShipRepaired: _repaired,
    ev.ConvoyScored: _scored,
    ev.YearScored: _year,
    ev.CrewImproved: _improved,
    ev.CrewReviewed: _reviewed,
    DiceRolled: _dice,
    GameEnded: _ended,
}
