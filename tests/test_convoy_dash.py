"""convoy-dash's own rules (the toy of docs/architecture.md "Add a ruleset"); the conformance suite and the clicker
play it as they play every ruleset. Each test names its rule and chooses its dice."""

from __future__ import annotations

import pytest

from domain import engine
from domain.dice import ChosenDice
from domain.engine import IllegalCommand
from events.core import DiceRolled
from service.rulesets import load
from tests.convoy_dash.commands import Route, Search
from tests.convoy_dash.events import DashResolved

LOADED = load("tests.convoy_dash")
SEED = bytes(32)


def routed(lane: str, edition: str = "2.0.0") -> engine.Game:
    """A new game in which the convoy has picked `lane` (cover: south 3, centre 4, north 5)."""
    r = LOADED.ruleset
    created = engine.creation_events(r, LOADED.data, LOADED.data_sha256, "g", {}, None, "fair", SEED, edition=edition)
    game = engine.start(r, LOADED.data, LOADED.data_sha256, "g", created[0])
    for e in engine.decide_command(game, "convoy", Route(lane=lane), SEED):
        engine.evolve(game, e)
    return game


def resolved(game: engine.Game, search: Search, *faces: int) -> DashResolved:
    events = engine.decide_command(game, "raider", search, SEED, ChosenDice(*faces))
    return next(e for e in events if isinstance(e, DashResolved))


def test_CD1_a_lane_not_in_the_data_set_is_refused():
    with pytest.raises(IllegalCommand, match="CD-1"):
        routed("east")


def test_CD1_the_lane_is_the_convoys_and_the_referees_to_read_until_the_search():
    game = routed("north")
    board = LOADED.ruleset.views["board"]
    assert [board.render(game.state, r).lane for r in ("convoy", engine.REFEREE, "raider", None)] == [
        "north", "north", None, None
    ]


def test_CD2_a_search_costing_more_than_the_raiders_points_is_refused():
    with pytest.raises(IllegalCommand, match="CD-2: that search costs 5"):
        resolved(routed("north"), Search(lanes=["north", "centre", "south"], depth=2))


@pytest.mark.parametrize("face, found", [(2, True), (1, False)])
def test_CD3_the_searched_lane_is_found_when_1d6_plus_depth_reaches_its_cover(face, found):
    assert resolved(routed("north", "1.0.0"), Search(lanes=["north"], depth=3), face).found is found  # cover 5


def test_CD3_an_unsearched_lane_is_not_rolled_for():
    events = engine.decide_command(routed("north"), "raider", Search(lanes=["south"], depth=3), SEED, ChosenDice())
    assert not any(isinstance(e, DiceRolled) for e in events)


@pytest.mark.parametrize("edition, found", [("1.0.0", True), ("2.0.0", False)])
def test_CDE21_from_2_0_0_a_1_misses_whatever_the_depth(edition, found):
    assert resolved(routed("south", edition), Search(lanes=["south"], depth=2), 1).found is found  # 1 + 2 = cover 3
