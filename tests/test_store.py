"""The store and the caches above it (issue #12): bounded memory, snapshots, token checks before loads, file modes,
bounded public verification. On both stores where a store is involved."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from events.store import SQLiteStore, open_store
from events.store.rows import CommandRow, NewEventRow, StoreConflict
from service import snapshots
from service.app import create_app
from service.games import GameService
from service.settings import Settings
from service.simulate import seed_for
from service.snapshots import snapshot_key
from tests.drivers import first_choice

REPLAYS = Path(__file__).resolve().parent.parent / "replays"


class Counting:
    """A store that counts the event rows it hands out."""

    def __init__(self, store):
        self.store, self.rows = store, 0

    def events(self, *args, **kwargs):
        out = self.store.events(*args, **kwargs)
        self.rows += len(out)
        return out

    def __getattr__(self, name):
        return getattr(self.store, name)


def corvette_game(svc: GameService, game_id: str, commands: int) -> str:
    """A corvette game played `commands` commands deep by the first choices offered."""
    made = svc.creation.create(
        "corvette-command", {"convoys": 5}, None, "public-seed", seed_for(5, 0).hex(), None, None, game_id=game_id
    )
    token = made["seats"][0]["token"]
    for _ in range(commands):
        s = svc.reads.summary(game_id)
        if not s["awaiting"]:
            break
        svc.command(game_id, token, first_choice(s["awaiting"][0]))
    return game_id


def test_the_state_cache_keeps_at_most_its_size(store_url):
    svc = GameService(open_store(store_url), settings=Settings(cache_games=2))
    ids = [svc.creation.create("aa1942-convoy", {}, None, "fair", None, None, None)["game_id"] for _ in range(5)]
    for gid in ids:
        assert svc.reads.summary(gid)["version"] == 1
    assert len(svc.cache.states) == 2 and list(svc.cache.states) == ids[-2:]
    assert svc.reads.summary(ids[0])["game_id"] == ids[0]  # an evicted game loads again
    svc.store.close()


def test_a_cold_load_starts_from_the_nearest_snapshot(store_url):
    settings = Settings(snapshot_every=50)
    svc = GameService(open_store(store_url), settings=settings)
    gid = corvette_game(svc, "snap", 120)
    version = svc.reads.summary(gid)["version"]
    assert version > 150
    cold = GameService(Counting(open_store(store_url)), settings=settings)
    summary = cold.reads.summary(gid)
    assert (summary["version"], summary["head"]) == (version, svc.reads.summary(gid)["head"])
    assert cold.store.rows <= 1 + 50 + 1  # the genesis, at most 50 events after the snapshot, the snapshot's own head
    for at in (1, 49, 50, 51, version - 1):  # ?at= views from snapshots equal a fold from the genesis
        from_snapshot = cold.reads.view(gid, "campaign-sheet", at)
        plain = GameService(open_store(store_url), settings=Settings(snapshot_every=0))
        plain.store.snapshot = lambda *a, **k: None
        assert from_snapshot == plain.reads.view(gid, "campaign-sheet", at), at
    svc.store.close()


def test_a_snapshot_that_does_not_load_is_ignored(tmp_path):
    db = str(tmp_path / "s.db")
    svc = GameService(SQLiteStore(db), settings=Settings(snapshot_every=20))
    gid = corvette_game(svc, "bad-snap", 40)
    expected = svc.reads.summary(gid)
    svc.store.db.execute("UPDATE snapshots SET state = x'00010203'")
    assert GameService(SQLiteStore(db)).reads.summary(gid) == expected


def test_a_snapshot_of_an_older_format_is_ignored_never_misread(tmp_path, monkeypatch):
    """Issue 35 item 4: a snapshot is keyed by its format (`SNAPSHOT_FORMAT`), so one an older engine saved, whose
    state has another shape, is never loaded: the game is folded from the log. Here every snapshot is moved to the
    previous format's key with a state that loads but is wrong (the first snapshot's, far behind)."""
    db = str(tmp_path / "old.db")
    svc = GameService(SQLiteStore(db), settings=Settings(snapshot_every=20))
    gid = corvette_game(svc, "old-snap", 60)
    expected = svc.reads.summary(gid), svc.reads.view(gid, "campaign-sheet", None)
    row = svc.cache.row(gid)
    now = snapshot_key(row)
    monkeypatch.setattr(snapshots, "SNAPSHOT_FORMAT", snapshots.SNAPSHOT_FORMAT - 1)
    old = snapshot_key(row)
    monkeypatch.undo()
    first = svc.store.db.execute("SELECT state FROM snapshots ORDER BY seq LIMIT 1").fetchone()[0]
    assert svc.store.db.execute("UPDATE snapshots SET engine = ?, state = ?", (old, first)).rowcount > 1
    cold = GameService(Counting(SQLiteStore(db)))
    assert cold.store.snapshot(gid, 2**62, now) is None
    assert (cold.reads.summary(gid), cold.reads.view(gid, "campaign-sheet", None)) == expected
    assert cold.store.rows >= expected[0]["version"]  # folded from the genesis


def test_a_wrong_token_loads_no_events(tmp_path):
    db = str(tmp_path / "t.db")
    gid = GameService(SQLiteStore(db)).creation.create("aa1942-convoy", {}, None, "fair", None, None, None)["game_id"]
    svc = GameService(Counting(SQLiteStore(db)))
    with pytest.raises(Exception) as e:
        svc.command(gid, "forged", {"type": "purchase", "spend": 0})
    assert getattr(e.value, "code", None) == "invalid-token" and svc.store.rows == 0


def test_database_files_are_private(tmp_path):
    db = tmp_path / "p.db"
    svc = GameService(SQLiteStore(str(db)))
    svc.creation.create("aa1942-convoy", {}, None, "fair", None, None, None)
    for path in (db, Path(str(db) + "-wal")):
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600, path


def test_bundle_verification_has_caps_and_takes_turns(tmp_path):
    bundle = json.loads((REPLAYS / "aa1942-pacific.3.0.0.json").read_text())
    settings = Settings(db=str(tmp_path / "v.db"), max_bundle_events=50, max_dice_per_roll=64)
    with TestClient(create_app(settings=settings)) as c:
        r = c.post("/bundles/verify", json=bundle)
        assert r.status_code == 413 and r.json()["code"] == "bundle-too-large" and r.json()["limit"] == 50
    settings = Settings(db=str(tmp_path / "w.db"), max_dice_per_roll=0)
    with TestClient(create_app(settings=settings)) as c:
        r = c.post("/bundles/verify", json=bundle)
        assert r.status_code == 413 and "per roll" in r.json()["detail"]


def test_a_slow_load_holds_up_only_its_own_game(tmp_path):
    """Loads take a per-game lock: while one game loads (slowly here), another game's reads answer."""
    import threading
    from concurrent.futures import ThreadPoolExecutor
    from concurrent.futures import TimeoutError as FuturesTimeout

    db = str(tmp_path / "l.db")
    maker = GameService(SQLiteStore(db))
    slow_id = maker.creation.create("aa1942-convoy", {}, None, "fair", None, None, None)["game_id"]
    quick_id = maker.creation.create("aa1942-convoy", {}, None, "fair", None, None, None)["game_id"]
    store = SQLiteStore(db)
    events = store.events
    loading_now, go_on = threading.Event(), threading.Event()

    def slow_events(game_id, *args, **kwargs):
        if game_id == slow_id:  # the slow game's load is held (under its lock) until the other game has answered
            loading_now.set()
            assert go_on.wait(60), "the slow load was never let go on"
        return events(game_id, *args, **kwargs)

    store.events = slow_events
    svc = GameService(store)
    loading = threading.Thread(target=svc.reads.summary, args=(slow_id,))
    loading.start()
    try:
        assert loading_now.wait(60), "the slow game's load never started"
        with ThreadPoolExecutor(1) as pool:  # answered while the other load is still held: so not behind it
            quick = pool.submit(svc.reads.summary, quick_id)
            try:
                assert quick.result(timeout=60)["game_id"] == quick_id
            except FuturesTimeout:
                raise AssertionError("the other game's read waited behind the slow load") from None
            finally:
                go_on.set()
    finally:
        go_on.set()
        loading.join()



def test_the_bundle_parts_the_database_writes_are_the_rows_encoded(store_url):
    """service/bundles.py splices in the JSON the database puts together (SQLite: group_concat and json_quote;
    PostgreSQL: string_agg and to_json): on both stores it is, byte for byte, msgspec's encoding of the rows, in
    order and within a bound; and a text the API never lets into an id (quotes, backslashes, control characters)
    would still come out as msgspec writes it."""
    import msgspec

    svc = GameService(open_store(store_url))
    made = svc.creation.create(
        "corvette-command", {"convoys": 5}, None, "public-seed", seed_for(5, 0).hex(), None, None, game_id="parts"
    )
    token = made["seats"][0]["token"]
    for cid in ["a.b", "c:d", "e-f_g", "plain", "Z9"]:
        svc.command("parts", token, {**first_choice(svc.reads.summary("parts")["awaiting"][0]), "command_id": cid})
    rows, cmds = svc.store.events("parts"), svc.store.commands("parts")
    for text in ['q"uote', "back\\slash", "tab\there", "naïve-ü", "ctl\x01\x1f", "line\nbreak", "/slash"]:
        (quoted,) = svc.store._query(f"SELECT {svc.store._json_string('CAST(? AS TEXT)')}", (text,))[0]
        assert quoted == msgspec.json.encode(text).decode(), text

    def encoded(items: list) -> str:
        return msgspec.json.encode(items).decode()[1:-1]

    for upto in (None, cmds[3].last_seq):
        within = [x for x in cmds if upto is None or x.last_seq <= upto]
        assert svc.store.bundle_commands("parts", upto) == encoded([
            {"command_id": x.command_id, "seat": x.seat, "payload": msgspec.json.decode(x.payload),
             "seqs": [x.first_seq, x.last_seq]}
            for x in within
        ])
        assert svc.store.bundle_events("parts", upto) == encoded([
            {"body": msgspec.json.decode(r.body), "hash": r.hash} for r in rows if upto is None or r.seq <= upto
        ])
    assert svc.store.bundle_events("no-such-game") == "" and svc.store.bundle_commands("no-such-game") == ""
    svc.store.close()


def _statements(store: SQLiteStore) -> list[str]:
    """The statements the store's writer connection runs from now on (its readers run none here)."""
    ran: list[str] = []
    store.db.conn.set_trace_callback(ran.append)
    return ran


def test_sqlite_keeps_a_games_head_and_tokens_only_while_no_other_connection_commits(tmp_path):
    """The SQLite store reads a game's credentials and head once and keeps them while `PRAGMA data_version` of its
    writer connection stays put: another connection's commit (another process) is seen at once, this connection's
    own writes update what is kept without reading it again."""
    db = str(tmp_path / "k.db")
    here, there = GameService(SQLiteStore(db)), GameService(SQLiteStore(db))
    made = here.creation.create("aa1942-convoy", {}, None, "fair", None, None, None)
    gid, tokens = made["game_id"], {s["seat"]: s["token"] for s in made["seats"]}
    ussr = tokens["USSR"]
    here.command(gid, ussr, {"type": "purchase", "spend": 0})
    ran = _statements(here.store)
    v = here.command(gid, ussr, {"type": "end_phase"})["version"]
    reads = [s for s in ran if s.startswith("SELECT")]
    assert reads == [], f"a command after this process's own write read again: {reads}"
    assert here.store.head(gid)[0] == v

    # another connection appends and rotates: both are seen on the next read
    v = there.command(gid, ussr, {"type": "end_phase"})["version"]
    assert here.store.head(gid) == there.store.head(gid) and here.store.head(gid)[0] == v
    new = there.credentials.rotate(gid, ussr)["token"]
    with pytest.raises(Exception) as e:
        here.command(gid, ussr, {"type": "end_phase"})
    assert getattr(e.value, "code", None) == "invalid-token"
    assert here.command(gid, new, {"type": "end_phase"})["version"] > v

    # this connection's own rotation is seen by itself at once
    newer = here.credentials.rotate(gid, new)["token"]
    with pytest.raises(Exception) as e:
        here.command(gid, new, {"type": "end_phase"})
    assert getattr(e.value, "code", None) == "invalid-token"
    assert here.command(gid, newer, {"type": "end_phase"})["version"] == there.store.head(gid)[0]


def test_sqlite_forgets_what_it_kept_when_a_write_fails(tmp_path):
    """A write that does not commit leaves nothing kept that it did not write: the head read next is the table's."""
    db = str(tmp_path / "f.db")
    svc = GameService(SQLiteStore(db))
    gid = svc.creation.create("aa1942-convoy", {}, None, "fair", None, None, None)["game_id"]
    head = svc.store.head(gid)
    first, row = svc.store.commands(gid)[0], svc.store.events(gid)[0]
    new = NewEventRow(
        game=gid, seq=2, type=row.type, v=row.v, body=row.body, hash="00" * 32, command_id=first.command_id,
        actor="referee", recorded_at=row.recorded_at, sealed=None, roll_k=None,
    )  # fmt: skip
    with pytest.raises(StoreConflict):  # the event goes in (its head noted), then the command's id is taken
        svc.store.append([new], CommandRow(gid, first.command_id, "referee", "{}", 2, 2, row.recorded_at))
    assert svc.store.head(gid) == head == (1, row.hash)


# Forty times: the store closed while another thread writes through it (as a test's fixture closes it under a job or
# snapshot thread still finishing). In a process of its own, as a crash would end the test run.
CLOSED_UNDER_A_WRITE = """
import sys, threading
from events.store import SQLiteStore
from events.store.rows import JobRow
for trial in range(40):
    store = SQLiteStore(f"{sys.argv[1]}-{trial}.db")
    store.create_job(JobRow("j", "g", "odds", "{}", "running", 0, 1, None, "t", "t"))
    writing, ended = threading.Event(), []
    def write():
        try:
            for done in range(10**6):
                store.update_job("j", "running", done, "x" * 4000, "t")
                writing.set()
        except Exception as e:
            ended.append(type(e).__name__)
    thread = threading.Thread(target=write)
    thread.start()
    writing.wait()
    store.close()
    thread.join()
    print(*ended)
"""


def test_a_sqlite_store_closed_under_a_writing_thread_fails_that_write_and_never_the_process(tmp_path):
    """`SQLiteStore.close` waits for the statement under way; the writer's next write is StoreUnavailable. Before,
    CPython's sqlite3 crashed the process (a segmentation fault, seen in CI): the connection closed under a statement
    another thread ran."""
    run = subprocess.run([sys.executable, "-c", CLOSED_UNDER_A_WRITE, str(tmp_path / "c")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["StoreUnavailable"] * 40, run.stdout


def test_a_sqlite_write_whose_commit_fails_is_rolled_back_and_leaves_the_store_writable(tmp_path):
    """A transaction's commit may fail (here a deferred foreign key, which SQLite checks only at COMMIT, leaving the
    transaction open): it is rolled back, nothing of it is written, its error is raised as it is, and the next write
    goes through (the process's write lock released). A block that fails is rolled back alike."""
    import sqlite3

    store = SQLiteStore(str(tmp_path / "s.db"))
    conn = store.db.conn
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("CREATE TABLE parent (id TEXT PRIMARY KEY)")
    conn.execute("CREATE TABLE child (p TEXT REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)")
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        with store._transaction() as c:
            c.execute("INSERT INTO child VALUES ('nobody')")
    assert not conn.in_transaction
    with pytest.raises(ZeroDivisionError):
        with store._transaction(wait=False) as c:
            c.execute("INSERT INTO parent VALUES ('lost')")
            1 / 0  # noqa: B018
    assert not conn.in_transaction
    with store._transaction(wait=False) as c:  # WouldBlock here if a failed one had kept the lock
        c.execute("INSERT INTO parent VALUES ('p')")
        c.execute("INSERT INTO child VALUES ('p')")
    assert store._query("SELECT id FROM parent") == [("p",)]
    assert store._query("SELECT p FROM child") == [("p",)]
    store.close()


def test_a_sqlite_rollback_that_fails_keeps_the_commits_error_and_the_next_write_goes_through(tmp_path, monkeypatch):
    """What a failed COMMIT was must survive a ROLLBACK that fails too (the traceback an operator reads): the rollback's
    error is raised with the commit's as its context, and the process's write lock is released; the next write rolls
    the transaction left open back first, and the store takes writes again (before, every later write failed)."""
    import sqlite3

    store = SQLiteStore(str(tmp_path / "s.db"))
    conn = store.db.conn
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("CREATE TABLE parent (id TEXT PRIMARY KEY)")
    conn.execute("CREATE TABLE child (p TEXT REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)")

    class RollbackFails:
        in_transaction = property(lambda self: conn.in_transaction)

        def execute(self, sql: str, *args):
            if sql == "ROLLBACK":
                raise sqlite3.OperationalError("the rollback failed too")
            return conn.execute(sql, *args)

    monkeypatch.setattr(store, "_writer", RollbackFails)
    with pytest.raises(sqlite3.OperationalError, match="rollback failed") as raised:
        with store._transaction() as c:
            c.execute("INSERT INTO child VALUES ('nobody')")
    assert isinstance(raised.value.__context__, sqlite3.IntegrityError)
    assert conn.in_transaction  # the rollback failed: the connection is still in the failed write's transaction
    monkeypatch.undo()
    with store._transaction(wait=False) as c:  # the next write rolls that back first, and goes through
        c.execute("INSERT INTO parent VALUES ('p')")
    assert store._query("SELECT id FROM parent") == [("p",)] and store._query("SELECT p FROM child") == []
    store.close()
