"""Convoy disruption (AA-5..AA-10, rulings AA-R1..AA-R3, AA-R5, AA-R6)."""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from domain.aa1942_convoy.state import CONVOY_ZONES, SIDE, ZONE_VALUE, State
from domain.dice import Dice
from domain.engine import IllegalCommand
from events.aa1942_convoy import ConvoyRaided
from events.core import RollModifier, RollResult
from events.vocabulary import Event

RULE = "AA:National Convoy Disruption/Conduct Combat step 1 (AA-8)"
AFTER = "AA-E6-1"  # the edition change whose roll outcome gives the cap after the raid too (6.0.0)


def raid_value(face: int) -> int:
    """AA-8: 1d6, 1-3 -> that many IPCs, 4-6 -> 0; then +1. So 1..4."""
    return (face if face <= 3 else 0) + 1


def why_not_raid(state: State, sz: int) -> str | None:
    """AA-R1 (with AA-4, AA-5): the reason a raid on sz is illegal now, or None."""
    owner = CONVOY_ZONES.get(sz)
    power = state.power
    if owner is None:
        return f"sea zone {sz} is not a convoy zone (AA-1)"
    if SIDE[owner] == SIDE[power]:
        return f"sea zone {sz} belongs to {owner}, not to the enemy (AA-R1)"
    if sz in state.inactive:
        return f"sea zone {sz} is deactivated ({', '.join(state.inactive[sz])} held by others; AA-4)"
    if state.may_raid_with(sz) <= 0:
        return f"{power} has no submarine in sea zone {sz} that has neither raided nor fought (AA-5, AA-R1)"
    if state.combat_step != 1:
        return "raids happen in combat step 1, and general combat has begun (AA-5, AA-R13)"
    return None


def legal_raids(state: State) -> Iterator[dict]:
    """The zones where a raid is legal now: only a zone with a submarine of the acting power can be one."""
    return ({"sz": sz} for sz in sorted(state.subs.get(state.power, {})) if why_not_raid(state, sz) is None)


def raid(state: State, sz: int, dice: Dice) -> list[Event]:
    why = why_not_raid(state, sz)
    if why:
        raise IllegalCommand(f"no raid on sea zone {sz}: {why}")
    owner = CONVOY_ZONES[sz]
    roll = dice.roll([6], "convoy-raid", RULE)
    rolled = raid_value(roll.faces[0])
    cap_left = state.cap_left(sz)  # AA-9 as revised by AA-R5: what the zone's chips leave of 4
    damage = min(rolled, cap_left)  # AA-R2
    removed = min(damage, state.treasury[owner])  # AA-10, AA-R3
    # AA-E6-1: the cap before this raid, which cut it, and after it (5.0.0 and earlier: the first alone)
    left = f"{cap_left} left" + (f" before this raid, {cap_left - damage} after" if state.edition.has(AFTER) else "")
    result = RollResult(
        outcome=(
            f"{rolled} IPC rolled ({'1-3 count as rolled' if roll.faces[0] <= 3 else '4-6 count 0'}, +1); "
            f"{damage} within the cap of {ZONE_VALUE} chips a zone holds ({left}); {removed} removed from {owner}"
        ),
        total=rolled,
        modifiers=[RollModifier(reason="every raid does 1 more (AA-8)", value=1, side="roll")],
    )
    return [
        replace(roll, result=result),
        ConvoyRaided(
            raider=state.power,
            sz=sz,
            owner=owner,
            roll_k=roll.k,
            rolled=rolled,
            cap_left=cap_left,
            damage=damage,
            removed=removed,
            treasury=state.treasury[owner] - removed,
        ),
    ]
