"""E-mail targets of notifications: a reader registers `mailto:` as its target (docs/api.md "Notifications") and the
dispatcher (service/webhooks.py) sends each notification as a plain-text mail through the operator's SMTP server.

- An address is checked before anything is sent, and stored as checked: one plain address (letters, digits and
  `. _ ' + -` in its name, a public host name), no display name, no line break, no second decoding (a header or a
  recipient could come in through any of them), at most 254 characters.
- It gets one mail at first, the confirmation: its code, and with `UMPIRE_PUBLIC_URL` a link to confirm. Until the
  code comes back nothing else is sent to it, so a seat's token (anyone may create a game) cannot make the server
  mail a stranger more than its codes, and those are few: MAX_PENDING an hour to a mailbox (counted by `mailbox`, in
  every game together, in the store's transaction: events/store/sql.py `put_address`), MAX_PER_READER a seat,
  MAX_PER_CLIENT a client (service/webhooks.py `Webhooks`).
- Every notification mail says how to stop them: with `UMPIRE_PUBLIC_URL` a link (and the `List-Unsubscribe` headers
  a mail client's one-click button uses, RFC 8058); else the API call.
- The body says only what the notification's JSON says, and that is only what the seat may read (service/webhooks.py
  `payload`).
"""

from __future__ import annotations

import email.policy
import ipaddress
import json
import re
import secrets
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any
from urllib.parse import unquote, urlencode, urlsplit

from events.store.rows import redacted

MAILTO = "mailto:"
MAX_ADDRESS = 254  # RFC 5321's limit on a path, less its brackets
MAX_PENDING = 3  # confirmation mails one address may get an hour, in every game together, that it has not answered
MAX_PER_READER = 5  # confirmation mails one seat (one token) may have sent an hour, to any addresses
MAX_PER_CLIENT = 10  # confirmation mails one client may have sent an hour, in any games (per server process)
PENDING_WINDOW = 3600  # seconds
RESEND_AFTER = 1200  # seconds: the same address registered again for the same seat sooner is mailed no new code
PING_EVERY = 300  # seconds between two pings of one address (POST …/notifications/test)
# the local part in the characters real mailboxes use: no %, ! (routing), ? or = (RFC 2047's `=?…?=`, which the e-mail
# package would decode into the To: it writes), no quoting; the host a public name (dotted, its last label a word:
# no localhost, no address literal)
_ADDRESS = re.compile(
    r"[A-Za-z0-9._'+-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
)
# names that resolve only on a network of their own (RFC 6761, 6762, 8375, ICANN's .internal)
_LOCAL_TLDS = frozenset({"localhost", "local", "internal", "arpa", "lan", "home", "corp", "intranet", "invalid"})
_SENDER = re.compile(r"[A-Za-z0-9._'+-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?")
# lines up to RFC 5322's 998: a long link in List-Unsubscribe stays the `<url>` mail clients read, not folded into an
# encoded word they cannot
_POLICY = email.policy.SMTP.clone(max_line_length=998)
KINDS = {
    "your-turn": "your turn",
    "deadline-warning": "your turn runs out soon",
    "deadline-expired": "a turn ran out",
    "deadline-changed": "the referee changed the turn clock",
    "game-over": "the game is over",
    "ping": "a test of this address",
}

# what the game's `on_expiry` makes act for a seat out of time (docs/api.md "Deadlines")
EXPIRY = {
    "bot": "the bot plays for it",
    "default": "its decision's default is sent (the bot plays where there is none)",
    "forfeit": "it concedes where the rules allow (else the bot plays for it)",
}


def address_of(url: str, target: bool = True) -> str | None:
    """The address of a `mailto:` URL as a player sends it (percent-decoded once), or None (an http(s) one). Raises
    ValueError saying what is wrong. Spaces around it (a pasted address) are dropped; a `target`'s host is a public
    name (`name@host` is a typo, not a mailbox). A stored registration is read with `stored`, never decoded again."""
    if url[: len(MAILTO)].lower() != MAILTO:
        return None
    rest = url[len(MAILTO) :].strip(" ")
    if "?" in rest:
        raise ValueError(f"{rest[:80]!r}: a target is the address alone, without ?subject=… or other headers")
    address = unquote(rest)
    if "," in address or ";" in address:
        raise ValueError(f"{rest[:80]!r} has a comma or semicolon: a target is one address, name@host.example")
    local_tld = target and address.rsplit(".", 1)[-1].lower() in _LOCAL_TLDS
    shape = (_ADDRESS if target else _SENDER).fullmatch(address)
    if len(address) > MAX_ADDRESS or not shape or ".." in address or local_tld:
        raise ValueError(
            f"{rest[:80]!r} is not an e-mail address the server sends to: one plain ASCII address "
            f"(name@host.example), at most {MAX_ADDRESS} characters"
        )
    return address


def mailbox(address: str) -> str:
    """The mailbox an address reaches, for counting its codes: lower case, without a `+tag`, without dots in its
    name (victim+1@, vic.tim@ and Victim@ are one inbox at many providers). Two other mailboxes that share a key
    share a limit: the count errs toward fewer mails."""
    name, _, host = address.lower().rpartition("@")
    return name.split("+", 1)[0].replace(".", "") + "@" + host


def client_key(host: str) -> str:
    """Who a client is, for its limit: an IPv6 peer by its /64 (one host holds a whole /64), else its address."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    return str(ipaddress.ip_network(f"{ip}/64", strict=False)) if ip.version == 6 else host


def stored(url: str) -> str | None:
    """The address of a registration as it was stored (checked and decoded then), or None (a webhook)."""
    return url[len(MAILTO) :] if url.startswith(MAILTO) else None


def _valid(sender: str) -> bool:
    try:
        return address_of(MAILTO + sender, target=False) is not None
    except ValueError:
        return False


def new_code() -> str:
    return secrets.token_urlsafe(18)  # 144 bits: never guessed, short enough to paste


@dataclass(frozen=True)
class Mailer:
    """The operator's SMTP server (`UMPIRE_SMTP`: smtp://, smtp+starttls:// or smtps://, with user:password@ when it
    needs them), the sender (`UMPIRE_MAIL_FROM`) and the server's public address for links (`UMPIRE_PUBLIC_URL`)."""

    smtp: str
    sender: str
    public_url: str = ""

    @classmethod
    def from_settings(cls, smtp: str, sender: str, public_url: str) -> Mailer | None:
        """None when no SMTP server is set (the server sends no e-mail); ValueError for a setting it cannot use."""
        if not smtp:
            return None
        parts = urlsplit(smtp)
        try:
            port = parts.port  # out of range or not a number: ValueError
        except ValueError:
            port = -1
        if parts.scheme not in ("smtp", "smtp+starttls", "smtps") or not parts.hostname or port == -1:
            shown = redacted(smtp)
            raise ValueError(f"UMPIRE_SMTP is smtp://host[:port], smtp+starttls://… or smtps://…, not {shown!r}")
        if not sender:
            raise ValueError(
                "UMPIRE_MAIL_FROM is needed with UMPIRE_SMTP: the address notification mails come from "
                "(umpire@your.host.example)"
            )
        if not _valid(sender):
            raise ValueError(f"UMPIRE_MAIL_FROM={sender!r} is not an address mails can come from (umpire@host.example)")
        if public_url and urlsplit(public_url).scheme not in ("http", "https"):
            raise ValueError(f"UMPIRE_PUBLIC_URL is the server's http(s) address as players reach it, not {public_url!r}")
        return cls(smtp, sender, public_url.rstrip("/"))

    def link(self, game: str, reader: str, code: str, action: str) -> str | None:
        """The page that confirms an address or stops its mails (service/routes/notifications.py), or None."""
        if not self.public_url:
            return None
        return f"{self.public_url}/mail?{urlencode({'game': game, 'reader': reader, 'code': code, 'do': action})}"

    def confirmation(self, to: str, game: str, reader: str, code: str) -> EmailMessage:
        link = self.link(game, reader, code, "confirm")
        lines = [
            f"Someone asked for Naval Umpire's notifications of game {game} to be sent to {to}.",
            "",
            "If that was you, confirm it" + (f" here:\n  {link}\nor" if link else "") + " with the seat's token:",
            f"  POST /games/{game}/notifications/confirm {{\"code\": \"{code}\"}}",
            "",
            "If it was not you, do nothing: this registration mails you nothing more unless it is confirmed.",
        ]
        # no seat name: a game's creator names the seats of some rulesets, and this goes to an address not confirmed
        return self._message(to, f"Confirm notifications of {game}", lines, None)

    def notification(self, to: str, game: str, reader: str, code: str, kind: str, body: str) -> EmailMessage:
        """A notification's mail: what its JSON `body` says, in words (its `awaiting` entries' types and
        descriptions), how to catch up, and how to stop."""
        data: dict[str, Any] = json.loads(body).get("data", {})
        version = f" (version {data['version']})" if "version" in data else ""
        ruleset = f"{data['ruleset']} " if data.get("ruleset") else ""  # a player in several games tells them apart
        lines = [f"Game {ruleset}{game}, seat {reader}: {KINDS.get(kind, kind)}{version}."]
        if data.get("expired"):
            acted = {"bot": "the bot chose for it", "default": "its default was sent", "concede": "it conceded"}
            what = acted.get(data.get("action", ""), "it had nothing to send")
            lines.append(f"The turn clock ran out for {data['expired']}: {what}.")
        if isinstance(clock := data.get("deadlines"), dict):
            if clock.get("paused"):
                lines.append("The clock is paused: no turn runs out until the referee resumes it.")
            else:
                then = EXPIRY.get(clock.get("on_expiry", ""), "the bot plays for it")
                lines.append(f"A turn lasts {clock.get('turn_seconds')} seconds; when a seat's time runs out, {then}.")
            if data.get("extended"):  # given during a pause, they count on the turn the resumption starts
                when = ", counted when the referee resumes the clock" if clock.get("paused") else ""
                lines.append(f"Your turn was given {data['extended']} seconds more{when}.")
        # what is owed, not what is offered all game long (a concession): a seat waiting for the others owes nothing
        mine = [e for e in data.get("awaiting") or () if reader in (e.get("seats") or ())]
        awaited = [e for e in mine if not e.get("always_open")]
        if awaited:
            lines += ["", "What you may send now:"]
            lines += [f"  - {e.get('type')}: {e.get('description') or ''}".rstrip(": ") for e in awaited]
        elif "awaiting" in data and kind != "game-over":
            lines += ["", "Nothing is owed from you now: the game waits for the other seats."]
        if data.get("deadline_at"):
            lines += ["", f"Your turn runs out at {data['deadline_at']}."]
        if kind == "game-over":
            if data.get("ended"):
                lines += ["", f"How it ended: {data['ended']}"]
            lines += ["", f"The result in full: GET {self.public_url}/games/{game} (its views say how it ended)."]
        if data.get("since") and kind != "game-over":
            since = f"GET {self.public_url}{data['since']} with your seat's token"
            lines += ["", f"What happened since the last mail: {since}."]
        if self.public_url and "version" in data:
            lines += ["", f"Play it in a browser: {self.public_url}/desk/#/play/{game} (with your seat's token)."]
        stop = self.link(game, reader, code, "stop")
        lines += ["", "To stop these mails: " + (stop or f"DELETE /games/{game}/notifications with your seat's token.")]
        subject = f"{KINDS.get(kind, kind).capitalize()}: {ruleset}{game} ({reader})"
        return self._message(to, subject, lines, stop)

    def _message(self, to: str, subject: str, lines: list[str], stop: str | None) -> EmailMessage:
        msg = EmailMessage(policy=_POLICY)
        msg["From"] = self.sender
        msg["To"] = to
        msg["Subject"] = "Naval Umpire: " + subject
        msg["Date"] = formatdate(usegmt=True)
        msg["Message-ID"] = make_msgid(domain=self.sender.rsplit("@", 1)[1])
        msg["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies to it
        if stop:
            msg["List-Unsubscribe"] = f"<{stop}>"
            msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        text = "\n".join(lines) + "\n"
        msg.set_content(text, cte="7bit" if text.isascii() else "quoted-printable")  # 7bit: readable as it is
        return msg

    def send(self, msg: EmailMessage, timeout: float) -> str:
        """Send once; the server's answer in words. Raises smtplib's errors (`permanent` tells which not to retry)."""
        parts = urlsplit(self.smtp)
        host, user, password = parts.hostname or "", unquote(parts.username or ""), unquote(parts.password or "")
        smtp: smtplib.SMTP
        if parts.scheme == "smtps":
            smtp = smtplib.SMTP_SSL(host, parts.port or 465, timeout=timeout, context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(host, parts.port or (587 if parts.scheme == "smtp+starttls" else 25), timeout=timeout)
        with smtp:
            if parts.scheme == "smtp+starttls":
                smtp.starttls(context=ssl.create_default_context())
            if user:
                smtp.login(user, password)
            smtp.send_message(msg, to_addrs=[str(msg["To"])])  # the envelope is the address, not a parsed header
        return "sent"


def outcome(e: BaseException) -> str:
    """A failed attempt in words, for `GET …/notifications`: the SMTP server's own answer where it gave one."""
    if isinstance(e, smtplib.SMTPRecipientsRefused):
        code, said = next(iter(e.recipients.values()), (0, b""))
        return f"refused by the mail server: {code} {_text(said)}"[:300]
    if isinstance(e, smtplib.SMTPResponseException):
        return f"refused by the mail server: {e.smtp_code} {_text(e.smtp_error)}"[:300]
    return f"could not reach the mail server: {type(e).__name__}: {e}"[:300]


def _text(said: bytes | str) -> str:
    return said.decode(errors="replace") if isinstance(said, bytes) else str(said)


def permanent(e: BaseException) -> bool:
    """A 5xx about this mail (its recipient, its content) that a retry will not change, given up at once. A refused
    sender, login or STARTTLS is the operator's to mend: retried, as while the server runs without UMPIRE_SMTP."""
    if isinstance(e, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in e.recipients.values())
    return isinstance(e, smtplib.SMTPDataError) and e.smtp_code >= 500
