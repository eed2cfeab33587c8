"""rules/damage.py: 6.1-6.2 codes, locations and the R32 picks, with chosen faces."""

from __future__ import annotations

import pytest

from domain.battlefleet_1900.rules import damage as d
from events import battlefleet_1900 as ev
from tests.battlefleet_1900.scenario import ctx, data_with, done, make_state, of, rolls


def test_BFR32_pick_reads_the_fewest_dice_and_rerolls_the_excess():
    assert [d.pick_dice(n) for n in (1, 2, 6, 7, 36, 37)] == [0, 1, 1, 2, 2, 3]
    assert [d.pick_index([f], 2) for f in range(1, 7)] == [0, 0, 0, 1, 1, 1]  # halves (6.2: 1-3 fore, 4-6 aft)
    assert [d.pick_index([f], 3) for f in range(1, 7)] == [0, 0, 1, 1, 2, 2]  # thirds
    assert [d.pick_index([f], 4) for f in range(1, 7)] == [0, 1, 2, 3, None, None]
    assert d.pick_index([6, 5], 7) == 6 and d.pick_index([6, 6], 7) is None  # q = 5: v 35 re-rolls


@pytest.mark.parametrize("edition", ["14.0.0", None])
def test_BFR32_BFE15_1_a_reroll_is_recorded_names_the_roll_it_supersedes_and_the_next_roll_picks(edition):
    """BF-R32: a pick of 4 with one die re-rolls a 5 or 6. From 15.0.0 (BF-E15-1) each re-roll names the roll it
    supersedes, as the dice specification says a superseded roll is marked (14.0.0 left it null)."""
    s = make_state(edition=edition)
    c = ctx(s, 5, 6, 2)
    assert d.pick(c, ["F", "PA", "SA", "A"], "test", "BF-R32") == "PA"
    made = rolls(c)
    assert [r.result.outcome for r in made] == ["re-roll", "re-roll", "PA"]
    first = made[0].k
    want = [None, None, None] if edition == "14.0.0" else [None, first, first + 1]
    assert [r.rerolls for r in made] == want
    done(c)


@pytest.mark.parametrize(
    "before, destroy, after",
    [
        ((0, 0, 0), False, (0, 1, 0)),
        ((0, 2, 0), True, (1, 2, 0)),  # damaged boxes migrate down under a destroyed one
        ((2, 4, 0), True, (3, 3, 1)),  # 6.2's example: the cruiser dead in the water
        ((2, 4, 0), False, (2, 4, 1)),
        ((6, 0, 0), True, (6, 0, 1)),
        ((3, 3, 1), True, (4, 2, 2)),
    ],
)
def test_BFR23_propulsion_marks(before, destroy, after):
    """6.2, BF-R23: P damages the next box down, else the margin; Px destroys, migrating a damaged box."""
    assert d.propulsion_hit(*before, destroy) == after


def test_BFR23_speed_is_the_box_below_the_marks():
    from domain.battlefleet_1900.rules.movement import top_box

    s = make_state()
    c = ctx(s)
    d.damage(c, "Mikasa", "Px", "port", "test")
    d.damage(c, "Mikasa", "P", "port", "test")
    assert top_box(c.state, "Mikasa") == 92  # 138 destroyed, 115 damaged
    c.state.ships["Mikasa"].destroyed, c.state.ships["Mikasa"].damaged = 3, 3
    assert top_box(c.state, "Mikasa") == 0  # dead in the water


@pytest.mark.parametrize(
    "pen, armour, col",
    [(16, 10, 3), (15, 10, 3), (14, 10, 2), (10, 10, 2), (9, 10, 1), (5, 10, 1), (4, 10, 0), (1, 0, 3)],
)
def test_penetration_columns(pen, armour, col):
    """§2: (pen - armour) * 100 // armour in <-50 | -50..-1 | 0..49 | >=50; no armour reads the last column."""
    assert d.column(pen, armour, [-50, 0, 50]) == col


def test_BF6_1_a_code_for_a_missing_feature_has_no_effect():
    s = make_state("torpedo-attack")
    c = ctx(s)
    d.damage(c, "Ikazuchi", "T", "port", "test")  # a destroyer has no tertiary guns
    assert of(c, ev.DamageApplied)[0].kind == "none" and "no tertiary" in of(c, ev.DamageApplied)[0].effect
    done(c)


def test_BF6_1_if_missing_turns_a_main_hit_into_a_secondary_hit():
    data = data_with(lambda raw: raw["classes"]["Fuji"].update(weapons=raw["classes"]["Fuji"]["weapons"][1:]))
    s = make_state(data=data)
    c = ctx(s, [1, 1])  # the pattern gun: 10 guns, two dice, item 0
    d.damage(c, "Fuji", "M", "port", "test")
    applied = of(c, ev.DamageApplied)[0]
    assert (applied.code, applied.kind, applied.location) == ("S", "secondary", "15cm:0")
    assert c.state.ships["Fuji"].guns["15cm"][0] == "damaged"
    done(c)


def test_BF6_2_main_hit_location_halves_and_critical_rolls():
    """6.2: 1-3 the forward turret, 4-6 the aft one; M rolls a main critical: 5-6 Fi."""
    s = make_state()
    c = ctx(s, 4, [2, 3])
    d.damage(c, "Mikasa", "M", "port", "test")
    hit = of(c, ev.DamageApplied)[0]
    assert (hit.kind, hit.location, hit.destroy) == ("main", "Z", False)
    assert of(c, ev.CriticalRolled)[0].result == "Fi"
    assert c.state.ships["Mikasa"].mounts["Z"].slashes == 1 and c.state.ships["Mikasa"].fires_int == 1
    done(c)


def test_BF6_2_main_critical_boom_blows_the_ship_up_and_command_passes():
    s = make_state()
    c = ctx(s, 1, [1, 1])
    d.damage(c, "Mikasa", "Mx", "port", "test")
    assert of(c, ev.VesselLost)[0].how == "blown_up"
    moved = of(c, ev.CommandTransferred)[0]
    assert (moved.to_ship, moved.how, moved.fleet) == ("Asahi", "flagship_lost", True)  # 2.1: immediate
    assert c.state.fleet_flagship["japan"] == "Asahi"
    done(c)


def test_BF6_2_main_critical_x_plus_fire_floods_a_random_compartment():
    s = make_state()
    c = ctx(s, 1, [1, 2], 4)  # A; 3: X+Fi; the explosion in compartment 4: A
    d.damage(c, "Mikasa", "M", "port", "test")
    assert c.state.ships["Mikasa"].flooding["A"] == 2
    assert c.state.ships["Mikasa"].fires_int == 2  # X's own internal fire and the Fi
    done(c)


def test_BF6_2_a_flooded_magazine_spares_the_critical_roll():
    s = make_state()
    s.ships["Mikasa"].mounts["A"].flooded = True
    c = ctx(s, 2)
    d.damage(c, "Mikasa", "Mx", "port", "test")
    assert not of(c, ev.CriticalRolled) and c.state.ships["Mikasa"].mounts["A"].destroyed
    done(c)


def test_BFR18_a_lozenge_drops_the_disengaged_wing():
    def lozenge(raw):
        raw["classes"]["Fuji"]["weapons"][0]["pos"] = ["A", "P", "R", "Z"]

    s = make_state(data=data_with(lozenge))
    c = ctx(s, 3, [6, 6], 3, [6, 6])  # port: A, P, Z in thirds, 3 -> P; starboard: A, R, Z, 3 -> R
    d.damage(c, "Fuji", "M", "port", "t")
    d.damage(c, "Fuji", "M", "starboard", "t")
    assert [e.location for e in of(c, ev.DamageApplied)] == ["P", "R"]
    done(c)


@pytest.mark.parametrize(
    "edition, side, where",
    [
        (None, "ahead", ["A", "A", "P", "P", "R", "R"]),  # thirds: the forward turret and both wings
        (None, "astern", ["P", "P", "R", "R", "Z", "Z"]),  # thirds: both wings and the aft turret
        ("12.0.0", "ahead", ["A", "P", "R", "Z", None, None]),  # 12.0.0: among all four, 5-6 rolled again
    ],
)
def test_BFR18_BFE13_1_a_lozenge_hit_from_ahead_or_astern_is_located_in_thirds(edition, side, where):
    """6.2 Main: "Ships which have their main armament in a lozenge (diamond) layout should use the embattled-side rule
    and break the location die roll into thirds instead of halves", and the embattled-side rule (6.2 Flooding): "If
    hit from ahead, the damage will be randomly established as being in the forward, port amidships or starboard
    amidships zones". Fuji's main in a diamond (A forward, P and R amidships, Z aft): from ahead never Z, from astern
    never A, each face 1-6. 12.0.0 read the roll among all four (the cold audit of 12.0.0, F1)."""

    def lozenge(raw):
        raw["classes"]["Fuji"]["weapons"][0]["pos"] = ["A", "P", "R", "Z"]

    got = []
    for face in range(1, 7):
        s = make_state(data=data_with(lozenge), edition=edition)
        c = ctx(s, face, *([] if where[face - 1] else [1]), [6, 6])  # a re-roll's next face; the critical: nothing
        d.damage(c, "Fuji", "M", side, "t")
        done(c)
        got.append(None if rolls(c)[0].result.outcome == "re-roll" else of(c, ev.DamageApplied)[0].location)
    assert got == where


@pytest.mark.parametrize(
    "main, side, where",
    [
        (["A", "D", "E", "Z"], "astern", ["D", "E", "Z"]),  # wings forward: the forward end drops, the wings stay
        (["A", "D", "E", "Z"], "ahead", ["A", "D", "E"]),
        (["A", "V", "W", "Z"], "ahead", ["A", "V", "W"]),  # wings aft
        (["B", "C"], "astern", ["B", "C"]),  # wings alone: no end to drop (the cold pass found an empty pick here)
        (["X", "Y"], "ahead", ["X", "Y"]),
        (["B", "C", "Z"], "port", ["B", "Z"]),  # on a beam, the disengaged wing as before
        (["A", "P", "R", "Z"], d.NO_SIDE, ["A", "P", "R", "Z"]),  # a fire's critical: from no side
    ],
)
def test_BFR18_BFE13_1_a_lozenge_drops_its_far_end_never_its_wings_and_a_fire_drops_nothing(main, side, where):
    """BF-R18 (13.0.0): "break the location die roll into thirds" by the embattled side: from ahead the ends' aft one
    drops, from astern the forward one; the wings, wherever they stand, stay (the cold pass over 13.0.0's first cut,
    which dropped by compartment: wings forward hit from astern left only Z, wings alone left nothing and crashed);
    damage from no side (a fire's critical, Step One) drops nothing, where 12.0.0's stand-in "ahead" would drop Z."""

    def layout(raw):
        raw["classes"]["Fuji"]["weapons"][0]["pos"] = main

    s = make_state(data=data_with(layout))
    assert d.main_locations(s, "Fuji", side) == where


def test_BFE13_1_a_fires_flooding_falls_in_any_of_the_four_compartments():
    """A fire's critical has no embattled side (13.0.0, BF-E13-1): a flooding code from it is located among all four
    compartments, not the thirds of the stand-in "ahead" (which left out A); the roll's purpose names no side."""
    s = make_state()
    c = ctx(s, 4)  # one D6 read in quarters: 4 -> A (the fourth)
    d.damage(c, "Fuji", "FL1", d.NO_SIDE, "critical:fire_internal")
    done(c)
    assert of(c, ev.DamageApplied)[0].location == "A" and rolls(c)[0].purpose == "flooding location on Fuji"


def test_BFR19_secondary_pick_type_then_item():
    """BF-R19 (3.0.0): the type first among entries with an item available, then a position (regardless of damage)."""
    s = make_state(edition="3.0.0")
    s.ships["Retvizan"].mounts["M"].slashes = 1
    c = ctx(s, 2, 1)  # turrets (1-3), then M (1-3) again
    d.damage(c, "Retvizan", "S", "port", "t")
    assert of(c, ev.DamageApplied)[0].location == "M" and c.state.ships["Retvizan"].mounts["M"].slashes == 2
    done(c)


@pytest.mark.parametrize("edition, stem", [("4.0.0", 3), ("3.0.0", 18)])
def test_BFR19_BF6_2_an_s_hit_is_located_among_every_secondary_of_the_ship(edition, stem):
    """6.2: "The locations of all S and T hits are always assigned randomly from existing weapons throughout the
    entire vessel": Peresvet's eleven secondaries (ten pattern guns, one stem gun) each take 1 in 11 of her S hits.
    Over the 36 faces of the first roll, 4.0.0 puts 3 of the 33 that do not re-roll on the stem gun; 3.0.0 picked the
    entry first (1-3 the pattern, 4-6 the stem), so half of them (issue 18)."""
    hits = 0
    for a in range(1, 7):
        for b in range(1, 7):
            s = make_state(edition=edition)
            if edition == "4.0.0" and (a - 1) * 6 + (b - 1) >= 33:
                continue  # BF-R32: re-rolled
            c = ctx(s, *([[a, b]] if edition == "4.0.0" else [a] + ([[1, 1]] if a <= 3 else [])))
            e = d.roll_code(c, "Peresvet", "S", "port", "t", [])
            hits += e[0].location == "stem"
    assert hits == stem


def test_BFR19_a_pattern_loses_an_undamaged_gun_not_picked_this_step():
    s = make_state()
    guns = s.ships["Fuji"].guns["15cm"]
    guns[0] = "damaged"
    c = ctx(s, [1, 1])  # 9 undamaged: item 0 of them is gun 1
    picked: list[str] = []
    e1 = d.roll_code(c, "Fuji", "Sx", "port", "t", picked)
    c2 = ctx(s, [1, 1])
    e2 = d.roll_code(c2, "Fuji", "S", "port", "t", picked)
    assert e1[0].location == "15cm:1" and e2[0].location == "15cm:2"


def test_BFR20_boat_guns_unmanned_lose_one_per_hit():
    s = make_state()
    s.sealed["japan"].manned["Mikasa"] = False
    c = ctx(s, [1, 1])
    d.damage(c, "Mikasa", "B2", "port", "t")
    assert len(of(c, ev.DamageApplied)) == 1 and c.state.ships["Mikasa"].guns["boat"].count("destroyed") == 1
    s.sealed["japan"].manned["Mikasa"] = True
    c = ctx(s, [1, 1], [1, 1])
    d.damage(c, "Mikasa", "B2", "port", "t")
    assert c.state.ships["Mikasa"].guns["boat"].count("destroyed") == 2
    done(c)


@pytest.mark.parametrize(
    "side, face, compartment", [("port", 3, "PA"), ("starboard", 3, "SA"), ("ahead", 6, "SA"), ("astern", 1, "A")]
)
def test_BF6_2_flooding_falls_in_thirds_of_the_embattled_side(side, face, compartment):
    s = make_state()
    c = ctx(s, face)
    d.damage(c, "Mikasa", "FL3", side, "t")
    assert c.state.ships["Mikasa"].flooding[compartment] == 3
    done(c)


def test_BFR21_flooding_takes_the_worse_level_and_a_new_heavy_hit_breaks_containment():
    s = make_state()
    sh = s.ships["Mikasa"]
    sh.flooding["F"], sh.contained = 3, ["F"]
    c = ctx(s, 1, 1)
    d.damage(c, "Mikasa", "FL2", "port", "t")
    assert c.state.ships["Mikasa"].flooding["F"] == 3 and c.state.ships["Mikasa"].contained == ["F"]
    d.damage(c, "Mikasa", "FL3", "port", "t")
    assert c.state.ships["Mikasa"].contained == []
    done(c)


@pytest.mark.parametrize(
    "code, field, value",
    [
        ("ST", "tr", 1),
        ("CT", "ct", 1),
        ("BR", "bridge", 1),
        ("BRx", "bridge_x", True),
        ("SL", "searchlight", 1),
        ("DC", "dc_damaged", 1),
        ("F", "fires_ext", 1),
        ("Fi", "fires_int", 1),
    ],
)
def test_BF6_1_BFR30_glossary_codes(code, field, value):
    s = make_state()
    c = ctx(s)
    d.damage(c, "Mikasa", code, "port", "t")
    assert getattr(c.state.ships["Mikasa"], field) == value
    done(c)


def test_BF6_1_BFR43_rudder_jams_to_a_side_and_a_secured_rudder_takes_no_hit():
    s = make_state()
    c = ctx(s, 2)
    d.damage(c, "Mikasa", "R", "port", "t")
    assert c.state.ships["Mikasa"].rudder == "port"
    s.ships["Asahi"].secured = True
    c = ctx(s)
    d.damage(c, "Asahi", "R", "port", "t")
    assert c.state.ships["Asahi"].rudder is None and of(c, ev.DamageApplied)[0].kind == "none"
    done(c)


def test_BF6_3_BFR43_dc_hits_beyond_the_boxes_do_nothing():
    s = make_state("torpedo-attack")
    s.ships["Ikazuchi"].dc_damaged = 3  # size 1: three DC dice
    c = ctx(s)
    d.damage(c, "Ikazuchi", "DC", "port", "t")
    assert c.state.ships["Ikazuchi"].dc_damaged == 3 and "every DC box" in of(c, ev.DamageApplied)[0].effect


def test_BF6_2_BFR19_a_tertiary_hit_takes_a_boat_gun_and_tx_destroys_one():
    """The boat guns are these ships' only tertiary entry: T damages one (a slash), Tx destroys one."""
    s = make_state()
    c = ctx(s, [1, 1], [1, 1])
    d.damage(c, "Mikasa", "T", "port", "t")
    d.damage(c, "Mikasa", "Tx", "port", "t")
    assert c.state.ships["Mikasa"].guns["boat"][:2] == ["damaged", "destroyed"]
    done(c)


def test_BF6_2_every_location_roll_says_what_it_picked():
    s = make_state()
    c = ctx(s, 5, [6, 6])
    d.damage(c, "Mikasa", "M", "starboard", "t")
    assert [r.result.outcome for r in rolls(c)] == ["Z", "-"] and all(r.sides == [6] * len(r.faces) for r in rolls(c))


def test_BF6_2_BFR43_a_boat_gun_hit_takes_an_undamaged_gun_of_the_pattern():
    """6.2 Numbered Patterns: hits "are always removed from the list of currently undamaged/undestroyed weapons":
    B2 on Mikasa with every boat gun damaged but two takes exactly those two, with no die to pick them (one left,
    then one), and a third hit finds none (6.1: no effect)."""
    s = make_state()
    guns = s.ships["Mikasa"].guns["boat"]
    guns[:] = ["damaged"] * len(guns)
    guns[4] = guns[15] = "ok"
    c = ctx(s, 1)  # the first of two picks (halves): gun 4; the second has one left
    d.damage(c, "Mikasa", "B2", "port", "t")
    assert [e.location for e in of(c, ev.DamageApplied)] == ["boat:4", "boat:15"]
    c2 = ctx(c.state)
    d.damage(c2, "Mikasa", "B1", "port", "t")
    assert of(c2, ev.DamageApplied)[0].kind == "none" and c2.state.ships["Mikasa"].guns["boat"].count("damaged") == 18
    done(c2)
