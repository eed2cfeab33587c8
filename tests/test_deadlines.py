"""Turn clocks (issue 33 item 4; docs/api.md "Deadlines"): each policy fires when a seat's time runs out, once however
many processes look, after a restart too, and the bundle replays byte-identical with no clock.

Time is a fake the tests move (the service's stamps and the sweeper's clock), so nothing waits on the wall clock."""

from __future__ import annotations

import contextlib
import json
import re
import threading
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from events.store import SQLiteStore, open_store
from service.app import create_app
from service.games import GameService
from service.payloads import DeadlinesPayload
from service.replay import verify
from tests.conftest import postgres_url


class FakeTime:
    """The time every part of a test's services reads: stamps (`iso`) and the sweeper's clock (call)."""

    def __init__(self) -> None:
        self.t = 1_900_000_000.0

    def __call__(self) -> float:
        return self.t

    def iso(self) -> str:
        return datetime.fromtimestamp(self.t, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def service(db: str, t: FakeTime) -> GameService:
    svc = GameService(open_store(db) if db.startswith("postgresql") else SQLiteStore(db), clock=t.iso)
    svc.clocks.clock = t
    svc.webhooks.clock = t
    return svc


def create(svc: GameService, ruleset: str, on_expiry: str, seconds: int = 600, **kw) -> dict:
    deadlines = {"turn_seconds": seconds, "on_expiry": on_expiry}
    return svc.creation.create(ruleset, {}, None, "fair", None, None, None, deadlines=deadlines, **kw)


def token(g: dict, seat: str) -> str:
    return next(s["token"] for s in g["seats"] if s["seat"] == seat)


def events(svc: GameService, game_id: str) -> list[dict]:
    return [json.loads(r.body) for r in svc.store.events(game_id)]


def expiries(svc: GameService, game_id: str) -> list[dict]:
    return [e["data"] for e in events(svc, game_id) if e["type"] == "DeadlineExpired"]


def replays_byte_identical(svc: GameService, game_id: str, referee: str) -> None:
    svc.reveal(game_id, referee)
    report = verify(svc.bundles.encoded(game_id))
    assert report["verdict"] == "verified", {k: v["detail"] for k, v in report["checks"].items()}
    assert report["checks"]["replay"]["status"] == "pass", report["checks"]["replay"]


def test_no_turn_runs_out_before_its_seconds_and_the_summary_shows_when_each_does(tmp_path):
    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    g = create(svc, "battlefleet-1900", "bot", seconds=600)
    summary = svc.reads.summary(g["game_id"])
    created = t.t
    assert summary["deadlines"] == {
        "turn_seconds": 600,
        "on_expiry": "bot",
        "paused": False,
        "deadline_at": {s: datetime.fromtimestamp(created + 600, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
                        for s in ("japan", "russia")},
    }
    t.t += 599
    assert svc.clocks.sweep() == 0
    assert svc.reads.summary(g["game_id"])["version"] == g["version"]  # nothing appended


def test_bot_policy_the_bot_acts_once_for_a_seat_whose_time_ran_out_and_its_clock_starts_again(tmp_path):
    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    g = create(svc, "battlefleet-1900", "bot", seconds=600)
    gid = g["game_id"]
    svc.command(gid, token(g, "russia"), {"type": "start"})  # russia sends its setup; japan stays silent
    t.t += 600
    assert svc.clocks.sweep() == 1
    assert expiries(svc, gid) == [{"seat": "japan", "since": 1, "action": "bot"}]
    log = events(svc, gid)
    at = next(i for i, e in enumerate(log) if e["type"] == "DeadlineExpired")
    assert log[at]["command"] == "deadline-japan-1"
    # the bot's start for japan follows in the same command: japan's sealed setup record, then the turn begins
    same = [e for e in log if e["command"] == "deadline-japan-1"]
    assert any(e["type"] == "SubmissionSealed" and e["data"]["seat"] == "japan" for e in same)
    # both seats now owe their orders, from the version after the expiry, on new clocks
    clocks = svc.reads.summary(gid)["deadlines"]["deadline_at"]
    assert set(clocks) == {"japan", "russia"}
    assert len(set(clocks.values())) == 1 and clocks["japan"] == datetime.fromtimestamp(t.t + 600, UTC).strftime(
        "%Y-%m-%dT%H:%M:%SZ"
    )
    replays_byte_identical(svc, gid, g["referee_token"])


def test_default_policy_sends_the_entrys_default(tmp_path):
    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    g = create(svc, "battlefleet-1900", "default", seconds=60)
    gid = g["game_id"]
    t.t += 60
    assert svc.clocks.sweep() == 2
    assert [(x["seat"], x["action"]) for x in expiries(svc, gid)] == [("japan", "default"), ("russia", "default")]
    record = {c.command_id: json.loads(c.payload) for c in svc.store.commands(gid)}
    assert record["deadline-japan-1"]["then"] == {"type": "start"}  # the entry's default: {} (BF-R1's setup as set)
    replays_byte_identical(svc, gid, g["referee_token"])


def test_forfeit_policy_concedes_where_the_ruleset_allows_it(tmp_path):
    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    g = create(svc, "battlefleet-1900", "forfeit", seconds=60)
    gid = g["game_id"]
    svc.command(gid, token(g, "japan"), {"type": "start"})
    t.t += 60
    assert svc.clocks.sweep() == 1
    assert expiries(svc, gid) == [{"seat": "russia", "since": 1, "action": "concede"}]
    summary = svc.reads.summary(gid)
    assert summary["status"] == "over" and summary["deadlines"]["deadline_at"] == {}
    t.t += 10_000
    assert svc.clocks.sweep() == 0 and svc.store.clocks() == []  # an ended game is no sweeper's business
    replays_byte_identical(svc, gid, g["referee_token"])


def test_forfeit_two_seats_out_of_time_at_once_neither_concedes_and_the_first_late_alone_does(tmp_path):
    """docs/api.md "Deadlines", `forfeit`: a seat concedes when its time ran out first. Both seats of a simultaneous
    step silent, their turns end at the same instant: the first expired conceded and the other, as late, won by seat
    order (a referee's trial). Neither concedes now: the bot acts for each, and the game goes on. A seat whose extra
    time ran out later than the other's still sees the one out first concede."""
    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    g = create(svc, "battlefleet-1900", "forfeit", seconds=60)
    gid = g["game_id"]
    t.t += 60
    assert svc.clocks.sweep() == 2
    assert expiries(svc, gid) == [
        {"seat": "japan", "since": 1, "action": "bot"},
        {"seat": "russia", "since": 1, "action": "bot"},
    ]
    assert svc.reads.summary(gid)["status"] == "open"
    # orders next, both on the clock from the same version: russia gets 30 s more, so japan alone is out first
    svc.set_deadlines(gid, g["referee_token"], DeadlinesPayload(extend={"russia": 30}))
    t.t += 60
    assert svc.clocks.sweep() == 1
    assert expiries(svc, gid)[-1]["seat"] == "japan" and expiries(svc, gid)[-1]["action"] == "concede"
    assert svc.reads.summary(gid)["status"] == "over"
    replays_byte_identical(svc, gid, g["referee_token"])


@pytest.mark.parametrize("later", ["japan", "russia"])
def test_forfeit_the_seat_out_first_concedes_whichever_seat_comes_first_in_order(tmp_path, later):
    """The first out of time concedes even where one look at the clock finds both out and the later one comes first
    in seat order (a review: japan, a second later, was expired first with the bot, and russia, out first, then saw
    a seat expired on its turn and was given the bot too; the game's end hung on when the sweeper looked)."""
    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    g = create(svc, "battlefleet-1900", "forfeit", seconds=60)
    gid = g["game_id"]
    svc.set_deadlines(gid, g["referee_token"], DeadlinesPayload(extend={later: 1}))
    first = "russia" if later == "japan" else "japan"
    t.t += 62  # one look finds both out
    assert svc.clocks.sweep() == 1
    assert expiries(svc, gid) == [{"seat": first, "since": 1, "action": "concede"}]
    assert svc.reads.summary(gid)["status"] == "over"
    replays_byte_identical(svc, gid, g["referee_token"])


def test_forfeit_policy_falls_back_to_the_bot_where_the_seat_cannot_concede(tmp_path):
    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    g = create(svc, "aa1942-convoy", "forfeit", seconds=60, edition="5.0.0")  # 6.0.0 takes no clock (AA-R19)
    gid = g["game_id"]
    from service.payloads import DeadlinesPayload

    # the referee still changes a 5.0.0 game's clock (a review found it judged as the newest edition, which takes none)
    svc.set_deadlines(gid, g["referee_token"], DeadlinesPayload(paused=True))
    resumed = svc.set_deadlines(gid, g["referee_token"], DeadlinesPayload(paused=False))  # USSR's turn anew
    t.t += 60
    assert svc.clocks.sweep() == 1
    assert expiries(svc, gid) == [{"seat": "USSR", "since": resumed["version"], "action": "bot"}]
    replays_byte_identical(svc, gid, g["referee_token"])


def test_a_game_whose_expiry_fails_keeps_no_other_games_clock_from_running_out(tmp_path, monkeypatch, caplog):
    """The sweeper looks at the clocked games in id order: an expiry that raised (a bot's bug, a broken record) ended
    the whole sweep, so every game after the failing one never had a turn run out, at every poll. Now the failing game
    is logged and the others are swept."""
    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    first, second = sorted((create(svc, "corvette-command", "bot") for _ in range(2)), key=lambda g: g["game_id"])
    real = svc.clocks.expire

    def fails_for_the_first(game_id, seat, since):
        if game_id == first["game_id"]:
            raise TypeError("the bot could not choose")
        return real(game_id, seat, since)

    monkeypatch.setattr(svc.clocks, "expire", fails_for_the_first)
    t.t += 600
    assert svc.clocks.sweep() == 1
    assert expiries(svc, first["game_id"]) == [] and [x["seat"] for x in expiries(svc, second["game_id"])] == ["captain"]
    assert f"game {first['game_id']} could not be swept" in caplog.text


def test_a_restarted_server_fires_the_deadline_a_previous_one_set(tmp_path):
    t = FakeTime()
    db = str(tmp_path / "d.db")
    first = service(db, t)
    g = create(first, "corvette-command", "bot", seconds=300)
    gid = g["game_id"]
    before = first.reads.summary(gid)["deadlines"]["deadline_at"]
    first.store.close()
    t.t += 300
    second = service(db, t)  # a new process: nothing cached, the turns folded from the store
    assert second.reads.summary(gid)["deadlines"]["deadline_at"] == before
    assert second.clocks.sweep() == 1
    assert [x["action"] for x in expiries(second, gid)] == ["bot"]
    replays_byte_identical(second, gid, g["referee_token"])


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_two_processes_sweeping_at_once_expire_each_turn_exactly_once(tmp_path, kind):
    t = FakeTime()

    def run(db: str) -> None:
        a, b = service(db, t), service(db, t)
        games = [create(a, "battlefleet-1900", "bot", seconds=60)["game_id"] for _ in range(6)]
        t.t += 60
        for _ in range(3):  # three rounds: every turn run out is expired once, by one of the two
            start = threading.Barrier(2)

            def sweep(svc: GameService) -> None:
                start.wait()
                svc.clocks.sweep()

            threads = [threading.Thread(target=sweep, args=(s,)) for s in (a, b)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            t.t += 60
        for gid in games:
            seen = [(x["seat"], x["since"]) for x in expiries(a, gid)]
            assert len(seen) == len(set(seen)) and len(seen) >= 2, seen
            ids = [c.command_id for c in a.store.commands(gid)]
            assert len(ids) == len(set(ids))

    if kind == "sqlite":
        run(str(tmp_path / "d.db"))
    else:
        with postgres_url() as url:
            run(url)


def test_the_referee_pauses_extends_and_changes_the_clock_and_each_change_is_recorded(tmp_path):
    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    g = create(svc, "battlefleet-1900", "bot", seconds=600)
    gid, ref = g["game_id"], g["referee_token"]
    from service.payloads import DeadlinesPayload

    svc.set_deadlines(gid, ref, DeadlinesPayload(paused=True))
    assert svc.reads.summary(gid)["deadlines"]["paused"] is True
    assert svc.reads.summary(gid)["deadlines"]["deadline_at"] == {}
    t.t += 100_000
    assert svc.clocks.sweep() == 0  # paused: no turn runs out
    svc.set_deadlines(gid, ref, DeadlinesPayload(paused=False))  # every awaited seat's turn starts again now
    resumed = t.t
    t.t += 100
    svc.set_deadlines(gid, ref, DeadlinesPayload(extend={"japan": 50}))
    ends = svc.reads.summary(gid)["deadlines"]["deadline_at"]
    iso = lambda x: datetime.fromtimestamp(x, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")  # noqa: E731
    assert ends == {"japan": iso(resumed + 650), "russia": iso(resumed + 600)}
    t.t = resumed + 600
    assert svc.clocks.sweep() == 1 and [x["seat"] for x in expiries(svc, gid)] == ["russia"]
    t.t = resumed + 650
    assert svc.clocks.sweep() == 1 and [x["seat"] for x in expiries(svc, gid)] == ["russia", "japan"]
    svc.set_deadlines(gid, ref, DeadlinesPayload(turn_seconds=30, on_expiry="default"))
    assert svc.reads.summary(gid)["deadlines"]["turn_seconds"] == 30
    kinds = [e["type"] for e in events(svc, gid)]
    assert kinds.count("DeadlinesChanged") == 4
    replays_byte_identical(svc, gid, ref)


def test_an_extension_for_a_seat_not_on_the_clock_counts_on_its_next_turn(tmp_path):
    """A referee's trial: seconds given while the clock was paused were lost when it resumed, and seconds given to a
    seat not on turn did nothing, though both were accepted and recorded. Now each counts on the seat's next turn."""
    from service.payloads import DeadlinesPayload

    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    g = create(svc, "battlefleet-1900", "bot", seconds=600)
    gid, ref = g["game_id"], g["referee_token"]
    iso = lambda x: datetime.fromtimestamp(x, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")  # noqa: E731
    svc.set_deadlines(gid, ref, DeadlinesPayload(paused=True))
    svc.set_deadlines(gid, ref, DeadlinesPayload(extend={"russia": 40}))  # while paused
    t.t += 10
    svc.set_deadlines(gid, ref, DeadlinesPayload(paused=False))
    resumed = t.t
    assert svc.reads.summary(gid)["deadlines"]["deadline_at"] == {"japan": iso(resumed + 600), "russia": iso(resumed + 640)}
    svc.command(gid, token(g, "japan"), {"type": "start"})  # japan is off the clock until the next step
    assert set(svc.reads.summary(gid)["deadlines"]["deadline_at"]) == {"russia"}
    svc.set_deadlines(gid, ref, DeadlinesPayload(extend={"japan": 70}))  # not on turn now: its next turn's
    t.t += 5
    svc.command(gid, token(g, "russia"), {"type": "start"})  # both awaited again: each a new turn
    after = t.t
    assert svc.reads.summary(gid)["deadlines"]["deadline_at"] == {"japan": iso(after + 670), "russia": iso(after + 600)}
    replays_byte_identical(svc, gid, ref)


def test_no_clock_runs_while_a_seat_waits_for_its_player(tmp_path):
    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    g = create(svc, "battlefleet-1900", "bot", seconds=60, open_seats=True)
    gid = g["game_id"]
    assert svc.reads.summary(gid)["deadlines"]["deadline_at"] == {}
    t.t += 1000
    assert svc.clocks.sweep() == 0
    for s in g["seats"]:
        assert svc.clocks.sweep() == 0
        t.t += 5
        svc.join(gid, s["invitation"])
    joined = t.t  # the clock runs from when the last seat was taken
    ends = svc.reads.summary(gid)["deadlines"]["deadline_at"]
    assert set(ends) == {"japan", "russia"}
    assert ends == {s: datetime.fromtimestamp(joined + 60, UTC).strftime("%Y-%m-%dT%H:%M:%SZ") for s in ends}
    t.t += 59
    assert svc.clocks.sweep() == 0
    t.t += 1
    assert svc.clocks.sweep() == 2


@pytest.mark.parametrize("store_kind", ["sqlite", "postgresql"])
def test_the_last_join_writes_its_seat_its_clock_and_the_waiting_seats_your_turn_together(tmp_path, store_kind):
    """docs/api.md "Notifications": the last join tells each awaited seat that waited its turn has come, and the turn
    clock runs from it. "Nothing acknowledged is ever lost": a process that dies the moment the last seat is taken
    (here: what follows the join's write raises past its handler) has written that seat, its clock and the your-turn
    together. Before, the your-turn and the clock were written after the seat, each in a transaction of its own, and
    a death between them lost the notification for good."""
    t = FakeTime()
    with contextlib.ExitStack() as stack:
        db = str(tmp_path / "d.db") if store_kind == "sqlite" else stack.enter_context(postgres_url())
        svc = service(db, t)
        g = create(svc, "battlefleet-1900", "bot", seconds=60, open_seats=True)
        gid, inv = g["game_id"], {s["seat"]: s["invitation"] for s in g["seats"]}
        from service.webhooks import Allow

        svc.webhooks.allow = Allow("127.0.0.1")
        svc.join(gid, inv["russia"])
        svc.webhooks.put(gid, "russia", {"url": "http://127.0.0.1:9/hook"})
        t.t += 7

        def dies(game_id: str) -> None:
            raise KeyboardInterrupt("the process dies here")

        svc.notifier.appended = dies
        with pytest.raises(KeyboardInterrupt):
            svc.join(gid, inv["japan"])
        assert svc.credentials.open_seats(gid) == []
        assert svc.store.clock_since(gid) == (True, t.t)
        [row] = [r for r in svc.store.claim(t.t, 30, 10) if r.reader == "russia"]
        data = json.loads(row.payload)["data"]
        assert (row.kind, row.id) == ("your-turn", f"msg_begun_{gid}_russia")
        assert data["deadline_at"] == datetime.fromtimestamp(t.t + 60, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        assert data["awaiting"] and all("russia" in e["seats"] for e in data["awaiting"])
        svc.store.close()


def last_join_setup(tmp_path):
    """A two-seat battle with a turn clock: russia joined and registered a webhook; japan's join is the last."""
    from service.webhooks import Allow

    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    g = create(svc, "battlefleet-1900", "bot", seconds=60, open_seats=True)
    gid, inv = g["game_id"], {s["seat"]: s["invitation"] for s in g["seats"]}
    svc.webhooks.allow = Allow("127.0.0.1")
    svc.join(gid, inv["russia"])
    svc.webhooks.put(gid, "russia", {"url": "http://127.0.0.1:9/hook"})
    return t, svc, g, gid, inv


def test_a_last_join_that_fails_before_its_write_writes_nothing_and_may_be_sent_again(tmp_path):
    """The other half of "written together": a failure while the last join makes what it writes with its seat (here
    the notifications' payload) answers an error and leaves the seat open, the invitation unspent, no clock and no
    notification; the join sent again takes the seat with all of them."""
    t, svc, g, gid, inv = last_join_setup(tmp_path)
    real = svc.webhooks.row

    def fails(*args):
        raise RuntimeError("the payload could not be made")

    svc.webhooks.row = fails
    with pytest.raises(RuntimeError):
        svc.join(gid, inv["japan"])
    assert svc.credentials.open_seats(gid) == ["japan"] and svc.store.clock_since(gid) == (True, None)
    assert not svc.store.claim(t.t, 30, 10)
    svc.webhooks.row = real
    svc.join(gid, inv["japan"])
    assert svc.credentials.open_seats(gid) == [] and [r.reader for r in svc.store.claim(t.t, 30, 10)] == ["russia"]


def test_a_last_join_whose_game_moved_meanwhile_makes_its_your_turn_again(tmp_path):
    """The your-turn is made from the game as the join read it; if the log moves before the seat is written (the
    referee pauses the clock meanwhile), the write is refused and made again from the new version, so the notification
    never names a version the game has left (a cold review of the one-transaction join)."""
    from service.payloads import DeadlinesPayload

    t, svc, g, gid, inv = last_join_setup(tmp_path)
    real, made = svc._begins, []

    def referee_pauses_meanwhile(game_id):
        begins = real(game_id)
        made.append(begins.version)
        if len(made) == 1:
            svc.set_deadlines(game_id, g["referee_token"], DeadlinesPayload(paused=True))
        return begins

    svc._begins = referee_pauses_meanwhile
    svc.join(gid, inv["japan"])
    [row] = svc.store.claim(t.t, 30, 10)
    version = json.loads(row.payload)["data"]["version"]
    assert made == [made[0], made[0] + 1] and version == made[1] == svc.reads.summary(gid)["version"]


def test_a_turn_run_out_is_told_to_its_seat_and_to_the_referee(tmp_path):
    """A referee's trial: a seat whose time ran out, played for by the bot and awaited again, heard nothing (it was
    awaited before and after, so no `your-turn`), nor did the referee. Now both get a `deadline-expired` naming the
    seat; the seat's says what it owes now and when its new turn runs out."""
    from service.webhooks import Allow

    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    svc.webhooks.allow = Allow("127.0.0.1")
    g = create(svc, "corvette-command", "bot", seconds=300)
    gid = g["game_id"]
    svc.webhooks.put(gid, "captain", {"url": "http://127.0.0.1:9/captain"})
    svc.webhooks.put(gid, "referee", {"url": "http://127.0.0.1:9/referee"})
    t.t += 300
    assert svc.clocks.sweep() == 1
    (mine,) = [json.loads(r.payload) for r in svc.store.deliveries(gid, "captain") if r.kind == "deadline-expired"]
    (theirs,) = [json.loads(r.payload) for r in svc.store.deliveries(gid, "referee") if r.kind == "deadline-expired"]
    assert mine["data"]["expired"] == theirs["data"]["expired"] == "captain"
    assert mine["data"]["action"] == theirs["data"]["action"] == "bot"  # what acted for it, as DeadlineExpired says
    assert mine["data"]["awaiting"] and mine["data"]["deadline_at"] == datetime.fromtimestamp(t.t + 300, UTC).strftime(
        "%Y-%m-%dT%H:%M:%SZ"
    )
    assert theirs["data"]["seat"] == "referee" and theirs["data"]["deadline_at"] is None


def test_a_referees_change_of_the_clock_is_told_to_each_seat_whose_running_turn_it_changes(tmp_path):
    """A seat warned that its turn runs out soon heard nothing when the referee gave it an hour more, paused the clock
    or changed the rule: it hurried, or waited on a clock that had stopped. Now each awaited seat whose running turn
    the change moves gets a `deadline-changed` with its new `deadline_at` (none while paused) and the clock; seconds
    given to one seat tell that seat alone; the referee, who made the change, is not told it."""
    from service.webhooks import Allow

    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    svc.webhooks.allow = Allow("127.0.0.1")
    g = create(svc, "battlefleet-1900", "bot", seconds=600)
    gid, ref = g["game_id"], g["referee_token"]
    for reader in ("japan", "russia", "referee"):
        svc.webhooks.put(gid, reader, {"url": f"http://127.0.0.1:9/{reader}"})
    iso = lambda x: datetime.fromtimestamp(x, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")  # noqa: E731

    def told(reader: str) -> list[dict]:
        rows = [json.loads(r.payload)["data"] for r in svc.store.deliveries(gid, reader) if r.kind == "deadline-changed"]
        return sorted(rows, key=lambda d: d["version"])  # oldest first

    start = t.t
    svc.set_deadlines(gid, ref, DeadlinesPayload(extend={"japan": 3600}))
    [japan] = told("japan")
    assert japan["deadline_at"] == iso(start + 4200) and japan["extended"] == 3600
    assert japan["deadlines"] == {"turn_seconds": 600, "on_expiry": "bot", "paused": False}
    assert told("russia") == [] and told("referee") == []  # russia's turn did not move

    svc.set_deadlines(gid, ref, DeadlinesPayload(paused=True))
    paused = {reader: told(reader)[-1] for reader in ("japan", "russia")}
    assert all(d["deadline_at"] is None and d["deadlines"]["paused"] and d["extended"] == 0 for d in paused.values())
    t.t += 50
    svc.set_deadlines(gid, ref, DeadlinesPayload(paused=False))  # every awaited turn starts again, whole
    assert [told(reader)[-1]["deadline_at"] for reader in ("japan", "russia")] == [iso(t.t + 600)] * 2
    svc.set_deadlines(gid, ref, DeadlinesPayload(on_expiry="default"))  # a new rule: each running turn's terms
    assert [told(reader)[-1]["deadlines"]["on_expiry"] for reader in ("japan", "russia")] == ["default"] * 2
    assert len(told("japan")) == len(told("russia")) + 1 == 4 and told("referee") == []

    svc.command(gid, token(g, "japan"), {"type": "start"})  # japan off the clock: its next turn's seconds, no notice
    svc.set_deadlines(gid, ref, DeadlinesPayload(extend={"japan": 70}))
    assert len(told("japan")) == 4


def test_a_deadline_warning_is_queued_once_when_a_fifth_of_the_turn_is_left(tmp_path):
    t = FakeTime()
    db = str(tmp_path / "d.db")
    a, b = service(db, t), service(db, t)
    g = create(a, "battlefleet-1900", "bot", seconds=500)
    gid = g["game_id"]
    from service.webhooks import Allow

    for svc in (a, b):
        svc.webhooks.allow = Allow("127.0.0.1")
    a.webhooks.put(gid, "japan", {"url": "http://127.0.0.1:9/hook"})
    t.t += 399
    a.clocks.sweep()
    assert [r.kind for r in a.store.deliveries(gid, "japan")] == []
    t.t += 1  # 100 s (a fifth) left
    a.clocks.sweep()
    b.clocks.sweep()
    a.clocks.sweep()
    warnings = [r for r in a.store.deliveries(gid, "japan") if r.kind == "deadline-warning"]
    assert len(warnings) == 1
    data = json.loads(warnings[0].payload)["data"]
    assert data["seat"] == "japan" and data["deadline_at"] == datetime.fromtimestamp(
        t.t + 100, UTC
    ).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert [r.kind for r in a.store.deliveries(gid, "russia")] == []  # russia registered nothing


def test_the_expiry_of_a_sealed_step_is_as_hidden_as_the_seats_own_orders(tmp_path):
    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    g = create(svc, "battlefleet-1900", "bot", seconds=60)
    gid = g["game_id"]
    t.t += 60
    svc.clocks.sweep()
    public = json.loads(svc.bundles.encoded(gid))  # the one bundle, whoever asks (docs/bundles.md "Sealed records")
    shown = {c["command_id"]: c["payload"] for c in public["commands"]}
    assert set(shown["deadline-japan-1"]) == {"sealed"}  # the bot's sealed setup for japan: a commitment only
    assert set(shown["deadline-russia-1"]) == {"sealed"}
    sealed = {
        reader: [e for e in svc.reads.events(gid, 0, 100, reader)["events"] if e["type"] == "SubmissionSealed"]
        for reader in ("japan", "russia")
    }
    # japan reads its own record's content (the bot's start), russia's record only as a commitment, and vice versa
    mine = [e for e in sealed["japan"] if e["data"]["seat"] == "japan"]
    assert "start" in [e["data"]["kind"] for e in mine] and all("sealed" in e for e in mine)
    assert all("sealed" not in e for e in sealed["japan"] if e["data"]["seat"] == "russia")
    assert all("sealed" not in e for e in sealed["russia"] if e["data"]["seat"] == "japan")


# ---- over HTTP ----


def test_http_deadlines_at_creation_in_the_summary_and_the_referees_changes(tmp_path):
    app = create_app(str(tmp_path / "h.db"))
    with TestClient(app) as c:
        bad = c.post("/games", json={"ruleset": "battlefleet-1900", "deadlines": {"turn_seconds": 0, "on_expiry": "bot"}})
        assert bad.status_code == 422 and bad.headers["content-type"].startswith("application/problem+json")
        bad = c.post("/games", json={"ruleset": "battlefleet-1900", "deadlines": {"turn_seconds": 60, "on_expiry": "x"}})
        assert bad.status_code == 422
        g = c.post(
            "/games", json={"ruleset": "battlefleet-1900", "deadlines": {"turn_seconds": 3600, "on_expiry": "default"}}
        ).json()
        gid, ref = g["game_id"], g["referee_token"]
        summary = c.get(f"/games/{gid}").json()
        assert summary["deadlines"]["turn_seconds"] == 3600 and set(summary["deadlines"]["deadline_at"]) == {
            "japan",
            "russia",
        }
        seat = {"Authorization": f"Bearer {token(g, 'japan')}"}
        r = c.post(f"/games/{gid}/deadlines", json={"paused": True}, headers=seat)
        assert r.status_code == 403 and r.json()["code"] == "referee-only"
        r = c.post(f"/games/{gid}/deadlines", json={}, headers={"Authorization": f"Bearer {ref}"})
        assert r.status_code == 422 and r.json()["code"] == "invalid-deadlines"
        r = c.post(f"/games/{gid}/deadlines", json={"extend": {"nobody": 5}}, headers={"Authorization": f"Bearer {ref}"})
        assert r.status_code == 422 and "nobody" in r.json()["detail"]
        version = c.get(f"/games/{gid}").json()["version"]
        assert version == g["version"]  # refused changes append nothing
        r = c.post(f"/games/{gid}/deadlines", json={"paused": True}, headers={"Authorization": f"Bearer {ref}"})
        assert r.status_code == 200 and r.json()["events"][0]["type"] == "DeadlinesChanged"
        assert c.get(f"/games/{gid}").json()["deadlines"] == {
            "turn_seconds": 3600,
            "on_expiry": "default",
            "paused": True,
            "deadline_at": {},
        }
        plain = c.post("/games", json={"ruleset": "battlefleet-1900"}).json()
        assert c.get(f"/games/{plain['game_id']}").json()["deadlines"] is None
        # a players' trial: an invitation said nothing of the clock a player accepts with the seat
        clock = {"turn_seconds": 30, "on_expiry": "forfeit"}
        opened = c.post("/games", json={"ruleset": "battlefleet-1900", "open_seats": True, "deadlines": clock}).json()
        offer = c.post(f"/games/{opened['game_id']}/invitation", json={"invitation": opened["seats"][0]["invitation"]})
        assert offer.json()["deadlines"] == {**clock, "paused": False, "deadline_at": {}}  # none runs before the joins
        r = c.post(
            f"/games/{plain['game_id']}/deadlines",
            json={"paused": True},
            headers={"Authorization": f"Bearer {plain['referee_token']}"},
        )
        assert r.status_code == 409 and r.json()["code"] == "no-deadlines"


def test_http_the_servers_own_sweeper_fires_a_deadline_and_the_log_shows_it(tmp_path):
    """The app as served: its sweeper thread (started with the app) expires a 1-second turn; the test waits on the
    log, not on a sleep."""
    import time

    from service.settings import Settings

    settings = Settings.from_env(db=str(tmp_path / "h.db"), deadline_poll=0.05)
    with TestClient(create_app(settings=settings)) as c:
        g = c.post("/games", json={"ruleset": "corvette-command", "deadlines": {"turn_seconds": 1, "on_expiry": "bot"}})
        gid = g.json()["game_id"]
        found: list[dict] = []
        give_up = time.monotonic() + 60
        while not found and time.monotonic() < give_up:
            log = c.get(f"/games/{gid}/events").json()["events"]
            found = [e for e in log if e["type"] == "DeadlineExpired"]
            time.sleep(0.05)  # between looks at the condition, not instead of it
        assert found and found[0]["data"] == {"seat": g.json()["seats"][0]["seat"], "since": 1, "action": "bot"}
        assert found[0]["actor"] == g.json()["seats"][0]["seat"]


def test_http_the_openapi_example_of_extend_is_accepted_as_it_stands(tmp_path):
    """The example in ChangeDeadlines.extend's description names a seat the way the game names it (it said "Russia",
    which the server refuses: seats are `japan` and `russia`), so a client sending it gets 200."""
    app = create_app(str(tmp_path / "x.db"))
    described = app.openapi()["components"]["schemas"]["ChangeDeadlines"]["properties"]["extend"]["description"]
    example = json.loads(re.search(r"e\.g\. (\{[^}]*\})", described).group(1))
    with TestClient(app) as c:
        g = c.post("/games", json={"ruleset": "battlefleet-1900", "deadlines": {"turn_seconds": 60, "on_expiry": "bot"}})
        gid, ref = g.json()["game_id"], g.json()["referee_token"]
        r = c.post(f"/games/{gid}/deadlines", json={"extend": example}, headers={"Authorization": f"Bearer {ref}"})
        assert r.status_code == 200, r.text
        assert r.json()["events"][0]["data"]["extend"] == example


def test_http_a_clock_the_schema_refuses_is_invalid_deadlines_at_creation_and_at_a_change(tmp_path):
    """docs/api.md "Errors": 422 `invalid-deadlines` for a `turn_seconds` or an `extend` out of range or an unknown
    `on_expiry`, at POST /games as at POST /games/{id}/deadlines (the schema's bounds refused them as
    `invalid-request` before the rules' checks could). Nothing is created or recorded; the OpenAPI states the
    bounds the server holds them to."""
    app = create_app(str(tmp_path / "c.db"))
    top = 366 * 24 * 3600
    schemas = app.openapi()["components"]["schemas"]
    bounded = {"type": "integer", "minimum": 1, "maximum": top}
    assert {k: schemas["Deadlines"]["properties"]["turn_seconds"][k] for k in bounded} == bounded
    assert bounded in schemas["ChangeDeadlines"]["properties"]["turn_seconds"]["anyOf"]
    assert schemas["ChangeDeadlines"]["properties"]["extend"]["additionalProperties"] == bounded
    with TestClient(app) as c:
        for clock, field in [
            ({"turn_seconds": 0, "on_expiry": "bot"}, "turn_seconds"),
            ({"turn_seconds": 99999999999, "on_expiry": "bot"}, "turn_seconds"),
            ({"turn_seconds": top + 1, "on_expiry": "bot"}, "turn_seconds"),
            ({"turn_seconds": 60, "on_expiry": "nap"}, "on_expiry"),
            ({"turn_seconds": 60}, "on_expiry"),
            ({"turn_seconds": "60", "on_expiry": "bot"}, "turn_seconds"),  # a field of the wrong JSON type
            ({"turn_seconds": 60, "on_expiry": "bot", "grace": 5}, "grace"),  # a field the clock has not
            (60, "object"),  # not an object at all
        ]:
            r = c.post("/games", json={"ruleset": "corvette-command", "deadlines": clock})
            assert r.status_code == 422 and r.json()["code"] == "invalid-deadlines", (clock, r.text)
            assert "$.deadlines" in r.json()["detail"] and r.headers["content-type"].startswith("application/problem")
            assert field in r.json()["detail"] or "missing" in r.json()["detail"], r.json()
        for other in [
            {"ruleset": "corvette-command", "seats": 5},  # not the clock: as before
            [{"ruleset": "corvette-command", "deadlines": {"turn_seconds": 0, "on_expiry": "bot"}}],  # not an object
            {"ruleset": "corvette-command", "x - at `$.deadlines": 1},  # a field name that only reads like the path
        ]:
            r = c.post("/games", json=other)
            assert r.status_code == 422 and r.json()["code"] == "invalid-request", (other, r.text)
        assert c.get("/games").json()["games"] == []  # nothing was created
        g = c.post("/games", json={"ruleset": "battlefleet-1900", "deadlines": {"turn_seconds": top, "on_expiry": "bot"}})
        assert g.status_code == 201, g.text
        gid, ref = g.json()["game_id"], {"Authorization": f"Bearer {g.json()['referee_token']}"}
        version = c.get(f"/games/{gid}").json()["version"]
        for change in [
            {"on_expiry": "nap"},
            {"turn_seconds": 0},
            {"turn_seconds": 99999999999},
            {"extend": {"russia": 0}},
            {"extend": {"russia": top + 1}},
            {"extend": {"Russia": 3600}},
        ]:
            r = c.post(f"/games/{gid}/deadlines", json=change, headers=ref)
            assert r.status_code == 422 and r.json()["code"] == "invalid-deadlines", (change, r.text)
        assert c.get(f"/games/{gid}").json()["version"] == version  # nothing recorded
        r = c.post(f"/games/{gid}/deadlines", json={"turn_seconds": top, "extend": {"russia": top}}, headers=ref)
        assert r.status_code == 200, r.text


@pytest.mark.parametrize("store_kind", ["sqlite", "postgresql"])
def test_settled_notifications_are_pruned_after_the_keeping_time_but_a_running_turns_warning_stays(
    tmp_path, store_kind
):
    """docs/operations.md "Webhooks": the dispatcher deletes settled notifications `UMPIRE_OUTBOX_KEEP_DAYS` after they
    settled, pending ones never. A deadline-warning stays while its game's clock runs: its id is what stops a later
    sweep from warning the same turn again, and a turn may outlast the keeping time (here a year's turn)."""
    from service.webhooks import Allow, Dispatcher

    t = FakeTime()
    with contextlib.ExitStack() as stack:
        db = str(tmp_path / "d.db") if store_kind == "sqlite" else stack.enter_context(postgres_url())
        svc = service(db, t)
        g = create(svc, "battlefleet-1900", "bot", seconds=366 * 86400)
        gid = g["game_id"]
        svc.webhooks.allow = Allow("127.0.0.1")
        svc.webhooks.put(gid, "japan", {"url": "http://127.0.0.1:9/hook"})
        t.t += 300 * 86400  # past four fifths of the turn: its warning is queued
        svc.clocks.sweep()
        [warning] = [r for r in svc.store.deliveries(gid, "japan") if r.kind == "deadline-warning"]
        delivered = svc.webhooks.enqueue(gid, "japan", "ping", {})
        for row in (warning, delivered):
            svc.store.settle(row.id, "delivered", "200", t.t, None)
        waiting = svc.webhooks.enqueue(gid, "japan", "ping", {})
        keeper = Dispatcher(svc.store, Allow(""), clock=t, keep_days=30)
        assert Dispatcher(svc.store, Allow(""), clock=t, keep_days=0).prune() == 0
        t.t += 29 * 86400
        assert keeper.prune() == 0  # not 30 days yet
        t.t += 2 * 86400
        assert keeper.prune() == 1  # the delivered ping
        assert {r.id for r in svc.store.deliveries(gid, "japan")} == {warning.id, waiting.id}
        svc.clocks.sweep()  # the turn still runs (335 days of 366): its warning is not queued again
        assert [r.id for r in svc.store.deliveries(gid, "japan") if r.kind == "deadline-warning"] == [warning.id]
        svc.command(gid, token(g, "russia"), {"type": "concede"})  # the game ends: its clock with it
        assert keeper.prune() == 0  # once an hour at most
        t.t += 3600
        assert keeper.prune() == 1  # the warning; the ping and the game-over still pending stay
        assert {r.kind for r in svc.store.deliveries(gid, "japan")} == {"ping", "game-over"}


def test_a_long_outbox_is_pruned_a_batch_a_turn_of_the_dispatchers_loop(tmp_path, monkeypatch):
    """A review: the first prune after an upgrade deleted a whole backlog in one call, holding deliveries for as long.
    Each call deletes one batch; while batches come back full the next turn of the loop prunes again, then an hour."""
    from service.webhooks import Allow, Dispatcher

    t = FakeTime()
    svc = service(str(tmp_path / "d.db"), t)
    g = create(svc, "battlefleet-1900", "bot")
    gid = g["game_id"]
    svc.webhooks.allow = Allow("127.0.0.1")
    svc.webhooks.put(gid, "japan", {"url": "http://127.0.0.1:9/hook"})
    for _ in range(5):
        svc.store.settle(svc.webhooks.enqueue(gid, "japan", "ping", {}).id, "delivered", "200", t.t, None)
    monkeypatch.setattr(svc.store, "PRUNE_BATCH", 2)
    keeper = Dispatcher(svc.store, Allow(""), clock=t, keep_days=1)
    t.t += 2 * 86400
    assert [keeper.prune() for _ in range(4)] == [2, 2, 1, 0]  # full, full, the rest, then an hour's wait
    t.t += 3600
    assert keeper.prune() == 0 and svc.store.deliveries(gid, "japan") == []


def test_a_negative_outbox_keeping_time_is_refused_at_start(monkeypatch):
    """A negative number of days would put the cut in the future and delete every settled notification at once."""
    from service.settings import Settings

    monkeypatch.setenv("UMPIRE_OUTBOX_KEEP_DAYS", "-1")
    with pytest.raises(SystemExit, match="0 or more"):
        Settings.from_env()
    monkeypatch.setenv("UMPIRE_OUTBOX_KEEP_DAYS", "0")
    assert Settings.from_env().outbox_keep_days == 0
