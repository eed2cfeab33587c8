"""The bot's documented policy, from what its seat may read: the convoy takes the lanes in turn; the raider searches
the two lanes of least cover, as deep as its points allow."""

from __future__ import annotations

from typing import Any

from domain.engine import CommandSpec
from tests.convoy_dash.rules import DEPTH_COST, LANE_COST
from tests.convoy_dash.state import SEATS, State


def choose(state: State, legal: list[CommandSpec], seat: str) -> dict[str, Any] | None:
    if not any(seat in spec.seats for spec in legal):
        return None
    lanes = sorted(state.data.lanes, key=lambda lane: (lane.cover, lane.id))
    if seat == "convoy":
        return {"type": "route", "lane": lanes[state.round % len(lanes)].id}
    searched = [lane.id for lane in lanes[:2]]
    depth = (state.data.search_points - len(searched) * LANE_COST) // DEPTH_COST
    return {"type": "search", "lanes": searched, "depth": depth}


def outcomes(state: State) -> dict[str, int]:
    """The rounds each side won."""
    return {f"{seat} rounds": state.score[seat] for seat in SEATS}
