"""5.0-5.1 Torpedo fire: launches declared at once and irrevocable, crossed off, resolved at the reveal (BF-R27).

Land blocks a torpedo; bases do not. Normal depth runs under ships of size 4 or less; surface skimmers (logged
before the game, only on destroyers, torpedo boats and torpedo gunboats) count half their size against good or
great flood protection. The hits flood in Step 2 (rules/hits.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from domain.battlefleet_1900 import geometry as geo
from domain.battlefleet_1900.commands import LaunchTorpedoes
from domain.battlefleet_1900.data import Tube
from domain.battlefleet_1900.rules import sealing
from domain.battlefleet_1900.rules.gunnery import sight_blocked, targets
from domain.battlefleet_1900.rules.orders import funnel
from domain.battlefleet_1900.state import State
from domain.engine import REFEREE, IllegalCommand
from events import battlefleet_1900 as ev
from events.core import RollResult

if TYPE_CHECKING:
    from domain.procedure import Ctx


def tube(state: State, ship: str, mount: str) -> Tube | None:
    return next((t for t in state.cls(ship).torpedoes if t.id == mount), None)


def loaded(state: State, ship: str) -> int:
    s = state.ships[ship]
    return sum(s.tubes.values()) if s.in_play and s.sinking is None else 0


def owes(state: State, seat: str) -> bool:
    """BATTLEFLEET.md §5: a seat with tubes loaded on a ship in play and not sinking (6.0)."""
    return bool(targets(state, seat)) and any(loaded(state, n) for n in state.own(seat))


def depths(state: State, ship: str) -> list[str]:
    """5.0: the running depths a ship may log before the game: shallow only where a tube carries surface skimmers."""
    return ["normal", "shallow"] if any(t.shallow_ok for t in state.cls(ship).torpedoes) else ["normal"]


def launchers(state: State, ship: str) -> list[tuple[str, str | None, int]]:
    """5.0-5.1: (tube id, side or None, torpedoes left) of each of a ship's mounts, in data order: a side tube once
    a side; nothing for a ship that cannot launch (out of play or sinking, 6.0)."""
    if not loaded(state, ship):
        return []
    s, out = state.ships[ship], []
    for t in state.cls(ship).torpedoes:
        for side in ("port", "starboard") if t.pos == "side" else (None,):
            out.append((t.id, side, s.tubes[f"{t.id}:{side}" if side else t.id]))
    return out


def check_launch(state: State, seat: str, cmd: LaunchTorpedoes) -> None:
    used: dict[tuple[str, str, str | None], int] = {}
    for la in cmd.launches:
        if la.ship not in state.own(seat) or not loaded(state, la.ship):
            raise IllegalCommand(
                f"{la.ship!r} is not one of your ships with torpedoes to launch (BF:5.0): {[n for n in state.own(seat) if loaded(state, n)]}"
            )
        left = {(m, side): n for m, side, n in launchers(state, la.ship)}
        if tube(state, la.ship, la.mount) is None:
            raise IllegalCommand(f"{la.ship} has no tubes {la.mount!r}: {[x.id for x in state.cls(la.ship).torpedoes]} (BF:5.1)")
        if (la.mount, la.side) not in left:
            raise IllegalCommand(f"{la.ship} {la.mount}: give side (port|starboard) for side tubes, and only for them (BF:5.1)")
        if la.target not in targets(state, seat):
            raise IllegalCommand(f"{la.target!r} is not an enemy ship in play (BF:5.0, BF-R13)")
        key = (la.ship, la.mount, la.side)
        used[key] = used.get(key, 0) + la.count
        if used[key] > left[la.mount, la.side]:
            where = f"{la.mount}:{la.side}" if la.side else la.mount
            raise IllegalCommand(f"{la.ship} {where} has {left[la.mount, la.side]} torpedo(es) left (BF:5.0)")


def hit_needed(state: State, within_half: bool, beam: bool) -> int:
    """BATTLEFLEET.md §2 torpedo hit: 1D6 <= n, by half range and the launcher's bearing off the target's bow."""
    th = state.data.tables.torpedo_hit
    row = th.within_half if within_half else th.beyond_half
    return row["beam" if beam else "ends"]


def resolve(ctx: Ctx) -> None:
    """BF-R27: crossed off at the reveal and resolved at once: arc, range (funnels), land, depth, then a die each."""
    s = ctx.state
    sealing.reveal(ctx, ["launch_torpedoes"])
    unreached = []
    for seat in s.seats:
        cmd = msgspec.convert(s.sealed[seat].pending.get("launch_torpedoes", {}), LaunchTorpedoes)
        for la in cmd.launches:
            if (u := launch(ctx, seat, la)) is not None:
                unreached.append(u)
    if unreached:
        sealing.seal(ctx, REFEREE, "torpedo_runs", ev.TorpedoRuns(turn=s.turn, unreached=unreached))


UNREACHED = ("out_of_arc", "out_of_range", "blocked", "under")  # under: reached, but ran beneath the hull


def launch(ctx: Ctx, seat: str, la) -> ev.Unreached | None:
    """One launch resolved; under fog `blur` from 11.0.0 one that could not reach its target's hull (out of arc or
    range, land in the way, or running under it at normal depth) is published as `could_not_reach`, and its reason
    returned for the referee's record (BF-E11-4): which of them comes from the sealed exact poses, and as BF-E4-21
    does for a salvo, the fog keeps it; that no die was rolled stays public, as a salvo's could_not_bear does."""
    s = ctx.state
    t = tube(s, la.ship, la.mount)
    depth = s.sealed[seat].depth.get(la.ship, "normal")
    f, g = funnel(s, la.ship), funnel(s, la.target)
    v = (g[0] - f[0], g[1] - f[1])
    arcs = s.data.tube_arcs[t.pos]
    if la.side == "port":
        arcs = [[-b, -a] for a, b in arcs]
    d2, hits = geo.dist2(f, g), 0
    if not geo.in_arcs(s.pose(la.ship).h, arcs, v):
        outcome = "out_of_arc"
    elif d2 > t.range_mm * t.range_mm:
        outcome = "out_of_range"
    elif sight_blocked(s, f, g, (la.ship, la.target), bases=False):
        outcome = "blocked"  # 5.0: land blocks torpedoes; bases do not
    elif depth == "normal" and s.cls(la.target).size <= 4:
        outcome = "under"  # 5.0: normal depth always misses size 4 or less
    else:
        tp = s.pose(la.target)
        back = (f[0] - g[0], f[1] - g[1])
        a, b = s.data.tables.torpedo_hit.beam_arc
        beam = geo.in_arc(tp.h, a, b, back) or geo.in_arc(tp.h, -b, -a, back)
        need = hit_needed(s, 4 * d2 <= t.range_mm * t.range_mm, beam)
        aspect = f" ({'beam' if beam else 'ends'}, {'within' if 4 * d2 <= t.range_mm**2 else 'beyond'} half range)"
        faces = ctx.roll(
            la.count,
            f"{la.ship} torpedoes at {la.target}{'' if sealing.aspects_sealed(s) else aspect}",  # BF-E9-1
            "BF:5.0 BF-R27",
            lambda fs: RollResult(outcome=f"{sum(1 for x in fs if x <= need)} hit(s) on 1D6 <= {need}", target=need),
        )
        hits = sum(1 for x in faces if x <= need)
        outcome = "hit" if hits else "miss"
    # BF-E7-1: the sealed depth is told only where it decides what happened (BF-R27's halving, BF:5.0's "under")
    decisive = outcome == "under" or (outcome == "hit" and s.cls(la.target).flood_protection in ("good", "great"))
    hidden = outcome in UNREACHED and s.fog == "blur" and s.edition.has("BF-E11-4")
    ctx.emit(
        ev.TorpedoesResolved(
            ship=la.ship,
            mount=la.mount,
            side=la.side,
            target=la.target,
            count=la.count,
            outcome="could_not_reach" if hidden else outcome,
            hits=hits,
            depth=depth if (decisive and not hidden) or not s.edition.has("BF-E7-1") else None,
        )
    )
    if hidden:
        return ev.Unreached(ship=la.ship, mount=la.mount, side=la.side, target=la.target, outcome=outcome)
    return None
