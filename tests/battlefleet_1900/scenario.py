"""Builders for battlefleet-1900 tests: a state at a chosen moment, ships placed and damaged by hand, a working
copy with chosen dice and a data set changed for one test (whole bot battles: service/simulate.py `play`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import msgspec

from domain.battlefleet_1900.commands import Options
from domain.battlefleet_1900.data import DataSet, parse_data
from domain.battlefleet_1900.evolve import evolve
from domain.battlefleet_1900.state import State, initial_state
from domain.dice import ChosenDice
from domain.procedure import Ctx
from events.battlefleet_1900 import Pose
from events.core import DiceRolled
from service.rulesets import RULESETS
from tests.genesis import genesis

DATA: DataSet = RULESETS["battlefleet-1900"].data
RAW = json.loads((Path(__file__).resolve().parents[2] / "domain/battlefleet_1900/data/default.json").read_text())
B = DATA.scale.bracket_mm


def data_with(change: Callable[[dict], None]) -> DataSet:
    """The default data set with one change made to its JSON (checked by parse_data like any user's set)."""
    raw = json.loads(json.dumps(RAW))
    change(raw)
    return parse_data(json.dumps(raw).encode())


def make_state(
    scenario: str = "yellow-sea-1904",
    fog: str = "open",
    data: DataSet = DATA,
    step: str = "command",
    turn: int = 1,
    edition: str | None = None,
    **options,
) -> State:
    """The scenario's table at `turn`/`step`, nobody owing anything yet, under `edition` (default: the newest)."""
    s = initial_state(genesis("battlefleet-1900", edition), msgspec.convert({"scenario": scenario, "fog": fog, **options}, Options), data)
    s.turn, s.step, s.owing = turn, step, []
    return s


def place(s: State, ship: str, x: int, y: int, h: int, last: int | None = None) -> None:
    sec = s.sealed[s.ships[ship].seat]
    sec.poses[ship] = Pose(x, y, h)
    if last is not None:
        sec.last_move[ship] = last


def ctx(s: State, *faces) -> Ctx:
    return Ctx(s, ChosenDice(*faces), evolve)


def done(c: Ctx) -> None:
    """Every chosen face was used."""
    assert c.dice.unused == 0, f"{c.dice.unused} chosen roll(s) unused"


def kinds(c: Ctx) -> list[str]:
    return [type(e).__name__ for e in c.events]


def of(c: Ctx, cls) -> list:
    return [e for e in c.events if isinstance(e, cls)]


def rolls(c: Ctx) -> list[DiceRolled]:
    return of(c, DiceRolled)


def table(options: dict | None = None):
    """A game through the engine (legality, seats, sealing) with faces the test chooses (tests/conftest.Table)."""
    from tests.conftest import Table

    return Table("battlefleet-1900", {"fog": "open", **(options or {})})
