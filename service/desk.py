"""The referee's desk (issue #11): static pages at /desk that verify a game in the browser.

Nothing here verifies anything: the page does, with its own JavaScript implementation of the specs
(service/desk/js/), so a referee need not trust the server that served it. See docs/desk.md.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from service.credentials import NotFound
from service.rulesets import RULESET_MODULES

DESK = Path(__file__).resolve().parent / "desk"


def data_files() -> dict[str, Path]:
    """Each ruleset's default data set file: the bytes whose SHA-256 a game's genesis pins."""
    out = {}
    for name in RULESET_MODULES:
        module = importlib.import_module(name)
        out[module.RULESET.id] = Path(module.__file__).parent / module.RULESET.data_file
    return out


def mount_desk(app: FastAPI) -> None:
    """Serve service/desk/ at /desk/ (index.html for the folder); /desk redirects there. The desk draws some
    pictures from a ruleset's data set (Battlefleet's gun arcs): /desk/data/<ruleset>.json serves the default set's
    exact bytes, and the page checks their SHA-256 against the game's genesis before using them."""
    files = data_files()

    @app.get("/desk", include_in_schema=False)
    def desk_redirect():
        return RedirectResponse("/desk/", status_code=307)

    @app.get("/desk/data/{ruleset_id}.json", include_in_schema=False)
    def desk_data(ruleset_id: str):
        if ruleset_id not in files:
            raise NotFound("unknown-ruleset", f"no ruleset {ruleset_id!r} here; GET /rulesets lists them")
        return Response(files[ruleset_id].read_bytes(), media_type="application/json")

    app.mount("/desk/", StaticFiles(directory=DESK, html=True), name="desk")
