"""One Struct per player decision of `uboat-leader`; `type` is the tag. What is legal now is in `awaiting`."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Id = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Side = Literal["surfaced", "submerged"]
Level = Literal["green", "trained", "veteran", "ace"]
TorpedoKind = Literal["normal", "FAT", "T5"]


class Command(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class PickArg(msgspec.Struct, forbid_unknown_fields=True):
    boat: Id
    level: Level
    port: Id


class SelectUBoats(Command, tag="select_uboats"):
    """Setup: buy the flotilla at the printed SO cost, each boat once and at one level, placed in a port."""

    picks: Annotated[list[PickArg], msgspec.Meta(min_length=1, max_length=64)]


class BuyOption(Command, tag="buy_option"):
    """Strategic: buy a Special Option (Air Search, Intel or Supply Ship on an Area; R&R for the boats in port)."""

    option: Literal["air_search", "intel", "supply_ship", "rr"]
    area: Id | None = None


class BuyAdvancedTorpedoes(Command, tag="buy_advanced_torpedoes"):
    """Strategic: replace normal torpedoes of a boat in port by FAT or T5 torpedoes, ½ SO each."""

    boat: Id
    kind: Literal["FAT", "T5"]
    slot: Literal["ready", "stored"]
    count: Annotated[int, msgspec.Meta(ge=1, le=99)]


class AssignMission(Command, tag="assign_mission"):
    """Strategic: give a boat a Special Mission (Mines: in port, `mines` torpedoes replaced by mines)."""

    boat: Id
    mission: Literal["mine", "attack", "raider"]
    mines: Annotated[int, msgspec.Meta(ge=0, le=99)] = 0


class EndStrategic(Command, tag="end_strategic"):
    """Strategic: done buying; the Operations Segment begins."""


class EndCampaign(Command, tag="end_campaign"):
    """Strategic, no boat at sea: end the campaign now (the remaining patrols are forfeit, UL-S10)."""


class Move(Command, tag="move"):
    """Operations: move a boat one step (an adjacent Area, a Port box, or a Special Mission box of its Area)."""

    boat: Id
    to: Id


class Stop(Command, tag="stop"):
    """Operations: the moving boat ends its move here."""

    boat: Id


class Patrol(Command, tag="patrol"):
    """Operations: a boat at sea stays in its Area and draws its Patrol value of Events."""

    boat: Id


class EndOperations(Command, tag="end_operations"):
    """Operations: every boat at sea has moved or patrolled; the Tactical Segment begins."""


class ContinueAttack(Command, tag="continue_attack"):
    """Attack mission: draw the box's next Event card."""


class AbortAttack(Command, tag="abort_attack"):
    """Attack mission: abort; the boat goes to the Search box and keeps its counter."""


class ShotArg(msgspec.Struct, forbid_unknown_fields=True):
    target: Id
    kind: TorpedoKind = "normal"


class FireTorpedoes(Command, tag="fire_torpedoes"):
    """Attack mission: one round of torpedoes (Ready, then Stored) at the Naval cards, at range 0."""

    boat: Id
    shots: Annotated[list[ShotArg], msgspec.Meta(max_length=99)]


class RaiderRoll(Command, tag="raider_roll"):
    """Raider mission: one attack roll with the gun (1 Ammo) or a torpedo (Ready, then Stored)."""

    weapon: Literal["gun", "normal", "FAT", "T5"]


class RaiderStop(Command, tag="raider_stop"):
    """Raider mission: stop rolling."""


class Activate(Command, tag="activate"):
    """Tactical: make a boat the active U-boat."""

    boat: Id


class RollContacts(Command, tag="roll_contacts"):
    """Contact Phase: roll on the Area's Contact table."""


class Pass(Command, tag="pass"):
    """Contact Phase: do not roll; the boat goes to the Search box."""


class ChooseConvoyCard(Command, tag="choose_convoy_card"):
    """Air Search: keep one of the two Convoy cards drawn."""

    number: Annotated[int, msgspec.Meta(ge=0, le=99)]


class Engage(Command, tag="engage"):
    """Attack the contact shown by the Convoy card."""


class Withdraw(Command, tag="withdraw"):
    """Retirarse: do not attack this contact."""


class Place(Command, tag="place"):
    """Put a U-boat on the Tactical Display (a Long area; Infiltrador: Medium or Short too), either side up."""

    boat: Id
    area: Id
    side: Side


class CallWolfpack(Command, tag="call_wolfpack"):
    """Roll for another boat of the Area to join the attack."""

    boat: Id


class RadioCall(Command, tag="radio_call"):
    """Buy a Radio Call before any Wolfpack roll: the boats named join freely."""

    boats: Annotated[list[Id], msgspec.Meta(min_length=1, max_length=64)]


class StartCombat(Command, tag="start_combat"):
    """The pack is formed: the Combat Resolution Phase begins."""


class MoveUBoat(Command, tag="move_uboat"):
    """U-boat movement: flip if wanted, then move up to the side's speed to `to` (an area, or "off" from Long)."""

    boat: Id
    side: Side
    to: Id


class SilentRunningCmd(Command, tag="silent_running"):
    """A Detected boat runs silent during its move (it submerges first); then it still sends its move."""

    boat: Id


class DeepDive(Command, tag="deep_dive"):
    """A submerged boat goes Deep instead of moving (UL-S6)."""

    boat: Id


class Bearing(Command, tag="bearing"):
    """Movimiento de Demora: the speed each boat is treated as having (0 … its side's speed)."""

    speeds: dict[Id, Annotated[int, msgspec.Meta(ge=0, le=9)]]


class Drift(Command, tag="drift"):
    """Bearing drift tie: where a piece drifts (each step nearer the Wake)."""

    piece: Id
    to: Id


class EscortOrder(Command, tag="escort_order"):
    """The order in which the escorts detect and move."""

    labels: Annotated[list[Id], msgspec.Meta(min_length=1, max_length=64)]


class Pursue(Command, tag="pursue"):
    """Escort movement tie: where the escort ends its move."""

    escort: Id
    to: Id


class TargetArg(msgspec.Struct, forbid_unknown_fields=True):
    target: Id
    kind: TorpedoKind = "normal"


class Attack(Command, tag="attack"):
    """A boat's attack: Ready torpedoes at targets in range 0–2, or (surfaced, with a gun) gun rolls at 0–1."""

    boat: Id
    weapon: Literal["torpedo", "gun"]
    shots: Annotated[list[TargetArg], msgspec.Meta(min_length=1, max_length=99)]


class Hold(Command, tag="hold"):
    """The boat does not attack this turn."""

    boat: Id


class ChooseTarget(Command, tag="choose_target"):
    """An enemy ship with several nearest targets: the boat it attacks."""

    ship: Id
    boat: Id


class NextContact(Command, tag="next_contact"):
    """After combat: draw the active boat's next Convoy card."""


class EndActivation(Command, tag="end_activation"):
    """After combat: the active boat is done; it goes to the Search box."""


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
    """Recorded in GameCreated without the defaults."""

    campaign: Annotated[str, msgspec.Meta(min_length=1, max_length=64)] = "battle-begins"
    """A campaign sheet of the data set (the stand-in set has `battle-begins`, Comienza la Batalla)."""
    duration: Literal["short", "medium", "long"] = "short"
    """Corta, Media or Larga: patrols per boat and starting SO."""
    data: dict | None = None
    """A whole data set of one's own (schema: domain/uboat_leader/data); its SHA-256 is pinned in GameCreated."""
    data_file: Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,64}(\.json)?$")] | None = None
    """A data set file in the server's data folder; the server reads it into `data` when the game is created."""
