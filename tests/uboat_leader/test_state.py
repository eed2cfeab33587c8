"""The state: evolve is total over the ruleset's events, and decide's working copy shares only what never changes."""

from __future__ import annotations

import pytest

from domain.uboat_leader.evolve import HANDLERS, NO_STATE_CHANGE, evolve
from domain.uboat_leader.state import working_copy
from events import uboat_leader as ev
from tests.uboat_leader.scenario import battle, new_state, put


def test_evolve_has_a_handler_or_a_named_no_op_for_every_event_type():
    assert all(e in HANDLERS or e in NO_STATE_CHANGE for e in ev.EVENTS)
    with pytest.raises(TypeError):
        evolve(new_state(), object())


def test_the_working_copy_shares_the_data_set_and_the_logs_tuples_and_copies_everything_else():
    s = new_state(boats=(("U-47", "trained"), ("U-51", "trained")))
    put(s, "U-47", "north-sea")
    battle(s, {"M1": ("C1", "merchants", 56)}, {"U-47": ("S1", "surfaced")})
    w = working_copy(s)
    assert w.data is s.data and w.boats["U-47"].history is s.boats["U-47"].history
    w.boats["U-47"].ready["normal"] = 0
    w.battle.ships["M1"].area = "C2"
    w.decks["events"].clear()
    w.battle.queue.append("x")
    assert s.boats["U-47"].ready["normal"] == 5 and s.battle.ships["M1"].area == "C1"
    assert s.decks["events"] and s.battle.queue == ["U-47"]
