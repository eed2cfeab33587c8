"""What every ruleset shares (domain/procedure.py): the fold that makes evolve total, and the one working copy."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field

import msgspec
import pytest

from domain import entries
from domain.procedure import CORE_NO_CHANGE, Memo, fold, forget, memoized, working_copy
from events.core import DiceRolled, GameEnded, SeedLocked
from events.vocabulary import Event


class Counted(Event):
    n: int


class Noted(Event):
    pass


class Unknown(Event):
    pass


@dataclass
class Tally:
    n: int = 0
    over: bool = False


def counted(s: Tally, e: Counted) -> None:
    s.n += e.n


def test_a_fold_refuses_an_event_it_neither_handles_nor_names():
    evolve = fold({Counted: counted}, (Noted,), __name__)
    assert evolve(Tally(), Counted(n=2)) == Tally(n=2)
    assert evolve(Tally(), Noted()) == Tally()
    with pytest.raises(TypeError, match="no handler for Unknown"):
        evolve(Tally(), Unknown())
    with pytest.raises(ValueError, match="both handled and named"):
        fold({Counted: counted}, (Counted,), __name__)


def test_the_fold_owns_the_core_events_a_ruleset_handles_only_what_it_must():
    """A GameEnded ends the ruleset's game, the core's other events change nothing: no ruleset lists them; one that
    keeps something of them (a sealed record, more to close at the end) handles it itself, and naming one a no-op is
    refused (it is one already)."""
    evolve = fold({Counted: counted}, (), __name__)
    assert evolve(Tally(), GameEnded(reason="x")) == Tally(over=True)
    assert evolve(Tally(), DiceRolled(k=0, sides=[6], faces=[1], purpose="p", rule="r")) == Tally()
    assert evolve(Tally(), SeedLocked(client_seeds=[], server_only=[])) == Tally()
    assert set(CORE_NO_CHANGE) <= set(evolve.no_change) and GameEnded in evolve.handlers

    def closed(s: Tally, e: GameEnded) -> None:
        s.n = -1

    assert fold({GameEnded: closed}, (), __name__)(Tally(), GameEnded(reason="x")) == Tally(n=-1)
    with pytest.raises(ValueError, match="the core's events"):
        fold({}, (DiceRolled,), __name__)


class Frozen(msgspec.Struct, frozen=True):
    n: int


@dataclass
class Inner:
    seen: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class Outer:
    data: Frozen
    inner: Inner
    log: list[Frozen]
    marks: set[int]
    pair: tuple[int, int] = (0, 0)


def test_the_working_copy_copies_what_evolve_may_change_and_shares_the_rest():
    s = Outer(data=Frozen(1), inner=Inner(["a"], {"a": 1}), log=[Frozen(2)], marks={1})
    w = working_copy(s)
    assert w == s and w.data is s.data and w.log[0] is s.log[0] and w.pair is s.pair
    w.inner.seen.append("b")
    w.inner.counts["a"] = 2
    w.log.append(Frozen(3))
    w.marks.add(2)
    assert s == Outer(data=Frozen(1), inner=Inner(["a"], {"a": 1}), log=[Frozen(2)], marks={1})


@dataclass
class Asked(Memo):
    n: int = 0
    over: bool = False


ASKED: list[int] = []


@memoized
def doubled(s: Asked, plus: int = 0) -> int:
    ASKED.append(s.n)
    return 2 * s.n + plus


def test_a_state_keeps_what_it_answered_until_the_fold_applies_its_next_event():
    """`memoized` asks once per state between events (uboat-leader's decision awaited is asked about four times a
    command): any event the fold applies, even one that changes nothing, drops the answers; `recomputed` asks anew."""
    evolve = fold({Counted: counted}, (Noted,), __name__)
    s, ASKED[:] = Asked(n=1), []
    assert (doubled(s), doubled(s), doubled(s, 1), doubled(s, 1)) == (2, 2, 3, 3) and ASKED == [1, 1]
    evolve(s, Counted(n=2))
    assert doubled(s) == 6 and ASKED == [1, 1, 3]
    evolve(s, Noted())
    assert doubled(s) == 6 and ASKED == [1, 1, 3, 3]
    with entries.recomputed():
        assert doubled(s) == 6 and ASKED == [1, 1, 3, 3, 3]
    s.n = 5  # changed other than by an event (a test's set-up): stale until forgotten
    assert doubled(s) == 6
    forget(s)
    assert doubled(s) == 10


def test_what_a_state_answered_is_no_part_of_it():
    """Never pickled (a snapshot), compared or shown; a working copy starts with the answers of the state it equals
    and drops them at its own first event, leaving the original's."""
    s = Asked(n=4)
    assert doubled(s) == 8
    assert pickle.dumps(s) == pickle.dumps(Asked(n=4)) and s == Asked(n=4) and repr(s) == repr(Asked(n=4))
    assert "_memo" not in pickle.loads(pickle.dumps(s)).__dict__
    copy = working_copy(s)
    fold({Counted: counted}, (), __name__)(copy, Counted(n=1))
    ASKED[:] = []
    assert (doubled(copy), doubled(s)) == (10, 8) and ASKED == [5]
