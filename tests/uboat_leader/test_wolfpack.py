"""Formar Wolfpacks (UL-28, UL-R15, UL-R41), the Radio Call (UL-15) and the start of combat (UL-29)."""

from __future__ import annotations

import pytest

from domain.decisions import without_descriptors
from domain.engine import IllegalCommand
from domain.procedure import forget
from domain.uboat_leader import RULESET
from domain.uboat_leader.bot import choose
from domain.uboat_leader.rules.contact import place_choices
from events import uboat_leader as ev
from tests.uboat_leader.scenario import at_contact, data_with, engage, legal, of, put, roll, send


def test_UL28_UL_R41_a_boat_joins_on_6_or_more_minus_2_with_an_attacked_counter():
    s = at_contact()
    engage(s)
    send(s, "place", boat="U-47", area="L1", side="surfaced")
    s.boats["U-51"].attacked = True
    events = send(s, "call_wolfpack", 7, boat="U-51")
    r = roll(events, "Wolfpack")
    assert (r.result.total, of(events, ev.WolfpackCalled)[0].joined) == (5, False) and "UL-28" in r.rule
    assert "call_wolfpack" not in legal(s), "one roll per boat and contact"


def test_UL28_a_natural_stress_result_gives_the_active_boat_1_stress_and_an_alerted_counter():
    s = at_contact()
    engage(s)
    send(s, "place", boat="U-47", area="L1", side="surfaced")
    events = send(s, "call_wolfpack", 1, boat="U-51")
    assert of(events, ev.StressChanged)[0].boat == "U-47" and s.battle.alerted == 2


def test_UL_R15_joining_and_stress_can_both_happen():
    both = data_with(lambda d: d["campaigns"][0]["wolfpack"].update(stress_on=[7]))
    s = at_contact(data=both)
    engage(s)
    send(s, "place", boat="U-47", area="L1", side="surfaced")
    send(s, "call_wolfpack", 7, boat="U-51")
    assert s.act.to_place == ["U-51"] and s.boats["U-47"].stress == 1 and s.battle.alerted == 2


@pytest.mark.parametrize("stress,band", [(9, "unfit"), (0, "okay")])
def test_UL_R58_UL28_an_active_boat_made_unfit_by_the_stress_result_stays_leaves_and_its_pack_goes_on(stress, band):
    """UL-R58: the Stress result comes after the active boat is placed ("Después de colocar los Contactos y el U-Boat,
    puedes intentar formar una Wolfpack"), so a boat it makes Unfit is on the display: it leaves as fast as it can
    (UL-30: its only moves go off the display; a fit one's go anywhere) and attacks no more (UL-3, pinned by
    test_UL3_an_unfit_boat_does_not_attack), while the boats it calls still join and attack, each on its own ("cada
    U-Boat actúa individualmente"): the contact does not end (the cold audit of 8.0.0, F1, a reading)."""
    s = at_contact(boats=(("U-47", "trained"), ("U-51", "trained"), ("U-43", "trained")))
    put(s, "U-47", "w-approaches", stress=stress)  # 9: Shaken, one short of Unfit on U-47's card (bands 5, 9)
    engage(s)
    send(s, "place", boat="U-47", area="L1", side="surfaced")
    send(s, "call_wolfpack", 1, boat="U-51")  # a natural 1: the Stress result, +1 to the active boat
    assert (s.boats["U-47"].stress, s.boats["U-47"].band) == (stress + 1, band)
    assert of(send(s, "call_wolfpack", 8, boat="U-43"), ev.WolfpackCalled)[0].joined
    send(s, "place", boat="U-43", area="L2", side="surfaced")
    (step,) = send(s, "start_combat")
    assert step.queue == ["U-47", "U-43"] and set(s.battle.subs) == {"U-47", "U-43"}
    ends = {c["to"] for c in legal(s)["move_uboat"].choices if c["boat"] == "U-47"}
    assert (ends == {"off"}) == (band == "unfit"), ends


def test_UL28_boats_in_the_search_box_cannot_be_called():
    s = at_contact()
    put(s, "U-51", "w-approaches", "search")
    engage(s)
    send(s, "place", boat="U-47", area="L1", side="surfaced")
    assert "call_wolfpack" not in legal(s) and "radio_call" not in legal(s)


def test_UL15_a_radio_call_before_any_roll_brings_the_boats_named_for_its_cost():
    s = at_contact(boats=(("U-47", "trained"), ("U-51", "trained"), ("U-43", "trained")), so_half=4)
    engage(s)
    send(s, "place", boat="U-47", area="L1", side="surfaced")
    (called,) = send(s, "radio_call", boats=["U-43", "U-51"])
    assert (called.cost_half, s.so_half, s.act.to_place) == (2, 2, ["U-43", "U-51"])
    assert "radio_call" not in legal(s)


@pytest.mark.parametrize("edition", [None, "7.0.0"])
def test_UL15_UL_R15_ULE8_2_one_radio_call_a_contact(edition):
    """Formar Wolfpacks: "Si adquieres la Opción Especial 'Llamada por la Radio' en ese momento, no necesitas lanzar el
    dado para otros U-Boats en el Área. Puedes elegir libremente a otros U-Boats en el Área para que se unan a tu
    ataque" (buy the Radio Call then and you need not roll for the Area's other boats: you may freely choose them to
    join): one call before the first roll names any number (UL-R15), so from 8.0.0 (UL-E8-2) a second in the same
    contact is refused, naming UL-R15, and not offered; 7.0.0 sold it again (1 SO and one of the campaign's two)."""
    s = at_contact(boats=(("U-47", "trained"), ("U-51", "trained"), ("U-43", "trained")), so_half=4, edition=edition)
    engage(s)
    send(s, "place", boat="U-47", area="L1", side="surfaced")
    send(s, "radio_call", boats=["U-51"])
    send(s, "place", boat="U-51", area="L2", side="surfaced")
    assert (s.so_half, s.bought["radio_call"]) == (2, 1)
    offered = legal(s)
    assert "call_wolfpack" in offered, "the Area's other boat may still be rolled for"
    if edition is None:
        assert "radio_call" not in offered
        with pytest.raises(IllegalCommand, match="UL-R15"):
            send(s, "radio_call", boats=["U-43"])
        assert (s.so_half, s.bought["radio_call"], s.act.called) == (2, 1, ["U-51"]), "refused: nothing spent"
    else:
        assert offered["radio_call"].choices == [{"boats": ["U-43"]}]
        send(s, "radio_call", boats=["U-43"])
        assert (s.so_half, s.bought["radio_call"], s.act.to_place) == (0, 2, ["U-43"])


def test_UL15_no_radio_call_after_a_wolfpack_roll():
    s = at_contact(boats=(("U-47", "trained"), ("U-51", "trained"), ("U-43", "trained")), so_half=4)
    engage(s)
    send(s, "place", boat="U-47", area="L1", side="surfaced")
    send(s, "call_wolfpack", 2, boat="U-51")
    with pytest.raises(IllegalCommand) as e:
        send(s, "radio_call", boats=["U-43"])
    assert "before any Wolfpack roll" in e.value.detail


def test_UL29_start_combat_begins_turn_1_with_every_boat_to_move():
    s = at_contact()
    engage(s)
    send(s, "place", boat="U-47", area="L1", side="surfaced")
    (step,) = send(s, "start_combat")
    assert (step.turn, step.step, step.queue) == (1, "move", ["U-47"])


def test_UL27_UL_R17_two_infiltradores_to_place_are_too_many_to_list_so_the_schema_is_narrowed():
    both = data_with(lambda d: d["uboats"][3].update(abilities=["infiltrator"]))  # U-51 an Infiltrador too
    s = at_contact(data=both)
    engage(s)
    s.act.to_place = ["U-47", "U-51"]  # 2 boats x 24 areas x 2 sides = 96 > 64
    spec = legal(s)["place"]
    props = spec.schema["properties"]
    assert spec.choices is None and spec.labels is None
    assert (
        props["boat"]["enum"] == ["U-47", "U-51"]
        and len(props["area"]["enum"]) == 24
        and "C1" not in props["area"]["enum"]
    )


def test_UL_R15_the_bot_places_a_radio_calls_three_boats_when_the_entry_lists_no_choices():
    """"Puedes elegir libremente a otros U-Boats en el Área para que se unan a tu ataque" (you may freely choose
    other U-boats in the Area to join your attack): three boats called, one an Infiltrador (any Long, Medium or Short
    area), make more than 64 placements, so `place` lists none; the bot (what-if and `simulate --from` continue a
    player's game with it) raised TypeError there (the cold audit of 8.0.0, N1). It places from the rules' own."""
    s = at_contact(boats=(("U-43", "trained"), ("U-47", "trained"), ("U-51", "trained"), ("U-56", "ace")))
    engage(s, card=37, boat="U-43")
    send(s, "place", boat="U-43", area="L5", side="surfaced")
    send(s, "radio_call", boats=["U-47", "U-51", "U-56"])
    forget(s)
    with without_descriptors():
        offered = RULESET.legal_commands(s)
    (place,) = [x for x in offered if x.type == "place"]
    assert place.choices is None and len(place_choices(s)) > 64
    chosen = choose(s, offered, "commander")
    assert chosen is not None and chosen["type"] == "place"
    assert {k: v for k, v in chosen.items() if k != "type"} in place_choices(s)
    send(s, **chosen)

