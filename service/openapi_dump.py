"""Print the app's OpenAPI document as committed in openapi/openapi.json (`make openapi`)."""

import json
import sys

from service.app import create_app


def document() -> str:
    return json.dumps(create_app(":memory:").openapi(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    sys.stdout.write(document())
