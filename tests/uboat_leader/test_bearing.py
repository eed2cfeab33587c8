"""Movimiento de Demora (UL-33, UL-R19, UL-R26, UL-R43): the Reference Ship, Bearing speeds and drift."""

from __future__ import annotations

import pytest

from domain.engine import IllegalCommand
from domain.uboat_leader.rules.bearing import reference
from events import uboat_leader as ev
from tests.uboat_leader.scenario import TWO, battle, legal, new_state, of, put, send


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


def test_UL_R43_the_reference_ship_is_the_first_of_the_fastest_in_label_order():
    s = new_state()
    battle(
        s,
        {"E1": ("S1", "escorts", 82), "M1": ("C1", "merchants", 56), "M2": ("C2", None, None)},
        {"U-47": ("L1", "surfaced")},
    )
    assert reference(s) == ("M1", 2), "the escort is faster, but a Merchant is there"


@pytest.mark.parametrize("edition", ["3.0.0", "2.0.0"])
def test_UL33_UL_R20_an_unfit_boat_takes_only_the_bearing_speeds_that_bring_it_nearest_the_edge(edition):
    """Demora: an Unfit boat "debe moverse para abandonar el Despliegue Táctico tan directamente como sea posible"
    (UL-E3-5). An Unfit U-47 at L5 beside the Wake, Blairlogie (3) the Reference: at 2 it drifts 1 into the Wake and
    stays on the display (2 from its edge); at 1 or 0 the Wake takes it with movement left, out of the battle. 3.0.0
    offers 1 and 0; 2.0.0 offered 2 too."""
    s = new_state(edition=edition)
    battle(s, {"M1": ("C1", "merchants", 62)}, {"U-47": ("L5", "surfaced")}, step="bearing", queue=[])
    put(s, "U-47", "w-approaches", stress=10)
    speeds = [c["speeds"]["U-47"] for c in legal(s)["bearing"].choices]
    if edition == "2.0.0":
        assert speeds == [2, 1, 0]
        send(s, "bearing", speeds={"U-47": 2})
        assert s.battle.subs["U-47"].area == "W", "it stayed on the display"
        return
    assert speeds == [1, 0]
    with pytest.raises(IllegalCommand):
        send(s, "bearing", speeds={"U-47": 2})
    events = send(s, "bearing", speeds={"U-47": 1})
    assert of(events, ev.ContactLost)[0].cause == "wake"
