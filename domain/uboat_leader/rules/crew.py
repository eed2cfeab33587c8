"""The U-boat card (Cartas de U-Boat, Estrés, Habilidades): stress bands, the row in use and special abilities."""

from __future__ import annotations

from domain.uboat_leader.state import State, band_of
from events import uboat_leader as ev


def add_stress(ctx, boat: str, delta: int, cause: str) -> None:
    """UL-3, UL-R4: stress is an integer >= 0 and the band (Okay, Shaken, Unfit) is recomputed on every change."""
    b = ctx.state.boats[boat]
    new = max(0, b.stress + delta)
    if new != b.stress:
        band = band_of(ctx.state.card(boat), new)
        ctx.emit(ev.StressChanged(boat=boat, delta=new - b.stress, stress=new, band=band, cause=cause))


def evasion(s: State, boat: str) -> int:
    """UL-3: EV of the row in use; an Unfit boat uses the Shaken row's EV."""
    return s.row(boat).ev


def has(s: State, boat: str, ability: str) -> bool:
    """UL-4: Infiltrador, Tranquilo (cool), Buscador (seeker), printed on the card."""
    return ability in s.card(boat).abilities


def speed(s: State, boat: str, side: str) -> int:
    """The counter's speed on the side it shows (UL-30)."""
    return s.card(boat).speed[0 if side == "surfaced" else 1]
