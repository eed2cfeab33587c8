"""Segmento de Reacondicionamiento (headings only in the text: Promover U-Boats, Límites de Patrulla, Recuperar del
Estrés, Reabastecer en Puerto, Recargar en el Mar, Reajustar el Mapa de Campaña): the completion rule UL-S9, whose
[T] parts come from the text's earlier sections (refit number, Tranquilo, Supply Ship, patrol limits, XP)."""

from __future__ import annotations

from domain.uboat_leader.data import LEVELS
from domain.uboat_leader.el_dado import stand_in
from domain.uboat_leader.rules.crew import add_stress, has
from domain.uboat_leader.rules.postcombat import reload
from domain.uboat_leader.state import State
from events import uboat_leader as ev


def next_level(s: State, boat: str) -> str | None:
    """UL-40, UL-S9: "al siguiente nivel de habilidad más alto": the next level the boat's card has, once XP reaches
    the card's XP to promote."""
    b = s.boats[boat]
    need = s.level(boat).xp
    if need is None or b.xp < need:
        return None
    higher = [lv for lv in LEVELS[LEVELS.index(b.level) + 1 :] if lv in s.card(boat).levels]
    return higher[0] if higher else None


def recovery(s: State, boat: str) -> list[tuple[str, int]]:
    """UL-S9 [T]: the Port box's refit number in port (UL-39), −1 Tranquilo (UL-4), −2 in a Supply Ship's Area
    (UL-11: its open space, Search box and mission boxes; never a port, UL-R5)."""
    b = s.boats[boat]
    r = s.rules
    port = s.port(b.where) if b.space == "port" else None
    supply = b.space != "port" and "supply_ship" in s.counters.get(s.area_of(boat), [])
    return [
        (f"refit in {b.where}", -port.refit if port else 0),
        ("Tranquilo", -r.cool_refit if has(s, boat, "cool") else 0),
        ("Supply Ship", -r.supply_refit if supply else 0),
    ]


def load(s: State, boat: str) -> tuple[dict[str, int], dict[str, int]]:
    """UL-S9: the printed Ready and Stored load; advanced torpedoes stay (mines are unloaded)."""
    b = s.boats[boat]
    card = s.card(boat)
    out = []
    for slot, printed in ((b.ready, card.ready), (b.stored, card.stored)):
        adv = {k: slot[k] for k in ("FAT", "T5")}
        out.append({"normal": max(0, printed - sum(adv.values())), **adv})
    return out[0], out[1]


def refit(ctx) -> None:
    s = ctx.state
    boats = [b for b in s.boats.values() if b.in_play]
    for b in boats:
        if (level := next_level(s, b.boat)) is not None:
            ctx.emit(ev.Promoted(boat=b.boat, level=level))
    for b in boats:  # Límites de Patrulla [T]: a boat in port at its limit leaves the campaign
        if b.space == "port" and b.patrols >= s.dur.patrols:
            ctx.emit(ev.UBoatRetired(boat=b.boat, patrols=b.patrols))
    for b in [b for b in boats if b.in_play]:
        delta = sum(v for _, v in recovery(s, b.boat))
        if delta:
            why = ", ".join(f"{name} {v}" for name, v in recovery(s, b.boat) if v)
            add_stress(ctx, b.boat, delta, stand_in("UL-S9", f"Recuperar del Estrés: {why}"))
        if b.space == "port":
            ready, stored = load(s, b.boat)
            ammo = s.rules.ammo if s.card(b.boat).gun else 0
            if (ready, stored, ammo, 0) != (b.ready, b.stored, b.ammo, b.mines):
                ctx.emit(ev.Replenished(boat=b.boat, ready=ready, stored=stored, ammo=ammo))
        else:
            reload(ctx, b.boat)
    ctx.emit(ev.MapReset())  # UL-R1: the turn's counters last to here
