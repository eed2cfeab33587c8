"""TEMPORARY stand-in for the core's sealed-input events (events/core.py on main, "Sealed inputs in the core").
Removed at the merge; shaped as the lead's contract describes them."""

from __future__ import annotations

from typing import Any

import msgspec

from events.vocabulary import Event


class SealedEntry(msgspec.Struct):
    seq: int
    seat: str
    kind: str
    content: dict[str, Any]
    salt: str


class SubmissionSealed(Event):
    seat: str
    kind: str
    commitment: str = ""
    content: dict[str, Any] = {}
    salt: str = ""


class SubmissionsRevealed(Event):
    kinds: list[str]
    entries: list[SealedEntry] = []
