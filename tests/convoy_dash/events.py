"""The events of `convoy-dash`: one msgspec Struct per event type, registered by importing this module.

(A real ruleset keeps these in `events/<package>.py`, which imports nothing of `domain/`.)"""

from __future__ import annotations

from events.vocabulary import Event, register


class DashResolved(Event):
    """A round played: the convoy's lane, what the raider searched, and whether it found the convoy (CD-3, CD-4)."""

    round: int
    lane: str
    searched: list[str]
    depth: int
    found: bool


EVENTS = (DashResolved,)
register(*EVENTS)
