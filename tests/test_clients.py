"""Clients generated from openapi/openapi.json play a whole corvette-command convoy against a real server process
(issue #8: "generators work"): TypeScript (openapi-typescript types, openapi-fetch calls, compiled by `tsc --strict`)
and Python (openapi-python-client). Each generator must run without a single warning, each script uses only the
generated types (tests/clients/), and the game each one played is then checked on the server itself."""

from __future__ import annotations

import json
import os
import shutil

import httpx
import pytest

from service.openapi_dump import document
from tests.clients.tools import PY, SPEC, TS, node_packages, python_generator, run
from tests.live import server_process


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with server_process(str(tmp_path_factory.mktemp("clients") / "clients.db")) as (base, _):
        yield base


def test_typescript_client_plays_a_convoy(server, tmp_path):
    modules = node_packages()
    for name in ("package.json", "tsconfig.json", "play.ts"):
        shutil.copy(TS / name, tmp_path / name)
    (tmp_path / "node_modules").symlink_to(modules)
    bin_ = modules / ".bin"
    # --default-non-nullable false: a field with a default stays optional in what a client sends
    out = run([bin_ / "openapi-typescript", SPEC, "--default-non-nullable", "false", "-o", "api.ts"], cwd=tmp_path)
    assert [line for line in out.splitlines() if line.strip() and not line.startswith(("✨", "🚀"))] == [], out
    assert run([bin_ / "tsc", "-p", "."], cwd=tmp_path) == ""  # strict; the generated api.ts is compiled as source
    played = json.loads(run(["node", "play.js", server], cwd=tmp_path).splitlines()[-1])
    assert played["client"] == "typescript"
    check_played(server, played)


def test_python_client_plays_a_convoy(server, tmp_path):
    python = python_generator()
    env = {**os.environ, "PATH": f"{python.parent}{os.pathsep}{os.environ.get('PATH', '')}"}  # its ruff formats
    # the document this code serves: what openapi/openapi.json holds once current (test_openapi checks they agree)
    spec = tmp_path / "openapi.json"
    spec.write_text(document())
    generate = ["generate", "--path", spec, "--output-path", "umpire_client", "--meta", "none"]
    out = run([python, "-m", "openapi_python_client", *generate], cwd=tmp_path, env=env)
    assert out.split() == ["Generating", "umpire_client"], out  # no warning, no part left out
    out = run([python, PY / "play.py", server], cwd=tmp_path, env={**env, "PYTHONPATH": str(tmp_path)})
    played = json.loads(out.splitlines()[-1])
    assert played["client"] == "python"
    check_played(server, played)


def check_played(server: str, played: dict) -> None:
    """The game the script reports is on the server as it says: one whole convoy, every command the captain's, every
    event it appended seen by the client, the ship log read at the end, revealed, its bundle verified."""
    game_id = played["game_id"]
    game = httpx.get(f"{server}/games/{game_id}").json()
    bundle = httpx.get(f"{server}/games/{game_id}/bundle").json()
    assert game["ruleset"]["id"] == "corvette-command" and game["status"] == "revealed" and game["awaiting"] == []
    assert played["head"] == bundle["head"] == game["head"]
    assert played["bundle_events"] == len(bundle["events"]) == game["version"]
    assert played["verdict"] == "verified"

    sent = [c for c in bundle["commands"] if c["command_id"] not in ("create",) and c["payload"]["type"] != "reveal"]
    assert played["commands"] == len(sent) > 0
    assert {c["seat"] for c in sent} == {"captain"}
    # the genesis, then every event the commands appended, each seen by the client in a typed answer
    assert sum(played["event_types"].values()) == played["version"] - 1
    by_type: dict[str, int] = {}
    for e in bundle["events"][1 : played["version"]]:
        by_type[e["body"]["type"]] = by_type.get(e["body"]["type"], 0) + 1
    assert played["event_types"] == by_type
    ended = [e["body"]["data"] for e in bundle["events"] if e["body"]["type"] == "GameEnded"]
    assert played["ended"] == ended[0]
    ship_log = httpx.get(f"{server}/games/{game_id}/views/ship-log", params={"at": played["version"]}).json()
    assert played["ship_log"] == {
        "kind": "corvette-command/ship-log",
        "at": played["version"],
        "over": True,
        "convoys_done": ship_log["data"]["now"]["convoys_done"],
        "hull_damage": [[e["seat"], e["hull_damage"]] for e in ship_log["data"]["escorts"]],
    }
