"""Ship counters on the Tactical Display: damage (Blanco Dañado, UL-5) and Escort Tactics (UL-R22)."""

from __future__ import annotations

from domain.uboat_leader.state import State


def piece_speed(s: State, label: str) -> int:
    """UL-5, UL-33: the card's speed (an Unknown counter's printed one), −1 Light / −2 Heavy damage, never below 0."""
    p = s.battle.ships[label]
    base = s.data.card(p.deck, p.number).speed if p.number is not None else s.data.display.unknown_speed[p.kind]
    return max(0, base + damage_mod(s, p))


def damage_mod(s: State, p) -> int:
    """UL-5: Light damage −1, Heavy −2 to a ship's speed, detection rolls and attacks on U-boats; 1 damage point is
    Light, 2 or more Heavy (UL-R37)."""
    r = s.rules
    return r.heavy_damage if p.damage >= r.heavy_points else r.light_damage if p.damage else 0


def tactic(s: State, p, which: int) -> int:
    """UL-R22: the Escort Tactics counter on the ship, [detection, attack]."""
    return 0 if p.tactic is None else s.data.tactics[p.tactic - 1][which]


def piece_name(s: State, label: str) -> str:
    """A ship counter as the Tactical Display shows it: its card's name once revealed, else its label only (an
    Unknown counter has no card yet, UL-31)."""
    p = s.battle.ships[label]
    return label if p.number is None else f"{label} {s.data.card(p.deck, p.number).name}"
