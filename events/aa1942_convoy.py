"""Events of the `aa1942-convoy` ledger (National Convoy Disruption for Axis & Allies 1942.2).

Every field is typed (powers and phases are `Literal`s), so the OpenAPI gives a frontend each event's exact
shape. Narrowing a `str` to a `Literal` of the values it always held leaves stored bodies as they were (no `v`).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from events.vocabulary import Event, register

Power = Literal["USSR", "Germany", "UK", "Japan", "USA"]
Phase = Literal["purchase", "combat-move", "combat", "noncombat-move", "mobilize"]


class PhaseBegan(Event):
    """A power's phase begins: purchase, combat-move, combat, noncombat-move or mobilize."""

    round: int
    power: Power
    phase: Phase


class ZoneChips(msgspec.Struct, forbid_unknown_fields=True):
    sz: int
    chips: int


class ChipsRemoved(Event):
    """The owner's Purchase & Repair phase clears the raid chips under its convoy markers (AA-11, AA-R5)."""

    power: Power
    zones: list[ZoneChips]


class PurchaseMade(Event):
    power: Power
    spent: int
    treasury: int


class SubmarinesMoved(Event):
    power: Power
    from_sz: int
    to_sz: int
    count: int
    distance: int


class SubmarinesPlaced(Event):
    power: Power
    sz: int
    count: int


class SubmarinesFought(Event):
    """Submarines committed to general combat (step 3); they can no longer raid this turn."""

    power: Power
    sz: int
    count: int


class SubmarinesRetreated(Event):
    """From edition 5.0.0 (AA-R18): submarines that fought in `from_sz` retreated to the adjacent `to_sz`; they stay
    used for the rest of the turn (no raid, fight, move or loss in this combat)."""

    power: Power
    from_sz: int
    to_sz: int
    count: int


class SubmarinesLost(Event):
    power: Power
    sz: int
    count: int
    reported_by: Power


class ConvoyRaided(Event):
    """One submarine's raid: the roll, the damage after the zone's 4-chip cap and after the treasury floor."""

    raider: Power
    sz: int
    owner: Power
    roll_k: int
    rolled: int  # 1..4: the d6 mapped (1-3 -> that, 4-6 -> 0) plus one
    cap_left: Annotated[
        int,
        msgspec.Meta(
            description="AA-R5: what the zone's chips allowed BEFORE this raid, 4 - chips (the `sz-status` view's "
            "`cap_left` is what they allow now, after it)"
        ),
    ]
    damage: int  # min(rolled, cap_left): the chips placed
    removed: int  # min(damage, treasury): what actually left the owner's treasury
    treasury: int  # the owner's treasury after


class TerritoryCaptured(Event):
    territory: str
    by: Power
    from_power: Power
    plundered: int  # IPCs taken from the treasury of the power whose capital fell, else 0


class TerritoryLiberated(Event):
    territory: str
    by: Power
    from_power: Power
    to_power: Power


class ReturnedTerritory(msgspec.Struct, forbid_unknown_fields=True):
    territory: str
    from_power: Power  # the ally that held it


class TerritoriesReturned(Event):
    """AA-R14: a power regained its capital; its original territories its allies held return to it."""

    power: Power
    capital: str
    territories: list[ReturnedTerritory]


class ConvoyZoneDeactivated(Event):
    sz: int
    owner: Power
    lost: list[str]  # the owner's original territories bordering the zone that others hold


class ConvoyZoneReactivated(Event):
    sz: int
    owner: Power


class IncomeCollected(Event):
    power: Power
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
    SubmarinesRetreated,
    SubmarinesLost,
    ConvoyRaided,
    TerritoryCaptured,
    TerritoryLiberated,
    TerritoriesReturned,
    ConvoyZoneDeactivated,
    ConvoyZoneReactivated,
    IncomeCollected,
    RoundBegan,
)
register(*EVENTS)
