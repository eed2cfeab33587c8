"""`sealed-bid`: a test-only ruleset that exercises the core's sealed inputs and per-seat reads.

Two seats bid 0-10 in secret each round; when both are in, the bids are revealed, the higher wins (a d6 breaks a
tie: 1-3 north, 4-6 south) and the winner receives a secret prize number sealed to it alone (a ruleset's own sealed
record, not a command). Three rounds; the game then ends, which opens every seal still closed.

Two editions, so the tests can show one mechanism at work (domain/editions.py): from 2.0.0 a tie goes to north
without a roll (change BID-E2-1), while a 1.0.0 game keeps breaking ties with a d6 for as long as it lasts.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar

import msgspec

from domain.editions import Change, Edition, Editions, Released
from domain.engine import REFEREE, CommandSpec, IllegalCommand, Reader, Ruleset, View, command_schema
from domain.procedure import fold
from events.core import (
    GameEnded,
    SubmissionSealed,
    SubmissionsRevealed,
)
from events.vocabulary import Event, register

SEATS = ("north", "south")
ROUNDS = 3

EDITIONS = Editions(
    ruleset="sealed-bid",
    released=(
        Released("1.0.0", "ties broken by a d6"),
        Released("2.0.0", "a tie goes to north, without a roll (BID-E2-1)"),
    ),
    changes=(Change("BID-E2-1", "2.0.0", ("BID-2",), "a tie goes to north without a roll"),),
)


class Options(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    rounds: Annotated[int, msgspec.Meta(ge=1, le=10)] = ROUNDS


class Bid(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="bid"):
    """Bid 0-10 in secret; the bids open when both seats are in."""

    sealed: ClassVar[bool] = True
    amount: Annotated[int, msgspec.Meta(ge=0, le=10)]


class RoundWon(Event):
    round: int
    winner: str
    bids: dict[str, int]


register(RoundWon)


@dataclass
class State:
    rounds: int
    edition: Edition
    round: int = 1
    submitted: list[str] = field(default_factory=list)
    sealed: dict[str, dict[str, Any]] = field(default_factory=dict)  # seat -> content: the only secrets
    prizes: dict[str, list[int]] = field(default_factory=dict)  # seat -> prize numbers (secret to the seat)
    wins: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SEATS})
    over: bool = False


def initial_state(created, options: Options, data) -> State:
    return State(rounds=options.rounds, edition=EDITIONS.of(created.ruleset.version))


def decide(state: State, cmd: Bid, seat: str, dice) -> list[Event]:
    if seat in state.submitted:
        raise IllegalCommand(f"{seat} has bid this round already")
    events: list[Event] = [SubmissionSealed(seat=seat, kind="bid", content={"amount": cmd.amount})]
    bids = {s: c["amount"] for s, c in state.sealed.items()} | {seat: cmd.amount}
    if len(bids) < len(SEATS):
        return events
    events.append(SubmissionsRevealed(kinds=["bid"]))
    if bids["north"] == bids["south"] and state.edition.has("BID-E2-1"):
        winner = "north"
    elif bids["north"] == bids["south"]:
        roll = dice.roll([6], "tie-break", "BID-2: a tie is broken by 1d6")
        events.append(roll)
        winner = "north" if roll.faces[0] <= 3 else "south"
    else:
        winner = max(bids, key=lambda s: bids[s])
    events.append(RoundWon(round=state.round, winner=winner, bids=bids))
    prize = dice.roll([100], "prize", "BID-3: the winner draws a secret prize")
    events += [prize, SubmissionSealed(seat=winner, kind="prize", content={"number": prize.faces[0]})]
    if state.round == state.rounds:
        events.append(GameEnded(reason="the last round is played"))
    return events


def _sealed(state: State, e: SubmissionSealed) -> None:
    if e.kind == "bid":
        state.submitted.append(e.seat)
        state.sealed[e.seat] = e.content
    else:
        state.prizes.setdefault(e.seat, []).append(e.content["number"])


def _revealed(state: State, e: SubmissionsRevealed) -> None:
    state.sealed = {s: c for s, c in state.sealed.items() if not any(x.seat == s for x in e.entries)}


def _round_won(state: State, e: RoundWon) -> None:
    state.wins[e.winner] += 1
    state.round += 1
    state.submitted = []


# the core's events are the fold's (a GameEnded ends the game); the seals are this ruleset's to keep
evolve = fold({SubmissionSealed: _sealed, SubmissionsRevealed: _revealed, RoundWon: _round_won}, (), __name__)


def legal_commands(state: State, only: str | None = None) -> list[CommandSpec]:
    if state.over:
        return []
    return [
        CommandSpec(
            type="bid",
            seats=[s],
            choices=[{"amount": n} for n in range(11)],
            schema=command_schema(Bid),
            description="bid in secret",
            labels=[f"Bid {n}" for n in range(11)],
        )
        for s in SEATS
        if s not in state.submitted
    ]


def redact(state: State, reader: Reader) -> State:
    mine = (lambda s: True) if reader == REFEREE else (lambda s: s == reader)
    return dataclasses.replace(
        state,
        sealed={s: c for s, c in state.sealed.items() if mine(s)},
        prizes={s: p for s, p in state.prizes.items() if mine(s)},
    )


class TableView(msgspec.Struct, forbid_unknown_fields=True):
    round: int
    submitted: list[str]
    my_bids: dict[str, int]
    prizes: dict[str, list[int]]
    wins: dict[str, int]


def table(state: State, reader: Reader) -> TableView:
    s = redact(state, reader)
    return TableView(
        round=s.round,
        submitted=list(s.submitted),
        my_bids={seat: c["amount"] for seat, c in s.sealed.items()},
        prizes=s.prizes,
        wins=dict(s.wins),
    )


def bot(state: State, legal: list[CommandSpec], seat: str) -> dict[str, Any] | None:
    """The seat's first offer: a bid of 0 (enough to play a game to its end)."""
    mine = [s for s in legal if seat in s.seats]
    return {"type": mine[0].type, **mine[0].choices[0]} if mine else None


def outcomes(state: State) -> dict[str, int]:
    """The rounds each seat won (what the odds from a position report)."""
    return {f"{seat} wins": state.wins[seat] for seat in SEATS}


RULESET = Ruleset(
    id="sealed-bid",
    editions=EDITIONS,
    title="Sealed bid (a test ruleset for the core's sealed inputs)",
    options_type=Options,
    command_types=(Bid,),
    default_seats=lambda options: list(SEATS),
    named_seats=True,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    views={"table": View(table, TableView, per_seat=True, description="bids, prizes and wins as the reader may see them")},
    event_types=(RoundWon,),
    redact=redact,
    bot=bot,
    outcomes=outcomes,
)


def served_with_sealed_bid():
    """The served rulesets and this one (tests/drivers.py `served`), for the suites about sealed inputs."""
    from tests.drivers import served

    return served(__name__)
