"""PREPARACIÓN: choose the campaign and duration (options), then select the U-boats (UL-8)."""

from __future__ import annotations

import msgspec

from domain import decisions as ui
from domain.engine import IllegalCommand
from domain.uboat_leader import commands as c
from domain.uboat_leader.data import LEVELS, UBoat
from domain.uboat_leader.legal import option, spec
from domain.uboat_leader.state import State
from events import uboat_leader as ev


def eligible(s: State, card: UBoat) -> bool:
    """UL-8, UL-R2: a boat whose service years contain the campaign's dates ("coincidan con el plazo") and whose
    class the sheet allows (UL-42, e.g. Drumbeat: VIIC and IX)."""
    first, last = s.camp.dates
    classes = s.camp.classes
    return card.service[0] <= first and card.service[1] >= last and (classes is None or card.cls in classes)


def why_not_select(s: State, picks: list[c.PickArg]) -> str | None:
    """UL-8: at least one boat, each once, eligible, at a level its card has, in a port of the map, within the SO."""
    boats = [p.boat for p in picks]
    if len(set(boats)) != len(boats):
        return "each U-boat may be selected once (not at two levels either; UL-8)"
    ports = [p.id for p in s.camp.map.ports]
    cost = 0
    for p in picks:
        card = next((u for u in s.data.uboats if u.boat == p.boat), None)
        if card is None or not eligible(s, card):
            return (
                f"{p.boat} cannot serve in {s.camp.name}; eligible: {[u.boat for u in s.data.uboats if eligible(s, u)]}"
                " (UL-8, UL-R54)"
            )
        if p.level not in card.levels:
            return f"{p.boat} has no {p.level} card side; it has {list(card.levels)} (UL-8, UL-R51)"
        if p.port not in ports:
            return f"{p.port} is not a Port box of this map; ports: {ports} (UL-8)"
        cost += card.levels[p.level].so
    if cost * 2 > s.so_half:
        return f"these boats cost {cost} SO; the campaign gives {s.so_half // 2} (UL-8)"
    return None


def select(ctx, picks: list[c.PickArg]) -> None:
    s = ctx.state
    why = why_not_select(s, picks)
    if why:
        raise IllegalCommand(why)
    made = [
        ev.Pick(boat=p.boat, level=p.level, port=p.port, cost_half=s.card(p.boat).levels[p.level].so * 2) for p in picks
    ]
    so = s.so_half - sum(m.cost_half for m in made)
    ctx.emit(ev.UBoatsSelected(picks=made, so_half=so), ev.SegmentBegan(turn=1, segment="strategic"))


def specs(s: State) -> list:
    boats = [u for u in s.data.uboats if eligible(s, u)]
    levels = [lv for lv in LEVELS if any(lv in u.levels for u in boats)]
    return [
        spec(
            c.SelectUBoats,
            None,
            narrow={
                "picks": {"maxItems": len(boats)},
                "picks.boat": {"enum": [u.boat for u in boats]},
                "picks.level": {"enum": levels},
                "picks.port": {"enum": [p.id for p in s.camp.map.ports]},
            },
            form=lambda: select_ui(s),
        )
    ]


def select_ui(s: State) -> ui.Form:
    """UL-8, UL-R2: 1 to n boats, each once, at a level its card has, in any port, within the SO: an item per
    eligible boat, its levels (those it can afford alone) each spending its printed cost from the campaign's SO, the
    budget (in half points: a cost may be ½). Exactly what why_not_select accepts."""
    ports = [ui.Option(value=p.id, label=p.name) for p in s.camp.map.ports]
    items = []
    for card in s.data.uboats:
        if not eligible(s, card):
            continue
        costs = sorted((card.levels[lv].so, LEVELS.index(lv), lv) for lv in card.levels)
        levels = [
            msgspec.structs.replace(option(lv, f"{lv.title()} ({so} SO)"), spend={"so_half": so * 2})
            for so, _, lv in costs
            if why_not_select(s, [c.PickArg(card.boat, lv, _port(s))]) is None
        ]
        if levels:
            controls = [
                ui.Select(field="level", label="crew", options=levels, rulebook="Nivel de Habilidad"),
                ui.Select(field="port", label="port", options=ports, rulebook="recuadro de Puerto"),
            ]
            items.append(ui.Item(label=card.boat, fixed={"boat": card.boat}, controls=controls))
    budget = ui.Budget(id="so_half", label="Special Options (SO)", limit=s.so_half, per=2)
    picks = ui.Items(field="picks", label="U-boats", items=items, min=1, rulebook="Seleccionar los U-Boat")
    return ui.Form(controls=[picks], budgets=[budget])


def _port(s: State) -> str:
    """A port to price a pick with (any port is legal, UL-8)."""
    return s.camp.map.ports[0].id
