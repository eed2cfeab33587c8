"""The HTTP API's request and response bodies, as msgspec Structs: the service builds them, msgspec encodes them, and
openapi/openapi.json describes them (service/openapi.py refines the parts typed per ruleset: events, views,
options, awaiting)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import UNSET, Meta, Struct, UnsetType

from domain.decisions import Ui
from domain.engine import MAX_TURN_SECONDS
from events.core import RollResult

MAX_API_GAMES = 1000  # continuations one POST /games/{id}/odds may ask for (`umpire simulate --from`: no cap)

_HEX64 = Meta(pattern="^[0-9a-f]{64}$", description="64 lowercase hex characters")
Hex64 = Annotated[str, _HEX64]
SeatName = Annotated[str, Meta(pattern="^(?!referee$)[A-Za-z0-9._-]{1,32}$", description="a seat (never `referee`)")]
CommandId = Annotated[
    str, Meta(pattern="^[A-Za-z0-9._:-]{1,64}$", description="client-chosen id; a retry with it appends nothing")
]
ExpectedVersion = Annotated[int, Meta(ge=0, description="the game's version the command was decided on (else 409)")]
# a pattern in words, which a 422 adds to the regular expression it names (service.http.convert): a pattern whose
# description says it (the others' say what the value is for)
PATTERN_WORDS = {_HEX64.pattern: _HEX64.description}
# what a command body may carry beside its type and arguments: (field, type, the 422's code)
COMMAND_EXTRAS = (
    ("command_id", CommandId, "invalid-command-id"),
    ("expected_version", ExpectedVersion, "invalid-expected-version"),
)
UMPIRED = (
    "true: the referee token also reads every seat's sealed content before the rules open it (an umpire); false: it "
    "reads only what the public reads. Fixed at creation"
)


class _Out(Struct, forbid_unknown_fields=True):
    pass


class _In(Struct, forbid_unknown_fields=True):
    pass


class CommandSpec(_Out):
    """One entry of `awaiting` (domain.engine.entry): a legal command now, who may send it, every legal argument object
    with a label when there are at most 64, else null and `schema`, the argument schema narrowed to what is legal
    now. With choices listed `schema` is null: the command's own schema is in GET /rulesets/{id}."""

    type: str
    seats: Annotated[list[str], Meta(description="the seats that may send it now (their bearer token)")]
    choices: list[dict[str, Any]] | None
    schema: dict[str, Any] | None
    description: Annotated[str, Meta(description="what the command does, in the player's words")] = ""
    labels: Annotated[
        list[str] | None, Meta(description="`labels[i]` names `choices[i]` for a button; null when choices are")
    ] = None
    default: Annotated[
        dict[str, Any] | None,
        Meta(
            description="the arguments the rules take when the seat sends none, where they have one (Battlefleet's "
            "`{}`: steam on, keep speed, hold fire), else null"
        ),
    ] = None
    ui: Annotated[
        Ui | None,
        Meta(
            description="the decision's descriptor where `choices` cannot list every argument set (or a map needs "
            'more), from one vocabulary typed by `kind` (docs/api.md "Decision descriptors"), else null'
        ),
    ] = None
    ends_game: Annotated[
        bool,
        Meta(
            description="sending it ends the game for every seat (battlefleet-1900's `concede`, uboat-leader's "
            "`end_campaign`, aa1942-convoy's `end_game`) and cannot be undone: ask the player before sending it"
        ),
    ] = False
    always_open: Annotated[
        bool,
        Meta(
            description="offered all game long (battlefleet-1900's `concede`, aa1942-convoy's referee `end_game`): it "
            "never makes its seat awaited, so it is no turn's decision (put it aside, in a menu), a bot or a "
            "first-choice loop skips it, and `waiting_for` and the turn clock leave it out"
        ),
    ] = False


# ---- errors ----


class Problem(_Out, omit_defaults=True):
    """RFC 9457 problem details; `code` is stable, `detail` says what to do."""

    type: str
    title: str
    status: int
    code: str
    detail: str
    instance: Annotated[
        str | None, Meta(description="the path asked; past 512 characters, its first 511 and an ellipsis (…)")
    ] = None
    legal: list[CommandSpec] | None = None  # illegal-command: what is legal now, in the shape of `awaiting`
    version: int | None = None  # version-conflict: the game's version now
    limit: int | None = None  # body-too-large, too-many-requests: the limit that was hit
    retry_after: int | None = None  # too-many-requests, 503s: seconds to wait (also the Retry-After header)
    # edition-not-run, unknown-edition: the editions this engine runs; edition-withdrawn: those a new game may name
    editions: list[str] | None = None
    command_id: str | None = None  # outcome-unknown: send the command again with this id (applied at most once)
    cap: str | None = None  # bundle-too-large: which cap (events, commands, dice per roll, cpu seconds, memory)
    open_seats: list[str] | None = None  # seats-open: the seats still to be taken before the game begins


# ---- rulesets ----


class CommandInfo(_Out):
    type: Annotated[str, Meta(description="the command's type, sent as `type`")]
    description: Annotated[str, Meta(description="what the command does, in the player's words")]
    sealed: Annotated[bool, Meta(description="its content stays hidden behind a commitment until the rules reveal it")]
    always_open: Annotated[
        bool,
        Meta(
            description="offered all game long (battlefleet-1900's `concede`): it never makes a seat awaited, starts no "
            "turn clock, and a bot or a first-choice loop skips it"
        ),
    ]
    ends_game: Annotated[
        bool, Meta(description="sending it ends the game for every seat, so a UI asks before it sends (as `awaiting`'s)")
    ]
    schema: Annotated[
        dict[str, Any], Meta(description="the JSON Schema of its arguments, each property with a title and description")
    ]


class ViewInfo(_Out):
    name: Annotated[str, Meta(description="the view's name in GET /games/{id}/views/{view}")]
    per_seat: Annotated[bool, Meta(description="each seat (with its token) sees its own; else one public picture")]
    description: Annotated[str, Meta(description="what the view shows")]


class ChangeInfo(_Out):
    """A behaviour change an edition introduced: what recorded commands or rolls decide from then on."""

    id: Annotated[str, Meta(description="the change's id (e.g. BF-E4-21)")]
    rules: Annotated[list[str], Meta(description="the rule ids it concerns (docs/rules/<ruleset>.md)")]
    summary: Annotated[str, Meta(description="what plays differently from this edition on")]


class EditionInfo(_Out):
    """An edition this engine runs: games made under it play by its rules for good."""

    version: Annotated[str, Meta(description="the edition, as `edition` in POST /games names it")]
    summary: Annotated[str, Meta(description="what the edition is")]
    changes: Annotated[list[ChangeInfo], Meta(description="what it changed from the edition before")]
    data_sha256: Annotated[
        str, Meta(description="SHA-256 of the default data set a game of this edition plays on (its genesis pins it)")
    ]
    leaks: Annotated[
        list[str],
        Meta(
            description="the changes of later editions (ids in their `changes`) that keep hidden what this edition "
            "publishes: a sealed order, a fogged position (some only in games of some options: Battlefleet's fog "
            "`blur`). POST /games makes no new game, nor POST …/forks a fork, that one of them concerns (422 "
            "edition-withdrawn); its games play on and replay as they were"
        ),
    ]


class RulesetInfo(_Out):
    id: Annotated[str, Meta(description="the ruleset's id, as `ruleset` in POST /games names it")]
    version: Annotated[
        str, Meta(description="the newest edition: what a new game gets unless `edition` names another")
    ]
    editions: Annotated[list[EditionInfo], Meta(description="every edition this engine runs, oldest first")]
    retired: Annotated[
        list[str],
        Meta(description="majors superseded before the first released edition: their games are readable, not playable"),
    ]
    title: Annotated[str, Meta(description="the game's name")]
    data_sha256: Annotated[
        str, Meta(description="SHA-256 of the newest edition's default data set (each edition's: `editions[].data_sha256`)")
    ]
    default_seats: Annotated[list[str], Meta(description="the seats a game gets when POST /games names none")]
    commands: Annotated[list[CommandInfo], Meta(description="every command of the ruleset, with its static schema")]
    views: Annotated[list[ViewInfo], Meta(description="the views GET /games/{id}/views/{view} serves")]
    options_schema: Annotated[dict[str, Any], Meta(description="the JSON Schema of `options` in POST /games")]


class RulesetSeats(_Out):
    """The seats a game of a ruleset gets with some options when POST /games names none (a lobby offers them)."""

    ruleset: Annotated[str, Meta(description="the ruleset's id")]
    seats: Annotated[list[str], Meta(description="the seats, in their order, as the game's `seats` would be")]


class Health(_Out):
    status: str  # `live` (the process answers) or `ready` (and its store answered)
    engine: str


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

    mode: Annotated[
        Literal["fair", "public-seed"],
        Meta(
            description="`fair`: a secret server seed, committed to now and revealed at the end; `public-seed`: "
            "`server_seed` is yours"
        ),
    ] = "fair"
    server_seed: Annotated[
        Hex64 | None, Meta(description="public-seed only (and required there): the server seed, 64 lowercase hex")
    ] = None
    client_seeds: Annotated[
        dict[SeatName, Hex64] | None,
        Meta(description="seeds the seats contribute now (else by POST /games/{id}/seeds before the first command)"),
    ] = None
    beacon: Annotated[
        Annotated[str, Meta(pattern="^[!-~]{1,256}$")] | None,
        Meta(description="a public randomness beacon mixed into the dice, e.g. drand:<chain>:<round>:<hex>"),
    ] = None


OnExpiry = Literal["bot", "default", "forfeit"]
# a turn's seconds, and the seconds added to one (domain/engine.py MAX_TURN_SECONDS: 366 days)
TurnSeconds = Annotated[int, Meta(ge=1, le=MAX_TURN_SECONDS)]


class Deadlines(_In):
    """A game's turn clock."""

    turn_seconds: Annotated[
        TurnSeconds, Meta(description="seconds a seat has from the moment it is awaited (its turn)")
    ]
    on_expiry: Annotated[
        OnExpiry,
        Meta(
            description="what acts for a seat whose time ran out: `bot` (the ruleset's bot, one decision), `default` "
            "(the entry's `default` where it has one, else the bot), `forfeit` (the seat concedes where the ruleset "
            "lets it, else the bot)",
        ),
    ]


class ChangeDeadlines(_In):
    """The referee's change of a game's turn clock; what is left out stays as it is."""

    turn_seconds: Annotated[
        TurnSeconds | None, Meta(description="the turn's seconds from now on, for running turns too")
    ] = None
    on_expiry: Annotated[OnExpiry | None, Meta(description="what acts for a seat whose time ran out, from now on")] = (
        None
    )
    paused: Annotated[
        bool | None,
        Meta(description="true: no clock runs; false: they run again, every awaited seat's from the start of its turn"),
    ] = None
    extend: Annotated[
        dict[str, TurnSeconds],
        Meta(
            description='seconds added to the running turn of each seat named (e.g. {"russia": 3600}); a seat not on '
            "the clock now (not awaited, or the clock paused) has them on its next turn"
        ),
    ] = {}
    command_id: Annotated[CommandId | None, Meta(description="client-chosen id; a retry with it appends nothing")] = None


class DeadlinesSummary(_Out):
    """A game's turn clock as it is now."""

    turn_seconds: Annotated[int, Meta(description="seconds a seat has from the moment it is awaited")]
    on_expiry: Annotated[OnExpiry, Meta(description="what acts for a seat whose time ran out")]
    paused: Annotated[bool, Meta(description="true: the referee paused the clock; no turn runs out")]
    deadline_at: Annotated[
        dict[str, str],
        Meta(
            description="each awaited seat's end of turn (ISO 8601 UTC); empty while paused, while a seat still "
            "waits for its player, and once the game is over",
        ),
    ]


class CreateGame(_In):
    ruleset: Annotated[str, Meta(max_length=64, description="an id from GET /rulesets")]
    options: dict[str, Any] | None = None  # the ruleset's options_schema (typed per ruleset in the OpenAPI)
    # distinct names (`uniqueItems` in the OpenAPI; the service refuses a repeated one)
    seats: Annotated[
        Annotated[list[SeatName], Meta(min_length=1, max_length=16)] | None,
        Meta(description="the seats' names, each once; left out: the ruleset's `default_seats`"),
    ] = None
    bots: Annotated[
        Annotated[list[SeatName], Meta(max_length=16)] | None,
        Meta(description="seats the server plays itself (at least one seat stays a person's)"),
    ] = None
    dice: Annotated[CreateDice | None, Meta(description="how the dice are rolled; left out: fair")] = None
    open_seats: Annotated[
        bool,
        Meta(
            title="Open seats",
            description="true: each seat a person plays gets an invitation (`seats[].invitation`) instead of a token; "
            "whoever accepts it (POST /games/{id}/join) receives that seat's token, which the creator never sees. "
            "false (the default): every seat's token comes back here, for a trusted organiser or a solitaire game",
        ),
    ] = False
    edition: Annotated[
        Annotated[str, Meta(max_length=32)] | None,
        Meta(
            description="pin an edition of the ruleset (a version from GET /rulesets/{id} `editions`), e.g. for "
            "an event played under fixed rules; leave out for the newest",
        ),
    ] = None
    umpired: Annotated[
        bool,
        Meta(
            title="Umpired",
            description="true (the default): the referee token also reads every seat's sealed content before the "
            "rules open it, as an umpire does. false: it reads what the public reads (it still creates, ends, reveals "
            "and sends referee commands), so nobody but a seat itself reads that seat's sealed orders early. Fixed "
            "for good, and shown in the summary and every invitation",
        ),
    ] = True
    deadlines: Annotated[
        Deadlines | None,
        Meta(
            description='a turn clock (docs/api.md "Deadlines"): each seat awaited for `turn_seconds` has its time '
            "run out, and `on_expiry` acts for it; the referee may change or pause it (POST /games/{id}/deadlines). "
            "Left out: no clock",
        ),
    ] = None


class ForkGame(_In):
    """Start a new game from a position of this one: the state after event `at` (the end of a command)."""

    at: Annotated[int, Meta(ge=1, le=2**53, description="the seq of the event after which the new game starts")]
    dice: Annotated[CreateDice | None, Meta(description="the new game's dice; left out: fair")] = None
    bots: Annotated[
        Annotated[list[SeatName], Meta(max_length=16)] | None, Meta(description="seats the server plays in the fork")
    ] = None


class Seat(_Out):
    """A seat of a game, the one shape every answer gives. `token` and `invitation` are null except in the answer
    that creates the game: there a seat a person plays has its bearer token, or (`open_seats`) its invitation to hand
    to the player who will take it; a bot seat has neither."""

    seat: Annotated[str, Meta(title="Seat", description="the seat's name")]
    bot: Annotated[bool, Meta(title="Bot", description="the server plays this seat")]
    open: Annotated[
        bool, Meta(title="Open", description="the seat waits for a player to accept its invitation (POST /join)")
    ]
    token: Annotated[str, Meta(title="Token", description="the seat's bearer token (creation answer only)")] | None = None
    invitation: (
        Annotated[
            str,
            Meta(
                title="Invitation",
                description="an open seat's invitation: whoever sends it to POST /games/{id}/join gets the seat's token "
                "(creation answer only)",
            ),
        ]
        | None
    ) = None


class JoinRequest(_In):
    """Accept an open seat's invitation."""

    invitation: Annotated[
        str,
        Meta(min_length=1, max_length=128, title="Invitation", description="the code the game's creator handed you"),
    ]


class JoinSeat(JoinRequest):
    """Accept an open seat's invitation, with the seat's client seed for the dice if you want a say in them (at most
    one of `client_seed` and `passphrase`): recorded before anyone's first command, the bots' included, which wait
    until every seat is taken."""

    client_seed: Annotated[Hex64 | None, Meta(description="the seat's seed for the dice, 64 lowercase hex")] = None
    passphrase: Annotated[
        Annotated[str, Meta(min_length=1, max_length=1024)] | None,
        Meta(description="instead of `client_seed`: a phrase whose SHA-256 becomes the seat's seed"),
    ] = None


class Invitation(_Out):
    """What an invitation offers, read before it is accepted."""

    game_id: Annotated[str, Meta(title="Game id", description="the game")]
    seat: Annotated[str, Meta(title="Seat", description="the open seat the invitation is for")]
    ruleset: Annotated[RulesetRef, Meta(description="the ruleset, the edition it plays and its data set's hash")]
    umpired: Annotated[bool, Meta(title="Umpired", description=UMPIRED)]
    deadlines: Annotated[
        DeadlinesSummary | None,
        Meta(description='the turn clock a player accepts with the seat (docs/api.md "Deadlines"), or null: none'),
    ] = None


class SeatCredential(_Out):
    """A seat's bearer token, shown only in this answer (a join, or a rotation: the previous token is void)."""

    game_id: Annotated[str, Meta(title="Game id", description="the game")]
    seat: Annotated[str, Meta(title="Seat", description="the seat (or `referee`) this token acts as")]
    token: Annotated[str, Meta(title="Token", description="send it as Authorization: Bearer <token>; keep it secret")]
    client_seed: Annotated[
        str | None,
        Meta(description="a join's: the seat's client seed recorded with it; null if none was sent (or a command locked "
        "the seed between the invitation's check and the join: GET /games/{id} says which seats are server-only)"),
    ] = None
    notifications_removed: Annotated[
        bool | None,
        Meta(
            description="a rotation's: whether the seat's notification target was removed (whoever held the old token "
            "may have registered it): register one again with the new token; null for a join, or where the store "
            "could not remove it then (remove it with DELETE …/notifications and the new token)"
        ),
    ] = None


class Ticket(_Out):
    """A short-lived credential for the event stream, which a browser's EventSource opens without headers."""

    game_id: Annotated[str, Meta(title="Game id", description="the game")]
    reader: Annotated[str, Meta(title="Reader", description="the seat (or `referee`) the stream will read as")]
    ticket: Annotated[str, Meta(title="Ticket", description="pass as `?ticket=` to GET /games/{id}/events/stream")]
    expires_in: Annotated[
        int, Meta(title="Expires in", description="seconds within which the stream must be opened with it")
    ]
    stream: Annotated[str, Meta(title="Stream", description="the stream's path with the ticket, ready for EventSource")]


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
    ruleset: RulesetRef
    umpired: Annotated[bool, Meta(description=UMPIRED)]
    version: Annotated[
        int, Meta(description="the game's version now: its bot seats' first moves, which follow `events` in the log, too")
    ]
    head: Annotated[str, Meta(description="the hash of the game's last event")]
    dice: DiceCommitment
    seats: list[Seat]  # each with its bearer token, or its invitation (open seats), shown only here
    referee_token: str  # reveals the seed and ends games; shown only here
    events: list[EventOut]


class SeedRequest(_In):
    """Exactly one of `client_seed` and `passphrase`."""

    client_seed: Annotated[Hex64 | None, Meta(description="the seat's seed for the dice, 64 lowercase hex")] = None
    passphrase: Annotated[
        Annotated[str, Meta(min_length=1, max_length=1024)] | None,
        Meta(description="instead of `client_seed`: a phrase whose SHA-256 becomes the seat's seed"),
    ] = None
    command_id: Annotated[
        CommandId | None, Meta(description="client-chosen id; a retry with it appends nothing")
    ] = None


class CommandResult(_Out):
    game_id: Annotated[str, Meta(description="the game")]
    command_id: Annotated[str, Meta(description="the command's id: the one sent, or the one the server made")]
    version: Annotated[int, Meta(description="the game's version now: the seq of its last event")]
    head: Annotated[str, Meta(description="the hash of the last event")]
    replayed: Annotated[
        bool, Meta(description="true when this command_id was applied before and nothing was appended")
    ]
    events: Annotated[list[EventOut], Meta(description="the events the command produced, as the sender may read them")]
    awaiting: Annotated[
        list[CommandSpec], Meta(description="what the sender may do now (as GET /games/{id} with its token)")
    ]
    waiting_for: Annotated[list[str], Meta(description="seats that still owe a sealed submission in this step")]


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
    game_id: Annotated[str, Meta(description="the game")]
    ruleset: Annotated[RulesetRef, Meta(description="the ruleset, the edition it plays and its data set's hash")]
    umpired: Annotated[bool, Meta(description=UMPIRED)]
    version: Annotated[int, Meta(description="the game's version: the seq of its last event")]
    head: Annotated[str, Meta(description="the hash of the last event")]
    status: Annotated[Status, Meta(description="open, over (no more commands) or revealed (the server seed is out)")]
    seats: Annotated[list[Seat], Meta(description="the game's seats, who plays them and which still wait for a player")]
    bots: Annotated[list[str], Meta(description="the seats the server plays")]
    options: dict[str, Any]  # typed per ruleset in the OpenAPI
    dice: Annotated[DiceSummary, Meta(description="how the dice roll: mode, commitment, seeds and fairness")]
    awaiting: Annotated[
        list[CommandSpec],
        Meta(description="the legal commands now, as this reader may see them; empty when the game is over"),
    ]
    waiting_for: Annotated[list[str], Meta(description="seats that still owe a sealed submission in this step")]
    ended: Annotated[str | None, Meta(description="the reason the game ended (its GameEnded event), or null while it runs")]
    created_at: Annotated[str, Meta(description="when the game was created, as the store recorded it")]
    deadlines: Annotated[
        DeadlinesSummary | None, Meta(description='the turn clock (docs/api.md "Deadlines"), or null: none')
    ] = None
    parent: Annotated[
        ForkedFrom | None,
        Meta(description="a fork's position in its parent game (its GameCreated's `parent`), or null: not a fork"),
    ] = None
    result: Annotated[
        dict[str, int | str] | None,
        Meta(
            description="how a finished game came out: the figures its ruleset reports (those `umpire simulate` and "
            "the odds count), a category by its label (`winner`: `japan`; `undecided` where the game ended before "
            "its rules decided it); null while the game runs"
        ),
    ] = None


class ForkedFrom(_Out):
    """Where a fork starts: the parent game and the seq it continues after, with the parent's hash there."""

    game: Annotated[str, Meta(description="the parent game's id")]
    seq: Annotated[int, Meta(description="the parent's seq the fork continues after")]
    hash: Annotated[str, Meta(description="the parent's event hash at that seq")]


class StreamEnd(_Out):
    """The data of the event stream's last message, sent when the game is over or revealed; the stream closes."""

    message: Annotated[Literal["end"], Meta(title="Message", description="what this message is")]
    status: Annotated[Status, Meta(title="Status", description="over or revealed")]
    version: Annotated[int, Meta(title="Version", description="the game's version: the seq of its last event")]
    head: Annotated[str, Meta(title="Head", description="the hash of the last event")]


OPEN_SEATS = (
    "seats still to be taken (each by its invitation): until every seat is, the game has not begun and its commands "
    "are refused (409 `seats-open`)"
)


class StreamState(_Out):
    """Sent once the stream has sent every event up to `version` (after each command's events, and on opening): what
    this reader may do now, so a client never polls."""

    message: Annotated[Literal["state"], Meta(title="Message", description="what this message is")]
    version: Annotated[int, Meta(title="Version", description="the game's version: the seq of the last event sent")]
    head: Annotated[str, Meta(title="Head", description="the hash of that event")]
    status: Annotated[Status, Meta(title="Status", description="open, over or revealed")]
    awaiting: Annotated[
        list[CommandSpec], Meta(title="Awaiting", description="what this reader may send now (as GET /games/{id})")
    ]
    waiting_for: Annotated[
        list[str], Meta(title="Waiting for", description="seats that still owe a sealed submission in this step")
    ]
    open_seats: Annotated[list[str], Meta(title="Open seats", description=OPEN_SEATS)]


class StreamEvent(_Out):
    """One event of the log, as this stream's reader may read it (a seat's own sealed content included)."""

    message: Annotated[Literal["event"], Meta(title="Message", description="what this message is")]
    event: Annotated[EventOut, Meta(title="Event", description="the event; its `type` says which")]


class GameListItem(_Out):
    game_id: str
    ruleset: RulesetRef
    status: Status
    version: int
    seats: list[Seat]
    created_at: str


CURSOR = "^[0-9T:.Z+-]{1,40}~[A-Za-z0-9._-]{1,64}$"  # "<created_at>~<game_id>" of the last game of a page


class GamesPage(_Out):
    games: list[GameListItem]
    # pass as ?cursor= for the next page; null on the last
    next_cursor: Annotated[str, Meta(pattern=CURSOR)] | None


class Me(_Out):
    game_id: Annotated[str, Meta(description="the game")]
    seat: Annotated[str, Meta(description="the seat this token acts as, or `referee`")]
    referee: Annotated[bool, Meta(description="the token is the referee's")]
    bot: Annotated[bool, Meta(description="the server plays this seat")]
    awaiting: Annotated[list[CommandSpec], Meta(description="what this token may send now")]
    waiting_for: Annotated[list[str], Meta(description="seats that still owe a sealed submission in this step")]
    open_seats: Annotated[list[str], Meta(description=OPEN_SEATS)]
    may: Annotated[
        list[str],
        Meta(
            description='the game-level actions this token may take now: "command" (not before every seat is taken), '
            '"seed", "reveal", "end"'
        ),
    ]


class EventsPage(_Out):
    game_id: str
    events: list[EventOut]
    next_after: int  # pass as ?after= for the next page
    version: int
    head: str


class Since(_Out):
    """What happened after the version a reader names, as that reader may read it (GET /games/{id}/since)."""

    game_id: str
    since: Annotated[int, Meta(description="the version asked about: the last one the reader saw")]
    upto: Annotated[int, Meta(description="the seq of the last event here (`since` when there are none)")]
    more: Annotated[bool, Meta(description="the game went on beyond `upto`: ask again with `version=upto`")]
    version: Annotated[int, Meta(description="the game's version now")]
    head: str
    status: Literal["open", "over", "revealed"]
    digest: Annotated[
        list[str],
        Meta(
            description="what happened, in plain words, a line per meaningful event (ships, boats, zones and "
            "results), saying only what this reader may read; the ruleset's own (empty where it has none)"
        ),
    ]
    events: list[EventOut]  # as GET /events shows them to this reader


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
    command: Annotated[
        str | None, Meta(description="the id of the recorded command whose judgement rolled it (GET /games/{id}/bundle)")
    ] = None
    sent_by: Annotated[
        str | None,
        Meta(
            description="the seat (or `referee`) that sent that command; in a simultaneous step the last submission, "
            "which closed it, rolls for every seat's orders (the roll's `purpose` says whose it is); a command "
            "`deadline-<seat>-…` is the turn clock acting for that seat, and a bot seat's commands are the server's"
        ),
    ] = None


class RollsPage(_Out):
    game_id: str
    rolls: list[RollOut]
    next_after: int  # the last k of this page (none: `after`, at most the last roll's): pass as ?after= for the next


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


# ---- what-if ----


class OddsRequest(_In):
    """The odds from the position after event `at` (the end of a command): `games` continuations played by the
    ruleset's bot, continuation i rolling from a seed that depends only on `seed` and i."""

    at: Annotated[int, Meta(ge=1, le=2**53, description="the seq of the event after which the games continue")]
    games: Annotated[int, Meta(ge=1, le=MAX_API_GAMES, description="how many continuations the bots play")] = 200
    seed: Annotated[
        int, Meta(ge=0, le=2**53, description="the continuations' dice come from it: the same seed, the same odds")
    ] = 1


class Bin(_Out):
    lo: int
    hi: int
    count: int


class OddsFigure(_Out):
    """One figure the ruleset reports over the continuations, and where the real game stands in it. A quantity
    (tonnage, ships lost, turns) has every field but `shares` and `actual_label`; a category (a winner, a result level,
    whether a corvette was sunk) has only those two: its codes are names, not amounts, so it has no mean, interval,
    histogram or percentile (how often the continuations reached the real game's category is its share)."""

    mean: float | UnsetType = UNSET
    p5: float | UnsetType = UNSET
    p25: float | UnsetType = UNSET
    median: float | UnsetType = UNSET
    p75: float | UnsetType = UNSET
    p95: float | UnsetType = UNSET
    min: int | UnsetType = UNSET
    max: int | UnsetType = UNSET
    histogram: list[Bin] | UnsetType = UNSET
    actual: Annotated[
        int | None | UnsetType,
        Meta(description="a quantity: the real game's value (where it stands now, if it is not over)"),
    ] = UNSET
    percentile: Annotated[
        float | None | UnsetType,
        Meta(description="a quantity: the share of continuations below the real value, plus half of those equal, in %"),
    ] = UNSET
    ci95: Annotated[
        list[float] | UnsetType,
        Meta(description="a quantity: the mean's 95% confidence interval (normal approximation), within [min, max]"),
    ] = UNSET
    shares: Annotated[
        dict[str, float] | UnsetType,
        Meta(description="a category: each one's share of the continuations in percent (those none reached left out)"),
    ] = UNSET
    actual_label: Annotated[
        str | None | UnsetType,
        Meta(description="a category: the real game's (where it stands now, if it is not over)"),
    ] = UNSET


class OddsResult(_Out):
    ruleset: RulesetRef
    game: str
    at: int
    games: int
    seed: int
    finished: bool  # whether the real game is over (else `actual` is where it stands now)
    figures: dict[str, OddsFigure]
    as_seat: Annotated[
        str | None,
        Meta(description="a seat's own odds: the seat that asked (its token), in a game not yet over"),
    ] = None
    redrawn: Annotated[
        str | None,
        Meta(description="a seat's own odds: what that seat may not read, which each continuation re-drew"),
    ] = None


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


class NotificationTarget(_In):
    """The one notification target of the reader whose token is sent (a second PUT replaces it): a webhook URL (with
    a new secret), or an e-mail address as `mailto:`, which is mailed a code and gets nothing more until it is
    confirmed (`POST …/notifications/confirm`)."""

    url: Annotated[
        str,
        Meta(
            min_length=1,
            max_length=2048,
            pattern="^([Hh][Tt][Tt][Pp][Ss]?://|[Mm][Aa][Ii][Ll][Tt][Oo]:)",
            description="an http(s) URL at a public address (docs/operations.md), or mailto:name@host.example where "
            "the server sends e-mail",
        ),
    ]


class AddressConfirmation(_In):
    """The code mailed to the reader's address when it was registered."""

    code: Annotated[str, Meta(min_length=1, max_length=64, description="as the confirmation mail gives it")]


class NotificationRegistered(_Out):
    """The target and, for a webhook, its Standard Webhooks signing secret, shown only here (and at a rotation)."""

    reader: Annotated[str, Meta(description="the seat (or `referee`) notified")]
    url: Annotated[str, Meta(description="where notifications are POSTed, or mailto: the address they are mailed to")]
    secret: Annotated[
        str | None,
        Meta(description="whsec_…: verify `webhook-signature` with it (docs/api.md); null for an e-mail address"),
    ]
    confirmed: Annotated[
        bool, Meta(description="false for an address until the code mailed to it is confirmed; true for a webhook")
    ]


class Delivery(_Out):
    """One notification to this target and how its delivery went."""

    id: Annotated[str, Meta(description="its `webhook-id`, the same at every attempt")]
    kind: Annotated[
        str,
        Meta(
            description="your-turn, game-over, ping, deadline-warning, deadline-changed, deadline-expired; confirm "
            "(a code mailed)"
        ),
    ]
    status: Annotated[str, Meta(description="pending (retried), delivered, failed (given up), dropped")]
    attempts: int
    last_outcome: Annotated[
        str | None, Meta(description="the last attempt's HTTP status (`sent` for a mail), or why it failed")
    ]
    last_attempt_at: str | None
    created_at: str


class Notifications(_Out):
    """The reader's target and its latest deliveries (the newest first, at most 10). The secret is not shown."""

    reader: str
    url: str
    confirmed: Annotated[bool, Meta(description="false for an address waiting for its code to come back")]
    created_at: str
    rotation_overlap_until: Annotated[str | None, Meta(description="until when the previous secret also signs")]
    deliveries: list[Delivery]


class SecretRotated(_Out):
    """A new signing secret; the previous one still signs (a second signature) until `old_secret_signs_until`."""

    secret: str
    old_secret_signs_until: str


class PingQueued(_Out):
    """A signed `ping` was queued for the target: GET /games/{id}/notifications shows how it went."""

    id: Annotated[str, Meta(description="its `webhook-id`")]
