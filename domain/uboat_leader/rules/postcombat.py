"""Fase de Resolución Post-Combate (headings only in the text: Añadir Estrés, Recargar Torpedos, Anotar Puntos de
Experiencia y de Victoria, Decidir Acciones, Post Combate para un U-Boat): the completion rule UL-S8."""

from __future__ import annotations

from domain.uboat_leader import decks
from domain.uboat_leader.el_dado import stand_in
from domain.uboat_leader.rules.crew import add_stress
from domain.uboat_leader.state import State
from events import uboat_leader as ev

ADVANCED_FIRST = ("FAT", "T5", "normal")


def reload_moves(s: State, boat: str) -> dict[str, int]:
    """UL-S8, UL-S9 (Recargar): Stored torpedoes fill the empty Ready slots, advanced ones first."""
    b = s.boats[boat]
    free = s.card(boat).ready - sum(b.ready.values())
    moved = {}
    for kind in ADVANCED_FIRST:
        n = min(free, b.stored[kind])
        if n:
            moved[kind] = n
            free -= n
    return moved


def reload(ctx, boat: str) -> None:
    moved = reload_moves(ctx.state, boat)
    if moved:
        ctx.emit(ev.TorpedoesReloaded(boat=boat, moved=moved))


def post(ctx) -> None:
    """UL-S8: each boat that was on the display takes 1 stress (none after Retirarse; those that left or lost
    contact too, none that sank: UL-R40); reload; VP to the campaign (they stay if the boat sinks, UL-R27) and XP to
    the boat whose roll sank each ship; the contact's cards are discarded (UL-R25), Fleet Escorts and Tactics go back
    to their pools (UL-R16, UL-R22). The other boats that attacked are recorded for the Attacked counter, placed when
    the activation ends (end)."""
    s = ctx.state
    a, bt = s.act, s.battle
    boats = [a.boat] if bt is None else list(bt.placed)
    alive = [b for b in boats if not s.boats[b].sunk]
    if bt is not None:
        for b in alive:
            add_stress(ctx, b, s.rules.post_combat_stress, stand_in("UL-S8", "Post-Combate: Añadir Estrés"))
    for b in alive:
        reload(ctx, b)
    if bt is not None:
        for boat, vp, xp in list(bt.sunk):
            if vp:
                ctx.emit(ev.Scored(vp=vp, total=s.vp + vp, cause="ship sunk", boat=boat))
            if xp and not s.boats[boat].sunk:
                ctx.emit(ev.XpGained(boat=boat, xp=xp, total=s.boats[boat].xp + xp))
    decks.discard(ctx, "convoys", [a.card])
    if bt is not None:
        for deck, numbers in list(bt.cards.items()):
            if numbers and deck in ("fleet", "tactics"):
                ctx.emit(ev.CardsReturned(deck=deck, numbers=list(numbers)))
            elif numbers:
                decks.discard(ctx, deck, list(numbers))
    ctx.emit(ev.ContactResolved(boat=a.boat, contacts_left=a.contacts))
    if not s.fit(a.boat) or a.contacts <= 0:
        end(ctx, "contacts over" if s.fit(a.boat) else "Unfit or sunk")


def end(ctx, cause: str) -> None:
    """Decidir Acciones: the active boat goes to the Search box; joiners are back in their Area already. The
    Attacked counter goes "al final de un Segmento Táctico en el que ha atacado" (UL-38) — the activation (UL-R1) —
    on each other boat that attacked in any of its contacts, not after each contact (UL-R24), so a joiner called
    again for the next contact of the same activation rolls without the −2."""
    s = ctx.state
    boat = s.act.boat
    if not s.boats[boat].sunk:
        ctx.emit(ev.ToSearchBox(boat=boat, area=s.area_of(boat), cause=cause))
    marked = [b for b in s.act.attackers if not s.boats[b].sunk]
    if marked:
        ctx.emit(ev.AttackedMarked(boats=marked))
    ctx.emit(ev.ActivationEnded(boat=boat))
