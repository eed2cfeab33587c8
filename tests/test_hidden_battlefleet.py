"""Issue 17 (hidden means hidden), battlefleet-1900: the attacks, scripted. An attacker holds Russia's token and the
public data (the data set's scenario: the starting positions) and reads what that token may read over HTTP; the
test then holds the referee's truth against what it inferred. Each attack recovers something under 3.0.0 and
nothing under 4.0.0 (BF-E4-20, BF-E4-21; docs/rules/battlefleet-1900.md "Editions").

- The fog subtraction (item 2): a sighting's offset learned from a public fact (the start positions, a previous
  sighting, a ship whose pose does not change) subtracted from another sighting.
- The bracket probe (item 3): a salvo that fires nothing (out of arc, out of range, no line of sight) costs nothing;
  its outcome and bracket ranged any enemy ship, every turn.
- The overlap record (issue 31): the referee's record of the pairs of enemy bases that touch after a move was sealed
  only when there was one, so its public presence told everyone (4.0.0); from 5.0.0 it is sealed after every move
  (BF-E5-1), and two worlds that differ only in such an overlap read alike to the public and to the other seat.
"""

from __future__ import annotations

import copy
import hashlib
import json
import secrets

import msgspec
import pytest
from fastapi.testclient import TestClient

from domain import engine
from domain.battlefleet_1900.awaiting import legal_commands
from domain.battlefleet_1900.state import Message
from events.battlefleet_1900 import Pose, StepStarted
from events.core import SubmissionSealed
from events.store import SQLiteStore
from service.app import create_app
from service.games import GameService, now_iso
from service.rulesets import RULESETS
from service.simulate import play as bot_battle
from tests.battlefleet_1900.scenario import RAW
from tests.conftest import auth, read, seated, send
from tests.test_hidden import masked

SCENARIO = RULESETS["battlefleet-1900"].data.scenarios["yellow-sea-1904"]
START = {s.name: (s.bow[0], s.bow[1]) for side in SCENARIO.sides for d in side.divisions for s in d.ships}
JAPAN = [s.name for d in SCENARIO.sides[0].divisions for s in d.ships]
BLUR_PCT = RULESETS["battlefleet-1900"].data.fog.blur_pct  # public: the data set is pinned and published


def new_battle(client, edition: str, turns: int) -> dict:
    """A battle under fog blur (the default), its dice and fog offsets the same every run so the test reproduces: the
    game seed hashes the server seed and the game id (domain/dice.py `game_seed`), and both are fixed here. POST
    /games always makes a fresh id, so the game is made through the app's service with one, as a script may; all
    else goes over HTTP. The attacker never uses the seed (in a fair game it is the server's secret until the end)."""
    options = {"scenario": "yellow-sea-1904", "turns": turns}
    seed = "17" * 32
    made = client.app.state.service.creation.create(
        "battlefleet-1900", options, None, "public-seed", seed, None, None, game_id="g-attack", edition=edition
    )
    return seated(made)


def get(client, g, path: str, who: str | None):
    r = read(client, g, path, who)
    assert r.status_code == 200, r.text
    return r.json()


def events(client, g, who: str | None) -> list[dict]:
    out: list[dict] = []
    while page := get(client, g, f"/events?after={out[-1]['seq'] if out else 0}&limit=1000", who)["events"]:
        out += page
    return out


def japan_move(client, g, turn: int, still: str | None) -> dict:
    """Japan's secret moves: J1 at a distance and a small free turn that vary with the turn; the division of `still`
    slows by a box each turn to a stop and then stays put (its pose no longer changes)."""
    log = {s["ship"]: s for s in get(client, g, "/views/ship-log", "japan")["data"]["ships"]}
    divisions = []
    for d in SCENARIO.sides[0].divisions:
        speed = log[d.ships[0].name]["speed"]
        if still in [s.name for s in d.ships]:
            divisions.append({"division": d.id, "distance_mm": speed["min_mm"], "turns_deg": [0]})
        else:
            span = speed["max_mm"] - speed["min_mm"]
            distance = speed["min_mm"] + (37 * turn + 11) % (span + 1)
            divisions.append({"division": d.id, "distance_mm": distance, "turns_deg": [(-1) ** turn * (turn % 4 + 1)]})
    return {"type": "move", "divisions": divisions}


def play(client, g, turns: int, still: str | None = None, russia_fire=None) -> None:
    """Both seats answer every awaited step: Japan's moves as above, Russia's `fire` from `russia_fire(turn)`,
    everything else empty (legal: §5)."""
    while True:
        summary = get(client, g, "", "referee")
        if summary["status"] != "open" or not summary["awaiting"]:
            return
        turn = get(client, g, "/views/phase", "referee")["data"]["now"]["turn"]
        if turn > turns:  # the battle goes on: nothing has been revealed at its end
            return
        for spec in [a for a in summary["awaiting"] if a["type"] != "concede"]:
            for seat in spec["seats"]:
                body = {"type": spec["type"]}
                if spec["type"] == "move" and seat == "japan":
                    body = japan_move(client, g, turn, still)
                elif spec["type"] == "fire" and seat == "russia" and russia_fire:
                    body = russia_fire(turn)
                send(client, g, seat, body)


def sightings(client, g) -> list[tuple[int, dict, dict]]:
    """Every sighting Russia's token was given, in order: (seq, what Russia saw of each Japanese ship, where it truly
    was, from the referee's view at the same point; the attacker never reads the latter)."""
    log = events(client, g, "russia")
    seqs = [e["seq"] for e in log if e["type"] == "SubmissionSealed" and e["data"].get("kind") == "sighting"]
    seqs = [q for q in seqs if next(e for e in log if e["seq"] == q)["data"]["seat"] == "russia"]
    out = []
    for q in seqs:
        seen = get(client, g, f"/views/table?at={q}", "russia")["data"]["bases"]
        truth = get(client, g, f"/views/table?at={q}", "referee")["data"]["bases"]
        out.append(
            (
                q,
                {b["ship"]: (b["pose"]["x"], b["pose"]["y"]) for b in seen if b["ship"] in JAPAN and b["pose"]},
                {b["ship"]: (b["pose"]["x"], b["pose"]["y"]) for b in truth if b["ship"] in JAPAN and b["pose"]},
            )
        )
    return out


def own_poses(client, g, at: int) -> list[tuple[int, int]]:
    bases = get(client, g, f"/views/table?at={at}", "russia")["data"]["bases"]
    return [(b["pose"]["x"], b["pose"]["y"]) for b in bases if b["seat"] == "russia" and b["pose"]]


def subtraction_guesses(seen: list[tuple[int, dict, dict]]) -> list[tuple[int, str, tuple[int, int]]]:
    """The attacker's subtractions: the offset of the start sighting (start positions are public) taken from every
    later sighting, and each sighting's offset, so inferred, taken from the next one ('a previous sighting')."""
    _, first, _ = seen[0]
    guesses, offset = [], {n: (first[n][0] - START[n][0], first[n][1] - START[n][1]) for n in first}
    chained = dict(offset)
    for k, (_, now, _) in enumerate(seen[1:], start=1):
        for n, (x, y) in now.items():
            if n in offset:
                guesses.append((k, n, (x - offset[n][0], y - offset[n][1])))
            if n in chained:
                guess = (x - chained[n][0], y - chained[n][1])
                guesses.append((k, n, guess))
                if k + 1 < len(seen) and n in seen[k + 1][1]:  # next: the offset that guess implies
                    chained[n] = (x - guess[0], y - guess[1])
    return guesses


def stationary_guesses(client, g, seen, ship: str) -> list[tuple[int, tuple[int, int]]]:
    """Sightings of a ship whose true pose no longer changes (Russia knows it from its speed: it slowed to a stop)
    pooled: the mean, and the middle of the box every sighting allows (each axis within the reach, BF-R48, of
    the sighted point, the reach estimated from the distance to Russia's nearest ship)."""
    last = seen[-1][2][ship]
    rows = [(q, now[ship]) for q, now, truth in seen if truth.get(ship) == last and ship in now]
    guesses = []
    lo, hi = [-(10**9)] * 2, [10**9] * 2
    for i, (q, (x, y)) in enumerate(rows, start=1):
        near = min(((x - a) ** 2 + (y - b) ** 2) ** 0.5 for a, b in own_poses(client, g, q))
        reach = int(BLUR_PCT * near // 100)
        for axis, v in enumerate((x, y)):
            lo[axis], hi[axis] = max(lo[axis], v - reach), min(hi[axis], v + reach)
        xs, ys = [p[0] for _, p in rows[:i]], [p[1] for _, p in rows[:i]]
        guesses.append((i, (round(sum(xs) / i), round(sum(ys) / i))))
        guesses.append((i, ((lo[0] + hi[0]) // 2, (lo[1] + hi[1]) // 2)))
    return guesses


def recovered(seen, guesses) -> set[tuple[int, str]]:
    return {(k, n) for k, n, p in guesses if seen[k][2].get(n) == p}


def test_issue17_fog_subtraction_recovers_turn_one_under_3_0_0(client):
    """What the attack did: turn 1's two sightings shared one offset (keyed by the turn), so the start positions,
    public, gave it away and the second sighting minus it was the exact pose."""
    g = new_battle(client, "3.0.0", turns=12)
    play(client, g, turns=1)
    seen = sightings(client, g)
    assert len(seen) == 2  # the start and after turn 1's move
    hits = recovered(seen, subtraction_guesses(seen))
    assert len({n for _, n in hits}) >= 3, hits  # several Japanese ships came out exactly


def test_issue17_BFR48_fog_subtraction_recovers_no_japanese_position_under_4_0_0(client):
    """Issue 17 item 2 (BF-E4-20): with Russia's token and the public scenario data, over six turns, 0 Japanese
    positions come out exactly, by the start offset, by the previous sighting's offset, or by pooling the
    sightings of Yakumo's division once it has slowed to a stop and lies still."""
    g = new_battle(client, "4.0.0", turns=12)
    play(client, g, turns=8, still="Yakumo")
    seen = sightings(client, g)
    assert len(seen) == 9  # the start and after each of eight moves
    still = [k for k, (_, _, truth) in enumerate(seen) if truth["Yakumo"] == seen[-1][2]["Yakumo"]]
    assert len(still) >= 3  # Yakumo sighted at least three times lying still
    assert recovered(seen, subtraction_guesses(seen)) == set()
    for ship in ("Yakumo", "Nisshin", "Kasuga"):
        last = seen[-1][2][ship]
        assert [p for _, p in stationary_guesses(client, g, seen, ship) if p == last] == []
    # no two sightings of a ship share an offset, not even of a ship lying still
    for n in JAPAN:
        offsets = [(s[n][0] - t[n][0], s[n][1] - t[n][1]) for _, s, t in seen if n in s]
        assert len(set(offsets)) == len(offsets), (n, offsets)


def probe(turn: int) -> dict:
    """Russia's bracket probe: Peresvet 'fires' only its stem guns (95 degrees on the bow, two cycles a turn) at two
    Japanese ships abeam, a different pair each turn: out of arc, so no round is fired and nothing is spent."""
    pair = JAPAN[2 * (turn - 1) % len(JAPAN)], JAPAN[(2 * turn - 1) % len(JAPAN)]
    return {
        "type": "fire",
        "salvos": [{"ship": "Peresvet", "target": n, "estimate_mm": 1, "guns": [{"mount": "stem"}]} for n in pair],
    }


@pytest.mark.parametrize("edition", ["3.0.0", "4.0.0"])
def test_issue17_BFR41_bracket_probe_a_salvo_that_fires_nothing_tells_nothing(client, edition):
    """Issue 17 item 3 (BF-E4-21): Peresvet's stem guns 'fire' at Japanese ships abeam with an estimate of 1 mm:
    no round can fall, nothing is spent. Under 3.0.0 each such salvo published the target's true bracket
    and whether it lay in arc; under 4.0.0 the public and Russia read `could_not_bear` and no bracket, and only
    the referee's sealed record holds the truth."""
    g = new_battle(client, edition, turns=12)
    play(client, g, turns=2, russia_fire=probe)
    for who in (None, "russia", "japan"):
        log = events(client, g, who)
        salvos = [e["data"] for e in log if e["type"] == "SalvoMeasured" and e["data"]["firer"] == "Peresvet"]
        assert salvos and all(s["rounds"] == 0 for s in salvos)
        told = [(s["outcome"], s["bracket"]) for s in salvos]
        if edition == "3.0.0":
            assert any(b is not None for _, b in told)  # a free range-finder
        else:
            assert set(told) == {("could_not_bear", None)}, told
        rows = get(client, g, "/views/gunnery-log", who or "russia")["data"]
        text = str(rows)
        if edition == "4.0.0":
            assert "out_of_arc" not in text and "out_of_range" not in text and "no_los" not in text
    if edition == "4.0.0":  # the referee still reads what the tape would have shown
        log = events(client, g, "referee")
        marks = [e["sealed"] for e in log if e["type"] == "SubmissionSealed" and e["data"].get("kind") == "markers"]
        unfired = [u for m in marks for u in m["content"].get("unfired", [])]
        assert unfired and {u["outcome"] for u in unfired} <= {"out_of_arc", "out_of_range", "no_los"}


# ---- two worlds: every descriptor (issue 30) ----------------------------------------------------------------------


def shown(state, seat: str) -> bytes:
    """Every `awaiting` entry `seat` is shown, its `ui` descriptor included, as the API encodes it."""
    return msgspec.json.encode([engine.entry(s) for s in legal_commands(state) if seat in s.seats])


def other_world(state, hider: str):
    """The same game in everything `hider`'s enemy may know, with every secret of `hider` changed (BATTLEFLEET.md §4):
    its true poses and last moves (under fog blur), what it saw of the enemy (its sighting offsets), torpedo depths,
    boat gun crews, its sealed submission of this step, its fleet orders."""
    world = copy.deepcopy(state)
    sec = world.sealed[hider]
    if world.fog == "blur":  # under `open` poses and last moves are public
        sec.poses = {n: Pose(p.x + 37, p.y - 23, (p.h + 5) % 360) for n, p in sec.poses.items()}
        sec.last_move = {n: v // 2 for n, v in sec.last_move.items()}
    sec.sighting = {n: Pose(p.x - 11, p.y + 13, (p.h + 10) % 360) for n, p in sec.sighting.items()}
    sec.depth = dict.fromkeys(sec.depth, "shallow")
    sec.manned = {n: not m for n, m in sec.manned.items()}
    sec.pending = {kind: {"other": "orders"} for kind in sec.pending} | {"give_orders": {"divisions": []}}
    sec.messages = [*sec.messages, Message(turn=world.turn, from_seat=hider, to_seat=hider, text="a secret")]
    return world


@pytest.mark.parametrize("fog", ["blur", "open"])
@pytest.mark.parametrize("edition", ["3.0.0", "4.0.0", "5.0.0"])
def test_issue30_BF4_two_worlds_differing_in_a_seats_secrets_give_the_other_seat_the_same_descriptors(edition, fog):
    """A bot battle, stopped at every step a seat owes and after every sealed submission: a second world changes one
    seat's secrets (its true poses under blur, its sighting offsets, its sealed orders, its logs); every `awaiting`
    entry of the other seat, each form of start, give_orders, move, fire, launch_torpedoes and damage_control, is byte
    for byte the same in both worlds. The seat whose secrets changed does see a difference (the probe reaches them)."""
    seen, differs = set(), set()

    def compare(game, event) -> None:
        state = game.state
        if state.over or not isinstance(event, (StepStarted, SubmissionSealed)) or not state.owing:
            return
        for hider in state.seats:
            reader = state.enemy(hider)
            world = other_world(state, hider)
            assert shown(world, reader) == shown(state, reader), (state.turn, state.step, hider)
            seen.add(state.step)
            if shown(world, hider) != shown(state, hider):
                differs.add(state.step)

    seed = b"issue30" + edition.encode() + fog.encode()
    bot_battle("battlefleet-1900", {"fog": fog, "turns": 3}, seed, on_event=compare, edition=edition)
    assert {"setup", "command", "movement", "gunnery", "torpedo", "damage_control"} <= seen
    assert "command" in differs  # the hider's own crews: its give_orders form shows them
    assert ("movement" in differs) == (fog == "blur")  # and its last moves, secret under blur


# ---- two worlds: an overlap with an enemy base after a move (issue 31, BF-E5-1) -------------------------------------

OVERLAP_AT = now_iso()  # one clock for both worlds


def overlap_data() -> dict:
    """The torpedo attack re-placed: Japan's line steams east 5 mm off Poltava's, Ikazuchi's base already on Poltava's
    (bases touching as a move begins do not stop each other, BF-R29, so they may still touch after it); Sevastopol
    far off. Japan's last move 78 mm (39-117 this turn), Russia's 80 (60-100): at 60 and 60 the two bases still
    touch after the move, and at Japan 117 (or Russia 100) they are clear and nothing else comes to touch."""
    raw = json.loads(json.dumps(RAW))
    japan, russia = raw["scenarios"]["torpedo-attack"]["sides"]
    japan["last_move_mm"] = 78
    for i, ship in enumerate(japan["divisions"][0]["ships"]):
        ship["bow"], ship["heading"] = [1790 - 150 * i, 1005], 90
    poltava, sevastopol = russia["divisions"][0]["ships"]
    poltava["bow"], sevastopol["bow"] = [1800, 1000], [1000, 400]
    return raw


def overlap_world(monkeypatch, edition: str, japan_mm: int, russia_mm: int):
    """One server holding one fair game under fog blur, its randomness (seeds, ids, tokens) the other world's, up to
    both seats' moves; returns its client and the game (its id and tokens)."""
    drawn = iter(range(1, 10**6))
    monkeypatch.setattr(secrets, "token_bytes", lambda n=32: hashlib.sha256(b"%d" % next(drawn)).digest()[:n])
    svc = GameService(SQLiteStore(":memory:"), clock=lambda: OVERLAP_AT)
    client = TestClient(create_app(service=svc))
    options = {"scenario": "torpedo-attack", "fog": "blur", "data": overlap_data()}
    made = svc.creation.create("battlefleet-1900", options, None, "fair", None, None, None, game_id="overlap", edition=edition)
    g = {"game_id": "overlap", "tokens": {s["seat"]: s["token"] for s in made["seats"]}}
    g["referee_token"] = made["referee_token"]
    for t in ("start", "give_orders"):
        for seat in ("japan", "russia"):
            send(client, g, seat, {"type": t})
    send(client, g, "japan", {"type": "move", "divisions": [{"division": "D1", "distance_mm": japan_mm}]})
    send(client, g, "russia", {"type": "move", "divisions": [{"division": "R2", "distance_mm": russia_mm}]})
    return client, g


def fog_masked(x):
    """A read with what the fog shows a seat of the enemy blanked: the content of its sighting records, and an enemy
    pose as sighted (`exact: false`, in the fire descriptor's targets). It follows the enemy's true poses (BF-R48),
    which differ between the worlds by design."""
    if isinstance(x, dict):
        data, sealed = x.get("data"), x.get("sealed")
        if isinstance(data, dict) and data.get("kind") == "sighting" and isinstance(sealed, dict):
            return {**x, "sealed": {**sealed, "content": "<sighting>"}}
        if isinstance(x.get("pose"), dict) and x["pose"].get("exact") is False:
            return {**x, "pose": "<sighted>"}
        return {k: fog_masked(v) for k, v in x.items()}
    return [fog_masked(v) for v in x] if isinstance(x, list) else x


def overlap_reads(client, g, who: str | None) -> dict[str, bytes]:
    """What `who` (None: the public) reads of the game: its events, its live stream (a seat's own, by ticket) and its
    bundle (nothing revealed yet), with commitments, salts and hashes masked (tests/test_hidden.py) and, to a seat,
    its sightings."""
    ticket = ""
    if who is not None:
        made = client.post(f"/games/{g['game_id']}/tickets", headers=auth(g["tokens"][who]))
        ticket = "&ticket=" + made.json()["ticket"]
    stream = client.get(f"/games/{g['game_id']}/events/stream?timeout=0{ticket}").text
    data = "data: "
    lines = [data + json.dumps(fog_masked(json.loads(x[6:]))) if x.startswith(data) else x for x in stream.split("\n")]
    reads = {
        "events": json.dumps(fog_masked(get(client, g, "/events?limit=1000", who))),
        "stream": "\n".join(lines),
        "bundle": json.dumps(fog_masked(get(client, g, "/bundle", who))),
    }
    return {k: masked(v.encode()) for k, v in reads.items()}


@pytest.mark.parametrize("edition", ["5.0.0", "4.0.0"])
@pytest.mark.parametrize("mover", ["japan", "russia"])
def test_issue31_BFR29_BFE5_1_whether_enemy_bases_overlap_after_a_move_is_told_to_nobody(monkeypatch, edition, mover):
    """Two games under fog blur, alike but for one seat's move (`mover`): after it Ikazuchi's base touches Poltava's
    in one world and is clear of it in the other. Under 5.0.0 (BF-E5-1) the public's events, live stream and
    bundle are byte for byte alike, and so are the other seat's (but for what its sighting shows of the mover's
    ships): the referee's overlap record is sealed in both worlds, holding the pair in one and nothing in the other.
    Under 4.0.0 it was sealed only in the world with the pair, and its public presence told everyone of the overlap."""
    moves = {"japan": (60, 117), "russia": (60, 100)}[mover]
    worlds = [overlap_world(monkeypatch, edition, *((m, 60) if mover == "japan" else (60, m))) for m in moves]
    touching, clear = worlds
    referee = [
        [e["sealed"]["content"]["overlaps"] for e in events(*w, "referee") if e["data"].get("seat") == "referee"]
        for w in worlds
    ]
    assert referee == [[[["Ikazuchi", "Poltava"]]], [[]] if edition == "5.0.0" else []]
    record = ("SubmissionSealed", "referee", "poses")
    public = [[(e["type"], e["data"].get("seat"), e["data"].get("kind")) for e in events(*w, None)] for w in worlds]
    assert record in public[0] and (record in public[1]) == (edition == "5.0.0")  # 4.0.0: the leak, in public
    hider = next(s for s in ("japan", "russia") if s != mover)
    assert overlap_reads(*touching, mover) != overlap_reads(*clear, mover)  # the mover knows its own poses
    for who in (None, hider):
        a, b = overlap_reads(*touching, who), overlap_reads(*clear, who)
        told = [read for read in a if a[read] != b[read]]
        assert told == ([] if edition == "5.0.0" else ["events", "stream", "bundle"]), (who, told)


# ---- two worlds: a line reversed, or a formation broken, by a turn's secret degrees (issue 31, BF-E6-1) ------------

TOGETHER_90 = {"turn": "together", "to": "port", "arrow": 90}
SUCCESSION_45 = {"turn": "succession", "to": "starboard", "arrow": 45}


def reversal_world(monkeypatch, edition: str, degrees: int):
    """One fair game of the torpedo attack under fog blur, its randomness the other world's: Japan's D1 (in line
    ahead, heading south) is ordered to turn together 90 to port, and its sealed move turns `degrees` (the arrow's
    band is 90-180): at 180 its lead ends on the reverse of the line's bearing (BF-R57: the line is reversed, in line
    ahead again), at 178 it does not (2 degrees off: no formation, BF-R4). Every other step is answered empty until
    the second Command Phase, where D1 is ordered to turn in succession (converted to together out of line ahead)."""
    drawn = iter(range(1, 10**6))
    monkeypatch.setattr(secrets, "token_bytes", lambda n=32: hashlib.sha256(b"%d" % next(drawn)).digest()[:n])
    svc = GameService(SQLiteStore(":memory:"), clock=lambda: OVERLAP_AT)
    client = TestClient(create_app(service=svc))
    options = {"scenario": "torpedo-attack", "fog": "blur", "turns": 3}
    made = svc.creation.create("battlefleet-1900", options, None, "fair", None, None, None, game_id="rev", edition=edition)
    g = {"game_id": "rev", "tokens": {s["seat"]: s["token"] for s in made["seats"]}}
    g["referee_token"] = made["referee_token"]
    orders = {1: TOGETHER_90, 2: SUCCESSION_45}
    while True:
        summary = get(client, g, "", "referee")
        turn = get(client, g, "/views/phase", "referee")["data"]["now"]["turn"]
        specs = [a for a in summary["awaiting"] if a["type"] != "concede"]
        for spec in specs:
            for seat in spec["seats"]:
                body: dict = {"type": spec["type"]}
                if spec["type"] == "give_orders" and seat == "japan":
                    body["divisions"] = [{"division": "D1", "orders": [orders[turn]]}]
                elif spec["type"] == "move" and seat == "japan" and turn == 1:
                    body["divisions"] = [{"division": "D1", "turns_deg": [degrees]}]
                send(client, g, seat, body)
        if turn == 2 and any(s["type"] == "move" for s in specs) or not specs:
            return client, g


def reversal_reads(client, g, who: str | None) -> dict[str, bytes]:
    """`overlap_reads` and every view, fog-masked: what `who` (None: the public) reads of the game."""
    reads = overlap_reads(client, g, who)
    for view in ("ship-log", "gunnery-log", "table", "phase"):
        reads[view] = masked(json.dumps(fog_masked(get(client, g, f"/views/{view}", who))).encode())
    return reads


@pytest.mark.parametrize("edition", ["6.0.0", "5.0.0"])
def test_issue31_BFR57_BFE6_1_a_reversed_line_and_a_broken_formation_tell_nobody_a_turns_degrees(monkeypatch, edition):
    """Two games under fog blur, alike but for the degrees of Japan's sealed turn (180 or 178, both in the public
    arrow's band). Under 5.0.0 the public `LineReversed` (BF-R57) and the next Command Phase's `OrderConverted`
    (BF-R4: a succession arrow out of line ahead) told everyone, the other seat too, which one Japan turned: the
    sealed move's exact degrees. Under 6.0.0 (BF-E6-1) both are sealed to their seat: the public's and Russia's reads
    (events, stream, bundle, every view) are byte for byte alike, while Japan reads its own line reversed."""
    worlds = [reversal_world(monkeypatch, edition, d) for d in (180, 178)]
    told = {
        who: [read for read, x in reversal_reads(*worlds[0], who).items() if x != reversal_reads(*worlds[1], who)[read]]
        for who in (None, "russia")
    }
    referee = [[e["type"] for e in events(*w, "referee")] for w in worlds]
    if edition == "5.0.0":  # the leak, in public
        assert "LineReversed" in referee[0] and "LineReversed" not in referee[1]
        assert "OrderConverted" not in referee[0] and "OrderConverted" in referee[1]
        assert told[None] and told["russia"], told
    else:
        assert told == {None: [], "russia": []}, told
        japan = [get(client, g, "/views/gunnery-log", "japan")["data"]["divisions"] for client, g in worlds]
        assert japan[1][0]["ships"] == ["Ikazuchi", "Inazuma", "Akebono"]  # (Sazanami's bow left the table: BF-R29)
        assert japan[0][0]["ships"] == japan[1][0]["ships"][::-1]  # its own line, reversed at 180 degrees


# ---- BF-E7-1: the torpedoes' running depth (the second cold audit of issue 31) ----


DEPTH_AT = now_iso()


def depth_world(monkeypatch, edition: str, depth: str):
    """A fair torpedo-attack battle under fog blur, alike in everything but Ikazuchi's depth logged in the sealed
    `start`; Japan launches one torpedo at Poltava in turn 1 (out of its arc or range there: the depth decides
    nothing). The same secrets are drawn in both worlds."""
    drawn = iter(range(1, 10**6))
    monkeypatch.setattr(secrets, "token_bytes", lambda n=32: hashlib.sha256(b"%d" % next(drawn)).digest()[:n])
    svc = GameService(SQLiteStore(":memory:"), clock=lambda: DEPTH_AT)  # one stamp in both worlds
    client = TestClient(create_app(service=svc))
    options = {"scenario": "torpedo-attack", "fog": "blur", "turns": 2}
    made = svc.creation.create("battlefleet-1900", options, None, "fair", None, None, None, game_id="d", edition=edition)
    g = {"game_id": "d", "tokens": {s["seat"]: s["token"] for s in made["seats"]}, "referee_token": made["referee_token"]}
    ikazuchi = {"ship": "Ikazuchi", "torpedo_depth": depth, "boat_guns_manned": True}
    send(client, g, "japan", {"type": "start", "ships": [ikazuchi]})
    send(client, g, "russia", {"type": "start"})
    while True:
        specs = [a for a in read(client, g, "", "referee").json()["awaiting"] if a["type"] != "concede"]
        assert specs, "the battle ended before Japan's launch"
        launched = False
        for spec in specs:
            for seat in spec["seats"]:
                body = {"type": spec["type"]}
                if spec["type"] == "launch_torpedoes" and seat == "japan":
                    body["launches"] = [{"ship": "Ikazuchi", "mount": "tubes", "count": 1, "target": "Poltava"}]
                    launched = True
                send(client, g, seat, body)
        if launched:
            return client, g


@pytest.mark.parametrize("edition", ["6.0.0", "7.0.0"])
def test_issue31_BFR34_BFE7_1_a_launch_tells_nobody_a_depth_that_decides_nothing(monkeypatch, edition):
    seen = {}
    for depth in ("normal", "shallow"):
        client, g = depth_world(monkeypatch, edition, depth)
        seen[depth] = {
            who: masked(json.dumps(fog_masked(read(client, g, "/events?limit=1000", who).json())).encode())
            for who in (None, "russia")
        }
        launches = [e["data"] for e in read(client, g, "/events?limit=1000", "japan").json()["events"]
                    if e["type"] == "TorpedoesResolved"]
        assert launches and launches[0]["outcome"] in ("out_of_arc", "out_of_range", "blocked"), launches
        assert launches[0]["depth"] == (depth if edition == "6.0.0" else None)
    for who in (None, "russia"):
        alike = seen["normal"][who] == seen["shallow"][who]
        assert alike == (edition != "6.0.0"), f"{who or 'the public'} tells the depths apart under {edition}"


def test_an_edition_that_publishes_what_a_later_one_hides_makes_no_new_game(client):
    """Hidden means hidden for new games too: POST /games pinned battlefleet-1900 6.0.0, whose every torpedo launch
    publishes the depth sealed in `start` (BF-E7-1), and the summary said sealed records stayed secret. The editions
    before the last change that hides something (BF-E11-4, 11.0.0) are refused for new games, naming what leaks;
    11.0.0 on are made as before, and a game already made under 6.0.0 (here by script) says what it publishes."""
    info = client.get("/rulesets/battlefleet-1900").json()
    leaks = {e["version"]: e["leaks"] for e in info["editions"]}
    assert "BF-E7-1" in leaks["6.0.0"] and "BF-E11-4" in leaks["6.0.0"] and "BF-E7-1" not in leaks["7.0.0"]
    assert leaks["10.0.0"] == ["BF-E11-4"] and leaks["11.0.0"] == leaks["14.0.0"] == []
    takes_new = [v for v, ids in leaks.items() if not ids]
    before = client.get("/games").json()["games"]
    for edition in ("3.0.0", "6.0.0", "10.0.0"):
        r = client.post("/games", json={"ruleset": "battlefleet-1900", "edition": edition})
        problem = r.json()
        assert r.status_code == 422 and problem["code"] == "edition-withdrawn", r.text
        assert problem["editions"] == takes_new == ["11.0.0", "12.0.0", "13.0.0", "14.0.0", "15.0.0"]
        assert all(change in problem["detail"] for change in leaks[edition]), problem["detail"]
    assert client.get("/games").json()["games"] == before  # nothing was made
    made = client.post("/games", json={"ruleset": "battlefleet-1900", "edition": "11.0.0"})
    assert made.status_code == 201 and made.json()["ruleset"]["version"] == "11.0.0", made.text
    fair = "fair: sealed records stay secret until the rules reveal them"
    assert client.get(f"/games/{made.json()['game_id']}").json()["dice"]["secrecy"] == fair
    old = client.app.state.service.creation.create(
        "battlefleet-1900", {}, None, "fair", None, None, None, edition="6.0.0"
    )
    secrecy = client.get(f"/games/{old['game_id']}").json()["dice"]["secrecy"]
    assert secrecy != fair and "BF-E7-1" in secrecy and "BF-E11-4" in secrecy, secrecy
    # a fork is a new game played on: refused too (a cold review forked a 6.0.0 game at seq 1 into a new one)
    fork = client.post(f"/games/{old['game_id']}/forks", json={"at": 1})
    assert fork.status_code == 422 and fork.json()["code"] == "edition-withdrawn", fork.text
    # the changes after 7.0.0 hide what the fog hides: under fog `open` 7.0.0 on publish nothing they keep, 6.0.0 the
    # torpedo depth in every fog (BF-E7-1)
    open_fog = {"ruleset": "battlefleet-1900", "options": {"fog": "open"}}
    assert client.post("/games", json={**open_fog, "edition": "7.0.0"}).status_code == 201
    refused = client.post("/games", json={**open_fog, "edition": "6.0.0"}).json()
    assert refused["code"] == "edition-withdrawn" and "BF-E7-1" in refused["detail"]
    assert "BF-E11-4" not in refused["detail"]
    assert refused["editions"][0] == "7.0.0"
    made_open = client.app.state.service.creation.create(
        "battlefleet-1900", {"fog": "open"}, None, "fair", None, None, None, edition="10.0.0"
    )
    assert client.get(f"/games/{made_open['game_id']}").json()["dice"]["secrecy"] == fair
    for ruleset in client.get("/rulesets").json():  # every ruleset's newest edition takes new games
        assert client.get(f"/rulesets/{ruleset['id']}").json()["editions"][-1]["leaks"] == []


def test_once_the_battle_is_over_its_past_positions_are_read_open_by_everyone(client):
    """When the game ends every seal opens, to everyone alike (docs/api.md "The umpire"): the table at the end shows
    every pose to the public, but a past position (`?at=`) still showed the public no pose under fog blur, so a
    referee's trial found a roll page's "just before and after" tables blank for a reader without a token. While the
    battle is played a past position stays redacted; once it is over it reads as the umpire read it."""
    from tests.drivers import bot_commands

    svc = client.app.state.service
    options = {"scenario": "yellow-sea-1904"}
    made = seated(svc.creation.create("battlefleet-1900", options, None, "fair", None, None, None))
    gid = made["game_id"]
    bot_commands(svc, gid, made["tokens"], 12)
    past = client.get(f"/games/{gid}").json()["version"]
    at = f"/views/table?at={past}"

    def poses(who):
        return {b["ship"]: b["pose"] for b in get(client, made, at, who)["data"]["bases"]}

    russian = {b["ship"] for b in get(client, made, at, "referee")["data"]["bases"] if b["seat"] == "russia"}
    assert all(pose is None for ship, pose in poses(None).items() if ship in russian)  # in play: hidden from the public
    umpire = poses("referee")
    assert all(umpire[ship] is not None for ship in russian)
    send(client, made, "japan", {"type": "concede"})
    assert poses(None) == poses("japan") == umpire  # over: the same past position, open to everyone
