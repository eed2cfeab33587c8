"""The fold of `convoy-dash`: one handler per event that changes the state (domain/procedure.py `fold`)."""

from __future__ import annotations

from domain.procedure import Handler, fold
from events.core import SubmissionSealed
from events.vocabulary import Event
from tests.convoy_dash.events import DashResolved
from tests.convoy_dash.state import State


def _routed(s: State, e: SubmissionSealed) -> None:
    s.routed, s.lane = True, (e.content or {}).get("lane")  # no content: a public fold, before the reveal


def _resolved(s: State, e: DashResolved) -> None:
    s.score["raider" if e.found else "convoy"] += 1
    s.round, s.routed, s.lane, s.last = s.round + 1, False, None, e


# the core's events are the fold's (a GameEnded ends the game); the sealed lane is this ruleset's to keep
HANDLERS: dict[type[Event], Handler[State]] = {SubmissionSealed: _routed, DashResolved: _resolved}
evolve = fold(HANDLERS, (), __name__)
