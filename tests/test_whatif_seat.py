"""Issue 36 item 2: a seat's own odds in a game still being played. From any seq that ends a command, the
continuations start from what that seat may read (`redact`), what it may not (the other side's sealed orders, the
fog, the server seed) re-drawn (`Ruleset.imagine`), and the answer says so. Two games alike in all the seat may read
give it the same odds; the job is that seat's alone."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from domain import engine
from service.app import create_app
from service.bots import bot_choose
from service.whatif import play_from
from tests.conftest import auth

SEED = "36" * 32
GAME = "two-worlds"


def finished(client, job: dict, token: str) -> dict:
    """The job polled with `token` until it is no longer running (waits on its status, 60 s at most)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job = client.get(f"/jobs/{job['job_id']}", headers=auth(token)).json()
        if job["status"] != "running":
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job['job_id']} still running")


def play_until_russia_orders(client, svc, tokens: dict, russia_orders: dict | None) -> int:
    """Both seats play the bot's commands up to turn 2's Command Phase; there russia gives `russia_orders` (None:
    the bot's) before japan, so its orders are sealed when japan asks. Returns the seq that command ends."""
    rules = svc.rulesets["battlefleet-1900"].ruleset
    while True:
        with svc.cache.game(GAME) as c:
            state = c.game.state
            awaited = engine.awaited_seats(c.game)
            seat = "russia" if "russia" in awaited else awaited[0]
            mine = [x for x in engine.awaiting(c.game, seat) if seat in x.seats]
            payload = bot_choose(rules, state, mine, seat)
            last_orders = state.turn == 2 and state.step == "command" and seat == "russia"
        if last_orders and russia_orders is not None:
            payload = russia_orders
        r = client.post(f"/games/{GAME}/commands", json=payload, headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        if last_orders:
            return r.json()["version"]


def world(tmp_path, name: str, russia_orders: dict | None):
    """One world: a fog-blur battle, public-seed dice and game id alike in both; what japan may read, the same."""
    app = create_app(str(tmp_path / f"{name}.db"))
    with TestClient(app) as client:
        svc = app.state.service
        made = svc.creation.create("battlefleet-1900", {"fog": "blur"}, None, "public-seed", SEED, None, None, game_id=GAME)
        tokens = {s["seat"]: s["token"] for s in made["seats"]}
        at = play_until_russia_orders(client, svc, tokens, russia_orders)
        r = client.post(f"/games/{GAME}/odds", json={"at": at, "games": 6, "seed": 3}, headers=auth(tokens["japan"]))
        assert r.status_code == 202, r.text
        job = finished(client, r.json(), tokens["japan"])
        assert job["status"] == "done", job
        # the job is japan's: not the public's, not russia's (404 as for a job that does not exist)
        assert client.get(f"/jobs/{job['job_id']}").status_code == 404
        assert client.get(f"/jobs/{job['job_id']}", headers=auth(tokens["russia"])).status_code == 404
        assert client.get(f"/jobs/{job['job_id']}/stream", headers=auth(tokens["russia"])).status_code == 404
        # the public picture at the same seq is refused: russia's orders are sealed for good there
        public = client.post(f"/games/{GAME}/odds", json={"at": at, "games": 2, "seed": 3})
        assert public.status_code == 409 and public.json()["code"] == "fork-sealed", public.text
        truth = play_from(svc.cache.load(GAME, upto=at).game, 6, 3, rulesets=svc.rulesets)  # what no seat may ask
        svc.store.close()
    return job["result"], truth


def test_two_battles_alike_in_all_japan_may_read_give_japan_the_same_odds(tmp_path):
    """Russia's sealed orders differ between the worlds (the bot's arrows, or none: steam on). Japan's odds from that
    seq, re-drawing russia's orders and fog, are the same in both, and the answer says what was re-drawn."""
    a, truth_a = world(tmp_path, "a", None)
    b, truth_b = world(tmp_path, "b", {"type": "give_orders", "divisions": []})
    assert a == b
    assert a["as_seat"] == "japan" and "sealed command" in a["redrawn"] and "server seed" in a["redrawn"]
    assert a["finished"] is False and set(a["figures"]) >= {"winner", "ships_lost"}
    assert truth_a != truth_b  # played from the true positions, the secret would have shown


@pytest.mark.parametrize("fog", ["blur", "open"])
def test_the_picture_of_a_seat_is_built_from_what_it_may_read(fog):
    """engine.as_seen_by: a second world whose japan has other true poses and last moves (under blur: russia's
    sighting kept) and other pending orders gives russia the same picture; russia's own secrets are kept as they
    are, japan is owed its command again, and the real game is left as it was."""
    from dataclasses import replace

    from domain.procedure import working_copy
    from service.simulate import new_game, play_on, seed_for

    game = new_game("battlefleet-1900", {"fog": fog}, seed_for(8, 0))

    class Stop(Exception):
        pass

    def after(payload, events):
        if game.state.turn == 2 and game.state.step == "command" and "japan" in game.state.submitted:
            raise Stop  # japan's orders sealed, russia's still owed

    with pytest.raises(Stop):
        play_on(game, seed_for(8, 0), on_command=after)
    mine = engine.as_seen_by(game, "russia")
    assert "japan" not in mine.state.submitted and mine.state.sealed["japan"].pending == {}
    assert mine.state.sealed["russia"] == game.state.sealed["russia"]  # its own, as they are
    assert set(mine.unrevealed) == {seq for seq, e in game.unrevealed.items() if e.seat == "russia"}
    assert game.state.sealed["japan"].pending and "japan" in game.state.submitted  # the real game untouched
    twin = replace(game, state=working_copy(game.state))
    theirs = twin.state.sealed["japan"]
    theirs.pending = {"give_orders": {"divisions": []}}
    if fog == "blur":  # what the fog keeps from russia: the true poses and speeds
        for ship in list(theirs.poses):
            p = theirs.poses[ship]
            theirs.poses[ship] = type(p)(p.x + 7, p.y - 5, (p.h + 3) % 360)
            theirs.last_move[ship] = 0
        for ship, pose in game.state.sealed["russia"].sighting.items():
            assert mine.state.pose(ship) == pose  # where russia last saw it
    assert engine.as_seen_by(twin, "russia").state == mine.state


@pytest.mark.parametrize("fog", ["blur", "open"])
def test_each_continuation_draws_again_where_the_fog_hid_each_enemy_ship(fog):
    """Issue 36 item 2, "re-drawn for each continuation": under fog blur each continuation of russia's own odds puts
    japan's ships somewhere else within what russia's sighting could hide (BF-R48: each axis up to the blur's reach
    from the sighting, the heading within half a heading step), drawn from the continuation's own seed and nothing
    else; the same seed draws the same picture. Under fog open the positions are public and kept."""
    from math import isqrt

    from domain.battlefleet_1900.geometry import dist2
    from domain.battlefleet_1900.rules.sealing import redraw
    from domain.dice import Dice
    from domain.procedure import working_copy
    from service.simulate import new_game, play_on, seed_for

    game = new_game("battlefleet-1900", {"fog": fog}, seed_for(8, 0))

    class Stop(Exception):
        pass

    def after(payload, events):
        if game.state.turn == 3 and game.state.step == "command":
            raise Stop

    with pytest.raises(Stop):
        play_on(game, seed_for(8, 0), on_command=after)
    picture = engine.as_seen_by(game, "russia").state
    drawn = []
    for i in range(3):
        s = working_copy(picture)
        redraw(s, "russia", Dice(seed_for(3, i), 0).keyed)
        drawn.append(s)
    again = working_copy(picture)
    redraw(again, "russia", Dice(seed_for(3, 0), 0).keyed)
    assert again.sealed["japan"].poses == drawn[0].sealed["japan"].poses  # reproducible from the seed alone
    if fog == "open":
        assert all(s.sealed["japan"].poses == picture.sealed["japan"].poses for s in drawn)
        return
    sighting, fogs = picture.sealed["russia"].sighting, picture.data.fog
    mine = [picture.pose(n) for n in picture.own("russia") if picture.ships[n].on_table]
    assert sighting and drawn[0].sealed["japan"].poses != drawn[1].sealed["japan"].poses != drawn[2].sealed["japan"].poses
    for s in drawn:
        for ship, seen in sighting.items():
            p = s.sealed["japan"].poses[ship]
            reach = fogs.blur_pct * isqrt(min(dist2((seen.x, seen.y), (q.x, q.y)) for q in mine)) // 100
            assert abs(p.x - seen.x) <= reach and abs(p.y - seen.y) <= reach, ship
            assert min((p.h - seen.h) % 360, (seen.h - p.h) % 360) <= fogs.heading_step // 2, ship
