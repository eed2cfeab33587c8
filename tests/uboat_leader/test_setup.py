"""PREPARACIÓN: selecting the U-boats (UL-8, UL-R2, UL-42) and the options of a game."""

from __future__ import annotations

import pytest

from domain.engine import IllegalCommand, InvalidInput
from domain.uboat_leader.commands import PickArg
from domain.uboat_leader.rules.setup import eligible, why_not_select
from events import uboat_leader as ev
from service.rulesets import RULESETS
from tests.conftest import Table
from tests.uboat_leader.scenario import DATA, data_with, new_state

EX = [("U-43", "trained"), ("U-47", "trained"), ("U-51", "trained"), ("U-56", "ace")]


def picks(*pairs, port="germany"):
    return [{"boat": b, "level": lv, "port": port} for b, lv in pairs]


def test_UL8_the_texts_example_fleet_costs_29_of_32_SO_and_keeps_3():
    t = Table("uboat-leader")
    (sel, began) = [
        e for e in t.send("commander", "select_uboats", picks=picks(*EX)) if type(e).__name__ != "SeedLocked"
    ]
    assert isinstance(sel, ev.UBoatsSelected) and sel.so_half == 6  # 32 - (8 + 7 + 6 + 8) = 3 SO, in half-points
    assert isinstance(began, ev.SegmentBegan) and began.segment == "strategic"
    b = t.state.boats["U-47"]
    assert (b.ready["normal"], b.stored["normal"], b.ammo, b.where, b.space) == (5, 9, 6, "germany", "port")
    assert t.state.boats["U-56"].ammo == 0, "Types II and XXI carry no deck gun: no Ammo counter"


@pytest.mark.parametrize(
    "chosen, says",
    [
        ([("U-47", "trained"), ("U-47", "veteran")], "selected once"),
        ([("U-43", "ace"), ("U-47", "ace"), ("U-51", "ace")], "cost 33 SO"),
        ([("U-99", "trained")], "cannot serve"),
    ],
)
def test_UL8_each_boat_once_eligible_and_within_the_SO(chosen, says):
    s = new_state()
    assert says in why_not_select(s, [PickArg(**p) for p in picks(*chosen)])


def test_UL8_at_least_one_boat_and_ports_of_the_map():
    t = Table("uboat-leader")
    with pytest.raises(InvalidInput):
        t.send("commander", "select_uboats", picks=[])
    with pytest.raises(IllegalCommand) as e:
        t.send("commander", "select_uboats", picks=picks(("U-47", "trained"), port="lorient"))
    assert "not a Port box" in e.value.detail


def test_UL8_UL_R2_service_years_must_contain_the_campaigns_dates():
    s = new_state()
    assert all(eligible(s, u) for u in DATA.uboats)  # every stand-in boat served Sep-39 to May-40
    late = data_with(lambda d: d["uboats"][3].update(service=["1939-09", "1940-03"]))  # U-51 out before May 1940
    s = new_state(data=late)
    assert not eligible(s, late.uboat("U-51"))


def test_UL42_a_sheet_may_allow_only_some_classes():
    only = data_with(lambda d: d["campaigns"][0].update(classes=["VIIB", "IX"]))
    s = new_state(data=only)
    assert [u.boat for u in only.uboats if eligible(s, u)] == ["U-43", "U-47"]


def test_options_name_a_campaign_and_duration_the_data_set_has():
    loaded = RULESETS["uboat-leader"]
    for opts, says in (({"campaign": "happy-times"}, "no campaign"), ({"duration": "epic"}, "duration")):
        with pytest.raises(InvalidInput) as e:
            Table("uboat-leader", opts)
        assert says in e.value.detail
    with pytest.raises(InvalidInput):
        Table("uboat-leader", {}, seats=["a", "b"])
    assert loaded.ruleset.default_seats(None) == ["commander"]


def test_UL_R2_durations_give_1_2_4_patrols():
    assert [new_state(duration=d).dur.patrols for d in ("short", "medium", "long")] == [1, 2, 4]


def test_UL_R60_UL_E9_1_a_games_one_seat_is_commander_the_seat_its_rules_await():
    """The rules await `commander` by name: a game made with the seat 'nemo' (8.0.0 and earlier) awaited a seat it did
    not have, and refused every command from the one it had. From 9.0.0 such a game is not made; 8.0.0 still makes
    it, as its recorded games were made."""
    from domain import engine

    loaded = RULESETS["uboat-leader"]
    make = lambda seats, edition=None: engine.creation_events(  # noqa: E731
        loaded.ruleset, *loaded.data_for(edition), "g-ul", {}, seats, "fair", bytes(32), None, None, edition
    )
    with pytest.raises(InvalidInput) as e:
        make(["nemo"])
    assert e.value.code == "invalid-seats" and "['commander'] (UL-E9-1)" in e.value.detail
    assert make(["commander"])[0].seats == make(None)[0].seats == ["commander"]
    assert make(["nemo"], "8.0.0")[0].seats == ["nemo"]
