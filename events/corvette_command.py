"""Events of `corvette-command` (the Corvette Command rulebook). Positions are [channel, column]."""

from __future__ import annotations

from typing import Any


from events.vocabulary import Event, register


class CampaignBegan(Event):
    """Setup: crew skills, stores, the U-boat deck (all VII + 2 random IX), the start side."""

    skills: dict[str, dict[str, int]]  # escort seat -> station -> skill
    depth_charges: int
    uboat_deck: list[str]
    side: str  # canada | liverpool


class CountersPlaced(Event):
    """One zone's counters shuffled face down onto its boxes (one shuffle roll per zone)."""

    zone: str
    boxes: list[list[Any]]  # [channel, column, kind]


class EquipmentFitted(Event):
    escort: str
    equipment: str  # radar | hfdf | hedgehog | foxer
    skill: int | None = None  # an operator's skill (option radar_hfdf_operators)


class ConvoyAssigned(Event):
    number: int
    card: str
    code: str
    speed: str  # fast | slow
    direction: str  # east | west
    start_port: str
    destination: str
    size: int
    orders: str
    channel: int  # the channel the orders name
    map: str
    date: int  # proleptic ordinal of the sailing day


class WeatherSet(Event):
    weather: str  # good | poor | fog | storm
    cause: str  # forecast | change | event


class ConvoyMoved(Event):
    to: list[int] | str  # a box [channel, column], or the destination port
    half_days: int  # the time this move took, in half days
    date: int


class CollisionChecked(Event):
    escort: str
    roll: int
    result: str  # none | convoy | corvette
    stragglers: int
    rerolled: bool = False


class MechanicalChecked(Event):
    escort: str
    failure: bool
    areas: int  # 1d3 damage rolls to come


class AreaDamaged(Event):
    """The Ship Damage Table: one +1 Task Harder counter on an area, with its repair difficulty (1d3)."""

    escort: str
    area: str
    difficulty: int
    cause: str


class HullDamaged(Event):
    escort: str
    points: int
    hull: int
    sunk: bool


class CounterRevealed(Event):
    box: list[int]
    kind: str  # blank | U | R | spent (revealed before: it acts once)
    section: str  # the escort whose section of the convoy it concerns


class RandomEventDrawn(Event):
    escort: str  # the escort (and section) it happens to
    roll: int
    name: str
    effect: str
    stand_in: bool


class EffectApplied(Event):
    """What a random event did (a straggler, a re-roll token, a repair bonus, nothing)."""

    effect: str
    detail: str
    stragglers: int = 0


class DeckReshuffled(Event):
    deck: str
    order: list[str]


class UBoatSighted(Event):
    """An engagement begins: the card, the range from its profile and the weather, surfaced or not."""

    uboat: str
    escort: str  # the escort whose section it attacks, and who fights it
    type: str
    attack: int
    evade: int
    profile: str
    range: int  # 0 close, 1 medium, 2 long
    surfaced: bool
    night: bool
    attacks_left: int
    wolfpack: bool
    decoys: bool = False


class UBoatStandsOff(Event):
    """The weather keeps this U-boat from attacking at any range its profile allows."""

    uboat: str
    reason: str


class SpottingResolved(Event):
    radar: bool | None  # None: not fitted
    hfdf: bool | None
    spotted: bool  # the Lookout (+2 if RADAR or HF/DF found it)


class GunneryResolved(Event):
    shots: list[dict[str, Any]]  # [{gun, hit, damage_hits}]
    hits: int
    total_hits: int


class UBoatDived(Event):
    """After gunfire: crash dive, withdraw beyond long range, come back submerged at the card's range."""

    range: int


class ConvoyAttacked(Event):
    target: str  # convoy | corvette
    hit: bool
    attacks_left: int


class ShipLost(Event):
    tonnage: int
    vital: str | None
    cause: str


class TorpedoTracked(Event):
    """The torpedo at one range band: who saw it."""

    range: int
    lookout: bool
    asdic: bool


class TorpedoResolved(Event):
    hit: bool
    damage_roll: int | None = None
    hull: int = 0
    areas: int = 0


class DetectionResolved(Event):
    detected: bool
    range: int  # the range after this roll (3: beyond long)
    consecutive: int
    contact: str  # normal | broken | kept


class PatternDropped(Event):
    weapon: str  # depth-charges | hedgehog
    hits: int
    total_hits: int
    grade: str | None  # the U-boat's grade after this pattern: confirmed | probable | possible | None
    out: bool  # it leaves the game (confirmed, or 4+ hits in all)
    depth_charges: int
    hedgehog: int


class BoardingResolved(Event):
    officer: str | None
    roll: int | None
    result: str  # enigma | lost | nothing | declined


class AwardGranted(Event):
    award: str
    reason: str


class UBoatLeft(Event):
    uboat: str
    fate: str  # confirmed | probable | possible | escaped | withdrew | stood-off
    hits: int
    summons: bool


class WolfpackRolled(Event):
    escort: str  # two-player: each escort rolls for its own section
    roll: int
    drm: int
    uboats: int


class DecisionRequired(Event):
    decision: str  # start | allocate_skills | move | collision_reroll | guns | detect | pattern | board | repair
    seat: str  # who decides


class DecisionTaken(Event):
    decision: str
    choice: dict[str, Any]


class RepairAttempted(Event):
    escort: str
    area: str | None
    success: bool
    counters_left: int


class ConvoyArrived(Event):
    port: str
    date: int


class StragglerResolved(Event):
    survived: bool


class TechDelayRolled(Event):
    roll: int
    ships_sunk: int
    delayed: bool
    equipment: str | None


class ShipRepaired(Event):
    """In port the dockyard clears hull damage and Task Harder counters (lost officers stay)."""

    turnaround_days: int
    date: int


class ConvoyScored(Event):
    number: int
    tonnage: int
    ships: int
    vp: int
    result: str


class YearScored(Event):
    year: int
    vp: int
    status: str


class CrewImproved(Event):
    escort: str
    station: str
    roll: int
    before: int
    after: int


class CrewReviewed(Event):
    """Every third convoy in port: the skills used successfully since the last review may grow."""

    escort: str
    convoys: int
    eligible: list[str]


class SkillsAllocated(Event):
    skills: dict[str, int]


EVENTS = (
    CampaignBegan,
    CountersPlaced,
    EquipmentFitted,
    ConvoyAssigned,
    WeatherSet,
    ConvoyMoved,
    CollisionChecked,
    MechanicalChecked,
    AreaDamaged,
    HullDamaged,
    CounterRevealed,
    RandomEventDrawn,
    EffectApplied,
    DeckReshuffled,
    UBoatSighted,
    UBoatStandsOff,
    SpottingResolved,
    GunneryResolved,
    UBoatDived,
    ConvoyAttacked,
    ShipLost,
    TorpedoTracked,
    TorpedoResolved,
    DetectionResolved,
    PatternDropped,
    BoardingResolved,
    AwardGranted,
    UBoatLeft,
    WolfpackRolled,
    DecisionRequired,
    DecisionTaken,
    RepairAttempted,
    ConvoyArrived,
    StragglerResolved,
    TechDelayRolled,
    ShipRepaired,
    ConvoyScored,
    YearScored,
    CrewImproved,
    CrewReviewed,
    SkillsAllocated,
)
register(*EVENTS)
