"""Stream tickets open one stream at a time (issue 34 item 5), and the server's logs (item 7): a request id on every
line and answer, JSON lines when asked, and no ticket or token in any line however the server is started."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

from tests.conftest import auth
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


@pytest.mark.parametrize("flag", ["--no-access-log", "--access-log"])
def test_plain_uvicorn_logs_access_as_its_flag_says(tmp_path, flag):
    """docs/operations.md "Logs": plain uvicorn logs access "unless `--no-access-log`". The app's log set-up gave the
    access logger a handler again on import, and uvicorn logs access whenever that logger has one: the flag was lost."""
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        ctx = server_process(str(tmp_path / "l.db"), args=(flag, "--log-level", "info"), stderr=out)
        with ctx as (base, proc):
            assert httpx.get(f"{base}/rulesets").status_code == 200
            proc.terminate()
            proc.wait(timeout=30)
    logged = '"GET /rulesets HTTP/1.1" 200' in log.read_text()
    assert logged == (flag == "--access-log"), log.read_text()[-2000:]


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


@pytest.mark.parametrize("path", ["lean", "route"])
def test_the_servers_line_about_a_500_carries_the_request_id_the_500_answered(tmp_path, monkeypatch, path):
    """A request that fails inside the app is answered 500 with its X-Request-ID, and uvicorn's own log line of the
    error ("Exception in ASGI application", with the traceback) carries that id, so an operator finds the failure of the
    request a client reports: on the command path taken at the door and on a route behind the framework."""
    import logging
    import threading

    import uvicorn

    from service.app import create_app
    from service.logs import Stamped
    from service.routes import games as games_module
    from tests.live import free_port

    if path == "route":  # the command handed on to its route, behind the framework and RequestIds
        monkeypatch.setattr(games_module.LeanCommands, "__call__", lambda self, s, r, se: self.app(s, r, se))
    app = create_app(str(tmp_path / "fail.db"))
    svc = app.state.service
    made = svc.creation.create("aa1942-convoy", {}, None, "public-seed", "22" * 32, None, None, game_id="g-fail")

    def broken(*_: Any) -> None:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(svc, "command", broken)
    lines: list[logging.LogRecord] = []
    logged = threading.Event()

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record)
            logged.set()

    handler = Collect()
    handler.addFilter(Stamped())
    logger = logging.getLogger("uvicorn.error")
    logger.addHandler(handler)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_config=None, lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)  # polls the condition (started), not a guess at how long starting takes
        assert server.started
        base = f"http://127.0.0.1:{server.config.port}"
        token = made["seats"][0]["token"]
        r = httpx.post(
            f"{base}/games/g-fail/commands",
            json={"type": "end_phase"},
            headers={**auth(token), "X-Request-ID": "r-500"},
        )
        assert r.status_code == 500 and r.json()["code"] == "internal-error" and r.headers["x-request-id"] == "r-500"
        assert logged.wait(30), "the server logged nothing about the failure"
    finally:
        server.should_exit = True
        thread.join(30)
        logger.removeHandler(handler)
    failures = [x for x in lines if x.exc_info and isinstance(x.exc_info[1], ZeroDivisionError)]
    assert failures and all(x.request_id == "r-500" for x in failures), [(x.getMessage(), x.request_id) for x in lines]
