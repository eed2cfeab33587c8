"""PREPARACIÓN: choose the campaign and duration (options), then select the U-boats (UL-8)."""

from __future__ import annotations

from domain import decisions as ui
from domain.engine import IllegalCommand
from domain.uboat_leader import commands as c
from domain.uboat_leader.data import LEVELS, UBoat
from domain.uboat_leader.legal import option, so_text, spec
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
        return "each U-boat may be selected once (not at two levels either)"
    ports = [p.id for p in s.camp.map.ports]
    cost = 0
    for p in picks:
        card = next((u for u in s.data.uboats if u.boat == p.boat), None)
        if card is None or not eligible(s, card):
            return (
                f"{p.boat} cannot serve in {s.camp.name}; eligible: {[u.boat for u in s.data.uboats if eligible(s, u)]}"
            )
        if p.level not in card.levels:
            return f"{p.boat} has no {p.level} card side; it has {list(card.levels)}"
        if p.port not in ports:
            return f"{p.port} is not a Port box of this map; ports: {ports}"
        cost += card.levels[p.level].so
    if cost * 2 > s.so_half:
        return f"these boats cost {cost} SO; the campaign gives {s.so_half // 2}"
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
    """UL-8, UL-R2: 1 to n boats, each once, at a level its card has, in any port, within the SO. The vocabulary has
    no budget (a sum over the picks), so the flotillas offered are a part of the legal ones, as variants "up to k
    boats", each boat offered its levels up to a top one such that any k of the boats at their top levels are
    accepted by why_not_select: for each k, every boat capped at one SO cost (the text's example, U-43, U-47, U-51
    Trained and U-56 Ace) and every boat raised a level at a time (five Trained boats). Every flotilla offered is
    legal; a legal one beyond them (short campaign: U-43 Ace with three Green boats) is sent as JSON."""
    ladders = {}  # each boat's levels it can afford alone, cheapest first
    for card in s.data.uboats:
        if eligible(s, card):
            costs = sorted((card.levels[lv].so, LEVELS.index(lv), lv) for lv in card.levels)
            ladder = [lv for _, _, lv in costs if why_not_select(s, [c.PickArg(card.boat, lv, _port(s))]) is None]
            if ladder:
                ladders[card.boat] = ladder
    boxes: list[tuple[dict[str, int], int]] = []
    for k in range(len(ladders), 0, -1):
        for top in (_capped(s, ladders, k), _even(s, ladders, k)):
            if top is not None and not any(k <= k2 and all(top[b] <= t2[b] for b in top) for t2, k2 in boxes):
                boxes.append((top, k))
    variants = [_flotilla(s, ladders, top, k) for top, k in boxes]
    return ui.Form(controls=[ui.Variants(label="flotilla", variants=variants)])


def _port(s: State) -> str:
    """A port to price a pick with (any port is legal, UL-8)."""
    return s.camp.map.ports[0].id


def _cost(s: State, boat: str, level: str) -> int:
    return s.card(boat).levels[level].so


def _fit(s: State, ladders: dict[str, list[str]], top: dict[str, int], k: int) -> bool:
    """Whether any k boats at their top offered levels are accepted together: the k dearest are (top -1: none)."""
    tops = [(b, ladders[b][i]) for b, i in top.items() if i >= 0]
    dearest = sorted(tops, key=lambda x: -_cost(s, *x))[:k]
    return len(tops) >= k and why_not_select(s, [c.PickArg(b, lv, _port(s)) for b, lv in dearest]) is None


def _capped(s: State, ladders: dict[str, list[str]], k: int) -> dict[str, int] | None:
    """Every boat's levels up to the dearest SO cost at which k of them still fit (None: no cost does)."""
    best = None
    for cap in sorted({_cost(s, b, lv) for b, ladder in ladders.items() for lv in ladder}):
        top = {b: sum(1 for lv in ladder if _cost(s, b, lv) <= cap) - 1 for b, ladder in ladders.items()}
        if _fit(s, ladders, top, k):
            best = top
    return best


def _even(s: State, ladders: dict[str, list[str]], k: int) -> dict[str, int] | None:
    """Every boat from its cheapest level, raised one level at a time, the least raised first, while k still fit."""
    top = {b: 0 for b in ladders}
    if not _fit(s, ladders, top, k):
        return None
    while True:
        up = [b for b in ladders if top[b] + 1 < len(ladders[b]) and _fit(s, ladders, {**top, b: top[b] + 1}, k)]
        if not up:
            return top
        top[min(up, key=lambda b: (top[b], _cost(s, b, ladders[b][top[b] + 1])))] += 1


def _flotilla(s: State, ladders: dict[str, list[str]], top: dict[str, int], k: int) -> ui.Variant:
    ports = [ui.Option(value=p.id, label=p.name) for p in s.camp.map.ports]
    items = []
    for b, ladder in ladders.items():
        if top[b] < 0:
            continue
        levels = [option(lv, f"{lv.title()} ({_cost(s, b, lv)} SO)") for lv in ladder[: top[b] + 1]]
        controls = [
            ui.Select(field="level", label="crew", options=levels, rulebook="Nivel de Habilidad"),
            ui.Select(field="port", label="port", options=ports, rulebook="recuadro de Puerto"),
        ]
        items.append(ui.Item(label=b, fixed={"boat": b}, controls=controls))
    tops = ", ".join(f"{b} {ladders[b][i].title()}" for b, i in top.items() if i >= 0)
    return ui.Variant(
        label=f"up to {k} boat{'s' if k > 1 else ''} of {so_text(s.so_half)} SO, at most {tops}",
        controls=[
            ui.Items(field="picks", label="U-boats", items=items, min=1, max=k, rulebook="Seleccionar los U-Boat")
        ],
    )
