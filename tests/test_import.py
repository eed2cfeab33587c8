"""`umpire import` (service/imported.py; docs/bundles.md "Importing a bundle"): a verified bundle's game written into a
store as recorded, so that a developer handed the file reads it at any seq, forks it and plays on (a developer's trial:
nothing could be looked at or tried from the file alone)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from domain import engine
from events.bundle import decode_bundle
from events.store import SQLiteStore
from service.cli import app as cli
from service.games import GameService
from service.imported import ImportRefused, import_bundle
from service.reads import render_view
from service.replay import fold_bundle

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
AA = REPLAYS / "aa1942-pacific.6.0.0.json"
BF = REPLAYS / "battlefleet-torpedo-attack.14.0.0.json"


def imported(tmp_path, path: Path) -> tuple[GameService, dict]:
    svc = GameService(SQLiteStore(str(tmp_path / "imported.db")))
    return svc, import_bundle(svc.store, path.read_bytes(), "2026-12-07T11:00:00.000000Z")


@pytest.mark.parametrize("path", [AA, BF], ids=["aa1942", "battlefleet-sealed-orders"])
def test_an_imported_game_serves_the_bundle_it_came_from_and_any_past_view(tmp_path, path):
    svc, made = imported(tmp_path, path)
    assert json.loads(svc.bundles.bundle_bytes(made["game_id"])) == json.loads(path.read_bytes())
    b = decode_bundle(path.read_bytes())
    at = len(b.events) // 2
    ruleset = svc.rulesets[b.ruleset.id].ruleset
    name = sorted(v for v, view in ruleset.views.items() if not view.history)[0]  # read as the public reads it
    expected = msgspec.to_builtins(render_view(ruleset.views[name], fold_bundle(b, at).state, None, lambda: None))
    assert svc.reads.view(made["game_id"], name, at)["data"] == expected


def test_an_imported_game_is_forked_and_played_on_from_a_past_position(tmp_path):
    svc, made = imported(tmp_path, AA)
    commands = decode_bundle(AA.read_bytes()).commands
    at = commands[len(commands) // 2].seqs[1]  # a command's end
    fork = svc.creation.fork(made["game_id"], at, "public-seed", "77" * 32)
    gid = fork["game_id"]
    tokens = {s["seat"]: s["token"] for s in fork["seats"]}
    with svc.cache.game(gid) as c:
        version = c.game.version
        spec = next(x for x in engine.awaiting(c.game) if set(x.seats) & set(tokens) and x.choices)
    seat = next(s for s in spec.seats if s in tokens)
    answer = svc.command(gid, tokens[seat], {"type": spec.type, **spec.choices[0]})
    assert answer["version"] > version


def test_only_a_bundle_that_verifies_whole_is_imported_and_once(tmp_path):
    raw = AA.read_bytes()
    unrevealed = json.loads(raw)
    unrevealed["dice"]["server_seed"] = None
    unrevealed["events"] = [e for e in unrevealed["events"] if e["body"]["type"] != "ServerSeedRevealed"]
    unrevealed["head"] = unrevealed["events"][-1]["hash"]
    unrevealed["commands"] = [c for c in unrevealed["commands"] if c["seqs"][1] <= len(unrevealed["events"])]
    tampered = copy.deepcopy(json.loads(raw))
    roll = next(e for e in tampered["events"] if e["body"]["type"] == "DiceRolled")
    roll["body"]["data"]["faces"] = [7 - f for f in roll["body"]["data"]["faces"]]
    store = SQLiteStore(str(tmp_path / "s.db"))
    for bad, verdict in [(unrevealed, "partial"), (tampered, "failed")]:
        with pytest.raises(ImportRefused) as e:
            import_bundle(store, json.dumps(bad).encode(), "2026-12-07T11:00:00Z")
        assert "verifies whole" in e.value.detail and f"this one is {verdict}" in e.value.detail
    assert store.game_ids() == []  # nothing written
    import_bundle(store, raw, "2026-12-07T11:00:00Z")
    with pytest.raises(ImportRefused) as e:
        import_bundle(store, raw, "2026-12-07T11:00:00Z")
    assert "has a game pacific already" in e.value.detail


def test_umpire_import_says_what_to_do_next_and_refuses_in_words(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "cli.db")
    done = runner.invoke(cli, ["import", str(AA), "--db", db], terminal_width=300)
    assert done.exit_code == 0 and "imported pacific" in done.output and "/forks" in done.output, done.output
    again = runner.invoke(cli, ["import", str(AA), "--db", db], terminal_width=300)
    assert again.exit_code == 1 and "has a game pacific already" in again.output
    # a bundle that does not verify whole is refused before any store is opened: no database is left behind (an
    # operator's trial found an empty one made by the refusal)
    tampered = json.loads(AA.read_bytes())
    roll = next(e for e in tampered["events"] if e["body"]["type"] == "DiceRolled")
    roll["body"]["data"]["faces"] = [7 - f for f in roll["body"]["data"]["faces"]]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered))
    fresh = tmp_path / "never.db"
    refused = runner.invoke(cli, ["import", str(path), "--db", str(fresh)], terminal_width=300)
    assert refused.exit_code == 1 and "only a bundle that verifies whole is imported" in refused.output, refused.output
    assert not fresh.exists() and list(tmp_path.glob("never.db*")) == []


def test_an_import_is_whole_or_nothing(tmp_path, monkeypatch):
    """A review stopped an import midway (then one transaction per command): half a game stayed, open, and the file
    could not be imported again. Now one transaction: a failure at a late command leaves nothing."""
    from events.store import sql

    b = decode_bundle(AA.read_bytes())
    late = b.commands[-3].command_id
    store = SQLiteStore(str(tmp_path / "w.db"))
    real = SQLiteStore._execute

    def failing(self, conn, statement, params=()):
        if statement == sql.INSERT_COMMAND and params[1] == late:
            raise RuntimeError("the line went down")
        return real(self, conn, statement, params)

    monkeypatch.setattr(SQLiteStore, "_execute", failing)
    with pytest.raises(RuntimeError):
        import_bundle(store, AA.read_bytes(), "2026-12-07T11:00:00Z")
    assert store.game(b.game) is None and store.events(b.game) == []
    monkeypatch.setattr(SQLiteStore, "_execute", real)
    assert import_bundle(store, AA.read_bytes(), "2026-12-07T11:00:00Z")["version"] == len(b.events)


@pytest.mark.parametrize("path", [AA, BF, REPLAYS / "aa1942-two-sides.4.0.0.json"], ids=["aa1942", "battlefleet", "sheet"])
def test_umpire_view_reads_a_bundle_at_any_seq_as_the_server_answers_it(tmp_path, path):
    """A developer's trial: the state at a seq needed an import, a server and `?at=`. `umpire view BUNDLE VIEW --at SEQ
    [--as READER]` answers offline what GET /games/{id}/views/{view}?at= does, a view showing history included."""
    svc, made = imported(tmp_path, path)
    b = decode_bundle(path.read_bytes())
    at = len(b.events) // 2
    for name, view in svc.rulesets[b.ruleset.id].ruleset.views.items():
        for reader in (None, *b.events[0].body["data"]["seats"][:1]):
            args = ["view", str(path), name, "--at", str(at)] + ([] if reader is None else ["--as", reader])
            r = CliRunner().invoke(cli, args)
            assert r.exit_code == 0, r.output
            assert json.loads(r.stdout) == json.loads(msgspec.json.encode(svc.reads.view(made["game_id"], name, at, reader)))
    refused = CliRunner().invoke(cli, ["view", str(path), "no-such-view"])
    assert refused.exit_code == 1 and "has the views" in refused.output
