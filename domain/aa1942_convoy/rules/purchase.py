"""Purchase & Repair (AA-3, AA-11, AA-R7)."""

from __future__ import annotations

from domain.aa1942_convoy.state import CONVOY_ZONES, State
from domain.engine import IllegalCommand
from events.aa1942_convoy import ChipsRemoved, PhaseBegan, PurchaseMade, ZoneChips
from events.vocabulary import Event


def chips_removed(state: State, power: str) -> ChipsRemoved | None:
    """AA-11: the chips under a power's convoy markers are removed when it pays, step 2 of its Purchase & Repair
    ("Pay for Units and Repair Damaged Units"); until then they stay, while it chooses its purchase (step 1)."""
    zones = [ZoneChips(sz=sz, chips=n) for sz, n in sorted(state.chips.items()) if n and CONVOY_ZONES[sz] == power]
    return ChipsRemoved(power=power, zones=zones) if zones else None


def max_spend(state: State) -> int:
    """AA-R7: a power whose capital is held by the enemy cannot spend."""
    return state.treasury[state.power] if state.holds_capital(state.power) else 0


def purchase(state: State, spend: int) -> list[Event]:
    top = max_spend(state)
    if spend > top:
        why = "its capital is in enemy hands, AA-R7" if not state.holds_capital(state.power) else "its treasury, AA-3"
        raise IllegalCommand(f"{state.power} can spend at most {top} IPCs ({why})")
    power = state.power
    removed = chips_removed(state, power)
    return [
        PurchaseMade(power=power, spent=spend, treasury=state.treasury[power] - spend),
        *([removed] if removed else []),
        PhaseBegan(round=state.round, power=power, phase="combat-move"),
    ]
