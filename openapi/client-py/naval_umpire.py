"""A small Python client of the Naval Umpire API (docs/api.md is the contract): one file, the standard library and
httpx. Answers are the API's JSON as dicts; every error answer is raised as a `Problem` (the API's problem+json),
typed by its `code`; `follow()` reads the game's stream as this token's reader and resumes on a dropped connection.

    api = Umpire("http://127.0.0.1:8000")
    created = api.create("corvette-command", options={"convoys": 1})
    captain = Umpire("http://127.0.0.1:8000", created["seats"][0]["token"])
    game_id = created["game_id"]
    while entries := captain.awaiting(game_id):
        captain.send(game_id, entries[0], (entries[0]["choices"] or [{}])[0])   # the first choice, as a UI click
    for message in captain.follow(game_id):                                      # event, state ..., end
        print(message["message"])
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any, Self
from urllib.parse import quote

import httpx


class Problem(Exception):
    """An error answer of the API: `status`, the stable `code`, `detail` (what to do) and the whole `body`."""

    def __init__(self, body: dict[str, Any]):
        self.body = body
        self.status: int = body["status"]
        self.code: str = body["code"]
        self.detail: str = body.get("detail", "")
        super().__init__(f"{self.status} {self.code}: {self.detail}")


class Unauthorized(Problem):
    """401: the token is missing, wrong or rotated (or a stream's ticket is invalid or expired)."""


class Forbidden(Problem):
    """403: the command is legal, but not this seat's (`not-your-turn`); a spent invitation; referee-only."""


class NotFound(Problem):
    """404: no such game, view, roll, job or ruleset."""


class IllegalCommand(Problem):
    """409 illegal-command: the rules refuse it now; `legal` is what they allow (in the shape of `awaiting`)."""

    @property
    def legal(self) -> list[dict[str, Any]]:
        return self.body.get("legal") or []


class VersionConflict(Problem):
    """409 (or 412, from If-Match) version-conflict: the game moved on; `version` is where it is now."""

    @property
    def version(self) -> int | None:
        return self.body.get("version")


class GameOver(Problem):
    """409 game-over or game-revealed: the game takes no more commands."""


class Invalid(Problem):
    """422: a body, a parameter or an option the API refuses as malformed (`detail` says which)."""


class TooManyRequests(Problem):
    """429: wait `retry_after` seconds."""


class Unavailable(Problem):
    """503: nothing was appended (or, `outcome-unknown`, send again with `body["command_id"]`); `retry_after`."""


_BY_CODE = {
    "illegal-command": IllegalCommand,
    "version-conflict": VersionConflict,
    "game-over": GameOver,
    "game-revealed": GameOver,
}
_BY_STATUS = {401: Unauthorized, 403: Forbidden, 404: NotFound, 422: Invalid, 429: TooManyRequests, 503: Unavailable}


def problem(response: httpx.Response) -> Problem:
    """The typed Problem of an error answer; a body that is no problem+json (a proxy's page) becomes `http-error`."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if not (isinstance(body, dict) and isinstance(body.get("code"), str) and isinstance(body.get("status"), int)):
        body = {"type": "about:blank", "title": response.reason_phrase, "status": response.status_code,
                "code": "http-error", "detail": response.text[:200] or f"HTTP {response.status_code}"}  # fmt: skip
    kind = _BY_CODE.get(body["code"]) or _BY_STATUS.get(body["status"], Problem)
    return kind(body)


class Umpire:
    """The API at `base_url`, as the holder of `token` (a seat's, the referee's, or the server's creation token; none:
    the public). Every method answers the parsed JSON or raises a `Problem`."""

    def __init__(self, base_url: str, token: str | None = None, *, timeout: float = 30.0,
                 client: httpx.Client | None = None):  # fmt: skip
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.http = client or httpx.Client(timeout=timeout)

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        auth = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return {"Accept": "application/json", **auth, **(extra or {})}

    def request(self, method: str, path: str, body: Any = None, params: dict[str, Any] | None = None) -> Any:
        """One call: the parsed JSON answer (None for an empty one), or the raised Problem."""
        headers = self._headers({"Content-Type": "application/json"} if body is not None else None)
        content = None if body is None else json.dumps(body)
        r = self.http.request(method, self.base_url + path, headers=headers, params=params, content=content)
        if r.is_error:
            raise problem(r)
        return r.json() if r.content else None

    # ---- games and seats ----

    def rulesets(self) -> list[dict[str, Any]]:
        return self.request("GET", "/rulesets")

    def create(
        self,
        ruleset: str,
        options: dict[str, Any] | None = None,
        *,
        seats: list[str] | None = None,
        bots: list[str] | None = None,
        open_seats: bool = False,
        dice: dict[str, Any] | None = None,
        edition: str | None = None,
    ) -> dict[str, Any]:
        """A new game: `{game_id, seats: [{seat, bot, open, token, invitation}], referee_token, ...}`, the tokens (or
        with `open_seats`, the invitations to hand out) shown only here."""
        given = {"options": options, "seats": seats, "bots": bots, "dice": dice, "edition": edition}
        body = {"ruleset": ruleset, **{k: v for k, v in given.items() if v is not None}}
        if open_seats:
            body["open_seats"] = True
        return self.request("POST", "/games", body)

    def join(self, game_id: str, invitation: str, passphrase: str | None = None) -> dict[str, Any]:
        """Take an open seat with its invitation: `{game_id, seat, token, client_seed}` (play as `Umpire(base_url,
        token)`); `passphrase`: the seat's client seed for the dice (its SHA-256), recorded with the join."""
        body = {"invitation": invitation} if passphrase is None else {"invitation": invitation, "passphrase": passphrase}
        return self.request("POST", f"/games/{_q(game_id)}/join", body)

    def rotate(self, game_id: str) -> dict[str, Any]:
        """A new token for this token's seat; the old one (and its streams) void at once. Keeps the new one."""
        out = self.request("POST", f"/games/{_q(game_id)}/token")
        self.token = out["token"]
        return out

    def game(self, game_id: str) -> dict[str, Any]:
        """The summary, with `awaiting` as this reader may see it."""
        return self.request("GET", f"/games/{_q(game_id)}")

    def awaiting(self, game_id: str) -> list[dict[str, Any]]:
        """The legal commands now, as this token may see them: `[{type, seats, choices, labels, default, ui, ...}]`."""
        return self.game(game_id)["awaiting"]

    def me(self, game_id: str) -> dict[str, Any]:
        return self.request("GET", f"/games/{_q(game_id)}/me")

    def events(self, game_id: str, after: int = 0, limit: int = 100) -> dict[str, Any]:
        return self.request("GET", f"/games/{_q(game_id)}/events", params={"after": after, "limit": limit})

    def since(self, game_id: str, version: int, limit: int | None = None) -> dict[str, Any]:
        """Since my last turn: the events after `version` (the last one this reader saw) as this token reads them,
        and `digest`, their account in plain words; `more`: ask again with `version=upto`."""
        params = {"version": version, **({"limit": limit} if limit is not None else {})}
        return self.request("GET", f"/games/{_q(game_id)}/since", params=params)

    def view(self, game_id: str, name: str, at: int | None = None) -> dict[str, Any]:
        params = {"at": at} if at is not None else None
        return self.request("GET", f"/games/{_q(game_id)}/views/{_q(name)}", params=params)

    def bundle(self, game_id: str) -> dict[str, Any]:
        return self.request("GET", f"/games/{_q(game_id)}/bundle")

    # ---- playing ----

    def command(self, game_id: str, type: str, **args: Any) -> dict[str, Any]:
        """Send `{type, **args}` (`command_id=` and `expected_version=` go along as the API takes them): the events it
        made and the new `awaiting`."""
        return self.request("POST", f"/games/{_q(game_id)}/commands", {**args, "type": type})

    def send(
        self, game_id: str, entry: dict[str, Any], choice: dict[str, Any] | None = None, **extras: Any
    ) -> dict[str, Any]:
        """Send what a click on `choice` (one of `entry["choices"]`, or arguments built from its `ui`) means."""
        return self.command(game_id, entry["type"], **(choice or {}), **extras)

    def reveal(self, game_id: str) -> dict[str, Any]:
        return self.request("POST", f"/games/{_q(game_id)}/reveal")

    def end(self, game_id: str) -> dict[str, Any]:
        return self.request("POST", f"/games/{_q(game_id)}/end")

    def ticket(self, game_id: str) -> dict[str, Any]:
        return self.request("POST", f"/games/{_q(game_id)}/tickets")

    # ---- the stream ----

    def follow(self, game_id: str, after: int | None = None, *, retries: int = 5) -> Iterator[dict[str, Any]]:
        """The game live: the JSON of each message (`message`: `event`, `state`, `end`; docs/api.md "The stream"), up
        to and with the `end` (the game is over: `status` is `over`, or `revealed`). With a token each connection opens
        with a fresh ticket, so the stream reads as the token's seat (its own sealed content and `awaiting`); without
        one, as the public. A dropped connection (or a 503) is opened again after the last seq received
        (Last-Event-ID); `retries` connections in a row that bring nothing raise the last error, and any other Problem
        (a rotated token: Unauthorized) is raised at once. Events up to `after` are not sent again."""
        last = after or 0
        failures = 0
        while True:
            try:
                for message in self._stream_once(game_id, last):
                    failures = 0
                    if message["message"] == "event":
                        if message["event"]["seq"] <= last:
                            continue
                        last = message["event"]["seq"]
                    yield message
                    if message["message"] == "end":
                        return
            except (httpx.TransportError, Unavailable):
                failures += 1
                if failures > retries:
                    raise
                time.sleep(min(0.25 * 2**failures, 5.0))
            # the server closes an idle stream after its `timeout`: open it again after the last seq

    def _stream_once(self, game_id: str, last: int) -> Iterator[dict[str, Any]]:
        params: dict[str, Any] = {"after": last}
        if self.token:
            params["ticket"] = self.ticket(game_id)["ticket"]
        headers = self._headers({"Accept": "text/event-stream", **({"Last-Event-ID": str(last)} if last else {})})
        # keep-alive comments come every 15 s: a minute of silence is a dead connection
        timeout = httpx.Timeout(self.http.timeout.connect or 30.0, read=60.0)
        url = f"{self.base_url}/games/{_q(game_id)}/events/stream"
        with self.http.stream("GET", url, params=params, headers=headers, timeout=timeout) as r:
            if r.is_error:
                r.read()
                raise problem(r)
            yield from _sse_data(r.iter_lines())


def _sse_data(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """The JSON of each unnamed message of a Server-Sent Events body, as `EventSource.onmessage` would get it."""
    data: list[str] = []
    named = False
    for line in lines:
        if line == "":
            if data and not named:
                yield json.loads("\n".join(data))
            data, named = [], False
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif line.startswith("event:"):
            named = True  # a named message is not onmessage's (the stream names none unless asked: named=true)


def _q(part: str) -> str:
    return quote(part, safe="")
