"""The data set of `corvette-command`: the cards, maps and tables the rule text names but does not print.

The Structs below are its schema; `parse_data` decodes and cross-checks a set (ours or a user's).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Skill = Annotated[int, msgspec.Meta(ge=1, le=10)]


class UBoatCard(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    type: Literal["VII", "IX"]
    attack: Skill
    evade: Skill
    profile: Literal["L/M/C", "L/M", "M/C", "C"]
    attacks: Annotated[int, msgspec.Meta(ge=1, le=6)]  # attacks before withdrawing (text: 3 or 4 by type)
    stand_in: bool


class ConvoyCard(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    code: Literal["HX", "SC", "ON", "OB"]
    speed: Literal["fast", "slow"]
    destination: str
    stand_in: bool


class OrdersCard(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    channel: int  # the channel to use leaving Liverpool / entering the Western Approaches
    stand_in: bool


class Zone(msgspec.Struct, forbid_unknown_fields=True):
    name: Literal["canadian", "air-gap", "western-approaches"]
    boxes: list[list[int]]
    pool: dict[Literal["U", "R"], int]  # blank counters fill the zone's other boxes


class Port(msgspec.Struct, forbid_unknown_fields=True):
    side: Literal["west", "east"]
    boxes: list[list[int]]  # the boxes a convoy enters from, or leaves into, this port


class MapDef(msgspec.Struct, forbid_unknown_fields=True):
    channels: Annotated[int, msgspec.Meta(ge=1, le=9)]
    columns: Annotated[int, msgspec.Meta(ge=2, le=40)]
    zones: list[Zone]
    ports: dict[str, Port]
    stand_in: bool


class RandomEvent(msgspec.Struct, forbid_unknown_fields=True):
    roll: Annotated[int, msgspec.Meta(ge=1, le=20)]
    name: str
    effect: Literal[
        "reroll_token",
        "men_in_water",
        "oil_slick",
        "uboat",
        "repair_bonus",
        "air_raid",
        "iceberg",
        "mine",
        "nothing",
        "straggler",
        "mechanical",
        "weather_worse",
        "weather_better",
        "boffin_rescue",
    ]
    stand_in: bool
    note: str
    sub_roll_stand_in: bool = False  # a published entry whose sub-roll is ours


class DataSet(msgspec.Struct, forbid_unknown_fields=True):
    about: str
    uboats: list[UBoatCard]
    convoys: list[ConvoyCard]
    orders: list[OrdersCard]
    maps: dict[Literal["standard", "revised-1942"], MapDef]
    random_events: list[RandomEvent]

    def uboat(self, card_id: str) -> UBoatCard:
        return next(u for u in self.uboats if u.id == card_id)

    def convoy(self, card_id: str) -> ConvoyCard:
        return next(c for c in self.convoys if c.id == card_id)

    def orders_card(self, card_id: str) -> OrdersCard:
        return next(o for o in self.orders if o.id == card_id)


START_PORT = {"HX": "Halifax", "SC": "St John's", "ON": "Liverpool", "OB": "Liverpool"}  # the text's table


def parse_data(raw: bytes) -> DataSet:
    data = msgspec.json.decode(raw, type=DataSet)
    problems = []
    if sum(u.type == "IX" for u in data.uboats) < 2 or not any(u.type == "VII" for u in data.uboats):
        problems.append("the U-boat deck needs VII cards and at least 2 IX cards")
    for kind, cards in (("uboats", data.uboats), ("convoys", data.convoys), ("orders", data.orders)):
        ids = [c.id for c in cards]
        if len(set(ids)) != len(ids) or not ids:
            problems.append(f"{kind}: ids must be unique and at least one card given")
    if sorted(e.roll for e in data.random_events) != list(range(1, 21)):
        problems.append("random_events must give each roll 1..20 once")
    sides = {START_PORT[c.code] == "Liverpool" for c in data.convoys}
    if sides != {True, False}:
        problems.append("convoys must include cards sailing from Canada and cards sailing from Liverpool")
    if "standard" not in data.maps:
        problems.append("maps must include 'standard'")
    for name, m in data.maps.items():
        seen = set()
        for z in m.zones:
            for ch, col in z.boxes:
                if not (0 <= ch < m.channels and 0 <= col < m.columns) or (ch, col) in seen:
                    problems.append(f"map {name}: box {[ch, col]} is off the map or in two zones")
                seen.add((ch, col))
            if sum(z.pool.values()) > len(z.boxes):
                problems.append(f"map {name}: zone {z.name} has more counters than boxes")
        if len(seen) != m.channels * m.columns:
            problems.append(f"map {name}: every box must be in a zone")
        for port in ("Halifax", "St John's", "Liverpool"):
            if port not in m.ports:
                problems.append(f"map {name}: port {port} is missing")
        for c in data.convoys:
            if c.destination not in m.ports or m.ports[c.destination].side == m.ports[START_PORT[c.code]].side:
                problems.append(
                    f"convoy {c.id}: its destination must be a port across the ocean from {START_PORT[c.code]}"
                )
        for o in data.orders:
            if not 0 <= o.channel < m.channels:
                problems.append(f"orders {o.id}: no channel {o.channel} on map {name}")
    if problems:
        raise ValueError("; ".join(problems))
    return data
