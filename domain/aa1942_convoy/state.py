"""The ledger's state; only `evolve` (evolve.py) changes it, decide reads it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from domain.aa1942_convoy.data import MapData
from domain.editions import Edition
from domain.procedure import Memo, memoized

# AA-1: the convoy sea zones of 1942.2 and their owners (rule text), each worth 4 IPCs.
CONVOY_ZONES: dict[int, str] = {
    4: "USSR",
    **{sz: "UK" for sz in (3, 7, 8, 10, 23, 34, 35, 45)},
    **{sz: "USA" for sz in (2, 11, 18, 22, 53, 55, 56, 57, 65)},
    **{sz: "Germany" for sz in (5, 15)},
    **{sz: "Japan" for sz in (36, 37, 47, 48, 60, 61, 62)},
}
ZONE_VALUE = 4
NO_SUBS: dict[int, int] = {}  # a power without submarines (never written)
# AA-2: turn order of 1942.2, sides and starting incomes (which are also the starting treasuries).
TURN_ORDER = ("USSR", "Germany", "UK", "Japan", "USA")
Side = Literal["Axis", "Allies"]
SIDE: dict[str, Side] = {"USSR": "Allies", "UK": "Allies", "USA": "Allies", "Germany": "Axis", "Japan": "Axis"}
STARTING_INCOME = {"USSR": 24, "Germany": 41, "UK": 31, "Japan": 30, "USA": 42}
CAPITALS = {
    "USSR": "Russia",
    "Germany": "Germany",
    "UK": "United Kingdom",
    "Japan": "Japan",
    "USA": "Eastern United States",
}
PHASES = ("purchase", "combat-move", "combat", "noncombat-move", "mobilize")


@dataclass
class SubsUsed:
    """What the acting power's submarines in one zone did this turn (the rest are fresh)."""

    moved: int = 0  # moved, and neither raided nor fought yet
    raided: int = 0
    fought: int = 0  # fought here (those that retreated from here are no longer counted)
    retreated: int = 0  # fought elsewhere and retreated here (AA-R18, 5.0.0): done for the turn, never lost in it

    @property
    def total(self) -> int:
        return self.moved + self.raided + self.fought + self.retreated

    def take_losses(self, fresh: int, count: int) -> None:
        """AA-R10: the acting power's losses come from subs that fought, then moved, then fresh, then raided (from 4.0.0
        never raided ones: `submarines.losable`, AA-E4-1)."""
        for attr in ("fought", "moved"):
            k = min(count, getattr(self, attr))
            setattr(self, attr, getattr(self, attr) - k)
            count -= k
        count -= min(count, fresh)
        self.raided -= min(count, self.raided)


@dataclass
class State(Memo):
    map: MapData
    seat_of: dict[str, str]  # power -> seat
    rounds: int | None  # the game ends after this round, if set
    edition: Edition  # the rules this game plays under (domain/editions.py)
    round: int = 1
    turn: int = 0  # index into TURN_ORDER
    phase: str = "purchase"
    combat_step: int = 1  # 1: raids (with strategic bombing); 3: general combat
    control: dict[str, str | None] = field(default_factory=dict)
    treasury: dict[str, int] = field(default_factory=dict)
    subs: dict[str, dict[int, int]] = field(default_factory=dict)  # power -> sz -> count (never 0: evolve drops it)
    used: dict[int, SubsUsed] = field(default_factory=dict)  # acting power's zones this turn
    chips: dict[int, int] = field(default_factory=dict)  # AA-11, AA-R5: at most 4 per zone
    canals_open: list[str] = field(default_factory=list)  # AA-R15: canals the acting side held at its turn's start
    inactive: dict[int, list[str]] = field(default_factory=dict)  # derived from control (AA-4)
    # the campaign sheet's figures that play reads (the sheet itself is the ruleset's history, sheet.py): what each
    # power spent and placed this round (the bound on placing, AA-R17, and the bot's mobilize) and the raid damage it
    # suffered all game (the bot's outcomes)
    spent: dict[str, int] = field(default_factory=dict)
    placed: dict[str, int] = field(default_factory=dict)
    raid_damage_suffered: dict[str, int] = field(default_factory=dict)
    over: bool = False

    @property
    def power(self) -> str:
        return TURN_ORDER[self.turn]

    def subs_in(self, power: str, sz: int) -> int:
        return self.subs.get(power, {}).get(sz, 0)

    def fresh(self, sz: int) -> int:
        used = self.used.get(sz)
        return self.subs_in(self.power, sz) - (used.total if used is not None else 0)

    def may_raid_with(self, sz: int) -> int:
        """Submarines of the acting power in sz that have neither raided nor fought (AA-R1), nor retreated there after
        fighting (AA-R18)."""
        here = self.subs.get(TURN_ORDER[self.turn], NO_SUBS).get(sz, 0)  # subs_in(power, sz), asked ~40 times a command
        used = self.used.get(sz)
        return here if used is None else here - used.raided - used.fought - used.retreated

    @memoized  # read by the raid and fight entries of every answer
    def zones_that_may_raid(self) -> dict[int, int]:
        """sz -> `may_raid_with(sz)` of each zone where the acting power has a submarine that may still raid or fight
        (in no particular order): what the `fight` and `raid` entries read of every zone on every answer, in one pass
        over the few zones used this turn (the rest are copied whole: a zone's count is never 0, `subs`)."""
        may = dict(self.subs.get(TURN_ORDER[self.turn], NO_SUBS))
        for sz in self.used:
            if sz in may:
                if (n := self.may_raid_with(sz)) > 0:
                    may[sz] = n
                else:
                    del may[sz]
        return may

    def holds_capital(self, power: str) -> bool:
        return self.control.get(CAPITALS[power]) == power

    def cap_left(self, sz: int) -> int:
        """AA-R5: a zone never holds more than 4 chips; a raid may add what its chips leave."""
        return ZONE_VALUE - self.chips.get(sz, 0)


def inactive_zones(state: State, control: dict[str, str | None]) -> dict[int, list[str]]:
    """AA-4: each deactivated convoy zone with its owner's original bordering territories others hold."""
    out = {}
    for sz, owner in sorted(CONVOY_ZONES.items()):
        lost = sorted(
            t
            for t in state.map.sea_zones[str(sz)].bordering_land
            if state.map.land_territories[t].original_owner == owner and control.get(t) != owner
        )
        if lost:
            out[sz] = lost
    return out


def open_canals(state: State, power: str) -> list[str]:
    """AA-R15: the canals whose every territory is held by `power`'s side (checked as its turn starts)."""
    side = SIDE[power]
    return [
        c.name
        for c in state.map.canals
        if all((holder := state.control.get(t)) is not None and SIDE[holder] == side for t in c.territories)
    ]

