"""The state of a `convoy-dash` game. The convoy's lane is its one secret: `redact` takes it out for other readers."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from domain.editions import Edition
from domain.engine import REFEREE, Reader
from events.core import GameCreated
from tests.convoy_dash.commands import Options
from tests.convoy_dash.data import DataSet
from tests.convoy_dash.editions import EDITIONS
from tests.convoy_dash.events import DashResolved

SEATS = ("convoy", "raider")


@dataclass
class State:
    edition: Edition
    data: DataSet
    rounds: int
    round: int = 1
    routed: bool = False  # the convoy has picked this round's lane (everyone may know that)
    lane: str | None = None  # which lane: the convoy's and the referee's to read until the search is resolved
    score: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SEATS, 0))
    last: DashResolved | None = None
    over: bool = False


def initial_state(created: GameCreated, options: Options, data: DataSet) -> State:
    return State(edition=EDITIONS.of(created.ruleset.version), data=data, rounds=options.rounds)


def redact(state: State, reader: Reader) -> State:
    """The state as `reader` may read it: the one place the secret leaves the state."""
    return state if reader in ("convoy", REFEREE) else dataclasses.replace(state, lane=None)
