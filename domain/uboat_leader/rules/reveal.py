"""Revelar los Blancos (UL-31): Unknown counters become named ships when a U-boat comes within 2 (after each boat's
move and after Bearing, UL-R18) or when an Unknown escort rolls for detection or attacks (UL-R21, UL-S4)."""

from __future__ import annotations

from domain.uboat_leader import decks
from domain.uboat_leader.distances import distance
from events import uboat_leader as ev

REVEAL_ORDER = "ELMN"  # UL-R18: simultaneous reveals in this order, then by label


def reveal_near(ctx, boats: list[str]) -> None:
    """UL-31, UL-R18: Unknown counters within 2 of the boats are revealed (E, L, M, N, then by label)."""
    s = ctx.state
    bt = s.battle
    r = s.rules.reveal_range
    near = [
        lb
        for lb, p in bt.ships.items()
        if p.number is None and any(b in bt.subs and distance(s.data, bt.subs[b].area, p.area) <= r for b in boats)
    ]
    for lb in sorted(near, key=lambda x: (REVEAL_ORDER.index(bt.ships[x].kind), x)):
        reveal(ctx, lb)


def reveal(ctx, label: str) -> None:
    """UL-31: E from the Escort deck, L and M from the Merchant deck, N from the Naval deck; a Merchant card showing a
    misidentified Escort makes it an Escort with an Escort card (UL-6, UL-R18), the Merchant card discarded at once
    (it may come back when the deck reforms, UL-R39)."""
    kind = ctx.state.battle.ships[label].kind
    if kind == "E":
        reveal_from(ctx, label, "escorts", True)
        return
    deck = "naval" if kind == "N" else "merchants"
    n = decks.draw(ctx, deck, f"reveal {label}")
    if n is None:
        ctx.emit(ev.PieceRemoved(label=label))
    elif ctx.state.data.card(deck, n).is_escort:
        decks.discard(ctx, deck, [n])
        reveal_from(ctx, label, "escorts", True)
    else:
        show(ctx, label, deck, n, False)


def reveal_from(ctx, label: str, deck: str, escort: bool) -> None:
    n = decks.draw(ctx, deck, f"reveal {label}")
    if n is None:
        ctx.emit(ev.PieceRemoved(label=label))
    else:
        show(ctx, label, deck, n, escort)


def show(ctx, label: str, deck: str, number: int, escort: bool) -> None:
    """UL-R22: an Escort card takes an Escort Tactics counter when the campaign uses them."""
    s = ctx.state
    tactic = decks.draw(ctx, "tactics", f"Tactics for {label}") if escort and s.camp.tactics else None
    name = s.data.card(deck, number).name
    ctx.emit(ev.ShipRevealed(label=label, deck=deck, number=number, name=name, escort=escort, tactic=tactic))
