"""Fase de Resolución de Combate: the turn's steps (UL-29), U-boat movement (UL-30), revealing targets (UL-31),
Silent Running (UL-32), Bearing movement (UL-33) and the end of a turn (UL-S7)."""

from __future__ import annotations

from domain import decisions as ui
from domain.engine import IllegalCommand
from domain.procedure import memoized
from domain.uboat_leader import commands as c
from domain.uboat_leader.distances import OFF, from_area, to_edge, within
from domain.uboat_leader.el_dado import d10, stand_in
from domain.uboat_leader.legal import require, spec
from domain.uboat_leader.rules import attack, bearing, enemy, escorts
from domain.uboat_leader.rules.crew import add_stress, evasion, speed
from domain.uboat_leader.rules.reveal import reveal_near
from domain.uboat_leader.state import State
from events import uboat_leader as ev


def over(s: State) -> str | None:
    """UL-29: the steps repeat until every boat has lost contact or sunk, or no ship counter is left. Wolfpack boats
    act one at a time in each step (UL-R26: in the player's order)."""
    bt = s.battle
    return "no U-boat left on the display" if not bt.subs else "no ship left on the display" if not bt.ships else None


def awaited(s: State) -> str | None:
    bt = s.battle
    if over(s):
        return None
    if bt.step == "move":
        return "move" if bt.queue else None
    if bt.step == "bearing":
        if not bt.declared:
            return "bearing" if any(len(bearing.bearing_options(s, b)) > 1 for b in bt.subs) else None
        return "drift" if bt.queue and len(bearing.drift_ends(s, bt.queue[0])[0]) > 1 else None
    if bt.step == "escorts":
        return escorts.awaited(s)
    if bt.step == "enemy":
        return enemy.enemy_awaited(s)
    return "attack" if any(attack.can_attack(s, b) for b in bt.queue) else None


def advance(ctx) -> None:
    s = ctx.state
    bt = s.battle
    why = over(s)
    if why:
        ctx.emit(ev.CombatEnded(reason=why))
    elif bt.step == "move":
        ctx.emit(ev.CombatStep(turn=bt.turn, step="bearing", queue=[]))
    elif bt.step == "bearing":
        if not bt.declared:
            bearing.declare(ctx, {b: bearing.bearing_options(s, b)[0] for b in bt.subs})
        elif bt.queue:
            ends, removed = bearing.drift_ends(s, bt.queue[0])
            bearing.drift(ctx, bt.queue[0], ends[0], removed)
        else:
            reveal_near(ctx, list(bt.subs))  # UL-R18: after Bearing too
            if not over(s):
                escorts.begin(ctx)
    elif bt.step == "escorts":
        escorts.advance(ctx)
    elif bt.step == "enemy":
        enemy.enemy_advance(ctx)
    else:
        for boat in list(bt.queue):
            if not attack.can_attack(s, boat):
                ctx.emit(ev.AttackHeld(boat=boat))
        if bt.step == "aggressive":
            ctx.emit(ev.CombatStep(turn=bt.turn, step="enemy", queue=list(bt.ships)))
        else:
            end_turn(ctx)


def start(ctx) -> None:
    """UL-29: the pack is placed; the first turn begins with the U-boats' movement."""
    if ctx.state.act.to_place:
        raise IllegalCommand(f"place {ctx.state.act.to_place} first (UL-27)")
    ctx.emit(ev.CombatStep(turn=1, step="move", queue=list(ctx.state.battle.subs)))


# ---- U-boat movement (UL-30, UL-32, UL-S6) ---------------------------------------------------------------


@memoized  # asked for the decision awaited, its schema, its form and the command's judgement
def move_options(s: State, boat: str) -> list[tuple[str, str]]:
    """UL-30: flip first if wanted, then up to the side's speed; off the display from a Long area (leaving costs 1,
    UL-R20); Silent Running keeps the boat submerged; an Unfit boat only takes the moves that bring it nearest the
    edge (UL-R20). A move names where it ends: reveals come only after it (UL-R18), so the path changes nothing;
    U-boats do not move into the Wake, they leave by the Long areas (UL-R28); from 6.0.0 (UL-E6-2) one standing on
    the Wake may stay there, as anywhere else ("hasta el valor de Velocidad": 0 areas too). A Silent boat stays
    submerged (UL-R35)."""
    sub = s.battle.subs[boat]
    stay = s.edition.has("UL-E6-2")
    out = []
    for side in ("submerged",) if sub.silent else ("surfaced", "submerged"):
        sp = speed(s, boat, side)
        out += [(side, a) for a in within(s.data, sub.area, sp, stay)]
        if to_edge(s.data, sub.area) <= sp:
            out.append((side, OFF))
    if not s.fit(boat):
        left = {o: 0 if o[1] == OFF else to_edge(s.data, o[1]) for o in out}
        out = [o for o in out if left[o] == min(left.values())]
    return out


def nearest_ship(s: State, area: str) -> int:
    row = from_area(s.data, area)
    return min((row.get(p.area, 99) for p in s.battle.ships.values()), default=0)


def moves_of(s: State, boat: str) -> list[dict]:
    """`boat`'s legal moves now, unordered: what judging one command needs (`move_choices` orders every boat's)."""
    if boat not in s.battle.queue:
        return []
    return [{"boat": boat, "side": side, "to": to} for side, to in move_options(s, boat)]


def move_choices(s: State) -> list[dict]:
    out = []
    near: dict[str, int] = {}  # each area's distance to the nearest ship, once for every boat's options

    def key(o: tuple[str, str]) -> tuple[bool, int]:
        if o[1] == OFF:
            return True, 0
        if o[1] not in near:
            near[o[1]] = nearest_ship(s, o[1])
        return False, near[o[1]]

    for boat in s.battle.queue:
        opts = sorted(move_options(s, boat), key=key)
        out += [{"boat": boat, "side": side, "to": to} for side, to in opts]
    return out


def move_ui(s: State) -> ui.SidesForm:
    """What a UI draws for the U-boats' movement (UL-30): each boat still to move, where it is, and for each side it
    may end up (Silent: submerged only) its speed and the areas it may end in (`move_options`, the same legality as
    `move_uboat`), `off` when it may leave the display (UL-R20). The side it is on comes first, so a form that starts
    on the first side does not flip the boat unasked (a play trial: a submerged boat's form started surfaced)."""
    out = []
    for boat in s.battle.queue:
        options = move_options(s, boat)
        now = s.battle.subs[boat].side
        sides = [
            ui.Side(
                side=side,
                speed=speed(s, boat, side),
                to=sorted(to for sd, to in options if sd == side and to != OFF),
                off=(side, OFF) in options,
            )
            for side in sorted(("surfaced", "submerged"), key=lambda x: x != now)
            if any(sd == side for sd, _ in options)
        ]
        out.append(ui.BoatSides(boat=boat, area=s.battle.subs[boat].area, sides=sides))
    return ui.SidesForm(boats=out)


def move_uboat(ctx, cmd: c.MoveUBoat) -> None:
    s = ctx.state
    require(cmd, moves_of(s, cmd.boat), f"{cmd.boat} cannot move so now; legal moves are listed (UL-30, UL-R28)")
    ctx.emit(ev.UBoatManoeuvred(boat=cmd.boat, side=cmd.side, to=cmd.to))
    if cmd.to == OFF:
        ctx.emit(ev.ContactLost(boat=cmd.boat, cause="left"))
    else:
        reveal_near(ctx, [cmd.boat])  # UL-R18: after each boat's move, even none


def silent_choices(s: State) -> list[dict]:
    """UL-32, UL-R20: a Detected boat still to move; an Unfit one "debe moverse fuera del Despliegue Táctico tan
    rápidamente como le sea posible", so it runs silent (and so stays submerged, UL-R35) only when a submerged move
    is among its fastest ways out."""
    return [
        {"boat": b}
        for b in s.battle.queue
        if s.battle.subs[b].detected
        and not s.battle.subs[b].silent
        and (s.fit(b) or any(side == "submerged" for side, _ in move_options(s, b)))
    ]


def silent_running(ctx, cmd: c.SilentRunningCmd) -> None:
    """UL-32: a Detected boat (submerged, UL-R19) runs silent during its move: d10 <= EV removes Detected, else +2
    stress; Bearing speed 0 and no attack this turn."""
    s = ctx.state
    require(cmd, silent_choices(s), f"{cmd.boat} is not a Detected boat still to move (UL-32)")
    ev_ = evasion(s, cmd.boat)
    face, _ = d10(
        ctx,
        f"{cmd.boat}: Silent Running (d10 <= EV {ev_})",
        "Navegación Silenciosa (UL-32)",
        target=ev_,
        judge=lambda f, t: "Detected removed" if f <= ev_ else "still Detected, +2 stress",
    )
    ctx.emit(ev.SilentRunning(boat=cmd.boat, escaped=face <= ev_))
    if face > ev_:
        add_stress(ctx, cmd.boat, s.rules.silent_stress, "Silent Running failed")


def deep_choices(s: State) -> list[dict]:
    return [
        {"boat": b}
        for b in s.battle.queue
        if s.battle.subs[b].side == "submerged" and not s.battle.subs[b].silent and s.fit(b)
    ]


def deep_dive(ctx, cmd: c.DeepDive) -> None:
    """UL-S6: a submerged boat goes Deep instead of moving: Bearing speed 0, no attack, attacks on it −2; it is its
    move (not with Silent Running), so reveals follow (UL-R36)."""
    require(cmd, deep_choices(ctx.state), f"{cmd.boat} is not a submerged boat still to move (UL-S6, UL-R36)")
    ctx.emit(ev.DeepDived(boat=cmd.boat))
    reveal_near(ctx, [cmd.boat])


# ---- the end of a turn (UL-S7) -------------------------------------------------------------------------------


def end_turn(ctx) -> None:
    """UL-S7 (Final de cada Fase de Resolución de Combate): Silent [T] and Deep counters off; +1 Alerted if any boat
    attacked; after the last turn every boat loses contact."""
    s = ctx.state
    bt = s.battle
    fired, turn = bt.fired, bt.turn
    ctx.emit(ev.CombatTurnEnded(turn=turn))
    if fired:
        ctx.emit(ev.AlertedRaised(alerted=bt.alerted + s.rules.alerted_per_turn, cause=stand_in("UL-S7", "attacks")))
    if turn >= s.rules.combat_turns:
        for boat in list(bt.subs):
            ctx.emit(ev.ContactLost(boat=boat, cause="turns"))
    if not over(s):
        ctx.emit(ev.CombatStep(turn=turn + 1, step="move", queue=list(bt.subs)))


def specs(s: State, decision: str) -> list:
    bt = s.battle
    if decision == "move":
        moves = move_choices(s)
        out = [
            spec(
                c.MoveUBoat,
                moves,
                [f"{m['boat']} {m['side']} to {m['to']}" for m in moves],
                narrow={"boat": {"enum": list(bt.queue)}, "to": {"enum": sorted({m["to"] for m in moves})}},
                ui=move_ui(s) if ui.descriptors_wanted() else None,
            )
        ]
        if silent := silent_choices(s):
            out.append(spec(c.SilentRunningCmd, silent, [f"{x['boat']} runs silent" for x in silent]))
        if deep := deep_choices(s):
            out.append(spec(c.DeepDive, deep, [f"{x['boat']} goes deep" for x in deep]))
        return out
    if decision in ("bearing", "drift"):
        return bearing.specs(s, decision)
    return attack.specs(s)
