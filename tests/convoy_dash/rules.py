"""The rules of `convoy-dash`, one function per command; each refuses what its rule does not allow, naming the rule.

CD-1  Each round the convoy picks one lane of the data set, in secret.
CD-2  Then the raider searches: at least one lane, each once, and a depth; each lane and each level of depth costs
      one of its search points (the data set's `search_points`).
CD-3  If it searched the convoy's lane, 1d6 + depth reaching that lane's cover finds the convoy (CD-E2-1: from 2.0.0
      a 1 misses, whatever the depth); else the convoy slips through unseen, with no roll.
CD-4  The raider scores a round it finds the convoy in, the convoy any other; the game ends after `rounds` rounds.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.dice import Dice
from domain.engine import IllegalCommand
from events.core import GameEnded, RollResult, SubmissionSealed, SubmissionsRevealed
from events.vocabulary import Event
from tests.convoy_dash.commands import Route, Search
from tests.convoy_dash.events import DashResolved
from tests.convoy_dash.state import State

POINTS = "points"  # the budget a search spends (CD-2): what `awaiting` offers and `search` checks, from these two
LANE_COST = 1
DEPTH_COST = 1


def route(state: State, cmd: Route) -> list[Event]:
    """CD-1: sealed to the convoy; the engine adds the commitment, and the search opens it."""
    lanes = [lane.id for lane in state.data.lanes]
    if cmd.lane not in lanes:
        raise IllegalCommand(f"CD-1: {cmd.lane!r} is not a lane; the lanes are {lanes}")
    return [SubmissionSealed(seat="convoy", kind="route", content={"lane": cmd.lane})]


def search(state: State, cmd: Search, dice: Dice) -> list[Event]:
    """CD-2 to CD-4: the search, the convoy's lane opened, the roll where the lane was searched, the round's end."""
    cover = {lane.id: lane.cover for lane in state.data.lanes}
    if not cmd.lanes or len(set(cmd.lanes)) < len(cmd.lanes) or not set(cmd.lanes) <= set(cover):
        raise IllegalCommand(f"CD-2: search one or more of the lanes {list(cover)}, each once")
    cost = len(cmd.lanes) * LANE_COST + cmd.depth * DEPTH_COST
    if cost > state.data.search_points:
        raise IllegalCommand(f"CD-2: that search costs {cost} search points; the raider has {state.data.search_points}")
    lane = state.lane
    assert lane is not None  # a search is awaited only once the convoy has routed (awaiting.py)
    events: list[Event] = [SubmissionsRevealed(kinds=["route"])]
    found = False
    if lane in cmd.lanes:
        roll = dice.roll([6], "search", "CD-3: 1d6 + depth reaching the lane's cover finds the convoy")
        face, total = roll.faces[0], roll.faces[0] + cmd.depth
        found = total >= cover[lane] and not (face == 1 and state.edition.has("CD-E2-1"))
        outcome = RollResult(outcome="found" if found else "missed", target=cover[lane], total=total)
        events.append(replace(roll, result=outcome))
    events.append(DashResolved(round=state.round, lane=lane, searched=cmd.lanes, depth=cmd.depth, found=found))
    if state.round == state.rounds:
        events.append(GameEnded(reason="CD-4: the last round is played"))
    return events
