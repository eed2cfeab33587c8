"""The data set of `uboat-leader`: the sheets, cards and tables the rule text names but does not print.

schema.py holds its Structs (every entry marked `stand_in`, with the fields the text gives in `from_text`; `rules`
holds every number of the completion rules UL-S1…S10); checks.py the cross-checks; `parse_data` decodes a set (ours
or a user's) and reports every problem at once.
"""

from __future__ import annotations

import msgspec

from domain.uboat_leader.data import checks
from domain.uboat_leader.data.schema import (
    DECK_FIELDS,
    DECKS,
    LEVELS,
    Campaign,
    DataSet,
    Display,
    Duration,
    LevelCard,
    Row,
    Rules,
    UBoat,
)

__all__ = [
    "DECKS",
    "DECK_FIELDS",
    "LEVELS",
    "Campaign",
    "DataSet",
    "Display",
    "Duration",
    "LevelCard",
    "Row",
    "Rules",
    "UBoat",
    "parse_data",
]


def parse_data(raw: bytes) -> DataSet:
    """Decode and cross-check (checks.py); every problem found is reported at once."""

    data = msgspec.json.decode(raw, type=DataSet)
    problems: list[str] = []
    problems += checks.check_rules(data.rules)
    problems += checks.check_display(data.display)
    problems += checks.check_cards(data)
    for camp in data.campaigns:
        problems += checks.check_campaign(camp, data)
    if len({c.id for c in data.campaigns}) != len(data.campaigns) or not data.campaigns:
        problems.append("campaigns: ids must be unique and at least one given")
    if problems:
        raise ValueError("; ".join(problems))
    return data
