"""Movimiento de Demora (UL-33, UL-R19, UL-R26, UL-R43): the Reference Ship, the speeds the boats are treated as
having, and every slower piece's drift toward the Convoy Wake."""

from __future__ import annotations

from domain import decisions as ui
from domain.engine import IllegalCommand
from domain.procedure import memoized
from domain.uboat_leader import commands as c
from domain.uboat_leader.distances import distance, steps_toward, to_edge
from domain.uboat_leader.legal import require, spec
from domain.uboat_leader.rules.crew import speed
from domain.uboat_leader.rules.ships import piece_speed
from domain.uboat_leader.state import State
from events import uboat_leader as ev


@memoized  # asked by the decision awaited, its entries and the command's judgement
def bearing_options(s: State, boat: str) -> list[int]:
    """UL-33, UL-R19: a boat may be treated as slower than printed, down to 0; Silent or Deep: 0. An Unfit boat "debe
    moverse para abandonar el Despliegue Táctico tan directamente como sea posible": from UL-E3-5 it is offered only
    the speeds whose drift leaves it nearest the edge (UL-R20; before, any speed, only its drift's end filtered)."""
    sub = s.battle.subs[boat]
    if sub.silent or sub.deep:
        return [0]
    options = list(range(speed(s, boat, sub.side), -1, -1))
    if s.fit(boat) or not s.edition.has("UL-E3-5"):
        return options
    left = {v: edge_after_drift(s, boat, v) for v in options}
    return [v for v in options if left[v] == min(left.values())]


def edge_after_drift(s: State, boat: str, bearing_speed: int) -> int:
    """How far from leaving the display a boat is after the drift its Bearing speed gives: 0 once the Wake removes
    it (it "ha salido de la batalla"), else the nearest edge among the areas it may drift to (to_edge)."""
    data = s.data
    area = s.battle.subs[boat].area
    n = reference(s)[1] - bearing_speed
    if n > distance(data, area, data.display.wake):
        return 0
    return min(to_edge(data, a) for a in steps_toward(data, area, data.display.wake, max(n, 0)))


def reference(s: State) -> tuple[str | None, int]:
    """UL-33: the fastest Merchant, Lone or Naval ship is the Reference Ship; else the fastest Escort; the first of
    the fastest in label order (UL-R43)."""
    ships = s.battle.ships
    pool = [lb for lb, p in ships.items() if not p.escort] or list(ships)
    if not pool:
        return None, 0
    best = max(pool, key=lambda lb: piece_speed(s, lb))  # the first of the fastest, in label order
    return best, piece_speed(s, best)


def declare(ctx, speeds: dict[str, int]) -> None:
    s = ctx.state
    ref, rs = reference(s)
    slow = [lb for lb in s.battle.ships if lb != ref and piece_speed(s, lb) < rs]
    slow += [b for b in s.battle.subs if speeds[b] < rs]
    ctx.emit(ev.BearingDeclared(speeds=speeds, reference=ref, reference_speed=rs, drifting=slow))


def bearing(ctx, cmd: c.Bearing) -> None:
    s = ctx.state
    bad = sorted(cmd.speeds) != sorted(s.battle.subs) or any(
        v not in bearing_options(s, b) for b, v in cmd.speeds.items()
    )
    if bad:
        allowed = {b: bearing_options(s, b) for b in s.battle.subs}
        raise IllegalCommand(f"give every boat on the display a Bearing speed: {allowed} (UL-33)")
    declare(ctx, dict(cmd.speeds))


@memoized  # asked by the decision awaited, its entries and the command's judgement
def drift_ends(s: State, piece: str) -> tuple[list[str], bool]:
    """UL-33, UL-R19: 1, 2, 3 (or more) areas toward the Wake for 1, 2, 3 slower; entering the Wake with movement
    left removes the piece; the player picks among equal areas (UL-R26); an Unfit boat drifts nearest the edge."""
    bt = s.battle
    wake = s.data.display.wake
    area = bt.ships[piece].area if piece in bt.ships else bt.subs[piece].area
    speed_now = piece_speed(s, piece) if piece in bt.ships else (bt.subs[piece].bearing or 0)  # set once it drifts
    n = bt.ref_speed - speed_now
    if n > distance(s.data, area, wake):
        return [wake], True
    ends = steps_toward(s.data, area, wake, n)
    if piece in bt.subs and not s.fit(piece):
        best = min(to_edge(s.data, a) for a in ends)
        ends = [a for a in ends if to_edge(s.data, a) == best]
    return ends, False


def drift(ctx, piece: str, to: str, removed: bool) -> None:
    ctx.emit(ev.Drifted(piece=piece, to=to, removed=removed))
    if removed and piece in ctx.state.battle.subs:
        ctx.emit(ev.ContactLost(boat=piece, cause="wake"))


def drift_cmd(ctx, cmd: c.Drift) -> None:
    s = ctx.state
    piece = s.battle.queue[0]
    ends, removed = drift_ends(s, piece)
    require(cmd, [{"piece": piece, "to": a} for a in ends], f"{piece} drifts to one of {ends} (UL-33, UL-R26)")
    drift(ctx, piece, cmd.to, removed)


def bearing_spec(s: State):
    opts = {b: bearing_options(s, b) for b in s.battle.subs}
    combos: list[dict[str, int]] = [{}]
    for b, vs in opts.items():
        combos = [{**x, b: v} for x in combos for v in vs] if len(combos) * len(vs) <= 65 else []
    choices = [{"speeds": x} for x in combos] if combos else None
    labels = [", ".join(f"{b} at bearing speed {v}" for b, v in x["speeds"].items()) for x in choices] if choices else None
    high = max(max(v) for v in opts.values())
    return spec(
        c.Bearing,
        choices,
        labels,
        narrow={
            "speeds": {"required": list(opts), "propertyNames": {"enum": list(opts)}},
            "speeds.*": {"maximum": high},
        },
        form=lambda: bearing_ui(opts),
    )


def bearing_ui(opts: dict[str, list[int]]) -> ui.Form:
    """UL-33, UL-R19: each boat's Bearing speed among `bearing_options`: a number from 0 to its side's speed, or,
    where those are not a run (an Unfit boat's, UL-E3-5), the speeds it may take."""
    controls = []
    for boat, speeds in opts.items():
        if sorted(speeds) == list(range(min(speeds), max(speeds) + 1)):
            controls.append(ui.Number(field=boat, label=boat, min=min(speeds), max=max(speeds), rulebook="Velocidad"))
        else:
            options = [ui.Option(value=v, label=str(v)) for v in sorted(speeds)]
            controls.append(ui.Select(field=boat, label=boat, options=options, rulebook="Velocidad"))
    group = ui.Group(field="speeds", label="Bearing speeds", controls=controls, rulebook="Movimiento de Demora")
    return ui.Form(controls=[group])


def specs(s: State, decision: str) -> list:
    if decision == "bearing":
        return [bearing_spec(s)]
    piece = s.battle.queue[0]
    ends = drift_ends(s, piece)[0]
    return [spec(c.Drift, [{"piece": piece, "to": a} for a in ends], [f"{piece} drifts to {a}" for a in ends])]
