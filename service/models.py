"""Named request and response schemas of the HTTP API (what openapi/openapi.json describes)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

Hex64 = Field(pattern="^[0-9a-f]{64}$")


class Problem(BaseModel):
    """RFC 9457 problem details; `code` is stable, `detail` says what to do."""

    type: str
    title: str
    status: int
    code: str
    detail: str
    instance: str | None = None
    legal: list[dict[str, Any]] | None = Field(None, description="for illegal-command: what is legal now")
    version: int | None = Field(None, description="for version-conflict: the game's version now")


class FairDice(BaseModel):
    """The server makes a secret seed and commits to it; seats add theirs before the seed locks."""

    model_config = ConfigDict(extra="forbid")
    mode: Literal["fair"] = "fair"
    client_seeds: dict[str, Annotated[str, Field(pattern="^[0-9a-f]{64}$")]] | None = Field(
        None, description="seat -> 64 lowercase hex"
    )
    beacon: str | None = Field(None, pattern="^[!-~]{1,256}$", description="e.g. drand:<chain>:<round>:<hex>")


class PublicSeedDice(FairDice):
    """The creator supplies the server seed (tests, bug reproduction, tutorials): no fairness claim."""

    mode: Literal["public-seed"]
    server_seed: str = Field(pattern="^[0-9a-f]{64}$")


def _dice_mode(v: Any) -> str:
    """`mode` may be left out: it means fair."""
    mode = v.get("mode", "fair") if isinstance(v, dict) else getattr(v, "mode", "fair")
    return mode if mode in ("fair", "public-seed") else "fair"


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field(max_length=64, examples=["aa1942-convoy"], description="an id from GET /rulesets")
    options: dict[str, Any] | None = Field(None, description="the ruleset's options_schema (GET /rulesets/{id})")
    seats: list[str] | None = Field(None, max_length=16, description="default: the ruleset's seats")
    dice: Annotated[
        Annotated[FairDice, Tag("fair")] | Annotated[PublicSeedDice, Tag("public-seed")], Discriminator(_dice_mode)
    ] = FairDice()


class SeatToken(BaseModel):
    seat: str
    token: str


class DiceCommitment(BaseModel):
    mode: str
    server_commit: str
    beacon: str | None = None


class EventOut(BaseModel):
    seq: int
    type: str
    v: int
    data: dict[str, Any]
    hash: str


class GameCreatedOut(BaseModel):
    game_id: str
    ruleset: str
    version: int
    head: str
    dice: DiceCommitment
    seats: list[SeatToken] = Field(description="one bearer token per seat; shown only here")
    referee_token: str = Field(description="reveals the seed and ends games; shown only here")
    events: list[EventOut]


class CommandResult(BaseModel):
    game_id: str
    command_id: str
    version: int
    head: str
    replayed: bool = Field(description="true when this command_id was applied before and nothing was appended")
    events: list[EventOut]


class SeedRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    client_seed: str | None = Field(None, pattern="^[0-9a-f]{64}$")
    passphrase: str | None = Field(None, max_length=1024, description="the seed is SHA-256 of its UTF-8 bytes")
    command_id: str | None = Field(None, pattern="^[A-Za-z0-9._:-]{1,64}$")


class Awaiting(BaseModel):
    type: str
    seats: list[str]
    choices: list[dict[str, Any]] | None = Field(description="every legal argument object, or null when > 64")
    schema_: dict[str, Any] = Field(alias="schema")
    description: str = ""
    labels: list[str] | None = None
    model_config = ConfigDict(populate_by_name=True)


class RulesetRefOut(BaseModel):
    id: str
    version: str
    data_sha256: str


class DiceSummary(BaseModel):
    scheme: str
    mode: str
    server_commit: str
    server_seed: str | None = Field(description="null until the referee reveals it")
    seed_locked: bool
    client_seeds: dict[str, str | None]
    beacon: str | None
    next_roll: int
    fairness: str


class GameSummary(BaseModel):
    game_id: str
    ruleset: RulesetRefOut
    version: int
    head: str
    status: Literal["open", "over", "revealed"]
    seats: list[str]
    options: dict[str, Any]
    dice: DiceSummary
    awaiting: list[Awaiting] = Field(description="the legal commands now; empty when the game is over")
    waiting_for: list[str] = Field(description="seats that still owe a sealed submission in this step")
    ended: str | None


class StoredEvent(BaseModel):
    seq: int
    type: str
    v: int
    body: dict[str, Any] = Field(description="the hashed body (spec/EVENTS.md)")
    hash: str
    actor: str | None
    recorded_at: str
    global_position: int


class EventsPage(BaseModel):
    game_id: str
    events: list[StoredEvent]
    next_after: int
    version: int
    head: str


class RollVerification(BaseModel):
    status: Literal["pending", "verified", "mismatch"]
    detail: str | None = None
    recomputed_faces: list[int] | None = None


class RollOut(BaseModel):
    seq: int
    k: int
    sides: list[int]
    faces: list[int]
    purpose: str
    rule: str
    result: dict[str, Any] | None = None
    rerolls: int | None = None
    verification: RollVerification


class RollsPage(BaseModel):
    game_id: str
    rolls: list[RollOut]
    next_after: int


class ViewOut(BaseModel):
    view: str
    at: int
    data: dict[str, Any]


class CheckOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    status: Literal["pass", "fail", "skipped"]
    detail: str
    first_bad_seq: int | None = None
    first_bad_k: int | None = None


class VerifyReport(BaseModel):
    verdict: Literal["verified", "partial", "failed"]
    game: str | None
    checks: dict[str, CheckOut]


class CommandInfo(BaseModel):
    type: str
    schema_: dict[str, Any] = Field(alias="schema")
    model_config = ConfigDict(populate_by_name=True)


class RulesetInfo(BaseModel):
    id: str
    version: str
    title: str
    data_sha256: str
    default_seats: list[str]
    commands: list[CommandInfo]
    views: list[str]
    options_schema: dict[str, Any]


class Root(BaseModel):
    name: str
    engine: str
    docs: str
    openapi: str
    rulesets: list[str]
