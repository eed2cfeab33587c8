"""Webhooks per reader (issue 33 items 1-3): registration, signed delivery from an outbox written with the events,
retries with backoff, kill -9, two processes on PostgreSQL, the SSRF guard, rotation, DELETE, two worlds.

A receiver is a tiny threaded http.server in the test on 127.0.0.1, which UMPIRE_WEBHOOK_ALLOW lets the server reach.
Every wait is on a condition (a request received, a row settled), never on a sleep."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from standardwebhooks import Webhook

from service.app import create_app
from service.webhooks import Allow, Refused, backoff, post, resolve
from tests.conftest import auth, new_game, postgres_url, read, send
from tests.live import server_process

FAST = {"UMPIRE_WEBHOOK_ALLOW": "127.0.0.1", "UMPIRE_WEBHOOK_BACKOFF": "0.05", "UMPIRE_WEBHOOK_POLL": "0.02"}
WAIT = 30.0  # seconds a condition may take before the test fails (never a sleep: the wait ends when it holds)


class Receiver:
    """Records every POST (headers, body). `mode`: "up" answers 204; "down" answers 503; "hang" holds the request
    until `release` is set."""

    def __init__(self) -> None:
        self.got: list[tuple[dict[str, str], bytes]] = []
        self.cond = threading.Condition()
        self.mode = "up"
        self.release = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["content-length"]))
                with outer.cond:
                    outer.got.append(({k.lower(): v for k, v in self.headers.items()}, body))
                    outer.cond.notify_all()
                mode = outer.mode
                if mode == "hang":
                    outer.release.wait(WAIT)
                    return
                self.send_response(204 if mode == "up" else 503)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, test: Callable[[list[tuple[dict[str, str], bytes]]], Any]) -> Any:
        deadline = time.monotonic() + WAIT
        with self.cond:
            while not (out := test(self.got)):
                left = deadline - time.monotonic()
                assert left > 0, f"the receiver never saw it; it got {[json.loads(b)['type'] for _, b in self.got]}"
                self.cond.wait(left)
        return out

    def messages(self) -> list[dict[str, Any]]:
        with self.cond:
            return [{**json.loads(b), "id": h["webhook-id"]} for h, b in self.got]

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


@pytest.fixture
def hooked(store_url, monkeypatch):
    """A server (in-process, its dispatcher running) that may reach 127.0.0.1, with short backoff and polls."""
    for k, v in FAST.items():
        monkeypatch.setenv(k, v)
    app = create_app(store_url)
    with TestClient(app) as c:
        yield c
    app.state.service.store.close()


def battle(client) -> dict:
    return new_game(client, {"scenario": "yellow-sea-1904"}, ruleset="battlefleet-1900")


def register(client, g: dict, seat: str, url: str, expect: int = 200) -> dict:
    r = client.put(f"/games/{g['game_id']}/notifications", json={"url": url}, headers=auth(token(g, seat)))
    assert r.status_code == expect, r.text
    return r.json()


def token(g: dict, seat: str) -> str:
    return g["referee_token"] if seat == "referee" else g["tokens"][seat]


def verify(secret: str, headers: dict[str, str], body: bytes) -> dict:
    return Webhook(secret).verify(body, {k: headers[k] for k in ("webhook-id", "webhook-timestamp", "webhook-signature")})


def kinds_for(seat: str, kind: str = "your-turn") -> Callable:
    return lambda got: [(h, b) for h, b in got if json.loads(b)["type"] == kind and json.loads(b)["data"]["seat"] == seat]


def start_both(client, g: dict) -> None:
    """Both seats send their sealed `start`: the step closes, both owe orders; Japan (which sent first and waited) has
    just become awaited, Russia (which sent last and knows from its answer) has not."""
    send(client, g, "japan", type="start", ships=[])
    send(client, g, "russia", type="start", ships=[])


# ---- delivery ----


def test_a_two_seat_battlefleet_game_delivers_signed_your_turn_webhooks(hooked, receiver):
    g = battle(hooked)
    secrets_ = {seat: register(hooked, g, seat, receiver.url)["secret"] for seat in ("japan", "russia")}
    start_both(hooked, g)
    [(headers, body)] = receiver.wait_for(kinds_for("japan"))
    msg = verify(secrets_["japan"], headers, body)
    with pytest.raises(Exception):
        verify(secrets_["russia"], headers, body)  # another seat's secret does not verify it
    data = msg["data"]
    own = read(hooked, g, "", "japan").json()
    assert (data["game_id"], data["seat"], data["version"]) == (g["game_id"], "japan", own["version"])
    assert data["awaiting"] == own["awaiting"]  # exactly what Japan's own read shows, nothing more
    assert data["deadline_at"] is None
    assert data["since"] == f"/games/{g['game_id']}/since?version=0"
    assert read(hooked, g, data["since"].split(g["game_id"])[1], "japan").status_code == 200
    # Russia was awaited before its command and after it: no your-turn (its answer carried its awaiting)
    assert not kinds_for("russia")(receiver.got)
    # Russia's orders, then Japan's: Russia has just become awaited again (it waited for Japan)
    send(hooked, g, "russia", type="give_orders")
    send(hooked, g, "japan", type="give_orders")
    assert receiver.wait_for(kinds_for("russia"))


def test_the_since_link_starts_at_the_previous_your_turn(hooked, receiver):
    g = battle(hooked)
    register(hooked, g, "japan", receiver.url)
    start_both(hooked, g)
    first = receiver.wait_for(kinds_for("japan"))
    v1 = json.loads(first[0][1])["data"]["version"]
    send(hooked, g, "japan", type="give_orders")
    send(hooked, g, "russia", type="give_orders")
    got = receiver.wait_for(lambda got: len(kinds_for("japan")(got)) >= 2 and kinds_for("japan")(got))
    assert json.loads(got[1][1])["data"]["since"].endswith(f"since?version={v1}")


def test_game_over_goes_to_every_registered_reader_and_says_how_the_game_ended(hooked, receiver):
    """docs/api.md "Notifications": `game-over` when the game has just ended, to every registered reader (the referee
    too), with `data.ended`, the reason its public GameEnded event gives, and no `awaiting`: nothing is owed."""
    g = battle(hooked)
    secrets_ = {seat: register(hooked, g, seat, receiver.url)["secret"] for seat in ("japan", "referee")}
    start_both(hooked, g)
    send(hooked, g, "russia", type="concede")
    summary = read(hooked, g, "", "japan").json()
    assert summary["status"] == "over" and summary["ended"]
    for seat in ("japan", "referee"):
        [(headers, body)] = receiver.wait_for(kinds_for(seat, "game-over"))
        data = verify(secrets_[seat], headers, body)["data"]
        assert (data["version"], data["ended"], data["awaiting"]) == (summary["version"], summary["ended"], [])


def test_a_dead_endpoint_is_retried_with_backoff_and_the_same_webhook_id(hooked, receiver):
    receiver.mode = "down"
    g = battle(hooked)
    secret = register(hooked, g, "japan", receiver.url)["secret"]
    start_both(hooked, g)  # answered although the target answers 503
    receiver.wait_for(lambda got: len(got) >= 3)
    receiver.mode = "up"
    receiver.wait_for(lambda got: len(got) >= 4)
    ids = {h["webhook-id"] for h, _ in receiver.got}
    assert len(ids) == 1  # one notification, the same id at every attempt
    for h, b in receiver.got:
        verify(secret, h, b)
    hooks = wait_status(hooked, g, "japan", "delivered")
    [d] = hooks["deliveries"]
    assert d["attempts"] >= 4 and d["last_outcome"] == "204"
    assert [backoff(n, 10) for n in (1, 2, 3, 12)] == [10, 20, 40, 3600]


def test_a_slow_endpoint_never_holds_a_command(hooked, receiver):
    receiver.mode = "hang"
    g = battle(hooked)
    register(hooked, g, "japan", receiver.url)
    register(hooked, g, "russia", receiver.url)
    start_both(hooked, g)
    receiver.wait_for(lambda got: got)  # a delivery is in flight, held by the receiver
    send(hooked, g, "russia", type="give_orders")  # commands are answered meanwhile
    send(hooked, g, "japan", type="give_orders")
    receiver.release.set()


def wait_status(client, g: dict, seat: str, status: str) -> dict:
    deadline = time.monotonic() + WAIT
    while True:
        r = client.get(f"/games/{g['game_id']}/notifications", headers=auth(token(g, seat)))
        assert r.status_code == 200, r.text
        out = r.json()
        if out["deliveries"] and all(d["status"] == status for d in out["deliveries"]):
            return out
        assert time.monotonic() < deadline, out
        time.sleep(0.02)  # polling a condition, not timing anything


def test_rotation_signs_with_old_and_new_secret_during_the_overlap(hooked, receiver):
    g = battle(hooked)
    old = register(hooked, g, "japan", receiver.url)["secret"]
    r = hooked.post(f"/games/{g['game_id']}/notifications/secret", headers=auth(token(g, "japan")))
    assert r.status_code == 201, r.text
    assert r.headers["Location"] == f"/games/{g['game_id']}/notifications"  # every 201 carries Location
    new = r.json()["secret"]
    assert new != old
    r = hooked.post(f"/games/{g['game_id']}/notifications/test", headers=auth(token(g, "japan")))
    assert r.status_code == 202, r.text
    [(h, b)] = receiver.wait_for(kinds_for("japan", "ping"))
    assert len(h["webhook-signature"].split()) == 2
    assert verify(old, h, b)["type"] == verify(new, h, b)["type"] == "ping"
    assert hooked.get(f"/games/{g['game_id']}/notifications", headers=auth(token(g, "japan"))).json()[
        "rotation_overlap_until"
    ]


def test_delete_stops_deliveries_even_those_being_retried(hooked, receiver):
    receiver.mode = "down"
    g = battle(hooked)
    send(hooked, g, "japan", type="start", ships=[])
    register(hooked, g, "japan", receiver.url)  # not awaited now: nothing queued at registration
    send(hooked, g, "russia", type="start", ships=[])
    receiver.wait_for(lambda got: got)
    r = hooked.delete(f"/games/{g['game_id']}/notifications", headers=auth(token(g, "japan")))
    assert r.status_code == 204
    store = hooked.app.state.service.store
    [row] = store.deliveries(g["game_id"], "japan")
    assert row.status == "dropped"
    receiver.mode = "up"
    send(hooked, g, "japan", type="give_orders")
    send(hooked, g, "russia", type="give_orders")  # Japan would have been notified now: it has no target
    assert store.deliveries(g["game_id"], "japan") == [row]
    assert store.claim(time.time() + 10_000, 1, 100) == []  # nothing left to deliver, ever
    assert {h["webhook-id"] for h, _ in receiver.got} == {row.id}  # an attempt in flight at the DELETE at most
    r = hooked.get(f"/games/{g['game_id']}/notifications", headers=auth(token(g, "japan")))
    assert r.status_code == 404 and r.json()["code"] == "no-notifications"


def test_the_outbox_is_no_game_event_and_never_in_a_bundle(hooked, receiver):
    g = battle(hooked)
    register(hooked, g, "japan", receiver.url)
    start_both(hooked, g)
    receiver.wait_for(kinds_for("japan"))
    bundle = read(hooked, g, "/bundle", "referee").text
    assert "your-turn" not in bundle and receiver.url not in bundle and "whsec_" not in bundle


def test_the_payload_carries_nothing_its_seat_may_not_read_two_worlds(hooked, receiver):
    """Two games differing only in their secret server seeds and Japan's sealed start: Russia's notifications are
    the same, but for the game's id; and each is what Russia's own read shows."""
    out = []
    for ships in ([], [{"ship": "Mikasa", "boat_guns_manned": False}]):
        g = battle(hooked)
        send(hooked, g, "russia", type="start", ships=[])
        register(hooked, g, "russia", receiver.url)  # not awaited now: it waits for Japan
        send(hooked, g, "japan", type="start", ships=ships)  # Russia waited for Japan: your-turn
        [(_, b)] = receiver.wait_for(
            lambda got, gid=g["game_id"]: [(h, b) for h, b in got if json.loads(b)["data"]["game_id"] == gid]
        )
        data = json.loads(b)["data"]
        assert data["awaiting"] == read(hooked, g, "", "russia").json()["awaiting"]
        out.append(json.dumps({**data, "game_id": None, "since": None}, sort_keys=True))
    assert out[0] == out[1]


def test_registration_needs_a_token_of_the_game(hooked, receiver):
    g = battle(hooked)
    r = hooked.put(f"/games/{g['game_id']}/notifications", json={"url": receiver.url})
    assert r.status_code == 401
    r = hooked.put(f"/games/{g['game_id']}/notifications", json={"nope": 1}, headers=auth(token(g, "japan")))
    assert r.status_code == 422
    assert register(hooked, g, "referee", receiver.url)["reader"] == "referee"


# ---- server-side request forgery ----


NOT_PUBLIC = "does not resolve to public addresses only"  # the one refusal of a host for where it points


@pytest.mark.parametrize(
    "url, why",
    [
        ("http://127.0.0.1/x", "loopback"),
        ("http://10.0.0.1/x", "private"),
        ("http://169.254.169.254/latest/meta-data", "metadata"),
        ("http://localhost:8080/x", "loopback"),
        ("http://[::1]/x", "loopback"),
        ("http://0.0.0.0/x", "unspecified"),
        ("http://[::ffff:10.0.0.1]/x", "private"),
        ("http://[2002:7f00:1::]/x", "a 6to4 address of a loopback address"),  # 127.0.0.1 inside 2002::/16
        ("http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x", "private"),  # Teredo (2001::/23, IANA special-purpose)
        ("http://[64:ff9b::7f00:1]/x", "reserved"),  # NAT64 of 127.0.0.1
        ("ftp://example.org/x", "only http and https"),  # the schema's pattern refuses it, with the same code
        pytest.param("http://example.org/" + "x" * 2048, "at most 2048 characters", id="a-url-too-long"),
        ("http://user:pw@example.org/x", "credentials"),
    ],
)
def test_ssrf_targets_are_refused_with_a_problem_saying_why(client, caplog, url, why):
    """What is wrong with the URL itself is said; where it points is said alike for every non-public address (see
    the next test), and the server's log tells the operator which kind of address it was."""
    g = new_game(client, {"scenario": "yellow-sea-1904"}, ruleset="battlefleet-1900")
    logger = logging.getLogger("umpire.webhooks")
    logger.addHandler(caplog.handler)  # on the logger itself: "umpire" may not propagate (service/logs.py)
    try:
        with caplog.at_level(logging.INFO, logger="umpire.webhooks"):
            r = client.put(
                f"/games/{g['game_id']}/notifications", json={"url": url}, headers=auth(g["tokens"]["japan"])
            )
    finally:
        logger.removeHandler(caplog.handler)
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "webhook-refused", r.json()
    if url.startswith(("ftp:", "http://user:")) or len(url) > 2048:
        assert why in r.json()["detail"], r.json()
    else:
        assert NOT_PUBLIC in r.json()["detail"], r.json()
        assert any(why in m for m in caplog.messages), caplog.messages
    assert client.get(f"/games/{g['game_id']}/notifications", headers=auth(g["tokens"]["japan"])).status_code == 404


def test_a_body_of_another_shape_is_invalid_request_and_an_empty_url_is_refused_saying_why(client):
    """docs/api.md "Errors": a `url` the schema refuses for what it is (here: empty) is `webhook-refused`, saying why,
    as a URL refused for where it points is; a body of another shape, a `url` that is not a string among them, stays
    `invalid-request`. Nothing is registered."""
    g = new_game(client, {"scenario": "yellow-sea-1904"}, ruleset="battlefleet-1900")
    path, seat = f"/games/{g['game_id']}/notifications", auth(g["tokens"]["japan"])
    r = client.put(path, json={"url": ""}, headers=seat)
    assert r.status_code == 422 and r.json()["code"] == "webhook-refused", r.text
    assert "http(s) URL of at most 2048 characters" in r.json()["detail"], r.json()
    for body, said in [
        ({"url": 5}, "Expected `str`, got `int` - at `$.url`"),
        ({"url": ["https://example.org/x"]}, "- at `$.url`"),
        ({}, "missing required field `url`"),
        ({"url": "https://example.org/x", "secret": "s"}, "unknown field `secret`"),
        ([{"url": "ftp://example.org/x"}], "Expected `object`, got `array`"),
        ({"z - at `$.url": 1}, "unknown field"),  # a field name that only reads like the path to `url`
    ]:
        r = client.put(path, json=body, headers=seat)
        assert r.status_code == 422 and r.json()["code"] == "invalid-request", (body, r.text)
        assert said in r.json()["detail"], (body, r.json())
    assert client.get(path, headers=seat).status_code == 404


def test_a_refused_target_does_not_tell_what_its_host_resolves_to(client, monkeypatch):
    """Anyone may create a game and so hold a seat's token: a refusal that said "host 'vm' is 127.0.0.1, a loopback
    address" answered how the server resolves internal names. The answer is the same words for a name resolving to
    a loopback, private or metadata address, for one resolving to nothing, and for a literal address; no address
    it resolved to is in it."""
    real = socket.getaddrinfo
    internal = {"vm": "10.1.2.3", "db.corp": "192.168.77.7", "meta.corp": "169.254.169.254", "lo.corp": "127.0.0.9"}

    def resolver(host, port, *args, **kwargs):
        if host in internal:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (internal[host], port))]
        if host == "gone.corp":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    g = new_game(client, {"scenario": "yellow-sea-1904"}, ruleset="battlefleet-1900")
    details = {}
    for host in [*internal, "gone.corp", "localhost", "10.9.8.7"]:
        r = client.put(
            f"/games/{g['game_id']}/notifications", json={"url": f"http://{host}/hook"}, headers=auth(g["tokens"]["japan"])
        )
        assert r.status_code == 422 and r.json()["code"] == "webhook-refused", r.text
        details[host] = r.json()["detail"]
        for address in [*internal.values(), "127.0.0.1", "::1"]:
            assert address not in r.text, (host, r.text)
    assert len({d.replace(repr(h), "<host>") for h, d in details.items()}) == 1, details
    assert NOT_PUBLIC in details["vm"] and "UMPIRE_WEBHOOK_ALLOW" in details["vm"]


def test_delivery_checks_the_address_again_after_resolving(receiver):
    """A target allowed at registration that resolves to a refused address at delivery is not contacted: the
    check runs on the address connected to (a name rebinding to loopback is caught there)."""
    with pytest.raises(Refused, match=NOT_PUBLIC):
        post(receiver.url, b"{}", {}, Allow(""))
    with pytest.raises(Refused, match=NOT_PUBLIC):
        resolve("localhost", 80, Allow(""))
    with pytest.raises(Refused, match="only http and https"):
        post("ftp://127.0.0.1/x", b"{}", {}, Allow("127.0.0.0/8"))
    assert not receiver.got
    assert post(receiver.url, b"{}", {}, Allow("127.0.0.0/8")) == 204
    assert resolve("localhost", 80, Allow("localhost"))


# ---- crashes and processes ----


@pytest.mark.slow  # server processes
def test_kill_9_between_commit_and_delivery_still_delivers_after_restart(tmp_path, receiver):
    """The receiver holds the first attempt, so the notification is committed and surely not delivered when the
    server is killed; a new server process delivers it, with the same webhook-id, once the dead one's lease ends."""
    db = str(tmp_path / "hooks.db")
    env = {**FAST, "UMPIRE_WEBHOOK_LEASE": "3"}
    receiver.mode = "hang"
    with server_process(db, env=env) as (base, proc):
        with httpx.Client(base_url=base, timeout=10) as c:
            g = battle(c)
            secret = register(c, g, "japan", receiver.url)["secret"]
            start_both(c, g)
            receiver.wait_for(lambda got: got)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    first_id = receiver.got[0][0]["webhook-id"]
    receiver.mode = "up"
    receiver.release.set()
    with server_process(db, env=env) as (base, _):
        got = receiver.wait_for(lambda got: len(got) >= 2 and got)
    h, b = got[-1]
    assert h["webhook-id"] == first_id
    assert verify(secret, h, b)["data"]["seat"] == "japan"


@pytest.mark.slow  # server processes, PostgreSQL
def test_two_processes_on_postgresql_deliver_each_notification_once(receiver):
    with postgres_url() as db:
        with server_process(db, env=FAST) as (a, _), server_process(db, env=FAST) as (b, _):
            with httpx.Client(base_url=a, timeout=10) as ca, httpx.Client(base_url=b, timeout=10) as cb:
                g = battle(ca)
                register(ca, g, "japan", receiver.url)
                register(cb, g, "russia", receiver.url)
                n = 30
                for i in range(n):
                    c, seat = (ca, "japan") if i % 2 else (cb, "russia")
                    r = c.post(f"/games/{g['game_id']}/notifications/test", headers=auth(token(g, seat)))
                    assert r.status_code == 202, r.text
                start_both(ca, g)
                receiver.wait_for(lambda got: len(got) >= n + 1)
                for c, seat in ((ca, "japan"), (cb, "russia")):
                    wait_status(c, g, seat, "delivered")
    ids = [h["webhook-id"] for h, _ in receiver.got]
    assert len(ids) == len(set(ids)) == n + 1


def test_the_last_join_tells_each_awaited_seat_that_waited_its_turn_has_come(hooked, receiver):
    """docs/api.md "Notifications": `your-turn` also when the game begins. A seat that joined first is awaited by the
    rules from the start but may not command until every seat is taken (409 `seats-open`); no command makes it newly
    awaited, so the last join is what tells it, with what its own read shows."""
    made = hooked.post("/games", json={"ruleset": "battlefleet-1900", "options": {"scenario": "yellow-sea-1904"},
                                       "open_seats": True}).json()  # fmt: skip
    gid, inv = made["game_id"], {s["seat"]: s["invitation"] for s in made["seats"]}
    russia = hooked.post(f"/games/{gid}/join", json={"invitation": inv["russia"]}).json()
    g = {"game_id": gid, "tokens": {"russia": russia["token"]}}
    secret = register(hooked, g, "russia", receiver.url)["secret"]
    assert not kinds_for("russia")(receiver.got), "no your-turn while a seat is open"
    japan = hooked.post(f"/games/{gid}/join", json={"invitation": inv["japan"], "passphrase": "j"}).json()
    g["tokens"]["japan"] = japan["token"]
    [(headers, body)] = receiver.wait_for(kinds_for("russia"))
    data = verify(secret, headers, body)["data"]
    own = read(hooked, g, "", "russia").json()
    assert (data["version"], data["awaiting"]) == (own["version"], own["awaiting"]) and own["awaiting"]
    assert data["since"] == f"/games/{gid}/since?version=0"
    # the begun notice is russia's last turn: the next your-turn's since starts there
    send(hooked, g, "russia", type="start", ships=[])
    send(hooked, g, "japan", type="start", ships=[])
    got = receiver.wait_for(lambda got: len(kinds_for("russia")(got)) >= 2 and kinds_for("russia")(got))
    assert json.loads(got[1][1])["data"]["since"].endswith(f"since?version={data['version']}")


def test_a_turns_notice_that_waited_is_dropped_once_its_seat_has_moved(hooked, receiver):
    """A players' trial: with the receiver (or the mail server) away, Japan's your-turn for its orders waited; Japan
    then sent its orders, and the notice still went out when the receiver came back, a turn already played (a person
    reading mail cannot sort by version). It is dropped undelivered, saying why."""
    receiver.mode = "down"
    g = battle(hooked)
    register(hooked, g, "japan", receiver.url)
    start_both(hooked, g)  # Japan's your-turn: its orders
    receiver.wait_for(lambda got: got)  # its first attempt failed
    send(hooked, g, "japan", type="give_orders")  # Japan takes its turn
    receiver.mode = "up"
    [row] = wait_status(hooked, g, "japan", "dropped")["deliveries"]
    assert row["kind"] == "your-turn" and row["last_outcome"] == "out of date: japan has sent a command since"
    sent = len(receiver.got)
    send(hooked, g, "russia", type="give_orders")  # the step closes: Japan owes its move, told now
    [(_, body)] = receiver.wait_for(lambda got: [(h, b) for h, b in got[sent:] if json.loads(b)["type"] == "your-turn"])
    assert json.loads(body)["data"]["awaiting"][0]["type"] == "move"


def test_rotating_a_seats_token_removes_the_notification_target_its_holder_may_have_registered(hooked, receiver):
    """A players' trial: the token rotation is the mend for a leaked token, but the target registered with the old
    one went on receiving the seat's own `awaiting`. The rotation removes it and says so; the new token registers
    again."""
    g = battle(hooked)
    register(hooked, g, "japan", receiver.url)
    r = hooked.post(f"/games/{g['game_id']}/token", headers=auth(token(g, "japan")))
    assert r.status_code == 201 and r.json()["notifications_removed"] is True, r.text
    g["tokens"]["japan"] = r.json()["token"]
    gone = hooked.get(f"/games/{g['game_id']}/notifications", headers=auth(token(g, "japan")))
    assert gone.status_code == 404
    start_both(hooked, g)
    again = hooked.post(f"/games/{g['game_id']}/token", headers=auth(token(g, "russia")))
    assert again.json()["notifications_removed"] is False  # Russia had none
    assert not receiver.got  # Japan's turn came, and nothing went to the old target


def test_the_since_link_moves_on_with_every_notice_not_only_a_your_turn(hooked, receiver):
    """A players' trial: a solitaire seat is never told its turn (it always has one), so its deadline notices said
    `since?version=0` all game long. Every notice sent moves the reader's `since` on to its version."""
    store = hooked.app.state.service.store
    g = battle(hooked)
    register(hooked, g, "japan", receiver.url)
    start_both(hooked, g)
    [(_, first)] = receiver.wait_for(kinds_for("japan"))
    v1 = json.loads(first)["data"]["version"]
    send(hooked, g, "russia", type="give_orders")  # the game moves on; Japan still owes its orders (no your-turn)
    game = hooked.app.state.service.cache.cached(g["game_id"]).game
    assert game.version > v1
    hooked.app.state.service.webhooks.notify(game, "japan", "deadline-warning", store.hooks(g["game_id"])["japan"],
                                             None, "msg_test_warning")
    [(_, warning)] = receiver.wait_for(kinds_for("japan", "deadline-warning"))
    assert json.loads(warning)["data"]["since"].endswith(f"since?version={v1}")
    assert store.hooks(g["game_id"])["japan"] == json.loads(warning)["data"]["version"]



def test_a_seat_that_sends_its_client_seed_still_owes_its_turn_and_its_notice_goes(hooked, receiver):
    """A cold review: a client seed is stored as the seat's command, so the seat's waiting your-turn was dropped as
    out of date when it sent its seed, though its turn was still owed. A seed is no move."""
    receiver.mode = "down"
    made = hooked.post("/games", json={"ruleset": "battlefleet-1900", "options": {"scenario": "yellow-sea-1904"},
                                       "open_seats": True}).json()
    gid, invitation = made["game_id"], {s["seat"]: s["invitation"] for s in made["seats"]}
    russia = hooked.post(f"/games/{gid}/join", json={"invitation": invitation["russia"]}).json()
    g = {"game_id": gid, "tokens": {"russia": russia["token"]}}
    register(hooked, g, "russia", receiver.url)
    hooked.post(f"/games/{gid}/join", json={"invitation": invitation["japan"]})  # the last join: russia's your-turn
    receiver.wait_for(kinds_for("russia"))  # its first attempt failed
    seed = hooked.post(f"/games/{gid}/seeds", json={"passphrase": "mine"}, headers=auth(russia["token"]))
    assert seed.status_code == 200, seed.text
    receiver.mode = "up"
    [row] = wait_status(hooked, g, "russia", "delivered")["deliveries"]
    assert row["kind"] == "your-turn"


def test_a_rotation_whose_target_removal_fails_still_answers_the_new_token(hooked, monkeypatch):
    """A cold review: the old token is void once the rotation is written, so a failure after it (removing the
    notification target) must not lose the new one in a 500."""
    g = battle(hooked)
    store = hooked.app.state.service.store

    def blink(*args, **kwargs):
        raise RuntimeError("the store blinked")

    monkeypatch.setattr(store, "delete_hook", blink)
    r = hooked.post(f"/games/{g['game_id']}/token", headers=auth(token(g, "japan")))
    assert r.status_code == 201 and r.json()["notifications_removed"] is None, r.text
    assert read(hooked, {**g, "tokens": {"japan": r.json()["token"]}}, "/me", "japan").status_code == 200
