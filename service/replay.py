"""Bundle verification (spec/EVENTS.md): the chain, the dice and the replay, each reported on its own.

Used by `POST /bundles/verify`, `umpire verify` and `umpire replay`; it needs the rules, so it lives here.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import msgspec

from domain import engine
from domain.dice import commitment, faces_for, game_seed, sealing_salt
from domain.editions import Editions, major
from domain.engine import REFEREE, Game, InvalidInput, Rejected
from events.bodies import body_of, event_from_body
from events.bundle import Bundle, BundleCommand, body_data, decode_bundle, why_not
from events.canonical import canonical, first_broken_link, holds_float
from events.core import SubmissionSealed, as_genesis
from events.vocabulary import Event
from service.payloads import CORE_PAYLOADS, CREATOR, command_kind, creation_events_for
from service.rulesets import RULESETS, Loaded, loaded_for

# (game, seq, hash at seq) -> (server seed, this server's record of each command up to seq by command id: seat,
# payload, seqs, sealed), for a bundle that is a prefix of this server's log of that game
SeedLookup = Callable[[str, int, str], tuple[bytes, dict[str, dict[str, Any]]] | None]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _seqs(seqs: list[int]) -> str:
    """Ascending seqs as runs, "seqs 3–4, 20, 23–40" ("seq 3" for one): a game's 88 sealed records made one
    500-character line of a list."""
    runs: list[list[int]] = []
    for seq in seqs:
        if runs and seq == runs[-1][1] + 1:
            runs[-1][1] = seq
        else:
            runs.append([seq, seq])
    return ("seq " if len(seqs) == 1 else "seqs ") + ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def _check(status: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"status": status, "detail": detail, **extra}


def verify_chain(b: Bundle) -> dict[str, Any]:
    bad, head = first_broken_link((e.body, e.hash) for e in b.events)
    if bad is not None:
        why = "its body or hash was changed, dropped or moved"
        if bad <= len(b.events) and holds_float(b.events[bad - 1].body):
            why = "its body holds a number with a fraction or an exponent, which no event may (integers only)"
        return _check("fail", f"event seq {bad} does not verify: {why}", first_bad_seq=bad)
    wrong_game = next((e.body["seq"] for e in b.events if e.body.get("game") != b.game), None)
    if wrong_game is not None:
        return _check("fail", f"event seq {wrong_game} belongs to another game", first_bad_seq=wrong_game)
    if head != b.head:
        return _check(
            "fail",
            f"the bundle's head is not its last event's hash: head {b.head}, last event's hash {head}",
            first_bad_seq=len(b.events),
        )
    if not b.events:
        return _check("fail", "the bundle has no events", first_bad_seq=1)
    genesis = body_data(b.events[0].body)
    dice = genesis.get("dice")
    dice = dice if isinstance(dice, dict) else {}
    said = {
        "ruleset": msgspec.to_builtins(b.ruleset),
        "dice.mode": b.dice.mode,
        "dice.scheme": b.dice.scheme,
        "dice.server_commit": b.dice.server_commit,
        "dice.beacon": b.dice.beacon,
    }
    logged = {
        "ruleset": genesis.get("ruleset"),
        **{f"dice.{k}": dice.get(k) for k in ("mode", "scheme", "server_commit", "beacon")},
    }
    wrong = [k for k in said if said[k] != logged[k]]
    if b.events[0].body.get("type") != "GameCreated":
        return _check("fail", "the bundle's first event is not its GameCreated", first_bad_seq=1)
    if wrong:
        told = "; ".join(f"the header's {k} {_shown(said[k])}, GameCreated's {_shown(logged[k])}" for k in wrong)
        differs = f"the bundle's header differs from what GameCreated (seq 1) records: {told}"
        return _check("fail", differs, first_bad_seq=1)
    unmade = _commands_against_events(b)
    if unmade is not None:
        detail, seq = unmade
        return _check("fail", detail, first_bad_seq=seq)
    n, chains = len(b.events), "chains" if len(b.events) == 1 else "chain"
    listed = (
        f"{len(b.commands)} commands are those the events name, each over the seqs it made"
        if len(b.commands) != 1
        else "1 command is the one the event names, over the seq it made"
        if n == 1
        else "1 command is the one the events name, over the seqs it made"
    )
    return _check(
        "pass",
        f"{_count(n, 'event')} {chains} to head {head}; the bundle's header matches the genesis; its {listed}",
        first_bad_seq=None,
        events=len(b.events),
    )


def _commands_against_events(b: Bundle) -> tuple[str, int] | None:
    """The command list is not chained, but each event's body names the command that made it: the list must be those
    commands, once each, in order, each over the seqs its events hold, together every seq (spec/EVENTS.md "Commands
    are recorded too"). Checked without the seed, so a command dropped, moved, added or given other seqs in the
    bundle of an unrevealed game is named before any replay can run. (A command's payload is checked by the replay.)"""
    expected = 1
    seen: set[str] = set()
    for cmd in b.commands:
        first, last = cmd.seqs
        if cmd.command_id in seen:
            return f"command {cmd.command_id} is listed twice", first
        seen.add(cmd.command_id)
        if first != expected or last < first:
            return (
                f"command {cmd.command_id} gives seqs {first}-{last}, but the commands before it end at seq "
                f"{expected - 1}: a command was dropped, added or moved, or its seqs changed",
                min(first, expected),
            )
        if last > len(b.events):
            return (
                f"command {cmd.command_id} gives seqs {first}-{last}, past the last event (seq {len(b.events)}): "
                "no event of this bundle was made by it",
                first,
            )
        for e in b.events[first - 1 : last]:
            if e.body.get("command") != cmd.command_id:
                seq = e.body.get("seq")
                return (
                    f"event seq {seq} was made by command {e.body.get('command')}, not by {cmd.command_id}, whose "
                    f"seqs {first}-{last} the list gives: the command list was changed",
                    seq if isinstance(seq, int) else first,
                )
        expected = last + 1
    if expected - 1 != len(b.events):
        seq = expected
        name = b.events[seq - 1].body.get("command") if seq <= len(b.events) else None
        return f"event seq {seq} was made by command {name}, which the command list lacks", seq
    return None


def _lock_event(b: Bundle) -> dict[str, Any] | None:
    return next((e.body for e in b.events if e.body.get("type") == "SeedLocked"), None)


def first_k(b: Bundle) -> int:
    """The first roll number of a game: 0, or for a fork the parent's next roll at the fork's seq."""
    if b.parent is None:
        return 0
    return first_k(b.parent) + sum(1 for e in b.parent.events if e.body.get("type") == "DiceRolled")


def logged_seed(b: Bundle) -> tuple[Any, int | None]:
    """The server seed the log's `ServerSeedRevealed` records, and its seq; (None, None) without one. Public once
    revealed, and hash-chained, unlike the header's `dice.server_seed`."""
    for e in b.events:
        if e.body.get("type") == "ServerSeedRevealed":
            data = e.body.get("data")
            return (data.get("server_seed") if isinstance(data, dict) else None), e.body.get("seq")
    return None, None


def with_logged_seed(b: Bundle) -> tuple[Bundle, int | None]:
    """`b` with the seed its own log reveals in the header's place, when the header leaves `dice.server_seed` null
    (the seq it came from; None when nothing was taken). The chain, the commit and every roll are then checked with it,
    as with a header's: a header is an unchained copy of what the log says. A header that carries one is compared
    with the log's in `verify_dice`. Nothing of the server's is read."""
    seed, seq = logged_seed(b)
    if b.dice.server_seed is not None or not isinstance(seed, str):
        return b, None
    return msgspec.structs.replace(b, dice=msgspec.structs.replace(b.dice, server_seed=seed)), seq


def _which_changed(b: Bundle, kind: str) -> str:
    """Which side of a header-vs-log difference was changed, as the end of the sentence that names the difference: the
    log, where its events do not chain up to the first of type `kind` (the event the header's unchained copy is
    compared with; the chain check names the same seq), else most likely the header."""
    upto = next((i for i, e in enumerate(b.events, start=1) if e.body.get("type") == kind), len(b.events))
    bad, _ = first_broken_link((e.body, e.hash) for e in b.events[:upto])
    if bad is not None:
        return f", and the log was changed: its event seq {bad} does not verify (the chain check names it)"
    return ": the chained log's is the game's, so the header was changed (or the log was)"


def _locked_differently(b: Bundle, lock: dict[str, Any]) -> str:
    """What of the header's seed inputs is not what `SeedLocked` records, field by field: each seat's client seed (in
    the genesis's seat order, as the lock lists them) and the beacon, both values of each, and which side was changed."""
    at, data, d = lock["seq"], body_data(lock), b.dice
    seats = body_data(b.events[0].body).get("seats") if b.events else None
    logged = data.get("client_seeds", _ABSENT)  # a forged lock may leave it out: said as absent, never a KeyError
    fields: list[tuple[str, Any, Any]] = []  # (what, the header's, the log's)
    if isinstance(logged, list):
        for i in range(max(len(logged), len(d.client_seeds))):
            seat = seats[i] if isinstance(seats, list) and i < len(seats) and isinstance(seats[i], str) else f"#{i}"
            mine, theirs = (x[i] if i < len(x) else _ABSENT for x in (d.client_seeds, logged))
            if mine is _ABSENT or theirs is _ABSENT or mine != theirs:
                fields.append((f"client seed of {seat}", mine, theirs))
    else:
        fields.append(("client seeds", d.client_seeds, logged))
    if data.get("beacon") != d.beacon:
        fields.append(("beacon", d.beacon, data.get("beacon")))
    seeds = [what.removeprefix("client seed of ") for what, _, _ in fields if what.startswith("client seed of ")]
    named = [what for what, _, _ in fields if not what.startswith("client seed of ")]  # the beacon first
    if seeds:
        listed = seeds[0] if len(seeds) == 1 else f"{', '.join(seeds[:-1])} and {seeds[-1]}"
        named.append(f"client seed{'s' if len(seeds) > 1 else ''} of {listed}")
    values = "; ".join(
        f"header {what} {_shown(mine)}, SeedLocked {what} at seq {at} {_shown(theirs)}" for what, mine, theirs in fields
    )
    return (
        f"the header's {' and '.join(named)} {'is' if len(fields) == 1 else 'are'} not what SeedLocked records at seq "
        f"{at}{_which_changed(b, 'SeedLocked')}: {values}"
    )


_ABSENT = object()  # a list's entry past its end


def _shown(value: Any) -> str:
    """A value of the header or the log in a check's words: a string as it is, anything else as its JSON."""
    if value is _ABSENT:
        return "(none)"
    return value if isinstance(value, str) else canonical(value).decode()


def verify_dice(b: Bundle) -> dict[str, Any]:
    """The seed inputs (the header's seed against the log's, the commit, the seeds locked), then every roll alone.
    `first_bad_k` names a roll: it is null for a failure of the seed inputs, which is no one roll's."""
    d = b.dice
    if d.scheme != "umpire1":
        return _check("fail", f"unknown dice scheme {d.scheme!r}", first_bad_k=None, first_bad_seq=None)
    if d.server_seed is None:
        return _check(
            "skipped",
            "the server seed is not revealed yet; rolls can be checked after reveal",
            first_bad_k=None,
            first_bad_seq=None,
        )
    try:
        seed = bytes.fromhex(d.server_seed)
    except ValueError:
        return _check("fail", "server_seed is not hex", first_bad_k=None, first_bad_seq=1)
    logged, at = logged_seed(b)
    if at is not None and logged != d.server_seed:
        return _check(
            "fail",
            f"the header's dice.server_seed is not the seed ServerSeedRevealed records at seq {at}"
            f"{_which_changed(b, 'ServerSeedRevealed')}: header dice.server_seed {d.server_seed}, "
            f"ServerSeedRevealed at seq {at} {logged}",
            first_bad_k=None,
            first_bad_seq=at,
        )
    if hashlib.sha256(seed).hexdigest() != d.server_commit:
        return _check(
            "fail",
            "SHA-256(server_seed) is not the server_commit published in GameCreated (seq 1)",
            first_bad_k=None,
            first_bad_seq=1,
        )
    dice = body_data(b.events[0].body).get("dice") if b.events else None
    if not isinstance(dice, dict) or dice.get("server_commit") != d.server_commit:
        return _check(
            "fail", "the commit in GameCreated is not the bundle's server_commit", first_bad_k=None, first_bad_seq=1
        )
    lock = _lock_event(b)
    if lock is not None and (
        body_data(lock).get("client_seeds", _ABSENT) != d.client_seeds or body_data(lock).get("beacon") != d.beacon
    ):
        return _check(
            "fail", _locked_differently(b, lock), first_bad_k=None, first_bad_seq=lock["seq"]
        )
    gs = game_seed(seed, b.game, d.client_seeds, d.beacon)
    first = expected_k = first_k(b)
    for e in b.events:
        body = e.body
        if body.get("type") != "DiceRolled":
            continue
        data: Any = body_data(body)  # its fields as the roll's check finds them (a forged one's sides say what is wrong)
        k, sides, faces = data.get("k"), data.get("sides"), data.get("faces")
        if k != expected_k:
            return _check(
                "fail",
                f"roll k={k} at seq {body.get('seq')}: expected k={expected_k} (k is gapless from 0)",
                first_bad_k=expected_k,
                first_bad_seq=body.get("seq"),
            )
        try:
            recomputed = faces_for(gs, k, sides)
        except (TypeError, ValueError) as e:  # sides no die has (0, -6, "6"): say so, not "the seed gives None"
            return _check(
                "fail",
                f"roll k={k} at seq {body.get('seq')}: its sides {sides!r} are not dice the scheme rolls "
                f"({e if isinstance(e, ValueError) else 'each is a whole number of sides'})",
                first_bad_k=k,
                first_bad_seq=body.get("seq"),
            )
        if recomputed != faces:
            return _check(
                "fail",
                f"roll k={k} at seq {body.get('seq')}: recorded faces {faces}, the seed gives {recomputed}",
                first_bad_k=k,
                first_bad_seq=body.get("seq"),
            )
        expected_k += 1
    # a fork's rolls go on from its parent's k: this bundle's own are those from `first`, counted as rolls, not as
    # the next k (the parent's are checked in its own part)
    rolls = expected_k - first
    numbered = f" (k {first}–{expected_k - 1})" if first and rolls else ""
    return _check(
        "pass",
        f"commit matches; game seed {gs.hex()}; {_count(rolls, 'roll')}{numbered} recomputed alone",
        first_bad_k=None,
        first_bad_seq=None,
        rolls=rolls,
        game_seed=gs.hex(),
    )


def verify_sealed(b: Bundle) -> dict[str, Any]:
    """Every revealed sealed record against its commitment (and, once the seed is known, its salt); the records
    never revealed are listed, and in a finished game they fail (spec/EVENTS.md "Sealed inputs", check 4)."""
    sealed: dict[Any, dict[str, Any]] = {}  # by the body's seq, as recorded
    opened: set[int] = set()
    seed = bytes.fromhex(b.dice.server_seed) if b.dice.server_seed and _is_hex(b.dice.server_seed) else None
    for e in b.events:
        body, data = e.body, body_data(e.body)
        if body.get("type") == "SubmissionSealed":
            sealed[body.get("seq")] = data
        elif body.get("type") == "SubmissionsRevealed":
            for entry in data.get("entries") or []:
                at = entry.get("seq")
                record = sealed.get(at)
                where = f"SubmissionsRevealed at seq {body.get('seq')} opens seq {at}"
                if record is None or at in opened:
                    return _check("fail", f"{where}: no sealed record there to open", first_bad_seq=body.get("seq"))
                if (record.get("seat"), record.get("kind")) != (entry.get("seat"), entry.get("kind")):
                    return _check("fail", f"{where}: seat or kind differ from the record's", first_bad_seq=at)
                try:
                    recomputed = commitment(entry.get("content"), entry.get("salt"))
                except (TypeError, ValueError):
                    recomputed = None
                if recomputed != record.get("commitment"):
                    return _check(
                        "fail",
                        f"{where}: its content and salt do not match the commitment made at seq {at}",
                        first_bad_seq=at,
                    )
                if seed is not None and entry.get("salt") != sealing_salt(seed, b.game, at):
                    return _check("fail", f"{where}: the salt is not the one the server seed gives", first_bad_seq=at)
                opened.add(at)
    closed = sorted(set(sealed) - opened)
    shown, wrong = _placeholders(b, sealed, set(closed))
    if wrong is not None:
        return _check("fail", wrong[0], first_bad_seq=wrong[1])
    ended = any(e.body.get("type") == "GameEnded" for e in b.events)
    if closed and ended:
        return _check(
            "fail",
            f"the game is over but sealed records at {_seqs(closed)} were never revealed",
            first_bad_seq=closed[0],
            unrevealed=closed,
        )
    if not sealed:
        return _check("pass", "no sealed records", first_bad_seq=None, revealed=0, unrevealed=[])
    detail = f"{_count(len(opened), 'sealed record')} revealed, each matching its commitment"
    if closed:
        detail += f"; {len(closed)} still sealed ({_seqs(closed)})"
    if shown:
        detail += (
            f"; the commands of {_count(len(shown), 'record')} still sealed ({_seqs(shown)}) show their content, "
            "which no one can check before the reveal gives its salt (a seat's or the referee's own copy)"
        )
    return _check("pass", detail, first_bad_seq=None, revealed=len(opened), unrevealed=closed)


def _sealed_by_command(b: Bundle, records: Mapping[Any, dict[str, Any]]) -> Iterator[tuple[BundleCommand, list[int]]]:
    """Each command of the bundle with the seqs of the sealed records among `records` (seq -> `SubmissionSealed`
    data) that it made for its own seat, in order."""
    at = sorted(s for s in records if isinstance(s, int))
    for cmd in b.commands:
        first, last = cmd.seqs
        inside = at[bisect.bisect_left(at, first) : bisect.bisect_right(at, last)]
        yield cmd, [s for s in inside if records[s].get("seat") == cmd.seat]


def _placeholders(
    b: Bundle, sealed: dict[Any, dict[str, Any]], closed: set[int]
) -> tuple[list[int], tuple[str, int] | None]:
    """A command shown as `{"sealed": <commitment>}` must show the commitment of a sealed record it made, of its seat
    (else the failure and its seq); and the records still sealed whose command shows content instead (a seat's or the
    referee's copy), which cannot be checked before the reveal."""
    shown: list[int] = []
    for cmd, mine in _sealed_by_command(b, sealed):
        first = cmd.seqs[0]
        if set(cmd.payload) == {"sealed"}:
            if not any(cmd.payload["sealed"] == sealed[at].get("commitment") for at in mine):
                at = mine[0] if mine else first
                return shown, (
                    f"command {cmd.command_id} shows {{\"sealed\": ...}} with a commitment no sealed record of its "
                    f"made (seq {at}): the command list was changed",
                    at,
                )
        else:
            shown += [at for at in mine if at in closed]
    return sorted(shown), None


def _is_hex(x: str) -> bool:
    try:
        bytes.fromhex(x)
    except ValueError:
        return False
    return True


def diff(recorded: Any, replayed: Any, path: str = "") -> list[dict[str, Any]]:
    """Where two JSON values differ, as paths."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        out = []
        for key in sorted(set(recorded) | set(replayed)):
            out += diff(recorded.get(key, "<absent>"), replayed.get(key, "<absent>"), f"{path}.{key}" if path else key)
        return out
    if isinstance(recorded, list) and isinstance(replayed, list) and len(recorded) == len(replayed):
        out = []
        for i, (a, b) in enumerate(zip(recorded, replayed)):
            out += diff(a, b, f"{path}[{i}]")
        return out
    if recorded == replayed and type(recorded) is type(replayed):
        return []
    return [{"path": path or "(body)", "recorded": recorded, "replayed": replayed}]


def opened_records(b: Bundle) -> dict[int, tuple[Any, Any]]:
    """The content and salt of each sealed record the bundle's reveals open, by the record's seq."""
    return {
        x["seq"]: (x.get("content"), x.get("salt"))
        for e in b.events
        if e.body.get("type") == "SubmissionsRevealed"
        for x in body_data(e.body).get("entries", [])
        if isinstance(x, dict) and "seq" in x  # a forged entry: the sealed check names it
    }


def with_opened(body: dict[str, Any], opened: dict[int, tuple[Any, Any]]) -> Event:
    """The event of `body`, a sealed record with its content and salt where a reveal of the bundle opens it."""
    event = event_from_body(body)
    if isinstance(event, SubmissionSealed) and body["seq"] in opened:
        event.content, event.salt = opened[body["seq"]]
    return event


def fold_bundle(b: Bundle, upto: int | None = None, rulesets: Mapping[str, Loaded] = RULESETS) -> Game:
    """A game from a bundle's events alone (no seed needed): its state after seq `upto` (default: the last). Sealed
    records get their content from the reveals in the bundle; a fork starts from its parent's bundle."""
    loaded = loaded_for(rulesets, b.ruleset.id)
    opened = opened_records(b)
    try:
        first = as_genesis(event_from_body(b.events[0].body))
        if first.parent is not None:
            if b.parent is None:
                raise Rejected("replay", f"{b.game} is a fork: its bundle needs its parent's")
            game = engine.start_fork(fold_bundle(b.parent, rulesets=rulesets), b.game, first)
        else:
            game = loaded.start(b.game, first)
        for e in b.events[1 : upto if upto is not None else None]:
            engine.evolve(game, with_opened(e.body, opened))
    except (KeyError, TypeError, ValueError, msgspec.ValidationError) as e:
        raise Rejected("replay", f"the events of {b.game} do not fold: {e}") from None
    return game


def history_of(b: Bundle, upto: int, rulesets: Mapping[str, Loaded] = RULESETS) -> Any:
    """A bundle's game's history (its ruleset's `History`: what views show of the past) at seq `upto`, folded from the
    bundle's events as the server folds it from its log (service/cache.py `history`); a fork's from its parent's."""
    kept = loaded_for(rulesets, b.ruleset.id).ruleset.history
    if kept is None:
        raise TypeError(f"{b.ruleset.id} keeps no history, yet one of its views shows it")
    history = kept.start() if b.parent is None else history_of(b.parent, len(b.parent.events), rulesets)
    opened = opened_records(b)
    for e in b.events[1:upto]:
        kept.evolve(history, with_opened(e.body, opened))
    return history


def _unrun(ruleset: str, version: str, editions: Editions) -> dict[str, Any]:
    """A bundle of an edition this engine does not run: not its fault where a newer engine runs it (skipped), or an
    edition retired in development; a version that names no edition ever made is a bundle's fault (fail)."""
    runs = f"this engine runs {', '.join(editions.run)}"
    if not re.fullmatch(r"[0-9]{1,9}\.[0-9]{1,9}\.[0-9]{1,9}", version):
        return _check("fail", f"{ruleset} {version!r} names no edition (MAJOR.MINOR.PATCH); {runs}", first_bad_seq=1)
    if major(version) in editions.retired:
        return _check(
            "skipped",
            f"this bundle plays {ruleset} {version}, an edition retired in development before the first release: "
            f"no released engine replays it ({runs})",
        )
    if int(major(version)) < int(major(editions.run[-1])):
        return _check(
            "fail", f"{ruleset} has no edition {version}: it was never made ({runs})", first_bad_seq=1
        )
    return _check(
        "skipped",
        f"this bundle plays {ruleset} {version}, an edition newer than this engine's ({runs}); an engine that runs "
        f"{ruleset} {version} replays it",
    )


def replay(
    b: Bundle,
    server_seed: bytes,
    records: dict[str, dict[str, Any]] | None = None,
    rulesets: Mapping[str, Loaded] = RULESETS,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[str, Any], Game | None]:
    """Feed the recorded commands to a fresh engine; compare every body it makes with the bundle's.

    `records`: the server's own record of the commands, when `server_seed` is its secret (the game is not revealed).
    Then only those commands run, as recorded (a sealed one with its stored payload): a command the bundle adds or
    changes is named and not run, since its outcome under the secret seed (how many events it makes, why it is
    refused) could tell a sealed order or a roll not yet in the log."""
    try:
        loaded = loaded_for(rulesets, b.ruleset.id)
    except Rejected as e:
        return _check("fail", e.detail, first_bad_seq=1), None
    genesis = body_data(b.events[0].body).get("ruleset") if b.events else None
    if genesis != msgspec.to_builtins(b.ruleset):  # the chained record is the game's; a header is only its label
        return _check(
            "fail",
            f"the bundle's header names {_shown(msgspec.to_builtins(b.ruleset))}, its GameCreated (seq 1) "
            f"{_shown(genesis)}: the header is not the recorded game's",
            first_bad_seq=1,
        ), None
    editions = loaded.ruleset.editions
    if editions.find(b.ruleset.version) is None:
        return _unrun(b.ruleset.id, b.ruleset.version, editions), None
    recorded = {e.body.get("seq"): e.body for e in b.events}
    game: Game | None = None
    seq = 0
    every = max(1, len(b.commands) // 100)  # `progress(done, total)` a hundred times at most
    for done, cmd in enumerate(b.commands):  # `done`: the command's index in the bundle's list
        if progress is not None and done % every == 0:
            progress(done, len(b.commands))
        p = cmd.payload
        if records is not None:
            stored = records.get(cmd.command_id)
            if stored is None or cmd.seqs[0] != seq + 1 or not _as_recorded(cmd, stored):
                return _check(
                    "fail",
                    f"command {cmd.command_id} is not this server's record of the game (its seat, payload or seqs "
                    "differ, it is out of its place, or it is not in the log the bundle holds); while the seed is "
                    "secret only the recorded commands are replayed, in their order",
                    first_bad_seq=seq + 1,
                ), game
            p = stored["payload"]
        if set(p) == {"sealed"}:
            return _check(
                "skipped",
                f"command {cmd.command_id} is sealed (its content is not revealed yet); the replay runs once it is",
                first_bad_seq=None,
            ), game
        try:
            core = CORE_PAYLOADS.get(str(p.get("type")))
            if core is not None:
                try:
                    typed = msgspec.convert(p, core)
                except msgspec.ValidationError as e:
                    raise Rejected("replay", f"the recorded {p.get('type')} payload is malformed: {e}")
            if p.get("type") == "create_game":
                if game is not None or cmd.seat != CREATOR or typed.ruleset != b.ruleset.id:
                    raise Rejected("replay", "one create_game, by the creator, for the bundle's ruleset, comes first")
                evs = creation_events_for(loaded, b.game, typed, server_seed, made_as=b.ruleset.version)
            elif p.get("type") == "fork_game":
                if game is not None or cmd.seat != CREATOR or b.parent is None:
                    raise Rejected("replay", "one fork_game, by the creator, with the parent's bundle, comes first")
                base = fold_bundle(b.parent, rulesets=rulesets)
                d = typed.dice
                evs = engine.fork_events(base, typed.parent, b.game, d.mode, server_seed, d.client_seeds, d.beacon)
            elif game is None:
                raise Rejected("replay", "the first command is not create_game (or fork_game)")
            elif p.get("type") == "contribute_seed":
                evs = engine.decide_seed(game, cmd.seat, typed.client_seed)
            elif p.get("type") == "reveal":
                if cmd.seat != REFEREE:
                    raise Rejected("replay", "only the referee reveals")
                evs = engine.decide_reveal(game, server_seed)
            elif p.get("type") == "end":
                if cmd.seat != REFEREE:
                    raise Rejected("replay", "only the referee ends a game")
                evs = engine.decide_end(game)
            elif p.get("type") == "deadlines":
                if cmd.seat != REFEREE:
                    raise Rejected("replay", "only the referee changes the deadlines")
                evs = engine.decide_deadlines(game, typed.turn_seconds, typed.on_expiry, typed.paused, typed.extend)
            elif p.get("type") == "deadline_expired":
                if cmd.seat != typed.seat:
                    raise Rejected(
                        "replay", "a deadline_expired is recorded as the command of the seat whose time ran out"
                    )
                then = None if typed.then is None else _parsed(loaded, typed.then)
                evs = engine.decide_expiry(game, typed.seat, typed.since, typed.action, then, server_seed)
            else:
                evs = engine.decide_command(game, cmd.seat, _parsed(loaded, p), server_seed)
        except Rejected as e:
            first, last = cmd.seqs
            made = f"seq {first}" if first == last else f"seqs {first}-{last}"
            return _check(
                "fail",
                f"the bundle's commands[{done}], {cmd.command_id} ({p.get('type')} by {cmd.seat}), which the bundle "
                f"records as making {made}, is rejected on replay: {e.detail}",
                first_bad_seq=seq + 1,
            ), game
        if cmd.seqs != [seq + 1, seq + len(evs)]:
            return _check(
                "fail",
                f"command {cmd.command_id} records seqs {cmd.seqs}; the replay makes {[seq + 1, seq + len(evs)]}",
                first_bad_seq=seq + 1,
            ), game
        for event in evs:
            seq += 1
            body = body_of(b.game, seq, event, cmd.command_id)
            if seq not in recorded or canonical(recorded[seq]) != canonical(body):  # byte for byte, as hashed
                return _check(
                    "fail",
                    f"event seq {seq} differs: the replay makes another body",
                    first_bad_seq=seq,
                    recorded=recorded.get(seq),
                    replayed=body,
                    diff=diff(recorded.get(seq), body),
                ), game
            if game is None:
                created = as_genesis(event)
                game = (
                    engine.start_fork(base, b.game, created)
                    if created.parent is not None
                    else loaded.start(b.game, created)
                )
            else:
                engine.evolve(game, event)
    if seq != len(b.events):
        return _check(
            "fail", f"the commands make {seq} events; the bundle has {len(b.events)}", first_bad_seq=seq + 1
        ), game
    if progress is not None:
        progress(len(b.commands), len(b.commands))
    return _check(
        "pass", f"{_count(len(b.commands), 'command')} replayed to {_count(seq, 'byte-identical event')}", first_bad_seq=None
    ), game


def _parsed(loaded: Loaded, payload: dict[str, Any]) -> Any:
    """A recorded command's payload as its ruleset's command, or Rejected saying why it is none, in a replay's words
    (not the advice a client sending it would get: what is legal now, where the schemas are)."""
    try:
        return engine.parse_command(loaded.ruleset, payload, advice=False)
    except InvalidInput as e:
        raise Rejected("replay", f"its payload is not a command of {loaded.ruleset.id}: {e.detail}") from None


def refuse_sealed_content(b: Bundle) -> None:
    """While the seed is secret, an uploaded bundle's sealed records are commitments only (docs/spec/api.md, "Hidden
    information"): a command whose sealed record the bundle leaves closed must show exactly `{"sealed": <that
    commitment>}`, as the public bundle does. Anything else there (a guess at the content, the true content from a
    seat's or the referee's copy, another commitment) is refused the same way whatever it holds, before anything is
    compared with what this server stores: comparing would tell a right guess from a wrong one.

    Decided from the bundle alone: which records it leaves closed, their seats, kinds and commitments (all public)."""
    closed: dict[int, dict[str, Any]] = {}
    for e in b.events:
        data = body_data(e.body)
        if e.body.get("type") == "SubmissionSealed" and isinstance(e.body.get("seq"), int):
            closed[e.body["seq"]] = data
        elif e.body.get("type") == "SubmissionsRevealed":
            entries = data.get("entries")
            for entry in entries if isinstance(entries, list) else []:
                if isinstance(entry, dict) and isinstance(entry.get("seq"), int):
                    closed.pop(entry["seq"], None)
    if not closed:
        return
    for cmd, mine in _sealed_by_command(b, closed):
        if not mine:
            continue
        shown = cmd.payload
        as_commitment = any(shown == {"sealed": closed[s].get("commitment")} for s in mine)
        if as_commitment or (
            "sealed" not in shown and command_kind(shown) not in {closed[s].get("kind") for s in mine}
        ):
            continue
        raise InvalidInput(
            "sealed-content",
            f"command {cmd.command_id} shows more than the commitment of the sealed record at seq {mine[0]}, which "
            "this bundle leaves closed. While a game's server seed is secret, this server takes its sealed records as "
            "commitments only and compares nothing else with what it stores: send the bundle with "
            '{"sealed": <the commitment>} there, as the public bundle (GET /games/{id}/bundle without a token) shows '
            "it",
        )


def _as_recorded(cmd: Any, stored: dict[str, Any]) -> bool:
    """A bundle's command is the server's record: same seat and seqs, and the same payload (a sealed one may show as
    its commitment, as public bundles do; `refuse_sealed_content` has refused any other showing of a closed one)."""
    if cmd.seat != stored["seat"] or list(cmd.seqs) != stored["seqs"]:
        return False
    shown = cmd.payload
    return canonical(shown) == canonical(stored["payload"]) or (stored["sealed"] and set(shown) == {"sealed"})


def verify_parent(b: Bundle, seed_lookup: SeedLookup | None, rulesets: Mapping[str, Loaded]) -> dict[str, Any] | None:
    """A fork's parent: its bundle (up to the fork's seq) verified on its own, and the very position the fork's genesis
    names: the parent game, the seq and the parent's hash there."""
    genesis = body_data(b.events[0].body)
    ref = genesis.get("parent")
    if ref is None and b.parent is None:
        return None
    if ref is None or b.parent is None:
        return _check("fail", "the genesis and the bundle disagree on whether this game is a fork", first_bad_seq=1)
    report = verify(b.parent, seed_lookup, rulesets)
    named = {
        "game": (ref.get("game"), b.parent.game),
        "seq": (ref.get("seq"), len(b.parent.events)),
        "hash": (ref.get("hash"), b.parent.head),
    }
    wrong = [k for k, (said, found) in named.items() if said != found]
    where = f"parent {b.parent.game} up to seq {len(b.parent.events)}"
    if wrong:
        return _check("fail", f"the fork's genesis names another {', '.join(wrong)} than its parent's bundle", first_bad_seq=1)
    failed = next(((n, c) for n, c in report["checks"].items() if c["status"] == "fail"), None)
    if failed is not None:
        name, c = failed
        return _check(
            "fail",
            f"{where}: {name} check failed: {c['detail']}",
            first_bad_seq=c.get("first_bad_seq"),
            first_bad_k=c.get("first_bad_k"),
            game=b.parent.game,
        )
    status = "pass" if report["verdict"] == "verified" else "skipped"
    skipped = [n for n, c in report["checks"].items() if c["status"] == "skipped"]
    detail = f"{where}: verified" if status == "pass" else f"{where}: {', '.join(skipped)} not checked (seed not revealed)"
    return _check(status, detail, first_bad_seq=None, game=b.parent.game)


def verify(
    raw: bytes | dict | Bundle,
    seed_lookup: SeedLookup | None = None,
    rulesets: Mapping[str, Loaded] = RULESETS,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Every check of a bundle; `rulesets`: what it is replayed with (by default the served ones)."""
    if isinstance(raw, Bundle):
        b = raw
    else:
        try:
            b = decode_bundle(raw)
        except (msgspec.ValidationError, msgspec.DecodeError, RecursionError) as e:
            return {"verdict": "failed", "game": None, "checks": {"format": _check("fail", why_not(raw, e))}}
    b, seed_from = with_logged_seed(b)  # a header without the seed its own chained log reveals
    if seed_lookup is not None and b.dice.server_seed is None:
        refuse_sealed_content(b)  # before anything is compared with this server's secret records
    chain = verify_chain(b)
    parent = verify_parent(b, seed_lookup, rulesets)
    dice = verify_dice(b)
    if seed_from is not None:
        taken = f"the server seed revealed at seq {seed_from} (the header's dice.server_seed is null)"
        dice["detail"] = f"{taken}: {dice['detail']}"
    sealed = verify_sealed(b)
    seed, records = None, None
    if b.dice.server_seed is not None and dice["status"] == "pass":
        seed = bytes.fromhex(b.dice.server_seed)
    elif b.dice.server_seed is None and seed_lookup is not None and chain["status"] == "pass" and b.events:
        seed, records = seed_lookup(b.game, len(b.events), b.events[-1].hash) or (None, None)
    if seed is not None:
        rep, _ = replay(b, seed, records, rulesets, progress)
        if b.dice.server_seed is None:
            # the seed is secret: a forged command list could make the replay roll a future k, so the
            # report names the seq but shows no replayed body
            for key in ("recorded", "replayed", "diff"):
                rep.pop(key, None)
    elif b.dice.server_seed is not None:
        rep = _check("skipped", "the dice check failed, so the replay has no trusted seed", first_bad_seq=None)
    else:
        rep = _check(
            "skipped",
            "the server seed is not revealed and this server does not hold this log"
            if seed_lookup is not None
            else "the server seed is not revealed yet: the replay waits for it (the game's own server replays it now "
            "with its stored seed: POST /bundles/verify there)",
            first_bad_seq=None,
        )
    checks = {"chain": chain, "dice": dice, "sealed": sealed, "replay": rep}
    if parent is not None:
        checks = {"parent": parent, **checks}
    statuses = {c["status"] for c in checks.values()}
    verdict = "failed" if "fail" in statuses else "partial" if "skipped" in statuses else "verified"
    return {"verdict": verdict, "game": b.game, "checks": checks}
