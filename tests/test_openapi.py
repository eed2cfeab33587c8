"""openapi/openapi.json is what the app serves: regenerate it with `make openapi` when the API changes."""

from pathlib import Path

from service.openapi_dump import document

COMMITTED = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"


def test_committed_openapi_is_current():
    assert COMMITTED.read_text(encoding="utf-8") == document(), "openapi/openapi.json is stale: run `make openapi`"


def test_every_operation_documents_its_errors_as_problems():
    import json

    doc = json.loads(document())
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            if path in ("/", "/rulesets", "/health/live", "/health/ready"):  # nothing in them can be missing
                continue
            assert "404" in op["responses"] or path in ("/games", "/bundles/verify"), (method, path)
            assert op["responses"].get("422", {}).get("content", {}).get("application/problem+json", {}).get(
                "schema"
            ) == {"$ref": "#/components/schemas/Problem"}, (method, path)
