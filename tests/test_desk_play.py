"""The desk's Play route in Chromium (issue 20): games created and played through the page alone, which speaks only
the public API through the TypeScript client (service/desk/js/client/). Screenshots: tests/output/desk/play-*.png."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.conftest import own_copy
from tests.desk_browser import Desk
from tests.live import server_process

UBOAT_PICKS = {
    "picks": [
        {"boat": "U-43", "level": "trained", "port": "germany"},
        {"boat": "U-47", "level": "trained", "port": "germany"},
        {"boat": "U-51", "level": "trained", "port": "germany"},
        {"boat": "U-56", "level": "ace", "port": "germany"},
    ]
}
TURN_TO_STARBOARD = {"divisions": [{"division": "J1", "orders": [{"turn": "succession", "to": "starboard", "arrow": 45}]}]}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("play") / "play.db")
    with server_process(db, env={"UMPIRE_CREATE_PER_MINUTE": "0"}) as (base, _):
        yield base


def create(desk: Desk, ruleset: str, open_seats: bool, bots: tuple[str, ...] = ()) -> str:
    p = desk.page
    desk.open("#/play")
    p.select_option("#play-ruleset", ruleset)
    p.set_checked("#play-open", open_seats)
    for seat in bots:
        p.check(f'#play-bots input[data-seat="{seat}"]')
    p.click("#play-create")
    p.wait_for_selector("#play-made-id", state="attached")
    return p.inner_text("#play-made-id")


def act(desk: Desk, choose: str = "first-choice", args: dict | None = None) -> bool:
    """One command from the page: the first choice button, or the first entry's advanced JSON box (opened, filled
    with `args`). False once the game is over. Waits until the page shows the version the command made."""
    p = desk.page
    p.wait_for_selector("#play-over, button.choice, button.play-send", state="attached", timeout=20_000)
    if p.locator("#play-over").count():
        return False
    clickable = p.locator('.nu-decision:not([data-type="concede"])').locator("button.choice, button.nu-send")
    if choose == "first-choice" and clickable.count():
        desk.send(clickable.first, timeout=20_000)  # the first choice, or a form's send as it starts
    else:
        advanced = p.locator('details.play-advanced:not([data-type="concede"])').first
        if advanced.get_attribute("open") is None:
            advanced.locator("summary").click()
        form = advanced.locator("textarea.play-args")
        form.fill(json.dumps(args or {}))
        desk.send(advanced.locator("button.play-send"), timeout=20_000)
    return True


def test_a_corvette_convoy_played_to_its_end_in_the_play_tab(browser, server):
    desk = Desk(browser, server)
    gid = create(desk, "corvette-command", open_seats=False)
    desk.screenshot("play-lobby-created")
    desk.page.click('a.play-as[data-seat="captain"]')
    desk.page.wait_for_selector("#play-seat")
    assert desk.page.inner_text("#play-seat") == "captain"
    desk.page.wait_for_selector("button.choice")
    desk.screenshot("play-corvette-start")
    sent, rolled = 0, None
    while act(desk):
        sent += 1
        assert sent < 400
        if sent == 40:
            desk.screenshot("play-corvette-middle")
        shown = desk.page.locator("#play-log a.play-roll")
        if rolled is None and shown.count():  # the log's last events hold a roll: how it reads (checked below)
            rolled = shown.first.get_attribute("href"), shown.first.inner_text()
    desk.screenshot("play-corvette-end")
    game = httpx.get(f"{server}/games/{gid}").json()
    assert game["status"] == "over" and game["awaiting"] == []
    # every command of the game came from the page (a convoy's length is the fair dice's: 14 commands have been seen)
    commands = httpx.get(f"{server}/games/{gid}/bundle").json()["commands"]
    assert [c["seat"] for c in commands] == ["creator"] + ["captain"] * sent, commands[-1]
    assert desk.page.get_attribute("#play-status", "data-status") == "over"
    # the log said what a roll among its last events did (its faces and outcome, as the roll ledger has them), and
    # links the roll's page: a player needs no other page to see what the dice did to them
    assert rolled is not None, "no roll was ever among the log's last events"
    href, text = rolled
    k = int(href.rsplit("/", 1)[1])
    roll = httpx.get(f"{server}/games/{gid}/rolls/{k}").json()
    assert text.startswith(f"roll {k}, {roll['purpose'].replace('-', ' ')}: {', '.join(map(str, roll['faces']))}")
    assert roll["result"]["outcome"] in text
    desk.open(href)
    desk.page.wait_for_selector("#roll-title")
    assert f"Roll k={k} " in desk.page.inner_text("#roll-title")
    desk.close()


def _attacked(server: str, gid: str, seat: str, token: str) -> dict | None:
    """Play `seat`'s first choices through the API until a U-boat attacks its section: the engagement view then, or
    None if the game ends first."""
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(1000):  # a corvette campaign of three convoys ends within a few hundred commands
        seen = httpx.get(f"{server}/games/{gid}/views/engagement").json()["data"]
        if seen["uboat"] is not None and seen["escort"] == seat:
            return seen
        game = httpx.get(f"{server}/games/{gid}", headers=auth).json()
        if game["status"] != "open":
            return None
        entry = next((a for a in game["awaiting"] if seat in a["seats"] and a["type"] != "concede"), None)
        if entry is not None:
            chosen = (entry.get("choices") or [entry.get("default") or {}])[0]
            httpx.post(f"{server}/games/{gid}/commands", headers=auth, json={"type": entry["type"], **chosen})
    return None


def test_the_lobbys_option_fields_of_a_ruleset_left_behind_never_write_the_next_ones_options(browser, server):
    """A review found the last ruleset's fields live while the next one's schema was on its way: a field changed then
    wrote an option the next ruleset does not have. Now the fields go at once, and come back with the schema."""
    desk = Desk(browser, server)
    p = desk.page
    held = []
    p.route("**/rulesets/battlefleet-1900", lambda route: held.append(route))  # its schema, held until released
    desk.open("#/play")
    p.wait_for_selector("#play-option-rounds")  # aa1942-convoy's, the first ruleset's
    with p.expect_request("**/rulesets/battlefleet-1900"):
        p.select_option("#play-ruleset", "battlefleet-1900")
    p.wait_for_function("!document.querySelector('#play-option-rounds')")
    assert len(held) == 1 and p.locator("#play-fields [data-option]").count() == 0  # none while the schema is held
    for route in held:
        route.continue_()
    p.unroute("**/rulesets/battlefleet-1900")
    p.wait_for_selector("#play-option-fog")
    p.select_option("#play-option-fog", "open")
    p.wait_for_function("document.querySelector('#play-options').value.includes('open')")
    assert json.loads(p.input_value("#play-options")) == {"scenario": "yellow-sea-1904", "fog": "open"}
    desk.close()


def test_the_lobbys_seats_follow_the_options_and_a_two_player_escort_can_be_the_bots(browser, server):
    """The seats the server may play are the ones the options give (GET /rulesets/{id}/seats): corvette-command's
    two_player makes two escorts, and escort-b ticked is a bot in the game made; options that are not JSON yet keep
    the last seats and say why (the new-user trial: the lobby offered only the captain)."""
    desk = Desk(browser, server)
    p = desk.page
    desk.open("#/play")
    p.select_option("#play-ruleset", "corvette-command")
    # one seat, the player's own: the seats come from the server after the pick (the first ruleset's until then)
    p.wait_for_function(
        "!document.querySelector('#play-bots input') && document.querySelector('#play-bots').innerText.includes('yours')"
    )
    p.fill("#play-options", '{"convoys": 1, "two_player": true')
    p.wait_for_selector("#play-seats-why")
    assert "not JSON" in p.inner_text("#play-seats-why")
    p.fill("#play-options", '{"convoys": 1, "two_player": true}')
    p.wait_for_selector('#play-bots input[data-seat="escort-b"]')
    assert [x.get_attribute("data-seat") for x in p.locator("#play-bots input").all()] == ["escort-a", "escort-b"]
    # the options of one value are fields too (options_schema): what is typed in the box shows in them, and a field
    # writes the box, leaving an option at its default out
    p.wait_for_selector("#play-option-two_player")
    assert p.is_checked("#play-option-two_player") and p.input_value("#play-option-convoys") == "1"
    p.fill("#play-options", '{"convoys": 1, "two_player": true')  # not JSON: the fields wait for it to be mended
    p.wait_for_function("document.querySelector('#play-fields').disabled")
    p.fill("#play-options", '{"convoys": 1, "two_player": true}')
    p.wait_for_function("!document.querySelector('#play-fields').disabled")
    p.uncheck("#play-option-two_player")
    p.wait_for_function("!document.querySelector('#play-bots input')")  # one seat again
    assert json.loads(p.input_value("#play-options")) == {"convoys": 1}
    p.fill("#play-option-convoys", "2")
    p.check("#play-option-two_player")
    p.wait_for_selector('#play-bots input[data-seat="escort-b"]')
    assert json.loads(p.input_value("#play-options")) == {"convoys": 2, "two_player": True}
    p.check('#play-bots input[data-seat="escort-b"]')
    p.set_checked("#play-open", False)
    p.click("#play-create")
    p.wait_for_selector("#play-made-id", state="attached")
    gid = p.inner_text("#play-made-id")
    game = httpx.get(f"{server}/games/{gid}").json()
    assert [(s["seat"], s["bot"]) for s in game["seats"]] == [("escort-a", False), ("escort-b", True)]
    genesis = httpx.get(f"{server}/games/{gid}/events", params={"limit": 1}).json()
    assert genesis["events"][0]["data"]["options"]["convoys"] == 2  # the field's value is the game's
    # escort-a plays on (its first choices, through the API) until a U-boat attacks its section (fair dice: a convoy
    # without one is played again in a new game): the engagement picture says whose section it is and who helps
    # (CC-R38), as the view does
    p.click('a.play-as[data-seat="escort-a"]')
    p.wait_for_selector("#play-seat")
    token = p.evaluate(f"sessionStorage.getItem(Object.keys(sessionStorage).find(k => k.endsWith('{gid}')))")
    for _ in range(5):
        seen = _attacked(server, gid, "escort-a", token)
        if seen is not None:
            break
        made = httpx.post(
            f"{server}/games",
            json={"ruleset": "corvette-command", "options": {"convoys": 3, "two_player": True}, "bots": ["escort-b"]},
        ).json()
        gid, token = made["game_id"], next(s["token"] for s in made["seats"] if s["seat"] == "escort-a")
        p.goto(f"{server}/desk/#/play/{gid}/token/{token}")
        p.wait_for_selector("#play-seat")
    assert seen is not None
    p.click('a[data-view="engagement"]')
    p.wait_for_selector(".uboat-card")
    helper = f"{seen['helped_by']} helping with its ASDIC (CC-R38)" if seen["helped_by"] else "alone"
    p.wait_for_function(f"document.querySelector('.uboat-card').innerText.includes(\"escort-a's, {helper}\")")
    desk.close()


def test_a_uboat_leader_short_campaign_played_to_its_end(browser, server):
    desk = Desk(browser, server)
    gid = create(desk, "uboat-leader", open_seats=False)
    desk.page.locator("a.play-as").first.click()
    desk.page.wait_for_selector('textarea.play-args[data-type="select_uboats"]', state="attached")
    desk.screenshot("play-uboat-start")
    assert act(desk, "form", UBOAT_PICKS)
    sent = 1
    while act(desk):
        sent += 1
        assert sent < 1500
        if sent == 30:
            desk.screenshot("play-uboat-middle")
    desk.screenshot("play-uboat-end")
    sheet = httpx.get(f"{server}/games/{gid}/views/campaign-sheet").json()["data"]
    assert httpx.get(f"{server}/games/{gid}").json()["status"] == "over"
    assert sheet["result"] is not None
    desk.close()


def play_battlefleet_turns(sides: list[Desk], turns: int, start: bool = True) -> None:
    """Setup (`start`), then `turns` turns of five steps; every side sends each step's defaults from its own page."""
    for _ in range(int(start) + 5 * turns):
        for desk in sides:
            desk.page.wait_for_selector("button.play-send", state="attached", timeout=20_000)
            assert act(desk, "form", {})


def test_three_turns_of_battlefleet_in_two_browser_contexts_each_seeing_only_its_own_secrets(browser, server):
    organiser = Desk(browser, server)
    gid = create(organiser, "battlefleet-1900", open_seats=True)
    links = {x.get_attribute("data-seat"): x.input_value() for x in organiser.page.locator("input.play-invite").all()}
    assert set(links) == {"japan", "russia"}
    organiser.screenshot("play-bf-invitations")
    assert "play-as" not in organiser.page.content()  # no seat token on the organiser's page
    japan, russia = Desk(browser, server), Desk(browser, server)  # two contexts: two players
    for desk, seat in ((japan, "japan"), (russia, "russia")):
        desk.page.goto(links[seat])
        desk.page.click("#play-join-take")
        desk.page.wait_for_selector("#play-seat")
        assert desk.page.inner_text("#play-seat") == seat
    # setup and the first orders: Japan turns to starboard; each page shows only its own sealed content
    play_battlefleet_turns([japan, russia], 0)
    japan.page.wait_for_selector('textarea.play-args[data-type="give_orders"]', state="attached")
    assert act(japan, "form", TURN_TO_STARBOARD)
    russia.page.wait_for_selector(".play-sealed-theirs")
    japan.page.wait_for_selector(".play-sealed-mine")
    assert "starboard" in japan.page.text_content("#play-orders")  # in its "what you sealed" fold
    assert "starboard" not in russia.page.content() and "submitted" in russia.page.inner_text("#play-orders")
    japan.screenshot("play-bf-japan-sealed")
    russia.screenshot("play-bf-russia-sees-submitted")
    assert act(russia, "form", {})
    for _ in range(4):  # the rest of turn 1
        for desk in (japan, russia):
            assert act(desk, "form", {})
    # the fire, launches and damage control of both were opened by the rules for everyone (SubmissionsRevealed):
    # Russia's page shows Japan's as opened, no longer sealed (a referee's trial found them labelled sealed); the
    # orders' sealed record stays sealed (under fog their public part is announced, not the record)
    russia.page.wait_for_selector(".play-sealed-opened")
    opened = russia.page.locator(".play-sealed-opened").all_inner_texts()
    assert any(t.startswith("japan: damage control") and "opened by the rules at seq" in t for t in opened), opened
    assert "give orders" not in " ".join(opened)
    play_battlefleet_turns([japan, russia], 2, start=False)
    now = httpx.get(f"{server}/games/{gid}/views/phase").json()["data"]["now"]
    assert now["turn"] == 4 and not now["over"], now
    japan.screenshot("play-bf-japan-turn-4")
    russia.screenshot("play-bf-russia-turn-4")
    for d in (organiser, japan, russia):
        d.close()


def test_the_play_tab_shows_the_seats_turn_clock_and_a_pause(browser, server):
    """A referee's trial: the Play tab showed no deadline. A seat on the clock reads when its turn ends and what acts
    then; paused by the referee, it reads that the clock is paused."""
    made = httpx.post(
        f"{server}/games",
        json={"ruleset": "battlefleet-1900", "deadlines": {"turn_seconds": 7200, "on_expiry": "default"}},
    ).json()
    gid, token = made["game_id"], next(s["token"] for s in made["seats"] if s["seat"] == "japan")
    desk = Desk(browser, server)
    p = desk.page
    p.goto(f"{server}/desk/#/play/{gid}/token/{token}")
    p.wait_for_function("document.querySelector('#play-clock')?.innerText.includes('your turn ends at')")
    assert "then its default is sent" in p.inner_text("#play-clock") and " h left" in p.inner_text("#play-clock")
    referee = {"Authorization": f"Bearer {made['referee_token']}"}
    assert httpx.post(f"{server}/games/{gid}/deadlines", json={"paused": True}, headers=referee).status_code == 200
    p.wait_for_function("document.querySelector('#play-clock')?.innerText.includes('paused')")
    desk.close()


def test_the_first_seat_taken_reads_its_deadline_once_the_last_is(browser, server):
    """docs/api.md "Deadlines": with open seats the clock runs once the last seat is taken, which appends no event.
    The first player's page, open before, kept saying "turn clock: … a turn" with no end (a referee's trial): it reads
    the clock again when the stream says a seat was taken."""
    made = httpx.post(
        f"{server}/games",
        json={"ruleset": "battlefleet-1900", "open_seats": True,
              "deadlines": {"turn_seconds": 7200, "on_expiry": "default"}},
    ).json()  # fmt: skip
    gid = made["game_id"]
    invitations = {s["seat"]: s["invitation"] for s in made["seats"]}
    japan = httpx.post(f"{server}/games/{gid}/join", json={"invitation": invitations["japan"]}).json()["token"]
    desk = Desk(browser, server)
    p = desk.page
    p.goto(f"{server}/desk/#/play/{gid}/token/{japan}")
    p.wait_for_function("document.querySelector('#play-clock')?.innerText.includes('2 h a turn')")
    assert httpx.post(f"{server}/games/{gid}/join", json={"invitation": invitations["russia"]}).status_code == 201
    p.wait_for_function("document.querySelector('#play-clock')?.innerText.includes('your turn ends at')")
    desk.close()


def test_three_turns_of_battlefleet_against_the_bot(browser, server):
    desk = Desk(browser, server)
    gid = create(desk, "battlefleet-1900", open_seats=False, bots=("russia",))
    referee = desk.page.inner_text("#play-referee")
    desk.page.click('a.play-as[data-seat="japan"]')
    desk.page.wait_for_selector("#play-seat")
    assert act(desk, "form", {})  # setup: the defaults
    assert act(desk, "form", TURN_TO_STARBOARD)
    # the Movement Phase: a form per division with its limits, and the limits drawn on the table
    p = desk.page
    p.wait_for_selector('.nu-distance[data-division="J1"]')
    p.wait_for_selector('#play-picture g.bf-move[data-division="J1"] polygon.bf-move-band')
    assert p.get_attribute('.nu-distance[data-division="J1"] input.nu-value', "max") == "115"
    turn = p.locator('.nu-turn[data-division="J1"] input.nu-value')
    assert (turn.get_attribute("min"), turn.get_attribute("max")) == ("45", "89")
    assert not p.locator('details.play-advanced[data-type="move"]').get_attribute("open")  # shut: the form is it
    p.fill('.nu-distance[data-division="J1"] input.nu-value', "115")
    turn.fill("50")
    desk.screenshot("play-bf-bot-move-limits")
    desk.send(p.locator('button.nu-send[data-type="move"]'))
    bundle = own_copy(lambda p, **kw: httpx.get(server + p, **kw), gid, referee)  # the sealed move opened
    sent = [c["payload"] for c in bundle["commands"] if c["seat"] == "japan" and c["payload"].get("type") == "move"]
    # as the rules recorded it (its sealed content: the arguments read, `ships` at its default)
    j1 = {"division": "J1", "distance_mm": 115, "turns_deg": [50], "ships": []}
    assert sent == [{"type": "move", "divisions": [j1]}]
    for _ in range(3):  # the rest of turn 1
        assert act(desk, "form", {})
    play_battlefleet_turns([desk], 2, start=False)
    desk.page.wait_for_selector("button.play-send", state="attached")
    desk.screenshot("play-bf-bot-turn-4")
    now = httpx.get(f"{server}/games/{gid}/views/phase").json()["data"]["now"]
    assert now["turn"] == 4 and not now["over"], now
    desk.close()


def test_a_player_who_comes_back_finds_since_your_last_turn(browser, server):
    """Issue 33 item 5: the Allies' page keeps the last version it showed (localStorage); the player leaves, the Axis
    plays Germany's turn (a raid on UK's convoy in sea zone 7), and the player who opens the game again finds "Since
    your last turn" with the digest the API gives the Allies' token for that span. Nothing new: no card."""
    body = {
        "ruleset": "aa1942-convoy",
        "seats": ["Axis", "Allies"],
        "options": {"setup": "empty", "submarines": {"Germany": {"7": 1}}},
    }
    made = httpx.post(f"{server}/games", json=body).json()
    gid, tokens = made["game_id"], {s["seat"]: s["token"] for s in made["seats"]}

    def play(seat: str, until: str) -> int:
        """`seat` sends (a raid wherever it may, else no purchase, else the end of the phase) until `until` is
        awaited; the version then."""
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        while True:
            game = httpx.get(f"{server}/games/{gid}", headers=headers).json()
            mine = {e["type"]: e for e in game["awaiting"] if seat in e["seats"]}
            if any(until in e["seats"] for e in game["awaiting"]) or not mine:
                return game["version"]
            cmd = (
                {"type": "raid", "sz": 7}
                if "raid" in mine
                else {"type": "purchase", "spend": 0}
                if "purchase" in mine
                else {"type": "end_phase"}
            )
            r = httpx.post(f"{server}/games/{gid}/commands", json=cmd, headers=headers)
            assert r.status_code == 200, r.text

    desk = Desk(browser, server)
    p = desk.page
    desk.open(f"#/play/{gid}/token/{tokens['Allies']}")
    p.wait_for_selector("#play-seat")
    assert p.inner_text("#play-seat") == "Allies" and p.locator("#play-since").is_hidden()  # a first visit
    seen = play("Allies", "Axis")  # the USSR's turn, while the page follows the game
    p.wait_for_function("v => Number(document.querySelector('#play-version').textContent) === v", arg=seen)
    desk.open("#/play")  # the player leaves the game
    p.wait_for_selector("#play-create")
    now = play("Axis", "Allies")  # Germany raids; the UK is the Allies' to play
    desk.open(f"#/play/{gid}")  # and comes back
    p.wait_for_selector("#play-since:not([hidden])")
    lines = p.locator("#play-since li").all_inner_texts()
    want = httpx.get(
        f"{server}/games/{gid}/since", params={"version": seen}, headers={"Authorization": f"Bearer {tokens['Allies']}"}
    ).json()
    assert want["upto"] == now and lines == want["digest"]
    assert any(line.startswith("Germany's submarine raided UK's convoy in sea zone 7: ") for line in lines), lines
    card = p.inner_text("#play-since")
    assert "Since your last turn" in card and f"since you last looked (version {seen} to {now})" in card
    desk.screenshot("play-since-your-last-turn", full_page=False)
    p.click("#play-since-dismiss")
    assert p.locator("#play-since").is_hidden()
    p.wait_for_function("v => Number(document.querySelector('#play-version').textContent) === v", arg=now)
    desk.open("#/play")
    p.wait_for_selector("#play-create")
    desk.open(f"#/play/{gid}")  # nothing new since: no card
    p.wait_for_selector("#play-seat")
    p.wait_for_function("v => Number(document.querySelector('#play-version').textContent) === v", arg=now)
    assert p.locator("#play-since").is_hidden()
    assert not desk.errors, desk.errors
    desk.close()


def register_address(browser, base: str) -> tuple[Desk, str, str]:
    """A new battle's Japan table in the Play tab, its e-mail card opened and an address sent: (desk, game, token)."""
    made = httpx.post(f"{base}/games", json={"ruleset": "battlefleet-1900"}).json()
    gid, token = made["game_id"], next(s["token"] for s in made["seats"] if s["seat"] == "japan")
    desk = Desk(browser, base)
    p = desk.page
    p.goto(f"{base}/desk/#/play/{gid}/token/{token}")
    # the card's heading on its triangle's line (a trial saw the triangle alone on a line above it)
    one_line = "s => s.getBoundingClientRect().height < 1.5 * s.querySelector('h2').getBoundingClientRect().height"
    assert p.eval_on_selector("#play-notify summary", one_line)
    p.click("#play-notify summary")
    p.fill("#play-notify-address", "togo@fleet.example")
    p.click("#play-notify-register")
    return desk, gid, token


def test_a_player_has_turns_mailed_from_the_play_tab_confirming_with_the_mailed_code(browser, server, tmp_path):
    """A player with no server for webhooks registers an address in the Play tab, pastes the code the server mails it,
    then stops the mails; on a server that sends no e-mail the card says why (docs/api.md "E-mail")."""
    from tests.test_mail import Inbox, code_in, to

    inbox = Inbox()
    env = {"UMPIRE_SMTP": f"smtp://127.0.0.1:{inbox.port}", "UMPIRE_MAIL_FROM": "umpire@test.example"}
    try:
        with server_process(str(tmp_path / "mail.db"), env=env) as (base, _):
            desk, gid, token = register_address(browser, base)
            p = desk.page
            p.wait_for_selector('#play-notify-state[data-state="pending"]')
            assert "togo@fleet.example" in p.inner_text("#play-notify-state")
            code = code_in(inbox.wait_for(to("togo@fleet.example"))[0])
            p.fill("#play-notify-code", code + "x")
            p.click("#play-notify-confirm")
            p.wait_for_selector("#play-notify-notice")
            assert "not the code" in p.inner_text("#play-notify-notice")
            p.fill("#play-notify-code", code)
            p.click("#play-notify-confirm")
            p.wait_for_selector('#play-notify-state[data-state="confirmed"]')
            hook = httpx.get(f"{base}/games/{gid}/notifications", headers={"Authorization": f"Bearer {token}"}).json()
            assert hook["confirmed"] is True and hook["url"] == "mailto:togo@fleet.example"
            p.click("#play-notify-stop")
            p.wait_for_selector("#play-notify-register")
            gone = httpx.get(f"{base}/games/{gid}/notifications", headers={"Authorization": f"Bearer {token}"})
            assert gone.status_code == 404
            desk.close()
    finally:
        inbox.controller.stop()
    desk, _, _ = register_address(browser, server)
    desk.page.wait_for_selector("#play-notify-notice")
    assert "UMPIRE_SMTP" in desk.page.inner_text("#play-notify-notice")
    desk.close()
