"""Decks drawn on demand (UL-7, DESIGN.md "Decks"): one roll over the cards left, picking by position in data-set
order; the discards reform a deck with no roll; no event or roll names a card before it is drawn."""

from __future__ import annotations

from domain.dice import ChosenDice
from domain.procedure import Ctx
from domain.uboat_leader import decks
from domain.uboat_leader.evolve import evolve
from events import uboat_leader as ev
from tests.uboat_leader.scenario import deck, new_state, of, rolls


def test_UL7_a_draw_is_one_roll_with_sides_the_cards_left_and_the_face_picks_by_position():
    s = new_state()
    deck(s, "events", 2, 5, 9)
    c = Ctx(s, ChosenDice(2), evolve)
    assert decks.draw(c, "events", "test") == 5
    (r,) = rolls(c.events)
    assert r.sides == [3] and r.faces == [2] and "UL-7" in r.rule
    assert of(c.events, ev.CardDrawn)[0].remaining == 2 and c.state.decks["events"] == [2, 9]
    assert s.decks["events"] == [2, 5, 9], "decide's working copy leaves the state alone"


def test_UL7_an_emptied_deck_takes_its_discards_back_at_once_without_a_roll():
    s = new_state()
    deck(s, "convoys", 13)
    s.discards["convoys"] = [41, 11]
    c = Ctx(s, ChosenDice(1), evolve)
    assert decks.draw(c, "convoys", "test") == 13
    reformed = of(c.events, ev.DeckRefilled)
    assert [x.cards for x in reformed] == [2] and len(rolls(c.events)) == 1
    assert c.state.decks["convoys"] == [11, 41] and c.state.discards["convoys"] == []  # data-set order, no order drawn


def test_UL7_a_draw_from_an_empty_deck_with_no_discards_is_void():
    s = new_state()
    deck(s, "naval")
    c = Ctx(s, ChosenDice(), evolve)
    assert decks.draw(c, "naval", "test") is None and c.events == []


def test_UL7_the_decks_begin_in_data_set_order_with_the_sheets_convoys_removed_and_fleet_escorts_apart():
    s = new_state()
    assert s.decks["convoys"] == [11, 12, 13, 21, 22, 37, 41, 44]  # #52 removed by the sheet
    assert s.decks["fleet"] == [1, 2, 3] and s.decks["escorts"] == [80, 81, 82, 83, 84]
    assert s.decks["tactics"] == [], "Comienza la Batalla ends before June 1942: no Tactics (UL-R22)"
