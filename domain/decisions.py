"""The decision vocabulary: what an `awaiting` entry's `ui` may say, so a UI renders any decision without knowing the
ruleset (DESIGN.md "The decision contract", docs/api.md "Decision descriptors").

A descriptor is a tree of *controls*. Each control fills one argument (`field`) of the object it sits in with a JSON
value; `variants` instead merges the chosen variant's arguments into that object. The top of the tree is a `form`
(the command's arguments are what its controls fill) or one of the table-drawing forms (`move`, `fire`, `steps`,
`sides`), which say in their own typed shape what a map or a table needs.

| kind | fills `field` with |
|---|---|
| `select` | one option's `value` (left out when `optional` and none is chosen: the command's default) |
| `pick` | a list of distinct option values, `min`..`max` of them (`ordered`: their order matters; `irrevocable`: ask first) |
| `number` | an integer from `min` to `max` |
| `text` | a string of at most `max_length` characters |
| `items` | a list: one object per included item, its `fixed` arguments and what its own `controls` fill (`ordered`: in the order offered) |
| `repeat` | a list of `min`..`max` objects, each filled by the same `controls` |
| `group` | an object filled by its `controls` (an object keyed by ids, as U-Boat Leader's bearing speeds) |
| `variants` | (no field) the chosen variant's `fixed` arguments and what its `controls` fill, merged into the object |

A limit several choices share (the Special Options a flotilla costs, a ship's damage-control dice) is a *budget*:
the top `form` lists its `budgets`, and every chosen option, item or variant (and each unit of a number) that names
one in its `spend` adds to it; the total stays within its `limit`.

Every id is enumerated per item with the values legal *for that item* (a boat's own targets, a ship's own mounts),
so a UI cannot build a pair the rules refuse. A ruleset builds its descriptors with the same predicate that refuses
a command. Descriptors carry only what their reader may know (they are part of a read: `redact` first).
`rulebook` is the rule text's own words for a label where a player would look for them (U-Boat Leader's Spanish).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextvars import ContextVar
from typing import Annotated, Any, Literal, Union

import msgspec

Scalar = str | int | bool | None

_WANTED: ContextVar[bool] = ContextVar("descriptors_wanted", default=True)


# Whether `awaiting` is built for a reader (descriptors and narrowed schemas) or for a bot (`without_descriptors`):
# the context variable's own `get`, asked for every entry of every answer (a function around it cost 0.8k a call).
descriptors_wanted: Callable[[], bool] = _WANTED.get


class without_descriptors:  # noqa: N801 - used as a `with` block; a class costs less than a generator
    """Within it, rulesets leave out each entry's `ui` and narrow no schema (uboat-leader's is empty): for the
    simulator's bots, which read only the entries' types, seats and choices (a fifth of a battlefleet battle's
    instructions went to descriptors nobody read). Never for an answer a reader gets."""

    def __enter__(self) -> None:
        self.token = _WANTED.set(False)

    def __exit__(self, *_: object) -> None:
        _WANTED.reset(self.token)


def described(description: str) -> msgspec.Meta:
    """The description a form and the OpenAPI document show beside a field, written `Annotated[kind, described("…")]`:
    a type checker reads the kind, msgspec the description (schema only: nothing decodes or encodes differently). The
    one helper for this module and the rulesets' commands modules (issue 20)."""
    return msgspec.Meta(description=description)


d = described  # this module's many fields


FIELD = Annotated[str, d("the argument this control fills, in the object it sits in")]
LABEL = Annotated[str, d("what to show the player (English)")]
RULEBOOK = Annotated[
    str | None, d("the rule text's own words for it, where they differ from the label (U-Boat Leader's Spanish)")
]
SPEND = Annotated[dict[str, int], d("what choosing it adds to each named budget of the form (`Form.budgets`)")]


class _Kind(msgspec.Struct, tag_field="kind", omit_defaults=True, forbid_unknown_fields=True):
    pass


class Option(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """One value a `select` or `pick` offers, with its label."""

    value: Annotated[Scalar, d("the value sent")]
    label: LABEL
    rulebook: RULEBOOK = None
    spend: SPEND = {}


# ---- controls: each fills one field of the object it is in ----


class Select(_Kind, tag="select"):
    """One of `options`; `default` is preselected; `optional`: the field may be left out (the command's default)."""

    field: FIELD
    label: LABEL
    options: Annotated[list[Option], d("the values it may take, each legal here")]
    default: Annotated[Scalar, d("the value preselected (null: none)")] = None
    optional: Annotated[bool, d("whether the field may be left out, taking the command's default")] = False
    rulebook: RULEBOOK = None


class Pick(_Kind, tag="pick"):
    """Some of `options` (each at most once), at least `min`, at most `max` (null: all of them); `ordered`: the list's
    order is part of the command (pick them in turn); `required`: options every command must pick here, shown picked
    and not to be unpicked (what the variant this pick is in stands for: "Mikasa drops out")."""

    field: FIELD
    label: LABEL
    options: Annotated[list[Option], d("the values that may be picked, each legal here")]
    min: Annotated[int, d("the fewest values to pick")] = 0
    max: Annotated[int | None, d("the most values to pick (null: all of them)")] = None
    ordered: Annotated[bool, d("whether the order of the picks is part of the command")] = False
    required: Annotated[
        list[Scalar], d("values of `options` that must be picked: shown picked, not to be unpicked (counted in min)")
    ] = []
    rulebook: RULEBOOK = None
    irrevocable: Annotated[
        bool,
        d(
            "what is picked here cannot be undone (Battlefleet's ships that strike their colours or are scuttled): a "
            "UI asks the player before it sends a command that picks any"
        ),
    ] = False


class Number(_Kind, tag="number"):
    """A whole number from `min` to `max` inclusive; `default` preselected; `optional`: may be left out."""

    field: FIELD
    label: LABEL
    min: Annotated[int, d("the least value accepted")]
    max: Annotated[int, d("the greatest value accepted")]
    default: Annotated[int | None, d("the value preselected (null: none)")] = None
    optional: Annotated[bool, d("whether the field may be left out, taking the command's default")] = False
    unit: Annotated[str, d("the unit of the number (mm, IPCs …), empty for a count")] = ""
    rulebook: RULEBOOK = None
    spend: Annotated[dict[str, int], d("what each unit of the number adds to each named budget of the form")] = {}


class Text(_Kind, tag="text"):
    """Free text of `min_length` to `max_length` characters (a message to another seat)."""

    field: FIELD
    label: LABEL
    max_length: Annotated[int, d("the most characters accepted")]
    min_length: Annotated[int, d("the fewest characters accepted")] = 0
    default: Annotated[str, d("the text preselected")] = ""
    rulebook: RULEBOOK = None


class Item(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """One thing an `items` control may include: its object is `fixed` plus what its own `controls` fill.
    `required`: it is always included."""

    label: LABEL
    fixed: Annotated[dict[str, Scalar], d("the arguments this item's object always has (its ids)")]
    controls: Annotated[list[Control], d("what the player fills for this item, each with the values legal for it")] = []
    required: Annotated[bool, d("whether the item is always included")] = False
    rulebook: RULEBOOK = None
    spend: SPEND = {}


class Items(_Kind, tag="items"):
    """A list built item by item: each included item adds one object. At least `min` and at most `max` items
    (null: any number of those offered). An item may appear more than once only where `repeatable` says so."""

    field: FIELD
    label: LABEL
    items: Annotated[list[Item], d("what may be included, each with its own controls")]
    min: Annotated[int, d("the fewest items to include")] = 0
    max: Annotated[int | None, d("the most items to include (null: any number of those offered)")] = None
    repeatable: Annotated[bool, d("whether an item may be included more than once")] = False
    ordered: Annotated[
        bool,
        d(
            "whether the included items' objects must go in the order the items are offered (Battlefleet's arrows, "
            "the first executed first); otherwise any order is accepted, and where the rules roll in written order "
            "(Battlefleet's launches, BF-R55) it decides which die goes to which item, never the odds"
        ),
    ] = False
    rulebook: RULEBOOK = None


class Repeat(_Kind, tag="repeat"):
    """A list of `min`..`max` objects, each filled by the same `controls` (one torpedo per entry)."""

    field: FIELD
    label: LABEL
    controls: Annotated[list[Control], d("what the player fills for each entry")]
    min: Annotated[int, d("the fewest entries")] = 0
    max: Annotated[int, d("the most entries")] = 1
    rulebook: RULEBOOK = None


class Group(_Kind, tag="group"):
    """An object whose keys are its controls' fields (a speed per boat)."""

    field: FIELD
    label: LABEL
    controls: Annotated[list[Control], d("one control per key of the object")]
    rulebook: RULEBOOK = None


class Variant(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """One way of making the choice: its `fixed` arguments, and what its own `controls` fill."""

    label: LABEL
    fixed: Annotated[dict[str, Scalar], d("the arguments this variant sets")] = {}
    controls: Annotated[
        list[Control], d("what the player fills in this variant, each with the values legal in it")
    ] = []
    rulebook: RULEBOOK = None
    spend: SPEND = {}


class Variants(_Kind, tag="variants"):
    """Exactly one of `variants`: its `fixed` arguments and its controls' values join the object this control is in
    (a choice that decides what else may be chosen: a gun or torpedoes, and then their own targets)."""

    label: LABEL
    variants: Annotated[list[Variant], d("the ways to choose; exactly one is taken")]
    rulebook: RULEBOOK = None


Control = Union[Select, Pick, Number, Text, Items, Repeat, Group, Variants]


# ---- the top of a descriptor ----


class Budget(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """A limit several choices share: the `spend` on this budget of everything chosen adds up to at most `limit`."""

    id: Annotated[str, d("the name `spend` uses for it")]
    label: LABEL
    limit: Annotated[int, d("the most the choices may spend of it together")]
    per: Annotated[
        int,
        d(
            "amounts are counted in 1/per of the unit a player reads: show `limit / per` (U-Boat Leader's Special "
            "Options, counted in half points: 2)"
        ),
    ] = 1


class Form(_Kind, tag="form"):
    """The command's arguments are what its `controls` fill (an argument none fills takes its default)."""

    controls: Annotated[list[Control], d("the controls that fill the command's arguments")]
    budgets: Annotated[list[Budget], d("limits the chosen values share (what the form's choices `spend`)")] = []


class Pose(msgspec.Struct, forbid_unknown_fields=True):
    """A pose on the table, in integer mm, heading in degrees clockwise from north."""

    x: Annotated[int, d("mm east")]
    y: Annotated[int, d("mm north")]
    h: Annotated[int, d("heading, degrees clockwise from north")]


class SeenPose(msgspec.Struct, forbid_unknown_fields=True):
    """Where the reader's own view shows a ship (a fog sighting unless `exact`)."""

    x: Annotated[int, d("mm east")]
    y: Annotated[int, d("mm north")]
    h: Annotated[int, d("heading, degrees clockwise from north")]
    exact: Annotated[bool, d("false for a fog sighting (fog `blur`, BF-R48)")]


class Range(msgspec.Struct, forbid_unknown_fields=True):
    """A whole-number range, both ends included."""

    min: Annotated[int, d("the least value")]
    max: Annotated[int, d("the greatest value")]


class TurnBand(msgspec.Struct, forbid_unknown_fields=True):
    """BF-R5: one ordered turn's band of degrees (negative to port; `to: either` a free turn)."""

    arrow: Annotated[int | None, d("the order arrow's degrees (45 or 90), null for a free turn")]
    to: Annotated[Literal["port", "starboard", "either"], d("which way the turn goes")]
    min_deg: Annotated[int, d("the least turn, degrees")]
    max_deg: Annotated[int, d("the greatest turn, degrees")]


class TurnsNeed(msgspec.Struct, forbid_unknown_fields=True):
    """BF-R5: how far the lead must go to finish the turns chosen, for a form to raise `distance_mm.min` as they
    change (a distance below it is refused): 0 when every turn is 0; else `base_mm` plus, for each turn of `deg`
    degrees either way, ceil(355 × radius_mm × |deg| / 20340) mm (its arc, π as 355/113), or `distance_mm.max` when
    that is less (the turns are then cut short: 2.1)."""

    base_mm: Annotated[int, d("the run to the pivots still ahead before its own turns")]
    radius_mm: Annotated[int, d("the lead's turning radius")]


class DivisionMove(msgspec.Struct, forbid_unknown_fields=True):
    """A division that can move: its lead's pose, how far the lead may go (BF-R6) and the turns its orders allow."""

    division: Annotated[str, d("the division, by its id")]
    lead: Annotated[str, d("the ship leading it")]
    ships: Annotated[list[str], d("its ships in line order")]
    pose: Annotated[Pose, d("the lead's pose now")]
    distance_mm: Annotated[Range, d("BF-R6: how far the lead may go this turn")]
    keep_mm: Annotated[
        int,
        d(
            "BF-R6: how far the lead goes when `distance_mm` is left out (keep speed: last turn's distance within "
            "`distance_mm`'s limits; a stop order's least), before the turns chosen raise it to what they need"
        ),
    ]
    stop: Annotated[bool, d("whether it is under a stop order (it goes exactly the least distance)")]
    turns: Annotated[
        list[TurnBand],
        d(
            "BF-R5: a band per turn it may make (an ordered arrow's; a dropped-out division's, BF-R9; a free turn's); "
            "`turns_deg` has one number per band, in order, or is left out"
        ),
    ]
    turns_need: Annotated[
        TurnsNeed | None, d("BF-R5: the distance the turns chosen need; null: none beyond `distance_mm.min`")
    ] = None


class MoveForm(_Kind, tag="move"):
    """Battlefleet's Movement Phase (`move`): each division that can move, how far its lead may go (BF-R6) and a band
    per turn it may make (BF-R5). Send `{divisions: [{division, distance_mm, turns_deg}]}`: `turns_deg` one number per
    band, in order, each within it, or left out (each arrow's least turn; a dropped-out division's 45° to starboard,
    BF-R9; a free turn's none); any other count is refused."""

    divisions: Annotated[list[DivisionMove], d("each division of the seat that can move")]


class Arc(msgspec.Struct, forbid_unknown_fields=True):
    """A gun position's (or a pattern side's gun group's) arc, in half-degrees clockwise off the bow (4.1)."""

    group: Annotated[str | None, d("a pattern's gun group (bow, beam, stern), null for a position")]
    guns: Annotated[int, d("guns that bear in it")]
    half_deg: Annotated[list[int], d("from and to, half-degrees clockwise off the bow")]


class Mount(msgspec.Struct, forbid_unknown_fields=True):
    """A gun position or beam pattern side that can fire this turn (BF-R14)."""

    mount: Annotated[str, d("the position letter or the pattern's weapon id (send as `mount`)")]
    side: Annotated[Literal["port", "starboard"] | None, d("a pattern's side (send `guns`), null for a position")]
    weapon: Annotated[str, d("the weapon's id in the data set")]
    cat: Annotated[str, d("the weapon's category in the data set")]
    bore: Annotated[str, d('the bore as the data set gives it ("30 cm")')]
    guns: Annotated[int, d("guns able to fire")]
    cycles: Annotated[int, d("4.1: the most cycles a gun may fire this turn")]
    arcs: Annotated[list[Arc], d("4.1, BF-R37: where its guns bear")]
    brackets: Annotated[list[int], d("the range brackets its guns penetrate")]
    reach_mm: Annotated[int, d("the far edge of its last bracket, mm")]


class Firer(msgspec.Struct, forbid_unknown_fields=True):
    """One of the seat's ships able to fire."""

    ship: Annotated[str, d("the ship (send as `ship`)")]
    pose: Annotated[Pose, d("its pose now")]
    mounts: Annotated[list[Mount], d("what it can fire")]


class FireTarget(msgspec.Struct, forbid_unknown_fields=True):
    """An enemy ship in play (BF-R13)."""

    ship: Annotated[str, d("the ship (send as `target`)")]
    cls: Annotated[str, d("its class")]
    pose: Annotated[SeenPose | None, d("where the seat's own view shows it, null when it sees none")]


class FireForm(_Kind, tag="fire"):
    """Battlefleet's Gunnery Phase (`fire`): each ship able to fire with each gun position or pattern side that can
    (BF-R14), the enemy ships in play at the pose the seat's own view shows (BF-R13), and what an estimate may be
    (BF-R15). Send `{salvos: [{ship, target, estimate_mm, guns: [{mount, side, guns, cycles, ammo}]}]}`."""

    ships: Annotated[list[Firer], d("the seat's ships able to fire")]
    targets: Annotated[list[FireTarget], d("the enemy ships in play")]
    estimate_mm: Annotated[Range, d("BF-R15: what a range estimate may be, mm")]
    one_cycle_beyond_mm: Annotated[int, d("4.1: beyond this range every gun fires one cycle")]
    ammo: Annotated[
        list[Option], d("4.0: what a gun order's `ammo` may be, the first its default (HE, high explosive)")
    ]
    one_ammo_a_salvo: Annotated[
        bool, d("BF-R15 (from battlefleet-1900 4.0.0): one `ammo` for all the guns of a salvo, at one target")
    ]


class Step(msgspec.Struct, forbid_unknown_fields=True):
    """A place one step takes a boat (UL-20)."""

    to: Annotated[str, d("the place (send as `to`)")]
    space: Annotated[Literal["open", "port", "box"], d("an Area, a Port box (ends the move) or a Special Mission box")]
    move_events: Annotated[
        int | None,
        d(
            "UL-20: the Move value of Event cards this step draws (an Area's crossing; from uboat-leader 4.0.0 a box's "
            "Area's when the boat enters it from that Area, 0 after crossing into it in this move); null: a port, or a box "
            "before 4.0.0"
        ),
    ]


class BoatSteps(msgspec.Struct, forbid_unknown_fields=True):
    """A boat that may step now."""

    boat: Annotated[str, d("the boat (send as `boat`)")]
    at: Annotated[str, d("where it is")]
    moving: Annotated[bool, d("whether it is the boat whose move is under way")]
    may_stop: Annotated[bool, d("UL-21: whether it may end its move where it is")]
    steps: Annotated[list[Step], d("where one step takes it")]


class StepsForm(_Kind, tag="steps"):
    """U-Boat Leader's Operations `move`: each boat that may step now and each place one step takes it (UL-20).
    Send `{boat, to}`."""

    boats: Annotated[list[BoatSteps], d("the boats that may step now")]


class Side(msgspec.Struct, forbid_unknown_fields=True):
    """One way a boat may end its Tactical move (UL-30)."""

    side: Annotated[Literal["surfaced", "submerged"], d("surfaced or submerged (send as `side`)")]
    speed: Annotated[int, d("its speed that way")]
    to: Annotated[list[str], d("the areas it may end in (send one as `to`)")]
    off: Annotated[bool, d("UL-R20: whether it may leave the display (send `to: off`)")]


class BoatSides(msgspec.Struct, forbid_unknown_fields=True):
    """A boat still to move on the Tactical Display."""

    boat: Annotated[str, d("the boat (send as `boat`)")]
    area: Annotated[str, d("the area it is in")]
    sides: Annotated[list[Side], d("each way it may end up")]


class SidesForm(_Kind, tag="sides"):
    """U-Boat Leader's Tactical Display `move_uboat`: each boat still to move, and for each side it may end up its
    speed and the areas it may end in (UL-30), `off` when it may leave the display. Send `{boat, side, to}` (`to`:
    `off` to leave)."""

    boats: Annotated[list[BoatSides], d("the boats still to move")]


Ui = Annotated[
    Union[Form, MoveForm, FireForm, StepsForm, SidesForm],
    msgspec.Meta(description='how to draw this decision (docs/api.md "Decision descriptors"), by `kind`'),
]
KINDS = ("select", "pick", "number", "text", "items", "repeat", "group", "variants")
FORMS = ("form", "move", "fire", "steps", "sides")


def options(values: Iterable[Scalar], label: Callable[[Any], str] = str) -> list[Option]:
    """Options from values, each labelled by `label(value)`."""
    return [Option(value=v, label=label(v)) for v in values]
