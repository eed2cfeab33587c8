"""openapi/client-ts, the package @naval-umpire/client: the generated types (src/api.ts) are those of
openapi/openapi.json, the hand-written layer (src/*.ts) compiles strict, the compiled copy the desk loads
(service/desk/js/client/) is current, its own tests (node --test, test/client.test.ts: every method) pass against a
real server process, and `npm pack` makes a tarball that installs and imports by its entry points. Without node the test skips and says
what to install, except under CI=true, where it fails (tests/clients/tools.py)."""

from __future__ import annotations

import os
import shutil
import tarfile

import pytest

from tests.clients.tools import ROOT, SPEC, need, node_packages, run
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
    for name in sorted(p.name for p in (tmp_path / "out").glob("*.js")):
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
    env = {"UMPIRE_CREATE_PER_MINUTE": "0", "UMPIRE_WEBHOOK_ALLOW": "127.0.0.1"}  # the tests' webhook receiver
    with server_process(str(tmp_path / "ts.db"), env=env) as (base, _):
        text = run(["node", "--test", out / "test" / "client.test.js"],
                   env={**os.environ, "UMPIRE_URL": base, "UMPIRE_OPENAPI": str(SPEC)})  # fmt: skip
    assert "# fail 0" in text and "# pass 13" in text, text


def test_npm_pack_makes_a_package_that_installs_and_imports(modules, tmp_path):
    npm = need("npm", "npm (it comes with Node.js)")
    work = tmp_path / "client"
    shutil.copytree(CLIENT, work, ignore=shutil.ignore_patterns("node_modules", "dist", "examples", "*.tgz"))
    (work / "node_modules").symlink_to(modules)
    run([npm, "pack", "--pack-destination", tmp_path], cwd=work)  # `prepare` builds dist/ with tsc
    (tarball,) = tmp_path.glob("naval-umpire-client-*.tgz")
    with tarfile.open(tarball) as tar:
        files = {name.removeprefix("package/") for name in tar.getnames()}
    assert {"package.json", "README.md", "CHANGELOG.md", "dist/client.js", "dist/client.d.ts", "dist/types.d.ts"} <= files
    assert not any(f.startswith(("test/", "examples/")) for f in files), files
    app = tmp_path / "app"
    app.mkdir()
    (app / "package.json").write_text('{"name": "app", "private": true, "type": "module"}')
    run([npm, "install", "--offline", "--no-audit", "--no-fund", tarball], cwd=app)
    entries = ["@naval-umpire/client", "@naval-umpire/client/types", "@naval-umpire/client/decisions"]
    script = "".join(f"console.log(Object.keys(await import('{e}')).sort().join(','));" for e in entries)
    out = run(["node", "--input-type=module", "-e", script], cwd=app).splitlines()
    assert {"Umpire", "Problem", "IllegalCommand", "command", "readSse"} <= set(out[0].split(",")), out
    assert out[1] == "", out  # types only: nothing at run time
    assert {"decisionForm", "known", "KNOWN_KINDS"} <= set(out[2].split(",")), out


def test_the_clients_problem_codes_are_every_code_the_api_docs_list():
    """client.ts `ProblemCode` says it is every `code` of docs/api.md "Errors" (a code added to the table and not to
    the union would type-check only as a plain string)."""
    import re

    errors = (ROOT / "docs" / "api.md").read_text().split("## Errors", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[2] for line in errors.splitlines() if re.match(r"\| \d{3} \|", line)]
    documented = {c for row in rows for c in re.findall(r"`([a-z][a-z0-9-]*)`", row)}
    union = (ROOT / "openapi" / "client-ts" / "src" / "client.ts").read_text().split("export type ProblemCode =", 1)[1]
    listed = set(re.findall(r'"([a-z][a-z0-9-]*)"', union.split(";", 1)[0]))
    assert len(documented) > 40 and documented <= listed, sorted(documented - listed)


def test_the_version_is_the_same_everywhere_the_package_names_it():
    """package.json's version is package-lock.json's (both of its own fields), the CHANGELOG's newest heading, and
    that of every tarball name the package's READMEs and the starter tell a reader to install."""
    import json
    import re

    version = json.loads((CLIENT / "package.json").read_text())["version"]
    lock = json.loads((CLIENT / "package-lock.json").read_text())
    assert lock["version"] == lock["packages"][""]["version"] == version
    assert re.search(r"^## (\S+)", (CLIENT / "CHANGELOG.md").read_text(), re.M).group(1) == version
    named = {
        (path.relative_to(CLIENT).as_posix(), found)
        for path in [*CLIENT.glob("*.md"), *(CLIENT / "examples").rglob("*")]
        if path.is_file() and "node_modules" not in path.parts and path.suffix in {".md", ".ts", ".json", ".html"}
        for found in re.findall(r"naval-umpire-client-(\d+\.\d+\.\d+)\.tgz", path.read_text())
    }
    assert {p for p, _ in named} >= {"README.md", "examples/two-seat/README.md"}
    assert {(p, v) for p, v in named if v != version} == set()
