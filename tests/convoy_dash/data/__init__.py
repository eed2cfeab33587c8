"""The data set of `convoy-dash`: its lanes and the raider's search points (`lanes.json` beside this file)."""

from __future__ import annotations

from typing import Annotated

import msgspec


class Lane(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str
    cover: Annotated[int, msgspec.Meta(ge=2, le=7)]  # what 1d6 + depth must reach to find the convoy (CD-3)


class DataSet(msgspec.Struct, forbid_unknown_fields=True):
    search_points: Annotated[int, msgspec.Meta(ge=1)]  # the raider's, each round (CD-2)
    lanes: Annotated[list[Lane], msgspec.Meta(min_length=2)]


def parse_data(raw: bytes) -> DataSet:
    data = msgspec.json.decode(raw, type=DataSet)
    if len({lane.id for lane in data.lanes}) != len(data.lanes):
        raise ValueError("each lane has its own id")
    return data
