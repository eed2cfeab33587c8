"""Issue 34 item 2: GET /health/live answers while the process does, reading nothing; GET /health/ready answers 200
when the store answers a trivial query within its bound, and 503 `not-ready` (problem+json, Retry-After) when it does
not, recovering by itself."""

from __future__ import annotations

import threading

from fastapi.testclient import TestClient

from events.store import SQLiteStore
from service.app import create_app
from service.games import GameService


def test_live_and_ready_answer(client):
    for path, status in (("/health/live", "live"), ("/health/ready", "ready")):
        r = client.get(path)
        assert r.status_code == 200 and r.json()["status"] == status, r.text


def test_ready_is_503_while_the_store_does_not_answer_and_live_is_not(tmp_path):
    store = SQLiteStore(str(tmp_path / "g.db"))
    svc = GameService(store)
    held, entered = threading.Event(), threading.Event()
    ping = store.ping

    def stuck() -> None:  # the store takes no query until the test lets it go
        entered.set()
        held.wait()

    with TestClient(create_app(service=svc)) as client:
        store.ping = stuck  # type: ignore[method-assign]
        r = client.get("/health/ready")
        assert entered.is_set() and r.status_code == 503, r.text
        assert r.headers["content-type"].startswith("application/problem+json") and r.headers["Retry-After"] == "1"
        assert r.json()["code"] == "not-ready" and "did not answer" in r.json()["detail"]
        assert client.get("/health/live").status_code == 200  # the process answers: it reads no store
        held.set()

        def broken() -> None:
            raise OSError("disk I/O error")

        store.ping = broken  # type: ignore[method-assign]
        r = client.get("/health/ready")
        assert r.status_code == 503 and "disk I/O error" in r.json()["detail"]
        store.ping = ping  # type: ignore[method-assign]
        assert client.get("/health/ready").status_code == 200  # it recovers by itself


def test_every_endpoint_docs_operations_names_exists(tmp_path):
    """Issue 34 item 6: docs/operations.md names only endpoints the server has (it once listed a `/status` read that
    answered 404). A path is matched against the OpenAPI document's, `{id}` or `*` standing for any segment; a bare
    `/rolls` or `/bundle` continues the game path before it."""
    import json
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    text = (root / "docs" / "operations.md").read_text()
    paths = list(json.loads((root / "openapi" / "openapi.json").read_text())["paths"])
    from service.app import create_app

    # and the operator's endpoints outside the API's document (/metrics, /docs)
    paths += [r.path for r in create_app(str(tmp_path / "d.db")).routes if not getattr(r, "include_in_schema", True)]
    patterns = [re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", p) + "$") for p in paths]
    named = re.findall(r"`(?:(?:GET|POST|PUT|DELETE) )?(/[a-z][^` ?]*)", text)
    assert "/health/ready" in named and len(named) > 10
    missing = []
    for path in named:
        concrete = re.sub(r"\{[^}]+\}|\*", "x", path)
        if not any(p.match(concrete) or p.match("/games/x" + concrete) for p in patterns):
            missing.append(path)
    assert not missing, f"docs/operations.md names endpoints the server does not have: {missing}"
