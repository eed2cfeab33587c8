"""Game setup (CC-3..CC-10), quick play (CC-45), a new convoy (CC-37) and equipment dates (CC-40, CC-41)."""

from __future__ import annotations

from domain.corvette_command.data import START_PORT
from domain.corvette_command.rules.procedure import Ctx
from domain.corvette_command.rules.resolution import plain
from domain.corvette_command.rules.weather import forecast
from domain.corvette_command.state import (
    ALLIED_EQUIPMENT,
    DEPTH_CHARGES,
    STATIONS,
    ymd,
)
from domain.dice import apply_shuffle, shuffle_sides
from events import corvette_command as ev

SIDE_OF_PORT = {"Halifax": "canada", "St John's": "canada", "Liverpool": "liverpool"}


def skill_from_d6(face: int) -> int:
    """CC-3: a 6 starts the station at skill 2, anything else at 1."""
    return 2 if face == 6 else 1


def quick_skill(face: int) -> int:
    """CC-45: 6 -> 3, 5 or 4 -> 2, 3-1 -> 1."""
    return 3 if face == 6 else 2 if face >= 4 else 1


def shuffled(ctx: Ctx, items: list[str], purpose: str, rule: str) -> list[str]:
    if len(items) < 2:
        return list(items)
    roll = ctx.dice.roll(shuffle_sides(len(items)), purpose, rule)
    ctx.emit(roll)
    return apply_shuffle(items, roll.faces)


def begin_campaign(ctx: Ctx, side: str) -> None:
    """CC-3, CC-4, CC-6: crew skills (each escort's), stores, the U-boat deck; then the first convoy."""
    skills = {}
    for escort in ctx.state.escorts:
        roll = plain(
            ctx.dice,
            [6] * len(STATIONS),
            "crew-skills",
            "CC:Game Setup/Crew Skills (CC-3)",
            f"{escort}: a 6 gives skill 2, else 1",
        )
        ctx.emit(roll)
        skills[escort] = {st: skill_from_d6(f) for st, f in zip(STATIONS, roll.faces)}
    ctx.emit(ev.CampaignBegan(skills=skills, depth_charges=DEPTH_CHARGES, uboat_deck=build_uboat_deck(ctx), side=side))
    shuffle_card_decks(ctx)
    new_convoy(ctx, side)


def shuffle_card_decks(ctx: Ctx) -> None:
    for deck in ("convoys", "orders"):
        cards = [c.id for c in getattr(ctx.state.data, deck)]
        ctx.emit(
            ev.DeckReshuffled(deck=deck, order=shuffled(ctx, cards, f"shuffle-{deck}", "CC:Game Setup (CC-7, CC-9)"))
        )


def build_uboat_deck(ctx: Ctx) -> list[str]:
    """CC-6: all the Type VII cards and 2 random Type IX, shuffled."""
    data = ctx.state.data
    nines = [u.id for u in data.uboats if u.type == "IX"]
    picked = shuffled(ctx, nines, "pick-type-ix", "CC:Game Setup/U-Boats (CC-6)")[:2]
    deck = [u.id for u in data.uboats if u.type == "VII"] + picked
    return shuffled(ctx, deck, "shuffle-uboats", "CC:Game Setup/U-Boats (CC-6)")


def begin_quick_play(ctx: Ctx) -> None:
    """CC-45: roll six d6 to allocate to the six stations."""
    roll = plain(
        ctx.dice,
        [6] * 6,
        "quick-play-skills",
        "CC:Quick Play Single Convoy (CC-45)",
        "6 -> skill 3, 5 or 4 -> 2, 3-1 -> 1; the player allocates them",
    )
    ctx.emit(roll)
    ctx.ask("allocate_skills", ctx.state.escorts[0])


def allocate(ctx: Ctx, faces: dict[str, int]) -> None:
    """CC-45: the allocated dice become skills; the convoy sails in the direction the options chose."""
    skills = {st: quick_skill(f) for st, f in faces.items()}
    side = "canada" if ctx.state.options.quick_play.direction == "east" else "liverpool"
    ctx.emit(ev.SkillsAllocated(skills=skills))
    ctx.emit(
        ev.CampaignBegan(
            skills={ctx.state.escorts[0]: skills},
            depth_charges=DEPTH_CHARGES,
            uboat_deck=build_uboat_deck(ctx),
            side=side,
        )
    )
    shuffle_card_decks(ctx)
    new_convoy(ctx, side)


def draw(ctx: Ctx, deck: str, accept=lambda card_id: True) -> str:
    """The top card that `accept`s (CC-R12), reshuffling the discards into the deck when it runs out."""
    s = ctx.state
    for _ in range(2):
        for card in s.decks[deck]:
            if accept(card):
                return card
        cards = s.decks[deck] + s.discards.get(deck, [])
        ctx.emit(
            ev.DeckReshuffled(
                deck=deck, order=shuffled(ctx, cards, f"reshuffle-{deck}", "CC:New Convoy Assignment (CC-37)")
            )
        )
    raise ValueError(f"no {deck} card fits")


def new_convoy(ctx: Ctx, side: str) -> None:
    """CC-7..CC-10, CC-37, CC-40: the next convoy from the corvette's side of the ocean."""
    s = ctx.state
    fit_equipment(ctx)
    card = s.data.convoy(draw(ctx, "convoys", lambda c: SIDE_OF_PORT[START_PORT[s.data.convoy(c).code]] == side))
    orders = s.data.orders_card(draw(ctx, "orders"))
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
            direction="east" if SIDE_OF_PORT[START_PORT[card.code]] == "canada" else "west",
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
    """CC-5: each zone's U, R and blank counters shuffled face down onto its boxes."""
    m = ctx.state.data.maps[map_name]
    for zone in m.zones:
        kinds = ["U"] * zone.pool.get("U", 0) + ["R"] * zone.pool.get("R", 0)
        kinds += ["blank"] * (len(zone.boxes) - len(kinds))
        order = shuffled(ctx, kinds, f"counters-{zone.name}", "CC:Game Setup/Map Setup (CC-5)")
        ctx.emit(ev.CountersPlaced(zone=zone.name, boxes=[[b[0], b[1], k] for b, k in zip(zone.boxes, order)]))


def fit_equipment(ctx: Ctx) -> None:
    """CC-40: Allied equipment whose date (with delays) has come is fitted before sailing; CC-41: operators."""
    s = ctx.state
    for escort in s.escorts:
        for eq in ALLIED_EQUIPMENT:
            if s.on(eq) and not s.fitted(eq, escort):
                skill = None
                if s.options.radar_hfdf_operators and eq in ("radar", "hfdf"):
                    roll = plain(
                        ctx.dice,
                        [6],
                        f"{eq}-operator-skill",
                        "CC:Optional Advanced Rules/RADAR and HF/DF Crew Skills (CC-41)",
                        "a 6 gives skill 2, else 1",
                    )
                    ctx.emit(roll)
                    skill = skill_from_d6(roll.faces[0])
                ctx.emit(ev.EquipmentFitted(escort=escort, equipment=eq, skill=skill))
