"""The HTTP API's request and response bodies, as msgspec Structs: the service builds them, msgspec encodes them, and
openapi/openapi.json describes them (service/openapi.py refines the parts typed per ruleset: events, views,
options, awaiting)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

from domain.engine import CommandSpec
from events.core import RollResult

Hex64 = Annotated[str, Meta(pattern="^[0-9a-f]{64}$", description="64 lowercase hex characters")]
GameId = Annotated[str, Meta(pattern="^[A-Za-z0-9._-]{1,64}$")]
SeatName = Annotated[str, Meta(pattern="^(?!referee$)[A-Za-z0-9._-]{1,32}$", description="a seat (never `referee`)")]
CommandId = Annotated[
    str, Meta(pattern="^[A-Za-z0-9._:-]{1,64}$", description="client-chosen id; a retry with it appends nothing")
]
ExpectedVersion = Annotated[int, Meta(ge=0, description="the game's version the command was decided on (else 409)")]
# what a command body may carry beside its type and arguments: (field, type, the 422's code)
COMMAND_EXTRAS = (
    ("command_id", CommandId, "invalid-command-id"),
    ("expected_version", ExpectedVersion, "invalid-expected-version"),
)


class _Out(Struct, forbid_unknown_fields=True):
    pass


class _In(Struct, forbid_unknown_fields=True):
    pass


# ---- errors ----


class Problem(_Out, omit_defaults=True):
    """RFC 9457 problem details; `code` is stable, `detail` says what to do."""

    type: str
    title: str
    status: int
    code: str
    detail: str
    instance: str | None = None
    legal: list[CommandSpec] | None = None  # illegal-command: what is legal now, in the shape of `awaiting`
    version: int | None = None  # version-conflict: the game's version now
    limit: int | None = None  # body-too-large, too-many-requests: the limit that was hit
    retry_after: int | None = None  # too-many-requests: seconds to wait (also the Retry-After header)


# ---- rulesets ----


class CommandInfo(_Out):
    type: str
    description: str
    sealed: bool
    schema: dict[str, Any]  # a JSON Schema


class ViewInfo(_Out):
    name: str
    per_seat: bool
    description: str


class RulesetInfo(_Out):
    id: str
    version: str
    title: str
    data_sha256: str
    default_seats: list[str]
    commands: list[CommandInfo]
    views: list[ViewInfo]
    options_schema: dict[str, Any]  # a JSON Schema


class Root(_Out):
    name: str
    engine: str
    docs: str
    openapi: str
    desk: str
    rulesets: list[str]


# ---- creating ----


class CreateDice(_In):
    """`fair` (the default): the server makes a secret seed and commits to it. `public-seed`: the creator supplies
    `server_seed` (tests, bug reproduction, tutorials); no fairness claim."""

    mode: Literal["fair", "public-seed"] = "fair"
    server_seed: Hex64 | None = None
    client_seeds: dict[SeatName, Hex64] | None = None
    beacon: Annotated[str, Meta(pattern="^[!-~]{1,256}$", description="e.g. drand:<chain>:<round>:<hex>")] | None = None


class CreateGame(_In):
    ruleset: Annotated[str, Meta(max_length=64, description="an id from GET /rulesets")]
    options: dict[str, Any] | None = None  # the ruleset's options_schema (typed per ruleset in the OpenAPI)
    # distinct names (`uniqueItems` in the OpenAPI; the service refuses a repeated one)
    seats: Annotated[list[SeatName], Meta(min_length=1, max_length=16)] | None = None
    bots: Annotated[list[SeatName], Meta(max_length=16)] | None = None  # seats the server plays itself
    dice: CreateDice | None = None


class ForkGame(_In):
    """Start a new game from a position of this one: the state after event `at` (the end of a command)."""

    at: Annotated[int, Meta(ge=1, le=2**53)]
    dice: CreateDice | None = None
    bots: Annotated[list[SeatName], Meta(max_length=16)] | None = None


class SeatToken(_Out):
    seat: str
    token: str | None  # null for a seat the server plays (a bot)
    bot: bool


class DiceCommitment(_Out):
    mode: Literal["fair", "public-seed"]
    server_commit: str
    beacon: str | None


class EventOut(_Out, omit_defaults=True):
    """One event, the same object wherever events appear; typed per `type` in the OpenAPI."""

    seq: int
    type: str
    v: int
    command: str | None
    data: dict[str, Any]
    hash: str
    actor: str | None = None
    recorded_at: str | None = None
    sealed: dict[str, Any] | None = None  # SubmissionSealed only, to its seat and the referee: {content, salt}


class GameCreatedOut(_Out):
    game_id: str
    ruleset: str
    version: int
    head: str
    dice: DiceCommitment
    seats: list[SeatToken]  # one bearer token per seat, shown only here
    referee_token: str  # reveals the seed and ends games; shown only here
    events: list[EventOut]


class SeedRequest(_In):
    """Exactly one of `client_seed` and `passphrase`."""

    client_seed: Hex64 | None = None
    passphrase: Annotated[str, Meta(min_length=1, max_length=1024)] | None = None
    command_id: CommandId | None = None


class CommandResult(_Out):
    game_id: str
    command_id: str
    version: int
    head: str
    replayed: bool  # true when this command_id was applied before and nothing was appended
    events: list[EventOut]
    awaiting: list[CommandSpec]  # what the sender may do now (the same as GET /games/{id} with its token)
    waiting_for: list[str]


# ---- reading ----


class RulesetRef(_Out):
    id: str
    version: str
    data_sha256: str


class DiceSummary(_Out):
    scheme: str
    mode: Literal["fair", "public-seed"]
    server_commit: str
    server_seed: str | None  # null until the referee reveals it
    seed_locked: bool
    client_seeds: dict[str, str | None]
    beacon: str | None
    next_roll: int
    fairness: str
    secrecy: str


Status = Literal["open", "over", "revealed"]


class GameSummary(_Out):
    game_id: str
    ruleset: RulesetRef
    version: int
    head: str
    status: Status
    seats: list[str]
    bots: list[str]
    options: dict[str, Any]  # typed per ruleset in the OpenAPI
    dice: DiceSummary
    awaiting: list[CommandSpec]  # the legal commands now, as this reader may see them; empty when the game is over
    waiting_for: list[str]  # seats that still owe a sealed submission in this step
    ended: str | None
    created_at: str


class StreamEnd(_Out):
    """The data of the event stream's last message (`event: end`), sent when the game is over or revealed."""

    status: Status
    version: int
    head: str


class GameListItem(_Out):
    game_id: str
    ruleset: str
    status: Status
    version: int
    seats: list[str]
    created_at: str


CURSOR = "^[0-9T:.Z+-]{1,40}~[A-Za-z0-9._-]{1,64}$"  # "<created_at>~<game_id>" of the last game of a page


class GamesPage(_Out):
    games: list[GameListItem]
    # pass as ?cursor= for the next page; null on the last
    next_cursor: Annotated[str, Meta(pattern=CURSOR)] | None


class Me(_Out):
    game_id: str
    seat: str  # a seat name, or "referee"
    referee: bool
    bot: bool
    awaiting: list[CommandSpec]  # what this token may send now
    waiting_for: list[str]
    may: list[str]  # the game-level actions this token may take: "command", "seed", "reveal", "end"


class EventsPage(_Out):
    game_id: str
    events: list[EventOut]
    next_after: int  # pass as ?after= for the next page
    version: int
    head: str


class RollVerification(_Out, omit_defaults=True):
    status: Literal["pending", "verified", "mismatch"]
    detail: str | None = None
    recomputed_faces: list[int] | None = None


class RollOut(_Out, omit_defaults=True):
    seq: int
    k: int
    sides: list[int]
    faces: list[int]
    purpose: str
    rule: str
    verification: RollVerification
    result: RollResult | None = None
    rerolls: int | None = None


class RollsPage(_Out):
    game_id: str
    rolls: list[RollOut]
    next_after: int  # the last k of this page: pass as ?after= for the next


class ViewOut(_Out):
    """`kind` is "<ruleset>/<view>": the OpenAPI types `data` by it."""

    kind: str
    view: str
    at: int
    data: dict[str, Any]


class CheckOut(_Out, omit_defaults=True):
    status: Literal["pass", "fail", "skipped"]
    detail: str
    first_bad_seq: int | None = None
    first_bad_k: int | None = None
    events: int | None = None
    rolls: int | None = None
    game_seed: str | None = None
    revealed: int | None = None
    unrevealed: list[int] | None = None
    recorded: dict[str, Any] | None = None
    replayed: dict[str, Any] | None = None
    diff: list[dict[str, Any]] | None = None
    game: str | None = None  # the parent check: the parent game's id


class VerifyReport(_Out):
    verdict: Literal["verified", "partial", "failed"]
    game: str | None
    checks: dict[str, CheckOut]


def schema_of(model: type) -> dict[str, Any]:
    return msgspec.json.schema(model)


# ---- what-if ----


class OddsRequest(_In):
    """The odds from the position after event `at` (the end of a command): `games` continuations played by the
    ruleset's bot, continuation i rolling from a seed that depends only on `seed` and i."""

    at: Annotated[int, Meta(ge=1, le=2**53)]
    games: Annotated[int, Meta(ge=1, le=1000)] = 200
    seed: Annotated[int, Meta(ge=0, le=2**53)] = 1


class Bin(_Out):
    lo: int
    hi: int
    count: int


class OddsFigure(_Out):
    """One figure the ruleset reports over the continuations, and where the real game's value falls."""

    mean: float
    p5: float
    p25: float
    median: float
    p75: float
    p95: float
    min: int
    max: int
    histogram: list[Bin]
    actual: int | None  # the real game's value (where it stands now, if it is not over)
    percentile: float | None  # the share of continuations below it, plus half of those equal, in percent


class OddsResult(_Out):
    ruleset: str
    game: str
    at: int
    games: int
    seed: int
    finished: bool  # whether the real game is over (else `actual` is where it stands now)
    figures: dict[str, OddsFigure]


class JobProgress(_Out):
    """The data of an odds job's `event: progress`."""

    done: int
    games: int


class OddsJob(_Out):
    job_id: str
    game_id: str
    at: int
    games: int
    seed: int
    status: Literal["running", "done", "failed", "lost"]
    done: int
    result: OddsResult | None
    error: str | None
    stream: str  # GET it for Server-Sent Events: `progress` ({done, games}), then `result` (this object)
