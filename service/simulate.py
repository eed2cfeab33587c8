"""Whole games played in-process by a ruleset's bot: `umpire simulate`, property tests, golden bundles, benchmarks.

A ruleset's `bot` (`choose(state, legal, seat)` in `domain/<ruleset>/bot.py`) and its `outcomes(state) ->
{figure: int}`: what a finished game comes to (tonnage, VP, kills, winner, IPCs …). The distribution of each figure
over many games is what `umpire simulate` prints.
"""

from __future__ import annotations

import hashlib
import statistics
from collections.abc import Callable
from typing import Any

from domain import engine
from domain.engine import Game
from events.core import as_genesis
from events.vocabulary import Event
from service.rulesets import RULESETS

MAX_COMMANDS = 200_000


def new_game(
    ruleset_id: str,
    options: dict[str, Any],
    server_seed: bytes,
    game_id: str = "sim",
    seats: list[str] | None = None,
    edition: str | None = None,
) -> Game:
    """A fresh public-seed game on the default data set of its edition (None: the newest), folded through its
    creation events."""
    loaded = RULESETS[ruleset_id]
    created = engine.creation_events(
        loaded.ruleset, *loaded.data_for(edition), game_id, options, seats, "public-seed", server_seed, edition=edition
    )
    game = loaded.start(game_id, as_genesis(created[0]))
    for e in created[1:]:
        engine.evolve(game, e)
    return game


def play(
    ruleset_id: str,
    options: dict[str, Any],
    server_seed: bytes,
    game_id: str = "sim",
    on_event: Callable[[Game, Event], None] | None = None,
    on_command: Callable[[dict[str, Any], list[Event]], None] | None = None,
    seats: list[str] | None = None,
    edition: str | None = None,
) -> Game:
    """Create a game (public-seed) and let the bot send every command until the game is over."""
    game = new_game(ruleset_id, options, server_seed, game_id, seats, edition)
    return play_on(game, server_seed, on_event, on_command)


def play_on(
    game: Game,
    server_seed: bytes,
    on_event: Callable[[Game, Event], None] | None = None,
    on_command: Callable[[dict[str, Any], list[Event]], None] | None = None,
) -> Game:
    """Let the bot play every seat of `game` from where it stands to the end; rolls come from `server_seed`."""
    ruleset = game.ruleset
    if ruleset is None or ruleset.bot is None:
        raise ValueError(f"{game.created.ruleset.id} {game.created.ruleset.version} has no bot this engine runs")
    for _ in range(MAX_COMMANDS):
        legal = engine.awaiting(game)
        if not legal:
            return game
        seat = next(s for spec in legal for s in spec.seats)
        payload = ruleset.bot(game.state, legal, seat)  # every seat is the bot's: it reads the whole state
        if payload is None:
            return game
        seat = next(s for s in legal if s.type == payload["type"]).seats[0]
        events = engine.decide_command(game, seat, engine.parse_command(ruleset, payload), server_seed)
        for e in events:
            engine.evolve(game, e)
            if on_event:
                on_event(game, e)
        if on_command:
            on_command(payload, events)
    raise RuntimeError(f"{ruleset.id}: the bot did not finish in {MAX_COMMANDS} commands")


def seed_for(seed: int, i: int) -> bytes:
    """Game i's server seed: it depends only on the simulation seed and i, so any split over workers agrees."""
    return hashlib.sha256(f"umpire-simulate:{seed}:{i}".encode()).digest()


def outcomes(game: Game) -> dict[str, int]:
    if game.ruleset is None or game.ruleset.outcomes is None:
        raise ValueError(f"{game.created.ruleset.id} reports no outcomes")
    return game.ruleset.outcomes(game.state)


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


def summarize(results: list[dict[str, int]]) -> dict[str, dict[str, float]]:
    """The distribution of each figure over the games (figures in the order the first game reports them)."""
    names = list(dict.fromkeys(name for r in results for name in r))
    return {name: quantiles([r[name] for r in results if name in r]) for name in names}


def percentile(values: list[int], actual: int) -> float:
    """Where `actual` falls among `values`: the share below it plus half the share equal to it, in percent."""
    if not values:
        return 0.0
    below = sum(1 for v in values if v < actual)
    equal = sum(1 for v in values if v == actual)
    return 100.0 * (below + equal / 2) / len(values)
