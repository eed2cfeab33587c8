"""The campaign sheet: turn, SO, options, VP against the levels, boats, the map's Areas, turn lines, deck counts."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.uboat_leader.data import DECKS
from domain.uboat_leader.legal import so_text
from domain.uboat_leader.rules.contact import contact_mods
from domain.uboat_leader.state import State, TurnLine
from domain.uboat_leader.views.common import Fate, Now, fate, now


class Level(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    vp: int
    reached: bool


class BoatLine(msgspec.Struct, forbid_unknown_fields=True):
    boat: str
    cls: str
    level: str
    stress: int
    band: Literal["okay", "shaken", "unfit"]
    bands: Annotated[list[int], msgspec.Meta(min_length=2, max_length=2)]  # highest stress of Okay, of Shaken
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


class BoxLine(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    mission: str
    events: int
    naval: int
    boats: list[str]


class AreaLine(msgspec.Struct, forbid_unknown_fields=True):
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


class Option(msgspec.Struct, forbid_unknown_fields=True):
    option: str
    cost: str  # SO, as the sheet writes it ("½" each for advanced torpedoes)
    max: int | None
    bought: int


class DeckCount(msgspec.Struct, forbid_unknown_fields=True):
    deck: str
    remaining: int
    discards: int


class CampaignSheet(msgspec.Struct, forbid_unknown_fields=True):
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
    abandoned: bool = False  # ended by end_campaign with patrols owed: no result level (UL-S10, edition 3.0.0)


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
        abandoned=s.abandoned,
        levels=[Level(name=n, vp=v, reached=(s.final_vp if s.final_vp is not None else s.vp) >= v) for n, v in levels],
        ships_sunk=s.ships_sunk,
        tons=s.tons,
        boats=[boat_line(s, b) for b in s.boats.values()],
        areas=area_lines(s),
        turns=list(s.lines),
        this_turn=s.tally.line(s.turn),
        decks=deck_counts(s),
    )


def deck_counts(s: State) -> list[DeckCount]:
    return [DeckCount(deck=d, remaining=len(s.decks[d]), discards=len(s.discards[d])) for d in DECKS]
