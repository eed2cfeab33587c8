"""The counter revealed on entering a box (CC-16) and the Random Event table (CC-17, data)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.corvette_command.rules import equipment, hazards
from domain.corvette_command.rules.attack import ship_lost, torpedo_at_corvette
from domain.corvette_command.rules.decks import draw_counter
from domain.corvette_command.rules.resolution import plain
from domain.corvette_command.rules.weather import shifted
from domain.procedure import Ctx
from events import corvette_command as ev
from events.core import RollResult

RULE = "CC:Turn Sequence/Reveal the Sector counter (CC-16, CC-17)"


def reveal(ctx: Ctx) -> None:
    """CC-16: the box's counter, drawn now from its zone's face-down pool (CC-R42)."""
    s = ctx.state
    box = s.convoy.position
    zone = s.zone_of(box)
    if s.box_key(box) in s.revealed:  # CC-R35: a counter acts once; re-entering its box meets it face up
        ctx.emit(ev.CounterRevealed(box=list(box), zone=zone, kind="spent", section=s.escorts[0]))
        return
    kind = draw_counter(ctx, zone)
    section = s.escorts[0]
    if len(s.escorts) > 1 and kind in ("U", "R"):  # CC-44 / CC-R36: a random pick of the section it falls on
        pick = plain(ctx.dice, [len(s.escorts)], "section", "CC:Two Player Variant (CC-44, CC-R36)")
        ctx.emit(replace(pick, result=RollResult(outcome=s.escorts[pick.faces[0] - 1], total=pick.faces[0])))
        section = s.escorts[pick.faces[0] - 1]
    ctx.emit(ev.CounterRevealed(box=list(box), zone=zone, kind=kind, section=section))  # U: attack unless storm
    if kind == "R":
        random_event(ctx, section)


def random_event(ctx: Ctx, escort: str) -> None:
    s = ctx.state
    roll = plain(ctx.dice, [20], "random-event", RULE)
    entry = next(e for e in s.data.random_events if e.roll == roll.faces[0])
    ctx.emit(replace(roll, result=RollResult(outcome=entry.name, total=roll.faces[0])))
    ctx.emit(
        ev.RandomEventDrawn(
            escort=escort,
            roll=entry.roll,
            name=entry.name,
            effect=entry.effect,
            stand_in=entry.stand_in,
            sub_roll_stand_in=entry.sub_roll_stand_in,
        )
    )
    EFFECTS[entry.effect](ctx)


def _note(ctx: Ctx, effect: str, detail: str, stragglers: int = 0) -> None:
    ctx.emit(ev.EffectApplied(effect=effect, detail=detail, stragglers=stragglers))


def _sub_roll(ctx: Ctx, purpose: str) -> int:
    roll = plain(ctx.dice, [6], purpose, RULE)
    ctx.emit(roll)
    return roll.faces[0]


def _men_in_water(ctx: Ctx) -> None:
    """Known entry 2: stop to rescue them; on 1d20 = 1 a U-boat torpedoes the corvette (not in fog/snow or storm)."""
    if ctx.state.convoy.weather in ("fog", "storm"):
        _note(ctx, "nothing", "survivors rescued; no U-boat can attack in this weather")
        return
    roll = plain(ctx.dice, [20], "rescue-torpedo", RULE)
    ctx.emit(
        replace(
            roll,
            result=RollResult(outcome="torpedoed" if roll.faces[0] == 1 else "rescued", target=1, total=roll.faces[0]),
        )
    )
    if roll.faces[0] == 1:
        _note(ctx, "torpedo", "a U-boat torpedoes the stopped corvette (CC-R13: from close range)")
        torpedo_at_corvette(ctx, start_range=0)
    else:
        _note(ctx, "nothing", "survivors rescued")


def _straggles(ctx: Ctx, detail: str) -> None:
    """CC-R43: a ship falls behind, if one is left with the convoy."""
    if ctx.state.convoy.ships_left:
        _note(ctx, "straggler", detail, stragglers=1)
    else:
        _note(ctx, "nothing", "no merchant ship is left with the convoy")


def _sinks(ctx: Ctx, detail: str, cause: str) -> None:
    """CC-R43: a ship is lost, if one is left with the convoy."""
    if ctx.state.convoy.ships_left:
        _note(ctx, "ship-lost", detail)
        ship_lost(ctx, cause)
    else:
        _note(ctx, "nothing", "no merchant ship is left with the convoy")


def _oil_slick(ctx: Ctx) -> None:
    """Known entry 3; its sub-roll is a stand-in (1d6: 5-6 a damaged ship straggles)."""
    if _sub_roll(ctx, "oil-slick") >= 5:
        _straggles(ctx, "a damaged ship falls behind the convoy")
    else:
        _note(ctx, "nothing", "the slick is old")


def _uboat(ctx: Ctx) -> None:
    if ctx.state.convoy.weather == "storm":
        _note(ctx, "nothing", "too rough for a U-boat to attack")
    else:
        _note(ctx, "uboat", "a U-boat attacks")


def _air_raid(ctx: Ctx) -> None:
    f = _sub_roll(ctx, "air-raid")
    if f == 1:
        _sinks(ctx, "a Condor sinks a ship", "air raid")
    elif f == 2:
        _note(ctx, "damage", "the corvette is strafed")
        hazards.damage_area(ctx, "air raid", ctx.state.active)
    else:
        _note(ctx, "nothing", "the Condor misses")


def _mine(ctx: Ctx) -> None:
    if _sub_roll(ctx, "mine") == 6:
        _sinks(ctx, "a ship strikes a mine", "mine")
    else:
        _note(ctx, "nothing", "the mine drifts past")


def _boffin_rescue(ctx: Ctx) -> None:
    """Stand-in (L233 names Boffin rescue among what moves the RADAR and HF/DF dates): the next of them comes
    one month earlier (CC-R22)."""
    if equipment.move_date(ctx, equipment.ELECTRONICS, -1, "Boffin rescue") is None:
        _note(ctx, "nothing", "RADAR and HF/DF are both in service already")


def _weather(step: int):
    def apply(ctx: Ctx) -> None:
        ctx.emit(ev.WeatherSet(weather=shifted(ctx.state.convoy.weather, step), cause="event"))

    return apply


EFFECTS = {
    "reroll_token": lambda ctx: _note(
        ctx, "reroll_token", "one re-roll during this convoy (the next failed ASDIC search)"
    ),
    "men_in_water": _men_in_water,
    "oil_slick": _oil_slick,
    "uboat": _uboat,
    "repair_bonus": lambda ctx: _note(ctx, "repair_bonus", "the next repair attempt is one task easier"),
    "air_raid": _air_raid,
    "iceberg": lambda ctx: hazards.collision(ctx, ctx.state.active, cause="iceberg"),
    "mine": _mine,
    "nothing": lambda ctx: _note(ctx, "nothing", "no effect"),
    "straggler": lambda ctx: _straggles(ctx, "a ship falls behind"),
    "boffin_rescue": _boffin_rescue,
    "mechanical": lambda ctx: hazards.mechanical(ctx, ctx.state.active),
    "weather_worse": _weather(-1),
    "weather_better": _weather(1),
}
