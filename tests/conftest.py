"""Shared helpers: a game driven in-process with chosen dice, and an HTTP client on a fresh store."""

from __future__ import annotations

import faulthandler
import os
import warnings
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis' wall-clock checks (an example over 200 ms, slow generation) are timings, and CI runs on a loaded
# machine: the property tests assert what the examples do, never how fast (speed is measured in benchmarks/)
settings.register_profile("umpire", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("umpire")

warnings.filterwarnings("ignore", category=DeprecationWarning)
# the suite creates hundreds of games from one client; the creation rate limit has its own test
os.environ.setdefault("UMPIRE_CREATE_PER_MINUTE", "0")

from fastapi.testclient import TestClient  # noqa: E402

from domain import engine  # noqa: E402
from domain.dice import ChosenDice  # noqa: E402
from service.app import create_app  # noqa: E402
from service.reads import render_view  # noqa: E402
from service.rulesets import RULESETS  # noqa: E402

SEED = bytes(range(32))

# The suites `make quick` leaves out (`-m "not slow"`): real server processes, browsers, node, schemathesis, long bot
# campaigns. A test elsewhere that is as slow takes @pytest.mark.slow itself.
SLOW = {
    "test_desk_browser.py",
    "test_desk_play.py",
    "test_desk_forms.py",
    "test_desk_seats.py",
    "test_play_clicks.py",
    "test_client_ts.py",
    "test_client_starter.py",
    "test_processes.py",
    "test_reliability.py",
    "test_fuzz_api.py",
    "test_schemathesis_cli.py",
    "test_clients.py",
    "test_contention.py",
    "test_verify_worker.py",
    "test_spec_lint.py",
    "test_properties.py",
    "test_corvette_properties.py",
    "test_aa1942_properties.py",
    "test_whatif.py",
    "test_streams.py",
    "test_slow_clients.py",
    "test_tickets_and_logs.py",
    "test_metrics.py",
    "test_gaps.py",
    "test_schema_agrees.py",
}


@pytest.hookimpl(trylast=True)  # after pytest's own faulthandler plugin, whose handler this replaces
def pytest_configure(config) -> None:
    """A crash (a segmentation fault in an extension) prints the stack of the thread that crashed, alone: the stacks of
    every thread run past what a CI log keeps of its middle, and the crashing thread is often printed last."""
    config.crash_fd = os.dup(2)  # the terminal's stderr: capture is suspended while plugins are configured
    faulthandler.enable(file=config.crash_fd, all_threads=False)


def pytest_unconfigure(config) -> None:
    fd = getattr(config, "crash_fd", None)
    if fd is not None:
        faulthandler.disable()
        os.close(fd)


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        # a test run on PostgreSQL as well as SQLite: its SQLite run stays in the fast lane
        callspec = getattr(item, "callspec", None)
        if item.path.name in SLOW or (callspec is not None and "postgres" in callspec.id):
            item.add_marker(pytest.mark.slow)


class Table:
    """A game run through the engine (legality, seats, seed lock) with the faces a test chooses; `edition`: the one
    it plays (the newest unless named)."""

    def __init__(
        self,
        ruleset: str = "aa1942-convoy",
        options: dict | None = None,
        seats: list[str] | None = None,
        edition: str | None = None,
    ):
        self.loaded = RULESETS[ruleset]
        rules, data, sha = self.loaded.ruleset, self.loaded.data, self.loaded.data_sha256
        evs = engine.creation_events(rules, data, sha, "table", options, seats, "public-seed", SEED, edition=edition)
        self.game = engine.start(self.loaded.ruleset, self.loaded.data, self.loaded.data_sha256, "table", evs[0])
        for e in evs[1:]:
            engine.evolve(self.game, e)
        self.log: list = list(evs)

    @property
    def state(self):
        return self.game.state

    def send(self, seat: str, type: str, *faces, **args: Any) -> list:
        """Send a command; `faces` are the chosen faces of the rolls it makes, in order (all must be used)."""
        cmd = engine.parse_command(self.loaded.ruleset, {"type": type, **args})
        dice = ChosenDice(*faces, next_roll=self.game.next_roll)
        evs = engine.decide_command(self.game, seat, cmd, SEED, dice=dice)
        assert dice.unused == 0, f"{dice.unused} chosen roll(s) unused by {type}"
        for e in evs:
            engine.evolve(self.game, e)
        self.log.extend(evs)
        return evs

    def legal(self) -> dict[str, Any]:
        return {s.type: s for s in engine.awaiting(self.game)}

    def view(self, name: str, reader: engine.Reader = None) -> dict[str, Any]:
        """A view as GET /views/{name} serves it; one that shows the past is given the history of this table's log."""
        history = self.loaded.ruleset.history
        return render_view(self.loaded.ruleset.views[name], self.state, reader, lambda: history.fold(self.log))


PG_BASE = os.environ.get("UMPIRE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


def _postgres_or_skip() -> None:
    """The PostgreSQL tests need the server on 127.0.0.1:5432; locally they skip without it, never under CI."""
    import psycopg

    try:
        psycopg.connect(PG_BASE, connect_timeout=3).close()
    except psycopg.OperationalError as e:
        if os.environ.get("CI"):
            raise RuntimeError(f"CI needs PostgreSQL at {PG_BASE} for the store's tests: {e}") from e
        pytest.skip(f"no PostgreSQL at {PG_BASE} (set UMPIRE_TEST_PG, or start one): {e}")


@contextmanager
def postgres_url():
    """A fresh schema on the test server, as a store URL; dropped afterwards."""
    from tests.live import postgres_schema

    _postgres_or_skip()
    with postgres_schema(PG_BASE, "t_") as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request, tmp_path):
    """Each API test runs on both stores: the SQLite default and PostgreSQL."""
    if request.param == "sqlite":
        yield str(tmp_path / "test.db")
    else:
        with postgres_url() as url:
            yield url


@pytest.fixture
def client(store_url):
    app = create_app(store_url)
    with TestClient(app) as c:
        yield c
    app.state.service.store.close()


# ---- the HTTP helpers every API test uses: a game made, a command sent ----


def new_game(client, options: dict | None = None, ruleset: str = "aa1942-convoy", **extra) -> dict:
    """POST /games (`extra`: the rest of the body); the answer, with `tokens` (seated)."""
    r = client.post("/games", json={"ruleset": ruleset, "options": options or {}, **extra})
    assert r.status_code == 201, r.text
    return seated(r.json())


def seated(made: dict) -> dict:
    """A creation's (or a fork's) answer with `tokens`: seat -> its token (None for a bot's or an open seat)."""
    made["tokens"] = {s["seat"]: s["token"] for s in made["seats"]}
    return made


def send(client, g: dict, seat: str, body: dict | None = None, expect: int = 200, **args: Any) -> dict:
    """POST one command to game `g` (a seated answer) as `seat` ("referee": its referee token): `body`, or the
    command's fields as keywords; the answer, its status checked (`expect`)."""
    token = g["referee_token"] if seat == "referee" else g["tokens"][seat]
    r = client.post(f"/games/{g['game_id']}/commands", json={**(body or {}), **args}, headers=auth(token))
    assert r.status_code == expect, r.text
    return r.json()


def read(client, g: dict, path: str = "", who: str | None = None):
    """GET /games/{id}<path> as `who` (a seat, "referee", or None: the public); the response."""
    token = g["referee_token"] if who == "referee" else g["tokens"][who] if who else None
    return client.get(f"/games/{g['game_id']}{path}", headers=auth(token) if token else {})


def to_german_combat(client, g: dict, ussr_spends: int = 0) -> None:
    """An aa1942 game (`new_game`) to Germany's combat: USSR buys for `ussr_spends` and ends its phases, Germany buys
    nothing and ends its combat move (a raid is legal now where it has submarines)."""
    send(client, g, "USSR", type="purchase", spend=ussr_spends)
    for _ in range(4):
        send(client, g, "USSR", type="end_phase")
    send(client, g, "Germany", type="purchase", spend=0)
    send(client, g, "Germany", type="end_phase")


def own_copy(get: Any, game_id: str, token: str) -> dict:
    """The bundle as the server served it to a seat's or the referee's token until 2026-12-07: each sealed command
    that reader may read shown in full, `{"type": kind, **content}`, from its sealed record as `GET /events` shows it
    to that token (copies of that kind are still about: `verify` keeps telling them apart). `get(path, headers=)`: a
    TestClient's get, or httpx's on the server's base URL."""
    bundle = get(f"/games/{game_id}/bundle").json()
    opened: dict[int, tuple[str, dict]] = {}  # seq -> (the seat it is sealed to, the payload it stands for)
    after = 0
    while True:
        page = get(f"/games/{game_id}/events?after={after}&limit=1000", headers=auth(token)).json()
        for e in page["events"]:
            if e["type"] == "SubmissionSealed" and "sealed" in e:
                opened[e["seq"]] = (e["data"]["seat"], {"type": e["data"]["kind"], **e["sealed"]["content"]})
        if page["next_after"] == after or not page["events"]:
            break
        after = page["next_after"]
    for c in bundle["commands"]:
        if set(c["payload"]) == {"sealed"}:
            mine = [opened[s][1] for s in range(c["seqs"][0], c["seqs"][1] + 1) if opened.get(s, ("",))[0] == c["seat"]]
            c["payload"] = mine[0] if mine else c["payload"]
    return bundle


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def pw():
    """Playwright, one per test module of the browser tests."""
    from tests.desk_browser import playwright

    with playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(pw):
    """Debian's Chromium under Playwright, one per test module (tests/desk_browser.py says how it is found)."""
    from tests.desk_browser import launch

    b = launch(pw)
    yield b
    b.close()
