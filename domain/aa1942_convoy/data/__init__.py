"""The default data set of `aa1942-convoy`: the 1942.2 map facts (see README.md beside this file)."""

from __future__ import annotations

import msgspec


class LandTerritory(msgspec.Struct, forbid_unknown_fields=True):
    original_owner: str | None  # None: neutral, impassable in 1942.2
    ipc: int


class SeaZone(msgspec.Struct, forbid_unknown_fields=True):
    bordering_land: list[str]
    adjacent_sea_zones: list[int]


class MapData(msgspec.Struct, forbid_unknown_fields=True):
    about: str
    land_territories: dict[str, LandTerritory]
    sea_zones: dict[str, SeaZone]


def parse_map(raw: bytes) -> MapData:
    """Decode and cross-check the map: every border names a known territory or zone, both ways."""
    data = msgspec.json.decode(raw, type=MapData)
    for name, sz in data.sea_zones.items():
        for land in sz.bordering_land:
            if land not in data.land_territories:
                raise ValueError(f"sea zone {name} borders unknown territory {land!r}")
        for other in sz.adjacent_sea_zones:
            if str(other) not in data.sea_zones or int(name) not in data.sea_zones[str(other)].adjacent_sea_zones:
                raise ValueError(f"sea zones {name} and {other} are not adjacent both ways")
    for name, land in data.land_territories.items():
        if land.ipc < 0:
            raise ValueError(f"{name} has a negative IPC value")
    return data
