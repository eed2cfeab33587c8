"""Escorts detect (UL-34, UL-R21) and move (UL-36 cut: UL-S1); Merchants never detect (UL-35); Tactics (UL-R22); the
player orders escorts and breaks ties (UL-R26, UL-R46)."""

from __future__ import annotations

import pytest

from domain.engine import IllegalCommand
from domain.uboat_leader.rules.attack import targets
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


@pytest.mark.parametrize(
    "edition, faces, rolled",
    [
        ("6.0.0", (9, 1, 1, 1), [("E1", "U-47"), ("E1", "U-51"), ("E2", "U-47"), ("E2", "U-51")]),
        ("5.0.0", (1, 1), [("E1", "U-51"), ("E2", "U-51")]),
    ],
)
def test_UL34_UL_R21_a_detected_boat_is_detected_for_all_escorts(edition, faces, rolled):
    """"Un U-Boat que ha sido Detectado por un Escolta está Detectado para todos los Escoltas. No es necesario colocar
    más de una ficha de Detectado encima de cada U-Boat": U-47 stays Detected whatever the escorts roll. From 6.0.0
    (UL-E6-1) each escort still rolls against it ("contra cada U-Boat"), a 9 adding no second counter and a 1 taking
    nothing away; 2.0.0-5.0.0 rolled only against U-51, not yet Detected."""
    s = new_state(boats=TWO, edition=edition)
    battle(
        s,
        {"E1": ("S1", "escorts", 80), "E2": ("S2", "escorts", 81)},
        {"U-47": ("S1", "submerged", True), "U-51": ("S8", "surfaced")},
    )
    escorts_step(s, ["E1", "E2"])
    events = advance(s, *faces)
    assert [(d.escort, d.boat) for d in of(events, ev.DetectionRolled)] == rolled
    assert s.battle.subs["U-47"].detected and not s.battle.subs["U-51"].detected


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
    events = advance(s, 1)  # first it rolls against U-51, Detected, in its range (6.0.0, UL-E6-1)
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


def test_UL34_UL_R46_the_player_orders_two_or_more_escorts_up_front_before_3():
    s = new_state(edition="2.0.0")
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


def test_UL34_UL_R46_the_next_escort_is_chosen_after_the_previous_one_has_detected_and_moved():
    """Escoltas: "Puedes hacerles actuar en el orden que prefieras. Realiza la Detección y el movimiento para un
    Escolta antes de proceder al siguiente" (UL-E3-8): the player names one escort, sees its detection and move, then
    names the next; the last goes without asking. Arbutus (E1, S1) detects the surfaced U-47 at S2 on a 5; the
    escorts #83 (E3) and #81 (E2) then close on the Detected boat; 2.0.0 asked the whole order first (above)."""
    s = new_state()
    battle(
        s,
        {"E1": ("S1", "escorts", 80), "E2": ("S5", "escorts", 81), "E3": ("C4", "escorts", 83)},
        {"U-47": ("S2", "surfaced")},
    )
    s.battle.step, s.battle.queue, s.battle.ordered = "escorts", [], False
    spec = legal(s)["escort_order"]
    assert spec.choices == [{"labels": ["E1"]}, {"labels": ["E2"]}, {"labels": ["E3"]}]
    assert spec.labels[0] == "E1 detects and moves next"
    with pytest.raises(IllegalCommand):
        send(s, "escort_order", labels=["E1", "E2", "E3"])
    events = send(s, "escort_order", 5, labels=["E1"])  # 5 >= Arbutus's 5: Detected
    assert of(events, ev.DetectionRolled)[0].detected and of(events, ev.EscortMoved)[0].escort == "E1"
    assert legal(s)["escort_order"].choices == [{"labels": ["E2"]}, {"labels": ["E3"]}], "asked again, after seeing it"
    send(s, "escort_order", labels=["E3"])  # U-47 Detected: no roll; E3 closes on it, a tie of paths (UL-R26)
    events = send(s, "pursue", escort="E3", to="S3")
    assert [e.escort for e in of(events, ev.EscortMoved)] == ["E3", "E2"], "the last one acts without asking"
    assert of(events, ev.EscortsOrdered)[-1].labels == ["E2"] and s.battle.step == "aggressive"


def test_UL31_UL34_ULE311_an_unknown_escort_is_revealed_only_when_it_rolls_to_detect():
    """Revelar los Blancos: "También revela a un Escolta cuando éste lanza el dado para Detectar al U-Boat" (an escort
    is revealed when it rolls to detect). Up to 5.0.0, with the only boat in its range Detected already it rolls
    nothing (UL-R21), so it stays Unknown and moves as the counter does (3.0.0, UL-E3-11; before it, it was revealed
    without a roll). From 6.0.0 it rolls against the Detected boat too, so it is revealed (UL-E6-1, the test below)."""
    s = new_state(edition="5.0.0")
    battle(s, {"M1": ("C1", None, None), "E2": ("S3", None, None)}, {"U-47": ("L2", "surfaced", True)},
           step="escorts", queue=[], alerted=1)  # fmt: skip
    deck(s, "escorts", 80)
    events = advance(s, 1, 1)  # E2's card drawn as it comes to attack the Detected boat, then its attack
    names = [type(e).__name__ for e in events]
    assert not of(events, ev.DetectionRolled)
    assert names.index("EscortMoved") < names.index("ShipRevealed"), "E2 moved as the Unknown counter, then revealed"
    s = new_state()  # the same escort with a boat to roll against is revealed, then rolls
    battle(s, {"M1": ("C1", None, None), "E2": ("S3", None, None)}, {"U-47": ("L2", "surfaced", False)},
           step="escorts", queue=[], alerted=1)  # fmt: skip
    deck(s, "escorts", 80)
    events = advance(s, 1, 1)
    assert [e.label for e in of(events, ev.ShipRevealed)] == ["E2"] and of(events, ev.DetectionRolled)


@pytest.mark.parametrize(
    "edition, faces, outcome",
    [
        ("6.0.0", (1, 9), "Detected: no second counter"),  # the one Escort card (HMS Arbutus), 9 >= her 5
        ("6.0.0", (1, 1), "it stays Detected"),
        ("5.0.0", (), None),
    ],
)
def test_UL31_UL34_UL_R21_ULE6_1_an_unknown_escort_rolls_against_a_detected_boat_in_range_and_is_revealed(
    edition, faces, outcome
):
    """Detección del Escolta: "Un Escolta chequea para Detección contra cada U-Boat que esté en la Superficie en un
    alcance de 0, 1 o 2 Áreas" (against EACH surfaced boat at range 0-2), and "No es necesario colocar más de una
    ficha de Detectado encima de cada U-Boat" (no second Detected counter: so it does roll against a Detected one);
    Revelar los Blancos: "También revela a un Escolta cuando éste lanza el dado para Detectar al U-Boat". U-47,
    Trained (initiative A), surfaced and Detected at S3, is 2 from the Unknown E1 at S1, its only boat in range. From
    6.0.0 E1 is revealed as HMS Arbutus and rolls (a success adds no counter, a failure takes none away), so U-47 may
    torpedo her in the Aggressive step before she attacks (the cold audit of the tactical segment, F1). 5.0.0 (UL-R21
    as it was) rolled nothing: E1 closed on U-47 still Unknown, no target."""
    s = new_state(boats=(("U-47", "trained"),), edition=edition)
    assert s.row("U-47").initiative == "A"
    battle(s, {"M1": ("C1", "merchants", 78), "E1": ("S1", None, None)}, {"U-47": ("S3", "surfaced", True)})
    escorts_step(s, ["E1"])
    deck(s, "escorts", 80)
    assert in_detection_range(s, "E1") == ["U-47"]
    events = advance(s, *faces)
    assert s.battle.subs["U-47"].detected and s.battle.ships["E1"].area == "S3" and s.battle.step == "aggressive"
    if outcome is None:
        assert not of(events, ev.DetectionRolled) and not of(events, ev.ShipRevealed)
        assert s.battle.ships["E1"].number is None and targets(s, "U-47", "torpedo") == ["M1"]
        return
    assert [e.name for e in of(events, ev.ShipRevealed)] == ["HMS Arbutus"]
    r = roll(events, "detects U-47")
    assert r.purpose == "E1 (HMS Arbutus) detects U-47 (surfaced, needs 5, already Detected)" and "UL-34" in r.rule
    assert (r.result.target, r.result.outcome) == (5, outcome)
    assert [(d.escort, d.boat, d.detected) for d in of(events, ev.DetectionRolled)] == [("E1", "U-47", faces[1] >= 5)]
    assert targets(s, "U-47", "torpedo") == ["M1", "E1"], "the revealed escort is a target before she attacks"


@pytest.mark.parametrize("already", [True, False])
def test_ULE6_1_the_digest_tells_a_detection_once_not_again_for_a_boat_detected_already(already):
    """UL-E6-1: from 6.0.0 an escort rolls against a boat Detected already, and a success adds nothing ("No es
    necesario colocar más de una ficha de Detectado"): "since my last turn" said "E1 detected U-47" again for it, as if
    it were news (the second cold pass over 6.0.0). A boat not Detected before still gets its line."""
    import copy

    from domain.uboat_leader.views.digest import digest

    s = new_state(boats=(("U-47", "trained"),), edition="6.0.0")
    battle(s, {"M1": ("C1", "merchants", 78), "E1": ("S1", None, None)}, {"U-47": ("S3", "surfaced", already)})
    escorts_step(s, ["E1"])
    deck(s, "escorts", 80)
    before = copy.deepcopy(s)
    events = advance(s, 1, 9)  # HMS Arbutus, 9 >= her 5: a success either way
    assert [d.detected for d in of(events, ev.DetectionRolled)] == [True]
    lines = digest(before, events)
    assert "E1 is HMS Arbutus, an escort" in lines
    assert ("E1 detected U-47" in lines) is not already, lines


@pytest.mark.parametrize("edition, revealed", [("6.0.0", True), ("5.0.0", False)])
def test_UL31_UL34_ULE6_1_the_arbutus_example_with_the_boat_detected_already(edition, revealed):
    """UL-E6-1 where play meets it (the second cold pass: an Unknown escort 2 areas from a boat has been revealed after
    Bearing already): the rulebook's HMS Arbutus example, an Alerted convoy's escort 3 areas from U-47, here Detected
    already. 6.0.0 rolls against it, so E2 is revealed in its detection step; 5.0.0 rolled nothing and left it
    Unknown."""
    s = new_state(boats=(("U-47", "veteran"),), edition=edition)
    battle(s, {"M3": ("C4", "merchants", 78), "E2": ("S3", None, None)}, {"U-47": ("M5", "surfaced", True)}, alerted=1)
    escorts_step(s, ["E2"])
    deck(s, "escorts", 80)
    assert in_detection_range(s, "E2") == ["U-47"]
    events = advance(s, *((1, 4) if revealed else ()))
    assert [e.name for e in of(events, ev.ShipRevealed)] == (["HMS Arbutus"] if revealed else [])
    assert len(of(events, ev.DetectionRolled)) == int(revealed) and s.battle.subs["U-47"].detected
