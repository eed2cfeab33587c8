"""Every U-boat's log, keyed by boat: card rows, stress, XP, torpedoes by kind, Ammo, patrols, kills, history."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.uboat_leader.data import LEVELS
from domain.uboat_leader.state import LogEntry, State
from domain.uboat_leader.views.common import Fate, Now, fate, now


class RowOut(msgspec.Struct, forbid_unknown_fields=True):
    initiative: Literal["A", "C"]
    gs: int
    ts: int
    ev: int


class Torpedoes(msgspec.Struct, forbid_unknown_fields=True):
    normal: int
    FAT: int
    T5: int


class BoatLog(msgspec.Struct, forbid_unknown_fields=True):
    boat: str
    cls: str
    level: str
    levels: list[str]  # the card's levels, lowest first
    abilities: list[str]
    row_in_use: Literal["okay", "shaken"]
    row: RowOut
    okay: RowOut
    shaken: RowOut
    bands: Annotated[list[int], msgspec.Meta(min_length=2, max_length=2)]
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


class UBoatLog(msgspec.Struct, forbid_unknown_fields=True):
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
