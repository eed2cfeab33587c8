"""Entries of `awaiting` kept while what they read is unchanged: the one memo every ruleset's entries go through.

A ruleset builds an entry with a builder `(state, seats) -> CommandSpec | None` (None: not legal now) and declares
what the builder reads of the state, `reads(state) -> key`: hashable, cheaper than the build, and saying everything the
build depends on besides the seats. `kept` builds an entry once per (builder, seats, key) and hands back the very same
CommandSpec while the key is unchanged, so what is made from an entry can be kept as long as the entry is the same
object: each entry keeps its encoded bytes (engine.answered), which the service splices into the next answer. Entries
are shared: nobody mutates a CommandSpec.

A key that leaves out something its builder reads would show a stale entry: tests/test_awaiting_incremental.py holds
every ruleset's `awaiting` to a recomputation from scratch (`recomputed`) after every command of bot games.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

from domain.decisions import descriptors_wanted
from domain.engine import CommandSpec
from domain.procedure import FRESH, Kept
from events.vocabulary import Event

_KEPT: OrderedDict[tuple[Any, ...], CommandSpec | None] = OrderedDict()
KEPT_MAX = 1024  # entries of every game served at once; the oldest go first
_FRESH = FRESH.get  # asked for every entry of every answer
_MISSING: Any = object()  # not built yet (a kept entry may be None: not legal now)
UNKEYED: Any = object()  # what `reads` answers for a state no later state will match: built, not kept by key
E = TypeVar("E", CommandSpec, CommandSpec | None)


class Patch(NamedTuple):
    """How a kept entry follows the events of the types `by` that write a field it reads, instead of being dropped
    (procedure.Fold keeps it with those events): `apply(spec, state, events)` answers the entry at `state`, after
    `events`, from the entry it was before them, or None where it must be built again. For an entry of many parts of
    which an event changes one (aa1942's `fight` and `lose_submarines`: a raid changes the raided zone's), where
    building it again costs more than the rest of the command's rules."""

    by: frozenset[type[Event]]
    apply: Callable[[CommandSpec, Any, tuple[Event, ...]], CommandSpec | None]


def reads_nothing(state: Any) -> None:
    """The `reads` of an entry that is the same all game (given its seats): a refusal to fight on, a pass."""


def kept(
    build: Callable[[Any, list[str]], E],
    reads: Callable[[Any], Any] | None,
    state: Any,
    seats: list[str],
    fields: frozenset[str] | None = None,
    patch: Patch | None = None,
) -> E:
    """`build(state, seats)`, or the entry built for the same builder, seats and `reads(state)` before (a bot's
    entries, without descriptors, apart from a reader's). `fields`: the state's fields the builder reads (all of them,
    its key's included): the state then keeps the entry across the events that write none of them (procedure.Memo,
    Fold.writes), and hands it back without asking `reads` (each answer asked every entry's key: a raid's answer spent
    more on the keys of the entries it left unchanged than on the one it changed). `reads` None (with `fields`): the
    entry is kept on the state alone, for a builder whose key nearly every write of its fields changes (aa1942's
    `fight`, whose counts every raid changes): asking and storing a key no later state matches cost more than the
    build shares. `reads` answering UNKEYED does the same for the states it knows no later one matches (aa1942's
    `lose_submarines` once a raid of this turn changed it). `patch` (with `fields`): the events that `patch.apply`
    brings the kept entry up to date with (`Patch`)."""
    if _FRESH():
        return build(state, seats)
    spec: Any
    wanted = descriptors_wanted()
    if fields is not None:
        mine = state._entries
        at = (build, tuple(seats), wanted)
        if mine is not None:
            hit: Kept | None = mine.get(at)
            if hit is not None:
                _, spec, follows, since = hit
                if not since:
                    return spec  # type: ignore[no-any-return]  # what `build` made, no field of it written since
                spec = follows.apply(spec, state, since)  # only an entry with a patch is kept with events
                if spec is not None:  # what `build` made, brought up to date with the events since (`Patch`)
                    mine[at] = (fields, spec, patch, ())
                    return spec  # type: ignore[no-any-return]
    read = UNKEYED if reads is None else reads(state)
    if read is UNKEYED:
        spec = build(state, seats)
    else:
        key = (build, tuple(seats), wanted, read)
        spec = _KEPT.get(key, _MISSING)  # one lookup: other threads may evict
        if spec is _MISSING:
            spec = _KEPT[key] = build(state, seats)
            while len(_KEPT) > KEPT_MAX:
                try:
                    _KEPT.popitem(last=False)
                except KeyError:  # another thread took it
                    break
    if fields is not None:
        if mine is None:
            mine = state._entries = {}
        mine[at] = (fields, spec, patch, ())
    return spec  # type: ignore[no-any-return]  # what `build` made for this key


class recomputed:  # noqa: N801 - used as a `with` block
    """Within it, every entry is built from scratch and nothing is kept, nor any answer a state keeps
    (procedure.memoized): the full recomputation the kept entries are tested against."""

    def __enter__(self) -> None:
        self.token = FRESH.set(True)

    def __exit__(self, *_: object) -> None:
        FRESH.reset(self.token)
