"""Issue 36 item 1: the instructions a game costs are cut without changing a single game. The games below, played by
each ruleset's bot from fixed simulation seeds under pinned editions, must end exactly as they did when the fixture
was written (`tests/same_odds/games.json`): every event and every figure of every game, so the odds `umpire simulate` gives for
the same seeds are the same. A change that alters them changes the rules, and belongs in a new edition (with a new
fixture entry beside the old, never a rewritten one).

Write the fixture (only for a new entry): `.venv/bin/python -m tests.test_same_odds`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgspec
import pytest

from domain import engine
from service.simulate import new_game, outcomes, play, seed_for

FIXTURE = Path(__file__).parent / "same_odds" / "games.json"  # not in fixtures/, which holds bundles
# (ruleset, edition, options, games)
GAMES = [
    ("battlefleet-1900", "8.0.0", {}, 4),
    ("battlefleet-1900", "8.0.0", {"fog": "open"}, 2),
    ("battlefleet-1900", "8.0.0", {"scenario": "torpedo-attack"}, 3),
    ("uboat-leader", "4.0.0", {}, 3),
    ("corvette-command", "7.0.0", {"convoys": 1}, 8),
    ("corvette-command", "7.0.0", {"convoys": 2, "two_player": True}, 3),
    ("aa1942-convoy", "3.0.0", {}, 2),
    ("aa1942-convoy", "4.0.0", {}, 2),
    ("aa1942-convoy", "5.0.0", {}, 2),
    ("aa1942-convoy", "6.0.0", {}, 2),
]


def key(ruleset: str, edition: str, options: dict) -> str:
    return f"{ruleset} {edition} {json.dumps(options, sort_keys=True)}"


def played(ruleset: str, edition: str, options: dict, games: int) -> list[dict]:
    """Each game's figures and the SHA-256 of its events, in order: a die or an event anywhere that came out
    otherwise changes the digest, though the figures may not move."""
    out = []
    for i in range(games):
        log: list = []
        game = play(
            ruleset, options, seed_for(36, i), game_id=f"same-{i}", edition=edition,
            on_command=lambda _payload, events: log.extend(events),
        )  # fmt: skip
        # the simulator decides on the game's own state (engine.decide_in_place): it must be the fold of its log
        folded = new_game(ruleset, options, seed_for(36, i), game_id=f"same-{i}", edition=edition)
        for e in log:
            engine.evolve(folded, e)
        assert folded.state == game.state and folded.version == game.version, f"{ruleset} game {i}: not the fold"
        digest = hashlib.sha256(b"".join(msgspec.json.encode(e) for e in log)).hexdigest()
        out.append({"figures": outcomes(game), "events": digest})
    return out


@pytest.mark.parametrize("ruleset, edition, options, games", GAMES, ids=[key(*g[:3]) for g in GAMES])
def test_the_same_seeds_give_the_same_games(ruleset, edition, options, games):
    expected = json.loads(FIXTURE.read_text())[key(ruleset, edition, options)]
    assert played(ruleset, edition, options, games) == expected


if __name__ == "__main__":
    saved = json.loads(FIXTURE.read_text()) if FIXTURE.exists() else {}
    for g in GAMES:
        saved.setdefault(key(*g[:3]), played(*g))  # an entry once written is never rewritten
    FIXTURE.write_text(json.dumps(saved, indent=1, sort_keys=True) + "\n")
