"""Post-Combat (UL-S8): stress, reloading, VP and XP, the Attacked counter (UL-R24, UL-38), discards (UL-R25, UL-R16)
and the active boat's next contact."""

from __future__ import annotations

from domain.uboat_leader.rules.postcombat import reload_moves
from events import uboat_leader as ev
from tests.uboat_leader.scenario import advance, battle, deck, legal, new_state, of, rolls, send, types

TWO = (("U-47", "trained"), ("U-51", "trained"))


def sink_the_last_ship(s, contacts=1, faces=(10,)):
    bt = battle(
        s,
        {"M1": ("C1", "merchants", 56), "E1": ("L7", "fleet", 2)},
        {"U-47": ("S1", "surfaced"), "U-51": ("L1", "submerged")},
        step="aggressive",
        queue=["U-47"],
    )
    del bt.ships["E1"]  # the Fleet Escort left by the Wake earlier: its card is still this battle's
    bt.attackers = ["U-51"]
    s.act.contacts = contacts
    return send(s, "attack", *faces, boat="U-47", weapon="torpedo", shots=[{"target": "M1"}])


def test_ULS8_UL38_UL_R24_UL_R25_post_combat_stress_reload_score_attacked_and_discards():
    s = new_state(boats=TWO, edition="2.0.0")  # 2.0.0 still asks next_contact / end_activation (UL-E3-9)
    events = sink_the_last_ship(s)
    after = types(events)[types(events).index("CombatEnded") :]
    assert after == [
        "CombatEnded",
        "StressChanged",
        "StressChanged",
        "TorpedoesReloaded",
        "Scored",
        "XpGained",
        "CardsDiscarded",
        "CardsDiscarded",
        "CardsReturned",
        "ContactResolved",
    ]
    assert [(e.boat, e.delta) for e in of(events, ev.StressChanged)] == [("U-47", 1), ("U-51", 1)]
    assert of(events, ev.TorpedoesReloaded)[0].moved == {"normal": 1}
    assert (s.vp, s.boats["U-47"].xp, s.boats["U-47"].vp) == (1, 1, 1)
    assert not s.boats["U-51"].attacked, "UL-R24: the Attacked counter waits for the end of the activation"
    assert [(e.deck, e.numbers) for e in of(events, ev.CardsDiscarded)] == [("convoys", [37]), ("merchants", [56])]
    assert s.decks["fleet"] == [1, 2, 3], "Fleet Escorts go back to their pool (UL-R16)"
    assert set(legal(s)) == {"next_contact", "end_activation"} and s.battle is None


def test_ULS8_the_active_boat_ends_its_activation_in_the_search_box_and_the_joiner_is_still_in_its_area():
    s = new_state(boats=TWO, edition="2.0.0")  # end_activation with a contact left: 2.0.0 only (UL-E3-9)
    sink_the_last_ship(s)
    events = send(s, "end_activation")
    assert types(events) == ["ToSearchBox", "AttackedMarked", "ActivationEnded"]
    assert of(events, ev.AttackedMarked)[0].boats == ["U-51"], "UL-38, UL-R24: the joiner that attacked"
    assert s.boats["U-51"].attacked and not s.boats["U-47"].attacked
    assert s.boats["U-47"].space == "search" and s.boats["U-51"].space == "open"
    assert legal(s)["activate"].choices == [{"boat": "U-51"}]


def test_UL38_UL_R24_UL_R1_a_joiner_that_attacked_is_not_yet_attacked_for_the_next_contact_of_the_activation():
    """"Atacado: se colocan ... al final de un Segmento Táctico en el que ha atacado" and a boat's Tactical Segment
    is its activation (UL-R1): called again for the active boat's second contact, U-51 rolls without the −2, so a
    6 joins (6 − 2 = 4 would not)."""
    s = new_state(boats=TWO)
    deck(s, "convoys", 41)
    events = sink_the_last_ship(s, faces=(10, 1))  # UL-E3-9: the second contact's card is drawn at once
    assert of(events, ev.CardDrawn)[-1].number == 41
    send(s, "engage")
    send(s, "place", boat="U-47", area="L1", side="submerged")
    events = send(s, "call_wolfpack", 6, boat="U-51")
    assert rolls(events)[0].result.modifiers == [] and of(events, ev.WolfpackCalled)[0].joined
    assert not s.boats["U-51"].attacked


def test_ULS8_no_contact_left_ends_the_activation_at_once():
    s = new_state(boats=TWO)
    events = sink_the_last_ship(s, contacts=0)
    assert types(events)[-3:] == ["ToSearchBox", "AttackedMarked", "ActivationEnded"]


def test_ULS8_reload_fills_empty_ready_slots_advanced_torpedoes_first():
    s = new_state()
    b = s.boats["U-47"]
    b.ready.update(normal=3)
    b.stored.update(normal=5, FAT=1)
    assert reload_moves(s, "U-47") == {"FAT": 1, "normal": 1}


def test_ULS8_UL_R27_a_sunk_boat_takes_no_stress_or_xp_its_vp_stay_and_it_leaves_the_campaign():
    s = new_state()
    bt = battle(s, {"E1": ("S1", "escorts", 80)}, {"U-47": ("S1", "surfaced", True)}, step="enemy", queue=["E1"])
    bt.sunk = [["U-47", 2, 2]]  # it sank a 2 VP ship earlier in this combat
    s.act.contacts = 2
    events = advance(s, 6, 10)  # hit, then a natural 10: sunk
    after = types(events)[types(events).index("UBoatSunk") :][:7]
    assert after == [
        "UBoatSunk",
        "CombatEnded",
        "Scored",
        "CardsDiscarded",
        "CardsDiscarded",
        "ContactResolved",
        "ActivationEnded",
    ]
    assert s.vp == 2 and s.boats["U-47"].xp == 0 and s.boats["U-47"].sunk and not s.boats["U-47"].in_play


def test_ULS8_UL_R40_a_boat_that_left_the_display_still_takes_the_post_combat_stress():
    s = new_state(boats=TWO)
    bt = battle(
        s,
        {"M1": ("C1", "merchants", 56)},
        {"U-47": ("S1", "surfaced"), "U-51": ("L1", "submerged")},
        step="aggressive",
        queue=["U-47"],
    )
    del bt.subs["U-51"]  # it left from L1 earlier
    events = send(s, "attack", 10, boat="U-47", weapon="torpedo", shots=[{"target": "M1"}])
    assert [(e.boat, e.delta) for e in of(events, ev.StressChanged)] == [("U-47", 1), ("U-51", 1)]


def test_ULS8_UL26_a_fit_active_boat_draws_a_convoy_card_for_every_contact_it_rolled():
    """UL-E3-9, "Deberás robar una carta de Convoy por cada Contacto": with a contact left, Post-Combat draws the next
    Convoy card at once; end_activation is never offered; Retirarse on that card is the way out, and then the
    activation ends (no contact left)."""
    s = new_state(boats=TWO)
    deck(s, "convoys", 41)
    events = sink_the_last_ship(s, faces=(10, 1))
    after = types(events)[types(events).index("ContactResolved") :]
    assert after[:3] == ["ContactResolved", "DiceRolled", "CardDrawn"] and s.act.contacts == 0
    assert set(legal(s)) == {"engage", "withdraw"}, "no end_activation: the card must be drawn and looked at"
    events = send(s, "withdraw")
    assert types(events)[-3:] == ["ToSearchBox", "AttackedMarked", "ActivationEnded"]
    old = new_state(boats=TWO, edition="2.0.0")
    sink_the_last_ship(old)
    assert "end_activation" in legal(old), "2.0.0: the boat could drop the contact it rolled"
