"""Territory control: capture and liberation (AA-R7), liberated capitals (AA-R14), convoy-zone deactivation (AA-4)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.aa1942_convoy.state import CAPITALS, CONVOY_ZONES, SIDE, State, inactive_zones
from domain.engine import IllegalCommand
from events.aa1942_convoy import (
    ConvoyZoneDeactivated,
    ConvoyZoneReactivated,
    ReturnedTerritory,
    TerritoriesReturned,
    TerritoryCaptured,
    TerritoryLiberated,
)
from events.vocabulary import Event


def zone_changes(state: State, control: dict[str, str | None]) -> list[Event]:
    """AA-4: flip the marker of every convoy zone whose status the new control changes."""
    now = inactive_zones(state, control)
    events: list[Event] = []
    for sz in sorted(CONVOY_ZONES):
        if sz in now and sz not in state.inactive:
            events.append(ConvoyZoneDeactivated(sz=sz, owner=CONVOY_ZONES[sz], lost=now[sz]))
        elif sz in state.inactive and sz not in now:
            events.append(ConvoyZoneReactivated(sz=sz, owner=CONVOY_ZONES[sz]))
    return events


def _enemy_held(state: State, territory: str) -> bool:
    holder = state.control.get(territory)
    return holder is not None and SIDE[holder] != SIDE[state.power]


def _enemy_held_of(state: State, ours: bool) -> Iterator[dict]:
    """Enemy-held territories whose original owner is on our side (to liberate) or the enemy's (to capture)."""
    side = SIDE[state.power]
    for t, holder in sorted(state.control.items()):
        if holder is None or SIDE[holder] == side:
            continue
        owner = state.map.land_territories[t].original_owner
        if owner and (SIDE[owner] == side) == ours:
            yield {"territory": t}


def legal_captures(state: State) -> list[dict]:
    return list(_enemy_held_of(state, ours=False))


def legal_liberations(state: State) -> list[dict]:
    return list(_enemy_held_of(state, ours=True))


def any_capture(state: State) -> Iterator[dict]:
    return _enemy_held_of(state, ours=False)


def any_liberation(state: State) -> Iterator[dict]:
    return _enemy_held_of(state, ours=True)


def _check(state: State, territory: str, legal: list[dict], verb: str) -> str | None:
    if {"territory": territory} not in legal:
        land = state.map.land_territories.get(territory)
        if land is None:
            why = "is not a land territory of the 1942.2 map (AA-R7)"
        elif land.original_owner is None:
            why = "is neutral (impassable in 1942.2; AA-R7)"
        elif not _enemy_held(state, territory):
            why = f"is held by {state.control.get(territory)}, not by the enemy (AA-R7)"
        else:
            why = f"was originally {land.original_owner}'s: use {'liberate' if verb == 'capture' else 'capture'} (AA-R7)"
        raise IllegalCommand(f"{state.power} cannot {verb} {territory!r}: it {why}")
    return state.control[territory]


def capture(state: State, territory: str) -> list[Event]:
    """AA-R7: the capturer holds it; taking a capital takes that power's treasury (A&A 1942.2)."""
    loser = _check(state, territory, legal_captures(state), "capture")
    plundered = state.treasury[loser] if CAPITALS[loser] == territory else 0
    control = state.control | {territory: state.power}
    ev = TerritoryCaptured(territory=territory, by=state.power, from_power=loser, plundered=plundered)
    return [ev, *zone_changes(state, control)]


def liberate(state: State, territory: str) -> list[Event]:
    """AA-R7: it returns to its original owner if that power holds its capital (or it is the capital); else the
    liberator holds it. AA-R14: a power that regains its capital regains its originals its allies hold."""
    loser = _check(state, territory, legal_liberations(state), "liberate")
    original = state.map.land_territories[territory].original_owner
    capital = territory == CAPITALS[original]
    to = original if (original == state.power or capital or state.holds_capital(original)) else state.power
    control = state.control | {territory: to}
    events: list[Event] = [TerritoryLiberated(territory=territory, by=state.power, from_power=loser, to_power=to)]
    if capital:
        returned = capital_regained(state, original, control)
        if returned is not None:
            events.append(returned)
            control |= {r.territory: original for r in returned.territories}
    return events + zone_changes(state, control)


def capital_regained(state: State, power: str, control: dict[str, str | None]) -> TerritoriesReturned | None:
    """AA-R14 (A&A 1942.2, as TripleA plays it): when a power regains its capital, its original territories
    held by its allies return to it."""
    back = [
        ReturnedTerritory(territory=t, from_power=holder)
        for t, land in sorted(state.map.land_territories.items())
        if land.original_owner == power
        and (holder := control.get(t)) is not None
        and holder != power
        and SIDE[holder] == SIDE[power]
    ]
    return TerritoriesReturned(power=power, capital=CAPITALS[power], territories=back) if back else None
