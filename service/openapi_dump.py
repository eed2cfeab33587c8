"""Print the app's OpenAPI document as committed in openapi/openapi.json (`make openapi`)."""

import json
import sys

from service.app import create_app
from service.settings import Settings


def document() -> str:
    app = create_app(settings=Settings(db=":memory:"))
    return json.dumps(app.openapi(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    sys.stdout.write(document())
