"""The fast HTTP command path (docs/performance.md): which writes run on the event loop, and that both ways answer
the same."""

from __future__ import annotations

from fastapi.testclient import TestClient

from events.store import Store, open_store
from service.app import create_app
from service.games import GameService
from tests.conftest import auth
from tests.test_store import corvette_game


def first_choice(summary: dict) -> dict:
    a = summary["awaiting"][0]
    return {"type": a["type"], **(a["choices"][0] if a["choices"] else {})}


def test_only_a_cached_game_close_to_the_store_runs_on_the_loop(tmp_path):
    path = str(tmp_path / "inline.db")
    svc, other = GameService(Store(path)), GameService(Store(path))  # two processes on one file
    made = svc.create("corvette-command", {"convoys": 5}, None, "public-seed", "11" * 32, None, None, game_id="g-far")
    gid, token = made["game_id"], made["seats"][0]["token"]
    assert not svc.runs_inline(gid)  # not loaded yet: the load goes to a thread
    svc.summary(gid)
    assert svc.runs_inline(gid)
    # the other process moves the game on by more than a short catch-up: the next write here goes to a thread
    while other.summary(gid)["version"] - svc._cached(gid).game.version <= GameService.INLINE_CATCH_UP:
        other.command(gid, token, first_choice(other.summary(gid)))
    assert not svc.runs_inline(gid)
    svc.summary(gid)  # a read catches it up
    assert svc.runs_inline(gid)


def test_bot_games_and_postgresql_writes_go_to_a_thread(store_url):
    svc = GameService(open_store(store_url))
    try:
        gid = corvette_game(svc, "g-store", 2)
        assert svc.runs_inline(gid) == (not store_url.startswith("postgresql"))  # no network round trip on the loop
        bots = svc.create("aa1942-convoy", {}, None, "fair", None, None, None, bots=["Germany"])["game_id"]
        svc.summary(bots)
        assert not svc.runs_inline(bots)
    finally:
        svc.store.close()


def test_a_command_answers_the_same_on_the_loop_and_in_a_thread(tmp_path):
    app = create_app(str(tmp_path / "same.db"))
    with TestClient(app) as c:
        svc = app.state.service
        g = c.post("/games", json={"ruleset": "corvette-command", "options": {"convoys": 5}}).json()
        gid, token = g["game_id"], g["seats"][0]["token"]
        for evicted in (True, False):
            payload = first_choice(c.get(f"/games/{gid}").json())
            if evicted:
                svc._cache.clear()
            assert svc.runs_inline(gid) is not evicted
            r = c.post(f"/games/{gid}/commands", json=payload, headers=auth(token))
            assert r.status_code == 200, r.text
            after = c.get(f"/games/{gid}", headers=auth(token)).json()
            assert r.json()["version"] == after["version"] and r.json()["head"] == after["head"]
            assert r.json()["awaiting"] == after["awaiting"] and r.json()["waiting_for"] == after["waiting_for"]
        assert c.get(f"/games/{gid}?bogus=1").json()["code"] == "unknown-parameter"  # the check still wraps routes
