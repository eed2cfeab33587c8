"""Reading a Server-Sent Events answer as a browser's EventSource does."""

from __future__ import annotations

import json


def on_message_only(text: str) -> list[dict]:
    """What `EventSource.onmessage` receives: the data of every message without an `event:` line (an EventSource
    dispatches a named message to that name's listeners only), parsed as JSON."""
    out = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        lines = [x for x in block.split("\n") if x and not x.startswith(":")]
        fields = [x.partition(":")[::2] for x in lines]
        if any(k == "event" for k, _ in fields):
            continue
        data = "\n".join(v[1:] if v.startswith(" ") else v for k, v in fields if k == "data")
        if data:
            out.append(json.loads(data))
    return out
