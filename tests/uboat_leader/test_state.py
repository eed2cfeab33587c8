"""The state: decide's working copy shares only what never changes, and a state pickles (evolve's totality is
tests/test_conformance.py's, for every ruleset)."""

from __future__ import annotations

import pickle

import msgspec

from domain.procedure import working_copy
from service.simulate import new_game, play, play_on
from tests.uboat_leader.scenario import battle, new_state, put


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


def test_a_pickled_game_plays_on_exactly_as_the_one_that_was_never_stopped():
    """Snapshots pickle the engine's Game: the state is plain data, and a restored one continues bit for bit."""
    seed = bytes([3]) * 32
    whole: list = []  # every command's events, after the genesis (seq 2 on)
    play("uboat-leader", {}, seed, on_event=lambda g, e: whole.append(msgspec.json.encode(e)))
    game = new_game("uboat-leader", {}, seed, "sim")
    kept = []

    def stop(payload, events):
        if game.version >= 300 and not kept:  # between two commands, in the middle of the campaign
            kept.append(pickle.loads(pickle.dumps(game)))

    play_on(game, seed, on_command=stop)
    restored = kept[0]
    rest: list = []
    play_on(restored, seed, on_event=lambda g, e: rest.append(msgspec.json.encode(e)))
    done = restored.version - len(rest)  # its version when it was pickled
    assert rest and rest == whole[done - 1 :] and restored.over
