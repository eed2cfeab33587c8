"""Instructions per command, counted by valgrind's callgrind: a figure that other work on the machine does not move.

Two parts, one in each process:

- in the measured program, `window(fn, *args)` runs `fn(*args)`; only what runs inside it is counted (callgrind
  toggles collection on entering and leaving `sys.call_tracing`, a C function nothing else in the service calls),
  so imports, set-up and warm-up before it are excluded;
- in the benchmark, `per_command(target, args, commands)` runs `python -c "import module; module.function(*args)"`
  under callgrind with PYTHONHASHSEED=0 and answers the instructions counted inside the window divided by
  `commands`, the number of commands `target` sends inside it.

    # benchmarks/mine.py
    def run(db: str) -> None:
        svc = ...                                 # set up and warm up: not counted
        window(lambda: [svc.command(...) for _ in range(50)])

    per_command("benchmarks.mine:run", ["/tmp/x.db"], commands=50)   # -> instructions per command

`available()` says whether valgrind is there (the benchmark reports the figure as not measured otherwise).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

VALGRIND = shutil.which("valgrind") or "/usr/bin/valgrind"
_MARK = "sys_call_tracing"  # the C function of sys.call_tracing: callgrind counts only while inside it
ROOT = Path(__file__).resolve().parent.parent


def window(fn: Callable[..., Any], *args: Any) -> Any:
    """Run `fn(*args)` inside the counted window (in the measured program)."""
    return sys.call_tracing(fn, args)


def available() -> bool:
    return os.path.exists(VALGRIND)


def count(target: str, args: Sequence[str] = (), env: dict[str, str] | None = None, cwd: Path = ROOT) -> int:
    """Instructions executed inside `window` by `module:function(*args)` run under callgrind, with the code of the
    tree `cwd` (this checkout, or a base commit's worktree)."""
    module, function = target.split(":")
    code = f"import sys, {module} as m; m.{function}(*sys.argv[1:])"
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "callgrind.out")
        argv = [
            VALGRIND, "--tool=callgrind", "--collect-atstart=no", f"--toggle-collect={_MARK}",
            f"--callgrind-out-file={out}", sys.executable, "-c", code, *args,
        ]  # fmt: skip
        proc = subprocess.run(
            argv,
            cwd=str(cwd),
            env={**os.environ, "PYTHONHASHSEED": "0", **(env or {})},
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"{target} under callgrind failed ({proc.returncode}): {proc.stderr[-2000:]}")
        text = Path(out).read_text()
    found = re.search(r"^summary:\s*(\d+)", text, re.M) or re.search(r"^totals:\s*(\d+)", text, re.M)
    if found is None:
        raise RuntimeError("callgrind wrote no summary")
    return int(found.group(1))


def per_command(
    target: str, args: Sequence[str], commands: int, env: dict[str, str] | None = None, cwd: Path = ROOT
) -> float:
    """Instructions per command: `count` divided by the `commands` the target sends inside its window."""
    return count(target, args, env, cwd) / commands
