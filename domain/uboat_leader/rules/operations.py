"""SEGMENTO DE OPERACIONES: move the U-boats one at a time (UL-20), Events on every crossing and when patrolling,
the Channel and Unfit boats (UL-21), patrols completed in port (UL-22)."""

from __future__ import annotations

from domain import decisions as ui
from domain.engine import IllegalCommand
from domain.uboat_leader import commands as c
from domain.uboat_leader.distances import map_distances
from domain.uboat_leader.legal import require, spec
from domain.uboat_leader.rules.event_cards import draw_events
from domain.uboat_leader.state import State
from events import uboat_leader as ev


def forced(s: State) -> list[str]:
    """UL-21: boats Unfit at sea when the segment begins go to the nearest port (automatically, UL-R11)."""
    return [
        b.boat
        for b in s.boats.values()
        if b.at_sea and b.space == "open" and b.band == "unfit" and b.boat not in s.ops.done
    ]


def mission_boat(s: State, boat: str) -> bool:
    """UL-R6: a fit boat with a mission counter must reach a box of its type this segment."""
    b = s.boats[boat]
    return bool(b.missions) and s.fit(boat)


def neighbours(s: State, boat: str) -> list[str]:
    """Where one step can take the boat: adjacent Areas and Ports its class may enter (UL-42); a fit mission boat
    only steps nearer a box of one of its missions, or into such a box of its Area (UL-R6, UL-R47)."""
    b = s.boats[boat]
    here = s.area_of(boat)
    node = s.port(here) or s.area(here)
    steps = [n for n in node.adj if not (s.area(n) and b.cls in s.area(n).barred)]
    if not mission_boat(s, boat):
        return steps
    boxes = [x.id for x in (s.area(here).boxes if s.area(here) else []) if x.mission in b.missions]
    goals = [
        map_distances(s.data, s.camp, a.id, b.cls) for a in s.camp.map.areas for x in a.boxes if x.mission in b.missions
    ]
    return boxes + [n for n in steps if any(d.get(n, 99) < d.get(here, 99) for d in goals)]


def ordered(s: State, boat: str, steps: list[str]) -> list[str]:
    """Nearest a port first (a stable order for a UI; nothing in the rules)."""
    b = s.boats[boat]
    home = [map_distances(s.data, s.camp, p.id, b.cls) for p in s.camp.map.ports]
    return sorted(steps, key=lambda n: min(d.get(n, 99) for d in home))


def may_stop(s: State, boat: str) -> bool:
    """UL-21: no move ends in the English Channel; a mission boat goes on to its box (UL-R6)."""
    area = s.area(s.boats[boat].where)
    return not (area is not None and area.no_stop) and not mission_boat(s, boat)


def movers(s: State) -> list[str]:
    ops = s.ops
    if ops.moving is not None and not may_stop(s, ops.moving):
        return [ops.moving]
    out = [ops.moving] if ops.moving else []
    for b in s.boats.values():
        if b.boat in ops.done or not s.fit(b.boat) or b.space not in ("port", "open"):
            continue
        if b.space == "port" and b.patrols >= s.dur.patrols:
            continue
        out.append(b.boat)
    return out


def move_choices(s: State) -> list[dict]:
    return [{"boat": m, "to": n} for m in movers(s) for n in ordered(s, m, neighbours(s, m))]


def moves_of(s: State, boat: str) -> list[dict]:
    """`boat`'s legal steps now, unordered: what judging one command needs (`move_choices` orders every boat's)."""
    return [{"boat": boat, "to": n} for n in neighbours(s, boat)] if boat in movers(s) else []


def move_ui(s: State) -> ui.StepsForm:
    """What a UI draws for an Operations step (UL-20): each boat that may step now, where it is, whether it may end
    its move there (UL-21, UL-R6), and the places one step takes it (`neighbours`, the same legality as `move`),
    with the Move value of Events the step draws (`move_events`; a port ends the move, a box begins the mission)."""
    out = []
    for boat in movers(s):
        steps = [
            ui.Step(to=to, space=space_of(s, to), move_events=move_events(s, boat, to))
            for to in ordered(s, boat, neighbours(s, boat))
        ]
        out.append(
            ui.BoatSteps(
                boat=boat,
                at=s.boats[boat].where,
                moving=boat == s.ops.moving,
                may_stop=boat == s.ops.moving and may_stop(s, boat),
                steps=steps,
            )
        )
    return ui.StepsForm(boats=out)


def space_of(s: State, node: str) -> str:
    return "port" if s.port(node) else "box" if s.box(node) else "open"


def move_events(s: State, boat: str, to: str) -> int | None:
    """UL-20: the Move value of Event cards a step to `to` draws. "Cuando un U-Boat en movimiento cruza una línea hacia
    una nueva Área, … o cuando entra a o sale de un recuadro de Misión Especial, roba y resuelve el número de cartas de
    Evento que se indica en la Tabla de Contacto para Moverse en el Área": an Area's on crossing into it; from 4.0.0
    (UL-E4-2, UL-R56) a box's Area's when the boat enters the box from the Area it began the segment in, and 0 when it
    crossed into that Area in this move (it drew them on the crossing: the U-47 example draws 1, then the box's 3).
    None: a port (it ends the move), or a box before 4.0.0 (the Area's Patrol value instead, UL-R7)."""
    space = space_of(s, to)
    if space == "open":
        return s.area(to).move
    if space == "box" and s.edition.has("UL-E4-2"):
        return s.box(to)[0].move if boat not in s.ops.done else 0
    return None


def move(ctx, cmd: c.Move) -> None:
    """UL-20: one step; it draws its Move value of Events (`move_events`), card by card, and an Event that makes the
    boat Unfit ends it (UL-21); a Port box ends the move and completes a patrol (UL-22); a mission box ends it and
    resolves the mission (UL-R7, UL-R56)."""
    s = ctx.state
    require(cmd, moves_of(s, cmd.boat), why_not_move(s, cmd.boat))
    if s.ops.moving and s.ops.moving != cmd.boat:  # UL-R34: another boat's step ends this one's move
        ctx.emit(ev.MoveEnded(boat=s.ops.moving))
    first = cmd.boat not in s.ops.done
    space, events = space_of(s, cmd.to), move_events(s, cmd.boat, cmd.to)
    ctx.emit(ev.UBoatMoved(boat=cmd.boat, to=cmd.to, space=space))
    if space == "port":
        return enter_port(ctx, cmd.boat, cmd.to)
    draw_events(ctx, cmd.boat, events or 0, f"move into {cmd.to}")
    if s.boats[cmd.boat].band == "unfit":
        return unfit_at_sea(ctx, cmd.boat)
    if space == "box":
        area, box = s.box(cmd.to)
        ctx.emit(
            ev.MissionBegan(
                boat=cmd.boat,
                box=box.id,
                mission=box.mission,
                # UL-R7 up to 3.0.0: a boat that had not moved drew the Area's Patrol value first (from 4.0.0 the Move
                # value, drawn above as for any move, UL-E4-2)
                patrol_events=(area.patrol or 0) if first and events is None else 0,
                events=box.events,
            )
        )


def why_not_move(s: State, boat: str) -> str:
    if s.ops.moving and boat != s.ops.moving and not may_stop(s, s.ops.moving):
        return f"{s.ops.moving} is moving and cannot stop here: finish its move first (UL-20, UL-21)"
    if boat in s.ops.done and boat != s.ops.moving:
        return f"{boat} has moved or patrolled this segment (UL-20)"
    return f"{boat} cannot make that step; legal steps are listed (UL-20, UL-42)"


def enter_port(ctx, boat: str, port: str) -> None:
    """UL-22: entering a Port box completes a patrol and ends the move; missions are cancelled (UL-R8)."""
    b = ctx.state.boats[boat]
    ctx.emit(ev.PatrolCompleted(boat=boat, port=port, patrols=b.patrols + 1))
    for m in list(b.missions):
        ctx.emit(ev.MissionEnded(boat=boat, mission=m, outcome="cancelled"))
    ctx.emit(ev.MoveEnded(boat=boat))


def unfit_at_sea(ctx, boat: str) -> None:
    """UL-21, UL-R10: a boat made Unfit by an Event goes to the Area's Search box; in the Channel, to the Search box
    of the Area it came from, or back into the port it came from (which completes a patrol)."""
    s = ctx.state
    b = s.boats[boat]
    area = s.area(s.area_of(boat))  # a boat made Unfit entering a box: its Area (UL-E4-2)
    for m in b.missions:
        ctx.emit(ev.MissionEnded(boat=boat, mission=m, outcome="failed"))
    if area.no_stop and s.port(b.came_from):
        ctx.emit(ev.UBoatMoved(boat=boat, to=b.came_from, space="port"))
        enter_port(ctx, boat, b.came_from)
    else:
        ctx.emit(ev.ToSearchBox(boat=boat, area=b.came_from if area.no_stop else area.id, cause="Unfit by an Event"))


def why_not_patrol(s: State, boat: str) -> str | None:
    b = s.boats.get(boat)
    if b is None or not b.at_sea or b.space != "open":
        return f"{boat} is not in an Area's open space (UL-20)"
    if boat in s.ops.done:
        return f"{boat} has moved or patrolled this segment (UL-20)"
    if s.ops.moving and s.ops.moving != boat and not may_stop(s, s.ops.moving):
        return f"{s.ops.moving} is moving and cannot stop here (UL-20, UL-21)"
    if mission_boat(s, boat):
        return f"{boat} carries a Special Mission: it must move to its box (UL-R6)"
    if s.area(b.where).no_stop:
        return f"{boat} cannot stay in {b.where} (UL-21)"
    return None


def patrol(ctx, boat: str) -> None:
    """UL-20: a boat that does not move draws its Area's Patrol value of Events (none in port, UL-R11)."""
    s = ctx.state
    why = why_not_patrol(s, boat)
    if why:
        raise IllegalCommand(why)
    if s.ops.moving:
        ctx.emit(ev.MoveEnded(boat=s.ops.moving))
    ctx.emit(ev.UBoatPatrolled(boat=boat))
    draw_events(ctx, boat, s.area(s.boats[boat].where).patrol or 0, f"patrol {s.boats[boat].where}")
    if s.boats[boat].band == "unfit":
        ctx.emit(ev.ToSearchBox(boat=boat, area=s.boats[boat].where, cause="Unfit by an Event"))


def stop(ctx, boat: str) -> None:
    s = ctx.state
    if s.ops.moving != boat or not may_stop(s, boat):
        raise IllegalCommand(f"only a moving boat that may stop where it is stops; moving: {s.ops.moving} (UL-20, UL-21)")
    ctx.emit(ev.MoveEnded(boat=boat))


def idle(s: State) -> list[str]:
    return [b.boat for b in s.boats.values() if b.at_sea and b.space == "open" and b.boat not in s.ops.done]


def owing(s: State) -> list[str]:
    """UL-20, UL-R6: the mission boats that have still to move toward their box this segment. "Un U-Boat con una
    ficha de Misión Especial, debe moverse hacia el recuadro de esa Misión Especial y resolver su misión": a boat in
    port too, since its Mines are loaded there (UL-E3-2; before it only boats at sea were held to it)."""
    out = [b for b in idle(s) if mission_boat(s, b)]
    if s.edition.has("UL-E3-2"):
        out += [
            b.boat
            for b in s.boats.values()
            if b.in_play
            and b.space == "port"
            and b.boat not in s.ops.done
            and b.patrols < s.dur.patrols
            and mission_boat(s, b.boat)
        ]
    return out


def why_not_end(s: State) -> str | None:
    if s.ops.moving and not may_stop(s, s.ops.moving):
        return f"{s.ops.moving} is moving and cannot stop where it is (UL-20, UL-21)"
    owed = owing(s)
    return f"{owed} carry Special Missions: they must move to their boxes (UL-R6)" if owed else None


def end_operations(ctx) -> None:
    """UL-20, UL-R34: every boat at sea that has not moved patrols ("Si un U-Boat no se mueve … debe robar");
    then the Tactical Segment."""
    s = ctx.state
    why = why_not_end(s)
    if why:
        raise IllegalCommand(why)
    if s.ops.moving:
        ctx.emit(ev.MoveEnded(boat=s.ops.moving))
    for boat in idle(s):
        patrol(ctx, boat)
    ctx.emit(ev.SegmentBegan(turn=s.turn, segment="tactical"))


def return_to_port(ctx, boat: str) -> None:
    """UL-21, UL-R11: an Unfit boat at sea goes by the fewest steps to the nearest port, drawing Events on the way
    (ties: the first port and step in data-set order, UL-R30)."""
    s = ctx.state
    b = s.boats[boat]
    tables = [map_distances(s.data, s.camp, p.id, b.cls) for p in s.camp.map.ports]
    reach = [(d[b.where], i) for i, d in enumerate(tables) if b.where in d]
    if not reach:
        ctx.emit(ev.ToSearchBox(boat=boat, area=b.where, cause="Unfit, no port within reach"))
        return
    port = s.camp.map.ports[min(reach)[1]]
    dist = tables[min(reach)[1]]
    while s.boats[boat].where != port.id:
        here = s.boats[boat].where
        node = s.area(here)
        step = next(n for n in node.adj if dist.get(n, 99) == dist[here] - 1)
        ctx.emit(ev.UBoatMoved(boat=boat, to=step, space=space_of(s, step)))
        if step == port.id:
            enter_port(ctx, boat, step)
        else:
            draw_events(ctx, boat, s.area(step).move, f"forced return through {step}", stop_when_unfit=False)


def awaited(s: State) -> str | None:
    return None if forced(s) else "ops"


def advance(ctx) -> None:
    return_to_port(ctx, forced(ctx.state)[0])


def specs(s: State) -> list:
    out = []
    m = s.ops.moving
    if m and may_stop(s, m):
        out.append(spec(c.Stop, [{"boat": m}], [f"{m} ends its move in {s.boats[m].where}"]))
    moves = move_choices(s)
    if moves:
        out.append(spec(c.Move, moves, [f"{x['boat']} to {x['to']}" for x in moves], ui=move_ui(s) if ui.descriptors_wanted() else None))
    patrols = [{"boat": b} for b in idle(s) if why_not_patrol(s, b) is None]
    if patrols:
        out.append(spec(c.Patrol, patrols, [f"{x['boat']} patrols {s.boats[x['boat']].where}" for x in patrols]))
    if why_not_end(s) is None:
        out.append(
            spec(c.EndOperations, [{}], ["end the Operations Segment (boats at sea that have not moved patrol)"])
        )
    return out
