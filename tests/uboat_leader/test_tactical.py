"""Fase de Resolución de Combate: U-boat movement (UL-30, UL-R20, UL-R28), revealing targets (UL-31, UL-R18), Silent
Running (UL-32, UL-R19), Deep Dive (UL-S6), Bearing (UL-33, UL-R19, UL-R26) and the end of a turn (UL-S7, UL-29)."""

from __future__ import annotations

import pytest

from domain.dice import ChosenDice
from domain.engine import IllegalCommand
from domain.uboat_leader.procedure import Ctx
from domain.uboat_leader.rules.bearing import reference
from domain.uboat_leader.rules.ships import piece_speed
from domain.uboat_leader.rules.tactical import end_turn
from events import uboat_leader as ev
from tests.uboat_leader.scenario import DATA, battle, deck, legal, new_state, of, put, roll, send, types

TWO = (("U-47", "trained"), ("U-51", "trained"))


def moves(s, boat="U-47"):
    return {(c["side"], c["to"]) for c in legal(s)["move_uboat"].choices if c["boat"] == boat}


def test_UL30_UL_R28_a_boat_moves_up_to_its_sides_speed_and_may_leave_from_a_long_area():
    s = new_state()
    battle(s, {"M1": ("C1", None, None)}, {"U-47": ("L1", "surfaced")})
    got = moves(s)
    assert ("surfaced", "M2") in got and ("submerged", "M2") not in got and ("submerged", "M1") in got
    assert ("surfaced", "off") in got and ("submerged", "off") in got
    assert not any(to == "W" for _, to in got), "U-boats do not move into the Wake (UL-R28)"
    events = send(s, "move_uboat", boat="U-47", side="submerged", to="off")
    assert types(events)[:3] == ["UBoatManoeuvred", "ContactLost", "CombatEnded"]


def test_UL30_UL_R20_an_unfit_boat_must_leave_by_the_fastest_way():
    s = new_state()
    battle(s, {"M1": ("C1", None, None)}, {"U-47": ("M1", "submerged")})
    put(s, "U-47", "w-approaches", stress=10)
    assert moves(s) == {("surfaced", "off")}


def test_UL31_UL_R18_unknown_counters_within_2_are_revealed_after_a_boats_move_escorts_first():
    s = new_state(boats=TWO)
    battle(
        s,
        {"M1": ("C1", None, None), "E1": ("S1", None, None), "M2": ("C3", None, None)},
        {"U-47": ("L1", "surfaced"), "U-51": ("L5", "surfaced")},
    )
    deck(s, "merchants", 56, 78)
    deck(s, "escorts", 80)
    events = send(s, "move_uboat", 1, 2, boat="U-47", side="surfaced", to="M1")  # E1 at 1, M1 at 2; M2 at 3
    assert [(e.label, e.name) for e in of(events, ev.ShipRevealed)] == [("E1", "HMS Arbutus"), ("M1", "Tiberton")]
    assert s.battle.ships["M2"].number is None


def test_UL31_UL_R18_UL_R39_a_merchant_card_showing_a_misidentified_escort_makes_it_an_escort():
    s = new_state()
    battle(s, {"M1": ("C1", None, None)}, {"U-47": ("L1", "surfaced")})
    deck(s, "merchants", 64)
    deck(s, "escorts", 83)
    events = send(s, "move_uboat", 1, 1, boat="U-47", side="surfaced", to="M1")
    assert of(events, ev.CardsDiscarded)[0].numbers == [64]
    (shown,) = of(events, ev.ShipRevealed)
    assert (shown.deck, shown.name, shown.escort) == ("escorts", "HMS Deptford", True) and s.battle.ships["M1"].escort


def test_UL32_UL_R19_UL_R35_silent_running_removes_detected_on_at_most_EV_and_the_boat_still_moves_submerged():
    s = new_state()
    battle(s, {"M1": ("C1", "merchants", 56)}, {"U-47": ("S5", "surfaced", True)})
    events = send(s, "silent_running", 3, boat="U-47")  # 3 <= EV 3
    r = roll(events, "Silent Running")
    assert r.result.outcome == "Detected removed" and "UL-32" in r.rule
    sub = s.battle.subs["U-47"]
    assert (sub.silent, sub.detected, sub.side) == (True, False, "submerged")
    assert {side for side, _ in moves(s)} == {"submerged"} and "silent_running" not in legal(s)


def test_UL32_a_failed_silent_running_costs_2_stress_and_the_boat_stays_detected():
    s = new_state()
    battle(s, {"M1": ("C1", "merchants", 56)}, {"U-47": ("S5", "submerged", True)})
    send(s, "silent_running", 4, boat="U-47")
    assert s.battle.subs["U-47"].detected and s.boats["U-47"].stress == 2


def test_ULS6_UL_R36_deep_dive_instead_of_moving_only_when_submerged():
    s = new_state(boats=TWO)
    battle(s, {"M1": ("C1", "merchants", 56)}, {"U-47": ("L1", "surfaced"), "U-51": ("L5", "submerged")})
    assert legal(s)["deep_dive"].choices == [{"boat": "U-51"}]
    send(s, "deep_dive", boat="U-51")
    assert s.battle.subs["U-51"].deep and s.battle.queue == ["U-47"]


def to_bearing(s, boat="U-47", side="surfaced", to=None):
    area = to or s.battle.subs[boat].area
    return send(s, "move_uboat", boat=boat, side=side, to=area)


def test_UL33_UL_R19_the_fastest_merchant_is_the_reference_and_slower_pieces_drift_toward_the_wake():
    s = new_state()
    # Blairlogie (3) is the Reference; Telena (2) drifts 1; the boat declared at 1 drifts 2 from L3: into the Wake
    # with no movement left, where it stays (UL-R19)
    battle(s, {"M1": ("C1", "merchants", 62), "M2": ("S4", "merchants", 56)}, {"U-47": ("L3", "surfaced")})
    to_bearing(s)
    assert legal(s)["bearing"].choices[0] == {"speeds": {"U-47": 2}}
    events = send(s, "bearing", speeds={"U-47": 1})
    declared = of(events, ev.BearingDeclared)[0]
    assert (declared.reference, declared.reference_speed, declared.drifting) == ("M1", 3, ["M2", "U-47"])
    assert [(d.piece, d.to, d.removed) for d in of(events, ev.Drifted)] == [("M2", "M4", False), ("U-47", "W", False)]
    assert s.battle.subs["U-47"].area == "W" and set(legal(s)) == {"hold", "attack"}


def test_UL33_a_piece_entering_the_wake_with_movement_left_leaves_the_battle():
    s = new_state()
    battle(s, {"M1": ("C1", "merchants", 62)}, {"U-47": ("L5", "surfaced")})
    to_bearing(s)
    events = send(s, "bearing", speeds={"U-47": 1})  # 2 slower, 1 from the Wake
    assert [(d.piece, d.removed) for d in of(events, ev.Drifted)] == [("U-47", True)]
    assert of(events, ev.ContactLost)[0].cause == "wake" and of(events, ev.CombatEnded)


def test_UL33_UL_R26_the_player_picks_among_equal_areas():
    s = new_state()
    battle(s, {"M1": ("C1", "merchants", 62)}, {"U-47": ("L1", "surfaced")})
    to_bearing(s)
    send(s, "bearing", speeds={"U-47": 2})
    assert legal(s)["drift"].choices == [{"piece": "U-47", "to": "L2"}, {"piece": "U-47", "to": "L8"}]
    with pytest.raises(IllegalCommand):
        send(s, "drift", piece="U-47", to="M1")
    send(s, "drift", piece="U-47", to="L8")
    assert s.battle.subs["U-47"].area == "L8"


def test_UL33_silent_and_deep_boats_are_treated_as_speed_0():
    s = new_state(boats=TWO)
    battle(s, {"M1": ("C1", "merchants", 56)}, {"U-47": ("L1", "submerged", True), "U-51": ("L3", "submerged")})
    send(s, "silent_running", 1, boat="U-47")
    to_bearing(s, side="submerged")
    events = send(s, "deep_dive", boat="U-51")
    assert "bearing" not in legal(s), "no choice: both at 0"
    declared = of(events, ev.BearingDeclared)[0]
    assert declared.speeds == {"U-47": 0, "U-51": 0} and declared.drifting == ["U-47", "U-51"]


def test_UL5_UL_R37_a_damaged_ships_speed_falls_by_1_light_2_heavy_never_below_0():
    s = new_state()
    battle(
        s,
        {"M1": ("C1", "merchants", 60, 1), "M2": ("C2", "merchants", 63, 2), "M3": ("C3", None, None)},
        {"U-47": ("L1", "surfaced")},
    )
    assert [piece_speed(s, lb) for lb in ("M1", "M2", "M3")] == [1, 0, 2], "Enid 2 -> 1 (the text); Bosnia 1 -> 0"


def test_ULS7_end_of_turn_removes_silent_and_deep_raises_alerted_after_an_attack_and_ends_contact_after_6():
    s = new_state(boats=TWO)
    bt = battle(s, {"M1": ("C1", "merchants", 56)}, {"U-47": ("L1", "surfaced"), "U-51": ("L5", "submerged")})
    bt.subs["U-51"].deep = bt.subs["U-47"].silent = bt.fired = True
    c = Ctx(s, ChosenDice())
    end_turn(c)
    assert types(c.events) == ["CombatTurnEnded", "AlertedRaised", "CombatStep"]
    assert of(c.events, ev.AlertedRaised)[0].cause.startswith("UL-S7 (stand-in rule, not from the text)")
    sub, deep = c.state.battle.subs["U-47"], c.state.battle.subs["U-51"]
    assert (sub.silent, deep.deep, c.state.battle.alerted, c.state.battle.turn) == (False, False, 1, 2)
    bt.fired, bt.turn = False, 6
    c = Ctx(s, ChosenDice())
    end_turn(c)
    assert types(c.events) == ["CombatTurnEnded", "ContactLost", "ContactLost"], "after turn 6 every boat loses contact"
    assert [e.cause for e in of(c.events, ev.ContactLost)] == ["turns", "turns"]


def test_UL1_the_tactical_displays_adjacent_areas():
    from domain.uboat_leader.display import display_adj, distance

    adj = display_adj(DATA)
    assert adj["L1"] == ["L2", "L8", "M1"] and sorted(adj["M3"]) == ["L3", "M2", "M4", "S3"]
    assert sorted(adj["S1"]) == ["C1", "C2", "M1", "S2", "S8"] and sorted(adj["C1"]) == ["C2", "C4", "S1", "S7", "S8"]
    assert "C3" not in adj["C1"] and distance(DATA, "C1", "C3") == 2, "Convoy areas across a diagonal do not touch"
    assert sorted(adj["W"]) == ["L4", "L5", "L6"] and distance(DATA, "S1", "L5") == 5, "always the shortest path"


def test_UL_R43_the_reference_ship_is_the_first_of_the_fastest_in_label_order():
    s = new_state()
    battle(
        s,
        {"E1": ("S1", "escorts", 82), "M1": ("C1", "merchants", 56), "M2": ("C2", None, None)},
        {"U-47": ("L1", "surfaced")},
    )
    assert reference(s) == ("M1", 2), "the escort is faster, but a Merchant is there"
