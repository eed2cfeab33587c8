"""The fast HTTP command path (docs/performance.md): which writes run on the event loop, and that both ways answer
the same."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import msgspec
import pytest
from fastapi.testclient import TestClient

from domain import engine
from domain.engine import Rejected
from events.store import SQLiteStore, open_store
from service.app import create_app
from service.games import GameService
from service.replay import verify
from service.settings import Settings
from service.snapshots import snapshot_key
from tests.conftest import auth
from tests.drivers import first_choice
from tests.test_store import corvette_game


def test_only_a_cached_game_close_to_the_store_runs_on_the_loop(tmp_path):
    path = str(tmp_path / "inline.db")
    svc, other = GameService(SQLiteStore(path)), GameService(SQLiteStore(path))  # two processes on one file
    made = svc.creation.create("corvette-command", {"convoys": 5}, None, "public-seed", "11" * 32, None, None, game_id="g-far")
    gid, token = made["game_id"], made["seats"][0]["token"]
    assert not svc.runs_inline(gid)  # not loaded yet: the load goes to a thread
    svc.reads.summary(gid)
    assert svc.runs_inline(gid)
    # the other process moves the game on by more than a short catch-up: the next write here goes to a thread
    while other.reads.summary(gid)["version"] - svc.cache.cached(gid).game.version <= GameService.INLINE_CATCH_UP:
        other.command(gid, token, first_choice(other.reads.summary(gid)["awaiting"][0]))
    assert not svc.runs_inline(gid)
    svc.reads.summary(gid)  # a read catches it up
    assert svc.runs_inline(gid)


def test_bot_games_and_postgresql_writes_go_to_a_thread(store_url):
    svc = GameService(open_store(store_url))
    try:
        gid = corvette_game(svc, "g-store", 2)
        assert svc.runs_inline(gid) == (not store_url.startswith("postgresql"))  # no network round trip on the loop
        bots = svc.creation.create("aa1942-convoy", {}, None, "fair", None, None, None, bots=["Germany"])["game_id"]
        svc.reads.summary(bots)
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
            payload = first_choice(c.get(f"/games/{gid}").json()["awaiting"][0])
            if evicted:
                svc.cache.states.clear()
            assert svc.runs_inline(gid) is not evicted
            r = c.post(f"/games/{gid}/commands", json=payload, headers=auth(token))
            assert r.status_code == 200, r.text
            after = c.get(f"/games/{gid}", headers=auth(token)).json()
            assert r.json()["version"] == after["version"] and r.json()["head"] == after["head"]
            assert r.json()["awaiting"] == after["awaiting"] and r.json()["waiting_for"] == after["waiting_for"]
        assert c.get(f"/games/{gid}?bogus=1").json()["code"] == "unknown-parameter"  # the check still wraps routes


def raid_ready(svc: GameService, subs: dict) -> tuple[str, str]:
    """An aa1942 game at Germany's combat step 1 with these German submarines."""
    made = svc.creation.create("aa1942-convoy", {"submarines": {"Germany": subs}}, None, "fair", None, None, None)
    gid, tok = made["game_id"], {s["seat"]: s["token"] for s in made["seats"]}
    svc.command(gid, tok["USSR"], {"type": "purchase", "spend": 0})
    for _ in range(4):
        svc.command(gid, tok["USSR"], {"type": "end_phase"})
    svc.command(gid, tok["Germany"], {"type": "purchase", "spend": 0})
    svc.command(gid, tok["Germany"], {"type": "end_phase"})
    return gid, tok["Germany"]


def test_awaiting_is_computed_once_per_version_and_shared_by_the_command_and_the_reads(tmp_path, monkeypatch):
    svc = GameService(SQLiteStore(str(tmp_path / "once.db")))
    gid, germany = raid_ready(svc, {"7": 9, "10": 9})
    game = svc.cache.cached(gid).game
    real, calls = game.ruleset.legal_commands, []

    def counted(state, only=None):
        calls.append((svc.cache.cached(gid).game.version, only))
        return real(state, only)

    game.ruleset = dataclasses.replace(game.ruleset, legal_commands=counted)  # a counting copy for this game only
    first = svc.reads.summary(gid, "Germany")
    mine = [a for a in first["awaiting"] if "Germany" in a["seats"]]
    assert svc.reads.me(gid, germany)["awaiting"] == mine and svc.reads.summary(gid)["awaiting"] == first["awaiting"]
    assert calls == []  # three reads of the version the last command's answer computed: nothing computed again
    c = svc.cache.cached(gid)
    c.game.legal_cache, c.answers = None, ((0, b""), {})  # as if loaded afresh
    assert svc.reads.summary(gid, "Germany")["awaiting"] == first["awaiting"] and svc.reads.summary(gid)["awaiting"]
    assert calls == [(first["version"], None)]  # once, for both readers
    answers = [svc.command(gid, germany, {"type": "raid", "sz": sz}) for sz in (7, 10, 7)]
    # each command is judged on the list its predecessor's answer computed: one call per command, never `only`
    assert calls == [(v, None) for v in [first["version"], *(a["version"] for a in answers)]]
    assert svc.reads.summary(gid, "Germany")["awaiting"] == answers[-1]["awaiting"] and len(calls) == 4


def _judged_in_place(tmp_path):
    """A corvette game one command in (its convoy to move), with the service's reads of the store counted."""
    svc = GameService(SQLiteStore(str(tmp_path / "inplace.db")))
    made = svc.creation.create("corvette-command", {"convoys": 5}, None, "public-seed", "11" * 32, None, None, game_id="g-ip")
    gid, token = made["game_id"], made["seats"][0]["token"]
    svc.command(gid, token, {"type": "choose_start_port", "side": "canada"})
    reloads = []
    real = svc._reload
    svc._reload = lambda cached: reloads.append(cached.game.version) or real(cached)
    return svc, gid, token, reloads


def test_a_command_refused_after_the_rules_changed_the_state_in_place_leaves_the_cached_game_as_the_store_has_it(
    tmp_path,
):
    """Commands are judged on the cached state itself (engine.decide_in_place, no copy). Corvette records the
    decision before its rule checks the square (CC-R8), so a move to a square not offered is refused with the state
    already changed: the game is read again, and the refusal lists what is legal in the sound state."""
    svc, gid, token, reloads = _judged_in_place(tmp_path)
    before = svc.reads.summary(gid, "captain")
    with pytest.raises(engine.IllegalCommand) as refused:
        svc.command(gid, token, {"type": "move_convoy", "to": [9, 9]})
    assert reloads == [before["version"]]  # the state had changed: read again from the store
    cached, fresh = svc.cache.cached(gid).game, svc.cache.load(gid).game
    assert (cached.version, cached.state) == (fresh.version, fresh.state) == (before["version"], fresh.state)
    assert refused.value.legal == before["awaiting"]
    assert svc.reads.summary(gid, "captain")["awaiting"] == before["awaiting"]
    after = svc.command(gid, token, first_choice(before["awaiting"][0]))  # and the game goes on
    assert after["version"] > before["version"] and svc.cache.cached(gid).game.state == svc.cache.load(gid).game.state


def test_a_command_refused_before_the_rules_change_anything_reads_nothing_again(tmp_path):
    svc, gid, token, reloads = _judged_in_place(tmp_path)
    with pytest.raises(engine.IllegalCommand):
        svc.command(gid, token, {"type": "detect"})  # not awaited now: refused before any rule runs
    assert reloads == []


def test_a_command_judged_in_place_whose_events_are_not_appended_is_not_kept_in_the_cached_state(tmp_path, monkeypatch):
    from events.store import StoreUnavailable

    svc, gid, token, reloads = _judged_in_place(tmp_path)
    before = svc.reads.summary(gid, "captain")

    def lost(*args, **kwargs):
        raise StoreUnavailable("the connection dropped", written=False)

    monkeypatch.setattr(svc.store, "append", lost)
    with pytest.raises(Rejected) as failed:
        svc.command(gid, token, first_choice(before["awaiting"][0]))
    assert failed.value.code == "store-unavailable"
    assert svc.cache.cached(gid).stale and reloads == []  # judged and applied in place: read again at its next use
    monkeypatch.undo()
    assert svc.reads.summary(gid, "captain")["awaiting"] == before["awaiting"]  # read again first
    _as_folded(svc, gid)
    assert svc.cache.cached(gid).game.version == before["version"]


def _as_folded(svc: GameService, gid: str) -> None:
    """The cached game is what a fold of the store gives (its caches of answers aside)."""
    cached, fresh = svc.cache.cached(gid), svc.cache.load(gid)
    skip = ("legal_cache", "seed_cache")
    assert cached.head == fresh.head
    assert {k: v for k, v in vars(cached.game).items() if k not in skip} == {
        k: v for k, v in vars(fresh.game).items() if k not in skip
    }


@pytest.mark.parametrize("ruleset", ["aa1942-convoy", "corvette-command", "uboat-leader", "battlefleet-1900"])
def test_after_every_command_and_every_refusal_judged_in_place_the_cached_game_is_the_fold_of_the_store(
    tmp_path, ruleset
):
    """Bot games through the service, each command preceded by a send of the bot's own choice with its arguments
    broken (a refusal, wherever the rules check them): the state judged in place never drifts from the log."""
    from service.bots import bot_choose
    from tests.drivers import SHORT

    settings = dataclasses.replace(Settings(), snapshot_every=0)  # a fold from the genesis, no snapshot to trust
    svc = GameService(SQLiteStore(str(tmp_path / "drift.db")), settings=settings)
    made = svc.creation.create(ruleset, SHORT.get(ruleset, {}), None, "public-seed", "11" * 32, None, None, game_id="g")
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    refused = 0
    for _ in range(25):
        game = svc.cache.cached("g").game
        turn = next(((s, m) for s in engine.awaited_seats(game) if (m := engine.awaiting(game, s))), None)
        if turn is None:
            break
        seat, mine = turn
        payload = bot_choose(game.ruleset, game.state, [m for m in mine if seat in m.seats], seat)
        broken = {k: (v if k == "type" else _broken(v)) for k, v in payload.items()}
        if broken != payload:
            try:
                svc.command("g", tokens[seat], broken)
            except Rejected:
                refused += 1
            _as_folded(svc, "g")
        svc.command("g", tokens[seat], payload)
        _as_folded(svc, "g")
    assert refused > 0
    # and the events are those a judgement on a copy gives: the bundle's replay decides every command again so
    svc.reveal("g", made["referee_token"])
    report = verify(msgspec.json.encode(svc.bundles.bundle("g")))
    assert report["verdict"] == "verified", report["checks"]


def _broken(v):
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + 1000
    if isinstance(v, str):
        return v + "?"
    if isinstance(v, list):
        return [_broken(x) for x in v] if v else [1000]
    if isinstance(v, dict):
        return {k: _broken(x) for k, x in v.items()}
    return v


def test_a_seal_judged_in_place_carries_its_commitment_into_the_state_and_its_snapshot(tmp_path):
    """A sealed record's salt and commitment exist once it is numbered; judged in place, the state reads the record
    as it is emitted, so the engine fills them in then (spec/EVENTS.md "Sealed inputs": the phase view shows each
    seat's commitment)."""
    from service.bots import bot_choose

    settings = dataclasses.replace(Settings(), snapshot_every=3)
    svc = GameService(SQLiteStore(str(tmp_path / "seal.db")), settings=settings)
    made = svc.creation.create("battlefleet-1900", {"fog": "blur"}, None, "public-seed", "11" * 32, None, None, game_id="bf")
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    game = svc.cache.cached("bf").game
    seat = engine.awaited_seats(game)[0]
    mine = [x for x in engine.awaiting(game, seat) if seat in x.seats]
    answer = svc.command("bf", tokens[seat], bot_choose(game.ruleset, game.state, mine, seat))
    sealed = [e["data"]["commitment"] for e in answer["events"] if e["type"] == "SubmissionSealed"]
    assert len(sealed) == 1 and len(sealed[0]) == 64
    shown = svc.reads.view("bf", "phase", None, None)["data"]["submitted"]
    assert shown == [{"seat": seat, "commitment": sealed[0]}]
    assert svc.store.snapshot("bf", 2**62, snapshot_key(svc.cache.row("bf")))[0] == answer["version"]
    assert svc.cache.load("bf").game.state.submitted == {seat: sealed[0]}  # from the snapshot
    _as_folded(svc, "bf")


def test_a_store_failure_of_any_kind_after_a_command_judged_in_place_reads_the_game_again(tmp_path, monkeypatch):
    """Not only the store's own errors: an I/O error it raises as it is (sqlite3's), with nothing appended."""
    import sqlite3

    svc, gid, token, reloads = _judged_in_place(tmp_path)
    before = svc.reads.summary(gid, "captain")

    def io_error(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(svc.store, "_insert", io_error)
    with pytest.raises(sqlite3.OperationalError):
        svc.command(gid, token, first_choice(before["awaiting"][0]))
    monkeypatch.undo()
    assert svc.cache.cached(gid).stale
    assert svc.reads.summary(gid, "captain")["awaiting"] == before["awaiting"]  # read again first
    _as_folded(svc, gid)
    assert svc.cache.cached(gid).game.version == before["version"]


def test_a_refusal_whose_reading_again_fails_leaves_the_game_to_be_read_again_at_its_next_use(tmp_path, monkeypatch):
    from events.store import StoreUnavailable

    svc, gid, token, reloads = _judged_in_place(tmp_path)
    before = svc.reads.summary(gid, "captain")
    real = svc.store.events
    failing = []

    def dropped(*args, **kwargs):  # the store loses its connection for the one read of the reload
        failing.append(1)
        monkeypatch.setattr(svc.store, "events", real)
        raise StoreUnavailable("the connection was lost", written=False)

    monkeypatch.setattr(svc.store, "events", dropped)
    with pytest.raises(StoreUnavailable):
        svc.command(gid, token, {"type": "move_convoy", "to": [9, 9]})  # refused after the decision was recorded
    assert failing == [1] and svc.cache.cached(gid).stale
    assert svc.reads.summary(gid, "captain")["awaiting"] == before["awaiting"]  # read again first
    assert not svc.cache.cached(gid).stale
    _as_folded(svc, gid)
    assert svc.command(gid, token, first_choice(before["awaiting"][0]))["version"] > before["version"]


def test_a_replay_judges_with_only_the_command_sent(tmp_path):
    """Without a cached list (a replay, a simulation) the judgement asks the ruleset for the one command type."""
    svc = GameService(SQLiteStore(str(tmp_path / "only.db")))
    gid, germany = raid_ready(svc, {"7": 2})
    game = svc.cache.load(gid).game  # a fresh fold: nothing computed for its version
    assert game.legal_cache is None
    seen = []
    real = game.ruleset.legal_commands
    game.ruleset = dataclasses.replace(game.ruleset, legal_commands=lambda s, only=None: seen.append(only) or real(s, only))
    cmd = engine.parse_command(game.ruleset, {"type": "raid", "sz": 7})
    engine.decide_command(game, "Germany", cmd, bytes.fromhex(svc.cache.row(gid).server_seed))
    assert seen == ["raid"]


def test_the_answer_carries_a_narrowed_schema_only_where_no_choices_are_listed(tmp_path):
    app = create_app(str(tmp_path / "small.db"))
    with TestClient(app) as c:
        svc = app.state.service
        gid, germany = raid_ready(svc, {str(z): 99 for z in (3, 7, 8, 10)})
        r = c.post(f"/games/{gid}/commands", json={"type": "raid", "sz": 7}, headers=auth(germany))
        assert r.status_code == 200, r.text
        awaiting = r.json()["awaiting"]
        by_type = {a["type"]: a for a in awaiting}
        assert by_type["raid"]["choices"] and by_type["raid"]["schema"] is None
        assert by_type["fight"]["choices"] is None  # 4 zones x 99 counts: too many to list
        assert {3, 7, 8, 10} <= set(by_type["fight"]["schema"]["properties"]["sz"]["enum"])
        assert all((a["schema"] is None) == (a["choices"] is not None) for a in awaiting)
        assert c.get(f"/games/{gid}", headers=auth(germany)).json()["awaiting"] == awaiting
        refused = c.post(f"/games/{gid}/commands", json={"type": "raid", "sz": 6}, headers=auth(germany))
        assert refused.status_code == 409 and refused.json()["legal"] == awaiting  # the ruleset's refusal, same shape


def test_a_ruleset_is_served_with_an_etag_and_revalidated_with_304(client):
    r = client.get("/rulesets/aa1942-convoy")
    assert r.status_code == 200 and r.headers["etag"].startswith('"r-')
    raid = next(x for x in r.json()["commands"] if x["type"] == "raid")
    assert raid["schema"]["properties"]["sz"]["type"] == "integer"  # the static schema awaiting leaves out
    again = client.get("/rulesets/aa1942-convoy", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == r.headers["etag"]
    other = client.get("/rulesets/corvette-command", headers={"If-None-Match": r.headers["etag"]})
    assert other.status_code == 200 and other.headers["etag"] != r.headers["etag"]
    assert client.get("/rulesets/nope").status_code == 404


def stack_spy(monkeypatch) -> list[str]:
    """The paths (and query strings) of the HTTP requests that reach the framework's exception middleware (and so its
    router), as they come: what LeanCommands hands on."""
    from starlette.middleware.exceptions import ExceptionMiddleware

    seen, call = [], ExceptionMiddleware.__call__

    async def spy(self, scope, receive, send):
        if scope["type"] == "http":
            seen.append(scope["path"] + ("?" + scope["query_string"].decode() if scope["query_string"] else ""))
        await call(self, scope, receive, send)

    monkeypatch.setattr(ExceptionMiddleware, "__call__", spy)
    return seen


def test_the_lean_command_path_answers_as_the_framework_route_does(tmp_path, monkeypatch):
    """POST /commands is served ahead of FastAPI (service.routes.games.LeanCommands): each answer, error or not, is the one the
    route itself gives (the route is still there: a query string or a malformed id is handed on to it)."""
    from service.routes import games as games_module

    through_stack = stack_spy(monkeypatch)

    def play(lean: bool) -> list[tuple[int, dict | str, str | None]]:
        if not lean:
            monkeypatch.setattr(games_module.LeanCommands, "__call__", lambda self, s, r, se: self.app(s, r, se))
        app = create_app(str(tmp_path / f"lean-{lean}.db"))
        out = []
        with TestClient(app) as c:
            svc = app.state.service
            made = svc.creation.create("aa1942-convoy", {}, None, "public-seed", "22" * 32, None, None, game_id="g-lean")
            tok = {s["seat"]: s["token"] for s in made["seats"]}
            cases = [
                ({"type": "purchase", "spend": 3, "command_id": "p1"}, tok["USSR"], ""),
                ({"type": "purchase", "spend": 3, "command_id": "p1"}, tok["USSR"], ""),  # replayed
                ({"type": "purchase", "spend": 4, "command_id": "p1"}, tok["USSR"], ""),  # reused id: 409
                ({"type": "end_phase"}, tok["Germany"], ""),  # not its turn: 403
                ({"type": "end_phase"}, "nope", ""),  # 401
                ({"type": "end_phase"}, None, ""),  # 401 missing
                ({"type": "fly"}, tok["USSR"], ""),  # 422
                ({"type": "end_phase", "expected_version": 1}, tok["USSR"], ""),  # 409 version-conflict
                ({"type": "end_phase"}, tok["USSR"], "?x=1"),  # handed on: unknown-parameter
            ]
            for i, (body, token, query) in enumerate(cases):
                headers = {**(auth(token) if token else {}), "x-request-id": f"proxy-{i}"}  # echoed
                r = c.post(f"/games/g-lean/commands{query}", json=body, headers=headers)
                out.append((r.status_code, r.json(), r.headers.get("www-authenticate"), r.headers["x-request-id"]))
            for path in ("/games/g-none/commands", "/games/bad%20id/commands"):  # 404 both: an id of another form is no game
                r = c.post(path, json={"type": "end_phase"}, headers=auth(tok["USSR"]))
                out.append((r.status_code, r.json(), None, len(r.headers["x-request-id"])))  # made: 32 hex digits
            r = c.post("/games/g-lean/commands", content=b"{", headers={**auth(tok["USSR"]), "content-type": "application/json"})
            out.append((r.status_code, r.json(), None, None))
            # the guards: a declared size over the limit, a body over it without a declared size, a body not JSON
            r = c.post("/games/g-lean/commands", content=b"x" * 2_000_000, headers=auth(tok["USSR"]))
            out.append((r.status_code, r.json()["code"], None, len(r.headers["x-request-id"])))
            chunks = iter([b'{"type": "end_phase", "pad": "', b"x" * 2_000_000, b'"}'])
            r = c.post("/games/g-lean/commands", content=chunks, headers={**auth(tok["USSR"]), "content-type": "application/json"})
            out.append((r.status_code, r.json()["code"], r.request.headers.get("content-length"), None))
            r = c.post("/games/g-lean/commands", content=b"{}", headers={**auth(tok["USSR"]), "content-type": "text/plain"})
            out.append((r.status_code, r.json()["code"], None, None))
        for status, body, *_ in out:  # the stamps differ between the two runs, nothing else
            if isinstance(body, dict):
                for e in body.get("events", []):
                    e.pop("recorded_at", None)
        return out

    lean = play(True)
    # LeanCommands answered all but what it hands on to the route: a query string, an id the pattern refuses
    assert through_stack == ["/games/g-lean/commands?x=1", "/games/bad id/commands"]
    framework = play(False)
    assert [x[0] for x in lean] == [200, 200, 409, 403, 401, 401, 422, 409, 422, 404, 404, 422, 413, 413, 415]
    assert lean[-2][1:3] == ("body-too-large", None)  # counted as it came: no size was declared
    assert lean == framework


def test_the_stamp_of_a_command_is_the_utc_time_to_the_microsecond(monkeypatch):
    """`recorded_at` is UTC as ISO 8601 with microseconds and a Z; the second is formatted once a second, so a stamp
    just after a second turns must carry the new second."""
    import time
    from datetime import UTC, datetime, timedelta

    from service import games

    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    instants = (1_796_000_000_999_999_000, 1_796_000_001_000_000_000, 1_796_000_001_000_001_999, 1_796_086_400_5 * 10**8)
    for ns in instants:
        monkeypatch.setattr(time, "time_ns", lambda ns=ns: ns)
        expected = (epoch + timedelta(microseconds=ns // 1000)).isoformat(timespec="microseconds")
        assert games.now_iso() == expected.replace("+00:00", "Z")


def test_a_server_error_on_the_lean_command_path_is_answered_as_problem_json_and_raised_to_be_logged(tmp_path, monkeypatch):
    """A failure inside LeanCommands (the service raising, or an answer that cannot be encoded) is the app's 500
    problem+json, never the server's plain-text one, and the error goes on to the ASGI server, which logs it (it was
    answered and dropped: nothing in the log said why)."""
    app = create_app(str(tmp_path / "fail.db"))
    svc = app.state.service
    made = svc.creation.create("aa1942-convoy", {}, None, "public-seed", "22" * 32, None, None, game_id="g-fail")
    token = made["seats"][0]["token"]
    for failure in (ZeroDivisionError("boom"), {"version": object()}):  # raised; returned, then not encodable

        def command(game_id, token, body, failure=failure):
            if isinstance(failure, Exception):
                raise failure
            return failure

        monkeypatch.setattr(svc, "command", command)
        with TestClient(app, raise_server_exceptions=False) as c:
            r = c.post("/games/g-fail/commands", json={"type": "end_phase"}, headers=auth(token))
        assert r.status_code == 500 and r.headers["content-type"] == "application/problem+json", failure
        assert r.json()["code"] == "internal-error"
        with TestClient(app) as c:  # as the server sees it: the error itself, after the answer
            with pytest.raises((ZeroDivisionError, TypeError)):
                c.post("/games/g-fail/commands", json={"type": "end_phase"}, headers=auth(token))


async def _asgi(
    app, path: str, receive, headers: list[tuple[bytes, bytes]], raised: type[Exception] | None = None
) -> tuple[int, dict, bytes]:
    """One POST through the ASGI app with the body `receive` gives: status, headers, body (`raised`: the error the app
    raises on to the server after its answer)."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 8000), "headers": [(b"host", b"t"), (b"content-type", b"application/json"), *headers],
    }  # fmt: skip
    got: dict[str, Any] = {"status": 0, "headers": {}, "body": b""}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            got["status"], got["headers"] = message["status"], dict(message["headers"])
        else:
            got["body"] += message.get("body", b"")

    try:
        await app(scope, receive, send)
    except Exception as e:
        if raised is None or not isinstance(e, raised):
            raise
    else:
        assert raised is None, f"{raised} was not raised"
    return got["status"], got["headers"], got["body"]


@pytest.mark.parametrize("kind", ["coroutine", "awaitable"])  # what receive() gives: uvicorn's, granian's kind
@pytest.mark.parametrize("path", ["/games/g-slow/commands", "/games"])  # at the door (LeanCommands), behind it (Guards)
def test_a_body_that_does_not_come_within_the_body_timeout_is_408_and_one_that_comes_late_is_read(tmp_path, path, kind):
    """The body timer is set only once a body's read waits (service/http.py `_within`): a body that never comes gets
    the 408 problem (and the connection closed); one that comes after a wait within the timeout is read and judged as
    any other; a cancellation from outside while it waits is the caller's, never a 408. A receive() that gives an
    awaitable other than a coroutine (granian's) is read under a timer from the start, with the same answers."""
    def server(name: str, body_timeout: float):
        app = create_app(settings=Settings(db=str(tmp_path / name), body_timeout=body_timeout, create_per_minute=0))
        made = app.state.service.creation.create(
            "aa1942-convoy", {}, None, "public-seed", "22" * 32, None, None, game_id="g-slow"
        )
        return app, [(b"authorization", f"Bearer {made['seats'][0]['token']}".encode())]

    # the body that never comes meets a short timeout; the late one, and the one cancelled while it waits, a timeout
    # no pause of a loaded machine reaches (with 0.3 s, a pause that long between the read's wait and the body's
    # arrival would have been a 408)
    short, short_token = server("short.db", 0.3)
    app, token = server("slow.db", 3600)
    svc = app.state.service
    body = b'{"type": "purchase", "spend": 3}' if path.endswith("/commands") else b'{"ruleset": "aa1942-convoy"}'
    version = svc.cache.cached("g-slow").game.version

    async def never() -> dict:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    def given(receive):  # what the server's receive() hands over
        return receive if kind == "coroutine" else lambda: asyncio.ensure_future(receive())

    async def scenario() -> None:
        status, headers, answer = await _asgi(short, path, given(never), short_token)
        assert status == 408 and headers[b"connection"] == b"close" and len(headers[b"x-request-id"]) == 32
        assert msgspec.json.decode(answer)["code"] == "request-timeout"

        arrived = asyncio.Event()
        asyncio.get_running_loop().call_soon(arrived.set)  # after the read has begun to wait

        async def late() -> dict:
            await arrived.wait()
            return {"type": "http.request", "body": body, "more_body": False}

        status, _, answer = await _asgi(app, path, given(late), token)
        assert status in (200, 201), answer
        waiting = asyncio.Event()

        async def held() -> dict:
            waiting.set()
            await asyncio.Event().wait()
            raise AssertionError("unreachable")

        task = asyncio.create_task(_asgi(app, path, given(held), token))
        await waiting.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(asyncio.wait_for(scenario(), 60))  # a timer never set fails here rather than hanging
    moved = svc.cache.cached("g-slow").game.version > version
    assert moved == path.endswith("/commands")  # the late command was judged


def test_a_receive_that_takes_the_timers_cancellation_and_answers_leaves_no_cancellation_behind():
    """As asyncio.timeout_at: the body timer's cancellation is undone whatever the server's receive makes of it."""
    from service.http import _within

    async def stubborn() -> dict:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            return {"type": "http.request", "body": b"{}", "more_body": False}
        raise AssertionError("unreachable")

    async def scenario() -> tuple[dict, int]:
        loop = asyncio.get_running_loop()
        msg = await _within(loop, loop.time() + 0.05, stubborn(), 0.05)
        return msg, asyncio.current_task().cancelling()  # type: ignore[union-attr]

    assert asyncio.run(scenario()) == ({"type": "http.request", "body": b"{}", "more_body": False}, 0)


def test_repeated_headers_and_a_length_too_long_to_read_are_answered_at_the_door_as_by_the_route(tmp_path, monkeypatch):
    """The first of a repeated Authorization or If-Match counts, as the route reads them; a Content-Length of thousands
    of digits is 413, not a 500; a failure's 500 carries the request's id on both paths."""
    from service.routes import games as games_module

    def play(lean: bool) -> list:
        if not lean:
            monkeypatch.setattr(games_module.LeanCommands, "__call__", lambda self, s, r, se: self.app(s, r, se))
        app = create_app(str(tmp_path / f"rep-{lean}.db"))
        svc = app.state.service
        made = svc.creation.create("aa1942-convoy", {}, None, "public-seed", "22" * 32, None, None, game_id="g-rep")
        bearer = f"Bearer {made['seats'][0]['token']}".encode()
        body = b'{"type": "purchase", "spend": 3}'

        async def receive() -> dict:
            return {"type": "http.request", "body": body, "more_body": False}

        cases = [
            [(b"authorization", bearer), (b"authorization", b"Bearer nope"), (b"if-match", b'"999"')],
            [(b"authorization", b"Bearer nope"), (b"authorization", bearer)],
            [(b"authorization", bearer), (b"content-length", b"9" * 5000)],
            [(b"authorization", bearer), (b"if-match", b'"1"'), (b"if-match", b'"999"'), (b"x-request-id", b"r-9")],
        ]
        out = [asyncio.run(_asgi(app, "/games/g-rep/commands", receive, h)) for h in cases]

        def broken(*_: Any) -> None:
            raise ZeroDivisionError("boom")

        monkeypatch.setattr(svc, "command", broken)
        headers = [(b"authorization", bearer), (b"x-request-id", b"r-500")]
        failed = asyncio.run(_asgi(app, "/games/g-rep/commands", receive, headers, ZeroDivisionError))
        monkeypatch.undo()
        def rid(got: dict) -> bytes | int:  # the id the request came with, else the length of the one made
            given = got[b"x-request-id"]
            return given if given.startswith(b"r-") else len(given)

        return [(status, rid(got), msgspec.json.decode(answer).get("code")) for status, got, answer in [*out, failed]]

    lean = play(True)
    assert [(status, code) for status, _, code in lean] == [
        (412, "version-conflict"), (401, "invalid-token"), (413, "body-too-large"), (200, None), (500, "internal-error")
    ]
    assert [x[1] for x in lean] == [32, 32, 32, b"r-9", b"r-500"]
    assert lean == play(False)


def test_the_app_collects_young_garbage_every_10000_allocations_unless_the_collector_is_off(tmp_path):
    import gc

    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)  # CPython's own
        create_app(str(tmp_path / "gc.db"))
        assert gc.get_threshold() == (10_000, 10, 10)  # the older generations keep their ratios
        gc.set_threshold(0, 10, 10)  # switched off on purpose: left so
        create_app(str(tmp_path / "gc.db"))
        assert gc.get_threshold() == (0, 10, 10)
    finally:
        gc.set_threshold(*before)
