"""rules/torpedoes.py: 5.0-5.1 launches, arcs, range, land, running depth and the hit numbers, chosen faces."""

from __future__ import annotations

import msgspec
import pytest

from domain.battlefleet_1900.commands import LaunchTorpedoes, Start
from domain.battlefleet_1900.rules import torpedoes
from domain.battlefleet_1900.rules.turn import check_start
from domain.engine import IllegalCommand
from events import battlefleet_1900 as ev
from tests.battlefleet_1900.scenario import ctx, data_with, done, make_state, of, place


def attack(d: int = 150, target_heading: int = 0, depth: str = "normal", **kw):
    """Ikazuchi heading north with its funnel at (1000, 1000); Poltava's funnel d mm due east of it."""
    s = make_state("torpedo-attack", step="torpedo", **kw)
    place(s, "Ikazuchi", 1000, 1010, 0)
    hx = {0: (1000 + d, 1016), 90: (1000 + d + 16, 1000), 180: (1000 + d, 984)}[target_heading]
    place(s, "Poltava", *hx, target_heading)
    s.sealed["japan"].depth["Ikazuchi"] = depth
    return s


def launch(s, count=2, seat="japan", **la):
    args = {"ship": "Ikazuchi", "mount": "tubes", "target": "Poltava", "count": count, **la}
    s.sealed[seat].pending["launch_torpedoes"] = {"launches": [args]}
    return s


@pytest.mark.parametrize(
    "d, heading, faces, need, hits",
    [
        (150, 0, [3, 4], 3, 1),  # within half range, on the beam: 1D6 <= 3
        (150, 90, [2, 3], 2, 1),  # within half range, end on: <= 2
        (300, 180, [2, 3], 2, 1),  # beyond half range, beam: <= 2
        (300, 90, [1, 2], 1, 1),  # beyond half range, end on: <= 1
        (200, 0, [3, 3], 3, 2),  # exactly half range counts as within
    ],
)
def test_BF5_0_BFR27_hit_numbers_by_range_and_aspect(d, heading, faces, need, hits):
    s = launch(attack(d, heading, "shallow"))
    c = ctx(s, faces)
    torpedoes.resolve(c)
    r = of(c, ev.TorpedoesResolved)[0]
    assert (r.outcome, r.hits) == ("hit", hits) and f"<= {need}" in c.events[1].result.outcome
    assert c.state.ships["Ikazuchi"].tubes["tubes"] == 0  # crossed off
    assert c.state.due[0].hits == hits and c.state.due[0].size == 20
    done(c)


def test_BF5_0_a_miss_is_crossed_off_too():
    s = launch(attack(150, 0, "shallow"), count=1)
    c = ctx(s, 6)
    torpedoes.resolve(c)
    assert of(c, ev.TorpedoesResolved)[0].outcome == "miss" and c.state.ships["Ikazuchi"].tubes["tubes"] == 1
    assert not c.state.due


def test_BF5_0_normal_depth_runs_under_size_four_or_less():
    s = make_state("torpedo-attack", step="torpedo")
    place(s, "Poltava", 1000, 1000, 0)  # side tubes: the starboard pair bears east
    place(s, "Ikazuchi", 1150, 1010, 0)
    s.sealed["russia"].pending["launch_torpedoes"] = {
        "launches": [{"ship": "Poltava", "mount": "tubes", "side": "starboard", "target": "Ikazuchi", "count": 2}]
    }
    c = ctx(s)  # no die is rolled
    torpedoes.resolve(c)
    r = of(c, ev.TorpedoesResolved)[0]
    assert (r.outcome, r.depth, r.hits) == ("under", "normal", 0) and c.state.ships["Poltava"].tubes[
        "tubes:starboard"
    ] == 0
    done(c)


def test_BF5_0_BFR27_a_skimmer_counts_half_its_size_against_good_flood_protection():
    good = data_with(lambda raw: raw["classes"]["Poltava"].update(flood_protection="good"))
    s = launch(attack(150, 0, "shallow", data=good))
    c = ctx(s, [1, 6])
    torpedoes.resolve(c)
    assert c.state.due[0].size == 10


@pytest.mark.parametrize(
    "setup, outcome",
    [
        (
            lambda s: place(s, "Poltava", 1000, 1206, 0),
            "out_of_arc",
        ),  # dead ahead: the centre-line tubes bear on the beam only
        (lambda s: place(s, "Poltava", 1401, 1016, 0), "out_of_range"),  # 401 mm, funnel to funnel
    ],
)
def test_BF5_1_arc_and_range(setup, outcome):
    s = launch(attack(150, 0, "shallow"))
    setup(s)
    c = ctx(s)
    torpedoes.resolve(c)
    assert of(c, ev.TorpedoesResolved)[0].outcome == outcome and c.state.ships["Ikazuchi"].tubes["tubes"] == 0
    done(c)


def test_BF5_0_land_blocks_torpedoes_but_bases_do_not():
    rock = [[1050, 990], [1060, 990], [1060, 1010], [1050, 1010]]
    s = launch(
        attack(150, 0, "shallow", data=data_with(lambda raw: raw["scenarios"]["torpedo-attack"]["land"].append(rock)))
    )
    c = ctx(s)
    torpedoes.resolve(c)
    assert of(c, ev.TorpedoesResolved)[0].outcome == "blocked"
    s = launch(attack(150, 0, "shallow"))
    place(s, "Inazuma", 1075, 1015, 0)  # a base across the track
    c = ctx(s, [1, 1])
    torpedoes.resolve(c)
    assert of(c, ev.TorpedoesResolved)[0].outcome == "hit"


@pytest.mark.parametrize(
    "la, why",
    [
        ({"count": 3}, "has 2 torpedo"),
        ({"side": "port"}, "give side"),
        ({"target": "Inazuma"}, "not an enemy ship"),
        ({"mount": "bow"}, "has no tubes"),
    ],
)
def test_BF5_0_launches_are_judged_on_the_ship_log(la, why):
    s = attack()
    cmd = msgspec.convert(
        {
            "type": "launch_torpedoes",
            "launches": [{"ship": "Ikazuchi", "mount": "tubes", "target": "Poltava", "count": 2, **la}],
        },
        LaunchTorpedoes,
    )
    with pytest.raises(IllegalCommand, match=why):
        torpedoes.check_launch(s, "japan", cmd)


def test_BF6_0_a_sinking_ship_launches_nothing():
    s = attack()
    s.ships["Ikazuchi"].sinking = 1
    assert torpedoes.loaded(s, "Ikazuchi") == 0
    cmd = msgspec.convert(
        {"type": "launch_torpedoes", "launches": [{"ship": "Ikazuchi", "mount": "tubes", "target": "Poltava"}]},
        LaunchTorpedoes,
    )
    with pytest.raises(IllegalCommand, match="not one of your ships with torpedoes"):
        torpedoes.check_launch(s, "japan", cmd)


def test_BF5_0_only_destroyers_torpedo_boats_and_gunboats_carry_skimmers():
    s = make_state(step="setup")
    with pytest.raises(IllegalCommand, match="carries no surface skimmers"):
        check_start(
            s,
            "japan",
            msgspec.convert({"type": "start", "ships": [{"ship": "Mikasa", "torpedo_depth": "shallow"}]}, Start),
        )
    t = make_state("torpedo-attack", step="setup")
    check_start(
        t,
        "japan",
        msgspec.convert({"type": "start", "ships": [{"ship": "Ikazuchi", "torpedo_depth": "shallow"}]}, Start),
    )


@pytest.mark.parametrize("edition, told", [("6.0.0", "shallow"), ("7.0.0", None)])
def test_BFR34_BFE7_1_a_hit_on_poor_flood_protection_names_no_depth(edition, told):
    """The depth decides nothing against Poltava's flood protection: 7.0.0 keeps it as sealed as the ship log does."""
    s = launch(attack(150, 0, "shallow", edition=edition))
    c = ctx(s, [1, 6])
    torpedoes.resolve(c)
    r = of(c, ev.TorpedoesResolved)[0]
    assert r.outcome == "hit" and r.depth == told


def test_BFR27_BFE7_1_where_the_depth_decides_it_is_named():
    """A skimmer's hits halved by good flood protection (BF-R27), and 'under' (the test above): the depth is told."""
    good = data_with(lambda raw: raw["classes"]["Poltava"].update(flood_protection="good"))
    s = launch(attack(150, 0, "shallow", data=good))
    c = ctx(s, [1, 6])
    torpedoes.resolve(c)
    assert of(c, ev.TorpedoesResolved)[0].depth == "shallow" and c.state.due[0].size == 10


@pytest.mark.parametrize("edition, told", [("6.0.0", "shallow"), ("7.0.0", None)])
def test_BFR34_BFE7_1_a_launch_out_of_arc_names_no_depth(edition, told):
    s = launch(attack(150, 0, "shallow", edition=edition))
    place(s, "Poltava", 1000, 1206, 0)
    c = ctx(s)
    torpedoes.resolve(c)
    r = of(c, ev.TorpedoesResolved)[0]
    assert r.outcome == "out_of_arc" and r.depth == told


@pytest.mark.parametrize("edition, told", [("9.0.0", False), ("8.0.0", True)])
def test_BFR27_BFE9_1_a_torpedo_rolls_public_purpose_names_no_aspect_under_blur(edition, told):
    """BF-R27: the number to hit depends on the aspect (beam or ends) and half range, taken from the exact, sealed
    poses. Within half range end on and beyond it on the beam both need a 2: from 9.0.0 the public roll record of the
    two is the same under fog blur (the cold pass over 8.0.0, F2); 8.0.0's words told which it was."""
    records = []
    for d, heading in ((150, 90), (300, 180)):
        s = launch(attack(d, heading, "shallow", fog="blur", edition=edition))
        c = ctx(s, [2, 3])
        torpedoes.resolve(c)
        done(c)
        roll = c.events[1]
        assert "<= 2" in roll.result.outcome
        records.append(roll.purpose)
    assert (records[0] != records[1]) is told
    assert records[0].startswith("Ikazuchi torpedoes at Poltava")
    s = launch(attack(150, 90, "shallow", fog="open", edition=edition))
    c = ctx(s, [2, 3])
    torpedoes.resolve(c)
    assert c.events[1].purpose == "Ikazuchi torpedoes at Poltava (ends, within half range)"  # open: nothing hidden


@pytest.mark.parametrize("edition", ["11.0.0", "10.0.0"])
def test_BF5_1_BFR27_BFE11_4_under_blur_a_launch_that_could_not_reach_says_so_without_why(edition):
    """BF-E11-4: out of arc, out of range and blocked come from the sealed exact poses; under fog blur the public reads
    `could_not_reach` for all three and the reason is sealed to the referee (the cold pass over 10.0.0, F4: Poltava's
    funnel 400 or 401 mm off, a 1 mm secret, flipped a rolled miss into `out_of_range`). 10.0.0 named the reason.
    Under fog open the reason stays public."""
    for setup, truth in (
        (lambda s: place(s, "Poltava", 1000, 1206, 0), "out_of_arc"),
        (lambda s: place(s, "Poltava", 1401, 1016, 0), "out_of_range"),
    ):
        s = launch(attack(150, 0, "shallow", fog="blur", edition=edition))
        setup(s)
        c = ctx(s)
        torpedoes.resolve(c)
        done(c)
        public = of(c, ev.TorpedoesResolved)[0].outcome
        sealed = [e for e in c.events if getattr(e, "kind", None) == "torpedo_runs"]
        if edition == "10.0.0":
            assert public == truth and not sealed
            continue
        assert public == "could_not_reach" and c.state.ships["Ikazuchi"].tubes["tubes"] == 0
        (record,) = sealed
        assert record.seat == "referee" and record.content["unreached"][0]["outcome"] == truth
    s = launch(attack(150, 0, "shallow", fog="open", edition=edition))
    place(s, "Poltava", 1401, 1016, 0)
    c = ctx(s)
    torpedoes.resolve(c)
    assert of(c, ev.TorpedoesResolved)[0].outcome == "out_of_range"


@pytest.mark.parametrize("fog, public", [("blur", ("could_not_reach", None, 0)), ("open", ("under", "normal", 0))])
def test_BF5_0_BFE11_4_under_blur_running_under_is_told_as_not_reaching_the_hull(fog, public):
    """BF:5.0: a normal-depth torpedo "will always miss vessels whose size is 4 or less" — decided once it reaches
    the target, which the sealed exact poses decide. Under fog blur from 11.0.0 the public reads `could_not_reach`
    (no die either way), its depth unnamed, and the referee's record says `under` (the cold pass over 11.0.0, F5:
    `under` against `could_not_reach` told the public the torpedo had reached). Under fog open `under` stays."""
    s = make_state("torpedo-attack", step="torpedo", fog=fog)
    place(s, "Poltava", 1000, 1000, 0)  # side tubes: the starboard pair bears east
    place(s, "Ikazuchi", 1150, 1010, 0)
    s.sealed["russia"].pending["launch_torpedoes"] = {
        "launches": [{"ship": "Poltava", "mount": "tubes", "side": "starboard", "target": "Ikazuchi", "count": 2}]
    }
    c = ctx(s)
    torpedoes.resolve(c)
    done(c)
    r = of(c, ev.TorpedoesResolved)[0]
    assert (r.outcome, r.depth, r.hits) == public
    sealed = [e for e in c.events if getattr(e, "kind", None) == "torpedo_runs"]
    assert [x["outcome"] for e in sealed for x in e.content["unreached"]] == (["under"] if fog == "blur" else [])
