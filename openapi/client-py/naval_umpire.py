"""A small Python client of the Naval Umpire API (docs/api.md is the contract): one file, the standard library and
httpx. A method per operation of the API (openapi/openapi.json; tests/test_client_py.py holds every operation to its
method), each a thin wrapper over one HTTP call; `request()` calls any path. Answers are the API's JSON as dicts;
every error answer is raised as a `Problem` (the API's problem+json), typed by its `code`; `follow()` reads the
game's stream as this token's reader and resumes on a dropped connection.

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
from collections.abc import Callable, Iterator
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


class Conflict(Problem):
    """409 (412 from If-Match): the game's state refuses it now (`seats-open`, `seed-locked`, `fork-sealed`, …); the
    codes a client acts on have their own classes below."""


class IllegalCommand(Conflict):
    """409 illegal-command: the rules refuse it now; `legal` is what they allow (in the shape of `awaiting`)."""

    @property
    def legal(self) -> list[dict[str, Any]]:
        return self.body.get("legal") or []


class VersionConflict(Conflict):
    """409 (or 412, from If-Match) version-conflict: the game moved on; `version` is where it is now."""

    @property
    def version(self) -> int | None:
        return self.body.get("version")


class GameOver(Conflict):
    """409 game-over or game-revealed: the game takes no more commands."""


class TooLarge(Problem):
    """413: the body is over the limit (`limit`)."""


class Invalid(Problem):
    """400, 415, 422: a body, a parameter or an option the API refuses as malformed (`detail` says which)."""


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
_BY_STATUS = {
    400: Invalid, 401: Unauthorized, 403: Forbidden, 404: NotFound, 409: Conflict, 412: Conflict, 413: TooLarge,
    415: Invalid, 422: Invalid, 429: TooManyRequests, 503: Unavailable,
}  # fmt: skip


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

    # ---- the service and its rulesets ----

    def root(self) -> dict[str, Any]:
        """What the service serves: its rulesets, the engine's version, where the OpenAPI document is."""
        return self.request("GET", "/")

    def live(self) -> dict[str, Any]:
        """Liveness: `{status, engine}` while the process answers requests."""
        return self.request("GET", "/health/live")

    def ready(self) -> dict[str, Any]:
        """Readiness: `{status, engine}` when the store answers; else 503 `not-ready`, raised as `Unavailable`."""
        return self.request("GET", "/health/ready")

    def rulesets(self) -> list[dict[str, Any]]:
        return self.request("GET", "/rulesets")

    def ruleset(self, ruleset_id: str) -> dict[str, Any]:
        """A ruleset: its commands, views, option schema and default seats."""
        return self.request("GET", f"/rulesets/{_q(ruleset_id)}")

    def seats(self, ruleset_id: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
        """`{ruleset, seats}`: the seats a game of this ruleset gets with these options when `create` names none
        (corvette-command's `two_player` makes two escorts): what to seat people or bots in before creating it."""
        return self.request("GET", f"/rulesets/{_q(ruleset_id)}/seats", params={"options": json.dumps(options or {})})

    # ---- games and seats ----

    def list_games(
        self, ruleset: str | None = None, status: str | None = None, cursor: str | None = None, limit: int | None = None
    ) -> dict[str, Any]:
        """Games, newest first: `{games, next_cursor}`; pass `next_cursor` as `cursor` for the next page."""
        given = {"ruleset": ruleset, "status": status, "cursor": cursor, "limit": limit}
        return self.request("GET", "/games", params={k: v for k, v in given.items() if v is not None})

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
        umpired: bool | None = None,
        deadlines: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A new game: `{game_id, seats: [{seat, bot, open, token, invitation}], referee_token, ...}`, the tokens (or
        with `open_seats`, the invitations to hand out) shown only here. `umpired=False`: the referee's token reads
        what the public reads (the API's default is an umpire who reads every seat's sealed content); `deadlines`:
        a turn clock, `{"turn_seconds": 86400, "on_expiry": "default"}` (docs/api.md "Deadlines")."""
        given = {"options": options, "seats": seats, "bots": bots, "dice": dice, "edition": edition,
                 "umpired": umpired, "deadlines": deadlines}  # fmt: skip
        body = {"ruleset": ruleset, **{k: v for k, v in given.items() if v is not None}}
        if open_seats:
            body["open_seats"] = True
        return self.request("POST", "/games", body)

    def invitation(self, game_id: str, invitation: str) -> dict[str, Any]:
        """What an invitation offers, read before it is accepted: `{game_id, seat, ruleset, umpired}`; nothing is
        spent."""
        return self.request("POST", f"/games/{_q(game_id)}/invitation", {"invitation": invitation})

    def join(
        self, game_id: str, invitation: str, passphrase: str | None = None, *, client_seed: str | None = None
    ) -> dict[str, Any]:
        """Take an open seat with its invitation: `{game_id, seat, token, client_seed}` (play as `Umpire(base_url,
        token)`). The seat's client seed for the dice, recorded with the join: `passphrase` (its SHA-256 is the
        seed) or `client_seed` (64 lowercase hex), at most one of the two."""
        seed = {"passphrase": passphrase, "client_seed": client_seed}
        body = {"invitation": invitation, **{k: v for k, v in seed.items() if v is not None}}
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

    def rolls(self, game_id: str, after: int = 0, limit: int = 100) -> dict[str, Any]:
        """The roll ledger, paged: each roll's purpose, rule, result (and after reveal, its recomputation)."""
        return self.request("GET", f"/games/{_q(game_id)}/rolls", params={"after": after, "limit": limit})

    def roll(self, game_id: str, k: int) -> dict[str, Any]:
        return self.request("GET", f"/games/{_q(game_id)}/rolls/{k}")

    def bundle(self, game_id: str) -> dict[str, Any]:
        return self.request("GET", f"/games/{_q(game_id)}/bundle")

    def verify_bundle(self, bundle: dict[str, Any]) -> dict[str, Any]:
        """The four-part report of a bundle (chain, dice, sealed records, replay): `verdict` and each part's."""
        return self.request("POST", "/bundles/verify", bundle)

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

    def contribute_seed(
        self, game_id: str, passphrase: str | None = None, *, client_seed: str | None = None
    ) -> dict[str, Any]:
        """This seat's client seed for the dice, before the first command: `passphrase` or `client_seed` (64 lowercase
        hex), exactly one. Answers like a command."""
        seed = {"passphrase": passphrase, "client_seed": client_seed}
        return self.request("POST", f"/games/{_q(game_id)}/seeds", {k: v for k, v in seed.items() if v is not None})

    def change_deadlines(
        self,
        game_id: str,
        *,
        turn_seconds: int | None = None,
        on_expiry: str | None = None,
        paused: bool | None = None,
        extend: dict[str, int] | None = None,
        command_id: str | None = None,
    ) -> dict[str, Any]:
        """The referee changes the turn clock of a game created with `deadlines`: `turn_seconds` and `on_expiry`
        from now on, `paused`, `extend` (seconds more for the named seats' running turns). Answers like a command."""
        given = {"turn_seconds": turn_seconds, "on_expiry": on_expiry, "paused": paused, "extend": extend,
                 "command_id": command_id}  # fmt: skip
        return self.request("POST", f"/games/{_q(game_id)}/deadlines", {k: v for k, v in given.items() if v is not None})

    # ---- notifications (webhooks or e-mail) of this token's reader ----

    def set_notifications(self, game_id: str, url: str) -> dict[str, Any]:
        """Register this reader's one target (a second call replaces it): `{reader, url, secret, confirmed}`. A
        webhook URL's signing secret is shown only here; `mailto:name@host.example`, where the server sends e-mail,
        is mailed a code and nothing more until `confirm_notifications` sends it back (`secret` None)."""
        return self.request("PUT", f"/games/{_q(game_id)}/notifications", {"url": url})

    def confirm_notifications(self, game_id: str, code: str) -> dict[str, Any]:
        """Confirm this reader's e-mail address with the code mailed to it; `Invalid` (`confirmation-refused`) for
        a code that is not the last one mailed."""
        return self.request("POST", f"/games/{_q(game_id)}/notifications/confirm", {"code": code})

    def notifications(self, game_id: str) -> dict[str, Any]:
        """This reader's target and its latest deliveries; `NotFound` (`no-notifications`) without one."""
        return self.request("GET", f"/games/{_q(game_id)}/notifications")

    def delete_notifications(self, game_id: str) -> None:
        """Remove this reader's target: nothing more is delivered to it, retries included."""
        self.request("DELETE", f"/games/{_q(game_id)}/notifications")

    def rotate_notification_secret(self, game_id: str) -> dict[str, Any]:
        """A new signing secret: `{secret, old_secret_signs_until}` (the old one signs too until then)."""
        return self.request("POST", f"/games/{_q(game_id)}/notifications/secret")

    def test_notifications(self, game_id: str) -> dict[str, Any]:
        """Queue a signed `ping` to the target: `{id}`, its `webhook-id`."""
        return self.request("POST", f"/games/{_q(game_id)}/notifications/test")

    # ---- what-if ----

    def fork(
        self, game_id: str, at: int, *, dice: dict[str, Any] | None = None, bots: list[str] | None = None
    ) -> dict[str, Any]:
        """A new game from the position after event `at` (docs/whatif.md): answered like `create`."""
        given = {"at": at, "dice": dice, "bots": bots}
        return self.request("POST", f"/games/{_q(game_id)}/forks", {k: v for k, v in given.items() if v is not None})

    def odds(self, game_id: str, at: int, games: int = 200, seed: int = 1) -> dict[str, Any]:
        """The odds from the position after event `at`, as a job (`{job_id, status, ...}`): read it with `job()`, or
        wait for it with `follow_job()`. With a seat's token in a game not yet over: that seat's own odds."""
        return self.request("POST", f"/games/{_q(game_id)}/odds", {"at": at, "games": games, "seed": seed})

    def job(self, job_id: str) -> dict[str, Any]:
        return self.request("GET", f"/jobs/{_q(job_id)}")

    def follow_job(self, job_id: str, on_progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
        """Wait for a job on its stream: `on_progress({done, games})` as continuations finish; the job once it is done,
        failed or lost (read again with `job()` if the stream was cut before its result)."""
        url = f"{self.base_url}/jobs/{_q(job_id)}/stream"
        timeout = httpx.Timeout(self.http.timeout.connect or 30.0, read=60.0)
        with self.http.stream("GET", url, headers=self._headers({"Accept": "text/event-stream"}), timeout=timeout) as r:
            if r.is_error:
                r.read()
                raise problem(r)
            for name, data in _sse(r.iter_lines()):
                if name == "progress" and on_progress is not None:
                    on_progress(json.loads(data))
                elif name == "result":
                    return json.loads(data)
        return self.job(job_id)

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


def _sse(lines: Iterator[str]) -> Iterator[tuple[str | None, str]]:
    """Each message of a Server-Sent Events body: its `event:` name (None when unnamed) and its data."""
    data: list[str] = []
    name: str | None = None
    for line in lines:
        if line == "":
            if data:
                yield name, "\n".join(data)
            data, name = [], None
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif line.startswith("event:"):
            name = line[6:].strip()


def _sse_data(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """The JSON of each unnamed message of a Server-Sent Events body, as `EventSource.onmessage` would get it (a named
    message is not onmessage's: the stream names none unless asked, named=true)."""
    for name, data in _sse(lines):
        if name is None:
            yield json.loads(data)


def _q(part: str) -> str:
    return quote(part, safe="")
