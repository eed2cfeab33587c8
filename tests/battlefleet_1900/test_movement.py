"""rules/movement.py: 3.0 and the execution of 2.1's orders, with exact integer poses."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.battlefleet_1900 import geometry as geo
from domain.battlefleet_1900.awaiting import move_ui
from domain.battlefleet_1900.commands import Move
from domain.battlefleet_1900.evolve import evolve
from domain.battlefleet_1900.rules import courses, movement, orders
from domain.battlefleet_1900.rules.turn import move_phase
from domain.engine import IllegalCommand
from events import battlefleet_1900 as ev
from events.battlefleet_1900 import Arrow, Pose
from tests.battlefleet_1900.scenario import ctx, make_state, of, place


def order(s, division: str, *arrows: dict) -> None:
    s.divisions[division].orders = [Arrow(**a) for a in arrows]


def move(s, seat="japan", **divisions):
    """Resolve the Movement Phase with these division entries for `seat` (nothing for the other)."""
    s.step = "movement"
    s.sealed[seat].pending["move"] = {"divisions": [{"division": d, **m} for d, m in divisions.items()]}
    c = ctx(s)
    move_phase(c)
    return c


def pose(c, ship) -> Pose:
    return c.state.pose(ship)


def test_BFR6_speed_limits_one_box_either_way():
    s = make_state()
    assert movement.limits(s, "Mikasa") == (69, 115)  # boxes of 23; last 92
    assert movement.limits(s, "Poltava") == (60, 100)  # boxes of 20; last 80
    place(s, "Poltava", 750, 600, 90, last=20)
    assert movement.limits(s, "Poltava") == (0, 40)  # 3.0's example: 20 mm moved, at most 40 next


def test_BF3_0_the_top_undamaged_box_limits_speed():
    s = make_state()
    s.ships["Mikasa"].damaged, s.ships["Mikasa"].list_boxes = 2, 1  # 138 and 115 marked; a list costs one more
    assert movement.top_box(s, "Mikasa") == 69 and movement.limits(s, "Mikasa") == (69, 69)


@pytest.mark.parametrize(
    ("damage", "arrows", "kept"),
    [((0, 0), [], 92), ((2, 1), [], 69), ((0, 0), [{"stop": True}], 69)],
    ids=["last-turns-distance", "cut-to-the-top-box", "a-stop-orders-least"],
)
def test_BFR6_the_move_descriptor_says_the_distance_a_division_left_out_goes(damage, arrows, kept):
    """BF-R6, 3.0 ("it may change its speed ... depending on the amount it moved on the previous turn"): a division
    the move leaves out keeps last turn's distance within its limits (a stop order its least); the `move` descriptor
    says that distance (`keep_mm`), which a UI shows for "keep speed" (a frontend author's trial: only the range was
    there), and the lead goes exactly that far."""
    s = make_state(step="movement")
    s.ships["Mikasa"].damaged, s.ships["Mikasa"].list_boxes = damage  # 2, 1: the top box left is 69 (above)
    order(s, "J1", *arrows)
    (j1,) = [d for d in move_ui(s, "japan").divisions if d.division == "J1"]
    assert j1.keep_mm == kept
    c = move(s)
    assert pose(c, "Mikasa") == Pose(1400 + kept, 1800, 90)


def test_BF3_0_BFR7_straight_on_and_a_followers_own_distance():
    s = make_state()
    c = move(s, J1={"distance_mm": 100, "ships": [{"ship": "Asahi", "distance_mm": 90}]})
    assert pose(c, "Mikasa") == Pose(1500, 1800, 90) and pose(c, "Asahi") == Pose(1340, 1800, 90)
    assert pose(c, "Fuji") == Pose(1050, 1800, 90)
    assert c.state.sealed["japan"].last_move["Asahi"] == 90


def test_BF2_1_a_simultaneous_turn_each_ship_on_its_own_circle():
    s = make_state()
    order(s, "J1", {"turn": "together", "to": "starboard", "arrow": 90})
    c = move(s, J1={"distance_mm": 115, "turns_deg": [90]})
    assert pose(c, "Mikasa") == Pose(1470, 1725, 180)  # the 110 mm arc, then 5 mm south
    assert pose(c, "Fuji") == Pose(1020, 1725, 180)
    assert movement.formation(c.state, "J1") == "line_abreast"  # BF-R4


def test_BF2_1_BFR8_BFR40_turn_in_succession_on_the_leads_pivot():
    """3.0.0 (kept for its games): a follower reaching the pivot turns as far as the division's distance takes it;
    from 4.0.0 it uses all its movement to finish the turn (BF-E4-8, the test after the next)."""
    s = make_state(edition="3.0.0")
    order(s, "J1", {"turn": "succession", "to": "starboard", "arrow": 90})
    c = move(s, J1={"distance_mm": 115, "turns_deg": [90]})
    assert pose(c, "Mikasa") == Pose(1470, 1725, 180)
    assert pose(c, "Asahi") == Pose(1365, 1800, 90)  # 150 mm short of the pivot: still on the old course
    assert [(w.x, w.y, w.turns) for w in c.state.sealed["japan"].waypoints["Asahi"]] == [(1400, 1800, [90])]
    assert c.state.sealed["japan"].line_bearing["J1"] == 180 and movement.formation(c.state, "J1") == "line_ahead"
    # next turn Asahi reaches the pivot (35 mm), turns on its own circle as far as 80 mm allows (65 degrees)
    order(c.state, "J1")
    c2 = move(c.state, J1={"distance_mm": 115})
    assert pose(c2, "Asahi").h == 155
    assert [w.turns for w in c2.state.sealed["japan"].waypoints["Asahi"]] == [[25]]
    c3 = move(c2.state, J1={"distance_mm": 115})
    assert pose(c3, "Asahi").h == 180 and c3.state.sealed["japan"].waypoints["Asahi"] == []


def test_BF2_1_BFR5_a_turn_cut_short_is_done_as_far_as_possible_and_the_rest_lapses():
    """3.0.0 (kept for its games): a short move cut the turn: 69 mm, 56 of the ordered 90 degrees."""
    s = make_state(edition="3.0.0")
    order(s, "J1", {"turn": "together", "to": "port", "arrow": 90}, {"turn": "together", "to": "port", "arrow": 45})
    c = move(s, J1={"distance_mm": 69, "turns_deg": [90, 45]})
    assert pose(c, "Mikasa").h == 90 - 56  # 69 mm at radius 70 covers 56 degrees; the second arrow lapses


def _move_cmd(**entry):
    return msgspec.convert({"type": "move", "divisions": [{"division": "J1", **entry}]}, Move)


@pytest.mark.parametrize("turn", ["together", "succession"])
def test_BFR5_BF2_1_an_ordered_turn_is_finished_when_the_allowance_permits(turn):
    """2.1: "If a vessel is ordered to execute a turn which it cannot fulfill even by using all available movement,
    it will complete as much of the turn as possible": Mikasa (69-115 mm) ordered the horizontal arrow must move
    the 110 mm its 90-degree arc costs. 3.0.0 accepted 69 mm and turned her 56 degrees (issue 18 F1)."""
    s = make_state(step="movement")
    order(s, "J1", {"turn": turn, "to": "port", "arrow": 90})
    with pytest.raises(IllegalCommand, match="at least 110 mm"):
        movement.check_move(s, "japan", _move_cmd(distance_mm=69, turns_deg=[90]))
    movement.check_move(s, "japan", _move_cmd(distance_mm=110, turns_deg=[90]))
    assert pose(move(s, J1={"distance_mm": 110, "turns_deg": [90]}), "Mikasa") == Pose(1470, 1870, 0)
    c = move(s)  # unlisted (BF-R33): its last 92 mm would turn it 75 degrees; it moves the 110 the turn needs
    assert pose(c, "Mikasa").h == 0 and c.state.sealed["japan"].last_move["Mikasa"] == 110
    old = make_state(step="movement", edition="3.0.0")
    order(old, "J1", {"turn": turn, "to": "port", "arrow": 90})
    movement.check_move(old, "japan", _move_cmd(distance_mm=69, turns_deg=[90]))
    assert pose(move(old), "Mikasa").h == 90 - 75


def test_BFR5_BF2_1_a_turn_it_cannot_finish_takes_all_its_movement():
    """2.1: only a turn it cannot fulfil "even by using all available movement" is cut short: with 90 + 45 degrees
    ordered (110 + 55 mm) and 115 mm available, Mikasa moves all 115, finishes the first, and the second lapses
    after 4 degrees (BF-R5)."""
    s = make_state(step="movement")
    order(s, "J1", {"turn": "together", "to": "port", "arrow": 90}, {"turn": "together", "to": "port", "arrow": 45})
    with pytest.raises(IllegalCommand, match="at least 115 mm"):
        movement.check_move(s, "japan", _move_cmd(distance_mm=114, turns_deg=[90, 45]))
    c = move(s, J1={"distance_mm": 115, "turns_deg": [90, 45]})
    assert pose(c, "Mikasa").h == 360 - 4


def test_BFR5_BF2_1_each_ship_turning_together_finishes_its_own_turn():
    """A follower with a widened circle (one TR hit: radius 105, 90 degrees cost 165 mm > its 115) turning together
    uses all its movement; a follower's own distance below what its turn needs is refused."""
    s = make_state(step="movement")
    s.ships["Asahi"].tr = 1
    order(s, "J1", {"turn": "together", "to": "starboard", "arrow": 90})
    with pytest.raises(IllegalCommand, match="Asahi must move at least 115 mm"):
        movement.check_move(
            s, "japan", _move_cmd(distance_mm=110, turns_deg=[90], ships=[{"ship": "Asahi", "distance_mm": 110}])
        )
    c = move(s, J1={"distance_mm": 110, "turns_deg": [90]})
    assert c.state.sealed["japan"].last_move["Asahi"] == 115 and pose(c, "Asahi").h == 90 + 62
    assert c.state.sealed["japan"].last_move["Fuji"] == 110 and pose(c, "Fuji").h == 180


@pytest.mark.parametrize(
    "tr, secured, r", [(0, False, 70), (1, False, 105), (2, False, 140), (0, True, 140), (1, True, 210)]
)
def test_glossary_ST_and_RC_widen_the_turning_circle(tr, secured, r):
    s = make_state()
    s.ships["Mikasa"].tr, s.ships["Mikasa"].secured = tr, secured
    assert movement.radius(s, "Mikasa") == r


def test_glossary_R_a_jammed_rudder_turns_the_whole_move():
    s = make_state()
    s.ships["Mikasa"].rudder = "port"
    c = move(s, J1={"distance_mm": 110})
    assert pose(c, "Mikasa") == Pose(1470, 1870, 0)  # 90 degrees to port at radius 70, whatever the orders
    assert pose(c, "Asahi") == Pose(1360, 1800, 90)


def test_BF6_0_BFR29_a_sinking_ship_stops_a_move_short_of_its_base():
    s = make_state()
    place(s, "Yakumo", 1540, 1800, 90)  # its base spans x 1500..1540, in Mikasa's path
    s.ships["Yakumo"].sinking = 2
    c = move(s, J1={"distance_mm": 115})
    moved = next(x for x in of(c, ev.ShipsMoved)[0].moves.ships if x.ship == "Mikasa")
    assert pose(c, "Mikasa") == Pose(1499, 1800, 90) and (moved.moved_mm, moved.stopped_by) == (99, "Yakumo")


def test_BFR29_a_bow_off_the_table_withdraws_the_ship():
    s = make_state()
    place(s, "Mikasa", 3550, 1800, 90)
    c = move(s, J1={"distance_mm": 100})
    assert of(c, ev.ShipWithdrew)[0].ship == "Mikasa" and c.state.ships["Mikasa"].lost == "withdrawn"
    assert c.state.divisions["J1"].flagship == "Asahi"  # command passes as for a loss (BF-R36)


def test_BFR29_overlapping_bases_are_only_a_warning():
    s = make_state()
    place(s, "Asahi", 1355, 1800, 90)
    place(s, "Mikasa", 1390, 1800, 90)  # Asahi's bow is already under Mikasa's stern: touching as the phase begins
    c = move(s, J1={"distance_mm": 69, "ships": [{"ship": "Asahi", "distance_mm": 115}]})
    assert of(c, ev.ShipsMoved)[0].moves.overlaps == [["Mikasa", "Asahi"]]
    assert pose(c, "Asahi") == Pose(1470, 1800, 90)  # bases touching when the move began do not stop each other


def test_BFR29_3_0_0_ships_sailed_through_bases_that_were_not_sinking():
    s = make_state(edition="3.0.0")
    place(s, "Asahi", 1355, 1800, 90)
    c = move(s, J1={"distance_mm": 69, "ships": [{"ship": "Asahi", "distance_mm": 115}]})
    assert of(c, ev.ShipsMoved)[0].moves.overlaps == [["Mikasa", "Asahi"]] and pose(c, "Asahi").x == 1470


def _moved(c, ship):
    return next(x for x in of(c, ev.ShipsMoved)[0].moves.ships if x.ship == ship)


@pytest.mark.parametrize("edition, x, stopped_by", [("4.0.0", 1499, "Yakumo"), ("3.0.0", 1515, None)])
def test_BFR29_BF6_0_every_base_is_a_navigational_obstacle(edition, x, stopped_by):
    """6.0: "Until it disappears under the waves, a vessel will remain a navigational and line-of-sight obstacle to
    other ships": every vessel, not only a sinking one. Yakumo lies dead in the water (every box marked, not
    sinking) across Mikasa's course: Mikasa stops where her base would first touch it. 3.0.0 sailed through
    (issue 18 F7)."""
    s = make_state(edition=edition)
    place(s, "Yakumo", 1540, 1800, 90)
    s.ships["Yakumo"].destroyed = 6
    c = move(s, J1={"distance_mm": 115})
    assert (pose(c, "Mikasa").x, _moved(c, "Mikasa").stopped_by) == (x, stopped_by)


def test_BFR29_moves_are_simultaneous_a_ship_stops_where_it_closes_on_a_moving_base():
    """Both move at once, each at its own even speed through the phase: Asahi (115 mm), 5 mm astern of Mikasa
    (69 mm), closes on her and stops where her bow would first touch Mikasa's stern as it then is; Mikasa, whose
    own move opens the gap, moves her full 69 mm (BF-R29, 4.0.0)."""
    s = make_state()
    place(s, "Asahi", 1355, 1800, 90)  # bow 5 mm short of Mikasa's stern (1400 - 40)
    c = move(s, J1={"distance_mm": 69, "ships": [{"ship": "Asahi", "distance_mm": 115}]})
    assert pose(c, "Mikasa") == Pose(1469, 1800, 90) and _moved(c, "Mikasa").stopped_by is None
    a = _moved(c, "Asahi")
    assert (a.x, a.moved_mm, a.stopped_by) == (1365, 10, "Mikasa")
    assert c.state.sealed["japan"].last_move["Asahi"] == 10 and of(c, ev.ShipsMoved)[0].moves.overlaps == []


def test_BFR29_two_ships_closing_head_on_both_stop():
    """Mikasa east at 100 mm, Tsesarevich west at 80, bow to bow 150 mm apart: each one's own step closes the gap,
    so both stop where the bases would first touch, the gap shared in proportion to their speeds (BF-R29)."""
    s = make_state()
    place(s, "Tsesarevich", 1550, 1800, 270)
    s.sealed["russia"].pending["move"] = {"divisions": [{"division": "R1", "distance_mm": 80}]}
    c = move(s, J1={"distance_mm": 100})
    m, t = _moved(c, "Mikasa"), _moved(c, "Tsesarevich")
    assert (m.stopped_by, t.stopped_by) == ("Tsesarevich", "Mikasa")
    assert m.x < t.x and t.x - m.x <= 2 and m.moved_mm > t.moved_mm
    assert of(c, ev.ShipsMoved)[0].moves.overlaps == []


def test_BFR4_a_180_degree_simultaneous_turn_reverses_the_line():
    s = make_state("torpedo-attack")  # destroyers: radius 50, a 90-degree arc costs 79 mm; up to 234 this turn
    order(
        s,
        "D1",
        {"turn": "together", "to": "starboard", "arrow": 90},
        {"turn": "together", "to": "starboard", "arrow": 90},
    )
    c = move(s, D1={"distance_mm": 234, "turns_deg": [90, 90]})
    assert of(c, ev.LineReversed)[0].division == "D1"
    assert c.state.divisions["D1"].ships == ["Sazanami", "Akebono", "Inazuma", "Ikazuchi"]
    assert pose(c, "Ikazuchi") == Pose(2000, 1876, 0)  # 100 mm west, then 76 mm back north
    assert movement.formation(c.state, "D1") == "line_ahead" and c.state.sealed["japan"].line_bearing["D1"] == 0


def test_BFR6_a_stop_moves_the_minimum_and_starts_again_from_nothing():
    s = make_state()
    order(s, "J1", {"stop": True})
    c = move(s)
    assert pose(c, "Mikasa") == Pose(1469, 1800, 90) and c.state.sealed["japan"].last_move["Mikasa"] == 0
    assert movement.limits(c.state, "Mikasa") == (0, 23)


def test_BFR33_an_unlisted_division_keeps_its_speed_and_makes_each_arrows_least_turn():
    s = make_state()
    order(s, "J2", {"turn": "together", "to": "port", "arrow": 45})
    c = move(s)
    assert pose(c, "Mikasa") == Pose(1492, 1800, 90)
    assert pose(c, "Yakumo").h == 45


@pytest.mark.parametrize(
    "orders_, entry, why",
    [
        ([{"turn": "together", "to": "port", "arrow": 45}], {"turns_deg": [90]}, "turns 45-89"),
        ([{"turn": "together", "to": "starboard", "arrow": 90}], {"turns_deg": [-90]}, "positive number"),
        ([{"turn": "together", "to": "starboard", "arrow": 90}], {"turns_deg": [90, 90]}, "one turn per arrow"),
        ([], {"turns_deg": [45]}, "-44..44"),
        ([{"stop": True}], {"turns_deg": [10]}, "stop order"),
        ([{"stop": True}], {"distance_mm": 100}, "exactly 69"),
        ([{"stop": True}], {"ships": [{"ship": "Asahi", "distance_mm": 100}]}, "every ship moves its minimum"),
        ([], {"distance_mm": 116}, "69-115"),
        ([], {"ships": [{"ship": "Mikasa", "distance_mm": 90}]}, "a follower's distance"),
        ([], {"ships": [{"ship": "Asahi", "distance_mm": 200}]}, "Asahi may move 69-115"),
    ],
)
def test_BF3_0_BFR5_moves_are_judged_on_the_ship_log(orders_, entry, why):
    s = make_state(step="movement")
    order(s, "J1", *orders_)
    cmd = msgspec.convert({"type": "move", "divisions": [{"division": "J1", **entry}]}, Move)
    with pytest.raises(IllegalCommand, match=why):
        movement.check_move(s, "japan", cmd)


def test_BFR9_BFR33_a_dropped_out_ship_must_turn_out_of_the_line():
    s = make_state(step="movement")
    s.ships["Fuji"].damaged = 1
    from tests.battlefleet_1900.test_orders import reveal

    c = reveal(s, japan={"drop_out": ["Fuji"]})
    bad = msgspec.convert({"type": "move", "divisions": [{"division": "J1/Fuji", "turns_deg": [0]}]}, Move)
    with pytest.raises(IllegalCommand, match="turn out of the line"):
        movement.check_move(c.state, "japan", bad)
    c2 = move(c.state)  # unlisted: 45 degrees to starboard (BF-R33)
    assert pose(c2, "Fuji").h == 135


def test_BFR35_a_free_turn_in_line_ahead_is_made_in_succession():
    s = make_state()
    c = move(s, J1={"distance_mm": 115, "turns_deg": [-30]})
    assert pose(c, "Mikasa").h == 60 and pose(c, "Asahi").h == 90  # the follower runs on to the pivot first
    assert [w.turns for w in c.state.sealed["japan"].waypoints["Asahi"]] == [[-30]]


def test_BFR40_a_simultaneous_turn_clears_the_pivots_still_ahead():
    s = make_state()
    order(s, "J1", {"turn": "succession", "to": "starboard", "arrow": 90})
    c = move(s, J1={"distance_mm": 115, "turns_deg": [90]})
    assert c.state.sealed["japan"].waypoints["Asahi"]
    order(c.state, "J1", {"turn": "together", "to": "port", "arrow": 45})
    c2 = move(c.state, J1={"distance_mm": 115, "turns_deg": [45]})
    assert c2.state.sealed["japan"].waypoints["Asahi"] == [] and pose(c2, "Asahi").h == 45


def test_BFR30_BFR11_a_division_without_a_commanding_flagship_makes_no_free_turn():
    """Glossary CT: "a flagship's division goes straight"; BF-R11: with no flagship, too. A turn under 45 degrees
    needs no arrow (2.1), but it is still the flagship's order."""
    s = make_state(step="movement")
    free = msgspec.convert({"type": "move", "divisions": [{"division": "J1", "turns_deg": [30]}]}, Move)
    movement.check_move(s, "japan", free)
    s.ships["Mikasa"].ct = 1
    with pytest.raises(IllegalCommand, match="goes straight"):
        movement.check_move(s, "japan", free)
    s.ships["Mikasa"].ct = 0
    s.divisions["J1"].flagship = None
    with pytest.raises(IllegalCommand, match="goes straight"):
        movement.check_move(s, "japan", free)
    straight = msgspec.convert({"type": "move", "divisions": [{"division": "J1", "distance_mm": 100}]}, Move)
    movement.check_move(s, "japan", straight)


def test_BF3_0_BF2_1_a_ship_that_cannot_move_moved_nothing():
    """3.0: speed changes "depending on the amount it moved on the previous turn"; a ship whose every box is marked
    moves nothing, so it is at a stop: after a box is repaired it may start from 0, and a dead-in-the-water flagship
    is "no faster than 1/6 original speed" for a voluntary transfer (2.1). The code kept its last move (92 mm)."""
    s = make_state()
    s.ships["Mikasa"].destroyed, s.ships["Mikasa"].damaged = 5, 1  # every box marked: dead in the water
    place(s, "Asahi", 1275, 1800, 90, last=23)  # a quarter bracket astern, at 1/6 of its speed
    c = move(s, J1={"ships": [{"ship": "Asahi", "distance_mm": 0}]})
    assert pose(c, "Mikasa") == Pose(1400, 1800, 90) and c.state.sealed["japan"].last_move["Mikasa"] == 0
    assert orders.why_not_transfer(c.state, "japan", "J1", "Asahi") is None
    c.state.ships["Mikasa"].damaged = 0  # one box repaired (6.3)
    assert movement.limits(c.state, "Mikasa") == (0, 23)


def test_BF2_1_BFR4_from_line_abreast_a_simultaneous_turn_can_return_to_line_ahead():
    """2.1: "if a division is in line abreast, only certain simultaneous turn commands will allow a return to line
    ahead": two 90-degree turns together to the same side, a turn apart, leave the ships in column on the reverse
    course, led by the old rear. The code reversed the line only on 180 degrees in one move, so the division stayed
    "other" (no succession) with its rear ship as its lead."""
    s = make_state("torpedo-attack")
    order(s, "D1", {"turn": "together", "to": "starboard", "arrow": 90})
    c = move(s, D1={"distance_mm": 156, "turns_deg": [90]})
    assert movement.formation(c.state, "D1") == "line_abreast" and not of(c, ev.LineReversed)
    s2 = c.state
    s2.turn = 2
    order(s2, "D1", {"turn": "together", "to": "starboard", "arrow": 90})
    c2 = move(s2, D1={"distance_mm": 117, "turns_deg": [90]})
    assert of(c2, ev.LineReversed)[0].division == "D1"
    assert c2.state.divisions["D1"].ships == ["Sazanami", "Akebono", "Inazuma", "Ikazuchi"]
    assert movement.formation(c2.state, "D1") == "line_ahead"
    lead, last = pose(c2, "Sazanami"), pose(c2, "Ikazuchi")
    h = c2.state.sealed["japan"].line_bearing["D1"]
    assert lead.h == last.h == h  # the new lead is ahead of the old one on the new course
    fx, fy = geo.forward(h)
    assert (lead.x - last.x) * fx + (lead.y - last.y) * fy > 0


def test_BFR29_BFR8_a_lead_stopped_mid_turn_leaves_its_followers_the_turn_it_made():
    """Mikasa, turning 90 degrees in succession, meets Yakumo (dead in the water) on her arc after 65 degrees and
    stops there (4.0.0); the pivot her followers will turn on holds the 65 degrees she made, and the line's bearing
    is her heading (BF-R8)."""
    s = make_state()
    order(s, "J1", {"turn": "succession", "to": "starboard", "arrow": 90})
    place(s, "Yakumo", 1470, 1760, 0)
    s.ships["Yakumo"].destroyed = 6
    c = move(s, J1={"distance_mm": 115, "turns_deg": [90]})
    m = _moved(c, "Mikasa")
    assert (m.h, m.moved_mm, m.stopped_by) == (155, 80, "Yakumo")
    assert [(w.x, w.y, w.turns) for w in c.state.sealed["japan"].waypoints["Asahi"]] == [(1400, 1800, [65])]
    assert c.state.sealed["japan"].line_bearing["J1"] == 155


@pytest.mark.parametrize("edition, moved, heading", [("3.0.0", 69, 97), ("4.0.0", 115, 135)])
def test_BFR5_BFR8_a_follower_that_reaches_the_leads_pivot_finishes_the_turn_there(edition, moved, heading):
    """2.1: only a turn a vessel "cannot fulfill even by using all available movement" is cut short. Asahi, 60 mm
    behind Mikasa's bow, reaches the pivot of J1's 45-degree turn in succession and needs 55 mm more to finish it: with
    115 mm available it finishes (4.0.0, BF-E4-8), whatever shorter distance it was given; 3.0.0 let it stop 7
    degrees round with 38 left over (found by the last cold audit)."""
    s = make_state(edition=edition)
    place(s, "Asahi", 1340, 1800, 90)
    s.divisions["J1"].orders = [Arrow(turn="succession", to="starboard", arrow=45)]
    entry = {"division": "J1", "distance_mm": 115, "turns_deg": [45], "ships": [{"ship": "Asahi", "distance_mm": 69}]}
    s.step = "movement"
    s.sealed["japan"].pending["move"] = {"divisions": [entry]}
    c = ctx(s)
    move_phase(c)
    asahi = next(x for x in of(c, ev.ShipsMoved)[0].moves.ships if x.ship == "Asahi")
    assert (asahi.moved_mm, asahi.h) == (moved, heading)


def test_BF2_1_BFR5_BFE8_2_arrows_the_public_allowance_permits_are_cut_short_by_the_true_one():
    """8.0.0 under blur accepts the arrows the public lead's top box allows (BF-E8-2); a lead whose one-box limit is
    truly less (69 mm moved, at most 92) turns as far as it can and the rest lapses (2.1: "it will complete as much
    of the turn as possible"): 92 mm on a 70 mm radius is 75 of the 90 degrees; the 45 after it is not begun."""
    s = make_state(fog="blur")
    s.sealed["japan"].last_move["Mikasa"] = 69
    order(s, "J1", {"turn": "succession", "to": "starboard", "arrow": 90}, {"turn": "succession", "to": "starboard", "arrow": 45})
    orders.check_arrows(s, "J1", s.divisions["J1"].orders)
    c = move(s, J1={})
    assert pose(c, "Mikasa").h == 165 and c.state.sealed["japan"].last_move["Mikasa"] == 92


@pytest.mark.parametrize("edition", ["11.0.0", "10.0.0"])
def test_BF2_1_BFR4_BFE11_3_a_line_whose_lead_leaves_keeps_its_formation(edition):
    """2.1 Dropping Out: "the ship behind it … close the existing divisional formation". J1 in line ahead has turned
    in succession: Mikasa, past the turn point, heads 180 and the line's bearing with it; the rest still head 90 for
    the point. When Mikasa leaves (dropping out, or striking), the line is still in line ahead behind Asahi: from
    11.0.0 (BF-E11-3) its bearing turns with the new lead as it lay to the old one. 10.0.0 kept 180 and read the
    column as abreast, so its succession arrows were executed together (the cold pass over 10.0.0, F3). A line
    abreast stays abreast."""
    for leave in (
        ev.ShipDroppedOut(ship="Mikasa", division="J1", new_division="J1/Mikasa"),
        ev.ShipSurrendered(ship="Mikasa"),
    ):
        s = make_state(edition=edition)
        for i, ship in enumerate(s.divisions["J1"].ships):
            place(s, ship, 1500 + 10 * i, 1800 - 150 * i, 180 if ship == "Mikasa" else 90)
        s.sealed["japan"].line_bearing["J1"] = 180
        evolve(s, leave)
        assert s.divisions["J1"].ships[0] == "Asahi"
        assert movement.formation(s, "J1") == ("line_ahead" if edition == "11.0.0" else "line_abreast")
    s = make_state(edition=edition)
    for i, ship in enumerate(s.divisions["J1"].ships):
        place(s, ship, 1500 + 150 * i, 1800, 90)
    s.sealed["japan"].line_bearing["J1"] = 0
    evolve(s, ev.ShipSurrendered(ship="Mikasa"))
    assert movement.formation(s, "J1") == "line_abreast"


def _orders_then_move(s, orders_, move):
    """Reveal japan's orders (russia none), then its move, as the Command and Movement Phases do: the state after."""
    for seat, pending in (("japan", orders_), ("russia", {})):
        s.sealed[seat].pending["give_orders"] = pending
    c = ctx(s)
    orders.resolve(c)
    s = c.state
    s.step = "movement"
    for seat, pending in (("japan", move), ("russia", {})):
        s.sealed[seat].pending["move"] = pending
    c = ctx(s)
    move_phase(c)
    return c.state


@pytest.mark.parametrize("edition", ["11.0.0", "10.0.0"])
def test_BF2_1_BFR4_BFR8_BFE11_3_the_new_lead_rounding_the_old_leads_pivot_turns_the_line_with_it(edition):
    """J1 turns 90° in succession; Mikasa has turned, the rest have not reached its pivot. Mikasa then drops out and
    Asahi leads on, rounding the pivot in its next move: the column is still in line ahead behind it, so the line's
    bearing follows Asahi round the pivot (BF-E11-3; the cold pass over 11.0.0, F1: 11.0.0 as first made kept the
    bearing of the drop-out and read the column `other` once Asahi turned). 10.0.0 read it abreast at once."""
    s = make_state(fog="open", edition=edition)
    s = _orders_then_move(s, {"divisions": [{"division": "J1", "orders": [{"turn": "succession", "to": "starboard", "arrow": 90}]}]},
                      {"divisions": [{"division": "J1", "distance_mm": 115, "turns_deg": [90]}]})  # fmt: skip
    assert s.pose("Mikasa").h == 180 and s.pose("Asahi").h == 90 and s.sealed["japan"].waypoints.get("Asahi")
    s.turn, s.step, s.ships["Mikasa"].damaged = 2, "command", 2
    for d in s.divisions.values():
        d.orders = []
    s = _orders_then_move(s, {"drop_out": ["Mikasa"]}, {"divisions": [{"division": "J1", "distance_mm": 138}]})
    assert s.divisions["J1"].ships[0] == "Asahi"
    if edition == "10.0.0":  # read abreast: turned together, the pivot dropped, Asahi steams on east
        assert s.pose("Asahi").h == 90 and not s.sealed["japan"].waypoints.get("Asahi")
        return
    assert s.pose("Asahi").h == 174, "Asahi has rounded the pivot, its turn to finish next move"
    assert s.sealed["japan"].line_bearing["J1"] == 174 and movement.formation(s, "J1") == "line_ahead"


# ---- the lockstep's shortcuts (issue 36), against the tick-by-tick walk they replace ----------------------------


def _track(start: tuple[int, int], steps: list[tuple[int, int, int]]) -> courses.Track:
    """A track from (moved added, dx, dy) steps: moved never falls, and a step may jump (a pivot) or stand still."""
    out, moved, (x, y) = courses.Track([0], [start[0]], [start[1]], [0]), 0, start
    for dm, dx, dy in steps:
        moved, x, y = moved + dm, x + dx, y + dy
        out.add(moved, Pose(x, y, 0))
    return out


steps = st.lists(st.tuples(st.integers(0, 2), st.integers(-6, 6), st.integers(-6, 6)), max_size=60)


@given(steps, st.integers(1, 150), st.integers(0, 60))
def test_BFR29_a_tracks_sample_at_each_tick_is_the_last_its_movement_reaches(s, speed, more):
    """courses._ticks: at tick k of K the sample reached is the last whose `moved` is within k*speed//K."""
    t, K = _track((0, 0), s), speed + more
    walk, i = [0], 0
    for k in range(1, K + 1):
        while i + 1 < len(t) and t.moved[i + 1] <= k * speed // K:
            i += 1
        walk.append(i)
    assert courses._ticks(t.moved, speed, K) == walk


@given(steps, st.integers(1, 150), steps, st.integers(0, 150), st.integers(0, 200), st.integers(-150, 150),
       st.integers(1, 120), st.integers(0, 60))  # fmt: skip
def test_BFR29_the_lockstep_tries_every_tick_where_two_bows_come_within_reach(sa, va, sb, vb, bx, by, reach, more):
    """courses._near_ticks skips ticks in strides while the bows stay apart, and still yields every tick (in order)
    where one ship reaches a new sample with the bows within reach, as walking every tick does."""
    a, b = _track((0, 0), sa), _track((bx, by), sb)
    K = max(va, vb) + more
    if K == 0:
        return
    ta = courses._ticks(a.moved, va, K) if va else [0] * (K + 1)
    tb = courses._ticks(b.moved, vb, K) if vb else [0] * (K + 1)
    walk = [
        k
        for k in range(1, K + 1)
        if (ta[k], tb[k]) != (ta[k - 1], tb[k - 1])
        and (a.x[ta[k]] - b.x[tb[k]]) ** 2 + (a.y[ta[k]] - b.y[tb[k]]) ** 2 <= reach * reach
    ]
    wa, wb = courses._walked(a), courses._walked(b)
    assert list(courses._near_ticks(a, ta, wa, b, tb, wb, reach, K)) == walk
