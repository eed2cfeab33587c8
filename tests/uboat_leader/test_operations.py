"""SEGMENTO DE OPERACIONES: moving and patrolling (UL-20, UL-23), the Channel and Unfit boats (UL-21, UL-R10, UL-R11),
patrols (UL-22), mission boats (UL-R6, UL-R8), class limits (UL-42)."""

from __future__ import annotations

import pytest

from domain.engine import IllegalCommand
from events import uboat_leader as ev
from tests.uboat_leader.scenario import data_with, deck, legal, new_state, of, put, roll, send, types

QUIET, ROUGH, SUB_ATTACK, AIRCRAFT, SWEEP = 8, 1, 5, 3, 11


def ops(*boats, **kw):
    s = new_state(boats=tuple((b, "trained") for b in boats) or (("U-47", "trained"),), segment="operations", **kw)
    return s


def test_UL20_a_step_into_an_area_draws_its_move_value_of_events_one_by_one():
    s = ops()
    deck(s, "events", ROUGH, QUIET)
    events = send(s, "move", 2, boat="U-47", to="north-sea")  # North Sea: Move 1
    assert types(events)[:3] == ["UBoatMoved", "DiceRolled", "CardDrawn"]
    assert of(events, ev.CardDrawn)[0].number == QUIET and s.boats["U-47"].where == "north-sea"
    assert s.ops.moving == "U-47" and legal(s)["stop"].choices == [{"boat": "U-47"}]
    events = send(s, "move", 1, 1, boat="U-47", to="channel")  # the Channel: Move 2
    assert [e.number for e in of(events, ev.CardDrawn)] == [ROUGH, QUIET], "the discards reformed the deck"
    assert s.boats["U-47"].stress == 1


def test_UL21_no_move_ends_in_the_channel():
    s = ops("U-47", "U-51")
    put(s, "U-47", "channel")
    s.ops.moving = "U-47"
    s.ops.done = ["U-47"]
    assert set(legal(s)) == {"move"} and {c["boat"] for c in legal(s)["move"].choices} == {"U-47"}
    for bad in (("stop", {"boat": "U-47"}), ("end_operations", {}), ("move", {"boat": "U-51", "to": "north-sea"})):
        with pytest.raises(IllegalCommand):
            send(s, bad[0], **bad[1])


def test_UL21_UL_R10_a_boat_made_unfit_in_the_channel_goes_to_the_search_box_it_came_from():
    s = ops()
    put(s, "U-47", "british-isles", stress=9)
    deck(s, "events", ROUGH)
    events = send(s, "move", 1, boat="U-47", to="channel")
    (search,) = of(events, ev.ToSearchBox)
    assert (search.area, s.boats["U-47"].space, s.boats["U-47"].band) == ("british-isles", "search", "unfit")
    assert len(of(events, ev.CardDrawn)) == 1, "an Unfit boat draws no more Events"


def test_UL21_a_boat_made_unfit_by_an_event_goes_to_the_areas_search_box_and_its_mission_fails():
    s = ops()
    put(s, "U-47", "germany", "port", stress=9, missions=["attack"])
    deck(s, "events", SUB_ATTACK)
    events = send(s, "move", 1, boat="U-47", to="north-sea")
    assert [(m.mission, m.outcome) for m in of(events, ev.MissionEnded)] == [("attack", "failed")]
    assert of(events, ev.ToSearchBox)[0].area == "north-sea" and s.boats["U-47"].missions == ["attack"]  # UL-R8


def test_UL22_entering_a_port_ends_the_move_and_completes_a_patrol_with_no_events():
    s = ops()
    put(s, "U-47", "north-sea")
    events = send(s, "move", boat="U-47", to="germany")
    assert types(events) == ["UBoatMoved", "PatrolCompleted", "MoveEnded"]
    assert (s.boats["U-47"].patrols, s.ops.moving) == (1, None)


def test_UL22_UL_R57_a_boat_back_in_port_in_the_segment_it_left_has_completed_a_patrol():
    """UL-R57: "Un U-Boat termina una Patrulla cuando mueves su ficha hasta un recuadro de Puerto": U-47 leaves
    Germany for the North Sea (its Move card, Quiet Seas) and steps back in the same Operations Segment: a patrol,
    though it met no convoy and took one Strategic Segment."""
    s = ops()
    deck(s, "events", QUIET)
    send(s, "move", 1, boat="U-47", to="north-sea")
    events = send(s, "move", boat="U-47", to="germany")
    assert of(events, ev.PatrolCompleted)[0].patrols == 1 and s.boats["U-47"].patrols == 1 and s.turn == 1


def test_UL_R8_a_failed_mission_is_cancelled_in_port_and_its_mines_revert_to_torpedoes():
    s = new_state()
    put(s, "U-47", "north-sea", stress=10, missions=["mine"], mines=6)
    s.boats["U-47"].stored["normal"] = 3
    events = send(s, "end_strategic")  # Unfit at sea: home at once (North Sea to Germany: no Events)
    assert [(m.mission, m.outcome) for m in of(events, ev.MissionEnded)] == [("mine", "cancelled")]
    b = s.boats["U-47"]
    assert (b.where, b.missions, b.mines, b.stored["normal"]) == ("germany", [], 0, 9)


def test_UL20_a_boat_that_does_not_move_draws_its_areas_patrol_value():
    s = ops()
    put(s, "U-47", "w-approaches")  # Patrol 2
    deck(s, "events", ROUGH, QUIET)
    events = send(s, "patrol", 1, 1, boat="U-47")
    assert [e.number for e in of(events, ev.EventResolved)] == [ROUGH, QUIET]
    with pytest.raises(IllegalCommand) as e:
        send(s, "move", boat="U-47", to="british-isles")
    assert "moved or patrolled" in e.value.detail


def test_UL20_UL_R34_ending_the_segment_makes_every_boat_at_sea_that_has_not_moved_patrol():
    s = ops("U-47", "U-51")
    put(s, "U-47", "north-sea")  # Patrol 1
    deck(s, "events", QUIET)
    events = send(s, "end_operations", 1)
    assert types(events) == [
        "UBoatPatrolled",
        "DiceRolled",
        "CardDrawn",
        "EventResolved",
        "CardsDiscarded",
        "SegmentBegan",
    ], "U-51 in port draws nothing"
    assert s.segment == "tactical"


def test_UL23_an_enemy_aircraft_roll_adds_stress_when_d10_plus_EV_is_at_most_its_number():
    s = ops()
    put(s, "U-47", "north-sea")
    deck(s, "events", AIRCRAFT)
    events = send(s, "patrol", 1, 3, boat="U-47")  # 3 + EV 3 = 6 <= 6
    r = roll(events, "Enemy Aircraft")
    assert (r.result.total, r.result.target, r.result.outcome) == (6, 6, "stress") and "UL-23" in r.rule
    assert s.boats["U-47"].stress == 2
    deck(s, "events", AIRCRAFT)
    s.ops.done = []
    send(s, "patrol", 1, 4, boat="U-47")  # 4 + 3 = 7: evaded
    assert s.boats["U-47"].stress == 2


def test_UL21_UL_R11_UL_R30_an_unfit_boat_at_sea_goes_home_by_the_fewest_steps_drawing_events():
    s = new_state(segment="strategic")
    put(s, "U-47", "w-approaches", stress=10)
    deck(s, "events", QUIET, ROUGH)
    events = send(s, "end_strategic", 1, 1)  # through the British Isles and the North Sea, 1 Event each
    moves = [e.to for e in of(events, ev.UBoatMoved)]
    assert moves == ["british-isles", "north-sea", "germany"] and of(events, ev.PatrolCompleted)[0].patrols == 1
    assert s.boats["U-47"].stress == 11 and "U-47" in s.ops.done


def test_UL3_an_unfit_crew_does_not_leave_port():
    s = ops()
    put(s, "U-47", "germany", "port", stress=10)
    assert "move" not in legal(s)


def test_UL_R6_a_mission_boat_steps_only_toward_its_box_and_cannot_stop_or_patrol_short_of_it():
    s = ops()
    put(s, "U-47", "british-isles", missions=["attack"])
    assert legal(s)["move"].choices == [{"boat": "U-47", "to": "north-sea"}]
    assert "patrol" not in legal(s) and "end_operations" not in legal(s)
    deck(s, "events", QUIET)
    send(s, "move", 1, boat="U-47", to="north-sea")
    assert legal(s)["move"].choices == [{"boat": "U-47", "to": "north-sea-attack"}] and "stop" not in legal(s)


@pytest.mark.parametrize(
    "edition, reach", [("3.0.0", {"north-sea", "channel"}), ("4.0.0", {"north-sea", "channel", "w-approaches"})]
)
def test_UL42_ULE4_1_type_II_boats_move_in_every_area_of_the_comienza_la_batalla_map(edition, reach):
    """ "El Tipo II de U-Boat sólo puede moverse en las Áreas que se muestran en el Mapa de Campaña de 'Comienza la
    Batalla'" (a Type II moves only in the Areas that campaign's map shows): in that campaign, every Area. 3.0.0's data
    set barred the Western Approaches and the North Atlantic (its games keep it); 4.0.0's revision bars none."""
    s = ops("U-56", edition=edition)
    put(s, "U-56", "british-isles")
    assert {c["to"] for c in legal(s)["move"].choices} == reach
    put(s, "U-56", "w-approaches")  # placed (3.0.0 could not get there): the North Atlantic beyond
    assert ("n-atlantic" in {c["to"] for c in legal(s)["move"].choices}) == (edition == "4.0.0")


def test_UL22_a_boat_at_its_patrol_limit_stays_in_port():
    s = ops()
    s.boats["U-47"].patrols = 1
    assert "move" not in legal(s)


def test_UL6_UL_R3_a_split_event_card_uses_the_section_of_the_sheets_year():
    late = data_with(lambda d: d["campaigns"][0].update(event_year=1942))
    s = new_state(data=late, segment="operations")
    put(s, "U-47", "north-sea")
    deck(s, "events", AIRCRAFT)
    events = send(s, "patrol", 1, 4, boat="U-47")  # 4 + EV 3 = 7: 1942's section stresses at 7 or less
    assert roll(events, "Enemy Aircraft").result.target == 7 and s.boats["U-47"].stress == 2


def test_UL_R47_a_boat_with_two_missions_may_head_for_either_box():
    s = ops()
    put(s, "U-47", "british-isles", missions=["attack", "raider"])
    assert {c["to"] for c in legal(s)["move"].choices} == {"north-sea", "w-approaches"}


@pytest.mark.parametrize("edition", ["3.0.0", "2.0.0"])
def test_UL20_UL_R6_a_mission_boat_in_port_must_sail_for_its_box(edition):
    """Operaciones: "Un U-Boat con una ficha de Misión Especial, debe moverse hacia el recuadro de esa Misión
    Especial y resolver su misión." UL-E3-2: a fit boat in port carrying a counter is held to it like one at sea:
    end_operations is refused until it has moved. 2.0.0 let it stay in port, and the Refit then unloaded its mines
    while the counter stayed (a Mines box later scored 0 mines, 0 VP)."""
    s = ops(edition=edition)
    put(s, "U-47", "germany", "port", missions=["mine"], mines=8)
    assert legal(s)["move"].choices == [{"boat": "U-47", "to": "north-sea"}]
    if edition == "2.0.0":
        assert "end_operations" in legal(s)
        return
    assert "end_operations" not in legal(s)
    with pytest.raises(IllegalCommand) as e:
        send(s, "end_operations")
    assert "U-47" in e.value.detail and "must move to their boxes" in e.value.detail
    deck(s, "events", QUIET)
    send(s, "move", 1, boat="U-47", to="north-sea")
    assert "end_operations" not in legal(s), "nor may it stop short of its box"
