"""Bot campaigns of varied seeds and durations: uboat-leader's invariants hold at every event, decks conserve their
cards and never name a card before it is drawn. What every ruleset shares (decide leaving its state alone, k gapless,
the chain, views against their models) is tests/test_conformance.py's."""

from __future__ import annotations

import os
import re
from collections import Counter
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.uboat_leader.data import DECKS
from domain.uboat_leader.rules.escorts import in_detection_range
from domain.uboat_leader.state import band_of
from domain.uboat_leader.views.digest import digest
from events import uboat_leader as ev
from events.core import DiceRolled
from service.rulesets import RULESETS
from service.simulate import play
from tests.campaigns import campaigns

GAMES = int(os.environ.get("UMPIRE_UBOAT_GAMES", "100"))
RULESET = RULESETS["uboat-leader"].ruleset
NAMED = re.compile(r"^(\w+) card (\d+) ")
DETECTED = re.compile(r"^\S+ detected (\S+)$")  # the digest's line for a boat become Detected


def all_cards(s, deck: str) -> list[int]:
    if deck == "tactics" and not s.camp.tactics:
        return []
    cards = [c.number for c in s.data.deck(deck)]
    return [n for n in cards if not (deck == "convoys" and n in s.camp.remove_convoys)]


def in_play(s, deck: str) -> list[int]:
    """Cards drawn and not yet discarded or returned, read from the state."""
    out = []
    if deck == "convoys" and s.act is not None:
        out += sorted(set(s.act.drawn) | ({s.act.card} if s.act.card else set()))
    if s.battle is not None:
        out += s.battle.cards.get(deck, [])
    if deck == "naval" and s.ops is not None and s.ops.box is not None:
        out += s.ops.box.targets
    return out


def mentions(e) -> list[tuple[str, int]]:
    """The cards an event names (a card must be out of its deck when named)."""
    if isinstance(e, (ev.CardsDiscarded, ev.CardsReturned)):
        return [(e.deck, n) for n in e.numbers]
    if isinstance(e, (ev.ShipRevealed, ev.ShipSunk)):
        return [(e.deck, e.number)]
    if isinstance(e, ev.EventResolved):
        return [("events", e.number)]
    if isinstance(e, ev.ConvoyChosen):
        return [("convoys", e.number), ("convoys", e.discarded)]
    if isinstance(e, (ev.ContactEngaged, ev.ContactWithdrawn, ev.ShipsPlaced)):
        return [("convoys", e.number)]
    if isinstance(e, ev.MissionStage):
        return [("naval", n) for n in e.targets]
    return []


class Checker:
    def __init__(self):
        self.seq = 1
        self.pending_draw: tuple[str, int] | None = None
        self.types: Counter = Counter()
        self.before: dict[str, list[int]] | None = None  # the decks before the event at hand
        self.rolled: list[str] = []  # the boats the escort detecting now has rolled against (UL-34)
        # the digest's "E1 detected U-47" lines against the state's own Detected flags (UL-E6-1: no line for a boat
        # Detected already): the command's events, the flags before it, and the boats the state saw become Detected
        self.events: list = []
        self.detected_before: set[str] = set()
        self.detected: set[tuple[int, str]] = set()
        self.became: list[str] = []

    def event(self, game, e) -> None:
        """Called after each event is folded in: `before` is the decks as they were when it was made."""
        s = game.state
        before = self.before or {d: list(s.decks[d]) for d in DECKS}
        self.types[type(e).__name__] += 1
        for b in s.boats.values():
            card = s.card(b.boat)
            assert b.stress >= 0 and b.band == band_of(card, b.stress), (b.boat, b.stress, b.band)
            assert all(v >= 0 for v in (*b.ready.values(), *b.stored.values(), b.mines, b.ammo, b.xp))
            assert sum(b.ready.values()) <= card.ready and sum(b.stored.values()) <= card.stored
            assert b.torpedoes + b.mines <= card.ready + card.stored and b.ammo <= s.rules.ammo
        assert s.so_half >= 0 and s.vp >= 0
        for d in DECKS:
            cards = all_cards(s, d)
            held = s.decks[d] + s.discards[d]
            assert len(set(held)) == len(held) and set(held) <= set(cards), d
            assert s.decks[d] == [n for n in cards if n in s.decks[d]], f"{d}: no order but the data set's"
        # a card is named only once it is out of its deck; a roll naming a card is that card's draw
        if self.pending_draw is not None:
            assert isinstance(e, ev.CardDrawn) and (e.deck, e.number) == self.pending_draw, "a roll named a card"
            self.pending_draw = None
        if isinstance(e, DiceRolled):
            m = NAMED.match(e.result.outcome) if e.result else None
            if m and e.purpose.startswith("draw "):
                self.pending_draw = (m.group(1), int(m.group(2)))
        if isinstance(e, ev.CardDrawn):
            assert e.number in before[e.deck] and e.remaining == len(before[e.deck]) - 1
        for deck, n in mentions(e):
            assert n not in before[deck], f"{type(e).__name__} names {deck} card {n} while it is in the deck"
        if isinstance(e, ev.DetectionRolled):
            self.rolled.append(e.boat)
        if isinstance(e, ev.EscortSearched):  # UL-E6-1: "contra cada U-Boat" in range, and revealed as it rolls (UL-31)
            near = in_detection_range(s, e.escort)
            if s.edition.has("UL-E6-1"):
                assert self.rolled == near, f"{e.escort} rolled against {self.rolled}, its range holds {near}"
                assert not near or s.battle.ships[e.escort].number is not None, f"{e.escort} rolled, still Unknown"
            self.rolled = []
        self.events.append(e)
        now = {(s.tally.battles, b) for b, sub in s.battle.subs.items() if sub.detected} if s.battle else set()
        self.became += sorted(b for _, b in now - self.detected)
        self.detected = now
        self.before = {d: list(s.decks[d]) for d in DECKS}
        self.seq += 1

    def command(self, game, specs: bool = True) -> None:
        """Between commands every card is in its deck, its discards or in play: decks conserve their cards; every
        command awaited says what it does and labels each choice, or narrows its schema when it lists none. The
        digest tells each boat's becoming Detected once, as the state does."""
        s = game.state
        subs = {b: SimpleNamespace(detected=b in self.detected_before) for b in self.detected_before}
        lines = digest(SimpleNamespace(battle=SimpleNamespace(subs=subs) if subs else None), self.events)
        told = sorted(m.group(1) for line in lines if (m := DETECTED.match(line)))
        assert told == sorted(self.became), (told, self.became)
        self.events, self.became = [], []
        self.detected_before = {b for _, b in self.detected}
        for spec in RULESET.legal_commands(s) if specs else ():
            assert spec.description and spec.seats == ["commander"], spec.type
            if spec.choices is not None:
                assert spec.choices and len(spec.labels) == len(spec.choices) <= 64, spec.type
                assert all(isinstance(x, str) and x for x in spec.labels)
        for d in DECKS:
            counted = sorted(s.decks[d] + s.discards[d] + in_play(s, d))
            assert counted == sorted(all_cards(s, d)), (d, counted)


@campaigns(GAMES)
@given(st.sampled_from(["short"] * 8 + ["medium"] * 2), st.binary(min_size=32, max_size=32))
def test_bot_campaigns_keep_every_invariant(duration, seed):
    check = Checker()
    holder = {}

    def on_event(game, e):
        holder["game"] = game
        check.event(game, e)

    game = play(
        "uboat-leader",
        {"duration": duration},
        seed,
        on_event=on_event,
        on_command=lambda payload, events: check.command(holder["game"], specs=False),
    )
    s = game.state
    check.command(game)
    assert game.over and s.over and RULESET.legal_commands(s) == [] and game.version == check.seq
    assert all(not b.in_play for b in s.boats.values()), "the campaign ends with every boat home or sunk"
    assert s.final_vp == s.vp - s.rules.sunk_boat_vp * s.boats_lost and s.result is not None


@pytest.mark.parametrize("i", range(3))
def test_decks_conserve_their_cards_between_every_two_commands(i):
    check = Checker()
    holder = {}

    def on_event(game, e):
        holder["game"] = game
        check.event(game, e)

    play(
        "uboat-leader",
        {},
        bytes([i]) * 32,
        on_event=on_event,
        on_command=lambda payload, events: check.command(holder["game"]),
    )
    assert check.types["CardDrawn"] > 20 and check.types["DeckRefilled"] >= 1


def test_UL2_every_roll_is_one_d10_but_a_draw_which_rolls_over_the_cards_left():
    seen = Counter()

    def on_event(game, e):
        if isinstance(e, DiceRolled):
            draw = e.purpose.startswith("draw ")
            assert len(e.sides) == 1 and (draw or e.sides == [10]), (e.purpose, e.sides)
            seen["draw" if draw else "d10"] += 1

    play("uboat-leader", {}, bytes([9]) * 32, on_event=on_event)
    assert seen["d10"] > 50 and seen["draw"] > 50
