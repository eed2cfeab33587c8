"""The server's app (`uvicorn tests.lock_wait_app:app`) with one hook for test_contention's D7: when a command
starts a write that may wait (in a thread, sent there by WouldBlock), the file $UMPIRE_TEST_LOCK_WAIT_MARK is
created. While the test holds SQLite's write lock from another process, that write waits (for the lock itself, or
for this process's write lock behind a background writer waiting for it): the test knows so instead of guessing
by a pause."""

import os
import sys
from pathlib import Path

from events.store.sqlite import SQLiteStore
from service.asgi import app
from service.games import GameService

__all__ = ["app"]
_MARK = Path(os.environ["UMPIRE_TEST_LOCK_WAIT_MARK"])
_COMMAND = GameService.command.__code__
_transaction = SQLiteStore._transaction


def _in_command() -> bool:
    frame = sys._getframe(2)
    while frame is not None and frame.f_code is not _COMMAND:
        frame = frame.f_back
    return frame is not None


def _marking_transaction(self, wait: bool = True):
    if wait and _in_command():  # a command's write that may wait, not a background writer's (webhooks)
        _MARK.touch()
    return _transaction(self, wait)


SQLiteStore._transaction = _marking_transaction
