"""The ledger's state. Only `evolve` (in __init__) changes it; decide reads it."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.aa1942_convoy.data import MapData

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
    chips: dict[int, int] = field(default_factory=dict)
    round_damage: dict[int, int] = field(default_factory=dict)
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
        return self.subs_in(self.power, sz) - self.used.get(sz, SubsUsed()).total

    def may_raid_with(self, sz: int) -> int:
        """Submarines of the acting power in sz that have neither raided nor fought (AA-R1)."""
        return self.fresh(sz) + self.used.get(sz, SubsUsed()).moved

    def holds_capital(self, power: str) -> bool:
        return self.control.get(CAPITALS[power]) == power


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


def new_round_sheet() -> dict[str, PowerRound]:
    return {p: PowerRound() for p in TURN_ORDER}


# ---- the only code that changes a State -----------------------------------------------------------

from events import aa1942_convoy as ev  # noqa: E402  (events import nothing of domain)
from events.core import GameCreated, GameEnded  # noqa: E402
from events.vocabulary import Event  # noqa: E402


def initial_state(created: GameCreated, options, data: MapData) -> State:
    """AA-2: every territory held by its original owner, treasuries at the starting incomes."""
    seat_of = power_seats(created.seats)
    state = State(map=data, seat_of=seat_of, rounds=options.rounds)
    state.control = {t: land.original_owner for t, land in sorted(data.land_territories.items())}
    state.treasury = dict(STARTING_INCOME)
    state.subs = {
        p: {int(sz): n for sz, n in sorted(options.submarines.get(p, {}).items(), key=lambda i: int(i[0]))}
        for p in TURN_ORDER
    }
    state.sheet = [new_round_sheet()]
    return state


def power_seats(seats: list[str]) -> dict[str, str]:
    """AA-R12: a seat named after a power plays it; a seat named after a side plays that side's other powers."""
    return {p: (p if p in seats else SIDE[p]) for p in TURN_ORDER}


def _add_subs(state: State, power: str, sz: int, n: int) -> None:
    zones = state.subs.setdefault(power, {})
    zones[sz] = zones.get(sz, 0) + n
    if zones[sz] == 0:
        del zones[sz]


def evolve(state: State, e: Event) -> State:
    if isinstance(e, ev.PhaseBegan):
        state.phase = e.phase
        state.turn = TURN_ORDER.index(e.power)
        state.round = e.round
        if e.phase == "purchase":
            state.used = {}
        if e.phase == "combat":
            state.combat_step = 1
    elif isinstance(e, ev.RoundBegan):
        state.round = e.round
        state.round_damage = {}
        state.sheet.append(new_round_sheet())
    elif isinstance(e, ev.ChipsRemoved):
        for z in e.zones:
            state.chips.pop(z.sz, None)
    elif isinstance(e, ev.PurchaseMade):
        state.treasury[e.power] = e.treasury
        state.line(e.power).spent += e.spent
    elif isinstance(e, ev.SubmarinesMoved):
        _add_subs(state, e.power, e.from_sz, -e.count)
        _add_subs(state, e.power, e.to_sz, e.count)
        state.used.setdefault(e.to_sz, SubsUsed()).moved += e.count
    elif isinstance(e, ev.SubmarinesPlaced):
        _add_subs(state, e.power, e.sz, e.count)
        state.line(e.power).submarines_placed += e.count
    elif isinstance(e, ev.SubmarinesFought):
        _use_for_combat(state, e.sz, e.count, "fought")
        state.combat_step = 3
    elif isinstance(e, ev.SubmarinesLost):
        if e.power == state.power:
            state.used.setdefault(e.sz, SubsUsed()).take_losses(state.fresh(e.sz), e.count)
        _add_subs(state, e.power, e.sz, -e.count)
        state.line(e.power).submarines_lost += e.count
        state.combat_step = 3
    elif isinstance(e, ev.ConvoyRaided):
        _use_for_combat(state, e.sz, 1, "raided")
        state.round_damage[e.sz] = state.round_damage.get(e.sz, 0) + e.damage
        state.chips[e.sz] = state.chips.get(e.sz, 0) + e.damage
        state.treasury[e.owner] = e.treasury
        state.line(e.owner).raid_damage_suffered += e.damage
        state.line(e.owner).raid_ipcs_lost += e.removed
        state.line(e.raider).raid_damage_inflicted += e.damage
        state.line(e.raider).raids += 1
    elif isinstance(e, ev.TerritoryCaptured):
        state.control[e.territory] = e.by
        state.treasury[e.from_power] -= e.plundered
        state.treasury[e.by] += e.plundered
        state.line(e.by).captured.append(e.territory)
        state.line(e.from_power).lost.append(e.territory)
        state.inactive = inactive_zones(state, state.control)
        state.combat_step = 3
    elif isinstance(e, ev.TerritoryLiberated):
        state.control[e.territory] = e.to_power
        state.line(e.by).liberated.append(e.territory)
        state.line(e.from_power).lost.append(e.territory)
        state.inactive = inactive_zones(state, state.control)
        state.combat_step = 3
    elif isinstance(e, ev.IncomeCollected):
        state.treasury[e.power] = e.treasury
        state.line(e.power).income += e.income
    elif isinstance(e, GameEnded):
        state.over = True
    return state


def _use_for_combat(state: State, sz: int, n: int, as_: str) -> None:
    """A raid or fight uses subs that moved in first, then fresh ones (so fresh ones keep their noncombat move)."""
    used = state.used.setdefault(sz, SubsUsed())
    from_moved = min(n, used.moved)
    used.moved -= from_moved
    setattr(used, as_, getattr(used, as_) + n)
