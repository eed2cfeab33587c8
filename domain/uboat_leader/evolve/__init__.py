"""The only code that changes a State: one handler per event type, total over the ruleset's events (the no-ops are
named), O(1) per event. Checks live in decide; a stored event is never refused here."""

from __future__ import annotations

from domain.procedure import Handler, fold
from domain.uboat_leader.evolve import campaign, operations, tactical
from domain.uboat_leader.state import State
from events import uboat_leader as ev
from events.vocabulary import Event

HANDLERS: dict[type[Event], Handler[State]] = {**campaign.HANDLERS, **operations.HANDLERS, **tactical.HANDLERS}
# facts recorded for the log and the views, with no state of their own (their effects come as other events); the
# core's events are the fold's (a GameEnded ends the game)
NO_STATE_CHANGE = (ev.ContactsPassed, ev.UBoatHit)

evolve = fold(HANDLERS, NO_STATE_CHANGE, __name__)
