"""The decks: counts and discards only (a deck has no order until a card is drawn, decks.py)."""

from __future__ import annotations

import msgspec

from domain.uboat_leader.data import DECKS
from domain.uboat_leader.state import State
from domain.uboat_leader.views.common import Now, now


class CardOut(msgspec.Struct, forbid_unknown_fields=True):
    number: int
    name: str


class DeckOut(msgspec.Struct, forbid_unknown_fields=True):
    deck: str
    remaining: int
    in_play: int
    discards: list[CardOut]


class Decks(msgspec.Struct, forbid_unknown_fields=True):
    """Counts and discards only: the cards left have no order until one is drawn (decks.py)."""

    now: Now
    decks: list[DeckOut]


def decks_view(s: State, reader=None) -> Decks:
    out = []
    for d in DECKS:
        total = len(s.data.deck(d)) if d != "tactics" or s.camp.tactics else 0
        if d == "convoys":
            total -= len(s.camp.remove_convoys)
        left, gone = len(s.decks[d]), s.discards[d]
        out.append(
            DeckOut(
                deck=d,
                remaining=left,
                in_play=total - left - len(gone),
                discards=[CardOut(number=n, name=s.data.card(d, n).name) for n in gone],
            )
        )
    return Decks(now=now(s), decks=out)
