"""Convoy movement (CC-11, CC-R11) and the assignment orders' channel (CC-9)."""

from __future__ import annotations

from domain.corvette_command.rules.victory import score_years
from domain.corvette_command.state import State
from domain.engine import IllegalCommand
from domain.procedure import Ctx
from events import corvette_command as ev


def half_days(speed: str, weather: str) -> int:
    """CC-11: fast 1 day a box (1½ in storm), slow 1½ (2 in storm); in half days."""
    if speed == "fast":
        return 3 if weather == "storm" else 2
    return 4 if weather == "storm" else 3


def legal_moves(state: State) -> list[dict]:
    """Every box (or the destination port) the convoy may enter next."""
    c = state.convoy
    m = state.data.maps[c.map]
    if isinstance(c.position, str):  # in port: the port's boxes; leaving Liverpool, the orders' channel (CC-9)
        boxes = m.ports[c.position].boxes
        if c.position == "Liverpool":
            boxes = [b for b in boxes if b[0] == c.channel] or boxes
        return [{"to": list(b)} for b in boxes]
    forward, sideways = _forward(state, c.position), _sideways(state, c.position)
    if c.speed == "fast":
        return forward + sideways
    # CC-R11: slow convoys zig-zag, one box forward, one sideways, alternating (L42), unless the other is all
    # there is (the orders' channel can leave no box of the kind due)
    due = sideways if c.last_move == "forward" else forward
    return due or sideways or forward


def _forward(state: State, at: list[int]) -> list[dict]:
    """Forward one column (fast: diagonally too), or into the destination port from a box beside it."""
    c = state.convoy
    m = state.data.maps[c.map]
    ch, col = at
    nxt = col + (1 if c.direction == "east" else -1)
    out: list[dict] = []
    if at in m.ports[c.destination].boxes:
        out.append({"to": c.destination})
    if 0 <= nxt < m.columns:
        for dch in (-1, 0, 1) if c.speed == "fast" else (0,):
            out.append({"to": [ch + dch, nxt]})
    return [mv for mv in out if _on_map(state, mv["to"]) and _obeys_orders(state, mv["to"])]


def _sideways(state: State, at: list[int]) -> list[dict]:
    """One channel over; toward the orders' channel first, so the first choice offered is the useful one."""
    c = state.convoy
    ch, col = at
    out = [{"to": [ch + d, col]} for d in sorted((-1, 1), key=lambda d: abs(ch + d - c.channel))]
    return [mv for mv in out if _on_map(state, mv["to"]) and _obeys_orders(state, mv["to"])]


def _on_map(state: State, to) -> bool:
    if isinstance(to, str):
        return True
    m = state.data.maps[state.convoy.map]
    return 0 <= to[0] < m.channels and 0 <= to[1] < m.columns


def _obeys_orders(state: State, to) -> bool:
    """CC-9: eastbound, the first box of the Western Approaches is in the orders' channel."""
    c = state.convoy
    if isinstance(to, str) or c.direction != "east" or isinstance(c.position, str):
        return True
    entering = state.zone_of(to) == "western-approaches" and state.zone_of(c.position) != "western-approaches"
    return not entering or to[0] == c.channel


def check_move(state: State, to) -> None:
    if {"to": to} not in legal_moves(state):
        raise IllegalCommand(
            f"the convoy cannot enter {to} from {state.convoy.position} "
            f"({state.convoy.speed}, {state.convoy.direction}bound, orders channel {state.convoy.channel}; CC-9, CC-11)"
        )


def move(ctx: Ctx, to) -> None:
    """CC-11: the convoy enters the box (or port), taking its time by speed and weather."""
    check_move(ctx.state, to)
    s = ctx.state
    took = half_days(s.convoy.speed, s.convoy.weather)
    ctx.emit(ev.ConvoyMoved(to=to, half_days=took, date=s.date + (s.half + took) // 2))
    if s.edition.has("CC-E4-1"):
        score_years(ctx)  # CC-R24: a year that ended at sea is scored when it ends, not at the next port
