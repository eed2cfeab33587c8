"""rules/gunnery.py: 4.0-4.3 with exact geometry: rates of fire, arcs, line of sight, measuring, abandoning."""

from __future__ import annotations

import msgspec
import pytest

from domain.battlefleet_1900.commands import Fire
from domain.battlefleet_1900.rules import gunnery
from domain.engine import IllegalCommand
from events import battlefleet_1900 as ev
from tests.battlefleet_1900.scenario import ctx, data_with, done, make_state, of, place


def duel(distance: int = 300, fog: str = "open", **kw):
    """Mikasa steaming east at (1000, 1000); Tsesarevich broadside to her port, its funnel `distance` mm north of
    Mikasa's (both funnels 16 mm aft of the bow); everyone else far off."""
    s = make_state(fog=fog, step="gunnery", **kw)
    place(s, "Mikasa", 1000, 1000, 90)
    place(s, "Tsesarevich", 1000, 1000 + distance, 90)
    return s


def salvo(s, firer: str, target: str, estimate: int, guns: list[dict], seat: str = "japan"):
    s.sealed[seat].pending["fire"] = {
        "salvos": [{"ship": firer, "target": target, "estimate_mm": estimate, "guns": guns}]
    }
    c = ctx(s)
    gunnery.resolve(c)
    return c, of(c, ev.SalvoMeasured)[0]


MAIN = [{"mount": "A", "ammo": "AP"}, {"mount": "Z", "ammo": "AP"}]


@pytest.mark.parametrize("estimate, outcome", [(293, "short"), (294, "hit"), (306, "hit"), (544, "hit"), (545, "over")])
def test_BF4_3_BFR15_hit_zone_with_the_first_bracket_danger_zone(estimate, outcome):
    """4.3: the leading edge at 294 mm in bracket 1: the base (to 306) and half a bracket beyond the edge (544)."""
    s = duel()
    c, m = salvo(s, "Mikasa", "Tsesarevich", estimate, MAIN)
    assert (m.outcome, m.bracket, m.lead, m.exit) == (outcome, 1, 294, 306)
    assert m.rounds == 4 and m.marker == [984, 1000 + estimate]  # twin A and Z, one round a gun
    if outcome == "hit":
        assert c.state.due[0].target == "Tsesarevich"


def test_BF4_3_second_bracket_danger_zone_is_a_quarter_bracket():
    s = duel(700)
    _, m = salvo(s, "Mikasa", "Tsesarevich", 694 + 125, MAIN)
    assert (m.outcome, m.bracket) == ("hit", 2)
    s = duel(700)
    _, m = salvo(s, "Mikasa", "Tsesarevich", 694 + 126, MAIN)
    assert m.outcome == "over"


def test_BFR15_the_danger_zone_runs_from_the_leading_edge_not_the_far_edge():
    s = duel(1200)
    _, m = salvo(s, "Mikasa", "Tsesarevich", 1207, MAIN)  # past the base's far edge, bracket 3: no zone
    assert (m.outcome, m.bracket, m.lead, m.exit) == ("over", 3, 1194, 1206)


def test_BF4_1_ROF_2_is_capped_at_one_over_half_range():
    s = duel(1200)
    guns = [{"mount": "15cm", "side": "port", "guns": 6, "cycles": 2}]
    _, m = salvo(s, "Mikasa", "Tsesarevich", 1200, guns)
    assert m.rof_capped and m.rounds == 6  # all seven port guns bear on the beam; the second cycle is void
    s = duel(700)
    _, m = salvo(s, "Mikasa", "Tsesarevich", 700, guns)
    assert not m.rof_capped and m.rounds == 12


def test_BF4_3_out_of_range_beyond_four_brackets():
    s = duel(2100)
    _, m = salvo(s, "Mikasa", "Tsesarevich", 2000, MAIN)
    assert (m.outcome, m.rounds) == ("out_of_range", 0)


def test_BF4_1_BFR41_guns_that_cannot_reach_the_bracket_fire_nothing():
    """Data pen null: the boat guns reach brackets 1-2 only."""
    s = duel(1200)
    _, m = salvo(s, "Mikasa", "Tsesarevich", 1200, [{"mount": "boat", "side": "port", "guns": 10}])
    assert (m.outcome, m.rounds) == ("out_of_range", 0)


def test_BF4_1_line_of_sight_blocked_by_another_base():
    s = duel()
    place(s, "Asahi", 1000, 1150, 90)  # squarely between the funnels
    c, m = salvo(s, "Mikasa", "Tsesarevich", 300, MAIN)
    assert (m.outcome, m.rounds, m.bracket) == ("no_los", 0, None) and not c.state.due


def test_BF4_1_a_sinking_base_blocks_sight_too():
    s = duel()
    place(s, "Fuji", 1000, 1150, 90)
    s.ships["Fuji"].sinking = 2
    _, m = salvo(s, "Mikasa", "Tsesarevich", 300, MAIN)
    assert m.outcome == "no_los"


def test_BF4_1_land_blocks_sight():
    islet = [[970, 1100], [1000, 1100], [1000, 1110]]
    s = duel(data=data_with(lambda raw: raw["scenarios"]["yellow-sea-1904"]["land"].append(islet)))
    _, m = salvo(s, "Mikasa", "Tsesarevich", 300, MAIN)
    assert m.outcome == "no_los"


def test_BF4_1_BFR41_out_of_arc_when_no_gun_bears():
    """4.1 Stem: 95 degrees on the bow; a target on the beam is outside it."""
    s = duel()
    place(s, "Peresvet", 1000, 700, 90)  # Peresvet's funnel 300 mm south of... its port side faces north
    s.sealed["russia"].pending["fire"] = {
        "salvos": [{"ship": "Peresvet", "target": "Mikasa", "estimate_mm": 300, "guns": [{"mount": "stem"}]}]
    }
    c = ctx(s)
    gunnery.resolve(c)
    m = of(c, ev.SalvoMeasured)[0]
    assert (m.outcome, m.rounds) == ("out_of_arc", 0)


def test_BF4_1_BFR37_beam_pattern_2_fires_four_guns_dead_ahead():
    """4.1's example: pattern 2 fires four secondaries straight forward, two from each side."""
    s = duel()
    place(s, "Mikasa", 3000, 200, 90)  # out of the way
    place(s, "Kasuga", 984, 716, 0)  # heading north, its funnel at (984, 700): Tsesarevich's funnel dead ahead
    guns = [{"mount": "15cm", "side": "port", "guns": 7}, {"mount": "15cm", "side": "starboard", "guns": 7}]
    _, m = salvo(s, "Kasuga", "Tsesarevich", 600, guns)
    assert m.outcome == "hit" and [g.rounds for g in m.guns] == [2, 2]


@pytest.mark.parametrize(
    "guns, why",
    [
        ([{"mount": "A", "cycles": 2}], "1 cycle"),  # ROF 1
        ([{"mount": "15cm", "side": "port", "guns": 8}], "has 7 guns able to fire"),
        (
            [{"mount": "15cm", "side": "port", "guns": 7, "cycles": 2}, {"mount": "15cm", "side": "port", "guns": 1}],
            "at most 7 x 2",
        ),
        ([{"mount": "15cm", "guns": 2}], "give side"),
        ([{"mount": "A", "side": "port"}], "without side or guns"),
        ([{"mount": "Q"}], "no gun position"),
    ],
)
def test_BFR14_BFR37_rates_of_fire_are_judged_on_the_ship_log(guns, why):
    s = duel()
    with pytest.raises(IllegalCommand, match=why):
        gunnery.check_fire(
            s,
            "japan",
            msgspec.convert(
                {
                    "type": "fire",
                    "salvos": [{"ship": "Mikasa", "target": "Tsesarevich", "estimate_mm": 300, "guns": guns}],
                },
                Fire,
            ),
        )


def test_BFR14_an_even_split_of_a_position_but_never_more_cycles_than_its_rof():
    """4.1: a two-gun 15 cm turret fires two rounds at each of two ships, or four at one; never three targets."""
    s = duel()

    def one(t, cyc=1):
        return {"ship": "Tsesarevich", "target": t, "estimate_mm": 300, "guns": [{"mount": "D", "cycles": cyc}]}

    def check(salvos):
        gunnery.check_fire(s, "russia", msgspec.convert({"type": "fire", "salvos": salvos}, Fire))

    check([one("Mikasa"), one("Asahi")])
    check([one("Mikasa", 2)])
    with pytest.raises(IllegalCommand, match="D: 2 cycle"):
        check([one("Mikasa"), one("Asahi"), one("Fuji")])


def test_BFR14_rof_half_rests_the_turn_after_firing_and_damaged_guns_are_silent():
    s = duel(turn=3)
    s.ships["Tsesarevich"].mounts["A"].fired = 2
    assert gunnery.capacity(s, "Tsesarevich", "A", None) == (2, 0)
    s.ships["Tsesarevich"].mounts["A"].fired = 1
    assert gunnery.capacity(s, "Tsesarevich", "A", None) == (2, 1)
    s.ships["Tsesarevich"].mounts["A"].slashes = 1
    assert gunnery.capacity(s, "Tsesarevich", "A", None) == (0, 1)
    s.sealed["russia"].manned["Tsesarevich"] = False
    assert gunnery.capacity(s, "Tsesarevich", "boat", "port")[0] == 0  # BF-R20: unmanned boat guns are silent


@pytest.mark.parametrize(
    "salvo_, why",
    [
        ({"ship": "Mikasa", "target": "Asahi", "estimate_mm": 300}, "not an enemy ship"),
        ({"ship": "Mikasa", "target": "Tsesarevich", "estimate_mm": 2001}, "1-2000 mm"),
        ({"ship": "Tsesarevich", "target": "Mikasa", "estimate_mm": 300}, "not one of your ships"),
    ],
)
def test_BFR15_targets_and_estimates(salvo_, why):
    s = duel()
    with pytest.raises(IllegalCommand, match=why):
        gunnery.check_fire(s, "japan", msgspec.convert({"type": "fire", "salvos": [{**salvo_, "guns": MAIN}]}, Fire))


def test_BF4_1_one_estimate_per_firer_and_target():
    s = duel()
    one = {"ship": "Mikasa", "target": "Tsesarevich", "estimate_mm": 300, "guns": [MAIN[0]]}
    with pytest.raises(IllegalCommand, match="one estimate per firer and target"):
        gunnery.check_fire(
            s, "japan", msgspec.convert({"type": "fire", "salvos": [one, {**one, "guns": [MAIN[1]]}]}, Fire)
        )


def test_BFR13_a_surrendered_ship_is_no_target():
    s = duel()
    s.ships["Tsesarevich"].lost = "surrendered"
    with pytest.raises(IllegalCommand, match="surrendered ships are no target"):
        gunnery.check_fire(
            s,
            "japan",
            msgspec.convert(
                {
                    "type": "fire",
                    "salvos": [{"ship": "Mikasa", "target": "Tsesarevich", "estimate_mm": 300, "guns": MAIN}],
                },
                Fire,
            ),
        )


@pytest.mark.parametrize("face, abandoned", [(3, False), (4, True)])
def test_BF6_0_BFR16_a_sinking_ship_rolls_to_keep_its_gun_crews(face, abandoned):
    s = duel()
    s.ships["Mikasa"].sinking = 2
    c = ctx(s, face)
    gunnery.abandon_rolls(c, {"Mikasa"})
    assert c.state.ships["Mikasa"].abandoned == abandoned and bool(of(c, ev.GunsAbandoned)) == abandoned
    assert gunnery.can_fire(c.state, "Mikasa") != abandoned
    done(c)


@pytest.mark.parametrize("face, abandoned", [(3, False), (4, True)])
def test_BF6_0_BFR16_F8_a_sinking_ship_rolls_only_when_its_orders_fire_it(face, abandoned):
    """6.0: "If a sinking vessel attempts to fire its guns, it must roll 1D6 at the start of each gunnery phase"
    (issue 18 F8, BF-E4-23). Mikasa is sinking: the Gunnery Phase starts with no roll; named in Japan's sealed
    `fire`, it rolls at the reveal, before its salvo is measured: on 1-3 the salvo is measured, on 4-6 the crews
    leave and nothing is fired."""
    s = duel()
    s.ships["Mikasa"].sinking = 2
    c = ctx(s)
    gunnery.abandon_at_start(c)
    assert c.events == []  # no roll as the phase starts
    s.sealed["japan"].pending["fire"] = {
        "salvos": [{"ship": "Mikasa", "target": "Tsesarevich", "estimate_mm": 300, "guns": MAIN}]
    }
    c = ctx(s, face)
    gunnery.resolve(c)
    done(c)
    kinds = [type(e).__name__ for e in c.events]
    assert kinds.index("SubmissionsRevealed") < kinds.index("DiceRolled")
    assert bool(of(c, ev.GunsAbandoned)) == abandoned
    assert [m.outcome for m in of(c, ev.SalvoMeasured)] == ([] if abandoned else ["hit"])
    if not abandoned:
        assert kinds.index("DiceRolled") < kinds.index("SalvoMeasured")


def test_BF6_0_BFR16_F8_a_sinking_ship_that_does_not_fire_keeps_its_crews_unrolled():
    """6.0 F8: a sinking ship whose orders do not name it makes no roll, so it may fire next turn; 3.0.0 rolled for
    it as the phase started, whether or not it fired."""
    s = duel()
    s.ships["Mikasa"].sinking = 2
    c = ctx(s)
    gunnery.resolve(c)  # Japan's fire names no ship
    assert of(c, ev.GunsAbandoned) == [] and c.events and not [e for e in c.events if type(e).__name__ == "DiceRolled"]
    old = duel(edition="3.0.0")
    old.ships["Mikasa"].sinking = 2
    c = ctx(old, 4)
    gunnery.abandon_at_start(c)  # 3.0.0: the roll as the phase starts, fire or not
    assert of(c, ev.GunsAbandoned) and c.state.ships["Mikasa"].abandoned
    done(c)


def test_fog_blur_seals_markers_and_distances_to_the_referee():
    s = duel(fog="blur")
    c, m = salvo(s, "Mikasa", "Tsesarevich", 300, MAIN)
    assert (m.marker, m.lead, m.exit) == (None, None, None)
    sealed = [e for e in c.events if type(e).__name__ == "SubmissionSealed"]
    assert sealed[0].seat == "referee" and sealed[0].kind == "markers"
    assert sealed[0].content["markers"][0]["lead"] == 294


def test_BFR3_validation_never_reads_the_enemys_geometry():
    """A fire command is judged the same wherever the enemy lies: arc, sight and range are outcomes only."""
    cmd = msgspec.convert(
        {"type": "fire", "salvos": [{"ship": "Mikasa", "target": "Tsesarevich", "estimate_mm": 300, "guns": MAIN}]},
        Fire,
    )
    for where in ((1000, 1300, 90), (3000, 2300, 200), (200, 100, 0)):
        s = duel()
        place(s, "Tsesarevich", *where)
        gunnery.check_fire(s, "japan", cmd)  # never refused for geometry
    s = duel()
    place(s, "Tsesarevich", 3000, 2300, 200)
    _, m = salvo(s, "Mikasa", "Tsesarevich", 300, MAIN)
    assert m.outcome in ("out_of_range", "no_los", "out_of_arc", "short")


def _fire(s, seat: str, *salvos: dict):
    s.sealed[seat].pending["fire"] = {"salvos": list(salvos)}
    c = ctx(s)
    gunnery.resolve(c)
    return {m.target: m for m in of(c, ev.SalvoMeasured)}


def test_BF4_1_BFR53_over_half_range_a_gun_fires_once_however_its_cycles_are_split():
    """4.1: "When firing at targets over half range ... all guns are limited to a maximum ROF of 1": Tsesarevich's
    twin P turret (ROF 2) splits a cycle each between Mikasa and Asahi, both in bracket 3: the second is void.
    With one target near (bracket 1) and one far, both cycles fire: once within two brackets, once beyond."""
    s = make_state(step="gunnery")
    p = {"mount": "P"}
    by = _fire(
        s,
        "russia",
        {"ship": "Tsesarevich", "target": "Mikasa", "estimate_mm": 1200, "guns": [p]},
        {"ship": "Tsesarevich", "target": "Asahi", "estimate_mm": 1200, "guns": [p]},
    )
    assert (by["Mikasa"].bracket, by["Mikasa"].rounds, by["Mikasa"].rof_capped) == (3, 2, False)
    assert (by["Asahi"].bracket, by["Asahi"].rounds, by["Asahi"].rof_capped) == (3, 0, True)
    s = make_state(step="gunnery")
    place(s, "Asahi", 1300, 900, 90)  # 360 mm off Tsesarevich's port bow, clear of the line to Mikasa
    by = _fire(
        s,
        "russia",
        {"ship": "Tsesarevich", "target": "Mikasa", "estimate_mm": 1200, "guns": [p]},
        {"ship": "Tsesarevich", "target": "Asahi", "estimate_mm": 360, "guns": [p]},
    )
    assert (by["Mikasa"].rounds, by["Asahi"].bracket, by["Asahi"].rounds) == (2, 1, 2)
    assert not by["Mikasa"].rof_capped and not by["Asahi"].rof_capped


def test_BF4_1_BFR37_BFR53_a_pattern_gun_fires_its_rate_of_fire_once_a_turn_across_targets():
    """4.1: ROF is "the number of rounds per turn which each gun ... may fire". Mikasa heads north; Tsesarevich
    and Retvizan lie nearly dead ahead, where of her port 15 cm (pattern 1) only the bow gun bears: ordered to
    fire one gun twice at each, it fires twice in all (at the first), not four times."""
    s = make_state(step="gunnery")
    place(s, "Mikasa", 1000, 1000, 0)
    place(s, "Tsesarevich", 996, 1300, 90)  # funnel (980, 1300): 3.6 degrees to port
    place(s, "Retvizan", 1016, 1600, 90)  # funnel (1000, 1600): dead ahead
    one = [{"mount": "15cm", "side": "port", "guns": 1, "cycles": 2}]
    by = _fire(
        s,
        "japan",
        {"ship": "Mikasa", "target": "Tsesarevich", "estimate_mm": 310, "guns": one},
        {"ship": "Mikasa", "target": "Retvizan", "estimate_mm": 610, "guns": one},
    )
    assert [g.rounds for g in by["Tsesarevich"].guns] == [2] and not by["Tsesarevich"].rof_capped
    assert [g.rounds for g in by["Retvizan"].guns] == [0] and by["Retvizan"].rof_capped
    assert by["Retvizan"].outcome in ("hit", "short", "over")  # measured: the estimate was made and taped


@pytest.mark.parametrize("edition", ["5.0.0", None])
def test_BFR3_BFR20_who_owes_fire_reads_no_sealed_boat_gun_crews(edition):
    """StepStarted.owing is public: up to 5.0.0 whether japan owes `fire` must not tell russia that japan's boat gun
    crews, logged in its sealed `start`, stand down: japan, with nothing left but unmanned boat guns, is still asked.
    From 6.0.0 the crews are public (BF-E6-2) and japan is not asked. Either way it may send only an empty `fire`
    (the crews are silent, BF-R14)."""
    s = make_state(step="gunnery", edition=edition)
    for n in s.own("japan"):
        sh = s.ships[n]
        for m in sh.mounts.values():
            m.destroyed = True
        for wid, guns in sh.guns.items():
            if wid != "boat":
                guns[:] = ["destroyed"] * len(guns)
        s.sealed["japan"].manned[n] = False
    assert gunnery.owes(s, "japan") == (edition == "5.0.0")
    with pytest.raises(IllegalCommand, match="Mikasa has no gun able to fire this turn"):
        gunnery.check_fire(
            s,
            "japan",
            msgspec.convert(
                {
                    "type": "fire",
                    "salvos": [
                        {
                            "ship": "Mikasa",
                            "target": "Tsesarevich",
                            "estimate_mm": 1200,
                            "guns": [{"mount": "boat", "side": "port", "guns": 1}],
                        }
                    ],
                },
                Fire,
            ),
        )
    gunnery.check_fire(s, "japan", msgspec.convert({"type": "fire"}, Fire))


def test_BF4_0_BFR15_F9_one_ammunition_per_target_entry():
    """4.0: the target is recorded "followed by the controlling player's estimate of the target's distance and
    whether or not those guns are firing AP": one AP/HE choice per target entry (issue 18 F9, BF-E4-24). Mikasa's
    A turret with AP and Z with HE at one target is refused; both AP, or both HE, is fine; 3.0.0 took the mix."""
    mixed = msgspec.convert(
        {
            "type": "fire",
            "salvos": [
                {
                    "ship": "Mikasa",
                    "target": "Tsesarevich",
                    "estimate_mm": 300,
                    "guns": [{"mount": "A", "ammo": "AP"}, {"mount": "Z", "ammo": "HE"}],
                }
            ],
        },
        Fire,
    )
    with pytest.raises(IllegalCommand, match="one ammunition for the target"):
        gunnery.check_fire(duel(), "japan", mixed)
    for ammo in ("AP", "HE"):
        one = msgspec.convert(
            {
                "type": "fire",
                "salvos": [
                    {
                        "ship": "Mikasa",
                        "target": "Tsesarevich",
                        "estimate_mm": 300,
                        "guns": [{"mount": "A", "ammo": ammo}, {"mount": "Z", "ammo": ammo}],
                    }
                ],
            },
            Fire,
        )
        gunnery.check_fire(duel(), "japan", one)
    gunnery.check_fire(duel(edition="3.0.0"), "japan", mixed)  # the previous edition took a mix per gun


@pytest.mark.parametrize(
    "where, truth",
    [
        ((1000, 3200, 90), "out_of_range"),  # 2200 mm north: beyond four brackets
        ((1000, 1300, 90), "out_of_arc"),  # on the beam of a stem gun
    ],
)
def test_BF4_3_BFR41_issue17_a_salvo_that_fires_nothing_tells_nothing_under_fog(where, truth):
    """Issue 17 item 3 (BF-E4-21): a salvo that fires nothing costs nothing, so under fog blur its outcome and
    bracket would range any enemy ship for free. From 4.0.0 the public (and the firer) read only `could_not_bear`
    with no bracket; the true outcome and bracket are sealed to the referee. 3.0.0 published both."""
    guns = [{"mount": "stem"}] if truth == "out_of_arc" else MAIN
    for edition in ("4.0.0", "3.0.0"):
        s = duel(fog="blur", edition=edition)
        place(s, "Peresvet", 1000, 700, 90)
        place(s, "Tsesarevich", *where)
        s.sealed["russia"].pending["fire"] = {
            "salvos": [{"ship": "Peresvet", "target": "Mikasa", "estimate_mm": 300, "guns": guns}]
        } if truth == "out_of_arc" else {}
        s.sealed["japan"].pending["fire"] = {} if truth == "out_of_arc" else {
            "salvos": [{"ship": "Mikasa", "target": "Tsesarevich", "estimate_mm": 300, "guns": guns}]
        }
        c = ctx(s)
        gunnery.resolve(c)
        m = of(c, ev.SalvoMeasured)[0]
        sealed = [e for e in c.events if type(e).__name__ == "SubmissionSealed"]
        if edition == "4.0.0":
            assert (m.outcome, m.bracket, m.rounds, m.marker) == ("could_not_bear", None, 0, None)
            assert [g.rounds for g in m.guns] == [0] * len(guns)
            assert [(x.seat, x.kind) for x in sealed] == [("referee", "markers")]
            unfired = sealed[0].content["unfired"]
            assert [u["outcome"] for u in unfired] == [truth] and unfired[0]["bracket"] is not None
        else:
            assert m.outcome == truth and m.bracket is not None and sealed == []


def test_BF4_3_BFR41_no_los_is_could_not_bear_under_fog_and_itself_in_the_open():
    s = duel(fog="blur")
    place(s, "Asahi", 1000, 1150, 90)  # a base on the funnel line
    _, m = salvo(s, "Mikasa", "Tsesarevich", 300, MAIN)
    assert (m.outcome, m.bracket) == ("could_not_bear", None)
    s = duel()  # fog open: nothing is hidden, the tape says why
    place(s, "Asahi", 1000, 1150, 90)
    _, m = salvo(s, "Mikasa", "Tsesarevich", 300, MAIN)
    assert (m.outcome, m.bracket) == ("no_los", None)


def test_BF4_1_BFR53_issue17_a_salvo_whose_guns_are_spent_tells_nothing_under_fog():
    """Issue 17 item 3, "check every other outcome": Tsesarevich's twin P turret (ROF 2) fires a cycle at Mikasa and
    is ordered its second at Asahi, both over half range: the second is void (BF-R53), so the Asahi salvo fires no
    round, yet 3.0.0 measured it and published Asahi's bracket (and, by `rof_capped`, that the turret bore on her):
    a range-finder for the price of one real salvo, on as many ships as the validation lets the guns be ordered at.
    From 4.0.0 under fog blur it is `could_not_bear` like any salvo that fires nothing; the referee keeps the truth."""
    p = {"mount": "P"}
    salvos = (
        {"ship": "Tsesarevich", "target": "Mikasa", "estimate_mm": 1200, "guns": [p]},
        {"ship": "Tsesarevich", "target": "Asahi", "estimate_mm": 1200, "guns": [p]},
    )
    old = _fire(make_state(step="gunnery", fog="blur", edition="3.0.0"), "russia", *salvos)
    assert (old["Asahi"].bracket, old["Asahi"].rounds, old["Asahi"].rof_capped) == (3, 0, True)
    s = make_state(step="gunnery", fog="blur")
    s.sealed["russia"].pending["fire"] = {"salvos": list(salvos)}
    c = ctx(s)
    gunnery.resolve(c)
    by = {m.target: m for m in of(c, ev.SalvoMeasured)}
    assert (by["Mikasa"].bracket, by["Mikasa"].rounds) == (3, 2)  # the real salvo is taped as ever
    assert (by["Asahi"].outcome, by["Asahi"].bracket, by["Asahi"].rounds, by["Asahi"].rof_capped) == (
        "could_not_bear",
        None,
        0,
        False,
    )
    (rec,) = [e for e in c.events if type(e).__name__ == "SubmissionSealed"]
    assert rec.seat == "referee" and [m["target"] for m in rec.content["markers"]] == ["Mikasa"]
    (truth,) = rec.content["unfired"]
    assert (truth["target"], truth["bracket"], truth["rof_capped"]) == ("Asahi", 3, True)
    assert truth["outcome"] in ("hit", "short", "over")  # taped, had a round been left


def test_BFR14_a_fire_naming_an_enemy_ship_as_firer_says_it_is_not_yours():
    """Issue 17 item 6: a Russian `fire` from Mikasa is refused for what is wrong (Mikasa is Japan's), not with a
    message about ships listed twice."""
    s = make_state(step="gunnery")
    fire = msgspec.convert(
        {"type": "fire", "salvos": [{"ship": "Mikasa", "target": "Tsesarevich", "estimate_mm": 500,
                                     "guns": [{"mount": "A"}]}]},
        Fire,
    )
    with pytest.raises(IllegalCommand) as refused:
        gunnery.check_fire(s, "russia", fire)
    assert refused.value.detail.startswith("Mikasa is not one of your ships; those able to fire are [")
    assert "Tsesarevich" in refused.value.detail and "once" not in refused.value.detail
