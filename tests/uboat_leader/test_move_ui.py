"""`awaiting[].ui` of the commands that move a boat: Operations `move` (UL-20, UL-21) and the Tactical Display's
`move_uboat` (UL-30, UL-R20): the places a boat may reach, from the same legality as the command."""

from __future__ import annotations

import msgspec

from tests.uboat_leader.scenario import battle, legal, new_state, put


def ops(*boats):
    return new_state(boats=tuple((b, "trained") for b in boats), segment="operations")


def test_UL20_the_move_ui_lists_each_boats_steps_exactly_as_the_choices_do():
    s = ops("U-47", "U-51")
    put(s, "U-47", "north-sea")
    entry = legal(s)["move"]
    listed = {(b["boat"], st["to"]) for b in msgspec.to_builtins(entry.ui)["boats"] for st in b["steps"]}
    assert listed == {(c["boat"], c["to"]) for c in entry.choices}
    u47 = next(b for b in msgspec.to_builtins(entry.ui)["boats"] if b["boat"] == "U-47")
    assert (u47["at"], u47["moving"], u47["may_stop"]) == ("north-sea", False, False)
    steps = {st["to"]: st for st in u47["steps"]}
    assert steps["germany"] == {"to": "germany", "space": "port", "move_events": None}  # a port ends the move (UL-22)
    assert steps["channel"]["move_events"] == s.area("channel").move  # UL-20: the Move value of Events


def test_UL21_a_boat_moving_in_the_channel_may_not_stop_there():
    s = ops("U-47")
    put(s, "U-47", "channel")
    s.ops.moving, s.ops.done = "U-47", ["U-47"]
    (u47,) = msgspec.to_builtins(legal(s)["move"].ui)["boats"]
    assert (u47["moving"], u47["may_stop"]) == (True, False) and u47["steps"]
    put(s, "U-47", "north-sea")
    assert msgspec.to_builtins(legal(s)["move"].ui)["boats"][0]["may_stop"] is True


def test_UL30_UL_R20_the_move_uboat_ui_gives_each_sides_speed_and_reach_as_the_choices_do():
    s = new_state()
    battle(s, {"M1": ("C1", None, None)}, {"U-47": ("L1", "surfaced")})
    entry = legal(s)["move_uboat"]
    (u47,) = msgspec.to_builtins(entry.ui)["boats"]
    assert u47["area"] == "L1"
    drawn = {(sd["side"], to) for sd in u47["sides"] for to in sd["to"]}
    drawn |= {(sd["side"], "off") for sd in u47["sides"] if sd["off"]}
    assert drawn == {(c["side"], c["to"]) for c in entry.choices if c["boat"] == "U-47"}
    speeds = {sd["side"]: sd["speed"] for sd in u47["sides"]}
    assert speeds["surfaced"] > speeds["submerged"]  # UL-30: a surfaced boat is the faster
    assert "M2" in next(sd for sd in u47["sides"] if sd["side"] == "surfaced")["to"]
    assert "M2" not in next(sd for sd in u47["sides"] if sd["side"] == "submerged")["to"]


def test_UL30_the_move_uboat_ui_lists_the_side_a_boat_is_on_first_and_the_area_it_is_in_where_it_may_stay():
    """A play trial: a submerged boat's form started on "surfaced (speed 2)" and another area, so sending it as it
    stood flipped and moved the boat. The side it is on comes first; staying is among the areas of that side (UL-30:
    "hasta el valor de Velocidad", 0 areas too)."""
    for side in ("submerged", "surfaced"):
        s = new_state()
        battle(s, {"M1": ("C1", None, None)}, {"U-47": ("M2", side)})
        (u47,) = msgspec.to_builtins(legal(s)["move_uboat"].ui)["boats"]
        assert [sd["side"] for sd in u47["sides"]][0] == side and "M2" in u47["sides"][0]["to"]


def test_UL30_UL_R20_an_unfit_boat_is_drawn_only_its_fastest_way_off():
    s = new_state()
    battle(s, {"M1": ("C1", None, None)}, {"U-47": ("M1", "submerged")})
    put(s, "U-47", "w-approaches", stress=10)
    (u47,) = msgspec.to_builtins(legal(s)["move_uboat"].ui)["boats"]
    assert [(sd["side"], sd["to"], sd["off"]) for sd in u47["sides"]] == [("surfaced", [], True)]


def test_UL20_UL_R56_ULE4_2_a_box_step_says_the_move_value_it_draws():
    """4.0.0: stepping into a box from the Area the boat began in draws the Area's Move value (UL-E4-2), none after
    crossing into it in this move (the U-47 example); 3.0.0 drew the Patrol value instead, which `move_events` (the
    Move value) does not name: null."""
    for edition, fresh, crossed in (("4.0.0", 1, 0), ("3.0.0", None, None)):
        s = new_state(boats=(("U-47", "trained"),), segment="operations", edition=edition)
        put(s, "U-47", "british-isles", missions=["mine"], mines=8)
        (u47,) = msgspec.to_builtins(legal(s)["move"].ui)["boats"]
        assert {st["to"]: st["move_events"] for st in u47["steps"]}["british-isles-mines"] == fresh, edition
        s.ops.moving, s.ops.done = "U-47", ["U-47"]  # as if it had just crossed into the British Isles
        (u47,) = msgspec.to_builtins(legal(s)["move"].ui)["boats"]
        assert {st["to"]: st["move_events"] for st in u47["steps"]}["british-isles-mines"] == crossed, edition
