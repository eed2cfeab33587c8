"""`convoy-dash`: the toy ruleset of docs/architecture.md "Add a ruleset", played by the tests as every ruleset is.

Two seats: the convoy picks a lane in secret, the raider searches lanes, a d6 decides (rules.py has the rule ids).
This module routes each command to its rule and says, in `RULESET`, everything the engine needs.
"""

from __future__ import annotations

from domain.dice import Dice
from domain.engine import Ruleset
from events.vocabulary import Event
from tests.convoy_dash import bot, rules
from tests.convoy_dash.awaiting import legal_commands
from tests.convoy_dash.commands import Command, Options, Route, Search
from tests.convoy_dash.data import parse_data
from tests.convoy_dash.editions import EDITIONS
from tests.convoy_dash.events import EVENTS
from tests.convoy_dash.evolve import evolve
from tests.convoy_dash.state import SEATS, State, initial_state, redact
from tests.convoy_dash.views import VIEWS


def decide(state: State, cmd: Command, seat: str, dice: Dice) -> list[Event]:
    """The engine has checked that `seat` may send this command now; its rule judges the arguments."""
    if isinstance(cmd, Route):
        return rules.route(state, cmd)
    assert isinstance(cmd, Search)
    return rules.search(state, cmd, dice)


def default_seats(options: Options) -> list[str]:
    return list(SEATS)


RULESET = Ruleset(
    id="convoy-dash",
    editions=EDITIONS,
    title="Convoy dash (the toy ruleset of docs/architecture.md)",
    options_type=Options,
    command_types=(Route, Search),
    default_seats=default_seats,
    named_seats=True,  # its entries await "convoy" and "raider"
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    views=VIEWS,
    parse_data=parse_data,
    data_file="data/lanes.json",
    event_types=EVENTS,
    redact=redact,
    bot=bot.choose,
    outcomes=bot.outcomes,
)
