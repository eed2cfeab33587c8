"""One Struct per player decision of `corvette-command` (CC-R8); `type` is the tag."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Station = Literal["lookout", "asdic", "aa", "gun", "depth_charge", "engineer"]
Area = Literal["lookout", "asdic", "aa", "gun", "depth_charge", "engineer", "radar", "hfdf", "hedgehog"]


class Command(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class ChooseStartPort(Command, tag="choose_start_port"):
    """First convoy only: sail from Canada (Halifax / St John's) or from Liverpool."""

    side: Literal["canada", "liverpool"]


class Start(Command, tag="start"):
    """Quick play: roll the six skill dice."""


class AllocateSkills(Command, tag="allocate_skills"):
    """Quick play: give each station one of the six dice rolled (station -> die face)."""

    skills: dict[Station, Annotated[int, msgspec.Meta(ge=1, le=6)]]


class MoveConvoy(Command, tag="move_convoy"):
    """Move one box ([channel, column]), or into the destination port by its name."""

    to: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=40)]], msgspec.Meta(min_length=2, max_length=2)] | str


class RerollCollision(Command, tag="reroll_collision"):
    """RADAR fitted: re-roll a collision once (the second result stands), or accept it."""

    reroll: bool


class FireGuns(Command, tag="fire_guns"):
    """Engage the surfaced U-boat with the 4\" gun and the AA guns."""


class HoldFire(Command, tag="hold_fire"):
    """Let the U-boat come on without firing."""


class Detect(Command, tag="detect"):
    """Sweep with the ASDIC for the U-boat."""


class DropPattern(Command, tag="drop_pattern"):
    weapon: Literal["depth-charges", "hedgehog"]


class Board(Command, tag="board"):
    """Send a boarding party led by the officer of a station, or null to let the U-boat sink."""

    officer: Station | None


class Repair(Command, tag="repair"):
    """The engineers' one repair attempt in this box (null: none)."""

    area: Area | None


COMMANDS = (
    ChooseStartPort,
    Start,
    AllocateSkills,
    MoveConvoy,
    RerollCollision,
    FireGuns,
    HoldFire,
    Detect,
    DropPattern,
    Board,
    Repair,
)


class QuickPlay(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    direction: Literal["east", "west"] = "east"


class Options(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Recorded in GameCreated without the defaults, so a new option with a default leaves old games (and their
    bundles) byte-identical."""

    year: Annotated[int, msgspec.Meta(ge=1939, le=1945)] = 1941
    month: Annotated[int, msgspec.Meta(ge=1, le=12)] = 5
    end_year: Annotated[int, msgspec.Meta(ge=1939, le=1946)] = 1945
    end_month: Annotated[int, msgspec.Meta(ge=1, le=12)] = 5
    convoys: Annotated[int, msgspec.Meta(ge=1, le=500)] | None = None
    quick_play: QuickPlay | None = None
    radar_hfdf_operators: bool = False
    time_of_contact: bool = False
    revised_map: bool = False
    two_player: bool = False
    """Two escorts (two seats) share one convoy (CC-44)."""
    data: dict | None = None
    """A whole data set of one's own (schema: domain/corvette_command/data); its SHA-256 is pinned in GameCreated."""
    data_file: Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,64}(\.json)?$")] | None = None
    """A data set file in the server's data folder; the server reads it into `data` when the game is created."""
