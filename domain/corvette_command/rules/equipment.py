"""Equipment and its dates: fitting (CC-40, CC-41), delays and Boffin rescue (CC-R10, CC-R22)."""

from __future__ import annotations

from domain.corvette_command.rules.resolution import plain
from domain.corvette_command.state import ALLIED_EQUIPMENT, State
from domain.procedure import Ctx
from events import corvette_command as ev

ELECTRONICS = ("radar", "hfdf")  # the dates that vital ships and Boffin rescue move (L82, L233)


def skill_from_d6(face: int) -> int:
    """CC-3: a 6 starts the station at skill 2, anything else at 1."""
    return 2 if face == 6 else 1


def fit_equipment(ctx: Ctx) -> None:
    """CC-40: Allied equipment whose date (with delays) has come is fitted before sailing; CC-41: operators."""
    s = ctx.state
    for escort in s.escorts:
        for eq in ALLIED_EQUIPMENT:
            if s.on(eq) and not s.fitted(eq, escort):
                skill = None
                if s.options.radar_hfdf_operators and eq in ELECTRONICS:
                    roll = plain(
                        ctx.dice,
                        [6],
                        f"{eq}-operator-skill",
                        "CC:Optional Advanced Rules/RADAR and HF/DF Crew Skills (CC-41)",
                        "a 6 gives skill 2, else 1",
                    )
                    ctx.emit(roll)
                    skill = skill_from_d6(roll.faces[0])
                ctx.emit(ev.EquipmentFitted(escort=escort, equipment=eq, skill=skill))


def next_equipment(state: State, among: tuple[str, ...] = ALLIED_EQUIPMENT) -> str | None:
    """The next item of `among` not yet in force (the earliest date, delays counted)."""
    pending = [eq for eq in among if not state.on(eq)]
    return min(pending, key=lambda eq: (state.due(eq), among.index(eq))) if pending else None


def move_date(ctx: Ctx, among: tuple[str, ...], months: int, cause: str) -> str | None:
    """CC-R10, CC-R22: the next of `among` not yet in force moves `months` (+1 a delay, -1 Boffin rescue)."""
    eq = next_equipment(ctx.state, among)
    if eq is not None:
        ctx.emit(ev.EquipmentDateMoved(equipment=eq, months=months, cause=cause))
    return eq
