"""rules/hits.py: 6.0 Step Two with chosen faces: the hit dice, the AP and HE tables, Flooding Occurrence, and
every hit of the step rolled before any is applied (BF-R28)."""

from __future__ import annotations

import pytest

from domain.battlefleet_1900.rules import hits
from domain.battlefleet_1900.state import Due
from events import battlefleet_1900 as ev
from tests.battlefleet_1900.scenario import ctx, done, make_state, of, place


def gun(mount, cat, rounds, ammo="AP", side=None):
    return ev.GunFire(mount=mount, side=side, ammo=ammo, cat=cat, rounds=rounds)


def broadside():
    """Mikasa east-bound; Tsesarevich 300 mm on her port beam, also east-bound: each sees the other to port or
    starboard."""
    s = make_state(step="hits")
    place(s, "Mikasa", 1000, 1000, 90)
    place(s, "Tsesarevich", 1000, 1300, 90)
    return s


@pytest.mark.parametrize(
    "ammo, face, part",
    [
        ("AP", 1, "vitals"),
        ("AP", 2, "upperworks"),
        ("AP", 3, None),
        ("HE", 1, "upperworks"),
        ("HE", 2, "upperworks"),
        ("HE", 3, None),
    ],
)
def test_BF6_0_hit_chance_per_round(ammo, face, part):
    """§2: 1D6 per round landed: AP 1 vitals, 2 upperworks; HE 1-2 upperworks."""
    assert hits.part_hit(make_state(), ammo, face) == part


@pytest.mark.parametrize(
    "ammo, part, pen, face, codes",
    [
        ("AP", "vitals", 16, 1, ["FL3"]),  # 30 cm at bracket 1 against 10: >= 50
        ("AP", "vitals", 12, 2, ["P"]),  # 20: 0..49
        ("AP", "vitals", 9, 3, ["M"]),  # -10: -50..-1
        ("AP", "vitals", 4, 6, ["DC"]),  # -60: < -50
        ("AP", "vitals", 16, 6, ["X", "Mx"]),
        ("AP", "upperworks", 7, 2, ["B2"]),  # against 7: 0
        ("AP", "upperworks", 16, 5, ["ST"]),
        ("HE", "upperworks", 16, 1, ["F", "S"]),  # HE halves: 8 against 7: 14
        ("HE", "upperworks", 22, 1, ["F", "Sx"]),  # 11 against 7: 57
        ("HE", "upperworks", 14, 2, ["Tx"]),  # 7 against 7: 0
        ("HE", "upperworks", 12, 2, ["B2"]),  # 6 against 7: -15
        ("HE", "upperworks", 6, 4, ["SL"]),  # 3 against 7: -58
    ],
)
def test_BFR17_shell_tables_by_penetration_column_and_row(ammo, part, pen, face, codes):
    assert hits.shell_codes(make_state(), "Tsesarevich", ammo, part, pen, face) == codes


@pytest.mark.parametrize(
    "size, target, face, codes",
    [
        (20, "Poltava", 1, ["FL2"]),
        (20, "Poltava", 6, ["FL4"]),
        (25, "Poltava", 6, ["FL4", "Fi"]),
        (20, "Ikazuchi", 5, ["FL4", "X"]),
    ],
)
def test_BF6_0_flooding_occurrence_by_torpedo_size_over_target_size(size, target, face, codes):
    """§2: the column by size * 100 // target size (<50 | 50-99 | >=100), 1D6 the row."""
    assert hits.occurrence_codes(make_state("torpedo-attack"), size, target, face) == codes


def test_BF4_4_BFR17_hit_dice_in_one_set_per_firer_target_and_category_then_the_rows():
    s = broadside()
    s.due = [Due("salvo", "Mikasa", "Tsesarevich", bracket=1, guns=[gun("A", "main", 2), gun("Z", "main", 2)])]
    # four rounds: faces 1 (vitals), 2 (upperworks), 3, 6; the rows: 2 (vitals: Px at 16 vs 10, >= 50), 5 (ST)
    c = ctx(s, [1, 2, 3, 6], [2, 5])
    hits.step(c)
    rolled = of(c, ev.HitsRolled)[0]
    assert (rolled.cat, rolled.rounds, rolled.vitals, rolled.upperworks) == ("main", 4, 1, 1)
    assert [e.code for e in of(c, ev.DamageApplied)] == ["Px", "ST"]
    assert c.state.ships["Tsesarevich"].destroyed == 1 and c.state.ships["Tsesarevich"].tr == 1
    done(c)


def test_BF6_2_shell_flooding_lands_on_the_embattled_side():
    """Mikasa is on Tsesarevich's starboard side (to the south): thirds F / SA / A."""
    s = broadside()
    s.due = [Due("salvo", "Mikasa", "Tsesarevich", bracket=1, guns=[gun("A", "main", 1)])]
    c = ctx(s, 1, 1, 3)  # vitals; row 1 at >= 50: FL3; 3 -> SA
    hits.step(c)
    assert c.state.ships["Tsesarevich"].flooding["SA"] == 3
    done(c)


def test_BFR28_a_ship_lost_in_step_two_still_delivers_its_hits():
    s = broadside()
    s.due = [
        Due("salvo", "Tsesarevich", "Mikasa", bracket=1, guns=[gun("A", "main", 1)]),
        Due("salvo", "Mikasa", "Tsesarevich", bracket=1, guns=[gun("A", "main", 1)]),
    ]
    # Tsesarevich's round: vitals, row 6 at 15 vs 11 (36: 0..49) -> Mx: position A (1), critical 2: BOOM
    # Mikasa's round: vitals, row 2 at 16 vs 10 (>= 50) -> Px
    c = ctx(s, 1, 6, 1, [1, 1], 1, 2)
    hits.step(c)
    assert c.state.ships["Mikasa"].lost == "blown_up"
    assert c.state.ships["Tsesarevich"].destroyed == 1  # Mikasa's hit stands (6.0 example 1)
    done(c)


def test_BFR28_every_die_is_rolled_before_any_effect_applies():
    s = broadside()
    s.due = [Due("salvo", "Mikasa", "Tsesarevich", bracket=1, guns=[gun("A", "main", 2)])]
    c = ctx(s, [1, 1], [2, 2])
    hits.step(c)
    names = [type(e).__name__ for e in c.events]
    last_roll = max(i for i, n in enumerate(names) if n == "DiceRolled")
    first_apply = min(i for i, n in enumerate(names) if n == "DamageApplied")
    assert last_roll < first_apply and c.state.ships["Tsesarevich"].destroyed == 2
    done(c)


def test_BF6_0_torpedo_hits_flood_in_step_two():
    s = make_state("torpedo-attack", step="hits")
    place(s, "Ikazuchi", 1000, 1010, 0)
    place(s, "Poltava", 1150, 1016, 0)
    s.due = [Due("torpedo", "Ikazuchi", "Poltava", hits=1, size=20)]
    c = ctx(s, 6, 2)  # FL4; Ikazuchi is on Poltava's port side: F / PA / A, 2 -> F
    hits.step(c)
    assert c.state.ships["Poltava"].flooding["F"] == 4
    done(c)


def test_BF6_0_the_roll_records_say_what_the_dice_decided():
    s = broadside()
    s.due = [Due("salvo", "Mikasa", "Tsesarevich", bracket=1, guns=[gun("A", "main", 2)])]
    c = ctx(s, [1, 4], [2])
    hits.step(c)
    landed, row = [e for e in c.events if type(e).__name__ == "DiceRolled"]
    assert landed.result.outcome.startswith("1 vitals, 0 upperworks") and row.result.outcome == "AP vitals pen 16: Px"


@pytest.mark.parametrize("edition, told", [("9.0.0", False), ("8.0.0", True)])
def test_BFR32_BFE9_1_a_flooding_rolls_public_purpose_names_no_side_from_sealed_poses(edition, told):
    """BF-R32 picks the flooded compartment among the embattled side's thirds; the side comes from the target's and
    the firer's exact poses, sealed under fog blur. Two worlds 1 mm apart in Tsesarevich's secret x (well inside the
    fog's offsets) put the hit on different sides, with the same faces and the same compartment (face 1: F on every
    side): from 9.0.0 the public roll records are the same (the cold pass over 8.0.0, F2); 8.0.0 named the side."""
    from events.core import DiceRolled

    def world(x):
        s = make_state(fog="blur", step="hits", edition=edition)
        place(s, "Mikasa", 1000, 1000, 90)
        place(s, "Tsesarevich", x, 1300, 150)
        s.due = [Due("salvo", "Mikasa", "Tsesarevich", bracket=1, guns=[gun("A", "main", 1)])]
        return s

    flip = next(x for x in range(600, 1400) if hits.embattled(world(x), "Tsesarevich", "Mikasa")
                != hits.embattled(world(x + 1), "Tsesarevich", "Mikasa"))  # fmt: skip
    records, applied = [], []
    for x in (flip, flip + 1):
        c = ctx(world(x), 1, 1, 1)  # vitals; row 1 at pen >= 50%: FL3; its location's face 1: F on every side
        hits.step(c)
        done(c)
        records.append([r.purpose for r in of(c, DiceRolled)])
        applied.append([(e.code, e.location) for e in of(c, ev.DamageApplied)])
    assert applied[0] == applied[1] == [("FL3", "F")]
    assert (records[0] != records[1]) is told
    assert any(p.startswith("flooding location on Tsesarevich") for p in records[0])
