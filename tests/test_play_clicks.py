"""Every decision by click (issue 30) in the desk's Play tab, in Chromium: games played to their end (or three
Battlefleet turns) by clicks alone, as a first-time player would — on each decision the first choice button, else the
form's send with the values it starts with, else the rules' default; the first decision on the page, unless it was
just made REPEAT times in a row, then the next one (AA1942's `place_submarines` had no end under 3.0.0) — never
typing JSON (the advanced box stays shut). The forms are drawn by the TypeScript client's `decisionForm`
(openapi/client-ts/src/decisions.ts) from each
`awaiting` entry alone; its pure helpers and every control kind are checked here too, on a descriptor made up for
the test, and the budgets a form's choices share on another. Screenshots of each decision the first time it comes:
$UMPIRE_SHOTS (default /tmp/shots)/<name>.png and tests/output/desk/clicks-*.png."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

from tests.conftest import own_copy
from tests.desk_browser import Desk
from tests.live import server_process

SHOTS = Path(os.environ.get("UMPIRE_SHOTS", "/tmp/shots"))
WAIT = 30_000  # ms: a command's answer and its state on the stream (a bot's turns come with the answer)
DECISION = '#play-move .nu-decision:not([data-type="concede"])'  # a first-time player does not concede
REPEAT = 3  # the same decision this many times in a row: the player turns to the next one the page offers


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("clicks") / "clicks.db")
    with server_process(db, env={"UMPIRE_CREATE_PER_MINUTE": "0"}) as (base, _):
        yield base


def shot(desk: Desk, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    desk.page.wait_for_function(  # the view beside the decision drawn at the same version
        "() => Number(document.querySelector('#play-picture')?.dataset.at)"
        " >= Number(document.querySelector('#play-version')?.textContent)",
        timeout=WAIT,
    )
    desk.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    desk.screenshot(f"clicks-{name}")


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


def sit(desk: Desk, seat: str) -> None:
    desk.page.click(f'a.play-as[data-seat="{seat}"]')
    desk.page.wait_for_selector("#play-seat")
    assert desk.page.inner_text("#play-seat") == seat


def settle(desk: Desk, base: str, gid: str) -> None:
    """Wait until the page shows the game's version now (its `awaiting` is then the current one)."""
    v = httpx.get(f"{base}/games/{gid}").json()["version"]
    desk.page.wait_for_function(
        "v => Number(document.querySelector('#play-version')?.textContent) >= v"
        " && !document.querySelector('#play-move button:disabled.nu-choice')",
        arg=v,
        timeout=WAIT,
    )


def click_once(desk: Desk, nth: int = 0) -> str | None:
    """One command by clicks on the page's first decision (its `nth` where there are more): its first choice, else
    its form's send as it starts, else the default. Returns the decision's type, None when the page offers nothing
    to click. Fails on a refusal: what is offered must be accepted."""
    p = desk.page
    if p.locator("#play-over").count():
        return None
    decisions = p.locator(DECISION)
    if not decisions.count():
        return None
    decision = decisions.nth(min(nth, decisions.count() - 1))
    kind = decision.get_attribute("data-type")
    for selector in ("button.nu-choice:enabled", "button.nu-send:enabled", "button.nu-default:enabled"):
        button = decision.locator(selector).first
        if button.count():
            break
    else:
        problem = decision.locator(".nu-problem").all_inner_texts()
        raise AssertionError(f"nothing to click on {kind}: {problem}")
    # the advanced JSON box is open only on an entry the page cannot draw
    assert p.locator("details.play-advanced[open]").count() == p.locator(".nu-unknown").count()
    desk.send(button, timeout=WAIT)
    return kind


def play_to_the_end(desk: Desk, base: str, gid: str, limit: int, shots: str) -> int:
    """Click until the game is over; returns the commands sent. A screenshot of each decision the first time."""
    made: list[str] = []
    while True:
        settle(desk, base, gid)
        first = desk.page.locator(DECISION).first
        kind = first.get_attribute("data-type") if first.count() else None
        if kind and kind not in made:
            shot(desk, f"{shots}-{kind}")
        again = len(made) >= REPEAT and set(made[-REPEAT:]) == {kind}
        kind = click_once(desk, 1 if again else 0)
        if not kind:
            assert desk.page.locator("#play-over").count(), "nothing to click and the game is not over"
            break
        made.append(kind)
        assert len(made) < limit
    desk.page.wait_for_selector("#play-figures:has-text('How it came out: ')")  # the ruleset's figures, every ruleset
    assert desk.page.inner_text("header .brand span") == "· play"  # not "referee's desk" above a player's own game
    shot(desk, f"{shots}-end")
    assert httpx.get(f"{base}/games/{gid}").json()["status"] == "over"
    assert not desk.page.locator("details.play-advanced[open]").count()
    return len(made)


def typed_nothing(base: str, gid: str, referee: str, seats: set[str]) -> list[dict]:
    """The commands the players sent (the bundle, each sealed one opened as the referee reads its record)."""
    bundle = own_copy(lambda p, **kw: httpx.get(base + p, **kw), gid, referee)
    return [c for c in bundle["commands"] if c["seat"] in seats]


# ---- whole games by clicks ----


def test_a_corvette_convoy_by_clicks_alone(browser, server):
    desk = Desk(browser, server)
    gid = create(desk, "corvette-command", open_seats=False)
    sit(desk, "captain")
    sent = play_to_the_end(desk, server, gid, 400, "corvette")
    commands = httpx.get(f"{server}/games/{gid}/bundle").json()["commands"]
    assert [c["seat"] for c in commands] == ["creator"] + ["captain"] * sent
    desk.close()


def test_a_uboat_leader_short_campaign_by_clicks_alone(browser, server):
    """The flotilla as the form starts: the first boat that fits the Special Options, at its cheapest crew."""
    desk = Desk(browser, server)
    gid = create(desk, "uboat-leader", open_seats=False)
    desk.page.locator("a.play-as").first.click()
    desk.page.wait_for_selector("#play-seat")
    play_to_the_end(desk, server, gid, 1500, "uboat")
    assert httpx.get(f"{server}/games/{gid}/views/campaign-sheet").json()["data"]["result"] is not None
    desk.close()


def test_an_aa1942_round_by_clicks_alone(browser, server):
    """Germany by clicks, the other powers by the server's bot (option `rounds` 1, the Play tab's default)."""
    desk = Desk(browser, server)
    gid = create(desk, "aa1942-convoy", open_seats=False, bots=("USSR", "UK", "Japan", "USA"))
    sit(desk, "Germany")
    play_to_the_end(desk, server, gid, 600, "aa1942")
    desk.close()


def test_three_battlefleet_turns_by_clicks_in_two_browsers_joined_by_invitation(browser, server):
    organiser = Desk(browser, server)
    gid = create(organiser, "battlefleet-1900", open_seats=True)
    referee = organiser.page.inner_text("#play-referee")
    links = {x.get_attribute("data-seat"): x.input_value() for x in organiser.page.locator("input.play-invite").all()}
    assert set(links) == {"japan", "russia"}
    sides = {seat: Desk(browser, server) for seat in ("japan", "russia")}  # two contexts: two players
    for seat, desk in sides.items():
        desk.page.goto(links[seat])
        desk.page.click("#play-join-take")
        desk.page.wait_for_selector("#play-seat")
        assert desk.page.inner_text("#play-seat") == seat
    seen: set[str] = set()
    for step in range(200):
        now = httpx.get(f"{server}/games/{gid}/views/phase").json()["data"]["now"]
        if now["turn"] == 4:
            break
        clicked = False
        for seat, desk in sides.items():
            settle(desk, server, gid)
            kind = desk.page.locator(DECISION).first
            kind = kind.get_attribute("data-type") if kind.count() else None
            if kind and kind not in seen:
                seen.add(kind)
                shot(desk, f"battlefleet-{seat}-{kind}")
            clicked = click_once(desk) or clicked
        assert clicked, "neither side has anything to click"
    assert now["turn"] == 4 and not now["over"], now
    assert {"start", "give_orders", "move", "fire"} <= seen, seen
    sent = typed_nothing(server, gid, referee, {"japan", "russia"})
    assert {c["seat"] for c in sent} == {"japan", "russia"}
    for d in (organiser, *sides.values()):
        d.close()


def test_a_battlefleet_move_and_salvo_drawn_and_sent_from_their_forms(browser, server):
    """The Movement Phase's form: a distance and a turn per division within its limits, the same limits drawn on the
    table (BF-R5, BF-R6), and what is sent is what the form says; then a salvo from the Gunnery Phase's form."""
    desk = Desk(browser, server)
    gid = create(desk, "battlefleet-1900", open_seats=False, bots=("russia",))
    referee = desk.page.inner_text("#play-referee")
    sit(desk, "japan")
    p = desk.page
    while not p.locator('.nu-decision[data-type="move"]').count():
        settle(desk, server, gid)
        assert click_once(desk)
    settle(desk, server, gid)
    p.wait_for_selector('#play-picture g.bf-move[data-division="J1"]')
    distance = p.locator('.nu-distance[data-division="J1"]')
    top = int(distance.locator("input.nu-value").get_attribute("max"))
    distance.locator("input.nu-value").fill(str(top))
    turns = p.locator('.nu-turn[data-division="J1"]')
    if turns.count():
        box = turns.first.locator("input.nu-value")
        lo, hi = int(box.get_attribute("min")), int(box.get_attribute("max"))
        deg = hi if hi > 0 else lo  # the band's far edge, whichever side it turns to
        box.fill(str(deg))
        expected = {"division": "J1", "distance_mm": top, "turns_deg": [deg], "ships": []}
    else:
        expected = {"division": "J1", "distance_mm": top, "ships": []}  # as recorded: `ships` at its default
    shot(desk, "battlefleet-move-filled")
    desk.send(p.locator('button.nu-send[data-type="move"]'))
    moves = [c["payload"] for c in typed_nothing(server, gid, referee, {"japan"}) if c["payload"]["type"] == "move"]
    assert moves[0]["divisions"][0] == expected
    # the Gunnery Phase's form: the first ship fires, as its form starts (all its guns, one cycle, HE)
    while not p.locator('.nu-decision[data-type="fire"]').count():
        settle(desk, server, gid)
        assert click_once(desk)
    settle(desk, server, gid)
    first = p.locator('.nu-decision[data-type="fire"] input.nu-fires:enabled').first
    ship = first.get_attribute("data-ship")
    first.check()
    shot(desk, "battlefleet-fire-filled")
    assert click_once(desk)  # accepted: what the form offers the rules take
    fire = [c["payload"] for c in typed_nothing(server, gid, referee, {"japan"}) if c["payload"]["type"] == "fire"]
    assert [s["ship"] for s in fire[0]["salvos"]] == [ship]
    desk.close()


# ---- the renderer itself, on a made-up descriptor with every control kind ----

EVERY_KIND = {
    "type": "test",
    "default": {"x": 1},
    "ui": {
        "kind": "form",
        "controls": [
            {"kind": "select", "field": "ship", "label": "Ship", "options": [
                {"value": "a", "label": "Alpha"}, {"value": "b", "label": "Bravo", "rulebook": "Barco"}],
             "default": "b", "rulebook": "Buque"},
            {"kind": "select", "field": "maybe", "label": "Maybe", "optional": True,
             "options": [{"value": 1, "label": "one"}]},
            {"kind": "pick", "field": "order", "label": "Order", "ordered": True, "min": 2, "max": 2, "options": [
                {"value": "p", "label": "P"}, {"value": "q", "label": "Q"}, {"value": "r", "label": "R"}]},
            {"kind": "pick", "field": "drop", "label": "Drop out", "required": ["m"], "options": [
                {"value": "m", "label": "Mikasa"}, {"value": "a", "label": "Asahi"}]},
            {"kind": "number", "field": "n", "label": "Speed", "min": 2, "max": 9, "default": 4, "unit": "kn"},
            {"kind": "text", "field": "say", "label": "Signal", "max_length": 10},
            {"kind": "items", "field": "boats", "label": "Boats", "min": 1, "max": 2, "items": [
                {"label": "U-1", "fixed": {"boat": "U-1"}, "required": True,
                 "controls": [{"kind": "number", "field": "depth", "label": "Depth", "min": 0, "max": 3}]},
                {"label": "U-2", "fixed": {"boat": "U-2"}},
                {"label": "U-3", "fixed": {"boat": "U-3"}}]},
            {"kind": "repeat", "field": "shots", "label": "Torpedo", "min": 0, "max": 2, "controls": [
                {"kind": "select", "field": "at", "label": "At", "options": [
                    {"value": "x", "label": "X"}, {"value": "y", "label": "Y"}]}]},
            {"kind": "group", "field": "speeds", "label": "Speeds", "controls": [
                {"kind": "number", "field": "U-1", "label": "U-1", "min": 1, "max": 3}]},
            {"kind": "variants", "label": "Weapon", "variants": [
                {"label": "Gun", "fixed": {"weapon": "gun"}},
                {"label": "Torpedoes", "fixed": {"weapon": "torpedo"}, "controls": [
                    {"kind": "number", "field": "spread", "label": "Spread", "min": 1, "max": 4}]}]},
        ],
    },
}

RENDER = """async (entry) => {
    const d = await import("/desk/js/client/decisions.js");
    const host = document.createElement("div");
    host.id = "host";
    document.body.replaceChildren(host);
    window.sent = [];
    host.append(d.decisionForm(entry, { onSubmit: (a) => window.sent.push(a) }));
}"""


def test_every_control_kind_is_drawn_filled_and_sent(browser, server):
    desk = Desk(browser, server)
    desk.open("#/play")
    p = desk.page
    p.wait_for_selector("#play-ruleset")
    helpers = p.evaluate(
        """async (entry) => {
        const d = await import("/desk/js/client/decisions.js");
        const draft = d.initial(entry.ui);
        return {
          known: d.known(entry.ui),
          unknownTop: d.known({ kind: "map", controls: [] }),
          unknownInside: d.known({ kind: "form", controls: [{ kind: "group", field: "g", label: "G", controls: [
            { kind: "slider", field: "s", label: "S" }] }] }),
          problem: d.problem(entry.ui, draft),
          args: d.args(entry.ui, draft),
        };
    }""",
        EVERY_KIND,
    )
    assert helpers["known"] and not helpers["unknownTop"] and not helpers["unknownInside"]
    assert helpers["problem"] is None  # what a first-time player starts from can be sent
    assert helpers["args"] == {
        "ship": "b", "order": ["p", "q"], "drop": ["m"], "n": 4, "say": "", "boats": [{"boat": "U-1", "depth": 0}],
        "shots": [], "speeds": {"U-1": 1}, "weapon": "gun",
    }
    p.evaluate(RENDER, EVERY_KIND)
    host = p.locator("#host")
    assert "Buque" in host.inner_text() and "Bravo (Barco)" in host.inner_text()  # the rule text's words beside
    host.locator('[data-field="maybe"] select').select_option(label="one")
    order = host.locator('[data-field="order"] input.nu-option')
    order.nth(0).uncheck()  # P out: Q alone is one short
    assert "choose exactly 2" in host.locator(".nu-problem").inner_text()
    assert host.locator("button.nu-send").is_disabled()
    order.nth(2).check()  # Q, R: the most there may be
    assert order.nth(0).is_disabled()
    order.nth(1).uncheck()
    order.nth(0).check()  # R then P: in the order picked
    assert [t.strip() for t in host.locator('[data-field="order"] .nu-order').all_text_contents()] == ["2.", "1."]
    drop = host.locator('[data-field="drop"] input.nu-option')
    assert drop.nth(0).is_checked() and drop.nth(0).is_disabled()  # required: what the pick's variant stands for
    drop.nth(1).check()
    host.locator('[data-field="n"] input.nu-value').fill("9")
    host.locator('[data-field="say"] input').fill("steady")
    boats = host.locator('[data-field="boats"] input.nu-include')
    assert boats.nth(0).is_disabled() and boats.nth(0).is_checked()  # required
    boats.nth(2).check()
    assert boats.nth(1).is_disabled()  # at most 2
    host.locator('[data-field="boats"] [data-field="depth"] input.nu-value').fill("3")
    host.locator('[data-field="shots"] button.nu-add').click()
    host.locator('[data-field="shots"] button.nu-add').click()
    assert host.locator('[data-field="shots"] button.nu-add').is_disabled()  # at most 2
    host.locator('[data-field="shots"] .nu-entry').nth(1).locator("select").select_option(label="Y")
    host.locator('[data-field="speeds"] input.nu-value').fill("3")
    host.get_by_label("Torpedoes").check()
    host.locator('[data-field="spread"] input.nu-value').fill("2")
    host.locator("button.nu-send").click()
    host.locator("button.nu-default").click()
    assert p.evaluate("window.sent") == [
        {
            "ship": "b", "maybe": 1, "order": ["r", "p"], "drop": ["m", "a"], "n": 9, "say": "steady",
            "boats": [{"boat": "U-1", "depth": 3}, {"boat": "U-3"}], "shots": [{"at": "x"}, {"at": "y"}],
            "speeds": {"U-1": 3}, "weapon": "torpedo", "spread": 2,
        },
        {"x": 1},
    ]
    # many choices: a list and one button, not a wall of buttons
    many = [{"zone": n} for n in range(13)]
    p.evaluate(RENDER, {"type": "test", "choices": many, "labels": [f"Zone {n}" for n in range(13)]})
    assert host.locator("button.nu-choice").count() == 1
    host.locator("select.nu-choice-list").select_option(label="Zone 7")
    host.locator("button.nu-choice").click()
    assert p.evaluate("window.sent") == [{"zone": 7}]
    # a kind this client does not know: no controls, a note, and the choices or default still offered
    p.evaluate(RENDER, {"type": "test", "ui": {"kind": "map"}, "choices": [{"a": 1}], "labels": ["Go"]})
    assert host.locator("button.nu-choice").inner_text() == "Go"
    p.evaluate(RENDER, {"type": "test", "ui": {"kind": "map"}, "default": {}})
    assert host.locator(".nu-unknown").count() and host.locator("button.nu-default").count()
    # a form that starts at the default, a list field left at its schema's default (Battlefleet's `start`): one button
    # to send, not a second "send the default" doing the same (a play trial)
    ships = {"kind": "items", "field": "ships", "label": "ship logs", "items": [{"label": "Mikasa", "fixed": {"ship": "Mikasa"}, "controls": []}]}
    start = {"type": "start", "ui": {"kind": "form", "controls": [ships]}, "default": {}}
    p.evaluate(RENDER, {**start, "schema": {"type": "object", "properties": {"ships": {"type": "array", "default": []}}}})
    assert host.locator("button.nu-send").count() == 1 and host.locator("button.nu-default").count() == 0
    p.evaluate(RENDER, {**start, "schema": {"type": "object", "properties": {"ships": {"type": "array"}}}})
    assert host.locator("button.nu-default").count() == 1  # without a schema default, `ships: []` is not the default
    desk.close()


BUDGETED = {
    "type": "test",
    "ui": {
        "kind": "form",
        "budgets": [{"id": "dice", "label": "Mikasa's DC dice for actions", "limit": 3},
                    {"id": "so", "label": "Special Options", "limit": 5}],
        "controls": [
            {"kind": "items", "field": "actions", "label": "damage control", "items": [
                {"label": "fire 1", "fixed": {"f": "fire"}, "spend": {"dice": 1}},
                {"label": "fire 2", "fixed": {"f": "fire"}, "spend": {"dice": 1}},
                {"label": "flood", "fixed": {"f": "flood"}, "spend": {"dice": 2}}]},
            {"kind": "pick", "field": "scuttle", "label": "scuttle", "options": [
                {"value": "Mikasa", "label": "Mikasa", "spend": {"dice": 3}}]},
            {"kind": "items", "field": "boats", "label": "U-boats", "min": 1, "items": [
                {"label": "U-1", "fixed": {"boat": "U-1"}, "controls": [
                    {"kind": "select", "field": "level", "label": "crew", "options": [
                        {"value": "ace", "label": "Ace (6)", "spend": {"so": 6}},
                        {"value": "green", "label": "Green (2)", "spend": {"so": 2}},
                        {"value": "trained", "label": "Trained (3)", "spend": {"so": 3}}]}]},
                {"label": "U-2", "fixed": {"boat": "U-2"}, "controls": [
                    {"kind": "select", "field": "level", "label": "crew", "options": [
                        {"value": "green", "label": "Green (4)", "spend": {"so": 4}}]}]}]},
            {"kind": "variants", "label": "Weapon", "variants": [
                {"label": "Torpedoes", "fixed": {"w": "torpedo"}, "spend": {"so": 4}},
                {"label": "Gun", "fixed": {"w": "gun"}}]},
            {"kind": "text", "field": "say", "label": "Signal", "min_length": 2, "max_length": 10},
        ],
    },
}


def test_a_forms_budgets_are_kept_and_shown_and_a_text_has_its_least_length(browser, server):
    """Budgets (docs/api.md "Decision descriptors"): the form starts within them (the ace does not fit, the green
    does; then the torpedoes do not), says what is left as the player chooses, disables what no longer fits, and
    problem() names a budget overspent; a text shorter than `min_length` keeps the send button disabled."""
    desk = Desk(browser, server)
    desk.open("#/play")
    p = desk.page
    p.wait_for_selector("#play-ruleset")
    helpers = p.evaluate(
        """async (entry) => {
        const d = await import("/desk/js/client/decisions.js");
        const draft = d.initial(entry.ui);
        const start = { args: d.args(entry.ui, draft), left: d.budgetsLeft(entry.ui, draft), problem: d.problem(entry.ui, draft) };
        draft[4].value = "ok";
        const typed = d.problem(entry.ui, draft);
        draft[0].chosen = [0, 1, 2].map((item) => ({ item, draft: [] }));  // 4 dice of 3
        return { start, typed, over: d.problem(entry.ui, draft), left: d.budgetsLeft(entry.ui, draft) };
    }""",
        BUDGETED,
    )
    assert helpers["start"] == {
        "args": {"actions": [], "scuttle": [], "boats": [{"boat": "U-1", "level": "green"}], "w": "gun", "say": ""},
        "left": {"dice": 3, "so": 3},
        "problem": "Signal: at least 2 characters",
    }
    assert helpers["typed"] is None
    assert helpers["over"] == "Mikasa's DC dice for actions: 4 of 3 chosen"
    assert helpers["left"] == {"dice": -1, "so": 3}
    p.evaluate(RENDER, BUDGETED)
    host = p.locator("#host")
    budget = {b: host.locator(f'.nu-budget[data-budget="{b}"]') for b in ("dice", "so")}
    assert budget["dice"].inner_text() == "Mikasa's DC dice for actions: 3 of 3 left"
    assert budget["so"].inner_text() == "Special Options: 3 of 5 left"
    send = host.locator("button.nu-send")
    assert send.is_disabled() and host.locator(".nu-problem").inner_text() == "Signal: at least 2 characters"
    host.locator('[data-field="say"] input').fill("o")
    assert send.is_disabled()
    host.locator('[data-field="say"] input').fill("ok")
    assert send.is_enabled()
    actions = host.locator('[data-field="actions"] input.nu-include')
    scuttle = host.locator('[data-field="scuttle"] input.nu-option')
    actions.nth(2).check()  # flood: 2 dice
    assert budget["dice"].get_attribute("data-left") == "1" and scuttle.is_disabled()
    assert host.locator('[data-field="scuttle"] .nu-why').inner_text() == " — Mikasa's DC dice for actions: 1 left, it needs 3"
    actions.nth(0).check()
    assert budget["dice"].inner_text().endswith("0 of 3 left")
    fire2 = host.locator('[data-field="actions"] .nu-item').nth(1)
    assert actions.nth(1).is_disabled() and fire2.get_attribute("class") == "nu-item nu-unfit"
    assert fire2.inner_text().strip() == "fire 2 — Mikasa's DC dice for actions: 0 left, it needs 1"
    boats = host.locator('[data-field="boats"] input.nu-include')
    assert boats.nth(1).is_disabled()  # U-2's only crew costs 4 of the 3 left
    assert host.locator('[data-field="boats"] .nu-item').nth(1).inner_text().strip() == "U-2 — Special Options: 3 left, it needs 4"
    crew = host.locator('[data-field="boats"] [data-field="level"] select option')
    assert [crew.nth(i).is_disabled() for i in range(3)] == [True, False, False]  # the ace: 6 of 5
    torpedoes = host.get_by_label("Torpedoes")
    assert torpedoes.is_disabled()
    host.locator('[data-field="boats"] [data-field="level"] select').select_option(label="Trained (3)")
    assert budget["so"].inner_text().endswith("2 of 5 left")
    actions.nth(2).uncheck()
    actions.nth(0).uncheck()
    assert scuttle.is_enabled() and not "".join(host.locator('[data-field="scuttle"] .nu-why').all_inner_texts())
    scuttle.check()
    assert actions.nth(0).is_disabled()
    send.click()
    assert p.evaluate("window.sent") == [
        {"actions": [], "scuttle": ["Mikasa"], "boats": [{"boat": "U-1", "level": "trained"}], "w": "gun", "say": "ok"}
    ]
    desk.close()
