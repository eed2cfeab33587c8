"""Playing games in tests, one owner each: the rulesets only the tests serve, the options of a short whole game of
every ruleset, the command an `awaiting` entry's first choice makes, first choices sent over HTTP, and the ruleset's
bot sending commands through a service. (A whole bot game in-process is service/simulate.py's `play`; one game made and one command sent over HTTP
are tests/conftest.py's `new_game` and `send`.)"""

from __future__ import annotations

from typing import Any

from domain import engine
from service.bots import bot_choose
from service.rulesets import RULESETS, Loaded, load
from tests.conftest import read, send

# rulesets only the tests serve, beside service/rulesets.py's (docs/architecture.md "Add a ruleset")
TEST_RULESETS = ("tests.sealed_bid", "tests.convoy_dash")


def served(*modules: str) -> dict[str, Loaded]:
    """The served rulesets and the test-only ones (`modules`; none named: all of TEST_RULESETS), each loaded as every
    ruleset is: what a test hands to create_app or GameService (the global list stays as it is)."""
    return {**RULESETS, **{x.ruleset.id: x for x in map(load, modules or TEST_RULESETS)}}


SHORT: dict[str, dict[str, Any]] = {  # options for a short whole game, where a ruleset's defaults make a long one
    "aa1942-convoy": {"rounds": 1},
    "battlefleet-1900": {"scenario": "torpedo-attack", "turns": 2},
    "corvette-command": {"convoys": 1},
    "uboat-leader": {"duration": "short"},
    "sealed-bid": {"rounds": 2},
}


def first_choice(entry: dict[str, Any]) -> dict[str, Any]:
    """The command an `awaiting` entry's first listed choice makes (its bare type where it lists none)."""
    return {"type": entry["type"], **(entry["choices"][0] if entry["choices"] else {})}


def first_choices(client, g: dict, commands: int) -> list[tuple[dict, dict]]:
    """Over HTTP, the README's loop: the first choice of the first entry of `awaiting` that lists choices (else of
    the first entry), sent as that entry's first seat (`g` seated: tokens by seat), `commands` times or until
    nothing is awaited; each command sent and its answer. Entries for the referee alone are left alone."""
    out = []
    for _ in range(commands):
        awaiting = [a for a in read(client, g).json()["awaiting"] if a["seats"] != [engine.REFEREE]]
        if not awaiting:
            break
        entry = next((a for a in awaiting if a["choices"]), awaiting[0])
        command = first_choice(entry)
        out.append((command, send(client, g, entry["seats"][0], command)))
    return out


def bot_commands(svc, game_id: str, tokens: dict[str, str], commands: int) -> None:
    """Through the service, `commands` commands of `game_id` (or until nothing is awaited), each the ruleset's bot's
    pick for the seat it is for, from what that seat may read (service/bots.py), sent with that seat's token."""
    for _ in range(commands):
        game = svc.cache.cached(game_id).game
        legal = engine.awaiting(game)
        if not legal:
            return
        seat = (engine.waiting_for(game) or [s for spec in legal for s in spec.seats])[0]
        mine = engine.awaiting(game, seat)
        payload = bot_choose(game.ruleset, game.state, mine, seat)
        seat = next(s for s in mine if s.type == payload["type"]).seats[0]
        svc.command(game_id, tokens[seat], payload)
