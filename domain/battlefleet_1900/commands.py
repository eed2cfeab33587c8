"""Options and commands of `battlefleet-1900` (BATTLEFLEET.md §5). Every step's command but `concede` is
sealed: the engine keeps its content hidden behind a commitment until the rules reveal it."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

from events.battlefleet_1900 import Arrow

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Side = Literal["port", "starboard"]
SIGNALS = (
    "engage_enemy",
    "turn_16_points_port",
    "turn_16_points_starboard",
    "turn_8_points_port",
    "turn_8_points_starboard",
    "follow_me",
    "torpedo_attack",
    "recall",
    "we_surrender",
)


class Options(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    scenario: str = "yellow-sea-1904"
    fog: Literal["blur", "open"] = "blur"  # BATTLEFLEET.md §4
    turns: Annotated[int, msgspec.Meta(ge=1, le=60)] = 12  # BF-R31
    read_message_rolls: bool = True  # BF-R12
    data: dict[str, Any] | None = None  # a game's own data set (same schema as data/default.json)


class ShipSetup(msgspec.Struct, forbid_unknown_fields=True):
    ship: Name
    torpedo_depth: Literal["normal", "shallow"] = "normal"
    boat_guns_manned: bool = True


class Start(msgspec.Struct, tag="start", forbid_unknown_fields=True):
    """1.4/5.0: what the ship logs record before the game: running depth and boat gun crews (defaults: normal, manned)."""

    sealed: ClassVar[bool] = True
    ships: list[ShipSetup] = []


class DivisionOrders(msgspec.Struct, forbid_unknown_fields=True):
    division: Name
    orders: Annotated[list[Arrow], msgspec.Meta(max_length=6)] = []


class Transfer(msgspec.Struct, forbid_unknown_fields=True):
    division: Name
    to: Name


class Manning(msgspec.Struct, forbid_unknown_fields=True):
    ship: Name
    manned: bool


class Message(msgspec.Struct, forbid_unknown_fields=True):
    to_seat: Name
    text: Annotated[str, msgspec.Meta(max_length=280)] = ""
    signal: Literal[SIGNALS] | None = None


class GiveOrders(msgspec.Struct, tag="give_orders", forbid_unknown_fields=True):
    """2.0-2.1: each division's command column (arrows, or the stop dot), drop-outs, transfers of command,
    boat gun crews, fleet orders (messages) and surrenders. Divisions not listed steam straight on."""

    sealed: ClassVar[bool] = True
    divisions: list[DivisionOrders] = []
    drop_out: list[Name] = []
    transfer: list[Transfer] = []
    boat_guns: list[Manning] = []
    messages: Annotated[list[Message], msgspec.Meta(max_length=8)] = []
    surrender: list[Name] = []


class ShipDistance(msgspec.Struct, forbid_unknown_fields=True):
    ship: Name
    distance_mm: Annotated[int, msgspec.Meta(ge=0, le=10_000)]


class DivisionMove(msgspec.Struct, forbid_unknown_fields=True):
    division: Name
    distance_mm: Annotated[int, msgspec.Meta(ge=0, le=10_000)] | None = None  # None: as last turn, within limits
    turns_deg: Annotated[list[Annotated[int, msgspec.Meta(ge=-180, le=180)]], msgspec.Meta(max_length=6)] = []
    ships: list[ShipDistance] = []


class Move(msgspec.Struct, tag="move", forbid_unknown_fields=True):
    """3.0: each division's distance and the degrees of each ordered turn (BF-R5); divisions not listed keep their
    speed and make each arrow's least turn."""

    sealed: ClassVar[bool] = True
    divisions: list[DivisionMove] = []


class GunOrder(msgspec.Struct, forbid_unknown_fields=True):
    mount: Name  # a position letter, or a beam pattern's weapon id (with `side`)
    side: Side | None = None
    guns: Annotated[int, msgspec.Meta(ge=1, le=40)] | None = None  # pattern guns; a position fires all its guns
    cycles: Literal[1, 2] = 1
    ammo: Literal["HE", "AP"] = "HE"


class Salvo(msgspec.Struct, forbid_unknown_fields=True):
    ship: Name
    target: Name
    estimate_mm: Annotated[int, msgspec.Meta(ge=1, le=100_000)]
    guns: Annotated[list[GunOrder], msgspec.Meta(min_length=1, max_length=20)]


class Fire(msgspec.Struct, tag="fire", forbid_unknown_fields=True):
    """4.0-4.1: estimate the range and fire a salvo: one estimate per firer and target, guns and ammunition."""

    sealed: ClassVar[bool] = True
    salvos: Annotated[list[Salvo], msgspec.Meta(max_length=64)] = []


class Launch(msgspec.Struct, forbid_unknown_fields=True):
    ship: Name
    mount: Name
    target: Name
    count: Annotated[int, msgspec.Meta(ge=1, le=20)] = 1
    side: Side | None = None


class LaunchTorpedoes(msgspec.Struct, tag="launch_torpedoes", forbid_unknown_fields=True):
    """5.0: every launch and its target, declared at once and irrevocable."""

    sealed: ClassVar[bool] = True
    launches: Annotated[list[Launch], msgspec.Meta(max_length=64)] = []


DcFunction = Literal[
    "repair_propulsion",
    "repair_bridge",
    "repair_main",
    "repair_steering",
    "repair_secondary",
    "repair_tertiary",
    "repair_dc",
    "repair_rudder",
    "contain_flooding",
    "secure_rudder",
    "free_rudder",
    "sink_minus_1",
    "flood_magazine",
    "counterflood",
    "recover_ct",
]


class DcAction(msgspec.Struct, forbid_unknown_fields=True):
    ship: Name
    function: DcFunction
    mount: Name | None = None  # repair_main/secondary/tertiary, flood_magazine: a position, or "weapon:gun"
    compartment: Literal["F", "PA", "SA", "A"] | None = None  # contain_flooding, counterflood
    level: Annotated[int, msgspec.Meta(ge=1, le=4)] | None = None  # counterflood


class DamageControl(msgspec.Struct, tag="damage_control", forbid_unknown_fields=True):
    """6.3: one DC die per action, declared before rolling; `scuttle` names ships to scuttle (irrevocable)."""

    sealed: ClassVar[bool] = True
    actions: Annotated[list[DcAction], msgspec.Meta(max_length=64)] = []
    scuttle: list[Name] = []


class Concede(msgspec.Struct, tag="concede", forbid_unknown_fields=True):
    """BF-R31: end the battle now; the conceding side loses."""


COMMANDS = (Start, GiveOrders, Move, Fire, LaunchTorpedoes, DamageControl, Concede)
STEP_COMMAND = {
    "setup": Start,
    "command": GiveOrders,
    "movement": Move,
    "gunnery": Fire,
    "torpedo": LaunchTorpedoes,
    "damage_control": DamageControl,
}
