"""What every ruleset's `decide` and `evolve` share, owned once: the working copy a multi-step `decide` evolves (`Ctx`,
`working_copy`), the driver that runs the game on to its next decision (`run`), a roll against a target
(`Ctx.check`), the fold that makes `evolve` total by construction and owns the core's events (`fold`), and the answers
a state keeps until its next event (`memoized`).

`decide` works on a working copy: each event is applied to it as it is emitted, so a step reads the state the previous
step left, and a rejected command leaves the caller's state untouched. Each roll is recorded with what it decided.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from typing import Any, Generic, Protocol, TypeVar

from msgspec.structs import replace

from domain.dice import Dice
from events.core import CORE_EVENTS, GameEnded, RollModifier, RollResult
from events.vocabulary import Event

MAX_STEPS = 10_000  # a guard against a procedure that would never stop


class Playing(Protocol):
    """What the core reads of every ruleset's state: whether its game is over (`run` stops there; `fold` sets it at a
    GameEnded)."""

    over: bool


S = TypeVar("S")  # a ruleset's state
P = TypeVar("P", bound=Playing)
Evolve = Callable[[S, Event], S]
# a handler applies one event type (the key it is filed under) to the state; Any: the table pairs each type with its own
Handler = Callable[[S, Any], None]


# ---- the working copy ------------------------------------------------------------------------------------------

_COPIERS: dict[type, Callable[[Any], Any]] = {}


def working_copy(x: Any) -> Any:
    """A copy as deep as `evolve` mutates, one strategy for every ruleset (docs/architecture.md has its measured cost):
    dataclasses, dicts, lists and sets are copied; everything else is shared, because nothing changes it in place:
    msgspec Structs (data sets, event records, frozen records), frozen dataclasses, tuples, scalars. How a type is
    copied is worked out once per type, and shared values are not even visited twice."""
    return _copier(type(x))(x)


def _copier(t: type) -> Callable[[Any], Any]:
    copier = _COPIERS.get(t)
    if copier is None:
        copier = _COPIERS[t] = _copier_for(t)
    return copier


def _share(x: Any) -> Any:
    return x


def _copy_list(x: list[Any]) -> list[Any]:
    out = list(x)
    for i, v in enumerate(out):
        copier = _COPIERS.get(type(v)) or _copier(type(v))
        if copier is not _share:
            out[i] = copier(v)
    return out


def _copy_dict(x: dict[Any, Any]) -> dict[Any, Any]:
    out = dict(x)
    for k, v in out.items():
        copier = _COPIERS.get(type(v)) or _copier(type(v))
        if copier is not _share:
            out[k] = copier(v)
    return out


def _copier_for(t: type) -> Callable[[Any], Any]:
    if t is list:
        return _copy_list
    if t is dict:
        return _copy_dict
    if t is set:
        return set.copy  # items are hashable, so immutable
    if dataclasses.is_dataclass(t) and not t.__dataclass_params__.frozen:  # type: ignore[attr-defined] # not in typeshed

        def copy_dataclass(x: Any) -> Any:
            clone = object.__new__(t)
            clone.__dict__ = _copy_dict(x.__dict__)
            return clone

        return copy_dataclass
    return _share


class in_place:  # noqa: N801 - used as a `with` block, like contextlib's; a class costs less than a generator
    """Within it, a `Ctx` works on the state it is given, not a copy, and is listed in `made`: the simulator's and
    the service's way (engine.decide_in_place): the copy costs a third of a corvette convoy's instructions and a
    quarter of a uboat-leader command's. A refusal here may leave the state half-changed: the caller reads it again
    (the service) or abandons the game (the simulator). `in_place(False)` copies again.

    `emitting(event, index)` is called with each event before the state takes it (`index`: its place among the
    Ctx's events): what the engine fills in only once an event is numbered (a seal's salt and commitment) must be
    in it before the state reads it, since there is no later fold."""

    def __init__(self, on: bool = True, emitting: Callable[[Event, int], None] | None = None):
        self.on, self.emitting = on, emitting
        self.made: list[Ctx[Any]] = []

    def __enter__(self) -> list[Ctx[Any]]:
        self.token = _IN_PLACE.set(self if self.on else None)
        return self.made

    def __exit__(self, *_: object) -> None:
        _IN_PLACE.reset(self.token)


_IN_PLACE: ContextVar[in_place | None] = ContextVar("in_place", default=None)


# ---- what a state answers, kept until its next event ------------------------------------------------------------

_MEMO = "_memo"  # the attribute of a `Memo` state holding its answers: {function, or (function, *args): answer}
# Read and set as an attribute, never through `__dict__`: CPython keeps an instance's attributes inline until its
# `__dict__` is asked for, and an object whose dict has been made reads every attribute slower (a corvette convoy
# cost 6% more once the fold looked at its state's `__dict__`, counted).
_MISSING: Any = object()
FRESH: ContextVar[bool] = ContextVar("fresh", default=False)  # set by entries.recomputed: nothing kept, all asked


class Memo:
    """A state whose answers to the rules' questions (`memoized`) it keeps until the fold applies its next event
    (`Fold` drops them): only events change a state, so until then an answer stands. The answers are no part of the
    state: never pickled (a snapshot), compared or shown; a working copy starts with those of the state it copies,
    which it equals.

    It also keeps the `awaiting` entries whose builders declared the fields they read (domain/entries.py), each with
    those fields, across events: the fold drops an entry only when an event writes one of them (`Fold.writes`), or,
    for an entry that follows that event's type (`entries.Patch`), keeps it with the event."""

    _memo: dict[Any, Any] | None = None  # none kept (the class's: a state holds its own only once asked)
    # (builder, seats, descriptors wanted) -> its entry, kept across events
    _entries: dict[Any, Kept] | None = None

    def __getstate__(self) -> dict[str, Any]:
        d = self.__dict__
        return {k: v for k, v in d.items() if k not in _KEPT_APART} if _MEMO in d or _ENTRIES in d else d


# An `awaiting` entry a state keeps (domain/entries.py): (the state's fields its builder reads, the entry, its
# entries.Patch or None (dropped by any event that writes a field it reads), the events the patch follows folded since
# the entry was made, a turn's raids at most). A plain tuple, unpacked by name: as a NamedTuple, made and read on every
# event and answer, it cost a raid 21 k instructions (counted).
Kept = tuple[frozenset[str], Any, Any, tuple[Event, ...]]


_ENTRIES = "_entries"
_KEPT_APART = (_MEMO, _ENTRIES)


def forget(state: Any) -> None:
    """Drop what `state` answered (`memoized`) and the entries it kept: for a state changed other than by its events (a
    test's set-up)."""
    state._memo = state._entries = None


F = TypeVar("F", bound=Callable[..., Any])


def memoized(fn: F) -> F:
    """`fn(state, *args)` asked once per state between events (hashable `args`; the state a `Memo`): for a question a
    command asks several times of one state (uboat-leader's decision awaited: as its command is judged, after each
    step of the procedure, for its answer's `awaiting`). Nobody mutates an answer: callers share it."""

    @functools.wraps(fn)
    def answer(state: Any, *args: Any) -> Any:
        if FRESH.get():
            return fn(state, *args)
        memo = state._memo
        if memo is None:
            memo = state._memo = {}
        key = (fn, *args) if args else fn
        out = memo.get(key, _MISSING)
        if out is _MISSING:
            out = memo[key] = fn(state, *args)
        return out

    return answer  # type: ignore[return-value]


# ---- the step driver -------------------------------------------------------------------------------------------


class Ctx(Generic[S]):
    """decide's working copy of the state (`working_copy`), the dice, and the events emitted so far."""

    def __init__(self, state: S, dice: Dice, evolve: Evolve[S]):
        place = _IN_PLACE.get()
        self.state = working_copy(state) if place is None else state
        self.emitting = None if place is None else place.emitting
        if place is not None:
            place.made.append(self)
        self.dice = dice
        self.evolve = evolve
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for e in events:
            if self.emitting is not None:
                self.emitting(e, len(self.events))
            self.events.append(e)
            self.evolve(self.state, e)

    def roll(
        self,
        n: int,
        purpose: str,
        rule: str,
        outcome: Callable[[list[int]], str | RollResult] | None = None,
        sides: int = 6,
        rerolls: int | None = None,
    ) -> list[int]:
        """Roll n dice and record them; `outcome(faces)` says what they decided (a str or a RollResult); `rerolls`:
        the k of the roll this one supersedes, where a rule says to roll again."""
        r = self.dice.roll([sides] * n, purpose, rule)
        if outcome is not None:
            said = outcome(r.faces)
            r = replace(r, result=said if isinstance(said, RollResult) else RollResult(outcome=said))
        if rerolls is not None:
            r = replace(r, rerolls=rerolls)
        self.emit(r)
        return r.faces

    def check(
        self,
        purpose: str,
        rule: str,
        mods: Sequence[tuple[str, int]] = (),
        *,
        sides: int = 6,
        target: int | None = None,
        judge: Callable[[int, int], str] | None = None,
        side: str = "active",
    ) -> tuple[int, int]:
        """Roll one die, add the modifiers, and record the target, the total, each non-zero modifier (with its reason
        and `side`) and the outcome: `judge(face, total)`, by default success when the total reaches the target.
        Returns (face, total)."""
        r = self.dice.roll([sides], purpose, rule)
        face = r.faces[0]
        total = face + sum(v for _, v in mods)
        if judge is None:
            if target is None:
                raise ValueError(f"{rule}: a check without a judge has a target")
            need = target
            judge = lambda f, t: "success" if t >= need else "failure"  # noqa: E731
        result = RollResult(
            outcome=judge(face, total),
            target=target,
            total=total,
            modifiers=[RollModifier(reason=why, value=v, side=side) for why, v in mods if v],
        )
        self.emit(replace(r, result=result))
        return face, total

    def passes(self, purpose: str, rule: str, need: int, mods: Sequence[tuple[str, int]] = ()) -> bool:
        """1D6 + modifiers >= need: `check` asked for its yes or no."""
        return self.check(purpose, rule, mods, target=need)[1] >= need


def run(ctx: Ctx[P], awaited: Callable[[P], object], advance: Callable[[Ctx[P]], None]) -> list[Event]:
    """Advance until a decision is awaited (`awaited(state)` is not None) or the game is over."""
    for _ in range(MAX_STEPS):
        s = ctx.state
        if s.over or awaited(s) is not None:
            return ctx.events
        advance(ctx)
    raise RuntimeError("the procedure did not reach a decision")


# ---- the fold --------------------------------------------------------------------------------------------------


def _over(state: Playing, e: GameEnded) -> None:
    state.over = True


# What the core's events do to a ruleset's state, whatever the ruleset: a GameEnded ends its game; the others are the
# engine's bookkeeping (seeds, rolls, seals, reveal), which a rule reads from its own events, so they change nothing.
# A ruleset lists one of them only to handle it itself (a sealed record it keeps, more to do at the end).
CORE_HANDLERS: dict[type[Event], Handler[Any]] = {GameEnded: _over}
CORE_NO_CHANGE: tuple[type[Event], ...] = tuple(t for t in CORE_EVENTS if t not in CORE_HANDLERS)


class Fold(Generic[S]):
    """`evolve`, total by construction: made by `fold`. `handlers` and `no_change` (the ruleset's and the core's) let a
    test see what it covers; `writes` (event type -> the state's fields its handler may write) what a state's kept
    entries survive (`Memo`): an event of a type it does not name drops them all."""

    def __init__(
        self,
        handlers: dict[type[Event], Handler[S]],
        no_change: tuple[type[Event], ...],
        module: str,
        writes: Mapping[type[Event], frozenset[str]] | None = None,
    ):
        self.handlers = handlers
        self.no_change = no_change
        self.writes = dict(writes or {})
        self._table: dict[type[Event], Handler[S]] = {**handlers, **dict.fromkeys(no_change, _no_change)}
        self.__module__ = module  # pickled by reference, as the name `evolve` of `module` (__reduce__)

    def __call__(self, state: S, e: Event) -> S:
        handler = self._table.get(type(e))
        if handler is None:
            raise TypeError(f"{self.__module__} has no handler for {type(e).__name__}")
        handler(state, e)
        if isinstance(state, Memo):
            if state._memo is not None:  # what it answered before this event (`memoized`)
                state._memo = None
            kept = state._entries
            if kept:  # the entries whose fields this event may have written go
                written = self.writes.get(type(e))
                if written is None:
                    state._entries = None
                elif written:
                    for at, (reads, spec, patch, since) in list(kept.items()):
                        if not reads.isdisjoint(written):
                            if patch is not None and type(e) in patch.by:  # kept with the event (entries.Patch)
                                kept[at] = (reads, spec, patch, (*since, e))
                            else:
                                del kept[at]
        return state

    def __reduce__(self) -> str:
        return "evolve"


def fold(
    handlers: Mapping[type[Event], Handler[S]],
    no_change: Iterable[type[Event]],
    module: str,
    writes: Mapping[type[Event], frozenset[str]] | None = None,
) -> Fold[S]:
    """`evolve`, total by construction: the ruleset's handler for each of its event types that changes the state, its
    named no-ops, the core's events (`CORE_HANDLERS`, `CORE_NO_CHANGE`: a ruleset names one only to handle it), and a
    TypeError for any other type (a programming error: a stored event is never refused). Bind it to the name `evolve`
    in `module` (`evolve = fold(HANDLERS, NO_STATE_CHANGE, __name__)`): pickle then finds it by that name, as a
    snapshot of a game needs. `writes`: the fields each event type's handler may write (`Fold`), for a ruleset whose
    entries declare the fields they read (aa1942's; tests/test_awaiting_incremental.py holds both to what the
    handlers and builders touch in bot games)."""
    no_change = tuple(no_change)
    both = set(handlers) & set(no_change)
    if both:
        raise ValueError(f"{module}: {sorted(t.__name__ for t in both)} both handled and named a no-op")
    said = [t.__name__ for t in no_change if t in CORE_EVENTS]
    if said:
        raise ValueError(f"{module}: {said} are the core's events: the fold owns their no-op (domain/procedure.py)")
    core_handlers = {t: h for t, h in CORE_HANDLERS.items() if t not in handlers}
    core_no_change = tuple(t for t in CORE_NO_CHANGE if t not in handlers)
    return Fold({**core_handlers, **handlers}, no_change + core_no_change, module, writes)


def _no_change(state: Any, e: Event) -> None:
    pass
