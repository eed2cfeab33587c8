"""The default data set of `aa1942-convoy`: the 1942.2 map facts (see README.md beside this file)."""

from __future__ import annotations

from typing import Annotated

import msgspec


class LandTerritory(msgspec.Struct, forbid_unknown_fields=True):
    original_owner: str | None  # None: neutral, impassable in 1942.2
    ipc: int


class SeaZone(msgspec.Struct, forbid_unknown_fields=True):
    bordering_land: list[str]
    adjacent_sea_zones: list[int]


class Canal(msgspec.Struct, forbid_unknown_fields=True):
    """AA-R15: a border between two adjacent sea zones that a side passes only while it holds `territories`."""

    name: str
    sea_zones: Annotated[list[int], msgspec.Meta(min_length=2, max_length=2)]
    territories: Annotated[list[str], msgspec.Meta(min_length=1)]
    source: str


class MapData(msgspec.Struct, forbid_unknown_fields=True):
    about: str
    land_territories: dict[str, LandTerritory]
    sea_zones: dict[str, SeaZone]
    canals: list[Canal] = []  # absent from the data set of ruleset 1.x, which had no canals

    def canal_between(self, a: int, b: int) -> Canal | None:
        for canal in self.canals:
            if a in canal.sea_zones and b in canal.sea_zones and a != b:
                return canal
        return None


def parse_map(raw: bytes) -> MapData:
    """Decode and cross-check the map; every problem found is listed in one ValueError."""
    data = msgspec.json.decode(raw, type=MapData)
    problems = []
    for name, sz in data.sea_zones.items():
        for land in sz.bordering_land:
            if land not in data.land_territories:
                problems.append(f"sea zone {name} borders unknown territory {land!r}")
        for other in sz.adjacent_sea_zones:
            if str(other) not in data.sea_zones or int(name) not in data.sea_zones[str(other)].adjacent_sea_zones:
                problems.append(f"sea zones {name} and {other} are not adjacent both ways")
    for name, territory in data.land_territories.items():
        if territory.ipc < 0:
            problems.append(f"{name} has a negative IPC value")
    for canal in data.canals:
        a, b = canal.sea_zones
        if str(a) not in data.sea_zones or b not in data.sea_zones[str(a)].adjacent_sea_zones:
            problems.append(f"{canal.name}: sea zones {a} and {b} are not adjacent")
        for land in canal.territories:
            if land not in data.land_territories:
                problems.append(f"{canal.name}: unknown territory {land!r}")
    if problems:
        raise ValueError("; ".join(problems))
    return data
