"""Backups of a live store and the check of every game in a store (issue 34 item 1; docs/operations.md "Backups").

A SQLite store is copied with SQLite's online backup API in one read transaction: the store runs in WAL mode, so
commands go on while it runs (a reader never blocks a writer), and the copy is one consistent snapshot that holds
every command acknowledged before it began (a plain `cp` of a live store misses what is still in its `-wal` file).
Copied in steps instead, a backup restarts whenever another connection writes between two steps, and under a
steady stream of commands it might never end. A PostgreSQL store is copied with `pg_dump`. A backup holds the
server seeds and the token hashes: it is written with mode 0600, never readable by others even for a moment."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PRIVATE = 0o600


def _private_file(dest: Path) -> None:
    """Create `dest` empty with mode 0600 (whatever the umask), refusing to overwrite a file that exists."""
    fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    os.fchmod(fd, PRIVATE)
    os.close(fd)


def pg_dump_command(url: str, dest: Path) -> list[str]:
    """What copies a PostgreSQL store: the custom format, restored with `pg_restore --dbname URL DEST`."""
    return ["pg_dump", "--format=custom", "--no-owner", f"--file={dest}", url]


def backup(src: str, dest: Path) -> str:
    """Copy the store at `src` (a SQLite file or a postgresql:// URL) to `dest`, mode 0600. Returns how it was made.
    Raises FileExistsError when `dest` exists, FileNotFoundError when pg_dump is needed and missing."""
    if src.startswith(("postgresql://", "postgres://")):
        if shutil.which("pg_dump") is None:
            raise FileNotFoundError(" ".join(pg_dump_command(src, dest)))
        _private_file(dest)
        try:
            subprocess.run(pg_dump_command(src, dest), check=True, capture_output=True, text=True)
        except subprocess.CalledProcessError as e:
            dest.unlink(missing_ok=True)
            raise RuntimeError(f"pg_dump failed: {e.stderr.strip()}") from None
        return "pg_dump (custom format)"
    if not Path(src).is_file():
        raise FileNotFoundError(f"no SQLite store at {src}")
    _private_file(dest)
    source = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
    target = sqlite3.connect(dest)
    try:
        with target:
            source.backup(target)
        target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file: no -wal beside it
    except BaseException:
        target.close()
        dest.unlink(missing_ok=True)
        raise
    finally:
        source.close()
    target.close()
    os.chmod(dest, PRIVATE)
    return "SQLite online backup"


def verify_store(svc: Any, game_ids: list[str] | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
    """(game id, its bundle's verification report) for every game of the service's store, or those named: the checks
    `umpire verify` runs on a bundle (chain, sealed records, and the dice and replay where the seed is revealed)."""
    from service.replay import verify

    for game_id in game_ids if game_ids is not None else svc.store.game_ids():
        yield game_id, verify(svc.bundles.bundle_bytes(game_id))
