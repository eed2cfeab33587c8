"""The log as it is stored and shown: event bodies (docs/spec/events.md), the sealed content kept beside them, the
event object of the API, and folding stored rows into a game."""

from __future__ import annotations

from typing import Any

import msgspec

from domain import engine
from domain.engine import Game
from events.canonical import canonical
from events.core import SubmissionSealed
from events.vocabulary import Event, decode_event, decode_stored, event_data
from service.rulesets import Loaded


def body_of(game_id: str, seq: int, event: Event, command_id: str | None) -> dict[str, Any]:
    return {
        "game": game_id,
        "seq": seq,
        "type": event.type_name(),
        "v": event.v,
        "command": command_id,
        "data": event_data(event),
    }


def event_from_body(body: dict[str, Any]) -> Event:
    return decode_event(body["type"], body["v"], body["data"])


def stored_event(r) -> Event:
    """An event from its stored row, with what is kept beside the body (a sealed record's content) re-attached."""
    e = decode_stored(r.type, r.v, r.body)
    if r.sealed is not None:
        beside = msgspec.json.decode(r.sealed)
        e.content, e.salt = beside["content"], beside["salt"]
    return e


def sealed_beside(e: Event) -> str | None:
    """What the store keeps beside a body: a sealed record's content and salt."""
    if isinstance(e, SubmissionSealed):
        return canonical({"content": e.content, "salt": e.salt}).decode()
    return None


def fold_rows(loaded: Loaded, rows: list) -> Game:
    """A game from its stored rows (the fast path: each body decoded once, straight into its Struct)."""
    first = event_from_body(msgspec.json.decode(rows[0].body))
    game = engine.start(loaded.ruleset, loaded.data, loaded.data_sha256, rows[0].game, first)
    for r in rows[1:]:
        engine.evolve(game, stored_event(r))
    return game


def event_out(seq: int, body: dict[str, Any], h: str, actor: str | None, stamp: str | None) -> dict[str, Any]:
    """One event as the API shows it everywhere: the body's fields (but `game`), its hash and the stored extras."""
    return {
        "seq": seq,
        "type": body["type"],
        "v": body["v"],
        "command": body["command"],
        "data": body["data"],
        "hash": h,
        "actor": actor,
        "recorded_at": stamp,
    }
