"""Events of the `aa1942-convoy` ledger (National Convoy Disruption for Axis & Allies 1942.2)."""

from __future__ import annotations

import msgspec

from events.vocabulary import Event, register


class PhaseBegan(Event):
    """A power's phase begins: purchase, combat-move, combat, noncombat-move or mobilize."""

    round: int
    power: str
    phase: str


class ZoneChips(msgspec.Struct, forbid_unknown_fields=True):
    sz: int
    chips: int


class ChipsRemoved(Event):
    """The owner's Purchase & Repair phase clears the raid chips under its convoy markers."""

    power: str
    zones: list[ZoneChips]


class PurchaseMade(Event):
    power: str
    spent: int
    treasury: int


class SubmarinesMoved(Event):
    power: str
    from_sz: int
    to_sz: int
    count: int
    distance: int


class SubmarinesPlaced(Event):
    power: str
    sz: int
    count: int


class SubmarinesFought(Event):
    """Submarines committed to general combat (step 3); they can no longer raid this turn."""

    power: str
    sz: int
    count: int


class SubmarinesLost(Event):
    power: str
    sz: int
    count: int
    reported_by: str


class ConvoyRaided(Event):
    """One submarine's raid: the roll, the damage after the per-round cap and after the treasury floor."""

    raider: str
    sz: int
    owner: str
    roll_k: int
    rolled: int  # 1..4: the d6 mapped (1-3 -> that, 4-6 -> 0) plus one
    cap_left: int  # what the 4-IPC round cap still allowed before this raid
    damage: int  # min(rolled, cap_left): the chips placed
    removed: int  # min(damage, treasury): what actually left the owner's treasury
    treasury: int  # the owner's treasury after


class TerritoryCaptured(Event):
    territory: str
    by: str
    from_power: str
    plundered: int  # IPCs taken from the treasury of the power whose capital fell, else 0


class TerritoryLiberated(Event):
    territory: str
    by: str
    from_power: str
    to_power: str


class ConvoyZoneDeactivated(Event):
    sz: int
    owner: str
    lost: list[str]  # the owner's original territories bordering the zone that others hold


class ConvoyZoneReactivated(Event):
    sz: int
    owner: str


class IncomeCollected(Event):
    power: str
    income: int
    treasury: int


class RoundBegan(Event):
    round: int


EVENTS = (
    PhaseBegan,
    ChipsRemoved,
    PurchaseMade,
    SubmarinesMoved,
    SubmarinesPlaced,
    SubmarinesFought,
    SubmarinesLost,
    ConvoyRaided,
    TerritoryCaptured,
    TerritoryLiberated,
    ConvoyZoneDeactivated,
    ConvoyZoneReactivated,
    IncomeCollected,
    RoundBegan,
)
register(*EVENTS)
