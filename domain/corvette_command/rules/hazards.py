"""Collision (CC-14), mechanical failure (CC-15), the Ship Damage Table (CC-33), repairs (CC-32)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.corvette_command.rules.decision_points import ask
from domain.corvette_command.rules.resolution import plain, task
from domain.corvette_command.state import State
from domain.engine import IllegalCommand
from domain.procedure import Ctx
from events import corvette_command as ev
from events.core import RollResult

COLLISION_RULE = "CC:Turn Sequence/Weather/Snow-Fog collision (CC-14)"


def collision_result(face: int) -> str:
    """CC-14: 1 -> two convoy ships collide; 20 -> the corvette hits a convoy ship; else nothing."""
    return "convoy" if face == 1 else "corvette" if face == 20 else "none"


def collision(ctx: Ctx, escort: str, cause: str = "fog") -> None:
    """In fog/snow (or an iceberg), 1d20; a RADAR-fitted corvette may re-roll a collision once (a decision)."""
    s = ctx.state
    if cause == "fog" and s.convoy.weather != "fog":
        ctx.emit(ev.CollisionChecked(escort=escort, roll=0, result="none", stragglers=0))  # no check outside fog/snow
        return
    roll = plain(ctx.dice, [20], "collision", COLLISION_RULE)
    result = collision_result(roll.faces[0])
    ctx.emit(replace(roll, result=RollResult(outcome=result, total=roll.faces[0])))
    if result != "none" and s.fitted("radar", escort) and cause == "fog":
        ctx.emit(ev.CollisionPending(escort=escort, roll=roll.faces[0], k=roll.k))
        ask(ctx, "collision_reroll", escort)
        return
    collided(ctx, escort, roll.faces[0], rerolled=False)


def resume_collision(ctx: Ctx, escort: str, reroll: bool) -> None:
    """CC-14: RADAR may re-roll once; the second result stands."""
    k, face = ctx.state.pending_collision
    if reroll:
        roll = plain(ctx.dice, [20], "collision-reroll", COLLISION_RULE + " RADAR re-roll")
        face = roll.faces[0]
        ctx.emit(
            replace(
                roll,
                rerolls=k,
                result=RollResult(outcome=f"{collision_result(face)} (the second result stands)", total=face),
            )
        )
    collided(ctx, escort, face, rerolled=reroll)


def collided(ctx: Ctx, escort: str, face: int, rerolled: bool) -> None:
    """CC-14; CC-R43: only ships still with the convoy can become stragglers (with none left, nothing is hit)."""
    left = ctx.state.convoy.ships_left
    result = collision_result(face) if left else "none"
    stragglers = min({"convoy": 2, "corvette": 1}.get(result, 0), left)
    ctx.emit(ev.CollisionChecked(escort=escort, roll=face, result=result, stragglers=stragglers, rerolled=rerolled))
    if result == "corvette":
        damage_area(ctx, "collision", escort)


def mechanical(ctx: Ctx, escort: str) -> None:
    """CC-15: 1d20; 1 (1-2 in a storm) is a failure: 1d3 rolls on the Ship Damage Table."""
    s = ctx.state
    roll = plain(ctx.dice, [20], "mechanical-failure", "CC:Turn Sequence/Mechanical Failure (CC-15)")
    failing = 2 if s.convoy.weather == "storm" else 1
    failed = roll.faces[0] <= failing
    ctx.emit(
        replace(
            roll, result=RollResult(outcome="failure" if failed else "no failure", target=failing, total=roll.faces[0])
        )
    )
    areas = 0
    if failed:
        n = plain(ctx.dice, [3], "damaged-areas", "CC:Turn Sequence/Mechanical Failure (CC-15)")
        ctx.emit(n)
        areas = n.faces[0]
    ctx.emit(ev.MechanicalChecked(escort=escort, failure=failed, areas=areas))
    for _ in range(areas):
        damage_area(ctx, "mechanical failure", escort)


AREA_BY_D6 = {1: "lookout", 2: "asdic", 3: "aa", 4: "gun", 5: "depth_charge", 6: "engineer"}


def damage_area(ctx: Ctx, cause: str, escort: str) -> str:
    """CC-33: 1d6 for the area, then 1d3 repair difficulty. CC-R25: the electronics sub-roll only with the
    operators option (L204: "If you use the optional rule of the crew"), the Hedgehog sub-roll whenever fitted."""
    s = ctx.state
    rule = "CC:Ship Damage Table (CC-33, CC-R25)"
    roll = plain(ctx.dice, [6], "damage-location", rule)
    ctx.emit(roll)
    area = AREA_BY_D6[roll.faces[0]]
    if area == "asdic" and s.options.radar_hfdf_operators and s.fitted("radar", escort):
        sub = plain(ctx.dice, [6], "electronics-damage", rule)
        ctx.emit(sub)
        f = sub.faces[0]
        if s.fitted("hfdf", escort):
            area = "asdic" if f <= 2 else "radar" if f <= 4 else "hfdf"
        else:
            area = "asdic" if f % 2 == 0 else "radar"
    elif area == "depth_charge" and s.fitted("hedgehog", escort):
        sub = plain(ctx.dice, [6], "weapons-damage", rule)
        ctx.emit(sub)
        area = "depth_charge" if sub.faces[0] % 2 == 0 else "hedgehog"
    diff = plain(ctx.dice, [3], "repair-difficulty", rule)
    ctx.emit(diff)
    ctx.emit(ev.AreaDamaged(escort=escort, area=area, difficulty=diff.faces[0], cause=cause))
    return area


def repairable(state: State, escort: str) -> list[str]:
    return sorted(a for a, counters in state.sheets[escort].harder.items() if counters)


def repair_step(ctx: Ctx, escort: str) -> None:
    """CC-32: one repair attempt per box, before leaving it; the player picks the area."""
    if repairable(ctx.state, escort):
        ask(ctx, "repair", escort)
    else:
        ctx.emit(ev.RepairAttempted(escort=escort, area=None, success=False, counters_left=0))


def repair(ctx: Ctx, escort: str, area: str | None) -> None:
    s = ctx.state
    sheet = s.sheets[escort]
    if area is None:
        ctx.emit(
            ev.RepairAttempted(
                escort=escort, area=None, success=False, counters_left=sum(len(v) for v in sheet.harder.values())
            )
        )
        return
    if area not in repairable(s, escort):
        raise IllegalCommand(f"{area!r} has nothing to repair: the engineers can repair {repairable(s, escort)} (CC-32)")
    difficulty = sheet.harder[area][0]
    mods = [("engineering damaged (Task Harder)", sheet.counters("engineer"), "passive")]
    if s.convoy.repair_bonus:
        mods.append(("Splice the Mainbrace (task easier)", 1, "active"))
    t = task(ctx.dice, "repair", "CC:Engineering and Repairs (CC-32)", sheet.skills["engineer"], difficulty, mods)
    ctx.emit(t.roll)
    ctx.emit(
        ev.RepairAttempted(
            escort=escort, area=area, success=t.success, counters_left=len(sheet.harder[area]) - (1 if t.success else 0)
        )
    )
