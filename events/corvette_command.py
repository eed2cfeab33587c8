"""Events of `corvette-command` (the Corvette Command rulebook). Positions are [channel, column].

Every field is typed: enumerations are `Literal`s, records nested Structs, so a reader's schema says what each
field holds. No event names a face-down counter or an undrawn card (CC-R42): a deck or a zone's pool is a
multiset until the moment of the draw.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from events.vocabulary import Event, register

Side = Literal["canada", "liverpool"]
Direction = Literal["east", "west"]
Speed = Literal["fast", "slow"]
Weather = Literal["good", "poor", "fog", "storm"]
ZoneName = Literal["canadian", "air-gap", "western-approaches"]
CounterKind = Literal["U", "R", "blank"]
Station = Literal["lookout", "asdic", "aa", "gun", "depth_charge", "engineer"]
Area = Literal["lookout", "asdic", "aa", "gun", "depth_charge", "engineer", "radar", "hfdf", "hedgehog"]
Equipment = Literal["radar", "hedgehog", "hfdf", "foxer"]
Deck = Literal["uboats", "convoys", "orders"]
Weapon = Literal["depth-charges", "hedgehog"]
Grade = Literal["confirmed", "probable", "possible"]
Fate = Literal["confirmed", "probable", "possible", "escaped", "withdrew", "stood-off"]
Box = Annotated[list[int], msgspec.Meta(min_length=2, max_length=2)]  # [channel, column]
Decision = Literal[
    "start", "allocate_skills", "move", "collision_reroll", "guns", "detect", "pattern", "board", "repair"
]


class Skills(msgspec.Struct, forbid_unknown_fields=True):
    """One escort's crew skills at the start of the campaign."""

    escort: str
    lookout: int
    asdic: int
    aa: int
    gun: int
    depth_charge: int
    engineer: int


class CampaignBegan(Event):
    """Setup: crew skills, stores, the U-boat deck (all VII + 2 random IX, CC-6), the start side.

    The deck is a multiset (CC-R42): `uboat_deck` lists the Type VII cards, and `type_ix_face_down` Type IX cards
    are in it face down: which Type IX comes is drawn when one is drawn."""

    skills: list[Skills]
    depth_charges: int
    uboat_deck: list[str]
    type_ix_face_down: int
    side: Side


class CountersPlaced(Event):
    """One zone's counters placed face down (CC-5): how many of each kind, never which box holds which (CC-R42)."""

    zone: ZoneName
    u: int
    r: int
    blank: int


class EquipmentFitted(Event):
    escort: str
    equipment: Equipment
    skill: int | None = None  # an operator's skill (option radar_hfdf_operators)


class EquipmentDateMoved(Event):
    """An Allied equipment date slips (+1 month: a vital ship lost, a failed arrival roll) or comes earlier
    (-1: Boffin rescue), CC-R10, CC-R22."""

    equipment: Equipment
    months: int
    cause: str


class ConvoyAssigned(Event):
    number: int
    card: str
    code: Literal["HX", "SC", "ON", "OB"]
    speed: Speed
    direction: Direction
    start_port: str
    destination: str
    size: int
    orders: str
    channel: int  # the channel the orders name
    map: Literal["standard", "revised-1942"]
    date: int  # proleptic ordinal of the sailing day


class WeatherSet(Event):
    weather: Weather
    cause: Literal["forecast", "change", "event"]


class ConvoyMoved(Event):
    to: Box | str  # a box, or the destination port
    half_days: int  # the time this move took, in half days
    date: int


class CollisionPending(Event):
    """A collision the escort's RADAR may re-roll (CC-14): roll `k` showed `roll`; the decision waits."""

    escort: str
    roll: int
    k: int


class CollisionChecked(Event):
    escort: str
    roll: int
    result: Literal["none", "convoy", "corvette"]
    stragglers: int
    rerolled: bool = False


class MechanicalChecked(Event):
    escort: str
    failure: bool
    areas: int  # 1d3 damage rolls to come


class AreaDamaged(Event):
    """The Ship Damage Table: one +1 Task Harder counter on an area, with its repair difficulty (1d3)."""

    escort: str
    area: Area
    difficulty: int
    cause: str


class HullDamaged(Event):
    escort: str
    points: int
    hull: int
    sunk: bool


class CounterRevealed(Event):
    """The counter of the box entered, drawn now from what is left of its zone's pool (CC-16, CC-R42)."""

    box: Box
    zone: ZoneName
    kind: Literal["U", "R", "blank", "spent"]  # spent: revealed before, it acts once (CC-R35)
    section: str  # the escort whose section of the convoy it concerns


class RandomEventDrawn(Event):
    escort: str  # the escort (and section) it happens to
    roll: int
    name: str
    effect: str
    stand_in: bool
    sub_roll_stand_in: bool = False  # a published entry whose sub-roll is ours


class EffectApplied(Event):
    """What a random event did (a straggler, a re-roll token, a repair bonus, nothing)."""

    effect: str
    detail: str
    stragglers: int = 0


class DeckReformed(Event):
    """The discards go back into the deck (CC-37, CC-R44): no order, the next draw rolls over what is left."""

    deck: Deck
    cards: list[str]


class UBoatSighted(Event):
    """An engagement begins: the card drawn, its designated range (the card's profile as the weather allows,
    CC-18, CC-R40), surfaced or not, and (time of contact) the time."""

    uboat: str
    escort: str  # the escort whose section it attacks, and who fights it
    type: Literal["VII", "IX"]
    attack: int
    evade: int
    profile: Literal["L/M/C", "L/M", "M/C", "C"]
    range: int  # 0 close, 1 medium, 2 long: the designated range
    surfaced: bool
    night: bool
    attacks_left: int
    wolfpack: bool
    time: str | None = None  # "hh:mm" (option time_of_contact)


class UBoatStandsOff(Event):
    """The weather keeps this U-boat from attacking at any range its profile allows."""

    uboat: str
    reason: str


class SpottingResolved(Event):
    radar: bool | None  # None: not fitted
    hfdf: bool | None
    spotted: bool  # the Lookout (+2 if an electronic warfare roll found it)
    asdic: bool | None = None  # from November 1942 ASDIC joins the EW roll (None before)


class FireHeld(Event):
    """The corvette holds fire on the spotted U-boat, which comes on to attack."""


class Shot(msgspec.Struct, forbid_unknown_fields=True):
    gun: Literal["gun", "aa"]
    hit: bool
    damage_hits: int


class GunneryResolved(Event):
    shots: list[Shot]
    hits: int
    total_hits: int
    out: bool = False  # four hits in all: a possible kill, out of the game (CC-28)


class UBoatDived(Event):
    """After gunfire, or beyond long range: it withdraws and comes back submerged to its designated range."""

    range: int


class ConvoyAttacked(Event):
    """One attack (CC-23), from the designated range (CC-R40); the U-boat is submerged from now on (CC-R41)."""

    target: Literal["convoy", "corvette", "no-ship-left"]
    hit: bool
    attacks_left: int
    range: int
    decoys: bool = False  # BOLD decoys out (CC-40, CC-R32): +1 Evade while submerged, until its next attack


class ShipLost(Event):
    tonnage: int
    vital: Literal["ammunition ship", "tanker", "rescue ship"] | None
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
    contact: Literal["normal", "broken", "kept"]


class PatternDropped(Event):
    weapon: Weapon
    hits: int
    total_hits: int
    grade: Grade | None  # the U-boat's grade after this pattern
    out: bool  # it leaves the game (confirmed, or 4+ hits in all)
    depth_charges: int
    hedgehog: int
    surfaced: bool = False  # all four depth-charge dice hit: she surfaces and may be boarded (CC-29)


class BoardingResolved(Event):
    officer: Station | None
    roll: int | None
    result: Literal["enigma", "lost", "nothing", "declined"]


class AwardGranted(Event):
    award: str
    reason: str


class UBoatLeft(Event):
    uboat: str
    fate: Fate
    hits: int
    summons: bool
    out: bool = False  # out of the game (confirmed, or 4+ hits in all): never drawn again


class WolfpackRolled(Event):
    escort: str  # two-player: each escort rolls for its own section
    roll: int
    drm: int
    uboats: int


class DecisionRequired(Event):
    decision: Decision
    seat: str  # who decides


class DecisionTaken(Event):
    """The awaited decision is answered by `command` (its arguments are in the command record and in the events
    that follow)."""

    decision: Decision
    command: str


class RepairAttempted(Event):
    escort: str
    area: Area | None
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
    equipment: Equipment | None


class ShipRepaired(Event):
    """In port the dockyard clears hull damage and Task Harder counters, and lost officers are replaced."""

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


class SkillDiceRolled(Event):
    """Quick play (CC-45): the six dice the player gives to the six stations."""

    faces: list[int]


class SkillsAllocated(Event):
    skills: Skills


EVENTS = (
    CampaignBegan,
    CountersPlaced,
    EquipmentFitted,
    EquipmentDateMoved,
    ConvoyAssigned,
    WeatherSet,
    ConvoyMoved,
    CollisionPending,
    CollisionChecked,
    MechanicalChecked,
    AreaDamaged,
    HullDamaged,
    CounterRevealed,
    RandomEventDrawn,
    EffectApplied,
    DeckReformed,
    UBoatSighted,
    UBoatStandsOff,
    SpottingResolved,
    FireHeld,
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
    SkillDiceRolled,
    SkillsAllocated,
)
register(*EVENTS)
