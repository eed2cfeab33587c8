"""`battlefleet-1900`: pre-dreadnought fleet actions with miniatures (the Battlefleet 1900 rules).

Two seats give sealed, simultaneous orders, moves, estimates, launches and damage control each turn; the rules
resolve every step once all are in. Rule ids: docs/rules/battlefleet-1900.md. This module only routes.
"""

from __future__ import annotations

from typing import Any

from domain.battlefleet_1900 import bot, views
from domain.battlefleet_1900 import commands as c
from domain.battlefleet_1900.awaiting import legal_commands
from domain.battlefleet_1900.data import parse_data
from domain.battlefleet_1900.editions import EDITIONS
from domain.battlefleet_1900.evolve import evolve
from domain.battlefleet_1900.rules import turn
from domain.battlefleet_1900.rules.sealing import REDRAWN, imagine, redact, redraw
from domain.battlefleet_1900.state import State, initial_state
from domain.dice import Dice
from domain.engine import Ruleset
from domain.procedure import Ctx
from events import battlefleet_1900 as ev
from events.vocabulary import Event

__all__ = ["RULESET", "redact"]


def decide(state: State, cmd: Any, seat: str, dice: Dice) -> list[Event]:
    ctx = Ctx(state, dice, evolve)
    if isinstance(cmd, c.Concede):
        turn.concede(ctx, seat)
    else:
        turn.submit(ctx, seat, cmd)
    return ctx.events


RULESET = Ruleset(
    id="battlefleet-1900",
    editions=EDITIONS,
    title="Battlefleet 1900 — pre-dreadnought fleet actions",
    options_type=c.Options,
    command_types=c.COMMANDS,
    default_seats=turn.default_seats,
    check_setup=turn.check_setup,
    parse_data=parse_data,
    data_file="data/default.json",
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    views=views.VIEWS,
    digest=views.digest,
    event_types=ev.EVENTS,
    data_option="data",
    redact=redact,
    imagine=imagine,
    redraw=redraw,
    redrawn=REDRAWN,
    bot=bot.choose,
    outcomes=bot.outcomes,
    categories=bot.categories,
    sequence_rule="BF-R1",
)
