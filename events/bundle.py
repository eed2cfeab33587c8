"""The replay bundle (spec/EVENTS.md, docs/bundles.md): one JSON file with the commands, the events and the dice inputs.

The Structs decode an uploaded bundle and give its OpenAPI schema, so what the schema allows is exactly what
`POST /bundles/verify` reads; the bodies stay open objects, since a tampered body must reach the chain check to be
named by its seq.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

FORMAT = "umpire-bundle/1"
Hex64 = Annotated[str, Meta(pattern="^[0-9a-f]{64}$")]


class BundleRuleset(msgspec.Struct, forbid_unknown_fields=True):
    id: Annotated[str, Meta(min_length=1, max_length=64)]
    version: Annotated[str, Meta(min_length=1, max_length=32)]
    data_sha256: Hex64


class BundleDice(msgspec.Struct, forbid_unknown_fields=True):
    scheme: Literal["umpire1"]
    mode: Literal["fair", "public-seed"]
    server_commit: Hex64
    server_seed: Hex64 | None  # null until the game is revealed
    client_seeds: list[Hex64]  # in seat order
    beacon: Annotated[str, Meta(pattern="^[!-~]{1,256}$")] | None = None


class BundleCommand(msgspec.Struct, forbid_unknown_fields=True):
    command_id: Annotated[str, Meta(pattern="^[A-Za-z0-9._:-]{1,64}$")]
    seat: Annotated[str, Meta(min_length=1, max_length=64)]
    payload: dict[str, Any]  # the command as sent; {"sealed": <commitment>} while sealed
    seqs: Annotated[list[Annotated[int, Meta(ge=1)]], Meta(min_length=2, max_length=2)]  # [first, last]


class BundleEvent(msgspec.Struct, forbid_unknown_fields=True):
    body: dict[str, Any]  # {game, seq, type, v, command, data}: the hashed body (schema `Event` gives each data)
    hash: Hex64


class Bundle(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    format: Literal["umpire-bundle/1"]
    engine: Annotated[str, Meta(min_length=1, max_length=32)]
    ruleset: BundleRuleset
    game: Annotated[str, Meta(pattern="^[A-Za-z0-9._-]{1,64}$")]
    dice: BundleDice
    commands: list[BundleCommand]
    events: Annotated[list[BundleEvent], Meta(min_length=1)]
    head: Hex64
    # a fork's parent: the parent game's bundle up to the seq the fork starts from (absent for other games)
    parent: Bundle | None = None


def body_data(body: dict[str, Any]) -> dict[str, Any]:
    """An event body's `data` as a bundle's checks read it, or {} where a forged body holds anything but an object:
    the checks name what is wrong (the chain, a missing field), never fail on it (a list there was a 500)."""
    data = body.get("data")
    return data if isinstance(data, dict) else {}


def envelope(
    engine: str,
    ruleset: Any,
    game: str,
    dice: dict[str, Any],
    commands: Any,
    events: Any,
    head: str,
    parent: Any = None,
) -> dict[str, Any]:
    """A bundle's object, its keys in the order every bundle writes them: the one shape the server's download and an
    offline fork share (`parent`, a fork's, is left out for any other game)."""
    out = {
        "format": FORMAT,
        "engine": engine,
        "ruleset": ruleset,
        "game": game,
        "dice": dice,
        "commands": commands,
        "events": events,
        "head": head,
    }
    if parent is not None:
        out["parent"] = parent
    return out


def decode_bundle(raw: bytes | dict[str, Any]) -> Bundle:
    """Raises msgspec.ValidationError / DecodeError with a readable message when the shape is wrong (`why_not` says
    it in a reader's words)."""
    return msgspec.json.decode(raw, type=Bundle) if isinstance(raw, bytes) else msgspec.convert(raw, Bundle)


def why_not(raw: bytes | dict[str, Any], error: Exception) -> str:
    """Why `raw` is not a bundle, in words that say what to do: `decode_bundle`'s `error` read against the file."""
    if isinstance(raw, bytes) and not raw.strip():
        return f"not an {FORMAT}: it is empty; a bundle is one JSON object (GET /games/{{id}}/bundle, umpire export)"
    if isinstance(error, msgspec.DecodeError) and not isinstance(error, msgspec.ValidationError):
        if "truncated" in str(error):
            return f"not an {FORMAT}: its JSON ends before it is complete (the file was cut short?)"
        return f"not an {FORMAT}: it is not JSON ({error})"
    if isinstance(error, RecursionError):
        return f"not an {FORMAT}: it nests deeper than any bundle does"
    said = _format_of(raw)
    if said != FORMAT and isinstance(said, str) and said.startswith("umpire-bundle/"):
        return f"not an {FORMAT}: its format is {said[:40]!r}, which a newer engine writes; this one reads {FORMAT}"
    return f"not an {FORMAT}: {error}"


def _format_of(raw: bytes | dict[str, Any]) -> Any:
    try:
        data = msgspec.json.decode(raw) if isinstance(raw, bytes) else raw
    except (msgspec.DecodeError, RecursionError):
        return None
    return data.get("format") if isinstance(data, dict) else None
