"""The event body as it is hashed and stored (spec/EVENTS.md), and what the store keeps beside it: a sealed record's
content and salt, never part of the body."""

from __future__ import annotations

from typing import Any

import msgspec

from events.canonical import canonical
from events.core import SubmissionSealed
from events.store.rows import EventRow
from events.vocabulary import Event, decode_event, decode_stored, event_data


def body_of(game_id: str, seq: int, event: Event, command_id: str | None) -> dict[str, Any]:
    return {
        "game": game_id,
        "seq": seq,
        "type": type(event).__name__,  # Event.type_name(), without the call
        "v": event.v,
        "command": command_id,
        "data": event_data(event),
    }


def event_from_body(body: dict[str, Any]) -> Event:
    return decode_event(body["type"], body["v"], body["data"])


def stored_event(r: EventRow) -> Event:
    """An event from its stored row, with what is kept beside the body (a sealed record's content) re-attached."""
    e = decode_stored(r.type, r.v, r.body)
    if r.sealed is not None:
        assert isinstance(e, SubmissionSealed)  # only a sealed record keeps anything beside its body
        beside = msgspec.json.decode(r.sealed)
        e.content, e.salt = beside["content"], beside["salt"]
    return e


def sealed_beside(e: Event) -> str | None:
    """What the store keeps beside a body: a sealed record's content and salt."""
    if isinstance(e, SubmissionSealed):
        return canonical({"content": e.content, "salt": e.salt}).decode()
    return None
