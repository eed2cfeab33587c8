"""Seats the server plays itself: a ruleset's bot (`Ruleset.bot`) picking from what its seat may read."""

from __future__ import annotations

from typing import Any

from domain import engine
from domain.engine import Ruleset
from service.rulesets import Loaded

MAX_BOT_COMMANDS = 100_000


def bot_choose(ruleset: Ruleset, state: Any, legal: list, seat: str) -> dict[str, Any] | None:
    """The bot's pick for `seat`, from what that seat may read (rulesets with hidden information redact first)."""
    if ruleset.bot is None:  # a ruleset without a bot plays no seat
        return None
    view = ruleset.redact(state, seat) if ruleset.redact is not None else state
    return ruleset.bot(view, legal, seat)


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
    if loaded.ruleset.bot is None:
        raise engine.InvalidInput("invalid-bots", f"{loaded.ruleset.id} has no bot to play a seat")
