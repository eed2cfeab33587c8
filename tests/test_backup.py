"""Issue 34 item 1: `umpire backup` copies a live SQLite store while commands go on, losing none acknowledged before
it began, into a file of mode 0600; `umpire verify --db` checks every game of a store and says which fail."""

from __future__ import annotations

import stat
import threading

from typer.testing import CliRunner

from events.store import SQLiteStore
from service.cli import app
from service.games import GameService
from tests.drivers import bot_commands

runner = CliRunner()


def new_games(svc: GameService, n: int) -> list[tuple[str, dict[str, str]]]:
    out = []
    for _ in range(n):
        made = svc.creation.create("aa1942-convoy", {}, None, "fair", None, None, None)
        out.append((made["game_id"], {s["seat"]: s["token"] for s in made["seats"]}))
    return out


def test_a_backup_under_load_holds_every_command_acknowledged_before_it_and_its_games_verify(tmp_path):
    db, copy = tmp_path / "live.db", tmp_path / "copy.db"
    svc = GameService(SQLiteStore(str(db)))
    games = new_games(svc, 3)
    for game_id, tokens in games:
        bot_commands(svc, game_id, tokens, 20)
    acknowledged = {game_id: svc.store.head(game_id) for game_id, _ in games}
    stop, busy = threading.Event(), threading.Event()

    def load() -> None:  # commands and new games go on all through the backup
        while not stop.is_set():
            for game_id, tokens in games:
                bot_commands(svc, game_id, tokens, 2)
            new_games(svc, 1)
            busy.set()

    writer = threading.Thread(target=load)
    writer.start()
    busy.wait()  # the load is running
    try:
        result = runner.invoke(app, ["backup", str(copy), "--db", str(db)])
    finally:
        stop.set()
        writer.join()
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600  # it holds server seeds and token hashes
    backed = SQLiteStore(str(copy))
    for game_id, (seq, head) in acknowledged.items():
        kept = backed.events(game_id, upto=seq)
        assert len(kept) == seq and kept[-1].hash == head, game_id
    result = runner.invoke(app, ["verify", "--db", str(copy)])
    assert result.exit_code == 0, result.output
    assert "0 failed" in result.output and f"{len(backed.game_ids())} games" in result.output


def test_a_backup_never_overwrites_and_says_what_to_do(tmp_path):
    db, copy = tmp_path / "live.db", tmp_path / "copy.db"
    SQLiteStore(str(db)).close()
    copy.write_text("mine")
    result = runner.invoke(app, ["backup", str(copy), "--db", str(db)])
    assert result.exit_code == 1 and "exists" in result.output and copy.read_text() == "mine"
    result = runner.invoke(app, ["backup", str(tmp_path / "x.db"), "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 1 and "no SQLite store" in result.output


def test_verify_db_names_a_game_that_fails(tmp_path):
    db = tmp_path / "live.db"
    svc = GameService(SQLiteStore(str(db)))
    (good, tokens), (bad, bad_tokens) = new_games(svc, 2)
    for game_id, t in ((good, tokens), (bad, bad_tokens)):
        bot_commands(svc, game_id, t, 5)
    svc.store.close()
    import sqlite3

    with sqlite3.connect(db) as conn:  # an event changed behind the chain's back
        conn.execute("UPDATE events SET body = replace(body, '\"v\":1', '\"v\":2') WHERE game = ? AND seq = 2", (bad,))
    result = runner.invoke(app, ["verify", "--db", str(db)])
    assert result.exit_code == 1, result.output
    assert f"failed {bad}" in result.output and f"failed {good}" not in result.output
    assert "1 failed" in result.output
