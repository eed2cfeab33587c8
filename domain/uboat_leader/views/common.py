"""What every view opens with: where the game is and what it awaits."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.uboat_leader.awaiting import legal_commands
from domain.uboat_leader.state import State

Fate = Literal["in play", "retired", "sunk"]


class Now(msgspec.Struct, forbid_unknown_fields=True):
    turn: int
    segment: Literal["setup", "strategic", "operations", "tactical", "refit", "over"]
    awaiting: list[str]  # the command types legal now
    over: bool


def now(s: State) -> Now:
    return Now(turn=s.turn, segment=s.segment, awaiting=awaiting_types(s), over=s.over)


def awaiting_types(s: State) -> list[str]:
    return [x.type for x in legal_commands(s)]


def fate(b) -> Fate:
    return "sunk" if b.sunk else "retired" if b.retired else "in play"
