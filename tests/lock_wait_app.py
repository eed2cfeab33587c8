"""The server's app (`uvicorn tests.lock_wait_app:app`) with one hook for test_contention's D7: when a command
starts a write that may wait (in a thread, sent there by WouldBlock), the file $UMPIRE_TEST_LOCK_WAIT_MARK is
created, and $UMPIRE_TEST_LOCK_OVER_MARK as soon as that wait ends (the lock had, or given up), on the thread that
waited. While the test holds SQLite's write lock from another process, that write waits (for the lock itself, or
for this process's write lock behind a background writer waiting for it): the test knows so instead of guessing
by a pause, and knows the wait is still on when an answer reaches it with no `over` mark."""

import os
import sys
from pathlib import Path

from events.store.sqlite import SQLiteStore
from service.asgi import app
from service.games import GameService

__all__ = ["app"]
_MARK = Path(os.environ["UMPIRE_TEST_LOCK_WAIT_MARK"])
_OVER = Path(os.environ["UMPIRE_TEST_LOCK_OVER_MARK"])
_COMMAND = GameService.command.__code__
_transaction = SQLiteStore._transaction


def _in_command() -> bool:
    frame = sys._getframe(2)
    while frame is not None and frame.f_code is not _COMMAND:
        frame = frame.f_back
    return frame is not None


class _Over:
    """The transaction, marking `over` once its BEGIN has returned or raised: before its thread does anything else
    (on the loop, before any other request's answer)."""

    def __init__(self, inner):
        self.inner = inner

    def __enter__(self):
        try:
            return self.inner.__enter__()
        finally:
            _OVER.touch()

    def __exit__(self, *exc):
        return self.inner.__exit__(*exc)


def _marking_transaction(self, wait: bool = True):
    if wait and _in_command():  # a command's write that may wait, not a background writer's (webhooks)
        _MARK.touch()
        return _Over(_transaction(self, wait))
    return _transaction(self, wait)


SQLiteStore._transaction = _marking_transaction
