"""SEGMENTO TÁCTICO, Fase de Contacto: the active boat (UL-24, UL-R12), Contact roll (UL-25, UL-R13), Convoy cards,
Air Search and Retirarse (UL-10, UL-26), Preparación Táctica (UL-27, UL-R14, UL-R16, UL-R17)."""

from __future__ import annotations

import pytest

from domain.dice import ChosenDice
from domain.engine import IllegalCommand
from domain.procedure import Ctx
from domain.uboat_leader.evolve import evolve
from domain.uboat_leader.rules import contact
from domain.uboat_leader.rules.contact import contacts_for
from events import uboat_leader as ev
from tests.uboat_leader.scenario import (
    at_contact,
    deck,
    engage,
    legal,
    of,
    put,
    roll,
    send,
    types,
)

QUIET = 8


def test_UL24_UL_R12_the_active_boat_is_a_fit_one_in_an_areas_open_space_unfit_ones_go_to_the_search_box():
    s = at_contact()
    put(s, "U-51", "w-approaches", stress=11)  # made Unfit in an earlier combat (bands 6/10)
    c = Ctx(s, ChosenDice(), evolve)
    contact.advance(c)
    assert types(c.events) == ["ToSearchBox"] and c.state.boats["U-51"].space == "search"
    assert legal(c.state)["activate"].choices == [{"boat": "U-47"}]


def test_UL24_no_roll_or_no_contact_sends_the_boat_to_the_search_box_and_a_new_boat_is_chosen():
    s = at_contact()
    send(s, "activate", boat="U-47")
    events = send(s, "pass")
    assert types(events) == ["ContactsPassed", "ToSearchBox", "ActivationEnded"]
    send(s, "activate", boat="U-51")
    events = send(s, "roll_contacts", 3)  # 3 < 4: no contact in the Western Approaches
    assert of(events, ev.ContactsRolled)[0].contacts == 0 and of(events, ev.ToSearchBox)[0].boat == "U-51"
    assert s.segment == "strategic" and s.turn == 2, "no boat left: refit (Search boxes emptied), the next turn"


@pytest.mark.parametrize("total, contacts", [(-3, 0), (3, 0), (4, 1), (6, 1), (7, 2), (9, 2), (10, 3), (14, 3)])
def test_UL25_UL_R13_contacts_by_the_areas_table_off_table_results_take_its_end_rows(total, contacts):
    assert contacts_for([4, 7, 10], total) == contacts


def test_UL25_contact_modifiers_intel_seeker_warnings_attacked_and_events():
    s = at_contact(boats=(("U-43", "trained"), ("U-51", "trained")))
    s.counters["w-approaches"] = ["intel"]
    s.warnings["w-approaches"] = 2
    s.boats["U-43"].attacked = True
    s.boats["U-43"].contact_mod = 2
    send(s, "activate", boat="U-43")
    deck(s, "convoys", 11)
    events = send(s, "roll_contacts", 7, 1)
    r = roll(events, "Contact roll")
    mods = [(m.reason, m.value) for m in r.result.modifiers]
    assert mods == [("Intel", 2), ("Buscador", 1), ("2 Warning(s)", -4), ("Attacked", -2), ("Events this turn", 2)]
    assert r.result.total == 6 and of(events, ev.ContactsRolled)[0].contacts == 1 and "UL-25" in r.rule


def test_UL26_UL10_with_air_search_two_convoy_cards_are_drawn_and_one_kept():
    s = at_contact()
    s.counters["w-approaches"] = ["air_search"]
    send(s, "activate", boat="U-47")
    deck(s, "convoys", 11, 37)
    events = send(s, "roll_contacts", 4, 1, 1)
    assert [e.number for e in of(events, ev.CardDrawn)] == [11, 37] and s.act.contacts == 0
    assert legal(s)["choose_convoy_card"].choices == [{"number": 11}, {"number": 37}]
    events = send(s, "choose_convoy_card", number=37)
    assert of(events, ev.CardsDiscarded)[0].numbers == [11] and set(legal(s)) == {"engage", "withdraw"}


def test_UL26_retirarse_goes_to_post_combat_without_stress_or_warning():
    s = at_contact()
    send(s, "activate", boat="U-47")
    deck(s, "convoys", 37)
    s.boats["U-47"].ready["normal"] = 2
    send(s, "roll_contacts", 4, 1)
    events = send(s, "withdraw")
    assert not of(events, ev.StressChanged) and not of(events, ev.WarningPlaced)
    assert of(events, ev.TorpedoesReloaded)[0].moved == {"normal": 3}, "Post-Combat reloads (UL-S8)"
    assert of(events, ev.CardsDiscarded)[0].numbers == [37]
    assert s.boats["U-47"].space == "search" and s.act is None, "no contact left: the activation ends"


def test_UL27_the_convoy_cards_counters_the_battle_counter_and_a_warning_the_first_time_UL_R14():
    s = at_contact()
    events = engage(s)
    placed = of(events, ev.ShipsPlaced)[0]
    assert [(p.label, p.kind, p.area) for p in placed.pieces][:3] == [
        ("M1", "M", "C1"),
        ("M2", "M", "C2"),
        ("M3", "M", "C4"),
    ]
    assert placed.alerted == 1 and s.battle.alerted == 1, "convoy #37 is Alerted"
    assert of(events, ev.WarningPlaced)[0].warnings == 1 and "battle" in s.counters["w-approaches"]
    assert s.warned == [["U-47", "w-approaches"]]


@pytest.mark.parametrize("edition", [None, "7.0.0"])
def test_UL27_UL_R14_ULE8_1_no_warning_on_a_later_card_after_withdrawing_from_the_first(edition):
    """UL-27: "Coloca también una ficha de 'Peligro de U-Boat' la primera vez que cada U-Boat roba una carta de Convoy
    en el Área" (the first time each U-boat draws a Convoy card in the Area). U-47 rolls two contacts (7 on [4, 7, 10]),
    withdraws from its first card (11) and engages the second (37, drawn at once, UL-E3-9): from 8.0.0 (UL-E8-1) no
    Warning, that was not its first draw there; 7.0.0 placed one on the first card engaged."""
    s = at_contact(edition=edition)
    send(s, "activate", boat="U-47")
    deck(s, "convoys", 11, 37)
    events = send(s, "roll_contacts", 7, 1)
    assert of(events, ev.ContactsRolled)[0].contacts == 2 and [e.number for e in of(events, ev.CardDrawn)] == [11]
    events = send(s, "withdraw", 1)
    assert [e.number for e in of(events, ev.CardDrawn)] == [37] and not of(events, ev.WarningPlaced)
    events = send(s, "engage")
    assert of(events, ev.ContactEngaged)[0].number == 37
    if edition is None:
        assert not of(events, ev.WarningPlaced) and s.warnings == {} and s.warned == []
    else:
        assert [(w.area, w.boat, w.warnings) for w in of(events, ev.WarningPlaced)] == [("w-approaches", "U-47", 1)]


def test_UL_S9_UL_R14_ULE8_1_a_draw_withdrawn_from_is_remembered_until_the_reset_clears_it_with_the_warnings():
    """The record of the boats' draws is UL-R14's per-boat record: a card withdrawn from counts as drawn, and the
    map reset (UL-S9) clears it with the Warnings, so the next turn's first card is a first draw again."""
    s = at_contact()
    send(s, "activate", boat="U-47")
    deck(s, "convoys", 11)
    send(s, "roll_contacts", 4, 1)
    send(s, "withdraw")
    assert s.drew == (("U-47", "w-approaches"),) and s.warnings == {} and s.act is None
    evolve(s, ev.MapReset())
    assert s.drew == () and s.warned == []


@pytest.mark.parametrize("kept", [11, 37])
def test_UL26_UL_R14_ULE8_1_with_air_search_either_card_of_the_first_draw_is_its_first_and_gets_the_warning(kept):
    """The two cards Air Search draws for one contact are one draw (UL-10, UL-R13): the card kept of the first is the
    boat's first Convoy card in the Area, whichever it is, and engaging it places the Warning (UL-R14)."""
    s = at_contact()
    s.counters["w-approaches"] = ["air_search"]
    send(s, "activate", boat="U-47")
    deck(s, "convoys", 11, 37)
    send(s, "roll_contacts", 4, 1, 1)
    send(s, "choose_convoy_card", number=kept)
    assert [w.boat for w in of(send(s, "engage"), ev.WarningPlaced)] == ["U-47"]


def test_UL_R16_a_naval_contacts_escorts_are_fleet_escorts_known_at_once():
    s = at_contact()
    events = engage(s, 2, 1, card=21)  # Fleet Escorts 2, then 1
    assert [(e.deck, e.number) for e in of(events, ev.CardDrawn)] == [("fleet", 2), ("fleet", 1)]
    assert [(p.label, p.deck, p.escort) for p in s.battle.ships.values() if p.kind == "E"] == [
        ("E1", "fleet", True),
        ("E2", "fleet", True),
    ]
    assert s.battle.ships["N1"].number is None, "the Naval ships stay Unknown"


def test_UL27_UL_R17_a_boat_starts_on_a_long_area_an_infiltrador_on_a_medium_or_short_one_too():
    s = at_contact()
    engage(s)
    areas = {c["area"] for c in legal(s)["place"].choices}
    assert "S3" in areas and "M5" in areas and "C1" not in areas, "U-47 is an Infiltrador"
    send(s, "place", boat="U-47", area="S5", side="submerged")
    send(s, "call_wolfpack", 6, boat="U-51")
    assert {c["area"] for c in legal(s)["place"].choices} == {f"L{i}" for i in range(1, 9)}
    with pytest.raises(IllegalCommand):
        send(s, "place", boat="U-51", area="M1", side="surfaced")
