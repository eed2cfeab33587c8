"""The options of a `convoy-dash` game and one Struct per command; `type` is the tag."""

from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec

from domain.decisions import described


class Options(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    rounds: Annotated[int, msgspec.Meta(ge=1, le=9, description="rounds to play (CD-4)")] = 3


class Command(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class Route(Command, tag="route"):
    """The convoy's lane this round, sealed until the raider has searched (CD-1)."""

    sealed: ClassVar[bool] = True
    lane: Annotated[str, described("a lane of the data set")]


class Search(Command, tag="search"):
    """The lanes the raider searches and how deep, each costing search points (CD-2)."""

    lanes: Annotated[list[str], described("the lanes searched, each once")]
    depth: Annotated[int, msgspec.Meta(ge=0, description="added to the search roll (CD-3)")] = 0
