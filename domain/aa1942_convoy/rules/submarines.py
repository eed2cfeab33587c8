"""Submarines per sea zone: movement (AA-R8, canals AA-R15), placement (AA-R9, bounded by AA-R17), commitment to
combat (AA-5), retreat (AA-R18, from 5.0.0), losses (AA-R10)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.aa1942_convoy.commands import MAX_COUNT
from domain.aa1942_convoy.state import NO_SUBS, SIDE, TURN_ORDER, State
from domain.engine import IllegalCommand
from events.aa1942_convoy import (
    SubmarinesFought,
    SubmarinesLost,
    SubmarinesMoved,
    SubmarinesPlaced,
    SubmarinesRetreated,
)
from events.vocabulary import Event

SUBMARINE_MOVE = 2
SUBMARINE_COST = 6  # IPCs: "6 IPCs Submarines" (the text's unit figures; AA-R17)


def sea_distances(
    state: State, start: int, limit: int = SUBMARINE_MOVE, canals: list[str] | None = None
) -> dict[int, int]:
    """AA-R8, AA-R15: breadth-first over sea-zone adjacency: zone -> distance, up to `limit`. A canal's border is
    passed only if the canal is open (by default: to the side that held its territories when its turn began)."""
    open_ = state.canals_open if canals is None else canals
    dist = {start: 0}
    frontier = [start]
    for d in range(1, limit + 1):
        nxt = []
        for sz in frontier:
            for other in state.map.sea_zones[str(sz)].adjacent_sea_zones:
                canal = state.map.canal_between(sz, other)
                if other not in dist and (canal is None or canal.name in open_):
                    dist[other] = d
                    nxt.append(other)
        frontier = nxt
    return dist


def movable(state: State, sz: int) -> int:
    """AA-R8: combat move moves unmoved subs; noncombat move only subs that neither moved, raided nor fought (nor, from
    5.0.0, retreated: AA-R18)."""
    return state.fresh(sz)


def move_origins(state: State) -> Iterator[tuple[int, int, dict[int, int]]]:
    """Each zone with submarines free to move: (zone, how many, {reachable zone: distance})."""
    for sz in sorted(state.subs.get(state.power, {})):
        n = movable(state, sz)
        if n > 0:
            reach = {to: d for to, d in sorted(sea_distances(state, sz).items()) if d > 0}
            if reach:
                yield sz, n, reach


def counts(n: int) -> range:
    """The counts one command may send for n submarines: a zone may hold more than a command's MAX_COUNT."""
    return range(1, min(n, MAX_COUNT) + 1)


def legal_moves(state: State) -> Iterator[dict]:
    """Generators, so that `awaiting` stops after the 65 it needs to know there are too many to list."""
    for sz, n, reach in move_origins(state):
        for to in reach:
            yield from ({"from_sz": sz, "to_sz": to, "count": c} for c in counts(n))


def move(state: State, from_sz: int, to_sz: int, count: int) -> list[Event]:
    n = movable(state, from_sz)
    if count > n:
        raise IllegalCommand(
            f"{state.power} has {n} submarine(s) in sea zone {from_sz} free to move (subs that moved, raided"
            f"{', fought or retreated' if state.edition.has(RETREAT) else ' or fought'} this turn stay; AA-7, AA-R8)"
        )
    d = sea_distances(state, from_sz).get(to_sz)
    if not d:
        raise IllegalCommand(
            f"sea zone {to_sz} is not within {SUBMARINE_MOVE} moves of sea zone {from_sz} (AA-R8)"
            + _closed_canal(state, from_sz, to_sz)
        )
    return [SubmarinesMoved(power=state.power, from_sz=from_sz, to_sz=to_sz, count=count, distance=d)]


def _closed_canal(state: State, from_sz: int, to_sz: int, limit: int = SUBMARINE_MOVE) -> str:
    """Why a move is short, where a canal closed to the mover is what stops it (AA-R15); never for a zone to itself."""
    if to_sz == from_sz:
        return ""
    for canal in state.map.canals:
        if canal.name not in state.canals_open and to_sz in sea_distances(
            state, from_sz, limit, canals=[*state.canals_open, canal.name]
        ):
            return (
                f": the {canal.name} is closed to {SIDE[state.power]} this turn (it did not hold "
                f"{' and '.join(canal.territories)} when the turn began; AA-R15)"
            )
    return ""


def bought(state: State) -> int:
    """AA-R17: the submarines the acting power's spending in this turn's Purchase & Repair pays for, at 6 IPCs each
    (`State.spent`: what it spent this round, and a power buys once a round)."""
    return state.spent.get(state.power, 0) // SUBMARINE_COST


def place_left(state: State) -> int | None:
    """AA-R17 (4.0.0, AA-E4-2): how many more submarines the acting power may place in this mobilize phase, what its
    spending bought less what it placed; None: no bound (3.0.0: the ledger took the player's word for the number)."""
    if not state.edition.has("AA-E4-2"):
        return None
    return max(0, bought(state) - state.placed.get(state.power, 0))


def why_not_place(state: State, count: int) -> str | None:
    """AA-R9, AA-R17: the reason `count` new submarines may not be placed now, or None."""
    left = place_left(state)
    if left is None or count <= left:
        return None
    power, placed = state.power, state.placed.get(state.power, 0)
    spent = f"spent {state.spent.get(power, 0)} IPCs in this turn's Purchase & Repair" + (
        "" if state.holds_capital(power) else " (its capital is in enemy hands: it spends nothing, AA-R7)"
    )
    return (
        f"{power} may place {left} more submarine(s) this turn: it {spent}, which pays for {bought(state)} at "
        f"{SUBMARINE_COST} IPCs each, and has placed {placed} (AA-R17)"
    )


def legal_placements(state: State) -> Iterator[dict]:
    """Each zone and count a command may place now (a generator: `awaiting` never lists them, 65 zones)."""
    left = place_left(state)
    top = MAX_COUNT if left is None else left
    return ({"sz": int(sz), "count": c} for sz in sorted(state.map.sea_zones, key=int) for c in counts(top))


def place(state: State, sz: int, count: int) -> list[Event]:
    """AA-R9: the ledger takes the player's word for where new submarines are mobilized; AA-R17 bounds how many."""
    if str(sz) not in state.map.sea_zones:
        raise IllegalCommand(f"there is no sea zone {sz} on the 1942.2 map (AA-R9)")
    why = why_not_place(state, count)
    if why:
        raise IllegalCommand(why)
    return [SubmarinesPlaced(power=state.power, sz=sz, count=count)]


def legal_fights(state: State) -> Iterator[dict]:
    return (
        {"sz": sz, "count": c}
        for sz in sorted(state.subs.get(state.power, {}))
        for c in counts(state.may_raid_with(sz))
    )


def fight(state: State, sz: int, count: int) -> list[Event]:
    """AA-5: a submarine makes a regular attack or a convoy raid, not both."""
    if count > state.may_raid_with(sz):
        raise IllegalCommand(
            f"{state.power} has {state.may_raid_with(sz)} submarine(s) in sea zone {sz} that have neither "
            "raided nor fought (AA-5)"
        )
    return [SubmarinesFought(power=state.power, sz=sz, count=count)]


RETREAT = "AA-E5-1"  # the edition change that brought the retreat (5.0.0)


def retreat_adjacent(state: State, sz: int) -> list[int]:
    """AA-R18: the sea zones one sea move from sz (the map's adjacency, through the canals open to the acting side,
    AA-R15): where its submarines may retreat."""
    return sorted(z for z, d in sea_distances(state, sz, 1).items() if d == 1)


def _why_no_retreat_now(state: State) -> str | None:
    """AA-R18 (5.0.0, AA-E5-1): why no submarine may retreat now, or None (its edition, its general combat)."""
    if not state.edition.has(RETREAT):
        return (
            f"aa1942-convoy {state.edition.version} has no retreat_submarines: in this edition submarines that fought "
            "stay in the battle zone (the retreat came in edition 5.0.0, AA-E5-1, AA-R18)"
        )
    if state.phase != "combat" or state.combat_step != 3:
        return (
            "submarines retreat in the combat phase once general combat has begun (AA-R13, AA-R18): commit them with "
            "`fight` first; a submarine that raided never retreats (AA-7)"
        )
    return None


def _fought_in(state: State, sz: int) -> int:
    """AA-R18: the acting power's submarines that fought in sz this turn and are still there: those that may retreat."""
    used = state.used.get(sz)
    return min(used.fought, state.subs_in(state.power, sz)) if used is not None else 0


def retreat_origins(state: State) -> Iterator[tuple[int, int, list[int]]]:
    """AA-R18 (5.0.0, AA-E5-1): each zone where the acting power's submarines fought this turn, in its general combat:
    (zone, how many may retreat, the adjacent zones they may retreat to). None before 5.0.0."""
    if _why_no_retreat_now(state) is not None:
        return
    for sz in sorted(state.used):
        n = _fought_in(state, sz)
        if n > 0 and (to := retreat_adjacent(state, sz)):
            yield sz, n, to


def legal_retreats(state: State) -> Iterator[dict]:
    return (
        {"from_sz": sz, "to_sz": to, "count": c} for sz, n, reach in retreat_origins(state) for to in reach
        for c in counts(n)
    )


def why_not_retreat(state: State, from_sz: int, to_sz: int, count: int) -> str | None:
    """AA-R18 (5.0.0, AA-E5-1): the reason `count` of the acting power's submarines in from_sz may not retreat to to_sz
    now, or None. Only those that fought there this turn, never a raider (AA-7), to a zone one sea move away."""
    why = _why_no_retreat_now(state)
    if why:
        return why
    used = state.used.get(from_sz)
    fought = _fought_in(state, from_sz)
    if count > fought:
        why = (
            f"{state.power} has {fought} submarine(s) in sea zone {from_sz} that fought there this turn and may "
            "retreat (AA-R18)"
        )
        if used is not None and used.raided:
            why += (
                f"; {used.raided} raided there: \"Once the raid is done, Submarine cannot retreat and must stay in "
                'raided SZ" (AA-7)'
            )
        if state.subs_in(state.power, from_sz) - fought - (used.raided if used is not None else 0) > 0:
            why += (
                "; the others there did not fight in it (unused, only moved, or retreated there): they made no attack "
                "to retreat from"
            )
        return why
    if to_sz not in retreat_adjacent(state, from_sz):
        closed = _closed_canal(state, from_sz, to_sz, 1)
        if closed:  # adjacent, across a canal closed to its side
            return f"submarines may not retreat from sea zone {from_sz} to sea zone {to_sz} (AA-R18){closed}"
        return (
            f"sea zone {to_sz} is not adjacent to sea zone {from_sz}: submarines retreat one sea move, to a zone the "
            "attack came from (AA-R18; one that submerges stays and needs no record)"
        )
    return None


def retreat(state: State, from_sz: int, to_sz: int, count: int) -> list[Event]:
    """AA-R18: the ledger takes the player's word that to_sz is a friendly zone the attack came from."""
    why = why_not_retreat(state, from_sz, to_sz, count)
    if why:
        raise IllegalCommand(why)
    return [SubmarinesRetreated(power=state.power, from_sz=from_sz, to_sz=to_sz, count=count)]


def losable(state: State, power: str) -> dict[int, int]:
    """AA-R10: zone -> how many of `power`'s submarines there the acting power may record lost in its combat (zones
    where none may be left out; nobody mutates the answer). From 4.0.0 (AA-E4-1): an enemy's, all; its own, those that
    fought, moved or are unused, never one that raided this turn (it stays, AA-7, for the zone's owner, or another
    enemy of it, to sink in its own combat, AA-6); an ally's, none (allies do not attack together). From 5.0.0
    (AA-E5-1) not one that retreated from its battle either (AA-R18: out of the battle). 3.0.0: any power's, all."""
    zones = state.subs.get(power, NO_SUBS)
    if SIDE[power] != SIDE[state.power] or not state.edition.has("AA-E4-1"):
        return zones
    if power != state.power:
        return NO_SUBS
    kept = [(sz, n) for sz, used in state.used.items() if (n := used.raided + used.retreated) and sz in zones]
    if not kept:
        return zones
    may = dict(zones)
    for sz, n in kept:
        if may[sz] > n:
            may[sz] -= n
        else:
            del may[sz]
    return may


def loss_fleets(state: State) -> Iterator[tuple[str, int, int]]:
    """(power, zone, how many may be recorded lost) of each fleet the acting power may record losses of now."""
    for p in TURN_ORDER:
        zones = losable(state, p)
        for sz in sorted(zones):
            yield p, sz, zones[sz]


def legal_losses(state: State) -> Iterator[dict]:
    return ({"power": p, "sz": sz, "count": c} for p, sz, n in loss_fleets(state) for c in counts(n))


def why_not_lose(state: State, power: str, sz: int, count: int) -> str | None:
    """AA-R10 (AA-E4-1 from 4.0.0): the reason `count` of `power`'s submarines in sz may not be recorded lost now."""
    may = losable(state, power).get(sz, 0)
    if count <= may:
        return None
    have = state.subs_in(power, sz)
    if may == have:  # all of the fleet may be recorded lost: it has fewer than asked
        return f"{power} has {have} submarine(s) in sea zone {sz} (AA-R10)"
    if power != state.power:
        return (
            f"{power} is {state.power}'s ally and takes no part in its combat (allies do not attack together): "
            f"{state.power} records the losses of its enemies' submarines and of its own that did not raid (AA-R10)"
        )
    used = state.used.get(sz)
    if used is not None and used.retreated:  # 5.0.0 (AA-E5-1)
        raided = f"; {used.raided} raided there and stay for their enemies' turns (AA-6, AA-7)" if used.raided else ""
        return (
            f"{used.retreated} of {power}'s submarines in sea zone {sz} retreated there from their battle this turn: "
            f"out of the battle, they are not lost in this combat (AA-R18){raided}; {power} may record at most "
            f"{may} of its own lost there (those that fought, moved or are unused; AA-R10)"
        )
    return (
        f"{have - may} of {power}'s submarines in sea zone {sz} raided this turn: they stay there for the convoy "
        f"zone's owner, or another enemy of theirs, to sink in its own combat (AA-6, AA-7, AA-R10); {power} may "
        f"record at most {may} of its own lost there (those that fought, moved or are unused)"
    )


def lose(state: State, power: str, sz: int, count: int) -> list[Event]:
    why = why_not_lose(state, power, sz, count)
    if why:
        raise IllegalCommand(why)
    return [SubmarinesLost(power=power, sz=sz, count=count, reported_by=state.power)]
