"""Whole games played in-process by a ruleset's bot: `umpire simulate`, property tests, golden bundles, benchmarks.

A ruleset's `bot` (`choose(state, legal, seat)` in `domain/<ruleset>/bot.py`) and its `outcomes(state) ->
{figure: int}`: what a finished game comes to (tonnage, VP, kills, winner, IPCs …). The distribution of each figure
over many games is what `umpire simulate` prints.
"""

from __future__ import annotations

import hashlib
import math
import statistics
from collections.abc import Callable, Iterable
from typing import Any

from domain import engine
from domain.decisions import without_descriptors
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
    """Let the bot play every seat of `game` from where it stands to the end; rolls come from `server_seed`. Without
    `on_event` the rules decide on the game's own state (engine.decide_in_place): nobody else may hold `game`."""
    ruleset = game.ruleset
    if ruleset is None or ruleset.bot is None:
        raise ValueError(f"{game.created.ruleset.id} {game.created.ruleset.version} has no bot this engine runs")
    for _ in range(MAX_COMMANDS):
        with without_descriptors():  # the bot reads the entries' choices, never their descriptors
            legal = engine.awaiting(game)
        if not legal:
            return game
        seat = next(s for spec in legal for s in spec.seats)
        payload = ruleset.bot(game.state, legal, seat)  # every seat is the bot's: it reads the whole state
        if payload is None:
            game.legal_cache = None  # entries without descriptors were the bot's, never a later reader's
            return game
        seat = next(s for s in legal if s.type == payload["type"]).seats[0]
        command = engine.parse_command(ruleset, payload)
        if on_event is None:  # nobody reads the state between the events: the rules work on it in place
            events = engine.decide_in_place(game, seat, command, server_seed)
        else:
            events = engine.decide_command(game, seat, command, server_seed)
            for e in events:
                engine.evolve(game, e)
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


def categories(game: Game) -> dict[str, dict[int, str]]:
    """The ruleset's categorical figures for this game (`Ruleset.categories`): {figure: {value: label}}."""
    if game.ruleset is None or game.ruleset.categories is None:
        return {}
    return game.ruleset.categories(game.state)


def labelled(game: Game) -> dict[str, int | str]:
    """The game's figures, a category by its label (a value without one as itself, as `summarize` shows it)."""
    labels = categories(game)
    return {name: labels[name].get(v, str(v)) if name in labels else v for name, v in outcomes(game).items()}


def shares(values: list[int], labels: dict[int, str]) -> dict[str, float]:
    """Each category's share of the games in percent, in the labels' order (those no game reached left out); a
    value without a label is shown as itself."""
    n = len(values) or 1
    counted = {v: values.count(v) for v in dict.fromkeys([*labels, *sorted(set(values))])}
    return {labels.get(v, str(v)): round(100.0 * k / n, 1) for v, k in counted.items() if k}


def shares_line(figure: str, share: dict[str, float]) -> str:
    """`winner: japan 62%, russia 30%, drawn 8%`."""
    return f"{figure}: " + ", ".join(f"{label} {pct:g}%" for label, pct in sorted(share.items(), key=lambda x: -x[1]))


def ci95(values: list[int]) -> list[float]:
    """The mean's 95% confidence interval (normal approximation: mean ± 1.96 standard errors), kept within the least
    and greatest value the games gave: the mean lies between them, and mean ± 1.96 errors may not (below zero for a
    count whose games were nearly all 0)."""
    if len(values) < 2:
        return [float(values[0]), float(values[0])] if values else [0.0, 0.0]
    mean, half = statistics.fmean(values), 1.96 * statistics.stdev(values) / len(values) ** 0.5
    return [max(float(min(values)), round(mean - half, 3)), min(float(max(values)), round(mean + half, 3))]


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


def summarize(
    results: list[dict[str, int]],
    labels: dict[str, dict[int, str]] | None = None,
    actual: dict[str, int] | None = None,
) -> dict[str, dict[str, Any]]:
    """How every answer gives a figure over the games (`umpire simulate`, and the odds from a position through
    service/whatif.py): a quantity as its mean, the mean's 95% interval and percentiles; a category (`labels`) as each
    one's share only: its codes are names, not amounts, so no mean, interval or percentile of them. With the real game
    (`actual`: the odds from a position) a quantity also gets its histogram, the real value and its percentile, and a
    category the real game's category (`actual_label`): how often the games reached it is its share. Figures in the
    order the real game, then the games, report them."""
    names = list(dict.fromkeys([*(actual or {}), *(name for r in results for name in r)]))
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        values = [r[name] for r in results if name in r]
        real = None if actual is None else actual.get(name)
        if labels and name in labels:
            out[name] = {"shares": shares(values, labels[name])}
            if actual is not None:
                out[name]["actual_label"] = None if real is None else labels[name].get(real, str(real))
        else:
            out[name] = {**quantiles(values), "ci95": ci95(values)}
            if actual is not None:
                out[name] |= {
                    "histogram": histogram(values),
                    "actual": real,
                    "percentile": None if real is None else round(percentile(values, real), 1),
                }
    return out


def histogram(values: Iterable[int], bins: int = 20) -> list[dict[str, int]]:
    """Counts in at most `bins` integer bins [lo, hi]; small ranges get one bin per value."""
    values = sorted(values)
    if not values:
        return []
    lo, hi = values[0], values[-1]
    width = max(1, math.ceil((hi - lo + 1) / bins))
    counts: dict[int, int] = {}
    for v in values:
        counts[(v - lo) // width] = counts.get((v - lo) // width, 0) + 1
    return [
        {"lo": lo + i * width, "hi": lo + i * width + width - 1, "count": counts.get(i, 0)}
        for i in range((hi - lo) // width + 1)
    ]


def percentile(values: list[int], actual: int) -> float:
    """Where `actual` falls among `values`: the share below it plus half the share equal to it, in percent."""
    if not values:
        return 0.0
    below = sum(1 for v in values if v < actual)
    equal = sum(1 for v in values if v == actual)
    return 100.0 * (below + equal / 2) / len(values)
