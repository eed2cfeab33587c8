"""The decision vocabulary: what an `awaiting` entry's `ui` may say, so a UI renders any decision without knowing the
ruleset (DESIGN.md "The decision contract", docs/api.md "Decision descriptors").

A descriptor is a tree of *controls*. Each control fills one argument (`field`) of the object it sits in with a JSON
value; `variants` instead merges the chosen variant's arguments into that object. The top of the tree is a `form`
(the command's arguments are what its controls fill) or one of the table-drawing forms (`move`, `fire`, `steps`,
`sides`), which say in their own typed shape what a map or a table needs.

| kind | fills `field` with |
|---|---|
| `select` | one option's `value` (left out when `optional` and none is chosen: the command's default) |
| `pick` | a list of distinct option values, `min`..`max` of them (`ordered`: their order matters) |
| `number` | an integer from `min` to `max` |
| `text` | a string of at most `max_length` characters |
| `items` | a list: one object per included item, its `fixed` arguments and what its own `controls` fill |
| `repeat` | a list of `min`..`max` objects, each filled by the same `controls` |
| `group` | an object filled by its `controls` (an object keyed by ids, as U-Boat Leader's bearing speeds) |
| `variants` | (no field) the chosen variant's `fixed` arguments and what its `controls` fill, merged into the object |

Every id is enumerated per item with the values legal *for that item* (a boat's own targets, a ship's own mounts),
so a UI cannot build a pair the rules refuse. A ruleset builds its descriptors with the same predicate that refuses
a command. Descriptors carry only what their reader may know (they are part of a read: `redact` first).
`rulebook` is the rule text's own words for a label where a player would look for them (U-Boat Leader's Spanish).
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

import msgspec

Scalar = str | int | bool | None


class _Kind(msgspec.Struct, tag_field="kind", omit_defaults=True, forbid_unknown_fields=True):
    pass


class Option(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """One value a `select` or `pick` offers, with its label."""

    value: Scalar
    label: str
    rulebook: str | None = None


# ---- controls: each fills one field of the object it is in ----


class Select(_Kind, tag="select"):
    """One of `options`; `default` is preselected; `optional`: the field may be left out (the command's default)."""

    field: str
    label: str
    options: list[Option]
    default: Scalar = None
    optional: bool = False
    rulebook: str | None = None


class Pick(_Kind, tag="pick"):
    """Some of `options` (each at most once), at least `min`, at most `max` (null: all of them); `ordered`: the list's
    order is part of the command (pick them in turn)."""

    field: str
    label: str
    options: list[Option]
    min: int = 0
    max: int | None = None
    ordered: bool = False
    rulebook: str | None = None


class Number(_Kind, tag="number"):
    """A whole number from `min` to `max` inclusive; `default` preselected; `optional`: may be left out."""

    field: str
    label: str
    min: int
    max: int
    default: int | None = None
    optional: bool = False
    unit: str = ""
    rulebook: str | None = None


class Text(_Kind, tag="text"):
    """Free text of at most `max_length` characters (a message to another seat)."""

    field: str
    label: str
    max_length: int
    default: str = ""
    rulebook: str | None = None


class Item(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """One thing an `items` control may include: its object is `fixed` plus what its own `controls` fill.
    `required`: it is always included."""

    label: str
    fixed: dict[str, Scalar]
    controls: list[Control] = []
    required: bool = False
    rulebook: str | None = None


class Items(_Kind, tag="items"):
    """A list built item by item: each included item adds one object. At least `min` and at most `max` items
    (null: any number of those offered). An item may appear more than once only where `repeatable` says so."""

    field: str
    label: str
    items: list[Item]
    min: int = 0
    max: int | None = None
    repeatable: bool = False
    rulebook: str | None = None


class Repeat(_Kind, tag="repeat"):
    """A list of `min`..`max` objects, each filled by the same `controls` (one torpedo per entry)."""

    field: str
    label: str
    controls: list[Control]
    min: int = 0
    max: int = 1
    rulebook: str | None = None


class Group(_Kind, tag="group"):
    """An object whose keys are its controls' fields (a speed per boat)."""

    field: str
    label: str
    controls: list[Control]
    rulebook: str | None = None


class Variant(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    label: str
    fixed: dict[str, Scalar] = {}
    controls: list[Control] = []
    rulebook: str | None = None


class Variants(_Kind, tag="variants"):
    """Exactly one of `variants`: its `fixed` arguments and its controls' values join the object this control is in
    (a choice that decides what else may be chosen: a gun or torpedoes, and then their own targets)."""

    label: str
    variants: list[Variant]
    rulebook: str | None = None


Control = Union[Select, Pick, Number, Text, Items, Repeat, Group, Variants]


# ---- the top of a descriptor ----


class Form(_Kind, tag="form"):
    """The command's arguments are what its `controls` fill (an argument none fills takes its default)."""

    controls: list[Control]


class Pose(msgspec.Struct, forbid_unknown_fields=True):
    x: int
    y: int
    h: int


class SeenPose(msgspec.Struct, forbid_unknown_fields=True):
    x: int
    y: int
    h: int
    exact: bool


class Range(msgspec.Struct, forbid_unknown_fields=True):
    min: int
    max: int


class TurnBand(msgspec.Struct, forbid_unknown_fields=True):
    """BF-R5: one ordered turn's band of degrees (negative to port; `to: either` a free turn)."""

    arrow: int | None
    to: Literal["port", "starboard", "either"]
    min_deg: int
    max_deg: int


class DivisionMove(msgspec.Struct, forbid_unknown_fields=True):
    division: str
    lead: str
    ships: list[str]
    pose: Pose
    distance_mm: Range
    stop: bool
    turns: list[TurnBand]


class MoveForm(_Kind, tag="move"):
    """Battlefleet's Movement Phase (`move`): each division that can move, how far its lead may go (BF-R6) and one
    band per number of `turns_deg` (BF-R5). Send `{divisions: [{division, distance_mm, turns_deg}]}`."""

    divisions: list[DivisionMove]


class Arc(msgspec.Struct, forbid_unknown_fields=True):
    group: str | None
    guns: int
    half_deg: list[int]


class Mount(msgspec.Struct, forbid_unknown_fields=True):
    mount: str
    side: Literal["port", "starboard"] | None
    weapon: str
    cat: str
    bore: int
    guns: int
    cycles: int
    arcs: list[Arc]
    brackets: list[int]
    reach_mm: int


class Firer(msgspec.Struct, forbid_unknown_fields=True):
    ship: str
    pose: Pose
    mounts: list[Mount]


class FireTarget(msgspec.Struct, forbid_unknown_fields=True):
    ship: str
    cls: str
    pose: SeenPose | None


class FireForm(_Kind, tag="fire"):
    """Battlefleet's Gunnery Phase (`fire`): each ship able to fire with each gun position or pattern side that can
    (BF-R14), the enemy ships in play at the pose the seat's own view shows (BF-R13), and what an estimate may be
    (BF-R15). Send `{salvos: [{ship, target, estimate_mm, guns: [{mount, side, guns, cycles, ammo}]}]}`."""

    ships: list[Firer]
    targets: list[FireTarget]
    estimate_mm: Range
    one_cycle_beyond_mm: int


class Step(msgspec.Struct, forbid_unknown_fields=True):
    to: str
    space: Literal["open", "port", "box"]
    move_events: int | None


class BoatSteps(msgspec.Struct, forbid_unknown_fields=True):
    boat: str
    at: str
    moving: bool
    may_stop: bool
    steps: list[Step]


class StepsForm(_Kind, tag="steps"):
    """U-Boat Leader's Operations `move`: each boat that may step now and each place one step takes it (UL-20).
    Send `{boat, to}`."""

    boats: list[BoatSteps]


class Side(msgspec.Struct, forbid_unknown_fields=True):
    side: Literal["surfaced", "submerged"]
    speed: int
    to: list[str]
    off: bool


class BoatSides(msgspec.Struct, forbid_unknown_fields=True):
    boat: str
    area: str
    sides: list[Side]


class SidesForm(_Kind, tag="sides"):
    """U-Boat Leader's Tactical Display `move_uboat`: each boat still to move, and for each side it may end up its
    speed and the areas it may end in (UL-30), `off` when it may leave the display. Send `{boat, side, to}` (`to`:
    `off` to leave)."""

    boats: list[BoatSides]


Ui = Annotated[
    Union[Form, MoveForm, FireForm, StepsForm, SidesForm],
    msgspec.Meta(description="how to draw this decision (docs/api.md \"Decision descriptors\"), by `kind`"),
]
KINDS = ("select", "pick", "number", "text", "items", "repeat", "group", "variants")
FORMS = ("form", "move", "fire", "steps", "sides")


def options(values, label=str) -> list[Option]:
    """Options from values, each labelled by `label(value)`."""
    return [Option(value=v, label=label(v)) for v in values]
