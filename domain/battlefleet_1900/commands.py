"""Options and commands of `battlefleet-1900` (BATTLEFLEET.md §5). Every step's command but `concede` is
sealed: the engine keeps its content hidden behind a commitment until the rules reveal it."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, get_args

import msgspec

from domain.decisions import described
from events.battlefleet_1900 import Arrow

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Side = Literal["port", "starboard"]
Signal = Literal[
    "engage_enemy",
    "turn_16_points_port",
    "turn_16_points_starboard",
    "turn_8_points_port",
    "turn_8_points_starboard",
    "follow_me",
    "torpedo_attack",
    "recall",
    "we_surrender",
]
SIGNALS: tuple[str, ...] = get_args(Signal)


SCENARIOS = ("yellow-sea-1904", "torpedo-attack")  # the default data set's (tests hold them to data/default.json)


class Options(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    scenario: Annotated[
        str,
        described(
            "BF-R2: the scenario of the data set that sets sides, divisions and poses; the default data set's are "
            "`examples` (a game's own `data` names its own)"
        ),
        msgspec.Meta(examples=list(SCENARIOS)),
    ] = "yellow-sea-1904"
    fog: Annotated[
        Literal["blur", "open"],
        described(
            "BF-R48 (docs/rules/battlefleet-1900.md): `blur` shows each seat the enemy offset on each axis by up to "
            "the data set's `fog.blur_pct` % (20 in the default data) of the distance to the seat's nearest ship "
            "(headings to 5°); `open` shows exact poses, markers and distances to everyone"
        ),
    ] = "blur"
    turns: Annotated[Annotated[int, msgspec.Meta(ge=1, le=60)], described("BF-R31: turns before the battle ends")] = 12
    read_message_rolls: Annotated[
        bool,
        described(
            "BF-R12: whether the receiving fleet flagship rolls to read each message (a failure delays it a turn)"
        ),
    ] = True
    data: Annotated[
        dict[str, Any] | None,
        described("a game's own data set (same schema as data/default.json); null: the default set"),
    ] = None


class ShipSetup(msgspec.Struct, forbid_unknown_fields=True):
    ship: Annotated[Name, described("one of your ships")]
    torpedo_depth: Annotated[
        Literal["normal", "shallow"], described("1.4: the running depth logged for its torpedoes")
    ] = "normal"
    boat_guns_manned: Annotated[
        bool, described("5.0: whether its boat guns are manned (unmanned boat guns cannot fire)")
    ] = True


class Start(msgspec.Struct, tag="start", forbid_unknown_fields=True):
    """1.4/5.0: what the ship logs record before the game: running depth and boat gun crews (defaults: normal, manned)."""

    sealed: ClassVar[bool] = True
    ships: Annotated[
        list[ShipSetup], described("the ships whose log differs from the defaults (normal depth, manned)")
    ] = []


MAX_ORDERS = 6  # a division's orders a turn, at most (the command's own cap)


class DivisionOrders(msgspec.Struct, forbid_unknown_fields=True):
    division: Annotated[Name, described("one of your divisions")]
    orders: Annotated[
        Annotated[list[Arrow], msgspec.Meta(max_length=MAX_ORDERS)],
        described(
            "2.0, BF-R5: its command column, in order: turn arrows (45 or 90, to port or starboard, in succession or "
            "together) or the stop dot; empty: steam straight on"
        ),
    ] = []


class Transfer(msgspec.Struct, forbid_unknown_fields=True):
    division: Annotated[Name, described("BF-R10: the division whose command passes to another of its ships")]
    to: Annotated[
        Name,
        described(
            "BF-R10: the ship that takes command (same division, within ¼ bracket, afloat, not sinking, no CT hit)"
        ),
    ]


class Manning(msgspec.Struct, forbid_unknown_fields=True):
    ship: Annotated[Name, described("one of your ships")]
    manned: Annotated[bool, described("5.0: whether its boat guns are manned from now on")]


MESSAGE_TEXT = 280  # characters of a fleet order's text
MESSAGES = 8  # fleet orders a seat sends in one Command Phase


class Message(msgspec.Struct, forbid_unknown_fields=True):
    to_seat: Annotated[Name, described("BF-R12: the seat the fleet order goes to")]
    text: Annotated[
        Annotated[str, msgspec.Meta(max_length=MESSAGE_TEXT)],
        described("free text of the order (at most 280 characters)"),
    ] = ""
    signal: Annotated[
        Signal | None, described("BF-R12: a flag signal of the book, or null for text only")
    ] = None


class GiveOrders(msgspec.Struct, tag="give_orders", forbid_unknown_fields=True):
    """2.0-2.1: each division's command column (arrows, or the stop dot), drop-outs, transfers of command,
    boat gun crews, fleet orders (messages) and surrenders. Divisions not listed steam straight on."""

    sealed: ClassVar[bool] = True
    divisions: Annotated[list[DivisionOrders], described("2.0: the command column of each division given orders")] = []
    drop_out: Annotated[list[Name], described("2.1: your ships that drop out of their division's line")] = []
    transfer: Annotated[list[Transfer], described("BF-R10: transfers of a division's command to another ship")] = []
    boat_guns: Annotated[list[Manning], described("5.0: boat gun crews manned or withdrawn")] = []
    messages: Annotated[
        Annotated[list[Message], msgspec.Meta(max_length=MESSAGES)],
        described("BF-R12: fleet orders to other seats (at most 8)"),
    ] = []
    surrender: Annotated[list[Name], described("BF-R13: your ships that strike their colours (irrevocable)")] = []


class ShipDistance(msgspec.Struct, forbid_unknown_fields=True):
    ship: Annotated[Name, described("a ship of the division (one that has dropped out moves on its own)")]
    distance_mm: Annotated[
        Annotated[int, msgspec.Meta(ge=0, le=10_000)], described("BF-R6: how far it moves this turn, in table mm")
    ]


class DivisionMove(msgspec.Struct, forbid_unknown_fields=True):
    division: Annotated[Name, described("one of your divisions")]
    distance_mm: Annotated[
        Annotated[int, msgspec.Meta(ge=0, le=10_000)] | None,
        described(
            "BF-R6: how far the lead moves, in table mm, within its speed limits (`awaiting[].ui` gives them); null: "
            "as last turn, within the limits"
        ),
    ] = None
    turns_deg: Annotated[
        Annotated[list[Annotated[int, msgspec.Meta(ge=-180, le=180)]], msgspec.Meta(max_length=6)],
        described(
            "BF-R5: the degrees of each turn, one per band of the move's `ui` (an arrow's, a dropped-out division's, a "
            "free turn's), in order, negative to port; empty: each arrow's least turn (dropped out: 45 to starboard, "
            "BF-R9; free: none)"
        ),
    ] = []
    ships: Annotated[list[ShipDistance], described("distances of single ships that do not follow the lead")] = []


class Move(msgspec.Struct, tag="move", forbid_unknown_fields=True):
    """3.0: each division's distance and the degrees of each ordered turn (BF-R5); divisions not listed keep their
    speed and make each arrow's least turn."""

    sealed: ClassVar[bool] = True
    divisions: Annotated[list[DivisionMove], described("the divisions whose move differs from keeping speed")] = []


class GunOrder(msgspec.Struct, forbid_unknown_fields=True):
    mount: Annotated[
        Name, described("4.1: a gun position letter, or a beam pattern's weapon id (with `side` and `guns`)")
    ]
    side: Annotated[Side | None, described("4.1: a beam pattern's side; null for a position")] = None
    guns: Annotated[
        Annotated[int, msgspec.Meta(ge=1, le=40)] | None,
        described("BF-R14: how many of a pattern side's guns fire; null for a position, which fires all its guns"),
    ] = None
    cycles: Annotated[Literal[1, 2], described("4.1: rounds per gun this turn, within the weapon's rate of fire")] = 1
    ammo: Annotated[
        Literal["HE", "AP"],
        described(
            "4.0: high explosive (the default) or armour piercing; from 4.0.0 one for all the "
            "guns at one target (BF-R15)"
        ),
    ] = "HE"


class Salvo(msgspec.Struct, forbid_unknown_fields=True):
    ship: Annotated[Name, described("the firing ship, one of yours able to fire")]
    target: Annotated[Name, described("BF-R13: an enemy ship in play (not surrendered)")]
    estimate_mm: Annotated[
        Annotated[int, msgspec.Meta(ge=1, le=100_000)],
        described(
            "BF-R15: your estimate of the range, funnel to funnel, in table mm, within the four brackets; measured "
            "only once every estimate is in (4.3)"
        ),
    ]
    guns: Annotated[
        Annotated[list[GunOrder], msgspec.Meta(min_length=1, max_length=20)],
        described("the positions and patterns that fire"),
    ]


class Fire(msgspec.Struct, tag="fire", forbid_unknown_fields=True):
    """4.0-4.1: estimate the range and fire a salvo: one estimate per firer and target, guns and ammunition."""

    sealed: ClassVar[bool] = True
    salvos: Annotated[
        Annotated[list[Salvo], msgspec.Meta(max_length=64)],
        described("4.1: one salvo per firer and target; empty: hold fire"),
    ] = []


class Launch(msgspec.Struct, forbid_unknown_fields=True):
    ship: Annotated[Name, described("the launching ship, one of yours")]
    mount: Annotated[
        Name, described("5.1: the tubes, by their id in the ship's class (`torpedoes[].id` of the ship log)")
    ]
    target: Annotated[Name, described("the enemy ship aimed at")]
    count: Annotated[Annotated[int, msgspec.Meta(ge=1, le=20)], described("torpedoes launched from this mount")] = 1
    side: Annotated[Side | None, described("5.1: a side tube's side; null for bow, stern or centre-line tubes")] = None


class LaunchTorpedoes(msgspec.Struct, tag="launch_torpedoes", forbid_unknown_fields=True):
    """5.0: every launch and its target, declared at once and irrevocable."""

    sealed: ClassVar[bool] = True
    launches: Annotated[
        Annotated[list[Launch], msgspec.Meta(max_length=64)], described("BF-R27: every launch this turn; empty: none")
    ] = []


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
    ship: Annotated[Name, described("one of your ships")]
    function: Annotated[DcFunction, described("6.3: what its DC die is spent on")]
    mount: Annotated[
        Name | None,
        described(
            "repair_main/secondary/tertiary, flood_magazine: a position letter, or `weapon:gun` of a pattern gun"
        ),
    ] = None
    compartment: Annotated[
        Literal["F", "PA", "SA", "A"] | None,
        described("contain_flooding, counterflood: forward, port amidships, starboard amidships or aft"),
    ] = None
    level: Annotated[
        Annotated[int, msgspec.Meta(ge=1, le=4)] | None, described("counterflood: the flooding level to take")
    ] = None


class DamageControl(msgspec.Struct, tag="damage_control", forbid_unknown_fields=True):
    """6.3: one DC die per action, declared before rolling; `scuttle` names ships to scuttle (irrevocable)."""

    sealed: ClassVar[bool] = True
    actions: Annotated[
        Annotated[list[DcAction], msgspec.Meta(max_length=64)],
        described("6.3: one action per DC die, declared before rolling"),
    ] = []
    scuttle: Annotated[list[Name], described("6.3: your ships to scuttle (irrevocable)")] = []


class Concede(msgspec.Struct, tag="concede", forbid_unknown_fields=True):
    """BF-R31: end the battle now; the conceding side loses."""

    ends_game: ClassVar[bool] = True
    always_open: ClassVar[bool] = True  # "may concede at any time"


COMMANDS = (Start, GiveOrders, Move, Fire, LaunchTorpedoes, DamageControl, Concede)
STEP_COMMAND = {
    "setup": Start,
    "command": GiveOrders,
    "movement": Move,
    "gunnery": Fire,
    "torpedo": LaunchTorpedoes,
    "damage_control": DamageControl,
}
