"""A simple, documented policy that picks a legal command (simulation, property tests, golden bundles).

Policy: sail from Canada; in quick play give the best dice to ASDIC, Depth Charge, Lookout, Engineer, 4" gun,
AA in that order; re-roll a collision with RADAR; fire on a spotted U-boat; search; prefer the Hedgehog while it
has salvoes; board with the AA officer; repair the area whose first counter is easiest, ASDIC and depth charges
first; move forward (diagonally toward the orders' channel when fast), sideways only when a slow convoy must
zig-zag, and into port when it can.

Now and then — about once in a few decisions, as `now_and_then` reads the state — it takes the other branch of
each decision: sails from Liverpool, accepts the collision, holds fire, drops no further pattern (8.0.0), drops
depth charges though it has the Hedgehog, boards with another officer or not at all, repairs another area or none,
moves sideways. So the property tests' campaigns go down every branch. No `random`: the same state gives the same
choice, so a game the bot plays replays byte for byte.
"""

from __future__ import annotations

from typing import Any

from domain.corvette_command.state import State
from domain.engine import CommandSpec

PRIORITY = ("asdic", "depth_charge", "lookout", "engineer", "gun", "aa")
REPAIR_FIRST = ("asdic", "depth_charge", "hedgehog", "engineer", "lookout", "gun", "aa", "radar", "hfdf")


def turn(state: State) -> int:
    """A number that moves with the game: the date, the convoy's path and losses, the engagement's course."""
    n = state.date * 7 + state.half * 3 + state.convoys_done * 29
    c, g = state.convoy, state.engagement
    if c is not None:
        n += len(c.path) * 3 + c.ships_lost * 5 + c.stragglers * 31 + len(c.encounters) * 11
    if g is not None:
        n += g.hits * 13 + g.attacks_left * 17 + g.range * 19 + g.consecutive * 23 + len(g.uboat)
    for sheet in state.sheets.values():
        n += sheet.depth_charges * 37 + sheet.hull * 41 + sum(len(v) for v in sheet.harder.values()) * 43
    return n


def now_and_then(state: State, every: int, salt: int = 0) -> bool:
    """True for about one state in `every`."""
    return (turn(state) + salt) % every == 0


def choose(state: State, awaiting: list[CommandSpec], seat: str) -> dict[str, Any] | None:
    legal = {s.type: s for s in awaiting}
    if not legal:
        return None
    if "choose_start_port" in legal:
        return {"type": "choose_start_port", "side": "liverpool" if now_and_then(state, 4) else "canada"}
    if "start" in legal:
        return {"type": "start"}
    if "allocate_skills" in legal:
        faces = sorted(state.quick_faces, reverse=True)
        return {"type": "allocate_skills", "skills": dict(zip(PRIORITY, faces))}
    if "reroll_collision" in legal:
        return {"type": "reroll_collision", "reroll": not now_and_then(state, 3)}
    if "fire_guns" in legal:
        return {"type": "hold_fire"} if now_and_then(state, 4) else {"type": "fire_guns"}
    if "detect" in legal:
        return {"type": "detect"}
    if "hold_pattern" in legal and now_and_then(state, 7, salt=2):
        return {"type": "hold_pattern"}  # keep the charges (8.0.0, CC-E8-2)
    if "drop_pattern" in legal:
        weapons = [c["weapon"] for c in legal["drop_pattern"].choices]
        prefer = "hedgehog" if "hedgehog" in weapons and not now_and_then(state, 3) else "depth-charges"
        return {"type": "drop_pattern", "weapon": prefer if prefer in weapons else weapons[0]}
    if "board" in legal:
        officers = [c["officer"] for c in legal["board"].choices if c["officer"]]
        if now_and_then(state, 3):
            return {"type": "board", "officer": None}  # let her sink
        if now_and_then(state, 3, salt=1):  # another officer
            return {"type": "board", "officer": officers[turn(state) // 3 % len(officers)]}
        return {"type": "board", "officer": "aa" if "aa" in officers else officers[0]}
    if "repair" in legal:
        areas = [c["area"] for c in legal["repair"].choices if c["area"]]
        areas.sort(key=lambda a: (state.sheets[state.deciding].harder[a][0], REPAIR_FIRST.index(a)))
        if now_and_then(state, 5):  # no repair, or the last area in its order
            return {"type": "repair", "area": None if now_and_then(state, 2, salt=1) or not areas else areas[-1]}
        return {"type": "repair", "area": areas[0] if areas else None}
    if "move_convoy" in legal:
        moves = [c["to"] for c in legal["move_convoy"].choices]
        best = best_move(state, moves)
        if not isinstance(best, str) and len(moves) > 1 and now_and_then(state, 6):
            others = [m for m in moves if m != best]
            return {"type": "move_convoy", "to": others[turn(state) // 6 % len(others)]}
        return {"type": "move_convoy", "to": best}
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


def categories(state: State) -> dict[str, dict[int, str]]:
    """Whether a corvette was sunk is a category, not a quantity."""
    return {"corvette sunk": {0: "afloat", 1: "sunk"}}


def outcomes(state: State) -> dict[str, int]:
    """What a campaign comes to, for `umpire simulate` and the odds from a position: tonnage lost and VP over its
    convoys (a convoy whose corvette was sunk counts its losses, with no VP), U-boats killed (confirmed, probable or
    possible: the escorts' credits, a boat once a convoy with its best grade, CC-R15), convoys that arrived, and
    whether a corvette was sunk."""
    lines = list(state.log)
    if state.convoy is not None and not state.convoy.arrived:
        lines.append(state.convoy.line())
    return {
        "tonnage lost": sum(line.tonnage for line in lines),
        "convoy VP": sum(line.vp or 0 for line in lines),
        "U-boat kills": sum(n for sheet in state.sheets.values() for n in sheet.kills.values()),
        "convoys arrived": len(state.log),
        "corvette sunk": int(any(sheet.hull >= 3 for sheet in state.sheets.values())),
    }
