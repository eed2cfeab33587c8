"""The referee's desk (issue #11): static pages at /desk that verify a game in the browser.

Nothing here verifies anything: the page does, with its own JavaScript implementation of the specs
(service/desk/js/), so a referee need not trust the server that served it. See docs/desk.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from domain.editions import major
from service.credentials import NotFound
from service.rulesets import Loaded

DESK = Path(__file__).resolve().parent / "desk"


def mount_desk(app: FastAPI, rulesets: Mapping[str, Loaded]) -> None:
    """Serve service/desk/ at /desk/ (index.html for the folder); /desk redirects there. The desk draws some
    pictures from a ruleset's data set (Battlefleet's gun arcs): /desk/data/<ruleset>.json?edition=<version> serves
    the exact bytes of that edition's default set (`Loaded.files`) of a ruleset the app serves, and the page checks
    their SHA-256 against the game's genesis before using them."""

    @app.get("/desk", include_in_schema=False)
    def desk_redirect():
        return RedirectResponse("/desk/", status_code=307)

    @app.get("/desk/data/{ruleset_id}.json", include_in_schema=False)
    def desk_data(ruleset_id: str, edition: str = ""):
        """`?edition=` the game's version: its edition's default set (a data revision); none: the newest's."""
        loaded = rulesets.get(ruleset_id)
        if loaded is None:
            named = repr(ruleset_id) if len(ruleset_id) <= 64 else "of that name (an id is at most 64 characters)"
            raise NotFound("unknown-ruleset", f"no ruleset {named} here; GET /rulesets lists {sorted(rulesets)}")
        want = major(edition or loaded.ruleset.version)
        if want not in loaded.files:
            run = loaded.ruleset.editions.run
            named = repr(edition) if len(edition) <= 32 else "of that name (a version is at most 32 characters)"
            raise NotFound(
                "unknown-edition",
                f"{ruleset_id} has no edition {named} here; name one of {run} (a game's `ruleset.version`), or "
                "leave edition out for the newest",
                editions=run,
            )
        path = loaded.files[want]
        if path is None:
            raise NotFound("no-data-set", f"{ruleset_id} has no data set: its rules need none, so there is none here")
        return Response(path.read_bytes(), media_type="application/json")

    app.mount("/desk/", StaticFiles(directory=DESK, html=True), name="desk")
