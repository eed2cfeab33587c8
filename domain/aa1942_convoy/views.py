"""What players read (AA-R4): the IPC ledger per power, the convoy-zone status board, the campaign sheet and the
map. Every view is public (the ledger keeps nothing hidden) and returns a typed model (`View.model`), the schema a
frontend is generated from."""

from __future__ import annotations

from dataclasses import astuple, fields
from typing import Literal

import msgspec

from domain.aa1942_convoy.rules.turn import income_of
from domain.aa1942_convoy.sheet import PowerRound, Sheet
from domain.aa1942_convoy.state import CONVOY_ZONES, SIDE, TURN_ORDER, ZONE_VALUE, State, open_canals
from domain.digest import core_line, count, listed
from domain.engine import Reader, View
from events import aa1942_convoy as ev
from events.aa1942_convoy import Phase, Power
from events.vocabulary import Event

Side = Literal["Axis", "Allies"]


class Model(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    pass


class Now(Model):
    round: int
    power: Power
    phase: Phase
    over: bool


def _now(state: State) -> Now:
    return Now(round=state.round, power=state.power, phase=state.phase, over=state.over)


# ---- ipc-ledger -------------------------------------------------------------------------------------


class Money(Model):
    income: int
    spent: int
    raid_damage_suffered: int
    raid_ipcs_lost: int  # what actually left the treasury (never below 0)
    raid_damage_inflicted: int
    raids: int


class RoundMoney(Money):
    round: int


class PowerLedger(Model):
    power: Power
    side: Side
    seat: str
    treasury: int
    income_now: int
    holds_capital: bool
    convoy_zones: list[int]
    rounds: list[RoundMoney]
    totals: Money


class IpcLedger(Model):
    now: Now
    powers: list[PowerLedger]


MONEY = tuple(f for f in Money.__struct_fields__)


def ipc_ledger(state: State, reader: Reader, sheet: Sheet) -> IpcLedger:
    powers = []
    for p in TURN_ORDER:
        rounds = [RoundMoney(round=i + 1, **{k: getattr(lines[p], k) for k in MONEY}) for i, lines in enumerate(sheet)]
        powers.append(
            PowerLedger(
                power=p,
                side=SIDE[p],
                seat=state.seat_of[p],
                treasury=state.treasury[p],
                income_now=income_of(state, p),
                holds_capital=state.holds_capital(p),
                convoy_zones=sorted(sz for sz, o in CONVOY_ZONES.items() if o == p),
                rounds=rounds,
                totals=Money(**{k: sum(getattr(r, k) for r in rounds) for k in MONEY}),
            )
        )
    return IpcLedger(now=_now(state), powers=powers)


# ---- sz-status ----------------------------------------------------------------------------------------


class ZoneStatus(Model):
    sz: int
    owner: Power
    value: int
    active: bool
    lost_territories: list[str]  # the owner's originals on the zone held by others (AA-4)
    chips: int  # AA-11, AA-R5: chips under the marker, removed in the owner's Purchase & Repair
    cap_left: int  # AA-R5: what a raid may still do here; chips + cap_left = value
    submarines: dict[Power, int]


class ZoneSubmarines(Model):
    sz: int
    submarines: dict[Power, int]


class SzStatus(Model):
    now: Now
    convoy_zones: list[ZoneStatus]
    other_zones_with_submarines: list[ZoneSubmarines]


def _subs_in(state: State, sz: int) -> dict[str, int]:
    return {p: n for p in TURN_ORDER if (n := state.subs_in(p, sz))}


def sz_status(state: State, reader: Reader = None) -> SzStatus:
    zones = [
        ZoneStatus(
            sz=sz,
            owner=owner,
            value=ZONE_VALUE,
            active=sz not in state.inactive,
            lost_territories=state.inactive.get(sz, []),
            chips=state.chips.get(sz, 0),
            cap_left=state.cap_left(sz),
            submarines=_subs_in(state, sz),
        )
        for sz, owner in sorted(CONVOY_ZONES.items())
    ]
    elsewhere = sorted({sz for zs in state.subs.values() for sz in zs if sz not in CONVOY_ZONES})
    return SzStatus(
        now=_now(state),
        convoy_zones=zones,
        other_zones_with_submarines=[ZoneSubmarines(sz=sz, submarines=_subs_in(state, sz)) for sz in elsewhere],
    )


# ---- campaign-sheet -------------------------------------------------------------------------------------


class PowerLine(Money):
    power: Power
    captured: list[str]
    liberated: list[str]
    returned: list[str]  # AA-R14: given back by its allies when its capital was freed
    lost: list[str]
    submarines_placed: int
    submarines_lost: int


class SheetRound(Model):
    round: int
    powers: list[PowerLine]


class Occupied(Model):
    territory: str
    original_owner: Power
    held_by: Power


class CampaignSheet(Model):
    now: Now
    rounds: list[SheetRound]
    occupied: list[Occupied]


_LINE = tuple(f.name for f in fields(PowerRound))


def campaign_sheet(state: State, reader: Reader, sheet: Sheet) -> CampaignSheet:
    occupied = [
        Occupied(territory=t, original_owner=land.original_owner, held_by=state.control[t])
        for t, land in sorted(state.map.land_territories.items())
        if land.original_owner and state.control.get(t) != land.original_owner
    ]
    rounds = [
        SheetRound(
            round=i + 1,
            powers=[
                PowerLine(
                    power=p, **{k: list(v) if isinstance(v, list) else v for k, v in zip(_LINE, astuple(lines[p]))}
                )
                for p in TURN_ORDER
            ],
        )
        for i, lines in enumerate(sheet)
    ]
    return CampaignSheet(now=_now(state), rounds=rounds, occupied=occupied)


# ---- map ------------------------------------------------------------------------------------------------


class MapSeaZone(Model):
    sz: int
    convoy_owner: Power | None  # AA-1: the power whose convoy zone it is
    bordering_land: list[str]
    adjacent_sea_zones: list[int]  # canal borders included: see `canals` for when they may be passed


class MapCanal(Model):
    name: str
    sea_zones: list[int]
    territories: list[str]
    held_by: Side | None  # the side holding all its territories now, if one does
    open_this_turn: bool  # AA-R15: the acting side held them all when its turn began
    source: str


class MapTerritory(Model):
    name: str
    original_owner: Power | None  # None: neutral, impassable
    held_by: Power | None
    ipc: int


class MapView(Model):
    now: Now
    sea_zones: list[MapSeaZone]
    canals: list[MapCanal]
    territories: list[MapTerritory]


def map_view(state: State, reader: Reader = None) -> MapView:
    m = state.map
    held = {side: open_canals(state, power) for power, side in ((p, SIDE[p]) for p in ("Germany", "UK"))}
    return MapView(
        now=_now(state),
        sea_zones=[
            MapSeaZone(
                sz=int(sz),
                convoy_owner=CONVOY_ZONES.get(int(sz)),
                bordering_land=list(z.bordering_land),
                adjacent_sea_zones=sorted(z.adjacent_sea_zones),
            )
            for sz, z in sorted(m.sea_zones.items(), key=lambda i: int(i[0]))
        ],
        canals=[
            MapCanal(
                name=cn.name,
                sea_zones=list(cn.sea_zones),
                territories=list(cn.territories),
                held_by=next((side for side, names in held.items() if cn.name in names), None),
                open_this_turn=cn.name in state.canals_open,
                source=cn.source,
            )
            for cn in m.canals
        ],
        territories=[
            MapTerritory(name=t, original_owner=land.original_owner, held_by=state.control.get(t), ipc=land.ipc)
            for t, land in sorted(m.land_territories.items())
        ],
    )


VIEWS = {
    "ipc-ledger": View(
        ipc_ledger,
        IpcLedger,
        description="Per power: treasury, income now, and per round income, spending and raid damage (AA-R4).",
        history=True,
    ),
    "sz-status": View(
        sz_status,
        SzStatus,
        description="Per convoy zone: owner, active or face down, chips and cap left (summing to 4), submarines.",
    ),
    "campaign-sheet": View(
        campaign_sheet,
        CampaignSheet,
        description="Round by round, every power's line of the campaign sheet, and the occupied territories.",
        history=True,
    ),
    "map": View(
        map_view,
        MapView,
        description="The 1942.2 map: sea zones with their neighbours and borders, the canals and who may pass them, "
        "every territory with its holder.",
    ),
}


# ---- the digest ---------------------------------------------------------------------------------------------


def _ipcs(n: int) -> str:
    return f"{n} IPC" if n == 1 else f"{n} IPCs"


def _subs(n: int) -> str:
    return count(n, "submarine")


def digest(before: State, events: list[Event], reader: Reader = None) -> list[str]:
    """What happened, a line per meaningful event (docs/api.md "Since my last turn"). The ledger hides nothing
    (AA-R4), so every reader reads the same lines."""
    lines = []
    for e in events:
        line = _line(e, before)
        if line:
            lines.append(line)
    return lines


def _line(e: Event, before: State) -> str | None:
    if isinstance(e, ev.RoundBegan):
        return f"Round {e.round} began"
    if isinstance(e, ev.ConvoyRaided):
        # as the roll's outcome says it from 6.0.0 (AA-E6-1): "cap left 1" read as what is left after the raid
        left = f"{e.cap_left} left before this raid, {e.cap_left - e.damage} after"
        cut = f" (rolled {e.rolled}, cut by the zone's cap: {left})" if e.damage < e.rolled else ""
        lost = (
            f"{e.owner} lost {_ipcs(e.removed)}"
            if e.removed == e.damage
            else f"{e.owner} lost only {_ipcs(e.removed)}, all its treasury held"
        )
        return (
            f"{e.raider}'s submarine raided {e.owner}'s convoy in sea zone {e.sz}: {_ipcs(e.damage)} of damage{cut}; "
            f"{lost} (treasury {e.treasury})"
        )
    if isinstance(e, ev.SubmarinesLost):
        return f"{e.power} lost {_subs(e.count)} in sea zone {e.sz}"
    if isinstance(e, ev.SubmarinesPlaced):
        return f"{e.power} placed {_subs(e.count)} in sea zone {e.sz}"
    if isinstance(e, ev.SubmarinesMoved):
        return f"{e.power} moved {_subs(e.count)} from sea zone {e.from_sz} to sea zone {e.to_sz}"
    if isinstance(e, ev.SubmarinesFought):
        return f"{e.power} sent {_subs(e.count)} in sea zone {e.sz} into general combat instead of raiding"
    if isinstance(e, ev.SubmarinesRetreated):
        return f"{e.power} retreated {_subs(e.count)} that fought in sea zone {e.from_sz} to sea zone {e.to_sz}"
    if isinstance(e, ev.PurchaseMade) and e.spent:
        return f"{e.power} spent {_ipcs(e.spent)} (treasury {e.treasury})"
    if isinstance(e, ev.IncomeCollected):
        return f"{e.power} collected {_ipcs(e.income)} (treasury {e.treasury})"
    if isinstance(e, ev.ChipsRemoved) and e.zones:
        zones = listed([f"{z.chips} off sea zone {z.sz}" for z in e.zones])
        return f"{e.power} repaired its convoys: raid chips {zones}"
    if isinstance(e, ev.TerritoryCaptured):
        plunder = f", taking {_ipcs(e.plundered)} from its treasury" if e.plundered else ""
        return f"{e.by} captured {e.territory} from {e.from_power}{plunder}"
    if isinstance(e, ev.TerritoryLiberated):
        original = before.map.land_territories[e.territory].original_owner
        if e.to_power != original:  # AA-R7: its owner's capital is in enemy hands
            return f"{e.by} liberated {e.territory} from {e.from_power} and holds it while {original}'s capital is lost"
        return f"{e.by} liberated {e.territory} from {e.from_power}: it is {e.to_power}'s again"
    if isinstance(e, ev.TerritoriesReturned) and e.territories:
        back = listed([t.territory for t in e.territories])
        return f"{e.power} regained {e.capital}; its allies gave back {back}"
    if isinstance(e, ev.ConvoyZoneDeactivated):
        return f"{e.owner}'s convoy zone {e.sz} is inactive while others hold {listed(list(e.lost))}"
    if isinstance(e, ev.ConvoyZoneReactivated):
        return f"{e.owner}'s convoy zone {e.sz} is active again"
    return core_line(e, str, {})
