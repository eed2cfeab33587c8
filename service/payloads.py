"""The recorded inputs of a game that are not ruleset commands: creation, forking, client seeds, reveal and end.
Every input is a recorded command, so a bundle replays by feeding them in order to a fresh engine."""

from __future__ import annotations

from typing import Any

import msgspec

from domain import engine
from events.core import DeadlineRule, ParentRef
from events.vocabulary import Event
from service.rulesets import Loaded

CREATOR = "creator"  # the seat that records creation and forking


class RecordedDice(msgspec.Struct, forbid_unknown_fields=True):
    """The dice inputs a creation or fork recorded (the server seed is never in them)."""

    mode: str
    client_seeds: dict[str, str]
    beacon: str | None


class CreatePayload(msgspec.Struct, forbid_unknown_fields=True, tag="create_game", tag_field="type"):
    """The recorded input of `POST /games` (the server seed is never in it)."""

    ruleset: str
    options: dict[str, Any]
    seats: list[str] | None
    dice: RecordedDice
    bots: list[str] = []
    edition: str | None = None  # recorded only when the creator named one; else the newest at the time
    umpired: bool = True  # recorded only when false
    deadlines: DeadlineRule | None = None  # recorded only when set


class SeedPayload(msgspec.Struct, forbid_unknown_fields=True, tag="contribute_seed", tag_field="type"):
    client_seed: str


class RevealPayload(msgspec.Struct, forbid_unknown_fields=True, tag="reveal", tag_field="type"):
    pass


class EndPayload(msgspec.Struct, forbid_unknown_fields=True, tag="end", tag_field="type"):
    pass


class ForkPayload(msgspec.Struct, forbid_unknown_fields=True, tag="fork_game", tag_field="type"):
    """The recorded input of `POST /games/{id}/forks`."""

    parent: ParentRef
    dice: RecordedDice
    bots: list[str] = []


class DeadlinesPayload(
    msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, tag="deadlines", tag_field="type"
):
    """The referee's change of the turn clock (`POST /games/{id}/deadlines`); what it leaves out stays."""

    turn_seconds: int | None = None
    on_expiry: str | None = None
    paused: bool | None = None
    extend: dict[str, int] = {}


class ExpiryPayload(
    msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, tag="deadline_expired", tag_field="type"
):
    """What the server records, as the seat's command, when a seat's time ran out: the turn that expired, the policy
    that acted (`action`) and the command it chose for the seat (`then`; None: nothing to send)."""

    seat: str
    since: int
    action: str
    then: dict[str, Any] | None = None


def command_kind(payload: dict[str, Any]) -> Any:
    """The ruleset command a recorded payload carries, as sealed records name it (`kind`): its type, or for a
    `deadline_expired` the type of the command it sent for the seat, which is hidden as that command is."""
    then = payload.get("then") if payload.get("type") == "deadline_expired" else None
    return then.get("type") if isinstance(then, dict) else payload.get("type")


CORE_PAYLOADS = {
    "create_game": CreatePayload,
    "fork_game": ForkPayload,
    "contribute_seed": SeedPayload,
    "reveal": RevealPayload,
    "end": EndPayload,
    "deadlines": DeadlinesPayload,
    "deadline_expired": ExpiryPayload,
}


def creation_events_for(
    loaded: Loaded, game_id: str, payload: CreatePayload, server_seed: bytes, made_as: str | None = None
) -> list[Event]:
    """The genesis from a recorded `create_game` payload; the replay calls this too. The edition is the one the payload
    names, else `made_as` (the replay: the version the bundle's genesis records, the newest when it was made), else
    the newest."""
    edition = payload.edition if payload.edition is not None else made_as
    return engine.creation_events(
        loaded.ruleset,
        *loaded.data_for(edition),  # the edition's default data set (a data revision: Ruleset.data_file_of)
        game_id,
        payload.options,
        payload.seats,
        payload.dice.mode,
        server_seed,
        payload.dice.client_seeds,
        payload.dice.beacon,
        edition,
        payload.umpired,
        payload.deadlines,
    )
