"""1.4 The turn sequence as data (BF-R1), the setup, and the end of the battle (BF-R31).

Each step names its sealed command, who owes it (public facts only), how a seat's submission is judged and how
the step resolves once every seat that owes is in. A step nobody owes is skipped; the driver runs every step
that needs no decision and stops at the next one that does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from domain.battlefleet_1900 import commands as c
from domain.battlefleet_1900.rules import damage_control, gunnery, hits, movement, orders, sealing, sinking, torpedoes
from domain.battlefleet_1900.state import LOST, State
from domain.engine import IllegalCommand, InvalidInput, tag
from events import battlefleet_1900 as ev
from events.core import GameEnded

if TYPE_CHECKING:
    from domain.procedure import Ctx


@dataclass(frozen=True)
class Step:
    name: str
    command: type[msgspec.Struct] | None  # the sealed command it awaits, or None: the rules run it alone
    owes: Callable[[State, str], bool] | None
    check: Callable[[State, str, Any], None] | None
    resolve: Callable[[Ctx], None]
    before: Callable[[Ctx], None] | None = None  # what happens before anyone submits (BF-R16)


def owes_orders(state: State, seat: str) -> bool:
    return any(d.seat == seat and d.ships for d in state.divisions.values())


def owes_move(state: State, seat: str) -> bool:
    return any(movement.can_move(state, n) for n in state.own(seat))


def move_phase(ctx: Ctx) -> None:
    for name in movement.resolve(ctx):
        orders.leave(ctx, name, ev.ShipWithdrew(ship=name))
    sealing.sightings(ctx, "moved")


STEPS = (
    Step("command", c.GiveOrders, owes_orders, orders.check_orders, orders.resolve),
    Step("movement", c.Move, owes_move, movement.check_move, move_phase),
    Step("gunnery", c.Fire, gunnery.owes, gunnery.check_fire, gunnery.resolve, before=gunnery.abandon_at_start),
    Step("torpedo", c.LaunchTorpedoes, torpedoes.owes, torpedoes.check_launch, torpedoes.resolve),
    Step("fire_flooding", None, None, None, sinking.step_one),
    Step("hits", None, None, None, hits.step),
    Step("damage_control", c.DamageControl, damage_control.owes, damage_control.check_dc, damage_control.resolve),
    Step("sinking", None, None, None, sinking.step_four),
)


def check_start(state: State, seat: str, cmd: c.Start) -> None:
    """5.0, 6.2: skimmers only where a tube may carry them; boat gun crews stand down only on armoured decks."""
    seen = set()
    for s in cmd.ships:
        if s.ship not in state.own(seat):
            raise IllegalCommand(f"start: {s.ship!r} is not one of your ships; yours are {state.own(seat)} (BF-R2)")
        if s.ship in seen:
            raise IllegalCommand(f"start: {s.ship!r} is listed twice; list each of your ships at most once (BF-R2)")
        seen.add(s.ship)
        if s.torpedo_depth not in torpedoes.depths(state, s.ship):
            raise IllegalCommand(
                f"{s.ship} carries no surface skimmers (BF:5.0: destroyers, torpedo boats, torpedo gunboats)"
            )
        if s.boat_guns_manned not in orders.crews(state, s.ship):
            raise IllegalCommand(f"{s.ship} has no armoured deck: its boat guns are always manned (BF:6.2)")


def default_seats(options: c.Options) -> list[str]:
    """BF-R2: the scenario's sides (japan and russia in both stand-in scenarios; a game's own data set may differ,
    and is checked before this is asked)."""
    sc = (options.data or {}).get("scenarios", {}).get(options.scenario, {})
    return [side["seat"] for side in sc.get("sides", [])] or ["japan", "russia"]


def check_setup(options: c.Options, seats: list[str], data) -> None:
    if options.scenario not in data.scenarios:
        raise InvalidInput("invalid-options", f"options.scenario is one of {sorted(data.scenarios)}")
    want = [side.seat for side in data.scenarios[options.scenario].sides]
    if seats != want:
        raise InvalidInput("invalid-seats", f"{options.scenario} is played by the seats {want}, in that order")


def begin(ctx: Ctx) -> None:
    s = ctx.state
    ctx.emit(ev.BattleStarted(scenario=s.scenario, seats=list(s.seats), turns=s.turns, fog=s.fog))
    if s.edition.has("BF-E6-2"):  # the crews are public (BF-R20): `start`'s public part, as give_orders' (BF-R34)
        for name in s.ships:
            if len(orders.crews(s, name)) > 1:
                ctx.emit(ev.BoatGunsManned(ship=name, manned=s.sealed[s.ships[name].seat].manned.get(name, True)))


SETUP = Step("setup", c.Start, lambda state, seat: True, check_start, begin)
BY_NAME = {st.name: st for st in (SETUP, *STEPS)}


def submit(ctx: Ctx, seat: str, cmd: Any) -> None:
    """BF-R1, R2: one sealed submission per seat per step; the last one due opens the step's resolution."""
    s = ctx.state
    step = BY_NAME[s.step]
    name = tag(cmd)
    if step.command is None or name != tag(step.command):
        raise IllegalCommand(f"{name!r} is not awaited: the {s.step} step awaits {expected(s)} (BF:1.4, BF-R1)")
    if seat not in s.owing or seat in s.submitted:
        raise IllegalCommand(f"{seat} owes nothing in the {s.step} step (one submission per seat per step, BF-R2)")
    if step.check is not None:  # a step with a command has its check
        step.check(s, seat, cmd)
    content = {k: v for k, v in msgspec.to_builtins(cmd).items() if k != "type"}
    sealing.seal(ctx, seat, name, content)
    if all(x in s.submitted for x in s.owing):
        step.resolve(ctx)
        advance(ctx, step.name)


def expected(state: State) -> str:
    step = BY_NAME[state.step]
    return f"{tag(step.command)!r} from {[x for x in state.owing if x not in state.submitted]}"


def advance(ctx: Ctx, after: str) -> None:
    """Run the steps that follow until one awaits a seat (or the battle ends)."""
    s = ctx.state
    i = len(STEPS) if after == "setup" else [st.name for st in STEPS].index(after) + 1
    while True:
        if s.turn and (why := finished(s)):
            end(ctx, None, why)
            return
        if i == len(STEPS):
            if s.turn:
                ctx.emit(ev.TurnEnded(turn=s.turn))
                if s.turn >= s.turns:
                    end(ctx, None, f"turn {s.turns}, the last, is over (BF-R31)")
                    return
            ctx.emit(ev.TurnStarted(turn=s.turn + 1))
            if s.turn == 1:
                sealing.sightings(ctx, "start")
            i = 0
        step = STEPS[i]
        if step.before:
            step.before(ctx)
        owing = [seat for seat in s.seats if step.owes is not None and step.owes(s, seat)]
        ctx.emit(ev.StepStarted(turn=s.turn, step=step.name, owing=owing))
        if owing:
            return
        if step.command is None:
            step.resolve(ctx)
        i += 1


def finished(state: State) -> str | None:
    """BF-R31, R47: a side with nothing afloat in play (surrendered, sunk, withdrawn, going under) ends the battle."""
    for seat in state.seats:
        if not any(state.ships[n].in_play and state.ships[n].sinking is None for n in state.own(seat)):
            return f"{seat} has no ship left in play"
    return None


def shares(state: State) -> list[ev.SideShare]:
    """BF-R31: size lost (sunk, capsized, scuttled, blown up, surrendered; BF-R39: going under) of size at start."""
    out = []
    for seat in state.seats:
        lost = [n for n in state.own(seat) if state.ships[n].lost in LOST or state.ships[n].sinking is not None]
        out.append(
            ev.SideShare(
                seat=seat,
                size_lost=sum(state.cls(n).size for n in lost),
                size_start=state.start_size[seat],
                ships_lost=len(lost),
            )
        )
    return out


def winner(state: State) -> str:
    """BF-R31: the lower share of its starting size lost wins; equal shares draw."""
    a, b = shares(state)
    left, right = a.size_lost * b.size_start, b.size_lost * a.size_start
    return "draw" if left == right else a.seat if left < right else b.seat


def end(ctx: Ctx, result: str | None, reason: str) -> None:
    """The battle is over: the result, every seal opened (the invariant: all revealed by the end), the table."""
    s = ctx.state
    ctx.emit(ev.BattleEnded(result=result or winner(s), reason=reason, shares=shares(s)))
    sealing.reveal(ctx, [])
    table = [ev.ShipPose(ship=n, x=p.x, y=p.y, h=p.h) for n in s.ships for p in [s.pose(n)]]
    ctx.emit(ev.TableRevealed(ships=table))
    ctx.emit(GameEnded(reason=reason))


def concede(ctx: Ctx, seat: str) -> None:
    end(ctx, ctx.state.enemy(seat), f"{seat} conceded (BF-R31)")
