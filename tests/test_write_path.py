"""The statements one command runs on each store (issue 35 item 3), listed exactly, so that a statement added to the
write path (a pragma per command, a second head check, a connection checked per read) fails here: SQLite's by its
trace callback, PostgreSQL's by recording what psycopg sends from the command's thread."""

from __future__ import annotations

import threading

import psycopg
import pytest

from benchmarks.counts import Asgi
from benchmarks.run import raid_game
from events.store import SQLiteStore, open_store
from events.store.sql import INSERT_COMMAND, INSERT_EVENT_HEAD
from service.app import create_app
from service.games import GameService
from service.settings import Settings
from tests.conftest import postgres_url

SEED = "35" * 32
# a raid appends a DiceRolled and a ConvoyRaided
SQLITE_RAID = [
    "PRAGMA data_version",  # the one check that nobody else committed: credentials, head and webhooks stay kept
    "BEGIN IMMEDIATE",
    INSERT_EVENT_HEAD,
    INSERT_EVENT_HEAD,
    INSERT_COMMAND.split(" VALUES")[0] + " VALUES",
    "COMMIT",
]


def _shape(sql: str) -> str:
    """A statement as written, without the values the trace callback shows in it."""
    return sql.split(" VALUES")[0] + " VALUES" if sql.startswith("INSERT") else sql


def _traced(store: SQLiteStore, monkeypatch) -> list[str]:
    """Every statement of the store's writer and of any reader connection it hands out from now on."""
    ran: list[str] = []
    store.db.conn.set_trace_callback(lambda s: ran.append(_shape(s)))
    reader = store._reader

    def traced_reader():
        conn = reader()
        conn.set_trace_callback(lambda s: ran.append(_shape(s)))
        return conn

    monkeypatch.setattr(store, "_reader", traced_reader)
    return ran


def test_a_sqlite_command_on_the_loop_runs_one_check_and_its_append(tmp_path, monkeypatch):
    """POST /commands as a server runs it (the ASGI app, the command on the event loop): one `PRAGMA data_version`
    for the head check, the credentials and the webhooks, then the append's four statements; no busy_timeout."""
    app = create_app(settings=Settings(db=str(tmp_path / "w.db"), create_per_minute=0))
    svc = app.state.service
    gid, token = raid_game(svc, public_seed=SEED)
    client = Asgi(app)
    assert client.post(f"/games/{gid}/commands", {"type": "raid", "sz": 3}, token)[0] == 200
    ran = _traced(svc.store, monkeypatch)
    assert client.post(f"/games/{gid}/commands", {"type": "raid", "sz": 7}, token)[0] == 200
    assert ran == SQLITE_RAID

    # another connection (another process) appends: the next command's one check sees it and catches up first
    there = GameService(SQLiteStore(str(tmp_path / "w.db")))
    moved = there.command(gid, token, {"type": "raid", "sz": 8})["version"]
    ran.clear()
    status, body = client.post(f"/games/{gid}/commands", {"type": "raid", "sz": 10}, token)
    assert status == 200 and f'"version":{moved + 2}' in body.decode()
    assert ran[0] == "PRAGMA data_version" and ran[-len(SQLITE_RAID) + 1 :] == SQLITE_RAID[1:]
    assert any(s.startswith("SELECT seq, hash FROM events") for s in ran)  # the head read again, not kept


def test_a_sqlite_command_in_a_thread_runs_the_same_statements(tmp_path, monkeypatch):
    """`GameService.command` as a worker thread runs it (it may wait for the lock): the same list."""
    svc = GameService(SQLiteStore(str(tmp_path / "t.db")))
    gid, token = raid_game(svc, public_seed=SEED)
    svc.command(gid, token, {"type": "raid", "sz": 3})
    ran = _traced(svc.store, monkeypatch)
    svc.command(gid, token, {"type": "raid", "sz": 7})
    assert ran == SQLITE_RAID


def _recorded(monkeypatch) -> list[str]:
    """What psycopg sends from this thread (the notifier's sender thread has its own connection and statements)."""
    ran: list[str] = []
    me = threading.get_ident()
    execute, executemany = psycopg.Cursor.execute, psycopg.Cursor.executemany

    def recording_execute(self, query, params=None, **kw):
        if threading.get_ident() == me:
            ran.append(str(query))
        return execute(self, query, params, **kw)

    def recording_executemany(self, query, params_seq, **kw):
        if threading.get_ident() == me:
            ran.append(str(query))
        return executemany(self, query, params_seq, **kw)

    monkeypatch.setattr(psycopg.Cursor, "execute", recording_execute)
    monkeypatch.setattr(psycopg.Cursor, "executemany", recording_executemany)
    return ran


@pytest.mark.slow
def test_a_postgres_command_checks_one_connection_and_its_statements_are_prepared(monkeypatch):
    """On PostgreSQL a command's reads and its append share one connection, checked once (the pool's empty query):
    five round trips, not eight. Each statement's text is fixed, so psycopg prepares it on a connection once."""
    with postgres_url() as url:
        svc = GameService(open_store(url))
        try:
            gid, token = raid_game(svc, public_seed=SEED)
            svc.command(gid, token, {"type": "raid", "sz": 3})
            ran = _recorded(monkeypatch)
            svc.command(gid, token, {"type": "raid", "sz": 7})
            assert [s.split(" (")[0] if s.startswith("WITH") else s for s in ran] == [
                "",  # the pool's check of the connection, once
                "SELECT tokens FROM games WHERE id = %s",
                "SELECT seq, hash FROM events WHERE game = %s ORDER BY seq DESC LIMIT 1",
                "SELECT reader, last_turn FROM webhooks WHERE game = %s",
                "WITH e AS",  # the events and the command row: one statement, one transaction
            ]
            monkeypatch.undo()
            with svc.store.session():  # one connection: psycopg prepares a statement after its fifth run on it
                for z in (8, 10, 23, 34, 35, 45):
                    svc.command(gid, token, {"type": "raid", "sz": z})
                prepared = {s for (s,) in svc.store._query("SELECT statement FROM pg_prepared_statements")}
            assert {
                "SELECT tokens FROM games WHERE id = $1",
                "SELECT seq, hash FROM events WHERE game = $1 ORDER BY seq DESC LIMIT 1",
                "SELECT reader, last_turn FROM webhooks WHERE game = $1",
            } <= prepared, prepared
            assert any(s.startswith("WITH e AS (INSERT INTO events") for s in prepared), prepared
        finally:
            svc.store.close()
