"""`umpire`: serve the API, verify and replay bundles, export a game's bundle, list games, simulate with the bots.

Exit codes: 0 success; 1 failure (a bundle that does not verify, an input the command cannot use); 2 a partial
verification (`umpire verify` of a bundle whose server seed is not revealed yet) or a usage error.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import typer
from rich.console import Console, ConsoleDimensions
from rich.table import Table
from typer._click.core import Context
from typer._click.exceptions import UsageError  # typer (0.29) carries its own click: its usage errors are raised here
from typer.core import TyperCommand

app = typer.Typer(
    help="Naval Umpire: an event-sourced rules server for naval wargames.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


class _Console(Console):
    """Rich's console, not capped when it writes to a pipe or a file: there rich assumes 80 columns and a table cuts
    its cells (`11.4–12…`) to fit; here a line is as long as what it holds, so a log or `| cat` keeps every number
    whole. On a terminal, or with COLUMNS set, rich's width as before."""

    UNCAPPED = 10_000

    @property
    def uncapped(self) -> bool:
        """Writing where no width applies: not a terminal (whatever FORCE_COLOR says), no width asked for."""
        # rich's own fields (rich 15): a width asked for at construction, and the environment it reads COLUMNS from
        environ = getattr(self, "_environ", None) or os.environ
        if getattr(self, "_width", None) is not None or environ.get("COLUMNS", "").isdigit():
            return False
        isatty = getattr(self.file, "isatty", None)
        try:
            return not (isatty is not None and isatty())
        except ValueError:  # a closed file
            return True

    @property
    def size(self) -> ConsoleDimensions:
        size = super().size
        return size._replace(width=self.UNCAPPED) if self.uncapped else size

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        self._width, self._height = new_size

    def table(self, title: str | None, width: int) -> Table:
        """A table `width` wide on a terminal; elsewhere as wide as its cells."""
        return Table(title=title, width=None if self.uncapped else width)


# the CLI's two consoles, made here alone: what a command prints, and progress and errors
console = _Console()
err = _Console(stderr=True)


class Progress:
    """How far a long run is: a bar with the time left on a terminal. Elsewhere (a log, CI, a pipe) nothing, unless
    asked for with `--progress` (`lines`): then a line on standard error every 5% of the way, with the time left, so
    that a run nobody watches can still say where it is without filling every CI log."""

    def __init__(self, label: str, total: int, quiet: bool = False, lines: bool = False):
        self.label, self.total, self.quiet, self.lines = label, max(1, total), quiet, lines
        self.started, self.last = time.monotonic(), 0
        self.bar: Any = None  # rich's Progress, on a terminal

    def __enter__(self) -> Progress:
        if not self.quiet and err.is_terminal:
            from rich.progress import Progress as Bar

            bar = self.bar = Bar(*Bar.get_default_columns(), console=err, transient=True)
            bar.start()
            self.task = bar.add_task(self.label, total=self.total)
        return self

    def __call__(self, done: int) -> None:
        if self.quiet:
            return
        if self.bar is not None:
            self.bar.update(self.task, completed=done)
        elif not self.lines:
            return
        elif done - self.last >= max(1, self.total // 20) or (done >= self.total > self.last):
            self.last = done
            spent = time.monotonic() - self.started
            left = spent / done * (self.total - done) if done else 0.0
            err.print(
                f"{self.label}: {done}/{self.total} ({100 * done // self.total}%), {spent:.0f} s, about {left:.0f} s left",
                highlight=False,
            )

    def of(self, done: int, total: int) -> None:
        """`done` of `total`, for a run that learns its total as it goes (a bundle's commands)."""
        self.total = max(1, total)
        if self.bar is not None:
            self.bar.update(self.task, total=self.total)
        self(done)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


# the long runs' option: off a terminal, progress lines only when asked for
PROGRESS = typer.Option(
    False, "--progress", help="off a terminal (a log, CI, a pipe): a progress line on standard error every 5%"
)


def fail(message: str, code: int = 1) -> typer.Exit:
    """One clean line on standard error, and the exit code."""
    err.print(f"[red]umpire:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


@app.command()
def serve(
    db: str = typer.Option("umpire.db", envvar="UMPIRE_DB", help="SQLite file (created if absent) or postgresql://…"),
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8000, help="port to listen on"),
    cors_origin: list[str] = typer.Option(
        [],
        "--cors-origin",
        help="a browser origin allowed to call the API, e.g. https://my.app (repeatable; adds to UMPIRE_CORS_ORIGINS)",
    ),
    access_log: bool = typer.Option(False, help="log every request (costs ~15% of command throughput)"),
    log_format: str | None = typer.Option(
        None, help="text or json: one JSON object per line, each with its request id [UMPIRE_LOG_FORMAT, text]"
    ),
    trusted_proxy: list[str] = typer.Option(
        [],
        "--trusted-proxy",
        help="the address of a reverse proxy whose X-Forwarded-For is believed (repeatable; adds to "
        "UMPIRE_TRUSTED_PROXIES; none by default: the peer address is the client)",
    ),
    header_timeout: float | None = typer.Option(
        None, help="seconds a request's head may take to arrive [UMPIRE_HEADER_TIMEOUT, 10]"
    ),
    body_timeout: float | None = typer.Option(
        None, help="seconds a request's body may take to arrive, 4x for /bundles/verify [UMPIRE_BODY_TIMEOUT, 30]"
    ),
    max_connections: int | None = typer.Option(
        None, min=0, help="open connections at most; beyond, 503 and closed; 0: no cap [UMPIRE_MAX_CONNECTIONS, 2000]"
    ),
) -> None:
    """Start the HTTP API (docs at /docs, the referee's desk at /desk)."""
    import logging
    import logging.config

    import uvicorn

    from events.store.rows import redacted
    from service.app import create_app
    from service.logs import log_config
    from service.mail import Mailer
    from service.server import Protocol
    from service.settings import Settings

    if log_format not in (None, "text", "json"):
        raise fail("--log-format must be text or json")
    base = Settings.from_env(db=db)
    fmt = log_format or base.log_format
    logging.config.dictConfig(log_config(fmt))  # before the store opens: its lines too
    settings = Settings.from_env(
        db=db,
        cors_origins=tuple(dict.fromkeys([*base.cors_origins, *cors_origin])),
        trusted_proxies=tuple(dict.fromkeys([*base.trusted_proxies, *trusted_proxy])),
        header_timeout=header_timeout,
        body_timeout=body_timeout,
        max_connections=max_connections,
    )
    try:  # a setting the server cannot use stops it before it says it runs
        Mailer.from_settings(settings.smtp, settings.mail_from, settings.public_url)
    except ValueError as e:
        raise fail(str(e))
    where = f"http://{host}:{port}"
    console.print(f"Naval Umpire on [bold]{where}[/] — API docs {where}/docs — referee's desk {where}/desk", highlight=False)
    console.print(
        f"database {redacted(settings.db)}; CORS origins: {', '.join(settings.cors_origins) or 'none (--cors-origin to allow)'}",
        highlight=False,
    )
    console.print(
        f"head within {settings.header_timeout:g} s, body within {settings.body_timeout:g} s, at most "
        f"{settings.max_connections} connections; X-Forwarded-For believed from: "
        f"{', '.join(settings.trusted_proxies) or 'nobody (--trusted-proxy to name your proxy)'}",
        highlight=False,
    )
    if settings.smtp:
        smtp = urlsplit(settings.smtp)
        mailing = f"through {smtp.scheme}://{smtp.hostname}{f':{smtp.port}' if smtp.port else ''} from {settings.mail_from}"
        if smtp.scheme == "smtp" and smtp.username:
            mailing += " (its password is sent in clear: smtp+starttls:// or smtps:// would not)"
    else:
        mailing = "off (UMPIRE_SMTP unset: players register webhooks only)"
    console.print(f"e-mail notifications: {mailing}", highlight=False)
    _enough_files(settings.max_connections)
    uvicorn.run(
        create_app(settings=settings),
        host=host,
        port=port,
        log_level="info",
        log_config=log_config(fmt),
        access_log=access_log,
        http=Protocol.configured(settings.header_timeout, settings.max_connections),
        proxy_headers=False,  # the app applies --trusted-proxy itself
    )


def _enough_files(connections: int) -> None:
    """Raise the open-files limit to what the connection cap needs (each connection is a file descriptor), as far as
    the hard limit allows; say so when it cannot."""
    try:
        import resource
    except ImportError:  # not on this platform
        return
    need = connections + 256  # the database, the log, the listening socket, threads' files
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < need:
        new = need if hard == resource.RLIM_INFINITY else min(need, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        except (ValueError, OSError):
            new = soft
        if new < need:
            err.print(
                f"umpire: the open-files limit ({new}) is below --max-connections {connections} + 256: "
                f"raise it (ulimit -n) or lower the cap",
                highlight=False,
            )


def _read(path: Path, code: int = 1) -> bytes:
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise fail(f"cannot read {path}: {e.strerror}", code)
    if not raw.strip():
        raise fail(f"{path} is empty: a bundle is one JSON object (GET /games/{{id}}/bundle, umpire export)", code)
    return raw


# `umpire verify` and `umpire replay` exit by their verdict (0 verified, 1 failed, 2 partial or not replayed here), so
# a run that checked nothing has a code of its own: a missing file exited 1, as a tampered bundle does, and a usage
# error 2, as a game not yet revealed does
NOTHING_CHECKED = 3


class _VerdictCommand(TyperCommand):
    """click's usage errors (an unknown option) exit with NOTHING_CHECKED, not click's 2 (`partial`)."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except UsageError as e:
            e.exit_code = NOTHING_CHECKED
            raise


@app.command("verify", cls=_VerdictCommand)
def verify_cmd(
    bundle: Path | None = typer.Argument(None, help="a bundle JSON file (or --db for every game of a store)"),
    db: str | None = typer.Option(None, help="check every game of this store (a SQLite file or a postgresql:// URL)"),
    progress_lines: bool = PROGRESS,
    as_json: bool = typer.Option(
        False, "--json", help="the report as JSON, as POST /bundles/verify answers it (each check's first bad seq, k)"
    ),
) -> None:
    """Check a bundle's chain, dice, sealed records and replay. Exit 0 verified, 1 failed, 2 partial (the server
    seed is not revealed yet, so the dice and replay checks wait), 3 nothing checked (no such file, an empty one, not
    a bundle, no such store, options that do not go together). With --db, every game of a store: each one's bundle as
    the server serves it, and a line for each that fails (exit 1 if any does)."""
    from service.replay import verify

    if db is not None:
        if bundle is not None:
            raise fail(f"name a bundle file or --db (every game of a store), not both: {bundle} was not checked",
                       NOTHING_CHECKED)
        if as_json:
            raise fail(
                "--json reports one bundle; --db checks a store, a line for each game that fails", NOTHING_CHECKED
            )
        _verify_store(db, progress_lines)
        return
    if bundle is None:
        raise fail("name a bundle file, or --db for every game of a store", NOTHING_CHECKED)
    raw = _read(bundle, NOTHING_CHECKED)
    with Progress(f"replaying {bundle.name}", 1, quiet=as_json, lines=progress_lines) as progress:
        report = verify(raw, progress=progress.of)
    exit_code = {"verified": 0, "failed": 1, "partial": 2}[report["verdict"]]
    if list(report["checks"]) == ["format"]:  # not a bundle (cut short, a newer format, not JSON): nothing checked
        exit_code = NOTHING_CHECKED
    if as_json:
        sys.stdout.write(json.dumps(report, ensure_ascii=False) + "\n")
        raise typer.Exit(exit_code)
    whose = f"game {report['game']}" if report["game"] else "not a bundle of any game"
    table = console.table(f"{bundle.name} — {whose}", min(console.width, 100))
    table.add_column("check")
    table.add_column("result")
    table.add_column("detail", overflow="fold")
    colours = {"pass": "green", "fail": "red", "skipped": "yellow"}
    full: list[tuple[str, str]] = []
    for name, check in report["checks"].items():
        table.add_row(name, f"[{colours[check['status']]}]{check['status']}[/]", _shortened(name, check["detail"], full))
    console.print(table)
    if full:
        console.print("in full (the table shortens them), each value whole on a line:", highlight=False)
        wide = max(len(label) for label, _ in full)
        side = 2 + wide + 2 + max(len(value) for _, value in full) <= console.width
        for label, value in full:  # each value beside its label where every one fits so, else under it
            lines = [f"  {label:<{wide}}  {value}"] if side else [f"  {label}", f"    {value}"]
            for line in lines:
                console.print(line, highlight=False, soft_wrap=True)
    console.print(f"verdict: [bold]{report['verdict']}[/]")
    raise typer.Exit(exit_code)


# a SHA-256 in hex: a chain head, an event's hash, a seed, a commitment
HEX64 = re.compile(r"\b[0-9a-fA-F]{64}\b")
# where the words that name a value in a detail begin: the check words each value it compares as "<label> <value>"
# ("the head … is not the last event's hash …", "header dice.server_seed …, ServerSeedRevealed at seq 19 …")
LABEL_START = re.compile(r"(?:^|; |: |, | is not | to )(?:the )?")


def _shortened(check: str, detail: str, full: list[tuple[str, str]]) -> str:
    """`detail` with each 64-hex value cut short, the value added to `full` with what names it (its check's name and
    the words before it in the detail): at 80 columns the detail column holds under 60, so a head in it broke over two
    lines and could not be copied; `umpire verify` prints `full` below the table, a value a line.

    A value is cut to its first 12 characters, and where the detail holds another value with those same 12 (a seed
    or a head compared with one an edit changed further on), also to the few around the first character where they
    part: two cut values that differ never read the same."""
    values = HEX64.findall(detail)

    def cut(m: re.Match[str]) -> str:
        value = m.group()
        before = detail[: m.start()].rstrip()
        label = before[[s.end() for s in LABEL_START.finditer(before)][-1] :]
        full.append((f"{check}: {label}" if label else check, value))
        parts = max((_common_prefix(value, other) for other in values if other != value), default=0)
        if parts < 12:
            return value[:12] + "…"
        start, end = max(12, parts - 4), parts + 4
        return value[:12] + ("…" if start > 12 else "") + value[start:end] + ("…" if end < len(value) else "")

    return HEX64.sub(cut, detail)


def _common_prefix(a: str, b: str) -> int:
    """How many leading characters two values share."""
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def _verify_store(db: str, lines: bool = False) -> None:
    from service.backup import verify_store

    svc = _service(db, NOTHING_CHECKED)
    ids = svc.store.game_ids()
    if not ids:
        raise fail(f"{db} holds no games: nothing was checked (is it the store the server uses?)", NOTHING_CHECKED)
    counts = {"verified": 0, "partial": 0, "failed": 0}
    with Progress("games checked", len(ids), lines=lines) as progress:
        for i, (game_id, report) in enumerate(verify_store(svc, ids), start=1):
            counts[report["verdict"]] += 1
            if report["verdict"] == "failed":
                bad = "; ".join(f"{k}: {c['detail']}" for k, c in report["checks"].items() if c["status"] == "fail")
                console.print(f"[red]failed[/] {game_id}: {bad}", highlight=False, soft_wrap=True)
            progress(i)
    console.print(
        f"{len(ids)} games: {counts['verified']} verified, {counts['partial']} partial (seed not revealed yet: chain and "
        f"seals checked), {counts['failed']} failed",
        highlight=False,
    )
    raise typer.Exit(1 if counts["failed"] else 0)


@app.command()
def backup(
    dest: Path = typer.Argument(..., help="the file to write (it must not exist); mode 0600"),
    db: str = typer.Option("umpire.db", envvar="UMPIRE_DB", help="the store to copy (a SQLite file or a postgresql:// URL)"),
) -> None:
    """A consistent copy of a live store while it takes commands (SQLite's online backup; pg_dump for PostgreSQL).
    It holds server seeds and token hashes: it is written with mode 0600. Restore and check: docs/operations.md."""
    from events.store.rows import redacted
    from service.backup import backup as copy

    try:
        how = copy(db, dest)
    except FileExistsError:
        raise fail(f"{dest} exists: a backup never overwrites a file; name a new one")
    except FileNotFoundError as e:
        if db.startswith(("postgresql://", "postgres://")):
            raise fail(
                "pg_dump is not on PATH; install the PostgreSQL client tools, or run (with the URL's password, and "
                f"chmod 600 the file): {redacted(e.args[0])}"
            )
        raise fail(f"{e.args[0]}: pass the store the server uses with --db")
    except (RuntimeError, OSError) as e:
        raise fail(str(e))
    check = (
        "restore it into a scratch database with pg_restore and check that: umpire verify --db postgresql://…/scratch "
        "(docs/operations.md \"Backups and restore\")"
        if db.startswith(("postgresql://", "postgres://"))
        else f"check it: umpire verify --db {dest}"
    )
    err.print(f"wrote {dest} ({dest.stat().st_size:,} bytes, mode 0600) by {how}; {check}", highlight=False)


@app.command(cls=_VerdictCommand)
def replay(bundle: Path = typer.Argument(..., help="a bundle JSON file"), progress_lines: bool = PROGRESS) -> None:
    """Re-run a bundle's commands on this engine (a fork's parents first); show the first divergence as a diff of
    bodies. Exit 0 byte-identical, 1 diverged, 2 not replayed here (the server seed is not revealed yet, or an edition
    this engine does not run), 3 nothing checked (no such file, not a bundle)."""
    b = _bundle(bundle, NOTHING_CHECKED)
    parts = [b]
    while parts[0].parent is not None:  # a fork carries its parent's part, which may be a fork's
        parts.insert(0, parts[0].parent)
    waits = [
        _replay_part(part, f"{bundle.name}" if part is b else f"{bundle.name}, its parent {part.game}", progress_lines)
        for part in parts
    ]
    raise typer.Exit(2 if any(waits) else 0)


def _replay_part(b: Any, label: str, progress_lines: bool) -> bool:
    """One game of a bundle replayed: its line when byte-identical (False), or that it waits for its seed (True: a
    fork's parent still secret leaves the fork's own part to replay), else its divergence and the exit."""
    from service.replay import replay as run_replay
    from service.replay import with_logged_seed

    b, _ = with_logged_seed(b)  # a header without the seed its log reveals: the log's (`umpire verify` checks it)
    if b.dice.server_seed is None:
        console.print(
            f"[yellow]{label}: not replayed: its server seed is not revealed (reveal the game, export it again)[/]",
            highlight=False,
            soft_wrap=True,
        )
        return True
    with Progress(f"replaying {label}", len(b.commands), lines=progress_lines) as progress:
        try:
            seed = bytes.fromhex(b.dice.server_seed)
        except ValueError:
            raise fail(f"{label}: the server seed its log reveals is not hex: `umpire verify` says what is wrong")
        result, _ = run_replay(b, seed, progress=progress.of)
    if result["status"] == "pass":
        console.print(f"[green]{label}: {result['detail']}[/]", highlight=False, soft_wrap=True)
        return False
    console.print(f"[red]{label}: {result['detail']}[/]", highlight=False)
    for d in result.get("diff", []):
        console.print(
            f"  {d['path']}: [red]- {json.dumps(d['recorded'], ensure_ascii=False)}[/]  "
            f"[green]+ {json.dumps(d['replayed'], ensure_ascii=False)}[/]"
        )
    if "recorded" in result:
        console.print("recorded:", json.dumps(result["recorded"], ensure_ascii=False, sort_keys=True))
        console.print("replayed:", json.dumps(result["replayed"], ensure_ascii=False, sort_keys=True))
    raise typer.Exit(1 if result["status"] == "fail" else 2)


@app.command("view")
def view_cmd(
    bundle: Path = typer.Argument(..., help="a bundle JSON file"),
    name: str = typer.Argument(..., help="the view (`umpire rulesets RULESET` lists them)"),
    at: int | None = typer.Option(None, help="after which event (a seq; default: the last)"),
    reader: str | None = typer.Option(None, "--as", help="a seat, or referee (default: the public)"),
) -> None:
    """A view of a bundle's game after any event, offline: the JSON GET /games/{id}/views/{view}?at= answers, as that
    reader reads it. No server, no import: to look at the state where a bug report's game went wrong. It reads the
    bundle as it is (`umpire verify` checks it)."""
    from domain.engine import REFEREE, Rejected
    from service.reads import render_view
    from service.replay import fold_bundle, history_of
    from service.rulesets import RULESETS, playable

    b = _bundle(bundle, NOTHING_CHECKED)
    last = len(b.events)
    upto = last if at is None else at
    if not 1 <= upto <= last:
        raise fail(f"--at is a seq of the game, 1 to {last}")
    try:
        views = playable(RULESETS, b.ruleset.id, b.ruleset.version).ruleset.views  # edition-not-run otherwise
        if name not in views:
            raise fail(f"{b.ruleset.id} has the views {sorted(views)}")
        game = fold_bundle(b, upto=upto)
        if reader is not None and reader != REFEREE and reader not in game.seats:
            raise fail(f"--as names a seat of the game, {game.seats}, or {REFEREE}")
        if upto < last and any(e.body.get("type") == "GameEnded" for e in b.events):
            reader = REFEREE  # as the server reads it: a game over opened every seal, its past positions read open
        data = render_view(views[name], game.state, reader, lambda: history_of(b, upto))
    except Rejected as e:
        raise fail(f"{bundle.name}: {e.detail}")
    out = {"kind": f"{b.ruleset.id}/{name}", "view": name, "at": upto, "data": data}
    sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")


def _service(db: str, code: int = 1):
    from events.store import open_store
    from service.games import GameService
    from service.settings import db_start_wait

    if "://" not in db and not Path(db).exists():
        raise fail(f"no database at {db}: pass the one the server uses with --db", code)
    try:
        store = open_store(db, start_wait=db_start_wait())
    except SystemExit as e:  # PostgreSQL refused the URL, or did not answer in time: say so with the command's code
        raise fail(str(e).removeprefix("umpire: "), code) from None
    return GameService(store)


@app.command()
def export(
    game_id: str = typer.Argument(..., help="the game's id (`umpire games` lists them)"),
    db: str = typer.Option("umpire.db", envvar="UMPIRE_DB", help="the database the server uses"),
    out: Path | None = typer.Option(None, help="write here instead of standard output"),
) -> None:
    """Write a game's bundle: the same bytes as GET /games/{id}/bundle (the public bundle)."""
    from domain.engine import Rejected

    svc = _service(db)
    try:
        data = svc.bundles.bundle_bytes(game_id)
    except Rejected as e:
        raise fail(f"{e.detail.split(';')[0]} in {db}; `umpire games --db {db}` lists its games")
    if out:
        out.write_bytes(data)
        err.print(f"wrote {out} ({len(data):,} bytes)")
    else:
        sys.stdout.buffer.write(data)


@app.command("import")
def import_cmd(
    bundle: Path = typer.Argument(..., help="a bundle JSON file that verifies whole (its game revealed)"),
    db: str = typer.Option("umpire.db", envvar="UMPIRE_DB", help="the database to write it into (made if missing)"),
) -> None:
    """Write a verified bundle's game into a database, every event as recorded, to read it at any seq, fork it and
    play on from any position on a server of your own (`umpire serve --db` the same database)."""
    from events.store import open_store
    from service.games import now_iso
    from service.imported import ImportRefused, importable, write
    from service.settings import db_start_wait

    raw = _read(bundle)
    try:
        ready = importable(raw, now_iso())  # verified before any store is opened: a refusal makes no database
        store = open_store(db, start_wait=db_start_wait())
        try:
            made = write(store, ready)
        finally:
            store.close()
    except ImportRefused as e:
        raise fail(f"{bundle.name}: {e.detail}") from None
    gid = made["game_id"]
    console.print(f"imported [bold]{gid}[/] ({made['ruleset']}, {made['version']} events) into {db}")
    console.print(f"referee token (the game's own are not in a bundle): {made['referee_token']}")
    console.print(f"next: umpire serve --db {db}, then /desk/#/live/{gid} (any seq: its timeline), "
                  f"GET /games/{gid}/views/<view>?at=<seq>, POST /games/{gid}/forks {{\"at\": <seq>}}")


@app.command()
def games(
    db: str = typer.Option("umpire.db", envvar="UMPIRE_DB", help="the database the server uses"),
    ruleset: str | None = typer.Option(None, help="only games of this ruleset"),
    limit: int = typer.Option(50, min=1, max=1000),
    as_json: bool = typer.Option(False, "--json", help="the page as JSON (GET /games's shape), for scripts"),
) -> None:
    """List the games in a database, newest first."""
    from domain.engine import Rejected

    try:
        page = _service(db).reads.list_games(ruleset, None, None, limit)
    except Rejected as e:  # an unknown ruleset: GET /games's 404, said in one line
        raise fail(f"{e.detail}; `umpire rulesets` lists them")
    if as_json:
        sys.stdout.write(json.dumps(page, ensure_ascii=False) + "\n")
        return
    table = console.table(None, max(console.width, 100))
    table.add_column("game", no_wrap=True, overflow="ignore")  # ids whole: they are what one copies
    for col in ("ruleset", "status", "events", "created"):
        table.add_column(col)
    for g in page["games"]:
        table.add_row(g["game_id"], g["ruleset"]["id"], g["status"], str(g["version"]), g["created_at"][:19])
    console.print(table)


@app.command()
def rulesets(ruleset: str | None = typer.Argument(None, help="show one ruleset's options, commands and views")) -> None:
    """The rulesets this engine plays; with an id, its options (for --options and POST /games), commands, views and
    editions."""
    from service.rulesets import RULESETS

    if ruleset is None:
        for r in RULESETS.values():
            eds = r.ruleset.editions.run
            also = f" (also runs {', '.join(eds[:-1])})" if len(eds) > 1 else ""
            console.print(f"[bold]{r.ruleset.id}[/] {r.ruleset.version}{also} — {r.ruleset.title}", highlight=False)
        return
    if ruleset not in RULESETS:
        raise fail(f"no ruleset {ruleset!r}; `umpire rulesets` lists {sorted(RULESETS)}")
    from domain.engine import command_schema

    rules = RULESETS[ruleset].ruleset
    options: type = rules.options_type
    props = command_schema(options)["properties"]  # nested Structs inlined: no $ref left to look up
    console.print(f"[bold]{rules.id}[/] options:", highlight=False)
    for name, p in props.items():
        console.print(f"  {name}: {json.dumps(p, ensure_ascii=False)}", highlight=False, soft_wrap=True)
    console.print(f"commands: {', '.join(rules.command_names)}", highlight=False, soft_wrap=True)
    views = f"views: {', '.join(rules.views)} (umpire view, GET /games/{{id}}/views/{{view}})"
    console.print(views, highlight=False, soft_wrap=True)
    for e in rules.editions.released:  # what POST /games "edition" may pin
        changes = ", ".join(c.id for c in rules.editions.changes_in(e.version))
        line = f"edition {e.version}: {e.summary}" + (f" [{changes}]" if changes else "")
        console.print(line, highlight=False, soft_wrap=True, markup=False)


def _bundle(path: Path, code: int = 1):
    import msgspec

    from events.bundle import decode_bundle, why_not

    raw = _read(path, code)
    try:
        return decode_bundle(raw)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError) as e:
        raise fail(f"{path}: {why_not(raw, e)}", code)


@app.command()
def fork(
    bundle: Path = typer.Argument(..., help="the bundle of the game to fork"),
    at: int = typer.Option(..., "--at", help="the seq to start from: the end of a command"),
    seed: str | None = typer.Option(None, help="the fork's server seed, 64 hex (default: a fresh one)"),
    out: Path | None = typer.Option(None, help="write here instead of standard output"),
) -> None:
    """Fork a game offline: a new game's bundle (public-seed) starting from the position after event --at, carrying
    the parent's prefix so that `umpire verify` checks both."""
    import msgspec

    from domain.engine import Rejected
    from service.whatif import fork_bundle

    b = _bundle(bundle)
    if seed is not None and not (len(seed) == 64 and all(c in "0123456789abcdef" for c in seed)):
        raise fail("--seed is 64 lowercase hex characters")
    try:
        made = fork_bundle(b, at, bytes.fromhex(seed) if seed else None)
    except Rejected as e:
        raise fail(f"--at {at}: {e.detail}")
    data = msgspec.json.encode(made)
    if out:
        out.write_bytes(data)
        err.print(f"wrote {out}: game {made['game']}, a fork of {b.game} at seq {at}")
    else:
        sys.stdout.buffer.write(data)


@app.command()
def simulate(
    ruleset: str | None = typer.Argument(
        None, help="a ruleset id (`umpire rulesets`); corvette-command if none is named; with --from, the bundle's"
    ),
    games: int = typer.Option(100, min=1, help="how many games"),
    seed: int = typer.Option(1, help="the simulation seed: game i's server seed derives from it and i alone"),
    convoys: int | None = typer.Option(None, min=1, help="corvette-command: convoys per campaign (default 1)"),
    options: str = typer.Option("{}", help="game options as JSON (`umpire rulesets RULESET` lists them)"),
    as_json: bool = typer.Option(False, "--json", help="print the distribution as JSON"),
    from_bundle: Path | None = typer.Option(
        None, "--from", help="continue a real game from --at: its bundle (the odds from that position)"
    ),
    at: int | None = typer.Option(None, help="with --from, needed: the seq to continue from (the end of a command)"),
    jobs: int = typer.Option(1, min=1, help="worker processes (the result is the same for any number)"),
    dask: str | None = typer.Option(None, help="a dask.distributed scheduler address to spread the games over"),
    plot: Path | None = typer.Option(None, help="with --from: draw the histograms to this PNG"),
    progress_lines: bool = PROGRESS,
) -> None:
    """Play N games with the ruleset's bot and print the distribution of what the ruleset reports. With --from and
    --at, the games continue a real game from that position and the real outcome is marked with its percentile."""
    import msgspec

    from domain.engine import Rejected, decode_options
    from service.rulesets import RULESETS
    from service.simulate import categories, outcomes, play, seed_for, shares_line, summarize

    if ruleset is not None and ruleset not in RULESETS:
        raise fail(f"no ruleset {ruleset!r}; `umpire rulesets` lists {sorted(RULESETS)}")
    if from_bundle is not None or at is not None or plot is not None:
        return _odds(ruleset, from_bundle, at, games, seed, jobs, dask, plot, as_json, options, convoys, progress_lines)
    ruleset = ruleset or "corvette-command"
    try:
        opts = json.loads(options)
    except ValueError as e:
        raise fail(f"--options is not JSON: {e}")
    if not isinstance(opts, dict):
        raise fail('--options is a JSON object, e.g. \'{"year": 1942}\'')
    if convoys is not None:
        if ruleset != "corvette-command":
            raise fail("--convoys is for corvette-command; use --options for other rulesets")
        if "convoys" in opts or "quick_play" in opts:
            raise fail("give the number of convoys once: --convoys or --options '{\"convoys\": …}', not both")
        opts["convoys"] = convoys
    elif ruleset == "corvette-command" and "convoys" not in opts and "quick_play" not in opts:
        opts["convoys"] = 1
    loaded = RULESETS[ruleset]
    try:
        decode_options(loaded.ruleset, opts)
    except Rejected as e:
        raise fail(f"--options: {e.detail.split('. See')[0]}; `umpire rulesets {ruleset}` lists the options")
    results = []
    labels: dict[str, dict[int, str]] = {}
    started = time.perf_counter()
    with Progress(ruleset, games, quiet=as_json, lines=progress_lines) as progress:
        for i in range(games):
            try:
                game = play(ruleset, opts, seed_for(seed, i), game_id=f"sim-{seed}-{i}")
            except Rejected as e:
                raise fail(f"--options: {e.detail}")
            results.append(outcomes(game))
            labels = labels or categories(game)
            progress(i + 1)
    elapsed = time.perf_counter() - started
    summary = summarize(results, labels)
    if as_json:
        doc = {"ruleset": ruleset, "games": games, "seed": seed, "options": opts, "figures": summary}
        sys.stdout.write(msgspec.json.encode(doc).decode() + "\n")
        return
    table = console.table(f"{games} games of {ruleset}, seed {seed}", min(console.width, 110))
    table.add_column("figure", overflow="fold")
    for col in QUANTITY_COLUMNS:
        table.add_column(col, justify="right")
    for name, q in summary.items():
        if "shares" not in q:
            table.add_row(name, *quantity_cells(q))
    console.print(table)
    for name, q in summary.items():
        if "shares" in q:
            console.print(shares_line(name, q["shares"]), highlight=False)
    console.print(f"options {json.dumps(opts)}; {games} games, {games / elapsed:,.1f} games/s on one core", highlight=False)


# a quantity's columns in both simulate tables (a category is a line of shares below the table)
QUANTITY_COLUMNS = ("mean", "95% interval", "p5", "p25", "median", "p75", "p95")


def quantity_cells(q: dict[str, Any]) -> list[str]:
    """A quantity's cells under QUANTITY_COLUMNS, from its figure (service/simulate.py `summarize`): the mean, the
    mean's 95% interval, the percentiles."""
    lo, hi = q["ci95"]
    return [f"{q['mean']:,.1f}", f"{lo:,.1f}–{hi:,.1f}", *(f"{q[k]:,.0f}" for k in ("p5", "p25", "median", "p75", "p95"))]


def _odds(ruleset, from_bundle, at, games, seed, jobs, dask, plot, as_json, options, convoys, lines=False) -> None:
    """`umpire simulate --from BUNDLE --at SEQ`: the odds from a position of a real game."""
    import msgspec

    from domain.engine import Rejected
    from service.whatif import odds
    from service.whatif import plot as draw

    if from_bundle is None or at is None:
        raise fail("--from BUNDLE and --at SEQ go together (and --plot needs them)")
    if options != "{}" or convoys is not None:
        raise fail("--options and --convoys are for fresh games; a continuation keeps the real game's options")
    b = _bundle(from_bundle)
    if ruleset is not None and b.ruleset.id != ruleset:
        raise fail(f"{from_bundle} is a game of {b.ruleset.id}, not {ruleset}: name no ruleset, or its own")
    ruleset = b.ruleset.id
    executor = _executor(jobs, dask)
    try:
        with Progress(f"{ruleset} from seq {at}", games, quiet=as_json, lines=lines) as progress:
            result = odds(b, at, games, seed, executor, progress)
    except Rejected as e:
        raise fail(f"--at {at}: {e.detail}")
    finally:
        if executor is not None:
            executor.shutdown()
    if plot is not None:
        draw(result, str(plot))
        err.print(f"wrote {plot}")
    if as_json:
        sys.stdout.write(msgspec.json.encode(result).decode() + "\n")
        return
    title = f"{games} continuations of {b.game} from seq {at} (seed {seed})"
    table = console.table(title, min(console.width, 120))
    table.add_column("figure", overflow="fold")
    for col in (*QUANTITY_COLUMNS, "real", "pct"):
        table.add_column(col, justify="right")
    for name, f in result["figures"].items():
        if "shares" in f:
            continue
        real = "-" if f["actual"] is None else f"{f['actual']:,}"
        pct = "-" if f["percentile"] is None else f"{f['percentile']:.0f}"
        table.add_row(name, *quantity_cells(f), real, pct)
    console.print(table)
    from service.simulate import shares_line

    for name, f in result["figures"].items():
        if "shares" in f:
            real = "" if f.get("actual_label") is None else f" (the real game: {f['actual_label']})"
            console.print(shares_line(name, f["shares"]) + real, highlight=False)
    if not result["finished"]:
        console.print("the real game is not over: 'real' is where it stands now", highlight=False)


def _executor(jobs: int, dask: str | None):
    """None (in this process), a process pool, or a dask cluster's executor: the same answer from each."""
    if dask is not None:
        try:
            from dask.distributed import Client
        except ImportError:
            raise fail("--dask needs dask.distributed: pip install 'naval-umpire[dask]'")
        return Client(dask).get_executor()
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        return ProcessPoolExecutor(max_workers=jobs)
    return None


if __name__ == "__main__":
    app()
