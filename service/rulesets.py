"""The rulesets this server plays, each with its default data set read, validated and hashed once.

Serving a ruleset is one line: its package's name in RULESET_MODULES (docs/rulesets.md "Add a ruleset"). Its RULESET
says everything else, and importing its package registers its event types (the package imports its events module).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domain import engine
from domain.editions import major
from domain.engine import Ruleset
from events.core import GameCreated
from service.credentials import NotFound

RULESET_MODULES = ("domain.aa1942_convoy", "domain.battlefleet_1900", "domain.corvette_command", "domain.uboat_leader")


@dataclass(frozen=True)
class Loaded:
    """A ruleset with its default data sets read, validated and hashed: `data` and `data_sha256` are the newest
    edition's (what a new game pins); `editions` holds each released edition's, by major, for the games of the older
    ones (a data revision, `Ruleset.data_file_of`: an old game keeps the set its genesis hashed); `files` each
    edition's file, by major (None: the ruleset has no data set), whose bytes the desk serves."""

    ruleset: Ruleset
    data: Any
    data_sha256: str
    editions: Mapping[str, tuple[Any, str]] = field(default_factory=dict)
    files: Mapping[str, Path | None] = field(default_factory=dict)

    def data_for(self, version: str | None) -> tuple[Any, str]:
        """(data set, SHA-256) a game of `version` plays on by default; None: a new game of the newest edition. A
        version this engine does not run gets the newest (engine.start refuses the game itself: edition-not-run)."""
        newest = (self.data, self.data_sha256)
        return self.editions.get(major(version), newest) if version else newest

    def start(self, game_id: str, created: GameCreated) -> engine.Game:
        """engine.start on the default data set of the game's edition (or its own, if its options bring one)."""
        return engine.start(self.ruleset, *self.data_for(created.ruleset.version), game_id, created)


def load(module_name: str) -> Loaded:
    """The module's RULESET with the default data set of each edition it runs (`data_file_of`, beside the module;
    none if that is ""), each file read and parsed once."""
    module = importlib.import_module(module_name)
    ruleset: Ruleset = module.RULESET
    here = Path(str(module.__file__)).parent  # a ruleset is a package on disk

    @functools.cache
    def read(name: str) -> tuple[Any, str]:
        raw = (here / name).read_bytes() if name else b""
        return ruleset.parse_data(raw), hashlib.sha256(raw).hexdigest()

    editions = {major(v): read(ruleset.data_file_of(v)) for v in ruleset.editions.run}
    files = {major(v): here / name if (name := ruleset.data_file_of(v)) else None for v in ruleset.editions.run}
    return Loaded(ruleset, *editions[major(ruleset.version)], editions, files)


RULESETS: dict[str, Loaded] = {loaded.ruleset.id: loaded for loaded in map(load, RULESET_MODULES)}
BUILTIN = frozenset(RULESETS)  # the rulesets loaded here; a service may serve others (a test's), shipped to workers


def loaded_for(rulesets: Mapping[str, Loaded], ruleset_id: str) -> Loaded:
    loaded = rulesets.get(ruleset_id)
    if loaded is None:
        raise NotFound("unknown-ruleset", f"no ruleset {ruleset_id!r}; GET /rulesets lists {sorted(rulesets)}")
    return loaded


def playable(rulesets: Mapping[str, Loaded], ruleset_id: str, version: str) -> Loaded:
    """The ruleset that plays a game of `ruleset_id` made as `version`, if this engine runs that edition; otherwise
    409 edition-not-run (a game of a ruleset this engine does not have at all is one of an edition not run, too)."""
    loaded = rulesets.get(ruleset_id)
    if loaded is None or loaded.ruleset.editions.find(version) is None:
        raise engine.not_run(ruleset_id, version, loaded.ruleset.editions.run if loaded else [])
    return loaded


def what_a_worker_serves(rulesets: Mapping[str, Loaded]) -> tuple[list[str], dict[str, tuple]]:
    """The ids the service serves, and those of them that are not the ones a fresh process loads itself (a test's):
    id -> (the module holding its RULESET, data, data hash, each edition's), so that the worker serves the same ones."""
    changed = {
        r: (x.ruleset.decide.__module__, x.data, x.data_sha256, dict(x.editions))
        for r, x in rulesets.items()
        if r not in BUILTIN or RULESETS.get(r) is not x
    }
    return list(rulesets), changed


def serve_the_same(served: list[str], changed: dict[str, tuple]) -> dict[str, Loaded]:
    """In a worker process: the rulesets what_a_worker_serves described (bundle verification, what-if)."""
    return {
        r: Loaded(importlib.import_module(changed[r][0]).RULESET, *changed[r][1:]) if r in changed else RULESETS[r]
        for r in served
    }
