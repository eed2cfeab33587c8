"""One Struct per player decision of `corvette-command` (CC-R8); `type` is the tag."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.decisions import described

Station = Literal["lookout", "asdic", "aa", "gun", "depth_charge", "engineer"]
Area = Literal["lookout", "asdic", "aa", "gun", "depth_charge", "engineer", "radar", "hfdf", "hedgehog"]


class Command(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class ChooseStartPort(Command, tag="choose_start_port"):
    """First convoy only: sail from Canada (Halifax / St John's) or from Liverpool."""

    side: Annotated[Literal["canada", "liverpool"], described("the side of the Atlantic the first convoy sails from")]


class Start(Command, tag="start"):
    """Quick play: roll the six skill dice."""


class AllocateSkills(Command, tag="allocate_skills"):
    """Quick play: give each station one of the six dice rolled (station -> die face)."""

    skills: Annotated[
        dict[Station, Annotated[int, msgspec.Meta(ge=1, le=6)]],
        described(
            "CC-45: each station's die face, each of the six dice rolled used once (6 → skill 3, 5–4 → 2, 3–1 → 1)"
        ),
    ]


class MoveConvoy(Command, tag="move_convoy"):
    """Move one box ([channel, column]), or into the destination port by its name."""

    to: Annotated[
        Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=40)]], msgspec.Meta(min_length=2, max_length=2)] | str,
        described("the next box of the convoy's route as [channel, column], or the destination port's name to arrive"),
    ]


class RerollCollision(Command, tag="reroll_collision"):
    """RADAR fitted: re-roll a collision once (the second result stands), or accept it."""

    reroll: Annotated[bool, described("true: re-roll the collision (the second result stands); false: accept it")]


class FireGuns(Command, tag="fire_guns"):
    """Engage the surfaced U-boat with the 4\" gun and the AA guns."""


class HoldFire(Command, tag="hold_fire"):
    """Let the U-boat come on without firing."""


class Detect(Command, tag="detect"):
    """Sweep with the ASDIC for the U-boat."""


class DropPattern(Command, tag="drop_pattern"):
    """CC-22: attack the detected U-boat with a depth-charge pattern or a Hedgehog salvo."""

    weapon: Annotated[
        Literal["depth-charges", "hedgehog"],
        described("CC-R19: a pattern uses one of 25 depth charges, a salvo one of 15"),
    ]


class HoldPattern(Command, tag="hold_pattern"):
    """CC-R28 (8.0.0): drop no pattern on the U-boat found at close range ("you may drop another Depth Charge
    pattern"), keeping the charges: it evades."""


class Board(Command, tag="board"):
    """Send a boarding party led by the officer of a station, or null to let the U-boat sink."""

    officer: Annotated[
        Station | None, described("CC-29: the station whose officer leads the party; null: let her sink")
    ]


class Repair(Command, tag="repair"):
    """The engineers' one repair attempt in this box (null: none)."""

    area: Annotated[Area | None, described("CC-32: the damaged area the engineers work on; null: no attempt")]


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
    HoldPattern,
    Board,
    Repair,
)


class QuickPlay(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    direction: Annotated[Literal["east", "west"], described("CC-45: the one convoy sails eastbound or westbound")] = (
        "east"
    )


class Options(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The campaign's options; each one left out takes its default."""

    # recorded in GameCreated without the defaults, so a new option with a default leaves old games (and their
    # bundles) byte-identical

    year: Annotated[Annotated[int, msgspec.Meta(ge=1939, le=1945)], described("the campaign's first year")] = 1941
    month: Annotated[Annotated[int, msgspec.Meta(ge=1, le=12)], described("the campaign's first month")] = 5
    end_year: Annotated[Annotated[int, msgspec.Meta(ge=1939, le=1946)], described("the year the campaign ends")] = 1945
    end_month: Annotated[Annotated[int, msgspec.Meta(ge=1, le=12)], described("the month the campaign ends")] = 5
    convoys: Annotated[
        Annotated[int, msgspec.Meta(ge=1, le=500)] | None,
        described("end after this many convoys; null: at the end date"),
    ] = None
    quick_play: Annotated[
        QuickPlay | None, described("CC-45: one convoy with skills allocated from six dice; null: the campaign")
    ] = None
    radar_hfdf_operators: Annotated[bool, described("CC-41: RADAR and HF/DF have their own operators")] = False
    time_of_contact: Annotated[bool, described("CC-42: roll the hour of contact, and darkness by month")] = False
    revised_map: Annotated[bool, described("CC-43: from June 1942 the revised 1942/43 map")] = False
    two_player: Annotated[bool, described("CC-44: two escorts (two seats) share one convoy")] = False
    """Two escorts (two seats) share one convoy (CC-44)."""
    data: Annotated[
        dict | None,
        described(
            "a whole data set of one's own (schema: domain/corvette_command/data); its SHA-256 is pinned in GameCreated"
        ),
    ] = None
    """A whole data set of one's own (schema: domain/corvette_command/data); its SHA-256 is pinned in GameCreated."""
    data_file: Annotated[
        Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,64}(\.json)?$")] | None,
        described(
            "a data set file in the server's data folder; the server reads it into `data` when the game is created"
        ),
    ] = None
    """A data set file in the server's data folder; the server reads it into `data` when the game is created."""
