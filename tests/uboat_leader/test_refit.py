"""Refit (UL-S9, with the text's refit number UL-39, Tranquilo UL-4, Supply Ship UL-11, XP UL-40, patrol limits
UL-22) and the campaign's end (UL-41, UL-S10, UL-R33)."""

from __future__ import annotations

import pytest

from domain.uboat_leader.rules.campaign import result
from events import uboat_leader as ev
from tests.uboat_leader.scenario import advance, legal, new_state, of, put, types


def refit_of(s):
    """The Tactical Segment with no boat left to activate (boats at sea are in Search boxes): Refit runs, then the
    next turn or the end."""
    s.segment = "tactical"
    return advance(s)


def test_ULS9_UL40_a_boat_with_the_xp_to_promote_goes_up_one_level_xp_back_to_0():
    s = new_state(boats=(("U-47", "trained"), ("U-51", "ace")))
    s.boats["U-47"].xp = 6
    s.boats["U-51"].xp = 40
    events = refit_of(s)
    assert [(p.boat, p.level) for p in of(events, ev.Promoted)] == [("U-47", "veteran")], "Ace is the last level"
    assert (s.boats["U-47"].level, s.boats["U-47"].xp) == ("veteran", 0)


def test_ULS9_UL39_UL4_UL11_stress_recovery_refit_number_tranquilo_and_a_supply_ships_area():
    s = new_state(boats=(("U-23", "trained"), ("U-47", "trained"), ("U-51", "trained")))
    put(s, "U-23", "germany", "port", stress=6)  # refit 3, Tranquilo 1
    put(s, "U-47", "north-sea", "search", stress=5)  # the Supply Ship's Area, its Search box too (UL-R5)
    put(s, "U-51", "british-isles", "search", stress=5)
    s.counters["north-sea"] = ["supply_ship"]
    events = refit_of(s)
    got = {e.boat: e.delta for e in of(events, ev.StressChanged)}
    assert got == {"U-23": -4, "U-47": -2}
    assert "Tranquilo -1" in of(events, ev.StressChanged)[0].cause


def test_ULS9_UL22_a_boat_in_port_at_its_patrol_limit_leaves_the_campaign():
    s = new_state(boats=(("U-47", "trained"), ("U-51", "trained")))
    s.boats["U-47"].patrols = 1
    put(s, "U-51", "north-sea", "search")
    events = refit_of(s)
    assert [r.boat for r in of(events, ev.UBoatRetired)] == ["U-47"] and s.boats["U-47"].retired
    assert s.segment == "strategic" and s.turn == 2


def test_ULS9_in_port_the_printed_load_ammo_6_advanced_torpedoes_stay_at_sea_a_reload():
    s = new_state(boats=(("U-47", "trained"), ("U-51", "trained")))
    b = s.boats["U-47"]
    b.ready.update(normal=0, FAT=2)
    b.stored.update(normal=1)
    b.ammo = 1
    put(s, "U-51", "north-sea", "search")
    s.boats["U-51"].ready["normal"] = 1
    events = refit_of(s)
    (filled,) = of(events, ev.Replenished)
    assert (filled.ready, filled.stored, filled.ammo) == (
        {"normal": 3, "FAT": 2, "T5": 0},
        {"normal": 9, "FAT": 0, "T5": 0},
        6,
    )
    assert of(events, ev.TorpedoesReloaded)[0].moved == {"normal": 4} and s.boats["U-51"].stored["normal"] == 2


def test_ULS9_UL_R1_UL_R3_reset_the_map_counters_warnings_attacked_event_modifiers_search_boxes_emptied():
    s = new_state()
    put(s, "U-47", "w-approaches", "search", attacked=True, contact_mod=2)
    s.counters = {"w-approaches": ["intel", "battle"]}
    s.warnings = {"w-approaches": 2}
    s.warned = [["U-47", "w-approaches"]]
    events = refit_of(s)
    assert types(events)[-2:] == ["MapReset", "SegmentBegan"]
    b = s.boats["U-47"]
    assert (s.counters, s.warnings, s.warned, b.attacked, b.contact_mod, b.space) == ({}, {}, [], False, 0, "open")


def test_ULS10_UL22_the_campaign_ends_when_every_boat_is_at_its_limit_or_sunk_final_vp_less_2_per_boat_sunk():
    s = new_state(boats=(("U-47", "trained"), ("U-51", "trained")))
    s.boats["U-47"].patrols = 1
    s.boats["U-51"].sunk = True
    s.boats_lost = 1
    s.vp = 12
    events = refit_of(s)
    (end,) = of(events, ev.CampaignEnded)
    assert (end.vp, end.boats_sunk, end.final_vp, end.level, end.level_index) == (12, 1, 10, "Adequate", 1)
    assert s.over and legal(s) == {}


@pytest.mark.parametrize(
    "final, level",
    [
        (-4, ("Poor", 0)),
        (0, ("Poor", 0)),
        (7, ("Poor", 0)),
        (8, ("Adequate", 1)),
        (19, ("Good", 2)),
        (20, ("Great", 3)),
        (55, ("Great", 3)),
    ],
)
def test_UL41_UL_R33_the_highest_level_whose_vp_total_is_reached(final, level):
    assert result([("Poor", 0), ("Adequate", 8), ("Good", 14), ("Great", 20)], final) == level
