"""Issue 33 item 5, "since my last turn": each ruleset's digest (its views.py `digest`) says what happened in plain
words, naming the ships, boats, zones and results, with the dice chosen so each outcome is certain; the read
`GET /games/{id}/since?version=N` serves the events as the token's reader reads them and the digest of them; bad
input is a clear 422; and the digest says nothing a reader may not read (two worlds that differ only in a secret give
the public and the other seat the same lines)."""

from __future__ import annotations

import copy

import msgspec
import pytest

from domain.aa1942_convoy.views import digest as convoy_digest
from domain.battlefleet_1900.rules import hits
from domain.battlefleet_1900.state import Due
from domain.battlefleet_1900.views import digest as battle_digest
from domain.corvette_command.rules import asw
from domain.corvette_command.views import digest as corvette_digest
from domain.dice import ChosenDice
from domain.engine import REFEREE
from domain.uboat_leader.views import digest as uboat_digest
from events import battlefleet_1900 as bf
from events import uboat_leader as ul
from events.core import SubmissionSealed
from service.simulate import play as bot_game
from tests.battlefleet_1900.scenario import ctx as battle_ctx
from tests.battlefleet_1900.scenario import done as battle_done
from tests.battlefleet_1900.test_hits import broadside, gun
from tests.conftest import auth, new_game, read, send
from tests.corvette import ctx as corvette_ctx
from tests.corvette import done as corvette_done
from tests.corvette import make_state as corvette_state
from tests.test_aa1942_rules import advance, table
from tests.test_hidden_battlefleet import other_world
from tests.uboat_leader.scenario import new_state as uboat_state
from tests.uboat_leader.scenario import send as uboat_send
from tests.uboat_leader.test_attack import fight

# ---- the digest of each ruleset: names and numbers ------------------------------------------------------------------


def test_BFR17_BFR28_a_salvo_names_its_side_ships_hits_and_damage():
    """Tsesarevich's two main rounds on Mikasa: hit dice 1 (vitals) and 2 (upperworks); rows 6 (Mx: a main position
    destroyed, at 15 against 11) and 5 (ST); the position die 1 is turret A; the critical 6+6 does nothing. Every die
    is rolled before any damage lands (BF-R28): the line gathers them."""
    s = broadside()
    s.due = [Due("salvo", "Tsesarevich", "Mikasa", bracket=1, guns=[gun("A", "main", 2)])]
    before = copy.deepcopy(s)
    c = battle_ctx(s, [1, 2], [6, 5], 1, [6, 6])
    hits.step(c)
    battle_done(c)
    assert battle_digest(before, c.events, None) == [
        "Russia's salvo: Mikasa hit twice by Tsesarevich (one vital hit, one upperworks hit): turret A out, "
        "steering hit"
    ]


def test_BFR17_a_salvo_whose_rounds_land_without_a_hit_says_so():
    s = broadside()
    s.due = [Due("salvo", "Mikasa", "Tsesarevich", bracket=1, guns=[gun("A", "main", 2)])]
    before = copy.deepcopy(s)
    c = battle_ctx(s, [3, 6])  # AP: 1 vitals, 2 upperworks, 3-6 nothing
    hits.step(c)
    battle_done(c)
    assert battle_digest(before, c.events, None) == ["Japan's salvo: Mikasa's rounds on Tsesarevich did no harm"]


def test_AA8_AA10_a_raid_names_the_sea_zone_the_powers_and_the_ipcs_lost():
    t = table(submarines={"Germany": {"7": 2}})
    advance(t, "Germany", "combat")
    before = copy.deepcopy(t.state)
    events = t.send("Germany", "raid", [2], sz=7)  # a 2: 3 IPCs
    assert convoy_digest(before, events, None) == [
        "Germany's submarine raided UK's convoy in sea zone 7: 3 IPCs of damage; UK lost 3 IPCs (treasury 28)"
    ]


def test_AA9_AAR2_a_raid_the_cap_cuts_says_what_was_rolled_and_what_the_cap_left_before_and_after():
    """AA-R2: what the cap left before the raid (which cut it) and after, as the roll's outcome says from 6.0.0; "the
    zone's cap left 1" read as what is left after the raid, where sz-status says 0 (the cold audit of 6.0.0, F1)."""
    t = table(submarines={"Germany": {"7": 2}})
    advance(t, "Germany", "combat")
    t.send("Germany", "raid", [2], sz=7)  # 3 of the zone's 4
    before = copy.deepcopy(t.state)
    events = t.send("Germany", "raid", [3], sz=7)  # rolls 4, the cap leaves 1
    assert convoy_digest(before, events, None) == [
        "Germany's submarine raided UK's convoy in sea zone 7: 1 IPC of damage (rolled 4, cut by the zone's cap: 1 left "
        "before this raid, 0 after); UK lost 1 IPC (treasury 27)"
    ]


def test_AAR10_submarines_lost_name_the_power_the_number_and_the_sea_zone():
    t = table(submarines={"Germany": {"7": 2}, "UK": {"7": 1}})
    advance(t, "Germany", "combat")
    before = copy.deepcopy(t.state)
    events = t.send("Germany", "lose_submarines", power="Germany", sz=7, count=2)
    assert convoy_digest(before, events, None) == ["Germany lost two submarines in sea zone 7"]


@pytest.mark.parametrize(
    "faces, line",
    [
        (
            [5, 5, 5, 5, 5],  # all four d6 hit: confirmed, and she surfaces (CC-29)
            "Captain's depth-charge pattern on U-47: four hits (4 in all), confirmed kill: she surfaces and may be "
            "boarded",
        ),
        ([5, 5, 5, 5, 1], "Captain's depth-charge pattern on U-47: three hits (3 in all), probable kill"),
        ([5, 5, 5, 1, 1], "Captain's depth-charge pattern on U-47: two hits (2 in all), no kill"),
    ],
)
def test_CC22_CC28_a_depth_charge_pattern_names_the_uboat_the_hits_and_the_result(faces, line):
    """The engagement's U-boat (U-47) was sighted before the span began: the digest names it from the state."""
    s = corvette_state(engagement={"range": 0})
    before = copy.deepcopy(s)
    c = corvette_ctx(s, faces)
    asw.drop_pattern(c, "depth-charges")
    corvette_done(c)
    assert corvette_digest(before, c.events, None)[0] == line


def test_ULS3_a_uboat_attack_names_the_boat_the_ship_its_tonnage_and_the_result():
    """Trained U-47 fires three torpedoes: 8 + TS 1 = 9 sinks Telena (M1), the second shot at her is not fired
    (UL-R31), 7 + 1 = 8 is heavy damage on M2."""
    s = uboat_state(boats=(("U-47", "trained"), ("U-51", "trained")))
    fight(
        s,
        {"M1": ("C1", "merchants", 56), "M2": ("C2", "merchants", 78)},
        {"U-47": ("S1", "surfaced"), "U-51": ("L5", "surfaced")},
        queue=("U-47",),
    )
    before = copy.deepcopy(s)
    shots = [{"target": "M1"}, {"target": "M1"}, {"target": "M2"}]
    events = uboat_send(s, "attack", 8, 7, boat="U-47", weapon="torpedo", shots=shots)
    m2 = next(e for e in events if isinstance(e, ul.AttackRolled) and e.target == "M2").name
    assert uboat_digest(before, events, None)[:3] == [
        "U-47's torpedo attack on Telena (M1): sunk",
        "U-47 sank Telena (M1), 2,500 tons: 1 VP",  # merchants card 56: 2,500 tons, 1 VP
        f"U-47's torpedo attack on {m2} (M2): heavy damage",
    ]


# ---- the read over HTTP ---------------------------------------------------------------------------------------------


def battle(client, **extra) -> dict:
    """A battle with a public seed. Two battles made so do not roll alike: POST /games gives each a fresh id and the
    game seed hashes it (domain/dice.py `game_seed`), so their dice and fog offsets differ. Nothing here needs them
    alike: no die is rolled before both seats' orders are in, and what is compared (digests, event types) does not
    read the offsets."""
    dice = {"mode": "public-seed", "server_seed": "17" * 32}
    return new_game(client, {"scenario": "yellow-sea-1904"}, ruleset="battlefleet-1900", dice=dice, **extra)


def since(client, g: dict, version: int, who: str | None = None, **query) -> dict:
    r = read(client, g, f"/since?version={version}" + "".join(f"&{k}={v}" for k, v in query.items()), who)
    assert r.status_code == 200, r.text
    return r.json()


def test_since_serves_each_reader_the_events_as_GET_events_does_and_the_digest(client):
    g = battle(client)
    v0 = g["version"]
    send(client, g, "japan", type="start", ships=[{"ship": "Mikasa", "boat_guns_manned": False}])
    for who in ("japan", "russia", "referee", None):
        got = since(client, g, v0, who)
        page = read(client, g, f"/events?after={v0}", who).json()
        assert got["events"] == page["events"] and got["events"], who  # one redaction: GET /events'
        assert (got["since"], got["upto"], got["version"], got["more"]) == (v0, page["version"], page["version"], False)
        assert got["digest"] == ["Japan sent its setup, sealed from the other seats until the rules open them"]
        sealed = [e for e in got["events"] if e["type"] == "SubmissionSealed"]
        assert ("sealed" in sealed[0]) == (who in ("japan", "referee"))
    send(client, g, "russia", type="start")
    after = since(client, g, v0, "russia")
    assert after["digest"][:2] == [
        "Japan and Russia sent their setup, sealed from the other seats until the rules open them",
        "Turn 1 began",
    ]
    assert since(client, g, after["version"])["digest"] == [] and since(client, g, after["version"])["events"] == []


def test_the_referee_of_an_unumpired_game_reads_since_as_the_public(client):
    g = battle(client, umpired=False)
    send(client, g, "japan", type="start")
    assert since(client, g, 1, "referee") == since(client, g, 1)
    assert "sealed" in next(e for e in since(client, g, 1, "japan")["events"] if e["type"] == "SubmissionSealed")


def test_two_worlds_differing_only_in_a_sealed_order_give_the_public_and_the_other_seat_the_same_digest(client):
    """Japan's setup (opened once Russia's is in) and its first orders (sealed: Russia's are not yet in) differ between
    the worlds: the public's and Russia's digests are the same lines and their events the same types in the same
    order. (The events' contents differ: the commitments, Japan's opened setup, and Russia's own sighting, whose fog
    offsets hash each game's fresh id: see `battle`.)"""
    worlds = []
    for ships, arrow in (([], 45), ([{"ship": "Mikasa", "boat_guns_manned": False}], 90)):
        g = battle(client)
        send(client, g, "japan", type="start", ships=ships)
        send(client, g, "russia", type="start")
        orders = [{"division": "J1", "orders": [{"turn": "together", "to": "port", "arrow": arrow}]}]
        send(client, g, "japan", type="give_orders", divisions=orders)
        worlds.append(g)
    for who in (None, "russia"):
        a, b = (since(client, g, 1, who) for g in worlds)
        sent = "Japan sent its orders, sealed from the other seats until the rules open them"
        assert a["digest"] == b["digest"] and sent in a["digest"]
        assert [e["type"] for e in a["events"]] == [e["type"] for e in b["events"]]
    mine = [since(client, g, 1, "japan")["events"] for g in worlds]
    assert mine[0] != mine[1]  # what Japan reads of its own orders: the worlds do differ


@pytest.mark.parametrize(
    "query, status, code",
    [
        ("version=999", 422, "invalid-version"),
        ("version=-1", 422, "invalid-request"),
        ("version=two", 422, "invalid-request"),
        ("version=1.5", 422, "invalid-request"),
        ("", 422, "invalid-request"),
        ("version=1&limit=0", 422, "invalid-request"),
        ("version=1&limit=501", 422, "invalid-request"),
        ("version=1&after=2", 422, "unknown-parameter"),
    ],
)
def test_bad_input_is_a_clear_problem_and_changes_nothing(client, query, status, code):
    g = new_game(client)
    before = read(client, g).json()["version"]
    r = read(client, g, f"/since?{query}", "USSR")
    assert r.status_code == status and r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert body["code"] == code and body["detail"], body
    if code == "invalid-version":
        assert f"0 to {before}" in body["detail"]
    assert read(client, g).json()["version"] == before


def test_unknown_game_and_a_token_of_another_game(client):
    g, other = new_game(client), new_game(client)
    assert client.get("/games/nope/since?version=0").json()["code"] == "unknown-game"
    r = client.get(f"/games/{g['game_id']}/since?version=0", headers=auth(other["tokens"]["USSR"]))
    assert r.status_code == 401 and r.json()["code"] == "invalid-token"


def test_a_long_span_comes_in_pages(client):
    g = new_game(client)
    send(client, g, "USSR", type="purchase", spend=0)
    for _ in range(4):
        send(client, g, "USSR", type="end_phase")
    version = read(client, g).json()["version"]
    first = since(client, g, 0, limit=3)
    assert (first["upto"], first["more"], [e["seq"] for e in first["events"]]) == (3, True, [1, 2, 3])
    seqs, at = [], 0
    while True:
        page = since(client, g, at, limit=4)
        seqs += [e["seq"] for e in page["events"]]
        at = page["upto"]
        if not page["more"]:
            break
    assert seqs == list(range(1, version + 1))
    whole = since(client, g, 0)
    assert not whole["more"] and whole["digest"][-1] == "USSR collected 24 IPCs (treasury 48)"


def test_the_answer_has_an_etag_and_304_while_the_game_stands_still(client):
    g = new_game(client)
    r = read(client, g, "/since?version=0")
    again = client.get(f"/games/{g['game_id']}/since?version=0", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304
    send(client, g, "USSR", type="purchase", spend=0)
    moved = client.get(f"/games/{g['game_id']}/since?version=0", headers={"If-None-Match": r.headers["etag"]})
    assert moved.status_code == 200 and moved.json()["version"] > r.json()["version"]


# ---- two worlds in the domain: the digest reads only what its reader may read of the state ----------------------


def as_read(events: list, reader) -> list:
    """The events as `reader` reads them (service/records.py event_row_out: a sealed record's content to its seat
    and the referee only)."""
    return [
        msgspec.structs.replace(e, content=None, salt=None)
        if isinstance(e, SubmissionSealed) and reader not in (REFEREE, e.seat)
        else e
        for e in events
    ]


@pytest.mark.parametrize("fog", ["blur", "open"])
def test_BF4_two_worlds_differing_in_a_seats_secrets_give_the_other_seat_and_the_public_the_same_digest(fog):
    """A bot battle; at every command, the digest of what it did, from the state before it and from a world where
    one seat's secrets (true poses under blur, sightings, sealed orders, fleet orders) differ: the other seat and the
    public read the same lines."""
    checked = []
    held: dict = {}

    def on_event(game, event) -> None:
        held["game"] = game

    def on_command(payload, events) -> None:
        state = held.get("before")  # the state the command found (none before the first)
        for hider in state.seats if state is not None else []:
            world = other_world(state, hider)
            for reader in (state.enemy(hider), None):
                seen = as_read(events, reader)
                lines = battle_digest(state, seen, reader)
                assert battle_digest(world, seen, reader) == lines, (state.turn, state.step, hider, reader)
                checked.append(bool(lines))
        held["before"] = copy.deepcopy(held["game"].state)

    seed = b"since" + fog.encode()
    bot_game("battlefleet-1900", {"fog": fog, "turns": 2}, seed, on_event=on_event, on_command=on_command)
    assert sum(checked) > 20


def test_BFR28_the_same_firer_and_target_in_two_turns_make_two_lines():
    s = broadside()
    s.due = [Due("salvo", "Mikasa", "Tsesarevich", bracket=1, guns=[gun("A", "main", 2)])]
    before = copy.deepcopy(s)
    c = battle_ctx(s, [3, 6])
    hits.step(c)
    c.emit(bf.StepStarted(turn=2, step="hits", owing=[]))
    c.state.due = [Due("salvo", "Mikasa", "Tsesarevich", bracket=1, guns=[gun("A", "main", 1)])]
    c.dice = ChosenDice(4)
    hits.step(c)
    assert battle_digest(before, c.events, None) == [
        "Japan's salvo: Mikasa's rounds on Tsesarevich did no harm",
        "Japan's salvo: Mikasa's rounds on Tsesarevich did no harm",
    ]
