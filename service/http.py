"""What every route shares: problem+json errors, msgspec bodies in and out, the bearer token, and the ASGI guards
in front of the app (body size, content type, preflights without CORS)."""

from __future__ import annotations

import asyncio
import json
import re
import types
from collections.abc import Callable, Mapping
from typing import Any

import msgspec
from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import Response

from domain.engine import IllegalCommand, InvalidInput, Rejected
from service.models import COMMAND_EXTRAS, PATTERN_WORDS

PROBLEM = "application/problem+json"
TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    408: "Request timeout",
    409: "Conflict",
    412: "Precondition failed",
    413: "Payload too large",
    415: "Unsupported media type",
    422: "Unprocessable content",
    429: "Too many requests",
    500: "Internal error",
    503: "Service unavailable",
}
_encoder = msgspec.json.Encoder()  # one encoder for every answer


class Encoded(list):
    """A list whose items' JSON is made already (`parts`: each item's, as `msgspec.Raw`): `_encode` splices those in
    rather than encoding the items again (an answer's `awaiting`, service/cache.py), each copied once, into the answer
    itself: joining them first would copy an answer's largest part twice more (a raid's 19 KB answer, 43k
    instructions). Nobody mutates one."""

    __slots__ = ("parts",)

    def __init__(self, items: list, parts: list[msgspec.Raw]):
        super().__init__(items)
        self.parts = parts


def _encode(content: Any) -> bytes:
    """An answer's JSON, an `Encoded` value at its top level spliced in as its items' bytes (the same bytes)."""
    if type(content) is dict:
        spliced = None
        for k, v in content.items():
            if type(v) is Encoded:
                spliced = spliced or dict(content)
                spliced[k] = v.parts
        content = spliced or content
    return _encoder.encode(content)


class JSON(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return content if isinstance(content, bytes) else _encode(content)


def problem(status: int, code: str, detail: str, instance: str | None = None, **extra: Any) -> Response:
    body = {
        "type": f"https://naval-umpire.invalid/problems/{code}",
        "title": TITLES.get(status, "Error"),
        "status": status,
        "code": code,
        "detail": detail,
        "instance": instance if instance is None or len(instance) <= 512 else instance[:511] + "…",  # no 5 KB echo
    }
    body.update({k: v for k, v in extra.items() if v is not None})
    headers = {"WWW-Authenticate": 'Bearer realm="naval-umpire"'} if status == 401 else None
    if status in (429, 503) and "retry_after" in extra:
        headers = {"Retry-After": str(extra["retry_after"])}
    return Response(_encode(body), status_code=status, media_type=PROBLEM, headers=headers)


def rejected_response(request: Request, e: Rejected) -> Response:
    return rejected_problem(e, request.url.path)


def rejected_problem(e: Rejected, path: str) -> Response:
    legal = e.legal if isinstance(e, IllegalCommand) else None  # the reader's `awaiting` (domain/engine.py `refusal`)
    return problem(e.status, e.code, e.detail, path, legal=legal, **e.extra)


class BadRequest(Rejected):
    status = 400


class PreconditionFailed(Rejected):
    status = 412


def if_match_version(value: str | None) -> int | None:
    """The version a command's If-Match (the header's value) names: the ETag of any read of the game
    (`"<version>-…"`) or `"<version>"`; `*` (HTTP's "whatever it is now") names none."""
    if value is None or value.strip() == "*":
        return None
    tag = value.strip().removeprefix("W/").strip('"')
    head = tag.split("-", 1)[0]
    if not head.isdigit() or len(head) > 16:
        raise InvalidInput(
            "invalid-if-match", "If-Match is the ETag of a read of this game (\"<version>-…\") or \"<version>\""
        )
    return int(head)


class TooMany(Rejected):
    status = 429


class TooLarge(Rejected):
    status = 413


def bearer(request: Request) -> str | None:
    return bearer_token(request.headers.get("authorization", ""))


def client_of(request: Request) -> str:
    """Who sent the request, for per-client limits: its peer address (a trusted proxy's X-Forwarded-For already read
    into it by the server), or "?"."""
    return request.client.host if request.client else "?"


def bearer_token(authorization: str) -> str | None:
    """The token of an `Authorization: Bearer <token>` header's value, or None."""
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def no_duplicate_keys(raw: bytes, decoded: list[dict | list] | None = None, source: str = "the body") -> None:
    """422 for an object that names a key twice: JSON leaves it undefined, and reading the last one silently would
    act on what the sender may not have meant.

    With the body already decoded (`decoded`: its objects and arrays, `_containers`), most bodies are cleared without
    a second parse: every key in the text is followed by a colon, so when the decoded objects hold as many keys as the
    text has colons, no key was lost."""
    if decoded is not None and sum([len(v) for v in decoded if type(v) is dict]) == raw.count(b":"):
        return

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen = {}
        for k, v in items:
            if k in seen:
                raise InvalidInput("invalid-json", f"the key {k!r} appears twice in one object; send it once")
            seen[k] = v
        return seen

    try:
        json.loads(raw, object_pairs_hook=pairs)
    except ValueError:
        pass  # not JSON: msgspec says so, in its words
    except RecursionError as e:  # deeper than this check can read: refused, not let through unchecked
        raise invalid_json(e, source) from None


def _containers(value: Any) -> list[dict | list]:
    """Every object and array in a decoded JSON value, itself included. A loop, not a recursion: msgspec decodes
    bodies nested deeper than a recursion could walk. (Decoded JSON holds exact dicts and lists; a command's flat
    object is walked in one step.)"""
    found: list[dict | list] = []
    todo = [value] if type(value) in (dict, list) else []
    while todo:
        v = todo.pop()
        found.append(v)
        todo += [x for x in (v.values() if type(v) is dict else v) if type(x) in (dict, list)]
    return found


_DECODERS: dict[Any, msgspec.json.Decoder] = {}  # per model: request bodies are of a few types


def decode(
    raw: bytes, model: type, what: str, code: str = "invalid-request", at: Where | None = None, source: str = "the body"
) -> Any:
    """A JSON body into its Struct, or a 422 that says what to fix (deep nesting and repeated keys included: never
    a 500, never the last of two values). A body the schema refuses is `code`, or what `at` says for where it failed
    (`convert`).

    A whole number written with a fraction or an exponent (`2.0`, `1e3`) is the integer JSON Schema says it is, so
    it is read as one wherever an integer goes (in a plain `dict` body, a command, every such number: its rules read
    integers); nothing else is coerced."""
    decoder = _DECODERS.get(model)
    if decoder is None:  # `msgspec.json.decode(raw, type=model)` makes its decoder anew on every call: 1.8 us of 2
        decoder = _DECODERS[model] = msgspec.json.Decoder(model)
    try:
        value: Any = decoder.decode(raw)
    except msgspec.ValidationError:
        no_duplicate_keys(raw, None, source)
        try:
            value = whole_numbers(msgspec.json.decode(raw))
        except (msgspec.DecodeError, RecursionError) as e:
            raise invalid_json(e, source, raw)
        return convert(value, model, what, code, at)
    except (msgspec.DecodeError, RecursionError) as e:
        no_duplicate_keys(raw, None, source)  # JSON that msgspec refuses (NaN) may still repeat a key: say that first
        raise invalid_json(e, source, raw)
    if type(value) is not dict and type(value) is not list:  # a Struct: whole numbers were the decoder's to read
        no_duplicate_keys(raw, None, source)
        return value
    found = _containers(value)  # one walk: its keys counted, its whole numbers made ints
    no_duplicate_keys(raw, found, source)
    _whole_in(found)
    return value


# Where a body failed, and what that makes its refusal: a field's path (`$.deadlines`: the field and anything in it)
# to its error code, or to a function of the field's value that raises the refusal saying what is wrong with it
# (returning, it leaves the body's code). The one owner of "this field's refusal has its own code".
Where = Mapping[str, str | Callable[[Any], None]]


def convert(value: Any, model: type, what: str, code: str = "invalid-request", at: Where | None = None) -> Any:
    """Decoded JSON into `model`, or a 422 that says what to fix: `code`, or what `at` makes of where it failed."""
    try:
        return msgspec.convert(value, model)
    except msgspec.ValidationError as e:
        said = str(e)
        code = _code_at(said, value, at, code) if at else code
        raise InvalidInput(code, f"{what}: {_worded(said)}. Fix it and send again; /docs shows the schema")


def _code_at(said: str, value: Any, at: Where, code: str) -> str:
    """The code `at` gives the path msgspec's message `said` ends with ("… - at `$.a.b[2]`"; a failure of the body
    itself names none), or `code`. A function there is called with the value of the field it is keyed on."""
    path = said.rpartition(" - at `")[2].removesuffix("`")
    for field, owner in at.items():
        if path != field and not path.startswith((field + ".", field + "[")):
            continue
        for name in field.split(".")[1:]:  # object fields down to it
            if type(value) is not dict or name not in value:
                return code  # not a path into this body: a field name that only reads like one
            value = value[name]
        if isinstance(owner, str):
            return owner
        owner(value)
    return code


def _worded(message: str) -> str:
    """msgspec's message with the words of the pattern it names: "matching regex '^[0-9a-f]{64}$' (64 lowercase hex
    characters)", not the expression alone."""
    for pattern, words in PATTERN_WORDS.items():
        message = message.replace(f"matching regex {pattern!r}", f"matching regex {pattern!r} ({words})")
    return message


def check_command_extras(body: dict[str, Any]) -> None:
    """`command_id` and `expected_version`, where a command carries them, against their schema (models.COMMAND_EXTRAS):
    a 422 with the field's code. The one check of them, for the HTTP route (before If-Match is compared) and the
    service's write path alike."""
    for name, kind, code in COMMAND_EXTRAS:
        if name in body:
            convert(body[name], kind, name, code)


# a \uD800-\uDBFF escape without the \uDC00-\uDFFF one that must follow it: msgspec says "Input data was truncated"
LONE_SURROGATE = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})")


def invalid_json(e: Exception, source: str = "the body", raw: bytes | None = None) -> InvalidInput:
    """`source`: what was sent as JSON (a request's body; a query parameter that holds JSON, `options`)."""
    detail = "nested too deeply" if isinstance(e, RecursionError) else str(e)
    if raw is not None and "truncated" in detail and LONE_SURROGATE.search(raw):
        detail = "a \\uD800-\\uDBFF escape without the \\uDC00-\\uDFFF escape that must follow it, a lone surrogate"
    return InvalidInput("invalid-json", f"{source} is not usable JSON ({detail}); send one JSON object")


def whole_numbers(value: Any) -> Any:
    """`value` with every float that is a whole number turned into that int (JSON Schema: 2.0 is an integer); freshly
    decoded JSON is changed in place."""
    if type(value) is float:
        return int(value) if value.is_integer() else value
    _whole_in(_containers(value))
    return value


def _whole_in(containers: list[dict | list]) -> None:
    for v in containers:
        for k, x in v.items() if type(v) is dict else enumerate(v):
            if type(x) is float and x.is_integer():
                v[k] = int(x)


def _is_json(content_type: bytes | None) -> bool:
    if not content_type:
        return False
    media = content_type.split(b";", 1)[0].strip().lower()
    return media == b"application/json" or (media.startswith(b"application/") and media.endswith(b"+json"))


class _HeadAnswered(Exception):
    """Raised out of a streaming GET that answers a HEAD, once its headers are sent: nothing more is wanted of it."""


class ProblemCORS(CORSMiddleware):
    """Starlette's CORS with its refused preflight answered as problem+json, as every other error is: 400
    `cors-refused`, naming what the server does not allow and how that is changed (a browser shows the page neither
    answer; its console names the status). Its headers are Starlette's."""

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "OPTIONS":
            headers = Headers(scope=scope)
            if "origin" in headers and "access-control-request-method" in headers:  # a preflight, as Starlette's test
                answer = self.preflight_response(request_headers=headers)
                if answer.status_code == 400:
                    answer = self._refused(answer, headers, scope["path"])
                return await answer(scope, receive, send)
        await super().__call__(scope, receive, send)

    def _refused(self, answer: Response, headers: Headers, path: str) -> Response:
        failures = bytes(answer.body).decode().removeprefix("Disallowed CORS ").split(", ")
        method = headers["access-control-request-method"]
        why = {
            "origin": f"the origin {headers['origin']!r} (allowed origins are set with `umpire serve --cors-origin` "
            "or UMPIRE_CORS_ORIGINS)",
            "method": f"the method {method!r} (the API's are {sorted(self.allow_methods)})",
            "headers": f"the headers {headers.get('access-control-request-headers')!r} (the API takes "
            f"{sorted(self.allow_headers)})",
            "private-network": "a request from a public page to a private network",
        }
        detail = "this server's CORS does not allow " + "; nor ".join(why[f] for f in failures if f in why)
        out = problem(400, "cors-refused", detail, path)
        for k, v in answer.headers.items():
            if k not in ("content-type", "content-length"):
                out.headers[k] = v
        return out


class InternalErrors:
    """With CORS, just inside its middleware: an unexpected exception answers its 500 problem here, so the answer
    carries the CORS headers a browser page needs to read it (Starlette sends its own 500 from outside every
    middleware: a page would see a network failure, like a CORS refusal). The exception goes on up, to be logged."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        started = False

        async def sending(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            if scope["type"] == "http" and not started:
                await internal_error()(scope, receive, send)
            raise


class HeadAsGet:
    """HEAD on every GET resource (RFC 9110 9.3.2): the status and headers the GET would answer, no body. A streamed
    answer (the event stream) is stopped once its headers are out, so a HEAD never holds a stream open."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "HEAD":
            return await self.app(scope, receive, send)
        ended = False

        async def headers_only(message):
            nonlocal ended
            if message["type"] != "http.response.body":
                return await send(message)
            if not ended:
                ended = True
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            if message.get("more_body", False):
                raise _HeadAnswered

        try:
            await self.app({**scope, "method": "GET"}, receive, headers_only)
        except* _HeadAnswered:  # a task group may wrap it
            pass


_BODIED = frozenset({"POST", "PUT"})  # the methods whose bodies the routes read (no route takes a PATCH: 405)


class Guards:
    """ASGI guards in front of the app: request bodies over the documented size get 413 (with or without a
    Content-Length), a body that is not JSON gets 415, one that does not arrive within the body timeout 408 (a POST's or
    PUT's: `_BODIED`), and a CORS preflight on a server without CORS gets an answer saying how to enable it
    (rather than a bare 405). The command path at the door (service.routes.games.LeanCommands) asks the same guards
    (`refusal`, `body`)."""

    def __init__(self, app, max_body: int, max_bundle_body: int, cors: bool, body_timeout: float = 30.0):
        self.app, self.max_body, self.max_bundle_body, self.cors = app, max_body, max_bundle_body, cors
        self.body_timeout = body_timeout

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        refused = self.refusal(scope)
        if refused is not None:
            return await refused(scope, receive, send)
        if scope["method"] not in _BODIED:
            return await self.app(scope, receive, send)
        try:
            await self.app(scope, self.limited(scope["path"], receive), send)
        except (_TooBig, _SlowBody) as e:
            await self.refused_body(e, scope["path"])(scope, receive, send)

    def _limit(self, path: str) -> int:
        return self.max_bundle_body if path == "/bundles/verify" else self.max_body

    def _too_big(self, path: str) -> Response:  # made only when needed: it costs as much as the rest of the guard
        limit = self._limit(path)
        return problem(413, "body-too-large", f"request bodies here are at most {limit} bytes", path, limit=limit)

    def refusal(self, scope) -> Response | None:
        """The answer to a request refused before its body is read (a preflight without CORS; a body whose declared
        size is over the limit, or that is not JSON), or None."""
        method, path = scope["method"], scope["path"]
        if method not in _BODIED and method != "OPTIONS":
            return None
        headers = dict(scope.get("headers") or [])
        if method == "OPTIONS":
            if self.cors or b"access-control-request-method" not in headers:
                return None
            return problem(
                403,
                "cors-disabled",
                "this server does not accept calls from browser pages of other origins; start it with "
                "`umpire serve --cors-origin https://your.app` (repeatable) or UMPIRE_CORS_ORIGINS=https://your.app",
                path,
            )
        declared = headers.get(b"content-length")
        # digits only, and few enough for int() (a 5,000-digit length is refused, not a 500)
        if declared is not None and (not declared.isdigit() or len(declared) > 18 or int(declared) > self._limit(path)):
            return self._too_big(path)
        content_type = headers.get(b"content-type")
        has_body = declared != b"0" and (declared is not None or b"transfer-encoding" in headers)
        if (
            (has_body or content_type is not None)
            and declared != b"0"
            and not _is_json(content_type)
            and path != "/mail"  # a mail's link page: a form's POST, or a one-click unsubscribe (body unread)
        ):
            return problem(
                415, "unsupported-media-type", "send the body as JSON with Content-Type: application/json", path
            )
        return None

    def limited(self, path: str, receive):
        """`receive` for a request's body within the guards: _TooBig past the limit, _SlowBody when the whole body has
        not arrived within the body timeout (however it trickles in)."""
        limit = self._limit(path)
        seen = 0
        complete = False
        allowed = self.body_timeout * (4 if path == "/bundles/verify" else 1)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + allowed if allowed > 0 else None

        async def limited():
            nonlocal seen, complete
            if complete or deadline is None:
                return await receive()
            msg = await _within(loop, deadline, receive(), allowed)
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    raise _TooBig()
                complete = not msg.get("more_body", False)
            return msg

        return limited

    async def body(self, path: str, receive) -> bytes | Response | None:
        """A request's whole body read within the guards, the problem that refuses it, or None: the client went away."""
        receiving, chunks = self.limited(path, receive), []
        try:
            while True:
                msg = await receiving()
                if msg["type"] == "http.disconnect":
                    return None
                chunks.append(msg.get("body", b""))
                if not msg.get("more_body", False):
                    return b"".join(chunks)
        except (_TooBig, _SlowBody) as e:
            return self.refused_body(e, path)

    def refused_body(self, e: Exception, path: str) -> Response:
        """The answer to a body `limited` refused."""
        if isinstance(e, _TooBig):
            return self._too_big(path)
        assert isinstance(e, _SlowBody)
        slow = problem(
            408, "request-timeout", f"the request's body did not arrive within {e.allowed:g} s; send it again", path
        )
        slow.headers["connection"] = "close"  # the rest of the body may still be on its way
        return slow


async def _within(loop: asyncio.AbstractEventLoop, deadline: float, receiving: Any, allowed: float) -> Any:
    """`await receiving` (what `receive()` gave), or _SlowBody at `deadline`. A coroutine's first step runs at once: a
    body in hand (almost every command's) is read without a timer, which costs more than the rest of the guards
    (docs/performance.md). Only if it waits is the timer set. Any other awaitable (granian's receive gives one) waits
    under asyncio.timeout_at from the start."""
    if not isinstance(receiving, types.CoroutineType):
        try:
            async with asyncio.timeout_at(deadline):
                return await receiving
        except TimeoutError:
            raise _SlowBody(allowed) from None
    try:
        waited = receiving.send(None)
    except StopIteration as done:
        return done.value
    return await _waiting(loop, deadline, receiving, waited, allowed)


@types.coroutine
def _waiting(loop: asyncio.AbstractEventLoop, deadline: float, receiving: Any, waited: Any, allowed: float) -> Any:
    """The rest of a coroutine that waits (on `waited`), under a timer as asyncio.timeout_at sets one: a cancellation
    of the task at `deadline`, told apart from any other, and undone whatever `receiving` makes of it."""
    task = asyncio.current_task()
    assert task is not None
    cancelling = task.cancelling()
    expired = False

    def expire() -> None:
        nonlocal expired
        expired = True
        task.cancel()

    timer = loop.call_at(deadline, expire)
    try:
        while True:  # hand the task what `receiving` waits on, as `await` would, until it is done
            try:
                yield waited
            except BaseException as e:  # noqa: BLE001 - thrown into the task (a cancellation): passed into `receiving`
                try:
                    waited = receiving.throw(e)
                except StopIteration as done:
                    got = done.value
                    break
                continue
            got = yield from receiving  # resumed: the rest as plain `await` does it
            break
    except asyncio.CancelledError:
        if expired and task.uncancel() <= cancelling:  # ours, not a cancellation from outside
            raise _SlowBody(allowed) from None
        raise
    finally:
        timer.cancel()
    if expired:  # `receiving` took our cancellation and answered anyway: undo it, as asyncio.timeout_at does
        task.uncancel()
    return got


class _TooBig(Exception):
    pass


class _SlowBody(Exception):
    def __init__(self, allowed: float):
        self.allowed = allowed


def internal_error() -> Response:
    return problem(
        500,
        "internal-error",
        "the server failed. A command may be sent again with the same command_id: it is applied at most once. "
        "Report it with the game's bundle.",
    )
