"""Events every game has, whatever its ruleset: creation, seeds, rolls, reveal, end."""

from __future__ import annotations

from typing import Any

import msgspec

from events.vocabulary import Event, register


class RulesetRef(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    version: str
    data_sha256: str


class DiceConfig(msgspec.Struct, forbid_unknown_fields=True):
    scheme: str
    mode: str
    server_commit: str
    beacon: str | None = None


class ParentRef(msgspec.Struct, forbid_unknown_fields=True):
    """The position a fork starts from: the parent game, the seq, and the parent's hash at that seq."""

    game: str
    seq: int
    hash: str


class DeadlineRule(msgspec.Struct, forbid_unknown_fields=True):
    """A game's turn clock (docs/api.md "Deadlines"): a seat awaited for `turn_seconds` has its time run out, and
    `on_expiry` says what then acts for it: "bot", "default" (the entry's default, else the bot) or "forfeit" (it
    concedes where the ruleset allows it, else the bot)."""

    turn_seconds: int
    on_expiry: str


class GameCreated(Event, omit_defaults=True):
    """A game begins; a fork also names its parent. `umpired: false` says the referee's token reads no seat's sealed
    content before the rules open it (docs/api.md "Tokens and readers"). Both are absent at their defaults, so older
    genesis bodies are unchanged."""

    ruleset: RulesetRef
    options: dict[str, Any]
    seats: list[str]
    dice: DiceConfig
    parent: ParentRef | None = None
    umpired: bool = True
    deadlines: DeadlineRule | None = None


class DeadlinesChanged(Event):
    """The referee changed the turn clock: the rule from now on, whether it is paused (no clock runs; resumed, every
    awaited seat's clock starts again), and seconds added to named seats' clocks running now."""

    rule: DeadlineRule
    paused: bool
    extend: dict[str, int] = {}


class DeadlineExpired(Event):
    """`seat` was awaited from version `since` for its turn's time: what acts for it follows in the same command
    (`action`: "bot", "default" or "concede"; "none" when it had nothing to send)."""

    seat: str
    since: int
    action: str


class ClientSeedContributed(Event):
    seat: str
    client_seed: str


class SeedLocked(Event):
    """The seed inputs are fixed from here on; rolls may follow."""

    client_seeds: list[str]  # in seat order
    server_only: list[str]  # seats that contributed none (they got SHA-256 of "")
    beacon: str | None = None


class RollModifier(msgspec.Struct, forbid_unknown_fields=True):
    reason: str
    value: int
    side: str


class RollResult(msgspec.Struct, forbid_unknown_fields=True):
    """What a roll decided and why: for a check, active vs passive with each modifier and the target."""

    outcome: str
    target: int | None = None
    active: int | None = None
    passive: int | None = None
    modifiers: list[RollModifier] = []
    total: int | None = None


class DiceRolled(Event):
    k: int
    sides: list[int]
    faces: list[int]
    purpose: str
    rule: str
    result: RollResult | None = None
    rerolls: int | None = None  # the k this roll supersedes, where a rule grants a re-roll


class SubmissionSealed(Event):
    """Content that only `seat` (and the referee) may read until the rules open it: a sealed command's arguments
    (`kind` = the command type) or a ruleset's own sealed record. The body holds only the commitment,
    SHA-256(canonical({"content": content, "salt": salt})); content and salt are kept beside the body (the store's
    `sealed` column) and shown to the seat and the referee only. The ruleset emits it with `content`; the engine
    fills in `salt` and `commitment` once the event's seq is known."""

    private = ("content", "salt")
    seat: str
    kind: str
    commitment: str = ""
    content: dict[str, Any] | None = None
    salt: str | None = None


class SealedEntry(msgspec.Struct, forbid_unknown_fields=True):
    seq: int  # the SubmissionSealed whose commitment this opens
    seat: str
    kind: str
    content: dict[str, Any]
    salt: str


class SubmissionsRevealed(Event):
    """The rules open sealed records: every unrevealed one of `kinds` ([] = all), in seq order. The ruleset emits it
    with `kinds`; the engine fills in `entries`."""

    kinds: list[str] = []
    entries: list[SealedEntry] = []


class ServerSeedRevealed(Event):
    server_seed: str


class GameEnded(Event):
    reason: str


def as_genesis(e: Event) -> GameCreated:
    """A game's first event, which is always its GameCreated (a log, a bundle or the creation events give it as an
    Event)."""
    if not isinstance(e, GameCreated):
        raise ValueError(f"a game's log begins with its GameCreated, not {type(e).__name__}")
    return e


CORE_EVENTS = (
    GameCreated,
    ClientSeedContributed,
    SeedLocked,
    DiceRolled,
    SubmissionSealed,
    SubmissionsRevealed,
    ServerSeedRevealed,
    GameEnded,
    DeadlinesChanged,
    DeadlineExpired,
)
register(*CORE_EVENTS)
