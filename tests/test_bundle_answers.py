"""Issue 19 D4: a bundle is built once per (game, head, reader), revalidated by ETag, and large answers are rated
per client; the bytes are those of the decoded bundle (bodies spliced in as stored)."""

from __future__ import annotations

import msgspec
import pytest
from fastapi.testclient import TestClient

from events.store import SQLiteStore
from service.app import create_app
from service.games import GameService
from tests.conftest import auth


@pytest.fixture
def api(tmp_path):
    svc = GameService(SQLiteStore(str(tmp_path / "b.db")))
    with TestClient(create_app(service=svc)) as client:
        g = client.post("/games", json={"ruleset": "aa1942-convoy"}).json()
        yield svc, client, g


def test_the_bundle_revalidates_by_etag_and_changes_with_the_game_not_its_reader(api):
    svc, client, g = api
    gid = g["game_id"]
    first = client.get(f"/games/{gid}/bundle")
    tag = first.headers["etag"]
    assert first.status_code == 200 and tag and first.headers["cache-control"] == "no-cache"
    again = client.get(f"/games/{gid}/bundle", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    ussr = next(s["token"] for s in g["seats"] if s["seat"] == "USSR")
    assert client.get(f"/games/{gid}/bundle", headers=auth(ussr)).headers["etag"] == tag  # one file for every reader
    client.post(f"/games/{gid}/commands", json={"type": "purchase", "spend": 3}, headers=auth(ussr))
    moved = client.get(f"/games/{gid}/bundle", headers={"If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["etag"] != tag and len(moved.json()["events"]) > 1


def test_an_unchanged_games_bundle_is_built_once_and_has_the_bytes_of_the_decoded_one(api, monkeypatch):
    svc, client, g = api
    gid = g["game_id"]
    built = []
    real = svc.bundles.encoded
    monkeypatch.setattr(svc.bundles, "encoded", lambda *a, **k: built.append(a) or real(*a, **k))
    a = client.get(f"/games/{gid}/bundle").content
    b = client.get(f"/games/{gid}/bundle").content
    assert a == b and len(built) == 1
    # the database splices the stored bodies and payloads in: the same bytes as encoding every row decoded
    decoded = msgspec.json.decode(a)
    rows = svc.store.events(gid)
    assert [e["hash"] for e in decoded["events"]] == [r.hash for r in rows]
    decoded["events"] = [{"body": msgspec.json.decode(r.body), "hash": r.hash} for r in rows]
    decoded["commands"] = [
        {"command_id": x.command_id, "seat": x.seat, "payload": msgspec.json.decode(x.payload),
         "seqs": [x.first_seq, x.last_seq]}
        for x in svc.store.commands(gid)
    ]
    assert a == msgspec.json.encode(decoded)


def test_requests_for_a_bundle_being_built_wait_for_that_build(api, monkeypatch):
    """Four requests at once for the same (game, head, reader) build it once: the others wait for the first build
    and take its bytes (issue 19 D4: four builds of a long game side by side starved every other request)."""
    import threading

    svc, client, g = api
    gid = g["game_id"]
    built, missed, lock = [], [], threading.Condition()
    real = svc.bundles.encoded

    class Marks(dict):  # `_building`: each request that finds no kept bundle marks or joins the build here
        def setdefault(self, key, default=None):
            out = super().setdefault(key, default)
            with lock:
                missed.append(key)
                lock.notify_all()
            return out

    def slow(*a, **k):
        built.append(a)
        with lock:  # the build runs on until all four requests have missed the cache: each waits for this build
            assert lock.wait_for(lambda: len(missed) == 4, 60), f"{len(missed)} of 4 requests came to the build"
        return real(*a, **k)

    monkeypatch.setattr(svc.bundles, "_building", Marks())
    monkeypatch.setattr(svc.bundles, "encoded", slow)
    got, failed, start = [], [], threading.Barrier(4)

    def fetch():
        start.wait()
        try:
            got.append(svc.bundles.bundle_bytes(gid))
        except BaseException as e:  # noqa: BLE001 - said below, not lost in a thread
            failed.append(e)

    threads = [threading.Thread(target=fetch) for _ in range(4)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert not failed, failed
    assert len(built) == 1 and len(got) == 4 and len(set(got)) == 1
    assert not svc.bundles._building  # nothing is left marked as being built


def test_a_failed_build_is_not_left_marked_and_the_next_request_builds_again(api, monkeypatch):
    svc, client, g = api
    real, calls = svc.bundles.encoded, []

    def once_failing(*a, **k):
        calls.append(a)
        if len(calls) == 1:
            raise OSError("the store went away mid-build")
        return real(*a, **k)

    monkeypatch.setattr(svc.bundles, "encoded", once_failing)
    with pytest.raises(OSError):
        svc.bundles.bundle_bytes(g["game_id"])
    assert not svc.bundles._building
    assert svc.bundles.bundle_bytes(g["game_id"]) == real(g["game_id"]) and len(calls) == 2


def test_large_answers_are_rated_per_client(api, monkeypatch):
    import service.routes

    svc, client, g = api
    monkeypatch.setattr(service.routes, "LARGE_ANSWER", 10)  # every bundle counts as large here
    limit = client.app.state.settings.large_answers_per_minute
    codes = [client.get(f"/games/{g['game_id']}/bundle").status_code for _ in range(limit + 1)]
    assert codes[:limit] == [200] * limit and codes[-1] == 429
    r = client.get(f"/games/{g['game_id']}/bundle")
    assert r.headers["retry-after"] and r.json()["code"] == "too-many-requests"
    assert client.get(f"/games/{g['game_id']}").status_code == 200  # the rest of the API is not limited


def test_a_large_bundle_is_sent_in_chunks_with_its_length_and_the_same_bytes(api, monkeypatch):
    import service.routes

    svc, client, g = api
    gid = g["game_id"]
    monkeypatch.setattr(service.routes, "LARGE_ANSWER", 10)
    monkeypatch.setattr(service.routes, "CHUNK", 400)  # the new game's bundle (1.5 KB) goes out in several chunks
    whole = svc.bundles.bundle_bytes(gid)
    assert len(whole) > 3 * 400
    r = client.get(f"/games/{gid}/bundle")
    assert r.status_code == 200 and r.content == whole
    assert r.headers["content-length"] == str(len(whole)) and r.headers["etag"] == svc.bundles.etag(gid)
    assert r.headers["content-type"] == "application/json"
    # and it went out as chunks of CHUNK bytes: what the response hands the server, one body message each
    import asyncio

    parts = []

    async def send(message):
        if message["type"] == "http.response.body" and message.get("body"):
            parts.append(bytes(message["body"]))

    async def receive():  # the client stays
        await asyncio.Event().wait()

    response = service.routes.streamed(whole, {})
    asyncio.run(response({"type": "http", "method": "GET", "headers": []}, receive, send))
    assert b"".join(parts) == whole and [len(p) for p in parts[:-1]] == [400] * (len(parts) - 1) and len(parts) > 3
