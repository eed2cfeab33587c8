"""One Struct per command of `aa1942-convoy`; `type` is the tag. The API's request schemas come from these."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

SeaZone = Annotated[int, msgspec.Meta(ge=1, le=65, description="a sea zone number of the 1942.2 map")]
MAX_COUNT = 99  # submarines one command moves, commits, retreats, places or records lost; a zone may hold more
Count = Annotated[int, msgspec.Meta(ge=1, le=MAX_COUNT)]
# AA-3: a purchase spends up to the treasury, which the text never caps (a power holding the map for 70 rounds passes
# 10,000); the bound is only the largest integer every JSON reader holds exactly (a JavaScript number)
MAX_IPCS = 2**53 - 1
Territory = Annotated[str, msgspec.Meta(min_length=1, max_length=64, description="a land territory name")]
Power = Annotated[str, msgspec.Meta(pattern="^(USSR|Germany|UK|Japan|USA)$")]


class Command(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class Purchase(Command, tag="purchase"):
    """Purchase & Repair: the IPCs the acting power spends (0 up to its treasury)."""

    spend: Annotated[int, msgspec.Meta(ge=0, le=MAX_IPCS, description="IPCs spent, from 0 to the power's treasury")]


class MoveSubmarines(Command, tag="move_submarines"):
    """Combat or noncombat move: submarines go up to two sea zones."""

    from_sz: SeaZone
    to_sz: SeaZone
    count: Annotated[Count, msgspec.Meta(description="how many of the power's submarines in `from_sz` move")]


class Raid(Command, tag="raid"):
    """Combat step 1: one submarine raids the enemy convoy zone it is in."""

    sz: SeaZone


class Fight(Command, tag="fight"):
    """Commit submarines to general combat (step 3); they can no longer raid this turn."""

    sz: SeaZone
    count: Annotated[Count, msgspec.Meta(description="how many of the power's submarines there fight")]


class RetreatSubmarines(Command, tag="retreat_submarines"):
    """From edition 5.0.0 (AA-R18): in general combat, submarines that fought this turn in `from_sz` retreat to an
    adjacent sea zone (one the attack came from: the player's word); they do nothing more this turn."""

    from_sz: Annotated[SeaZone, msgspec.Meta(description="the zone where they fought")]
    to_sz: Annotated[SeaZone, msgspec.Meta(description="an adjacent sea zone they retreat to")]
    count: Annotated[Count, msgspec.Meta(description="how many of the submarines that fought there retreat")]


class LoseSubmarines(Command, tag="lose_submarines"):
    """Record submarines sunk in the acting power's combat: from edition 4.0.0 its enemies' and its own that did not
    raid this turn (AA-R10); before, any power's."""

    power: Annotated[Power, msgspec.Meta(description="the power whose submarines were sunk")]
    sz: SeaZone
    count: Annotated[Count, msgspec.Meta(description="how many of its submarines there were sunk")]


class Capture(Command, tag="capture"):
    """Take an enemy-held territory whose original owner is on the enemy side."""

    territory: Territory


class Liberate(Command, tag="liberate"):
    """Retake an enemy-held territory whose original owner is on the acting power's side."""

    territory: Territory


class PlaceSubmarines(Command, tag="place_submarines"):
    """Mobilize new submarines in a sea zone: from edition 4.0.0 at most, over the turn, one per 6 IPCs spent in its
    Purchase & Repair (AA-R17)."""

    sz: SeaZone
    count: Annotated[Count, msgspec.Meta(description="how many new submarines are placed there")]


class EndPhase(Command, tag="end_phase"):
    """End the acting power's current phase (after mobilize: collect income, next power)."""


class EndGame(Command, tag="end_game"):
    """Referee: the game is over (A&A ends by victory cities, which this ledger does not track)."""

    ends_game: ClassVar[bool] = True
    always_open: ClassVar[bool] = True  # the referee's, at any time: it makes no one awaited

    reason: Annotated[
        str, msgspec.Meta(min_length=1, max_length=200, description="why the game ends, for the record")
    ] = "ended by the referee"


COMMANDS = (
    Purchase,
    MoveSubmarines,
    Raid,
    Fight,
    RetreatSubmarines,
    LoseSubmarines,
    Capture,
    Liberate,
    PlaceSubmarines,
    EndPhase,
    EndGame,
)


class Options(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The game's options; each one left out takes its default."""

    # recorded in GameCreated without the defaults, so a new option with a default leaves old games (and their
    # bundles) byte-identical

    rounds: Annotated[
        Annotated[int, msgspec.Meta(ge=1, le=99)] | None,
        msgspec.Meta(description="the game ends after this round; null: until the referee ends it"),
    ] = None
    """The game ends after this round; unset: until the referee ends it."""
    submarines: Annotated[
        dict[Power, dict[Annotated[str, msgspec.Meta(pattern="^[0-9]{1,2}$")], Count]],
        msgspec.Meta(description="starting submarines added to the setup's: power -> sea zone number -> count"),
    ] = {}
    """Starting submarines added to the setup's: power -> sea zone -> count."""
    setup: (
        Annotated[
            Literal["1942.2", "empty"],
            msgspec.Meta(
                description='AA-R16: the starting submarines. "1942.2" (what a new game gets when unset): the '
                "standard setup's (USSR 1 in SZ 4; Germany 2 in SZ 5, 2 in SZ 9; UK 1 in SZ 39; Japan 1 in SZ 44; "
                'USA 1 in SZ 53); "empty": none. A new game records it in its genesis.'
            ),
        ]
        | msgspec.UnsetType
    ) = msgspec.UNSET
    """Unset only in a request: `rules.setup.new_game_options` fills it in for every new game."""
