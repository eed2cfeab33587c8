"""Builders for uboat-leader tests: a state at a chosen moment, commands sent with chosen dice faces.

`send` goes through the ruleset's decide (legality included) with ChosenDice and folds the events into the state,
so a test reads the state the rules left. A deck set to the cards a test wants makes every draw's face certain
(the face picks by position among the cards left, in data-set order).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import msgspec

from domain.dice import ChosenDice
from domain.engine import parse_command
from domain.procedure import Ctx, forget, run
from domain.uboat_leader import RULESET, sequence
from domain.uboat_leader.commands import Options
from domain.uboat_leader.data import DataSet, parse_data
from domain.uboat_leader.evolve import evolve
from domain.uboat_leader.state import Activation, Battle, Piece, State, Sub, band_of, initial_state
from events import uboat_leader as ev
from events.core import DiceRolled
from tests.genesis import genesis

PACKAGE = Path(__file__).resolve().parents[2] / "domain" / "uboat_leader"
RAWS = {v: json.loads((PACKAGE / RULESET.data_file_of(v)).read_text()) for v in RULESET.editions.run}
DATAS = {v: parse_data(json.dumps(raw).encode()) for v, raw in RAWS.items()}  # each edition's default set
RAW, DATA = RAWS[RULESET.version], DATAS[RULESET.version]  # the newest edition's
SEAT = "commander"
TWO = (("U-47", "trained"), ("U-51", "trained"))


def raw() -> dict:
    """A copy of the stand-in data set as JSON, for a test to change."""
    return copy.deepcopy(RAW)


def data_with(change) -> DataSet:
    d = raw()
    change(d)
    return parse_data(json.dumps(d).encode())


def new_state(
    boats=(("U-47", "trained"),),
    duration: str = "short",
    data: DataSet | None = None,
    segment: str = "strategic",
    so_half: int | None = None,
    campaign: str = "battle-begins",
    edition: str | None = None,
) -> State:
    """A state of `edition` (None: the newest) on `data` (None: that edition's default set)."""
    data = DATAS[edition or RULESET.version] if data is None else data
    s = initial_state(genesis("uboat-leader", edition), Options(campaign=campaign, duration=duration), data)
    port = s.camp.map.ports[0].id
    picks = [ev.Pick(boat=b, level=lv, port=port, cost_half=0) for b, lv in boats]
    evolve(s, ev.UBoatsSelected(picks=picks, so_half=s.so_half if so_half is None else so_half))
    evolve(s, ev.SegmentBegan(turn=1, segment=segment))
    return s


def put(s: State, boat: str, where: str, space: str = "open", stress: int | None = None, **fields) -> None:
    """Place a boat and set its fields (the band follows the stress, UL-3)."""
    b = s.boats[boat]
    b.where, b.space = where, space
    if stress is not None:
        b.stress = stress
        b.band = band_of(s.card(boat), stress)
    for k, v in fields.items():
        setattr(b, k, v)


def deck(s: State, name: str, *cards: int) -> None:
    """The deck holds exactly these cards (the others out of play), in data-set order."""
    order = [c.number for c in s.data.deck(name)]
    s.decks[name] = [n for n in order if n in cards]
    s.discards[name] = []


def battle(
    s: State,
    ships: dict[str, tuple],
    subs: dict[str, tuple],
    step: str = "move",
    queue: list[str] | None = None,
    card: int = 37,
    area: str = "w-approaches",
    alerted: int = 0,
    active: str | None = None,
) -> Battle:
    """A combat in progress. ships: label -> (area, deck, number) (deck None: Unknown) or (area, deck, number,
    damage); subs: boat -> (area, side) or (area, side, detected)."""
    s.segment = "tactical"
    boat = active or next(iter(subs))
    s.act = Activation(boat=boat, stage="combat", card=card)
    bt = Battle(number=card, area=area, alerted=alerted, step=step)
    if card in s.decks["convoys"]:
        s.decks["convoys"].remove(card)
    for label, spec in ships.items():
        where, dk, number, *rest = spec
        escort = label[0] == "E" or dk in ("escorts", "fleet")
        bt.ships[label] = Piece(
            label=label, kind=label[0], area=where, escort=escort, deck=dk, number=number, damage=rest[0] if rest else 0
        )
        if dk is not None:  # the card is in play: out of its deck, to be discarded after the battle (UL-R25)
            s.decks[dk].remove(number)
            bt.cards.setdefault(dk, []).append(number)
    for b, spec in subs.items():
        where, side, *rest = spec
        bt.subs[b] = Sub(boat=b, area=where, side=side, detected=bool(rest and rest[0]))
        bt.placed.append(b)
        put(s, b, area, "open")
    bt.queue = list(subs) if queue is None else list(queue)
    bt.ordered = step != "escorts" or bool(queue)
    s.battle = bt
    return bt


def send(s: State, type: str, *faces, **args) -> list:
    """Decide a command with chosen faces (all must be used) and fold its events into `s`."""
    cmd = parse_command(RULESET, {"type": type, **args})
    forget(s)  # the set-up edits states directly, not by events: what they answered before may be stale
    dice = ChosenDice(*faces)
    events = RULESET.decide(s, cmd, SEAT, dice)
    assert dice.unused == 0, f"{dice.unused} chosen roll(s) unused by {type}"
    for e in events:
        evolve(s, e)
    return events


def legal(s: State) -> dict:
    forget(s)
    return {x.type: x for x in RULESET.legal_commands(s)}


def of(events: list, cls) -> list:
    return [e for e in events if isinstance(e, cls)]


def rolls(events: list) -> list[DiceRolled]:
    return of(events, DiceRolled)


def roll(events: list, fragment: str) -> DiceRolled:
    """The one roll whose purpose contains `fragment`."""
    found = [r for r in rolls(events) if fragment in r.purpose]
    assert len(found) == 1, f"{len(found)} rolls match {fragment!r}: {[r.purpose for r in rolls(events)]}"
    return found[0]


def types(events: list) -> list[str]:
    return [type(e).__name__ for e in events]


def body(e) -> dict:
    return msgspec.to_builtins(e)


def advance(s: State, *faces) -> list:
    """Run the automatic steps from a built state to the next decision, with chosen faces; fold the events into `s`."""
    dice = ChosenDice(*faces)
    forget(s)
    events = run(Ctx(s, dice, evolve), sequence.awaited, sequence.advance)
    assert dice.unused == 0, f"{dice.unused} chosen roll(s) unused"
    for e in events:
        evolve(s, e)
    return events


def at_contact(boats=TWO, where="w-approaches", **kw):
    """Boats in the Area's open space at the end of Operations (they patrol: Quiet Seas, cards 8 and 9)."""
    s = new_state(boats=boats, segment="operations", **kw)
    for b, _ in boats:
        put(s, b, where)
    deck(s, "events", 8, 9)
    send(s, "end_operations", *([1] * 2 * len(boats)))
    return s


def engage(s, *faces, card=37, boat="U-47"):
    """Activate the boat, roll one contact (4), draw the Convoy card and engage it."""
    send(s, "activate", boat=boat)
    deck(s, "convoys", card)
    send(s, "roll_contacts", 4, 1)
    return send(s, "engage", *faces)
