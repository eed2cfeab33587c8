"""Issue 35 item 4: the campaign sheet is the ruleset's history (domain/aa1942_convoy/sheet.py), folded from the log
and no longer part of the state, and every view answers byte for byte as it did when the sheet was in the state. The
fixture (`tests/same_views/aa1942.json`) holds, per golden bundle and per fixed-seed bot game of
tests/test_same_odds.py, the SHA-256 of every view at every seq for three readers, as the code before the change
rendered them (commit 438e7b6); it is never rewritten. A later edition's golden bundles get entries added beside
(4.0.0's: the same scripted games, whose views at every seq equal their 3.0.0 twins', checked when they were added;
5.0.0's likewise equal their 4.0.0 twins', and its new game `aa1942-retreat` is pinned as 5.0.0 first rendered it;
6.0.0's, whose only change is a roll's words, equal their 5.0.0 twins')."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgspec
import pytest

from domain import engine
from domain.aa1942_convoy import RULESET
from domain.engine import REFEREE
from events.bodies import event_from_body, stored_event
from events.bundle import decode_bundle
from events.core import as_genesis
from events.store import SQLiteStore
from events.vocabulary import Event
from service.bots import bot_choose
from service.cache import GameCache
from service.games import GameService
from service.reads import render_view
from service.rulesets import RULESETS, loaded_for
from service.settings import Settings
from service.simulate import new_game, play, seed_for

ROOT = Path(__file__).resolve().parent.parent
BEFORE = json.loads((Path(__file__).parent / "same_views" / "aa1942.json").read_text())
BUNDLES = sorted((ROOT / "replays").glob("aa1942-*.json"))


def digests(game: engine.Game, events: list[Event]) -> dict[str, object]:
    """Every view after the genesis and after each event, for the public, the referee and a seat, as the service
    renders them (`render_view`), the history folded alongside the state."""
    assert RULESET.history is not None
    sheet = RULESET.history.start()
    views = game.ruleset.views
    out = {name: hashlib.sha256() for name in views}
    for e in [None, *events]:
        if e is not None:
            engine.evolve(game, e)
            RULESET.history.evolve(sheet, e)
        for name, view in views.items():
            for reader in (None, REFEREE, game.seats[0]):
                out[name].update(msgspec.json.encode(render_view(view, game.state, reader, lambda: sheet)))
    return {"events": len(events) + 1, **{name: d.hexdigest() for name, d in out.items()}}


@pytest.mark.parametrize("path", BUNDLES, ids=[p.stem for p in BUNDLES])
def test_every_view_of_a_golden_bundle_answers_as_before_at_every_seq(path):
    b = decode_bundle(path.read_bytes())
    game = loaded_for(RULESETS, b.ruleset.id).start(b.game, as_genesis(event_from_body(b.events[0].body)))
    assert digests(game, [event_from_body(e.body) for e in b.events[1:]]) == BEFORE[path.name]


@pytest.mark.parametrize("i", [0, 1])
def test_every_view_of_a_bot_game_answers_as_before_at_every_seq(i):
    """The fixed-seed games of tests/test_same_odds.py: nine rounds each, with captures, liberations and losses."""
    log: list[Event] = []
    args = ("aa1942-convoy", {}, seed_for(36, i))
    play(*args, game_id=f"same-{i}", edition="3.0.0", on_command=lambda _payload, events: log.extend(events))
    assert digests(new_game(*args, game_id=f"same-{i}", edition="3.0.0"), log) == BEFORE[f"same-{i}"]


# ---- the service: the history folded from the store, at any seq, through snapshots and forks ----------------------


def bot_plays(svc: GameService, made: dict, commands: int) -> None:
    """The bot plays the game `made` (a creation's or a fork's answer) `commands` commands on, every seat its own."""
    gid, tokens = made["game_id"], {s["seat"]: s["token"] for s in made["seats"]}
    for _ in range(commands):
        game = svc.cache.cached(gid).game
        seat, legal = next((s, mine) for s in game.seats if (mine := [x for x in engine.awaiting(game, s) if s in x.seats]))
        svc.command(gid, tokens[seat], bot_choose(RULESET, game.state, legal, seat))


def in_memory(events: list[Event], name: str) -> list[dict]:
    """The view after each of `events` (the genesis first), the state and the sheet folded from them alone."""
    game = loaded_for(RULESETS, "aa1942-convoy").start("g", as_genesis(events[0]))
    assert RULESET.history is not None
    sheet = RULESET.history.start()
    out = [render_view(RULESET.views[name], game.state, None, lambda: sheet)]
    for e in events[1:]:
        engine.evolve(game, e)
        RULESET.history.evolve(sheet, e)
        out.append(render_view(RULESET.views[name], game.state, None, lambda: sheet))
    return out


def stored(svc: GameService, game_id: str) -> list[Event]:
    return [stored_event(r) for r in svc.store.events(game_id)]


def test_a_view_of_the_past_at_any_seq_is_folded_from_the_store_through_snapshots_and_pages(tmp_path, monkeypatch):
    monkeypatch.setattr(GameCache, "HISTORY_PAGE", 7)  # the fold reads the log a page at a time
    svc = GameService(SQLiteStore(str(tmp_path / "s.db")), settings=Settings(snapshot_every=20))
    made = svc.creation.create("aa1942-convoy", {}, None, "public-seed", seed_for(35, 4).hex(), None, None, "sheet")
    bot_plays(svc, made, 160)
    version = svc.cache.cached("sheet").game.version
    for name in ("ipc-ledger", "campaign-sheet"):
        expected = in_memory(stored(svc, "sheet"), name)
        cold = GameService(SQLiteStore(str(tmp_path / "s.db")), settings=Settings(snapshot_every=20))
        assert [cold.reads.view("sheet", name, at)["data"] for at in range(1, version + 1)] == expected[:version]
        assert cold.reads.view("sheet", name, None)["data"] == expected[-1]
    assert len(expected[-1]["rounds"]) > 1  # the game went past its first round


def test_a_forks_history_goes_on_from_its_parents_at_the_fork(tmp_path):
    svc = GameService(SQLiteStore(str(tmp_path / "f.db")))
    made = svc.creation.create("aa1942-convoy", {}, None, "public-seed", seed_for(35, 5).hex(), None, None, "parent")
    bot_plays(svc, made, 120)
    at = max(x.last_seq for x in svc.store.commands("parent") if x.last_seq < 100)
    bot_plays(svc, svc.creation.fork("parent", at, "public-seed", "77" * 32, fork_id="fork"), 60)
    events = stored(svc, "parent")[:at] + stored(svc, "fork")[1:]  # the fork's genesis starts no state of its own
    assert svc.reads.view("fork", "campaign-sheet", None)["data"] == in_memory(events, "campaign-sheet")[-1]
