"""Documentation, served from the package (works offline): the Swagger UI at /docs with its static files, the desk,
and the OpenAPI document built from the routes' descriptions (service/openapi.py). No ReDoc: its page rendering this
document (some 860 KB, every ruleset's commands and views) crashed Chromium's tab after a minute."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path as FilePath
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from service.desk import mount_desk
from service.openapi import Operation, build_document
from service.rulesets import Loaded
from service.settings import Settings

DOCS_STATIC = "/docs-static"


def add_routes(app: FastAPI, ops: list[Operation], settings: Settings, rulesets: Mapping[str, Loaded]) -> None:
    """Added last: the operations `ops` describes are all registered by then (the document is built on first read)."""

    app.mount(DOCS_STATIC, StaticFiles(directory=_docs_static()), name="docs-static")
    mount_desk(app, rulesets)

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="Naval Umpire — API",
            swagger_js_url=f"{DOCS_STATIC}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_STATIC}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_STATIC}/favicon.png",
        )

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build_document(app, ops, settings)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign] # FastAPI's documented way to serve another document


def _docs_static() -> str:
    import fastapi_offline

    return str(FilePath(fastapi_offline.__file__).parent / "static")
