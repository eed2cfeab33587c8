"""The Tactical Display of the contact in hand: ships and U-boats by area, ranges, detection numbers."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.uboat_leader.distances import distance
from domain.uboat_leader.rules.attack import numbers, weapon_range
from domain.uboat_leader.rules.bearing import reference
from domain.uboat_leader.rules.escorts import in_detection_range
from domain.uboat_leader.rules.ships import piece_speed
from domain.uboat_leader.state import State
from domain.uboat_leader.views.common import Now, now

Three = Annotated[list[int | None], msgspec.Meta(min_length=3, max_length=3)]
Pair = Annotated[list[int], msgspec.Meta(min_length=2, max_length=2)]


class ShipOut(msgspec.Struct, forbid_unknown_fields=True):
    label: str
    kind: Literal["L", "M", "N", "E"]
    area: str
    known: bool
    escort: bool
    speed: int
    damage: Literal["none", "light", "heavy"]
    deck: str | None = None
    number: int | None = None
    name: str | None = None
    vp: int | None = None
    torpedo: Three | None = None  # [light, heavy, sunk], null = N/A
    gun: Three | None = None
    attack: Annotated[list[int | None], msgspec.Meta(min_length=1, max_length=2)] | None = None  # surfaced[, submerged]
    detect: Pair | None = None  # surfaced, submerged
    tactics: Pair | None = None  # [detection, attack]


class SubOut(msgspec.Struct, forbid_unknown_fields=True):
    boat: str
    area: str
    side: Literal["surfaced", "submerged"]
    detected: bool
    silent: bool
    deep: bool
    bearing: int | None


class Shot(msgspec.Struct, forbid_unknown_fields=True):
    boat: str
    target: str
    range: int
    torpedo: bool  # in torpedo range with a number to reach
    gun: bool


class Watch(msgspec.Struct, forbid_unknown_fields=True):
    escort: str
    boat: str
    range: int
    needs: int | None  # the escort's detection number against the boat's side (None: Unknown escort)


class TacticalDisplay(msgspec.Struct, forbid_unknown_fields=True):
    now: Now
    active: str | None
    contacts_left: int
    area: str | None
    card: int | None
    convoy_type: str | None
    turn: int | None
    step: str | None
    to_act: list[str]
    alerted: int
    reference: str | None
    reference_speed: int | None
    ships: list[ShipOut]
    uboats: list[SubOut]
    by_area: dict[str, list[str]]
    shots: list[Shot]
    detection: list[Watch]


def ship_out(s: State, p) -> ShipOut:
    r = s.rules
    dmg = "heavy" if p.damage >= r.heavy_points else "light" if p.damage else "none"
    out = ShipOut(
        label=p.label,
        kind=p.kind,
        area=p.area,
        known=p.number is not None,
        escort=p.escort,
        speed=piece_speed(s, p.label),
        damage=dmg,
    )
    if p.number is not None:
        card = s.data.card(p.deck, p.number)
        out.deck, out.number, out.name, out.vp = p.deck, p.number, card.name, card.vp
        out.torpedo, out.gun, out.attack = list(card.torpedo), list(card.gun), list(card.attack)
        out.detect = list(card.detect) or None
        out.tactics = list(s.data.tactics[p.tactic - 1]) if p.tactic else None
    return out


def tactical_display(s: State, reader=None) -> TacticalDisplay:
    a, bt = s.act, s.battle
    card = s.data.card("convoys", a.card or a.drawn[0]) if a is not None and (a.card or a.drawn) else None
    ships, subs, shots, watch = [], [], [], []
    by_area: dict[str, list[str]] = {}
    if bt is not None:
        ships = [ship_out(s, p) for p in bt.ships.values()]
        subs = [
            SubOut(
                boat=x.boat,
                area=x.area,
                side=x.side,
                detected=x.detected,
                silent=x.silent,
                deep=x.deep,
                bearing=x.bearing,
            )
            for x in bt.subs.values()
        ]
        for lb, p in bt.ships.items():
            by_area.setdefault(p.area, []).append(lb)
        for b, x in bt.subs.items():
            by_area.setdefault(x.area, []).append(b)
            for lb, p in bt.ships.items():
                rng = distance(s.data, x.area, p.area)
                c = s.data.card(p.deck, p.number) if p.number is not None else None
                reach = {
                    w: c is not None and rng <= weapon_range(s, w) and any(numbers(c, w)) for w in ("torpedo", "gun")
                }
                if reach["torpedo"] or reach["gun"]:
                    shots.append(Shot(boat=b, target=lb, range=rng, torpedo=reach["torpedo"], gun=reach["gun"]))
        for lb, p in bt.ships.items():
            if p.escort:
                for b in in_detection_range(s, lb):
                    x = bt.subs[b]
                    c = s.data.card(p.deck, p.number) if p.number is not None else None
                    need = c.detect[0 if x.side == "surfaced" else 1] if c else None
                    watch.append(Watch(escort=lb, boat=b, range=distance(s.data, p.area, x.area), needs=need))
    return TacticalDisplay(
        now=now(s),
        active=a.boat if a else None,
        contacts_left=a.contacts if a else 0,
        area=bt.area if bt else (s.area_of(a.boat) if a else None),
        card=card.number if card else None,
        convoy_type=card.type if card else None,
        turn=bt.turn if bt else None,
        step=bt.step if bt else None,
        to_act=list(bt.queue) if bt else [],
        alerted=bt.alerted if bt else 0,
        reference=None if bt is None or not bt.declared else reference_label(s),
        reference_speed=bt.ref_speed if bt and bt.declared else None,
        ships=ships,
        uboats=subs,
        by_area=by_area,
        shots=shots,
        detection=watch,
    )


def reference_label(s: State) -> str | None:
    return reference(s)[0]
