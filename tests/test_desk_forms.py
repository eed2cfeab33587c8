"""The Play tab's forms in Chromium, as a player meets them: a refused send keeps what was filled in, every control
has a name a screen reader says, focus stays on the control a keyboard player changed, the page fits a phone's
width, the lobby creates an unumpired game, a campaign's abandonment is folded away like *Concede*. Games are
brought to the decision under test through the API (tests/live.py's server process), then played in the page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from tests.desk_browser import Desk
from tests.live import server_process
from tests.test_desk_play import UBOAT_PICKS

WAIT = 30_000  # ms
ARGS = {"select_uboats": UBOAT_PICKS}  # what a step sends where the rules offer neither a default nor choices


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("forms") / "forms.db")
    with server_process(db, env={"UMPIRE_CREATE_PER_MINUTE": "0"}) as (base, _):
        yield base


class Game:
    """A game made through the API, each seat's token held, to bring it to the decision a test needs."""

    def __init__(self, base: str, ruleset: str, options: dict | None = None, **body):
        self.base = base
        made = httpx.post(f"{base}/games", json={"ruleset": ruleset, "options": options or {}, **body}).json()
        self.id = made["game_id"]
        self.tokens = {s["seat"]: s["token"] for s in made["seats"] if s.get("token")}

    def awaiting(self, seat: str) -> list[dict]:
        auth = {"Authorization": f"Bearer {self.tokens[seat]}"}
        return httpx.get(f"{self.base}/games/{self.id}", headers=auth).json()["awaiting"]

    def send(self, seat: str, body: dict) -> None:
        auth = {"Authorization": f"Bearer {self.tokens[seat]}"}
        r = httpx.post(f"{self.base}/games/{self.id}/commands", headers=auth, json=body)
        assert r.status_code == 200, r.text

    def step(self) -> None:
        """Every seat sends its first offered command: its default, else its first choice, else no arguments."""
        for who in self.tokens:
            offered = [
                a for a in self.awaiting(who) if who in a["seats"] and a["type"] not in ("concede", "end_campaign")
            ]
            if offered:
                a = offered[0]
                args = ARGS.get(a["type"]) or a.get("default") or (a.get("choices") or [{}])[0]
                self.send(who, {"type": a["type"], **args})

    def until(self, seat: str, kind: str, limit: int = 40) -> None:
        """Step until `seat` is offered `kind`."""
        for _ in range(limit):
            if any(a["type"] == kind for a in self.awaiting(seat)):
                return
            self.step()
        raise AssertionError(f"{seat} was never offered {kind}")

    def open(self, desk: Desk, seat: str) -> None:
        desk.open(f"#/play/{self.id}/token/{self.tokens[seat]}")
        desk.page.wait_for_selector("#play-seat")
        desk.page.wait_for_selector("#play-move .nu-decision", timeout=WAIT)


def battlefleet(base: str, kind: str) -> Game:
    game = Game(base, "battlefleet-1900", {"scenario": "yellow-sea-1904"})
    game.until("japan", kind)
    return game


def test_a_refused_send_keeps_the_filled_form_and_says_why(browser, server):
    game = battlefleet(server, "move")
    desk = Desk(browser, server)
    game.open(desk, "japan")
    p = desk.page
    form = p.locator('.nu-decision[data-type="move"]')
    distance = form.locator('.nu-distance[data-division="J1"] input.nu-value')
    lo = int(distance.get_attribute("min"))
    distance.fill(str(lo))
    refusal = {
        "type": "about:blank",
        "title": "Illegal command",
        "status": 409,
        "code": "illegal-command",
        "detail": "J1 cannot turn that far",
    }
    p.route(
        f"**/games/{game.id}/commands",
        lambda route: route.fulfill(status=409, content_type="application/problem+json", body=json.dumps(refusal)),
    )
    form.locator("button.nu-send").click()
    p.wait_for_selector("#play-send-error")
    assert "J1 cannot turn that far" in p.inner_text("#play-send-error")
    assert distance.input_value() == str(lo)  # the same box, still filled: the form was not drawn anew
    assert form.locator("button.nu-send").is_enabled()
    assert focused(p) == "button nu-send"  # the button pressed, disabled while the command was out, has it again
    # the advanced box keeps what was typed when it is not JSON
    advanced = p.locator('details.play-advanced[data-type="move"]')
    advanced.locator("summary").click()
    advanced.locator("textarea.play-args").fill("{not json")
    advanced.locator("button.play-send").click()
    p.wait_for_function("() => document.querySelector('#play-send-error')?.textContent.includes('not JSON')")
    assert advanced.locator("textarea.play-args").input_value() == "{not json"
    assert distance.input_value() == str(lo)
    desk.close()


def focused(p) -> str:
    """The focused element: its tag and class."""
    return p.evaluate("`${document.activeElement.tagName.toLowerCase()} ${document.activeElement.className}`")


def test_a_half_filled_form_keeps_its_values_and_focus_when_the_other_side_sends(browser, server):
    """Battlefleet's Movement Phase: Japan fills J1's distance; Russia's sealed move changes only who is still
    awaited, so Japan's card is not drawn anew: the box keeps the distance and the keyboard's focus."""
    game = battlefleet(server, "move")
    desk = Desk(browser, server)
    game.open(desk, "japan")
    p = desk.page
    box = p.locator('.nu-distance[data-division="J1"] input.nu-value')
    box.fill("80")
    box.focus()
    version = int(p.inner_text("#play-version"))
    move = [a for a in game.awaiting("russia") if a["type"] == "move"][0]
    game.send("russia", {"type": "move", **move["default"]})
    p.wait_for_function("v => Number(document.querySelector('#play-version').textContent) > v", arg=version)
    assert box.input_value() == "80"
    assert p.evaluate("document.activeElement.getAttribute('aria-label')") == "J1 distance"
    assert focused(p) == "input nu-input nu-value"
    # sent from the keyboard: the card is drawn anew for the next step, and the focus stays in the card
    p.locator('button.nu-send[data-type="move"]').press("Enter")
    p.wait_for_selector('.nu-decision[data-type="move"]', state="detached")
    assert p.evaluate("document.querySelector('#play-move').contains(document.activeElement)")
    desk.close()


NARROW = 390  # px: a phone held upright
ROOT = Path(__file__).resolve().parent.parent


def fits(desk: Desk) -> int:
    return desk.page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize("ruleset", ["uboat-leader", "aa1942-convoy"])
def test_a_play_page_fits_a_phones_width(browser, server, ruleset):
    game = Game(server, ruleset)
    game.step()
    desk = Desk(browser, server)
    desk.page.set_viewport_size({"width": NARROW, "height": 844})
    game.open(desk, next(iter(game.tokens)))
    desk.page.wait_for_selector("#play-picture[data-at]", timeout=WAIT)
    desk.screenshot(f"forms-narrow-{ruleset}")
    assert fits(desk) <= NARROW
    desk.close()


def test_striking_a_ships_colours_asks_first_and_sends_only_on_yes(browser, server):
    """BF-R13's surrender is irrevocable; the `give_orders` form holds it among routine orders, so one slip on a phone
    struck a ship's colours (a referee's trial). The pick is marked `irrevocable`: the page asks, naming the ship, and
    sends nothing on Cancel; orders that pick none go as before, unasked."""
    game = battlefleet(server, "give_orders")
    desk = Desk(browser, server)
    p = desk.page
    game.open(desk, "japan")
    card = p.locator('.nu-decision[data-type="give_orders"]')
    sent = []
    p.route(f"**/games/{game.id}/commands", lambda route: (sent.append(route.request.post_data_json), route.continue_()))
    # named with what ticking it does (a play trial: its name was the ship's alone, like its neighbour's crews)
    strike = card.get_by_role("checkbox", name="Mikasa: strike their colours (irrevocable)", exact=True)
    strike.check()
    card.locator("button.nu-send").click()
    p.wait_for_selector('.play-confirm[data-type="give_orders"] >> text=strike their colours (irrevocable): Mikasa')
    assert "this cannot be undone" in p.inner_text('.play-confirm[data-type="give_orders"]') and sent == []
    p.click('.play-confirm-no[data-type="give_orders"]')
    assert sent == []
    strike.uncheck()
    desk.send(card.locator("button.nu-send"))  # nothing irrevocable: sent at once
    assert len(sent) == 1 and not sent[0].get("surrender"), sent
    desk.close()


def test_a_division_ticked_for_orders_starts_at_an_arrow_not_a_stop(browser, server):
    """2.1: the stop dot stands alone among a column's orders. Ticking a division to give it orders preselected the stop
    (its first variant), so a player who meant to turn and sent at once stopped the division (a referee's trial): the
    stop comes last now, and the first preselected is an arrow."""
    game = battlefleet(server, "give_orders")
    desk = Desk(browser, server)
    p = desk.page
    game.open(desk, "japan")
    card = p.locator('.nu-decision[data-type="give_orders"]')
    card.get_by_role("checkbox", name=re.compile(r"^division J1 .*divisional orders")).check()
    chosen = card.locator(".nu-variant-choice input.nu-variant:checked").first
    label = chosen.evaluate("r => r.closest('label').textContent.trim()")
    assert not label.startswith("stop") and "arrow" in label, label
    desk.close()


def test_the_lobby_creates_a_game_with_a_turn_clock(browser, server):
    """docs/desk.md "Play": a referee with only a browser sets a turn clock at creation (docs/api.md "Deadlines"); it
    took a POST with `deadlines` by hand (a referee's trial). Off by default; a ruleset that takes none says why."""
    desk = Desk(browser, server)
    p = desk.page
    desk.open("#/play")
    p.select_option("#play-ruleset", "battlefleet-1900")
    assert p.is_disabled("#play-clock-minutes") and p.is_disabled("#play-clock-expiry")
    p.check("#play-clock-on")
    p.fill("#play-clock-minutes", "1.5")
    p.select_option("#play-clock-expiry", "forfeit")
    p.click("#play-create")
    p.wait_for_selector("#play-made-id", state="attached")
    made = httpx.get(f"{server}/games/{p.inner_text('#play-made-id')}").json()
    assert (made["deadlines"]["turn_seconds"], made["deadlines"]["on_expiry"]) == (90, "forfeit")
    p.uncheck("#play-clock-on")
    p.click("#play-create")
    p.wait_for_function("id => document.querySelector('#play-made-id')?.textContent !== id", arg=made["game_id"])
    assert httpx.get(f"{server}/games/{p.inner_text('#play-made-id')}").json()["deadlines"] is None
    p.select_option("#play-ruleset", "aa1942-convoy")  # from 6.0.0 a game takes no clock (AA-R19): the server says so
    p.check("#play-clock-on")
    p.click("#play-create")
    p.wait_for_selector("#play-error")
    assert "clock" in p.inner_text("#play-error")
    desk.close()


@pytest.mark.parametrize("open_seats", [True, False], ids=["invitations", "tokens"])
def test_the_lobby_fits_a_phones_width_before_and_after_creating(browser, server, open_seats):
    """desk.md: the lobby fits a 390 px phone. After "Create the game" the links to hand over widened it to 778 px and
    covered the "take … in this tab" link (a referee's trial)."""
    desk = Desk(browser, server)
    p = desk.page
    p.set_viewport_size({"width": NARROW, "height": 844})
    desk.open("#/play")
    p.wait_for_selector("#play-ruleset option", state="attached")
    desk.screenshot("forms-narrow-lobby")
    assert fits(desk) <= NARROW
    p.select_option("#play-ruleset", "uboat-leader")
    p.set_checked("#play-open", open_seats)
    p.click("#play-create")
    p.wait_for_selector("#play-made-id", state="attached")
    desk.screenshot(f"forms-narrow-lobby-created-{'invitations' if open_seats else 'tokens'}")
    assert fits(desk) <= NARROW
    link = p.locator(".play-seats a").first
    link.click(trial=True)  # on top, not covered by the link box beside it
    desk.close()


def test_the_lobby_creates_an_unumpired_game(browser, server):
    desk = Desk(browser, server)
    p = desk.page
    desk.open("#/play")
    p.select_option("#play-ruleset", "battlefleet-1900")
    box = p.get_by_role("checkbox", name="Umpired")
    assert box.is_checked()  # the API's default
    assert "sealed orders" in p.inner_text("#play-umpired-hint")
    box.uncheck()
    p.click("#play-create")
    p.wait_for_selector("#play-made-id", state="attached")
    gid = p.inner_text("#play-made-id")
    assert httpx.get(f"{server}/games/{gid}").json()["umpired"] is False
    desk.close()


def test_a_rolls_ledger_and_a_rolls_page_fit_a_phones_width(browser, server):
    """A roll's lanes and the ledger scroll inside themselves on a phone (they made the page 578 and 621 px wide)."""
    desk = Desk(browser, server)
    p = desk.page
    p.set_viewport_size({"width": NARROW, "height": 844})
    desk.open_file(ROOT / "replays" / "corvette-eastbound.3.0.0.json")
    p.goto(f"{desk.base}/desk/#/file/rolls")
    p.wait_for_selector("tr.roll")
    assert fits(desk) <= NARROW
    p.goto(f"{desk.base}/desk/#/file/roll/0")
    p.wait_for_selector("#lanes")
    desk.screenshot("forms-narrow-roll")
    assert fits(desk) <= NARROW
    desk.close()


# every control of a decision card, with the name a screen reader gives it (aria-label, else its <label>s' text,
# else its title, else a button's own text); a control a <label> does not name (the second of two it wraps) has none
NAMES = """card => [...card.querySelectorAll("input, select, textarea, button")].map((e) => ({
    what: `${e.tagName.toLowerCase()} ${e.type} ${e.className}`,
    name: (e.getAttribute("aria-label") || [...(e.labels || [])].map((l) => l.textContent).join(" ")
           || e.title || (e.tagName === "BUTTON" ? e.textContent : "")).trim(),
}))"""


def repeated(controls: list[dict]) -> list[str]:
    """The names more than one control of a card has: a screen reader could not tell those controls apart. A
    number's slider is not counted: it and its box are one number, both named with its label (docs/desk.md)."""
    names = [c["name"] for c in controls if c["name"] and not c["what"].startswith("input range")]
    return sorted({n for n in names if names.count(n) > 1})


def unnamed(desk: Desk, kind: str) -> list[dict]:
    controls = desk.page.locator(f'#play-move .nu-decision[data-type="{kind}"]').evaluate(NAMES)
    assert controls
    return [c for c in controls if not c["name"]]


def test_every_control_of_a_battlefleet_move_and_fire_has_a_name(browser, server):
    game = battlefleet(server, "move")
    desk = Desk(browser, server)
    game.open(desk, "japan")
    assert unnamed(desk, "move") == []
    names = desk.page.locator('.nu-distance[data-division="J1"] input').evaluate_all(
        "es => es.map(e => e.getAttribute('aria-label'))"
    )
    assert names == ["J1 distance", "J1 distance"]  # the slider and its box alike
    desk.close()
    game.until("japan", "fire")
    desk = Desk(browser, server)
    game.open(desk, "japan")
    fires = desk.page.locator('.nu-decision[data-type="fire"] input.nu-fires:enabled')
    ship = fires.first.get_attribute("data-ship")
    said = "e => [...e.labels].map((l) => l.textContent.trim()).join(' ')"
    assert fires.first.evaluate(said) == f"{ship} fires"  # named by what ticking does, not "holds fire" when empty
    for box in fires.all():
        box.check()
    box = desk.page.locator(f'.nu-decision[data-type="fire"] input.nu-fires[data-ship="{ship}"]')
    assert box.is_checked() and box.evaluate(said) == f"{ship} fires"
    assert desk.page.locator(".nu-decision[data-type=fire] select.nu-target").count()
    assert unnamed(desk, "fire") == []
    assert repeated(desk.page.locator('#play-move .nu-decision[data-type="fire"]').evaluate(NAMES)) == []
    desk.close()


def test_an_optional_numbers_slider_takes_its_least_value_when_clicked_there(browser, server):
    """An optional number left out (J1's distance: "keep speed") shows its slider at the least value; a click there
    chooses that value. Before, the click moved nothing, so no `input` fired and the box stayed empty."""
    game = battlefleet(server, "move")
    desk = Desk(browser, server)
    game.open(desk, "japan")
    distance = desk.page.locator('.nu-distance[data-division="J1"]')
    slider, box = distance.locator("input[type=range]"), distance.locator("input[type=number]")
    assert box.input_value() == ""
    least = slider.get_attribute("min")
    slider.click(position={"x": 1, "y": slider.bounding_box()["height"] / 2})
    assert box.input_value() == least and slider.input_value() == least
    desk.close()


def test_a_number_box_shows_its_whole_placeholder(browser, server):
    """Battlefleet's move: a division's distance left empty says "keep speed", its turn "least …"; in full."""
    game = battlefleet(server, "move")
    desk = Desk(browser, server)
    game.open(desk, "japan")
    shown = desk.page.locator("#play-move input.nu-value[placeholder]").evaluate_all(
        """es => es.map((e) => { const s = getComputedStyle(e), c = document.createElement("canvas").getContext("2d");
            c.font = s.font;
            const room = e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
            return { text: e.placeholder, clipped: c.measureText(e.placeholder).width > room + 0.5 }; })"""
    )
    assert any(re.fullmatch(r"keep speed \(\d+ mm\)", x["text"]) for x in shown), shown  # BF-R6: `keep_mm`
    assert [x for x in shown if x["clipped"]] == []
    desk.close()


@pytest.mark.parametrize(
    "ruleset, options",
    [
        ("aa1942-convoy", {}),
        ("corvette-command", {}),
        ("uboat-leader", {}),
        ("battlefleet-1900", {"scenario": "yellow-sea-1904"}),
    ],
)
def test_every_control_of_a_rulesets_first_decisions_has_a_name(browser, server, ruleset, options):
    """Each seat's page follows the game while the seats send their first offered commands (Game.step); every
    control of every decision card each page draws on the way has a name. Which decisions come up depends on the
    dice (a game's own id is in its seed, so no fixed seed fixes them): a corvette convoy may meet only its two
    opening kinds in twelve steps, so two kinds at least are asked of every ruleset. No two controls of a card share
    a name (each U-boat's crew select was "crew (Nivel de Habilidad)", each ship's boxes of two lists its name)."""
    game = Game(server, ruleset, options)
    desks = {seat: Desk(browser, server) for seat in game.tokens}
    for seat, desk in desks.items():
        desk.open(f"#/play/{game.id}/token/{game.tokens[seat]}")
    kinds, controls, missing, twice = set(), 0, [], []
    for _ in range(12):
        version = httpx.get(f"{server}/games/{game.id}").json()["version"]
        for seat, desk in desks.items():
            desk.page.wait_for_function(
                "v => Number(document.querySelector('#play-version')?.textContent) === v", arg=version, timeout=WAIT
            )
            for card in desk.page.locator("#play-move .nu-decision").all():
                named = card.evaluate(NAMES)
                kinds.add(card.get_attribute("data-type"))
                controls += len(named)
                missing += [(seat, card.get_attribute("data-type"), c) for c in named if not c["name"]]
                twice += [(seat, card.get_attribute("data-type"), n) for n in repeated(named)]
        game.step()
    assert len(kinds) >= 2 and controls > len(kinds), (kinds, controls)
    assert missing == []
    assert sorted(set(twice)) == []
    for desk in desks.values():
        desk.close()


def test_a_checkbox_that_redraws_the_form_keeps_the_keyboards_focus(browser, server):
    """U-Boat Leader's flotilla: Space on a boat's box redraws the form (what may still be picked); the focus stays
    on that box, so Tab goes on from it."""
    game = Game(server, "uboat-leader")
    desk = Desk(browser, server)
    game.open(desk, next(iter(game.tokens)))
    p = desk.page
    boxes = p.locator('.nu-decision[data-type="select_uboats"] input[type="checkbox"]:enabled:not(:checked)')
    box = boxes.nth(1)
    label = box.evaluate("e => e.closest('label').textContent")
    box.focus()
    p.keyboard.press("Space")
    p.wait_for_function(
        """label => { const e = document.activeElement;
            return e && e.type === "checkbox" && e.checked && e.closest("label")?.textContent === label; }""",
        arg=label,
        timeout=WAIT,
    )
    desk.close()


def test_the_uboat_campaign_sheets_vp_marker_at_0_is_inside_its_track(browser, server):
    game = Game(server, "uboat-leader")
    desk = Desk(browser, server)
    game.open(desk, next(iter(game.tokens)))
    p = desk.page
    p.wait_for_selector("#ul-vp")
    assert p.inner_text("#ul-vp") == "0 VP"
    vp, track = p.locator("#ul-vp").bounding_box(), p.locator(".ul-levels").bounding_box()
    assert track["x"] <= vp["x"] and vp["x"] + vp["width"] <= track["x"] + track["width"], (vp, track)
    desk.close()


def test_abandoning_a_uboat_campaign_is_folded_away_like_concede(browser, server):
    game = Game(server, "uboat-leader")
    game.step()  # the flotilla picked: the Strategic Phase offers end_campaign among its routine commands
    seat = next(iter(game.tokens))
    assert "end_campaign" in [a["type"] for a in game.awaiting(seat)]
    desk = Desk(browser, server)
    game.open(desk, seat)
    p = desk.page
    p.wait_for_selector('.play-entry[data-type="end_campaign"]', state="attached")
    folded = p.locator('details.play-last-resort:has(.play-entry[data-type="end_campaign"])')
    assert folded.count() == 1 and folded.get_attribute("open") is None
    assert not p.locator('.play-entry[data-type="end_campaign"]').is_visible()
    # drawn last: after every routine decision
    order = p.locator("#play-move .play-entry").evaluate_all("es => es.map(e => e.dataset.type)")
    assert order[-1] == "end_campaign", order
    desk.close()


def test_descriptions_show_code_spans_and_sealed_orders_wrap_between_words(browser, server):
    game = Game(server, "uboat-leader")
    game.step()  # the Strategic Phase: `assign_mission`, whose description names its argument `mines`
    seat = next(iter(game.tokens))
    described = [a for a in game.awaiting(seat) if a["type"] == "assign_mission"][0]["description"]
    assert "`mines`" in described
    desk = Desk(browser, server)
    game.open(desk, seat)
    p = desk.page
    text = p.locator('.play-entry[data-type="assign_mission"] > p.play-description')
    assert "`" not in text.inner_text()
    assert "mines" in text.locator("code").all_inner_texts()
    style = p.evaluate("""() => { const li = document.createElement("li");
        li.className = "play-sealed-mine"; document.body.append(li);
        const s = getComputedStyle(li); return [s.wordBreak, s.overflowWrap]; }""")
    assert style == ["normal", "anywhere"]
    desk.close()


WIDE = 1280  # px: a desktop window


def test_a_wide_picture_scrolls_in_its_own_box_not_the_page(browser, server):
    """Corvette Command's campaign sheet with a long convoy (a weather letter a day): at 1280 px the page stays 1280 px
    wide (it was 1393 px: the VP and Result columns cut off); the picture's box scrolls if its table must."""
    game = Game(server, "corvette-command", {"convoys": 1})
    weather = ["storm", "storm", "fog", "poor", "good"] * 8  # 40 days at sea
    convoy = {
        "number": 1, "card": "OB-1", "code": "OB", "speed": "slow", "size": 45, "from": "Liverpool", "to": "St John's",
        "sailed": "1941-05-01", "arrived": "1941-06-16", "weather": weather,
        "encounters": [{"uboat": "U-38", "fate": "stood-off", "hits": 0}], "ships_lost": 2, "tonnage": 17000,
        "vp": 3, "result": "Minor Allied Victory",
    }  # fmt: skip
    real = httpx.get(f"{server}/games/{game.id}/views/campaign-sheet").json()
    long = {**real, "data": {**real["data"], "convoys": [convoy]}}
    desk = Desk(browser, server)
    p = desk.page
    p.route(f"**/games/{game.id}/views/campaign-sheet*", lambda route: route.fulfill(json=long))
    game.open(desk, "captain")
    p.click('.play-views a[data-view="campaign-sheet"]')
    p.wait_for_selector("#play-picture table.grid", timeout=WAIT)
    desk.screenshot("forms-wide-campaign-sheet", full_page=False)
    assert fits(desk) <= WIDE
    box = p.locator("#play-picture")
    assert box.evaluate("e => getComputedStyle(e).overflowX") == "auto"
    desk.close()


def test_the_ipc_ledgers_chart_titles_do_not_overlap(browser, server):
    """A&A 1942's IPC ledger draws a small chart per power, its title above it: in the first round the five titles ran
    into each other ("USSR · treasury 48Germany · treasury 0UK…") and the last was cut off."""
    game = Game(server, "aa1942-convoy")
    desk = Desk(browser, server)
    p = desk.page
    game.open(desk, next(iter(game.tokens)))
    p.click('.play-views a[data-view="ipc-ledger"]')
    p.wait_for_selector("#play-picture svg.chart text.panel-title", timeout=WAIT)
    desk.screenshot("forms-ipc-ledger", full_page=False)
    boxes = p.locator("#play-picture svg.chart").evaluate(
        """svg => { const frame = svg.getBoundingClientRect();
            return { frame: [frame.left, frame.right], titles: [...svg.querySelectorAll("text.panel-title")].map((t) => {
                const r = t.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; }) }; }"""
    )
    titles = boxes["titles"]
    assert len(titles) == 5
    for i, a in enumerate(titles):
        assert boxes["frame"][0] <= a[0] and a[1] <= boxes["frame"][1], (i, a, boxes["frame"])  # none cut off
        for b in titles[i + 1 :]:
            assert a[1] <= b[0] or b[1] <= a[0] or a[3] <= b[2] or b[3] <= a[2], (a, b)
    desk.close()


def test_the_log_shows_a_rolls_purpose_as_written(browser, server):
    """U-Boat Leader's event draws name the boat and the area by their hyphens ("draw events: U-43: move into
    north-sea"); the log showed "U 43 … north sea": a boat renamed. Only an identifier standing alone is put in words."""
    game = Game(server, "uboat-leader")
    purpose = None
    for _ in range(40):
        rolls = [e for e in httpx.get(f"{server}/games/{game.id}/events").json()["events"] if e["type"] == "DiceRolled"]
        purpose = next((e["data"]["purpose"] for e in rolls if "U-" in e["data"]["purpose"]), None)
        if purpose:
            break
        game.step()
    assert purpose, "no roll named a boat"
    desk = Desk(browser, server)
    game.open(desk, next(iter(game.tokens)))
    log = desk.page.locator("#play-log .play-roll")
    log.first.wait_for(timeout=WAIT)
    shown = log.all_inner_texts()
    assert any(f", {purpose}: " in text for text in shown), (purpose, shown)
    desk.close()


def test_a_move_left_out_shows_no_slider_value_it_would_not_send(browser, server):
    """Battlefleet's move as it starts: each distance and turn left out (keep speed, the least turn) is sent as
    nothing. Its slider showed a thumb at the slider's least (57 mm, -44°) beside a box saying "keep speed"; now it is
    unset like the box: no thumb, and it says the box's words to a screen reader. What Send sends is what is shown."""
    game = battlefleet(server, "move")
    desk = Desk(browser, server)
    game.open(desk, "japan")
    p = desk.page
    numbers = p.locator('.nu-decision[data-type="move"] .nu-number')
    assert numbers.count() >= 2
    for n in numbers.all():
        slider, box = n.locator("input[type=range]"), n.locator("input[type=number]")
        assert box.input_value() == ""
        assert slider.get_attribute("aria-valuetext") == box.get_attribute("placeholder")
        assert slider.evaluate("e => getComputedStyle(e).appearance") == "none"  # drawn bare: no thumb
    desk.screenshot("forms-move-unset", full_page=False)
    first = numbers.first
    slider = first.locator("input[type=range]")
    slider.fill(slider.get_attribute("max"))  # chosen: the thumb, the box and the slider's value agree
    assert first.locator("input[type=number]").input_value() == slider.get_attribute("max")
    assert slider.get_attribute("aria-valuetext") is None
    assert slider.evaluate("e => getComputedStyle(e).appearance") != "none"
    first.locator("input[type=number]").fill("")  # emptied again: unset again
    assert re.fullmatch(r"keep speed \(\d+ mm\)", slider.get_attribute("aria-valuetext") or "")
    sent = []
    p.route(f"**/games/{game.id}/commands", lambda route: (sent.append(route.request.post_data_json), route.continue_()))
    desk.send(p.locator('button.nu-send[data-type="move"]'))
    assert sent and not sent[0].get("divisions"), sent  # as shown: every division keeps its speed
    desk.close()


def test_a_boat_at_sea_does_not_start_on_the_step_home(browser, server):
    """U-Boat Leader's move, a boat at sea: its steps list the port first (germany: ends the move, and the patrol).
    The form started on it, so Send as it stood sent the boat home; it starts on the first step that goes on, the list
    in its order. Another boat chosen, and back: the same."""
    game = Game(server, "uboat-leader")
    seat = next(iter(game.tokens))
    game.until(seat, "move")
    boat = next(a for a in game.awaiting(seat) if a["type"] == "move")["ui"]["boats"][0]
    game.send(seat, {"type": "move", "boat": boat["boat"], "to": boat["steps"][0]["to"]})
    steps = next(a for a in game.awaiting(seat) if a["type"] == "move")["ui"]["boats"][0]["steps"]
    assert steps[0]["space"] == "port" and any(s["space"] != "port" for s in steps), steps
    goes_on = next(s["to"] for s in steps if s["space"] != "port")
    desk = Desk(browser, server)
    game.open(desk, seat)
    form = desk.page.locator('.nu-decision[data-type="move"]')
    to = form.locator("select.nu-to")
    assert to.locator("option").evaluate_all("os => os.map(o => o.value)") == [s["to"] for s in steps]
    assert to.input_value() == goes_on
    boats = form.locator("select.nu-boat")
    boats.select_option(index=1)
    boats.select_option(boat["boat"])
    assert form.locator("select.nu-to").input_value() == goes_on
    desk.close()


def test_concede_asks_before_it_ends_the_game(browser, server):
    """Concede ends the game for the sender: as the referee's Reveal, it asks first (one click ended the battle).
    Cancel sends nothing; yes sends it."""
    game = battlefleet(server, "move")
    desk = Desk(browser, server)
    game.open(desk, "japan")
    p = desk.page
    p.locator("details.play-last-resort > summary").filter(has_text="concede").click()
    entry = p.locator('.play-entry[data-type="concede"]')
    version = desk.version()
    entry.locator(".nu-decision button").first.click()
    yes = entry.get_by_role("button", name="Yes, concede")
    yes.wait_for()
    assert "cannot be undone" in entry.get_by_role("alert").inner_text()
    assert desk.version() == version and httpx.get(f"{server}/games/{game.id}").json()["status"] == "open"
    entry.get_by_role("button", name="Cancel").click()
    assert yes.count() == 0
    # the advanced JSON asks too
    entry.locator("details.play-advanced > summary").click()
    entry.locator("button.play-send").click()
    desk.send(entry.get_by_role("button", name="Yes, concede"))
    p.wait_for_selector("#play-over")
    assert httpx.get(f"{server}/games/{game.id}").json()["status"] != "open"
    # a new user's trial: the card said how it ended but not who won, nor where the seed is revealed
    p.wait_for_selector("#play-result:has-text('Russia wins')")
    # a play trial: a corvette or A&A game ended saying only that it was over; the figures say how it came out
    p.wait_for_selector("#play-figures:has-text('How it came out: winner: russia · turns:')")
    assert p.locator("#play-reveal a").get_attribute("href") == f"#/live/{game.id}/referee"
    desk.close()


def test_each_boats_controls_are_named_with_the_boat(browser, server):
    """U-Boat Leader's flotilla: each boat ticked gets a crew select; each was named "crew (Nivel de Habilidad)", so
    a screen reader could not say whose. Now "U-…: crew", and no two controls of the card share a name."""
    game = Game(server, "uboat-leader")
    desk = Desk(browser, server)
    game.open(desk, next(iter(game.tokens)))
    card = desk.page.locator('#play-move .nu-decision[data-type="select_uboats"]')
    boxes = card.locator("input.nu-include:enabled:not(:checked)")
    for n in range(2):
        boxes.first.click()  # the form is drawn anew: the box clicked is replaced
        card.locator("input.nu-include:checked").nth(n).wait_for()
    names = card.locator(".nu-item-controls select").evaluate_all("es => es.map(e => e.getAttribute('aria-label'))")
    crews = [n for n in names if n and n.endswith(": crew")]
    assert len(crews) >= 2 and all(n.startswith("U-") for n in crews), names
    assert repeated(card.evaluate(NAMES)) == []
    desk.close()


def test_the_game_id_is_not_broken_and_the_concede_cards_words_keep_their_case(browser, server):
    """Corvette Command's long title at 1280 px broke the game's id at its hyphen ("g-" / "5c65…"); the advanced
    summary under Concede read "Advanced: The Arguments As JSON" (the fold's capitals reached inside it)."""
    game = Game(server, "corvette-command")
    desk = Desk(browser, server)
    game.open(desk, "captain")
    p = desk.page
    assert p.locator("#play-head h1 > span").evaluate("e => e.getClientRects().length") == 1
    desk.close()
    game = battlefleet(server, "move")
    desk = Desk(browser, server)
    game.open(desk, "japan")
    p = desk.page
    p.locator("details.play-last-resort > summary").click()
    summary = p.locator('.play-entry[data-type="concede"] details.play-advanced > summary')
    assert summary.inner_text() == "advanced: the arguments as JSON"
    desk.close()
