"""aa1942-convoy bot games (domain/aa1942_convoy/bot.py) with the ledger's invariants checked at every event,
the bot's reach (every branch, from any position, to the end) (evolve's coverage of the event types is
tests/test_conformance.py's, for every ruleset)."""

from __future__ import annotations

from collections import Counter

import pytest

from domain import engine
from domain.aa1942_convoy.state import CONVOY_ZONES, SIDE, TURN_ORDER, ZONE_VALUE, inactive_zones
from events import aa1942_convoy as ev
from events.core import DiceRolled
from service import simulate
from service.simulate import seed_for

GAMES = 12
OPTIONS = [{}, {"seats": ["Axis", "Allies"]}, {"rounds": 4}, {"setup": "empty", "submarines": {"Japan": {"10": 2}}}]


class Invariants:
    """Checks the ledger after every event of one game; counts what happened for the coverage test."""

    def __init__(self, game: engine.Game):
        self.expected_subs = {p: sum(game.state.subs.get(p, {}).values()) for p in TURN_ORDER}
        self.last_roll: DiceRolled | None = None
        self.chips_before: dict[int, int] = {}
        self.raided_before: dict[int, int] = {}
        self.fought_before: dict[int, int] = {}
        self.seen: Counter = Counter()

    def __call__(self, game: engine.Game, e) -> None:
        s = game.state
        self.seen[type(e).__name__] += 1
        if isinstance(e, DiceRolled):
            self.last_roll = e
        if isinstance(e, ev.ConvoyRaided):
            assert self.last_roll is not None and e.roll_k == self.last_roll.k
            assert e.cap_left == ZONE_VALUE - self.chips_before.get(e.sz, 0)  # AA-R5: the cap is what chips leave
            assert e.damage == min(e.rolled, e.cap_left) and 1 <= e.rolled <= 4
            self.seen["raid-cut" if e.damage < e.rolled else "raid-full"] += 1
        if isinstance(e, ev.SubmarinesPlaced):
            self.expected_subs[e.power] += e.count
            if s.edition.has("AA-E4-2"):  # AA-R17: one a 6 IPCs spent this turn, in all
                assert s.placed[e.power] <= s.spent.get(e.power, 0) // 6, f"AA-R17: {e.power} placed past its purchase"
        if isinstance(e, ev.SubmarinesLost):
            self.expected_subs[e.power] -= e.count
            if s.edition.has("AA-E4-1"):  # AA-R10: an enemy's, or its own that did not raid; never an ally's
                assert e.power == e.reported_by or SIDE[e.power] != SIDE[e.reported_by], f"AA-E4-1: {e} is an ally's"
                if e.power == e.reported_by:  # its raiders stay for the zone owner's turn (AA-6, AA-7)
                    used = s.used.get(e.sz)
                    raided = used.raided if used is not None else 0
                    assert raided == self.raided_before.get(e.sz, 0), f"AA-E4-1: a raider lost in sea zone {e.sz}"
                self.seen["lose-own" if e.power == e.reported_by else "lose-enemy"] += 1
        if isinstance(e, ev.SubmarinesRetreated):  # AA-R18 (5.0.0): those that fought there, one sea move away
            assert s.edition.has("AA-E5-1") and s.phase == "combat" and s.combat_step == 3
            assert e.count <= self.fought_before.get(e.from_sz, 0), f"AA-R18: {e} retreats more than fought there"
            assert e.to_sz in s.map.sea_zones[str(e.from_sz)].adjacent_sea_zones, f"AA-R18: {e} is not one move"
            self.seen["retreat"] += 1
        if isinstance(e, ev.PurchaseMade):
            self.seen["spend-" + ("none" if e.spent == 0 else "all" if e.treasury == 0 else "part")] += 1
        assert all(0 <= n <= ZONE_VALUE for n in s.chips.values()), "a zone never holds more than 4 chips"
        assert set(s.chips) <= set(CONVOY_ZONES)
        assert all(v >= 0 for v in s.treasury.values()), "a treasury never goes below 0"
        assert {p: sum(s.subs.get(p, {}).values()) for p in TURN_ORDER} == self.expected_subs, "subs conserved"
        assert all(n > 0 for zones in s.subs.values() for n in zones.values())
        assert all(
            u.total <= s.subs_in(s.power, sz) and min(u.moved, u.raided, u.fought, u.retreated) >= 0
            for sz, u in s.used.items()
        )
        assert s.inactive == inactive_zones(s, s.control)
        # AA-R1, AA-5: the zones the raid and fight entries read are those where a submarine neither raided nor fought
        may = {sz: s.may_raid_with(sz) for sz in s.subs.get(s.power, {}) if s.may_raid_with(sz) > 0}
        assert s.zones_that_may_raid() == may
        # `awaiting` lists a command exactly when the rules' own choices judge it legal (the builders say None
        # where there are none; a replay or a simulation judges with `only=`, a command after an answer with the list)
        listed = {x.type for x in game.ruleset.legal_commands(s)}
        judged = {t for t in game.ruleset.command_names if game.ruleset.legal_commands(s, only=t)}
        assert listed == judged, f"awaiting lists {sorted(listed)}, the rules judge {sorted(judged)} legal"
        self.chips_before = dict(s.chips)
        self.raided_before = {sz: u.raided for sz, u in s.used.items()}
        self.fought_before = {sz: u.fought for sz, u in s.used.items()}


def new_game(game_id: str, options: dict, seats: list[str] | None = None) -> engine.Game:
    return simulate.new_game("aa1942-convoy", options, b"seed", game_id, seats)


def bot_game(i: int, options: dict) -> tuple[engine.Game, Invariants]:
    seats = options.get("seats")
    game = new_game(f"prop-{i}", {k: v for k, v in options.items() if k != "seats"}, seats)
    checks = Invariants(game)
    simulate.play_on(game, seed_for(1942, i), checks)
    return game, checks


@pytest.fixture(scope="module")
def games() -> list[tuple[engine.Game, Invariants]]:
    return [bot_game(i, OPTIONS[i % len(OPTIONS)]) for i in range(GAMES)]


def test_bot_games_keep_the_invariants_at_every_event_and_end(games):
    for game, _ in games:
        assert game.over and game.ended


def test_bot_games_take_every_branch(games):
    seen = sum((checks.seen for _, checks in games), Counter())
    every_event = {cls.__name__ for cls in ev.EVENTS}
    assert every_event <= set(seen), every_event - set(seen)
    assert {"raid-cut", "raid-full", "spend-none", "spend-all", "spend-part", "lose-own", "lose-enemy"} <= set(seen)


def test_the_bot_plays_to_the_end_from_any_position_and_the_same_way_twice():
    """What-if (issue #13) runs the bot from arbitrary positions: every 37th position of a game, mid-phase or not,
    plays to a GameEnded; the same position plays the same continuation."""
    log: list = []
    whole = new_game("whole", {})
    simulate.play_on(whole, seed_for(1942, 99), lambda g, e: log.append(e))
    for at in range(3, len(log), 37):
        ends: list[list[str]] = [[], []]
        for end in ends:
            game = new_game("whole", {})
            for e in log[:at]:
                engine.evolve(game, e)
            simulate.play_on(game, b"what-if", lambda g, e, end=end: end.append(type(e).__name__))
        assert ends[0] == ends[1] and ends[0][-1] == "GameEnded"


