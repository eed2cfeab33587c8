"""A genesis for rules tests that build a state directly (initial_state needs the game's edition from it)."""

from __future__ import annotations

from events.core import DiceConfig, GameCreated, RulesetRef
from service.rulesets import RULESETS


def genesis(ruleset_id: str, edition: str | None = None, seats: list[str] | None = None) -> GameCreated:
    """A GameCreated of `ruleset_id` under `edition` (default: the newest), on that edition's default data set."""
    loaded = RULESETS[ruleset_id]
    return GameCreated(
        ruleset=RulesetRef(ruleset_id, edition or loaded.ruleset.version, loaded.data_for(edition)[1]),
        options={},
        seats=seats or loaded.ruleset.default_seats(loaded.ruleset.options_type()),
        dice=DiceConfig(scheme="umpire1", mode="public-seed", server_commit="00" * 32),
    )
