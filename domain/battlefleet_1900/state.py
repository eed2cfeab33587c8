"""The state of a battle, and `initial_state`, which sets the table from the scenario. Only `evolve` (evolve.py)
changes it; decide works on a copy (domain/procedure.py).

Public facts (damage, flooding, orders once revealed, the gunnery log) live on `Ship`, `Division` and
`State`; everything a seat may keep from the others (exact poses under fog, its sealed submission, torpedo
depths, messages) lives in ONE field, `State.sealed`, which `rules.sealing.redact` strips for each reader.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.battlefleet_1900.data import COMPARTMENTS, DataSet, ShipClass, Weapon
from domain.battlefleet_1900.editions import EDITIONS
from domain.editions import Edition
from events.battlefleet_1900 import Arrow, Pose
from events.core import GameCreated

LOST = ("sunk", "capsized", "scuttled", "blown_up", "surrendered")  # BF-R31: these count as lost
GONE = ("sunk", "capsized", "scuttled", "blown_up")  # no longer on the table (BF-R26)


@dataclass
class Mount:
    """A lettered gun position (6.2): slashes and X accumulate without limit."""

    weapon: str
    slashes: int = 0
    destroyed: bool = False
    flooded: bool = False  # its magazine (6.3 Flood Magazine)
    fired: int = 0  # the last turn it fired

    @property
    def intact(self) -> bool:
        return not (self.slashes or self.destroyed or self.flooded)


@dataclass
class Ship:
    name: str
    cls: str
    seat: str
    division: str
    destroyed: int = 0  # propulsion boxes destroyed (the top ones)
    damaged: int = 0  # then damaged ones below them
    margin: int = 0  # propulsion hits beyond the boxes (BF-R23)
    mounts: dict[str, Mount] = field(default_factory=dict)
    guns: dict[str, list[str]] = field(default_factory=dict)  # pattern -> each gun ok | damaged | destroyed (6.2)
    fired: dict[str, int] = field(default_factory=dict)  # "weapon:side" -> the last turn that pattern side fired
    tubes: dict[str, int] = field(default_factory=dict)  # "tube" or "tube:side" -> torpedoes left
    dc_damaged: int = 0
    flooding: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COMPARTMENTS, 0))
    contained: list[str] = field(default_factory=list)
    counterflooded: list[str] = field(default_factory=list)
    fires_ext: int = 0
    fires_int: int = 0
    tr: int = 0  # steering hits (ST)
    rudder: str | None = None  # a jammed rudder's side (R)
    secured: bool = False  # RC: the rudder secured on the centre-line
    bridge: int = 0
    bridge_x: bool = False
    ct: int = 0
    searchlight: int = 0
    list: int = 0
    trim: int = 0
    list_boxes: int = 0  # speed boxes list and trim cost while they last (temporary, not marks)
    sinking: int | None = None  # turns left before it goes under
    abandoned: bool = False  # its gun crews left for good (6.0)
    scuttling: bool = False
    sink_minus: bool = False  # this turn's DC "-1 to the sink roll" succeeded
    lost: str | None = None  # sunk | capsized | scuttled | blown_up | surrendered | withdrawn

    @property
    def points(self) -> int:
        return sum(self.flooding.values())

    @property
    def in_play(self) -> bool:
        """Afloat and neither surrendered nor withdrawn: it may still move, fire or be fired on."""
        return self.lost is None

    @property
    def on_table(self) -> bool:
        """A base that blocks sight and movement: everything not gone under or off the table (6.0)."""
        return self.lost not in GONE and self.lost != "withdrawn"

    @property
    def status(self) -> str:
        """What the views show: going under first (a surrendered ship too), then how it was lost, else afloat."""
        return "sinking" if self.sinking is not None else (self.lost or "afloat")

    @property
    def command_ok(self) -> bool:
        return self.ct == 0


@dataclass
class Division:
    id: str
    seat: str
    ships: list[str]  # in line order; only ships in play and not sinking
    flagship: str | None
    orders: list[Arrow] = field(default_factory=list)  # this turn's, once revealed
    dropped_out: bool = False  # made this turn by a drop-out: its move must turn it out of line (BF-R9)


@dataclass
class Waypoint:
    """BF-R8: a succession pivot a follower still has to reach, and the turns it makes there."""

    x: int
    y: int
    turns: list[int]


@dataclass
class Message:
    turn: int
    from_seat: str
    to_seat: str
    text: str
    signal: str | None = None
    delivered: bool = False


@dataclass
class Marker:
    firer: str
    target: str
    x: int
    y: int
    outcome: str
    length: int
    lead: int
    exit: int


@dataclass
class Secrets:
    """What one seat (or the referee) may read before the end: the only place secrets live."""

    poses: dict[str, Pose] = field(default_factory=dict)
    last_move: dict[str, int] = field(default_factory=dict)
    line_bearing: dict[str, int] = field(default_factory=dict)
    waypoints: dict[str, list[Waypoint]] = field(default_factory=dict)
    depth: dict[str, str] = field(default_factory=dict)  # normal | shallow (5.0: logged before the game)
    manned: dict[str, bool] = field(default_factory=dict)
    pending: dict[str, dict[str, Any]] = field(default_factory=dict)  # this step's sealed submission by kind
    sighting: dict[str, Pose] = field(default_factory=dict)  # enemy poses as this seat sees them (fog blur)
    messages: list[Message] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)  # the referee's: this turn's splash and hit markers
    # fog blur from 6.0.0 (BF-E6-1): the seat's divisions whose line runs opposite to its last public order, and this
    # turn's arrows converted to together, which the others do not know of
    reversed: set[str] = field(default_factory=set)
    converted: list[tuple[str, int]] = field(default_factory=list)


@dataclass(frozen=True)
class SalvoLine:
    """One target row of the gunnery log (4.1): public once measured. Immutable, so copies of the state share it."""

    turn: int
    firer: str
    target: str
    estimate: int
    outcome: str
    bracket: int | None
    rounds: int
    guns: tuple[Any, ...]
    codes: tuple[str, ...] = ()


@dataclass
class Due:
    """A hit zone (or torpedo hit) awaiting Step 2."""

    kind: str  # salvo | torpedo
    firer: str
    target: str
    bracket: int = 0
    guns: list[Any] = field(default_factory=list)  # GunFire of a salvo
    hits: int = 0  # torpedoes that hit
    size: int = 0  # the torpedo's size as it counts (BF-R27)


@dataclass
class State:
    data: DataSet
    scenario: str
    seats: list[str]
    fog: str
    turns: int
    read_message_rolls: bool
    ships: dict[str, Ship]
    divisions: dict[str, Division]
    fleet_flagship: dict[str, str | None]
    start_size: dict[str, int]
    sealed: dict[str, Secrets]  # per seat, and "referee"
    edition: Edition  # the rules this game plays under (domain/editions.py)
    turn: int = 0
    step: str = "setup"
    owing: list[str] = field(default_factory=list)
    submitted: dict[str, str] = field(default_factory=dict)  # seat -> commitment, this step
    due: list[Due] = field(default_factory=list)
    log: list[SalvoLine] = field(default_factory=list)  # immutable lines: a copy of the state shares them
    orders_log: list[tuple[int, str, tuple[Arrow, ...]]] = field(default_factory=list)  # (turn, division, arrows)
    over: bool = False
    result: str | None = None

    def cls(self, ship: str) -> ShipClass:
        return self.data.classes[self.ships[ship].cls]

    def pose(self, ship: str) -> Pose:
        return self.sealed[self.ships[ship].seat].poses[ship]

    def weapon(self, ship: str, wid: str) -> Weapon:
        return self.data.weapons(self.ships[ship].cls)[wid]

    def gun_at(self, ship: str, wid: str, i: int) -> tuple[str, str]:
        """(side, group) of a pattern's gun i: port guns first, bow, beam, stern on each side."""
        return self.data.layout(self.ships[ship].cls, wid)[i]

    def own(self, seat: str) -> list[str]:
        return [n for n, s in self.ships.items() if s.seat == seat]

    def enemy(self, seat: str) -> str:
        return next(s for s in self.seats if s != seat)


# ---- what evolve computes from the state (the rules import these; evolve never imports rules/) ----


def propulsion_hit(d: int, g: int, m: int, destroy: bool, boxes: int = 6) -> tuple[int, int, int]:
    """BF-R23 (6.2): P damages the box below the marked ones, else goes to the margin; Px destroys one, a damaged
    box migrating down (and its mark to the margin) when all are marked."""
    if not destroy:
        return (d, g + 1, m) if d + g < boxes else (d, g, m + 1)
    if d + g < boxes:
        return d + 1, g, m
    if g > 0:
        return d + 1, g - 1, m + 1
    return d, g, m + 1


def top_box(state: State, ship: str) -> int:
    """3.0, BF-R23: the topmost unmarked box, list and trim costing boxes too (BATTLEFLEET.md §2); 0 when none."""
    s, boxes = state.ships[ship], state.cls(ship).speed_boxes
    i = s.destroyed + s.damaged + s.list_boxes
    return boxes[i] if i < len(boxes) else 0


def dc_dice(state: State, ship: str) -> int:
    """6.3: six DC dice for size 5 and over, three for size 4 and under."""
    dd, size = state.data.dc_dice, state.cls(ship).size
    return dd.large if size >= dd.large_from_size else dd.small


SIDES = ("port", "starboard")


def initial_state(created: GameCreated, options: Any, data: DataSet) -> State:
    """The scenario's sides, divisions in line order, flagships and poses (BF-R2)."""
    sc = data.scenarios[options.scenario]
    ships: dict[str, Ship] = {}
    divisions: dict[str, Division] = {}
    sealed: dict[str, Secrets] = {}
    for side in sc.sides:
        sec = sealed[side.seat] = Secrets()
        for d in side.divisions:
            divisions[d.id] = Division(d.id, side.seat, [s.name for s in d.ships], d.flagship)
            sec.line_bearing[d.id] = d.ships[0].heading
            for s in d.ships:
                ships[s.name] = new_ship(data, s.name, s.cls, side.seat, d.id)
                sec.poses[s.name] = Pose(s.bow[0], s.bow[1], s.heading)
                sec.last_move[s.name] = side.last_move_mm
                sec.depth[s.name] = "normal"
                sec.manned[s.name] = True
    sealed["referee"] = Secrets()
    return State(
        data=data,
        scenario=options.scenario,
        seats=[side.seat for side in sc.sides],
        fog=options.fog,
        turns=options.turns,
        read_message_rolls=options.read_message_rolls,
        ships=ships,
        divisions=divisions,
        fleet_flagship={side.seat: side.fleet_flagship for side in sc.sides},
        start_size={
            side.seat: sum(data.classes[s.cls].size for d in side.divisions for s in d.ships) for side in sc.sides
        },
        sealed=sealed,
        edition=EDITIONS.of(created.ruleset.version),
        owing=[side.seat for side in sc.sides],
    )


def new_ship(data: DataSet, name: str, cls: str, seat: str, division: str) -> Ship:
    k = data.classes[cls]
    ship = Ship(name=name, cls=cls, seat=seat, division=division)
    for w in k.weapons:
        if w.pos:
            ship.mounts.update({p: Mount(weapon=w.id) for p in w.pos})
        else:
            ship.guns[w.id] = ["ok"] * len(data.layout(cls, w.id))
    for t in k.torpedoes:
        if t.per_side:
            ship.tubes.update({f"{t.id}:{side}": t.per_side for side in SIDES})
        elif t.count is not None:  # the data check: count where there is no per_side
            ship.tubes[t.id] = t.count
    return ship
