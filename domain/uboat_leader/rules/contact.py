"""SEGMENTO TÁCTICO, Fase de Contacto: the active U-boat (UL-24, UL-R12), the Contact roll (UL-25, UL-R13), Convoy
cards, Air Search and Retirarse (UL-10, UL-26), Preparación Táctica (UL-27, UL-R14, UL-R16, UL-R17); the pack is
formed in wolfpack.py (UL-28)."""

from __future__ import annotations

from domain import decisions as ui
from domain import entries
from domain.engine import CommandSpec
from domain.uboat_leader import commands as c
from domain.uboat_leader import decks
from domain.uboat_leader.distances import areas
from domain.uboat_leader.el_dado import d10
from domain.uboat_leader.legal import SEATS, option, require, spec
from domain.uboat_leader.rules import postcombat, tactical, wolfpack
from domain.uboat_leader.rules.crew import has
from domain.uboat_leader.rules.reveal import reveal_from
from domain.uboat_leader.rules.wolfpack import candidates
from domain.uboat_leader.state import State
from events import uboat_leader as ev

CONTACT = "Determinación de Contacto (UL-25)"


def unfit_in_the_open(s: State) -> list[str]:
    return [b.boat for b in s.boats.values() if b.at_sea and b.space == "open" and not s.fit(b.boat)]


def awaited(s: State) -> str | None:
    a = s.act
    if a is None:
        return None if unfit_in_the_open(s) or not candidates(s) else "activate"
    if a.stage == "combat":
        return tactical.awaited(s)
    if a.stage == "wolfpack" and a.to_place:
        return "place"
    if a.stage == "next" and must_draw(s):
        return None
    return {
        "roll": "contacts",
        "choose": "choose_card",
        "engage": "engage",
        "place": "place",
        "wolfpack": "wolfpack",
        "next": "next",
    }.get(a.stage)


def advance(ctx) -> None:
    s = ctx.state
    a = s.act
    if a is None:
        for boat in unfit_in_the_open(s):  # UL-24: an Unfit boat goes to the Area's Search box
            ctx.emit(ev.ToSearchBox(boat=boat, area=s.boats[boat].where, cause="Unfit: no contacts"))
        if not candidates(s):
            ctx.emit(ev.SegmentBegan(turn=s.turn, segment="refit"))
    elif a.stage == "draw":
        draw_contact(ctx)
    elif a.stage == "combat":
        tactical.advance(ctx)
    elif a.stage == "post":
        postcombat.post(ctx)
    elif a.stage == "next":  # UL-E3-9: the next contact's Convoy card, without asking
        draw_contact(ctx)


def must_draw(s: State) -> bool:
    """UL-26, UL-S8: "Deberás robar una carta de Convoy por cada Contacto": from UL-E3-9 a fit active boat with
    contacts left draws its next card (its way out is Retirarse on that card); before, it could end its activation."""
    return s.edition.has("UL-E3-9")


def activate(ctx, cmd: c.Activate) -> None:
    require(cmd, [{"boat": b} for b in candidates(ctx.state)], f"{cmd.boat} cannot be the active U-boat now (UL-24, UL-R12)")
    ctx.emit(ev.Activated(boat=cmd.boat))


def contact_mods(s: State, boat: str) -> list[tuple[str, int]]:
    """UL-25: +2 Intel in the Area (UL-12), +1 Buscador (UL-4), −2 per Warning in the Area, −2 Attacked (UL-38),
    +X Events this turn (UL-R3)."""
    r = s.rules
    area = s.area_of(boat)
    b = s.boats[boat]
    w = s.warnings.get(area, 0)
    return [
        ("Intel", r.intel_contact if "intel" in s.counters.get(area, []) else 0),
        ("Buscador", r.seeker_contact if has(s, boat, "seeker") else 0),
        (f"{w} Warning(s)", r.warning_contact * w),
        ("Attacked", r.attacked_contact if b.attacked else 0),
        ("Events this turn", b.contact_mod),
    ]


def contacts_for(contacts_at: list[int], total: int) -> int:
    """UL-25, UL-R13: the number of the table's thresholds the total reaches (off the table: its end rows)."""
    return sum(1 for t in contacts_at if total >= t)


def roll_contacts(ctx) -> None:
    s = ctx.state
    boat = s.act.boat
    table = s.area(s.area_of(boat)).contacts_at
    _, total = d10(
        ctx,
        f"{boat}: Contact roll in {s.area_of(boat)} (table {table})",
        CONTACT,
        contact_mods(s, boat),
        target=table[0] if table else None,
        judge=lambda f, t: f"{contacts_for(table, t)} contact(s)",
    )
    n = contacts_for(table, total)
    ctx.emit(ev.ContactsRolled(boat=boat, contacts=n))
    if n == 0:  # UL-24: no contact: the Search box, and a new active boat
        end_activation(ctx, "no contact")


def pass_contacts(ctx) -> None:
    """UL-24: the Contact roll is optional; without it the boat goes to the Search box."""
    ctx.emit(ev.ContactsPassed(boat=ctx.state.act.boat))
    end_activation(ctx, "passed")


def end_activation(ctx, cause: str) -> None:
    postcombat.end(ctx, cause)


def draw_contact(ctx) -> None:
    """UL-26: one Convoy card per contact, two with Air Search in the Area (UL-10, UL-R13: keep one)."""
    s = ctx.state
    area = s.area_of(s.act.boat)
    n = 2 if "air_search" in s.counters.get(area, []) else 1
    for _ in range(n):
        decks.draw(ctx, "convoys", f"{s.act.boat}: contact in {area}")
    if not s.act.drawn:  # both the deck and its discards are empty: the contact is lost
        end_activation(ctx, "no Convoy card left")


def choose_card(ctx, cmd: c.ChooseConvoyCard) -> None:
    drawn = ctx.state.act.drawn
    require(cmd, [{"number": n} for n in drawn], f"keep one of the Convoy cards drawn: {drawn} (UL-10, UL-R13)")
    other = next(n for n in drawn if n != cmd.number)
    ctx.emit(ev.ConvoyChosen(number=cmd.number, discarded=other))
    decks.discard(ctx, "convoys", [other])


def withdraw(ctx) -> None:
    """UL-26: Retirarse: go straight to the Post-Combat Phase for the boat."""
    ctx.emit(ev.ContactWithdrawn(number=ctx.state.act.drawn[0]))


def engage(ctx) -> None:
    """UL-27: the Convoy card's counters (L/M Unknown Merchant, N Unknown Naval with Fleet Escorts, E Unknown Escort),
    the Battle Situation counter, and a Warning the first time this boat draws a Convoy card in the Area (UL-R14)."""
    s = ctx.state
    boat = s.act.boat
    area = s.area_of(boat)
    card = s.data.card("convoys", s.act.drawn[0])
    ctx.emit(ev.ContactEngaged(number=card.number, area=area))
    if warning_due(s, boat, area):
        ctx.emit(ev.WarningPlaced(area=area, boat=boat, warnings=s.warnings.get(area, 0) + 1))
    pieces = [ev.PiecePlaced(label=lb, kind=lb[0], area=a) for lb, a in card.positions]
    ctx.emit(ev.ShipsPlaced(number=card.number, pieces=pieces, alerted=card.alerted))
    if card.type == "N":  # UL-R16: each E position of a Naval contact is a Fleet Escort, known at once
        for p in pieces:
            if p.kind == "E":
                reveal_from(ctx, p.label, "fleet", True)


def warning_due(s: State, boat: str, area: str) -> bool:
    """UL-27, UL-R14: "Coloca también una ficha de 'Peligro de U-Boat' la primera vez que cada U-Boat roba una carta de
    Convoy en el Área": from 8.0.0 (UL-E8-1) only when the card engaged is the boat's first drawn in the Area, so one
    that withdrew from that card places none on a later one; 7.0.0 and earlier placed it on the first card engaged."""
    if [boat, area] in s.warned:
        return False
    return s.act.first or not s.edition.has("UL-E8-1")


def place_choices(s: State) -> list[dict]:
    """UL-27, UL-28, UL-R17: any Long area; an Infiltrador any Long, Medium or Short area; either side up."""
    out = []
    for boat in s.act.to_place:
        kinds = ("long", "medium", "short") if has(s, boat, "infiltrator") else ("long",)
        out += [
            {"boat": boat, "area": a, "side": side} for side in ("surfaced", "submerged") for a in areas(s.data, *kinds)
        ]
    return out


def place_ui(choices: list[dict]) -> ui.Form:
    """UL-27, UL-28, UL-R17: a variant per boat to place, either side up, on an area it may start in
    (`place_choices`: an Infiltrador's include Medium and Short)."""
    variants = []
    for boat in dict.fromkeys(x["boat"] for x in choices):
        mine = [x for x in choices if x["boat"] == boat]
        sides = [option(v, v) for v in dict.fromkeys(x["side"] for x in mine)]
        where = [ui.Option(value=a, label=a) for a in dict.fromkeys(x["area"] for x in mine)]
        controls = [
            ui.Select(field="side", label="side up", options=sides),
            ui.Select(field="area", label="area", options=where, rulebook="Despliegue Táctico"),
        ]
        variants.append(ui.Variant(label=boat, fixed={"boat": boat}, controls=controls))
    return ui.Form(controls=[ui.Variants(label="U-boat", variants=variants, rulebook="Preparación Táctica")])


def place(ctx, cmd: c.Place) -> None:
    require(cmd, place_choices(ctx.state), f"place {ctx.state.act.to_place} on a Long area (Infiltrador: M or S too; UL-27, UL-R17)")
    ctx.emit(ev.UBoatPlaced(boat=cmd.boat, area=cmd.area, side=cmd.side))


# the entries that are the same all game, kept with their bytes between answers (domain/entries.py)
def _pass_spec(s: State, seats: list[str]) -> CommandSpec:
    return spec(c.Pass, [{}], ["do not roll: to the Search box"])


def _withdraw_spec(s: State, seats: list[str]) -> CommandSpec:
    return spec(c.Withdraw, [{}], ["Retirarse: no attack"])


def _end_activation_spec(s: State, seats: list[str]) -> CommandSpec:
    return spec(c.EndActivation, [{}], ["end this boat's Tactical Segment"])


def specs(s: State, decision: str) -> list:
    a = s.act
    if decision == "activate":
        boats = candidates(s)
        return [spec(c.Activate, [{"boat": b} for b in boats], [f"{b} in {s.boats[b].where}" for b in boats])]
    if a is None:
        raise AssertionError(f"the {decision} decision comes with the boat activated (UL-24)")
    if decision == "contacts":
        mods = sum(v for _, v in contact_mods(s, a.boat))
        table = s.area(s.area_of(a.boat)).contacts_at
        return [
            spec(c.RollContacts, [{}], [f"roll a d10 {mods:+d} on {table}"]),
            entries.kept(_pass_spec, entries.reads_nothing, s, SEATS),
        ]
    if decision == "choose_card":
        return [spec(c.ChooseConvoyCard, [{"number": n} for n in a.drawn], [convoy_label(s, n) for n in a.drawn])]
    if decision == "engage":
        return [
            spec(c.Engage, [{}], [f"attack {convoy_label(s, a.drawn[0])}"]),
            entries.kept(_withdraw_spec, entries.reads_nothing, s, SEATS),
        ]
    if decision == "place":
        ch = place_choices(s)
        narrow = {"boat": {"enum": list(a.to_place)}, "area": {"enum": sorted({x["area"] for x in ch})}}
        labels = [f"{x['boat']} {x['side']} in {x['area']}" for x in ch]
        return [spec(c.Place, ch, labels, narrow, form=lambda: place_ui(ch))]
    if decision == "wolfpack":
        return wolfpack.specs(s)
    return [
        spec(c.NextContact, [{}], [f"next contact ({a.contacts} left)"]),
        entries.kept(_end_activation_spec, entries.reads_nothing, s, SEATS),
    ]


def convoy_label(s: State, n: int) -> str:
    card = s.data.card("convoys", n)
    kinds = [p[0][0] for p in card.positions]
    return f"Convoy card {n} ({card.type}): " + ", ".join(f"{kinds.count(k)} {k}" for k in "LMNE" if k in kinds)


def next_contact(ctx) -> None:
    draw_contact(ctx)
