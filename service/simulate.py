"""Whole games played in-process by a ruleset's bot: `umpire simulate`, property tests, golden bundles."""

from __future__ import annotations

import hashlib
import importlib
import statistics
from collections.abc import Callable
from typing import Any

from domain import engine
from domain.engine import Game
from events.vocabulary import Event
from service.rulesets import RULESETS

MAX_COMMANDS = 200_000


def bot_for(ruleset_id: str):
    return importlib.import_module(f"domain.{ruleset_id.replace('-', '_')}.bot")


def play(
    ruleset_id: str,
    options: dict[str, Any],
    server_seed: bytes,
    game_id: str = "sim",
    on_event: Callable[[Game, Event], None] | None = None,
    on_command: Callable[[dict[str, Any], list[Event]], None] | None = None,
    ruleset: engine.Ruleset | None = None,
) -> Game:
    """Create a game (public-seed) and let the bot send every command until the game is over. `ruleset` replaces
    the registered one (a test passes a copy whose decide checks what it must)."""
    loaded = RULESETS[ruleset_id]
    rules = ruleset or loaded.ruleset
    bot = bot_for(ruleset_id)
    created = engine.creation_events(
        rules, loaded.data, loaded.data_sha256, game_id, options, None, "public-seed", server_seed
    )
    game = engine.start(rules, loaded.data, loaded.data_sha256, game_id, created[0])
    for e in created[1:]:
        engine.evolve(game, e)
    for _ in range(MAX_COMMANDS):
        legal = engine.awaiting(game)
        if not legal:
            return game
        payload = bot.choose(game.rules, legal)
        if payload is None:
            return game
        seat = next(s for s in legal if s.type == payload["type"]).seats[0]
        events = engine.decide_command(game, seat, engine.parse_command(rules, payload), server_seed)
        for e in events:
            engine.evolve(game, e)
            if on_event:
                on_event(game, e)
        if on_command:
            on_command(payload, events)
    raise RuntimeError(f"{ruleset_id}: the bot did not finish in {MAX_COMMANDS} commands")


def seed_for(seed: int, i: int) -> bytes:
    return hashlib.sha256(f"umpire-simulate:{seed}:{i}".encode()).digest()


def quantiles(values: list[int]) -> dict[str, float]:
    if not values:
        return {}
    q = statistics.quantiles(values, n=20, method="inclusive") if len(values) > 1 else [values[0]] * 19
    return {
        "mean": statistics.fmean(values),
        "p5": q[0],
        "p25": q[4],
        "median": q[9],
        "p75": q[14],
        "p95": q[18],
        "min": min(values),
        "max": max(values),
    }


def corvette_summary(games: list[Game]) -> dict[str, dict[str, float]]:
    """Per convoy: tonnage lost and VP; per game: U-boat kills (confirmed, probable, possible)."""
    tons = [line.tonnage for g in games for line in g.rules.log]
    vps = [line.vp for g in games for line in g.rules.log]
    kills = [
        sum(1 for line in g.rules.log for enc in line.encounters if enc.fate in ("confirmed", "probable", "possible"))
        for g in games
    ]
    return {
        "tonnage lost per convoy": quantiles(tons),
        "convoy VP": quantiles(vps),
        "U-boat kills per game": quantiles(kills),
    }
