"""GET /metrics (issue 34 item 3): Prometheus text that grows with commands, in one process and summed over the workers
of `uvicorn service.asgi:app --workers 2` (prometheus-client's multiprocess mode)."""

from __future__ import annotations

import httpx
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from service.app import create_app
from service.settings import Settings
from tests.live import server_process

TOKEN = "scraper-7f3a"
SCRAPE = {"Authorization": f"Bearer {TOKEN}"}


def samples(text: str) -> dict[tuple[str, tuple], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def commands(seen: dict, ruleset: str, outcome: str) -> float:
    return seen.get(("umpire_commands_total", (("outcome", outcome), ("ruleset", ruleset))), 0.0)


def test_metrics_count_commands_by_ruleset_and_outcome_and_show_the_store_series(tmp_path):
    with TestClient(create_app(settings=Settings(db=str(tmp_path / "m.db"), metrics_token=TOKEN))) as c:
        before = samples(c.get("/metrics", headers=SCRAPE).text)
        g = c.post("/games", json={"ruleset": "corvette-command"}).json()
        auth = {"Authorization": f"Bearer {g['seats'][0]['token']}"}
        entry = c.get(f"/games/{g['game_id']}").json()["awaiting"][0]
        choice = (entry.get("choices") or [entry.get("default") or {}])[0]
        assert c.post(f"/games/{g['game_id']}/commands", json={"type": entry["type"], **choice}, headers=auth).status_code == 200
        assert c.post(f"/games/{g['game_id']}/commands", json={"type": "end_game"}, headers=auth).status_code == 409
        r = c.get("/metrics", headers=SCRAPE)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
        after = samples(r.text)
    assert commands(after, "corvette-command", "ok") == commands(before, "corvette-command", "ok") + 1
    assert commands(after, "corvette-command", "refused") == commands(before, "corvette-command", "refused") + 1
    assert after[("umpire_command_seconds_count", ())] == before.get(("umpire_command_seconds_count", ()), 0) + 2
    assert after[("umpire_append_seconds_count", ())] >= before.get(("umpire_append_seconds_count", ()), 0) + 1
    assert after[("umpire_cache_games", ())] >= 1
    assert after[("umpire_webhook_outbox_pending", ())] == 0 and after[("umpire_deadlines_pending", ())] == 0
    assert ("umpire_streams_open", ()) in after and ("umpire_cache_evictions_total", ()) in after


def test_two_workers_sum_their_counts_in_every_scrape(tmp_path):
    folder = tmp_path / "prom"
    folder.mkdir()
    env = {"PROMETHEUS_MULTIPROC_DIR": str(folder), "UMPIRE_METRICS_TOKEN": TOKEN}
    with server_process(str(tmp_path / "w.db"), workers=2, env=env) as (base, _):
        g = httpx.post(f"{base}/games", json={"ruleset": "aa1942-convoy"}).json()
        auth = {"Authorization": f"Bearer {next(s['token'] for s in g['seats'] if s['seat'] == 'USSR')}"}
        for _ in range(20):  # refused (not USSR's turn to end the game): counted all the same, each on a new connection
            assert httpx.post(f"{base}/games/{g['game_id']}/commands", json={"type": "end_game"}, headers=auth).status_code in (403, 409)
        for _ in range(6):  # new connections: the workers answer in turn, and each sums both
            r = httpx.get(f"{base}/metrics", headers=SCRAPE)
            seen = samples(r.text)
            assert commands(seen, "aa1942-convoy", "refused") == 20, r.text[:2000]
        assert len(list(folder.iterdir())) >= 2  # both workers wrote their values there


def test_metrics_answer_only_the_operators_token(tmp_path):
    """The series count every game's commands, refused ones too, and the streams open: an attacker's review found an
    open /metrics told a player when the other seat was online and sending. Off without UMPIRE_METRICS_TOKEN (403
    `metrics-off`), and with it only for `Authorization: Bearer <it>` (401 otherwise), never a series in a refusal."""
    with TestClient(create_app(settings=Settings(db=str(tmp_path / "off.db")))) as c:
        r = c.get("/metrics", headers=SCRAPE)
        assert r.status_code == 403 and r.json()["code"] == "metrics-off"
        assert "UMPIRE_METRICS_TOKEN" in r.json()["detail"]
        assert r.headers["content-type"].startswith("application/problem+json") and "umpire_" not in r.text
    with TestClient(create_app(settings=Settings(db=str(tmp_path / "on.db"), metrics_token=TOKEN))) as c:
        g = c.post("/games", json={"ruleset": "corvette-command"}).json()
        for headers in ({}, {"Authorization": f"Bearer {g['seats'][0]['token']}"}, {"Authorization": "Bearer x"}):
            r = c.get("/metrics", headers=headers)
            assert r.status_code == 401 and r.json()["code"] == "metrics-token-required" and "umpire_" not in r.text
        assert c.get("/metrics", headers=SCRAPE).status_code == 200
