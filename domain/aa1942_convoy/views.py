"""What players read: the IPC ledger per power, the convoy-zone status board, the campaign sheet (AA-R4)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from domain.engine import View

from domain.aa1942_convoy.rules.turn import income_of
from domain.aa1942_convoy.state import CONVOY_ZONES, SIDE, TURN_ORDER, ZONE_VALUE, State


def _now(state: State) -> dict[str, Any]:
    return {"round": state.round, "power": state.power, "phase": state.phase, "over": state.over}


def ipc_ledger(state: State) -> dict[str, Any]:
    powers = []
    for p in TURN_ORDER:
        rounds = [{"round": i + 1, **_money(sheet[p])} for i, sheet in enumerate(state.sheet)]
        powers.append(
            {
                "power": p,
                "side": SIDE[p],
                "seat": state.seat_of[p],
                "treasury": state.treasury[p],
                "income_now": income_of(state, p),
                "holds_capital": state.holds_capital(p),
                "convoy_zones": sorted(sz for sz, o in CONVOY_ZONES.items() if o == p),
                "rounds": rounds,
                "totals": {k: sum(r[k] for r in rounds) for k in rounds[0] if k != "round"},
            }
        )
    return {"now": _now(state), "powers": powers}


def _money(line) -> dict[str, int]:
    return {
        "income": line.income,
        "spent": line.spent,
        "raid_damage_suffered": line.raid_damage_suffered,
        "raid_ipcs_lost": line.raid_ipcs_lost,
        "raid_damage_inflicted": line.raid_damage_inflicted,
        "raids": line.raids,
    }


def sz_status(state: State) -> dict[str, Any]:
    zones = []
    for sz, owner in sorted(CONVOY_ZONES.items()):
        damage = state.round_damage.get(sz, 0)
        zones.append(
            {
                "sz": sz,
                "owner": owner,
                "value": ZONE_VALUE,
                "active": sz not in state.inactive,
                "lost_territories": state.inactive.get(sz, []),
                "chips": state.chips.get(sz, 0),
                "damage_this_round": damage,
                "cap_left": ZONE_VALUE - damage,
                "submarines": {p: n for p in TURN_ORDER if (n := state.subs_in(p, sz))},
            }
        )
    elsewhere = [
        {"sz": sz, "submarines": {p: state.subs_in(p, sz) for p in TURN_ORDER if state.subs_in(p, sz)}}
        for sz in sorted({sz for zs in state.subs.values() for sz in zs if sz not in CONVOY_ZONES})
    ]
    return {"now": _now(state), "convoy_zones": zones, "other_zones_with_submarines": elsewhere}


def campaign_sheet(state: State) -> dict[str, Any]:
    occupied = [
        {"territory": t, "original_owner": land.original_owner, "held_by": state.control[t]}
        for t, land in sorted(state.map.land_territories.items())
        if land.original_owner and state.control.get(t) != land.original_owner
    ]
    return {
        "now": _now(state),
        "rounds": [
            {"round": i + 1, "powers": [{"power": p, **asdict(sheet[p])} for p in TURN_ORDER]}
            for i, sheet in enumerate(state.sheet)
        ],
        "occupied": occupied,
    }


VIEWS = {
    "ipc-ledger": View(lambda s, reader, f=ipc_ledger: f(s)),
    "sz-status": View(lambda s, reader, f=sz_status: f(s)),
    "campaign-sheet": View(lambda s, reader, f=campaign_sheet: f(s)),
}
