"""At least 100 bot battles of varied seeds, scenarios, fog and length, with invariants checked at every event:
no ship both gone and firing, every box within its bounds, k gapless, the chain whole, every commitment
revealed by the end, decide never touching the state it is given, and nothing but integers in a body."""

from __future__ import annotations

import os
import pickle

import msgspec
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from domain.battlefleet_1900 import bot
from domain.battlefleet_1900.rules.damage import dc_dice
from domain.battlefleet_1900.state import GONE
from events import battlefleet_1900 as ev
from events.canonical import GENESIS_HASH, chain_hash
from events.core import DiceRolled
from service.records import body_of
from service.rulesets import RULESETS
from tests.battlefleet_1900.scenario import play

GAMES = int(os.environ.get("UMPIRE_BF_PROPERTY_GAMES", "100"))

options = st.fixed_dictionaries(
    {
        "scenario": st.sampled_from(["yellow-sea-1904", "torpedo-attack"]),
        "fog": st.sampled_from(["blur", "open"]),
        "turns": st.integers(1, 12),
    },
    optional={"read_message_rolls": st.booleans()},
)


def check_ship(s, name) -> None:
    sh = s.ships[name]
    assert 0 <= sh.destroyed + sh.damaged <= 6 and sh.margin >= 0 and 0 <= sh.list_boxes <= 4
    assert all(0 <= v <= 4 for v in sh.flooding.values())
    assert 0 <= sh.dc_damaged <= dc_dice(s, name) and sh.tr >= 0 and sh.ct >= 0 and sh.bridge >= 0
    assert sh.fires_ext >= 0 and sh.fires_int >= 0 and all(n >= 0 for n in sh.tubes.values())
    assert all(m.slashes >= 0 for m in sh.mounts.values())
    assert all(g in ("ok", "damaged", "destroyed") for guns in sh.guns.values() for g in guns)
    assert sh.sinking is None or sh.sinking >= 1
    if sh.lost is not None or sh.sinking is not None:
        assert name not in s.divisions[sh.division].ships


@settings(
    max_examples=GAMES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(options, st.binary(min_size=32, max_size=32))
def test_bot_battles_keep_every_invariant(opts, seed):
    tally = {"k": 0, "head": GENESIS_HASH, "seq": 1}

    def check(game, e):
        s = game.rules
        if isinstance(e, DiceRolled):
            assert e.k == tally["k"], "k is gapless"
            assert all(1 <= f <= n for f, n in zip(e.faces, e.sides))
            tally["k"] += 1
        if isinstance(e, ev.SalvoMeasured):
            assert s.ships[e.firer].lost is None and not s.ships[e.firer].abandoned, "a ship gone or abandoned fired"
            assert s.ships[e.target].lost is None, "a ship out of play was fired on"
        if isinstance(e, ev.ShipsMoved):
            assert all(
                s.ships[p.ship].lost in (None, "withdrawn") and s.ships[p.ship].sinking is None for p in e.moves.ships
            )
        for d in s.divisions.values():
            assert d.flagship is None or d.flagship in d.ships or not d.ships
        touched = {getattr(e, f) for f in ("ship", "firer", "target") if isinstance(getattr(e, f, None), str)}
        for name in s.ships if isinstance(e, ev.TurnEnded) else touched & set(s.ships):  # the ship an event
            check_ship(s, name)  # names, at once; every ship at each turn's end
        body = body_of("sim", tally["seq"] + 1, e, "c")
        assert b"." not in msgspec.json.encode(_numbers(body["data"])), "no float in an event"
        tally["seq"] += 1
        tally["head"] = chain_hash(tally["head"], body)

    ruleset = RULESETS["battlefleet-1900"].ruleset
    real_decide = ruleset.decide

    def decide_leaves_state_alone(state, cmd, seat, dice):
        before = snapshot(state)
        events = real_decide(state, cmd, seat, dice)
        assert snapshot(state) == before, "decide changed the state it was given"
        return events

    object.__setattr__(ruleset, "decide", decide_leaves_state_alone)
    try:
        game = play(seed, opts, on_event=check)
    finally:
        object.__setattr__(ruleset, "decide", real_decide)
    s = game.rules
    assert game.over and s.over and game.unrevealed == {}, "every commitment is revealed by the end"
    assert s.turn <= opts["turns"] and game.version == tally["seq"]
    out = bot.outcomes(s)
    assert out["winner"] in (0, 1, 2) and out["turns"] == s.turn
    gone = sum(1 for sh in s.ships.values() if sh.lost in GONE)
    assert gone <= out[f"ships_lost_{s.seats[0]}"] + out[f"ships_lost_{s.seats[1]}"]


def snapshot(state) -> bytes:
    return pickle.dumps({k: v for k, v in state.__dict__.items() if k != "data"})


def _numbers(data):
    """Only the numbers of a body (a float shows a '.' when encoded; strings may hold dots)."""
    if isinstance(data, dict):
        return [_numbers(v) for v in data.values()]
    if isinstance(data, list):
        return [_numbers(v) for v in data]
    return data if isinstance(data, (int, float)) and not isinstance(data, bool) else 0
