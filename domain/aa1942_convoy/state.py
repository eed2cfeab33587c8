"""The ledger's state and `evolve`, the only code that changes it (decide reads it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from domain.aa1942_convoy.data import MapData
from events import aa1942_convoy as ev
from events.core import (
    ClientSeedContributed,
    DiceRolled,
    GameEnded,
    SeedLocked,
    ServerSeedRevealed,
    SubmissionSealed,
    SubmissionsRevealed,
)
from events.vocabulary import Event

# AA-1: the convoy sea zones of 1942.2 and their owners (rule text), each worth 4 IPCs.
CONVOY_ZONES: dict[int, str] = {
    4: "USSR",
    **{sz: "UK" for sz in (3, 7, 8, 10, 23, 34, 35, 45)},
    **{sz: "USA" for sz in (2, 11, 18, 22, 53, 55, 56, 57, 65)},
    **{sz: "Germany" for sz in (5, 15)},
    **{sz: "Japan" for sz in (36, 37, 47, 48, 60, 61, 62)},
}
ZONE_VALUE = 4
# AA-2: turn order of 1942.2, sides and starting incomes (which are also the starting treasuries).
TURN_ORDER = ("USSR", "Germany", "UK", "Japan", "USA")
SIDE = {"USSR": "Allies", "UK": "Allies", "USA": "Allies", "Germany": "Axis", "Japan": "Axis"}
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


@dataclass
class SubsUsed:
    """What the acting power's submarines in one zone did this turn (the rest are fresh)."""

    moved: int = 0  # moved, and neither raided nor fought yet
    raided: int = 0
    fought: int = 0

    @property
    def total(self) -> int:
        return self.moved + self.raided + self.fought

    def take_losses(self, fresh: int, count: int) -> None:
        """AA-R10: the acting power's losses come from subs that fought, then moved, then fresh, then raided."""
        for attr in ("fought", "moved"):
            k = min(count, getattr(self, attr))
            setattr(self, attr, getattr(self, attr) - k)
            count -= k
        count -= min(count, fresh)
        self.raided -= min(count, self.raided)


@dataclass
class State:
    map: MapData
    seat_of: dict[str, str]  # power -> seat
    rounds: int | None  # the game ends after this round, if set
    round: int = 1
    turn: int = 0  # index into TURN_ORDER
    phase: str = "purchase"
    combat_step: int = 1  # 1: raids (with strategic bombing); 3: general combat
    control: dict[str, str | None] = field(default_factory=dict)
    treasury: dict[str, int] = field(default_factory=dict)
    subs: dict[str, dict[int, int]] = field(default_factory=dict)  # power -> sz -> count
    used: dict[int, SubsUsed] = field(default_factory=dict)  # acting power's zones this turn
    chips: dict[int, int] = field(default_factory=dict)  # AA-11, AA-R5: at most 4 per zone
    canals_open: list[str] = field(default_factory=list)  # AA-R15: canals the acting side held at its turn's start
    inactive: dict[int, list[str]] = field(default_factory=dict)  # derived from control (AA-4)
    sheet: list[dict[str, PowerRound]] = field(default_factory=list)  # per round, per power
    over: bool = False

    @property
    def power(self) -> str:
        return TURN_ORDER[self.turn]

    def line(self, power: str) -> PowerRound:
        return self.sheet[self.round - 1][power]

    def subs_in(self, power: str, sz: int) -> int:
        return self.subs.get(power, {}).get(sz, 0)

    def fresh(self, sz: int) -> int:
        used = self.used.get(sz)
        return self.subs_in(self.power, sz) - (used.total if used is not None else 0)

    def may_raid_with(self, sz: int) -> int:
        """Submarines of the acting power in sz that have neither raided nor fought (AA-R1)."""
        used = self.used.get(sz)
        return self.subs_in(self.power, sz) - (used.raided + used.fought if used is not None else 0)

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


def new_round_sheet() -> dict[str, PowerRound]:
    return {p: PowerRound() for p in TURN_ORDER}


# ---- evolve: one handler per event type; each applies what its event says -------------------------


def _phase_began(state: State, e: ev.PhaseBegan) -> None:
    state.phase = e.phase
    state.turn = TURN_ORDER.index(e.power)
    state.round = e.round
    if e.phase == "purchase":
        state.used = {}
        state.canals_open = open_canals(state, e.power)
    if e.phase == "combat":
        state.combat_step = 1


def _round_began(state: State, e: ev.RoundBegan) -> None:
    state.round = e.round
    state.sheet.append(new_round_sheet())


def _chips_removed(state: State, e: ev.ChipsRemoved) -> None:
    for z in e.zones:
        state.chips.pop(z.sz, None)


def _purchase_made(state: State, e: ev.PurchaseMade) -> None:
    state.treasury[e.power] = e.treasury
    state.line(e.power).spent += e.spent


def _add_subs(state: State, power: str, sz: int, n: int) -> None:
    zones = state.subs.setdefault(power, {})
    zones[sz] = zones.get(sz, 0) + n
    if zones[sz] == 0:
        del zones[sz]


def _submarines_moved(state: State, e: ev.SubmarinesMoved) -> None:
    _add_subs(state, e.power, e.from_sz, -e.count)
    _add_subs(state, e.power, e.to_sz, e.count)
    state.used.setdefault(e.to_sz, SubsUsed()).moved += e.count


def _submarines_placed(state: State, e: ev.SubmarinesPlaced) -> None:
    _add_subs(state, e.power, e.sz, e.count)
    state.line(e.power).submarines_placed += e.count


def _use_for_combat(state: State, sz: int, n: int, as_: str) -> None:
    """A raid or fight uses subs that moved in first, then fresh ones (so fresh ones keep their noncombat move)."""
    used = state.used.setdefault(sz, SubsUsed())
    used.moved -= min(n, used.moved)
    setattr(used, as_, getattr(used, as_) + n)


def _submarines_fought(state: State, e: ev.SubmarinesFought) -> None:
    _use_for_combat(state, e.sz, e.count, "fought")
    state.combat_step = 3


def _submarines_lost(state: State, e: ev.SubmarinesLost) -> None:
    if e.power == state.power:
        state.used.setdefault(e.sz, SubsUsed()).take_losses(state.fresh(e.sz), e.count)
    _add_subs(state, e.power, e.sz, -e.count)
    state.line(e.power).submarines_lost += e.count
    state.combat_step = 3


def _convoy_raided(state: State, e: ev.ConvoyRaided) -> None:
    _use_for_combat(state, e.sz, 1, "raided")
    state.chips[e.sz] = state.chips.get(e.sz, 0) + e.damage
    state.treasury[e.owner] = e.treasury
    state.line(e.owner).raid_damage_suffered += e.damage
    state.line(e.owner).raid_ipcs_lost += e.removed
    state.line(e.raider).raid_damage_inflicted += e.damage
    state.line(e.raider).raids += 1


def _territory_captured(state: State, e: ev.TerritoryCaptured) -> None:
    state.control[e.territory] = e.by
    state.treasury[e.from_power] -= e.plundered
    state.treasury[e.by] += e.plundered
    state.line(e.by).captured.append(e.territory)
    state.line(e.from_power).lost.append(e.territory)
    state.inactive = inactive_zones(state, state.control)
    state.combat_step = 3


def _territory_liberated(state: State, e: ev.TerritoryLiberated) -> None:
    state.control[e.territory] = e.to_power
    state.line(e.by).liberated.append(e.territory)
    state.line(e.from_power).lost.append(e.territory)
    state.inactive = inactive_zones(state, state.control)
    state.combat_step = 3


def _territories_returned(state: State, e: ev.TerritoriesReturned) -> None:
    for r in e.territories:
        state.control[r.territory] = e.power
        state.line(e.power).returned.append(r.territory)
    state.inactive = inactive_zones(state, state.control)


def _income_collected(state: State, e: ev.IncomeCollected) -> None:
    state.treasury[e.power] = e.treasury
    state.line(e.power).income += e.income


def _game_ended(state: State, e: GameEnded) -> None:
    state.over = True


HANDLERS: dict[type[Event], Callable[[State, Event], None]] = {
    ev.PhaseBegan: _phase_began,
    ev.RoundBegan: _round_began,
    ev.ChipsRemoved: _chips_removed,
    ev.PurchaseMade: _purchase_made,
    ev.SubmarinesMoved: _submarines_moved,
    ev.SubmarinesPlaced: _submarines_placed,
    ev.SubmarinesFought: _submarines_fought,
    ev.SubmarinesLost: _submarines_lost,
    ev.ConvoyRaided: _convoy_raided,
    ev.TerritoryCaptured: _territory_captured,
    ev.TerritoryLiberated: _territory_liberated,
    ev.TerritoriesReturned: _territories_returned,
    ev.IncomeCollected: _income_collected,
    GameEnded: _game_ended,
}
# The zone markers follow control, which the territory events change (AA-4); the core events are the engine's.
NO_STATE_CHANGE: tuple[type[Event], ...] = (
    ev.ConvoyZoneDeactivated,
    ev.ConvoyZoneReactivated,
    DiceRolled,
    ClientSeedContributed,
    SeedLocked,
    ServerSeedRevealed,
    SubmissionSealed,  # the ledger seals nothing; the engine's own events all the same
    SubmissionsRevealed,
)


def evolve(state: State, e: Event) -> State:
    """Apply one event (mutates and returns `state`); an event type it does not know is a programming error."""
    handler = HANDLERS.get(type(e))
    if handler is not None:
        handler(state, e)
    elif not isinstance(e, NO_STATE_CHANGE):
        raise TypeError(f"aa1942-convoy has no handler for {type(e).__name__}")
    return state
