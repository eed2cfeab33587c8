"""Ataque, Barcos Enemigos: enemy attacks (UL-S4, UL-R38), hits (UL-S5), Deep boats (UL-S6), ties (UL-R26)."""

from __future__ import annotations

from events import uboat_leader as ev
from tests.uboat_leader.scenario import TWO, advance, battle, deck, legal, new_state, of, put, roll, rolls, send


def enemy(s, queue):
    s.battle.step, s.battle.queue = "enemy", list(queue)


def test_ULS4_an_escort_attacks_the_nearest_detected_boat_within_1_surfaced_0_submerged():
    s = new_state(boats=TWO)
    battle(s, {"E1": ("S1", "escorts", 80)}, {"U-47": ("M1", "surfaced", True), "U-51": ("S2", "submerged", True)})
    enemy(s, ["E1"])
    events = advance(s, 6, 2)  # 6 >= 6 (surfaced): hit; then the hit roll 2 <= EV 3: +1 stress
    a = roll(events, "attacks U-47")
    assert (a.result.target, a.result.outcome) == (6, "hit") and a.rule.startswith("UL-S4 (stand-in rule")
    assert of(events, ev.UBoatHit)[0].result == "light" and s.boats["U-47"].stress == 1


def test_ULS4_a_merchant_attacks_only_surfaced_boats_within_1_with_its_surface_number():
    s = new_state(boats=TWO)
    battle(s, {"M1": ("C1", "merchants", 61)}, {"U-47": ("S1", "submerged"), "U-51": ("S8", "surfaced")})
    enemy(s, ["M1"])
    events = advance(s, 9, 5)  # Cairnross attacks at 9; the hit roll 5 > EV 3: +3 stress
    assert [(e.ship, e.boat, e.hit) for e in of(events, ev.EnemyAttacked)] == [("M1", "U-51", True)]
    assert of(events, ev.UBoatHit)[0].result == "heavy" and s.boats["U-51"].stress == 3


def test_ULS4_ULS6_a_deep_boat_is_harder_to_hit_and_a_naval_ship_needs_it_detected_when_submerged():
    s = new_state(boats=TWO)
    battle(
        s,
        {"E1": ("S1", "escorts", 80), "N1": ("S2", "naval", 3)},
        {"U-47": ("S1", "submerged", True), "U-51": ("S2", "submerged")},
    )
    s.battle.subs["U-47"].deep = True
    enemy(s, ["E1", "N1"])
    events = advance(s, 8)  # 8 - 2 Deep = 6 < 7 (submerged): miss; Sirius has no submerged number
    a = roll(events, "attacks U-47")
    assert [(m.reason, m.value) for m in a.result.modifiers] == [("Deep", -2)] and a.result.outcome == "miss"
    assert len(of(events, ev.EnemyAttacked)) == 1


def test_ULS5_a_natural_10_sinks_the_boat():
    s = new_state(boats=TWO)
    battle(s, {"E1": ("S1", "escorts", 80)}, {"U-47": ("S1", "surfaced", True), "U-51": ("L5", "surfaced")})
    enemy(s, ["E1"])
    events = advance(s, 6, 10)
    assert of(events, ev.UBoatSunk)[0].boat == "U-47" and s.boats["U-47"].sunk and s.boats_lost == 1
    assert roll(events, "is hit").rule.startswith("UL-S5 (stand-in rule, not from the text)")


def test_ULS5_an_unfit_boat_uses_its_shaken_ev():
    s = new_state()
    battle(s, {"E1": ("S1", "escorts", 80)}, {"U-47": ("S1", "surfaced", True)})
    put(s, "U-47", "w-approaches", stress=10)  # Unfit: the Shaken row's EV 2
    enemy(s, ["E1"])
    events = advance(s, 6, 3)
    assert roll(events, "is hit").result.target == 2 and of(events, ev.UBoatHit)[0].result == "heavy"


def test_ULS4_UL_R26_the_player_picks_between_equally_near_targets():
    s = new_state(boats=TWO)
    battle(s, {"E1": ("S1", "escorts", 80)}, {"U-47": ("S1", "surfaced", True), "U-51": ("S1", "surfaced", True)})
    enemy(s, ["E1"])
    advance(s)
    assert legal(s)["choose_target"].choices == [{"ship": "E1", "boat": "U-47"}, {"ship": "E1", "boat": "U-51"}]
    events = send(s, "choose_target", 2, boat="U-51", ship="E1")
    assert [e.boat for e in of(events, ev.EnemyAttacked)] == ["U-51"] and len(rolls(events)) == 1


def test_ULS4_UL_R38_an_unknown_escort_is_revealed_before_it_attacks_unknown_merchants_do_not_attack():
    s = new_state()
    battle(s, {"M1": ("C1", None, None), "E1": ("S1", None, None)}, {"U-47": ("S1", "surfaced", True)})
    enemy(s, ["M1", "E1"])
    deck(s, "escorts", 84)
    events = advance(s, 1, 5, 1)  # HMS Walker revealed; 5 >= 5: hit; the hit roll 1: +1 stress
    assert [(e.label, e.name) for e in of(events, ev.ShipRevealed)] == [("E1", "HMS Walker")]
    assert [(e.ship, e.hit) for e in of(events, ev.EnemyAttacked)] == [("E1", True)]
