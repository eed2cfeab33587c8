"""rules/damage_control.py: 6.3 repairs and command functions, one die per damage event, chosen faces."""

from __future__ import annotations

import msgspec
import pytest

from domain.battlefleet_1900.commands import DamageControl
from domain.battlefleet_1900.rules import damage_control as dc
from domain.battlefleet_1900.rules import sinking
from domain.engine import IllegalCommand
from events import battlefleet_1900 as ev
from tests.battlefleet_1900.scenario import ctx, done, make_state, of


def run(s, actions, faces, scuttle=(), seat="japan"):
    s.sealed[seat].pending["damage_control"] = {"actions": actions, "scuttle": list(scuttle)}
    dc.check_dc(
        s,
        seat,
        msgspec.convert({"type": "damage_control", "actions": actions, "scuttle": list(scuttle)}, DamageControl),
    )
    c = ctx(s, *faces)
    dc.resolve(c)
    done(c)
    return c


def check(s, actions, seat="japan", scuttle=()):
    dc.check_dc(
        s,
        seat,
        msgspec.convert({"type": "damage_control", "actions": actions, "scuttle": list(scuttle)}, DamageControl),
    )


def test_BF6_3_six_dc_dice_from_size_five_three_below_and_dc_hits_take_them():
    s = make_state("torpedo-attack")
    assert dc.dice_left(s, "Poltava") == 6 and dc.dice_left(s, "Ikazuchi") == 3
    s.ships["Ikazuchi"].dc_damaged = 3
    assert not dc.able(s, "Ikazuchi") and not dc.owes(make_state("torpedo-attack", step="damage_control"), "nobody")


def _damaged(s):
    sh = s.ships["Mikasa"]
    sh.margin, sh.damaged, sh.bridge, sh.tr, sh.dc_damaged, sh.rudder = 1, 1, 1, 1, 1, "port"
    sh.mounts["A"].slashes = 1
    sh.guns["15cm"][3] = "damaged"
    sh.guns["boat"][0] = "damaged"
    sh.flooding["F"] = 3
    return s


@pytest.mark.parametrize(
    "action, need, field, before, after",
    [
        ({"function": "repair_propulsion"}, 4, "margin", 1, 0),  # BF-R23: the margin first
        ({"function": "repair_bridge"}, 4, "bridge", 1, 0),
        ({"function": "repair_steering"}, 5, "tr", 1, 0),
        ({"function": "repair_dc"}, 4, "dc_damaged", 1, 0),
        ({"function": "repair_rudder"}, 4, "rudder", "port", None),
        ({"function": "contain_flooding", "compartment": "F"}, 4, "contained", [], ["F"]),
        ({"function": "sink_minus_1"}, 4, "sink_minus", False, True),
    ],
)
def test_BF6_3_repair_functions_and_their_numbers(action, need, field, before, after):
    for face, ok in ((need - 1, False), (need, True)):
        s = _damaged(make_state(step="damage_control"))
        c = run(s, [{"ship": "Mikasa", **action}], [face])
        assert getattr(c.state.ships["Mikasa"], field) == (after if ok else before)
        assert of(c, ev.DcResolved)[0].success == ok


@pytest.mark.parametrize(
    "function, mount, need, read",
    [
        ("repair_main", "A", 5, lambda sh: sh.mounts["A"].slashes),
        ("repair_secondary", "15cm:3", 4, lambda sh: sh.guns["15cm"][3] != "ok"),
        ("repair_tertiary", "boat:0", 4, lambda sh: sh.guns["boat"][0] != "ok"),  # BF-R24: the S row
    ],
)
def test_BF6_3_gun_repairs_one_slash_each(function, mount, need, read):
    s = _damaged(make_state(step="damage_control"))
    c = run(s, [{"ship": "Mikasa", "function": function, "mount": mount}], [need])
    assert not read(c.state.ships["Mikasa"])


def test_BF6_3_one_die_per_damage_event_and_every_slash_separately():
    s = _damaged(make_state(step="damage_control"))
    one = {"ship": "Mikasa", "function": "repair_main", "mount": "A"}
    with pytest.raises(IllegalCommand, match="nothing \\(more\\) for repair_main on A"):
        check(s, [one, one])
    s.ships["Mikasa"].mounts["A"].slashes = 2
    check(s, [one, one])


def test_BF6_3_a_destroyed_position_is_never_repaired():
    s = make_state(step="damage_control")
    s.ships["Mikasa"].mounts["A"].destroyed = True
    s.ships["Mikasa"].mounts["A"].slashes = 1
    with pytest.raises(IllegalCommand, match="nothing"):
        check(s, [{"ship": "Mikasa", "function": "repair_main", "mount": "A"}])


def test_BF6_3_rudder_secured_only_when_undamaged_and_freed_again():
    s = make_state(step="damage_control")
    c = run(s, [{"ship": "Mikasa", "function": "secure_rudder"}], [3])
    assert c.state.ships["Mikasa"].secured
    c = run(c.state, [{"ship": "Mikasa", "function": "free_rudder"}], [3])
    assert not c.state.ships["Mikasa"].secured
    s.ships["Mikasa"].rudder = "port"
    with pytest.raises(IllegalCommand, match="secure_rudder"):
        check(s, [{"ship": "Mikasa", "function": "secure_rudder"}])


def test_BF6_3_dice_limit_the_actions():
    s = _damaged(make_state(step="damage_control"))
    s.ships["Mikasa"].dc_damaged = 5  # one die left
    with pytest.raises(IllegalCommand, match="has 1 DC dice"):
        check(s, [{"ship": "Mikasa", "function": "repair_bridge"}, {"ship": "Mikasa", "function": "repair_steering"}])


def test_BF6_3_BFR24_a_conning_tower_hit_bars_command_functions_but_not_repairs_or_recovery():
    s = _damaged(make_state(step="damage_control"))
    sh = s.ships["Mikasa"]
    sh.ct, sh.flooding["PA"] = 1, 2  # a list
    with pytest.raises(IllegalCommand, match="counterflood"):
        check(s, [{"ship": "Mikasa", "function": "counterflood", "compartment": "SA", "level": 2}])
    with pytest.raises(IllegalCommand, match="flood_magazine"):
        check(s, [{"ship": "Mikasa", "function": "flood_magazine", "mount": "A"}])
    c = run(s, [{"ship": "Mikasa", "function": "recover_ct"}, {"ship": "Mikasa", "function": "repair_bridge"}], [5, 5])
    assert c.state.ships["Mikasa"].ct == 0 and c.state.ships["Mikasa"].bridge == 0


def test_BF6_3_recover_ct_needs_a_ct_hit():
    with pytest.raises(IllegalCommand, match="recover_ct"):
        check(make_state(step="damage_control"), [{"ship": "Mikasa", "function": "recover_ct"}])


def test_BF6_3_BFR21_flood_magazine_adds_a_level_and_spares_later_criticals():
    s = _damaged(make_state(step="damage_control"))
    c = run(s, [{"ship": "Mikasa", "function": "flood_magazine", "mount": "A"}], [3])
    sh = c.state.ships["Mikasa"]
    assert sh.mounts["A"].flooded and sh.flooding["F"] == 4  # heavy becomes severe
    s = _damaged(make_state(step="damage_control"))
    s.ships["Mikasa"].mounts["Z"].slashes = 1
    c = run(s, [{"ship": "Mikasa", "function": "flood_magazine", "mount": "Z"}], [2])
    assert not c.state.ships["Mikasa"].mounts["Z"].flooded and c.state.ships["Mikasa"].flooding["A"] == 0


def test_BFR38_an_intact_main_position_had_no_magazine_to_flood_in_3_0_0():
    with pytest.raises(IllegalCommand, match="flood_magazine"):
        check(
            make_state(step="damage_control", edition="3.0.0"),
            [{"ship": "Mikasa", "function": "flood_magazine", "mount": "A"}],
        )


def test_BFR38_BF6_3_any_main_positions_magazine_may_be_flooded():
    """6.3 Flood Magazine: "any main gun position's magazine may be flooded if the commanding player successfully
    rolls one die": intact A floods on a 3 (F light), is out of commission, and a later hit rolls no critical.
    3.0.0 asked for a damaged or destroyed position first (issue 18 F2)."""
    s = make_state(step="damage_control")
    flood = {"ship": "Mikasa", "function": "flood_magazine", "mount": "A"}
    c = run(s, [flood], [3])
    sh = c.state.ships["Mikasa"]
    assert sh.mounts["A"].flooded and sh.flooding["F"] == 1
    with pytest.raises(IllegalCommand, match="flood_magazine"):
        check(c.state, [flood])  # flooded once is flooded for good


def test_BF6_3_BFR25_counterflood_needs_uneven_flooding_and_relists_at_once():
    s = make_state(step="damage_control")
    with pytest.raises(IllegalCommand, match="counterflood"):
        check(s, [{"ship": "Mikasa", "function": "counterflood", "compartment": "SA", "level": 2}])
    s.ships["Mikasa"].flooding["PA"] = 3
    s.ships["Mikasa"].list, s.ships["Mikasa"].list_boxes = 3, 2
    c = run(s, [{"ship": "Mikasa", "function": "counterflood", "compartment": "SA", "level": 3}], [4])
    sh = c.state.ships["Mikasa"]
    assert sh.flooding["SA"] == 3 and sh.counterflooded == ["SA"] and (sh.list, sh.list_boxes) == (0, 0)
    assert of(c, ev.ListingChanged)[0].list == 0


def test_BFR25_scuttling_floods_each_compartment_while_dice_last_and_carries_on():
    s = make_state("torpedo-attack", step="damage_control")
    c = run(s, [], [4, 3, 4], scuttle=["Ikazuchi"])  # three dice: F, PA (fails), SA
    sh = c.state.ships["Ikazuchi"]
    assert sh.scuttling and (sh.flooding["F"], sh.flooding["PA"], sh.flooding["SA"], sh.flooding["A"]) == (4, 0, 4, 0)
    c.state.sealed["japan"].pending = {}
    c2 = run(c.state, [], [4, 4])  # next Step 3: PA and A
    assert all(v == 4 for v in c2.state.ships["Ikazuchi"].flooding.values())


def test_BF6_0_a_sinking_ship_takes_no_damage_control():
    s = make_state(step="damage_control")
    s.ships["Mikasa"].sinking = 2
    s.ships["Mikasa"].tr = 1
    with pytest.raises(IllegalCommand, match="not one of your ships able"):
        check(s, [{"ship": "Mikasa", "function": "repair_steering"}])


def test_BFR45_damage_control_is_owed_while_a_ship_has_dc_dice():
    s = make_state("torpedo-attack", step="damage_control")
    assert dc.owes(s, "japan")  # securing a rudder is always open
    for n in s.own("japan"):
        s.ships[n].dc_damaged = 3
    assert not dc.owes(s, "japan")


def test_BF6_2_BFR23_box_repairs_wait_until_the_margin_is_repaired():
    """6.2: hits in the margin "must be repaired before repairs to any propulsion boxes may be attempted": with a
    mark in the margin only the margin may be rolled for this Step 3, whatever the boxes hold."""
    s = make_state(step="damage_control")
    sh = s.ships["Mikasa"]
    sh.destroyed, sh.damaged, sh.margin = 2, 4, 1
    one = {"ship": "Mikasa", "function": "repair_propulsion"}
    with pytest.raises(IllegalCommand, match="nothing \\(more\\) for repair_propulsion"):
        check(s, [one, one])
    c = run(s, [one], [4])
    assert (c.state.ships["Mikasa"].margin, c.state.ships["Mikasa"].damaged) == (0, 4)
    check(c.state, [one] * 4)  # the margin clear: each damaged box may be rolled for


def test_BF6_3_BFR25_BFR52_a_conning_tower_hit_halts_the_scuttling_rolls_until_recovered():
    """Scuttling rolls are counter-flood rolls, a command function: none with a CT hit (6.3), yet the scuttling is
    not called off (it "may not be called off") and its dice go to the other actions."""
    s = make_state("torpedo-attack", step="damage_control")
    c = run(s, [], [4, 3, 3], scuttle=["Ikazuchi"])  # F floods; PA and SA fail
    c.state.ships["Ikazuchi"].dc_damaged = 2  # then DC and CT hits: one die left
    c.state.ships["Ikazuchi"].ct = 1
    c.state.sealed["japan"].pending = {}
    with pytest.raises(IllegalCommand, match="scuttle a ship"):
        check(c.state, [], scuttle=["Ikazuchi"])
    recover = {"ship": "Ikazuchi", "function": "recover_ct"}
    c2 = run(c.state, [recover], [4])  # the one die tries to recover; no scuttling roll
    sh = c2.state.ships["Ikazuchi"]
    assert sh.scuttling and sh.ct == 1 and sh.flooding == {"F": 4, "PA": 0, "SA": 0, "A": 0}
    assert [e.function for e in of(c2, ev.DcResolved)] == ["recover_ct"]
    c2.state.sealed["japan"].pending = {}
    c3 = run(c2.state, [recover], [5])
    assert c3.state.ships["Ikazuchi"].ct == 0
    c3.state.sealed["japan"].pending = {}
    c4 = run(c3.state, [], [4])  # command again: the rolls go on
    assert c4.state.ships["Ikazuchi"].flooding["PA"] == 4


def test_BF6_3_a_destroyed_bridge_or_a_flooded_magazines_position_is_never_repaired():
    """6.3: "Weapons and/or positions which have been destroyed are not repairable"; a position whose magazine is
    flooded "is considered out of commission for the remainder of the game": their slashes take no DC die."""
    s = make_state(step="damage_control")
    sh = s.ships["Mikasa"]
    sh.bridge, sh.bridge_x = 1, True
    with pytest.raises(IllegalCommand, match="repair_bridge"):
        check(s, [{"ship": "Mikasa", "function": "repair_bridge"}])
    sh.mounts["A"].slashes, sh.mounts["A"].flooded = 1, True
    with pytest.raises(IllegalCommand, match="repair_main on A"):
        check(s, [{"ship": "Mikasa", "function": "repair_main", "mount": "A"}])
    sh.bridge_x, sh.mounts["A"].flooded = False, False
    both = [{"ship": "Mikasa", "function": "repair_bridge"}, {"ship": "Mikasa", "function": "repair_main", "mount": "A"}]
    check(s, both)


def test_BF6_3_severe_flooding_cannot_be_contained_even_when_a_magazine_makes_it():
    """6.3 Stop Hvy FL: "severe flooding events cannot be contained". A contained heavy compartment that a flooded
    magazine takes to severe rolls on Hvy/Sev FL again at the next Step One; the code kept the containment."""
    s = _damaged(make_state(step="damage_control"))  # F heavy; A has a slash
    s.ships["Mikasa"].contained = ["F"]
    c = run(s, [{"ship": "Mikasa", "function": "flood_magazine", "mount": "A"}], [3])
    sh = c.state.ships["Mikasa"]
    assert sh.flooding["F"] == 4 and sh.contained == [] and sinking.rolls_for_flooding(sh, "F")


def test_BF6_3_BFR25_a_scuttling_ship_does_not_counterflood_a_zone_twice_in_one_phase():
    """6.3: a failed counter-flood means "no more attempts to flood that zone of the ship may be made during that
    Damage phase", and scuttling rolls counter-flood every compartment not yet severe. The code let a scuttling ship
    add a counterflood action on a zone its scuttling roll had just failed to flood."""
    s = make_state(step="damage_control")
    sh = s.ships["Mikasa"]
    sh.scuttling, sh.flooding["PA"] = True, 2  # uneven: a counter-flood would be legal without the scuttling
    with pytest.raises(IllegalCommand, match="scuttling"):
        check(s, [{"ship": "Mikasa", "function": "counterflood", "compartment": "F", "level": 4}])
    s = make_state(step="damage_control")
    s.ships["Mikasa"].flooding["PA"] = 2  # scuttling begun in this very submission
    with pytest.raises(IllegalCommand, match="scuttling"):
        check(s, [{"ship": "Mikasa", "function": "counterflood", "compartment": "F", "level": 4}], scuttle=["Mikasa"])


CONTAIN_F = {"ship": "Mikasa", "function": "contain_flooding", "compartment": "F"}
MAGAZINE_A = {"ship": "Mikasa", "function": "flood_magazine", "mount": "A"}  # A's magazine is in F


@pytest.mark.parametrize("actions", [[MAGAZINE_A, CONTAIN_F], [CONTAIN_F, MAGAZINE_A]])
def test_BFR59_BFR21_BF6_3_damage_control_is_simultaneous_and_severe_is_never_contained(actions):
    """6.3: "All damage control actions taken during this step are considered simultaneous, and they do not need to
    be executed in any particular order"; "severe flooding events cannot be contained". F heavy; its containment and
    A's magazine both succeed: F is severe and not contained, whichever order they were written in, with the same
    rolls. 3.0.0 took them as written: [magazine, contain] left a severe compartment contained (issue 18 F6)."""
    s = make_state(step="damage_control")
    s.ships["Mikasa"].flooding["F"] = 3
    c = run(s, actions, [4, 3])  # canonical order: containment (4), then the magazine (3)
    sh = c.state.ships["Mikasa"]
    assert sh.flooding["F"] == 4 and sh.contained == [] and sh.mounts["A"].flooded
    assert [e.function for e in of(c, ev.DcResolved)] == ["contain_flooding", "flood_magazine"]
    old = make_state(step="damage_control", edition="3.0.0")
    old.ships["Mikasa"].flooding["F"], old.ships["Mikasa"].mounts["A"].slashes = 3, 1  # 3.0.0: a damaged A only
    if actions[0] is MAGAZINE_A:
        assert run(old, actions, [3, 4]).state.ships["Mikasa"].contained == ["F"]  # the 3.0.0 fault, kept for its games


COUNTERFLOOD_F = {"ship": "Mikasa", "function": "counterflood", "compartment": "F", "level": 3}


@pytest.mark.parametrize("actions", [[COUNTERFLOOD_F, MAGAZINE_A], [MAGAZINE_A, COUNTERFLOOD_F]])
def test_BFR59_BF6_3_a_counterflood_and_a_magazine_in_one_zone_give_one_result(actions):
    """F light, A heavy (a trim): F counter-flooded to heavy and A's magazine flooded (+1) in the same step end at
    heavy, counter-flooded (no Step One rolls), 6 points, whatever the written order: the magazine's level first,
    then the zone to the degree the commander chose. 3.0.0 gave severe (7 points) for [counterflood, magazine] and
    heavy for the reverse."""
    s = make_state(step="damage_control")
    s.ships["Mikasa"].flooding.update(F=1, A=3)
    c = run(s, actions, [3, 4])  # canonical: the magazine (3), then the counter-flood (4)
    sh = c.state.ships["Mikasa"]
    assert (sh.flooding["F"], sh.points, sh.counterflooded) == (3, 6, ["F"])
    assert not sinking.rolls_for_flooding(sh, "F")
    old = make_state(step="damage_control", edition="3.0.0")
    old.ships["Mikasa"].flooding.update(F=1, A=3)
    old.ships["Mikasa"].mounts["A"].slashes = 1  # 3.0.0: a damaged A only
    faces = [4, 3] if actions[0] is COUNTERFLOOD_F else [3, 4]
    assert run(old, actions, faces).state.ships["Mikasa"].flooding["F"] == (4 if actions[0] is COUNTERFLOOD_F else 3)


def test_BFR59_the_canonical_order_is_by_function_then_ship_whatever_is_written():
    s = make_state(step="damage_control")
    acts = [
        {"ship": "Asahi", "function": "sink_minus_1"},
        {"ship": "Mikasa", "function": "secure_rudder"},
        {"ship": "Mikasa", "function": "sink_minus_1"},
    ]
    c = run(s, acts, [4, 4, 4])
    assert [(e.ship, e.function) for e in of(c, ev.DcResolved)] == [
        ("Mikasa", "secure_rudder"),
        ("Mikasa", "sink_minus_1"),
        ("Asahi", "sink_minus_1"),
    ]


def test_BFR59_BFR25_a_scuttling_roll_that_makes_a_contained_compartment_severe_undoes_the_containment():
    """Scuttling rolls are counter-floods taken in the same simultaneous step: they come after the containment, so
    F contained this step and scuttled to severe the same step is not contained (6.3). 3.0.0 rolled the scuttling
    first and then contained a compartment already severe."""
    for edition, contained in (("4.0.0", []), ("3.0.0", ["F"])):
        s = make_state(step="damage_control", edition=edition)
        sh = s.ships["Mikasa"]
        sh.scuttling, sh.flooding["F"] = True, 3
        faces = [4, 4, 4, 4, 4]  # 4.0.0: containment, then F, PA, SA, A; 3.0.0: F, PA, SA, A, then containment
        c = run(s, [CONTAIN_F], faces)
        assert c.state.ships["Mikasa"].flooding["F"] == 4 and c.state.ships["Mikasa"].contained == contained


@pytest.mark.parametrize("edition", ["13.0.0", "14.0.0"])
def test_BF6_3_BFR25_BFE14_1_a_counterflood_floods_an_opposing_zone(edition):
    """6.3: "A vessel suffering from uneven flooding may purposefully flood all or part of an opposing zone in order
    to reduce the vessel's list". Mikasa heavy to port (PA 3, list 3): from 14.0.0 (BF-E14-1) starboard, the zone
    across from the worse, may be counter-flooded and port itself may not (its list would grow to 4, with the stand-in
    table shedding the list's 2 boxes); the refusal names the zones and levels that may. 13.0.0 took any zone."""
    s = make_state(step="damage_control", edition=edition)
    s.ships["Mikasa"].flooding["PA"] = 3
    s.ships["Mikasa"].list, s.ships["Mikasa"].list_boxes = 3, 2
    deeper = [{"ship": "Mikasa", "function": "counterflood", "compartment": "PA", "level": 4}]
    if edition == "14.0.0":
        with pytest.raises(IllegalCommand, match=r"opposing zone.*\{'SA': '1-4'\}.*BF-R25"):
            check(s, deeper)
        offered = {(a.compartment, a.level) for a, _ in dc.open_actions(s, "Mikasa") if a.function == "counterflood"}
        assert offered == {("SA", 1), ("SA", 2), ("SA", 3), ("SA", 4)}
    else:
        c = run(s, deeper, [4])
        assert (c.state.ships["Mikasa"].flooding["PA"], c.state.ships["Mikasa"].list) == (4, 4)
    c = run(s, [{"ship": "Mikasa", "function": "counterflood", "compartment": "SA", "level": 3}], [4])
    assert (c.state.ships["Mikasa"].flooding["SA"], c.state.ships["Mikasa"].list) == (3, 0)


@pytest.mark.parametrize(("edition", "taken"), [("13.0.0", True), ("14.0.0", False)])
def test_BF6_3_BFR25_BFE14_1_a_counterflood_leaves_the_list_smaller_not_turned_over(edition, taken):
    """6.3 "in order to reduce the vessel's list", to "whatever degree the commander wishes": the degree is free as
    long as the list is smaller after it. PA 1 (list 1, no boxes lost): starboard to 1 evens it; to 2 or deeper only
    turns the list over, as great or greater (to severe: list 3, 2 boxes), refused from 14.0.0 (BF-E14-1, the cold
    pass over it); the trim alike (F 1: A to 1 only)."""
    s = make_state(step="damage_control", edition=edition)
    s.ships["Mikasa"].flooding.update(PA=1, F=1)
    s.ships["Mikasa"].list, s.ships["Mikasa"].trim = 1, 1
    for zone in ("SA", "A"):
        over = [{"ship": "Mikasa", "function": "counterflood", "compartment": zone, "level": 4}]
        if taken:
            assert sinking.listing(run(s, over, [4]).state.ships["Mikasa"]) in ((3, 1), (1, 3))
        else:
            with pytest.raises(IllegalCommand, match=r"\{'A': '1', 'SA': '1'\}"):
                check(s, over)
        level_1 = [{"ship": "Mikasa", "function": "counterflood", "compartment": zone, "level": 1}]
        assert 0 in sinking.listing(run(s, level_1, [4]).state.ships["Mikasa"])
    offered = {(a.compartment, a.level) for a, _ in dc.open_actions(s, "Mikasa") if a.function == "counterflood"}
    flooding = s.ships["Mikasa"].flooding
    deeper = {(z, n) for z, now in flooding.items() for n in range(now + 1, 5)}  # 13.0.0: any zone, any deeper level
    assert offered == (deeper if taken else {("SA", 1), ("A", 1)})


def test_BFR59_the_order_of_functions_covers_every_function_a_command_may_name():
    """BF-R59 orders a seat's actions by CANONICAL; the command's `function` enum is written apart. A function added
    to one and not the other would be refused, or sorted by an index that raises (a cold review: nothing tied them)."""
    from typing import get_args

    from domain.battlefleet_1900.commands import DcFunction

    assert sorted(dc.CANONICAL) == sorted(get_args(DcFunction)) and len(set(dc.CANONICAL)) == len(dc.CANONICAL)
