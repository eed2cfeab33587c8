"""Game setup (CC-3..CC-10), quick play (CC-45) and a new convoy (CC-37)."""

from __future__ import annotations

import itertools

from domain.corvette_command.data import START_PORT
from domain.corvette_command.rules.decision_points import ask
from domain.corvette_command.rules.decks import draw_card
from domain.corvette_command.rules.equipment import fit_equipment, skill_from_d6
from domain.corvette_command.rules.resolution import plain
from domain.corvette_command.rules.weather import forecast
from domain.corvette_command.state import DEPTH_CHARGES, STATIONS, State, ymd
from domain.engine import IllegalCommand
from domain.procedure import Ctx
from events import corvette_command as ev

SIDE_OF_PORT = {"Halifax": "canada", "St John's": "canada", "Liverpool": "liverpool"}
TYPE_IX_IN_DECK = 2  # CC-6: "only 2 random Type IX cards"


def quick_skill(face: int) -> int:
    """CC-45: 6 -> 3, 5 or 4 -> 2, 3-1 -> 1."""
    return 3 if face == 6 else 2 if face >= 4 else 1


def skills_line(escort: str, skills: dict[str, int]) -> ev.Skills:
    return ev.Skills(escort=escort, **{st: skills[st] for st in STATIONS})


def begin_campaign(ctx: Ctx, side: str) -> None:
    """CC-3, CC-4, CC-6: crew skills (each escort's), stores, the U-boat deck; then the first convoy."""
    lines = []
    for escort in ctx.state.escorts:
        roll = plain(
            ctx.dice,
            [6] * len(STATIONS),
            "crew-skills",
            "CC:Game Setup/Crew Skills (CC-3)",
            f"{escort}: a 6 gives skill 2, else 1",
        )
        ctx.emit(roll)
        lines.append(skills_line(escort, {st: skill_from_d6(f) for st, f in zip(STATIONS, roll.faces)}))
    _begin(ctx, lines, side)


def _begin(ctx: Ctx, skills: list[ev.Skills], side: str) -> None:
    """CC-6, CC-R42: the deck holds every Type VII card and two Type IX face down (which two is drawn with them)."""
    ctx.emit(
        ev.CampaignBegan(
            skills=skills,
            depth_charges=DEPTH_CHARGES,
            uboat_deck=[u.id for u in ctx.state.data.uboats if u.type == "VII"],
            type_ix_face_down=TYPE_IX_IN_DECK,
            side=side,
        )
    )
    new_convoy(ctx, side)


def begin_quick_play(ctx: Ctx) -> None:
    """CC-45: roll six d6 to allocate to the six stations."""
    roll = plain(
        ctx.dice,
        [6] * 6,
        "quick-play-skills",
        "CC:Quick Play Single Convoy (CC-45)",
        "6 -> skill 3, 5 or 4 -> 2, 3-1 -> 1; the player allocates them",
    )
    ctx.emit(roll, ev.SkillDiceRolled(faces=list(roll.faces)))
    ask(ctx, "allocate_skills", ctx.state.escorts[0])


def allocations(faces: list[int]) -> list[dict[str, int]]:
    """CC-45: every distinct way to give the six dice to the six stations."""
    return [dict(zip(STATIONS, perm)) for perm in sorted(set(itertools.permutations(faces)), reverse=True)]


def skill_dice(faces: list[int] | tuple[int, ...]) -> list[int]:
    """CC-45: one die of each skill among `faces` (the highest), highest first. Which of two dice of one skill a
    station takes changes nothing (`allocate` records the skills), so these are all the different gifts."""
    return sorted({quick_skill(f): f for f in sorted(faces)}.values(), reverse=True)


def allocate(ctx: Ctx, faces: dict[str, int]) -> None:
    """CC-45: the allocated dice become skills; the convoy sails in the direction the options chose."""
    s = ctx.state
    if sorted(faces) != sorted(STATIONS) or sorted(faces.values()) != sorted(s.quick_faces):
        raise IllegalCommand(f"give each of the six stations {list(STATIONS)} one of the dice rolled {s.quick_faces} (CC-45)")
    line = skills_line(s.escorts[0], {st: quick_skill(f) for st, f in faces.items()})
    ctx.emit(ev.SkillsAllocated(skills=line))
    _begin(ctx, [line], "canada" if s.options.quick_play.direction == "east" else "liverpool")


def side_of(state: State, card_id: str) -> str:
    return SIDE_OF_PORT[START_PORT[state.data.convoy(card_id).code]]


def new_convoy(ctx: Ctx, side: str) -> None:
    """CC-7..CC-10, CC-37, CC-40: the next convoy from the corvette's side of the ocean (CC-R12, CC-R44)."""
    s = ctx.state
    fit_equipment(ctx)
    rule = "CC:New Convoy Assignment (CC-7, CC-37, CC-R12, CC-R42)"
    card = s.data.convoy(draw_card(ctx, "convoys", "draw-convoy", rule, lambda c: side_of(s, c) == side))
    orders = s.data.orders_card(draw_card(ctx, "orders", "draw-orders", "CC:Assignment Orders (CC-9, CC-R42)"))
    year = ymd(s.date)[0]
    base = 30 if year <= 1941 else 40 if year == 1942 else 50
    size_roll = plain(
        ctx.dice, [20, 20], "convoy-size", "CC:Game Setup/Convoy Size (CC-8)", f"{base} + 2d20 ships ({year})"
    )
    ctx.emit(size_roll)
    map_name = (
        "revised-1942"
        if s.options.revised_map and s.on("revised-map") and "revised-1942" in s.data.maps
        else "standard"
    )
    place_counters(ctx, map_name)
    ctx.emit(
        ev.ConvoyAssigned(
            number=s.convoys_done + 1,
            card=card.id,
            code=card.code,
            speed=card.speed,
            direction="east" if side_of(s, card.id) == "canada" else "west",
            start_port=START_PORT[card.code],
            destination=card.destination,
            size=base + sum(size_roll.faces),
            orders=orders.id,
            channel=orders.channel,
            map=map_name,
            date=s.date,
        )
    )
    forecast(ctx)


def place_counters(ctx: Ctx, map_name: str) -> None:
    """CC-5, CC-R21: each zone's U, R and blank counters go face down onto its boxes, afresh for each convoy;
    which box holds which is drawn when the box is revealed (CC-R42)."""
    for zone in ctx.state.data.maps[map_name].zones:
        u, r = zone.pool.get("U", 0), zone.pool.get("R", 0)
        ctx.emit(ev.CountersPlaced(zone=zone.name, u=u, r=r, blank=len(zone.boxes) - u - r))
