"""`corvette-command`: the Corvette Command rulebook — a solitaire campaign escorting North Atlantic convoys.

The engine runs every step that needs no decision and stops at the next one (CC-R8); rule ids are in
docs/rules/corvette-command.md and every roll record cites one.
"""

from __future__ import annotations

import itertools
from typing import Any

import msgspec

from domain.corvette_command import commands as c
from domain.corvette_command import views
from domain.corvette_command.data import parse_data
from domain.corvette_command.rules import asw, attack, hazards, movement, port, random_events, setup, weather
from domain.corvette_command.rules.procedure import Ctx, run
from domain.corvette_command.state import STATIONS, State, evolve, initial_state
from domain.dice import Dice
from domain.engine import CommandSpec, IllegalCommand, InvalidInput, Ruleset, command_schema
from events import corvette_command as ev
from events.vocabulary import Event

MAX_CHOICES = 64

BOX = {
    "weather": weather.change,
    "collision": hazards.collision,
    "mechanical": hazards.mechanical,
    "reveal": random_events.reveal,
    "repair": hazards.repair_step,
}
ENGAGEMENT = {
    "spot": attack.spot,
    "attack": attack.attack,
    "evaded": asw.evaded,
    "gone": lambda ctx: asw.leave(ctx, ctx.state.engagement.grade or "escaped"),
}


def step(ctx: Ctx) -> None:
    """One automatic step, or ask for the decision the state is at."""
    s = ctx.state
    g = s.engagement
    if g is not None:
        if g.step in ("guns", "detect", "pattern", "board"):
            if g.step == "pattern" and not asw.weapons(s):
                asw.leave(ctx, "escaped")  # nothing left to drop: it slips away
            else:
                ctx.ask(g.step)
        else:
            ENGAGEMENT[g.step](ctx)
    elif s.pending_uboats > 0:
        attack.start_engagement(ctx)
    elif s.box_steps:
        name, _, escort = s.box_steps[0].partition(":")
        BOX[name](ctx, escort) if escort else BOX[name](ctx)
    elif s.convoy is not None and s.convoy.arrived:
        port.arrive(ctx)
    else:
        ctx.ask("move", s.escorts[0])  # CC-R37: the senior escort leads the convoy


DECISION_OF = {
    "choose_start_port": "start",
    "start": "start",
    "allocate_skills": "allocate_skills",
    "move_convoy": "move",
    "reroll_collision": "collision_reroll",
    "fire_guns": "guns",
    "hold_fire": "guns",
    "detect": "detect",
    "drop_pattern": "pattern",
    "board": "board",
    "repair": "repair",
}


def decide(state: State, cmd: Any, seat: str, dice: Dice) -> list[Event]:
    tag = cmd.__struct_config__.tag
    if DECISION_OF[tag] != state.awaiting:
        raise IllegalCommand(f"{tag!r} answers the {DECISION_OF[tag]!r} decision; the game awaits {state.awaiting!r}")
    ctx = Ctx(state, dice)
    choice = {k: v for k, v in msgspec.to_builtins(cmd).items() if k != "type"}
    if tag == "move_convoy":
        movement.check_move(state, cmd.to)  # the move case below emits without checking
    if tag == "allocate_skills":
        check_allocation(state, cmd.skills)  # setup.allocate trusts its input
    # repair, board and drop_pattern are checked by their rules: decide works on a copy, so a rejection
    # at any step leaves no trace
    ctx.take(DECISION_OF[tag], choice)
    match cmd:
        case c.ChooseStartPort(side=side):
            setup.begin_campaign(ctx, side)
        case c.Start():
            setup.begin_quick_play(ctx)
        case c.AllocateSkills(skills=skills):
            setup.allocate(ctx, skills)
        case c.MoveConvoy(to=to):
            s = ctx.state
            ctx.emit(
                ev.ConvoyMoved(
                    to=to,
                    half_days=movement.half_days(s.convoy.speed, s.convoy.weather),
                    date=s.date + (s.half + movement.half_days(s.convoy.speed, s.convoy.weather)) // 2,
                )
            )
        case c.RerollCollision(reroll=reroll):
            hazards.resume_collision(ctx, state.deciding, reroll)
        case c.FireGuns():
            attack.fire_guns(ctx)
        case c.HoldFire():
            pass
        case c.Detect():
            asw.detect(ctx)
        case c.DropPattern(weapon=weapon):
            asw.drop_pattern(ctx, weapon)
        case c.Board(officer=officer):
            asw.board(ctx, officer)
        case c.Repair(area=area):
            hazards.repair(ctx, state.deciding, area)
    return run(ctx, step)


def check_allocation(state: State, skills: dict[str, int]) -> None:
    if sorted(skills) != sorted(STATIONS) or sorted(skills.values()) != sorted(state.quick_faces):
        raise IllegalCommand(
            f"give each of the six stations {list(STATIONS)} one of the dice rolled {state.quick_faces}",
            _allocations(state) or [],
        )


def _allocations(state: State) -> list[dict] | None:
    faces = state.quick_faces
    seen, out = set(), []
    for perm in itertools.permutations(faces):
        if perm not in seen:
            seen.add(perm)
            out.append({"skills": dict(zip(STATIONS, perm))})
            if len(out) > MAX_CHOICES:
                return None
    return out


def _repair_choices(state: State) -> list[dict]:
    return [{"area": a} for a in hazards.repairable(state, state.deciding)] + [{"area": None}]


def _spec(cmd: type, seats: list[str], choices: list[dict] | None) -> CommandSpec:
    if choices is not None and len(choices) > MAX_CHOICES:
        choices = None
    return CommandSpec(type=cmd.__struct_config__.tag, seats=seats, choices=choices, schema=command_schema(cmd))


def legal_commands(state: State, only: str | None = None) -> list[CommandSpec]:
    """The awaited decision's commands (one decision at a time, so `only` needs no shortcut here)."""
    if state.over or state.awaiting is None:
        return []
    seat = [state.deciding]
    d = state.awaiting
    if d == "start":
        if state.options.quick_play:
            return [_spec(c.Start, seat, [{}])]
        return [_spec(c.ChooseStartPort, seat, [{"side": "canada"}, {"side": "liverpool"}])]
    if d == "allocate_skills":
        return [_spec(c.AllocateSkills, seat, _allocations(state))]
    if d == "move":
        return [_spec(c.MoveConvoy, seat, movement.legal_moves(state))]
    if d == "collision_reroll":
        return [_spec(c.RerollCollision, seat, [{"reroll": True}, {"reroll": False}])]
    if d == "guns":
        return [_spec(c.FireGuns, seat, [{}]), _spec(c.HoldFire, seat, [{}])]
    if d == "detect":
        return [_spec(c.Detect, seat, [{}])]
    if d == "pattern":
        return [_spec(c.DropPattern, seat, [{"weapon": w} for w in asw.weapons(state)])]
    if d == "board":
        return [_spec(c.Board, seat, [{"officer": x["officer"]} for x in asw.boarding_choices(state)])]
    if d == "repair":
        return [_spec(c.Repair, seat, _repair_choices(state))]
    raise ValueError(f"unknown decision {d!r}")


def default_seats(options: c.Options) -> list[str]:
    return ["escort-a", "escort-b"] if options.two_player else ["captain"]


def check_setup(options: c.Options, seats: list[str], data) -> None:
    need = 2 if options.two_player else 1
    if len(seats) != need:
        raise InvalidInput(
            "invalid-seats",
            "corvette-command is solitaire: one seat (default 'captain'); "
            "with option two_player, two seats (default 'escort-a', 'escort-b')",
        )
    if options.two_player and options.quick_play:
        raise InvalidInput(
            "invalid-options", "quick play is a one-player convoy: use two_player or quick_play, not both"
        )
    if (options.end_year, options.end_month) <= (options.year, options.month):
        raise InvalidInput("invalid-options", "the campaign's end (end_year, end_month) must come after its start")


RULESET = Ruleset(
    id="corvette-command",
    version="1.0.0",
    title="Corvette Command — solitaire escort of North Atlantic convoys",
    options_type=c.Options,
    command_types=c.COMMANDS,
    default_seats=default_seats,
    check_setup=check_setup,
    parse_data=parse_data,
    data_file="data/default.json",
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    views=views.VIEWS,
    event_types=ev.EVENTS,
    data_option="data",
)
