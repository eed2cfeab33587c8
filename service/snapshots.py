"""Snapshots: a game's state saved every N events (a cache in the store), so a cold load folds only what came after.

The state is pickled: it is written and read by this server alone, in its own database. The game's ruleset and data
set are not saved but found again on load (those its genesis names)."""

from __future__ import annotations

import io
import pickle
from typing import Any

from domain.engine import Game
from events.store import GameRow
from service import ENGINE_VERSION

# 2: Game.rules became Game.state; a format-1 snapshot would unpickle without it. 3: aa1942's campaign sheet left its
# state (the ruleset's history, folded from the log): a format-2 state would unpickle with the sheet and without the
# running totals that replaced it. 4: Game.extend_next (a referee's extension for a seat not on the clock), which a
# format-3 game would unpickle without
SNAPSHOT_FORMAT = 4


def snapshot_key(row: GameRow) -> str:
    """What a snapshot is valid for: this engine and format, the game's ruleset version and data set."""
    return f"{ENGINE_VERSION}/{SNAPSHOT_FORMAT}/{row.ruleset}/{row.ruleset_version}/{row.data_sha256}"


class _SnapshotPickler(pickle.Pickler):
    """The game's ruleset and data set are not saved: they are the ones its genesis names, found again on load."""

    def __init__(self, file, game: Game):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._external = {id(game.ruleset): "ruleset", id(game.data): "data"}

    def persistent_id(self, obj: Any) -> str | None:
        return self._external.get(id(obj))


class _SnapshotUnpickler(pickle.Unpickler):
    def __init__(self, file, base: Game):
        super().__init__(file)
        self._external = {"ruleset": base.ruleset, "data": base.data}

    def persistent_load(self, pid: str) -> Any:
        return self._external[pid]


def take_snapshot(game: Game) -> bytes:
    buf = io.BytesIO()
    _SnapshotPickler(buf, game).dump(game)
    return buf.getvalue()


def restore_snapshot(blob: bytes, genesis_game: Game) -> Game | None:
    """A game from a snapshot this server wrote (its own database: trusted), or None if it does not load."""
    try:
        game = _SnapshotUnpickler(io.BytesIO(blob), genesis_game).load()
    except Exception:  # noqa: BLE001 - a snapshot is a cache: when it fails, the log is folded instead
        return None
    return game if isinstance(game, Game) else None
