"""Decks drawn on demand (DESIGN.md "Decks", UBOAT_LEADER.md §4).

A deck is the multiset of its remaining cards, kept in data-set order; nothing is ever shuffled. A draw is one
umpire1 roll with sides = the cards left at that moment, the face picking by position in that fixed order. When a
draw empties a deck its discards become the deck at once (DeckRefilled, no roll): the text's "coge los descartes, y
barájalos para formar un nuevo mazo" (UL-7). No deck order exists in state, events or rolls before a card is drawn.
"""

from __future__ import annotations

from msgspec.structs import replace

from events import uboat_leader as ev
from events.core import RollResult

RULE = "Barajar las Cartas y Reformar los Mazos (UL-7): a draw picks uniformly among the cards left"


def draw(ctx, deck: str, purpose: str) -> int | None:
    """Draw one card: returns its number, or None when the deck and its discards are both empty (the draw is void)."""
    s = ctx.state
    if not s.decks[deck]:
        reform(ctx, deck)
        if not s.decks[deck]:
            return None
    cards = s.decks[deck]
    roll = ctx.dice.roll([len(cards)], f"draw {deck}: {purpose}", RULE)  # emitted below, with the card it drew
    number = cards[roll.faces[0] - 1]
    card = s.data.card(deck, number)
    ctx.emit(replace(roll, result=RollResult(outcome=f"{deck} card {number} ({card.name})", total=roll.faces[0])))
    ctx.emit(ev.CardDrawn(deck=deck, number=number, name=card.name, remaining=len(cards) - 1, purpose=purpose))
    if not s.decks[deck]:
        reform(ctx, deck)
    return number


def reform(ctx, deck: str) -> None:
    """The discards go back into the deck (in data-set order); no roll: the next draw picks among them."""
    n = len(ctx.state.discards[deck])
    if n:
        ctx.emit(ev.DeckRefilled(deck=deck, cards=n))


def discard(ctx, deck: str, numbers: list[int]) -> None:
    if numbers:
        ctx.emit(ev.CardsDiscarded(deck=deck, numbers=list(numbers)))


def in_order(data, deck: str, numbers: list[int]) -> list[int]:
    """The cards in data-set order (a reformed deck, or a deck's cards listed in a view)."""
    order = [c.number for c in data.deck(deck)]
    return [n for n in order if n in numbers]
