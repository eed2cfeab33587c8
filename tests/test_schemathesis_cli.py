"""Schemathesis from outside the suite, as a frontend author or a CI job runs it (issue #8 item 6): the `st` CLI with
every check and every phase (examples, coverage, fuzzing, stateful) against a real server process finds nothing.
What the runs are told, and why, is written in tests/schemathesis.toml (passed with --config-file) and, for the run
with a seat's token, below. UMPIRE_ST_EXAMPLES and UMPIRE_ST_SEED widen or vary a run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.clients.tools import ROOT
from tests.drivers import SHORT
from tests.live import server_process

ST = Path(sys.executable).parent / "st"
CONFIG = ROOT / "tests" / "schemathesis.toml"
EXAMPLES = os.environ.get("UMPIRE_ST_EXAMPLES", "10")
SEED = os.environ.get("UMPIRE_ST_SEED", "1")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # no creation limit: the fuzzer creates games by the hundred, and a 429 would only stop it reaching deeper
    db = str(tmp_path_factory.mktemp("st") / "st.db")
    with server_process(db, env={"UMPIRE_CREATE_PER_MINUTE": "0"}) as (base, _):
        yield base


def st_run(server: str, config: Path, cwd: Path, *extra: str) -> str:
    cmd = [str(ST), "--config-file", str(config), "run", f"{server}/openapi.json", "--checks", "all"]
    cmd += ["--max-examples", EXAMPLES, "--seed", SEED, "--workers", "2", "--generation-database", ":memory:"]
    # hypothesis's "too slow" health check times the generation of test data: on a loaded CI machine that says how busy
    # the machine is, not anything about the API
    cmd += ["--suppress-health-check", "too_slow", "--no-color", *extra]
    for attempt in range(2):
        r = subprocess.run(cmd, check=False, cwd=cwd, capture_output=True, text=True, timeout=1200)
        out = r.stdout + r.stderr
        if r.returncode == 0 or "FAILURES" in out or attempt == 1:
            break
        # an error of the run itself (ERRORS, no failed check: a request the loaded machine did not answer in time,
        # hypothesis giving up on generating data) is shown and the run made once more; a failed check never is
        print(f"st run ended with errors and no failed check; running it again:\n{out[-12000:]}", file=sys.stderr)
    assert r.returncode == 0, out[out.find("FAILURES") :][:20000] if "FAILURES" in out else out[-12000:]
    for phase in ("Coverage", "Fuzzing", "Stateful"):  # the examples phase runs too; the document has no examples
        assert f"✅ {phase}" in out, f"phase {phase} did not run clean:\n{out[-6000:]}"
    return out


def test_st_run_finds_nothing(server, tmp_path):
    st_run(server, CONFIG, tmp_path)


def test_st_run_with_a_seat_token_finds_nothing(server, tmp_path):
    """The same aimed at one corvette-command game with its captain's token, so that commands, seeds and the
    referee's operations get past the 401 and reach the rules."""
    made = httpx.post(f"{server}/games", json={"ruleset": "corvette-command", "options": SHORT["corvette-command"]}).json()
    captain = next(s["token"] for s in made["seats"] if s["seat"] == "captain")
    config = tmp_path / "schemathesis.toml"
    config.write_text(  # this run's entries first: the first entry naming an operation is the one that applies
        """
[[operations]]
include-name = "POST /games/{game_id}/commands"
# The body schema is every ruleset's commands (OpenAPI cannot make a body depend on the game in the path). A command
# of another ruleset is refused with 409 illegal-command, but a type two rulesets share (`start`) is read as this
# game's own, so the other ruleset's arguments for it get 422 invalid-command.
# If-Match may name another version than the game's (412), as in the first run.
checks.positive_data_acceptance.expected-statuses = [
    "2xx", "3xx", "401", "403", "404", "409", "412", "422", "429", "5xx"
]

[[operations]]
include-name = "POST /games/{game_id}/token"
# Rotating the token would void the very token this run is told to send (that it does is tested in test_play.py).
enabled = false

"""
        + CONFIG.read_text()
        + f"""
[parameters]
game_id = "{made["game_id"]}"
"""
    )
    # Valid data only (`--mode positive`): the fixed game_id would turn the invalid ids of negative cases back into
    # a valid one, so that they would be refused for their other parts or not at all; the first run sends invalid
    # data to every operation.
    # The fixed game_id takes the place of the id a stateful link carries from a game just created, so "the resource
    # just created is found" (ensure_resource_availability) would be asked of the captain's game instead, whose reader
    # has no webhook (404 no-notifications); the first run, without a fixed id, keeps that check.
    out = st_run(
        server, config, tmp_path, "--header", f"Authorization: Bearer {captain}", "--mode", "positive",
        "--exclude-checks", "ensure_resource_availability",
    )  # fmt: skip
    warnings = out.partition("WARNINGS")[2].partition("SUMMARY")[0]
    stopped = re.findall(r"(?:Authentication failed|Missing test data):.*?💡", warnings, re.DOTALL)
    assert not any("POST /games/{game_id}/commands" in w for w in stopped), f"commands stopped short:\n{warnings}"
