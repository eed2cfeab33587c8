"""`corvette-command`: the Corvette Command rulebook — a solitaire campaign escorting North Atlantic convoys.

The engine runs every step that needs no decision and stops at the next one (CC-R8); rule ids are in
docs/rules/corvette-command.md and every roll record cites one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.corvette_command import bot, views
from domain.corvette_command import commands as c
from domain.corvette_command.awaiting import legal_commands
from domain.corvette_command.data import parse_data
from domain.corvette_command.editions import EDITIONS
from domain.corvette_command.evolve import evolve
from domain.corvette_command.rules import asw, attack, hazards, movement, port, random_events, setup, weather
from domain.corvette_command.rules.decision_points import ask
from domain.corvette_command.state import State, initial_state
from domain.dice import Dice
from domain.engine import IllegalCommand, InvalidInput, Ruleset, tag
from domain.procedure import Ctx, run
from events import corvette_command as ev
from events.vocabulary import Event

BOX: dict[str, Callable[..., None]] = {  # (ctx) or (ctx, escort): each box step's rule
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
                asw.nothing_to_drop(ctx)  # CC-R28
            else:
                ask(ctx, g.step)
        else:
            ENGAGEMENT[g.step](ctx)
    elif s.pending_uboats > 0:
        attack.start_engagement(ctx)
    elif s.box_steps:
        box_step = s.box_steps[0]
        BOX[box_step.name](ctx, box_step.escort) if box_step.escort else BOX[box_step.name](ctx)
    elif s.convoy is not None and s.convoy.arrived:
        port.arrive(ctx)
    else:
        ask(ctx, "move", s.escorts[0])  # CC-R37: the senior escort leads the convoy


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
    "hold_pattern": "pattern",
    "board": "board",
    "repair": "repair",
}


def decide(state: State, cmd: Any, seat: str, dice: Dice) -> list[Event]:
    """Route the command to its rule, then run the game on to the next decision (CC-R8). Every check is the rule's
    own (a rejection leaves no trace: decide works on a copy); a refusal gives the rule's reason and the engine adds
    what is legal now (domain/engine.py `refusal`)."""
    name = tag(cmd)
    if DECISION_OF[name] != state.awaiting:
        awaited = " or ".join(repr(s.type) for s in legal_commands(state)) or "no command"
        raise IllegalCommand(f"the game awaits {awaited} from {state.deciding!r}, not {name!r} (CC-R8)")
    ctx = Ctx(state, dice, evolve)
    ctx.emit(ev.DecisionTaken(decision=DECISION_OF[name], command=name))
    match cmd:
        case c.ChooseStartPort(side=side):
            setup.begin_campaign(ctx, side)
        case c.Start():
            setup.begin_quick_play(ctx)
        case c.AllocateSkills(skills=skills):
            setup.allocate(ctx, skills)
        case c.MoveConvoy(to=to):
            movement.move(ctx, to)
        case c.RerollCollision(reroll=reroll):
            hazards.resume_collision(ctx, state.deciding, reroll)
        case c.FireGuns():
            attack.fire_guns(ctx)
        case c.HoldFire():
            ctx.emit(ev.FireHeld())
        case c.Detect():
            asw.detect(ctx)
        case c.DropPattern(weapon=weapon):
            asw.drop_pattern(ctx, weapon)
        case c.HoldPattern():
            asw.hold_pattern(ctx)
        case c.Board(officer=officer):
            asw.board(ctx, officer)
        case c.Repair(area=area):
            hazards.repair(ctx, state.deciding, area)
    return run(ctx, lambda s: s.awaiting, step)


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
    editions=EDITIONS,
    title="Corvette Command — escort of North Atlantic convoys, solitaire or two escorts",
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
    digest=views.digest,
    event_types=ev.EVENTS,
    data_option="data",
    bot=bot.choose,
    outcomes=bot.outcomes,
    categories=bot.categories,
    sequence_rule="CC-R8",
)
