"""The campaign sheet (AA-R4): a line per power and round, folded from the log as the ruleset's history (domain/engine.py
`History`), never part of the state. The rules never read it and it grows every round, so the state, its snapshots and
the working copies of decide, the bots and what-if stay the size of what the rules read; the views that show it
(`ipc-ledger`, `campaign-sheet`) are given it folded to their seq."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain.aa1942_convoy.state import TURN_ORDER
from events import aa1942_convoy as ev
from events.vocabulary import Event


@dataclass
class PowerRound:
    """One power's line of the campaign sheet for one round."""

    income: int = 0
    spent: int = 0
    raid_damage_suffered: int = 0
    raid_ipcs_lost: int = 0  # what actually left the treasury
    raid_damage_inflicted: int = 0
    raids: int = 0
    captured: list[str] = field(default_factory=list)
    liberated: list[str] = field(default_factory=list)
    returned: list[str] = field(default_factory=list)  # AA-R14: given back by allies when its capital was freed
    lost: list[str] = field(default_factory=list)
    submarines_placed: int = 0
    submarines_lost: int = 0


Sheet = list[dict[str, PowerRound]]  # per round (the first is round 1), per power


def _new_round() -> dict[str, PowerRound]:
    return {p: PowerRound() for p in TURN_ORDER}


def new_sheet() -> Sheet:
    """The sheet as a game begins: round 1's empty lines (the genesis starts round 1, no RoundBegan does)."""
    return [_new_round()]


# ---- one handler per event type the sheet records; every other event leaves it as it is ---------------------------
# Each writes the line of the round under way: the last one.


def _round_began(sheet: Sheet, e: ev.RoundBegan) -> None:
    sheet.append(_new_round())


def _purchase_made(sheet: Sheet, e: ev.PurchaseMade) -> None:
    sheet[-1][e.power].spent += e.spent


def _submarines_placed(sheet: Sheet, e: ev.SubmarinesPlaced) -> None:
    sheet[-1][e.power].submarines_placed += e.count


def _submarines_lost(sheet: Sheet, e: ev.SubmarinesLost) -> None:
    sheet[-1][e.power].submarines_lost += e.count


def _convoy_raided(sheet: Sheet, e: ev.ConvoyRaided) -> None:
    owner, raider = sheet[-1][e.owner], sheet[-1][e.raider]
    owner.raid_damage_suffered += e.damage
    owner.raid_ipcs_lost += e.removed
    raider.raid_damage_inflicted += e.damage
    raider.raids += 1


def _territory_captured(sheet: Sheet, e: ev.TerritoryCaptured) -> None:
    sheet[-1][e.by].captured.append(e.territory)
    sheet[-1][e.from_power].lost.append(e.territory)


def _territory_liberated(sheet: Sheet, e: ev.TerritoryLiberated) -> None:
    sheet[-1][e.by].liberated.append(e.territory)
    sheet[-1][e.from_power].lost.append(e.territory)


def _territories_returned(sheet: Sheet, e: ev.TerritoriesReturned) -> None:
    sheet[-1][e.power].returned.extend(r.territory for r in e.territories)


def _income_collected(sheet: Sheet, e: ev.IncomeCollected) -> None:
    sheet[-1][e.power].income += e.income


HANDLERS: dict[type[Event], Callable[[Sheet, Any], None]] = {
    ev.RoundBegan: _round_began,
    ev.PurchaseMade: _purchase_made,
    ev.SubmarinesPlaced: _submarines_placed,
    ev.SubmarinesLost: _submarines_lost,
    ev.ConvoyRaided: _convoy_raided,
    ev.TerritoryCaptured: _territory_captured,
    ev.TerritoryLiberated: _territory_liberated,
    ev.TerritoriesReturned: _territories_returned,
    ev.IncomeCollected: _income_collected,
}


def evolve(sheet: Sheet, e: Event) -> None:
    handler = HANDLERS.get(type(e))
    if handler is not None:
        handler(sheet, e)
