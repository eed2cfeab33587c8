"""`corvette-command`: the Corvette Command rulebook — a solitaire campaign escorting North Atlantic convoys.

The engine runs every step that needs no decision and stops at the next one (CC-R8); rule ids are in
docs/rules/corvette-command.md and every roll record cites one.
"""

from __future__ import annotations

import copy
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

VERSION = "3.0.0"
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
                asw.leave(ctx, "escaped")  # nothing left to drop: it slips away (CC-R28)
            else:
                ctx.ask(g.step)
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
    """Route the command to its rule, then run the game on to the next decision (CC-R8). Every check is the rule's
    own (a rejection leaves no trace: decide works on a copy); a refusal lists what is legal now in the shape of
    `awaiting` (the rules give the reason, the legal commands come from one place)."""
    try:
        return _judge(state, cmd, dice)
    except IllegalCommand as e:
        raise IllegalCommand(e.detail, [msgspec.to_builtins(s) for s in legal_commands(state)]) from None


def _judge(state: State, cmd: Any, dice: Dice) -> list[Event]:
    tag = cmd.__struct_config__.tag
    if DECISION_OF[tag] != state.awaiting:
        awaited = " or ".join(repr(s.type) for s in legal_commands(state)) or "no command"
        raise IllegalCommand(f"the game awaits {awaited} from {state.deciding!r}, not {tag!r}")
    ctx = Ctx(state, dice)
    ctx.emit(ev.DecisionTaken(decision=DECISION_OF[tag], command=tag))
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
        case c.Board(officer=officer):
            asw.board(ctx, officer)
        case c.Repair(area=area):
            hazards.repair(ctx, state.deciding, area)
    return run(ctx, step)


# ---- what `awaiting` shows: every choice with a label ------------------------------------------------------

STATION_NAME = {
    "lookout": "Lookout",
    "asdic": "ASDIC",
    "aa": "AA guns",
    "gun": "4-inch gun",
    "depth_charge": "Depth charges",
    "engineer": "Engineering",
    "radar": "RADAR",
    "hfdf": "HF/DF",
    "hedgehog": "Hedgehog",
}
ZONE_NAME = {"canadian": "Canadian", "air-gap": "Air Gap", "western-approaches": "Western Approaches"}


def _spec(cmd: type, seats: list[str], description: str, options: list[tuple[dict, str]] | None) -> CommandSpec:
    """One command of `awaiting`: its (choice, label) pairs, or None when there are too many to list."""
    if options is not None and len(options) > MAX_CHOICES:
        options = None
    return CommandSpec(
        type=cmd.__struct_config__.tag,
        seats=seats,
        choices=None if options is None else [ch for ch, _ in options],
        schema=command_schema(cmd),
        description=description,
        labels=None if options is None else [label for _, label in options],
    )


def _move_label(state: State, to) -> str:
    if isinstance(to, str):
        return f"Sail into {to}"
    here = state.convoy.position
    way = "Sideways" if isinstance(here, list) and here[1] == to[1] else "Forward"
    return f"{way} to box {to[0]},{to[1]} ({ZONE_NAME[state.zone_of(to)]})"


def _allocation_spec(state: State, seat: list[str]) -> CommandSpec:
    """CC-45: every allocation when there are few; else the schema says which dice there are to give."""
    faces = state.quick_faces
    options = [
        (
            {"skills": a},
            ", ".join(f"{STATION_NAME[st]} {f} (skill {setup.quick_skill(f)})" for st, f in a.items()),
        )
        for a in setup.allocations(faces)
    ]
    spec = _spec(c.AllocateSkills, seat, "Give each station one of the six dice rolled (CC-45)", options)
    if spec.choices is None:  # narrowed to what is legal now: each station once, one of the faces rolled
        schema = copy.deepcopy(spec.schema)
        skills = schema["properties"]["skills"]
        skills["additionalProperties"] = dict(skills.get("additionalProperties", {}), enum=sorted(set(faces)))
        skills["minProperties"] = skills["maxProperties"] = len(STATIONS)
        spec.schema = schema
    return spec


def legal_commands(state: State, only: str | None = None) -> list[CommandSpec]:
    """The awaited decision's commands (one decision at a time, so `only` needs no shortcut here)."""
    if state.over or state.awaiting is None:
        return []
    seat = [state.deciding]
    d = state.awaiting
    if d == "start":
        if state.options.quick_play:
            return [_spec(c.Start, seat, "Roll the six skill dice of quick play (CC-45)", [({}, "Roll the dice")])]
        return [
            _spec(
                c.ChooseStartPort,
                seat,
                "Choose the side of the ocean the first convoy sails from (CC-7)",
                [
                    ({"side": "canada"}, "Sail from Canada (Halifax or St John's)"),
                    ({"side": "liverpool"}, "Sail from Liverpool"),
                ],
            )
        ]
    if d == "allocate_skills":
        return [_allocation_spec(state, seat)]
    if d == "move":
        return [
            _spec(
                c.MoveConvoy,
                seat,
                "Move the convoy one box, or into port (CC-11, CC-9)",
                [(mv, _move_label(state, mv["to"])) for mv in movement.legal_moves(state)],
            )
        ]
    if d == "collision_reroll":
        return [
            _spec(
                c.RerollCollision,
                seat,
                "RADAR fitted: re-roll the collision once (the second result stands) or accept it (CC-14)",
                [({"reroll": True}, "Re-roll the collision"), ({"reroll": False}, "Accept the collision")],
            )
        ]
    if d == "guns":
        guns = " and the ".join(STATION_NAME[gun] for gun in attack.guns_in_range(state.engagement.range))
        return [
            _spec(
                c.FireGuns, seat, "Engage the surfaced U-boat; it crash-dives after (CC-21)", [({}, f"Fire the {guns}")]
            ),
            _spec(c.HoldFire, seat, "Let the U-boat come on without firing (CC-R14)", [({}, "Hold fire")]),
        ]
    if d == "detect":
        return [_spec(c.Detect, seat, "Search for the U-boat with the ASDIC (CC-26)", [({}, "Sweep with the ASDIC")])]
    if d == "pattern":
        sheet = state.sheet
        label = {
            "depth-charges": f"Drop a depth-charge pattern ({sheet.depth_charges} left)",
            "hedgehog": f"Fire a Hedgehog salvo ({sheet.hedgehog} left)",
        }
        return [
            _spec(
                c.DropPattern,
                seat,
                "Attack the U-boat at close range (CC-22)",
                [({"weapon": w}, label[w]) for w in asw.weapons(state)],
            )
        ]
    if d == "board":
        return [
            _spec(
                c.Board,
                seat,
                "She has surfaced: send an officer with a boarding party for the Enigma, or let her sink (CC-29)",
                [
                    ({"officer": x["officer"]}, f"Board, led by the {STATION_NAME[x['officer']]} officer")
                    if x["officer"]
                    else ({"officer": None}, "Let her sink (no boarding party)")
                    for x in asw.boarding_choices(state)
                ],
            )
        ]
    if d == "repair":
        harder = state.sheets[state.deciding].harder
        return [
            _spec(
                c.Repair,
                seat,
                "The engineers' one repair attempt in this box (CC-32)",
                [
                    ({"area": a}, f"Repair the {STATION_NAME[a]} (difficulty {harder[a][0]})")
                    for a in hazards.repairable(state, state.deciding)
                ]
                + [({"area": None}, "Make no repair")],
            )
        ]
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
    version=VERSION,
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
