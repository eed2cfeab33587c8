"""Escorts detect (UL-34, UL-R21) and move (UL-36 cut: UL-S1); Merchants never detect (UL-35); Tactics (UL-R22); the
player orders escorts and breaks ties (UL-R26, UL-R46)."""

from __future__ import annotations

import pytest

from domain.uboat_leader.rules.escorts import in_detection_range
from events import uboat_leader as ev
from tests.uboat_leader.scenario import (
    TWO,
    advance,
    battle,
    data_with,
    deck,
    legal,
    new_state,
    of,
    roll,
    send,
)


def escorts_step(s, queue):
    s.battle.step, s.battle.queue, s.battle.ordered = "escorts", list(queue), True


def test_UL34_the_arbutus_example_an_alerted_convoy_detects_a_surfaced_boat_3_areas_away_on_a_4():
    s = new_state(boats=(("U-47", "veteran"),))
    battle(s, {"M3": ("C4", "merchants", 78), "E2": ("S3", None, None)}, {"U-47": ("M5", "surfaced")}, alerted=1)
    escorts_step(s, ["E2"])
    deck(s, "escorts", 80)
    events = advance(s, 1, 4)  # the top of the Escort deck: HMS Arbutus; 4 + 1 Alerted = 5
    assert of(events, ev.ShipRevealed)[0].name == "HMS Arbutus", "an Unknown escort rolling for detection is revealed"
    r = roll(events, "detects U-47")
    assert (r.result.total, r.result.target, r.result.outcome) == (5, 5, "Detected") and "UL-34" in r.rule
    assert s.battle.subs["U-47"].detected


@pytest.mark.parametrize(
    "side, area, alerted, in_range",
    [
        ("surfaced", "S3", 0, True),
        ("surfaced", "S4", 0, False),
        ("surfaced", "S4", 1, True),
        ("submerged", "S2", 0, True),
        ("submerged", "S3", 0, False),
        ("submerged", "S3", 1, True),
    ],
)
def test_UL34_detection_ranges_0_2_surfaced_0_1_submerged_plus_1_per_alerted(side, area, alerted, in_range):
    s = new_state()
    battle(s, {"E1": ("S1", "escorts", 80)}, {"U-47": (area, side)}, alerted=alerted)
    assert (in_detection_range(s, "E1") == ["U-47"]) is in_range


def test_UL34_modifiers_alerted_damage_and_tactics():
    tactics = data_with(lambda d: d["campaigns"][0].update(tactics=True))
    s = new_state(data=tactics)
    battle(s, {"E1": ("S1", "escorts", 81, 1)}, {"U-47": ("S2", "submerged")}, alerted=2)
    s.battle.ships["E1"].tactic = 5  # +2 detection, +1 attack
    escorts_step(s, ["E1"])
    events = advance(s, 3)  # 3 + 2 Alerted - 1 Light + 2 Tactics = 6 >= 6 (submerged)
    r = roll(events, "detects")
    assert [(m.reason, m.value) for m in r.result.modifiers] == [("Alerted", 2), ("damage", -1), ("Tactics", 2)]
    assert r.result.total == 6 and s.battle.subs["U-47"].detected


def test_UL34_UL_R21_a_detected_boat_is_detected_for_all_escorts_and_no_more_rolls_are_made_against_it():
    s = new_state(boats=TWO)
    battle(
        s,
        {"E1": ("S1", "escorts", 80), "E2": ("S2", "escorts", 81)},
        {"U-47": ("S1", "submerged", True), "U-51": ("S8", "surfaced")},
    )
    escorts_step(s, ["E1", "E2"])
    events = advance(s, 1, 1)
    assert [(d.escort, d.boat) for d in of(events, ev.DetectionRolled)] == [("E1", "U-51"), ("E2", "U-51")]


def test_UL35_merchants_never_roll_for_detection():
    s = new_state()
    battle(s, {"M1": ("C1", "merchants", 61), "E1": ("L5", "escorts", 80)}, {"U-47": ("S1", "surfaced")})
    escorts_step(s, ["E1"])
    events = advance(s)
    assert not of(events, ev.DetectionRolled)


def test_UL36_ULS1_an_escort_moves_its_speed_toward_the_nearest_detected_boat_stopping_on_reaching_it():
    s = new_state(boats=TWO)
    battle(s, {"E1": ("S1", "escorts", 82)}, {"U-47": ("L5", "surfaced", True), "U-51": ("M1", "submerged", True)})
    escorts_step(s, ["E1"])
    events = advance(s)
    assert of(events, ev.EscortMoved)[0].to == "M1", "speed 4, but it stops in U-51's area (1 away)"


def test_UL36_ULS1_with_no_detected_boat_the_escort_holds():
    s = new_state()
    battle(s, {"E1": ("S1", "escorts", 80)}, {"U-47": ("L5", "surfaced")})
    escorts_step(s, ["E1"])
    events = advance(s)
    assert of(events, ev.EscortMoved)[0].to == "S1"


def test_ULS1_UL_R26_equal_shortest_paths_the_player_picks_the_escorts_area():
    s = new_state()
    battle(s, {"E1": ("M1", "escorts", 80)}, {"U-47": ("M5", "surfaced", True)})  # speed 3, 4 away either way
    escorts_step(s, ["E1"])
    advance(s)
    assert [c["to"] for c in legal(s)["pursue"].choices] == ["M4", "M6"]
    events = send(s, "pursue", escort="E1", to="M6")
    assert of(events, ev.EscortMoved)[0].to == "M6" and s.battle.ships["E1"].area == "M6"


def test_UL34_UL_R46_the_player_orders_two_or_more_escorts():
    s = new_state()
    battle(s, {"E1": ("S1", "escorts", 80), "E2": ("S5", "escorts", 81)}, {"U-47": ("L1", "surfaced")})
    s.battle.step, s.battle.queue, s.battle.ordered = "escorts", [], False
    assert legal(s)["escort_order"].choices == [{"labels": ["E1", "E2"]}, {"labels": ["E2", "E1"]}]


def test_UL34_UL_R46_a_single_escort_is_not_ordered():
    s = new_state()
    battle(s, {"E1": ("S1", "escorts", 80), "M1": ("C1", "merchants", 56)}, {"U-47": ("L5", "surfaced")})
    s.battle.step, s.battle.queue = "bearing", []
    s.battle.declared = True
    events = advance(s)
    assert of(events, ev.CombatStep)[0].queue == ["E1"] and "escort_order" not in legal(s)


def test_UL_R22_escort_tactics_from_june_1942_one_counter_per_escort_card_back_to_the_cup_after():
    s = new_state(data=data_with(lambda d: d["campaigns"][0].update(tactics=True)))
    assert s.decks["tactics"] == [1, 2, 3, 4, 5, 6]
    battle(s, {"E1": ("S1", None, None), "M1": ("C1", "merchants", 56)}, {"U-47": ("S2", "surfaced")})
    escorts_step(s, ["E1"])
    deck(s, "escorts", 80)
    events = advance(s, 1, 5, 1)  # Arbutus, Tactics counter 5 (+2/+1); 1 + 2 = 3 < 5: not detected
    assert of(events, ev.ShipRevealed)[0].tactic == 5 and s.decks["tactics"] == [1, 2, 3, 4, 6]
    assert [(m.reason, m.value) for m in roll(events, "detects").result.modifiers] == [("Tactics", 2)]
