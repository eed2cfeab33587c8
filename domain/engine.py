"""The game core every ruleset runs on: creation, client seeds, the seed lock, rolls, reveal and end.

A ruleset is a Decider (DESIGN.md): `initial_state`, `decide`, `evolve`, `legal_commands`, `views`, typed over its
own state, command, options and data set (`Ruleset`).
This module wraps it with what is the same for every game, so the service and the replay run exactly
the same code. Pure: no I/O, no clock; the server seed comes in as an argument.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, cast

import msgspec

from domain.decisions import Ui
from domain.dice import EMPTY_CLIENT_SEED, SCHEME, Dice, commitment, game_seed, sealing_salt, server_commit
from domain.editions import Edition, Editions, major
from domain.procedure import in_place, working_copy
from events.canonical import canonical
from events.core import (
    ClientSeedContributed,
    DeadlineExpired,
    DeadlineRule,
    DeadlinesChanged,
    DiceConfig,
    DiceRolled,
    GameCreated,
    GameEnded,
    ParentRef,
    RulesetRef,
    SealedEntry,
    SeedLocked,
    ServerSeedRevealed,
    SubmissionSealed,
    SubmissionsRevealed,
)
from events.vocabulary import Event

GAME_ID_RE = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
HEX64_RE = re.compile(r"^[0-9a-f]{64}$")
MODES = ("fair", "public-seed")
REFEREE = "referee"
ON_EXPIRY = ("bot", "default", "forfeit")
MAX_TURN_SECONDS = 366 * 24 * 3600


class Rejected(Exception):
    """A command or request the game refuses; nothing is appended. `code` is the stable machine code."""

    status = 409

    def __init__(self, code: str, detail: str, **extra: Any):
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra


class IllegalCommand(Rejected):
    """The rules forbid this command now (`detail` says why, naming the rule where it has an id); `legal` says what
    they allow. A ruleset raises it with the reason only: the engine attaches `legal` (`refusal`)."""

    def __init__(self, detail: str, legal: list[dict[str, Any]] | None = None):
        super().__init__("illegal-command", detail)
        self.legal = legal or []


class InvalidInput(Rejected):
    status = 422


class Forbidden(Rejected):
    status = 403


Reader = str | None  # who is reading: a seat, None (the public, no token) or REFEREE


class CommandSpec(msgspec.Struct, dict=True):
    """One entry of `awaiting`: a legal command type now, who may send it and its argument choices.

    `labels[i]` is a human label for `choices[i]` (a UI renders buttons from these two alone); `description`
    says what the command does, in the player's words. `default` is the arguments the rules take when the seat
    sends none (Battlefleet's "steam on"), where they have one; `ui` is the decision's descriptor, from the one
    vocabulary of domain/decisions.py, where `choices` cannot list every argument set (or a map needs more).
    `ends_game`: sending it ends the game (a concession, an abandoned campaign, the referee's end), so a UI asks before
    it sends; `always_open`: it is offered all game long and never makes its seat awaited (a concession), so a UI puts
    it aside from the turn's decision. Each is its command type's own (`ends_game_of`, `always_open_of`), which
    `spec_of` copies (aa1942-convoy's entries that neither end the game nor stay open are made directly).

    Besides its fields (`dict=True`), a spec keeps what it is answered as (`answered`) and may carry its entry's JSON
    made by its builder (`premade`) and what its ruleset patches it from (aa1942's per-zone parts): never encoded nor
    compared as fields, never pickled."""

    type: str
    seats: list[str]
    choices: list[dict[str, Any]] | None
    schema: dict[str, Any]
    description: str = ""
    labels: list[str] | None = None
    default: dict[str, Any] | None = None
    ui: Ui | None = None
    ends_game: bool = False
    always_open: bool = False


def ends_game_of(command_type: type) -> bool:
    """Whether a command type ends the game when sent: its class says so (`ends_game: ClassVar[bool] = True`), as a
    sealed command's says `sealed`; its entries and GET /rulesets/{id} read it here."""
    return bool(getattr(command_type, "ends_game", False))


def always_open_of(command_type: type) -> bool:
    """Whether a command type is offered all game long (`always_open: ClassVar[bool] = True`): `Ruleset.always_open`,
    its entries and GET /rulesets/{id} read it here."""
    return bool(getattr(command_type, "always_open", False))


# an entry lists its choices when there are at most this many, else none and a schema narrowed to what is legal now
# (docs/api.md `awaiting`: "when there are at most 64")
MAX_CHOICES = 64


def spec_of(
    command_type: type,
    seats: list[str],
    choices: list[dict[str, Any]] | None,
    schema: dict[str, Any],
    description: str,
    labels: list[str] | None = None,
    default: dict[str, Any] | None = None,
    ui: Any = None,
) -> CommandSpec:
    """An entry of `command_type`, with what its class says of it (`ends_game`, `always_open`): every ruleset's
    builders make their entries here."""
    return CommandSpec(
        type=tag(command_type),
        seats=seats,
        choices=choices,
        schema=schema,
        description=description,
        labels=labels,
        default=default,
        ui=ui,
        ends_game=ends_game_of(command_type),
        always_open=always_open_of(command_type),
    )


def entry(spec: CommandSpec) -> dict[str, Any]:
    """An `awaiting` entry as the API answers it: the schema only where `choices` is null (too many to list), since
    listed choices say all it would; the command's static schema is the ruleset's (GET /rulesets/{id})."""
    return {
        "type": spec.type,
        "seats": spec.seats,
        "choices": spec.choices,
        "schema": spec.schema if spec.choices is None else None,
        "description": spec.description,
        "labels": spec.labels,
        "default": spec.default,
        "ui": spec.ui,
        "ends_game": spec.ends_game,
        "always_open": spec.always_open,
    }


_encode_entry = msgspec.json.Encoder().encode  # as the service encodes answers


def answered(spec: CommandSpec) -> tuple[dict[str, Any], msgspec.Raw]:
    """`entry(spec)` and its JSON, made once per spec and kept on it (a spec is never mutated, and a ruleset hands back
    the very same spec while what it reads is unchanged: domain/entries.py), so an answer encodes only the entries that
    changed, whichever game or reader asks; the JSON its builder made (`premade`) where it made it. The JSON as a
    `msgspec.Raw`, which an encoder copies in as it is (service.http.Encoded), made once with it."""
    kept = spec.__dict__
    made: tuple[dict[str, Any], msgspec.Raw] | None = kept.get("answered")
    if made is None:
        as_entry = entry(spec)
        made = kept["answered"] = (as_entry, msgspec.Raw(kept.get("premade_json") or _encode_entry(as_entry)))
    return made


HOLE: Any = msgspec.Raw(b"\0")  # a list's place in a `cut` shell: no JSON the encoder makes holds a NUL byte


def cut(shell: CommandSpec) -> list[bytes]:
    """The JSON of `shell`'s entry cut at its HOLEs: what `premade` fills (a builder keeps it for the entries whose
    lists alone change)."""
    return _encode_entry(entry(shell)).split(b"\0")


def premade(spec: CommandSpec, shell: list[bytes], *lists: Iterable[bytes]) -> CommandSpec:
    """`spec`, carrying its entry's JSON: `shell` (`cut`) with its holes filled by `lists` of items encoded already,
    each by the builder once and shared between entries. A raid changes one zone's variant of aa1942's `fight` entry (a
    variant per zone): encoding every variant again cost more than the raid's rules. The bytes are
    those of `entry(spec)` encoded (tests/test_awaiting_incremental.py compares them after every command). The spec
    keeps its shell too, for a patch that changes only its lists to fill it again."""
    out = [shell[0]]
    for piece, items in zip(shell[1:], lists, strict=True):
        out += (b"[", b",".join(items), b"]", piece)
    kept = spec.__dict__
    kept["premade_json"], kept["shell"] = b"".join(out), shell
    return spec


S = TypeVar("S")  # a ruleset's state
S_in = TypeVar("S_in", contravariant=True)
C = TypeVar("C", bound=msgspec.Struct)  # its commands (a union of Structs)
O = TypeVar("O", bound=msgspec.Struct)  # noqa: E741 - its options
D = TypeVar("D")  # its data set
H = TypeVar("H")  # its history (`History`)


@dataclass(frozen=True)
class View(Generic[S]):
    """A projection players read. `render(state, reader)` returns an instance of `model` (a msgspec Struct, whose
    JSON Schema is the view's schema in the OpenAPI); a view that shows the game's past (`history`) is rendered
    `render(state, reader, history)`, given its ruleset's `History` folded to the same seq (`render`, below). A
    `per_seat` view shows each seat what it may see; a public one ignores the reader."""

    render: Callable[[S, Reader], Any] | Callable[[S, Reader, Any], Any]
    model: type[msgspec.Struct] | None = None
    per_seat: bool = False
    description: str = ""
    history: bool = False


@dataclass(frozen=True)
class History(Generic[H]):
    """What a ruleset's views show of the game's past that its rules never read (aa1942's campaign sheet, a line per
    power and round): a fold of the log kept out of the state, so that the state, its snapshots and the working copies
    of decide, the bots and what-if stay the size of what the rules read however long the game. Nothing keeps it: it
    is folded from the genesis when a view shows it (the service: `GameCache.history`), a cost of the log's length
    paid by those views alone."""

    start: Callable[[], H]  # the history as the genesis leaves it
    evolve: Callable[[H, Event], None]  # one event, in place; an event it records nothing of leaves it as it is

    def fold(self, events: Iterable[Event]) -> H:
        history = self.start()
        for e in events:
            self.evolve(history, e)
        return history


def render(view: View[Any], state: Any, reader: Reader, history: Callable[[], Any]) -> Any:
    """The view's model as `reader` may read it; `history()` gives the ruleset's history at the state's seq, asked
    only by a view that shows it."""
    if view.history:
        return cast(Callable[[Any, Reader, Any], Any], view.render)(state, reader, history())
    return cast(Callable[[Any, Reader], Any], view.render)(state, reader)


class LegalCommands(Protocol[S_in]):
    """(state, only=None) -> the legal commands now; `only` a command type, to compute just that one's."""

    def __call__(self, state: S_in, only: str | None = None) -> list[CommandSpec]: ...


def no_setup_check(options: Any, seats: list[str], data: Any) -> None:
    """A ruleset whose options and seats need no check beyond their types."""


def no_data(raw: bytes) -> Any:
    """A ruleset without a data set (`data_file` ""): the data every game of it gets is None."""
    return None


@dataclass(frozen=True, kw_only=True)
class Ruleset(Generic[S, C, O, D]):
    """A ruleset as the engine runs it, typed over its state S, commands C, options O and data set D. The fields with
    a default are what a ruleset may leave out."""

    id: str
    editions: Editions  # every edition this engine plays; the newest is what new games get (domain/editions.py)
    title: str
    options_type: type[O]
    command_types: tuple[type[C], ...]
    default_seats: Callable[[O], list[str]]
    initial_state: Callable[[GameCreated, O, D], S]  # (genesis, options, data) -> state
    decide: Callable[[S, C, str, Dice], list[Event]]  # (state, command, seat, dice)
    evolve: Callable[[S, Event], S]  # domain/procedure.py `fold`
    legal_commands: LegalCommands[S]
    views: dict[str, View[S]]
    check_setup: Callable[[O, list[str], D], None] = no_setup_check  # (options, seats, data): raises InvalidInput
    parse_data: Callable[[bytes], D] = no_data  # a ruleset without a data set leaves this and `data_file` out
    data_file: str = ""  # the default data set, relative to the package ("": none); an edition may revise it
    event_types: tuple[type[Event], ...] = ()  # its own events (the core's are events/core.py's)
    data_option: str | None = None  # the option through which a game brings its own data set
    # rulesets with hidden information: the state as `reader` may see it (the one place secrets leave the state)
    redact: Callable[[S, Reader], S] | None = None
    # (redact(state, seat), seat) -> a whole state to play on: what the seat may not read re-drawn from what it may
    # (a seat's own odds, `as_seen_by`), and `redrawn` says what in plain words. A ruleset without it hides nothing
    # from a seat but the server seed, which every continuation replaces with its own
    imagine: Callable[[S, str], S] | None = None
    # (that picture, seat, keyed) -> None: in each continuation, what `imagine` could only picture once drawn again in
    # place (battlefleet's fogged positions within their sighting's blur); `keyed(label)` gives the continuation's own
    # reproducible bytes (its seed's HMAC, as the fog's offsets are drawn), so each continuation draws its own
    redraw: Callable[[S, str, Callable[[str], bytes]], None] | None = None
    redrawn: str = "the server seed: each continuation rolls dice of its own"
    # (options) -> the options a new game records: fills in a default so the genesis names it explicitly
    new_game_options: Callable[[O], O] | None = None
    # the documented policy that plays a seat (`domain/<ruleset>/bot.py`): (the state as `seat` may read it, the
    # legal commands, seat) -> the command it sends, or None. Seats of a ruleset without one are people's.
    bot: Callable[[S, list[CommandSpec], str], dict[str, Any] | None] | None = None
    # what its views show of the past that its rules never read, folded from the log apart from the state (`History`)
    history: History[Any] | None = None
    # (state) -> {figure: int}: what a finished game comes to (tonnage, VP, winner …), as `umpire simulate` and
    # what-if report it
    outcomes: Callable[[S], dict[str, int]] | None = None
    # (state) -> {figure: {value: label}}: the outcomes that are categories, not quantities (a winner, a result
    # level), which what-if reports as shares ("japan 62%, russia 30%, drawn 8%"), never as a mean
    categories: Callable[[S], dict[str, dict[int, str]]] | None = None
    # the rule that orders the game's steps (its sequence of play): what a refusal of a command not awaited now names
    sequence_rule: str = ""
    # (the state at the version a reader last saw, the events since as that reader may read them, reader) -> the
    # digest: one line in plain words per meaningful event, saying only what the reader may read (its views.py
    # `digest`; docs/api.md "Since my last turn"). A ruleset without one gives the events and no lines.
    digest: Callable[[S, list[Event], Reader], list[str]] | None = None
    # (the edition change from which, why): a ruleset whose games nothing may act in for a seat takes no turn clock from
    # that edition on (aa1942-convoy records a game played at a table: its bot's pick would be a move nobody made)
    no_clock: tuple[str, str] | None = None
    # whether a game's seats are those `default_seats` names (True, or from which edition change): rules that await
    # their seats by name (uboat-leader's `commander`) take no others, from which no command could ever be sent
    named_seats: bool | str = False

    @property
    def version(self) -> str:
        """The newest edition's version: what a new game records unless its creator names another."""
        return self.editions.newest

    def data_file_of(self, version: str) -> str:
        """The default data set a game of `version` pins: the last data revision its edition or an earlier released
        one names (`Released.data_file`), else `data_file`. The one answer to "which data set does this edition play
        on": a revision changes the data of new games only, so a recorded game keeps the set its genesis hashed."""
        file = self.data_file
        for r in self.editions.released:
            file = r.data_file or file
            if major(r.version) == major(version):
                return file
        raise ValueError(f"{self.id} {version} is not an edition this engine runs: {self.editions.run}")

    @property
    def command_names(self) -> list[str]:
        return [tag(c) for c in self.command_types]

    @functools.cached_property
    def command_by_tag(self) -> dict[str, type[C]]:
        return {tag(c): c for c in self.command_types}

    @functools.cached_property
    def sealed_commands(self) -> frozenset[str]:
        """Commands whose arguments are sealed (the class says `sealed: ClassVar[bool] = True`)."""
        return frozenset(tag(c) for c in self.command_types if getattr(c, "sealed", False))

    @functools.cached_property
    def always_open(self) -> frozenset[str]:
        """Commands offered all game long (battlefleet's `concede`; the class says `always_open: ClassVar[bool] =
        True`): they never make a seat awaited, so they start no turn clock and no your-turn notification."""
        return frozenset(tag(c) for c in self.command_types if always_open_of(c))


AnyRuleset = Ruleset[Any, Any, Any, Any]  # what the engine and the service hold: a ruleset of any types


def tag(command: type[msgspec.Struct] | msgspec.Struct) -> str:
    """A command's type: its Struct's tag (every command class is tagged)."""
    t = command.__struct_config__.tag
    if not isinstance(t, str):
        raise TypeError(f"{command!r} is not a tagged command")
    return t


@functools.cache
def command_schema(cls: type[msgspec.Struct]) -> dict[str, Any]:
    """JSON Schema of a command's arguments (the `type` tag excluded), for `awaiting`, with nested Structs inlined
    (no `$ref` left to dangle where the schema is embedded). Computed once per class; callers must not mutate it."""
    schema = msgspec.json.schema(cls)
    defs = schema.get("$defs", {})
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    props = {k: _inline(v, defs) for k, v in schema.get("properties", {}).items() if k != "type"}
    out = {"type": "object", "properties": props, "additionalProperties": False}
    req = [r for r in schema.get("required", []) if r != "type"]
    if req:
        out["required"] = req
    return out


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            return _inline(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
        return {k: _inline(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(x, defs) for x in node]
    return node


class Turn(NamedTuple):
    """A seat's turn on the clock: the version after which it was awaited, that command's recorded time (the store's
    stamp, passed in: the engine reads no clock), and seconds the referee added."""

    since: int
    stamp: str
    extra: int = 0


@dataclass
class Game:
    """What the engine knows of a game: the core fields and the ruleset's own state."""

    game_id: str
    ruleset: AnyRuleset | None  # None: an edition this engine does not run; only the core's part is folded
    created: GameCreated
    options: Any
    data: Any
    state: Any  # the ruleset's own state
    version: int = 0
    next_roll: int = 0
    client_seeds: dict[str, str] = field(default_factory=dict)
    lock: SeedLocked | None = None
    revealed_seed: str | None = None
    ended: str | None = None
    unrevealed: dict[int, SubmissionSealed] = field(default_factory=dict)  # seq -> sealed record, content attached
    seed_cache: tuple[bytes, bytes] | None = field(default=None, repr=False, compare=False)  # (server seed, game seed)
    # (version, the ruleset's legal_commands at that version): computed once per version (`legal`), never pickled
    legal_cache: tuple[int, list[CommandSpec]] | None = field(default=None, repr=False, compare=False)
    # the turn clock (docs/api.md "Deadlines"): its rule (None: the game has none), paused or not, and each awaited
    # seat's turn, which the service sets after every command (`next_turns`); None until the first is set
    deadlines: DeadlineRule | None = None
    deadlines_paused: bool = False
    turns: dict[str, Turn] | None = None
    # seconds the referee gave a seat while it was not on the clock (not awaited, or the clock paused): its next turn's
    # (a referee's trial: they were recorded and did nothing)
    extend_next: dict[str, int] = field(default_factory=dict)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "legal_cache": None}  # a snapshot saves the state, not what is derived from it

    @property
    def seats(self) -> list[str]:
        return self.created.seats

    @property
    def over(self) -> bool:
        return self.ended is not None

    @property
    def runs(self) -> bool:
        """Whether this engine plays the game's edition (else only its core is known: seeds, seals, reveal, end)."""
        return self.ruleset is not None


# ---- creation -----------------------------------------------------------------------------------


def decode_options(ruleset: AnyRuleset, options: dict[str, Any] | None) -> Any:
    try:
        return msgspec.convert(options or {}, ruleset.options_type)
    except msgspec.ValidationError as e:
        raise InvalidInput("invalid-options", f"options for {ruleset.id}: {e}. See GET /rulesets/{ruleset.id}.")


def new_game_options(ruleset: AnyRuleset, options: dict[str, Any] | None) -> Any:
    """The options a new game is made with: `options` as sent, checked, with what the ruleset fills in for every new
    game (`Ruleset.new_game_options`)."""
    opts = decode_options(ruleset, options)
    return opts if ruleset.new_game_options is None else ruleset.new_game_options(opts)


def creation_events(
    ruleset: AnyRuleset,
    data: Any,
    data_sha256: str,
    game_id: str,
    options: dict[str, Any] | None,
    seats: list[str] | None,
    mode: str,
    server_seed: bytes,
    client_seeds: dict[str, str] | None = None,
    beacon: str | None = None,
    edition: str | None = None,
    umpired: bool = True,
    deadlines: DeadlineRule | None = None,
) -> list[Event]:
    """The events that open a game: GameCreated, then one ClientSeedContributed per seed given. The game plays the
    newest edition of its ruleset unless `edition` names another that this engine runs; `umpired` (`reads_as`) is
    fixed here for good, and `deadlines` until the referee changes them (`decide_deadlines`)."""
    if edition is not None and ruleset.editions.named(edition) is None:
        raise InvalidInput(
            "unknown-edition",
            f"{ruleset.id} has no edition {edition!r} that this engine runs; name one of {ruleset.editions.run} "
            f"(GET /rulesets/{ruleset.id} says what each changed), or leave edition out for the newest",
            editions=ruleset.editions.run,
        )
    if not GAME_ID_RE.match(game_id):
        raise InvalidInput("invalid-game-id", "a game id matches [A-Za-z0-9._-]{1,64}")
    if mode not in MODES:
        raise InvalidInput("invalid-dice", f"dice mode is one of {list(MODES)}")
    if beacon is not None and not re.fullmatch(r"[\x21-\x7e]{1,256}", beacon):
        raise InvalidInput("invalid-dice", "a beacon is 1-256 printable ASCII characters without spaces")
    opts = new_game_options(ruleset, options)
    own = game_data(ruleset, msgspec.to_builtins(opts))
    if own is not None:
        data, data_sha256 = own
    seat_list = list(seats) if seats else ruleset.default_seats(opts)
    if len(set(seat_list)) != len(seat_list) or REFEREE in seat_list:
        raise InvalidInput("invalid-seats", f"seat names must be distinct and not {REFEREE!r}")
    ruleset.check_setup(opts, seat_list, data)
    by_name = ruleset.named_seats
    if by_name is True or (by_name and ruleset.editions.of(edition or ruleset.version).has(str(by_name))):
        named = ruleset.default_seats(opts)
        if seat_list != named:
            since = f" ({by_name})" if isinstance(by_name, str) else ""
            raise InvalidInput(
                "invalid-seats", f"{ruleset.id} awaits its seats by name, {named}{since}: send these, or no seats"
            )
    if deadlines is not None:
        check_deadlines(ruleset, deadlines, edition)
    created = GameCreated(
        ruleset=RulesetRef(id=ruleset.id, version=ruleset.version if edition is None else edition, data_sha256=data_sha256),
        options=msgspec.to_builtins(opts),
        seats=seat_list,
        dice=DiceConfig(scheme=SCHEME, mode=mode, server_commit=server_commit(server_seed), beacon=beacon),
        umpired=umpired,
        deadlines=deadlines,
    )
    events: list[Event] = [created]
    for seat, seed in (client_seeds or {}).items():
        _check_client_seed(seat_list, seat, seed)
        events.append(ClientSeedContributed(seat=seat, client_seed=seed))
    return events


def _check_client_seed(seats: list[str], seat: str, seed: str) -> None:
    if seat not in seats:
        raise InvalidInput("unknown-seat", f"{seat!r} is not a seat of this game; seats: {seats}")
    if not isinstance(seed, str) or not HEX64_RE.match(seed):
        raise InvalidInput(
            "invalid-client-seed", "a client seed is 64 lowercase hex characters (e.g. SHA-256 of a passphrase)"
        )


def game_data(ruleset: AnyRuleset, options: dict[str, Any]) -> tuple[Any, str] | None:
    """A data set the game brings in its options: parsed and hashed (its canonical JSON), or None."""
    raw = options.get(ruleset.data_option) if ruleset.data_option else None
    if raw is None:
        return None
    encoded = canonical(raw)
    try:
        return ruleset.parse_data(encoded), hashlib.sha256(encoded).hexdigest()
    except (ValueError, msgspec.ValidationError) as e:
        raise InvalidInput("invalid-data", f"options.{ruleset.data_option} is not a valid {ruleset.id} data set: {e}")


# ---- folding ------------------------------------------------------------------------------------


def edition_of(ruleset: AnyRuleset, version: str) -> Edition:
    """The edition a game recorded as `version` plays under; a game of an edition this engine does not run (one never
    released, or one newer than this engine) is refused for play (409 edition-not-run) but its raw reads still work
    (the log, the rolls, the bundle, reveal and end need no rules: see `start_unrun`)."""
    found = ruleset.editions.find(version)
    if found is None:
        raise not_run(ruleset.id, version, ruleset.editions.run)
    return found


def not_run(ruleset_id: str, version: str, run: list[str]) -> Rejected:
    return Rejected(
        "edition-not-run",
        f"this game plays {ruleset_id} {version}, an edition this engine does not run (it runs {run or 'none'}): its "
        "events, rolls and bundle can be read, and the referee can end or reveal it, but it is played, viewed and "
        "replayed only by an engine that runs that edition",
        editions=run,
    )


def start(ruleset: AnyRuleset, data: Any, data_sha256: str, game_id: str, created: GameCreated) -> Game:
    """The game its genesis describes, on the data set it pinned (the default one, or its own), if this engine runs
    its edition (edition_of)."""
    edition_of(ruleset, created.ruleset.version)
    own = game_data(ruleset, created.options)
    if own is not None:
        data, data_sha256 = own
    if data_sha256 != created.ruleset.data_sha256:
        raise Rejected(
            "data-mismatch",
            f"this game was made with {ruleset.id} data {created.ruleset.data_sha256[:12]}…, this engine has "
            f"{data_sha256[:12]}…; replay it on an engine with that data set",
        )
    opts = msgspec.convert(created.options, ruleset.options_type)
    return Game(
        game_id=game_id,
        ruleset=ruleset,
        created=created,
        options=opts,
        data=data,
        state=ruleset.initial_state(created, opts, data),
        version=1,
        deadlines=created.deadlines,
    )


def start_unrun(game_id: str, created: GameCreated) -> Game:
    """A game of an edition this engine does not run: only the core's part of it (seeds, lock, seals, reveal, end) is
    folded, which is all that raw reads, reveal and end need. Fold into it only the core's events (`CORE_EVENTS`)."""
    return Game(
        game_id=game_id,
        ruleset=None,
        created=created,
        options=None,
        data=None,
        state=None,
        version=1,
        deadlines=created.deadlines,
    )


# ---- forks ---------------------------------------------------------------------------------------


def fork_events(
    parent: Game,
    parent_ref: ParentRef,
    fork_id: str,
    mode: str,
    server_seed: bytes,
    client_seeds: dict[str, str] | None = None,
    beacon: str | None = None,
    keep_sealed: bool = False,
) -> list[Event]:
    """The events that open a fork of `parent` (folded to parent_ref.seq): its genesis names the parent; it keeps the
    parent's ruleset, data set, options, seats and umpire, and has dice of its own. `keep_sealed`: a continuation
    played in memory by the bot alone (what-if odds), which shows no seat anything, keeps the parent's closed seals
    (their content known) for the rules to open as they come to them; a fork with seats of its own never does."""
    if not GAME_ID_RE.match(fork_id):
        raise InvalidInput("invalid-game-id", "a game id matches [A-Za-z0-9._-]{1,64}")
    if mode not in MODES:
        raise InvalidInput("invalid-dice", f"dice mode is one of {list(MODES)}")
    if parent.unrevealed and not keep_sealed:
        raise Rejected(
            "fork-sealed",
            f"at seq {parent_ref.seq} sealed records are still closed (seqs {sorted(parent.unrevealed)}): a fork would "
            "show them to its seats; fork at a seq after they are revealed",
        )
    created = GameCreated(
        ruleset=parent.created.ruleset,
        options=parent.created.options,
        seats=list(parent.seats),
        dice=DiceConfig(scheme=SCHEME, mode=mode, server_commit=server_commit(server_seed), beacon=beacon),
        parent=parent_ref,
        umpired=parent.created.umpired,
    )
    events: list[Event] = [created]
    for seat, seed in (client_seeds or {}).items():
        _check_client_seed(created.seats, seat, seed)
        events.append(ClientSeedContributed(seat=seat, client_seed=seed))
    return events


def as_seen_by(game: Game, seat: str) -> Game:
    """The game as `seat` may picture it, to play on in memory (a seat's own odds, issue 36): the state from what
    the seat may read alone (`redact`) with the rest re-drawn (`Ruleset.imagine`), and of the closed seals only the
    seat's own, whose content it knows. Nothing here reads what the seat may not: two games alike in all it may read
    give the same game. `game` is left as it was."""
    rules = _rules(game)
    view = rules.redact(game.state, seat) if rules.redact is not None else game.state
    state = rules.imagine(view, seat) if rules.imagine is not None else working_copy(view)
    out = Game(**{**game.__dict__, "legal_cache": None})
    out.state = state
    out.unrevealed = {seq: e for seq, e in game.unrevealed.items() if e.seat == seat}
    out.revealed_seed = None
    out.seed_cache = None
    return out


def start_fork(parent: Game, fork_id: str, created: GameCreated) -> Game:
    """The fork's game: the parent's state at the fork's seq (which the caller may no longer use), as a new game with
    its own id, log and dice. Roll numbers go on from the parent's: the fork's rolls come from its own seed."""
    parent.game_id = fork_id
    parent.created = created
    parent.version = 1
    parent.client_seeds = {}
    parent.lock = None
    parent.revealed_seed = None
    parent.seed_cache = None
    parent.legal_cache = None
    parent.deadlines, parent.deadlines_paused, parent.turns = None, False, None  # a fork is a what-if: no clock
    return parent


def _rolled(game: Game, e: DiceRolled) -> None:
    game.next_roll = e.k + 1


def _contributed(game: Game, e: ClientSeedContributed) -> None:
    game.client_seeds[e.seat] = e.client_seed


def _locked(game: Game, e: SeedLocked) -> None:
    game.lock = e


def _revealed(game: Game, e: ServerSeedRevealed) -> None:
    game.revealed_seed = e.server_seed


def _ended(game: Game, e: GameEnded) -> None:
    game.ended = e.reason


def _sealed(game: Game, e: SubmissionSealed) -> None:
    game.unrevealed[game.version] = e


def _opened(game: Game, e: SubmissionsRevealed) -> None:
    for entry in e.entries:
        game.unrevealed.pop(entry.seq, None)


def _clock_changed(game: Game, e: DeadlinesChanged) -> None:
    resumed = game.deadlines_paused and not e.paused
    game.deadlines, game.deadlines_paused = e.rule, e.paused
    if resumed and game.turns is not None:  # (a replay keeps no turns: it judges the recorded expiries)
        game.turns = {}  # every awaited seat's clock starts again after this command (`next_turns`)
    running = game.turns if game.turns and not e.paused else {}
    if running:
        game.turns = {s: t._replace(extra=t.extra + e.extend.get(s, 0)) for s, t in running.items()}
    for seat, seconds in e.extend.items():  # a seat not on the clock now has them on its next turn
        if seat not in running:
            game.extend_next[seat] = game.extend_next.get(seat, 0) + seconds


_CORE: dict[type[Event], Callable[[Game, Any], None]] = {
    DiceRolled: _rolled,
    ClientSeedContributed: _contributed,
    SeedLocked: _locked,
    ServerSeedRevealed: _revealed,
    GameEnded: _ended,
    SubmissionSealed: _sealed,
    SubmissionsRevealed: _opened,
    DeadlinesChanged: _clock_changed,
}


def evolve(game: Game, event: Event) -> Game:
    """Apply one event after the genesis. Mutates and returns `game` (callers clone first if needed)."""
    _count(game, event)
    if game.ruleset is not None:
        game.state = game.ruleset.evolve(game.state, event)
    return game


def _count(game: Game, event: Event) -> None:
    """What the engine itself keeps of an event: the version, and the core's own fields (seeds, seals, clocks)."""
    game.version += 1
    core = _CORE.get(type(event))
    if core is not None:
        core(game, event)


CORE_EVENTS = frozenset(t.__name__ for t in _CORE)  # what a game of an edition not run folds (the others are skipped)


# ---- deciding -----------------------------------------------------------------------------------


def decide_seed(game: Game, seat: str, client_seed: str) -> list[Event]:
    if game.lock is not None:
        raise Rejected("seed-locked", "the seed is locked: the game has begun; client seeds are fixed")
    _check_client_seed(game.seats, seat, client_seed)
    if seat in game.client_seeds:
        raise Rejected("seed-already-contributed", f"seat {seat!r} has contributed its client seed already")
    return [ClientSeedContributed(seat=seat, client_seed=client_seed)]


def _open_before_the_end(game: Game, events: list[Event]) -> list[Event]:
    """Put a SubmissionsRevealed of everything still closed before a ruleset's GameEnded."""
    if not any(isinstance(e, GameEnded) for e in events):
        return events  # most commands: nothing ends, nothing to open
    kinds = {seq: e.kind for seq, e in game.unrevealed.items()}
    for i, e in enumerate(events):
        if isinstance(e, SubmissionSealed):
            kinds[-i - 1] = e.kind  # not yet numbered
        elif isinstance(e, SubmissionsRevealed):
            kinds = {} if not e.kinds else {k: v for k, v in kinds.items() if v not in e.kinds}
        elif isinstance(e, GameEnded) and kinds:
            return [*events[:i], SubmissionsRevealed(kinds=[]), *events[i:]]
    return events


def decide_reveal(game: Game, server_seed: bytes) -> list[Event]:
    if game.revealed_seed is not None:
        raise Rejected("game-revealed", "the server seed is revealed already; the game is closed")
    events: list[Event] = []
    if game.lock is None:
        events.append(_lock(game))
    if game.ended is None:
        events += _closing(game, "revealed")
    events.append(ServerSeedRevealed(server_seed=server_seed.hex()))
    return events


def ensure_open(game: Game, over: str, closed_to: str = "") -> None:
    """Refuse what comes after the game's end (409 `game-over`, saying `over`) or its reveal (`game-revealed`)."""
    if game.revealed_seed is not None:
        raise Rejected("game-revealed", f"the server seed is revealed; the game is closed{closed_to}")
    if game.over:
        raise Rejected("game-over", over)


def decide_end(game: Game) -> list[Event]:
    """The referee ends the game without revealing the server seed (e.g. a game abandoned at the table)."""
    ensure_open(game, "the game is over already; POST /games/{id}/reveal publishes the server seed")
    return _closing(game, "ended by the referee")


# ---- the turn clock (docs/api.md "Deadlines"): the engine keeps who is on the clock since which version; the service
# reads the time, and records what acts for a seat whose time ran out as that seat's command (`decide_expiry`)


def check_deadlines(ruleset: AnyRuleset, rule: DeadlineRule, edition: str | None = None) -> None:
    """A clock's rule, for a new game of `edition` (None: the newest) or a game's change of it."""
    if ruleset.no_clock is not None:
        change, why = ruleset.no_clock
        if ruleset.editions.of(edition or ruleset.version).has(change):
            raise InvalidInput("invalid-deadlines", f"{why} ({change}); create the game without `deadlines`")
    if not 1 <= rule.turn_seconds <= MAX_TURN_SECONDS:
        raise InvalidInput(
            "invalid-deadlines", f"deadlines.turn_seconds is a whole number from 1 to {MAX_TURN_SECONDS}"
        )
    if rule.on_expiry not in ON_EXPIRY:
        raise InvalidInput("invalid-deadlines", f"deadlines.on_expiry is one of {list(ON_EXPIRY)}")
    if ruleset.bot is None:
        raise InvalidInput("invalid-deadlines", f"{ruleset.id} has no bot to act for a seat whose time runs out")


def awaited_seats(game: Game) -> list[str]:
    """The seats owing an entry now, in seat order, not counting entries always open (`Ruleset.always_open`)."""
    if game.over or game.ruleset is None:
        return []
    always = game.ruleset.always_open
    owing = {seat for s in legal(game) if s.type not in always for seat in s.seats}
    return [seat for seat in game.seats if seat in owing]


def next_turns(game: Game, actor: str, stamp: str) -> None:
    """After a command's events are applied (`stamp`: its recorded time): a seat awaited now keeps its turn, unless it
    is the one that acted or was not awaited before; those start one here. Paused or over, nobody is on the clock."""
    if game.deadlines is None:
        return
    if game.over or game.deadlines_paused:
        game.turns = {}
        return
    old = game.turns or {}
    game.turns = {
        s: old[s] if s in old and s != actor else Turn(game.version, stamp, game.extend_next.pop(s, 0))
        for s in awaited_seats(game)
    }


def decide_deadlines(
    game: Game, turn_seconds: int | None, on_expiry: str | None, paused: bool | None, extend: dict[str, int]
) -> list[Event]:
    """The referee changes the clock: a new rule from now on, a pause or its end, seconds added to seats' turns."""
    if game.deadlines is None:
        raise Rejected("no-deadlines", "this game was created without deadlines; they are set at POST /games")
    if game.over:
        raise Rejected("game-over", "the game is over; no clock runs")
    if turn_seconds is None and on_expiry is None and paused is None and not extend:
        raise InvalidInput("invalid-deadlines", "send at least one of turn_seconds, on_expiry, paused, extend")
    rule = DeadlineRule(
        turn_seconds=game.deadlines.turn_seconds if turn_seconds is None else turn_seconds,
        on_expiry=game.deadlines.on_expiry if on_expiry is None else on_expiry,
    )
    check_deadlines(_rules(game), rule, game.created.ruleset.version)  # as the game's edition has it (AA-E6-2)
    for seat, seconds in extend.items():
        if seat not in game.seats:
            raise InvalidInput("invalid-deadlines", f"extend names {seat!r}, not a seat of this game: {game.seats}")
        if not 1 <= seconds <= MAX_TURN_SECONDS:
            raise InvalidInput("invalid-deadlines", f"extend gives a seat 1 to {MAX_TURN_SECONDS} seconds")
    pause = game.deadlines_paused if paused is None else paused
    return [DeadlinesChanged(rule=rule, paused=pause, extend=dict(sorted(extend.items())))]


def decide_expiry(
    game: Game, seat: str, since: int, action: str, command: Any, server_seed: bytes
) -> list[Event]:
    """`seat`'s time ran out on its turn since `since`: DeadlineExpired, then `command` judged as that seat's (None:
    it had nothing to send). The service chose the command by the game's `on_expiry` and records it; a replay judges
    it again from the record, with no clock."""
    _rules(game)
    if game.deadlines is None or game.deadlines_paused:
        raise Rejected("no-deadlines", "no clock runs in this game now")
    if game.over:
        raise Rejected("game-over", "the game is over; no clock runs")
    turn = (game.turns or {}).get(seat)
    if seat not in awaited_seats(game) or (game.turns is not None and (turn is None or turn.since != since)):
        raise Rejected("not-on-the-clock", f"{seat!r} is not on the clock since version {since}")
    expired = DeadlineExpired(seat=seat, since=since, action=action if command is not None else "none")
    if command is None:
        return [expired]
    try:
        return _judge(game, seat, command, server_seed, None, prefix=[expired])
    except IllegalCommand as e:
        raise refusal(game, seat, e.detail) from None


def _closing(game: Game, reason: str) -> list[Event]:
    """A game that ends opens every seal still closed: nothing is left for them to protect, and the bundle of a
    finished game must replay from its own payloads."""
    opened: list[Event] = [_reveal_all(game)] if game.unrevealed else []
    return [*opened, GameEnded(reason=reason)]


def _reveal_all(game: Game) -> SubmissionsRevealed:
    return SubmissionsRevealed(
        kinds=[],
        entries=[
            SealedEntry(seq=seq, seat=e.seat, kind=e.kind, content=e.content or {}, salt=e.salt or "")
            for seq, e in sorted(game.unrevealed.items())
        ],
    )


def _lock(game: Game) -> SeedLocked:
    seeds = [game.client_seeds.get(s, EMPTY_CLIENT_SEED) for s in game.seats]
    server_only = [s for s in game.seats if s not in game.client_seeds]
    return SeedLocked(client_seeds=seeds, server_only=server_only, beacon=game.created.dice.beacon)


def parse_command(ruleset: AnyRuleset, payload: dict[str, Any], advice: bool = True) -> Any:
    """`payload` as the ruleset's command it names; else 422 `invalid-command` saying what is wrong with it, and with
    `advice` where a client finds what is legal (none for a recorded command replayed: service/replay.py)."""
    types = ruleset.command_types
    # the class its tag names: msgspec keeps a Struct's decoder, while a Union's is built again on every call (7 us
    # of a 0.2 ms command); an unknown or missing tag goes through the union for its error
    kind = payload.get("type")
    cls = ruleset.command_by_tag.get(kind) if isinstance(kind, str) else None
    union = cls or (types[0] if len(types) == 1 else _union(types))
    try:
        return msgspec.convert(payload, union)
    except msgspec.ValidationError as e:
        if not advice:
            raise InvalidInput("invalid-command", f"{e}{_one_of(cls, str(e))}") from None
        raise InvalidInput(
            "invalid-command",
            f"{e}{_one_of(cls, str(e))}. A command is {{'type': one of {ruleset.command_names}, ...its arguments}}; "
            f"GET /games/{{id}} lists what is legal now (its choices, or a schema where there are too many to list); "
            f"GET /rulesets/{{id}} has each command's schema.",
        )


def _one_of(cls: type | None, error: str) -> str:
    """For a value outside an argument's enumeration, the values it takes ("; side is one of ['canada', 'liverpool']"),
    read from the command's schema; else nothing (msgspec's message names the value and where, not what is allowed)."""
    found = re.fullmatch(r"Invalid enum value .* - at `\$\.(\w+)`", error)
    if cls is None or found is None:
        return ""
    allowed = command_schema(cls).get("properties", {}).get(found[1], {}).get("enum")
    return f"; {found[1]} is one of {allowed}" if allowed else ""


_UNIONS: dict[tuple[type, ...], Any] = {}


def _union(types: tuple[type, ...]) -> Any:
    if types not in _UNIONS:
        from typing import Union

        _UNIONS[types] = Union[types]  # noqa: UP007 - a runtime union of Struct classes
    return _UNIONS[types]


def legal(game: Game) -> list[CommandSpec]:
    """Every legal command now, for every seat (secrets included: filter with `awaiting` before showing it). The
    ruleset's `legal_commands` runs once per version: the answer to a command, the next command's judgement,
    `waiting_for` and every read of that version share the list, which no caller may mutate."""
    if game.over or game.ruleset is None:
        return []
    cached = game.legal_cache
    if cached is not None and cached[0] == game.version:
        return cached[1]
    specs = game.ruleset.legal_commands(game.state)
    game.legal_cache = (game.version, specs)
    return specs


def reads_as(game: Game, reader: Reader) -> Reader:
    """Whom `reader` reads as: the referee of a game created unumpired reads what the public reads (no seat's sealed
    content before the rules open it, nor the umpire's own records); everyone else as themselves."""
    return None if reader == REFEREE and not game.created.umpired else reader


def awaiting(game: Game, reader: Reader = REFEREE, specs: list[CommandSpec] | None = None) -> list[CommandSpec]:
    """The legal commands now, as `reader` may see them: a sealed step shows each seat only its own entry (API.md
    "Per-seat reads"); the public sees who still owes one in `waiting_for`, never their choices. `specs`: the legal
    commands to filter (default `legal(game)`)."""
    reader = reads_as(game, reader)
    specs = legal(game) if specs is None else specs
    sealed = game.ruleset.sealed_commands if specs and game.ruleset is not None else ()
    if reader == REFEREE or not sealed:
        return specs
    return [s for s in specs if s.type not in sealed or reader in s.seats]


def waiting_for(game: Game) -> list[str]:
    """Seats that still owe a sealed submission in the current step."""
    if game.over or game.ruleset is None or not game.ruleset.sealed_commands:
        return []
    owing = {seat for s in legal(game) if s.type in game.ruleset.sealed_commands for seat in s.seats}
    return [seat for seat in game.seats if seat in owing]


def refusal(game: Game, seat: str, detail: str) -> IllegalCommand:
    """The one place a refusal gets its `legal`: what `seat` may send now, in the shape of `awaiting` and as that
    seat may read it (its own entries of a sealed step, never another seat's)."""
    return IllegalCommand(detail, [entry(s) for s in awaiting(game, seat)])


def _why_not(game: Game, command: Any, seat: str, name: str) -> str:
    """The rule's own reason, where it has one: decide is pure, so asking it costs nothing but time."""
    detail = f"{name!r} is not legal now"
    try:
        with in_place(False):  # asked of a copy even when the command is judged in place: its events are dropped
            _rules(game).decide(game.state, command, seat, Dice(bytes(32), game.next_roll))
    except IllegalCommand as e:
        return f"{detail}: {e.detail}"
    except Exception:  # noqa: BLE001 - any other failure just means there is no better reason to give
        pass
    rule = _rules(game).sequence_rule
    detail = f"{detail} ({rule})" if rule else detail
    # said in words too, for a reader of the detail alone (a CLI, a log): the problem's `legal` holds the entries
    # what the sender owes now, not what is open all game (a concession, the referee's end): never pointed at
    always = _rules(game).always_open
    mine = list(dict.fromkeys(s.type for s in awaiting(game, seat) if seat in s.seats and s.type not in always))
    if mine:
        return f"{detail}; {seat} may send now: {', '.join(mine)}"
    others = [x for x in awaited_seats(game) if x != seat]  # whose turn it is: public (`waiting_for`, `/me`)
    return f"{detail}; nothing is awaited from {seat} now" + (f", the turn is {', '.join(others)}'s" if others else "")


def decide_command(game: Game, seat: str, command: Any, server_seed: bytes, dice: Dice | None = None) -> list[Event]:
    """Judge a ruleset command from `seat`: who may send it, then the rules. Locks the seed first. A refusal, whether
    the command's type is not awaited or its arguments break a rule, carries what the seat may send now (`refusal`).

    `dice` replaces the seeded dice (tests choose faces with domain.dice.ChosenDice)."""
    try:
        return _judge(game, seat, command, server_seed, dice)
    except IllegalCommand as e:
        raise refusal(game, seat, e.detail) from None


def decide_in_place(
    game: Game, seat: str, command: Any, server_seed: bytes, restore: Callable[[], Game] | None = None
) -> list[Event]:
    """Judge a command and apply its events to `game`, the ruleset's own working state being `game.state` itself
    (procedure.in_place): what `decide_command` and `evolve` do, without the copy of the state and without folding
    the events the rules already applied a second time. The events the engine adds (the seed lock, the reveal before
    the end) are folded as `evolve` folds them; tests/test_same_odds.py holds the states to a fold of the log.

    A command refused (or failing) after the rules had changed the state (a procedure that records its decision
    before it checks the arguments) leaves it half-changed: `restore()` answers the game read again, whose state the
    refusal's list of what is legal reads (the service); without it the caller drops the game (the simulator)."""
    seals = game.ruleset is not None and bool(game.ruleset.sealed_commands)  # a ruleset whose rules seal records
    made = in_place(emitting=_sealing_as_emitted(game, server_seed) if seals else None)
    try:
        with made:
            events = _judge(game, seat, command, server_seed, None)
            if seals:
                _check_sealed_where_emitted(game, events, server_seed)
    except Exception as failed:
        if restore is not None and any(ctx.events for ctx in made.made):
            game = restore()
        if isinstance(failed, IllegalCommand):  # what is legal now, read outside the block: of a sound state
            raise refusal(game, seat, failed.detail) from None
        raise
    applied = {id(e) for ctx in made.made if ctx.state is game.state for e in ctx.events}
    for e in events:
        if id(e) in applied:
            _count(game, e)  # the rules applied it to the state already
        else:
            evolve(game, e)
    return events


def _sealing_as_emitted(game: Game, server_seed: bytes) -> Callable[[Event, int], None]:
    """A sealed record the rules emit in place gets its salt and commitment before the state takes it (`seal` fills
    them only after decide, when a copy was judged and the real state folded the finished events later). Its number:
    the game's next, after the seed lock this command appends first if the seed is not locked yet. Hooked only for a
    ruleset with sealed commands, the ones whose rules seal records (a call per event costs a corvette convoy 7%)."""
    first = game.version + 1 + (game.lock is None)

    def fill(e: Event, index: int) -> None:
        if isinstance(e, SubmissionSealed) and not e.commitment:
            _salt_and_commit(e, server_seed, game.game_id, first + index)

    return fill


def _salt_and_commit(e: SubmissionSealed, server_seed: bytes, game_id: str, seq: int) -> None:
    """A sealed record's salt (by its number) and its commitment to its content (spec/EVENTS.md "Sealed inputs")."""
    if e.content is None:
        raise AssertionError("a SubmissionSealed is emitted with its content")
    e.salt = sealing_salt(server_seed, game_id, seq)
    e.commitment = commitment(e.content, e.salt)


def _check_sealed_where_emitted(game: Game, events: list[Event], server_seed: bytes) -> None:
    """Every seal salted for the number it is appended at: an event put before it after it was emitted (the reveal
    `seal` puts before an end) would have numbered it otherwise; the caller then reads the game again."""
    for seq, e in enumerate(events, start=game.version + 1):
        if isinstance(e, SubmissionSealed) and e.salt != sealing_salt(server_seed, game.game_id, seq):
            raise AssertionError(f"the sealed record at {seq} was salted for another number")


def _rules(game: Game) -> AnyRuleset:
    if game.ruleset is None:  # the service judges commands only of a game whose edition it runs (`Game.runs`)
        raise AssertionError(f"{game.game_id} plays an edition this engine does not run: it has no rules to judge by")
    return game.ruleset


def _judge(
    game: Game, seat: str, command: Any, server_seed: bytes, dice: Dice | None, prefix: list[Event] | None = None
) -> list[Event]:
    rules = _rules(game)
    ensure_open(game, "the game is over; nothing more can be sent", " to commands")
    name = tag(command)
    cached = game.legal_cache
    if cached is not None and cached[0] == game.version:  # the answer to the last command computed them already
        specs = [s for s in cached[1] if s.type == name]
    else:  # a replay, a simulation: only the command sent, not every choice of every command
        specs = [s for s in rules.legal_commands(game.state, only=name) if s.type == name]
    if not specs:
        raise IllegalCommand(_why_not(game, command, seat, name))
    if not any(seat in s.seats for s in specs):
        who = ", ".join(sorted({x for s in specs for x in s.seats}))
        sealed = name in rules.sealed_commands
        after = "; in a simultaneous step a seat that has sent its own waits for the others" if sealed else ""
        raise Forbidden("not-your-turn", f"{name!r} is awaited now from {who} only, not from {seat!r}{after}")
    events: list[Event] = list(prefix or ())
    lock = game.lock
    if lock is None:
        lock = _lock(game)
        events.append(lock)
    if dice is None:
        if game.lock is None:  # this command locks the seed; until it is appended, seeds may still come
            seed = game_seed(server_seed, game.game_id, lock.client_seeds, lock.beacon)
        else:  # locked in the log: the game seed is fixed for good
            if game.seed_cache is None or game.seed_cache[0] != server_seed:
                game.seed_cache = (server_seed, game_seed(server_seed, game.game_id, lock.client_seeds, lock.beacon))
            seed = game.seed_cache[1]
        dice = Dice(seed, game.next_roll)
    decided = rules.decide(game.state, command, seat, dice)
    if name in rules.sealed_commands and not any(
        isinstance(e, SubmissionSealed) and e.seat == seat and e.kind == name for e in decided
    ):
        raise AssertionError(f"{rules.id}: the sealed command {name!r} must emit its SubmissionSealed")
    events.extend(decided)
    return seal(game, events, server_seed)


def seal(game: Game, events: list[Event], server_seed: bytes) -> list[Event]:
    """Fill in what only the engine knows once the events are numbered (spec/EVENTS.md "Sealed inputs"): each new
    SubmissionSealed gets its salt and commitment, each SubmissionsRevealed the entries it opens. A game that ends
    opens every seal still closed, so the bundle of a finished game replays from its own payloads."""
    events = _open_before_the_end(game, events)
    closed = dict(game.unrevealed)  # seq -> still sealed, as the events go by
    for seq, e in enumerate(events, start=game.version + 1):
        if isinstance(e, SubmissionSealed):
            if not e.commitment:  # judged in place, the rules' records were sealed as emitted (`decide_in_place`)
                _salt_and_commit(e, server_seed, game.game_id, seq)
            closed[seq] = e
        elif isinstance(e, SubmissionsRevealed) and not e.entries:
            kinds = set(e.kinds)
            e.entries = [
                SealedEntry(seq=at, seat=x.seat, kind=x.kind, content=x.content or {}, salt=x.salt or "")
                for at, x in sorted(closed.items())
                if not kinds or x.kind in kinds
            ]
            for entry in e.entries:
                del closed[entry.seq]
    return events
