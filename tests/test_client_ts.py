"""openapi/client-ts: the generated types (src/api.ts) are those of openapi/openapi.json, the hand-written layer
(src/client.ts) compiles strict, the compiled copy the desk loads (service/desk/js/client/) is current, and its own
tests (node --test, test/client.test.ts) pass against a real server process. Without node the test skips and says
what to install, except under CI=true, where it fails (tests/clients/tools.py)."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.clients.tools import ROOT, SPEC, node_packages, run
from tests.live import server_process

CLIENT = ROOT / "openapi" / "client-ts"
DESK_COPY = ROOT / "service" / "desk" / "js" / "client"


@pytest.fixture(scope="module")
def modules():
    return node_packages()


def test_the_generated_types_are_current(modules, tmp_path):
    run([modules / ".bin" / "openapi-typescript", SPEC, "--default-non-nullable", "false", "-o", tmp_path / "api.ts"])
    assert (tmp_path / "api.ts").read_text() == (CLIENT / "src" / "api.ts").read_text(), (
        "openapi/client-ts/src/api.ts is stale: run `make client-ts`"
    )


def test_the_desks_compiled_copy_is_current(modules, tmp_path):
    work = tmp_path / "client"
    shutil.copytree(CLIENT, work, ignore=shutil.ignore_patterns("node_modules"))
    (work / "node_modules").symlink_to(modules)
    run([modules / ".bin" / "tsc", "-p", work, "--outDir", tmp_path / "out"])
    for name in ("client.js", "api.js", "decisions.js"):
        assert (tmp_path / "out" / name).read_text() == (DESK_COPY / name).read_text(), (
            f"service/desk/js/client/{name} is stale: run `make client-ts`"
        )


def test_the_clients_own_tests_pass_against_a_server(modules, tmp_path):
    work = tmp_path / "client"
    shutil.copytree(CLIENT, work, ignore=shutil.ignore_patterns("node_modules"))
    (work / "node_modules").symlink_to(modules)
    out = tmp_path / "out"
    run([modules / ".bin" / "tsc", "-p", work / "tsconfig.test.json", "--outDir", out])  # strict, the tests too
    (out / "package.json").write_text('{"type": "module"}')
    with server_process(str(tmp_path / "ts.db"), env={"UMPIRE_CREATE_PER_MINUTE": "0"}) as (base, _):
        text = run(["node", "--test", out / "test" / "client.test.js"], env={**os.environ, "UMPIRE_URL": base})
    assert "# fail 0" in text and "# pass 4" in text, text
