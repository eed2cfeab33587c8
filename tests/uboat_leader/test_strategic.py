"""SEGMENTO ESTRATÉGICO: Special Options (UL-9…UL-15, UL-R2, UL-R4, UL-R5) and Special Missions (UL-16, UL-R6)."""

from __future__ import annotations

import pytest

from domain.engine import IllegalCommand
from events import uboat_leader as ev
from tests.uboat_leader.scenario import data_with, legal, new_state, of, put, send


def test_UL9_an_option_costs_its_notes_SO_in_half_points_and_never_more_than_is_left():
    s = new_state(so_half=5)
    (bought,) = send(s, "buy_option", option="intel", area="w-approaches")
    assert (bought.cost_half, bought.so_half, s.so_half) == (4, 1, 1)
    with pytest.raises(IllegalCommand) as e:
        send(s, "buy_option", option="intel", area="north-sea")
    assert "costs 2 SO; ½ left" in e.value.detail
    assert "buy_option" not in legal(s), "nothing affordable is offered"


def test_UL9_a_maximum_per_campaign_and_U_for_unlimited():
    s = new_state(so_half=40)
    send(s, "buy_option", option="supply_ship", area="north-sea")  # Supply Ship (1)
    with pytest.raises(IllegalCommand) as e:
        send(s, "buy_option", option="supply_ship", area="w-approaches")
    assert "1 time(s)" in e.value.detail
    for area in ("north-sea", "british-isles", "w-approaches"):  # Intel (U)
        send(s, "buy_option", option="intel", area=area)
    assert s.bought == {"supply_ship": 1, "intel": 3}


def test_UL10_UL12_UL_R5_one_counter_of_each_option_per_area():
    s = new_state(so_half=40)
    send(s, "buy_option", option="air_search", area="w-approaches")
    with pytest.raises(IllegalCommand) as e:
        send(s, "buy_option", option="air_search", area="w-approaches")
    assert "one per Area" in e.value.detail
    send(s, "buy_option", option="intel", area="w-approaches")
    assert s.counters["w-approaches"] == ["air_search", "intel"]
    with pytest.raises(IllegalCommand):
        send(s, "buy_option", option="intel", area="germany")  # a port is not an Area


def test_UL13_UL_R4_RR_removes_4_stress_from_boats_in_port_once_a_segment():
    s = new_state(boats=(("U-47", "trained"), ("U-51", "trained")), so_half=20)
    put(s, "U-47", "germany", "port", stress=6)
    put(s, "U-51", "north-sea", "open", stress=6)
    events = send(s, "buy_option", option="rr")
    (changed,) = of(events, ev.StressChanged)
    assert (changed.boat, changed.delta, s.boats["U-47"].stress, s.boats["U-47"].band) == ("U-47", -4, 2, "okay")
    assert s.boats["U-51"].stress == 6
    with pytest.raises(IllegalCommand) as e:
        send(s, "buy_option", option="rr")
    assert "once per Strategic Segment" in e.value.detail


def with_advanced(d):
    d["campaigns"][0]["so_notes"].append({"option": "advanced_torpedoes", "cost": None, "max": None})


def test_UL14_advanced_torpedoes_cost_half_an_SO_each_and_replace_normal_ones_in_port():
    s = new_state(data=data_with(with_advanced), so_half=3)
    assert "buy_advanced_torpedoes" in legal(s)
    (loaded,) = send(s, "buy_advanced_torpedoes", boat="U-47", kind="FAT", slot="ready", count=3)
    b = s.boats["U-47"]
    assert (loaded.cost_half, s.so_half, b.ready) == (3, 0, {"normal": 2, "FAT": 3, "T5": 0})
    s.so_half = 10
    put(s, "U-47", "north-sea")
    with pytest.raises(IllegalCommand) as e:
        send(s, "buy_advanced_torpedoes", boat="U-47", kind="T5", slot="stored", count=1)
    assert "Port box" in e.value.detail


def test_UL14_not_offered_where_the_sheet_does_not_list_them():
    s = new_state(so_half=30)
    assert "buy_advanced_torpedoes" not in legal(s)
    with pytest.raises(IllegalCommand) as e:
        send(s, "buy_advanced_torpedoes", boat="U-47", kind="FAT", slot="ready", count=1)
    assert "not offered" in e.value.detail


def test_UL16_UL17_a_mines_mission_in_port_replaces_torpedoes_stored_first_UL_R29():
    s = new_state(so_half=10)
    (m,) = send(s, "assign_mission", boat="U-47", mission="mine", mines=11)
    b = s.boats["U-47"]
    assert (m.cost_half, b.mines, b.stored["normal"], b.ready["normal"], b.missions) == (4, 11, 0, 3, ["mine"])
    put(s, "U-47", "north-sea")
    with pytest.raises(IllegalCommand) as e:
        send(s, "assign_mission", boat="U-47", mission="mine", mines=1)
    assert "Port box" in e.value.detail


def test_UL16_UL_R47_several_missions_on_one_boat_each_at_its_cost():
    s = new_state(so_half=20)
    send(s, "assign_mission", boat="U-47", mission="attack")
    send(s, "assign_mission", boat="U-47", mission="raider")
    assert s.boats["U-47"].missions == ["attack", "raider"] and s.so_half == 10


def test_UL18_UL3_an_unfit_boat_takes_no_mission():
    s = new_state(so_half=20)
    put(s, "U-47", "germany", "port", stress=12)
    with pytest.raises(IllegalCommand) as e:
        send(s, "assign_mission", boat="U-47", mission="attack")
    assert "Unfit" in e.value.detail


def test_UL_R6_a_mission_no_reachable_box_allows_is_refused():
    s = new_state(boats=(("U-56", "trained"),), so_half=20)  # a Type II: not into the W. Approaches nor N. Atlantic
    with pytest.raises(IllegalCommand) as e:
        send(s, "assign_mission", boat="U-56", mission="raider")
    assert "no Raider box that U-56 (IIC) can reach" in e.value.detail
    send(s, "assign_mission", boat="U-56", mission="attack")  # the North Sea box is within reach


def test_ULS10_end_campaign_only_with_no_boat_at_sea():
    s = new_state()
    put(s, "U-47", "north-sea")
    assert "end_campaign" not in legal(s)
    with pytest.raises(IllegalCommand) as e:
        send(s, "end_campaign")
    assert "at sea" in e.value.detail
    put(s, "U-47", "germany", "port")
    events = send(s, "end_campaign")
    assert of(events, ev.CampaignEnded)[0].level == "Poor" and s.over


def test_end_strategic_begins_the_operations_segment():
    s = new_state()
    (began,) = send(s, "end_strategic")
    assert began.segment == "operations" and s.ops is not None
