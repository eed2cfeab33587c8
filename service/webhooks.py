"""Webhooks per reader (issue 33): registrations, the outbox, the dispatcher, and the guard against server-side request
forgery. docs/api.md "Notifications" and docs/operations.md "Webhooks" describe them for users.

- A seat (or the referee) registers one target per game (`PUT /games/{id}/notifications`); the answer carries a
  Standard Webhooks signing secret. Registrations and the outbox are operational tables of the store, never events.
- The write path (service/games.py `_submit`) asks `Webhooks.notifications` for what a command causes, only for a
  game with registrations (the store keeps that fact per game); the rows go into the append's own transaction.
- `Dispatcher` threads claim due rows (a lease; SKIP LOCKED on PostgreSQL), deliver them signed, and settle them:
  delivered, retried with exponential backoff, or given up. A dead or slow endpoint costs a dispatcher thread its
  timeout, never a command.
- Every target is checked at registration and again at each delivery after DNS resolution, and the connection goes
  to the address checked (no rebinding between the check and the connect).
"""

from __future__ import annotations

import base64
import http.client
import ipaddress
import json
import logging
import re
import secrets
import socket
import ssl
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from standardwebhooks import Webhook

from domain import engine
from domain.engine import Rejected
from events.core import DeadlineExpired, DeadlineRule, DeadlinesChanged
from events.store import EventStore, HookRow, OutboxRow, StoreUnavailable
from events.vocabulary import Event
from service import mail
from service.http import _encode
from service.logs import STORAGE_LOG
from service.mail import Mailer
from service.metrics import DELIVERIES
from service.ratelimit import PerWindow

log = logging.getLogger("umpire.webhooks")

MAX_URL = 2048
ANSWER_CAP = 64 * 1024  # bytes of an answer read (and ignored) before the connection is dropped
TIMEOUT = 10.0  # seconds to connect, and between bytes of the answer
ROTATION_OVERLAP = 24 * 3600.0  # seconds the old secret still signs after a rotation
MAX_ATTEMPTS = 20  # with BACKOFF_BASE 10 s and a 1 h cap: about 14 hours of retries
# dropped undelivered once their turn is taken (Dispatcher.deliver)
TURN_NOTICES = ("your-turn", "deadline-warning", "deadline-changed")
BACKOFF_CAP = 3600.0


class Refused(Rejected):
    status = 422


def _refuse(detail: str) -> Refused:
    return Refused("webhook-refused", detail)


# ---- server-side request forgery ----


# a host name as resolvers take it: labels of letters (any script), digits, hyphens and underscores (a Docker Compose
# service's `hook_receiver`), a final dot allowed; one whose last label is all digits is an address typo (10.0.0.256)
HOST_NAME = re.compile(r"([^\W]|-)+(\.([^\W]|-)+)*\.?")


class Allow:
    """UMPIRE_WEBHOOK_ALLOW: comma-separated host names and addresses or CIDR ranges the operator lets webhooks
    reach although they are private, loopback or otherwise refused."""

    def __init__(self, spec: str = ""):
        """ValueError for an item that is neither a host name, an address nor a CIDR range (a typo would otherwise
        allow nothing, silently)."""
        self.hosts: set[str] = set()
        self.nets: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for item in (x.strip() for x in spec.split(",")):
            if not item:
                continue
            try:
                self.nets.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                if not HOST_NAME.fullmatch(item) or item.rstrip(".").rsplit(".", 1)[-1].isdigit():
                    raise ValueError(f"{item!r} is neither a host name, an address nor a CIDR range") from None
                self.hosts.add(item.lower().rstrip("."))

    def host(self, name: str) -> bool:
        return name.lower().rstrip(".") in self.hosts

    def address(self, ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        return any(ip in net for net in self.nets)


def why_forbidden(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """Why an address is no webhook target (None: it may be one)."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return why_forbidden(ip.ipv4_mapped)
    if isinstance(ip, ipaddress.IPv6Address) and ip.sixtofour is not None:  # 2002::/16 carries an IPv4 host
        inner = why_forbidden(ip.sixtofour)
        return None if inner is None else f"a 6to4 address of {inner}"
    if ip == ipaddress.ip_address("169.254.169.254") or ip == ipaddress.ip_address("fd00:ec2::254"):
        return "a cloud metadata address"
    for name, flag in (
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("unspecified", ip.is_unspecified),
        ("multicast", ip.is_multicast),
        ("reserved", ip.is_reserved),
        ("private", ip.is_private),
        ("not globally routable", not ip.is_global),
    ):
        if flag:
            return f"a {name} address"
    return None


def parse_target(url: Any) -> tuple[str, str, int, str]:
    """(scheme, host, port, path-with-query) of a webhook URL, or Refused saying what is wrong."""
    if not isinstance(url, str) or not url or len(url) > MAX_URL:
        raise _refuse(f"url is an http(s) URL of at most {MAX_URL} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as e:
        raise _refuse(f"url {url!r} is not a URL: {e}") from None
    if parts.scheme not in ("http", "https"):
        raise _refuse(
            f"only http and https targets are allowed, or mailto: an address, not {parts.scheme or 'no scheme'!r}"
        )
    if not parts.hostname:
        raise _refuse("url has no host")
    if parts.username or parts.password:
        raise _refuse("url carries credentials; put a secret in the path or verify the signature instead")
    port = port or (443 if parts.scheme == "https" else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port, path


def _not_public(host: str, why: str) -> Refused:
    """The one refusal of a host for where it points, the same words whatever it resolved to (or that it resolved to
    nothing): an answer naming the address, or the kind of address, or that the name does not resolve, would let
    anyone holding a seat's token (anyone: anyone may create a game) ask the server how it resolves internal names.
    The operator reads what it was in the server's log (`why`)."""
    log.info("webhook target host %r refused: %s", host, why)
    return _refuse(
        f"host {host!r} does not resolve to public addresses only: webhooks reach a host whose every address is "
        "public (not loopback, private, link-local, cloud metadata, multicast, reserved or otherwise not globally "
        "routable). Check the name, or ask the operator to allow it (UMPIRE_WEBHOOK_ALLOW)"
    )


def resolve(host: str, port: int, allow: Allow) -> str:
    """The address to connect to for `host`: every address it resolves to must be allowed (a name with one private
    address among public ones is refused), and the first is used. A refusal does not say what the name resolved to
    (`_not_public`)."""
    try:
        literal = ipaddress.ip_address(host)
        addresses = [literal]
    except ValueError:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError, ValueError) as e:  # UnicodeError: a name IDNA cannot encode
            raise _not_public(host, f"it does not resolve: {e}") from None
        addresses = [ipaddress.ip_address(str(i[4][0]).split("%")[0]) for i in infos]
        if not addresses:
            raise _not_public(host, "it resolves to no address")
    if allow.host(host):
        return str(addresses[0])
    for ip in addresses:
        why = why_forbidden(ip)
        if why is not None and not allow.address(ip):
            raise _not_public(host, f"it resolves to {ip}, {why} (UMPIRE_WEBHOOK_ALLOW may allow it)")
    return str(addresses[0])


def check_target(url: Any, allow: Allow) -> str:
    scheme, host, port, _ = parse_target(url)
    resolve(host, port, allow)
    return str(url)


# ---- delivery ----


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to an address already checked, with the host name for SNI and the certificate."""

    def __init__(self, ip: str, port: int, hostname: str, timeout: float):
        super().__init__(ip, port, timeout=timeout, context=ssl.create_default_context())
        self._hostname = hostname

    def connect(self) -> None:
        sock = socket.create_connection((self.host, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self._hostname)  # type: ignore[attr-defined]


def post(url: str, body: bytes, headers: dict[str, str], allow: Allow, timeout: float = TIMEOUT) -> int:
    """POST once, to the address checked now; the status (redirects are not followed: a 3xx is a failure). The
    answer is read up to ANSWER_CAP bytes and ignored."""
    scheme, host, port, path = parse_target(url)
    ip = resolve(host, port, allow)
    if ":" in ip:  # IPv6: bracketed, or http.client would read its last group as the port
        ip = f"[{ip}]"
    conn: http.client.HTTPConnection
    if scheme == "https":
        conn = _PinnedHTTPS(ip, port, host, timeout)
    else:
        conn = http.client.HTTPConnection(ip, port, timeout=timeout)
    try:
        default_port = 443 if scheme == "https" else 80
        host_header = host if port == default_port else f"{host}:{port}"
        if ":" in host and not host.startswith("["):
            host_header = f"[{host}]" if port == default_port else f"[{host}]:{port}"
        conn.request("POST", path, body=body, headers={**headers, "Host": host_header})
        resp = conn.getresponse()
        resp.read(ANSWER_CAP)
        return resp.status
    finally:
        conn.close()


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def signature(hook: HookRow, msg_id: str, at: datetime, body: str, now: float) -> str:
    """`webhook-signature`: the current secret's, and during a rotation's overlap the old one's too (space-separated,
    as Standard Webhooks allows), so a receiver still holding the old secret verifies either way."""
    sigs = [Webhook(hook.secret).sign(msg_id, at, body)]
    if hook.old_secret and hook.old_until is not None and now < hook.old_until:
        sigs.append(Webhook(hook.old_secret).sign(msg_id, at, body))
    return " ".join(sigs)


def backoff(attempts: int, base: float) -> float:
    """Seconds before attempt `attempts + 1`: base, 2 base, 4 base, ... capped at BACKOFF_CAP."""
    return float(min(BACKOFF_CAP, base * 2 ** max(0, attempts - 1)))


# ---- what a command causes ----


def iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def payload(
    kind: str,
    game: engine.Game,
    reader: str,
    since_version: int,
    now: float,
    deadline: str | None,
    expired: DeadlineExpired | None = None,
    changed: DeadlinesChanged | None = None,
) -> str:
    """The body of a notification: only what `reader` may read (its own `awaiting`, as its own read shows it);
    `expired`: the turn that ran out (a `deadline-expired`: its seat, and what acted for it, as its public event
    says); `changed`: the referee's change of the clock (a `deadline-changed`: the clock as the summary says it)."""
    data: dict[str, Any] = {
        "game_id": game.game_id,
        "ruleset": game.created.ruleset.id,
        "seat": reader,
        "version": game.version,
        "awaiting": [engine.entry(s) for s in engine.awaiting(game, reader)],
        "deadline_at": deadline,
        "since": f"/games/{game.game_id}/since?version={since_version}",
    }
    if expired is not None:
        data["expired"], data["action"] = expired.seat, expired.action
    if changed is not None:
        rule = changed.rule
        data["deadlines"] = {"turn_seconds": rule.turn_seconds, "on_expiry": rule.on_expiry, "paused": changed.paused}
        data["extended"] = changed.extend.get(reader, 0)
    if kind == "game-over":
        data["ended"] = game.ended  # the reason its public GameEnded event gives
    return _encode({"type": kind, "timestamp": iso(now), "data": data}).decode()  # as the seat's own read encodes it


def outbox_row(game_id: str, reader: str, kind: str, body: str, now: float, msg_id: str | None = None) -> OutboxRow:
    return OutboxRow(
        id=msg_id or "msg_" + uuid.uuid4().hex,
        game=game_id,
        reader=reader,
        kind=kind,
        payload=body,
        created=now,
        due=now,
    )


class Seen(NamedTuple):
    """What a command's notifications are judged against: the game before it."""

    hooks: dict[str, int]  # registered reader -> the version of its last notice
    awaited: frozenset[str]
    clock: tuple[DeadlineRule | None, bool]  # the turn clock's rule and whether it was paused


class Webhooks:
    """Registrations (the routes' service) and what the write path asks: the notifications a command causes."""

    def __init__(
        self, store: EventStore, allow: Allow, clock: Callable[[], float] = time.time, mailer: Mailer | None = None
    ):
        self.store = store
        self.allow = allow
        self.clock = clock
        self.mailer = mailer  # None: this server sends no e-mail (no UMPIRE_SMTP)
        # confirmation codes per client, in this process (the store counts per address and per seat)
        self.codes = PerWindow(mail.MAX_PER_CLIENT, "confirmation codes", window=mail.PENDING_WINDOW)
        self.pings = PerWindow(1, "pings of one mailbox", window=mail.PING_EVERY)  # keyed by mailbox, in this process
        self.wake: Callable[[], None] = lambda: None  # the dispatcher's, once it runs
        # a seat's end of turn (service/deadlines.py `Clocks.deadline_at`, set by the service), for your-turn
        self.deadline_at: Callable[[engine.Game, str], str | None] = lambda game, seat: None
        # whether a game's clock runs (all its seats taken), set by the service likewise
        self.clock_runs: Callable[[str], bool] = lambda game_id: False
        self._kept: dict[str, tuple[int, frozenset[str]]] = {}  # game -> (version, its awaited seats)

    # the write path: cheap when the game has no registrations (one dict lookup, kept by the store)
    def before(self, game_id: str, game: engine.Game) -> Seen | None:
        """What to remember before a command is applied: None for a game without registrations."""
        hooks = self.store.hooks(game_id)
        if not hooks:
            return None
        return Seen(hooks, self._awaited(game), (game.deadlines, game.deadlines_paused))

    def _awaited(self, game: engine.Game) -> frozenset[str]:
        """`awaited_seats`, kept per game for its version: a command's "after" is the next one's "before"."""
        kept = self._kept.get(game.game_id)
        if kept is not None and kept[0] == game.version:
            return kept[1]
        seats = frozenset(engine.awaited_seats(game))
        if len(self._kept) >= 4096:
            self._kept.clear()
        self._kept[game.game_id] = (game.version, seats)
        return seats

    def forget(self, game_id: str) -> None:
        """The cached state was read again (its version may now name other events): what was kept is not kept."""
        self._kept.pop(game_id, None)

    def notifications(
        self,
        game: engine.Game,
        seen: Seen,
        was_over: bool,
        events: Sequence[Event] = (),
    ) -> list[OutboxRow]:
        """After the command's `events` were applied to `game`: a `your-turn` for each registered seat that has just
        become awaited, a `game-over` for every registered reader when the game just ended, where a seat's turn
        ran out (`DeadlineExpired`) a `deadline-expired` to that seat and to the referee, unless the game ended, and
        where the referee changed the clock (`DeadlinesChanged`) a `deadline-changed` to each awaited seat whose
        running turn it changed: every one for a new rule, a pause or its end, else those given more time."""
        hooks, awaited_before = seen.hooks, seen.awaited
        out: list[OutboxRow] = []
        changed = next((e for e in events if isinstance(e, DeadlinesChanged)), None)
        if changed is not None and self.clock_runs(game.game_id):  # before the last seat is taken no turn runs
            now = self.clock()
            every = (changed.rule, changed.paused) != seen.clock
            for seat in sorted(self._awaited(game)):
                if seat in hooks and (every or seat in changed.extend):
                    end = self.deadline_at(game, seat)
                    body = payload("deadline-changed", game, seat, hooks[seat], now, end, changed=changed)
                    out.append(outbox_row(game.game_id, seat, "deadline-changed", body, now))
        expired = next((e for e in events if isinstance(e, DeadlineExpired)), None)
        if expired is not None and not game.over:  # an expiry that ends the game (a forfeit): its game-over says it
            now = self.clock()
            for reader in (expired.seat, engine.REFEREE):
                if reader in hooks:
                    end = None if reader == engine.REFEREE else self.deadline_at(game, reader)
                    body = payload("deadline-expired", game, reader, hooks[reader], now, end, expired)
                    out.append(outbox_row(game.game_id, reader, "deadline-expired", body, now))
        if game.over and not was_over:
            now = self.clock()
            for reader, last in hooks.items():
                body = payload("game-over", game, reader, last, now, None)
                out.append(outbox_row(game.game_id, reader, "game-over", body, now))
            return out
        for seat in self._awaited(game) - awaited_before:
            if seat in hooks:
                now = self.clock()
                body = payload("your-turn", game, seat, hooks[seat], now, self.deadline_at(game, seat))
                out.append(outbox_row(game.game_id, seat, "your-turn", body, now))
        return out

    def enqueue(self, game_id: str, reader: str, kind: str, body: dict[str, Any]) -> OutboxRow | None:
        """A notification with no append and no game state (a ping): queued if `reader` has a target."""
        if reader not in self.store.hooks(game_id):
            return None
        now = self.clock()
        row = outbox_row(game_id, reader, kind, _encode({"type": kind, "timestamp": iso(now), "data": body}).decode(), now)
        self.store.enqueue(row)
        self.wake()
        return row

    def row(
        self, game: engine.Game, reader: str, kind: str, since_version: int, end: float | None, msg_id: str
    ) -> OutboxRow:
        """A notification no append causes (a deadline-warning; a your-turn when the last seat is taken, written with
        the join), queued once under `msg_id` however many processes send it; `end`: the reader's end of turn."""
        now = self.clock()
        body = payload(kind, game, reader, since_version, now, None if end is None else iso(end))
        return outbox_row(game.game_id, reader, kind, body, now, msg_id)

    def notify(
        self, game: engine.Game, reader: str, kind: str, since_version: int, end: float | None, msg_id: str
    ) -> None:
        """`row`'s notification, queued now."""
        self.store.enqueue(self.row(game, reader, kind, since_version, end, msg_id))
        self.wake()

    # the routes
    def put(self, game_id: str, reader: str, body: Any, client: str = "?") -> dict[str, Any]:
        if not isinstance(body, dict) or set(body) - {"url"} or "url" not in body:
            raise _refuse('send {"url": "https://…"} or {"url": "mailto:…"}: the one target of this reader')
        if isinstance(body["url"], str):
            try:
                address = mail.address_of(body["url"])
            except ValueError as e:
                raise _refuse(str(e)) from None
            if address is not None:
                return self._put_address(game_id, reader, address, client)
        url = check_target(body["url"], self.allow)
        secret = new_secret()
        now = self.clock()
        self.store.put_hook(HookRow(game_id, reader, url, secret, None, None, 0, iso(now)))
        return {"url": url, "secret": secret, "reader": reader, "confirmed": True}

    def _put_address(self, game_id: str, reader: str, address: str, client: str) -> dict[str, Any]:
        """An e-mail target: pending until the code mailed to it comes back (`confirm`). The same address again
        within RESEND_AFTER mails nothing more. A code is refused to a mailbox mailed MAX_PENDING codes it has not
        answered within the window (in any game), to a seat that queued MAX_PER_READER, and to a client that queued
        MAX_PER_CLIENT: a seat's token (anyone's) cannot make the server mail strangers."""
        if self.mailer is None:
            raise _refuse(
                "this server sends no e-mail (its operator has not set UMPIRE_SMTP): register an https URL instead"
            )
        url, now = mail.MAILTO + address, self.clock()
        answer = {"url": url, "secret": None, "reader": reader, "confirmed": False}
        old = self.store.hook(game_id, reader)
        if old is not None and old.url.lower() == url.lower():
            if not old.pending:
                return {**answer, "url": old.url, "confirmed": True}  # confirmed already: nothing to mail
            recent = old.created_at >= iso(now - mail.RESEND_AFTER)
            if recent and self._code_status(game_id, reader) != "failed":
                return {**answer, "url": old.url}  # its code was mailed moments ago (or is on its way)
        client = mail.client_key(client)
        self.codes.take(client)
        # the mailbox's key, the same in every game: its codes are counted by it, and each is sent only to it
        confirm = _encode({"type": "confirm", "mailbox": mail.mailbox(address)}).decode()
        hook = HookRow(game_id, reader, url, mail.new_code(), None, None, 0, iso(now), pending=True)
        code = outbox_row(game_id, reader, "confirm", confirm, now)
        refused = self.store.put_address(hook, code, now - mail.PENDING_WINDOW, mail.MAX_PENDING, mail.MAX_PER_READER)
        if refused is not None:
            self.codes.give_back(client)  # nothing was queued
            raise _refuse(
                f"{address} was sent {mail.MAX_PENDING} confirmation codes in the last hour that it has not confirmed"
                " (in any game): confirm those (each game and seat has its own code: POST …/notifications/confirm), "
                "or register it again later"
                if refused == "mailbox"
                else f"this seat asked for {mail.MAX_PER_READER} confirmation codes in the last hour: register an "
                "address again later"
            )
        self.wake()
        return answer

    def confirm(self, game_id: str, reader: str, code: Any) -> dict[str, Any]:
        """The code mailed to the reader's address came back: notifications are mailed to it from now on (again:
        the same answer; a code that is not the registration's is refused either way)."""
        hook = self._hook(game_id, reader)
        address = mail.stored(hook.url)
        if address is None:
            raise _refuse("this reader's target is a webhook: it has nothing to confirm")
        if not isinstance(code, str) or not secrets.compare_digest(code.encode(), hook.secret.encode()):
            failed = self._code_status(game_id, reader) == "failed"
            raise ConfirmRefused(
                "confirmation-refused",
                f"the mail with this seat's code could not be delivered to {address} (GET …/notifications says "
                "why): check the address and PUT it again"
                if failed
                else f"that is not the code last mailed to {address} for this game and seat (each has its own); copy "
                "it from the newest confirmation mail, or PUT the address again for a new one after 20 minutes",
            )
        if hook.pending:
            self.store.confirm_hook(game_id, reader, hook.secret)
        return self.get(game_id, reader)

    def _confirmed(self, game_id: str, reader: str) -> bool:
        hook = self.store.hook(game_id, reader)
        return hook is not None and not hook.pending

    def _code_status(self, game_id: str, reader: str) -> str | None:
        """How the delivery of the reader's newest code went (pending, delivered, failed), or None."""
        return next((r.status for r in self.store.deliveries(game_id, reader) if r.kind == "confirm"), None)

    def peek(self, game_id: str, reader: str, code: str) -> str | None:
        """The address a mail's link is for, when its code is still the registration's (the page names it)."""
        hook = self.store.hook(game_id, reader)
        address = None if hook is None else mail.stored(hook.url)
        if hook is None or address is None:
            return None
        return address if secrets.compare_digest(code.encode(), hook.secret.encode()) else None

    def by_link(self, game_id: str, reader: str, code: str, action: str) -> str | None:
        """A mail's link (no token: its code is the key): `confirm` the address, or `stop` its mails; the address,
        or None when the link is not (or no longer) good: its code was replaced, its target removed, or it never
        was one."""
        address = self.peek(game_id, reader, code)
        if address is None:
            return None
        if action == "confirm":  # only while `code` is still the registration's (a PUT since then replaced it)
            confirmed = self.store.confirm_hook(game_id, reader, code) or self._confirmed(game_id, reader)
            return address if confirmed else None
        return address if self.store.delete_hook(game_id, reader, code) else None

    def get(self, game_id: str, reader: str) -> dict[str, Any]:
        hook = self._hook(game_id, reader)
        return {
            "url": hook.url,
            "reader": reader,
            "confirmed": not hook.pending,
            "created_at": hook.created_at,
            "rotation_overlap_until": iso(hook.old_until) if hook.old_secret and hook.old_until else None,
            "deliveries": [
                {
                    "id": r.id,
                    "kind": r.kind,
                    "status": r.status,
                    "attempts": r.attempts,
                    "last_outcome": r.outcome,
                    "last_attempt_at": iso(r.last_at) if r.last_at else None,
                    "created_at": iso(r.created),
                }
                for r in self.store.deliveries(game_id, reader)
            ],
        }

    def delete(self, game_id: str, reader: str) -> None:
        if not self.store.delete_hook(game_id, reader):
            raise _no_hook(reader)

    def rotate(self, game_id: str, reader: str) -> dict[str, Any]:
        if mail.stored(self._hook(game_id, reader).url) is not None:
            raise _refuse("this reader's target is an e-mail address: nothing is signed, so there is no secret")
        secret = new_secret()
        until = self.clock() + ROTATION_OVERLAP
        if not self.store.rotate_hook(game_id, reader, secret, until):
            raise _no_hook(reader)
        return {"secret": secret, "old_secret_signs_until": iso(until)}

    def test(self, game_id: str, reader: str) -> dict[str, Any]:
        hook = self._hook(game_id, reader)
        address = mail.stored(hook.url)
        if hook.pending:
            raise _refuse("confirm the address first: POST …/notifications/confirm with the code mailed to it")
        if address is not None:
            if self.mailer is None:
                raise _refuse("this server sends no e-mail now (its operator has not set UMPIRE_SMTP): mails wait")
            self.pings.take(mail.mailbox(address))  # a mailbox is a person's: a ping in PING_EVERY, whichever games ask
        row = self.enqueue(game_id, reader, "ping", {"game_id": game_id, "seat": reader})
        assert row is not None
        return {"id": row.id}

    def _hook(self, game_id: str, reader: str) -> HookRow:
        hook = self.store.hook(game_id, reader)
        if hook is None:
            raise _no_hook(reader)
        return hook


class ConfirmRefused(Rejected):
    status = 422


def _no_hook(reader: str) -> Rejected:
    from service.credentials import NotFound

    return NotFound(
        "no-notifications",
        f"{reader} has no notification target here; PUT /games/{{id}}/notifications registers one (a webhook URL or "
        "mailto: an address)",
    )


class Dispatcher:
    """Background delivery: a claiming thread and a bounded pool of senders. `wake()` after an enqueue in this
    process; other processes' rows and retries are found by polling every `poll` seconds."""

    def __init__(
        self,
        store: EventStore,
        allow: Allow,
        backoff_base: float = 10.0,
        poll: float = 1.0,
        concurrency: int = 8,
        lease: float = 60.0,
        clock: Callable[[], float] = time.time,
        mailer: Mailer | None = None,
        keep_days: int = 30,
    ):
        """`lease`: seconds a claimed notification stays this process's (a crashed process's are taken again after
        it); an attempt's timeout is at most a third of it, so a live process always settles before its lease ends.
        `keep_days`: settled notifications are deleted that long after they settled (0: kept)."""
        self.store, self.allow, self.base, self.poll = store, allow, backoff_base, poll
        self.keep_days, self._next_prune = keep_days, 0.0
        self.lease, self.timeout = lease, min(TIMEOUT, lease / 3)
        self.concurrency = concurrency
        self.clock = clock
        self.mailer = mailer
        self._event = threading.Event()
        self._stop = threading.Event()
        self._free = threading.Semaphore(concurrency)
        self._pool: ThreadPoolExecutor | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is not None:
            return
        self._pool = ThreadPoolExecutor(self.concurrency, thread_name_prefix="webhook")
        self._thread = threading.Thread(target=self._run, name="webhook-dispatcher", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._event.set()

    def stop(self) -> None:
        self._stop.set()
        self._event.set()
        if self._thread is not None:
            self._thread.join(timeout=self.timeout + 5)
            self._thread = None
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)  # a leased row not sent is taken again on lease end
            self._pool = None

    PRUNE_EVERY = 3600.0  # seconds between a process's prunes of the outbox

    def prune(self) -> int:
        """Delete a batch of the settled notifications older than `keep_days`; how many. Looks once an hour, and
        again at the next turn of the loop while batches come back full, so a long backlog (the first prune after an
        upgrade) goes in short transactions between deliveries, never holding them up for long."""
        now = self.clock()
        if not self.keep_days or now < self._next_prune:
            return 0
        n = self.store.prune_outbox(now - self.keep_days * 86400)
        self._next_prune = now if n >= self.store.PRUNE_BATCH else now + self.PRUNE_EVERY
        if n:
            log.info("webhook outbox: %d settled notifications older than %d days deleted", n, self.keep_days)
        return n

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.prune()
                n = self.run_once()
            except StoreUnavailable as e:  # the store away or unable to write: one line now and then, no traceback
                STORAGE_LOG.warn(f"dispatcher-{type(e).__name__}", f"webhook dispatcher: the store cannot take its claim: {e}")
                n = 0
            except Exception:  # noqa: BLE001 - anything else: said, and tried again at the next poll
                log.exception("webhook dispatcher: claiming failed")
                n = 0
            if not n:
                self._event.wait(self.poll)
                self._event.clear()

    def run_once(self) -> int:
        """Claim what is due (as many as there are free senders) and hand each to a sender; how many."""
        free = 0
        while self._free.acquire(blocking=False):
            free += 1
        if not free:
            if not self._free.acquire(timeout=self.poll):  # every sender busy: wait for one rather than spin
                return 0
            free = 1
        try:
            rows = self.store.claim(self.clock(), self.lease, free)
        except BaseException:
            for _ in range(free):  # the senders taken for this claim are free again
                self._free.release()
            raise
        for _ in range(free - len(rows)):
            self._free.release()
        for row in rows:
            assert self._pool is not None
            self._pool.submit(self._send, row)
        return len(rows)

    def _send(self, row: OutboxRow) -> None:
        try:
            self.deliver(row)
        except StoreUnavailable as e:  # its outcome not written: taken again when the lease runs out
            STORAGE_LOG.warn(f"delivery-{type(e).__name__}", f"webhook {row.id}: its outcome was not stored: {e}")
        except Exception:  # noqa: BLE001 - settled on the next claim once the lease runs out
            log.exception("webhook %s: delivery failed", row.id)
        finally:
            self._free.release()

    def deliver(self, row: OutboxRow) -> None:
        """One attempt (`row.attempts` counts it already) and its outcome in the store. A turn's notice that waited
        (a receiver or mail server away) is dropped once the game moved past it: a mail saying "your turn: fire" for
        a salvo fired an hour ago misleads a player, who cannot sort by version as a receiver does."""
        hook = self.store.hook(row.game, row.reader)
        now = self.clock()
        if hook is None:
            self.store.settle(row.id, "dropped", "no registration", now, None)
            return
        if row.kind in TURN_NOTICES:
            moved = self.store.moved_on(row.game, row.reader, json.loads(row.payload)["data"]["version"])
            if moved is not None:
                self.store.settle(row.id, "dropped", f"out of date: {moved}", now, None)
                return
        address = mail.stored(hook.url)
        if address is None and row.kind == "confirm":  # an address's code, its target since replaced by a webhook
            self.store.settle(row.id, "dropped", "the target changed", now, None)
            return
        if address is not None:
            self._mail(row, hook, address)
            return
        at = datetime.fromtimestamp(int(now), UTC)
        headers = {
            "content-type": "application/json",
            "user-agent": "naval-umpire-webhooks",
            "webhook-id": row.id,
            "webhook-timestamp": str(int(now)),
            "webhook-signature": signature(hook, row.id, at, row.payload, now),
        }
        try:
            status = post(hook.url, row.payload.encode(), headers, self.allow, self.timeout)
            outcome = str(status)
            ok = 200 <= status < 300
        except Refused as e:
            outcome, ok = f"refused: {e.detail}", False
        except Exception as e:  # noqa: BLE001 - any failure to deliver is an attempt that failed, retried
            outcome, ok = f"error: {type(e).__name__}: {e}"[:300], False
        self._settle(row, ok, outcome)

    def _mail(self, row: OutboxRow, hook: HookRow, address: str) -> None:
        """One attempt to mail `row` to its reader's address: its confirmation, or (once confirmed) a notification.
        Dropped: a code for an earlier address, a code once confirmed, a notification while still pending; retried
        while the server runs without a mailer."""
        dropped = None
        if row.kind == "confirm" and json.loads(row.payload).get("mailbox") != mail.mailbox(address):
            dropped = "the target changed"  # a code for an address this reader registered before this one
        elif row.kind == "confirm" and not hook.pending:
            dropped = "confirmed already"
        elif row.kind != "confirm" and hook.pending:
            dropped = "the address is not confirmed"
        if dropped is not None:
            self.store.settle(row.id, "dropped", dropped, self.clock(), None)
            return
        if self.mailer is None:  # the server restarted without UMPIRE_SMTP: kept and retried, never lost
            self._settle(row, False, "this server sends no e-mail now (UMPIRE_SMTP is not set); retried")
            return
        if row.kind == "confirm":
            msg = self.mailer.confirmation(address, row.game, row.reader, hook.secret)
        else:
            msg = self.mailer.notification(address, row.game, row.reader, hook.secret, row.kind, row.payload)
        final = False
        try:
            outcome, ok = self.mailer.send(msg, self.timeout), True
        except Exception as e:  # noqa: BLE001 - any failure to send is an attempt that failed
            outcome, ok = mail.outcome(e), False
            # the operator's to mend (the mail server, UMPIRE_SMTP), not the player's: said in the server's log
            said = re.sub(re.escape(address), "<the address>", outcome, flags=re.IGNORECASE)  # a log keeps no address
            log.warning("e-mail %s (%s of %s, %s) not sent: %s", row.id, row.kind, row.game, row.reader, said)
            final = mail.permanent(e)
        self._settle(row, ok, outcome, final)

    def _settle(self, row: OutboxRow, ok: bool, outcome: str, final: bool = False) -> None:
        """The attempt's outcome in the store: delivered, retried with backoff, or given up (`final`: no retry would
        change it; else after MAX_ATTEMPTS)."""
        now = self.clock()
        if ok:
            self.store.settle(row.id, "delivered", outcome, now, None)
            DELIVERIES.labels("delivered").inc()
        elif final or row.attempts >= MAX_ATTEMPTS:
            self.store.settle(row.id, "failed", outcome, now, None)
            DELIVERIES.labels("failed").inc()
        else:
            self.store.settle(row.id, "pending", outcome, now, now + backoff(row.attempts, self.base))
            DELIVERIES.labels("retried").inc()
            self._event.set()  # the claimer computes nothing: it finds the row when due (at its next poll)

