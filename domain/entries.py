"""Entries of `awaiting` kept while what they read is unchanged: the one memo every ruleset's entries go through.

A ruleset builds an entry with a builder `(state, seats) -> CommandSpec | None` (None: not legal now) and declares
what the builder reads of the state, `reads(state) -> key`: hashable, cheaper than the build, and saying everything the
build depends on besides the seats. `kept` builds an entry once per (builder, seats, key) and hands back the very same
CommandSpec while the key is unchanged, so what is made from an entry can be kept as long as the entry is the same
object: the service keeps each entry's encoded bytes and splices them into the next answer (service/cache.py). Entries
are shared: nobody mutates a CommandSpec.

A key that leaves out something its builder reads would show a stale entry: tests/test_awaiting_incremental.py holds
every ruleset's `awaiting` to a recomputation from scratch (`recomputed`) after every command of bot games.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from domain.decisions import descriptors_wanted
from domain.engine import CommandSpec
from domain.procedure import FRESH

_KEPT: OrderedDict[tuple[Any, ...], CommandSpec | None] = OrderedDict()
KEPT_MAX = 1024  # entries of every game served at once; the oldest go first
_FRESH = FRESH.get  # asked for every entry of every answer
_MISSING: Any = object()  # not built yet (a kept entry may be None: not legal now)
E = TypeVar("E", CommandSpec, CommandSpec | None)


def reads_nothing(state: Any) -> None:
    """The `reads` of an entry that is the same all game (given its seats): a refusal to fight on, a pass."""


def kept(build: Callable[[Any, list[str]], E], reads: Callable[[Any], Any], state: Any, seats: list[str]) -> E:
    """`build(state, seats)`, or the entry built for the same builder, seats and `reads(state)` before (a bot's
    entries, without descriptors, apart from a reader's)."""
    if _FRESH():
        return build(state, seats)
    key = (build, tuple(seats), descriptors_wanted(), reads(state))
    hit = _KEPT.get(key, _MISSING)  # one lookup: other threads may evict
    if hit is not _MISSING:
        return hit  # type: ignore[no-any-return]  # what `build` made for this key
    spec = _KEPT[key] = build(state, seats)
    while len(_KEPT) > KEPT_MAX:
        try:
            _KEPT.popitem(last=False)
        except KeyError:  # another thread took it
            break
    return spec


class recomputed:  # noqa: N801 - used as a `with` block
    """Within it, every entry is built from scratch and nothing is kept, nor any answer a state keeps
    (procedure.memoized): the full recomputation the kept entries are tested against."""

    def __enter__(self) -> None:
        self.token = FRESH.set(True)

    def __exit__(self, *_: object) -> None:
        FRESH.reset(self.token)
