"""The toolchains of the client tests, each installed once per lock file into a cache in the temp dir (override with
UMPIRE_CLIENT_CACHE): the node packages of tests/clients/ts/package-lock.json (`npm ci`), and the Python client
generator of tests/clients/python/requirements.txt in a venv of its own (its typer pin conflicts with the server's).
Without node and npm a test skips and says what to install, except under CI (CI=true), where it fails."""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SPEC = ROOT / "openapi" / "openapi.json"
TS = HERE / "ts"
PY = HERE / "python"


def need(tool: str, install: str) -> str:
    path = shutil.which(tool)
    if path:
        return path
    message = f"{tool} is not installed: install {install} to run this test"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message} (CI=true: this test does not skip)")
    pytest.skip(message)


def run(args: list, **kwargs) -> str:
    """Run a command; its output (stdout, then stderr) without colour codes, or a failure that shows it."""
    r = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=600, check=False, **kwargs)
    out = re.sub(r"\x1b\[[0-9;]*m", "", r.stdout + r.stderr)
    if r.returncode != 0:
        pytest.fail(f"`{' '.join(str(a) for a in args)}` exited {r.returncode}:\n{out[-8000:]}")
    return out


def cached(kind: str, inputs: list[Path], build: Callable[[Path], None], key: str = "") -> Path:
    """A directory built once per content of `inputs` (a lock file): concurrent test runs wait for one build."""
    digest = hashlib.sha256(key.encode() + b"".join(p.read_bytes() for p in inputs)).hexdigest()[:16]
    root = Path(os.environ.get("UMPIRE_CLIENT_CACHE") or tempfile.gettempdir()) / f"naval-umpire-{kind}-{digest}"
    done = root / ".complete"
    if done.exists():
        return root
    root.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{root}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(root, ignore_errors=True)
            root.mkdir()
            build(root)
            done.touch()
    return root


def node_packages() -> Path:
    """node_modules of tests/clients/ts, as its package-lock.json pins them."""
    need("node", "Node.js 20 or later (it brings npm)")
    npm = need("npm", "npm (it comes with Node.js)")

    def build(root: Path) -> None:
        for name in ("package.json", "package-lock.json"):
            shutil.copy(TS / name, root / name)
        run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=root)

    return cached("node", [TS / "package.json", TS / "package-lock.json"], build) / "node_modules"


def python_generator() -> Path:
    """The python of a venv holding tests/clients/python/requirements.txt (openapi-python-client and its pins)."""

    def build(root: Path) -> None:
        run([sys.executable, "-m", "venv", root / "venv"])
        pip = [root / "venv" / "bin" / "python", "-m", "pip", "--disable-pip-version-check", "--quiet"]
        run([*pip, "install", "--requirement", PY / "requirements.txt"])

    return cached("python", [PY / "requirements.txt"], build, key=sys.version) / "venv" / "bin" / "python"
