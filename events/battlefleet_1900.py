"""Events of `battlefleet-1900` (pre-dreadnought fleet actions). Distances in mm, headings in whole degrees.

Sealed content (orders, estimates, exact poses under fog) travels in the core's SubmissionSealed records; the
events here are what the rules make public. Rule ids: docs/rules/battlefleet-1900.md. `TorpedoesResolved` and `VesselLost` are the notes'
`TorpedoResolved` and `ShipLost` (BF-R46: those names are taken in the shared registry).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from events.vocabulary import Event, register

Step = Literal[
    "setup", "command", "movement", "gunnery", "torpedo", "fire_flooding", "hits", "damage_control", "sinking"
]
Side = Literal["port", "starboard"]
Ammo = Literal["HE", "AP"]
Compartment = Literal["F", "PA", "SA", "A"]
Point = Annotated[list[int], msgspec.Meta(min_length=2, max_length=2)]  # [x, y] in mm
Pair = Annotated[list[str], msgspec.Meta(min_length=2, max_length=2)]


class Pose(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A ship on the table: its bow (x, y) in mm and heading in whole degrees clockwise from north."""

    x: int
    y: int
    h: int


class Turnpoint(msgspec.Struct, forbid_unknown_fields=True):
    """BF-R8: a succession pivot a follower has still to reach, and the turns it makes there."""

    x: int
    y: int
    turns: list[int]


class ShipPose(msgspec.Struct, forbid_unknown_fields=True):
    ship: str
    x: int
    y: int
    h: int
    moved_mm: int = 0
    stopped: bool = False  # under a stop order: next turn's limits start from 0 (BF-R6)
    stopped_by: str | None = None  # the ship whose base it would have touched (BF-R29; 3.0.0: a sinking one)
    route: list[Turnpoint] = []  # the pivots it has still to pass


class Bearing(msgspec.Struct, forbid_unknown_fields=True):
    division: str
    bearing: int  # the line's bearing (BF-R4): equal to the heading in line ahead


class Moves(msgspec.Struct, forbid_unknown_fields=True):
    """The outcome of a Movement Phase: public under fog `open` (ShipsMoved), else one sealed record per owner."""

    ships: list[ShipPose]
    bearings: list[Bearing] = []
    overlaps: list[Pair] = []  # pairs of bases that overlap (BF-R29: a warning, not a rule)


class Conversion(msgspec.Struct, forbid_unknown_fields=True):
    division: str
    index: int  # the arrow of the division's orders converted to together (BF-R4)


class LineChanges(msgspec.Struct, forbid_unknown_fields=True):
    """Under fog `blur` from 6.0.0 (BF-E6-1): the changes to a seat's own lines that follow from its secret poses,
    sealed to it (kind `line`) after every Command reveal and Movement Phase, an empty one too, so that its presence
    says nothing: the divisions whose line is reversed (BF-R57) and the arrows converted to together (BF-R4)."""

    reversed: list[str] = []
    converted: list[Conversion] = []


class Sighting(msgspec.Struct, forbid_unknown_fields=True):
    """Enemy poses as one seat sees them under fog `blur`: offset by HMAC, headings to the step."""

    turn: int
    ships: list[ShipPose]


class MarkerRecord(msgspec.Struct, forbid_unknown_fields=True):
    firer: str
    target: str
    x: int
    y: int
    outcome: str
    length: int
    lead: int
    exit: int


class Unfired(msgspec.Struct, forbid_unknown_fields=True):
    """A salvo that fired no round, as the tape would have told it (BF-R41, R53): under fog `blur` from 4.0.0 the
    referee's only (BF-E4-21); `hit`, `short` or `over` when every gun that bore was spent on an earlier target."""

    firer: str
    target: str
    outcome: Literal["hit", "short", "over", "no_los", "out_of_arc", "out_of_range"]
    bracket: int | None
    rof_capped: bool


class Markers(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """Under fog `blur`: the turn's splash and hit markers and true distances, sealed to the referee; from 4.0.0
    also the salvos that fired nothing, with their true outcome and bracket (BF-E4-21). (`omit_defaults`: a 3.0.0
    record, without `unfired`, keeps its bytes.)"""

    turn: int
    markers: list[MarkerRecord]
    unfired: list[Unfired] = []


class Unreached(msgspec.Struct, forbid_unknown_fields=True):
    """A torpedo launch that could not reach its target, as it was (BF:5.0, BF-R27): under fog `blur` from 11.0.0 the
    referee's only, the public reading `could_not_reach` (BF-E11-4)."""

    ship: str
    mount: str
    side: Side | None
    target: str
    outcome: Literal["out_of_arc", "out_of_range", "blocked", "under"]


class TorpedoRuns(msgspec.Struct, forbid_unknown_fields=True):
    """Under fog `blur` from 11.0.0: the turn's launches that could not reach their targets, sealed to the referee."""

    turn: int
    unreached: list[Unreached]


class Note(msgspec.Struct, forbid_unknown_fields=True):
    """A fleet order (2.1), sealed to its addressee (BF-R12)."""

    turn: int
    from_seat: str
    to_seat: str
    text: str
    signal: str | None = None


class Arrow(msgspec.Struct, forbid_unknown_fields=True):
    """One order of a division's command column: a turn arrow, or the stop dot."""

    turn: Annotated[
        Literal["succession", "together"] | None,
        msgspec.Meta(description="2.0, BF-R4: ships turn one after another at the lead's pivot, or all at once"),
    ] = None
    to: Annotated[Side | None, msgspec.Meta(description="the side the arrow turns to")] = None
    arrow: Annotated[
        Literal[45, 90] | None, msgspec.Meta(description="BF-R5: 45 (a turn of 45-89 degrees) or 90 (90-180)")
    ] = None
    stop: Annotated[
        bool, msgspec.Meta(description="2.1: the stop dot: the division moves exactly its least distance")
    ] = False


class BattleStarted(Event):
    scenario: str
    seats: list[str]
    turns: int
    fog: Literal["blur", "open"]


class TurnStarted(Event):
    turn: int


class StepStarted(Event):
    turn: int
    step: Step
    owing: list[str]  # the seats that owe this step's command (public facts only, BF-R1)


class DivisionOrdered(Event):
    """The revealed command column of a division this turn (2.1)."""

    division: str
    orders: list[Arrow]


class OrdersLapsed(Event):
    """BF-E12-1, glossary CT (BF-R30): a division left by the Command Phase with no flagship able to command (its
    flagship surrendered, no ship qualified to take over) loses the orders it was given: it goes straight."""

    division: str


class OrderConverted(Event):
    """BF-R4: a turn-in-succession given to a division not in line ahead is a simultaneous turn."""

    division: str
    index: int


class ShipDroppedOut(Event):
    ship: str
    division: str
    new_division: str


class CommandTransferred(Event):
    division: str
    from_ship: str
    to_ship: str
    how: Literal["voluntary", "involuntary", "flagship_lost", "dropped_out"]  # dropped_out: 4.0.0, BF-R35
    fleet: bool  # the fleet flagship's command passed too


class BoatGunsManned(Event):
    ship: str
    manned: bool


class MessageDelivered(Event):
    """A fleet order reached its addressee; its text is sealed to sender, addressee and referee (BF-R12)."""

    from_seat: str
    to_seat: str
    index: int  # of the message among the sender's
    delayed: bool = False  # the addressee's flagship failed its Read Message roll: it waits a turn


class ShipSurrendered(Event):
    ship: str


class ShipsMoved(Event):
    """Under fog `open`: the Movement Phase's outcome (under `blur` it is sealed to each owner)."""

    moves: Moves


class LineReversed(Event):
    """BF-R4: a 180-degree simultaneous turn: the last ship leads."""

    division: str


class ShipWithdrew(Event):
    """BF-R29: its bow left the table: out of play, not lost."""

    ship: str


class GunsAbandoned(Event):
    ship: str


class GunFire(msgspec.Struct, forbid_unknown_fields=True):
    mount: str
    side: Side | None
    ammo: Ammo
    cat: Literal["main", "secondary", "tertiary"]
    rounds: int  # rounds fired (0: the mount did not bear or could not reach)


class SalvoMeasured(Event):
    """4.3: what the tape shows. Under `blur` the marker and distances are sealed to the referee."""

    firer: str
    target: str
    estimate: int
    # could_not_bear: from 4.0.0 under fog blur, what the public and the firer learn of a salvo that fired no round
    # (no_los, out_of_arc, out_of_range, or every gun that bears spent: the truth is the referee's, Markers.unfired,
    # BF-E4-21)
    outcome: Literal["hit", "short", "over", "no_los", "out_of_arc", "out_of_range", "could_not_bear"]
    bracket: int | None
    rounds: int
    rof_capped: bool  # the rate of fire voided rounds asked of guns that bear (4.1, BF-R14, R53)
    guns: list[GunFire]
    marker: Point | None = None
    lead: int | None = None
    exit: int | None = None


class TorpedoesResolved(Event):
    ship: str
    mount: str
    side: Side | None
    target: str
    count: int
    # could_not_reach: out of arc or range, blocked or under, the reason sealed to the referee (blur, 11.0.0, BF-E11-4)
    outcome: Literal["hit", "miss", "under", "out_of_arc", "out_of_range", "blocked", "could_not_reach"]
    hits: int
    depth: Literal["normal", "shallow"] | None  # 7.0.0 (BF-E7-1): null where the depth decides nothing


class CriticalRolled(Event):
    ship: str
    source: str  # fire_external | fire_internal | flooding:<compartment> | main:<position>
    result: str


class HitsRolled(Event):
    firer: str
    target: str
    cat: str
    rounds: int
    vitals: int
    upperworks: int


class DamageApplied(Event):
    """One code of the glossary applied to a ship, where it landed, and what it did."""

    ship: str
    code: str
    kind: str
    location: str | None
    destroy: bool
    source: str
    effect: str  # a short human account ("propulsion box 115 damaged", "no effect: no such feature")


class FloodingChanged(Event):
    ship: str
    compartment: Compartment
    level: int
    cause: str
    how: Literal["hit", "counterflood", "magazine"] = "hit"  # a hit of heavy or worse breaks containment


class FireChanged(Event):
    ship: str
    external: int
    internal: int
    cause: str


class ScuttlingBegun(Event):
    ship: str


class DcResolved(Event):
    ship: str
    function: str
    target: str | None
    success: bool
    level: int | None = None


class ListingChanged(Event):
    ship: str
    list: int
    trim: int
    boxes: int  # speed boxes the list and trim cost while they last


class SinkRolled(Event):
    ship: str
    points: int
    need: int
    sinks: bool


class ShipSinking(Event):
    ship: str
    turns: int


class VesselLost(Event):
    ship: str
    how: Literal["sunk", "capsized", "scuttled", "blown_up"]


class TurnEnded(Event):
    turn: int


class SideShare(msgspec.Struct, forbid_unknown_fields=True):
    seat: str
    size_lost: int
    size_start: int
    ships_lost: int


class BattleEnded(Event):
    result: str  # the winning seat, or "draw" (BF-R31)
    reason: str
    shares: list[SideShare]


class TableRevealed(Event):
    """After the battle: every ship's exact pose, public."""

    ships: list[ShipPose]


EVENTS = (
    BattleStarted,
    TurnStarted,
    StepStarted,
    DivisionOrdered,
    OrderConverted,
    OrdersLapsed,
    ShipDroppedOut,
    CommandTransferred,
    BoatGunsManned,
    MessageDelivered,
    ShipSurrendered,
    ShipsMoved,
    LineReversed,
    ShipWithdrew,
    GunsAbandoned,
    SalvoMeasured,
    TorpedoesResolved,
    CriticalRolled,
    HitsRolled,
    DamageApplied,
    FloodingChanged,
    FireChanged,
    ScuttlingBegun,
    DcResolved,
    ListingChanged,
    SinkRolled,
    ShipSinking,
    VesselLost,
    TurnEnded,
    BattleEnded,
    TableRevealed,
)
register(*EVENTS)
