"""The CLI and the Makefile as a new user meets them (issue #8 items 7 and 10)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from typer.testing import CliRunner

from service.cli import app as cli
from tests.drivers import SHORT

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, width: int = 80, env: dict[str, str | None] | None = None):
    return CliRunner().invoke(cli, list(args), terminal_width=width, env=env)


def test_simulate_refuses_unknown_options_in_one_clean_line():
    r = run("simulate", "corvette-command", "--games", "1", "--options", '{"colour": "red"}')
    assert r.exit_code == 1
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "colour" in lines[0] and "umpire rulesets corvette-command" in lines[0]
    assert "Traceback" not in r.output


def test_simulate_refuses_conflicting_convoys():
    r = run("simulate", "corvette-command", "--convoys", "2", "--options", '{"convoys": 3}')
    assert r.exit_code == 1 and "not both" in r.output
    r = run("simulate", "aa1942-convoy", "--convoys", "2")
    assert r.exit_code == 1 and "--convoys is for corvette-command" in r.output


def test_simulate_json_gives_every_figure_of_the_ruleset():
    r = run("simulate", "aa1942-convoy", "--games", "2", "--options", '{"rounds": 1}', "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["games"] == 2 and doc["options"] == {"rounds": 1}
    assert doc["figures"]["rounds"]["median"] == 1
    assert set(doc["figures"]["treasury USSR"]) >= {"mean", "median", "p5", "p95"}


def piped(*args: str, columns: str | None = None) -> str:
    """`umpire ARGS | cat` as a user runs it: its own process, so rich reads COLUMNS as the command starts (a test
    worker's environment, pytest-xdist's COLUMNS=80, is not the user's), its output a pipe."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    if columns is not None:
        env["COLUMNS"] = columns
    done = subprocess.run(["umpire", *args], capture_output=True, text=True, env=env, cwd=ROOT,
                          executable=str(Path(sys.executable).parent / "umpire"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_simulate_reads_at_80_columns():
    out = piped("simulate", "corvette-command", "--games", "2", columns="80")  # a width asked for is kept
    assert max(len(line) for line in out.splitlines()) <= 80


def test_piped_tables_keep_every_number_whole(tmp_path):
    """Output that is not a terminal (a pipe, a log) had rich's 80 columns: `51,696.…` for a 95% interval, `boats_lo`
    over `st`, the `created` column cut off. There a table is as wide as its cells."""
    doc = json.loads(run("simulate", "corvette-command", "--games", "100", "--seed", "1", "--json").output)
    lo, hi = doc["figures"]["tonnage lost"]["ci95"]
    interval = f"{lo:,.1f}–{hi:,.1f}"  # 51,696.6–68,503.4: cut to 8 characters at 80 columns
    out = piped("simulate", "corvette-command", "--games", "100", "--seed", "1")
    assert len(interval) > 8 and interval in out and "…" not in out
    assert "│ tonnage lost " in out and "│ convoys arrived " in out  # labels on one line each

    from events.store import open_store
    from service.games import GameService

    db = str(tmp_path / "g.db")
    svc = GameService(open_store(db))
    game = svc.creation.create("corvette-command", SHORT["corvette-command"], None, "fair", None, None, None)
    svc.store.close()
    listed = json.loads(run("games", "--db", db, "--json").output)["games"][0]
    out = piped("games", "--db", db)
    assert f"│ {game['game_id']} " in out and f"│ {listed['created_at'][:19]} │" in out


def test_simulate_is_the_same_for_the_same_seed():
    a = run("simulate", "corvette-command", "--games", "3", "--seed", "7", "--json")
    b = run("simulate", "corvette-command", "--games", "3", "--seed", "7", "--json")
    assert a.exit_code == 0 and json.loads(a.output) == json.loads(b.output)


def test_serve_help_lists_cors_origin():
    r = run("serve", "--help", width=120)
    assert "--cors-origin" in r.output and "repeatable" in r.output


def test_make_run_takes_port_and_db():
    out = subprocess.run(
        ["make", "-n", "run", "PORT=8089", "DB=games.db"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "umpire serve --db games.db --host 127.0.0.1 --port 8089" in out


def test_two_installs_at_once_do_not_build_twice(tmp_path):
    """Two `make` targets started at once on a fresh clone: the second waits for the first install, then finds it
    done. A fake python records each install, so the test needs no network."""
    if shutil.which("flock") is None:
        import pytest

        pytest.skip("flock is not installed (util-linux); the Makefile then installs without a lock")
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").write_text("[project]\nname='x'\n")
    fake = tmp_path / "fakepy"
    fake.write_text(
        textwrap.dedent(
            """\
            #!/bin/sh
            # "python3 -m venv .venv": count the install, take a while, leave a pip that does nothing
            echo start >> installs.log
            sleep 1
            mkdir -p .venv/bin
            printf '#!/bin/sh\\nexit 0\\n' > .venv/bin/pip
            chmod +x .venv/bin/pip
            echo end >> installs.log
            """
        )
    )
    fake.chmod(0o755)
    env = {**os.environ, "MAKEFLAGS": ""}
    procs = [
        subprocess.Popen(["make", "-s", f"PY={fake}", ".venv/.installed"], cwd=tmp_path, env=env) for _ in range(2)
    ]
    assert [p.wait(timeout=60) for p in procs] == [0, 0]
    assert (tmp_path / "installs.log").read_text().split() == ["start", "end"]


def test_games_shows_whole_ids_and_json_for_scripts(tmp_path):
    """issue 20 item 9: `umpire games` cut ids in a narrow terminal; `--json` gives the page for scripts."""
    from events.store import open_store
    from service.games import GameService

    db = str(tmp_path / "g.db")
    svc = GameService(open_store(db))
    gid = svc.creation.create("corvette-command", SHORT["corvette-command"], None, "fair", None, None, None)["game_id"]
    svc.store.close()
    assert gid in run("games", "--db", db, width=60).output
    page = json.loads(run("games", "--db", db, "--json").output)
    assert [g["game_id"] for g in page["games"]] == [gid] and page["games"][0]["seats"][0]["seat"] == "captain"


def test_games_refuses_an_unknown_ruleset_in_one_clean_line(tmp_path):
    """A new-user trial: `umpire games --ruleset nope` printed a traceback (GET /games?ruleset=nope answers 404)."""
    from events.store import open_store
    from service.games import GameService

    db = str(tmp_path / "g.db")
    svc = GameService(open_store(db))
    svc.creation.create("corvette-command", SHORT["corvette-command"], None, "fair", None, None, None)
    svc.store.close()
    r = run("games", "--db", db, "--ruleset", "nope", width=200)
    assert r.exit_code == 1 and "Traceback" not in r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "no ruleset 'nope'" in lines[0] and "umpire rulesets" in lines[0], r.output


def test_rulesets_id_shows_whole_lines_without_refs():
    out = run("rulesets", "uboat-leader", width=60).output
    assert "$ref" not in out and "$defs" not in out
    assert all(line.startswith(("  ", "uboat-leader", "commands:", "views:", "edition ")) for line in out.splitlines() if line)
    commands = next(line for line in out.splitlines() if line.startswith("commands:"))
    assert commands.endswith("end_activation")  # one whole line, its last command included


def test_verify_of_a_junk_file_does_not_name_a_game_none(tmp_path):
    junk = tmp_path / "junk.json"
    junk.write_text('{"x": 1}')
    r = run("verify", str(junk), width=100)
    assert r.exit_code == 3 and "None" not in r.output and "not a bundle of any game" in r.output  # nothing checked


def test_verify_json_prints_the_report_post_bundles_verify_answers_and_exits_by_its_verdict(tmp_path):
    """A script reads `umpire verify --json` as it reads POST /bundles/verify (each check's first bad seq and k): an
    operator's trial had to run a server for that. The exit code is the verdict's, as without --json."""
    from fastapi.testclient import TestClient

    from service.app import create_app

    golden = ROOT / "replays" / "aa1942-north-atlantic.5.0.0.json"
    bundle = json.loads(golden.read_bytes())
    roll = next(e for e in bundle["events"] if e["body"]["type"] == "DiceRolled")
    roll["body"]["data"]["faces"] = [7 - f for f in roll["body"]["data"]["faces"]]
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(bundle))
    with TestClient(create_app(str(tmp_path / "s.db"))) as client:
        for path, code in ((golden, 0), (tampered, 1)):
            r = run("verify", str(path), "--json")
            sent = path.read_bytes()
            answered = client.post("/bundles/verify", content=sent, headers={"Content-Type": "application/json"})
            assert r.exit_code == code and json.loads(r.stdout) == answered.json(), r.output
    chain = json.loads(run("verify", str(tampered), "--json").stdout)["checks"]["chain"]
    assert chain["first_bad_seq"] == roll["body"]["seq"]
    refused = run("verify", "--db", str(tmp_path / "s.db"), "--json")
    assert refused.exit_code == 3 and "--json reports one bundle" in refused.output


def test_verify_that_checked_nothing_exits_3_not_a_verdicts_code(tmp_path):
    """`umpire verify` exits 1 for a failed bundle and 2 for a partial one, so a script reads the verdict from the code:
    a misspelt file name exited 1 (read as tampered) and a usage error 2 (read as not yet revealed). A run that
    checked nothing exits 3, whatever stopped it."""
    empty = tmp_path / "empty.json"
    empty.write_text("  ")
    for args, says in (
        (["verify", str(tmp_path / "missing.json")], "cannot read"),
        (["verify", str(empty)], "is empty"),
        (["verify"], "name a bundle file"),
        (["verify", "--db", str(tmp_path / "missing.db")], "no database at"),
        (["verify", "--no-such-option", str(empty)], "No such option"),
        (["verify", str(empty), str(empty)], "unexpected extra argument"),
    ):
        r = run(*args)
        assert r.exit_code == 3 and says in r.output, (args, r.exit_code, r.output)
    assert not (tmp_path / "missing.db").exists()


def test_store_commands_heed_umpire_db_start_wait():
    """The command line's store commands waited 300 s for a PostgreSQL that does not answer, whatever
    UMPIRE_DB_START_WAIT said, though their message named it. A port nothing listens on refuses at once."""
    r = run("verify", "--db", "postgresql://umpire@127.0.0.1:1/umpire", env={"UMPIRE_DB_START_WAIT": "0"})
    assert r.exit_code == 3 and "did not answer within 0 s (1 attempt;" in r.output, r.output
    r = run("games", "--db", "postgresql://umpire@127.0.0.1:1/umpire", env={"UMPIRE_DB_START_WAIT": "0"})
    assert r.exit_code == 1 and "did not answer within 0 s" in r.output, r.output


def test_verify_prints_every_head_and_hash_whole_on_one_line_at_80_columns(monkeypatch, tmp_path):
    """A chain head or a seed in the verify table's detail column (under 60 wide at 80 columns) broke over two lines
    and could not be copied: the table shortens it, and each is printed whole below it, on a line of its own. A
    forged head shows both hashes the chain check compares."""
    from service import cli as cli_module
    from service.replay import verify

    monkeypatch.setattr(cli_module, "console", cli_module._Console(width=80))  # a terminal 80 wide
    path = ROOT / "replays" / "corvette-eastbound.3.0.0.json"
    bundle = json.loads(path.read_text())
    seed = verify(path.read_bytes())["checks"]["dice"]["game_seed"]
    forged = tmp_path / "forged-head.json"
    forged.write_text(json.dumps({**bundle, "head": "0" * 64}))
    for file, code, values in ((path, 0, [bundle["head"], seed]), (forged, 1, ["0" * 64, bundle["head"]])):
        r = CliRunner().invoke(cli, ["verify", str(file)])
        assert r.exit_code == code, r.output
        lines = r.stdout.splitlines()
        assert max(len(line) for line in lines) <= 80
        for value in values:
            assert len(value) == 64 and any(value in line for line in lines), (value, r.stdout)


def _flip_last(value: str) -> str:
    return value[:-1] + ("1" if value[-1] == "0" else "0")


def test_verify_cuts_two_compared_values_where_they_part_and_names_each_whole_one(monkeypatch, tmp_path):
    """A new user's trial: a seed or a head changed in its last hex digit read as two identical values in the table
    ("a38ea36b801d… is not … a38ea36b801d…"), and the whole values below it were labelled only `dice` or `chain`, in
    an order that swapped. A cut value now shows the characters where it parts from the one it is compared with, and
    each whole value is labelled with what it is."""
    from service import cli as cli_module

    monkeypatch.setattr(cli_module, "console", cli_module._Console(width=80))
    b = json.loads((ROOT / "replays" / "aa1942-two-sides.4.0.0.json").read_text())
    (reveal,) = [e["body"] for e in b["events"] if e["body"]["type"] == "ServerSeedRevealed"]
    seed, seq = reveal["data"]["server_seed"], reveal["seq"]
    forged_seed, forged_head = _flip_last(seed), _flip_last(b["head"])
    cases = (
        ({**b, "dice": {**b["dice"], "server_seed": forged_seed}}, "dice", [
            ("header dice.server_seed", forged_seed),
            (f"ServerSeedRevealed at seq {seq}", seed),
        ]),
        ({**b, "head": forged_head}, "chain", [("head", forged_head), ("last event's hash", b["head"])]),
    )
    for i, (bundle, check, values) in enumerate(cases):
        path = tmp_path / f"forged-{i}.json"
        path.write_text(json.dumps(bundle))
        r = CliRunner().invoke(cli, ["verify", str(path)])
        assert r.exit_code == 1, r.output
        table, below = r.stdout.split("in full")
        for _, value in values:  # the first 12 and the characters around the one that differs
            assert f"{value[:12]}…{value[-5:]}" in table, (value, table)
        lines = below.splitlines()
        for label, value in values:
            at = lines.index(f"  {check}: {label}")
            assert lines[at + 1] == f"    {value}", (label, below)


def test_make_run_passes_cors_origins():
    def run_line(*args: str) -> str:
        # under `make test` the outer make's MAKEFLAGS/MAKELEVEL would add "Entering directory" lines
        env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
        cmd = ["make", "--no-print-directory", "-n", "run", *args]
        return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True, env=env).stdout

    one = run_line("CORS=http://localhost:5173").rstrip()
    assert "umpire serve --db" in one and one.endswith(" --cors-origin http://localhost:5173")
    both = run_line("CORS=http://localhost:5173 https://my.app")
    assert "--cors-origin http://localhost:5173 --cors-origin https://my.app" in both
    assert "--cors-origin" not in run_line()


def test_replay_and_verify_write_no_progress_lines_off_a_terminal_unless_asked():
    """A replay in CI wrote a line every 5% to standard error (a new user's trial): off a terminal the long runs say
    nothing of their progress unless asked (`--progress`); on a terminal they draw a bar, as before."""
    bundle = str(ROOT / "replays" / "aa1942-two-sides.4.0.0.json")
    for args in (["replay", bundle], ["verify", bundle]):
        quiet = CliRunner().invoke(cli, args)
        assert quiet.exit_code == 0, quiet.output
        assert quiet.stderr == "", quiet.stderr
        asked = CliRunner().invoke(cli, [*args, "--progress"])
        assert asked.exit_code == 0, asked.output
        lines = asked.stderr.splitlines()
        assert lines and all("aa1942-two-sides.4.0.0.json: " in x and "left" in x for x in lines), asked.stderr
        assert asked.stdout == quiet.stdout
    simulated = CliRunner().invoke(cli, ["simulate", "corvette-command", "--games", "2"])
    assert simulated.exit_code == 0 and simulated.stderr == "", simulated.stderr


def test_verify_of_a_store_with_no_games_checked_nothing(tmp_path):
    """A cold review: `umpire verify --db` of an empty file said "0 games: 0 verified …" and exited 0."""
    (tmp_path / "empty.db").write_bytes(b"")
    r = run("verify", "--db", str(tmp_path / "empty.db"))
    assert r.exit_code == 3 and "holds no games" in r.output, r.output


def test_verify_of_a_bundle_and_a_store_at_once_checks_nothing_and_says_so(tmp_path):
    """A developer's trial: `umpire verify TAMPERED.json --db STORE` checked the store alone, said its games were
    fine and exited 0; the bundle named, tampered or missing, was never read."""
    r = run("verify", str(tmp_path / "missing.json"), "--db", str(tmp_path / "s.db"))
    assert r.exit_code == 3 and "not both" in r.output and "missing.json was not checked" in r.output, r.output


def test_replay_exits_3_when_it_read_nothing_and_names_what_is_wrong_with_the_file(tmp_path):
    """`umpire replay` exited 1 for a missing file, as for a divergence: a script could not tell them apart."""
    cut = tmp_path / "cut.json"
    cut.write_bytes((ROOT / "replays" / "aa1942-two-sides.4.0.0.json").read_bytes()[:5000])
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({"format": "umpire-bundle/2", "everything": "else"}))
    for path, says in (
        (tmp_path / "missing.json", "cannot read"),
        (cut, "its JSON ends before it is complete (the file was cut short?)"),
        (newer, "its format is 'umpire-bundle/2', which a newer engine writes; this one reads umpire-bundle/1"),
    ):
        r = run("replay", str(path), width=200)
        assert r.exit_code == 3 and says in r.output, (path, r.exit_code, r.output)
        if path.exists():  # nothing checked: verify's 3 too (it exited 1, as if tampered)
            checked = run("verify", str(path), "--json")
            assert checked.exit_code == 3 and says in json.loads(checked.stdout)["checks"]["format"]["detail"]
    assert run("replay", "--no-such-option", str(cut)).exit_code == 3


def test_replay_of_a_fork_replays_its_parent_first(tmp_path):
    """A developer's trial: `umpire replay` of a fork whose parent's part was edited said the fork replayed
    byte-identical and exited 0 (the fork folds the parent's events and never re-ran its commands); `umpire verify`
    failed it. Now the parent's commands are replayed first and a divergence there is the replay's."""
    golden = ROOT / "replays" / "aa1942-two-sides.4.0.0.json"
    at = json.loads(golden.read_bytes())["commands"][20]["seqs"][1]  # after the raids: rolls in the parent
    forked = tmp_path / "fork.json"
    assert run("fork", str(golden), "--at", str(at), "--out", str(forked)).exit_code == 0
    r = run("replay", str(forked), width=200)
    assert r.exit_code == 0 and r.output.count("byte-identical") == 2 and ", its parent two-sides: 21 commands" in r.output, r.output
    bundle = json.loads(forked.read_bytes())
    roll = next(e for e in bundle["parent"]["events"] if e["body"]["type"] == "DiceRolled")
    roll["body"]["data"]["faces"] = [7 - f for f in roll["body"]["data"]["faces"]]
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(bundle))
    r = run("replay", str(tampered), width=200)
    assert r.exit_code == 1 and f"its parent {bundle['parent']['game']}: event seq {roll['body']['seq']}" in r.output, (
        r.output
    )


def test_replay_runs_the_recorded_game_not_the_header_that_labels_it(tmp_path):
    """A developer's trial: a bundle whose header alone said 99.0.0 (its GameCreated, under the chain, says 4.0.0)
    was 'an edition this engine does not run' and exit 2, sending the developer after an engine that does not exist;
    verify's chain check said the header differed without saying how."""
    bundle = json.loads((ROOT / "replays" / "aa1942-two-sides.4.0.0.json").read_bytes())
    bundle["ruleset"]["version"] = "99.0.0"
    relabelled = tmp_path / "relabelled.json"
    relabelled.write_text(json.dumps(bundle))
    r = run("replay", str(relabelled), width=300)
    assert r.exit_code == 1 and "the header is not the recorded game's" in r.output, r.output
    assert "99.0.0" in r.output and "4.0.0" in r.output
    chain = json.loads(run("verify", str(relabelled), "--json").stdout)["checks"]["chain"]
    assert "the header's ruleset" in chain["detail"] and "99.0.0" in chain["detail"] and "4.0.0" in chain["detail"]


def test_a_bundle_of_an_edition_never_made_fails_and_one_newer_waits_for_its_engine():
    """A developer's trial: a forged bundle relabelled 'abc' or an edition that never was went from failed to
    partial (exit 2, 'an engine that runs it replays it'). Only an edition newer than this engine's is not the
    bundle's fault."""
    import msgspec

    from events.bundle import decode_bundle
    from service.replay import replay, with_logged_seed

    raw = json.loads((ROOT / "replays" / "aa1942-two-sides.4.0.0.json").read_bytes())
    for version, status, says in (
        ("abc", "fail", "names no edition (MAJOR.MINOR.PATCH)"),
        ("0.9.0", "fail", "aa1942-convoy has no edition 0.9.0: it was never made"),
        ("1.0.0", "skipped", "retired in development before the first release"),
        ("99.0.0", "skipped", "an edition newer than this engine's"),
    ):
        raw["ruleset"]["version"] = raw["events"][0]["body"]["data"]["ruleset"]["version"] = version
        b, _ = with_logged_seed(decode_bundle(msgspec.json.encode(raw)))
        assert b.dice.server_seed is not None
        result, _ = replay(b, bytes.fromhex(b.dice.server_seed))
        assert result["status"] == status and says in result["detail"], (version, result)


def test_simulate_from_a_bundle_takes_its_ruleset_when_none_is_named():
    """A developer's trial: `umpire simulate --from UB.json --at 100` said the bundle was not a corvette-command game:
    the ruleset argument, unnamed, was corvette-command, though the bundle names its own."""
    golden = ROOT / "replays" / "aa1942-two-sides.4.0.0.json"
    at = str(json.loads(golden.read_bytes())["commands"][20]["seqs"][1])
    r = run("simulate", "--from", str(golden), "--at", at, "--games", "2", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["figures"], r.output
    r = run("simulate", "corvette-command", "--from", str(golden), "--at", at, "--games", "2")
    assert r.exit_code == 1 and "is a game of aa1942-convoy, not corvette-command: name no ruleset" in r.output, r.output


def test_replay_of_a_fork_whose_parent_is_still_secret_replays_the_fork_and_says_the_parent_waits(tmp_path):
    """A cold review: `umpire replay` of a revealed fork of a game still running stopped at the parent (exit 2,
    "reveal the game"), and the fork itself, replayed before, was never run. The parent's part waits for its seed;
    the fork's own is replayed; exit 2, as not all of it was."""
    golden = ROOT / "replays" / "aa1942-two-sides.4.0.0.json"
    at = json.loads(golden.read_bytes())["commands"][20]["seqs"][1]
    forked = tmp_path / "fork.json"
    assert run("fork", str(golden), "--at", str(at), "--out", str(forked)).exit_code == 0
    bundle = json.loads(forked.read_bytes())
    bundle["parent"]["dice"]["server_seed"] = None  # the parent's seed still secret (its part up to `at` reveals none)
    secret = tmp_path / "secret-parent.json"
    secret.write_text(json.dumps(bundle))
    r = run("replay", str(secret), width=200)
    assert r.exit_code == 2, r.output
    assert "its parent two-sides: not replayed: its server seed is not revealed" in r.output
    assert "secret-parent.json: 1 command replayed to 1 byte-identical event" in r.output
