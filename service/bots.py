"""Seats the server plays itself: a ruleset's bot (`domain/<ruleset>/bot.py`) picking from what its seat may read."""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from domain import engine
from service.rulesets import Loaded

MAX_BOT_COMMANDS = 100_000


def bot_for(ruleset_id: str):
    return importlib.import_module(f"domain.{ruleset_id.replace('-', '_')}.bot")


def bot_choose(bot, redact, state: Any, legal: list, seat: str) -> dict[str, Any] | None:
    """The bot's pick for `seat`, from what that seat may read (rulesets with hidden information redact first)."""
    view = redact(state, seat) if redact is not None else state
    if len(inspect.signature(bot.choose).parameters) >= 3:
        return bot.choose(view, legal, seat)
    return bot.choose(view, legal)


def check_bots(loaded: Loaded, seats: list[str], bots: list[str]) -> None:
    if not bots:
        return
    unknown = [b for b in bots if b not in seats]
    if unknown or len(set(bots)) != len(bots):
        raise engine.InvalidInput("invalid-bots", f"bots are seats of the game, each once; seats: {seats}")
    if len(bots) >= len(seats):
        raise engine.InvalidInput(
            "invalid-bots", "at least one seat is a person's: the server plays against people, not alone"
        )
    try:
        bot_for(loaded.ruleset.id)
    except ModuleNotFoundError:
        raise engine.InvalidInput("invalid-bots", f"{loaded.ruleset.id} has no bot to play a seat")
