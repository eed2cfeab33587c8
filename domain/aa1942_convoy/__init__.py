"""`aa1942-convoy`: the National Convoy Disruption house rule for Axis & Allies 1942.2, as a ledger.

It runs beside a game of A&A played elsewhere: territory control, submarines per sea zone, convoy
zones, raids, chips and the IPC damage. It does not play A&A combat. Rule ids: docs/rules/aa1942-convoy.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain, islice
from typing import Any

from domain.aa1942_convoy import commands as c
from domain.aa1942_convoy import views
from domain.aa1942_convoy.data import MapData, parse_map
from domain.aa1942_convoy.rules import purchase, raid, submarines, territory, turn
from domain.aa1942_convoy.state import SIDE, TURN_ORDER, State, evolve, initial_state
from domain.dice import Dice
from domain.engine import REFEREE, CommandSpec, InvalidInput, Ruleset, command_schema
from events import aa1942_convoy as ev
from events.vocabulary import Event

MAX_CHOICES = 64


def decide(state: State, cmd: Any, seat: str, dice: Dice) -> list[Event]:
    match cmd:
        case c.Purchase(spend=spend):
            return purchase.purchase(state, spend)
        case c.MoveSubmarines(from_sz=a, to_sz=b, count=n):
            return submarines.move(state, a, b, n)
        case c.Raid(sz=sz):
            return raid.raid(state, sz, dice)
        case c.Fight(sz=sz, count=n):
            return submarines.fight(state, sz, n)
        case c.LoseSubmarines(power=p, sz=sz, count=n):
            return submarines.lose(state, p, sz, n)
        case c.Capture(territory=t):
            return territory.capture(state, t)
        case c.Liberate(territory=t):
            return territory.liberate(state, t)
        case c.PlaceSubmarines(sz=sz, count=n):
            return submarines.place(state, sz, n)
        case c.EndPhase():
            return turn.end_phase(state)
        case c.EndGame(reason=reason):
            return turn.end_game(reason)
    raise TypeError(f"unhandled command {cmd!r}")


def _spec(cmd: type, seats: list[str], choices: Iterable[dict] | None) -> CommandSpec:
    """Choices are listed when there are at most MAX_CHOICES; only one more than that is ever generated."""
    if choices is not None:
        choices = list(islice(choices, MAX_CHOICES + 1))
        if len(choices) > MAX_CHOICES:
            choices = None
    return CommandSpec(type=cmd.__struct_config__.tag, seats=seats, choices=choices, schema=command_schema(cmd))


def _first(choices: Iterable[dict]) -> Iterable[dict] | None:
    """The choices if there is at least one, else None (without generating them all)."""
    it = iter(choices)
    head = next(it, None)
    return None if head is None else chain([head], it)


def legal_commands(state: State, only: str | None = None) -> list[CommandSpec]:
    """What may be sent now; with `only`, just that command's entry (the command path needs no more)."""
    if state.over:
        return []
    seat = [state.seat_of[state.power]]
    candidates: list[tuple[type, list[str], Any]] = []  # (command, seats, a function giving its choices)
    if state.phase == "purchase":
        candidates.append((c.Purchase, seat, lambda: ({"spend": n} for n in range(purchase.max_spend(state) + 1))))
    elif state.phase in ("combat-move", "noncombat-move"):
        candidates.append((c.MoveSubmarines, seat, lambda: submarines.legal_moves(state)))
    elif state.phase == "combat":
        candidates += [
            (c.Raid, seat, lambda: raid.legal_raids(state)),
            (c.Fight, seat, lambda: submarines.legal_fights(state)),
            (c.LoseSubmarines, seat, lambda: submarines.legal_losses(state)),
            (c.Capture, seat, lambda: territory.legal_captures(state)),
            (c.Liberate, seat, lambda: territory.legal_liberations(state)),
        ]
    elif state.phase == "mobilize":
        candidates.append((c.PlaceSubmarines, seat, None))
    if state.phase != "purchase":
        candidates.append((c.EndPhase, seat, lambda: [{}]))
    candidates.append((c.EndGame, [REFEREE], lambda: [{}]))
    out: list[CommandSpec] = []
    for cmd, seats, choices in candidates:
        if only is not None and cmd.__struct_config__.tag != only:
            continue
        if choices is None:
            out.append(_spec(cmd, seats, None))
        elif (legal := _first(choices())) is not None:
            out.append(_spec(cmd, seats, None if only else legal))  # the command path needs who, not every choice
    return out


def default_seats(options: c.Options) -> list[str]:
    return list(TURN_ORDER)


def check_setup(options: c.Options, seats: list[str], data: MapData) -> None:
    """AA-R12: seats are powers, or sides playing the powers that have no seat of their own."""
    allowed = set(TURN_ORDER) | set(SIDE.values())
    unknown = [s for s in seats if s not in allowed]
    uncovered = [p for p in TURN_ORDER if p not in seats and SIDE[p] not in seats]
    if unknown or uncovered:
        raise InvalidInput(
            "invalid-seats",
            f"aa1942-convoy seats are powers {list(TURN_ORDER)} or sides ['Axis', 'Allies'] covering every power"
            + (f"; unknown: {unknown}" if unknown else "")
            + (f"; no seat plays {uncovered}" if uncovered else ""),
        )
    for power, zones in options.submarines.items():
        for sz in zones:
            if sz not in data.sea_zones:
                raise InvalidInput("invalid-options", f"options.submarines.{power}: no sea zone {sz} on the map")


RULESET = Ruleset(
    id="aa1942-convoy",
    version="1.0.0",
    title="Axis & Allies 1942.2 — National Convoy Disruption (house rule ledger)",
    options_type=c.Options,
    command_types=c.COMMANDS,
    default_seats=default_seats,
    check_setup=check_setup,
    parse_data=parse_map,
    data_file="data/map_1942_2.json",
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    views=views.VIEWS,
    event_types=ev.EVENTS,
)
