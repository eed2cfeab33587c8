"""`aa1942-convoy`: the National Convoy Disruption house rule for Axis & Allies 1942.2, as a ledger.

It runs beside a game of A&A played elsewhere: territory control, submarines per sea zone, convoy
zones, raids, chips and the IPC damage. It does not play A&A combat. Rule ids: docs/rules/aa1942-convoy.md.
"""

from __future__ import annotations

from typing import Any

from domain.aa1942_convoy import bot, sheet, views
from domain.aa1942_convoy import commands as c
from domain.aa1942_convoy.awaiting import legal_commands
from domain.aa1942_convoy.data import parse_map
from domain.aa1942_convoy.editions import EDITIONS
from domain.aa1942_convoy.evolve import evolve
from domain.aa1942_convoy.rules import purchase, raid, setup, submarines, territory, turn
from domain.aa1942_convoy.state import TURN_ORDER, State
from domain.dice import Dice
from domain.engine import History, Ruleset
from events import aa1942_convoy as ev
from events.vocabulary import Event


def decide(state: State, cmd: Any, seat: str, dice: Dice) -> list[Event]:
    """Route the command to its rule. A refusal gives the rule's reason; the engine adds what is legal now
    (domain/engine.py `refusal`)."""
    match cmd:
        case c.Purchase(spend=spend):
            return purchase.purchase(state, spend)
        case c.MoveSubmarines(from_sz=a, to_sz=b, count=n):
            return submarines.move(state, a, b, n)
        case c.Raid(sz=sz):
            return raid.raid(state, sz, dice)
        case c.Fight(sz=sz, count=n):
            return submarines.fight(state, sz, n)
        case c.RetreatSubmarines(from_sz=a, to_sz=b, count=n):
            return submarines.retreat(state, a, b, n)
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


def default_seats(options: c.Options) -> list[str]:
    return list(TURN_ORDER)


RULESET = Ruleset(
    id="aa1942-convoy",
    # 2.0.0: the cap follows the chips (AA-R5), liberated capitals (AA-R14), canals (AA-R15), the standard setup
    # (AA-R16): a command stream of 1.x may mean something else here. 3.0.0: the chips are removed when the owner
    # pays (step 2 of Purchase & Repair, AA-11), not as its phase begins: a 2.x game's events come in another order.
    # 4.0.0 and 5.0.0 (AA-E4-*, AA-E5-1): editions.py; older games keep their edition's rules
    editions=EDITIONS,
    title="Axis & Allies 1942.2 — National Convoy Disruption (house rule ledger)",
    options_type=c.Options,
    command_types=c.COMMANDS,
    default_seats=default_seats,
    check_setup=setup.check_setup,
    parse_data=parse_map,
    data_file="data/map_1942_2.json",
    initial_state=setup.initial_state,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    # the referee's end of the ledger (A&A's victory, played elsewhere, ends it) is offered from the first step on: a
    # client reading its `awaiting` for "my turn" leaves it aside, as battlefleet's `concede`
    no_clock=(
        "AA-E6-2",
        "aa1942-convoy records an A&A game played at the table: nothing may act for a power whose time runs out (its "
        "bot plays for what-if and simulations only, and its pick would be a move nobody made), so from 6.0.0 a game "
        "takes no turn clock; keep the time at the table",
    ),
    views=views.VIEWS,
    history=History(sheet.new_sheet, sheet.evolve),
    digest=views.digest,
    event_types=ev.EVENTS,
    new_game_options=setup.new_game_options,
    bot=bot.choose,
    outcomes=bot.outcomes,
    sequence_rule="AA-3",
)
