"""Bot campaigns of varied seeds and options: invariants hold at every event, the chain and k stay whole."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from events.canonical import GENESIS_HASH, chain_hash
from events.core import DiceRolled
from service.games import body_of
from service.rulesets import RULESETS
from service.simulate import play

GAMES = int(os.environ.get("UMPIRE_PROPERTY_GAMES", "200"))

options = st.fixed_dictionaries(
    {"year": st.integers(1941, 1943), "month": st.integers(1, 12)},
    optional={
        "convoys": st.integers(1, 2),
        "radar_hfdf_operators": st.booleans(),
        "time_of_contact": st.booleans(),
        "revised_map": st.booleans(),
        "two_player": st.booleans(),
        "quick_play": st.fixed_dictionaries({"direction": st.sampled_from(["east", "west"])}),
    },
)


# no shrinking: a whole campaign shrinks slowly, and the failing seed and options are printed as they are
@settings(
    max_examples=GAMES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(options, st.binary(min_size=32, max_size=32))
def test_bot_campaigns_keep_every_invariant(opts, seed):
    opts = {**opts, "convoys": opts.get("convoys", 1)}
    if opts.get("quick_play"):
        opts.pop("convoys")
        opts.pop("two_player", None)
    state = {"k": 0, "head": GENESIS_HASH, "seq": 1}

    def check(game, e):
        s = game.rules
        for sh in s.sheets.values():
            assert 0 <= sh.depth_charges <= 25 and 0 <= sh.hedgehog <= 15
            assert 0 <= sh.hull <= 3
            assert all(1 <= v <= 6 for v in sh.skills.values()), sh.skills
        assert s.convoy is None or (s.convoy.tonnage >= 0 and s.convoy.stragglers >= 0 and s.convoy.ships_lost >= 0)
        assert s.pending_uboats >= 0
        if isinstance(e, DiceRolled):
            assert e.k == state["k"], "k is gapless"
            assert all(1 <= f <= n for f, n in zip(e.faces, e.sides))
            state["k"] += 1
        state["seq"] += 1
        state["head"] = chain_hash(state["head"], body_of("sim", state["seq"], e, "c"))

    ruleset = RULESETS["corvette-command"].ruleset
    real_decide = ruleset.decide

    def decide_leaves_state_alone(state, cmd, seat, dice):
        before = repr(state)
        events = real_decide(state, cmd, seat, dice)
        assert repr(state) == before, "decide changed the state it was given"
        return events

    object.__setattr__(ruleset, "decide", decide_leaves_state_alone)
    try:
        game = play("corvette-command", opts, seed, on_event=check)
    finally:
        object.__setattr__(ruleset, "decide", real_decide)
    assert game.over and game.ruleset.legal_commands(game.rules) == []
    sunk = game.ended == "the corvette was sunk (3 hull damage)"
    assert sunk == any(sh.hull == 3 for sh in game.rules.sheets.values())
    assert sunk or len(game.rules.log) == opts.get("convoys", 1)  # every convoy escorted, or the corvette lost
    assert game.rules.over and game.version == state["seq"]
