"""The campaign's course: turns until every boat has completed its patrols (UL-22) and the result (UL-41, UL-S10)."""

from __future__ import annotations

from domain.uboat_leader.state import State
from events import uboat_leader as ev
from events.core import GameEnded


def result(levels: list[tuple[str, int]], final_vp: int) -> tuple[str, int]:
    """UL-41 [T]: the highest level of the sheet whose VP total the campaign reaches; a total below the lowest level
    still takes it (UL-R33)."""
    index = max((i for i, (_, vp) in enumerate(levels) if final_vp >= vp), default=0)
    return levels[index][0], index


def final_vp(s: State) -> int:
    """UL-S10: VP − 2 per boat sunk (the stand-in's `sunk_boat_vp`)."""
    return s.vp - s.rules.sunk_boat_vp * s.boats_lost


def finish(ctx, reason: str) -> None:
    s = ctx.state
    final = final_vp(s)
    level, index = result(s.dur.levels, final)
    ctx.emit(
        ev.CampaignEnded(
            vp=s.vp, boats_sunk=s.boats_lost, final_vp=final, level=level, level_index=index, reason=reason
        ),
        GameEnded(reason=f"campaign over: {level} ({final} VP) — {reason}"),
    )


def abandon(ctx, reason: str) -> None:
    """UL-S10 (UL-E3-4): the campaign stopped with patrols still owed scores no level and says so."""
    s = ctx.state
    owed = sum(max(0, s.dur.patrols - b.patrols) for b in s.boats.values() if b.in_play)
    ctx.emit(
        ev.CampaignAbandoned(vp=s.vp, boats_sunk=s.boats_lost, patrols_owed=owed, reason=reason),
        GameEnded(reason=f"campaign abandoned with {owed} patrol(s) owed: no result — {reason}"),
    )


def after_refit(ctx) -> None:
    """UL-22, UL-S10: the campaign ends when every boat is at its patrol limit or sunk; else the next turn."""
    s = ctx.state
    if not any(b.in_play for b in s.boats.values()):
        finish(ctx, "every U-boat has completed its patrols or is sunk")
    else:
        ctx.emit(ev.SegmentBegan(turn=s.turn + 1, segment="strategic"))
