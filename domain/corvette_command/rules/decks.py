"""Decks and face-down counters drawn on demand (CC-R42, DESIGN.md "Decks").

A deck is the multiset of the cards left in it, a zone's face-down counters the multiset of the kinds left in its
pool. A draw is one roll over what is left at that moment, counted in a fixed order: cards in the data set's
order, counters U, then R, then blank. No order exists before the draw, in the state, the events or the rolls, so
nothing public tells what comes next; the distribution is that of a shuffle drawn from the top. When a single
card or counter is left, it is taken without a roll.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.corvette_command.state import COUNTER_KINDS, State
from domain.procedure import Ctx
from events import corvette_command as ev
from events.core import RollResult


def pick(ctx: Ctx, names: list[str], purpose: str, rule: str) -> int:
    """One roll over `names` (what is left, in its fixed order): the index drawn."""
    if len(names) == 1:
        return 0
    roll = ctx.dice.roll([len(names)], purpose, rule)
    ctx.emit(replace(roll, result=RollResult(outcome=names[roll.faces[0] - 1], total=roll.faces[0])))
    return roll.faces[0] - 1


def reform(ctx: Ctx, deck: str) -> None:
    """The discards go back into the deck (CC-37's reshuffle: drawing on demand needs no shuffle)."""
    ctx.emit(ev.DeckReformed(deck=deck, cards=list(ctx.state.discards[deck])))


def draw_card(ctx: Ctx, deck: str, purpose: str, rule: str, fits=lambda card_id: True) -> str:
    """A card of `deck` that `fits` (CC-R12). CC-R44: when none that fits is left, the discards go back first."""
    s = ctx.state
    cards = [c for c in s.decks[deck] if fits(c)]
    if not cards:
        reform(ctx, deck)
        cards = [c for c in s.decks[deck] if fits(c)]
    if not cards:
        raise ValueError(f"no card of the {deck} deck fits")  # parse_data sees that both sides have cards
    return cards[pick(ctx, cards, purpose, rule)]


UBOAT_RULE = "CC:U-Boat attack Sequence/draw the top U-Boat card (CC-6, CC-R42)"


def draw_uboat(ctx: Ctx, passed_over: str | None = None) -> str | None:
    """CC-6, CC-R42: the U-boat deck is its known cards and the Type IX cards face down; a draw that falls on a
    face-down Type IX draws which one among the Type IX not yet seen. `passed_over`: a wolfpack's caller, which
    cannot answer its own call (CC-E5-4). None: no U-boat but that one is left (CC-R29: every other is sunk)."""
    s = ctx.state
    known = [c for c in s.decks["uboats"] if c != passed_over]
    if not known and not s.type_ix_face_down:
        if not any(c != passed_over for c in s.discards["uboats"]):
            return None
        reform(ctx, "uboats")  # CC-37: the deck has run out
        known = [c for c in s.decks["uboats"] if c != passed_over]
    i = pick(ctx, known + ["a face-down Type IX"] * s.type_ix_face_down, "draw-uboat", UBOAT_RULE)
    if i < len(known):
        return known[i]
    unseen = unseen_type_ix(s)
    return unseen[pick(ctx, unseen, "draw-type-ix", UBOAT_RULE)]


def unseen_type_ix(s: State) -> list[str]:
    """The Type IX cards not drawn yet this campaign: the face-down ones are among them, each as likely."""
    seen = set(s.decks["uboats"]) | set(s.discards["uboats"]) | set(s.sunk_uboats)
    if s.engagement is not None:
        seen.add(s.engagement.uboat)
    return [u.id for u in s.data.uboats if u.type == "IX" and u.id not in seen]


def draw_counter(ctx: Ctx, zone: str) -> str:
    """CC-16, CC-R42: the counter of a box entered, drawn from its zone's pool as it is now."""
    left = ctx.state.pools[zone]
    kinds = [k for k in COUNTER_KINDS for _ in range(left[k])]
    return kinds[pick(ctx, kinds, "draw-counter", "CC:Turn Sequence/Reveal the Sector counter (CC-5, CC-16, CC-R42)")]
