"""U-boat attacks: who may attack with what (UL-S2), the attack roll (UL-S3, UL-R23, UL-R31) and the order of the
attack steps (UL-37)."""

from __future__ import annotations

import pytest

from domain.engine import IllegalCommand
from domain.procedure import forget
from domain.uboat_leader.rules.attack import damage_after, hit_result, modifiers, targets, weapons
from events import uboat_leader as ev
from tests.uboat_leader.scenario import advance, battle, legal, new_state, of, put, rolls, send


@pytest.mark.parametrize(
    "total, result",
    [(3, "miss"), (4, "light"), (5, "light"), (6, "heavy"), (8, "heavy"), (9, "sunk"), (13, "sunk")],
)
def test_ULS3_the_highest_card_number_reached_applies(total, result):
    assert hit_result([4, 6, 9], total) == result


def test_ULS3_na_numbers_are_never_reached():
    assert hit_result([5, 8, None], 15) == "heavy" and hit_result([None, None, None], 15) == "miss"


@pytest.mark.parametrize(
    "damage, result, after",
    [
        (0, "light", 1),
        (0, "heavy", 2),
        (1, "heavy", 3),
        (2, "heavy", 4),
        (3, "light", 4),
        (0, "sunk", 4),
        (1, "miss", 1),
    ],
)
def test_ULS3_damage_points_add_and_the_sink_points_sink(damage, result, after):
    """Light 1, Heavy 2; the calibrated stand-in sinks at 4 points (domain/uboat_leader/data/README.md)."""
    assert damage_after(new_state(), damage, result) == after


def test_ULS3_UL_R23_modifiers_skill_range_heavy_damage_and_advanced_torpedoes():
    s = new_state(boats=(("U-47", "veteran"),))  # Okay row: GS +1, TS +1
    assert modifiers(s, "U-47", "torpedo", "normal", 2, 0, "merchants") == [("TS", 1), ("range 2", -2)]
    assert modifiers(s, "U-47", "gun", "normal", 1, 2, "merchants") == [
        ("GS", 1),
        ("range 1", -1),
        ("target Heavy-damaged", 1),
    ]
    assert ("FAT against a Merchant", 1) in modifiers(s, "U-47", "torpedo", "FAT", 0, 0, "merchants")
    assert ("FAT against a Merchant", 1) not in modifiers(s, "U-47", "torpedo", "FAT", 0, 0, "escorts")
    assert ("T5 against an escort", 2) in modifiers(s, "U-47", "torpedo", "T5", 0, 0, "escorts")
    assert ("T5 against an escort", 2) in modifiers(s, "U-47", "torpedo", "T5", 0, 0, "fleet")


def test_ULS3_UL14_a_FAT_has_no_bonus_against_a_naval_ship():
    """Torpedos Avanzados: the FAT is "para usarlos contra los Mercantes", the T5 "contra los Escoltas"; UL-S3 gives
    the FAT +1 against a Merchant or Lone ship only, so a Naval card (a warship) gives neither bonus."""
    s = new_state(boats=(("U-47", "veteran"),))
    assert modifiers(s, "U-47", "torpedo", "FAT", 0, 0, "naval") == [("TS", 1), ("range 0", 0)]
    assert modifiers(s, "U-47", "torpedo", "T5", 0, 0, "naval") == [("TS", 1), ("range 0", 0)]


def test_ULS3_UL14_a_FAT_fired_at_a_naval_ship_in_combat_rolls_without_the_merchant_bonus():
    """Royal Oak [5, 8, N/A] at range 1 from a Trained U-47 (TS +1, range 1: -1): a 7 is 7, Light; with the FAT
    bonus it would have been 8, Heavy."""
    s = new_state()
    s.boats["U-47"].ready.update(normal=4, FAT=1)
    fight(s, {"N1": ("C1", "naval", 1)}, {"U-47": ("S1", "submerged")})  # the Royal Oak has no submerged number
    events = send(s, "attack", 7, boat="U-47", weapon="torpedo", shots=[{"target": "N1", "kind": "FAT"}])
    (r,) = rolls(events)
    assert [(m.reason, m.value) for m in r.result.modifiers] == [("TS", 1), ("range 1", -1)]
    assert (r.result.total, of(events, ev.AttackRolled)[0].result) == (7, "light")


def fight(s, ships, subs, step="aggressive", queue=("U-47",)):
    return battle(s, ships, subs, step=step, queue=list(queue))


def test_ULS2_ready_torpedoes_at_revealed_targets_within_2_the_gun_surfaced_within_1():
    s = new_state()
    fight(
        s,
        {"M1": ("C1", "merchants", 56), "M2": ("C3", "merchants", 78), "M3": ("C2", None, None)},
        {"U-47": ("S1", "surfaced")},
    )
    assert targets(s, "U-47", "torpedo") == ["M1", "M2"] and targets(s, "U-47", "gun") == ["M1"]
    s.battle.subs["U-47"].side = "submerged"
    forget(s)  # edited directly, not by an event: what it answered before is dropped
    assert weapons(s, "U-47") == ["torpedo"]
    s.boats["U-47"].ready["normal"] = 0
    forget(s)
    assert weapons(s, "U-47") == [], "Stored torpedoes are not fired in combat (UL-S2)"


@pytest.mark.parametrize("flag", ["silent", "deep"])
def test_ULS2_a_silent_or_deep_boat_does_not_attack(flag):
    s = new_state()
    fight(s, {"M1": ("C1", "merchants", 56)}, {"U-47": ("S1", "submerged")})
    setattr(s.battle.subs["U-47"], flag, True)
    assert weapons(s, "U-47") == []


def test_UL3_an_unfit_boat_does_not_attack():
    s = new_state()
    fight(s, {"M1": ("C1", "merchants", 56)}, {"U-47": ("S1", "surfaced")})
    put(s, "U-47", "w-approaches", stress=10)
    assert weapons(s, "U-47") == []


def test_ULS2_ULS3_a_torpedo_attack_rolls_each_shot_in_order_and_UL_R31_skips_a_ship_already_sunk():
    s = new_state(boats=(("U-47", "trained"), ("U-51", "trained")))
    fight(
        s,
        {"M1": ("C1", "merchants", 56), "M2": ("C2", "merchants", 78)},
        {"U-47": ("S1", "surfaced"), "U-51": ("L5", "surfaced")},
        queue=("U-47",),
    )
    shots = [{"target": "M1"}, {"target": "M1"}, {"target": "M2"}]
    events = send(s, "attack", 8, 7, boat="U-47", weapon="torpedo", shots=shots)  # 8 + TS 1 = 9: Telena sunk
    assert [(e.target, e.result) for e in of(events, ev.AttackRolled)] == [("M1", "sunk"), ("M2", "heavy")]
    assert s.boats["U-47"].ready["normal"] == 3, "the second torpedo at M1 was not fired"
    assert of(events, ev.ShipSunk)[0].name == "Telena" and rolls(events)[0].rule.startswith("UL-S3 (stand-in rule")
    assert "M1" not in s.battle.ships and s.battle.sunk == [["U-47", 1, 1]]


def test_ULS2_the_gun_up_to_2_rolls_one_ammo_each():
    s = new_state()
    fight(s, {"M1": ("C1", "merchants", 56)}, {"U-47": ("S1", "surfaced")})
    with pytest.raises(IllegalCommand) as e:
        send(s, "attack", boat="U-47", weapon="gun", shots=[{"target": "M1"}] * 3)
    assert "up to 2 gun rolls" in e.value.detail
    events = send(s, "attack", 2, 3, boat="U-47", weapon="gun", shots=[{"target": "M1"}] * 2)  # 2+0+0, 3+0+0
    assert [(e.kind, e.slot, e.result) for e in of(events, ev.AttackRolled)] == [("gun", "ammo", "miss")] * 2
    assert s.boats["U-47"].ammo == 4


def test_UL37_the_order_is_aggressive_enemy_cautious():
    s = new_state(boats=(("U-47", "trained"), ("U-51", "green")))
    bt = fight(
        s,
        {"M1": ("C1", "merchants", 61), "M2": ("C2", "merchants", 78)},
        {"U-47": ("M1", "surfaced"), "U-51": ("S8", "surfaced")},
        step="escorts",
        queue=[],
    )
    advance(s)
    assert (bt.step, bt.queue) == ("aggressive", ["U-47"])
    events = send(s, "hold", 1, boat="U-47")  # then Cairnross (C1) at the surfaced U-51 beside it: 1, a miss
    steps = [e.step for e in of(events, ev.CombatStep)]
    assert steps == ["enemy", "cautious"] and of(events, ev.EnemyAttacked)
    assert (bt.step, bt.queue) == ("cautious", ["U-51"]) and set(legal(s)) == {"hold", "attack"}


def test_UL37_UL_R42_a_boat_with_no_possible_attack_holds_without_being_asked():
    s = new_state(boats=(("U-47", "trained"), ("U-51", "trained")))
    bt = fight(
        s,
        {"M1": ("C1", "merchants", 56)},
        {"U-47": ("S1", "surfaced"), "U-51": ("L5", "surfaced")},
        step="escorts",
        queue=[],
    )
    advance(s)
    assert bt.queue == ["U-47", "U-51"] and legal(s)["hold"].choices == [{"boat": "U-47"}], "U-51 has no target"
    events = send(s, "hold", boat="U-47")
    assert [e.boat for e in of(events, ev.AttackHeld)] == ["U-47", "U-51"]


@pytest.mark.parametrize("edition, again", [("3.0.0", False), ("2.0.0", True)])
def test_UL37_UL_R49_a_boat_made_shaken_after_attacking_in_the_aggressive_step_does_not_attack_again(edition, again):
    """Iniciativa: "Un U-Boat Agresivo ataca antes que el enemigo en cada turno. Un U-Boat Cauteloso ataca después":
    one attack a turn (UL-E3-1). A Trained U-47 (Okay row A, Shaken row C; stress 5 of 5 Okay) fires at Telena in the
    Aggressive step (1 + TS 1: a miss); Arbutus hits it (9 >= 6) for +3 stress (hit roll 9 > EV 3): 8, Shaken, so
    Cautious. 3.0.0: the Cautious step has no one to queue and the turn ends; 2.0.0 queued it again."""
    s = new_state(edition=edition)
    put(s, "U-47", "w-approaches", stress=5)
    bt = fight(s, {"E1": ("S1", "escorts", 80), "M1": ("C1", "merchants", 56)}, {"U-47": ("S1", "surfaced", True)})
    events = send(s, "attack", 1, 9, 9, boat="U-47", weapon="torpedo", shots=[{"target": "M1"}])
    assert s.boats["U-47"].band == "shaken" and s.row("U-47").initiative == "C"
    cautious = [e for e in of(events, ev.CombatStep) if e.step == "cautious"]
    assert cautious[0].queue == (["U-47"] if again else [])
    if again:
        assert (bt.step, bt.queue) == ("cautious", ["U-47"]) and "attack" in legal(s)
    else:
        assert of(events, ev.CombatTurnEnded) and bt.step == "move" and "attack" not in legal(s)
