"""Editions: a game keeps the rules it was made under (DESIGN.md "Editions", docs/rules/<id>.md "Editions").

A game's genesis records its ruleset's version; the major version is its **edition**. The engine runs every edition
a ruleset lists as released, forever. A behaviour change that alters what recorded commands or rolls decide is one
row of the ruleset's table (`domain/<ruleset>/editions.py`): a change id, the edition that introduced it, the rule
ids it concerns and a line saying what it does. Rule code asks the game's edition through that table,
`state.edition.has("BF-E4-1")`, and never compares version strings itself.

Pure: no I/O. An `Edition` pickles as (ruleset, version) and is found again in the table on load, so a snapshot
never carries a stale copy of a table.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

_TABLES: dict[str, Editions] = {}  # ruleset id -> its table, for unpickling an Edition


def major(version: str) -> str:
    return version.split(".", 1)[0]


@dataclass(frozen=True)
class Change:
    """One behaviour change: from `edition` on, the rules do what `summary` says (the rule ids in `rules`). `hides`:
    it keeps hidden what the editions before it published (a sealed order, a fogged position), so they make no new
    game with such options (`Editions.leaks`); their games play on and replay as they were. True, or which games'
    options it concerns (Battlefleet's fog `blur`)."""

    id: str
    edition: str
    rules: tuple[str, ...]
    summary: str
    hides: bool | Callable[[Mapping[str, Any]], bool] = False


@dataclass(frozen=True)
class Released:
    """One released edition: its version as new games record it, and what it changed, in a sentence. `data_file`:
    a data revision, the default data set its games pin (relative to the ruleset package); the editions after it keep
    it until one names another, and those before it keep theirs (`Ruleset.data_file_of`)."""

    version: str
    summary: str
    data_file: str | None = None


@dataclass(frozen=True)
class Edition:
    """The edition one game plays under: `has(change)` says whether a change of the table is in force for it."""

    ruleset: str
    version: str
    _in_force: frozenset[str] = field(repr=False, compare=False)
    _known: frozenset[str] = field(repr=False, compare=False)

    def has(self, change: str) -> bool:
        if change not in self._known:  # a typo would otherwise read as "not in force" for every game
            raise KeyError(f"{change!r} is not a change of {self.ruleset}'s edition table")
        return change in self._in_force

    @property
    def major(self) -> str:
        return major(self.version)

    def __reduce__(self) -> tuple[Callable[[str, str], Edition], tuple[str, str]]:
        return (_edition, (self.ruleset, self.version))

    def __copy__(self) -> Edition:
        return self

    def __deepcopy__(self, memo: object) -> Edition:
        return self


def _edition(ruleset: str, version: str) -> Edition:
    return _TABLES[ruleset].of(version)


@dataclass(frozen=True)
class Editions:
    """A ruleset's edition table. `released` is oldest first; the last is what new games get. `retired` names the
    majors superseded during development, before the first released edition: never released, so never played here
    (their games' raw reads still work: events, rolls, bundle, export, reveal, end)."""

    ruleset: str
    released: tuple[Released, ...]
    changes: tuple[Change, ...] = ()
    retired: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        versions = [r.version for r in self.released]
        majors = [major(v) for v in versions]
        if not versions or len(set(majors)) != len(majors):
            raise ValueError(f"{self.ruleset}: released editions must be distinct majors, oldest first: {versions}")
        ids = [c.id for c in self.changes]
        if len(set(ids)) != len(ids):
            raise ValueError(f"{self.ruleset}: a change id is listed twice")
        for c in self.changes:
            if c.edition not in versions:
                raise ValueError(f"{self.ruleset}: change {c.id} names {c.edition}, which is not a released edition")
        _TABLES[self.ruleset] = self

    @functools.cached_property
    def _by_major(self) -> dict[str, Edition]:
        versions, known, out = self.run, frozenset(c.id for c in self.changes), {}
        for i, v in enumerate(versions):
            up_to = set(versions[: i + 1])
            out[major(v)] = Edition(self.ruleset, v, frozenset(c.id for c in self.changes if c.edition in up_to), known)
        return out

    @property
    def newest(self) -> str:
        return self.released[-1].version

    @property
    def run(self) -> list[str]:
        """The versions this engine plays, oldest first."""
        return [r.version for r in self.released]

    def find(self, version: str) -> Edition | None:
        """The edition a game recorded as `version` plays under (any minor or patch of a released major), or None."""
        return self._by_major.get(major(version)) if isinstance(version, str) else None

    def of(self, version: str) -> Edition:
        """The edition of a game the engine has accepted (engine.start checks first and refuses the others)."""
        found = self.find(version)
        if found is None:
            raise ValueError(f"{self.ruleset} {version} is not an edition this engine runs: {self.run}")
        return found

    def named(self, version: str) -> Edition | None:
        """The edition a creator names: exactly one of the released versions."""
        return self.find(version) if version in self.run else None

    def changes_in(self, version: str) -> list[Change]:
        return [c for c in self.changes if c.edition == version]

    def leaks(self, version: str, options: Mapping[str, Any] | None = None) -> list[Change]:
        """What a game of `version` with `options` (its recorded ones; None: any game's) publishes that the rules keep
        hidden: the changes of later editions that hide it (`Change.hides`). A new game is not made under an edition
        with any (POST /games, 422 edition-withdrawn)."""
        edition = self.of(version)
        return [
            c
            for c in self.changes
            if c.hides and not edition.has(c.id) and (options is None or c.hides is True or c.hides(options))
        ]

    def for_new_games(self, options: Mapping[str, Any] | None = None) -> list[str]:
        """The released versions a new game with `options` may name: those that leak nothing a later edition hides."""
        return [v for v in self.run if not self.leaks(v, options)]
