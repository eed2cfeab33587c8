"""The closed, versioned vocabulary of event types.

Every event type is a msgspec Struct whose class name is the body's `type` and whose `v` is the body's
schema version. Every type is at v1 and the decoder takes only the current `v`: the first change to a stored event's
shape bumps its `v` and brings the upcaster from the old shape with it, so old bundles still load and replay.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec


class Event(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    v: ClassVar[int] = 1
    # fields kept beside the body, never in it (a sealed record's content and salt: spec EVENTS.md "Sealed inputs")
    private: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def type_name(cls) -> str:
        return cls.__name__


EVENT_TYPES: dict[str, type[Event]] = {}


def register(*classes: type[Event]) -> None:
    for cls in classes:
        name = cls.type_name()
        if EVENT_TYPES.get(name, cls) is not cls:
            raise ValueError(f"event type {name} registered twice")
        EVENT_TYPES[name] = cls


def event_data(event: Event) -> dict[str, Any]:
    """The event's `data` as hashed: every field but the private ones."""
    data: dict[str, Any] = msgspec.to_builtins(event)
    for name in event.private:
        data.pop(name, None)
    return data


_BODY_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {}


def decode_stored(type_name: str, v: int, body: bytes | str) -> Event:
    """An event straight from its stored body JSON: one pass into its Struct when it is of the current
    version, else `decode_event` (which names what is wrong)."""
    cls = EVENT_TYPES.get(type_name)
    if cls is not None and v == cls.v:
        dec = _BODY_DECODERS.get(type_name)
        if dec is None:
            body_type = msgspec.defstruct(f"{type_name}Body", [("data", cls)])  # the other body fields are ignored
            dec = _BODY_DECODERS[type_name] = msgspec.json.Decoder(body_type)
        event: Event = dec.decode(body).data
        return event
    return decode_event(type_name, v, msgspec.json.decode(body)["data"])


def decode_event(type_name: str, v: int, data: dict[str, Any]) -> Event:
    """Decode a stored body's data into its Struct (of the current version: no type has an older one yet)."""
    cls = EVENT_TYPES.get(type_name)
    if cls is None:
        raise ValueError(f"unknown event type {type_name!r}")
    if v < cls.v:
        raise ValueError(f"no upcaster for {type_name} v{v}")
    if v != cls.v:
        raise ValueError(f"{type_name} v{v} is newer than this engine knows (v{cls.v})")
    return msgspec.convert(data, cls)
