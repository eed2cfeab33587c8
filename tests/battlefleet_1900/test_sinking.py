"""rules/sinking.py: 6.0 Step One (fires and heavy flooding) and Step Four (listing and sinking), chosen faces."""

from __future__ import annotations

import pytest

from domain.battlefleet_1900.rules import sinking
from domain.battlefleet_1900.rules.orders import leave
from events import battlefleet_1900 as ev
from tests.battlefleet_1900.scenario import ctx, data_with, done, make_state, of


@pytest.mark.parametrize(
    "kind, face, after",
    [
        ("fire_external", 1, {"fires_ext": 0}),  # out
        ("fire_external", 4, {"fires_ext": 1}),
        ("fire_external", 5, {"fires_ext": 2}),  # F: another external fire
        ("fire_internal", 1, {"fires_int": 0}),
        ("fire_internal", 4, {"fires_int": 2}),  # Fi
        ("fire_internal", 5, {"fires_int": 1, "damaged": 1}),  # P
    ],
)
def test_BF6_0_BFR22_fire_critical_effects(kind, face, after):
    s = make_state(step="fire_flooding")
    setattr(s.ships["Mikasa"], "fires_ext" if kind == "fire_external" else "fires_int", 1)
    c = ctx(s, face)
    sinking.step_one(c)
    for field, v in after.items():
        assert getattr(c.state.ships["Mikasa"], field) == v
    done(c)


def test_BF6_0_an_external_fire_may_damage_a_secondary():
    s = make_state(step="fire_flooding")
    s.ships["Mikasa"].fires_ext = 1
    c = ctx(s, 6, [1, 1])  # S: the only secondary type; gun 0
    sinking.step_one(c)
    assert c.state.ships["Mikasa"].guns["15cm"][0] == "damaged"
    done(c)


def test_BF6_0_an_internal_fire_may_explode():
    s = make_state(step="fire_flooding")
    s.ships["Mikasa"].fires_int = 1
    c = ctx(s, 6, 1)  # X: FL2 in F, and another internal fire
    sinking.step_one(c)
    assert c.state.ships["Mikasa"].flooding["F"] == 2 and c.state.ships["Mikasa"].fires_int == 2
    done(c)


def test_BFR22_fires_roll_external_then_internal_then_compartments():
    s = make_state(step="fire_flooding")
    sh = s.ships["Mikasa"]
    sh.fires_ext, sh.fires_int, sh.flooding["A"] = 1, 1, 3
    c = ctx(s, 2, 2, 1)
    sinking.step_one(c)
    assert [r.source for r in of(c, ev.CriticalRolled)] == ["fire_external", "fire_internal", "flooding:A"]
    done(c)


@pytest.mark.parametrize(
    "faces, compartment, level",
    [([5, 2], "A", 3), ([4, 5, 1], "PA", 2), ([5, 4, 1], "PA", 3), ([6, 6, 5], "SA", 3)],
)
def test_BF6_0_BFR22_heavy_flooding_spreads_to_the_same_or_an_adjoining_compartment(faces, compartment, level):
    """Hvy/Sev FL: 4 FL2, 5-6 FL3; the new FL 1-3 in the same compartment, 4-6 in one adjoining (A: PA or SA)."""
    s = make_state(step="fire_flooding")
    s.ships["Mikasa"].flooding["A"] = 3
    c = ctx(s, *faces)
    sinking.step_one(c)
    assert c.state.ships["Mikasa"].flooding[compartment] == level
    done(c)


def test_BF6_3_contained_or_counterflooded_compartments_roll_nothing():
    s = make_state(step="fire_flooding")
    sh = s.ships["Mikasa"]
    sh.flooding.update(F=3, A=4)
    sh.contained, sh.counterflooded = ["F"], ["A"]
    c = ctx(s)
    sinking.step_one(c)
    assert not of(c, ev.CriticalRolled)


@pytest.mark.parametrize(
    "flooding, list_, trim, boxes",
    [
        ({"PA": 2}, 2, 0, 1),
        ({"PA": 3}, 3, 0, 2),
        ({"F": 3}, 0, 3, 1),
        ({"F": 4}, 0, 4, 2),
        ({"F": 2, "A": 2, "PA": 1}, 1, 0, 0),
        ({"PA": 3, "SA": 1, "F": 3}, 2, 3, 2),
    ],
)
def test_BF6_0_uneven_flooding_costs_speed_boxes(flooding, list_, trim, boxes):
    s = make_state(step="sinking")
    s.ships["Mikasa"].flooding.update(flooding)
    c = ctx(s, *([1] if s.ships["Mikasa"].points >= 5 else []))  # five points or more: a sink roll (1: afloat)
    sinking.step_four(c)
    sh = c.state.ships["Mikasa"]
    assert (sh.list, sh.trim, sh.list_boxes) == (list_, trim, boxes)


@pytest.mark.parametrize("face, capsizes", [(3, False), (4, True)])
def test_BF6_0_BFR28_a_list_of_four_capsizes_on_4_to_6_at_the_end_of_step_four(face, capsizes):
    s = make_state(step="sinking")
    s.ships["Mikasa"].flooding["PA"] = 4
    c = ctx(s, face)  # four points: no sink roll; the capsize roll
    sinking.step_four(c)
    assert (c.state.ships["Mikasa"].lost == "capsized") == capsizes
    done(c)


@pytest.mark.parametrize(
    "points, poor, need, turns",
    [
        (5, False, 6, 3),
        (6, False, 6, 3),
        (7, False, 5, 3),
        (10, False, 4, 2),
        (12, False, 3, 2),
        (14, False, 2, 1),
        (16, False, 1, 1),
        (5, True, 5, 3),
        (15, True, 1, 1),
    ],
)
def test_BF6_0_sinking_table_and_poor_stability(points, poor, need, turns):
    assert sinking.sink_row(make_state(), points, poor) == (need, turns)


@pytest.mark.parametrize("face, minus, sinks", [(6, False, True), (5, False, False), (6, True, False)])
def test_BF6_0_BFR26_the_sink_roll_at_five_points_and_the_dc_minus_one(face, minus, sinks):
    s = make_state(step="sinking")
    s.ships["Mikasa"].flooding.update(F=2, A=3)  # five points: need 6, trim 1
    s.ships["Mikasa"].sink_minus = minus
    c = ctx(s, face)
    sinking.step_four(c)
    assert (c.state.ships["Mikasa"].sinking == 3) == sinks
    if sinks:  # 2.1: the flagship sinks: command passes at once
        assert of(c, ev.CommandTransferred)[0].to_ship == "Asahi"
    done(c)


def test_BFR26_a_sinking_ship_counts_down_and_goes_under_at_zero():
    s = make_state(step="sinking")
    s.ships["Fuji"].sinking = 2
    c = ctx(s)
    sinking.step_four(c)
    assert c.state.ships["Fuji"].sinking == 1 and not c.state.ships["Fuji"].lost
    sinking.step_four(c)
    assert c.state.ships["Fuji"].lost == "sunk" and not c.state.ships["Fuji"].on_table


def test_BFR25_scuttled_when_all_four_are_severe():
    s = make_state(step="sinking")
    sh = s.ships["Fuji"]
    sh.scuttling = True
    sh.flooding.update(F=4, PA=4, SA=4, A=4)
    c = ctx(s)
    sinking.step_four(c)
    assert c.state.ships["Fuji"].lost == "scuttled"


def test_BFR42_step_one_rolled_nothing_for_a_sinking_ship_in_3_0_0():
    s = make_state(step="fire_flooding", edition="3.0.0")
    s.ships["Mikasa"].fires_int, s.ships["Mikasa"].sinking = 3, 2
    c = ctx(s)
    sinking.step_one(c)
    assert not c.events


def test_BFR42_BF6_0_a_sinking_ship_still_rolls_step_one_and_its_results_happen():
    """6.0 Step One: "All commanders whose vessels have active fires and/or heavy or severe flooding must roll once
    for each fire, and once for each flooded compartment"; what a sinking ship may not do (move, launch, damage
    control) does not include it. Mikasa, sinking, with an internal fire and a heavy compartment: the fire rolls 5
    (P: a propulsion box damaged) and PA rolls 5 (FL3), which lands in the same compartment (2). 3.0.0 rolled
    nothing (issue 18 F4)."""
    s = make_state(step="fire_flooding")
    sh = s.ships["Mikasa"]
    sh.fires_int, sh.sinking, sh.flooding["PA"] = 1, 2, 3
    c = ctx(s, 5, 5, 2)
    sinking.step_one(c)
    done(c)
    assert [r.source for r in of(c, ev.CriticalRolled)] == ["fire_internal", "flooding:PA"]
    assert c.state.ships["Mikasa"].damaged == 1 and c.state.ships["Mikasa"].sinking == 2
    assert [e.code for e in of(c, ev.DamageApplied)] == ["P", "FL3"]


@pytest.mark.parametrize("edition", [None, "12.0.0"])
def test_BFR42_BFE13_2_a_surrendered_ship_rolls_its_fires_flooding_and_sinking_and_goes_under(edition):
    """6.0 Step One: "*All* commanders whose vessels have active fires and/or heavy or severe flooding must roll once
    for each fire, and once for each flooded compartment"; Sinking: "When the total value of flooding points present on
    a vessel reaches five or more, the controlling player must roll"; "Until it disappears under the waves, a vessel
    will remain a navigational and line-of-sight obstacle". A surrender (2.1, BF-R13) spares none of it. Fuji
    surrenders burning (one fire of each kind) and flooded (F and A heavy, PA light: 7 points): Step One rolls the two
    fires and the two heavy compartments (2: nothing each), Step Four's sink roll of 6 sinks her, and she goes under
    when the count runs out. 12.0.0 rolled nothing, and she stayed on the table for good (the cold audit, F2)."""
    s = make_state(step="command", edition=edition)
    sh = s.ships["Fuji"]
    sh.fires_ext, sh.fires_int = 1, 1
    sh.flooding.update(F=3, A=3, PA=1)
    c = ctx(s)
    leave(c, "Fuji", ev.ShipSurrendered(ship="Fuji"))
    c.state.step = "fire_flooding"
    newest = edition is None
    one = ctx(c.state, *([2, 2, 2, 2] if newest else []))
    sinking.step_one(one)
    done(one)
    assert [r.source for r in of(one, ev.CriticalRolled)] == (
        ["fire_external", "fire_internal", "flooding:F", "flooding:A"] if newest else []
    )
    one.state.step = "sinking"
    four = ctx(one.state, *([6] if newest else []))
    sinking.step_four(four)
    done(four)
    assert [(e.sinks, e.points) for e in of(four, ev.SinkRolled)] == ([(True, 7)] if newest else [])
    fuji = four.state.ships["Fuji"]
    if not newest:
        assert (fuji.lost, fuji.sinking, fuji.on_table) == ("surrendered", None, True)
        return
    assert fuji.sinking is not None and fuji.lost == "surrendered"
    later = four.state
    for _ in range(fuji.sinking):
        step = ctx(later)
        sinking.step_four(step)
        later = step.state
    assert (later.ships["Fuji"].lost, later.ships["Fuji"].on_table) == ("sunk", False)


def test_BFE13_1_a_fires_main_hit_on_a_lozenge_may_land_on_either_end():
    """A fire's critical comes from no side (13.0.0, BF-E13-1): a data set whose fire table gives M locates it among
    all of a lozenge's main positions. 12.0.0's stand-in side "ahead" would, under 13.0.0's thirds, have left out the
    aft turret Z (the cold pass over 13.0.0, P3)."""

    def data(raw):
        raw["classes"]["Fuji"]["weapons"][0]["pos"] = ["A", "P", "R", "Z"]
        raw["tables"]["critical"]["fire_external"][-1][2] = "M"  # 6: a main hit

    s = make_state(step="fire_flooding", data=data_with(data))
    s.ships["Fuji"].fires_ext = 1
    c = ctx(s, 6, 4, [6, 6])  # the fire rolls 6 (M); located 4 of 4: Z; its critical 12: nothing
    sinking.step_one(c)
    done(c)
    assert [e.location for e in of(c, ev.DamageApplied)] == ["Z"]


def test_BFR22_BFR51_only_compartments_flooded_at_the_start_of_step_one_roll():
    """6.0 Step One checks the ongoing heavy flooding, once per compartment: F's roll floods SA to heavy (FL3,
    adjoining), and SA first rolls at the next Step One, whichever order the compartments are read in."""
    s = make_state(step="fire_flooding")
    s.ships["Mikasa"].flooding["F"] = 3
    c = ctx(s, 5, 4, 4)  # FL3; it spreads (4) to the second adjoining compartment of F (PA, SA): SA
    sinking.step_one(c)
    assert c.state.ships["Mikasa"].flooding["SA"] == 3
    assert [r.source for r in of(c, ev.CriticalRolled)] == ["flooding:F"]
    done(c)
    c2 = ctx(c.state, 1, 1)
    sinking.step_one(c2)
    assert [r.source for r in of(c2, ev.CriticalRolled)] == ["flooding:F", "flooding:SA"]
    done(c2)
