"""The referee's desk (issue #11): static pages at /desk that verify a game in the browser.

Nothing here verifies anything: the page does, with its own JavaScript implementation of the specs
(service/desk/js/), so a referee need not trust the server that served it. See docs/desk.md.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import RedirectResponse
from fastapi.staticfiles import StaticFiles

DESK = Path(__file__).resolve().parent / "desk"


def mount_desk(app: FastAPI) -> None:
    """Serve service/desk/ at /desk/ (index.html for the folder); /desk redirects there."""

    @app.get("/desk", include_in_schema=False)
    def desk_redirect():
        return RedirectResponse("/desk/", status_code=307)

    app.mount("/desk/", StaticFiles(directory=DESK, html=True), name="desk")
