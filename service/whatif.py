"""What-if: a game forked offline from a bundle, and the odds from any position (`umpire fork`, `umpire simulate
--from`, `POST /games/{id}/odds`).

The odds from a position are N continuations played by the ruleset's bot, continuation i rolling from a fresh seed that
depends only on the simulation seed and i: so the answer is the same however the games are spread over workers (one
process, a process pool with `--jobs`, or a dask cluster with `--dask`).
"""

from __future__ import annotations

import math
import re
import secrets
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor
from itertools import islice
from typing import Any

import msgspec

from domain import engine
from domain.dice import EMPTY_CLIENT_SEED, Dice
from domain.engine import Game, InvalidInput, Rejected
from events.bodies import body_of
from events.bundle import Bundle, decode_bundle, envelope
from events.canonical import GENESIS_HASH, canonical, chain_hash
from events.core import GameCreated, ParentRef, as_genesis
from events.store import JobRow
from service import ENGINE_VERSION
from service.credentials import NotFound
from service.http import TooMany
from service.replay import SeedLookup, fold_bundle, verify
from service.rulesets import RULESETS, Loaded, loaded_for, serve_the_same, what_a_worker_serves
from service.simulate import categories, outcomes, play_on, seed_for, summarize
from service.snapshots import restore_snapshot, take_snapshot

JOB_ID_RE = re.compile(r"j-[0-9a-f]{16}")  # what a job's id looks like: what `start` makes


# ---- positions ----


def refuse_unverified(b: Bundle, rulesets: Mapping[str, Loaded] = RULESETS, seed_lookup: SeedLookup | None = None) -> None:
    """A what-if starts only from a record that passes `umpire verify`'s checks (chain, dice where the seed is known,
    sealed records, replay): a forgery, a recomputed chain included, is refused naming its first failing seq. A
    bundle whose seed is secret replays only where this server holds its log (`seed_lookup`); elsewhere the checks
    that can run must pass."""
    report = verify(b, seed_lookup, rulesets)
    if report["verdict"] != "failed":
        return
    name, check = next((k, c) for k, c in report["checks"].items() if c["status"] == "fail")
    seq = check.get("first_bad_seq")
    where = f" at seq {seq}" if seq else ""
    raise InvalidInput(
        "bundle-unverified",
        f"the bundle of {b.game} fails verification ({name}{where}: {check['detail']}); a what-if starts only from "
        "a record that verifies (`umpire verify` says what is wrong)",
        first_bad_seq=seq,
    )


def command_ends(b: Bundle) -> list[int]:
    return sorted(c.seqs[1] for c in b.commands)


def position(b: Bundle, at: int, rulesets: Mapping[str, Loaded] = RULESETS, known_seals: bool = False) -> Game:
    """The game after event `at` of a bundle: the end of a command, folded with `rulesets` (the service's; by
    default those service/rulesets.py serves). A sealed record still closed there is refused, unless `known_seals`
    (the odds, which play on in memory and write no bundle) and the bundle opens it later (a finished game opens
    every seal): then its content is the one the bundle reveals, and the rules open it when the continuation comes
    to it, as they did in the real game."""
    check_at(b, at)
    closed = closed_seals(b, at)
    if known_seals:
        closed = [seq for seq in closed if seq in closed_seals(b, len(b.events))]  # those never opened in the bundle
    if closed:  # before folding: a public bundle has no sealed content to fold them with
        raise Rejected("fork-sealed", sealed_refusal(b, at, closed, odds=known_seals))
    return fold_bundle(b, upto=at, rulesets=rulesets)


def open_positions(b: Bundle) -> list[int]:
    """The command ends of a bundle at which no sealed record is closed: where a fork may start."""
    ends = set(command_ends(b))
    return [seq for seq, closed in _seals(b) if seq in ends and not closed]


def sealed_refusal(b: Bundle, at: int, closed: list[int], odds: bool = False) -> str:
    """What a 409 `fork-sealed` says: which records are closed, and where a fork (or the odds) can start instead.
    Every position it names is one that can be taken: some rulesets (battlefleet-1900) keep records sealed until the
    game ends, so between its start and its end no position can be forked, and the detail says so."""
    over = any(e.body["type"] == "GameEnded" for e in b.events)
    head = f"at seq {at} sealed records are still closed (seqs {closed})"
    if odds:
        return (
            f"{head} and this game's log does not open them yet, so the public odds cannot run there: they run from a "
            "position whose seals the log opens later (every position of a finished game: its end opens every seal). "
            "A seat's own odds run from here while the game is played: POST /games/{id}/odds with that seat's token"
        )
    opens = open_positions(b)
    before = [p for p in opens if p < at]
    after = [p for p in opens if p > at]
    where = f"the nearest positions with every seal open are seq {before[-1]}" if before else ""
    if after:
        where += f" and seq {after[0]}" if where else f"the nearest position with every seal open is seq {after[0]}"
    elif not over:
        where += (" (none later yet: " if where else "no later position has every seal open yet (") + (
            "one comes only once the game opens every record closed here, which some rulesets, battlefleet-1900's "
            "`start` and `give_orders`, do only at its end)"
        )
    else:
        where += " (none later)" if where else "no position of this game has every seal open"
    return (
        f"{head}: a fork would show them to its seats, so it starts only where every seal is open; {where}. The odds "
        "(POST /games/{id}/odds, umpire simulate --from) run from any position of a finished game, and from here "
        "with a seat's token while the game is played"
    )


def check_at(b: Bundle, at: int) -> None:
    """422 unless `at` is a seq of the bundle that ends a command."""
    ends = command_ends(b)
    if not 1 <= at <= len(b.events):
        raise InvalidInput("invalid-at", f"at is a seq of the game (of its bundle), from 1 to {len(b.events)}")
    if at not in ends:
        before = max((x for x in ends if x < at), default=None)
        after = min((x for x in ends if x > at), default=None)
        raise InvalidInput(
            "invalid-at", f"seq {at} is in the middle of a command's events; take a command's end: {before} or {after}"
        )


def closed_seals(b: Bundle, at: int) -> list[int]:
    """The seqs of the sealed records the first `at` events leave closed (none opened by a SubmissionsRevealed)."""
    closed: set[int] = set()
    for _, closed in islice(_seals(b), at):
        pass
    return sorted(closed)


def _seals(b: Bundle) -> Iterator[tuple[int, set[int]]]:
    """After each event of a bundle: its seq, and the seqs of the sealed records still closed (one set, updated)."""
    closed: set[int] = set()
    for e in b.events:
        if e.body["type"] == "SubmissionSealed":
            closed.add(e.body["seq"])
        elif e.body["type"] == "SubmissionsRevealed":
            closed -= {entry["seq"] for entry in e.body["data"].get("entries", [])}
        yield e.body["seq"], closed


def prefix(b: Bundle, at: int) -> dict[str, Any]:
    """A bundle of the first `at` events of a game: what a fork carries of its parent."""
    out = msgspec.to_builtins(b)
    out["events"] = out["events"][:at]
    out["commands"] = [c for c in out["commands"] if c["seqs"][1] <= at]
    out["head"] = out["events"][-1]["hash"]
    return out


def fork_bundle(
    b: Bundle,
    at: int,
    server_seed: bytes | None = None,
    fork_id: str | None = None,
    rulesets: Mapping[str, Loaded] = RULESETS,
) -> dict[str, Any]:
    """`umpire fork`: a new game (public-seed: whoever holds the bundle holds the seed) starting from a bundle's
    position, as a bundle of its own whose `parent` is the prefix it starts from; only from a bundle that verifies."""
    refuse_unverified(b, rulesets)
    base = position(b, at, rulesets)
    seed = server_seed or secrets.token_bytes(32)
    fork_id = fork_id or "fork-" + secrets.token_hex(6)
    ref = ParentRef(game=b.game, seq=at, hash=b.events[at - 1].hash)
    evs = engine.fork_events(base, ref, fork_id, "public-seed", seed)
    head, events = GENESIS_HASH, []
    for seq, e in enumerate(evs, start=1):
        body = body_of(fork_id, seq, e, "create")
        head = chain_hash(head, body)
        events.append({"body": body, "hash": head.hex()})
    created: GameCreated = evs[0]  # type: ignore[assignment]
    payload = {
        "type": "fork_game",
        "parent": msgspec.to_builtins(ref),
        "dice": {"mode": "public-seed", "client_seeds": {}, "beacon": None},
    }
    dice = {
        "scheme": created.dice.scheme,
        "mode": "public-seed",
        "server_commit": created.dice.server_commit,
        "server_seed": seed.hex(),
        "client_seeds": [EMPTY_CLIENT_SEED] * len(created.seats),
        "beacon": None,
    }
    commands = [{"command_id": "create", "seat": "creator", "payload": payload, "seqs": [1, len(evs)]}]
    ruleset = msgspec.to_builtins(b.ruleset)
    return envelope(ENGINE_VERSION, ruleset, fork_id, dice, commands, events, head.hex(), prefix(b, at))


# ---- continuations ----


def continuations(
    state: bytes,
    genesis: dict[str, Any],
    seed: int,
    indices: list[int],
    serves: tuple[list[str], dict[str, tuple[str, Any, str]]] | None = None,
    seat: str | None = None,
) -> list[dict[str, int]]:
    """Play continuations `indices` from a position (a snapshot of its Game): each a fork of the position with the
    public seed seed_for(seed, i), played to the end by the bot. Runs in a worker process: its inputs are plain, the
    rulesets too (`serves`: service/rulesets.py what_a_worker_serves; None: those service/rulesets.py serves).
    `seat`: the position is that seat's picture (engine.as_seen_by), and each continuation first draws again what
    the seat could not read (`Ruleset.redraw`) from its own seed."""
    created = msgspec.convert(genesis, GameCreated)
    loaded = loaded_for(serve_the_same(*serves) if serves else RULESETS, created.ruleset.id)
    results = []
    for i in indices:
        blank = loaded.start("whatif", created)
        game = restore_snapshot(state, blank)
        if game is None:
            raise RuntimeError("the position does not load in this worker")
        server_seed = seed_for(seed, i)
        ref = ParentRef(game=game.game_id, seq=game.version, hash="0" * 64)
        fork = engine.fork_events(game, ref, f"whatif-{seed}-{i}", "public-seed", server_seed, keep_sealed=True)
        game = engine.start_fork(game, f"whatif-{seed}-{i}", as_genesis(fork[0]))
        if seat is not None and loaded.ruleset.redraw is not None:
            loaded.ruleset.redraw(game.state, seat, Dice(server_seed, 0).keyed)
        results.append(outcomes(play_on(game, server_seed)))
    return results


def odds(
    b: Bundle,
    at: int,
    games: int,
    seed: int,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
    chunk: int | None = None,
    rulesets: Mapping[str, Loaded] = RULESETS,
    seed_lookup: SeedLookup | None = None,
) -> dict[str, Any]:
    """The distribution of what the ruleset reports over `games` continuations from event `at`, with where the real
    game's outcome falls in it (its percentile), figure by figure; the games are played with `rulesets` (the
    service's; by default those service/rulesets.py serves), in the workers too; only from a bundle that verifies
    (`seed_lookup`: the server's own record, for a game whose seed is secret)."""
    refuse_unverified(b, rulesets, seed_lookup)
    game = position(b, at, rulesets, known_seals=True)
    results = play_from(game, games, seed, executor, progress, chunk, rulesets)
    return answer(fold_bundle(b, rulesets=rulesets), at, games, seed, results)


def answer(actual: Game, at: int, games: int, seed: int, results: list[dict[str, int]]) -> dict[str, Any]:
    """The odds as every answer gives them: the continuations' figures against the real game (`actual`, where it
    stands now if it is not over)."""
    return {
        "ruleset": msgspec.to_builtins(actual.created.ruleset),  # the one shape of a ruleset in every answer
        "game": actual.game_id,
        "at": at,
        "games": games,
        "seed": seed,
        "finished": actual.over,
        "figures": summarize(results, categories(actual), outcomes(actual)),
    }


def play_from(
    game: Game,
    games: int,
    seed: int,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
    chunk: int | None = None,
    rulesets: Mapping[str, Loaded] = RULESETS,
    seat: str | None = None,
) -> list[dict[str, int]]:
    """Each continuation's figures, in index order: `games` forks of `game` played to the end by the bot, in this
    process or spread over `executor` in chunks (the same answer either way); `seat`: `game` is that seat's picture
    (see `continuations`)."""
    serves = what_a_worker_serves(rulesets)
    state, genesis = take_snapshot(game), msgspec.to_builtins(game.created)
    chunk = chunk or max(1, min(50, math.ceil(games / 16)))
    parts = [list(range(lo, min(lo + chunk, games))) for lo in range(0, games, chunk)]
    results: list[dict[str, int]] = []
    if executor is None:
        for part in parts:
            results += continuations(state, genesis, seed, part, serves, seat)
            if progress:
                progress(len(results))
    else:
        futures = [executor.submit(continuations, state, genesis, seed, part, serves, seat) for part in parts]
        for f in futures:  # in index order, whatever order they finish in
            results += f.result()
            if progress:
                progress(len(results))
    return results


def seat_odds(
    game: Game,
    head: Game,
    seat: str,
    at: int,
    games: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    rulesets: Mapping[str, Loaded] = RULESETS,
) -> dict[str, Any]:
    """A seat's own odds in a game not yet over (issue 36): from `game` (the game after event `at`) as
    the seat may picture it (engine.as_seen_by: what it may read, the rest re-drawn), with the real game as the seat
    sees it now (`head`) to mark. Two games alike in all the seat may read give the same answer."""
    rules = game.ruleset
    if rules is None or rules.bot is None or rules.outcomes is None:
        raise Rejected("no-bot", f"{game.created.ruleset.id} has no bot to play the continuations")
    results = play_from(engine.as_seen_by(game, seat), games, seed, progress=progress, rulesets=rulesets, seat=seat)
    return answer(engine.as_seen_by(head, seat), at, games, seed, results) | {"as_seat": seat, "redrawn": rules.redrawn}


def plot(result: dict[str, Any], path: str) -> None:
    """One panel per figure: a quantity's histogram with the real value marked and its percentile, a category's
    shares with the real game's category marked (matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    figs = [(n, f) for n, f in result["figures"].items() if f.get("histogram") or f.get("shares")]
    cols = 2 if len(figs) > 1 else 1
    rows = math.ceil(len(figs) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(6 * cols, 3.2 * rows), squeeze=False)
    for ax, (name, f) in zip(axes.flat, figs):
        if "shares" in f:  # a category: its codes have no order, so bars by name, no axis of values
            labels = list(f["shares"])
            colours = ["#c0392b" if label == f.get("actual_label") else "#4a6fa5" for label in labels]
            ax.bar(labels, list(f["shares"].values()), color=colours)
            ax.set_title(name if f.get("actual_label") is None else f"{name}: real {f['actual_label']}", fontsize=10)
            ax.set_ylabel("% of games")
            continue
        centres = [(h["lo"] + h["hi"]) / 2 for h in f["histogram"]]
        width = f["histogram"][0]["hi"] - f["histogram"][0]["lo"] + 1
        ax.bar(centres, [h["count"] for h in f["histogram"]], width=width * 0.9, color="#4a6fa5")
        if f["actual"] is not None:
            ax.axvline(f["actual"], color="#c0392b", linewidth=2)
            ax.set_title(f"{name}: real {f['actual']:,} (percentile {f['percentile']})", fontsize=10)
        else:
            ax.set_title(name, fontsize=10)
        ax.set_ylabel("games")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # every figure counts something: no 0.75 of a convoy
    for ax in list(axes.flat)[len(figs) :]:
        ax.axis("off")
    fig.suptitle(f"{result['games']} continuations of {result['game']} from event {result['at']}", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ---- the odds as a bounded job of the API ----


class OddsJobs:
    """`POST /games/{id}/odds`: continuations run in a background thread, one job at a time per process (429
    beyond), at most MAX_API_GAMES games; progress and result are kept in the store, so any process can report them."""

    LOST_AFTER = 120  # seconds without progress after which a running job is reported lost (its process died)

    def __init__(self, svc):
        self.svc = svc
        self._busy = threading.Semaphore(1)

    def start(self, game_id: str, at: int, games: int, seed: int, seat: str | None = None) -> dict[str, Any]:
        """`seat`: who asks (a token's seat, else None). A seat of a game not yet over gets its own odds
        (`seat_odds`: from what it may read, the rest re-drawn), readable by it alone; everyone else, and everyone
        once the game is over (its end opens every seal), the public picture's, from the bundle anyone may fork."""
        bundle = decode_bundle(self.svc.bundles.bundle_bytes(game_id))  # the public picture: what anyone may fork
        own: tuple[Game, Game] | None = None
        head = self.svc.cache.load(game_id).game if seat is not None and seat != engine.REFEREE else None
        if seat is not None and head is not None and not head.over:  # over: every seal is open, the public picture
            check_at(bundle, at)
            own = (self.svc.cache.load(game_id, upto=at).game, head)
            rules = head.ruleset
        else:
            seat = None
            rules = position(bundle, at, self.svc.rulesets, known_seals=True).ruleset  # mid-command, closed: refused
        if rules is None or rules.bot is None or rules.outcomes is None:  # refused here, not as a job that fails
            raise Rejected(
                "no-bot",
                f"{bundle.ruleset.id} has no bot to play continuations (or reports no figures), so this server computes "
                "no odds for its games; a fork (POST /games/{id}/forks) plays a position on by hand",
            )
        if not self._busy.acquire(blocking=False):
            raise TooMany(
                "too-many-requests", "this server is computing other odds; retry in a few seconds", retry_after=10
            )
        try:
            stamp = self.svc.clock()
            job = JobRow(
                id="j-" + secrets.token_hex(8),
                game=game_id,
                kind="odds",
                params=canonical({"at": at, "games": games, "seed": seed, **({"as_seat": seat} if seat else {})}).decode(),
                status="running",
                done=0,
                total=games,
                result=None,
                created_at=stamp,
                updated_at=stamp,
            )
            self.svc.store.create_job(job)
            threading.Thread(target=self._run, args=(job, bundle, at, games, seed, seat, own), daemon=True).start()
        except BaseException:
            self._busy.release()
            raise
        return self.out(job)

    def _run(
        self, job: JobRow, bundle: Bundle, at: int, games: int, seed: int, seat: str | None, own: tuple[Game, Game] | None
    ) -> None:
        store, clock = self.svc.store, self.svc.clock
        key = job_key(job.id)  # its streams wake on this (service/notify.py)

        def progress(done: int) -> None:
            store.update_job(job.id, "running", done, None, clock())
            self.svc.notifier.appended(key)

        try:
            if seat is not None and own is not None:
                result = seat_odds(*own, seat, at, games, seed, progress=progress, rulesets=self.svc.rulesets)
            else:
                result = odds(
                    bundle,
                    at,
                    games,
                    seed,
                    progress=progress,
                    rulesets=self.svc.rulesets,
                    seed_lookup=self.svc.bundles.server_inputs_if_stored,  # the store's log, checked as any upload is
                )
            status, done, out = "done", games, msgspec.json.encode(result).decode()
        except Exception as e:  # noqa: BLE001 - the job reports what went wrong instead of dying unseen
            status, done, out = "failed", 0, msgspec.json.encode({"error": str(e)}).decode()
        finally:
            # free before the job reads as ended: a client that starts the next job when it sees this one end is
            # never told 429 because this thread had not yet got this far
            self._busy.release()
        try:
            store.update_job(job.id, status, done, out, clock())
        finally:
            self.svc.notifier.appended(key)

    def get(self, job_id: str, token: str | None = None) -> dict[str, Any]:
        """A job, to anyone who has its id; a seat's own odds only with that seat's token (404 to anyone else: its
        figures come from what that seat alone may read). An id no job could have is a job not here, as an unknown
        one is: one answer for every id that names none."""
        formed = JOB_ID_RE.fullmatch(job_id) is not None
        job = self.svc.store.job(job_id) if formed else None
        owner = msgspec.json.decode(job.params).get("as_seat") if job is not None else None
        if job is None or (owner is not None and (token is None or self._seat_of(job.game, token) != owner)):
            shown = repr(job_id) if formed else "with this id"  # not an echo of whatever a path held
            raise NotFound(
                "unknown-job",
                f"no job {shown} here: a job's id is the `job_id` POST /games/{{id}}/odds answered (`j-` and 16 hex "
                "digits), and a seat's own odds are read with that seat's token",
            )
        return self.out(job)

    def _seat_of(self, game_id: str, token: str) -> str | None:
        try:
            return self.svc.credentials.seat_for(game_id, token)
        except Rejected:
            return None

    def out(self, job: JobRow) -> dict[str, Any]:
        params = msgspec.json.decode(job.params)
        status = job.status
        if status == "running" and _age(job.updated_at) > self.LOST_AFTER:
            status = "lost"
        result = msgspec.json.decode(job.result) if job.result and status == "done" else None
        error = msgspec.json.decode(job.result).get("error") if job.result and status == "failed" else None
        return {
            "job_id": job.id,
            "game_id": job.game,
            "at": params["at"],
            "games": params["games"],
            "seed": params["seed"],
            "status": status,
            "done": job.done,
            "result": result,
            "error": error,
            "stream": f"/jobs/{job.id}/stream",
        }


def _age(stamp: str) -> float:
    from datetime import UTC, datetime

    then = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return (datetime.now(UTC) - then).total_seconds()


def job_key(job_id: str) -> str:
    """The notifier's key for a job's stream (no game id has a colon)."""
    return "job:" + job_id
