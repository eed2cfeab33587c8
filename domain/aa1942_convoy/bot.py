"""A simple, documented policy that picks a legal command, for property tests and demos.

Policy, in order: raid whenever a raid is legal (lowest zone first); in combat move, send one submarine
to an enemy convoy zone it can raid; in purchase, spend half the treasury; in mobilize, place one
submarine beside its fleet (the lowest zone where it has submarines, else its first convoy zone);
otherwise end the phase. It never captures, fights or ends the game: those are the players' to judge.
"""

from __future__ import annotations

from typing import Any

from domain.aa1942_convoy.state import CONVOY_ZONES, SIDE, State
from domain.engine import CommandSpec


def choose(state: State, awaiting: list[CommandSpec]) -> dict[str, Any] | None:
    legal = {s.type: s for s in awaiting if "referee" not in s.seats}
    if not legal:
        return None
    if "raid" in legal:
        return {"type": "raid", **legal["raid"].choices[0]}
    if "purchase" in legal:
        return {
            "type": "purchase",
            "spend": state.treasury[state.power] // 2 if len(legal["purchase"].choices or [0, 0]) > 1 else 0,
        }
    if state.phase == "combat-move" and "move_submarines" in legal:
        for m in legal["move_submarines"].choices or []:
            owner = CONVOY_ZONES.get(m["to_sz"])
            if m["count"] == 1 and owner and SIDE[owner] != SIDE[state.power] and m["to_sz"] not in state.inactive:
                if state.used.get(m["to_sz"]) is None:  # one submarine per zone per turn
                    return {"type": "move_submarines", **m}
    if (
        state.phase == "mobilize"
        and state.line(state.power).spent >= 6
        and not state.line(state.power).submarines_placed
    ):
        home = sorted(state.subs.get(state.power, {})) or sorted(
            sz for sz, o in CONVOY_ZONES.items() if o == state.power
        )
        return {"type": "place_submarines", "sz": home[0], "count": 1}
    return {"type": "end_phase"}
