"""What the commander reads: the campaign sheet, every U-boat's log, the Tactical Display and the decks.

Each view is a msgspec Struct (its JSON Schema is the view's schema). All are public (solitaire, and nothing is
hidden: a deck has no order until a card is drawn) and read only running totals kept by evolve, never the log.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.engine import View
from domain.uboat_leader import sequence
from domain.uboat_leader.data import DECKS, LEVELS
from domain.uboat_leader.display import distance
from domain.uboat_leader.legal import so_text
from domain.uboat_leader.rules.attack import numbers, weapon_range
from domain.uboat_leader.rules.contact import contact_mods
from domain.uboat_leader.rules.escorts import in_detection_range
from domain.uboat_leader.rules.ships import piece_speed
from domain.uboat_leader.rules.tactical import reference
from domain.uboat_leader.state import LogEntry, State, TurnLine

Fate = Literal["in play", "retired", "sunk"]


class Now(msgspec.Struct):
    turn: int
    segment: Literal["setup", "strategic", "operations", "tactical", "refit", "over"]
    awaiting: list[str]  # the command types legal now
    over: bool


class Level(msgspec.Struct):
    name: str
    vp: int
    reached: bool


class BoatLine(msgspec.Struct):
    boat: str
    cls: str
    level: str
    stress: int
    band: Literal["okay", "shaken", "unfit"]
    bands: list[int]  # highest stress of Okay, of Shaken
    xp: int
    xp_to_promote: int | None
    patrols: int
    patrol_limit: int
    where: str
    space: Literal["port", "open", "search", "box"]
    missions: list[str]
    torpedoes: int
    mines: int
    ammo: int
    contact_modifier: int  # the net modifier to its Contact roll where it is
    attacked: bool
    fate: Fate


class BoxLine(msgspec.Struct):
    id: str
    mission: str
    events: int
    naval: int
    boats: list[str]


class AreaLine(msgspec.Struct):
    id: str
    name: str
    kind: Literal["port", "area"]
    adjacent: list[str]
    refit: int | None
    move: int | None
    patrol: int | None
    contacts_at: list[int]
    no_stop: bool
    barred: list[str]
    counters: list[str]  # air_search, intel, supply_ship, battle
    warnings: int
    boats: list[str]  # in the port, or in the Area's open space
    search_box: list[str]
    boxes: list[BoxLine]


class Option(msgspec.Struct):
    option: str
    cost: str  # SO, as the sheet writes it ("½" each for advanced torpedoes)
    max: int | None
    bought: int


class DeckCount(msgspec.Struct):
    deck: str
    remaining: int
    discards: int


class CampaignSheet(msgspec.Struct):
    now: Now
    campaign: str
    name: str
    duration: str
    patrols_per_boat: int
    so: str  # "3½"
    so_half: int
    options: list[Option]
    vp: int
    boats_lost: int
    final_vp: int | None
    result: str | None
    result_index: int | None
    levels: list[Level]
    ships_sunk: int
    tons: int
    boats: list[BoatLine]
    areas: list[AreaLine]
    turns: list[TurnLine]
    this_turn: TurnLine
    decks: list[DeckCount]


def now(s: State) -> Now:
    return Now(turn=s.turn, segment=s.segment, awaiting=awaiting_types(s), over=s.over)


def awaiting_types(s: State) -> list[str]:
    return [x.type for x in sequence.legal_commands(s)]


def fate(b) -> Fate:
    return "sunk" if b.sunk else "retired" if b.retired else "in play"


def boat_line(s: State, b) -> BoatLine:
    lv = s.level(b.boat)
    return BoatLine(
        boat=b.boat,
        cls=b.cls,
        level=b.level,
        stress=b.stress,
        band=b.band,
        bands=list(s.card(b.boat).bands),
        xp=b.xp,
        xp_to_promote=lv.xp,
        patrols=b.patrols,
        patrol_limit=s.dur.patrols,
        where=b.where,
        space=b.space,
        missions=list(b.missions),
        torpedoes=b.torpedoes,
        mines=b.mines,
        ammo=b.ammo,
        contact_modifier=sum(v for _, v in contact_mods(s, b.boat)) if b.space != "port" else 0,
        attacked=b.attacked,
        fate=fate(b),
    )


def area_lines(s: State) -> list[AreaLine]:
    out = []
    live = [b for b in s.boats.values() if b.in_play]
    for p in s.camp.map.ports:
        out.append(
            AreaLine(
                id=p.id,
                name=p.name,
                kind="port",
                adjacent=list(p.adj),
                refit=p.refit,
                move=None,
                patrol=None,
                contacts_at=[],
                no_stop=False,
                barred=[],
                counters=[],
                warnings=0,
                boats=[b.boat for b in live if b.where == p.id],
                search_box=[],
                boxes=[],
            )
        )
    for a in s.camp.map.areas:
        boxes = [
            BoxLine(
                id=x.id,
                mission=x.mission,
                events=x.events,
                naval=x.naval,
                boats=[b.boat for b in live if b.where == x.id],
            )
            for x in a.boxes
        ]
        out.append(
            AreaLine(
                id=a.id,
                name=a.name,
                kind="area",
                adjacent=list(a.adj),
                refit=None,
                move=a.move,
                patrol=a.patrol,
                contacts_at=list(a.contacts_at),
                no_stop=a.no_stop,
                barred=list(a.barred),
                counters=list(s.counters.get(a.id, [])),
                warnings=s.warnings.get(a.id, 0),
                boats=[b.boat for b in live if b.where == a.id and b.space == "open"],
                search_box=[b.boat for b in live if b.where == a.id and b.space == "search"],
                boxes=boxes,
            )
        )
    return out


def this_turn(s: State) -> TurnLine:
    t = s.tally
    return TurnLine(
        turn=s.turn,
        so_spent_half=t.so_spent_half,
        options=list(t.options),
        vp=t.vp,
        ships_sunk=t.ships_sunk,
        tons=t.tons,
        boats_lost=t.boats_lost,
        contacts=t.contacts,
        battles=t.battles,
    )


def campaign_sheet(s: State, reader=None) -> CampaignSheet:
    levels = s.dur.levels
    return CampaignSheet(
        now=now(s),
        campaign=s.campaign,
        name=s.camp.name,
        duration=s.duration,
        patrols_per_boat=s.dur.patrols,
        so=so_text(s.so_half),
        so_half=s.so_half,
        options=[
            Option(
                option=n.option,
                cost="½" if n.cost is None else str(n.cost),
                max=n.max,
                bought=s.bought.get(n.option, 0),
            )
            for n in s.camp.so_notes
        ],
        vp=s.vp,
        boats_lost=s.boats_lost,
        final_vp=s.final_vp,
        result=s.result,
        result_index=s.result_index,
        levels=[Level(name=n, vp=v, reached=(s.final_vp if s.final_vp is not None else s.vp) >= v) for n, v in levels],
        ships_sunk=s.ships_sunk,
        tons=s.tons,
        boats=[boat_line(s, b) for b in s.boats.values()],
        areas=area_lines(s),
        turns=list(s.lines),
        this_turn=this_turn(s),
        decks=deck_counts(s),
    )


def deck_counts(s: State) -> list[DeckCount]:
    return [DeckCount(deck=d, remaining=len(s.decks[d]), discards=len(s.discards[d])) for d in DECKS]


# ---- U-boat logs ---------------------------------------------------------------------------------------


class RowOut(msgspec.Struct):
    initiative: Literal["A", "C"]
    gs: int
    ts: int
    ev: int


class Torpedoes(msgspec.Struct):
    normal: int
    FAT: int
    T5: int


class BoatLog(msgspec.Struct):
    boat: str
    cls: str
    level: str
    levels: list[str]  # the card's levels, lowest first
    abilities: list[str]
    row_in_use: Literal["okay", "shaken"]
    row: RowOut
    okay: RowOut
    shaken: RowOut
    bands: list[int]
    stress: int
    band: Literal["okay", "shaken", "unfit"]
    xp: int
    xp_to_promote: int | None
    patrols: int
    ready: Torpedoes
    stored: Torpedoes
    mines: int
    ammo: int
    gun: bool
    where: str
    space: str
    missions: list[str]
    vp: int
    ships_sunk: int
    tons: int
    fate: Fate
    history: list[LogEntry]


class UBoatLog(msgspec.Struct):
    now: Now
    boats: dict[str, BoatLog]  # every boat of the flotilla, keyed by boat: a UI picks one


def row_out(r) -> RowOut:
    return RowOut(initiative=r.initiative, gs=r.gs, ts=r.ts, ev=r.ev)


def boat_log(s: State, b) -> BoatLog:
    card = s.card(b.boat)
    lv = s.level(b.boat)
    return BoatLog(
        boat=b.boat,
        cls=b.cls,
        level=b.level,
        levels=[x for x in LEVELS if x in card.levels],
        abilities=list(card.abilities),
        row_in_use="okay" if b.band == "okay" else "shaken",
        row=row_out(s.row(b.boat)),
        okay=row_out(lv.okay),
        shaken=row_out(lv.shaken),
        bands=list(card.bands),
        stress=b.stress,
        band=b.band,
        xp=b.xp,
        xp_to_promote=lv.xp,
        patrols=b.patrols,
        ready=Torpedoes(**b.ready),
        stored=Torpedoes(**b.stored),
        mines=b.mines,
        ammo=b.ammo,
        gun=card.gun,
        where=b.where,
        space=b.space,
        missions=list(b.missions),
        vp=b.vp,
        ships_sunk=b.ships,
        tons=b.tons,
        fate=fate(b),
        history=list(b.history),
    )


def uboat_log(s: State, reader=None) -> UBoatLog:
    return UBoatLog(now=now(s), boats={b.boat: boat_log(s, b) for b in s.boats.values()})


# ---- the Tactical Display ------------------------------------------------------------------------------


class ShipOut(msgspec.Struct):
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
    torpedo: list[int | None] | None = None
    gun: list[int | None] | None = None
    attack: list[int | None] | None = None
    detect: list[int] | None = None
    tactics: list[int] | None = None  # [detection, attack]


class SubOut(msgspec.Struct):
    boat: str
    area: str
    side: Literal["surfaced", "submerged"]
    detected: bool
    silent: bool
    deep: bool
    bearing: int | None


class Shot(msgspec.Struct):
    boat: str
    target: str
    range: int
    torpedo: bool  # in torpedo range with a number to reach
    gun: bool


class Watch(msgspec.Struct):
    escort: str
    boat: str
    range: int
    needs: int | None  # the escort's detection number against the boat's side (None: Unknown escort)


class TacticalDisplay(msgspec.Struct):
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
    ships, subs, by_area, shots, watch = [], [], {}, [], []
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


# ---- the decks -----------------------------------------------------------------------------------------


class CardOut(msgspec.Struct):
    number: int
    name: str


class DeckOut(msgspec.Struct):
    deck: str
    remaining: int
    in_play: int
    discards: list[CardOut]


class Decks(msgspec.Struct):
    """Counts and discards only: the cards left have no order until one is drawn (decks.py)."""

    now: Now
    decks: list[DeckOut]


def decks_view(s: State, reader=None) -> Decks:
    out = []
    for d in DECKS:
        total = len(s.data.deck(d)) if d != "tactics" or s.camp.tactics else 0
        if d == "convoys":
            total -= len(s.camp.remove_convoys)
        left, gone = len(s.decks[d]), s.discards[d]
        out.append(
            DeckOut(
                deck=d,
                remaining=left,
                in_play=total - left - len(gone),
                discards=[CardOut(number=n, name=s.data.card(d, n).name) for n in gone],
            )
        )
    return Decks(now=now(s), decks=out)


VIEWS = {
    "campaign-sheet": View(
        campaign_sheet,
        CampaignSheet,
        description="turn, SO, options, VP against the sheet's "
        "levels, every boat, the map's Areas and counters, one line per turn, deck counts",
    ),
    "uboat-log": View(
        uboat_log,
        UBoatLog,
        description="every U-boat's log, keyed by boat: card rows, stress, XP, "
        "torpedoes by kind, Ammo, patrols, kills and its history",
    ),
    "tactical-display": View(
        tactical_display,
        TacticalDisplay,
        description="the contact in hand: the Convoy card, "
        "ships and U-boats by area, Alerted, the Reference Ship, ranges and detection numbers",
    ),
    "decks": View(decks_view, Decks, description="per deck: cards left, cards in play, the discards"),
}
