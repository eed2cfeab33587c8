"""The rulesets this server plays, each with its default data set read, validated and hashed once."""

from __future__ import annotations

import hashlib
import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import events.aa1942_convoy  # noqa: F401 - registers the rulesets' event types
import events.battlefleet_1900  # noqa: F401
import events.corvette_command  # noqa: F401
import events.uboat_leader  # noqa: F401
import events.core  # noqa: F401
from domain.engine import Ruleset

RULESET_MODULES = ("domain.aa1942_convoy", "domain.battlefleet_1900", "domain.corvette_command", "domain.uboat_leader")


@dataclass(frozen=True)
class Loaded:
    ruleset: Ruleset
    data: Any
    data_sha256: str


def _load(module_name: str) -> Loaded:
    module = importlib.import_module(module_name)
    ruleset: Ruleset = module.RULESET
    raw = (Path(module.__file__).parent / ruleset.data_file).read_bytes()
    return Loaded(ruleset, ruleset.parse_data(raw), hashlib.sha256(raw).hexdigest())


RULESETS: dict[str, Loaded] = {}
for _name in RULESET_MODULES:
    _loaded = _load(_name)
    RULESETS[_loaded.ruleset.id] = _loaded
