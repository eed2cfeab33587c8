"""Fase de Resolución de Combate: U-boat movement (UL-30, UL-R20, UL-R28), revealing targets (UL-31, UL-R18), Silent
Running (UL-32, UL-R19), Deep Dive (UL-S6), damaged ships (UL-5), the display (UL-1) and the end of a turn (UL-S7)."""

from __future__ import annotations

import msgspec
import pytest

from domain.dice import ChosenDice
from domain.engine import IllegalCommand
from domain.procedure import Ctx
from domain.uboat_leader.evolve import evolve
from domain.uboat_leader.rules.ships import piece_speed
from domain.uboat_leader.rules.tactical import end_turn
from events import uboat_leader as ev
from tests.uboat_leader.scenario import DATA, TWO, battle, deck, legal, new_state, of, put, roll, send, types


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


@pytest.mark.parametrize("edition", ["6.0.0", "5.0.0"])
def test_UL30_UL_R28_ULE6_2_a_boat_on_the_wake_may_stay_there_either_side_up(edition):
    """Movimiento U-Boats: "Un U-Boat puede moverse un número de Áreas hasta el valor de Velocidad impreso en su
    ficha" (up to its printed Speed: 0 areas too) and "puede cambiar entre estar en Superficie o Sumergido antes de
    moverse" (it may flip first). U-47 stands on the Convoy Wake, where a drift with no movement left put it (UL-R19):
    from 6.0.0 (UL-E6-2) it may hold there, surfaced or flipped, as it may in any other area, and the form draws it;
    it still never moves into the Wake from elsewhere (UL-R28), and an Unfit boat still leaves as fast as it can
    (UL-R20). 5.0.0 made it leave the Wake (the cold audit of the tactical segment, F2)."""
    s = new_state(edition=edition)
    battle(s, {"M1": ("C1", "merchants", 56)}, {"U-47": ("L5", "surfaced")})
    assert not any(to == "W" for _, to in moves(s)), "never into the Wake (UL-R28)"
    s.battle.subs["U-47"].area = "W"
    stays = {("surfaced", "W"), ("submerged", "W")}
    (u47,) = msgspec.to_builtins(legal(s)["move_uboat"].ui)["boats"]
    drawn = {(sd["side"], to) for sd in u47["sides"] for to in sd["to"]}
    if edition == "5.0.0":
        assert not moves(s) & stays and not drawn & stays
        with pytest.raises(IllegalCommand, match="UL-R28"):
            send(s, "move_uboat", boat="U-47", side="surfaced", to="W")
        return
    assert stays <= moves(s) and stays <= drawn
    events = send(s, "move_uboat", boat="U-47", side="submerged", to="W")
    assert of(events, ev.UBoatManoeuvred) == [ev.UBoatManoeuvred(boat="U-47", side="submerged", to="W")]
    assert (s.battle.subs["U-47"].area, s.battle.subs["U-47"].side) == ("W", "submerged")
    s = new_state(edition=edition)
    battle(s, {"M1": ("C1", "merchants", 56)}, {"U-47": ("W", "surfaced")})
    put(s, "U-47", "w-approaches", stress=10)
    assert moves(s) == {("surfaced", "off")}, "Unfit: its fastest way off, not a stay"


def test_UL30_UL_R20_an_unfit_boat_must_leave_by_the_fastest_way():
    s = new_state()
    battle(s, {"M1": ("C1", None, None)}, {"U-47": ("M1", "submerged")})
    put(s, "U-47", "w-approaches", stress=10)
    assert moves(s) == {("surfaced", "off")}


def test_UL30_UL32_UL_R20_an_unfit_boat_runs_silent_only_when_that_is_still_its_fastest_way_out():
    """"Un U-Boat cuyo Nivel de Estrés lo lleve a estar Incapacitado, debe moverse fuera del Despliegue Táctico tan
    rápidamente como le sea posible": at M1 surfaced (speed 2) it leaves at once, submerged (1) it would not, so
    Silent Running (which keeps it submerged, UL-R35) is not offered; at L1 a submerged move also leaves: it is."""
    s = new_state()
    battle(s, {"M1": ("C1", "merchants", 56)}, {"U-47": ("M1", "submerged", True)})
    put(s, "U-47", "w-approaches", stress=10)
    assert moves(s) == {("surfaced", "off")} and "silent_running" not in legal(s)
    s.battle.subs["U-47"].area = "L1"
    assert legal(s)["silent_running"].choices == [{"boat": "U-47"}]
    send(s, "silent_running", 1, boat="U-47")
    assert moves(s) == {("submerged", "off")}


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
    c = Ctx(s, ChosenDice(), evolve)
    end_turn(c)
    assert types(c.events) == ["CombatTurnEnded", "AlertedRaised", "CombatStep"]
    assert of(c.events, ev.AlertedRaised)[0].cause.startswith("UL-S7 (stand-in rule, not from the text)")
    sub, deep = c.state.battle.subs["U-47"], c.state.battle.subs["U-51"]
    assert (sub.silent, deep.deep, c.state.battle.alerted, c.state.battle.turn) == (False, False, 1, 2)
    bt.fired, bt.turn = False, 6
    c = Ctx(s, ChosenDice(), evolve)
    end_turn(c)
    assert types(c.events) == ["CombatTurnEnded", "ContactLost", "ContactLost"], "after turn 6 every boat loses contact"
    assert [e.cause for e in of(c.events, ev.ContactLost)] == ["turns", "turns"]


def test_UL1_the_tactical_displays_adjacent_areas():
    from domain.uboat_leader.distances import display_adj, distance

    adj = display_adj(DATA)
    assert adj["L1"] == ["L2", "L8", "M1"] and sorted(adj["M3"]) == ["L3", "M2", "M4", "S3"]
    assert sorted(adj["S1"]) == ["C1", "C2", "M1", "S2", "S8"] and sorted(adj["C1"]) == ["C2", "C4", "S1", "S7", "S8"]
    assert "C3" not in adj["C1"] and distance(DATA, "C1", "C3") == 2, "Convoy areas across a diagonal do not touch"
    assert sorted(adj["W"]) == ["L4", "L5", "L6"] and distance(DATA, "S1", "L5") == 5, "always the shortest path"
