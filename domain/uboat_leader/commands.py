"""One Struct per player decision of `uboat-leader`; `type` is the tag. What is legal now is in `awaiting`."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from domain.decisions import described

Id = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Side = Literal["surfaced", "submerged"]
Level = Literal["green", "trained", "veteran", "ace"]
TorpedoKind = Literal["normal", "FAT", "T5"]


class Command(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class PickArg(msgspec.Struct, forbid_unknown_fields=True):
    boat: Annotated[
        Id, described("Preparación: a U-boat card whose service years cover the campaign's dates (UL-R54), each once")
    ]
    level: Annotated[
        Level, described("its crew's card: Verde, Entrenada, Veterana or As (the SO cost is printed on it)")
    ]
    port: Annotated[Id, described("the port it starts in")]


class SelectUBoats(Command, tag="select_uboats"):
    """Setup: buy the flotilla at the printed SO cost, each boat once and at one level, placed in a port."""

    picks: Annotated[
        Annotated[list[PickArg], msgspec.Meta(min_length=1, max_length=64)],
        described("the boats bought (at least one); their SO cost is paid from the campaign's SO (UL-R2)"),
    ]


class BuyOption(Command, tag="buy_option"):
    """Strategic: buy a Special Option (Air Search, Intel or Supply Ship on an Area; R&R for the boats in port)."""

    option: Annotated[
        Literal["air_search", "intel", "supply_ship", "rr"],
        described(
            "Búsqueda Aérea, Inteligencia, Barco de Suministros (on an Area) or R&R (−4 stress to the boats in port)"
        ),
    ]
    area: Annotated[Id | None, described("UL-R5: the Area for Air Search, Intel or a Supply Ship; null for R&R")] = None


class BuyAdvancedTorpedoes(Command, tag="buy_advanced_torpedoes"):
    """Strategic: replace normal torpedoes of a boat in port by FAT or T5 torpedoes, ½ SO each."""

    boat: Annotated[Id, described("a boat of yours in port")]
    kind: Annotated[Literal["FAT", "T5"], described("FAT (better against merchants) or T5 (against escorts)")]
    slot: Annotated[Literal["ready", "stored"], described("whether the Ready or the Stored torpedoes are replaced")]
    count: Annotated[
        Annotated[int, msgspec.Meta(ge=1, le=99)], described("how many normal torpedoes are replaced (½ SO each)")
    ]


class Replaced(msgspec.Struct, forbid_unknown_fields=True):
    """Torpedoes of one section and kind that mines replace."""

    slot: Annotated[Literal["ready", "stored"], described("the Ready or the Stored torpedoes")]
    kind: Annotated[TorpedoKind, described("normal, FAT or T5")]
    count: Annotated[Annotated[int, msgspec.Meta(ge=1, le=99)], described("how many of them")]


class AssignMission(Command, tag="assign_mission"):
    """Strategic: give a boat a Special Mission (Mines: in port, `mines` torpedoes replaced by mines)."""

    boat: Annotated[Id, described("a boat of yours (Minas: in port)")]
    mission: Annotated[
        Literal["mine", "attack", "raider"], described("Minas, Ataque or Incursor (UL-16: a boat may take several)")
    ]
    mines: Annotated[
        Annotated[int, msgspec.Meta(ge=0, le=99)], described("Minas (the boat in port): torpedoes replaced by mines")
    ] = 0
    replaced: Annotated[
        list[Replaced],
        described(
            "Minas, from edition 5.0.0 (UL-E5-2): which torpedoes the mines replace, Ready or Stored, of any kind; "
            "they sum to `mines` (left at 0: their sum). Left out: Stored normal torpedoes first, then Ready (UL-R29)"
        ),
    ] = []


class EndStrategic(Command, tag="end_strategic"):
    """Strategic: done buying; the Operations Segment begins."""


class EndCampaign(Command, tag="end_campaign"):
    """Strategic: stop the campaign now; the patrols still owed are forfeit (UL-S10), and its label says what that
    scores in this game (an abandoned campaign scores no result level)."""

    ends_game: ClassVar[bool] = True


class Move(Command, tag="move"):
    """Operations: move a boat one step (an adjacent Area, a Port box, or a Special Mission box of its Area)."""

    boat: Annotated[Id, described("the boat that moves (the one already moving, while its move lasts)")]
    to: Annotated[
        Id,
        described(
            "an adjacent Area, a port, or a Special Mission box of its Area (UL-R7); `awaiting[].ui` lists those it may "
            "enter now"
        ),
    ]


class Stop(Command, tag="stop"):
    """Operations: the moving boat ends its move here."""

    boat: Annotated[Id, described("the boat that is moving (UL-R10: never in the English Channel)")]


class Patrol(Command, tag="patrol"):
    """Operations: a boat at sea stays in its Area and draws its Patrol value of Events."""

    boat: Annotated[Id, described("a boat at sea that has not moved this segment")]


class EndOperations(Command, tag="end_operations"):
    """Operations: every boat at sea has moved or patrolled; the Tactical Segment begins."""


class ContinueAttack(Command, tag="continue_attack"):
    """Attack mission: draw the box's next Event card."""


class AbortAttack(Command, tag="abort_attack"):
    """Attack mission: abort; the boat moves to the Search box with its counter (5.0.0: drawing the Move value)."""


class ShotArg(msgspec.Struct, forbid_unknown_fields=True):
    target: Annotated[Id, described("a Naval card of the mission box, by its id")]
    kind: Annotated[TorpedoKind, described("the torpedo: normal, FAT or T5 (one of those the boat carries)")] = "normal"


class FireTorpedoes(Command, tag="fire_torpedoes"):
    """Attack mission: one round of torpedoes (Ready, then Stored) at the Naval cards, at range 0."""

    boat: Annotated[Id, described("the boat on its Attack mission")]
    shots: Annotated[
        Annotated[list[ShotArg], msgspec.Meta(max_length=99)],
        described("one torpedo per entry, Ready first, then Stored"),
    ]


class RaiderRoll(Command, tag="raider_roll"):
    """Raider mission: one attack roll with the gun (1 Ammo) or a torpedo (Ready, then Stored)."""

    weapon: Annotated[
        Literal["gun", "normal", "FAT", "T5"],
        described("UL-R9: the gun (1 Ammo) or a torpedo of that kind (Ready, then Stored)"),
    ]


class RaiderStop(Command, tag="raider_stop"):
    """Raider mission: stop rolling."""


class Activate(Command, tag="activate"):
    """Tactical: make a boat the active U-boat."""

    boat: Annotated[Id, described("UL-R12: a fit boat in an Area's open space")]


class RollContacts(Command, tag="roll_contacts"):
    """Contact Phase: roll on the Area's Contact table."""


class Pass(Command, tag="pass"):
    """Contact Phase: do not roll; the boat goes to the Search box."""


class ChooseConvoyCard(Command, tag="choose_convoy_card"):
    """Air Search: keep one of the two Convoy cards drawn."""

    number: Annotated[
        Annotated[int, msgspec.Meta(ge=0, le=99)], described("UL-R13: the number of the Convoy card kept")
    ]


class Engage(Command, tag="engage"):
    """Attack the contact shown by the Convoy card."""


class Withdraw(Command, tag="withdraw"):
    """Retirarse: do not attack this contact."""


class Place(Command, tag="place"):
    """Put a U-boat on the Tactical Display (a Long area; Infiltrador: Medium or Short too), either side up."""

    boat: Annotated[Id, described("the active boat or a joiner of the pack")]
    area: Annotated[Id, described("UL-R17: a Long area of the Tactical Display (Infiltrador: Medium or Short too)")]
    side: Annotated[Side, described("the counter's side up: surfaced or submerged (it sets the boat's speed)")]


class CallWolfpack(Command, tag="call_wolfpack"):
    """Roll for another boat of the Area to join the attack."""

    boat: Annotated[Id, described("UL-R15: a fit boat in the Area's open space, not yet in the pack")]


class RadioCall(Command, tag="radio_call"):
    """Buy a Radio Call before any Wolfpack roll: the boats named join freely."""

    boats: Annotated[
        Annotated[list[Id], msgspec.Meta(min_length=1, max_length=64)],
        described("the boats of the Area that join without a Wolfpack roll"),
    ]


class StartCombat(Command, tag="start_combat"):
    """The pack is formed: the Combat Resolution Phase begins."""


class MoveUBoat(Command, tag="move_uboat"):
    """U-boat movement: flip if wanted, then move up to the side's speed, ending in `to` (an area, or "off" from Long)."""

    boat: Annotated[Id, described("the boat whose move it is")]
    side: Annotated[Side, described("the side it ends up (a flip first), which sets its speed")]
    to: Annotated[
        Id, described('a Tactical Display area within that speed, or "off" to leave from a Long area (UL-R20)')
    ]


class SilentRunningCmd(Command, tag="silent_running"):
    """A Detected boat runs silent during its move (it submerges first); then it still sends its move."""

    boat: Annotated[Id, described("UL-R19: the Detected boat whose move it is")]


class DeepDive(Command, tag="deep_dive"):
    """A submerged boat goes Deep instead of moving (UL-S6)."""

    boat: Annotated[Id, described("UL-S6: the submerged boat whose move it is")]


class Bearing(Command, tag="bearing"):
    """Movimiento de Demora: the speed each boat is treated as having (0 … its side's speed)."""

    speeds: Annotated[
        dict[Id, Annotated[int, msgspec.Meta(ge=0, le=9)]],
        described(
            "Demora: each boat's speed for the bearing, from 0 to its side's speed (slower pieces drift toward the Wake)"
        ),
    ]


class Drift(Command, tag="drift"):
    """Bearing drift tie: where a piece drifts (each step nearer the Wake)."""

    piece: Annotated[Id, described("the piece (ship or boat) whose drift ties")]
    to: Annotated[Id, described("UL-R26: the area it drifts to, each step nearer the Wake")]


class EscortOrder(Command, tag="escort_order"):
    """The escort that detects and moves next, one label (from edition 3.0.0: chosen after the previous escort has
    acted); before 3.0.0, the whole order of the escorts, every label once."""

    labels: Annotated[
        Annotated[list[Id], msgspec.Meta(min_length=1, max_length=64)],
        described(
            "UL-R26: escort labels: from edition 3.0.0 exactly one, the next to act; before, every escort once, in order"
        ),
    ]


class Pursue(Command, tag="pursue"):
    """Escort movement tie: where the escort ends its move."""

    escort: Annotated[Id, described("the escort whose move ties, by its label")]
    to: Annotated[Id, described("UL-R26: the area where it ends its move")]


class TargetArg(msgspec.Struct, forbid_unknown_fields=True):
    target: Annotated[Id, described("UL-R23: a revealed enemy ship in range, by its label")]
    kind: Annotated[
        TorpedoKind, described("torpedo shots: normal, FAT or T5 (one the boat has Ready); gun shots leave it normal")
    ] = "normal"


class Attack(Command, tag="attack"):
    """A boat's attack: Ready torpedoes at targets in range 0–2, or (surfaced, with a gun) gun rolls at 0–1."""

    boat: Annotated[Id, described("UL-S2: the boat whose initiative step it is (not Unfit, Silent or Deep)")]
    weapon: Annotated[
        Literal["torpedo", "gun"], described("UL-S2: Ready torpedoes (range 0-2) or the gun (surfaced, range 0-1)")
    ]
    shots: Annotated[
        Annotated[list[TargetArg], msgspec.Meta(min_length=1, max_length=99)],
        described("UL-S3: one entry per torpedo or gun roll, each at its target"),
    ]


class Hold(Command, tag="hold"):
    """The boat does not attack this turn."""

    boat: Annotated[Id, described("the boat whose initiative step it is")]


class ChooseTarget(Command, tag="choose_target"):
    """An enemy ship with several nearest targets: the boat it attacks."""

    ship: Annotated[Id, described("UL-S4: the enemy ship that attacks, by its label")]
    boat: Annotated[Id, described("UL-R26: one of the boats nearest to it, the one it attacks")]


class NextContact(Command, tag="next_contact"):
    """After combat, before edition 3.0.0: draw the active boat's next Convoy card (from 3.0.0 it is drawn at once)."""


class EndActivation(Command, tag="end_activation"):
    """After combat, before edition 3.0.0: the active boat is done with contacts left; it goes to the Search box
    (from 3.0.0 a fit boat draws a card for every contact, UL-S8)."""


COMMANDS = (
    SelectUBoats,
    BuyOption,
    BuyAdvancedTorpedoes,
    AssignMission,
    EndStrategic,
    EndCampaign,
    Move,
    Stop,
    Patrol,
    EndOperations,
    ContinueAttack,
    AbortAttack,
    FireTorpedoes,
    RaiderRoll,
    RaiderStop,
    Activate,
    RollContacts,
    Pass,
    ChooseConvoyCard,
    Engage,
    Withdraw,
    Place,
    CallWolfpack,
    RadioCall,
    StartCombat,
    MoveUBoat,
    SilentRunningCmd,
    DeepDive,
    Bearing,
    Drift,
    EscortOrder,
    Pursue,
    Attack,
    Hold,
    ChooseTarget,
    NextContact,
    EndActivation,
)


class Options(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The campaign's options; each one left out takes its default."""

    # recorded in GameCreated without the defaults

    campaign: Annotated[
        Annotated[str, msgspec.Meta(min_length=1, max_length=64)],
        described("a campaign sheet of the data set (the stand-in set has `battle-begins`, Comienza la Batalla)"),
    ] = "battle-begins"
    duration: Annotated[
        Literal["short", "medium", "long"], described("Corta, Media or Larga: patrols per boat and starting SO")
    ] = "short"
    data: Annotated[
        dict | None,
        described(
            "a whole data set of one's own (schema: domain/uboat_leader/data); its SHA-256 is pinned in GameCreated"
        ),
    ] = None
    data_file: Annotated[
        Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,64}(\.json)?$")] | None,
        described(
            "a data set file in the server's data folder; the server reads it into `data` when the game is created"
        ),
    ] = None
