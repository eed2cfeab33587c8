"""3.0 Movement, and the execution of 2.1's orders: speed limits, turning circles, succession pivots.

Every ship's path is computed on the poses at the start of the phase (the moves are simultaneous); each
segment starts from the pose the last one stored (BATTLEFLEET.md §3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from domain.battlefleet_1900 import geometry as geo
from domain.battlefleet_1900.commands import DivisionMove, Move
from domain.battlefleet_1900.rules import courses, sealing
from domain.battlefleet_1900.rules.courses import Path
from domain.battlefleet_1900.state import Division, State, Waypoint, top_box
from domain.engine import IllegalCommand
from events import battlefleet_1900 as ev

if TYPE_CHECKING:
    from domain.procedure import Ctx

BANDS = {45: (45, 89), 90: (90, 180)}  # BF-R5: the degrees each arrow covers; no arrow: 1-44 (2.1)


def limits(state: State, ship: str) -> tuple[int, int]:
    """BF-R6: max = min(top box, last + one box), min = max(0, last - one box); a box is the lowest box's value."""
    step = state.cls(ship).speed_boxes[-1]
    last = state.sealed[state.ships[ship].seat].last_move[ship]
    sp = state.data.speed
    hi = min(top_box(state, ship), last + sp.accel_boxes * step)
    return min(max(0, last - sp.decel_boxes * step), hi), hi


def keep_speed_mm(state: State, d: Division) -> int:
    """How far the lead goes when the move leaves its distance out (BF-R6: as last turn, within its limits; a stop
    order's least), before the turns raise it to what they need (`least_mm`)."""
    lead = d.ships[0]
    lo, hi = limits(state, lead)
    if any(a.stop for a in d.orders):
        return lo
    return min(max(state.sealed[d.seat].last_move[lead], lo), hi)


def radius(state: State, ship: str) -> int:
    """Glossary ST, RC: +50% of the turning radius per TR hit; a secured rudder doubles it."""
    s = state.ships[ship]
    r = state.cls(ship).turn_radius_mm * (2 + s.tr) // 2
    return 2 * r if s.secured else r


def can_move(state: State, ship: str) -> bool:
    s = state.ships[ship]
    return s.in_play and s.sinking is None and top_box(state, ship) > 0


def formation(state: State, division: str) -> str:
    """BF-R4: line ahead when the lead's heading is the line's bearing, line abreast at 90 degrees off, else other."""
    d = state.divisions[division]
    if len(d.ships) <= 1:
        return "line_ahead"
    off = (state.pose(d.ships[0]).h - state.sealed[d.seat].line_bearing[division]) % 360
    return "line_ahead" if off == 0 else "line_abreast" if off in (90, 270) else "other"


# ---- validation ---------------------------------------------------------------------------------


def check_move(state: State, seat: str, cmd: Move) -> None:
    """Own state only (BF-R3): divisions, distances within limits, turns within each arrow's band."""
    seen = set()
    for m in cmd.divisions:
        d = state.divisions.get(m.division)
        if d is None or d.seat != seat:
            raise IllegalCommand(f"{m.division!r} is not one of your divisions; yours to move: {movers(state, seat)} (BF-R2)")
        if m.division in seen:
            raise IllegalCommand(f"division {m.division!r} is listed twice; list each of your divisions at most once (BF-R2)")
        seen.add(m.division)
        if not any(can_move(state, n) for n in d.ships):
            raise IllegalCommand(f"division {m.division} has no ship able to move (BF-R56)")
        _check_turns(state, d, m)
        lead = d.ships[0]
        lo, hi = limits(state, lead)
        stop = any(a.stop for a in d.orders)
        turns = ordered_turns(d, m)
        if m.distance_mm is not None and not (lo <= m.distance_mm <= hi and (not stop or m.distance_mm == lo)):
            raise IllegalCommand(
                f"division {m.division}: its lead {lead} may move {lo}-{hi} mm this turn (BF-R6)"
                + (f"; under a stop order exactly {lo} mm (BF:2.1)" if stop else "")
            )
        need = least_mm(state, d, lead, turns) if can_move(state, lead) else 0
        if m.distance_mm is not None and m.distance_mm < need:
            raise IllegalCommand(
                f"division {m.division}: {lead} must move at least {need} mm to finish its turns {turns} "
                f"(BF:2.1, BF-R5): only a turn it cannot finish with all its movement ({hi} mm) is cut short"
            )
        if stop and m.ships:  # 2.1: each ship "must still move their minimum required movement", no more
            raise IllegalCommand(f"division {m.division} is under a stop order: every ship moves its minimum (BF:2.1)")
        for sd in m.ships:
            if sd.ship not in d.ships[1:]:
                raise IllegalCommand(f"division {m.division}: `ships` sets a follower's distance: {d.ships[1:]} (BF-R7)")
            lo, hi = limits(state, sd.ship)
            if not lo <= sd.distance_mm <= hi:
                raise IllegalCommand(f"{sd.ship} may move {lo}-{hi} mm this turn (BF-R6, BF-R7)")
            if can_move(state, sd.ship) and sd.distance_mm < (need := least_mm(state, d, sd.ship, turns)):
                raise IllegalCommand(f"{sd.ship} must move at least {need} mm to finish its turns {turns} (BF:2.1, BF-R5)")


def _check_turns(state: State, d: Division, m: DivisionMove) -> None:
    arrows = [a for a in d.orders if not a.stop]
    t = m.turns_deg
    if not t:
        return
    if any(a.stop for a in d.orders):
        raise IllegalCommand(f"division {d.id} is under a stop order: no turns (BF:2.1)")
    if d.dropped_out:
        if len(t) != 1 or t[0] == 0:
            raise IllegalCommand(f"{d.id} dropped out: it must turn out of the line, one turn of 1-180 degrees (BF-R9)")
        return
    if not arrows:
        if d.flagship is None or not state.ships[d.flagship].command_ok:  # glossary CT (BF-R30), BF-R11
            raise IllegalCommand(f"division {d.id}'s flagship has a conning tower hit or none leads: it goes straight (BF-R30)")
        if len(t) != 1 or abs(t[0]) > 44:
            raise IllegalCommand(f"division {d.id} has no arrow: at most one free turn of -44..44 degrees (BF:2.1)")
        return
    if len(t) != len(arrows):
        raise IllegalCommand(f"division {d.id}: one turn per arrow ({len(arrows)}), or none for each arrow's least (BF-R5, BF-R33)")
    for a, deg in zip(arrows, t):
        lo, hi = BANDS[a.arrow]
        if not lo <= abs(deg) <= hi:
            raise IllegalCommand(f"division {d.id}: the {a.arrow}° arrow to {a.to} turns {lo}-{hi} degrees (BF-R5)")
        if deg < 0 and a.to != "port":
            raise IllegalCommand(f"division {d.id}: its arrow points to {a.to}; give that turn as a positive number (BF-R5)")


def movers(state: State, seat: str) -> list[str]:
    return [d.id for d in state.divisions.values() if d.seat == seat and any(can_move(state, n) for n in d.ships)]


# ---- the phase ----------------------------------------------------------------------------------


def resolve(ctx: Ctx) -> list[str]:
    """Every division's move at once, from the poses at the start of the phase (2.0: simultaneous). Returns the
    ships whose bow left the table (BF-R29: withdrawn, out of play)."""
    s = ctx.state
    cmds = {seat: msgspec.convert(s.sealed[seat].pending.get("move", {}), Move) for seat in s.seats}
    caps: dict[str, tuple[int, str]] = {}  # BF-R29 (4.0.0): where the lockstep stops a ship, in whole steps
    # each division's plan (paths, stops, bearings, reversed), in order; a later round plans again only the divisions
    # with a ship the lockstep stopped anew: a division's plan reads no other division's caps
    planned: dict[str, tuple[dict[str, Path], set[str], list[ev.Bearing], list[str]]] = {}
    new: dict[str, tuple[int, str]] = {}
    kept: dict[str, tuple[courses.Track, int, list[int], list[int]]] = {}  # each track's ticks and walk, for next round
    for _ in range(len(s.ships) * 4):  # each round stops a ship sooner than before: it ends
        for seat in s.seats:
            listed = {m.division: m for m in cmds[seat].divisions}
            for d in list(s.divisions.values()):
                if d.seat == seat and d.ships and (d.id not in planned or any(n in new for n in d.ships)):
                    m = listed.get(d.id) or DivisionMove(division=d.id)
                    div_plan = planned[d.id] = ({}, set(), [], [])
                    plan(s, d, m, *div_plan, caps)
        paths = {n: p for div_plan in planned.values() for n, p in div_plan[0].items()}
        stops = {n for div_plan in planned.values() for n in div_plan[1]}
        bearings = [b for div_plan in planned.values() for b in div_plan[2]]
        reversed_ = [d for div_plan in planned.values() for d in div_plan[3]]
        if not s.edition.has("BF-E4-6"):
            break
        new = {n: c for n, c in courses.first_touch(s, paths, kept).items() if n not in caps or c[0] < caps[n][0]}
        if not new:
            break
        caps.update(new)
    moves = {
        seat: ev.Moves(
            ships=[_pose(n, p, n in stops) for n, p in paths.items() if s.ships[n].seat == seat],
            bearings=[b for b in bearings if s.divisions[b.division].seat == seat],
        )
        for seat in s.seats
    }
    if sealing.lines_sealed(s):
        sealing.seal_line_changes(ctx, reversed_=reversed_)
    else:
        for d in reversed_:
            ctx.emit(ev.LineReversed(division=d))
    touching = overlaps(s, paths)
    if s.fog == "open":
        sealing.reveal(ctx, ["move"])
        both = ev.Moves(
            ships=[x for m in moves.values() for x in m.ships], bearings=[b for m in moves.values() for b in m.bearings]
        )
        both.overlaps = touching
        ctx.emit(ev.ShipsMoved(moves=both))
    else:
        for seat, mine in moves.items():
            mine.overlaps = [[a, b] for a, b in touching if told(s, [a, b], seat)]
            sealing.seal(ctx, seat, "poses", mine)
        if s.edition.has("BF-E4-22"):  # the pairs with an enemy ship, kept from both seats, are the referee's
            mixed = [[a, b] for a, b in touching if s.ships[a].seat != s.ships[b].seat]
            if mixed or s.edition.has("BF-E5-1"):  # 5.0.0: every move, so that the record's presence says nothing
                sealing.seal(ctx, "referee", "poses", ev.Moves(ships=[], overlaps=mixed))
    w, h = s.data.scale.table_mm
    return [n for n, p in paths.items() if not (0 <= p.pose.x <= w and 0 <= p.pose.y <= h)]


def _pose(name: str, p: Path, stopped: bool) -> ev.ShipPose:
    route = [ev.Turnpoint(x=w.x, y=w.y, turns=list(w.turns)) for w in p.route]
    return ev.ShipPose(
        ship=name,
        x=p.pose.x,
        y=p.pose.y,
        h=p.pose.h,
        moved_mm=p.moved,
        stopped=stopped,
        stopped_by=p.stopped_by,
        route=route,
    )


def ordered_turns(d: Division, m: DivisionMove) -> list[int]:
    """The division's turns this move, signed (+ starboard): each arrow's given or least turn (BF-R5, R33), a
    dropped-out ship's turn out of the line (BF-R9: 45 to starboard unless told), or the free turn."""
    arrows = [a for a in d.orders if not a.stop]
    if d.dropped_out:
        return list(m.turns_deg) or [45]
    if arrows:
        given = m.turns_deg or [BANDS[a.arrow][0] for a in arrows]
        return [(-1 if a.to == "port" else 1) * abs(t) for a, t in zip(arrows, given)]
    return list(m.turns_deg)


def together(state: State, d: Division) -> bool:
    """BF-R4, R35: the division's turns are made by each ship at once (else in succession on the lead's pivot)."""
    arrows = [a for a in d.orders if not a.stop]
    return bool(arrows and arrows[0].turn == "together") or formation(state, d.id) != "line_ahead"


def least_mm(state: State, d: Division, ship: str, turns: list[int]) -> int:
    """BF-R5 (4.0.0, BF-E4-1): 2.1 "if a vessel is ordered to execute a turn which it cannot fulfill even by using
    all available movement, it will complete as much of the turn as possible": a ship that turns this move (each ship
    turning together, a succession lead) moves at least far enough to finish its turns, or its whole allowance when
    that cannot. 0 for a ship that makes no turn of its own, and in 3.0.0, which let a short move cut the turn."""
    route = _turning_route(state, d, ship)
    if route is None:
        return 0
    return courses.least(state, ship, limits(state, ship)[1], radius(state, ship), turns, route)


def least_parts(state: State, d: Division, ship: str) -> tuple[int, int] | None:
    """What `least_mm` comes to for any turns, for a form to say before they are chosen (BF-R5, 4.0.0): `(base,
    radius)`, with least_mm 0 when every turn is 0, else the smaller of the ship's top limit and base + the sum over
    the turns of geometry.arc_cost(radius, turn) (`base`: the run through the pivots still ahead, the top limit when
    it does not reach them all). None where least_mm is 0 whatever the turns. tests/battlefleet_1900 hold the two
    alike over every turn each band allows."""
    route = _turning_route(state, d, ship)
    if route is None:
        return None
    budget, r = limits(state, ship)[1], radius(state, ship)
    return courses.run_through(state, ship, budget, r, route), r


def _turning_route(state: State, d: Division, ship: str) -> list[Waypoint] | None:
    """The pivots a ship whose own turns set a least distance runs through before them (the succession lead's; none
    turning together); None for a ship whose least is 0 whatever its turns: before 4.0.0, a damaged rudder, a stop
    order, a follower in succession (it makes the lead's turns at the lead's pivot, BF-R8)."""
    if not state.edition.has("BF-E4-1") or state.ships[ship].rudder or any(a.stop for a in d.orders):
        return None
    if together(state, d):
        return []
    return state.sealed[d.seat].waypoints.get(ship, []) if ship == d.ships[0] else None


def plan(state: State, d: Division, m: DivisionMove, paths, stops, bearings, reversed_, caps=None) -> None:
    """One division's paths (2.1, BF-R4..R9): turns first, in succession on the lead's pivot or together; `caps`
    (4.0.0): where the lockstep stops a ship short of another base (BF-R29)."""
    lock = state.edition.has("BF-E4-6")
    caps = caps or {}
    lead = d.ships[0]
    stop = any(a.stop for a in d.orders)
    dist = m.distance_mm if m.distance_mm is not None and not stop else keep_speed_mm(state, d)
    turns = ordered_turns(d, m)
    together_ = together(state, d)
    if can_move(state, lead):  # BF-R33, R5 (4.0.0): an unlisted division still finishes its turns
        dist = max(dist, least_mm(state, d, lead, turns))
    override = {sd.ship: sd.distance_mm for sd in m.ships}
    pivot: ev.Turnpoint | None = None
    for i, name in enumerate(d.ships):
        route = state.sealed[d.seat].waypoints.get(name, [])
        if not can_move(state, name):  # 3.0: it moves nothing, so it starts again from a stop (BF-R56)
            paths[name] = Path(state.pose(name), route=list(route))
            continue
        lo_i, hi_i = limits(state, name)
        own = lo_i if stop else override.get(name, min(max(dist, lo_i), hi_i))
        if together_ and i > 0:  # BF-R5 (4.0.0): each ship finishes its own turn on its own circle
            own = max(own, least_mm(state, d, name, turns))
        if stop:
            stops.add(name)
        cap = caps.get(name)
        if state.ships[name].rudder:  # glossary R: a jammed rudder turns the whole move
            sign = -1 if state.ships[name].rudder == "port" else 1
            paths[name] = courses.run(
                state, name, own, radius(state, name), [sign * geo.turn_within(radius(state, name), own)], [], lock, cap
            )
        elif together_:  # BF-R40: each ship turns now; pivots still ahead lapse
            paths[name] = courses.run(state, name, own, radius(state, name), turns, [], lock, cap)
        elif i == 0:
            paths[name] = p = courses.run(state, name, own, radius(state, name), turns, route, lock, cap)
            if any(p.executed):
                pivot = ev.Turnpoint(x=p.pivot.x, y=p.pivot.y, turns=[t for t in p.executed if t])
        else:
            extra = [Waypoint(pivot.x, pivot.y, list(pivot.turns))] if pivot else []
            if state.edition.has("BF-E4-8") and not stop and not state.ships[name].rudder:
                # BF-R5: a follower that reaches a pivot of the lead's with the movement it has finishes its turn there
                own = max(own, courses.least_through(state, name, hi_i, radius(state, name), list(route) + extra))
            paths[name] = courses.run(state, name, own, radius(state, name), [], list(route) + extra, lock, cap)
    lead_path = paths.get(lead)
    # BF-E11-3: a lead that runs through its line's pivots (its own route, a lead's that left the line) turns the
    # line's bearing with it, as a lead making its own turns does
    rounds = not together_ and state.sealed[d.seat].waypoints.get(lead) and state.edition.has("BF-E11-3")
    if lead_path is not None and (len(d.ships) == 1 or (not together_ and pivot) or rounds):
        bearings.append(ev.Bearing(division=d.id, bearing=lead_path.pose.h))
    # BF-R4, R57: ships that turn together onto the reverse of the line's bearing are in column led by the old rear
    # (a 180-degree turn from line ahead, or a second 90 to the same side from line abreast: 2.1).
    bearing = state.sealed[d.seat].line_bearing[d.id]
    if together_ and len(d.ships) > 1 and lead_path is not None and (lead_path.pose.h - bearing) % 360 == 180:
        reversed_.append(d.id)


def overlaps(state: State, paths: dict[str, Path]) -> list[list[str]]:
    """BF-R29: every pair of bases that overlap after the move (a warning; the text has no collision rule)."""
    names = [n for n, sh in state.ships.items() if sh.on_table]
    pose = {n: paths[n].pose if n in paths else state.pose(n) for n in names}
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            pa, pb = pose[a], pose[b]
            reach = state.cls(a).base_mm[0] + state.cls(b).base_mm[0]
            if geo.dist2((pa.x, pa.y), (pb.x, pb.y)) > reach * reach:
                continue
            if geo.polygons_touch(
                geo.base(pa.x, pa.y, pa.h, *state.cls(a).base_mm), geo.base(pb.x, pb.y, pb.h, *state.cls(b).base_mm)
            ):
                out.append([a, b])
    return out


def told(state: State, pair: list[str], seat: str) -> bool:
    """Whether `seat` is told of an overlapping pair: from 4.0.0 only a pair of its own ships (BF-E4-22), since a pair
    with an enemy ship says where that ship truly lies, which the fog keeps from it; 3.0.0 told each seat every pair
    it was in."""
    sides = (state.ships[pair[0]].seat, state.ships[pair[1]].seat)
    return sides == (seat, seat) if state.edition.has("BF-E4-22") else seat in sides
