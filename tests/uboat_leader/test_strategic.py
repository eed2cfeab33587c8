"""SEGMENTO ESTRATÉGICO: Special Options (UL-9…UL-15, UL-R2, UL-R4, UL-R5) and Special Missions (UL-16, UL-R6)."""

from __future__ import annotations

import pytest

from domain.engine import IllegalCommand
from domain.uboat_leader.evolve import evolve
from domain.uboat_leader.rules import strategic
from events import uboat_leader as ev
from events.core import GameEnded
from tests.uboat_leader.scenario import data_with, deck, legal, new_state, of, put, send


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


def test_UL9_UL_R59_a_sheets_maximum_of_advanced_torpedoes_counts_torpedoes():
    """UL-R59: "el número máximo de veces que la opción puede ser adquirida" (the most times the option may be
    bought) and "Cada Torpedo avanzado cuesta ½ punto de SO" (each advanced torpedo costs ½ SO): each torpedo is one
    purchase, so a maximum of 2 takes 2 torpedoes in all, and the refusal says how many were bought (it said "it has
    been bought" when none had been: the cold audit of 8.0.0)."""
    s = new_state(data=data_with(lambda d: d["campaigns"][0]["so_notes"].append(
        {"option": "advanced_torpedoes", "cost": None, "max": 2})), so_half=10)  # fmt: skip
    with pytest.raises(IllegalCommand) as e:
        send(s, "buy_advanced_torpedoes", boat="U-47", kind="FAT", slot="ready", count=3)
    assert "may be bought 2 time(s) in this campaign; bought 0 time(s) so far; 3 asked (UL-9)" in e.value.detail
    send(s, "buy_advanced_torpedoes", boat="U-47", kind="FAT", slot="ready", count=2)
    with pytest.raises(IllegalCommand) as e:
        send(s, "buy_advanced_torpedoes", boat="U-47", kind="T5", slot="stored", count=1)
    assert "bought 2 time(s) so far (UL-9)" in e.value.detail


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
    """3.0.0's data set bars a Type II from the W. Approaches and the N. Atlantic, so from the Raider box there."""
    s = new_state(boats=(("U-56", "trained"),), so_half=20, edition="3.0.0")
    with pytest.raises(IllegalCommand) as e:
        send(s, "assign_mission", boat="U-56", mission="raider")
    assert "no Raider box that U-56 (IIC) can reach" in e.value.detail
    send(s, "assign_mission", boat="U-56", mission="attack")  # the North Sea box is within reach


def test_UL42_UL19_ULE4_1_a_type_II_boat_may_fly_the_raider_mission_of_comienza_la_batalla_from_4():
    """ "El Tipo II de U-Boat sólo puede moverse en las Áreas que se muestran en el Mapa de Campaña de 'Comienza la
    Batalla'": the North Atlantic is an Area of that map, so U-56 reaches its Raider box (4.0.0's data revision)."""
    s = new_state(boats=(("U-56", "trained"),), so_half=20)
    send(s, "assign_mission", boat="U-56", mission="raider")
    assert s.boats["U-56"].missions == ["raider"]


def test_ULS10_end_campaign_only_with_no_boat_at_sea_and_scored_before_3():
    s = new_state(edition="2.0.0")
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


def test_ULS10_UL22_an_abandoned_campaign_scores_no_result_level_and_says_so():
    """UL-E3-4, "Acaba la Campaña cuando todos los U-Boats han llegado a su límite de Patrulla": end_campaign with
    patrols owed abandons the campaign (the game is closable, boats at sea too) and locks in no result: no level, no
    final VP, so nobody stops early on a good total to dodge the −2 VP of boats lost later. 2.0.0 scored it."""
    s = new_state(boats=(("U-47", "trained"), ("U-51", "trained")))
    s.vp = 9  # Adequate (8) in a Short campaign, were it scored
    put(s, "U-51", "north-sea")  # at sea: no longer a reason to refuse
    assert "end_campaign" in legal(s)
    events = send(s, "end_campaign")
    (gone,) = of(events, ev.CampaignAbandoned)
    assert (gone.vp, gone.patrols_owed) == (9, 2) and not of(events, ev.CampaignEnded)
    assert s.over and (s.result, s.result_index, s.final_vp, s.abandoned) == (None, None, None, True)
    assert "abandoned" in of(events, GameEnded)[0].reason
    old = new_state(edition="2.0.0")
    old.vp = 9
    (ended,) = of(send(old, "end_campaign"), ev.CampaignEnded)
    assert (ended.level, old.result) == ("Adequate", "Adequate"), "2.0.0 locked the result in"


def test_UL16_UL17_UL_R50_a_second_mines_mission_adds_its_mines_and_each_counter_scores_its_own():
    """UL-E3-6: "Puedes asignar más de una Misión Especial a un solo U-Boat"; VP "se basa en el número de Torpedos
    sustituidos por minas". Two `mine 4` missions on U-47 (14 torpedoes) leave 6 torpedoes and 8 mines aboard (2.0.0:
    4 mines and 6 torpedoes, 4 torpedoes lost); each counter lays its own 4 (2 VP each, 4 VP in all; 2.0.0 scored 2
    VP once and then laid 0 mines for 0 VP)."""
    s = new_state(so_half=20)
    send(s, "assign_mission", boat="U-47", mission="mine", mines=4)
    send(s, "assign_mission", boat="U-47", mission="mine", mines=4)
    b = s.boats["U-47"]
    assert (b.mines, b.torpedoes, b.mines + b.torpedoes, b.mine_loads) == (8, 6, 14, (4, 4))
    old = new_state(so_half=20, edition="2.0.0")
    send(old, "assign_mission", boat="U-47", mission="mine", mines=4)
    send(old, "assign_mission", boat="U-47", mission="mine", mines=4)
    assert (old.boats["U-47"].mines, old.boats["U-47"].torpedoes) == (4, 6), "2.0.0 overwrote the count"
    for state, laid in ((s, [(4, 2), (4, 2)]), (old, [(4, 2), (0, 0)])):
        evolve(state, ev.SegmentBegan(turn=1, segment="operations"))
        got = []
        for turn in (1, 2):
            state.ops.done = []
            put(state, "U-47", "british-isles", "open")
            deck(state, "events", 8, 9)
            area = 1 if state.edition.has("UL-E4-2") else 2  # British Isles: Move 1 (4.0.0), or Patrol 2
            events = send(state, "move", *[1] * (area + 1), boat="U-47", to="british-isles-mines")  # the box's 1
            got += [(m.mines, m.vp) for m in of(events, ev.MinesLaid)]
        assert got == laid
    assert (s.vp, s.boats["U-47"].mines, s.boats["U-47"].missions) == (4, 0, [])


@pytest.mark.parametrize("edition", ["5.0.0", "4.0.0"])
def test_UL17_ULE5_2_a_mines_mission_replaces_the_ready_or_stored_torpedoes_the_player_names(edition):
    """UL-17: "Puedes sustituir cualquier número de Torpedos 'Listos' o 'Almacenados' del U-Boat por Minas" (you may
    replace any number of the boat's Ready or Stored torpedoes by mines): from 5.0.0 the player names them, here 3
    Ready normal torpedoes and 2 Stored FATs (the third cold pass, issue 31, F2). 4.0.0 took Stored normal ones
    first and refused the choice (UL-R29)."""
    s = new_state(so_half=10, edition=edition)
    b = s.boats["U-47"]
    b.stored.update(normal=7, FAT=2)
    replaced = [{"slot": "ready", "kind": "normal", "count": 3}, {"slot": "stored", "kind": "FAT", "count": 2}]
    if edition == "4.0.0":
        with pytest.raises(IllegalCommand, match="edition 5.0.0 .UL-E5-2"):
            send(s, "assign_mission", boat="U-47", mission="mine", replaced=replaced)
        return
    events = send(s, "assign_mission", boat="U-47", mission="mine", replaced=replaced)
    (loaded,) = of(events, ev.MinesLoaded)
    assert [(r.slot, r.kind, r.count) for r in loaded.replaced] == [("ready", "normal", 3), ("stored", "FAT", 2)]
    assert (b.mines, b.ready, b.stored) == (5, {"normal": 2, "FAT": 0, "T5": 0}, {"normal": 7, "FAT": 0, "T5": 0})
    for wrong, why in (
        ([{"slot": "ready", "kind": "normal", "count": 3}], "carries 2 ready normal"),
        ([{"slot": "stored", "kind": "T5", "count": 1}], "carries 0 stored T5"),
        ([{"slot": "stored", "kind": "normal", "count": 1}] * 2, "name stored normal torpedoes once"),
    ):
        with pytest.raises(IllegalCommand, match=why):
            send(s, "assign_mission", boat="U-47", mission="mine", replaced=wrong)
    with pytest.raises(IllegalCommand, match="add up to 1"):
        send(s, "assign_mission", boat="U-47", mission="mine", mines=2, replaced=[replaced[0] | {"count": 1}])
    with pytest.raises(IllegalCommand, match="only a Mines mission"):
        send(s, "assign_mission", boat="U-47", mission="attack", replaced=[replaced[0] | {"count": 1}])


def test_UL_R6_ULE5_2_a_mines_mission_naming_its_torpedoes_still_needs_a_box_within_reach():
    """UL-R6: a mission no box the boat can reach allows is refused, the Mines mission naming its torpedoes too (the
    cold pass over UL-E5-2, F1: it skipped the check, and the boat then had no legal move). A data set barring the
    Type II boats from the British Isles, the Mines box's Area."""

    def bar(d):
        next(a for a in d["campaigns"][0]["map"]["areas"] if a["id"] == "british-isles")["barred"] = ["IIB", "IIC"]

    s = new_state(boats=(("U-56", "trained"),), so_half=20, data=data_with(bar))
    for args in ({"mines": 1}, {"replaced": [{"slot": "ready", "kind": "normal", "count": 1}]}):
        with pytest.raises(IllegalCommand, match="no Mines box that U-56 .IIC. can reach"):
            send(s, "assign_mission", boat="U-56", mission="mine", **args)
    assert strategic.named_mines(s) == [] and "mine" not in {m["mission"] for m in strategic.mission_choices(s)}


def test_UL17_ULE5_2_a_boat_carrying_only_advanced_torpedoes_is_offered_the_mines_mission_by_naming_them():
    """UL-R29: every torpedo aboard is one of the "Torpedos" mines may replace; a boat whose normal torpedoes are all
    gone (here 2 Stored FATs left) has no count-only choice, yet the form offers the Mines mission naming the FATs
    (the cold pass over UL-E5-2, F2), and what it builds is accepted."""
    s = new_state(so_half=10)
    b = s.boats["U-47"]
    b.ready.update(normal=0)
    b.stored.update(normal=0, FAT=2)
    spec = legal(s)["assign_mission"]
    assert not [ch for ch in spec.choices or [] if ch["mission"] == "mine"]
    (u47,) = spec.ui.controls[0].variants
    (mine,) = [v for v in u47.controls[0].variants if v.fixed["mission"] == "mine"]
    (item,) = mine.controls[0].items
    assert item.fixed == {"slot": "stored", "kind": "FAT"} and item.controls[0].max == 2
    send(s, "assign_mission", boat="U-47", mission="mine", replaced=[{**item.fixed, "count": 2}])
    assert (b.mines, b.stored["FAT"]) == (2, 0)


def test_UL_R8_ULE5_2_a_cancelled_mines_mission_gives_back_the_advanced_torpedoes_its_mines_replaced():
    """UL-R8: a port cancels the mission and the mines revert; from 5.0.0 the FATs and T5s the player named come back
    as FATs and T5s (the cold pass over UL-E5-2, F3: they came back as normal torpedoes, the SO paid for them lost),
    the rest as normal Stored torpedoes."""
    s = new_state(so_half=10)
    b = s.boats["U-47"]
    b.stored.update(normal=7, FAT=2)
    replaced = [{"slot": "ready", "kind": "normal", "count": 3}, {"slot": "stored", "kind": "FAT", "count": 2}]
    send(s, "assign_mission", boat="U-47", mission="mine", replaced=replaced)
    assert (b.mines, b.mine_advanced) == (5, ((2, 0),))
    evolve(s, ev.MissionEnded(boat="U-47", mission="mine", outcome="cancelled"))
    assert (b.mines, b.stored, b.ready["normal"]) == (0, {"normal": 10, "FAT": 2, "T5": 0}, 2)
