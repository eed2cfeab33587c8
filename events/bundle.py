"""The replay bundle (spec/EVENTS.md): one JSON file with the commands, the events and the dice inputs."""

from __future__ import annotations

from typing import Any

import msgspec

FORMAT = "umpire-bundle/1"


class BundleRuleset(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    version: str
    data_sha256: str


class BundleDice(msgspec.Struct, forbid_unknown_fields=True):
    scheme: str
    mode: str
    server_commit: str
    server_seed: str | None
    client_seeds: list[str]
    beacon: str | None = None


class BundleCommand(msgspec.Struct, forbid_unknown_fields=True):
    command_id: str
    seat: str
    payload: dict[str, Any]
    seqs: list[int]


class BundleEvent(msgspec.Struct, forbid_unknown_fields=True):
    body: dict[str, Any]
    hash: str


class Bundle(msgspec.Struct, forbid_unknown_fields=True):
    format: str
    engine: str
    ruleset: BundleRuleset
    game: str
    dice: BundleDice
    commands: list[BundleCommand]
    events: list[BundleEvent]
    head: str


def decode_bundle(raw: bytes | dict) -> Bundle:
    """Raises msgspec.ValidationError / DecodeError with a readable message when the shape is wrong."""
    bundle = msgspec.json.decode(raw, type=Bundle) if isinstance(raw, bytes) else msgspec.convert(raw, Bundle)
    if bundle.format != FORMAT:
        raise msgspec.ValidationError(f"format is {bundle.format!r}, this engine reads {FORMAT!r}")
    return bundle
