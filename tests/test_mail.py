"""E-mail targets of notifications (service/mail.py, docs/api.md "Notifications"): an address is mailed a code and
nothing more until the code comes back; then each notification is a mail saying what the seat's own read says, with
a link (and one-click headers) to stop them. A stranger's address cannot be made to receive more than the code.

The SMTP server is aiosmtpd's, in the test on 127.0.0.1; every wait is on a condition (a mail received, a delivery
settled), never on a sleep."""

from __future__ import annotations

import email
import email.policy
import re
import socket
import threading
import time
from collections.abc import Callable
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from service.app import create_app
from service.mail import MAX_PENDING, Mailer, address_of
from tests.conftest import auth, new_game, send
from tests.test_webhooks import FAST, battle, start_both, token, wait_status

WAIT = 30.0
PUBLIC = "http://umpire.test.example"


class Inbox:
    """An SMTP server that keeps what it is sent; `refuse` (e.g. "550 no such user") refuses every recipient."""

    def __init__(self) -> None:
        self.got: list[EmailMessage] = []
        self.raw: list[bytes] = []  # each as it came, beside `got`
        self.cond = threading.Condition()
        self.refuse: str | None = None
        self.refuse_sender: str | None = None  # e.g. "553 sender not allowed": the operator's setting is wrong
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    async def handle_MAIL(self, server, session, envelope, address, mail_options) -> str:
        if self.refuse_sender:
            return self.refuse_sender
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options) -> str:
        if self.refuse:
            return self.refuse
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(msg, EmailMessage)
        with self.cond:
            self.got.append(msg)
            self.raw.append(envelope.content)
            self.cond.notify_all()
        return "250 Message accepted"

    def wait_for(self, test: Callable[[list[EmailMessage]], Any]) -> Any:
        deadline = time.monotonic() + WAIT
        with self.cond:
            while not (out := test(self.got)):
                left = deadline - time.monotonic()
                assert left > 0, f"no such mail came; got {[m['Subject'] for m in self.got]}"
                self.cond.wait(left)
        return out


@pytest.fixture
def inbox():
    box = Inbox()
    yield box
    box.controller.stop()


def serve(store_url: str, monkeypatch, env: dict[str, str]):
    for k, v in {**FAST, **env}.items():
        monkeypatch.setenv(k, v)
    return create_app(store_url)


@pytest.fixture
def mailing(store_url, monkeypatch, inbox):
    app = serve(
        store_url,
        monkeypatch,
        {"UMPIRE_SMTP": f"smtp://127.0.0.1:{inbox.port}", "UMPIRE_MAIL_FROM": "umpire@test.example",
         "UMPIRE_PUBLIC_URL": PUBLIC},
    )
    with TestClient(app) as c:
        yield c
    app.state.service.store.close()


def register(client, g: dict, seat: str, url: str, expect: int = 200) -> dict:
    r = client.put(f"/games/{g['game_id']}/notifications", json={"url": url}, headers=auth(token(g, seat)))
    assert r.status_code == expect, r.text
    return r.json()


def to(address: str) -> Callable[[list[EmailMessage]], list[EmailMessage]]:
    return lambda got: [m for m in got if m["To"].lower() == address.lower()]


def code_in(msg: EmailMessage) -> str:
    m = re.search(r'\{"code": "([A-Za-z0-9_-]+)"\}', body(msg))
    assert m, body(msg)
    return m.group(1)


def body(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return part.get_content()


def link(msg: EmailMessage) -> str:
    return next(w for w in body(msg).split() if w.startswith(PUBLIC + "/mail?"))


def test_an_address_gets_its_code_and_nothing_more_until_it_is_confirmed(mailing, inbox):
    g = battle(mailing)
    out = register(mailing, g, "japan", "mailto:togo@fleet.example")
    assert out == {"reader": "japan", "url": "mailto:togo@fleet.example", "secret": None, "confirmed": False}
    [confirmation] = inbox.wait_for(to("togo@fleet.example"))
    code = code_in(confirmation)
    assert confirmation["From"] == "umpire@test.example" and g["game_id"] in confirmation["Subject"]
    got = mailing.get(f"/games/{g['game_id']}/notifications", headers=auth(token(g, "japan")))
    assert got.json()["confirmed"] is False and code not in got.text  # the code is only in the mailbox
    start_both(mailing, g)  # Japan has just become awaited: its your-turn is dropped, not mailed
    deadline = time.monotonic() + WAIT
    while True:
        kinds = {d["kind"]: d for d in mailing.get(
            f"/games/{g['game_id']}/notifications", headers=auth(token(g, "japan"))).json()["deliveries"]}
        if kinds.get("your-turn", {}).get("status") == "dropped":
            break
        assert time.monotonic() < deadline, kinds
        time.sleep(0.02)  # polling a condition
    assert kinds["your-turn"]["last_outcome"] == "the address is not confirmed"
    assert len(inbox.got) == 1  # the code, nothing else
    r = mailing.post(f"/games/{g['game_id']}/notifications/test", headers=auth(token(g, "japan")))
    assert r.status_code == 422 and "confirm" in r.json()["detail"]


def test_a_confirmed_address_is_mailed_its_turn_with_what_it_may_send_and_how_to_stop(mailing, inbox):
    g = battle(mailing)
    register(mailing, g, "japan", "mailto:togo@fleet.example")
    code = code_in(inbox.wait_for(to("togo@fleet.example"))[0])
    wrong = mailing.post(
        f"/games/{g['game_id']}/notifications/confirm", json={"code": code[:-1] + ("A" if code[-1] != "A" else "B")},
        headers=auth(token(g, "japan")),
    )
    assert wrong.status_code == 422 and wrong.json()["code"] == "confirmation-refused"
    other = mailing.post(
        f"/games/{g['game_id']}/notifications/confirm", json={"code": code}, headers=auth(token(g, "russia"))
    )
    assert other.status_code == 404  # Russia's token confirms nothing of Japan's (it has no target)
    ok = mailing.post(
        f"/games/{g['game_id']}/notifications/confirm", json={"code": code}, headers=auth(token(g, "japan"))
    )
    assert ok.status_code == 200 and ok.json()["confirmed"] is True, ok.text
    late = mailing.post(
        f"/games/{g['game_id']}/notifications/confirm", json={"code": "nope"}, headers=auth(token(g, "japan"))
    )
    assert late.status_code == 422 and late.json()["code"] == "confirmation-refused"  # confirmed or not
    start_both(mailing, g)
    [_, turn] = inbox.wait_for(lambda got: len(to("togo@fleet.example")(got)) >= 2 and to("togo@fleet.example")(got))
    text = body(turn)
    own = mailing.get(f"/games/{g['game_id']}", headers=auth(token(g, "japan"))).json()
    assert turn["Subject"] == f"Naval Umpire: Your turn: battlefleet-1900 {g['game_id']} (japan)"
    assert f"version {own['version']}" in text
    for entry in own["awaiting"]:
        if "japan" in entry["seats"]:  # what Japan owes now, by name; not what is offered all game long (concede)
            assert (f"- {entry['type']}" in text) is not entry["always_open"], entry["type"]
    assert f"Play it in a browser: {PUBLIC}/desk/#/play/{g['game_id']}" in text
    assert turn["Auto-Submitted"] == "auto-generated"
    raw = inbox.raw[inbox.got.index(turn)].decode()
    assert f"List-Unsubscribe: <{PUBLIC}/mail?game=" in raw  # as it is sent: the URL itself, never an encoded word
    stop = turn["List-Unsubscribe"].strip("<>")
    assert turn["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click" and stop in text
    # the one-click unsubscribe a mail client sends (RFC 8058): a POST to the link, no token
    path = urlsplit(stop)
    r = mailing.post(f"{path.path}?{path.query}", content=b"List-Unsubscribe=One-Click",
                     headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 200 and "Stopped" in r.text
    gone = mailing.get(f"/games/{g['game_id']}/notifications", headers=auth(token(g, "japan")))
    assert gone.status_code == 404
    again = mailing.post(f"{path.path}?{path.query}")
    assert again.status_code == 404 and "no longer good" in again.text


def test_the_confirmation_link_shows_a_button_and_only_its_post_confirms(mailing, inbox):
    g = battle(mailing)
    register(mailing, g, "russia", "mailto:rozhestvensky@fleet.example")
    url = urlsplit(link(inbox.wait_for(to("rozhestvensky@fleet.example"))[0]))
    shown = mailing.get(f"{url.path}?{url.query}")
    assert shown.status_code == 200 and '<form method="post">' in shown.text
    assert "rozhestvensky@fleet.example" in shown.text  # the page names the address it is for
    hooks = mailing.get(f"/games/{g['game_id']}/notifications", headers=auth(token(g, "russia"))).json()
    assert hooks["confirmed"] is False  # a mail scanner opening the link confirms nothing
    done = mailing.post(f"{url.path}?{url.query}")
    assert done.status_code == 200 and "Confirmed" in done.text
    hooks = mailing.get(f"/games/{g['game_id']}/notifications", headers=auth(token(g, "russia"))).json()
    assert hooks["confirmed"] is True
    forged = url.query.replace("code=", "code=x")
    assert mailing.post(f"{url.path}?{forged}").status_code == 404
    wrong = mailing.get(f"{url.path}?{forged}")
    assert wrong.status_code == 404 and "<form" not in wrong.text and "@" not in wrong.text  # no button, no address
    assert mailing.get("/mail?game=a&reader=b&code=c&do=delete").status_code == 400


def test_a_strangers_address_gets_at_most_a_few_codes_an_hour_whatever_the_games(mailing, inbox):
    games = [battle(mailing) for _ in range(MAX_PENDING + 1)]
    register(mailing, games[0], "japan", "mailto:victim@elsewhere.example")
    register(mailing, games[0], "japan", "mailto:victim@elsewhere.example")  # again at once: no second mail
    for g in games[1:MAX_PENDING]:
        register(mailing, g, "japan", "mailto:Victim@elsewhere.example")
    inbox.wait_for(lambda got: len(got) >= MAX_PENDING)
    r = register(mailing, games[MAX_PENDING], "japan", "mailto:victim@elsewhere.example", expect=422)
    assert r["code"] == "webhook-refused" and "last hour" in r["detail"]
    # nor by switching the target away and back, which mails a new code each time the address comes back
    register(mailing, games[0], "japan", "mailto:other@elsewhere.example")
    assert register(mailing, games[0], "japan", "mailto:victim@elsewhere.example", expect=422)["code"] == (
        "webhook-refused"
    )
    inbox.wait_for(to("other@elsewhere.example"))
    assert len(to("victim@elsewhere.example")(inbox.got)) == MAX_PENDING
    # the owner answering one code frees its place: a tournament player's fourth game may then register
    [mailed] = [m for m in to("victim@elsewhere.example")(inbox.got) if games[1]["game_id"] in m["Subject"]]
    code = code_in(mailed)  # mails are sent concurrently: found by their game, not their order
    assert mailing.post(
        f"/games/{games[1]['game_id']}/notifications/confirm", json={"code": code}, headers=auth(token(games[1], "japan"))
    ).status_code == 200
    register(mailing, games[MAX_PENDING], "japan", "mailto:victim@elsewhere.example")
    inbox.wait_for(lambda got: len(to("victim@elsewhere.example")(got)) > MAX_PENDING)


def test_a_refused_recipient_is_given_up_at_once(mailing, inbox):
    inbox.refuse = "550 5.1.1 no such user"
    g = battle(mailing)
    register(mailing, g, "japan", "mailto:nobody@fleet.example")
    out = wait_status(mailing, g, "japan", "failed")
    [d] = out["deliveries"]
    assert d["kind"] == "confirm" and d["attempts"] == 1
    assert d["last_outcome"] == "refused by the mail server: 550 5.1.1 no such user"
    r = mailing.post(
        f"/games/{g['game_id']}/notifications/confirm", json={"code": "x"}, headers=auth(token(g, "japan"))
    )
    assert r.status_code == 422 and "could not be delivered" in r.json()["detail"]
    inbox.refuse = None  # the address mended: registered again at once, it is mailed a new code
    register(mailing, g, "japan", "mailto:nobody@fleet.example")
    inbox.wait_for(to("nobody@fleet.example"))


def test_an_address_signs_nothing_and_a_webhook_confirms_nothing(mailing, inbox):
    g = battle(mailing)
    register(mailing, g, "japan", "mailto:togo@fleet.example")
    r = mailing.post(f"/games/{g['game_id']}/notifications/secret", headers=auth(token(g, "japan")))
    assert r.status_code == 422 and "nothing is signed" in r.json()["detail"]
    ok = register(mailing, g, "russia", "http://127.0.0.1:9/hook")  # UMPIRE_WEBHOOK_ALLOW lets it be
    assert ok["confirmed"] is True and ok["secret"].startswith("whsec_")
    r = mailing.post(
        f"/games/{g['game_id']}/notifications/confirm", json={"code": "x"}, headers=auth(token(g, "russia"))
    )
    assert r.status_code == 422 and r.json()["code"] == "webhook-refused"


@pytest.mark.parametrize(
    "url",
    [
        "mailto:togo@fleet.example%0d%0aBcc:%20all@fleet.example",  # a header through a line break
        "mailto:togo@fleet.example\r\nBcc: all@fleet.example",
        "mailto:togo@fleet.example,all@fleet.example",
        "mailto:togo@fleet.example?cc=all@fleet.example",
        "mailto:Togo <togo@fleet.example>",
        "mailto:togo",
        "mailto:togo@fleet..example",
        "mailto:togo@fleet",  # no dot: a typo, not a mailbox
        "mailto:t\u00f6go@fleet.example",
        "mailto:" + "a" * 65 + "@fleet.example",
    ],
)
def test_only_one_plain_address_is_taken(mailing, inbox, url):
    g = battle(mailing)
    r = mailing.put(f"/games/{g['game_id']}/notifications", json={"url": url}, headers=auth(token(g, "japan")))
    assert r.status_code == 422 and r.json()["code"] in ("webhook-refused", "invalid-request"), r.text
    assert mailing.get(f"/games/{g['game_id']}/notifications", headers=auth(token(g, "japan"))).status_code == 404
    assert not inbox.got


def test_a_pasted_address_loses_its_spaces_and_a_typo_is_named(mailing, inbox):
    g = battle(mailing)
    assert register(mailing, g, "japan", "mailto: togo@fleet.example ")["url"] == "mailto:togo@fleet.example"
    r = register(mailing, g, "russia", "mailto:togo@fleet,example", expect=422)
    assert "comma" in r["detail"]
    r = register(mailing, g, "russia", "togo@fleet.example", expect=422)
    assert "mailto:" in r["detail"]


def test_mails_wait_while_the_server_runs_without_smtp_and_go_when_it_is_back(tmp_path, monkeypatch, inbox):
    """Nothing acknowledged is lost: a your-turn queued while the operator restarted without UMPIRE_SMTP is retried,
    and mailed once a server with it runs."""
    db = str(tmp_path / "mail.db")
    smtp = {"UMPIRE_SMTP": f"smtp://127.0.0.1:{inbox.port}", "UMPIRE_MAIL_FROM": "umpire@test.example"}
    app = serve(db, monkeypatch, smtp)
    with TestClient(app) as c:
        g = battle(c)
        register(c, g, "japan", "mailto:togo@fleet.example")
        code = code_in(inbox.wait_for(to("togo@fleet.example"))[0])
        c.post(f"/games/{g['game_id']}/notifications/confirm", json={"code": code}, headers=auth(token(g, "japan")))
    app.state.service.store.close()
    monkeypatch.delenv("UMPIRE_SMTP")
    app = serve(db, monkeypatch, {})
    with TestClient(app) as c:
        r = c.post(f"/games/{g['game_id']}/notifications/test", headers=auth(token(g, "japan")))
        assert r.status_code == 422 and "UMPIRE_SMTP" in r.json()["detail"]
        start_both(c, g)
        deadline = time.monotonic() + WAIT
        while True:
            [d] = [d for d in c.get(f"/games/{g['game_id']}/notifications", headers=auth(token(g, "japan"))).json()[
                "deliveries"] if d["kind"] == "your-turn"]
            if d["attempts"] >= 2:
                break
            assert time.monotonic() < deadline, d
            time.sleep(0.02)  # polling a condition
        assert d["status"] == "pending" and "UMPIRE_SMTP" in d["last_outcome"]
    app.state.service.store.close()
    app = serve(db, monkeypatch, smtp)
    with TestClient(app) as c:
        [_, turn] = inbox.wait_for(lambda got: len(got) >= 2 and got)
        assert turn["Subject"] == f"Naval Umpire: Your turn: battlefleet-1900 {g['game_id']} (japan)"
    app.state.service.store.close()


def test_a_server_without_smtp_refuses_an_address_saying_so(store_url, monkeypatch):
    monkeypatch.delenv("UMPIRE_SMTP", raising=False)
    app = serve(store_url, monkeypatch, {})
    with TestClient(app) as c:
        g = battle(c)
        r = register(c, g, "japan", "mailto:togo@fleet.example", expect=422)
        assert r["code"] == "webhook-refused" and "UMPIRE_SMTP" in r["detail"]
    app.state.service.store.close()


def test_mail_settings_are_checked_at_start():
    assert Mailer.from_settings("", "", "") is None
    with pytest.raises(ValueError, match="UMPIRE_SMTP"):
        Mailer.from_settings("http://mail.example", "umpire@x.example", "")
    with pytest.raises(ValueError, match="UMPIRE_MAIL_FROM"):
        Mailer.from_settings("smtp://mail.example", "", "")
    with pytest.raises(ValueError, match="UMPIRE_PUBLIC_URL"):
        Mailer.from_settings("smtp://mail.example", "umpire@x.example", "umpire.example")
    assert address_of("https://x.example") is None and address_of("MAILTO:a@b.example") == "a@b.example"


def test_a_mail_without_a_public_url_says_how_to_stop_through_the_api(store_url, monkeypatch, inbox):
    app = serve(store_url, monkeypatch, {"UMPIRE_SMTP": f"smtp://127.0.0.1:{inbox.port}",
                                         "UMPIRE_MAIL_FROM": "umpire@test.example", "UMPIRE_PUBLIC_URL": ""})
    with TestClient(app) as c:
        g = battle(c)
        register(c, g, "japan", "mailto:togo@fleet.example")
        code = code_in(inbox.wait_for(to("togo@fleet.example"))[0])
        assert PUBLIC not in body(inbox.got[0]) and "/mail?" not in body(inbox.got[0])
        c.post(f"/games/{g['game_id']}/notifications/confirm", json={"code": code}, headers=auth(token(g, "japan")))
        r = c.post(f"/games/{g['game_id']}/notifications/test", headers=auth(token(g, "japan")))
        assert r.status_code == 202
        [_, ping] = inbox.wait_for(lambda got: len(got) >= 2 and got)
        assert ping["List-Unsubscribe"] is None
        assert f"DELETE /games/{g['game_id']}/notifications" in body(ping)
        send(c, g, "japan", type="start", ships=[])  # the game goes on whatever the mail
    app.state.service.store.close()


def test_a_store_made_before_e_mail_targets_keeps_its_webhooks_active(store_url):
    """The `pending` column is added to an older database's registrations, each of them a webhook and active."""
    from events.store import HookRow, open_store

    store: Any = open_store(store_url)
    with store._transaction() as conn:
        store._execute(conn, "ALTER TABLE webhooks DROP COLUMN pending")  # as a database made before it
        store._execute(
            conn,
            "INSERT INTO webhooks (game, reader, url, secret, last_turn, created_at) VALUES (?,?,?,?,?,?)",
            ("g-old", "japan", "https://hooks.example.org/x", "whsec_x", 0, "2026-12-01T00:00:00Z"),
        )
    store.close()
    store = open_store(store_url)
    try:
        assert store.hook("g-old", "japan") == HookRow(
            "g-old", "japan", "https://hooks.example.org/x", "whsec_x", None, None, 0, "2026-12-01T00:00:00Z", False
        )
    finally:
        store.close()


# ---- attacks (a cold security review of the feature) ----


def settled(client, g: dict, seat: str) -> list[dict]:
    """The seat's deliveries once none is pending (a condition polled, never a timed wait)."""
    deadline = time.monotonic() + WAIT
    while True:
        out = client.get(f"/games/{g['game_id']}/notifications", headers=auth(token(g, seat))).json()["deliveries"]
        if all(d["status"] != "pending" for d in out):
            return out
        assert time.monotonic() < deadline, out
        time.sleep(0.02)  # polling a condition


def test_codes_queued_for_earlier_addresses_never_go_to_the_last_one(mailing, inbox):
    """A seat registering throwaway addresses while the mail server is busy, then a stranger's: each code goes to
    its own address or nowhere, and the stranger gets one."""
    inbox.refuse = "451 4.3.0 try again later"
    g = battle(mailing)
    for i in range(3):
        register(mailing, g, "japan", f"mailto:throwaway{i}@attacker.example")
    register(mailing, g, "japan", "mailto:victim@elsewhere.example")
    inbox.refuse = None
    settled(mailing, g, "japan")
    assert len(to("victim@elsewhere.example")(inbox.got)) == 1  # a throwaway's code in flight goes to it, or nowhere


def test_one_seat_may_have_at_most_five_codes_an_hour_sent(mailing, inbox):
    from service.mail import MAX_PER_READER

    g = battle(mailing)
    answers = [attempt(mailing, g, "japan", f"mailto:stranger{i}@elsewhere.example") for i in range(MAX_PER_READER + 3)]
    assert answers == [200] * MAX_PER_READER + [422] * 3
    r = mailing.put(f"/games/{g['game_id']}/notifications", json={"url": "mailto:one.more@elsewhere.example"},
                    headers=auth(token(g, "japan")))
    assert "this seat asked for 5" in r.json()["detail"]  # the refusal says which limit
    settled(mailing, g, "japan")
    assert len(inbox.got) <= MAX_PER_READER


def test_one_client_may_have_at_most_ten_codes_an_hour_sent_in_any_games(mailing, inbox):
    from service.mail import MAX_PER_CLIENT

    answers = [attempt(mailing, battle(mailing), "japan", f"mailto:s{i}@elsewhere.example") for i in range(MAX_PER_CLIENT + 1)]
    assert answers == [200] * MAX_PER_CLIENT + [429]


def test_registrations_at_the_same_moment_never_pass_an_addresses_limit(mailing, inbox):
    games = [battle(mailing) for _ in range(8)]
    barrier = threading.Barrier(len(games))
    answers: list[int] = []

    def put(g: dict) -> None:
        barrier.wait()
        answers.append(attempt(mailing, g, "japan", "mailto:victim@elsewhere.example"))

    threads = [threading.Thread(target=put, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200] * MAX_PENDING + [422] * (len(games) - MAX_PENDING)


@pytest.mark.parametrize("spelling", ["v%2569ctim", "%2576ictim", "a%3Fb", "a%3Db", "=%3Futf-8%3Fb%3FdkBldmlsLmlv%3F="])
def test_an_address_is_decoded_once_and_what_could_read_otherwise_is_refused(mailing, inbox, spelling):
    """`%` (decoded again it is another address, with limits of its own), `?` and `=` (an RFC 2047 word the mail
    package would decode into the To: header) are no part of an address the server takes."""
    r = attempt(mailing, battle(mailing), "japan", f"mailto:{spelling}@elsewhere.example")
    assert r == 422 and not inbox.got


def test_a_mailbox_is_pinged_once_in_five_minutes(mailing, inbox):
    g = battle(mailing)
    register(mailing, g, "japan", "mailto:togo@fleet.example")
    code = code_in(inbox.wait_for(to("togo@fleet.example"))[0])
    mailing.post(f"/games/{g['game_id']}/notifications/confirm", json={"code": code}, headers=auth(token(g, "japan")))
    assert mailing.post(f"/games/{g['game_id']}/notifications/test", headers=auth(token(g, "japan"))).status_code == 202
    again = mailing.post(f"/games/{g['game_id']}/notifications/test", headers=auth(token(g, "japan")))
    assert again.status_code == 429 and int(again.headers["Retry-After"]) > 0


def test_a_confirmation_carries_no_seat_name_a_games_creator_chose(mailing, inbox):
    seat = "Claim.prize.at.evil.example"
    g = new_game(mailing, seats=[seat], ruleset="corvette-command")
    register(mailing, g, seat, "mailto:stranger@elsewhere.example")
    [m] = inbox.wait_for(to("stranger@elsewhere.example"))
    assert "evil" not in m["Subject"] and "Claim" not in body(m).split("http")[0]


@pytest.mark.parametrize("url", ["mailto:root@localhost", "mailto:x@127.0.0.1", "mailto:a@b"])
def test_no_address_of_this_machine_or_its_network(mailing, inbox, url):
    assert attempt(mailing, battle(mailing), "japan", url) == 422


def attempt(client, g: dict, seat: str, url: str) -> int:
    return client.put(
        f"/games/{g['game_id']}/notifications", json={"url": url}, headers=auth(token(g, seat))
    ).status_code


def test_an_addresses_variants_share_their_mailboxs_limit(mailing, inbox):
    """victim+1@, Vic.Tim@ and victim@ reach one inbox at many providers: they are counted as one mailbox."""
    spellings = ["victim+1", "Vic.Tim", "victim+2", "v.i.c.t.i.m+x"]
    answers = [attempt(mailing, battle(mailing), "japan", f"mailto:{s}@gmail.example") for s in spellings]
    assert answers == [200] * MAX_PENDING + [422]


def test_refusals_use_up_no_clients_codes(mailing, inbox):
    from service.mail import MAX_PER_CLIENT

    games = [battle(mailing) for _ in range(MAX_PER_CLIENT + 2)]
    answers = [attempt(mailing, g, "japan", "mailto:victim@elsewhere.example") for g in games[:-1]]
    assert answers == [200] * MAX_PENDING + [422] * (MAX_PER_CLIENT + 1 - MAX_PENDING)
    assert attempt(mailing, games[-1], "japan", "mailto:someone.else@elsewhere.example") == 200  # 4 queued of 10


def test_a_client_is_its_ipv6_64():
    from service.mail import client_key

    assert client_key("2001:db8:1:2::5") == client_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::5") != client_key("2001:db8:1:2::5")
    assert client_key("203.0.113.7") == "203.0.113.7"


@pytest.mark.parametrize("host", ["mail.localhost", "corp.internal", "smtp.home.arpa", "nas.local", "x.invalid"])
def test_no_special_use_name_is_a_mailbox(mailing, inbox, host):
    assert attempt(mailing, battle(mailing), "japan", f"mailto:root@{host}") == 422


def test_a_sender_the_mail_server_refuses_is_the_operators_to_mend_and_the_mail_waits(mailing, inbox):
    inbox.refuse_sender = "553 5.7.1 sender not allowed"
    g = battle(mailing)
    register(mailing, g, "japan", "mailto:togo@fleet.example")
    deadline = time.monotonic() + WAIT
    while True:
        [d] = mailing.get(f"/games/{g['game_id']}/notifications", headers=auth(token(g, "japan"))).json()["deliveries"]
        if d["attempts"] >= 2:
            break
        assert time.monotonic() < deadline, d
        time.sleep(0.02)  # polling a condition
    assert d["status"] == "pending" and "553" in d["last_outcome"]  # retried, not failed: the sender is wrong
    inbox.refuse_sender = None
    inbox.wait_for(to("togo@fleet.example"))


def test_a_code_whose_address_a_webhook_replaced_goes_nowhere(mailing, inbox):
    from tests.test_webhooks import Receiver

    receiver = Receiver()
    try:
        inbox.refuse = "451 4.3.0 try again later"
        g = battle(mailing)
        register(mailing, g, "japan", "mailto:togo@fleet.example")
        deadline = time.monotonic() + WAIT
        while not any(  # its first attempt refused (a mail already in flight would go to its own address, rightly)
            "451" in (d["last_outcome"] or "") for d in mailing.get(
                f"/games/{g['game_id']}/notifications", headers=auth(token(g, "japan"))).json()["deliveries"]
        ):
            assert time.monotonic() < deadline
            time.sleep(0.02)  # polling a condition
        register(mailing, g, "japan", receiver.url)
        out = settled(mailing, g, "japan")  # still refusing: only the webhook could take it now
        inbox.refuse = None
        assert [(d["kind"], d["status"]) for d in out] == [("confirm", "dropped")]
        assert receiver.got == [] and inbox.got == []
    finally:
        receiver.close()


def test_a_stale_stop_link_removes_no_newer_registration(mailing, inbox):
    g = battle(mailing)
    register(mailing, g, "japan", "mailto:togo@fleet.example")
    store = mailing.app.state.service.store
    old = store.hook(g["game_id"], "japan")
    register(mailing, g, "japan", "mailto:kamimura@fleet.example")  # a new code replaced the old
    assert store.delete_hook(g["game_id"], "japan", old.secret) is False  # as a stop link checked before the PUT
    assert store.hook(g["game_id"], "japan").url == "mailto:kamimura@fleet.example"


def test_a_confirmation_page_names_no_seat(mailing, inbox):
    seat = "Claim.prize.at.evil.example"
    g = new_game(mailing, seats=[seat], ruleset="corvette-command")
    register(mailing, g, seat, "mailto:stranger@elsewhere.example")
    url = urlsplit(link(inbox.wait_for(to("stranger@elsewhere.example"))[0]))
    for page in (mailing.get(f"{url.path}?{url.query}"), mailing.post(f"{url.path}?{url.query}")):
        assert page.status_code == 200 and "evil" not in page.text


def test_a_turn_run_out_says_what_acted_for_the_seat():
    mailer = Mailer("smtp://mail.example", "umpire@x.example", "")
    body = '{"type": "deadline-expired", "data": {"version": 9, "expired": "russia", "action": "bot", "awaiting": []}}'
    text = mailer.notification("togo@fleet.example", "g-1", "japan", "c", "deadline-expired", body).get_content()
    assert "The turn clock ran out for russia: the bot chose for it." in text


def test_a_referees_change_of_the_clock_says_the_seats_new_end_and_the_clock():
    mailer = Mailer("smtp://mail.example", "umpire@x.example", "")
    clock = '{"turn_seconds": 600, "on_expiry": "forfeit", "paused": false}'
    body = (
        '{"type": "deadline-changed", "data": {"version": 7, "awaiting": [], "deadline_at": "2030-03-17T18:46:40Z", '
        f'"deadlines": {clock}, "extended": 3600}}}}'
    )
    msg = mailer.notification("togo@fleet.example", "g-1", "japan", "c", "deadline-changed", body)
    text = msg.get_content()
    assert msg["Subject"] == "Naval Umpire: The referee changed the turn clock: g-1 (japan)"
    assert "A turn lasts 600 seconds; when a seat's time runs out, it concedes where the rules allow" in text
    assert "Your turn was given 3600 seconds more." in text and "Your turn runs out at 2030-03-17T18:46:40Z." in text
    paused = body.replace('"paused": false', '"paused": true').replace('"2030-03-17T18:46:40Z"', "null")
    text = mailer.notification("togo@fleet.example", "g-1", "japan", "c", "deadline-changed", paused).get_content()
    assert "The clock is paused: no turn runs out until the referee resumes it." in text and "runs out at" not in text
    assert "given 3600 seconds more, counted when the referee resumes the clock." in text


def test_a_game_over_mail_says_how_the_game_ended():
    mailer = Mailer("smtp://mail.example", "umpire@x.example", "https://umpire.naval-umpire.invalid")
    body = '{"type": "game-over", "data": {"version": 40, "ended": "russia conceded", "awaiting": []}}'
    text = mailer.notification("togo@fleet.example", "g-1", "japan", "c", "game-over", body).get_content()
    assert "How it ended: russia conceded" in text
    assert "GET https://umpire.naval-umpire.invalid/games/g-1" in text
