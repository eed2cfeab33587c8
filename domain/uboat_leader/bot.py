"""A simple, documented policy for `uboat-leader` (simulation, property tests, golden bundles), and `outcomes`.

Policy. Setup: the text's example fleet (U-43, U-47, U-51 Trained, U-56 Ace: 29 of 32 SO) when it can be bought,
else Trained boats in data order while at least 3 SO would be left. Strategic: on turn 1 an Attack mission for the
first boat that can take one, then nothing more; never ends the campaign early. Operations: a boat in port sails
when fit, Okay and loaded; at sea it heads for the Area with the best Contact table its class may enter and
patrols there; it heads home when Shaken, Unfit or out of torpedoes; mission boats take the first step offered.
Attack box: continue while Okay. Fire: up to 3 torpedoes at each Naval card, most VP first. Raider: the gun, then
normal torpedoes, 10 rolls. Tactical: activate the first boat offered, always roll, keep the Convoy card with the
most merchants, engage when it has Ready torpedoes, start a Long area nearest the merchants (Infiltrador: the
nearest Short or Medium area), surfaced; call every boat of the Area to the pack. Combat: close to 1 area of the
nearest merchant, away from escorts, submerged once Detected; run silent when Detected with an escort within 2;
leave when Unfit or out of torpedoes; Bearing at full speed; fire 2 Ready torpedoes (FAT first) at the best target
(most VP, merchants before escorts, nearest); the first choice for every tie, the first escort offered when the
escorts' order is asked one at a time (3.0.0). After combat, 2.0.0: the next contact while Okay with Ready torpedoes;
from 3.0.0 the next Convoy card is drawn at once (UL-S8) and the bot engages it as it does the first (with Ready
torpedoes), else withdraws.
"""

from __future__ import annotations

from typing import Any

from domain.engine import CommandSpec
from domain.uboat_leader.data.schema import Level
from domain.uboat_leader.distances import OFF, distance, from_area, map_distances, to_edge
from domain.uboat_leader.rules.attack import targets, weapons
from domain.uboat_leader.rules.bearing import bearing_options
from domain.uboat_leader.rules.contact import place_choices
from domain.uboat_leader.rules.setup import eligible
from domain.uboat_leader.rules.strategic import mission_choices
from domain.uboat_leader.rules.tactical import move_options
from domain.uboat_leader.state import State

EXAMPLE_FLEET: tuple[tuple[str, Level], ...] = (("U-43", "trained"), ("U-47", "trained"), ("U-51", "trained"), ("U-56", "ace"))


def choose(state: State, awaiting: list[CommandSpec], seat: str) -> dict[str, Any] | None:
    legal = {s.type: s for s in awaiting}
    if not legal:
        return None
    for name, policy in POLICIES:
        if name in legal:
            out = policy(state, legal)
            if out is not None:
                return out
    first = awaiting[0]
    return {"type": first.type, **(first.choices[0] if first.choices else {})}


def first(legal, name: str) -> dict:
    return {"type": name, **legal[name].choices[0]}


def select(s: State, legal) -> dict:
    ports = [p.id for p in s.camp.map.ports]
    picks = [{"boat": b, "level": lv, "port": ports[0]} for b, lv in EXAMPLE_FLEET]
    cost = sum(s.data.uboat(b).levels[lv].so for b, lv in EXAMPLE_FLEET if any(u.boat == b for u in s.data.uboats))
    if all(any(u.boat == b and eligible(s, u) for u in s.data.uboats) for b, _ in EXAMPLE_FLEET) and cost <= s.dur.so:
        return {"type": "select_uboats", "picks": picks}
    picks, left = [], s.dur.so
    for u in s.data.uboats:
        lv = "trained" if "trained" in u.levels else next(iter(u.levels))
        if eligible(s, u) and left - u.levels[lv].so >= 3:
            picks.append({"boat": u.boat, "level": lv, "port": ports[0]})
            left -= u.levels[lv].so
    if not picks:
        u = next(u for u in s.data.uboats if eligible(s, u))
        picks = [{"boat": u.boat, "level": min(u.levels, key=lambda k: u.levels[k].so), "port": ports[0]}]
    return {"type": "select_uboats", "picks": picks}


def strategic(s: State, legal) -> dict:
    if s.turn == 1 and "assign_mission" in legal:
        for ch in mission_choices(s):  # the count-only choices (`awaiting` lists none from 5.0.0, UL-E5-2)
            if ch["mission"] == "attack":
                return {"type": "assign_mission", **ch}
    return {"type": "end_strategic"}


def hunting_ground(s: State, boat: str) -> str:
    b = s.boats[boat]
    dist = map_distances(s.data, s.camp, s.area_of(boat), b.cls)
    areas = [a for a in s.camp.map.areas if not a.no_stop and a.contacts_at and a.id in dist]
    return min(areas, key=lambda a: (a.contacts_at[0], -len(a.contacts_at))).id


def going_home(s: State, boat: str) -> bool:
    b = s.boats[boat]
    return b.band != "okay" or b.torpedoes == 0


def goal(s: State, boat: str) -> str | None:
    """Where the boat should be at the end of its move (None: stay)."""
    b = s.boats[boat]
    if b.space == "port":
        sail = s.fit(boat) and b.band == "okay" and b.torpedoes and b.stress <= s.card(boat).bands[0] - 2
        return hunting_ground(s, boat) if sail else None
    if going_home(s, boat):
        return s.camp.map.ports[0].id
    return hunting_ground(s, boat)


def ops(s: State, legal) -> dict:
    moves = legal["move"].choices if "move" in legal else []
    moving = s.ops.moving
    for boat in ([moving] if moving else []) + [m["boat"] for m in moves]:
        mine = [m for m in moves if m["boat"] == boat]
        if s.boats[boat].missions and mine:
            return {"type": "move", **mine[0]}
        target = goal(s, boat)
        here = s.area_of(boat)
        if target is None or target == here or not mine:
            if boat == moving and "stop" in legal:
                return first(legal, "stop")
            continue
        dist = map_distances(s.data, s.camp, target, s.boats[boat].cls)
        step = min(mine, key=lambda m: dist.get(m["to"], 99))
        if dist.get(step["to"], 99) < dist.get(here, 99):
            return {"type": "move", **step}
        if boat == moving and "stop" in legal:
            return first(legal, "stop")
    if "end_operations" in legal:
        return {"type": "end_operations"}
    if "stop" in legal:
        return first(legal, "stop")
    return first(legal, "move")


def attack_box(s: State, legal) -> dict:
    box = s.ops.box
    return {"type": "continue_attack" if s.boats[box.boat].band == "okay" else "abort_attack"}


def fire(s: State, legal) -> dict:
    box = s.ops.box
    b = s.boats[box.boat]
    left = {k: b.ready[k] + b.stored[k] for k in ("normal", "FAT", "T5")}
    shots = []
    for n in sorted(box.targets, key=lambda n: -s.data.card("naval", n).vp):
        for _ in range(3):
            kind = next((k for k in ("normal", "FAT", "T5") if left[k]), None)
            if kind is None:
                break
            left[kind] -= 1
            shots.append({"target": str(n), "kind": kind})
    return {"type": "fire_torpedoes", "boat": box.boat, "shots": shots}


def raider(s: State, legal) -> dict:
    weapons = [c["weapon"] for c in legal["raider_roll"].choices] if "raider_roll" in legal else []
    for w in ("gun", "normal"):
        if w in weapons:
            return {"type": "raider_roll", "weapon": w}
    return {"type": "raider_stop"}


def merchants(s: State) -> list:
    return [p for p in s.battle.ships.values() if not p.escort]


def choose_card(s: State, legal) -> dict:
    def score(n):
        kinds = [p[0][0] for p in s.data.card("convoys", n).positions]
        return (-(len(kinds) - kinds.count("E")), kinds.count("E"))

    return {"type": "choose_convoy_card", "number": min(s.act.drawn, key=score)}


def engage(s: State, legal) -> dict:
    b = s.boats[s.act.boat]
    return {"type": "engage" if sum(b.ready.values()) else "withdraw"}


def place(s: State, legal) -> dict:
    ships = merchants(s) or list(s.battle.ships.values())
    escorts = [p for p in s.battle.ships.values() if p.escort]

    def score(ch):
        row = from_area(s.data, ch["area"])
        d = min(row.get(p.area, 99) for p in ships)
        e = min((row.get(p.area, 99) for p in escorts), default=9)
        return (max(d, 2), -min(e, 3), ch["side"] != "surfaced")

    # a Radio Call of three boats with an Infiltrador among them lists no choices (more than 64): the rules' own
    return {"type": "place", **min(legal["place"].choices or place_choices(s), key=score)}


def wolfpack(s: State, legal) -> dict:
    return first(legal, "call_wolfpack") if "call_wolfpack" in legal else {"type": "start_combat"}


def move(s: State, legal) -> dict:
    bt = s.battle
    boat = bt.queue[0]
    sub = bt.subs[boat]
    b = s.boats[boat]
    escorts = [p for p in bt.ships.values() if p.escort]
    silent = "silent_running" in legal and any(c["boat"] == boat for c in legal["silent_running"].choices)
    if silent and sub.side == "submerged" and any(distance(s.data, sub.area, p.area) <= 2 for p in escorts):
        return {"type": "silent_running", "boat": boat}
    options = [{"boat": boat, "side": side, "to": to} for side, to in move_options(s, boat)]
    if not s.fit(boat) or not sum(b.ready.values()):
        return {"type": "move_uboat", **min(options, key=lambda c: 0 if c["to"] == OFF else to_edge(s.data, c["to"]))}
    targets = merchants(s) or list(bt.ships.values())
    side = "submerged" if sub.detected else "surfaced"

    def score(c):
        if c["to"] == OFF:
            return (99,)
        row = from_area(s.data, c["to"])
        d = min(row.get(p.area, 99) for p in targets)
        e = min((row.get(p.area, 99) for p in escorts), default=9)
        return (abs(d - 1), e <= 1, c["side"] != side)

    return {"type": "move_uboat", **min(options, key=score)}


def escort_order(s: State, legal) -> dict:
    """The first choice offered (from 3.0.0 the next escort, one at a time); else every escort in label order."""
    if legal["escort_order"].choices:
        return first(legal, "escort_order")
    return {"type": "escort_order", "labels": [lb for lb, p in s.battle.ships.items() if p.escort]}


def bearing(s: State, legal) -> dict:
    return {"type": "bearing", "speeds": {b: bearing_options(s, b)[0] for b in s.battle.subs}}


def attack(s: State, legal) -> dict:
    bt = s.battle
    for boat in [c["boat"] for c in legal["hold"].choices]:
        if "torpedo" not in weapons(s, boat):
            continue
        here = bt.subs[boat].area

        def value(lb, here=here):
            p = bt.ships[lb]
            return (p.escort, -s.data.card(p.deck, p.number).vp, distance(s.data, here, p.area))

        best = min(targets(s, boat, "torpedo"), key=value)
        ready = s.boats[boat].ready
        kinds = [k for k in ("FAT", "normal", "T5") for _ in range(ready[k])][:2]
        return {
            "type": "attack",
            "boat": boat,
            "weapon": "torpedo",
            "shots": [{"target": best, "kind": k} for k in kinds],
        }
    return first(legal, "hold")


def after(s: State, legal) -> dict:
    b = s.boats[s.act.boat]
    go = b.band == "okay" and sum(b.ready.values()) > 0
    return {"type": "next_contact" if go else "end_activation"}


POLICIES = (
    ("select_uboats", select),
    ("end_strategic", strategic),
    ("continue_attack", attack_box),
    ("fire_torpedoes", fire),
    ("raider_stop", raider),
    ("end_operations", ops),
    ("move", ops),
    ("stop", ops),
    ("patrol", ops),
    ("activate", lambda s, legal: first(legal, "activate")),
    ("roll_contacts", lambda s, legal: {"type": "roll_contacts"}),
    ("choose_convoy_card", choose_card),
    ("engage", engage),
    ("place", place),
    ("start_combat", wolfpack),
    ("move_uboat", move),
    ("bearing", bearing),
    ("escort_order", escort_order),
    ("hold", attack),
    ("next_contact", after),
)


def categories(state: State) -> dict[str, dict[int, str]]:
    """The result level is a category of the stand-in sheet (UL result table), not a quantity."""
    return {"result_level": {3: "Great", 2: "Good", 1: "Adequate", 0: "Poor", -1: "not over"}}


def outcomes(state: State) -> dict[str, int]:
    """The campaign's result as integers: final VP, result level (0 Poor, 1 Adequate, 2 Good, 3 Great in the
    stand-in sheet), VP before losses, boats lost, ships sunk, tonnage sunk, turns played."""
    return {
        "final_vp": state.final_vp if state.final_vp is not None else state.vp,
        "result_level": state.result_index if state.result_index is not None else -1,
        "vp": state.vp,
        "boats_lost": state.boats_lost,
        "ships_sunk": state.ships_sunk,
        "tons_sunk": state.tons,
        "turns": state.turn,
    }
