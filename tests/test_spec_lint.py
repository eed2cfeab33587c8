"""`npx @redocly/cli lint openapi/openapi.json --config openapi/redocly.yaml` is clean (issue #8 item 6): Redocly's
recommended rules with every warning an error, through the @redocly/cli that tests/clients/ts/package-lock.json pins."""

from __future__ import annotations

import json
import subprocess

from tests.clients.tools import ROOT, SPEC, node_packages


def test_redocly_lint_finds_nothing():
    redocly = node_packages() / ".bin" / "redocly"
    config = ROOT / "openapi" / "redocly.yaml"
    cmd = [str(redocly), "lint", str(SPEC.relative_to(ROOT)), "--config", str(config.relative_to(ROOT)), "--format", "json"]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    report = json.loads(r.stdout)  # stderr carries only the tool's notices (e.g. about the Node.js version)
    problems = [(p["ruleId"], p["message"], [at.get("pointer") for at in p["location"]]) for p in report["problems"]]
    assert problems == [] and report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}
    assert r.returncode == 0, r.stderr
