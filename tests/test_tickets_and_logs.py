"""Stream tickets open one stream at a time (issue 34 item 5), and the server's logs (item 7): a request id on every
line and answer, JSON lines when asked, and no ticket or token in any line however the server is started."""

from __future__ import annotations

import json
import time

import httpx
import pytest

from tests.live import server_process


def ticket(base: str, gid: str, token: str) -> str:
    r = httpx.post(f"{base}/games/{gid}/tickets", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.text
    return r.json()["ticket"]


def game(base: str) -> tuple[str, str]:
    g = httpx.post(f"{base}/games", json={"ruleset": "corvette-command"}).json()
    return g["game_id"], g["seats"][0]["token"]


def test_a_ticket_opens_one_stream_at_a_time_in_every_process_and_again_once_it_closed(tmp_path):
    db = str(tmp_path / "t.db")
    with server_process(db) as (a, _), server_process(db) as (b, _):  # two processes on one store
        gid, token = game(a)
        t = ticket(a, gid, token)
        url = f"/games/{gid}/events/stream?ticket={t}&timeout=60"
        with httpx.Client(base_url=a, timeout=30) as first, first.stream("GET", url) as live:
            assert live.status_code == 200
            lines = live.iter_lines()  # kept: a dropped iterator would close the response
            next(lines)  # the stream is open (its `retry:` line arrived)
            for base in (a, b):  # the same process and another: refused while it is open
                r = httpx.get(base + url, timeout=30)
                assert r.status_code == 409 and r.json()["code"] == "ticket-in-use", r.text
                assert "ask POST /games/{id}/tickets for another" in r.json()["detail"]
        # closed by the client: the ticket opens a stream again within its time (a dropped connection resuming)
        deadline = time.monotonic() + 30
        while True:
            r = httpx.get(f"{b}/games/{gid}/events/stream?ticket={t}&timeout=0")
            if r.status_code == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.05)  # the first stream's end is noticed when its next write fails: wait for that
        assert r.status_code == 200 and '"message":"state"' in r.text
        fresh = ticket(a, gid, token)  # a new ticket is another lease
        assert httpx.get(f"{a}/games/{gid}/events/stream?ticket={fresh}&timeout=0").status_code == 200


@pytest.mark.parametrize("how", ["serve", "uvicorn"])
def test_json_log_lines_carry_the_request_id_and_no_line_holds_a_ticket_or_token(tmp_path, how):
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        if how == "serve":
            ctx = server_process(str(tmp_path / "l.db"), serve=True, args=("--access-log", "--log-format", "json"), stderr=out)
        else:  # plain uvicorn, as docs/operations.md runs it: UMPIRE_LOG_FORMAT, and uvicorn's own access log
            ctx = server_process(
                str(tmp_path / "l.db"), env={"UMPIRE_LOG_FORMAT": "json"}, args=("--access-log", "--log-level", "info"), stderr=out
            )
        with ctx as (base, proc):
            gid, token = game(base)
            t = ticket(base, gid, token)
            r = httpx.get(f"{base}/games/{gid}/events/stream?ticket={t}&timeout=0", headers={"X-Request-ID": "proxy-42"})
            assert r.status_code == 200 and r.headers["x-request-id"] == "proxy-42"
            odd = httpx.get(f"{base}/games/{gid}", headers={"X-Request-ID": "no spaces allowed\t" + "x" * 200})
            made = odd.headers["x-request-id"]
            assert len(made) == 32 and all(c in "0123456789abcdef" for c in made)  # a fresh one, not the sent one
            httpx.get(f"{base}/games/{gid}/me", headers={"Authorization": f"Bearer {token}"})
            httpx.get(f"{base}/games/{gid}/events/stream?ticket={t}x&timeout=0")  # a wrong ticket, logged too
            proc.terminate()
            proc.wait(timeout=30)
    text = log.read_text()
    lines = [json.loads(x) for x in text.splitlines() if x.strip()]  # every line is a JSON object
    access = [x for x in lines if x["logger"] == "uvicorn.access"]
    assert any(x["request_id"] == "proxy-42" and "/events/stream" in x["message"] for x in access), access
    assert any(x["request_id"] == made for x in access)
    assert all({"time", "level", "logger", "message", "request_id"} <= set(x) for x in lines)
    assert t not in text and token not in text and t.split(".")[2] not in text  # nor the ticket's MAC alone
    assert "ticket=…" in text


def test_a_ticket_reused_after_its_time_is_refused_as_expired(tmp_path):
    from fastapi.testclient import TestClient

    from service.app import create_app

    app = create_app(str(tmp_path / "e.db"))
    with TestClient(app) as c:
        g = c.post("/games", json={"ruleset": "corvette-command"}).json()
        gid, token = g["game_id"], g["seats"][0]["token"]
        t = c.post(f"/games/{gid}/tickets", headers={"Authorization": f"Bearer {token}"}).json()["ticket"]
        creds = app.state.service.credentials
        creds.clock = lambda: time.time() + 61  # a minute on: its time is up
        r = c.get(f"/games/{gid}/events/stream?ticket={t}&timeout=0")
        assert r.status_code == 401 and r.json()["code"] == "expired-ticket"
