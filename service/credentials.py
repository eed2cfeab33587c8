"""Who holds what: seat tokens, invitations to open seats, token rotation and stream tickets (docs/api.md "Tokens
and readers").

The store keeps, per game, seat (or "referee") -> SHA-256 of its bearer token; a seat created open holds
"open:" + SHA-256 of its invitation instead, until a player accepts the invitation and receives a token nobody else
ever sees. Credentials are asked of the store on every authenticated request, so a rotated token stops working at
once, in every process (the SQLite store answers from memory until another connection commits:
events/store/sqlite.py). A ticket is a short-lived credential for the event stream (`EventSource` cannot send an
`Authorization` header): an expiry and an HMAC keyed by the stored hash of the token that asked for it, so it needs
no state of its own, any process checks it, and it dies with its token."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from domain.engine import REFEREE, Forbidden, Rejected

if TYPE_CHECKING:  # the store's module imports sqlite-utils (and numpy when present): `umpire simulate` needs neither
    from events.store import EventStore
    from events.store.rows import Begins

OPEN = "open:"
TICKET_SECONDS = 60  # a ticket opens a stream within this long; the stream then lives as long as its token


class NotFound(Rejected):
    status = 404


class Unauthorized(Rejected):
    status = 401


class TicketInUse(Rejected):
    status = 409


class ReaderConflict(Rejected):
    status = 400


class _Busy(Rejected):
    status = 503


def _busy() -> Rejected:
    return _Busy("busy", "the seats of this game kept changing; nothing was changed: send it again", retry_after=1)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def is_operator_token(sent: str | None, want: str) -> bool:
    """Whether a request's bearer token is the server's own `want` (UMPIRE_CREATE_TOKEN, UMPIRE_METRICS_TOKEN): by
    their hashes, in constant time, so how long the answer takes says nothing of how much of a guess was right."""
    if not sent:
        return False
    return hmac.compare_digest(token_hash(sent), token_hash(want))


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_invitation() -> str:
    return "inv-" + secrets.token_urlsafe(18)


def stored_for_new_game(
    seats: list[str], bots: list[str], open_seats: bool
) -> tuple[dict[str, str], dict[str, str], dict[str, str], str]:
    """The stored credentials of a new game; the tokens and invitations to hand out (once), and the referee token.
    A bot seat gets a token nobody holds (the server acts for it); an open seat an invitation instead of a token."""
    tokens = {s: new_token() for s in seats if not open_seats or s in bots}
    invitations = {s: new_invitation() for s in seats if open_seats and s not in bots}
    referee = new_token()
    stored = {s: token_hash(t) for s, t in tokens.items()}
    stored |= {s: OPEN + token_hash(code) for s, code in invitations.items()}
    stored[REFEREE] = token_hash(referee)
    handed = {s: t for s, t in tokens.items() if s not in bots}
    return stored, handed, invitations, referee


def is_open(stored: str) -> bool:
    return stored.startswith(OPEN)


class Credentials:
    """The one owner of a game's credentials in the store."""

    def __init__(self, store: EventStore, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock

    def _stored(self, game_id: str) -> dict[str, str]:
        stored = self.store.tokens(game_id) if isinstance(game_id, str) and len(game_id) <= 64 else None
        if stored is None:
            raise NotFound("unknown-game", f"no game {game_id!r} here; POST /games creates one")
        return stored

    def seat_for(self, game_id: str, token: str | None, stored: dict[str, str] | None = None) -> str:
        """The seat (or "referee") this token is, now (`stored`: the game's credentials, read already)."""
        if not token:
            raise Unauthorized("missing-token", "send Authorization: Bearer <token> (from POST /games or a join)")
        h = token_hash(token)
        for seat, hashed in (stored or self._stored(game_id)).items():
            if hmac.compare_digest(hashed, h):
                return seat
        raise Unauthorized("invalid-token", "this token belongs to no seat of this game (a rotated token is void)")

    def open_seats(self, game_id: str) -> list[str]:
        return sorted(s for s, v in self._stored(game_id).items() if is_open(v))

    def all_taken(self, game_id: str) -> None:
        """A game with a seat still open has not begun: its commands wait (409 `seats-open`), for the first would lock
        the dice before every player could add a client seed with their join (docs/dice.md)."""
        if waiting := self.open_seats(game_id):
            raise Rejected(
                "seats-open",
                f"the game begins when every seat is taken; {', '.join(waiting)} still to join (each with its "
                "invitation, POST /games/{id}/join): send this command then",
                open_seats=waiting,
            )

    def invited(self, game_id: str, invitation: str, stored: dict[str, str] | None = None) -> str:
        """The open seat this invitation is for (nothing is spent); 403 if no open seat of this game has it."""
        h = OPEN + token_hash(invitation)
        seat = next((s for s, v in (stored or self._stored(game_id)).items() if hmac.compare_digest(v, h)), None)
        if seat is None:
            raise Forbidden(
                "invalid-invitation",
                "no open seat of this game has this invitation: it was accepted already, or it is of another game",
            )
        return seat

    def join(
        self, game_id: str, invitation: str, begins: Callable[[], Begins] | None = None
    ) -> dict[str, Any]:
        """Accept an open seat's invitation: the seat's token, made now and shown only in this answer. Taking the last
        open seat also writes what `begins` gives (the store's `replace_tokens`), in the same transaction."""
        for _ in range(5):  # another seat's join may change the row between the read and the write
            stored = self._stored(game_id)
            seat = self.invited(game_id, invitation, stored)
            token = new_token()
            tokens = {**stored, seat: token_hash(token)}
            last = None if begins is None or any(is_open(v) for v in tokens.values()) else begins()
            if self.store.replace_tokens(game_id, stored, tokens, last):
                return {"game_id": game_id, "seat": seat, "token": token}
        raise _busy()

    def rotate(self, game_id: str, token: str | None) -> dict[str, Any]:
        """A new token for the token's own seat (or the referee); the old one is void from this answer on."""
        for _ in range(5):
            seat = self.seat_for(game_id, token)
            stored = self._stored(game_id)
            fresh = new_token()
            if self.store.replace_tokens(game_id, stored, {**stored, seat: token_hash(fresh)}):
                return {"game_id": game_id, "seat": seat, "token": fresh}
        raise _busy()

    # ---- stream tickets ----

    @staticmethod
    def _mac(stored: str, game_id: str, expires: int) -> str:
        msg = f"umpire-ticket\n{game_id}\n{expires}".encode()
        return hmac.new(stored.encode(), msg, hashlib.sha256).hexdigest()[:32]

    def ticket(self, game_id: str, token: str | None) -> dict[str, Any]:
        seat = self.seat_for(game_id, token)
        expires = int(self.clock()) + TICKET_SECONDS
        mac = self._mac(self._stored(game_id)[seat], game_id, expires)
        ticket = f"t1.{expires}.{mac}"
        return {
            "game_id": game_id,
            "reader": seat,
            "ticket": ticket,
            "expires_in": TICKET_SECONDS,
            "stream": f"/games/{game_id}/events/stream?ticket={ticket}",
        }

    def open_stream(self, game_id: str, ticket: str, token: str | None = None) -> tuple[str, Callable[[], None]]:
        """The reader a ticket stands for, its stream now the one open with it (until it closes, or the ticket's
        time is up): a second connection with a ticket in use is refused (409), in every process serving the store.
        With a bearer `token` too (a client that sends it on every request), the token is checked first (401), then
        the ticket (401), and they must stand for one reader (400 `reader-conflict`): each before the lease is taken,
        against one read of the game's credentials. Returns the reader and what closes the lease."""
        stored = self._stored(game_id)
        by_token = None if token is None else self.seat_for(game_id, token, stored)
        seat = self.ticket_reader(game_id, ticket, stored=stored)
        if by_token is not None and by_token != seat:
            raise ReaderConflict(
                "reader-conflict",
                "the Authorization token and the ticket stand for different readers of this game: send one of them "
                "(a ticket alone, as a browser's EventSource does, or your token alone)",
            )
        key = hashlib.sha256(f"{game_id}\n{ticket}".encode()).hexdigest()
        holder = secrets.token_hex(8)
        if not self.store.lease_ticket(key, holder, float(ticket.split(".")[1]) + 1, self.clock()):
            raise TicketInUse(
                "ticket-in-use",
                "a stream is open with this ticket already: one stream per ticket. Close that one (it frees the "
                "ticket), or ask POST /games/{id}/tickets for another",
            )
        return seat, lambda: self.store.release_ticket(key, holder)

    def ticket_reader(
        self, game_id: str, ticket: str, check_expiry: bool = True, stored: dict[str, str] | None = None
    ) -> str:
        """The reader a ticket stands for; 401 if it is not one, has expired, or its token was rotated since
        (`stored`: the game's credentials, read already)."""
        parts = ticket.split(".")
        if len(parts) != 3 or parts[0] != "t1" or not parts[1].isdigit() or len(parts[1]) > 12:
            raise Unauthorized("invalid-ticket", "a ticket is what POST /games/{id}/tickets answered, unchanged")
        expires = int(parts[1])
        for seat, hashed in (stored or self._stored(game_id)).items():
            if not is_open(hashed) and hmac.compare_digest(self._mac(hashed, game_id, expires), parts[2]):
                if check_expiry and expires < self.clock():
                    raise Unauthorized(
                        "expired-ticket", f"a ticket opens a stream within {TICKET_SECONDS} s: ask for a new one"
                    )
                return seat
        raise Unauthorized(
            "invalid-ticket", "this ticket is of no reader of this game (its token may have been rotated): ask anew"
        )
