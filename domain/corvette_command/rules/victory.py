"""Victory (CC-39, CC-45): the convoy's VP, the year's status and the quick-play result, and when a year is scored
(CC-R24). Its own module because a year may end at sea (rules/movement.py), in port (rules/port.py) or with the
corvette (rules/attack.py)."""

from __future__ import annotations

from domain.corvette_command.state import ymd
from domain.editions import Edition
from domain.procedure import Ctx
from events import corvette_command as ev

CONVOY_VP = [  # CC-39 (and CC-R9 for 87,500 and over)
    (12_499, 4, "Should be Admiral of the Fleet"),  # CC-R48, CC-E5-3: the printed "3+" row split as the others are
    (24_999, 3, "Should be Admiral of the Fleet"),
    (37_499, 2, "Major Allied Victory"),
    (49_999, 1, "Minor Allied Victory"),
    (62_499, 0, "Stalemate"),
    (74_999, -1, "Minor German Victory"),
    (87_499, -2, "Major German Victory"),
]


def convoy_vp(tonnage: int, edition: Edition) -> tuple[int, str]:
    """CC-39: "Under 24,999 | ... | 3+": every other row is 12,500 t wide and worth one VP more than the next, so
    from 5.0.0 (CC-R48, CC-E5-3) under 12,500 t scores 4; 4.0.0 scored 3 for all of it."""
    rows = CONVOY_VP if edition.has("CC-E5-3") else CONVOY_VP[1:]
    for top, vp, name in rows:
        if tonnage <= top:
            return vp, name
    return -3, "Decisive German Victory"


def year_status(vp: int) -> str:
    """CC-39 yearly column (CC-R9: -7 and below extrapolated)."""
    if vp >= 7:
        return "Should be Admiral of the Fleet"
    if vp >= 4:
        return "Major Allied Victory"
    if vp >= 1:
        return "Minor Allied Victory"
    if vp == 0:
        return "Stalemate"
    if vp >= -3:
        return "Minor German Victory"
    if vp >= -6:
        return "Major German Victory"
    return "Decisive German Victory"


def quick_result(tonnage: int) -> str:
    """CC-45 / CC-R46: the printed bands by their tops: up to 20,000 victory, up to 30,000 duty done, above it a
    significant loss (so 20,000 is a victory and the printed gaps fall to the band above them)."""
    return "Victory" if tonnage <= 20_000 else "You did your duty" if tonnage <= 30_000 else "Significant loss"


def score_years(ctx: Ctx, *, campaign_over: bool = False) -> None:
    """CC-39, CC-R24: "at the end of a year total up the VP and compare them to the Yearly Victory Condition".
    Every year with convoy VP logged is scored once the calendar has passed it, and, when the campaign ends, the
    year it ends in. From edition 4 (CC-E4-1) this is called wherever the date moves (a box at sea, the turnaround
    in port) and when the corvette sinks; edition 3 calls it only after a turnaround and at a campaign's end in
    port (rules/port.arrive keeps that path)."""
    s = ctx.state
    now = ymd(s.date)[0]
    for year in sorted(s.years):
        if year not in s.year_status and (year < now or campaign_over):
            ctx.emit(ev.YearScored(year=year, vp=s.years[year], status=year_status(s.years[year])))
