"""What every ruleset shares (domain/procedure.py): the fold that makes evolve total, and the one working copy."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec
import pytest

from domain.procedure import fold, working_copy
from events.core import DiceRolled, GameEnded, SeedLocked


def test_a_fold_refuses_an_event_it_neither_handles_nor_names():
    def ended(s: dict, e: GameEnded) -> None:
        s["over"] = True

    evolve = fold({GameEnded: ended}, (DiceRolled,), __name__)
    assert evolve({}, GameEnded(reason="x")) == {"over": True}
    assert evolve({}, DiceRolled(k=0, sides=[6], faces=[1], purpose="p", rule="r")) == {}
    with pytest.raises(TypeError, match="no handler for SeedLocked"):
        evolve({}, SeedLocked(client_seeds=[], server_only=[]))
    with pytest.raises(ValueError, match="both handled and named"):
        fold({GameEnded: ended}, (GameEnded,), __name__)


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
