"""The only code that changes a State: one handler per event type, total over the ruleset's events (the no-ops are
named), O(1) per event. Checks live in decide; a stored event is never refused here."""

from __future__ import annotations

from domain.procedure import fold
from domain.uboat_leader.evolve import campaign, operations, tactical
from domain.uboat_leader.state import State
from events import uboat_leader as ev
from events.core import ClientSeedContributed, DiceRolled, GameEnded, SeedLocked, ServerSeedRevealed


def _game_ended(s: State, e: GameEnded) -> None:
    s.over = True


HANDLERS = {**campaign.HANDLERS, **operations.HANDLERS, **tactical.HANDLERS, GameEnded: _game_ended}
# facts recorded for the log and the views, with no state of their own (their effects come as other events)
NO_STATE_CHANGE = (
    ev.ContactsPassed,
    ev.UBoatHit,
    DiceRolled,
    ClientSeedContributed,
    SeedLocked,
    ServerSeedRevealed,
)

evolve = fold(HANDLERS, NO_STATE_CHANGE, __name__)
