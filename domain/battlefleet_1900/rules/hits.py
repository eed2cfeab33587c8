"""6.0 Step Two - Hits: the shell hits of every hit zone (AP or HE tables) and the Flooding Occurrence of every
torpedo hit, simultaneous (BF-R28): every die is rolled on the state at the start of the step, then every
effect applied in that order; a ship lost here still delivers the hits it scored (6.0 example 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.battlefleet_1900 import geometry as geo
from domain.battlefleet_1900.data import codes
from domain.battlefleet_1900.rules.damage import Effect, apply, column, roll_code, table_row
from domain.battlefleet_1900.rules.gunnery import mount_weapon
from domain.battlefleet_1900.rules.orders import funnel
from domain.battlefleet_1900.state import GONE, Due, State
from events import battlefleet_1900 as ev

if TYPE_CHECKING:
    from domain.procedure import Ctx


def part_hit(state: State, ammo: str, face: int) -> str | None:
    """BATTLEFLEET.md §2: 1D6 per round landed: AP 1 vitals, 2 upperworks; HE 1-2 upperworks."""
    chance = state.data.tables.hit_chance[ammo]
    for part in ("vitals", "upperworks"):
        r = getattr(chance, part)
        if r is not None and r[0] <= face <= r[1]:
            return part
    return None


def shell_codes(state: State, target: str, ammo: str, part: str, pen: int, face: int) -> list[str]:
    """BF-R17: the column by penetration (HE pen // 2) against the armour of the part hit; 1D6 picks the row."""
    armour = state.cls(target).armour[0 if part == "vitals" else 1]
    t = state.data.tables
    if ammo == "HE":
        pen //= t.penetration.he_divisor
    rows = t.shell["HE" if ammo == "HE" else f"AP_{part}"]
    return codes(table_row(rows, face)[column(pen, armour, t.penetration.bounds)])


def occurrence_codes(state: State, size: int, target: str, face: int) -> list[str]:
    """BATTLEFLEET.md §2 Flooding Occurrence: the column by torpedo size * 100 // target size; 1D6 the row."""
    t = state.data.tables
    c = sum(1 for b in t.flooding_occurrence_bounds if size * 100 // state.cls(target).size >= b)
    return codes(table_row(t.flooding_occurrence, face)[c])


def embattled(state: State, target: str, firer: str) -> str:
    """6.2: the side the shells (or torpedoes) came from, seen from the target (BATTLEFLEET.md §3)."""
    return geo.aspect(state.pose(target).h, funnel(state, target), funnel(state, firer))


def step(ctx: Ctx) -> None:
    s = ctx.state
    effects: list[Effect] = []
    picked: dict[str, list[str]] = {}  # BF-R19: a pattern gun picked this step is not picked again
    for due in list(s.due):
        if s.ships[due.target].lost in GONE:
            continue
        if due.kind == "salvo":
            effects += salvo_effects(ctx, due, picked.setdefault(due.target, []))
        else:
            effects += torpedo_effects(ctx, due, picked.setdefault(due.target, []))
    for e in effects:
        apply(ctx, e)


def salvo_effects(ctx: Ctx, due: Due, picked: list[str]) -> list[Effect]:
    """BF-R17: one set of hit dice per firer, target and category, then one row die per hit."""
    s = ctx.state
    side = embattled(s, due.target, due.firer)
    out: list[Effect] = []
    for cat in ("main", "secondary", "tertiary"):
        rounds = [g for g in due.guns if g.cat == cat for _ in range(g.rounds)]
        if not rounds:
            continue
        faces = ctx.roll(
            len(rounds),
            f"{due.firer} {cat} rounds landed on {due.target} ({'/'.join(sorted({g.ammo for g in rounds}))})",
            "BF:4.4 BF:6.0 BF-R17",
            lambda fs: _hits_said(s, rounds, fs),  # called at once
        )
        hits = [(g, part) for g, f in zip(rounds, faces) if (part := part_hit(s, g.ammo, f)) is not None]
        ctx.emit(
            ev.HitsRolled(
                firer=due.firer,
                target=due.target,
                cat=cat,
                rounds=len(rounds),
                vitals=sum(1 for _, p in hits if p == "vitals"),
                upperworks=sum(1 for _, p in hits if p == "upperworks"),
            )
        )
        if not hits:
            continue
        pens = [mount_weapon(s, due.firer, g.mount).pen[due.bracket - 1] for g, _ in hits]

        def rows_said(fs: list[int], hits=hits, pens=pens) -> str:
            cells = [shell_codes(s, due.target, g.ammo, part, pen, f) for (g, part), pen, f in zip(hits, pens, fs)]
            return ", ".join(
                f"{g.ammo} {part} pen {pen}: {'+'.join(c) or '-'}" for (g, part), pen, c in zip(hits, pens, cells)
            )

        rows = ctx.roll(len(hits), f"{due.firer} {cat} hit rows on {due.target}", "BF:6.0 BF-R17", rows_said)
        for (g, part), pen, face in zip(hits, pens, rows):
            for code in shell_codes(s, due.target, g.ammo, part, pen, face):
                out += roll_code(ctx, due.target, code, side, f"salvo:{due.firer}:{due.target}", picked)
    return out


def _hits_said(s: State, rounds: list, faces: list[int]) -> str:
    parts = [part_hit(s, g.ammo, f) for g, f in zip(rounds, faces)]
    return f"{parts.count('vitals')} vitals, {parts.count('upperworks')} upperworks (AP 1 vitals, 2 upperworks; HE 1-2)"


def torpedo_effects(ctx: Ctx, due: Due, picked: list[str]) -> list[Effect]:
    s = ctx.state
    side = embattled(s, due.target, due.firer)
    out: list[Effect] = []
    faces = ctx.roll(
        due.hits,
        f"flooding occurrence: {due.firer}'s torpedoes (size {due.size}) in {due.target}",
        "BF:6.0 BF-R27",
        lambda fs: ", ".join("+".join(occurrence_codes(s, due.size, due.target, f)) for f in fs),
    )
    for face in faces:
        for code in occurrence_codes(s, due.size, due.target, face):
            out += roll_code(ctx, due.target, code, side, f"torpedo:{due.firer}:{due.target}", picked)
    return out
