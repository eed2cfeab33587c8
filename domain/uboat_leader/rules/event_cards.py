"""Resolver las Cartas de Evento (UL-23): draw and resolve Event cards one by one, the section for the campaign's
year (UL-R3)."""

from __future__ import annotations

from domain.uboat_leader import decks
from domain.uboat_leader.el_dado import d10
from domain.uboat_leader.rules.crew import add_stress, evasion
from events import uboat_leader as ev

RULE = "Resolver las Cartas de Evento (UL-23)"


def draw_events(ctx, boat: str, n: int, why: str, stop_when_unfit: bool = True) -> None:
    """Draw `n` Event cards for a boat, resolving each before the next; a boat made Unfit stops drawing (UL-21)
    unless it was Unfit already (a forced return, UL-R11)."""
    for _ in range(n):
        if stop_when_unfit and ctx.state.boats[boat].band == "unfit":
            return
        number = decks.draw(ctx, "events", f"{boat}: {why}")
        if number is None:
            return
        resolve(ctx, boat, number)


def section(s, card):
    """UL-6, UL-R3: a split card uses the section of the campaign sheet's year."""
    year = s.camp.event_year
    return next((x for x in card.sections if x.years[0] <= year <= x.years[-1]), None)


def resolve(ctx, boat: str, number: int) -> None:
    s = ctx.state
    card = s.data.card("events", number)
    sec = section(s, card)
    stress = sec.stress if sec else 0
    if sec is not None and sec.roll is not None:
        r = sec.roll
        _, total = d10(
            ctx,
            f"{boat}: Event {card.name} (d10 + EV <= {r.at_most}: +{r.stress} stress)",
            RULE,
            [("EV", evasion(s, boat))],
            target=r.at_most,
            judge=lambda f, t: "stress" if t <= r.at_most else "evaded",
        )
        if total <= r.at_most:
            stress += r.stress
    ctx.emit(
        ev.EventResolved(
            boat=boat,
            number=number,
            name=card.name,
            text=sec.text if sec else "no effect this year",
            stress=stress,
            contact=sec.contact if sec else 0,
        )
    )
    add_stress(ctx, boat, stress, f"Event {card.name}")
    decks.discard(ctx, "events", [number])
