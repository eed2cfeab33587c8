"""The data set of `battlefleet-1900`: the scale, Ship Values, combat chart and scenarios the text names but
does not print (BATTLEFLEET.md §2). The Structs are its schema; `parse_data` decodes a set (ours or a user's)
and collects every cross-check problem before raising. Values the text fixes say so (`fixed`: its section);
every other value is a stand-in (`stand_in`), see README.md beside this file.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

import msgspec

Mm = Annotated[int, msgspec.Meta(ge=0, le=100_000)]
Half = Annotated[int, msgspec.Meta(ge=-720, le=720)]  # half-degrees clockwise from the bow
Face = Annotated[int, msgspec.Meta(ge=1, le=12)]
Arc = Annotated[list[Half], msgspec.Meta(min_length=2, max_length=2)]
Compartment = Literal["F", "PA", "SA", "A"]
COMPARTMENTS: tuple[str, ...] = ("F", "PA", "SA", "A")
Kind = Literal[  # the effect kinds the text names; every code is data
    "none",
    "propulsion",
    "main",
    "secondary",
    "tertiary",
    "boat",
    "flooding",
    "fire_external",
    "fire_internal",
    "dc",
    "steering",
    "rudder",
    "bridge",
    "ct",
    "searchlight",
    "explosion",
    "blow_up",
]
KINDS: tuple[str, ...] = get_args(Kind)


class Scale(msgspec.Struct, forbid_unknown_fields=True):
    bracket_mm: Annotated[int, msgspec.Meta(ge=40, le=10_000, multiple_of=4)]  # 4 | B (the quarter bracket)
    brackets: Literal[4]  # 4.1: "over half range (third and fourth range brackets)"
    table_mm: Annotated[list[Mm], msgspec.Meta(min_length=2, max_length=2)]
    fixed: dict[str, str]
    stand_in: bool


class Speed(msgspec.Struct, forbid_unknown_fields=True):
    boxes: Literal[6]  # 6.2 (six propulsion boxes)
    accel_boxes: Literal[1]  # 3.0: +20 mm, "one propulsion box worth of speed"
    decel_boxes: Annotated[int, msgspec.Meta(ge=1, le=6)]  # BF-R6
    fixed: dict[str, str]
    stand_in: bool


class DcDice(msgspec.Struct, forbid_unknown_fields=True):
    large: Literal[6]  # 6.3
    small: Literal[3]
    large_from_size: Literal[5]
    fixed: str


class Position(msgspec.Struct, forbid_unknown_fields=True):
    """A lettered (or named) gun position: its arcs, [from, to] half-degrees clockwise off the bow."""

    arcs: list[Arc]
    compartment: Compartment  # where its magazine lies (Flood Magazine)
    wing: Literal["port", "starboard"] | None = None  # a wing position of a lozenge (BF-R18)
    fixed: str | None = None
    stand_in: bool = False


class Weapon(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    cat: Literal["main", "secondary", "tertiary"]
    bore: str
    size: Annotated[int, msgspec.Meta(ge=0, le=100)]  # for the ship log; no v1 rule reads it
    rof: Literal["1/2", "1", "2"]
    pen: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=100)] | None], msgspec.Meta(min_length=4, max_length=4)]
    boat: bool = False
    guns: Annotated[int, msgspec.Meta(ge=1, le=8)] | None = None  # per lettered position
    pos: list[str] | None = None
    pattern: Literal[0, 1, 2] | None = None
    per_side: (
        Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=20)]], msgspec.Meta(min_length=3, max_length=3)] | None
    ) = None


class Tube(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    pos: Literal["side", "bow", "stern", "centre-line"]
    size: Annotated[int, msgspec.Meta(ge=1, le=100)]
    range_mm: Mm
    shallow_ok: bool = False
    count: Annotated[int, msgspec.Meta(ge=1, le=20)] | None = None
    per_side: Annotated[int, msgspec.Meta(ge=1, le=10)] | None = None


ShipType = Literal[
    "battleship", "armoured_cruiser", "protected_cruiser", "cruiser", "destroyer", "torpedo_boat", "torpedo_gunboat"
]
SKIMMER_TYPES = ("destroyer", "torpedo_boat", "torpedo_gunboat")  # 5.0: only these may carry surface skimmers


class ShipClass(msgspec.Struct, forbid_unknown_fields=True):
    type: ShipType
    size: Annotated[int, msgspec.Meta(ge=1, le=100)]
    armour: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=100)]], msgspec.Meta(min_length=2, max_length=2)]
    flood_protection: Literal["poor", "fair", "good", "great"]
    stability: Literal["poor", "normal", "good"]
    armoured_deck: bool
    speed_boxes: Annotated[list[Mm], msgspec.Meta(min_length=6, max_length=6)]
    base_mm: Annotated[
        list[Annotated[int, msgspec.Meta(ge=2, le=1000, multiple_of=2)]], msgspec.Meta(min_length=2, max_length=2)
    ]
    funnel_mm: Mm
    turn_radius_mm: Annotated[int, msgspec.Meta(ge=1, le=10_000)]
    weapons: list[Weapon]
    torpedoes: list[Tube]
    stand_in: bool
    note: str = ""


Row = tuple[Face, Face, str]  # [lo, hi, result]; results combine codes with "+"
ColumnRow = tuple[Face, Face, list[str]]  # [lo, hi, [result per column]]


class HitChance(msgspec.Struct, forbid_unknown_fields=True):
    """Which faces of the 1D6 rolled per round landed hit which part."""

    vitals: Annotated[list[Face], msgspec.Meta(min_length=2, max_length=2)] | None
    upperworks: Annotated[list[Face], msgspec.Meta(min_length=2, max_length=2)] | None


class Penetration(msgspec.Struct, forbid_unknown_fields=True):
    bounds: list[int]  # column = how many bounds (pen - armour) * 100 // armour reaches
    he_divisor: Annotated[int, msgspec.Meta(ge=1)]


class TorpedoHit(msgspec.Struct, forbid_unknown_fields=True):
    beam_arc: Arc  # the launcher's bearing off the target's bow that counts as beam (either side)
    within_half: dict[Literal["beam", "ends"], Face]
    beyond_half: dict[Literal["beam", "ends"], Face]


class Uneven(msgspec.Struct, forbid_unknown_fields=True):
    list_boxes: list[tuple[int, int, int]]  # [lo, hi, boxes lost]
    trim_boxes: list[tuple[int, int, int]]
    capsize_from: int  # a list of this much or more capsizes on...
    capsize_on: Annotated[list[Face], msgspec.Meta(min_length=2, max_length=2)]


class Sinking(msgspec.Struct, forbid_unknown_fields=True):
    from_points: int  # 6.0 Step Four: five or more
    rows: list[tuple[int, int, Face, int]]  # [lo, hi points, roll needed (>=), turns to sink]
    poor_stability_shift: int


class Tables(msgspec.Struct, forbid_unknown_fields=True):
    hit_chance: dict[Literal["AP", "HE"], HitChance]
    penetration: Penetration
    shell: dict[Literal["AP_vitals", "AP_upperworks", "HE"], list[ColumnRow]]
    critical: dict[Literal["fire_external", "fire_internal", "flooding", "main"], list[Row]]
    flooding_occurrence_bounds: list[int]  # column by torpedo size * 100 // target size
    flooding_occurrence: list[ColumnRow]
    torpedo_hit: TorpedoHit
    uneven: Uneven
    sinking: Sinking
    dc: dict[str, Face]  # repair and command functions: the lowest face that succeeds
    stand_in: bool


class Code(msgspec.Struct, forbid_unknown_fields=True):
    kind: Kind
    n: Annotated[int, msgspec.Meta(ge=0, le=20)] = 1  # boat guns lost, flooding level
    destroy: bool = False
    if_missing: str | None = None  # what the hit does where the ship has no such feature (else nothing)
    note: str = ""


class Fog(msgspec.Struct, forbid_unknown_fields=True):
    blur_pct: Annotated[int, msgspec.Meta(ge=0, le=50)]
    heading_step: Annotated[int, msgspec.Meta(ge=1, le=90)]
    stand_in: bool


class ScenarioShip(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    cls: str
    bow: Annotated[list[int], msgspec.Meta(min_length=2, max_length=2)]
    heading: Annotated[int, msgspec.Meta(ge=0, le=359)]


class ScenarioDivision(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    flagship: str
    ships: list[ScenarioShip]  # in line order


class ScenarioSide(msgspec.Struct, forbid_unknown_fields=True):
    seat: str
    fleet_flagship: str
    last_move_mm: Mm
    divisions: list[ScenarioDivision]


class Scenario(msgspec.Struct, forbid_unknown_fields=True):
    title: str
    sides: Annotated[list[ScenarioSide], msgspec.Meta(min_length=2, max_length=2)]
    land: list[list[Annotated[list[int], msgspec.Meta(min_length=2, max_length=2)]]]
    stand_in: bool
    note: str = ""


class DataSet(msgspec.Struct, forbid_unknown_fields=True, dict=True):
    about: str
    scale: Scale
    speed: Speed
    dc_dice: DcDice
    positions: dict[str, Position]
    patterns: dict[Literal["bow", "beam", "stern"], Arc]  # starboard arcs; port mirrored
    tube_arcs: dict[Literal["side", "bow", "stern", "centre-line"], list[Arc]]  # side: starboard; port mirrored
    fog: Fog
    tables: Tables
    glossary: dict[str, Code]
    classes: dict[str, ShipClass]
    scenarios: dict[str, Scenario]

    def weapons(self, cls: str) -> dict[str, Weapon]:
        """A class's weapons by id (indexed once per data set)."""
        cache = self.__dict__.setdefault("_weapons", {})
        if cls not in cache:
            cache[cls] = {w.id: w for w in self.classes[cls].weapons}
        return cache[cls]

    def layout(self, cls: str, wid: str) -> list[tuple[str, str]]:
        """(side, group) of each gun of a beam pattern: port first; bow, beam, stern on each side."""
        cache = self.__dict__.setdefault("_layout", {})
        if (cls, wid) not in cache:
            w = self.weapons(cls)[wid]
            groups = [g for g, n in zip(("bow", "beam", "stern"), w.per_side) for _ in range(n)]
            cache[cls, wid] = [(side, g) for side in ("port", "starboard") for g in groups]
        return cache[cls, wid]


def codes(result: str) -> list[str]:
    """A table result's codes: "X+Mx" -> ["X", "Mx"]; "-" -> []."""
    return [c for c in result.split("+") if c != "-"]


def parse_data(raw: bytes) -> DataSet:
    data = msgspec.json.decode(raw, type=DataSet)
    problems = check_tables(data) + [p for name, k in data.classes.items() for p in check_class(data, name, k)]
    problems += [p for name, sc in data.scenarios.items() for p in check_scenario(data, name, sc)]
    if problems:
        raise ValueError("; ".join(problems))
    return data


def check_tables(data: DataSet) -> list[str]:
    t, out = data.tables, []
    for code, c in data.glossary.items():
        if c.if_missing is not None and any(x not in data.glossary for x in codes(c.if_missing)):
            out.append(f"glossary {code}: if_missing names an unknown code")
    cols = len(t.penetration.bounds) + 1
    cells = [(f"shell.{n}", r[2], cols) for n, rows in t.shell.items() for r in rows]
    cells += [("flooding_occurrence", r[2], len(t.flooding_occurrence_bounds) + 1) for r in t.flooding_occurrence]
    for where, row, width in cells:
        if len(row) != width:
            out.append(f"tables.{where}: a row needs {width} results")
        out += [f"tables.{where}: unknown code {c!r}" for cell in row for c in codes(cell) if c not in data.glossary]
    for name, rows in t.critical.items():
        out += [
            f"tables.critical.{name}: unknown code {c!r}"
            for r in rows
            for c in codes(r[2])
            if c not in data.glossary and c != "out"
        ]
    tables: dict[str, list[tuple[int, int, Any]]] = {f"shell.{n}": rows for n, rows in t.shell.items()} | {
        f"critical.{n}": rows for n, rows in t.critical.items()
    }
    tables["flooding_occurrence"] = t.flooding_occurrence
    for table, rows in tables.items():
        top = 12 if table == "critical.main" else 6
        faces = [f for lo, hi, _ in rows for f in range(lo, hi + 1)]
        if faces != list(range(2 if top == 12 else 1, top + 1)):
            out.append(f"tables.{table}: rows must cover each face once, in order")
    return out


def check_class(data: DataSet, name: str, k: ShipClass) -> list[str]:
    out, ids, letters = [], set(), set()
    top = k.speed_boxes[0]
    if top % 6 or k.speed_boxes != [top * (6 - i) // 6 for i in range(6)]:
        out.append(f"class {name}: speed_boxes are six equal steps down from a multiple of 6 (BATTLEFLEET.md §2)")
    for w in k.weapons:
        if w.id in ids or w.id in data.positions:
            out.append(f"class {name}: weapon id {w.id!r} is used twice or is a position letter")
        ids.add(w.id)
        lettered, patterned = w.pos is not None and w.guns is not None, w.pattern is not None and w.per_side is not None
        given = [x is not None for x in (w.pos, w.guns, w.pattern, w.per_side)]
        if lettered == patterned or sum(given) != 2:
            out.append(f"class {name}: weapon {w.id} needs either pos + guns or pattern + per_side")
        for p in w.pos or []:
            if p not in data.positions or p in letters:
                out.append(f"class {name}: weapon {w.id} position {p!r} is unknown or taken")
            letters.add(p)
        if patterned and w.pattern in (1, 2) and (w.per_side[0], w.per_side[2]) != (w.pattern, w.pattern):
            out.append(
                f"class {name}: weapon {w.id}: pattern {w.pattern} has {w.pattern} gun(s) at bow and stern a side"
            )
        if patterned and w.pattern == 0 and (w.per_side[0], w.per_side[2]) != (0, 0):
            out.append(f"class {name}: weapon {w.id}: pattern 0 guns are all on the beam")
        if w.boat and (w.cat != "tertiary" or not patterned):
            out.append(f"class {name}: boat guns ({w.id}) are a tertiary beam pattern")
    for tube in k.torpedoes:
        if (
            tube.id in ids
            or (tube.pos == "side") != (tube.per_side is not None)
            or (tube.count is None) == (tube.per_side is None)
        ):
            out.append(f"class {name}: tube {tube.id}: a unique id, and per_side for side tubes, else count")
        ids.add(tube.id)
        if tube.shallow_ok and k.type not in SKIMMER_TYPES:
            out.append(f"class {name}: only {list(SKIMMER_TYPES)} may carry surface skimmers (5.0)")
    if k.funnel_mm > k.base_mm[0]:
        out.append(f"class {name}: the forward funnel lies on the base")
    return out


def check_scenario(data: DataSet, name: str, sc: Scenario) -> list[str]:
    out, names = [], []
    w, h = data.scale.table_mm
    if sc.sides[0].seat == sc.sides[1].seat:
        out.append(f"scenario {name}: the two sides need two seats")
    for side in sc.sides:
        ships = [s.name for d in side.divisions for s in d.ships]
        if side.fleet_flagship not in [d.flagship for d in side.divisions]:
            out.append(f"scenario {name}: {side.seat}'s fleet flagship must be a division flagship")
        for d in side.divisions:
            if d.flagship not in [s.name for s in d.ships]:
                out.append(f"scenario {name}: division {d.id}'s flagship is not in it")
            for s in d.ships:
                if s.cls not in data.classes:
                    out.append(f"scenario {name}: {s.name} has no class {s.cls!r}")
                if not (0 <= s.bow[0] <= w and 0 <= s.bow[1] <= h):
                    out.append(f"scenario {name}: {s.name} starts off the table")
        names += ships
    divs = [d.id for side in sc.sides for d in side.divisions]
    if len(set(names)) != len(names) or len(set(divs)) != len(divs):
        out.append(f"scenario {name}: ship names and division ids must be unique")
    for poly in sc.land:
        if len(poly) < 3:
            out.append(f"scenario {name}: land is a polygon of at least 3 points")
    return out
