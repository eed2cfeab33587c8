"""Resolver las Misiones Especiales: Mines (UL-17), Attack (UL-18, the U-47 example), Raider (UL-19), boxes
(UL-R7), torpedo sources and order (UL-R31, UL-R32), no XP from Mines or Raider (UL-R9)."""

from __future__ import annotations

import pytest

from domain.engine import IllegalCommand
from domain.uboat_leader.rules.missions import mines_vp
from events import uboat_leader as ev
from tests.uboat_leader.scenario import data_with, deck, legal, new_state, of, put, roll, rolls, send

ROUGH, AIRCRAFT, SUB_ATTACK, RADIO, QUIET = 1, 3, 5, 6, 8


def test_UL18_UL_R45_the_U47_example_1_plus_3_events_royal_oak_sunk_by_4_torpedoes_sirius_lightly_damaged():
    s = new_state(boats=(("U-47", "veteran"),), segment="operations")
    s.boats["U-47"].missions = ["attack"]
    deck(s, "events", ROUGH, AIRCRAFT, SUB_ATTACK, RADIO)
    send(s, "move", 1, boat="U-47", to="north-sea")  # Mar Agitado: +1
    events = send(s, "move", boat="U-47", to="north-sea-attack")  # UL-E3-3: asked before the first box Event
    began = of(events, ev.MissionBegan)[0]
    assert (began.patrol_events, began.events) == (0, 3), "it moved into the Area first: no Patrol value (UL-R7)"
    assert set(legal(s)) == {"continue_attack", "abort_attack"}
    send(s, "continue_attack", 1, 2)  # Avión Enemigo: 2 + EV 4 = 6: +2
    assert set(legal(s)) == {"continue_attack", "abort_attack"}
    send(s, "continue_attack", 1)  # Ataque Submarino Aliado: +2
    assert (s.boats["U-47"].stress, s.boats["U-47"].band) == (5, "okay"), "5 stress: almost Shaken"
    events = send(s, "continue_attack", 1, 1, 1, 1)  # Radio Interceptada; then 3 Naval cards
    assert [e.name for e in of(events, ev.CardDrawn)][1:] == ["HMS Royal Oak", "HMS Cumberland", "HMS Sirius"]
    assert set(legal(s)) == {"fire_torpedoes"}
    shots = [{"target": "1"}] * 4 + [{"target": "3"}]
    # Royal Oak [5, 8, -]: d10 + TS 1 (range 0: +0): 1 misses, 4 is Light (1 point), 7 Heavy (+2: 3 points, now
    # Heavy-damaged), 4 + 1 + 1 Light: 4 points, sunk (UL-R23: the +1 from the roll after the Heavy result)
    events = send(s, "fire_torpedoes", 1, 4, 7, 4, 3, boat="U-47", shots=shots)
    assert [e.result for e in of(events, ev.AttackRolled)] == ["miss", "light", "heavy", "sunk", "light"]
    assert [r.result.total for r in rolls(events)] == [2, 5, 8, 6, 4]
    assert [(x.reason, x.value) for x in rolls(events)[3].result.modifiers] == [("TS", 1), ("target Heavy-damaged", 1)]
    assert all(
        r.rule.startswith("UL-S3 (stand-in rule, not from the text): Misión Especial: Ataque (UL-18)")
        for r in rolls(events)
    )
    (scored,) = of(events, ev.Scored)
    assert (scored.vp, of(events, ev.XpGained)[0].xp) == (4, 3), "4 VP and 3 XP: only the sunk ship scores"
    assert of(events, ev.CardsDiscarded)[-1].numbers == [1, 2, 3], "the Naval cards are discarded (UL-R25)"
    b = s.boats["U-47"]
    assert (b.space, b.where, b.missions, sum(b.ready.values()), sum(b.stored.values())) == (
        "search",
        "north-sea",
        [],
        0,
        9,
    )


def test_UL_R31_a_shot_at_a_ship_already_sunk_is_not_fired_and_UL_R32_stored_torpedoes_follow_ready_ones():
    s = at_the_attack_round(ready=1)
    events = send(s, "fire_torpedoes", 10, boat="U-47", shots=[{"target": "3"}, {"target": "3"}])  # Sirius: 10+2 sinks
    assert [(e.slot, e.result) for e in of(events, ev.AttackRolled)] == [("ready", "sunk")]
    assert (s.boats["U-47"].ready["normal"], s.boats["U-47"].stored["normal"]) == (0, 9), "the second stays aboard"


def at_the_attack_round(edition: str | None = None, ready: int = 1, stored: int = 9):
    """U-47 in the North Sea's Attack box after its three Events (it started in the Area: Patrol value 1, then the
    box's), the HMS Sirius drawn: its round of torpedoes next."""
    s = new_state(segment="operations", edition=edition)
    put(s, "U-47", "north-sea", missions=["attack"])
    s.boats["U-47"].ready["normal"], s.boats["U-47"].stored["normal"] = ready, stored
    deck(s, "events", QUIET, QUIET + 1, 10)
    deck(s, "naval", 3)
    send(s, "move", 1, boat="U-47", to="north-sea-attack")
    send(s, "continue_attack", 1)
    send(s, "continue_attack", 1)
    send(s, "continue_attack", 1, 1)
    return s


@pytest.mark.parametrize("edition", [None, "6.0.0"])
def test_UL18_ULE7_1_the_attack_missions_round_fires_at_least_one_torpedo(edition):
    """UL-18: "lleva a cabo 1 ronda de ataques con Torpedos contra alguna o todas las cartas Objetivo" (carry out 1
    round of torpedo attacks at some or all of the target cards): a round of no torpedo at none is refused, saying so,
    and the form and schema ask at least one (7.0.0, UL-E7-1); 6.0.0 took the empty round, the Naval card discarded
    and nothing fired."""
    s = at_the_attack_round(edition)
    spec = legal(s)["fire_torpedoes"]
    newest = edition is None
    assert spec.schema["properties"]["shots"].get("minItems") == (1 if newest else None)
    assert spec.ui.controls[1].min == (1 if newest else 0)
    if newest:
        with pytest.raises(IllegalCommand, match="alguna o todas"):
            send(s, "fire_torpedoes", boat="U-47", shots=[])
        assert s.boats["U-47"].space != "search", "refused: nothing changed"
    else:
        send(s, "fire_torpedoes", boat="U-47", shots=[])
        assert (s.boats["U-47"].space, s.boats["U-47"].stored["normal"]) == ("search", 9)


def test_UL18_ULE7_1_a_box_that_draws_no_naval_card_takes_an_empty_round():
    """A game's own data set may give an Attack box no Naval card to draw (`naval` left out): with no target card
    there is nothing "contra alguna o todas las cartas Objetivo" to fire at, so the empty round is taken and the
    mission ends (the cold pass over 7.0.0 found it refused, every shot refused too: the game stuck)."""

    def no_naval(d):
        for campaign in d["campaigns"]:
            for area in campaign["map"]["areas"]:
                for box in area.get("boxes", []):
                    if box["mission"] == "attack":
                        box.pop("naval", None)

    s = new_state(segment="operations", data=data_with(no_naval))
    put(s, "U-47", "north-sea", missions=["attack"])
    deck(s, "events", QUIET, QUIET + 1, 10)
    send(s, "move", 1, boat="U-47", to="north-sea-attack")
    send(s, "continue_attack", 1)
    send(s, "continue_attack", 1)
    send(s, "continue_attack", 1)
    assert s.ops.box.targets == [] and s.boats["U-47"].torpedoes > 0
    assert legal(s)["fire_torpedoes"].schema["properties"]["shots"].get("minItems") is None
    send(s, "fire_torpedoes", boat="U-47", shots=[])
    assert s.boats["U-47"].space == "search" and not s.boats["U-47"].missions


def test_UL18_ULE7_1_a_boat_with_no_torpedo_fires_none_and_the_mission_ends():
    """A boat on an Attack mission that carries no torpedo (the mission "puede ser adquirida para cualquier U-Boat que
    no esté Incapacitado") fires none: its round is empty and the mission ends, as before 7.0.0."""
    s = at_the_attack_round(ready=0, stored=0)
    assert legal(s)["fire_torpedoes"].schema["properties"]["shots"].get("minItems") is None
    send(s, "fire_torpedoes", boat="U-47", shots=[])
    assert s.boats["U-47"].space == "search" and not s.boats["U-47"].missions


def test_UL18_ULS3_UL14_a_FAT_in_the_attack_mission_has_no_merchant_bonus_against_a_naval_card():
    """The Attack mission's targets are Naval cards; the FAT is "para usarlos contra los Mercantes": Sirius
    [4, 7, 10], a Trained U-47 (TS +1, range 0): a 5 is 6, Light (with a FAT +1 it would have been 7, Heavy)."""
    s = new_state(segment="operations")
    put(s, "U-47", "north-sea", missions=["attack"])
    s.boats["U-47"].ready.update(normal=4, FAT=1)
    deck(s, "events", QUIET, QUIET + 1, 10)
    deck(s, "naval", 3)
    send(s, "move", 1, boat="U-47", to="north-sea-attack")
    send(s, "continue_attack", 1)
    send(s, "continue_attack", 1)
    send(s, "continue_attack", 1, 1)
    events = send(s, "fire_torpedoes", 5, boat="U-47", shots=[{"target": "3", "kind": "FAT"}])
    (r,) = rolls(events)
    assert [(m.reason, m.value) for m in r.result.modifiers] == [("TS", 1)]
    assert (r.result.total, of(events, ev.AttackRolled)[0].result) == (6, "light")


@pytest.mark.parametrize("edition", ["4.0.0", "3.0.0"])
@pytest.mark.parametrize(
    "area, box, mission",
    [("british-isles", "british-isles-mines", "mine"), ("n-atlantic", "n-atlantic-raider", "raider")],
)
def test_UL20_UL_R56_ULE4_2_a_boat_entering_a_box_from_its_area_draws_the_areas_move_value_then_the_boxs_count(
    edition, area, box, mission
):
    """Operaciones: "Cuando un U-Boat en movimiento cruza una línea hacia una nueva Área, … o cuando entra a o sale de
    un recuadro de Misión Especial, roba y resuelve el número de cartas de Evento que se indica en la Tabla de
    Contacto para Moverse en el Área" (…or when it enters or leaves a Special Mission box, it draws the Area's Move
    number of Event cards): a step into the box from its Area is a move. The British Isles and the North Atlantic:
    Move 1, Patrol 2; their boxes 1 and 2 Events. 4.0.0 (UL-E4-2): 1 Move card as the boat steps in, then the box's;
    3.0.0 drew the Patrol value (2) first: one card more."""
    s = new_state(segment="operations", edition=edition)
    put(s, "U-47", area, missions=[mission], mines=8 if mission == "mine" else 0)
    a, x = s.box(box)
    deck(s, "events", QUIET, QUIET + 1)
    before = a.move if edition == "4.0.0" else a.patrol
    assert (a.move, a.patrol) == (1, 2)
    events = send(s, "move", *[1] * (before + x.events), boat="U-47", to=box)
    began = of(events, ev.MissionBegan)[0]
    assert len(of(events, ev.EventResolved)) == before + x.events
    if edition == "4.0.0":
        assert began.patrol_events == 0 and events.index(began) > events.index(of(events, ev.EventResolved)[0])
        assert [r.purpose for r in rolls(events)][0].endswith(f"U-47: move into {box}")
    else:
        assert began.patrol_events == 2 and events.index(began) < events.index(of(events, ev.EventResolved)[0])


def test_UL18_UL_R45_UL_R56_from_its_area_the_attack_box_asks_after_the_move_card_before_its_first_event():
    """4.0.0: the Move card comes with the step (a move, UL-E4-2); the abort is asked before the box's first Event."""
    s = new_state(segment="operations")
    put(s, "U-47", "north-sea", missions=["attack"])
    deck(s, "events", QUIET, QUIET + 1, 10)
    events = send(s, "move", 1, boat="U-47", to="north-sea-attack")  # North Sea: Move 1
    assert len(of(events, ev.EventResolved)) == 1 and of(events, ev.MissionBegan)[0].events == 3
    assert set(legal(s)) == {"continue_attack", "abort_attack"} and s.ops.box.events == 3


def test_UL_R56_ULE4_2_a_boat_that_crossed_into_the_area_this_move_draws_only_the_boxs_count():
    """The U-47 example: "se mueve hacia el Área del Mar del Norte, roba una carta de Evento … y luego entra en el
    recuadro Especial de Ataque … Debes robar tres cartas de Evento": the crossing's Move card, then the box's three;
    no second Move card for the box (the Move value is the Area's, drawn once a move). Here the British Isles."""
    s = new_state(segment="operations")
    put(s, "U-47", "north-sea", missions=["mine"], mines=8)
    deck(s, "events", QUIET, QUIET + 1, 10)
    send(s, "move", 1, boat="U-47", to="british-isles")
    events = send(s, "move", 1, boat="U-47", to="british-isles-mines")  # the box's 1 Event only
    assert of(events, ev.MissionBegan)[0].patrol_events == 0 and len(of(events, ev.EventResolved)) == 1


def test_UL21_UL_R8_ULE4_2_a_boat_made_unfit_by_the_move_card_into_a_box_fails_its_mission_in_the_search_box():
    """ "Si el U-Boat queda incapacitado debido a una carta de Evento, no puede completar la Misión Especial y se
    coloca en el recuadro de Búsqueda para el Área": U-47 at 9 stress (Unfit from 10) draws Allied Submarine
    Attack (+2) as it steps into the Mines box; it keeps the counter and its mines (UL-R8)."""
    s = new_state(segment="operations")
    put(s, "U-47", "british-isles", stress=9, missions=["mine"], mines=8)
    deck(s, "events", SUB_ATTACK)
    events = send(s, "move", 1, boat="U-47", to="british-isles-mines")
    assert not of(events, ev.MissionBegan)
    assert [(e.mission, e.outcome) for e in of(events, ev.MissionEnded)] == [("mine", "failed")]
    b = s.boats["U-47"]
    assert (b.band, b.space, b.where, b.missions, b.mines) == ("unfit", "search", "british-isles", ["mine"], 8)
    assert s.ops.box is None and s.ops.moving is None


def test_UL17_mines_score_the_boxs_vp_by_mines_laid_and_no_xp():
    s = new_state(segment="operations")
    put(s, "U-47", "british-isles", missions=["mine"], mines=8)
    deck(s, "events", QUIET, QUIET + 1, 10)
    events = send(s, "move", 1, 1, boat="U-47", to="british-isles-mines")  # Move 1, the box's 1 (UL-E4-2)
    laid = of(events, ev.MinesLaid)[0]
    assert (laid.mines, laid.vp, s.vp) == (8, 4, 4), "the text: a VIIB replacing 8 torpedoes by mines wins 4 VP"
    assert not of(events, ev.XpGained) and s.boats["U-47"].mines == 0 and s.boats["U-47"].space == "search"


@pytest.mark.parametrize("mines, vp", [(1, 0), (2, 1), (5, 2), (8, 4), (14, 4)])
def test_UL17_vp_by_mines_table(mines, vp):
    assert mines_vp([[2, 1], [4, 2], [6, 3], [8, 4]], mines) == vp


def test_UL18_aborting_keeps_the_counter_and_goes_to_the_search_box():
    s = new_state(segment="operations")
    put(s, "U-47", "north-sea", missions=["attack"])
    deck(s, "events", QUIET, QUIET + 1, 10)
    send(s, "move", 1, boat="U-47", to="north-sea-attack")  # the Move value (Quiet Seas)
    send(s, "continue_attack", 1)  # the first box Event
    events = send(s, "abort_attack", 1)  # leaving the box draws the Move value (UL-E5-1)
    assert of(events, ev.MissionEnded)[0].outcome == "aborted" and s.boats["U-47"].missions == ["attack"]
    assert s.boats["U-47"].space == "search" and s.ops.box is None


def abort_in_the_north_sea(edition: str, stress: int = 0):
    """U-47 steps into the North Sea's Attack box (Move 1) and draws the box's first Event, both Quiet; Aircraft and
    Allied Submarine Attack are left on the deck, in that order."""
    s = new_state(segment="operations", edition=edition)
    put(s, "U-47", "north-sea", stress=stress, missions=["attack"])
    deck(s, "events", QUIET, QUIET + 1, AIRCRAFT, SUB_ATTACK)
    # the step into the box draws one card, the third (Quiet Seas); then the box's first Event, the third of those left
    if edition == "2.0.0":  # before UL-E3-3 the box's first Event came with the step
        send(s, "move", 3, 3, boat="U-47", to="north-sea-attack")
    else:
        send(s, "move", 3, boat="U-47", to="north-sea-attack")
        send(s, "continue_attack", 3)
    assert [s.data.card("events", n).number for n in s.decks["events"]] == [AIRCRAFT, SUB_ATTACK]
    return s


@pytest.mark.parametrize("edition", ["2.0.0", "3.0.0", "4.0.0"])
def test_UL_R56_up_to_4_0_0_an_aborted_attack_goes_to_the_search_box_drawing_no_event(edition):
    """UL-R56 as 2.0.0-4.0.0 read it: the abort was not a move of "un U-Boat en movimiento" and drew no Event card,
    so the boat's stress stands (the cards left on the deck would add stress and are not drawn)."""
    s = abort_in_the_north_sea(edition)
    assert legal(s)["abort_attack"].labels == ["abort: to the Search box, keeping the counter"]
    left, stress = list(s.decks["events"]), s.boats["U-47"].stress
    events = send(s, "abort_attack")
    assert not of(events, ev.CardDrawn) and s.decks["events"] == left
    assert s.boats["U-47"].stress == stress and s.boats["U-47"].space == "search"


def test_UL18_UL_R56_ULE5_1_an_aborted_attack_leaves_the_box_drawing_the_areas_move_value():
    """UL-18 "Si abortas el ataque, el U-Boat se mueve al Recuadro de Búsqueda del Área en la que está" and UL-20
    "cuando entra a o sale de un recuadro de Misión Especial, roba y resuelve el número de cartas de Evento que se
    indica en la Tabla de Contacto para Moverse en el Área": from 5.0.0 the abort draws the North Sea's Move value, 1
    card; the face picks Allied Submarine Attack, +2 stress. The boat is in the Search box with its counter (UL-R8)."""
    s = abort_in_the_north_sea("5.0.0")
    assert s.area("north-sea").move == 1
    assert legal(s)["abort_attack"].labels == [
        "abort: to the Search box, keeping the counter, drawing 1 Event card as it leaves the box"
    ]
    events = send(s, "abort_attack", 2)
    (drawn,) = of(events, ev.CardDrawn)
    assert drawn.number == SUB_ATTACK and "leave the attack mission box north-sea-attack" in rolls(events)[0].purpose
    assert events.index(of(events, ev.MissionEnded)[0]) < events.index(drawn), "the mission ends, then the boat moves"
    b = s.boats["U-47"]
    assert (b.stress, b.space, b.where, b.missions) == (2, "search", "north-sea", ["attack"])
    assert s.decks["events"] == [AIRCRAFT] and s.ops.box is None


def test_UL21_ULE5_1_a_boat_made_unfit_leaving_the_attack_box_stays_in_the_search_box_with_its_counter():
    """UL-21: "an Event making a boat Unfit sends it to the Area's Search box", where the aborting boat is going: U-47
    at 8 stress draws Allied Submarine Attack (+2) as it leaves and is Unfit there; the Attack counter stays with it
    (UL-18 "La ficha de Opción Especial de Ataque permanece con el U-Boat"): the abort fails no mission."""
    s = abort_in_the_north_sea("5.0.0", stress=8)
    events = send(s, "abort_attack", 2)
    assert [e.number for e in of(events, ev.CardDrawn)] == [SUB_ATTACK]
    assert [(e.mission, e.outcome) for e in of(events, ev.MissionEnded)] == [("attack", "aborted")]
    b = s.boats["U-47"]
    assert (b.band, b.space, b.where, b.missions) == ("unfit", "search", "north-sea", ["attack"])


def test_UL18_an_event_making_the_boat_unfit_fails_the_mission():
    s = new_state(segment="operations")
    put(s, "U-47", "north-sea", stress=8, missions=["attack"])
    deck(s, "events", QUIET, SUB_ATTACK)  # data-set order: 5, 8
    send(s, "move", 2, boat="U-47", to="north-sea-attack")  # Quiet Seas (Patrol value)
    events = send(s, "continue_attack", 1)  # Ataque Submarino Aliado +2: Unfit
    assert of(events, ev.MissionEnded)[0].outcome == "failed" and s.boats["U-47"].space == "search"
    assert "continue_attack" not in legal(s)


def raider(s, **boat):
    put(s, "U-47", "n-atlantic", missions=["raider"], **boat)
    deck(s, "events", QUIET, QUIET + 1)
    area = 1 if s.edition.has("UL-E4-2") else 2  # the Area's Move value (4.0.0), or its Patrol value (UL-R7)
    send(s, "move", *[1] * (area + 2), boat="U-47", to="n-atlantic-raider")  # then the box's 2 Events


def test_UL19_raider_rolls_a_vp_on_8_or_more_with_the_normal_modifiers_at_range_0():
    s = new_state(segment="operations")
    raider(s)
    events = send(s, "raider_roll", 7, weapon="normal")  # 7 + TS 1 + range 0 (+0) = 8
    r = roll(events, "Raider")
    assert (r.result.total, r.result.outcome, s.vp) == (8, "1 VP", 1) and "UL-19" in r.rule
    events = send(s, "raider_roll", 8, weapon="gun")  # 8 + GS 0 + gun range 0 (+0) = 8, one Ammo
    assert s.vp == 2 and s.boats["U-47"].ammo == 5 and of(events, ev.RaiderRolled)[0].slot == "ammo"
    send(s, "raider_roll", 5, weapon="normal")
    assert s.vp == 2
    events = send(s, "raider_stop")
    assert of(events, ev.MissionEnded)[0].outcome == "done" and not of(events, ev.XpGained)


def test_UL19_UL_R9_UL_R44_a_FAT_adds_its_bonus_and_the_mission_ends_after_10_rolls():
    s = new_state(segment="operations")
    raider(s)
    s.boats["U-47"].ready.update(normal=4, FAT=1)
    events = send(s, "raider_roll", 6, weapon="FAT")  # 6 + TS 1 + range 0 + FAT 1 = 8
    assert roll(events, "Raider").result.total == 8
    for weapon in ["gun"] * 6 + ["normal"] * 2:
        send(s, "raider_roll", 1, weapon=weapon)
    events = send(s, "raider_roll", 1, weapon="normal")  # the 10th roll ends the mission
    assert of(events, ev.MissionEnded)[0].outcome == "done" and s.ops.box is None


def test_UL19_with_no_ammo_and_no_torpedo_left_the_raider_mission_ends_at_once():
    s = new_state(segment="operations")
    put(s, "U-47", "n-atlantic", missions=["raider"], ammo=0)
    s.boats["U-47"].ready["normal"] = s.boats["U-47"].stored["normal"] = 0
    deck(s, "events", QUIET, QUIET + 1)
    events = send(s, "move", 1, 1, 1, boat="U-47", to="n-atlantic-raider")
    assert of(events, ev.MissionEnded)[0].outcome == "done" and "raider_roll" not in legal(s)
    with pytest.raises(IllegalCommand):
        send(s, "raider_roll", weapon="gun")


@pytest.mark.parametrize("edition", ["3.0.0", "2.0.0"])
def test_UL18_UL_R45_the_attack_may_be_aborted_before_its_first_box_event(edition):
    """UL-18: "Puedes elegir abortar el ataque antes de robar todas las cartas de Evento" — before the first too
    (UL-E3-3): entering the box draws none of its Events yet and asks. 2.0.0 drew the first inside the move."""
    s = new_state(segment="operations", edition=edition)
    s.boats["U-47"].missions = ["attack"]
    deck(s, "events", QUIET, QUIET + 1, 10)
    send(s, "move", 1, boat="U-47", to="north-sea")
    if edition == "2.0.0":
        events = send(s, "move", 1, boat="U-47", to="north-sea-attack")
        assert len(of(events, ev.EventResolved)) == 1 and s.ops.box.events == 2
        return
    events = send(s, "move", boat="U-47", to="north-sea-attack")
    assert not of(events, ev.EventResolved) and (s.ops.box.events, s.ops.box.total) == (3, 3)
    assert set(legal(s)) == {"continue_attack", "abort_attack"}
    events = send(s, "abort_attack")
    assert of(events, ev.MissionEnded)[0].outcome == "aborted" and s.boats["U-47"].missions == ["attack"]
    assert (s.boats["U-47"].space, s.boats["U-47"].stress) == ("search", 0)


@pytest.mark.parametrize("edition, t5", [("3.0.0", []), ("2.0.0", [("T5", 2)])])
def test_UL19_UL_R44_a_raider_t5_roll_has_no_escort_bonus(edition, t5):
    """UL-19 "Aplica todos los modificadores normales"; the T5 is "para usarlos contra los Escoltas" and the Raider
    helps surface raiders "que están atacando un convoy": no escort is its target, so no +2 (UL-E3-10): a 6 + TS 1 is
    7, no VP (2.0.0: 9, 1 VP)."""
    s = new_state(segment="operations", edition=edition)
    raider(s)
    s.boats["U-47"].ready.update(normal=4, T5=1)
    events = send(s, "raider_roll", 6, weapon="T5")
    r = roll(events, "Raider")
    assert [(m.reason, m.value) for m in r.result.modifiers] == [("TS", 1), *t5]
    assert s.vp == (1 if t5 else 0)
