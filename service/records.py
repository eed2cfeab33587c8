"""The log as the service shows it and folds it: the event object of the API, and a game from its stored rows (the
body format itself is events/bodies.py)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain import engine
from domain.engine import REFEREE, Game
from events.bodies import event_from_body, stored_event
from events.core import SubmissionSealed, as_genesis
from events.store import EventRow
from events.vocabulary import Event, decode_stored
from service.rulesets import Loaded

SEALED = SubmissionSealed.type_name()


def fold_rows(loaded: Loaded, rows: list) -> Game:
    """A game from its stored rows (the fast path: each body decoded once, straight into its Struct)."""
    first = as_genesis(event_from_body(msgspec.json.decode(rows[0].body)))
    game = loaded.start(rows[0].game, first)
    for r in rows[1:]:
        engine.evolve(game, stored_event(r))
    return game


def event_out(seq: int, body: dict[str, Any], h: str, actor: str | None, stamp: str | None) -> dict[str, Any]:
    """One event as the API shows it everywhere: the body's fields (but `game`), its hash and the stored extras.
    `actor` is whose the event is: the seat (or referee) whose command made it, and for a sealed record the seat it
    is sealed to, which its hashed body names `data.seat` (a rule may seal a record to a seat other than the sender,
    e.g. Battlefleet's fog sightings). The body is served as hashed, untouched, so a client still verifies the chain."""
    return {
        "seq": seq,
        "type": body["type"],
        "v": body["v"],
        "command": body["command"],
        "data": body["data"],
        "hash": h,
        "actor": body["data"]["seat"] if body["type"] == SEALED else actor,
        "recorded_at": stamp,
    }


def event_row_out(r: EventRow, reader: engine.Reader = None) -> dict[str, Any]:
    """A stored event as `reader` may read it (the service resolves an unumpired game's referee to the public first:
    Reads.reads_as): a sealed record's content only to its own seat and the referee."""
    body = msgspec.json.decode(r.body)
    out = event_out(r.seq, body, r.hash, r.actor, r.recorded_at)
    if r.sealed is not None and reader is not None and reader in (REFEREE, out["actor"]):
        out["sealed"] = msgspec.json.decode(r.sealed)
    return out


def event_as_read(r: EventRow, out: dict[str, Any]) -> Event:
    """The typed event of `out` (event_row_out's answer for a reader): a sealed record carries its content only where
    `out` shows it to that reader, so what reads the event (a digest) knows what the reader knows and no more."""
    e = decode_stored(r.type, r.v, r.body)  # the body: a sealed record's commitment, never its content
    if "sealed" in out:
        assert isinstance(e, SubmissionSealed)
        e.content = out["sealed"]["content"]
    return e
