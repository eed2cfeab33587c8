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

from domain.editions import major
from service.credentials import NotFound
from service.rulesets import RULESET_MODULES

DESK = Path(__file__).resolve().parent / "desk"


def data_files() -> dict[str, dict[str, Path]]:
    """Each ruleset's default data set file of each edition it runs, by major (`Ruleset.data_file_of`): the bytes
    whose SHA-256 a game's genesis pins."""
    out = {}
    for name in RULESET_MODULES:
        module = importlib.import_module(name)
        r, here = module.RULESET, Path(str(module.__file__)).parent
        out[r.id] = {major(v): here / r.data_file_of(v) for v in r.editions.run}
        out[r.id][""] = out[r.id][major(r.version)]  # no edition named: the newest
    return out


def mount_desk(app: FastAPI) -> None:
    """Serve service/desk/ at /desk/ (index.html for the folder); /desk redirects there. The desk draws some
    pictures from a ruleset's data set (Battlefleet's gun arcs): /desk/data/<ruleset>.json?edition=<version> serves
    the exact bytes of that edition's default set, and the page checks their SHA-256 against the game's genesis
    before using them."""
    files = data_files()

    @app.get("/desk", include_in_schema=False)
    def desk_redirect():
        return RedirectResponse("/desk/", status_code=307)

    @app.get("/desk/data/{ruleset_id}.json", include_in_schema=False)
    def desk_data(ruleset_id: str, edition: str = ""):
        """`?edition=` the game's version: its edition's default set (a data revision); none: the newest's."""
        path = files.get(ruleset_id, {}).get(major(edition) if edition else "")
        if path is None:
            raise NotFound("unknown-ruleset", f"no ruleset {ruleset_id!r} of edition {edition!r} here; GET /rulesets")
        return Response(path.read_bytes(), media_type="application/json")

    app.mount("/desk/", StaticFiles(directory=DESK, html=True), name="desk")
