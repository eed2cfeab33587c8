"""`legal_commands`: what `awaiting` shows. The route is a list of choices; the search, too many combinations to
list, is a typed form (domain/decisions.py) whose budget is the rule's own (rules.py `POINTS`, the costs)."""

from __future__ import annotations

from domain.decisions import Budget, Form, Number, Option, Pick
from domain.engine import CommandSpec, command_schema
from tests.convoy_dash.commands import Route, Search
from tests.convoy_dash.rules import DEPTH_COST, LANE_COST, POINTS
from tests.convoy_dash.state import State


def legal_commands(state: State, only: str | None = None) -> list[CommandSpec]:
    """One command is awaited at a time, and both are cheap to build, so `only` is not needed."""
    if state.over:
        return []
    lanes = state.data.lanes
    if not state.routed:
        return [
            CommandSpec(
                type="route",
                seats=["convoy"],
                choices=[{"lane": lane.id} for lane in lanes],
                labels=[f"Sail {lane.name} (cover {lane.cover})" for lane in lanes],
                schema=command_schema(Route),
                description=f"Round {state.round}: pick the convoy's lane, in secret (CD-1)",
            )
        ]
    points = state.data.search_points
    form = Form(
        controls=[
            Pick(
                field="lanes",
                label="Lanes to search",
                options=[Option(value=lane.id, label=lane.name, spend={POINTS: LANE_COST}) for lane in lanes],
                min=1,
            ),
            Number(
                field="depth",
                label="Depth (added to the roll)",
                min=0,
                max=(points - LANE_COST) // DEPTH_COST,
                spend={POINTS: DEPTH_COST},
            ),
        ],
        budgets=[Budget(id=POINTS, label="Search points", limit=points)],
    )
    return [
        CommandSpec(
            type="search",
            seats=["raider"],
            choices=None,
            schema=command_schema(Search),
            description=f"Round {state.round}: search lanes, {points} search points to spend (CD-2, CD-3)",
            ui=form,
        )
    ]
