"""Open seats in the Play tab, in Chromium: the join page (an invitation, and a passphrase that becomes the seat's seed
for the dice), and a table whose game still has a seat open (the server refuses commands until every seat is taken,
so the page offers none and says whom it waits for)."""

from __future__ import annotations

import hashlib

import httpx
import pytest

from tests.desk_browser import Desk
from tests.live import server_process

WAIT = 30_000  # ms
SEND = "#play-move .nu-decision button.nu-send, #play-move .nu-decision button.choice"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("seats") / "seats.db")
    with server_process(db, env={"UMPIRE_CREATE_PER_MINUTE": "0"}) as (base, _):
        yield base


def invited(base: str) -> tuple[str, dict[str, str]]:
    """A Battlefleet game whose two seats are open: its id and each seat's invitation."""
    body = {"ruleset": "battlefleet-1900", "options": {"scenario": "yellow-sea-1904"}, "open_seats": True}
    made = httpx.post(f"{base}/games", json=body).json()
    return made["game_id"], {s["seat"]: s["invitation"] for s in made["seats"]}


def test_the_join_page_takes_a_passphrase_and_shows_the_seed_it_recorded(browser, server):
    gid, invitations = invited(server)
    desk = Desk(browser, server)
    p = desk.page
    desk.open(f"#/play/{gid}/join/{invitations['japan']}")
    phrase = p.get_by_role("textbox", name="Passphrase: your say in the dice")
    assert p.inner_text("#play-join-seat") == "japan"
    assert "before the first roll" in p.inner_text("#play-join-hint")
    # refused (a passphrase past the API's 1024 characters: 422): said in the page, what was typed kept, seat not taken
    phrase.fill("x" * 1025)
    p.click("#play-join-take")
    p.wait_for_selector("#play-error:not([hidden])")
    assert "passphrase" in p.inner_text("#play-error")
    assert phrase.input_value() == "x" * 1025 and p.locator("#play-join-take").is_enabled()
    desk.screenshot("seats-join-refused", full_page=False)
    phrase.fill("the owl flies at midnight")
    phrase.press("Enter")
    p.wait_for_selector("#play-seat")
    seed = hashlib.sha256(b"the owl flies at midnight").hexdigest()
    assert p.inner_text("#play-joined-seed") == seed
    events = httpx.get(f"{server}/games/{gid}/events").json()["events"]
    given = [e["data"] for e in events if e["type"] == "ClientSeedContributed"]
    assert given == [{"seat": "japan", "client_seed": seed}], given
    desk.close()
    # no passphrase: the page says no seed of this seat's was recorded
    desk = Desk(browser, server)
    desk.open(f"#/play/{gid}/join/{invitations['russia']}")
    desk.page.click("#play-join-take")
    desk.page.wait_for_selector("#play-seat")
    assert "No seed of yours was recorded: you gave no passphrase" in desk.page.inner_text("#play-joined")
    desk.close()


def test_a_table_with_a_seat_open_offers_nothing_until_the_last_player_joins(browser, server):
    gid, invitations = invited(server)
    desk = Desk(browser, server)
    p = desk.page
    desk.open(f"#/play/{gid}/join/{invitations['japan']}")
    p.click("#play-join-take")
    p.wait_for_selector("#play-seats-open")
    assert p.inner_text("#play-seats-open") == (
        "Waiting for players: russia has not joined; the game starts when every seat is taken."
    )
    p.wait_for_selector(SEND)
    assert all(b.is_disabled() for b in p.locator(SEND).all())
    assert p.inner_text("#play-status") == "waiting for players"
    assert "waiting for japan" not in p.inner_text("#play-head")  # the rules' own waiting comes once the game begins
    desk.screenshot("seats-open-waiting", full_page=False)
    advanced = p.locator("#play-move details.play-advanced").first
    advanced.locator("summary").click()  # what the player opened while waiting stays open when the game starts
    # the other player joins: no event, but the stream sends its state again, `open_seats` empty (no polling)
    joined = httpx.post(f"{server}/games/{gid}/join", json={"invitation": invitations["russia"]})
    assert joined.status_code == 201, joined.text
    p.wait_for_selector("#play-seats-open", state="detached", timeout=WAIT)
    send = p.locator(SEND).first
    assert send.is_enabled() and advanced.get_attribute("open") is not None
    assert p.inner_text("#play-status") == "in play"
    desk.send(send, timeout=WAIT)
    desk.close()


def test_a_solitaire_games_open_seat_is_a_link_to_take_it_in_this_tab(browser, server):
    desk = Desk(browser, server)
    p = desk.page
    desk.open("#/play")
    p.select_option("#play-ruleset", "corvette-command")  # one seat: the captain
    assert p.is_checked("#play-open")
    p.click("#play-create")
    p.get_by_role("link", name="take captain in this tab").click()
    p.click("#play-join-take")
    p.wait_for_selector("#play-seat")
    assert p.inner_text("#play-seat") == "captain"
    desk.close()


def test_a_join_with_a_passphrase_fits_a_phones_width(browser, server):
    """The seed a join records is 64 hex digits with no break: on a 390 px phone it wraps inside its line, and the page
    does not scroll sideways (it made the page 547 px wide)."""
    gid, invitations = invited(server)
    desk = Desk(browser, server)
    p = desk.page
    p.set_viewport_size({"width": 390, "height": 844})
    desk.open(f"#/play/{gid}/join/{invitations['japan']}")
    p.get_by_role("textbox", name="Passphrase: your say in the dice").fill("banzai")
    p.click("#play-join-take")
    p.wait_for_selector("#play-joined-seed")
    p.wait_for_selector("#play-picture[data-at]", timeout=WAIT)
    desk.screenshot("seats-join-phone")
    assert p.evaluate("document.documentElement.scrollWidth") <= 390
    desk.close()


def test_the_join_page_says_the_turn_clock_the_seat_comes_with(browser, server):
    """A players' trial: a player accepting a seat with a 90-second turn saw nothing of it until it had joined."""
    body = {"ruleset": "battlefleet-1900", "options": {"scenario": "yellow-sea-1904"}, "open_seats": True,
            "deadlines": {"turn_seconds": 90, "on_expiry": "forfeit"}}
    made = httpx.post(f"{server}/games", json=body).json()
    desk = Desk(browser, server)
    desk.open(f"#/play/{made['game_id']}/join/{made['seats'][0]['invitation']}")
    clock = desk.page.wait_for_selector("#play-join-clock").inner_text()
    assert "1 min 30 s a turn" in clock and "it concedes where the rules let it" in clock
    gid, invitations = invited(server)  # no clock: nothing said
    desk.open(f"#/play/{gid}/join/{invitations['japan']}")
    desk.page.wait_for_selector("#play-join-seat")
    assert desk.page.locator("#play-join-clock").count() == 0
    desk.close()
