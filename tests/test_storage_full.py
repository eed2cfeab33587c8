"""A full disk or a read-only store (issue 34 item 4): every write answers 503 `storage-unavailable` with Retry-After,
changes nothing, logs one line per condition now and then (never a traceback per request), reads go on, and the next
write after space comes back succeeds. SQLite's real SQLITE_FULL (PRAGMA max_page_count) and SQLITE_READONLY (PRAGMA
query_only); PostgreSQL's read-only transactions (default_transaction_read_only on the store's connections)."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient

from events.store import StorageUnavailable, open_store
from service.app import create_app
from service.games import GameService
from service.logs import STORAGE_LOG
from service.replay import verify
from tests.conftest import postgres_url


def raid_game(c: TestClient) -> tuple[str, dict]:
    g = c.post("/games", json={"ruleset": "corvette-command", "options": {"convoys": 3}}).json()
    return g["game_id"], {"Authorization": f"Bearer {g['seats'][0]['token']}"}


def next_command(c: TestClient, gid: str) -> dict:
    entry = c.get(f"/games/{gid}").json()["awaiting"][0]
    return {"type": entry["type"], **((entry.get("choices") or [entry.get("default") or {}])[0])}


def refused_alike(c: TestClient, gid: str, auth: dict, caplog, condition: str) -> None:
    """Twenty writes of every kind while the store cannot write: 503 storage-unavailable, Retry-After, nothing
    appended, one log line and no traceback."""
    before = c.get(f"/games/{gid}").json()
    caplog.clear()
    STORAGE_LOG.last.clear()
    clock, STORAGE_LOG.clock = STORAGE_LOG.clock, lambda: 0.0  # the twenty writes inside one 10 s window, however slow
    try:
        _refused(c, gid, auth, condition)
    finally:
        STORAGE_LOG.clock = clock
    after = c.get(f"/games/{gid}").json()  # reads go on
    assert (after["version"], after["head"]) == (before["version"], before["head"])
    lines = [r for r in caplog.records if r.name == "umpire.store"]
    # the webhook dispatcher's thread, polling the same store meanwhile, may log its own line (throttled alike)
    dispatcher = [r for r in lines if r.getMessage().startswith("webhook dispatcher")]
    writes = [r for r in lines if r not in dispatcher]
    assert len(writes) == 1 and condition in writes[0].getMessage()
    assert len(dispatcher) <= 1, [r.getMessage() for r in dispatcher]
    assert not any(r.exc_info for r in caplog.records) and "Traceback" not in caplog.text


def _refused(c: TestClient, gid: str, auth: dict, condition: str) -> None:
    for _ in range(20):
        r = c.post(f"/games/{gid}/commands", json=next_command(c, gid), headers=auth)
        assert r.status_code == 503, r.text
        assert r.headers["content-type"].startswith("application/problem+json") and r.headers["retry-after"] == "30"
        assert r.json()["code"] == "storage-unavailable" and condition in r.json()["detail"]
    if condition == "read-only":  # (a full file may still have room for a small new game in its free pages)
        r = c.post("/games", json={"ruleset": "corvette-command"})
        assert r.status_code == 503 and r.json()["code"] == "storage-unavailable"


def recovers(c: TestClient, gid: str, auth: dict, svc: GameService) -> None:
    r = c.post(f"/games/{gid}/commands", json=next_command(c, gid), headers=auth)
    assert r.status_code == 200, r.text
    report = verify(svc.bundles.encoded(gid))
    assert report["checks"]["chain"]["status"] == "pass" and report["verdict"] != "failed"


def test_sqlite_a_full_disk_answers_503_changes_nothing_logs_once_and_recovers(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    app = create_app(str(tmp_path / "full.db"))
    svc: GameService = app.state.service
    with TestClient(app) as c:
        gid, auth = raid_game(c)
        conn = svc.store.db.conn
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count={pages}")  # SQLite's own limit: the next page it needs is refused
        for _ in range(500):  # until the pages there are fill up: then SQLITE_FULL
            r = c.post(f"/games/{gid}/commands", json=next_command(c, gid), headers=auth)
            if r.status_code != 200:
                break
        assert r.status_code == 503 and r.json()["code"] == "storage-unavailable", r.text
        refused_alike(c, gid, auth, caplog, "full")
        conn.execute("PRAGMA max_page_count=1073741823")  # space came back
        recovers(c, gid, auth, svc)


def test_sqlite_a_read_only_store_answers_503_and_recovers(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    app = create_app(str(tmp_path / "ro.db"))
    svc: GameService = app.state.service
    with TestClient(app) as c:
        gid, auth = raid_game(c)
        svc.store.db.conn.execute("PRAGMA query_only=1")  # SQLITE_READONLY on every write of the writer
        refused_alike(c, gid, auth, caplog, "read-only")
        svc.store.db.conn.execute("PRAGMA query_only=0")
        recovers(c, gid, auth, svc)


def test_postgresql_a_read_only_store_answers_503_storage_unavailable(caplog):
    caplog.set_level(logging.INFO)
    with postgres_url() as url:
        writer = create_app(url)
        with TestClient(writer) as c:
            gid, auth = raid_game(c)
        assert "options=" in url  # the test schema's search_path: the read-only setting goes beside it
        read_only = url + "%20-cdefault_transaction_read_only%3Don"  # every transaction of this store read-only
        app = create_app(read_only)
        with TestClient(app) as c:
            refused_alike(c, gid, auth, caplog, "read-only")
        with TestClient(writer) as c:
            recovers(c, gid, auth, writer.state.service)


def test_the_store_says_full_and_read_only_as_storage_unavailable_with_nothing_written(tmp_path):
    store = open_store(str(tmp_path / "s.db"))
    store.db.conn.execute("PRAGMA query_only=1")
    with pytest.raises(StorageUnavailable) as e:
        with store._transaction() as conn:
            conn.execute("INSERT INTO creations VALUES ('x', 1, 1)")
    assert e.value.condition == "read-only" and e.value.written is False
    store.db.conn.execute("PRAGMA query_only=0")
    assert store._query("SELECT count(*) FROM creations") == [(0,)]
