"""A simple, documented policy that picks a legal command (simulation, property tests, golden bundles).

Policy: sail from Canada; in quick play give the best dice to ASDIC, Depth Charge, Lookout, Engineer,
4" gun, AA in that order; always re-roll a collision with RADAR; always fire on a spotted U-boat;
always search; prefer the Hedgehog while it has salvoes; board with the AA officer; repair the area
whose first counter is easiest, ASDIC and depth charges first; move forward (diagonally toward the
orders' channel when fast), sideways only when a slow convoy must zig-zag, and into port when it can.
"""

from __future__ import annotations

from typing import Any

from domain.corvette_command.state import State, convoy_line
from domain.engine import CommandSpec

PRIORITY = ("asdic", "depth_charge", "lookout", "engineer", "gun", "aa")
REPAIR_FIRST = ("asdic", "depth_charge", "hedgehog", "engineer", "lookout", "gun", "aa", "radar", "hfdf")


def choose(state: State, awaiting: list[CommandSpec]) -> dict[str, Any] | None:
    legal = {s.type: s for s in awaiting}
    if not legal:
        return None
    if "choose_start_port" in legal:
        return {"type": "choose_start_port", "side": "canada"}
    if "start" in legal:
        return {"type": "start"}
    if "allocate_skills" in legal:
        faces = sorted(state.quick_faces, reverse=True)
        return {"type": "allocate_skills", "skills": dict(zip(PRIORITY, faces))}
    if "reroll_collision" in legal:
        return {"type": "reroll_collision", "reroll": True}
    if "fire_guns" in legal:
        return {"type": "fire_guns"}
    if "detect" in legal:
        return {"type": "detect"}
    if "drop_pattern" in legal:
        weapons = [c["weapon"] for c in legal["drop_pattern"].choices]
        return {"type": "drop_pattern", "weapon": "hedgehog" if "hedgehog" in weapons else weapons[0]}
    if "board" in legal:
        officers = [c["officer"] for c in legal["board"].choices]
        return {"type": "board", "officer": "aa" if "aa" in officers else officers[0]}
    if "repair" in legal:
        areas = [c["area"] for c in legal["repair"].choices if c["area"]]
        areas.sort(key=lambda a: (state.sheets[state.deciding].harder[a][0], REPAIR_FIRST.index(a)))
        return {"type": "repair", "area": areas[0] if areas else None}
    if "move_convoy" in legal:
        return {"type": "move_convoy", "to": best_move(state, [c["to"] for c in legal["move_convoy"].choices])}
    raise ValueError(f"the bot has no policy for {sorted(legal)}")


def best_move(state: State, moves: list) -> Any:
    c = state.convoy
    for to in moves:
        if isinstance(to, str):
            return to
    here = c.position

    def score(to):
        forward = not isinstance(here, list) or to[1] != here[1]
        return (forward, -abs(to[0] - c.channel))

    return max(moves, key=score)


def outcomes(state: State) -> dict[str, int]:
    """What a campaign comes to, for `umpire simulate` and the odds from a position: tonnage lost and VP over its
    convoys (a convoy whose corvette was sunk counts its losses, with no VP), U-boats killed (confirmed, probable or
    possible), convoys that arrived, and whether a corvette was sunk."""
    lines = list(state.log)
    if state.convoy is not None and not state.convoy.arrived:
        lines.append({"vp": 0, **convoy_line(state.convoy)})
    return {
        "tonnage lost": sum(line["tonnage"] for line in lines),
        "convoy VP": sum(line["vp"] for line in lines),
        "U-boat kills": sum(
            1 for line in lines for enc in line["encounters"] if enc["fate"] in ("confirmed", "probable", "possible")
        ),
        "convoys arrived": len(state.log),
        "corvette sunk": int(any(sheet.hull >= 3 for sheet in state.sheets.values())),
    }
