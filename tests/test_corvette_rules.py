"""corvette-command: each rule (CC-n) and ruling (CC-Rn) of docs/rules/corvette-command.md, with chosen faces."""

from __future__ import annotations

import copy

import msgspec
import pytest

from domain import engine
from domain.corvette_command import views
from domain.corvette_command.editions import EDITIONS
from domain.corvette_command.rules import asw, attack, hazards, movement, port, random_events, setup, victory, weather
from domain.corvette_command.rules.resolution import matching, target, task
from domain.corvette_command.state import STATIONS, ymd
from domain.dice import ChosenDice
from domain.engine import IllegalCommand, Rejected
from events import corvette_command as ev
from events.core import GameEnded
from tests.conftest import Table
from tests.corvette import (
    DATA,
    PurposeDice,
    ctx,
    done,
    make_state,
    of,
    only,
    purposes,
    queue_of,
    roll,
    rolls,
    waiting,
)

# ---- CC-1, CC-2: the Resolution Table ---------------------------------------------------------------


@pytest.mark.parametrize("active,passive,need", [(2, 3, 9), (2, 4, 8), (3, 3, 10), (5, 1, 14), (1, 4, 7)])
def test_CC1_the_five_worked_examples_of_the_resolution_table(active, passive, need):
    assert target(active, passive) == need
    assert task(ChosenDice(need), "t", "r", active, passive).success
    assert not task(ChosenDice(need + 1), "t", "r", active, passive).success


def test_CC2_task_harder_adds_to_the_passive_and_task_easier_to_the_active():
    harder = task(ChosenDice(8), "t", "r", 2, 3, [("damaged", 1, "passive")])
    assert harder.roll.result.target == 8 and harder.success  # the text: 2 vs 4 -> 8 or less
    easier = task(ChosenDice(10), "t", "r", 2, 3, [("help", 1, "active")])
    assert easier.roll.result.target == 10 and easier.success  # 3 vs 3 -> 10 or less


def test_CCR2_a_certain_task_is_still_rolled_and_recorded():
    t = task(ChosenDice(1), "t", "r", 1, 20)
    assert t.roll.result.target == -9 and not t.success and t.roll.faces == [1]


# ---- setup: CC-3 .. CC-10 -------------------------------------------------------------------------


def begin(side="canada", **chosen):
    s = make_state()
    s.convoy = None
    s.awaiting = None
    c = ctx(s)
    c.dice = PurposeDice(chosen)
    setup.begin_campaign(c, side)
    return c


def test_CC3_crew_skills_a_six_starts_at_2():
    c = begin(**{"crew-skills": [[6, 1, 2, 3, 5, 6]]})
    assert c.state.sheets["captain"].skills == {
        "lookout": 2,
        "asdic": 1,
        "aa": 1,
        "gun": 1,
        "depth_charge": 1,
        "engineer": 2,
    }


def test_CC4_CC6_stores_and_the_uboat_deck_all_VII_and_two_IX():
    c = begin()
    (began,) = of(c, ev.CampaignBegan)
    assert began.depth_charges == 25
    assert began.uboat_deck == [u.id for u in DATA.uboats if u.type == "VII"] and began.type_ix_face_down == 2
    assert not [r for r in rolls(c) if "uboat" in r.purpose or "ix" in r.purpose]  # nothing drawn before a draw


def test_CC6_CCR42_a_uboat_is_drawn_over_the_cards_left_a_face_down_type_ix_among_those_unseen():
    s = waiting(make_state())
    nines = [u.id for u in DATA.uboats if u.type == "IX"]
    s.decks["uboats"], s.type_ix_face_down = ["U-47", "U-48"], 2
    s.discards["uboats"] = [nines[0]]  # seen already: not one of the face-down two
    c = ctx(s, 2, [1, 1])  # the second of U-47, U-48, face-down, face-down; the surface roll
    attack.start_engagement(c)
    assert roll(c, "draw-uboat").sides == [4] and c.state.engagement.uboat == "U-48" and done(c)
    c = ctx(s, 4, 3, [1, 1])  # a face-down Type IX: which, among the three not seen; the surface roll
    attack.start_engagement(c)
    card = nines[1:][2]
    assert roll(c, "draw-type-ix").sides == [3] and (c.state.decks["uboats"], c.state.type_ix_face_down) == (
        ["U-47", "U-48"],
        1,
    )
    assert (of(c, ev.UBoatSighted) or of(c, ev.UBoatStandsOff))[0].uboat == card


def test_CC37_CCR42_a_deck_run_out_takes_its_discards_back_with_no_order():
    s = waiting(make_state())
    s.decks["uboats"], s.type_ix_face_down = [], 0
    s.discards["uboats"] = ["U-99", "U-47"]
    c = ctx(s, 2)  # over U-47, U-99 (the data set's order): U-99, C, close, no surface roll
    attack.start_engagement(c)
    (back,) = of(c, ev.DeckReformed)
    assert sorted(back.cards) == ["U-47", "U-99"] and c.state.engagement.uboat == "U-99"
    assert c.state.decks["uboats"] == ["U-47"] and done(c)


def test_CC5_CCR42_counters_per_zone_face_down_with_no_order():
    c = begin()
    placed = {p.zone: (p.u, p.r, p.blank) for p in of(c, ev.CountersPlaced)}
    assert placed == {"canadian": (1, 1, 9), "air-gap": (6, 1, 8), "western-approaches": (2, 1, 7)}
    assert not [p for p in purposes(c) if "counter" in p]  # no shuffle: each is drawn when its box is revealed


@pytest.mark.parametrize("face,kind", [(1, "U"), (6, "U"), (7, "R"), (8, "blank"), (15, "blank")])
def test_CC16_CCR42_a_box_revealed_draws_its_counter_from_what_is_left_of_its_zone(face, kind):
    s = make_state(position=(0, 3))  # the Air Gap: 6 U, 1 R, 8 blank, counted in that order
    c = ctx(s, face, *([9] if kind == "R" else []))  # an R: the random event (9, Quiet watch)
    random_events.reveal(c)
    assert roll(c, "draw-counter").sides == [15] and of(c, ev.CounterRevealed)[0].kind == kind
    assert c.state.pools["air-gap"][kind] == {"U": 6, "R": 1, "blank": 8}[kind] - 1


@pytest.mark.parametrize(
    "side,ports,direction", [("canada", {"Halifax", "St John's"}, "east"), ("liverpool", {"Liverpool"}, "west")]
)
def test_CC7_CCR12_the_first_convoy_sails_from_the_chosen_side_and_its_codes_port(side, ports, direction):
    c = begin(side)
    (a,) = of(c, ev.ConvoyAssigned)
    assert a.start_port in ports and a.direction == direction
    assert a.start_port == {"HX": "Halifax", "SC": "St John's", "ON": "Liverpool", "OB": "Liverpool"}[a.code]


@pytest.mark.parametrize("year,base", [(1941, 30), (1942, 40), (1943, 50), (1944, 50)])
def test_CC8_convoy_size_by_year(year, base):
    s = make_state(year=year)
    s.decks = {"convoys": [x.id for x in DATA.convoys], "orders": [o.id for o in DATA.orders], "uboats": []}

    c = ctx(s)
    c.dice = PurposeDice({"convoy-size": [[7, 9]]})
    setup.new_convoy(c, "canada")
    assert of(c, ev.ConvoyAssigned)[0].size == base + 16


@pytest.mark.parametrize(
    "roll,month,expected",
    [
        (5, 4, "good"),
        (6, 4, "poor"),
        (5, 11, "poor"),
        (6, 7, "good"),
        (10, 1, "fog"),
        (15, 2, "storm"),
        (20, 7, "storm"),
        (1, 7, "good"),
    ],
)
def test_CC10_the_forecast_with_the_months_modifier(roll, month, expected):
    c = ctx(make_state(month=month), roll)
    weather.forecast(c)
    assert of(c, ev.WeatherSet)[0].weather == expected


# ---- CC-11, CC-9, CC-R11: movement -----------------------------------------------------------------


def test_CC11_fast_convoys_move_forward_diagonally_or_sideways():
    s = make_state(position=(1, 4), speed="fast")
    assert sorted(str(m["to"]) for m in movement.legal_moves(s)) == sorted(
        str(x) for x in [[0, 5], [1, 5], [2, 5], [0, 4], [2, 4]]
    )


@pytest.mark.parametrize(
    "speed,weather,half", [("fast", "good", 2), ("fast", "storm", 3), ("slow", "poor", 3), ("slow", "storm", 4)]
)
def test_CC11_days_per_box(speed, weather, half):
    assert movement.half_days(speed, weather) == half


def test_CC9_the_orders_channel_leaving_liverpool_and_entering_the_western_approaches():
    s = make_state(position=(1, 8), direction="east")  # the Air Gap; (2, 8) and (x, 9) are Western Approaches
    s.convoy.channel = 0
    assert {str(m["to"]) for m in movement.legal_moves(s)} == {"[0, 9]", "[0, 8]"}  # into the WA: channel 0 only
    w = make_state(direction="west")
    w.convoy.position, w.convoy.channel, w.convoy.destination = "Liverpool", 2, "Halifax"
    assert movement.legal_moves(w) == [{"to": [2, 11]}]
    with pytest.raises(IllegalCommand):
        movement.check_move(w, [0, 11])


def test_CC11_into_port_from_a_box_beside_it():
    s = make_state(position=(1, 11))
    assert {"to": "Liverpool"} in movement.legal_moves(s)


# ---- CC-12: every weather transition ---------------------------------------------------------------


@pytest.mark.parametrize(
    "before,faces,after",
    [
        ("good", [4, 2], "good"),
        ("good", [2, 4], "poor"),
        ("good", [3, 3], "good"),
        ("poor", [5, 1], "good"),
        ("poor", [1, 6], "fog"),
        ("poor", [6, 6], "poor"),
        ("fog", [6, 5], "poor"),
        ("fog", [2, 3], "storm"),
        ("fog", [1, 1], "fog"),
        ("storm", [3, 1], "fog"),
        ("storm", [1, 2], "storm"),
        ("storm", [4, 4], "storm"),
    ],
)
def test_CC12_black_minus_white_moves_the_weather_one_step(before, faces, after):
    c = ctx(make_state(weather=before), faces)
    weather.change(c)
    assert of(c, ev.WeatherSet)[0].weather == after and done(c)


@pytest.mark.parametrize(
    "profile,weather_now,rng",
    [
        ("L/M/C", "good", 2),
        ("L/M/C", "poor", 1),
        ("L/M/C", "fog", 0),
        ("L/M", "good", 2),
        ("L/M", "poor", 1),
        ("L/M", "fog", None),
        ("M/C", "good", 1),
        ("M/C", "poor", 1),
        ("M/C", "fog", 0),
        ("C", "good", 0),
        ("C", "storm", None),
        ("L/M/C", "storm", None),
    ],
)
def test_CC18_CC12_the_attack_range_from_the_card_and_the_weather(profile, weather_now, rng):
    assert attack.attack_range(profile, weather_now) == rng


# ---- CC-14, CC-15, CC-33: hazards ------------------------------------------------------------------


def test_CC14_collision_only_in_fog_1_two_convoy_stragglers():
    c = ctx(make_state(weather="good"))
    hazards.collision(c, "captain")
    assert of(c, ev.CollisionChecked)[0].result == "none" and not rolls(c)
    c = ctx(make_state(weather="fog"), 1)
    hazards.collision(c, "captain")
    assert (of(c, ev.CollisionChecked)[0].result, c.state.convoy.stragglers) == ("convoy", 2) and done(c)


def test_CC14_collision_20_damages_the_corvette_and_leaves_one_straggler():
    c = ctx(make_state(weather="fog"), 20, 4, 2)  # collision 20; damage location 4 (4" gun); difficulty 2
    hazards.collision(c, "captain")
    assert c.state.convoy.stragglers == 1 and c.state.sheet.harder == {"gun": [2]} and done(c)


def test_CC14_radar_offers_one_re_roll_and_the_second_result_stands():
    s = make_state(weather="fog", equipment=["radar"])
    c = ctx(s, 1)
    hazards.collision(c, "captain")
    assert c.state.awaiting == "collision_reroll" and not of(c, ev.CollisionChecked)
    c2 = ctx(c.state, 20, 1, 3)  # re-roll: 20 (worse!), damage location 1, difficulty 3
    hazards.resume_collision(c2, "captain", reroll=True)
    (checked,) = of(c2, ev.CollisionChecked)
    assert (
        checked.result == "corvette"
        and checked.rerolled
        and roll(c2, "collision-reroll").rerolls == c.events[0].k
        and done(c2)
    )


@pytest.mark.parametrize(
    "weather_now,face,failed", [("good", 1, True), ("good", 2, False), ("storm", 2, True), ("storm", 3, False)]
)
def test_CC15_mechanical_failure_on_1_or_1_2_in_a_storm(weather_now, face, failed):
    faces = [face] + ([2, 1, 1, 6, 3] if failed else [])  # 1d3 = 2 areas: lookout (diff 1), engineer (diff 3)
    c = ctx(make_state(weather=weather_now), *faces)
    hazards.mechanical(c, "captain")
    assert of(c, ev.MechanicalChecked)[0].failure == failed and done(c)
    if failed:
        assert c.state.sheet.harder == {"lookout": [1], "engineer": [3]}


@pytest.mark.parametrize(
    "equipment,faces,area",
    [
        ((), [2, 1], "asdic"),
        (("radar",), [2, 1], "asdic"),  # without the operators option: no sub-roll (CC-R25)
        (("radar", "operators"), [2, 3, 1], "radar"),
        (("radar", "operators"), [2, 4, 1], "asdic"),
        (("radar", "hfdf", "operators"), [2, 2, 1], "asdic"),
        (("radar", "hfdf", "operators"), [2, 3, 1], "radar"),
        (("radar", "hfdf", "operators"), [2, 6, 1], "hfdf"),
        (("hedgehog",), [5, 1, 1], "hedgehog"),
        (("hedgehog",), [5, 2, 1], "depth_charge"),
        ((), [3, 1], "aa"),
    ],
)
def test_CC33_CCR25_the_ship_damage_table_and_its_sub_rolls(equipment, faces, area):
    operators = {"radar_hfdf_operators": "operators" in equipment}
    c = ctx(make_state(equipment=[e for e in equipment if e != "operators"], options=operators), *faces)
    assert hazards.damage_area(c, "test", "captain") == area and c.state.sheet.harder == {area: [1]} and done(c)


# ---- CC-32: repairs --------------------------------------------------------------------------------


def test_CC32_one_repair_attempt_engineer_vs_the_counters_difficulty():
    s = make_state(skills={"engineer": 2})
    s.sheet.harder = {"asdic": [3, 1]}
    c = ctx(s, 9)  # engineer 2 vs difficulty 3: 9 or less
    hazards.repair(c, "captain", "asdic")
    assert c.state.sheet.harder == {"asdic": [1]} and roll(c, "repair").result.target == 9 and done(c)
    c = ctx(s, 10)
    hazards.repair(c, "captain", "asdic")
    assert c.state.sheet.harder == {"asdic": [3, 1]}


def test_CC32_damaged_engineering_makes_repairs_harder_and_splice_the_mainbrace_easier():
    s = make_state(skills={"engineer": 1})
    s.sheet.harder = {"engineer": [2], "gun": [1]}
    s.convoy.repair_bonus = True
    c = ctx(s, 10)  # 1 +1 (bonus) vs 1 +1 (engineering counter): 10
    hazards.repair(c, "captain", "gun")
    assert roll(c, "repair").result.target == 10 and "gun" not in c.state.sheet.harder


# ---- CC-16, CC-17: counters and random events --------------------------------------------------------


@pytest.mark.parametrize("weather_now,pending", [("poor", 1), ("storm", 0)])
def test_CC16_a_U_counter_brings_an_attack_unless_in_a_storm(weather_now, pending):
    s = only(make_state(weather=weather_now, position=(0, 3)), "air-gap", "U")
    c = ctx(s)
    random_events.reveal(c)
    assert c.state.pending_uboats == pending


def test_CCR35_a_counter_acts_once():
    s = only(make_state(position=(0, 3)), "air-gap", "U")
    c = ctx(s)
    random_events.reveal(c)
    assert c.state.pending_uboats == 1
    c.state.queue = []
    c2 = ctx(c.state)
    random_events.reveal(c2)
    assert of(c2, ev.CounterRevealed)[0].kind == "spent" and c2.state.pending_uboats == 0


def test_CC17_CCR26_luck_of_the_irish_gives_a_re_roll_of_the_next_failed_search():
    s = only(make_state(position=(0, 3)), "air-gap", "R")
    c = ctx(s, 1)
    random_events.reveal(c)
    assert c.state.convoy.luck and of(c, ev.RandomEventDrawn)[0].name == "Luck of the Irish"
    e = make_state(engagement={"range": 1, "evade": 3})
    e.convoy.luck = True
    c = ctx(e, 15, 5)  # fails (target 8), the re-roll 5 succeeds
    asw.detect(c)
    again = roll(c, "asdic-detection", 1)
    assert of(c, ev.DetectionResolved)[0].detected and again.rerolls == roll(c, "asdic-detection").k
    assert not c.state.convoy.luck


def test_CC17_CCR13_men_in_the_water_torpedo_on_a_1_but_never_in_fog():
    s = only(make_state(weather="fog", position=(0, 3)), "air-gap", "R")
    c = ctx(s, 2)
    random_events.reveal(c)
    assert of(c, ev.EffectApplied)[0].effect == "nothing" and done(c)
    s.convoy.weather = "good"
    # event 2, rescue roll 1 -> torpedo from close: lookout and ASDIC at close, then the manoeuvre (made)
    c = ctx(s, 2, 1, 1, 1, 1)
    random_events.reveal(c)
    assert of(c, ev.TorpedoResolved)[0].hit is False and done(c)


def test_CC17_oil_slick_sub_roll_adds_a_straggler():
    s = only(make_state(position=(0, 3)), "air-gap", "R")
    c = ctx(s, 3, 5)
    random_events.reveal(c)
    assert c.state.convoy.stragglers == 1 and done(c)


# ---- CC-19, CC-42: surfaced or submerged -------------------------------------------------------------


@pytest.mark.parametrize(
    "total,surfaced,night",
    [
        (2, False, True),
        (3, False, True),
        (4, True, True),
        (7, True, True),
        (8, False, False),
        (10, False, False),
        (11, True, False),
        (12, True, False),
    ],
)
def test_CC19_the_2d6_surface_table(total, surfaced, night):
    assert attack.surfaced_from_2d6(total) == (surfaced, night)


def test_CC19_at_close_range_only_fog_gives_a_surface_roll():
    s = make_state(weather="good")
    waiting(s)
    s.decks["uboats"] = ["U-99"]  # profile C: close
    c = ctx(s)
    attack.start_engagement(c)
    assert c.state.engagement.range == 0 and not c.state.engagement.surfaced and not rolls(c)


@pytest.mark.parametrize(
    "dice,month,hour,night",
    [((1, 1), 1, 0, True), ((3, 2), 7, 7, False), ((5, 6), 7, 23, True), ((4, 6), 7, 17, False), ((3, 1), 11, 6, True)],
)
def test_CC42_CCR16_time_of_contact(dice, month, hour, night):
    assert attack.hour_of_contact(*dice) == hour and attack.dark(month, hour) == night


def test_CC42_surfaced_on_the_d6_by_day_6_by_night_3_to_6():
    s = make_state(options={"time_of_contact": True}, month=7)
    waiting(s)
    s.decks["uboats"] = ["U-48"]  # L/M/C at long
    c = ctx(s, [2, 5], [1, 10], 3)  # 04:00 in July: dark (04:00 with the minutes); 3 -> surfaced
    attack.start_engagement(c)
    assert c.state.engagement.surfaced and c.state.engagement.night and done(c)


# ---- CC-20, CC-21, CC-13: spotting and gunnery --------------------------------------------------------


def test_CC20_spotting_modifiers_night_long_poor():
    s = make_state(
        weather="poor", engagement={"range": 2, "surfaced": True, "night": True, "step": "spot"}, skills={"lookout": 3}
    )
    c = ctx(s, 1)
    attack.spot(c)
    r = roll(c, "lookout-spotting").result
    assert (r.active, r.passive, r.target) == (3, 4 + 3 + 3 + 2, 1) and of(c, ev.SpottingResolved)[0].spotted


def test_CCR3_CCR17_radar_or_hfdf_success_gives_plus_2_lookout_once():
    s = make_state(
        equipment=["radar", "hfdf"],
        engagement={"range": 0, "surfaced": True, "step": "spot", "evade": 3},
        skills={"asdic": 2},
    )
    c = ctx(s, 5, 5, 12)  # radar 2 vs 3: 9 ok; hfdf ok; lookout 1+1(close)+2 vs 4 -> 10... face 12 fails
    attack.spot(c)
    look = roll(c, "lookout-spotting").result
    assert look.active == 4 and look.target == 10 and not of(c, ev.SpottingResolved)[0].spotted


def test_CC13_gun_damage_dice_d10_when_skill_at_most_evade_else_d6():
    roll, hits = matching(ChosenDice([5, 5, 5, 2]), 2, 3, 3, "gun-damage", "r")
    assert roll.sides == [10, 6, 6, 6] and hits == 2
    roll, hits = matching(ChosenDice([4, 4, 1]), 4, 3, 2, "aa-damage", "r")
    assert roll.sides == [6, 6, 6] and hits == 1


def test_CC21_CCR4_4in_two_shots_at_long_AA_not_at_long_then_crash_dive_to_card_range():
    s = make_state(
        engagement={"range": 2, "surfaced": True, "step": "guns", "profile": "L/M/C", "uboat": "U-48", "evade": 3},
        skills={"gun": 3},
    )
    c = ctx(s, 7, [6, 6, 6, 1], 8)  # 3 vs 3+3 at long: 7 hits (damage d10 6: two d6 match), then 8 misses
    attack.fire_guns(c)
    g = of(c, ev.GunneryResolved)[0]
    assert [sh.gun for sh in g.shots] == ["gun", "gun"] and g.hits == 2 and c.state.engagement.hits == 2
    assert of(c, ev.UBoatDived)[0].range == 2 and not c.state.engagement.surfaced and done(c)


def test_CC21_four_gun_hits_in_all_are_a_possible_kill():
    s = make_state(
        engagement={"range": 0, "surfaced": True, "step": "guns", "hits": 2, "evade": 3}, skills={"gun": 3, "aa": 3}
    )
    c = ctx(s, 1, [5, 5, 5, 1], 20, 20, 20, 20)  # 4" hit with 2 damage; then misses
    attack.fire_guns(c)
    assert c.state.engagement.step == "gone" and c.state.engagement.grade == "possible" and not of(c, ev.UBoatDived)


# ---- CC-23, CC-24, CC-25: the attack ------------------------------------------------------------------


def test_CC23_CCR5_attack_5_at_medium_needs_14_close_plus_1_long_vs_2():
    s = make_state(engagement={"range": 1, "step": "attack", "attack": 5})
    c = ctx(s, 2, 14, [3, 5])  # target roll 2: the convoy; 14 hits; tonnage 9,000 - 5,000
    attack.attack(c)
    assert roll(c, "uboat-attack").result.target == 14 and of(c, ev.ShipLost)[0].tonnage == 4000 and done(c)
    s.engagement.range = s.engagement.designated = 0
    c = ctx(s, 2, 16)
    attack.attack(c)
    assert roll(c, "uboat-attack").result.target == 15 and not of(c, ev.ShipLost)
    s.engagement.range = s.engagement.designated = 2
    c = ctx(s, 2, 13, [2, 1])
    attack.attack(c)
    assert roll(c, "uboat-attack").result.target == 13 and of(c, ev.ConvoyAttacked)[0].hit


@pytest.mark.parametrize(
    "double,second,tons,vital",
    [
        (1, [3, 4], 7000, "ammunition ship"),
        (2, [6, 6], 12000, "tanker"),
        (3, [1, 1], 3000, "tanker"),
        (5, [2, 2], 7000, "tanker"),
        (6, None, 1700, "rescue ship"),
    ],
)
def test_CC24_doubles_are_vital_ships(double, second, tons, vital):
    faces = [[double, double]] + ([second] if second else [])
    c = ctx(make_state(), *faces)
    assert attack.tonnage(c) == (tons, vital) and done(c)


def test_CC24_CCR10_a_vital_ship_delays_the_next_equipment_a_month():
    s = make_state(year=1941, month=5)
    c = ctx(s, [6, 6])
    attack.ship_lost(c, "test")
    assert c.state.delays == {"radar": 1}


def test_CC25_a_1_on_the_target_roll_torpedoes_the_corvette():
    s = make_state(engagement={"range": 1, "step": "attack"})
    # target 1; medium: lookout, asdic; close: lookout, asdic; manoeuvre made
    c = ctx(s, 1, 20, 20, 20, 20, 1)
    attack.attack(c)
    assert of(c, ev.ConvoyAttacked)[0].target == "corvette" and len(of(c, ev.TorpedoTracked)) == 2 and done(c)


@pytest.mark.parametrize("row,areas", [(1, 0), (3, 0), (4, 1), (5, 2), (6, 3)])
def test_CC25_each_torpedo_damage_row(row, areas):
    s = make_state()
    faces = [20, 20, 20] + [row, 1] + [1, 1] * areas  # lookout, asdic, manoeuvre fails; damage row; 1 hull; areas
    c = ctx(s, *faces)
    attack.torpedo_at_corvette(c, start_range=0)
    (t,) = of(c, ev.TorpedoResolved)
    assert (t.hit, t.areas, c.state.sheet.hull) == (True, areas, 1) and len(of(c, ev.AreaDamaged)) == areas and done(c)


def test_CC25_three_hull_damage_sinks_the_corvette():
    s = make_state()
    s.sheet.hull = 1
    c = ctx(s, 20, 20, 20, 2, 2)
    attack.torpedo_at_corvette(c, 0)
    assert of(c, ev.HullDamaged)[0].sunk and of(c, GameEnded) and c.state.over


def test_CCR6_lookout_spots_help_the_manoeuvre_and_hull_and_engineering_hurt_it():
    s = make_state()
    s.sheet.hull = 1
    s.sheet.harder = {"engineer": [1]}
    c = ctx(s, 1, 20, 1, 20, 10)  # medium: lookout sees it, ASDIC not; close: the same; then the manoeuvre
    attack.torpedo_at_corvette(c, 1)
    final = roll(c, "torpedo-manoeuvre").result
    assert (
        (final.active, final.passive) == (4 + 2, 4 + 1 + 1)
        and final.target == 10
        and not of(c, ev.TorpedoResolved)[0].hit
    )


def test_CC40_CCR18_falke_from_march_1943_unless_foxer():
    s = make_state(year=1943, month=4)
    c = ctx(s, 20, 20, 1)
    attack.torpedo_at_corvette(c, 0)
    assert roll(c, "torpedo-manoeuvre").result.passive == 6  # 4 + Falke 2
    s = make_state(year=1943, month=6, equipment=["foxer"])
    c = ctx(s, 20, 20, 1)
    attack.torpedo_at_corvette(c, 0)
    assert roll(c, "torpedo-manoeuvre").result.passive == 4


# ---- CC-26, CC-27, CC-R7: detection and range ---------------------------------------------------------


def test_CC26_asdic_1_vs_evade_4_at_medium_needs_7():
    s = make_state(engagement={"range": 1, "evade": 4})
    c = ctx(s, 7)
    asw.detect(c)
    (d,) = of(c, ev.DetectionResolved)
    assert roll(c, "asdic-detection").result.target == 7 and d.detected and d.range == 0


@pytest.mark.parametrize("rng,consecutive,need", [(0, 0, 10), (2, 0, 8), (2, 1, 11)])
def test_CC26_close_plus_1_long_plus_1_to_the_uboat_consecutive_plus_3(rng, consecutive, need):
    s = make_state(engagement={"range": rng, "evade": 2, "consecutive": consecutive})
    c = ctx(s, 20)
    asw.detect(c)
    assert roll(c, "asdic-detection").result.target == need


def test_CC27_a_search_found_at_medium_brings_it_to_close_and_it_must_be_found_again_before_a_pattern():
    # L168: "either move the submarine counter one range band closer ... or if it is in Close range commence Depth
    # Charge attacks"; L171: "+3 ... until you get the U-Boat back into Close range. If the ASDIC operator detects
    # the U-Boat in Close range then commence Depth Charge attacks"
    s = make_state(engagement={"range": 1, "evade": 3})
    c = ctx(s, 1)
    asw.detect(c)
    g = c.state.engagement
    assert (g.range, g.consecutive, g.step) == (0, 1, "detect")  # at close now, not yet attacked
    c2 = ctx(c.state, 20)
    asw.detect(c2)
    assert roll(c2, "asdic-detection").result.target == 10 + 1 + 1 + 3 - 3  # close +1, consecutive +3
    c2 = ctx(c.state, 1)
    asw.detect(c2)
    assert c2.state.engagement.step == "pattern"  # found at close: the pattern


def test_CC26_CC27_the_search_entry_says_where_the_uboat_is_and_what_a_success_does():
    """A play trial: "Sweep with the ASDIC" came again after each success, eight times, and nothing said why (L168:
    each success moves it "one range band closer ... or if it is in Close range commence Depth Charge attacks")."""
    from domain.corvette_command.awaiting import legal_commands

    def label(**engagement) -> str:
        s = make_state(engagement={"step": "detect", **engagement})
        s.awaiting = "detect"
        (entry,) = [e for e in legal_commands(s) if e.type == "detect"]
        return entry.labels[0]

    assert label(range=2) == "Sweep with the ASDIC: the U-boat at long range; a success brings it to medium range"
    assert label(range=1, consecutive=1).endswith("at medium range, contact held (+3); a success brings it to close range")
    assert label(range=0, consecutive=1).endswith("at close range, contact held (+3); a success starts your attack")


def test_CC27_a_failed_search_opens_one_band_two_with_damaged_engineering_beyond_long_it_evades():
    s = make_state(engagement={"range": 1})
    c = ctx(s, 20)
    asw.detect(c)
    assert of(c, ev.DetectionResolved)[0].range == 2
    s.sheet.harder = {"engineer": [1]}
    c = ctx(s, 20)
    asw.detect(c)
    assert of(c, ev.DetectionResolved)[0].range == 3 and c.state.engagement.step == "evaded"


def test_CC27_CCR14_not_yet_depth_charged_it_attacks_again_after_a_failed_search():
    s = make_state(engagement={"range": 0, "attacks_left": 2})
    c = ctx(s, 20)
    asw.detect(c)
    assert c.state.engagement.step == "attack"
    s.engagement.depth_charged = True
    c = ctx(s, 20)
    asw.detect(c)
    assert c.state.engagement.step == "detect"


def test_CCR7_after_a_pattern_only_the_close_plus_1_after_a_hedgehog_miss_plus_4():
    s = make_state(engagement={"range": 0, "evade": 3, "consecutive": 2}, equipment=["hedgehog"])
    c = ctx(s, [1, 2, 3, 4, 5])  # depth charges: d10 1, no hits
    asw.drop_pattern(c, "depth-charges")
    c2 = ctx(c.state, 20)
    asw.detect(c2)
    assert roll(c2, "asdic-detection").result.target == 10 + 1 + 1 - 3
    c = ctx(s, [1, 2, 3, 4, 5])
    asw.drop_pattern(c, "hedgehog")
    c2 = ctx(c.state, 20)
    asw.detect(c2)
    assert roll(c2, "asdic-detection").result.target == 10 + 1 + 4 - 3


# ---- CC-22, CC-28, CC-29, CC-30: patterns, kills, boarding, awards --------------------------------------


def test_CC22_CCR19_pattern_dice_d10_plus_4d6_and_3d6_while_the_station_is_damaged():
    s = make_state(engagement={"range": 0, "evade": 3})
    c = ctx(s, [3, 3, 1, 2, 4])
    asw.drop_pattern(c, "depth-charges")
    assert roll(c, "depth-charges-pattern").sides == [10, 6, 6, 6, 6] and of(c, ev.PatternDropped)[0].hits == 1
    assert c.state.sheet.depth_charges == 24
    s.sheet.harder = {"depth_charge": [2]}
    s.sheet.skills["depth_charge"] = 4
    c = ctx(s, [3, 3, 3, 3])
    asw.drop_pattern(c, "depth-charges")
    assert roll(c, "depth-charges-pattern").sides == [6, 6, 6, 6] and of(c, ev.PatternDropped)[0].hits == 3


@pytest.mark.parametrize(
    "weapon,faces,before,grade,out,step",
    [
        ("depth-charges", [5, 5, 5, 5, 5], 0, "confirmed", True, "board"),
        ("depth-charges", [5, 5, 5, 5, 1], 0, "probable", False, "detect"),
        ("depth-charges", [5, 5, 5, 1, 1], 0, None, False, "detect"),
        ("depth-charges", [5, 5, 5, 1, 1], 2, "possible", True, "gone"),
        ("depth-charges", [5, 5, 5, 5, 1], 1, "probable", True, "gone"),
        ("hedgehog", [5, 5, 1, 1, 1], 0, "probable", False, "detect"),
        ("hedgehog", [5, 5, 5, 1, 1], 0, "confirmed", True, "gone"),  # no boarding after a Hedgehog kill
    ],
)
def test_CC28_CCR15_kill_grades(weapon, faces, before, grade, out, step):
    s = make_state(engagement={"range": 0, "hits": before}, equipment=["hedgehog"])
    c = ctx(s, faces)
    asw.drop_pattern(c, weapon)
    (p,) = of(c, ev.PatternDropped)
    assert (p.grade, p.out, c.state.engagement.step) == (grade, out, step)


def test_CC28_one_or_two_hits_it_will_not_attack_again_but_will_summon_3_in_a_pattern_it_will_not_summon():
    s = make_state(engagement={"range": 0})
    c = ctx(s, [5, 5, 1, 1, 1])
    asw.drop_pattern(c, "depth-charges")
    assert c.state.engagement.barred and c.state.engagement.summons
    c = ctx(s, [5, 5, 5, 5, 1])
    asw.drop_pattern(c, "depth-charges")
    assert c.state.engagement.barred and not c.state.engagement.summons


def test_CC30_awards_dsc_for_confirmed_mid_for_probable():
    s = make_state(engagement={"range": 0})
    c = ctx(s, [2, 2, 2, 2, 2])
    asw.drop_pattern(c, "depth-charges")
    assert [a.award for a in of(c, ev.AwardGranted)] == ["DSC"]
    c = ctx(s, [2, 2, 2, 2, 1])
    asw.drop_pattern(c, "depth-charges")
    assert [a.award for a in of(c, ev.AwardGranted)] == ["Mentioned in Despatches"]


@pytest.mark.parametrize("face,result", [(20, "enigma"), (1, "lost"), (10, "nothing")])
def test_CC29_boarding_for_the_enigma(face, result):
    s = make_state(engagement={"range": 0, "step": "board", "grade": "confirmed", "hits": 4})
    c = ctx(s, face)
    asw.board(c, "aa")
    assert of(c, ev.BoardingResolved)[0].result == result
    assert (c.state.sheet.officers_lost == ["aa"]) == (result == "lost")
    assert bool([a for a in of(c, ev.AwardGranted) if "King" in a.award]) == (result == "enigma")
    assert of(c, ev.UBoatLeft)[0].fate == "confirmed" and c.state.engagement is None and "U-47" in c.state.sunk_uboats
    if result == "lost":
        assert c.state.sheet.counters("aa") == 1  # the lost officer's station is now +1 Task Harder


# ---- CC-31: withdrawal and the wolfpack -----------------------------------------------------------------


@pytest.mark.parametrize("total,n", [(0, 0), (2, 0), (3, 1), (4, 2), (5, 2), (6, 3)])
def test_CC31_the_wolfpack_table(total, n):
    assert asw.wolfpack_size(total) == n


def test_CC31_damage_is_a_minus_1_per_point_and_wolfpack_uboats_do_not_summon():
    s = make_state(engagement={"range": 3, "step": "evaded", "attacks_left": 0, "hits": 2})
    c = ctx(s, 6)
    asw.evaded(c)
    (w,) = of(c, ev.WolfpackRolled)
    assert (w.roll, w.drm, w.uboats) == (6, -2, 2) and queue_of(c.state) == [("captain", True)] * 2
    s = make_state(engagement={"range": 3, "step": "evaded", "attacks_left": 0, "wolfpack": True, "summons": False})
    c = ctx(s)
    asw.evaded(c)
    assert of(c, ev.UBoatLeft)[0].summons is False and not of(c, ev.WolfpackRolled)


def test_CC31_CCR14_CCR40_an_unhurt_uboat_with_attacks_left_comes_back_to_its_designated_range():
    s = make_state(
        weather="poor",
        engagement={"range": 3, "designated": 1, "step": "evaded", "attacks_left": 1, "profile": "L/M/C"},
    )
    c = ctx(s)
    asw.evaded(c)
    assert of(c, ev.UBoatDived)[0].range == 1 and c.state.engagement.step == "attack"


# ---- CC-34..CC-39: port, crew, victory ------------------------------------------------------------------


def arrived(**kw):
    s = make_state(**kw)
    s.convoy.position, s.convoy.arrived = "Liverpool", True
    s.decks.update(convoys=[x.id for x in DATA.convoys], orders=[o.id for o in DATA.orders])
    return s


def test_CC34_CC35_CC36_CCR20_arrival_tech_delay_stragglers_turnaround():
    s = arrived()
    s.convoy.stragglers, s.convoy.ships_lost, s.convoy.tonnage = 2, 3, 20000
    s.sheet.harder, s.sheet.hull = {"gun": [1]}, 1
    c = ctx(s)
    c.dice = PurposeDice({"straggler": [6, 2], "tonnage": [[4, 1]], "tech-delay": [3], "turnaround": [3]})
    port.arrive(c)
    assert [e.survived for e in of(c, ev.StragglerResolved)] == [True]
    assert of(c, ev.ShipLost)[0].cause == "straggler" and c.state.log[0].tonnage == 29000
    t = of(c, ev.TechDelayRolled)[0]
    assert (t.roll, t.ships_sunk, t.delayed, t.equipment) == (3, 3, True, "radar")
    assert [(m.equipment, m.months) for m in of(c, ev.EquipmentDateMoved)] == [("radar", 1)]
    r = of(c, ev.ShipRepaired)[0]
    assert r.turnaround_days == 3 + 1 + 1 and c.state.sheet.hull == 0 and c.state.sheet.harder == {}


def test_CC37_the_next_convoy_sails_from_where_the_corvette_is():
    s = arrived()
    c = ctx(s)

    c.dice = PurposeDice({})
    port.arrive(c)
    assert c.state.convoy.start_port == "Liverpool" and c.state.convoy.number == 2 and not c.state.convoy.arrived


@pytest.mark.parametrize(
    "tons,vp",
    [
        (12_500, 3),
        (24_999, 3),
        (25_000, 2),
        (37_499, 2),
        (37_500, 1),
        (50_000, 0),
        (62_500, -1),
        (75_000, -2),
        (87_499, -2),
        (87_500, -3),
    ],
)
def test_CC39_CCR9_convoy_victory_points(tons, vp):
    for edition in EDITIONS.run:  # every edition agrees from 12,500 t up
        assert victory.convoy_vp(tons, EDITIONS.of(edition))[0] == vp, edition


def test_CC39_CCE53_under_12500_t_a_convoy_scores_4():
    """CC-39: "Under 24,999 | Should be Admiral of the Fleet | 3+"; every other row is 12,500 t wide and worth one VP
    more than the next (25,000-37,499: 2, 37,500-49,999: 1, ...), so 12,500-24,999 t scores 3 and under 12,500 t
    scores 4 (CC-E5-3). 4.0.0 scored 3 for all of it; the yearly column is unchanged."""
    for edition, vp in (("5.0.0", 4), ("4.0.0", 3)):
        s = arrived(edition=edition)
        s.convoy.ships_lost, s.convoy.tonnage = 2, 12_499
        c = ctx(s)
        c.dice = PurposeDice({"tech-delay": [20], "turnaround": [1]})
        port.arrive(c)
        (scored,) = of(c, ev.ConvoyScored)
        assert (scored.vp, scored.result) == (vp, "Should be Admiral of the Fleet"), edition
        assert c.state.years == {1941: vp}, edition


@pytest.mark.parametrize(
    "vp,status",
    [
        (7, "Should be Admiral of the Fleet"),
        (4, "Major Allied Victory"),
        (1, "Minor Allied Victory"),
        (0, "Stalemate"),
        (-3, "Minor German Victory"),
        (-6, "Major German Victory"),
        (-7, "Decisive German Victory"),
    ],
)
def test_CC39_yearly_status(vp, status):
    assert victory.year_status(vp) == status


def test_CC38_every_third_convoy_used_skills_may_grow_depth_charge_only_after_a_kill():
    s = arrived()
    s.convoys_done = 2
    s.sheet.used = {"asdic": True, "depth_charge": True}
    s.sheet.skills["asdic"] = 2

    c = ctx(s)
    c.dice = PurposeDice({"skill-growth-asdic": [4]})
    port.arrive(c)
    (review,) = of(c, ev.CrewReviewed)
    assert review.eligible == ["asdic"]  # no kill: no depth charge roll
    assert c.state.sheet.skills["asdic"] == 3  # 4 <= 6 - 2
    s.sheet.kill_since_review = True
    c = ctx(s)
    c.dice = PurposeDice({"skill-growth-asdic": [5], "skill-growth-depth_charge": [6]})
    port.arrive(c)
    assert of(c, ev.CrewReviewed)[0].eligible == ["asdic", "depth_charge"] and not of(c, ev.CrewImproved)


def test_CC45_quick_play_skills_and_result():
    assert [setup.quick_skill(f) for f in (6, 5, 4, 3, 2, 1)] == [3, 2, 2, 1, 1, 1]
    assert [victory.quick_result(t) for t in (20_000, 20_001, 30_000, 30_001)] == [
        "Victory",
        "You did your duty",
        "You did your duty",
        "Significant loss",
    ]


def quick_table(faces: list[int]):
    """A quick-play game through the engine, its six skill dice rolled as chosen, awaiting their allocation."""
    t = Table("corvette-command", options={"quick_play": {"direction": "east"}})
    t.send("captain", "start", faces)
    assert t.state.awaiting == "allocate_skills"
    return t


def allocates(t, skills: dict) -> bool:
    """Whether the rules take this allocation (judged, not applied)."""
    cmd = engine.parse_command(t.loaded.ruleset, {"type": "allocate_skills", "skills": skills})
    try:
        engine.decide_command(t.game, "captain", cmd, b"t")
    except Rejected:
        return False
    return True


def offered_allocations(control: dict) -> list[dict]:
    """Every allocation a nest of `variants` offers: a variant's fixed die, then each of what its own nest offers."""
    out = []
    for v in control["variants"]:
        rests = offered_allocations(v["controls"][0]) if v.get("controls") else [{}]
        out += [v["fixed"] | rest for rest in rests]
    return out


def test_CC45_past_64_allocations_each_station_takes_one_of_the_dice_left_one_per_skill():
    faces = [6, 5, 4, 3, 2, 1]  # 720 ways to give them, 60 different crews
    t = quick_table(faces)
    spec = t.legal()["allocate_skills"]
    assert spec.choices is None
    (group,) = msgspec.to_builtins(spec.ui)["controls"]
    assert (group["kind"], group["field"]) == ("group", "skills")
    offered = offered_allocations(group["controls"][0])
    crews = {tuple(setup.quick_skill(a[st]) for st in STATIONS) for a in setup.allocations(faces)}
    assert len(offered) == len(crews) == 60  # each different crew once: the dice of one skill are alike
    assert {tuple(setup.quick_skill(a[st]) for st in STATIONS) for a in offered} == crews
    assert all(list(a) == list(STATIONS) for a in offered)  # every station, each once
    assert all(allocates(t, a) for a in offered[:: len(offered) - 1])  # the first and the last offered
    first = offered[0]
    assert sorted(first.values()) == sorted(faces) and allocates(t, first)
    assert not allocates(t, first | {"engineer": first["lookout"]})  # one die twice, one never: refused


def test_CC45_every_allocation_offered_is_taken_by_the_rules():
    t = quick_table([6, 6, 4, 5, 1, 2])  # 360 ways, 90 crews (two dice of each skill): the most there can be
    (group,) = msgspec.to_builtins(t.legal()["allocate_skills"].ui)["controls"]
    offered = offered_allocations(group["controls"][0])
    assert len(offered) == 90 and all(allocates(t, a) for a in offered)


def test_CC45_up_to_64_allocations_are_listed_and_need_no_descriptor():
    t = quick_table([6, 6, 6, 1, 1, 1])  # 20 ways
    spec = t.legal()["allocate_skills"]
    assert len(spec.choices) == 20 and spec.ui is None


# ---- CC-40, CC-41, CC-43: dates and options --------------------------------------------------------------


def test_CC40_CCR22_equipment_is_fitted_from_its_date_and_slips_with_delays():
    s = make_state(year=1941, month=9)
    c = ctx(s)
    setup.fit_equipment(c)
    assert [e.equipment for e in of(c, ev.EquipmentFitted)] == ["radar"]
    s = make_state(year=1941, month=9)
    s.delays = {"radar": 1}
    c = ctx(s)
    setup.fit_equipment(c)
    assert not of(c, ev.EquipmentFitted)
    s = make_state(year=1942, month=11)
    c = ctx(s)
    setup.fit_equipment(c)
    assert [e.equipment for e in of(c, ev.EquipmentFitted)] == ["radar", "hedgehog", "hfdf"]
    assert c.state.sheet.hedgehog == 15


@pytest.mark.parametrize("year,month,face,plus", [(1942, 6, 3, 1), (1942, 6, 2, 0), (1942, 5, None, 0)])
def test_CC40_CCR32_decoys_from_june_1942_a_3_on_1d3_is_plus_1_evade_submerged(year, month, face, plus):
    s = make_state(year=year, month=month, engagement={"range": 0, "step": "attack", "evade": 3})
    c = ctx(s, *([face] if face else []), 2, 20)  # the decoy roll (from June 1942), at the convoy, missed
    attack.attack(c)
    assert asw.evade(c.state) == 3 + plus and done(c)


def test_CC41_operators_roll_their_skill_when_fitted():
    s = make_state(year=1941, month=9, options={"radar_hfdf_operators": True})
    c = ctx(s, 6)
    setup.fit_equipment(c)
    assert c.state.sheet.skills["radar"] == 2 and done(c)


@pytest.mark.parametrize(
    "year,month,opt,name",
    [(1942, 6, True, "revised-1942"), (1942, 5, True, "standard"), (1942, 6, False, "standard")],
)
def test_CC43_the_revised_map_from_june_1942_with_the_option(year, month, opt, name):
    s = make_state(year=year, month=month, options={"revised_map": opt})
    s.decks.update(convoys=[x.id for x in DATA.convoys], orders=[o.id for o in DATA.orders])
    c = ctx(s)
    c.dice = PurposeDice({})
    setup.new_convoy(c, "canada")
    assert of(c, ev.ConvoyAssigned)[0].map == name


# ---- rulings with no rule test of their own ------------------------------------------------------------


def test_CCR21_counters_are_placed_afresh_for_each_convoy():

    s = arrived()
    s.revealed = {"0,3": "U"}
    c = ctx(s)
    c.dice = PurposeDice({})
    port.arrive(c)
    assert [p.zone for p in of(c, ev.CountersPlaced)] == ["canadian", "air-gap", "western-approaches"]
    assert c.state.revealed == {}


def test_CCR23_a_uboat_the_weather_keeps_from_every_range_stands_off():
    s = make_state(weather="fog")
    waiting(s)
    s.decks["uboats"] = ["U-52"]  # L/M: never close, and fog allows close only
    c = ctx(s)
    attack.start_engagement(c)
    assert of(c, ev.UBoatStandsOff) and c.state.engagement is None and c.state.discards["uboats"] == ["U-52"]
    assert not rolls(c)


def test_CCR24_vp_count_for_the_year_of_arrival_and_a_year_is_scored_when_passed():
    import datetime

    s = arrived(year=1941, month=12)
    s.date = datetime.date(1941, 12, 29).toordinal()
    s.convoy.tonnage = 20_000  # 3 VP
    c = ctx(s)
    c.dice = PurposeDice({"tech-delay": [20], "turnaround": [6]})
    port.arrive(c)
    assert c.state.years == {1941: 3}
    (scored,) = of(c, ev.YearScored)
    assert (scored.year, scored.vp, scored.status) == (1941, 3, "Minor Allied Victory")


def _years_scored(c) -> list[tuple[int, int, str]]:
    return [(y.year, y.vp, y.status) for y in of(c, ev.YearScored)]


def test_CC39_CCR24_CCE41_a_year_that_ends_at_sea_is_scored_when_it_ends():
    """CC-39: "at the end of a year total up the VP and compare them to the Yearly Victory Condition". The convoy
    sails on 31 December 1941 with 3 VP logged for 1941; the box it enters takes it into 1942."""
    import datetime

    for edition, scored in (("4.0.0", [(1941, 3, "Minor Allied Victory")]), ("3.0.0", [])):
        s = make_state(year=1941, month=12, edition=edition)
        s.date = datetime.date(1941, 12, 31).toordinal()
        s.years = {1941: 3}
        c = ctx(s)
        movement.move(c, movement.legal_moves(s)[0]["to"])
        assert ymd(c.state.date)[0] == 1942
        assert _years_scored(c) == scored, edition  # 3.0.0: waits for the next turnaround that passes a year


def test_CC39_CCR24_CCE41_a_campaign_ended_by_the_corvette_sinking_scores_its_year():
    """CC-39, CC-R24: the campaign's end scores the year it ends in, also when the corvette goes down."""
    for edition, scored in (("4.0.0", [(1942, 2, "Minor Allied Victory")]), ("3.0.0", [])):
        s = make_state(year=1942, month=3, edition=edition)
        s.years, s.year_status = {1941: 5, 1942: 2}, {1941: "Major Allied Victory"}
        s.sheet.hull = 2
        c = ctx(s, 20, 20, 20, 1, 1)  # lookout and ASDIC miss the torpedo, no manoeuvre, 1-3: 1 hull: sunk
        attack.torpedo_at_corvette(c, 0)
        assert of(c, GameEnded) and done(c)
        assert _years_scored(c) == scored, edition
        assert isinstance(c.events[-1], GameEnded)  # scored before the end, never after it


def test_CC45_CCE42_quick_play_keeps_no_yearly_table():
    """CC-45: quick play's results are "Victory / You did your duty / Significant loss"; the yearly column of the
    Victory Conditions table belongs to the campaign."""
    for edition in ("4.0.0", "3.0.0"):
        s = arrived(options={"quick_play": {"direction": "east"}}, edition=edition)
        s.convoy.tonnage = 40_000
        c = ctx(s)
        c.dice = PurposeDice({"tech-delay": [20], "turnaround": [6]})
        port.arrive(c)
        assert of(c, ev.ConvoyScored)[0].result == "Significant loss" and of(c, GameEnded)
        if edition == "4.0.0":
            assert _years_scored(c) == [] and c.state.years == {}
        else:  # 3.0.0 logged the quick convoy as 0 VP and called its year a stalemate
            assert _years_scored(c) == [(1941, 0, "Stalemate")]


def test_CC45_CCR46_quick_play_bands_by_their_printed_tops():
    """CC-R46: "Less than 20,000: Victory / 21,000 to 30,000: You did your duty / Above 31,000: Significant loss"
    read as the campaign table's "Under 24,999" is (its top included): 20,000 is a victory, and a loss in a printed
    gap (20,700 with a rescue ship's 1,700 t) falls to the band above it."""
    assert [victory.quick_result(t) for t in (19_000, 20_000, 20_700, 21_000, 30_000, 30_700, 31_000)] == [
        "Victory",
        "Victory",
        "You did your duty",
        "You did your duty",
        "You did your duty",
        "Significant loss",
        "Significant loss",
    ]


@pytest.mark.parametrize("year", [1939, 1940, 1941])
def test_CC8_CCR47_a_convoy_before_1941_is_sized_by_the_1941_row(year):
    """CC-R47: the Convoy Size table starts at "1941 | 30 + 2d20"; an earlier start year uses that row."""
    s = make_state(year=year, month=5)
    s.decks.update(convoys=[x.id for x in DATA.convoys], orders=[o.id for o in DATA.orders])
    c = ctx(s)
    c.dice = PurposeDice({"convoy-size": [[1, 1]]})
    setup.new_convoy(c, "canada")
    assert of(c, ev.ConvoyAssigned)[0].size == 32 and not of(c, ev.EquipmentFitted)


def test_CCR27_gun_hits_count_but_do_not_stop_the_uboat_attacking():
    s = make_state(engagement={"range": 0, "surfaced": True, "step": "guns", "evade": 3}, skills={"gun": 3, "aa": 3})
    c = ctx(s, 1, [5, 5, 1, 1], 20, 20, 20, 20)  # one 4" hit with one matching die; the rest miss
    attack.fire_guns(c)
    g = c.state.engagement
    assert g.hits == 1 and not g.barred and g.step == "attack"


def test_CCR28_with_nothing_left_to_drop_the_uboat_slipped_away_and_called_in_7_0_0():
    from domain.corvette_command import step

    s = make_state(engagement={"range": 0, "step": "pattern"}, edition="7.0.0")
    s.sheet.depth_charges = 0
    c = ctx(s, 1)  # the wolfpack roll of the escaping U-boat: 1, none
    step(c)
    (left,) = of(c, ev.UBoatLeft)
    assert left.fate == "escaped" and c.state.engagement is None and c.state.awaiting is None


@pytest.mark.parametrize(
    "engagement, left",
    [
        ({"attacks_left": 2}, None),  # unhurt with attacks: it re-engages from its designated range, no call
        ({"attacks_left": 0}, ("withdrew", True)),  # its attacks spent: it withdraws and calls (1d6: 1, none)
        ({"attacks_left": 2, "hits": 1, "barred": True}, ("escaped", True)),  # hurt: it escapes and calls
    ],
)
def test_CCR28_CC31_CCE8_1_with_nothing_left_to_drop_the_uboat_evades_and_calls_only_as_the_text_says(engagement, left):
    """CC-31: a U-boat calls the wolfpack when it withdraws after its 3 or 4 attacks ("after which it will withdraw
    ... and will try to contact the rest of the WOLFPACK") or escapes a pattern's hits ("If it does escape roll on the
    WOLFPACK Table"); one that evades "may re-engage the convoy if it has any attacks remaining". With no depth charge
    and no Hedgehog left (CC-R28) the boat found at close range evades so; 7.0.0 made it leave as if it escaped a
    pattern, and an unhurt boat with attacks left brought a wolfpack (the cold audit of 7.0.0, F1)."""
    from domain.corvette_command import step

    s = make_state(engagement={"range": 0, "step": "pattern", **engagement})
    s.sheet.depth_charges = 0
    designated = s.engagement.designated
    c = ctx(s, *([1] if left else []))
    step(c)
    done(c)
    if left is None:
        assert [e.range for e in of(c, ev.UBoatDived)] == [designated] and not of(c, ev.UBoatLeft)
        assert c.state.engagement.step == "attack" and not of(c, ev.WolfpackRolled)
    else:
        assert [(e.fate, e.summons) for e in of(c, ev.UBoatLeft)] == [left] and len(of(c, ev.WolfpackRolled)) == 1


@pytest.mark.parametrize("edition", [EDITIONS.newest, "7.0.0"])
def test_CC22_CCR28_CCE8_2_the_captain_may_drop_no_pattern_and_the_uboat_evades(edition):
    """CC-22: "If you are successful, you have detected the U-Boat and may drop another Depth Charge pattern": the
    captain may keep the charges (`hold_pattern`); the U-boat, unhurt with attacks left, evades and re-engages from
    its designated range (CC-R28, CC-R40), and no charge is spent. 7.0.0 offered only the weapons (the cold audit of
    7.0.0, F5) and refuses the command."""
    from domain.corvette_command import decide, legal_commands
    from domain.corvette_command.commands import HoldPattern

    attacked = {"range": 0, "step": "pattern", "attacks_left": 2, "depth_charged": True, "attacked_since": True}
    s = make_state(engagement=attacked, edition=edition)
    s.awaiting = "pattern"
    offered = [spec.type for spec in legal_commands(s)]
    if edition == "7.0.0":
        assert offered == ["drop_pattern"]
        with pytest.raises(IllegalCommand, match="CC-R28"):
            decide(s, HoldPattern(), "captain", PurposeDice({}))
        return
    assert offered == ["drop_pattern", "hold_pattern"]
    events = decide(s, HoldPattern(), "captain", PurposeDice({"torpedo-target": [2], "uboat-attack": [20]}))
    assert [e.range for e in of_events(events, ev.UBoatDived)] == [s.engagement.designated]
    assert of_events(events, ev.ConvoyAttacked) and not of_events(events, ev.PatternDropped)
    assert not of_events(events, ev.UBoatLeft) and s.sheet.depth_charges == 25


def test_CC22_CCR28_CCE8_2_the_first_pattern_on_a_boat_found_at_close_range_is_no_choice():
    """CC-22: "If the U-Boat is at Close range and has been detected, then your Corvette commences its Depth Charge
    attack"; only after it, "may drop another". Found at close range before any pattern of this engagement, the
    decision offers the weapons alone and `hold_pattern` is refused saying why (the cold pass over 8.0.0, R1)."""
    from domain.corvette_command import decide, legal_commands
    from domain.corvette_command.commands import HoldPattern

    s = make_state(engagement={"range": 0, "step": "pattern", "attacks_left": 2})
    s.awaiting = "pattern"
    assert [spec.type for spec in legal_commands(s)] == ["drop_pattern"]
    with pytest.raises(IllegalCommand, match="commences its Depth Charge attack"):
        decide(s, HoldPattern(), "captain", PurposeDice({}))


def test_CC22_CCR28_CCE8_2_after_the_uboat_attacks_the_convoy_again_the_next_pattern_commences_again():
    """"After the U-Boat attack" the detection cycle begins anew, and found at close range the corvette "commences its
    Depth Charge attack" again: a boat depth charged earlier in the engagement that evaded, re-engaged and attacked
    the convoy is no longer one the captain may leave alone (the third cold pass over 8.0.0, F1: hold was still
    offered, 89 of 1,397 pattern decisions in 40 bot campaigns); a pattern since then makes the next one a choice."""
    from domain.corvette_command import legal_commands

    s = make_state(engagement={"range": 0, "step": "pattern", "attacks_left": 2, "depth_charged": True})
    s.engagement.attacked_since = True
    c = ctx(s)
    c.emit(ev.ConvoyAttacked(target="convoy", hit=False, attacks_left=1, range=1))  # it attacked the convoy again
    c.state.engagement.step, c.state.engagement.range, c.state.awaiting = "pattern", 0, "pattern"
    assert c.state.engagement.depth_charged and [spec.type for spec in legal_commands(c.state)] == ["drop_pattern"]


def test_CCR29_no_uboat_attacks_when_the_deck_and_discards_are_empty():
    s = make_state()
    waiting(waiting(s), wolfpack=True)
    s.decks["uboats"], s.discards["uboats"] = [], []
    c = ctx(s)
    attack.start_engagement(c)
    assert of(c, ev.EffectApplied)[0].effect == "no-uboats" and c.state.queue == []


@pytest.mark.parametrize(
    "options,year,month,done,over",
    [
        ({"quick_play": {"direction": "east"}}, 1943, 4, 1, True),
        ({"convoys": 2}, 1941, 6, 1, False),
        ({"convoys": 2}, 1941, 6, 2, True),
        ({"end_year": 1942, "end_month": 3}, 1942, 2, 5, False),
        ({"end_year": 1942, "end_month": 3}, 1942, 3, 5, True),
    ],
)
def test_CCR30_when_the_campaign_ends(options, year, month, done, over):
    s = make_state(year=year, month=month, options=options)
    s.convoys_done = done
    assert (port.campaign_over(s) is not None) == over


@pytest.mark.parametrize("day,over", [(24, False), (25, True)])
def test_CCR30_the_campaign_ends_when_the_turnaround_reaches_its_end_no_convoy_sails_on_or_after_it(day, over):
    """CC-R30: with the default end (May 1945), a convoy in port on 24 or 25 April 1945 with a 6-day turnaround would
    sail again on 30 April or on 1 May: the first sails, the second does not (the campaign ends)."""
    import datetime

    s = arrived(year=1945, month=4)
    s.date = datetime.date(1945, 4, day).toordinal()
    c = ctx(s)
    c.dice = PurposeDice({"tech-delay": [20], "turnaround": [6]})
    port.arrive(c)
    assert bool(of(c, GameEnded)) == over and bool(of(c, ev.ConvoyAssigned)) == (not over)


def test_CCR31_a_d3_is_a_three_sided_die():
    c = ctx(make_state(), 1, 3, 2, 1, 4, 2, 6, 3)  # failure; 3 areas, each location + difficulty
    hazards.mechanical(c, "captain")
    assert [r.sides for r in rolls(c) if r.purpose in ("damaged-areas", "repair-difficulty")] == [[3]] * 4


def test_CCR33_no_radar_re_roll_for_an_iceberg():
    s = make_state(equipment=["radar"])
    c = ctx(s, 1)
    hazards.collision(c, "captain", cause="iceberg")
    assert c.state.awaiting is None and of(c, ev.CollisionChecked)[0].result == "convoy"


def test_CC44_CCR36_in_two_player_a_counter_falls_on_a_section_by_a_random_pick():
    s = only(make_state(escorts=("escort-a", "escort-b"), position=(0, 3)), "air-gap", "U")
    c = ctx(s, 2)
    random_events.reveal(c)
    assert roll(c, "section").sides == [2] and queue_of(c.state) == [("escort-b", False)]


def test_CC44_CCR38_a_free_escort_adds_its_asdic_to_the_search():
    s = make_state(escorts=("escort-a", "escort-b"), engagement={"range": 1, "evade": 3})
    s.sheets["escort-b"].skills["asdic"] = 3
    c = ctx(s, 20)
    asw.detect(c)
    assert roll(c, "asdic-detection").result.active == 1 + 3
    waiting(s, "escort-b")  # escort-b has a U-boat of its own waiting: not free
    c = ctx(s, 20)
    asw.detect(c)
    assert roll(c, "asdic-detection").result.active == 1


def test_CC44_each_escort_rolls_the_wolfpack_for_its_own_section():
    s = make_state(escorts=("escort-a", "escort-b"), engagement={"range": 3, "step": "evaded", "attacks_left": 0})
    c = ctx(s, 3, 6)
    asw.evaded(c)
    assert [(w.escort, w.uboats) for w in of(c, ev.WolfpackRolled)] == [("escort-a", 1), ("escort-b", 3)]
    # one U-boat at escort-a's section and three at escort-b's (in what order: CC-E10-1's tests below)
    assert sorted(queue_of(c.state)) == [("escort-a", True)] + [("escort-b", True)] * 3



def _helped_searches_after_the_texts_wolfpack(edition: str, a_rolls: int = 4, b_rolls: int = 3) -> list[tuple[str, str]]:
    """CC-44's example played on: a U-boat leaves and calls the wolfpack, escort-a rolls 4 (two U-boats at its section)
    and escort-b 3 (one), then the bot fights each boat; for each boat in the order fought, its section and whether
    its ASDIC searches had the other escort's help."""
    from domain.corvette_command import bot, decide, step
    from domain.corvette_command.awaiting import legal_commands
    from domain.corvette_command.evolve import evolve
    from domain.procedure import Ctx, run
    from events.core import DiceRolled
    from service.rulesets import RULESETS

    s = make_state(
        escorts=("escort-a", "escort-b"),
        engagement={"range": 3, "step": "evaded", "attacks_left": 0, "uboat": "U-47"},
        edition=edition,
    )
    s.sheets["escort-a"].skills["asdic"], s.sheets["escort-b"].skills["asdic"] = 2, 3
    dice = PurposeDice({"wolfpack": [a_rolls, b_rolls]}, seed=bytes([1]) * 32)
    c = Ctx(s, dice, evolve)
    asw.evaded(c)
    sizes = {3: 1, 4: 2, 6: 3}
    assert [(w.escort, w.uboats) for w in of(c, ev.WolfpackRolled)] == [
        ("escort-a", sizes[a_rolls]), ("escort-b", sizes[b_rolls])
    ]
    fought: list[tuple[str, set]] = []

    def note(e) -> None:
        if isinstance(e, ev.UBoatSighted):
            fought.append((e.escort, set()))
        elif isinstance(e, DiceRolled) and e.purpose == "asdic-detection":
            fought[-1][1].add(any("other escort" in m.reason for m in e.result.modifiers))

    c = Ctx(c.state, dice, evolve)
    run(c, lambda st: st.awaiting, step)
    for e in c.events:
        note(e)
    s, ruleset = c.state, RULESETS["corvette-command"].ruleset
    while not s.over and s.awaiting not in (None, "move"):
        command = engine.parse_command(ruleset, bot.choose(s, legal_commands(s), s.deciding))
        for e in decide(s, command, s.deciding, dice):
            note(e)
            s = evolve(s, e) or s
    return [(escort, "helped" if helped == {True} else "alone" if helped == {False} else str(helped))
            for escort, helped in fought]


def test_CC44_CCR38_CCE10_1_the_escort_done_with_its_own_section_helps_with_the_other_escorts_second_uboat():
    """CC-44: "Player A rolls two U-boats, Player B rolls 1 ... Once Player B has dealt with the U-boat on their side of
    the convoy they are now free to give Player A assistance with the second U-boat." From 10.0.0 (CC-E10-1) the
    sections' boats come one of each in turn; 9.0.0 sent escort-a's two first, so escort-b (its own boat waiting)
    never helped and escort-a helped with escort-b's boat instead."""
    assert _helped_searches_after_the_texts_wolfpack("10.0.0") == [
        ("escort-a", "alone"), ("escort-b", "alone"), ("escort-a", "helped")
    ]
    assert _helped_searches_after_the_texts_wolfpack("9.0.0") == [
        ("escort-a", "alone"), ("escort-a", "alone"), ("escort-b", "helped")
    ]


def test_CC44_CCR38_CCE10_1_the_same_for_escort_b_with_the_two_uboats():
    """CC-44's example with the seats the other way round (escort-a rolls one U-boat, escort-b two): escort-a, done with
    its own, helps with escort-b's second, not its first, which it fights at the same time as escort-a's (the section
    with more boats leads each turn). 9.0.0 helped with both of escort-b's."""
    assert _helped_searches_after_the_texts_wolfpack("10.0.0", 3, 4) == [
        ("escort-b", "alone"), ("escort-a", "alone"), ("escort-b", "helped")
    ]
    assert _helped_searches_after_the_texts_wolfpack("9.0.0", 3, 4) == [
        ("escort-a", "alone"), ("escort-b", "helped"), ("escort-b", "helped")
    ]


def test_CC44_CCR38_the_engagement_view_says_whose_section_and_whether_the_other_escort_helps():
    """Two-player: the engagement view names the escort whose section the U-boat attacks and, while no U-boat of its
    own section waits (CC-R38), the other escort that adds its ASDIC and HF/DF; one escort alone: no helper."""
    s = make_state(escorts=("escort-a", "escort-b"), engagement={"range": 1, "evade": 3})
    seen = views.engagement(s)
    assert (seen.escort, seen.helped_by) == ("escort-a", "escort-b")
    waiting(s, "escort-b")
    assert views.engagement(s).helped_by is None
    alone = views.engagement(make_state(engagement={"range": 1, "evade": 3}))
    assert (alone.escort, alone.helped_by) == ("captain", None)
    assert views.engagement(make_state()).escort is None

def test_CC44_CCR39_the_convoy_sails_again_when_both_escorts_are_ready():

    s = arrived()
    s.escorts = ["escort-a", "escort-b"]
    s.sheets = {"escort-a": s.sheets["captain"], "escort-b": copy.deepcopy(s.sheets["captain"])}
    s.active = s.deciding = "escort-a"
    s.sheets["escort-b"].hull = 2
    c = ctx(s)
    c.dice = PurposeDice({"turnaround": [5, 1]})
    port.arrive(c)
    assert of(c, ev.ShipRepaired)[0].turnaround_days == max(5, 1 + 2)


def test_CCR1_each_box_entered_runs_weather_collision_mechanical_reveal_repair():
    from domain.corvette_command import decide
    from domain.corvette_command.commands import MoveConvoy

    s = make_state(position=(1, 4), weather="fog")
    s.awaiting = "move"
    only(s, "air-gap", "blank")
    dice = ChosenDice([3, 3], 10, 10)  # weather unchanged (fog); no collision; no mechanical failure
    events = decide(s, MoveConvoy(to=[1, 5]), "captain", dice)
    steps = [
        type(e).__name__
        for e in events
        if type(e).__name__
        in ("WeatherSet", "CollisionChecked", "MechanicalChecked", "CounterRevealed", "RepairAttempted")
    ]
    assert steps == ["WeatherSet", "CollisionChecked", "MechanicalChecked", "CounterRevealed", "RepairAttempted"]
    assert dice.unused == 0 and type(events[-1]).__name__ == "DecisionRequired" and events[-1].decision == "move"


# ---- the fidelity audit (issue #7): rulings CC-R40 and after, and the text followed ---------------------------


def test_CCR40_every_attack_is_made_from_the_designated_range():
    """U-47 (M/C) in poor weather is sighted at medium. A failed search opens the range to long, yet its next attack
    is made from medium (attack 5 vs convoy 1: 14; from long it would be vs 2: 13), and the search after it starts
    from medium again (no long-range +1 to the U-boat)."""
    s = waiting(make_state(weather="poor"))
    s.decks["uboats"] = ["U-47"]
    c = ctx(s, [1, 1])  # the surface roll 2: night, submerged (1941: no decoys)
    attack.start_engagement(c)
    assert c.state.engagement.range == 1
    c = ctx(c.state, 2, 20)  # at the convoy; missed
    attack.attack(c)
    c = ctx(c.state, 20)  # the search fails at medium: the U-boat opens to long
    asw.detect(c)
    assert c.state.engagement.range == 2 and c.state.engagement.step == "attack"
    opened = c.state
    c = ctx(opened, 2, 20)
    attack.attack(c)
    assert roll(c, "uboat-attack").result.target == 14 and done(c)
    c = ctx(c.state, 20)
    asw.detect(c)
    assert roll(c, "asdic-detection").result.target == 10 + 1 - 3  # ASDIC 1 vs Evade 3 at medium
    c = ctx(opened, 1, 20, 20, 20, 20, 1)  # at the corvette: the torpedo comes from medium (two bands), not long
    attack.attack(c)
    assert [t.range for t in of(c, ev.TorpedoTracked)] == [1, 0] and done(c)


def test_CCR41_a_uboat_is_submerged_from_its_attack_on_so_decoys_count_in_the_hunt():
    s = make_state(
        year=1942,
        month=7,
        engagement={"range": 2, "surfaced": True, "decoys": True, "step": "attack", "profile": "L/M/C", "evade": 3},
    )
    c = ctx(s)
    c.dice = PurposeDice({"decoys": [3], "torpedo-target": [2], "uboat-attack": [20]})
    attack.attack(c)
    assert not c.state.engagement.surfaced and asw.evade(c.state) == 4
    c = ctx(c.state)
    c.dice = PurposeDice({"asdic-detection": [20]})
    asw.detect(c)
    assert roll(c, "asdic-detection").result.passive == 4 + 1  # Evade 3 + decoys 1, long range +1


def test_CCR32_the_decoy_roll_is_made_at_each_attack_not_at_the_sighting():
    s = waiting(make_state(year=1942, month=7))
    s.decks["uboats"] = ["U-99"]  # C: close, no surface roll in good weather
    c = ctx(s)
    c.dice = PurposeDice({})
    attack.start_engagement(c)
    assert "decoys" not in purposes(c)
    c = ctx(c.state)
    c.dice = PurposeDice({"decoys": [1], "torpedo-target": [2], "uboat-attack": [20]})
    attack.attack(c)
    assert purposes(c)[0] == "decoys" and asw.evade(c.state) == c.state.engagement.evade
    c.state.engagement.step = "attack"
    c = ctx(c.state)
    c.dice = PurposeDice({"decoys": [3], "torpedo-target": [2], "uboat-attack": [20]})
    attack.attack(c)
    assert purposes(c)[0] == "decoys" and asw.evade(c.state) == c.state.engagement.evade + 1


def test_CC28_CCR15_a_probable_uboat_reaching_four_hits_leaves_the_game_without_an_award():
    from domain.corvette_command import step

    s = make_state(engagement={"range": 0, "hits": 3, "grade": "probable", "barred": True, "summons": False})
    c = ctx(s, [5, 5, 1, 1, 1])  # one more hit: four in all
    asw.drop_pattern(c, "depth-charges")
    step(c)
    (left,) = of(c, ev.UBoatLeft)
    assert "U-47" in c.state.sunk_uboats and "U-47" not in c.state.discards["uboats"]
    assert not of(c, ev.AwardGranted) and left.hits == 4


@pytest.mark.parametrize("weapon,faces", [("depth-charges", [5, 5, 5, 5, 1]), ("hedgehog", [5, 5, 1, 1, 1])])
def test_CC28_CC30_CCR15_CCE51_a_probable_pattern_earns_its_award_also_at_four_hits_in_all(weapon, faces):
    """CC-28, CC-30: "If you score 3 hits in one pattern ... This will be counted as a 'probable' kill. Your
    Commanding Officer will be awarded a Mentioned in Despatches" (a Hedgehog's 1 hit "is a 'probable'"); and "Once
    the U-Boat has taken an accumulation of 4 or more hits it is out of the game". The pattern's sentence gives the
    credit, the accumulation the end: probable, Mentioned in Despatches, out (CC-E5-1). 4.0.0 gave a probable with
    no award: an outcome neither sentence gives."""
    from domain.corvette_command import step

    for edition, awards in (("5.0.0", ["Mentioned in Despatches"]), ("4.0.0", [])):
        s = make_state(engagement={"range": 0, "hits": 1 if weapon == "depth-charges" else 3}, equipment=["hedgehog"])
        s.edition = EDITIONS.of(edition)
        c = ctx(s, faces, 1)  # d10 5: three (one) of the d6 match; then the wolfpack roll it never makes
        asw.drop_pattern(c, weapon)
        step(c)
        (p,), (left,) = of(c, ev.PatternDropped), of(c, ev.UBoatLeft)
        assert (p.grade, p.total_hits, p.out, left.fate, left.out) == ("probable", 4, True, "probable", True), edition
        assert [a.award for a in of(c, ev.AwardGranted)] == awards, edition
        assert "U-47" in c.state.sunk_uboats and not of(c, ev.WolfpackRolled) and c.dice.unused == 1


def test_CCR43_losses_never_exceed_the_ships_of_the_convoy():
    s = make_state(engagement={"range": 1, "step": "attack"})
    s.convoy.size, s.convoy.ships_lost, s.convoy.stragglers = 3, 2, 1  # no merchant ship left with the convoy
    c = ctx(s)
    c.dice = PurposeDice({"torpedo-target": [2], "uboat-attack": [1]})
    attack.attack(c)
    assert not of(c, ev.ShipLost) and "uboat-attack" not in purposes(c)
    assert of(c, ev.ConvoyAttacked)[0].hit is False
    s = make_state(weather="fog")
    s.convoy.size, s.convoy.ships_lost = 3, 2  # one ship left: a collision between two ships leaves one straggler
    c = ctx(s, 1)
    hazards.collision(c, "captain")
    assert c.state.convoy.stragglers == 1
    s.convoy.stragglers = 1
    c = ctx(s)
    c.dice = PurposeDice({"random-event": [8], "mine": [6]})  # a mine: no ship left to strike it
    random_events.random_event(c, "captain")
    assert not of(c, ev.ShipLost)


def test_CC29_a_lost_officers_station_is_task_harder_everywhere_and_is_replaced_in_port():
    s = make_state(engagement={"range": 0, "evade": 3})
    s.sheet.officers_lost = ["depth_charge"]
    c = ctx(s)
    c.dice = PurposeDice({"depth-charges-pattern": [[3, 3, 3, 3]]})
    asw.drop_pattern(c, "depth-charges")
    assert roll(c, "depth-charges-pattern").sides == [10, 6, 6, 6]  # 3 d6, as while the station is damaged
    s = make_state()
    s.sheet.officers_lost = ["engineer"]
    c = ctx(s, 20, 20, 1)
    attack.torpedo_at_corvette(c, 0)
    assert roll(c, "torpedo-manoeuvre").result.passive == 4 + 1  # as damaged engineering
    s = make_state(engagement={"range": 1})
    s.sheet.officers_lost = ["engineer"]
    c = ctx(s, 20)
    asw.detect(c)
    assert of(c, ev.DetectionResolved)[0].range == 3  # it evades two bands
    s = arrived()
    s.sheet.officers_lost = ["aa"]
    c = ctx(s)
    c.dice = PurposeDice({})
    port.arrive(c)
    assert c.state.sheets["captain"].officers_lost == []


def test_CC40_from_november_1942_asdic_joins_the_ew_roll_against_a_surfaced_uboat():
    s = make_state(
        year=1942, month=11, engagement={"range": 1, "surfaced": True, "step": "spot", "evade": 3}, skills={"asdic": 2}
    )
    c = ctx(s)
    c.dice = PurposeDice({"asdic-ew-detection": [9], "lookout-spotting": [20]})
    attack.spot(c)
    assert roll(c, "asdic-ew-detection").result.target == 9
    assert roll(c, "lookout-spotting").result.active == 1 + 2  # the EW success gives the Lookout +2
    s = make_state(year=1942, month=10, engagement={"range": 1, "surfaced": True, "step": "spot"})
    c = ctx(s)
    c.dice = PurposeDice({})
    attack.spot(c)
    assert purposes(c) == ["lookout-spotting"]


def test_CC17_CC40_boffin_rescue_brings_the_next_date_a_month_earlier():
    boffin = next(e for e in DATA.random_events if e.effect == "boffin_rescue")
    assert boffin.stand_in
    s = make_state(year=1941, month=8)
    c = ctx(s, boffin.roll)
    random_events.random_event(c, "captain")
    assert c.state.delays == {"radar": -1} and c.state.on("radar") and done(c)


def test_CC36_turnaround_one_day_per_damaged_component_not_per_counter():
    s = arrived()
    s.sheet.harder, s.sheet.hull = {"gun": [1, 2]}, 1
    c = ctx(s)
    c.dice = PurposeDice({"turnaround": [3]})
    port.arrive(c)
    assert of(c, ev.ShipRepaired)[0].turnaround_days == 3 + 1 + 1


@pytest.mark.parametrize("tens,units,minutes", [([2], [4], 14), ([1], [10], 0), ([6], [9], 59)])
def test_CC42_the_minutes_of_contact_are_rolled_too(tens, units, minutes):
    s = waiting(make_state(options={"time_of_contact": True}, month=7))
    s.decks["uboats"] = ["U-48"]  # L/M/C at long
    c = ctx(s, [2, 5], tens + units, 3)  # the text's example: 2 and 5 is 04:00 (dark in July); 3 surfaced
    attack.start_engagement(c)
    assert of(c, ev.UBoatSighted)[0].time == f"04:{minutes:02d}" and c.state.engagement.surfaced and done(c)


def test_CCR25_the_electronics_sub_roll_only_with_the_operators_option():
    c = ctx(make_state(equipment=["radar"]), 2, 3)  # ASDIC/RADAR/HF-DF; difficulty 3; no sub-roll
    assert hazards.damage_area(c, "test", "captain") == "asdic" and c.state.sheet.harder == {"asdic": [3]} and done(c)
    c = ctx(make_state(equipment=["radar"], options={"radar_hfdf_operators": True}), 2, 3, 1)
    assert hazards.damage_area(c, "test", "captain") == "radar" and done(c)
    s = make_state(equipment=["radar"], engagement={"range": 0, "surfaced": True, "step": "spot", "evade": 3})
    s.sheet.harder = {"asdic": [1]}  # without operators the one electronics station is damaged: RADAR too
    c = ctx(s)
    c.dice = PurposeDice({"radar-detection": [20], "lookout-spotting": [20]})
    attack.spot(c)
    assert roll(c, "radar-detection").result.passive == 3 + 1


def test_CCR11_slow_convoys_alternate_one_forward_one_sideways():
    s = make_state(position=(1, 4), speed="slow")
    s.convoy.last_move = "sideways"
    assert {str(m["to"]) for m in movement.legal_moves(s)} == {"[1, 5]"}
    s.convoy.last_move = "forward"
    assert {str(m["to"]) for m in movement.legal_moves(s)} == {"[0, 4]", "[2, 4]"}


def test_CCR22_a_vital_ship_delays_only_radar_and_hfdf():
    s = make_state(year=1942, month=9)  # RADAR in force; the Hedgehog (Oct 42) comes before HF/DF (Nov 42)
    c = ctx(s, [6, 6])  # a double 6: the rescue ship
    attack.ship_lost(c, "test")
    assert c.state.delays == {"hfdf": 1}


def test_CC34_CCR34_the_tech_delay_roll_comes_before_the_stragglers():
    s = arrived()
    s.convoy.stragglers, s.convoy.ships_lost = 1, 3
    c = ctx(s)
    c.dice = PurposeDice({"tech-delay": [4], "straggler": [2], "tonnage": [[4, 1]]})
    port.arrive(c)
    (t,) = of(c, ev.TechDelayRolled)
    assert (t.ships_sunk, t.delayed) == (3, False) and purposes(c).index("tech-delay") < purposes(c).index("straggler")


def test_CC29_boarding_only_after_all_four_depth_charge_dice_hit_not_after_a_hedgehog_kill():
    s = make_state(engagement={"range": 0}, equipment=["hedgehog"])
    c = ctx(s, [5, 5, 5, 1, 1])  # two Hedgehog hits: confirmed, but she does not surface to be boarded
    asw.drop_pattern(c, "hedgehog")
    assert of(c, ev.PatternDropped)[0].grade == "confirmed" and c.state.engagement.step == "gone"


def test_CCR44_the_convoy_deck_takes_its_discards_back_only_when_no_card_of_the_corvettes_side_is_left():
    s = make_state(year=1941, month=6)
    s.decks["convoys"] = ["ON-1"]  # only a westbound card left, the corvette is in Canada
    s.decks["orders"] = [o.id for o in DATA.orders]
    s.discards["convoys"] = ["HX-1", "SC-2"]
    c = ctx(s)
    c.dice = PurposeDice({})
    setup.new_convoy(c, "canada")
    assert of(c, ev.ConvoyAssigned)[0].card in ("HX-1", "SC-2")
    s.decks["convoys"] = ["ON-1", "SC-3"]
    c = ctx(s)
    c.dice = PurposeDice({})
    setup.new_convoy(c, "canada")
    assert of(c, ev.ConvoyAssigned)[0].card == "SC-3"  # a card of its side is left: no reshuffle
    assert set(c.state.discards["convoys"]) >= {"HX-1", "SC-2"}


def test_CC44_CCR38_the_partners_own_task_harder_counters_count_against_its_help():
    s = make_state(escorts=("escort-a", "escort-b"), engagement={"range": 1, "evade": 3})
    s.sheets["escort-b"].skills["asdic"] = 3
    s.sheets["escort-b"].harder = {"asdic": [2]}
    c = ctx(s, 20)
    asw.detect(c)
    r = roll(c, "asdic-detection").result
    assert (r.active, r.passive, r.target) == (1 + 3, 3 + 1, 10)


def test_CC38_CCR45_a_kill_by_the_guns_alone_does_not_open_depth_charge_growth():
    s = make_state(
        engagement={"range": 0, "surfaced": True, "step": "guns", "hits": 2, "evade": 3}, skills={"gun": 3, "aa": 3}
    )
    c = ctx(s, 1, [5, 5, 5, 1], 20, 20, 20, 20)  # a 4" hit with 2 damage: four in all, a possible kill
    attack.fire_guns(c)
    assert c.state.engagement.grade == "possible" and not c.state.sheet.kill_since_review
    s = make_state(engagement={"range": 0, "hits": 2})
    c = ctx(s, [5, 5, 5, 1, 1])  # a pattern's two hits make it four: the depth charges had their part
    asw.drop_pattern(c, "depth-charges")
    assert c.state.sheet.kill_since_review


def test_CC17_the_oil_slick_sub_roll_is_a_stand_in():
    oil = next(e for e in DATA.random_events if e.effect == "oil_slick")
    assert not oil.stand_in and oil.sub_roll_stand_in  # the entry is published, its sub-roll is ours
    c = ctx(make_state(), oil.roll, 5)
    random_events.random_event(c, "captain")
    (drawn,) = of(c, ev.RandomEventDrawn)
    assert drawn.sub_roll_stand_in and done(c)


def test_CC43_the_revised_map_has_one_air_gap_sector_at_the_top():
    standard, revised = DATA.maps["standard"], DATA.maps["revised-1942"]
    zones = {z.name: z for z in revised.zones}
    bottom = revised.channels - 1
    assert all(ch < bottom for ch, _ in zones["air-gap"].boxes)  # the southern channel is under air cover
    before = {z.name: len(z.boxes) for z in standard.zones}
    after = {z.name: len(z.boxes) for z in revised.zones}
    assert {k: after[k] - before[k] for k in after} == {"canadian": 2, "air-gap": -3, "western-approaches": 1}
    assert {z.name: z.pool for z in standard.zones} == {z.name: z.pool for z in revised.zones}  # 3 blanks fewer


def test_CCR8_CCR14_holding_fire_lets_the_uboat_attack():
    from domain.corvette_command import decide
    from domain.corvette_command.commands import HoldFire

    s = make_state(engagement={"range": 1, "surfaced": True, "spotted": True, "step": "guns"})
    s.awaiting = "guns"
    events = decide(s, HoldFire(), "captain", PurposeDice({"torpedo-target": [2], "uboat-attack": [20]}))
    assert of_events(events, ev.ConvoyAttacked) and events[-1].decision == "detect"


def of_events(events, cls):
    return [e for e in events if isinstance(e, cls)]


def test_a_game_made_under_corvette_command_1_is_refused_with_a_clear_error():
    import msgspec

    from domain import engine
    from domain.engine import Rejected
    from service.rulesets import RULESETS

    loaded = RULESETS["corvette-command"]
    created = engine.creation_events(
        loaded.ruleset, loaded.data, loaded.data_sha256, "old", {}, None, "public-seed", bytes(32)
    )[0]
    old = msgspec.structs.replace(created, ruleset=msgspec.structs.replace(created.ruleset, version="1.0.0"))
    with pytest.raises(Rejected, match="plays corvette-command 1.0.0") as e:
        engine.start(loaded.ruleset, loaded.data, loaded.data_sha256, "old", old)
    assert e.value.code == "edition-not-run"
    assert engine.start(loaded.ruleset, loaded.data, loaded.data_sha256, "new", created).state.awaiting == "start"


# ---- CC-E5-2: a U-boat hurt in a convoy stays hurt in it ---------------------------------------------------------


def _hurt_and_drawn_again(edition: str, pattern: list[int], wolfpack: list[int], *after):
    """U-47 (M/C) at close takes a depth-charge pattern of `pattern`'s faces and slips away (with the wolfpack roll
    `wolfpack` if it summons); the next U counter of the convoy draws it again, the one card left (no pick roll); it is
    sighted at medium, submerged (2d6: 2); then the faces `after`."""
    from domain.corvette_command import step

    s = make_state(engagement={"range": 0, "step": "pattern"}, edition=edition)
    c = ctx(s, pattern, *wolfpack, [1, 1], *after)
    asw.drop_pattern(c, "depth-charges")
    asw.leave(c, "escaped")
    c.state.decks["uboats"] = []  # the deck has run out: the discards, U-47 alone, come back
    attack.start_engagement(waiting(c.state) and c)
    assert of(c, ev.UBoatSighted)[0].uboat == "U-47"
    step(c)
    return c


def test_CC28_CCE52_a_uboat_hit_once_or_twice_is_drawn_again_but_never_attacks_again_in_that_convoy():
    """CC-28: "If you score 1 or 2 hits ... the U-Boat will attempt to escape and will not attack again but will try
    to summon the rest of the WOLFPACK". Drawn again in the same convoy it comes as it left (2 hits, barred): it is
    hunted, it makes no attack (CC-E5-2). 4.0.0 drew it back unhurt and it attacked: here it sinks a ship."""
    c = _hurt_and_drawn_again("5.0.0", [5, 5, 5, 1, 1], [1])
    g = c.state.engagement
    assert (g.hits, g.barred, g.summons) == (2, True, False)  # it called as it left: not again (CC-E5-6)
    assert not of(c, ev.ConvoyAttacked) and c.state.awaiting == "detect" and done(c)
    assert [w.drm for w in of(c, ev.WolfpackRolled)] == [-2]  # it summoned as it escaped, -1 a hit
    c = _hurt_and_drawn_again("4.0.0", [5, 5, 5, 1, 1], [1], 20, 1, [4, 1])  # not at the corvette; hit; 9,000 t
    assert of(c, ev.ConvoyAttacked)[0].hit and of(c, ev.ShipLost)[0].tonnage == 9000 and done(c)


def test_CC28_CC31_CCR15_CCE52_a_probable_uboat_drawn_again_neither_attacks_nor_summons_and_is_credited_once():
    """CC-28: "If you score 3 hits in one pattern ... It can't make any further attacks or summon a WOLFPACK. This
    will be counted as a 'probable' kill"; "Once the U-Boat has taken an accumulation of 4 or more hits it is out of
    the game". Drawn again in the same convoy it keeps its 3 hits and its bars (CC-E5-2): no attack, no wolfpack; one
    more hit is 4 in all and puts it out; it stays one probable kill, with one Mentioned in Despatches (CC-R15)."""
    c = _hurt_and_drawn_again("5.0.0", [5, 5, 5, 5, 1], [])
    g = c.state.engagement
    assert (g.hits, g.grade, g.barred, g.summons) == (3, "probable", True, False)
    assert not of(c, ev.ConvoyAttacked) and c.state.awaiting == "detect"
    c.dice = ChosenDice([5, 5, 1, 1, 1], next_roll=c.dice.next_roll)  # one hit: four in all
    asw.drop_pattern(c, "depth-charges")
    from domain.corvette_command import step

    step(c)
    left = of(c, ev.UBoatLeft)
    assert [(e.fate, e.hits, e.out) for e in left] == [("probable", 3, False), ("probable", 4, True)]
    assert "U-47" in c.state.sunk_uboats and not of(c, ev.WolfpackRolled) and done(c)
    assert [a.award for a in of(c, ev.AwardGranted)] == ["Mentioned in Despatches"]
    assert c.state.sheet.kills == {"probable": 1}
    # 4.0.0: back unhurt, it attacks (a miss here); its grade and hits forgotten
    c = _hurt_and_drawn_again("4.0.0", [5, 5, 5, 5, 1], [], 20, 20)
    assert of(c, ev.ConvoyAttacked) and c.state.engagement.hits == 0 and c.state.engagement.summons and done(c)


def test_CCR15_CCE52_a_probable_uboat_stays_credited_to_the_escort_that_earned_it_when_it_leaves_again():
    """CC-R15: in a convoy a boat is credited once, to the escort that earned its best grade. Two escorts: U-47,
    probable by escort-a's pattern, is drawn again at escort-b's section and slips away (still probable: no new
    credit), then again at escort-a's, where a Hedgehog salvo of 2 confirms it. The probable moves to the confirmed
    on escort-a's sheet; escort-b never had it (its departure kept escort-a as the escort credited)."""
    from domain.corvette_command import step

    s = make_state(
        engagement={"range": 0, "step": "gone", "hits": 3, "grade": "probable", "barred": True, "summons": False},
        escorts=("escort-a", "escort-b"),
        equipment=["hedgehog"],
    )
    s.decks["uboats"] = []  # each draw below is U-47 again, the one card left (no pick roll)
    c = ctx(s, [1, 1], 20, 20, [1, 1], 1, 1, [5, 5, 5, 1, 1])  # 2d6 submerged; searches; salvo: d10 5, two hits
    step(c)  # it slips away, probable: credited to escort-a
    attack.start_engagement(waiting(c.state, "escort-b") and c)
    asw.detect(c)  # escort-b fails twice: beyond long
    asw.detect(c)
    step(c)
    attack.start_engagement(waiting(c.state, "escort-a") and c)
    asw.detect(c)  # escort-a finds it at medium, then at close
    asw.detect(c)
    asw.drop_pattern(c, "hedgehog")
    step(c)
    assert [e.fate for e in of(c, ev.UBoatLeft)] == ["probable", "probable", "confirmed"]
    assert c.state.sheets["escort-a"].kills == {"probable": 0, "confirmed": 1}
    assert c.state.sheets["escort-b"].kills == {} and done(c)


# ---- CC-E5-4, CC-E5-5, CC-E5-6: the wolfpack's caller; a convoy's attacks; one call a convoy ----------------------


def _withdraws_and_calls(edition: str, *faces, discards=(), **engagement):
    """U-47 (M/C, 3 attacks) has spent its attacks and slipped beyond long range: it withdraws and, unless it came
    with a wolfpack, rolls the WOLFPACK table (the first of `faces`). The deck has run out: the discards are
    `discards`, then U-47."""
    s = make_state(engagement={"range": 3, "step": "evaded", "attacks_left": 0, **engagement}, edition=edition)
    s.decks["uboats"], s.discards["uboats"] = [], list(discards)
    c = ctx(s, *faces)
    asw.evaded(c)
    assert of(c, ev.UBoatLeft)[0].fate == "withdrew" and c.state.discards["uboats"] == [*discards, "U-47"]
    return c


def test_CC31_CCR29_CCE54_the_uboat_that_calls_the_wolfpack_is_not_one_of_the_uboats_that_answer():
    """CC-31: it "will try to contact the rest of the WOLFPACK by rolling 1d6 on the WOLFPACK Table ... If any U-Boats
    appear": the rest, not itself. U-47 calls and 1 boat is to come (roll 3); the deck has run out. With U-48 in the
    discards too, the deck is reformed and U-47 is passed over: U-48 comes, no pick roll. With U-47 alone left, no
    boat comes and nothing is reformed (CC-E5-4). 4.0.0 drew U-47 as its own wolfpack."""
    c = _withdraws_and_calls("5.0.0", 3, [1, 1], discards=["U-48"])  # U-48 at long (L/M/C): 2d6 for surfaced
    assert [(w.wolfpack, w.caller) for w in c.state.queue] == [(True, "U-47")]
    attack.start_engagement(c)
    assert of(c, ev.DeckReformed)[0].cards == ["U-48", "U-47"] and "draw-uboat" not in purposes(c)
    assert [(e.uboat, e.wolfpack) for e in of(c, ev.UBoatSighted)] == [("U-48", True)] and done(c)
    c = _withdraws_and_calls("5.0.0", 3)
    attack.start_engagement(c)
    assert [e.effect for e in of(c, ev.EffectApplied)] == ["unanswered"] and c.state.queue == []
    assert not of(c, ev.UBoatSighted) and not of(c, ev.DeckReformed) and c.state.discards["uboats"] == ["U-47"]
    assert done(c)
    # 4.0.0: the reformed deck's draw may fall on U-47 (d2: 1), and alone in it, it is taken without a roll
    c = _withdraws_and_calls("4.0.0", 3, 1, [1, 1], discards=["U-48"])
    attack.start_engagement(c)
    assert [(e.uboat, e.wolfpack) for e in of(c, ev.UBoatSighted)] == [("U-47", True)] and done(c)
    c = _withdraws_and_calls("4.0.0", 3, [1, 1])
    attack.start_engagement(c)
    assert [(e.uboat, e.wolfpack) for e in of(c, ev.UBoatSighted)] == [("U-47", True)] and done(c)


def test_CC31_CCR14_CCE55_the_cards_attacks_are_the_most_a_uboat_makes_on_one_convoy():
    """CC-31: "The U-Boat can attack the convoy a maximum of 3 or 4 times dependent upon the U-Boat type, after which
    it will withdraw, to reload and effect repairs". U-47 (3 attacks, unhurt) spent them, withdrew (its call: 1,
    none) and is drawn again in the same convoy, submerged at medium: it has no attack left, so it is hunted and
    makes none (CC-E5-5). 4.0.0 gave it its card's 3 afresh: it attacks and sinks a ship."""
    from domain.corvette_command import step

    c = _withdraws_and_calls("5.0.0", 1, [1, 1])
    attack.start_engagement(waiting(c.state) and c)
    step(c)
    assert [e.attacks_left for e in of(c, ev.UBoatSighted)] == [0] and c.state.engagement.attacks_left == 0
    assert not of(c, ev.ConvoyAttacked) and c.state.awaiting == "detect" and done(c)
    c = _withdraws_and_calls("4.0.0", 1, [1, 1], 20, 1, [4, 1])  # not at the corvette; hit; 9,000 t
    attack.start_engagement(waiting(c.state) and c)
    step(c)
    assert [e.attacks_left for e in of(c, ev.UBoatSighted)] == [3]
    assert of(c, ev.ConvoyAttacked)[0].hit and of(c, ev.ShipLost)[0].tonnage == 9000 and done(c)


def test_CC28_CC31_CCE56_a_uboat_calls_the_wolfpack_once_a_convoy_and_a_wolfpack_uboat_never():
    """CC-31: it "will try to contact the rest of the WOLFPACK ... do NOT summon the WOLFPACK for these U-Boats if
    they escape or leave the engagement area"; CC-28: "If it does escape roll on the WOLFPACK Table". One call a
    convoy, and none by a boat that came with the wolfpack, hurt or not (CC-E5-6): U-47 called as it withdrew
    (1: none); drawn again, hunted, it slips beyond long range and leaves without a second roll. A wolfpack U-47
    that withdrew, drawn again from a U counter, may not call either. 4.0.0 let both call."""
    from domain.corvette_command import step

    c = _withdraws_and_calls("5.0.0", 1, [1, 1], 20, 20)  # 2d6 submerged at medium; two failed searches
    attack.start_engagement(waiting(c.state) and c)
    assert c.state.engagement.summons is False
    asw.detect(c)
    asw.detect(c)
    step(c)
    left = of(c, ev.UBoatLeft)
    assert [(e.fate, e.summons) for e in left] == [("withdrew", True), ("withdrew", False)]
    assert len(of(c, ev.WolfpackRolled)) == 1 and not of(c, ev.ConvoyAttacked) and done(c)
    c = _withdraws_and_calls("4.0.0", 1, [1, 1])
    attack.start_engagement(waiting(c.state) and c)
    assert c.state.engagement.summons is True and done(c)  # drawn again, it would call again
    for edition, calls in (("5.0.0", False), ("4.0.0", True)):
        c = _withdraws_and_calls(edition, [1, 1], wolfpack=True, summons=False)
        assert not of(c, ev.WolfpackRolled)
        attack.start_engagement(waiting(c.state) and c)  # from a U counter, not a wolfpack's call
        assert of(c, ev.UBoatSighted)[0].wolfpack is False and c.state.engagement.summons is calls and done(c)


@pytest.mark.parametrize("edition, eligible", [("5.0.0", False), ("6.0.0", True)])
def test_CC38_CCR45_CCE6_1_a_possible_kill_the_guns_finish_after_depth_charge_hits_opens_the_depth_charge_roll(
    edition, eligible
):
    """CC-38: "Only if you score a Confirmed, Probable or Possible sinking will you have the opportunity to attempt to
    increase your Depth Charge skill." A pattern hits twice, the boat escapes, is drawn again in the convoy and the 4"
    gun adds two: four in all, a possible kill the depth charges had their part in (the second cold audit)."""
    from domain.corvette_command import step
    from domain.corvette_command.rules import asw, attack, port
    from tests.corvette import waiting

    s = make_state(engagement={"range": 0, "step": "pattern"}, edition=edition)
    c = ctx(
        s,
        [5, 5, 5, 1, 1],  # the pattern: d10 5, two d6 match it -> 2 hits
        1,  # the wolfpack d6 as it escapes hurt: none come
        [3, 3],  # drawn again: 2d6 = 6, night, surfaced
        1,  # the lookout spots it
        1, [5, 5, 5, 1],  # the 4" gun's first shot hits: d10 5, two d6 match -> 2 more, 4 in all
        20, 20, 20, 20,  # the other shots miss
    )  # fmt: skip
    asw.drop_pattern(c, "depth-charges")
    asw.leave(c, "escaped")
    c.state.decks["uboats"] = []
    attack.start_engagement(waiting(c.state) and c)
    step(c)
    attack.fire_guns(c)
    step(c)
    [left] = [e for e in of(c, ev.UBoatLeft) if e.out]
    assert (left.fate, left.hits) == ("possible", 4)
    done(c)
    review = ctx(c.state, *[6] * 10)
    port.grow_crew(review, "captain")
    assert ("depth_charge" in of(review, ev.CrewReviewed)[0].eligible) is eligible


@pytest.mark.parametrize("edition, calls", [("7.0.0", True), ("6.0.0", False)])
def test_CC28_CC31_CCE7_1_a_uboat_hit_again_rolls_the_wolfpack_table_as_it_escapes_though_it_called_before(
    edition, calls
):
    """CC-28: "If you score 1 or 2 hits, or 3 hits accumulated over more than one pattern then the U-Boat will attempt
    to escape and will not attack again but will try to summon the rest of the WOLFPACK. If it does escape roll on the
    WOLFPACK Table." U-47 takes 2 hits, escapes and calls (1: none come); drawn again in the convoy, a pattern hits it
    once more (3 accumulated, not one pattern's 3: no probable) and it escapes again: it rolls the table again, -1 a
    hit (the second cold audit of issue 31, F2). 6.0.0 let a boat call once a convoy (CC-E5-6) and it did not."""
    from domain.corvette_command import step

    c = _hurt_and_drawn_again(edition, [5, 5, 5, 1, 1], [1])
    assert c.state.engagement.summons is False  # it called as it left; unhit again it would not call twice
    table = [4] if calls else []  # the WOLFPACK d6 it rolls as it escapes, when it does
    c.dice = ChosenDice([5, 5, 1, 1, 1], *table, next_roll=c.dice.next_roll)  # one hit: three in all
    asw.drop_pattern(c, "depth-charges")
    step(c)
    assert (c.state.engagement.hits, c.state.engagement.grade) == (3, None)
    asw.leave(c, "escaped")
    left = of(c, ev.UBoatLeft)
    assert [(e.fate, e.hits, e.summons) for e in left] == [("escaped", 2, True), ("escaped", 3, calls)]
    rolled = [(w.roll, w.drm, w.uboats) for w in of(c, ev.WolfpackRolled)]
    assert rolled == ([(1, -2, 0), (4, -3, 0)] if calls else [(1, -2, 0)]) and done(c)


def test_CC28_CC31_CCE7_1_a_wolfpack_uboat_hit_never_summons_and_an_unhit_return_calls_no_second_time():
    """CC-31: "do NOT summon the WOLFPACK for these U-Boats if they escape or leave the engagement area": a wolfpack
    boat a pattern hits still never calls (7.0.0 too); and a boat that called and leaves again unhit in the convoy
    calls no second time (no hit was scored on it then: CC-28's sentence does not apply)."""
    s = make_state(engagement={"range": 0, "step": "pattern", "wolfpack": True, "summons": False}, edition="7.0.0")
    c = ctx(s, [5, 5, 5, 1, 1])
    asw.drop_pattern(c, "depth-charges")
    asw.leave(c, "escaped")
    assert [e.summons for e in of(c, ev.UBoatLeft)] == [False] and not of(c, ev.WolfpackRolled) and done(c)
    c = _withdraws_and_calls("7.0.0", 1, [1, 1], 20, 20)  # as in the CC-E5-6 test: two failed searches
    from domain.corvette_command import step

    attack.start_engagement(waiting(c.state) and c)
    asw.detect(c)
    asw.detect(c)
    step(c)
    assert [(e.fate, e.summons) for e in of(c, ev.UBoatLeft)] == [("withdrew", True), ("withdrew", False)]
    assert len(of(c, ev.WolfpackRolled)) == 1 and done(c)


def test_CC31_CCE7_1_a_wolfpack_uboat_drawn_again_from_a_u_counter_and_hit_still_never_summons():
    """CC-31: "do NOT summon the WOLFPACK for these U-Boats if they escape or leave the engagement area". U-47 came
    with a wolfpack and withdrew (no call); drawn again in the convoy from a U counter, a pattern hits it twice and it
    escapes: it came with the wolfpack in this convoy, so it does not roll the table (the third cold pass of issue 31
    found 7.0.0's first cut rolling it, 12 times in 100 campaigns)."""
    from domain.corvette_command import step

    s = make_state(
        edition="7.0.0", engagement={"range": 3, "step": "evaded", "attacks_left": 0, "wolfpack": True, "summons": False}
    )
    s.decks["uboats"], s.discards["uboats"] = [], []
    c = ctx(
        s,
        [1, 1],  # drawn again from a U counter: 2d6 = 2, submerged at medium
        1, 1,  # ASDIC finds it at medium (it comes to close), then at close
        [5, 5, 5, 1, 1],  # the pattern: d10 5, two d6 match -> 2 hits
        20, 20, 20,  # three failed searches: close -> medium -> long -> beyond: it escapes
    )  # fmt: skip
    asw.evaded(c)
    attack.start_engagement(waiting(c.state) and c)
    assert of(c, ev.UBoatSighted)[-1].wolfpack is False  # not a wolfpack's boat this time
    step(c)
    asw.detect(c)
    asw.detect(c)
    asw.drop_pattern(c, "depth-charges")
    asw.detect(c)
    asw.detect(c)
    asw.detect(c)
    step(c)
    assert [(e.fate, e.hits, e.summons) for e in of(c, ev.UBoatLeft)] == [("withdrew", 0, False), ("escaped", 2, False)]
    assert not of(c, ev.WolfpackRolled) and done(c)


def escort_a_then_escort_b(c, weapon: str) -> None:
    """Two escorts: escort-a's pattern (`weapon`), its three failed searches (the boat escapes), the boat drawn again
    at escort-b's section and found at medium, then close, and escort-b's depth-charge pattern (the faces: the
    test's)."""
    from domain.corvette_command import step

    asw.drop_pattern(c, weapon)
    step(c)
    for _ in range(3):
        asw.detect(c)
    step(c)
    attack.start_engagement(waiting(c.state, "escort-b") and c)
    step(c)
    asw.detect(c)
    asw.detect(c)
    assert c.state.active == "escort-b"
    asw.drop_pattern(c, "depth-charges")


@pytest.mark.parametrize("edition, eligible", [(EDITIONS.newest, False), ("7.0.0", True)])
def test_CC38_CC44_CCR45_CCE8_3_guns_finishing_a_boat_only_the_other_escorts_pattern_hit_open_no_dc_roll(
    edition, eligible
):
    """CC-R45: a kill opens the Depth Charge growth roll only when a pattern had its part in it, and "a sinking the
    depth charges had no part in is not a use of that skill": from 8.0.0 the escort's own depth charges. escort-a's
    pattern hits U-47 twice and it escapes; drawn again at escort-b's section, surfaced, escort-b's 4" gun makes 4 in
    all, a possible kill. escort-b dropped no charge: no Depth Charge roll (7.0.0 read the boat's bar, anyone's
    pattern: the cold audit of 7.0.0, F2)."""
    from domain.corvette_command import step

    s = make_state(escorts=("escort-a", "escort-b"), engagement={"range": 0, "step": "pattern"}, edition=edition)
    c = ctx(
        s,
        [5, 5, 5, 1, 1],  # escort-a's pattern: d10 5, two d6 match -> 2 hits
        1, 1,  # the WOLFPACK roll of each escort as it escapes: none
        [3, 3],  # drawn again at escort-b's section: 2d6 = 6, at night, surfaced
        1,  # escort-b's lookout spots it
        1, [5, 5, 5, 1],  # escort-b's 4" gun: the first shot hits, 2 damage hits -> 4 in all
        20, 20, 20, 20,  # the other shots miss
    )  # fmt: skip
    asw.drop_pattern(c, "depth-charges")
    asw.leave(c, "escaped")
    c.state.decks["uboats"] = []
    attack.start_engagement(waiting(c.state, "escort-b") and c)
    step(c)
    attack.fire_guns(c)
    step(c)
    done(c)
    assert [(e.fate, e.hits) for e in of(c, ev.UBoatLeft)] == [("escaped", 2), ("possible", 4)]
    assert c.state.sheets["escort-b"].kills == {"possible": 1}
    assert c.state.sheets["escort-b"].kill_since_review is eligible


@pytest.mark.parametrize("edition, eligible", [(EDITIONS.newest, False), ("7.0.0", True)])
def test_CC38_CC44_CCR45_CCE8_3_a_hit_that_scores_no_grade_itself_opens_no_dc_roll(edition, eligible):
    """CC-38: "Only if you score a Confirmed, Probable or Possible sinking". escort-a's Hedgehog salvo of 1 hit makes
    U-47 a probable; drawn again at escort-b's section, escort-b's depth-charge pattern hits once (2 in all): no grade
    of its own, so no Depth Charge roll for escort-b. 7.0.0 read the grade the boat bore (the cold audit, F3)."""

    s = make_state(
        escorts=("escort-a", "escort-b"), engagement={"range": 0, "step": "pattern"}, equipment=["hedgehog"],
        edition=edition,
    )  # fmt: skip
    for sheet in s.sheets.values():
        sheet.hedgehog = 15
    s.decks["uboats"] = []
    c = ctx(
        s,
        [5, 5, 1, 1, 1],  # escort-a's Hedgehog: one hit, a probable
        20, 20, 20,  # escort-a loses it: close -> medium -> long -> beyond (probable: no call)
        [1, 1],  # drawn again at escort-b's section: 2d6 = 2, submerged at medium
        1, 1,  # escort-b finds it at medium, then at close
        [5, 5, 1, 1, 1],  # escort-b's pattern: one hit, 2 in all
    )  # fmt: skip
    escort_a_then_escort_b(c, "hedgehog")
    done(c)
    p = of(c, ev.PatternDropped)[-1]
    assert (c.state.active, p.hits, p.total_hits, p.grade) == ("escort-b", 1, 2, "probable")
    assert c.state.sheets["escort-a"].kill_since_review is True
    assert c.state.sheets["escort-b"].kill_since_review is eligible


@pytest.mark.parametrize("edition, awards", [(EDITIONS.newest, 2), ("7.0.0", 1)])
def test_CC30_CCR15_CCE8_4_each_pattern_of_3_hits_earns_its_mentioned_in_despatches(edition, awards):
    """CC-30: "If you score 3 hits in one pattern ... This will be counted as a "probable" kill. Your Commanding
    Officer will be awarded a Mentioned in Despatches." A Hedgehog salvo of 1 hit makes U-47 probable (its MiD,
    CC-R15); the contact kept, a depth-charge pattern of 3 hits (4 in all) scores 3 hits in one pattern: its MiD too.
    7.0.0 gave a boat one (the cold audit of 7.0.0, F4; in the two-player game the second escort's went unawarded)."""
    s = make_state(engagement={"range": 0, "step": "pattern"}, equipment=["hedgehog"], edition=edition)
    c = ctx(s, [5, 5, 1, 1, 1], 1, [5, 5, 5, 5, 1])  # Hedgehog 1 hit; found again at close; DC 3 hits
    asw.drop_pattern(c, "hedgehog")
    asw.detect(c)
    asw.drop_pattern(c, "depth-charges")
    done(c)
    patterns = [(p.weapon, p.hits, p.total_hits) for p in of(c, ev.PatternDropped)]
    assert patterns == [("hedgehog", 1, 1), ("depth-charges", 3, 4)]
    assert [a.award for a in c.state.sheet.awards] == ["Mentioned in Despatches"] * awards


def test_CC30_CCR15_CCE8_4_repeated_hedgehog_probables_earn_one_mentioned_in_despatches():
    """The Hedgehog's probable earns its Mentioned in Despatches by ruling (CC-R15: the text gives the salvo a grade,
    "1 hit is a "probable"", and no award): once a boat. Two salvoes of 1 hit each on U-47, the contact kept: one award
    (the cold pass over 8.0.0 found salvoes of 1 earning one each, up to four for one boat)."""
    s = make_state(engagement={"range": 0, "step": "pattern"}, equipment=["hedgehog"])
    c = ctx(s, [5, 5, 1, 1, 1], 1, [5, 5, 1, 1, 1])  # a salvo: 1 hit; found again at close; a salvo: 1 hit
    asw.drop_pattern(c, "hedgehog")
    asw.detect(c)
    asw.drop_pattern(c, "hedgehog")
    done(c)
    patterns = [(p.hits, p.total_hits, p.grade) for p in of(c, ev.PatternDropped)]
    assert patterns == [(1, 1, "probable"), (1, 2, "probable")]
    assert [a.award for a in c.state.sheet.awards] == ["Mentioned in Despatches"]


@pytest.mark.parametrize("edition, eligible", [("7.0.0", False), ("6.0.0", True)])
def test_CC38_CC44_CCR45_CCE7_2_a_pattern_that_misses_opens_no_depth_charge_roll(edition, eligible):
    """CC-38: "Only if you score a Confirmed, Probable or Possible sinking will you have the opportunity to attempt to
    increase your Depth Charge skill." Two escorts: escort-a's pattern makes U-47 a probable; drawn again at
    escort-b's section, escort-b's pattern misses. escort-b scored no sinking (the third cold pass of issue 31);
    6.0.0 opened its Depth Charge roll for the grade the boat bore."""

    s = make_state(escorts=("escort-a", "escort-b"), engagement={"range": 0, "step": "pattern"}, edition=edition)
    s.decks["uboats"] = []
    c = ctx(
        s,
        [5, 5, 5, 5, 1],  # escort-a's pattern: 3 hits, a probable
        20, 20, 20,  # escort-a's searches fail: close -> medium -> long -> beyond: it escapes (probable: no call)
        [1, 1],  # drawn again at escort-b's section: 2d6 = 2, submerged at medium
        1, 1,  # escort-b finds it at medium, then at close
        [5, 1, 1, 1, 1],  # escort-b's pattern: d10 5, no d6 matches: no hit
    )  # fmt: skip
    escort_a_then_escort_b(c, "depth-charges")
    p = of(c, ev.PatternDropped)[-1]
    assert (p.hits, p.grade) == (0, "probable") and done(c)
    assert c.state.sheets["escort-a"].kill_since_review is True
    assert c.state.sheets["escort-b"].kill_since_review is eligible
    review = ctx(c.state, *[1] * 20)
    port.grow_crew(review, "escort-b")
    assert ("depth_charge" in of(review, ev.CrewReviewed)[0].eligible) is eligible


@pytest.mark.parametrize(("edition", "fate"), [("8.0.0", "escaped"), ("9.0.0", "withdrew")])
def test_CC31_CCR27_CCE9_1_a_uboat_the_guns_alone_hurt_withdraws_after_its_last_attack(edition, fate):
    """CC-31 (L173): "The U-Boat can attack the convoy a maximum of 3 or 4 times ... after which it will withdraw ...
    rolling 1d6 on the WOLFPACK Table below with a DRM of -1 for each point of damage it has sustained"; escaping is
    what a pattern's hits make it do (L187-188), and gun hits bar no attack (CC-R27). Its last attack spent after the
    4" hit it twice, lost beyond long range: from 9.0.0 (CC-E9-1) it withdrew; 8.0.0 recorded it escaped. Its
    WOLFPACK roll counts the gun damage in both."""
    s = make_state(
        engagement={"range": 2, "surfaced": True, "step": "guns", "attacks_left": 1, "evade": 3, "profile": "L/M/C"},
        skills={"gun": 1},
        edition=edition,
    )
    c = ctx(s)
    c.dice = PurposeDice({"gun-shot": [1, 20], "gun-damage": [[2, 2, 2, 5]], "torpedo-target": [5],
                          "uboat-attack": [20], "asdic-detection": [20], "wolfpack": [6]})  # fmt: skip
    attack.fire_guns(c)  # the first shot hits: the special die 2 beside two 2s, two damage hits
    assert (c.state.engagement.hits, c.state.engagement.barred) == (2, False)
    attack.attack(c)  # its last attack, which misses
    asw.detect(c)  # the search fails at long range: it is beyond long range
    assert c.state.engagement.step == "evaded" and c.state.engagement.attacks_left == 0
    asw.evaded(c)
    [left] = of(c, ev.UBoatLeft)
    assert (left.fate, left.hits, left.summons) == (fate, 2, True)
    assert [(w.roll, w.drm, w.uboats) for w in of(c, ev.WolfpackRolled)] == [(6, -2, 2)]  # 6 - 2 = 4: two boats
    assert views.campaign_sheet(c.state).current.encounters[-1].fate == fate
