"""What `awaiting` shows of battlefleet-1900 (BF-R1): one entry per seat that still owes the step's sealed
command, its schema narrowed to the names that seat may use, and `concede` for every seat."""

from __future__ import annotations

import copy
import functools

from domain.battlefleet_1900 import commands as c
from domain.battlefleet_1900.rules.sealing import redact
from domain.battlefleet_1900.state import State
from domain import decisions as ui
from domain.engine import CommandSpec, command_schema

DESCRIPTIONS = {
    "start": "Log each ship's torpedo running depth and boat gun crews before the battle (sealed).",
    "give_orders": "Command Phase: each division's arrows or stop, drop-outs, transfers, boat guns, messages, surrenders (sealed).",
    "move": "Movement Phase: each division's distance and the degrees of each ordered turn (sealed).",
    "fire": "Gunnery Phase: estimate the range and fire a salvo at each target: guns, cycles, ammunition (sealed).",
    "launch_torpedoes": "Torpedo Phase: declare every launch and its target at once (sealed).",
    "damage_control": "Damage Phase Step 3: one DC die per repair or command function; scuttling (sealed).",
    "concede": "Concede the battle now: the other side wins.",
}


def _spec(
    cmd: type, seats: list[str], schema: dict, choices: list[dict] | None = None, labels=None, default=None, ui=None
) -> CommandSpec:
    name = cmd.__struct_config__.tag
    return CommandSpec(
        type=name,
        seats=seats,
        choices=choices,
        schema=schema,
        description=DESCRIPTIONS[name],
        labels=labels,
        default=default,
        ui=ui,
    )


def legal_commands(state: State, only: str | None = None) -> list[CommandSpec]:
    """One entry per seat that still owes this step's sealed command (choices null: they would leak or exceed 64;
    the schema is narrowed to that seat's own names), and `concede` for every seat."""
    if state.over:
        return []
    out = []
    cmd = c.STEP_COMMAND.get(state.step)
    if cmd is not None and only in (None, cmd.__struct_config__.tag):
        for seat in state.owing:
            if seat not in state.submitted:  # the command path (only) needs who, not the narrowed schema
                if only:
                    out.append(_spec(cmd, [seat], command_schema(cmd)))
                    continue
                # every step's command has a default: `{}` (steam on, keep speed, hold fire, no launch, no DC)
                ui = move_ui(state, seat) if cmd is c.Move else fire_ui(state, seat) if cmd is c.Fire else None
                out.append(_spec(cmd, [seat], narrowed(state, seat, cmd), default={}, ui=ui))
    if only in (None, "concede"):
        out.append(_spec(c.Concede, list(state.seats), command_schema(c.Concede), [{}], ["concede the battle"]))
    return out


def narrowed(state: State, seat: str, cmd: type) -> dict:
    """The command's schema with enums of what this seat may name now (its ships, divisions, the enemy in play)."""
    names = (
        ("ship", tuple(n for n in state.own(seat) if state.ships[n].in_play)),
        ("target", tuple(n for n in state.own(state.enemy(seat)) if state.ships[n].in_play)),
        ("division", tuple(d.id for d in state.divisions.values() if d.seat == seat and d.ships)),
        ("to_seat", tuple(x for x in state.seats if x != seat)),
    )
    return _narrowed(cmd, names)


@functools.lru_cache(maxsize=256)
def _narrowed(cmd: type, names: tuple) -> dict:
    """Cached: callers must not mutate it."""
    schema = copy.deepcopy(command_schema(cmd))
    enums = dict(names)

    def walk(node):
        if isinstance(node, dict):
            for key, prop in node.get("properties", {}).items():
                if key in enums and prop.get("type") == "string":
                    prop["enum"] = list(enums[key])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    return schema


def move_ui(state: State, seat: str) -> ui.MoveForm:
    """What a UI draws for the Movement Phase (the seat's own entry only: its speeds are its own): each division that
    can move, its lead's pose, the distance its lead may go (BF-R6; exactly the least under a stop order), and the
    turns its orders allow, one entry per number of `turns_deg` in order (BF-R5: each arrow's band of degrees, given
    negative to port; with no arrow one free turn of -44..44 when the flagship can command; a dropped-out division one
    turn of 1-180 either way). Leaving `turns_deg` out makes each arrow's least turn; leaving `distance_mm` out keeps
    last turn's distance within the limits."""
    from domain.battlefleet_1900.rules import movement as mv

    out = []
    for d in state.divisions.values():
        if d.seat != seat or not any(mv.can_move(state, n) for n in d.ships):
            continue
        lead = d.ships[0]
        lo, hi = mv.limits(state, lead)
        stop = any(a.stop for a in d.orders)
        arrows = [a for a in d.orders if not a.stop]
        if stop:
            turns = []
        elif d.dropped_out:
            turns = [ui.TurnBand(arrow=None, to="either", min_deg=1, max_deg=180)]
        elif arrows:
            turns = [
                ui.TurnBand(arrow=a.arrow, to=a.to, min_deg=mv.BANDS[a.arrow][0], max_deg=mv.BANDS[a.arrow][1])
                for a in arrows
            ]
        elif d.flagship is not None and state.ships[d.flagship].command_ok:
            turns = [ui.TurnBand(arrow=None, to="either", min_deg=0, max_deg=44)]
        else:
            turns = []
        pose = state.pose(lead)
        out.append(
            ui.DivisionMove(
                division=d.id,
                lead=lead,
                ships=list(d.ships),
                pose=ui.Pose(x=pose.x, y=pose.y, h=pose.h),
                distance_mm=ui.Range(min=lo, max=lo if stop else hi),
                stop=stop,
                turns=turns,
            )
        )
    return ui.MoveForm(divisions=out)


def fire_ui(state: State, seat: str) -> ui.FireForm:
    """What a UI draws for the Gunnery Phase (the seat's own entry): each of its ships able to fire, with each gun
    position or beam pattern side that can fire this turn (BF-R14: its guns and cycles), its arcs (4.1, half-degrees
    clockwise off the bow as the data give them; a pattern side's by gun group, BF-R37) and how far its guns reach
    (the brackets its penetration covers; over half range one cycle a gun, 4.1); and the targets: every enemy ship
    in play (BF-R13) at the pose the seat's own view shows of it (views.pose_for: a fog sighting under `blur`, null
    when it sees none).

    Read from `redact(state, seat)` only. Which target lies in which arc, in range or in sight is left out on
    purpose: BATTLEFLEET.md §4 "Estimation" has `awaiting` never show in-arc, range or line-of-sight status before
    the tape measures it (BF-R3: they are outcomes), under either fog."""
    from domain.battlefleet_1900.rules import gunnery
    from domain.battlefleet_1900.views import pose_for

    view = redact(state, seat)
    scale = view.data.scale
    ships = []
    for name in view.own(seat):
        if not gunnery.can_fire(view, name):
            continue
        pose = view.pose(name)
        mounts = []
        for mount, side in gunnery.mounts_of(view, name):
            guns, cycles = gunnery.capacity(view, name, mount, side)
            if not guns * cycles:
                continue
            weapon = gunnery.mount_weapon(view, name, mount)
            brackets = [i + 1 for i, pen in enumerate(weapon.pen) if pen is not None]
            mounts.append(
                ui.Mount(
                    mount=mount,
                    side=side,
                    weapon=weapon.id,
                    cat=weapon.cat,
                    bore=weapon.bore,
                    guns=guns,
                    cycles=cycles,
                    arcs=_arcs(view, name, mount, side),
                    brackets=brackets,
                    reach_mm=max(brackets, default=0) * scale.bracket_mm,
                )
            )
        ships.append(ui.Firer(ship=name, pose=ui.Pose(x=pose.x, y=pose.y, h=pose.h), mounts=mounts))
    targets = []
    for name in view.own(view.enemy(seat)):
        if not view.ships[name].in_play:
            continue
        seen = pose_for(view, seat, name)
        targets.append(
            ui.FireTarget(
                ship=name,
                cls=view.ships[name].cls,
                pose=None if seen is None else ui.SeenPose(x=seen.x, y=seen.y, h=seen.h, exact=seen.exact),
            )
        )
    return ui.FireForm(
        ships=ships,
        targets=targets,
        estimate_mm=ui.Range(min=1, max=scale.brackets * scale.bracket_mm),
        one_cycle_beyond_mm=scale.brackets // 2 * scale.bracket_mm,
    )


def _arcs(state: State, ship: str, mount: str, side: str | None) -> list[ui.Arc]:
    """A position's arcs, every gun of it together; a pattern side's, one per gun group with a gun able to fire
    (gunnery.bearing: each undamaged gun of the side whose group's arc holds the target fires)."""
    from domain.battlefleet_1900.rules import gunnery

    s = state.ships[ship]
    if mount in s.mounts:
        guns = gunnery.mount_weapon(state, ship, mount).guns
        return [ui.Arc(group=None, guns=guns, half_deg=list(a)) for a in gunnery.arcs_of(state, ship, mount, None)]
    ok: dict[str, int] = {}
    for status, (gun_side, group) in zip(s.guns[mount], state.data.layout(s.cls, mount)):
        if gun_side == side and status == "ok":
            ok[group] = ok.get(group, 0) + 1
    return [
        ui.Arc(group=group, guns=ok[group], half_deg=list(a))
        for group in ("bow", "beam", "stern")
        if group in ok
        for a in gunnery.arcs_of(state, ship, mount, side, group)
    ]
