"""What `awaiting` shows: the awaited decision's commands, every choice with a label (the legality itself is the
rule modules': `legal_moves`, `weapons`, `repairable`, …; this module only describes it)."""

from __future__ import annotations

import copy
import functools

import msgspec

from domain import entries
from domain.corvette_command import commands as c
from domain.corvette_command.rules import asw, attack, hazards, movement, setup
from domain.corvette_command.state import RANGES, STATIONS, State
from domain.decisions import Form, Group, Variant, Variants
from domain.engine import MAX_CHOICES, CommandSpec, command_schema, spec_of

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


def _spec(
    cmd: type[msgspec.Struct], seats: list[str], description: str, options: list[tuple[dict, str]] | None
) -> CommandSpec:
    """One command of `awaiting`: its (choice, label) pairs, or None when there are too many to list."""
    if options is not None and len(options) > MAX_CHOICES:
        options = None
    choices, labels = (None, None) if options is None else ([ch for ch, _ in options], [label for _, label in options])
    return spec_of(cmd, seats, choices, command_schema(cmd), description, labels)


def _move_label(state: State, to) -> str:
    if isinstance(to, str):
        return f"Sail into {to}"
    here = state.convoy.position
    way = "Sideways" if isinstance(here, list) and here[1] == to[1] else "Forward"
    return f"{way} to channel {to[0]}, box {to[1]} ({ZONE_NAME[state.zone_of(to)]})"  # as the desk's map numbers them


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
        spec.ui = Form(
            controls=[Group(field="skills", label="Each station's die", controls=[_dice_from(0, tuple(sorted(faces)))])]
        )
    return spec


@functools.lru_cache(maxsize=256)
def _dice_from(i: int, left: tuple[int, ...]) -> Variants:
    """CC-45: station i takes one of the dice left (one per skill: `setup.skill_dice`), then the next station one of
    the rest, so every die is given once; at most 90 ways (two dice of each skill). Subtrees are shared: nobody
    mutates one."""
    station = STATIONS[i]
    variants = []
    for face in setup.skill_dice(left):
        rest = list(left)
        rest.remove(face)
        variants.append(
            Variant(
                label=f"Skill {setup.quick_skill(face)} (a {face})",
                fixed={station: face},
                controls=[_dice_from(i + 1, tuple(rest))] if rest else [],
            )
        )
    return Variants(label=STATION_NAME[station], variants=variants)


DETECT = (
    "Search for the U-boat with the ASDIC (CC-26): a success brings it one range band closer, +3 to the next search "
    "while contact is held, and at close range starts your attack; a failure lets it open one band (two with "
    "engineering damaged), beyond long range it is lost, and a U-boat not yet depth-charged may attack again first"
)


def _detect_spec(state: State, seat: list[str]) -> CommandSpec:
    """Its label says where the U-boat is and what a success does: a play trial met "Sweep with the ASDIC" after each
    success, eight times, with nothing saying why the sweep came again."""
    held, at = _detect_reads(state)
    then = "a success starts your attack" if at == 0 else f"a success brings it to {RANGES[at - 1]} range"
    where = f"the U-boat at {RANGES[min(at, 3)]} range{', contact held (+3)' if held else ''}"
    label = f"Sweep with the ASDIC: {where}; {then}"
    return _spec(c.Detect, seat, DETECT, [({}, label)])


def _detect_reads(state: State) -> tuple[bool, int]:
    g = state.engagement
    return asw.contact_held(g), g.range


def _reroll_spec(state: State, seat: list[str]) -> CommandSpec:
    return _spec(
        c.RerollCollision,
        seat,
        "RADAR fitted: re-roll the collision once (the second result stands) or accept it (CC-14)",
        [({"reroll": True}, "Re-roll the collision"), ({"reroll": False}, "Accept the collision")],
    )


# The entries that are the same all game go through domain/entries.py (their bytes are kept between answers); the
# others change with nearly every command, each decision having its own.
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
        return [entries.kept(_reroll_spec, entries.reads_nothing, state, seat)]
    if d == "guns":
        guns = " and the ".join(STATION_NAME[gun] for gun in attack.guns_in_range(state.engagement.range))
        return [
            _spec(
                c.FireGuns, seat, "Engage the surfaced U-boat; it crash-dives after (CC-21)", [({}, f"Fire the {guns}")]
            ),
            _spec(c.HoldFire, seat, "Let the U-boat come on without firing (CC-R14)", [({}, "Hold fire")]),
        ]
    if d == "detect":
        return [entries.kept(_detect_spec, _detect_reads, state, seat)]
    if d == "pattern":
        sheet = state.sheet
        label = {
            "depth-charges": f"Drop a depth-charge pattern ({sheet.depth_charges} left)",
            "hedgehog": f"Fire a Hedgehog salvo ({sheet.hedgehog} left)",
        }
        drop = _spec(
            c.DropPattern,
            seat,
            "Attack the U-boat at close range (CC-22)",
            [({"weapon": w}, label[w]) for w in asw.weapons(state)],
        )
        if not asw.may_hold(state):
            return [drop]
        hold = "Keep the charges: it evades, and attacks the convoy again while it has attacks and is unhurt (CC-R28)"
        return [drop, _spec(c.HoldPattern, seat, hold, [({}, "Drop no pattern")])]
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
