"""Events of `uboat-leader` (U-Boat Leader, the Spanish translation). One event per fact; a random fact follows
the DiceRolled that decided it. SO amounts are integer half-points (UL-R2): `cost_half`, `so_half`."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from events.vocabulary import Event, register

Segment = Literal["strategic", "operations", "tactical", "refit"]
Deck = Literal["events", "convoys", "merchants", "escorts", "fleet", "naval", "tactics"]
Band = Literal["okay", "shaken", "unfit"]
Side = Literal["surfaced", "submerged"]
Mission = Literal["mine", "attack", "raider"]
Kind = Literal["normal", "FAT", "T5"]
Damage = Literal["miss", "light", "heavy", "sunk"]
Step = Literal["move", "bearing", "escorts", "aggressive", "enemy", "cautious"]


class Pick(msgspec.Struct, forbid_unknown_fields=True):
    boat: str
    level: Literal["green", "trained", "veteran", "ace"]
    port: str
    cost_half: int


class UBoatsSelected(Event):
    """Seleccionar los U-Boat (UL-3): the flotilla, each boat at a level in a port; the rest of the SO is kept."""

    picks: list[Pick]
    so_half: int


class SegmentBegan(Event):
    turn: int
    segment: Segment


class OptionBought(Event):
    option: Literal["air_search", "intel", "supply_ship", "rr", "radio_call"]
    cost_half: int
    so_half: int
    area: str | None = None


class TorpedoesLoaded(Event):
    """Torpedos Avanzados (UL-9): `count` normal torpedoes of a slot replaced by advanced ones, ½ SO each."""

    boat: str
    kind: Literal["FAT", "T5"]
    slot: Literal["ready", "stored"]
    count: int
    cost_half: int
    so_half: int


class MissionAssigned(Event):
    boat: str
    mission: Mission
    cost_half: int
    so_half: int
    mines: int = 0  # Minas: torpedoes replaced by mines (Stored first, UL-R29)


class MineLoad(msgspec.Struct, forbid_unknown_fields=True):
    slot: Literal["ready", "stored"]
    kind: Literal["normal", "FAT", "T5"]
    count: int


class MinesLoaded(Event):
    """Sembrar Minas (UL-17, from 5.0.0 UL-E5-2): the torpedoes the mines replace, by section and kind ("Puedes
    sustituir cualquier número de Torpedos 'Listos' o 'Almacenados' del U-Boat por Minas")."""

    boat: str
    replaced: list[MineLoad]


class StressChanged(Event):
    boat: str
    delta: int
    stress: int
    band: Band
    cause: str


class UBoatMoved(Event):
    """One step on the campaign map: into an Area, a Port box or a Special Mission box."""

    boat: str
    to: str
    space: Literal["open", "port", "box"]


class UBoatPatrolled(Event):
    boat: str


class MoveEnded(Event):
    boat: str


class ToSearchBox(Event):
    boat: str
    area: str
    cause: str


class CardDrawn(Event):
    deck: Deck
    number: int
    name: str
    remaining: int  # cards left in the deck after this draw
    purpose: str


class DeckRefilled(Event):
    """Barajar las Cartas y Reformar los Mazos: the discards become the deck (drawn on demand, never ordered)."""

    deck: Deck
    cards: int


class CardsDiscarded(Event):
    deck: Deck
    numbers: list[int]


class CardsReturned(Event):
    """Fleet Escorts and Tactics counters go back into their pool (UL-R16, UL-R22), not to a discard pile."""

    deck: Deck
    numbers: list[int]


class EventResolved(Event):
    boat: str
    number: int
    name: str
    text: str
    stress: int  # stress it added (after its roll, if any)
    contact: int  # to this boat's Contact rolls to the end of the turn


class MissionBegan(Event):
    """A boat enters a Special Mission box (UL-R7): up to edition 3.0.0 the Area's Patrol value of Events first if it
    had not moved this segment (from 4.0.0 none: the Area's Move value is drawn before, as for any move, UL-E4-2),
    then the box's count, one by one."""

    boat: str
    box: str
    mission: Mission
    patrol_events: int
    events: int


class MissionStage(Event):
    """The box's Events are resolved and the boat is fit: it fires at the Naval cards drawn, or rolls as a Raider."""

    boat: str
    stage: Literal["fire", "raider"]
    targets: list[int]


class PatrolCompleted(Event):
    boat: str
    port: str
    patrols: int


class MissionEnded(Event):
    boat: str
    mission: Mission
    outcome: Literal["done", "failed", "aborted", "cancelled"]


class MinesLaid(Event):
    boat: str
    box: str
    mines: int
    vp: int


class AttackRolled(Event):
    """One torpedo or gun attack (UL-S3) and what it did to the target; the roll precedes it."""

    boat: str
    target: str  # a display label, or a Naval card's number for the Attack mission
    name: str
    weapon: Literal["torpedo", "gun"]
    kind: Literal["normal", "FAT", "T5", "gun"]
    slot: Literal["ready", "stored", "ammo"]
    result: Damage
    damage: int  # the target's damage points after it


class RaiderRolled(Event):
    boat: str
    kind: Literal["normal", "FAT", "T5", "gun"]
    slot: Literal["ready", "stored", "ammo"]
    vp: int


class ShipSunk(Event):
    boat: str
    target: str
    deck: Deck
    number: int
    name: str
    vp: int
    xp: int
    tons: int


class Scored(Event):
    vp: int
    total: int
    cause: str
    boat: str | None = None


class XpGained(Event):
    boat: str
    xp: int
    total: int


class Activated(Event):
    boat: str


class ContactsRolled(Event):
    boat: str
    contacts: int


class ContactsPassed(Event):
    boat: str


class ConvoyChosen(Event):
    number: int
    discarded: int


class ContactEngaged(Event):
    number: int
    area: str


class ContactWithdrawn(Event):
    number: int


class WarningPlaced(Event):
    area: str
    boat: str
    warnings: int


class PiecePlaced(msgspec.Struct, forbid_unknown_fields=True):
    label: str
    kind: Literal["L", "M", "N", "E"]
    area: str


class ShipsPlaced(Event):
    number: int
    pieces: list[PiecePlaced]
    alerted: int


class UBoatPlaced(Event):
    boat: str
    area: str
    side: Side


class WolfpackCalled(Event):
    boat: str
    joined: bool
    stress: bool  # the natural roll is a Stress result


class AlertedRaised(Event):
    alerted: int
    cause: str


class RadioCalled(Event):
    boats: list[str]
    cost_half: int
    so_half: int


class CombatStep(Event):
    """The Combat Resolution Phase moves to a step of a turn (the boats and ships that act in it follow)."""

    turn: int
    step: Step
    queue: list[str]


class UBoatManoeuvred(Event):
    boat: str
    side: Side
    to: str  # a display area, or "off"


class SilentRunning(Event):
    boat: str
    escaped: bool


class DeepDived(Event):
    boat: str


class BearingDeclared(Event):
    speeds: dict[str, int]
    reference: str | None
    reference_speed: int
    drifting: list[str]  # the pieces slower than the Reference Ship, in the order they drift


class Drifted(Event):
    piece: str
    to: str
    removed: bool  # entered the Wake with movement left: out of the battle


class ShipRevealed(Event):
    label: str
    deck: Deck
    number: int
    name: str
    escort: bool  # acts as an Escort (an E position, or a misidentified Merchant)
    tactic: int | None = None  # the Escort Tactics counter placed on it


class DetectionRolled(Event):
    escort: str
    boat: str
    detected: Annotated[
        bool,
        msgspec.Meta(
            description="whether the roll succeeded: the boat is Detected after it. From 6.0.0 (UL-E6-1) an escort "
            "also rolls against a boat Detected already, where a success adds nothing and a failure leaves it Detected"
        ),
    ]


class EscortSearched(Event):
    """The escort has made its detection rolls (none when no boat is in its range); it moves next."""

    escort: str


class EscortsOrdered(Event):
    labels: list[str]


class PieceRemoved(Event):
    """An Unknown counter whose deck and discards are both empty: the draw is void, the counter removed."""

    label: str


class EscortMoved(Event):
    escort: str
    to: str


class AttackShot(msgspec.Struct, forbid_unknown_fields=True):
    target: str
    kind: Literal["normal", "FAT", "T5", "gun"]


class AttackDeclared(Event):
    boat: str
    weapon: Literal["torpedo", "gun"]
    shots: list[AttackShot]


class AttackHeld(Event):
    boat: str


class EnemyAttacked(Event):
    ship: str
    boat: str
    hit: bool


class UBoatHit(Event):
    boat: str
    result: Literal["sunk", "light", "heavy"]


class UBoatSunk(Event):
    boat: str


class ContactLost(Event):
    boat: str
    cause: Literal["left", "wake", "turns", "no-ships"]


class CombatTurnEnded(Event):
    turn: int


class CombatEnded(Event):
    reason: str


class TorpedoesReloaded(Event):
    boat: str
    moved: dict[str, int]  # kind -> torpedoes moved from Stored into Ready


class AttackedMarked(Event):
    boats: list[str]


class ContactResolved(Event):
    """Post-Combat is over for this contact; the active boat may take its next one."""

    boat: str
    contacts_left: int


class ActivationEnded(Event):
    boat: str


class Promoted(Event):
    boat: str
    level: Literal["green", "trained", "veteran", "ace"]


class UBoatRetired(Event):
    boat: str
    patrols: int


class Replenished(Event):
    """Reabastecer en Puerto (UL-S9): the printed load (advanced torpedoes stay), Ammo, mines unloaded."""

    boat: str
    ready: dict[str, int]
    stored: dict[str, int]
    ammo: int


class MapReset(Event):
    """Reajustar el Mapa de Campaña (UL-S9): counters off, Search boxes emptied into their Areas."""


class CampaignEnded(Event):
    vp: int
    boats_sunk: int
    final_vp: int
    level: str
    level_index: int  # 0 = the sheet's lowest level
    reason: str


class CampaignAbandoned(Event):
    """The commander stopped the campaign with patrols still owed (UL-S10, from edition 3.0.0): it scores no result
    level and no final VP ("Acaba la Campaña cuando todos los U-Boats han llegado a su límite de Patrulla")."""

    vp: int  # the VP won so far, for the record only
    boats_sunk: int
    patrols_owed: int  # patrols the boats still in play had left to make
    reason: str


EVENTS = (
    UBoatsSelected,
    SegmentBegan,
    OptionBought,
    TorpedoesLoaded,
    MissionAssigned,
    MinesLoaded,
    StressChanged,
    UBoatMoved,
    UBoatPatrolled,
    MoveEnded,
    ToSearchBox,
    CardDrawn,
    DeckRefilled,
    CardsDiscarded,
    CardsReturned,
    EventResolved,
    MissionBegan,
    MissionStage,
    PatrolCompleted,
    MissionEnded,
    MinesLaid,
    AttackRolled,
    RaiderRolled,
    ShipSunk,
    Scored,
    XpGained,
    Activated,
    ContactsRolled,
    ContactsPassed,
    ConvoyChosen,
    ContactEngaged,
    ContactWithdrawn,
    WarningPlaced,
    ShipsPlaced,
    UBoatPlaced,
    WolfpackCalled,
    AlertedRaised,
    RadioCalled,
    CombatStep,
    UBoatManoeuvred,
    SilentRunning,
    DeepDived,
    BearingDeclared,
    Drifted,
    ShipRevealed,
    DetectionRolled,
    EscortSearched,
    EscortsOrdered,
    PieceRemoved,
    EscortMoved,
    AttackDeclared,
    AttackHeld,
    EnemyAttacked,
    UBoatHit,
    UBoatSunk,
    ContactLost,
    CombatTurnEnded,
    CombatEnded,
    TorpedoesReloaded,
    AttackedMarked,
    ContactResolved,
    ActivationEnded,
    Promoted,
    UBoatRetired,
    Replenished,
    MapReset,
    CampaignEnded,
    CampaignAbandoned,
)
register(*EVENTS)
