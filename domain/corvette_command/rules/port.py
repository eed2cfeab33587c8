"""Arrival in port (CC-34..CC-36), victory points (CC-39), crew growth (CC-38), the next convoy (CC-37)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.corvette_command.rules import equipment
from domain.corvette_command.rules.attack import ship_lost
from domain.corvette_command.rules.resolution import plain
from domain.corvette_command.rules.setup import SIDE_OF_PORT, new_convoy
from domain.corvette_command.rules.victory import convoy_vp, quick_result, score_years, year_status
from domain.corvette_command.state import STATIONS, State, ymd
from domain.procedure import Ctx
from events import corvette_command as ev
from events.core import GameEnded, RollModifier, RollResult

R = "CC:Arrival at Port"

def arrive(ctx: Ctx) -> None:
    """CC-34..CC-36 in the text's order (CC-R34): the tech-delay roll, then the stragglers, then the turnaround."""
    s = ctx.state
    c = s.convoy
    ctx.emit(ev.ConvoyArrived(port=c.destination, date=s.date))
    tech_delay(ctx)
    for _ in range(c.stragglers):  # CC-35: a 6 comes in later; the rest are sunk
        roll = plain(ctx.dice, [6], "straggler", f"{R}/Stragglers (CC-35)")
        ctx.emit(
            replace(
                roll,
                result=RollResult(outcome="survives" if roll.faces[0] == 6 else "sunk", target=6, total=roll.faces[0]),
            )
        )
        if roll.faces[0] == 6:
            ctx.emit(ev.StragglerResolved(survived=True))
        else:
            ship_lost(ctx, "straggler")
    if s.options.quick_play:
        vp, result = 0, quick_result(c.tonnage)
    else:
        vp, result = convoy_vp(c.tonnage, s.edition)
    ctx.emit(ev.ConvoyScored(number=c.number, tonnage=c.tonnage, ships=c.ships_lost, vp=vp, result=result))
    arrival_year = ymd(s.date)[0]
    turnaround = 0
    for escort in s.escorts:  # CC-44: the convoy sails again when both escorts are ready
        days = plain(ctx.dice, [6], "turnaround", f"{R}/Turnaround time (CC-36)")
        extra = s.sheets[escort].damaged_components() + s.sheets[escort].hull
        ctx.emit(
            replace(
                days,
                result=RollResult(
                    outcome=f"{escort}: {days.faces[0] + extra} days in port",
                    total=days.faces[0] + extra,
                    modifiers=[RollModifier(reason="damaged components and hull points", value=extra, side="roll")]
                    if extra
                    else [],
                ),
            )
        )
        turnaround = max(turnaround, days.faces[0] + extra)
    ctx.emit(ev.ShipRepaired(turnaround_days=turnaround, date=s.date + turnaround))
    if s.edition.has("CC-E4-1"):
        score_years(ctx)  # CC-R24: a year the turnaround passed (one passed at sea was scored there)
    if s.convoys_done % 3 == 0:
        for escort in s.escorts:
            grow_crew(ctx, escort)
    if not s.edition.has("CC-E4-1"):  # 3.0.0: only the years from the arrival's to the turnaround's end, after
        # the crew review; a year that ended at sea waited for the campaign's end
        for year in range(arrival_year, ymd(s.date)[0]):
            if year in s.years and year not in s.year_status:
                ctx.emit(ev.YearScored(year=year, vp=s.years[year], status=year_status(s.years[year])))
    why = campaign_over(s)
    if why:
        score_years(ctx, campaign_over=True)
        ctx.emit(GameEnded(reason=why))
        return
    new_convoy(ctx, SIDE_OF_PORT[c.destination])


def tech_delay(ctx: Ctx) -> None:
    """CC-34: 1d20 above the ships sunk, no delay; else the next improved equipment slips a month (CC-R22)."""
    c = ctx.state.convoy
    tech = plain(ctx.dice, [20], "tech-delay", f"{R} (CC-34, CC-R34)")
    delayed = tech.faces[0] <= c.ships_lost
    ctx.emit(
        replace(
            tech,
            result=RollResult(outcome="delay" if delayed else "no delay", target=c.ships_lost, total=tech.faces[0]),
        )
    )
    nxt = equipment.next_equipment(ctx.state) if delayed else None
    ctx.emit(ev.TechDelayRolled(roll=tech.faces[0], ships_sunk=c.ships_lost, delayed=delayed, equipment=nxt))
    if nxt:
        equipment.move_date(ctx, equipment.ALLIED_EQUIPMENT, 1, "ships sunk: the arrival roll (CC-34)")


def campaign_over(s: State) -> str | None:
    if s.options.quick_play:
        return "the quick-play convoy is in port"
    if s.options.convoys is not None and s.convoys_done >= s.options.convoys:
        return f"{s.options.convoys} convoy(s) escorted, as the options set"
    y, m, _ = ymd(s.date)
    if (y, m) >= (s.options.end_year, s.options.end_month):
        return f"the campaign ends in {s.options.end_year}-{s.options.end_month:02d}"
    return None


def grow_crew(ctx: Ctx, escort: str) -> None:
    """CC-38: every third convoy, each skill used successfully may grow: 1d6 <= 6 - skill; Depth Charge only
    after a kill; operators (CC-41) only when their contact led to a Lookout spot."""
    s = ctx.state
    sheet = s.sheets[escort]
    stations = list(STATIONS) + [eq for eq in ("radar", "hfdf") if eq in sheet.skills]
    eligible = [
        st
        for st in stations
        if (sheet.kill_since_review if st == "depth_charge" else sheet.used.get(st)) and sheet.skills[st] < 6
    ]
    ctx.emit(ev.CrewReviewed(escort=escort, convoys=s.convoys_done, eligible=eligible))
    for st in eligible:
        skill = sheet.skills[st]
        roll = plain(ctx.dice, [6], f"skill-growth-{st}", "CC:Increasing Crew Skills (CC-38)")
        ok = roll.faces[0] <= 6 - skill
        ctx.emit(
            replace(
                roll,
                result=RollResult(outcome="improves" if ok else "no change", target=6 - skill, total=roll.faces[0]),
            )
        )
        if ok:
            ctx.emit(ev.CrewImproved(escort=escort, station=st, roll=roll.faces[0], before=skill, after=skill + 1))
