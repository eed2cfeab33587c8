"""The only code that changes the ledger's state: one handler per event type, each applying what its event says, and
the events that change nothing (domain.procedure.fold). Checks belong to decide: a stored event is never refused here."""

from __future__ import annotations

from domain.aa1942_convoy.state import TURN_ORDER, State, SubsUsed, inactive_zones, open_canals
from domain.procedure import Handler, fold
from events import aa1942_convoy as ev
from events.core import DiceRolled, GameEnded
from events.vocabulary import Event

# ---- one handler per event type; each applies what its event says ---------------------------------------


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
    state.spent, state.placed = {}, {}


def _chips_removed(state: State, e: ev.ChipsRemoved) -> None:
    for z in e.zones:
        state.chips.pop(z.sz, None)


def _purchase_made(state: State, e: ev.PurchaseMade) -> None:
    state.treasury[e.power] = e.treasury
    state.spent[e.power] = state.spent.get(e.power, 0) + e.spent


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
    state.placed[e.power] = state.placed.get(e.power, 0) + e.count


def _use_for_combat(state: State, sz: int, n: int, as_: str) -> None:
    """A raid or fight uses subs that moved in first, then fresh ones (so fresh ones keep their noncombat move)."""
    used = state.used.setdefault(sz, SubsUsed())
    used.moved -= min(n, used.moved)
    setattr(used, as_, getattr(used, as_) + n)


def _submarines_fought(state: State, e: ev.SubmarinesFought) -> None:
    _use_for_combat(state, e.sz, e.count, "fought")
    state.combat_step = 3


def _submarines_retreated(state: State, e: ev.SubmarinesRetreated) -> None:
    """AA-R18: they leave the battle zone's fought and are done for the turn in the zone they retreated to."""
    state.used[e.from_sz].fought -= e.count
    state.used.setdefault(e.to_sz, SubsUsed()).retreated += e.count
    _add_subs(state, e.power, e.from_sz, -e.count)
    _add_subs(state, e.power, e.to_sz, e.count)


def _submarines_lost(state: State, e: ev.SubmarinesLost) -> None:
    if e.power == state.power:
        state.used.setdefault(e.sz, SubsUsed()).take_losses(state.fresh(e.sz), e.count)
    _add_subs(state, e.power, e.sz, -e.count)
    state.combat_step = 3


def _convoy_raided(state: State, e: ev.ConvoyRaided) -> None:
    _use_for_combat(state, e.sz, 1, "raided")
    state.chips[e.sz] = state.chips.get(e.sz, 0) + e.damage
    state.treasury[e.owner] = e.treasury
    state.raid_damage_suffered[e.owner] = state.raid_damage_suffered.get(e.owner, 0) + e.damage


def _territory_captured(state: State, e: ev.TerritoryCaptured) -> None:
    state.control[e.territory] = e.by
    state.treasury[e.from_power] -= e.plundered
    state.treasury[e.by] += e.plundered
    state.inactive = inactive_zones(state, state.control)
    state.combat_step = 3


def _territory_liberated(state: State, e: ev.TerritoryLiberated) -> None:
    state.control[e.territory] = e.to_power
    state.inactive = inactive_zones(state, state.control)
    state.combat_step = 3


def _territories_returned(state: State, e: ev.TerritoriesReturned) -> None:
    for r in e.territories:
        state.control[r.territory] = e.power
    state.inactive = inactive_zones(state, state.control)


def _income_collected(state: State, e: ev.IncomeCollected) -> None:
    state.treasury[e.power] = e.treasury


HANDLERS: dict[type[Event], Handler[State]] = {
    ev.PhaseBegan: _phase_began,
    ev.RoundBegan: _round_began,
    ev.ChipsRemoved: _chips_removed,
    ev.PurchaseMade: _purchase_made,
    ev.SubmarinesMoved: _submarines_moved,
    ev.SubmarinesPlaced: _submarines_placed,
    ev.SubmarinesFought: _submarines_fought,
    ev.SubmarinesRetreated: _submarines_retreated,
    ev.SubmarinesLost: _submarines_lost,
    ev.ConvoyRaided: _convoy_raided,
    ev.TerritoryCaptured: _territory_captured,
    ev.TerritoryLiberated: _territory_liberated,
    ev.TerritoriesReturned: _territories_returned,
    ev.IncomeCollected: _income_collected,
}
# The zone markers follow control, which the territory events change (AA-4); the core's events are the fold's.
NO_STATE_CHANGE: tuple[type[Event], ...] = (ev.ConvoyZoneDeactivated, ev.ConvoyZoneReactivated)


# The fields of the state each event's handler may write: the kept `awaiting` entries that read none of them survive
# it (awaiting.READS, domain/procedure.py `Fold`); a type not named here drops them all.
WRITES: dict[type[Event], frozenset[str]] = {
    ev.PhaseBegan: frozenset({"phase", "turn", "round", "used", "canals_open", "combat_step"}),
    ev.RoundBegan: frozenset({"round", "spent", "placed"}),
    ev.ChipsRemoved: frozenset({"chips"}),
    ev.PurchaseMade: frozenset({"treasury", "spent"}),
    ev.SubmarinesMoved: frozenset({"subs", "used"}),
    ev.SubmarinesPlaced: frozenset({"subs", "placed"}),
    ev.SubmarinesFought: frozenset({"used", "combat_step"}),
    ev.SubmarinesRetreated: frozenset({"subs", "used"}),
    ev.SubmarinesLost: frozenset({"used", "subs", "combat_step"}),
    ev.ConvoyRaided: frozenset({"used", "chips", "treasury", "raid_damage_suffered"}),
    ev.TerritoryCaptured: frozenset({"control", "treasury", "inactive", "combat_step"}),
    ev.TerritoryLiberated: frozenset({"control", "inactive", "combat_step"}),
    ev.TerritoriesReturned: frozenset({"control", "inactive"}),
    ev.IncomeCollected: frozenset({"treasury"}),
    ev.ConvoyZoneDeactivated: frozenset(),
    ev.ConvoyZoneReactivated: frozenset(),
    DiceRolled: frozenset(),  # a raid's die: the core's, changing no field of the ledger
    GameEnded: frozenset({"over"}),
}

evolve = fold(HANDLERS, NO_STATE_CHANGE, __name__, WRITES)
