"""Issue 17 (hidden means hidden), battlefleet-1900: the attacks, scripted. An attacker holds Russia's token and the
public data (the data set's scenario: the starting positions) and reads what that token may read over HTTP; the
test then holds the referee's truth against what it inferred. Each attack recovers something under 3.0.0 and
nothing under 4.0.0 (BF-E4-20, BF-E4-21; docs/rules/battlefleet-1900.md "Editions").

- The fog subtraction (item 2): a sighting's offset learned from a public fact (the start positions, a previous
  sighting, a ship whose pose does not change) subtracted from another sighting.
- The bracket probe (item 3): a salvo that fires nothing (out of arc, out of range, no line of sight) costs nothing;
  its outcome and bracket ranged any enemy ship, every turn.
"""

from __future__ import annotations

import copy

import msgspec
import pytest

from domain import engine
from domain.battlefleet_1900.awaiting import legal_commands
from domain.battlefleet_1900.state import Message
from events.battlefleet_1900 import Pose, StepStarted
from events.core import SubmissionSealed
from service.rulesets import RULESETS
from tests.battlefleet_1900.scenario import play as bot_battle
from tests.conftest import auth

SCENARIO = RULESETS["battlefleet-1900"].data.scenarios["yellow-sea-1904"]
START = {s.name: (s.bow[0], s.bow[1]) for side in SCENARIO.sides for d in side.divisions for s in d.ships}
JAPAN = [s.name for d in SCENARIO.sides[0].divisions for s in d.ships]
BLUR_PCT = RULESETS["battlefleet-1900"].data.fog.blur_pct  # public: the data set is pinned and published


def new_battle(client, edition: str, turns: int) -> dict:
    """A battle under fog blur (the default). Its seed is fixed so the test reproduces; the attacker never uses it
    (in a fair game it is the server's secret until the end)."""
    body = {
        "ruleset": "battlefleet-1900",
        "options": {"scenario": "yellow-sea-1904", "turns": turns},
        "edition": edition,
        "dice": {"mode": "public-seed", "server_seed": "17" * 32},
    }
    r = client.post("/games", json=body)
    assert r.status_code == 201, r.text
    g = r.json()
    g["tokens"] = {s["seat"]: s["token"] for s in g["seats"]}
    return g


def get(client, g, path: str, who: str | None):
    token = g["referee_token"] if who == "referee" else g["tokens"][who] if who else None
    r = client.get(f"/games/{g['game_id']}{path}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def events(client, g, who: str | None) -> list[dict]:
    out: list[dict] = []
    while page := get(client, g, f"/events?after={out[-1]['seq'] if out else 0}&limit=1000", who)["events"]:
        out += page
    return out


def send(client, g, seat: str, body: dict) -> None:
    r = client.post(f"/games/{g['game_id']}/commands", headers=auth(g["tokens"][seat]), json=body)
    assert r.status_code == 200, r.text


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
@pytest.mark.parametrize("edition", ["3.0.0", "4.0.0"])
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
    bot_battle(seed, {"fog": fog, "turns": 3}, on_event=compare, edition=edition)
    assert {"setup", "command", "movement", "gunnery", "torpedo", "damage_control"} <= seen
    assert "command" in differs  # the hider's own crews: its give_orders form shows them
    assert ("movement" in differs) == (fog == "blur")  # and its last moves, secret under blur
