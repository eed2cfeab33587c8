"""`umpire serve` (`make run`) stopped with SIGTERM says nothing of leaked semaphores: the bundle verifier's process
pool (service/verifier.py) is released before uvicorn ends the process by raising the signal again, which skips the
exit handlers that would otherwise unlink what is left."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import urllib.request
from concurrent.futures import process
from multiprocessing import synchronize, util
from pathlib import Path

import pytest

from service.rulesets import RULESETS
from service.settings import Settings
from service.verifier import Verifier
from tests.live import server_process

PACIFIC = (Path(__file__).resolve().parent.parent / "replays" / "aa1942-pacific.3.0.0.json").read_bytes()


def semaphores() -> int:
    """Semaphores of this process not yet released (each is unlinked, and the resource tracker told, when it goes)."""
    finalizers = list(util._finalizer_registry.values())
    return sum(getattr(f, "_callback", None) is synchronize.SemLock._cleanup for f in finalizers)


def test_closing_the_verifier_waits_until_its_pool_semaphores_are_released(tmp_path, monkeypatch):
    """The pool's manager thread holds its queues' semaphores until it ends. Here it ends only once someone waits for
    it (as on a loaded machine, where it ended after the shutdown): close() must wait, or the semaphores outlive it."""
    gate = threading.Event()
    wind_down = process._ExecutorManagerThread.join_executor_internals

    def late(self):
        gate.wait(30)
        wind_down(self)

    def join(self, timeout=None):
        gate.set()
        threading.Thread.join(self, timeout)

    monkeypatch.setattr(process._ExecutorManagerThread, "join_executor_internals", late)
    monkeypatch.setattr(process._ExecutorManagerThread, "join", join)
    db = str(tmp_path / "v.db")
    verifier = Verifier(Settings(db=db), db, None, RULESETS)
    before = semaphores()
    try:
        assert verifier._executor().submit(int, "7").result(timeout=60) == 7  # the pool and its worker are up
        assert semaphores() > before
        verifier.close()
        assert semaphores() == before
    finally:
        gate.set()


@pytest.mark.slow
def test_a_sigtermed_server_logs_no_leaked_semaphores(tmp_path):
    with server_process(str(tmp_path / "s.db"), serve=True, stderr=subprocess.PIPE) as (base, proc):
        req = urllib.request.Request(
            f"{base}/bundles/verify", data=PACIFIC, headers={"content-type": "application/json"}, method="POST"
        )
        with urllib.request.urlopen(req, timeout=60) as r:  # the verifier's pool started
            assert json.load(r)["verdict"] == "verified"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)  # to the end of stderr: the resource tracker's lines too
    text = err.decode()
    assert "Application shutdown complete" in text, text
    assert "resource_tracker" not in text and "leaked" not in text, text
