"""The one view of `convoy-dash`: per seat, since the convoy reads its own lane."""

from __future__ import annotations

import msgspec

from domain.engine import Reader, View
from tests.convoy_dash.events import DashResolved
from tests.convoy_dash.state import State, redact


class Board(msgspec.Struct, forbid_unknown_fields=True):
    round: int
    rounds: int
    routed: bool
    lane: str | None  # this round's lane, for the convoy and the referee only
    score: dict[str, int]
    last: DashResolved | None


def board(state: State, reader: Reader) -> Board:
    s = redact(state, reader)
    return Board(round=s.round, rounds=s.rounds, routed=s.routed, lane=s.lane, score=dict(s.score), last=s.last)


VIEWS = {"board": View(board, Board, per_seat=True, description="the round, the score and the last round's search")}
