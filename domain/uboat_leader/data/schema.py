"""The schema of the `uboat-leader` data set (the rules note's §2 shape): the sheets, cards and tables the rule text
names but does not print. Every entry says whether it is a stand-in (`stand_in`) and which of its fields the text
gives (`from_text`); `rules` holds every number of the completion rules UL-S1…S10, so a user who owns the full rules
replaces them by data alone."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, Any, Literal

import msgspec

Small = Annotated[int, msgspec.Meta(ge=0, le=99)]
Mod = Annotated[int, msgspec.Meta(ge=-9, le=9)]
D10 = Annotated[int, msgspec.Meta(ge=1, le=10)]
Num = D10 | None  # a card's base number; null = N/A ("no se puede alcanzar con un solo ataque")
Month = Annotated[str, msgspec.Meta(pattern=r"^19[34][0-9]-(0[1-9]|1[0-2])$")]
Kind = Literal["L", "M", "N", "E"]
LEVELS = ("green", "trained", "veteran", "ace")
Level = Literal["green", "trained", "veteran", "ace"]


class Entry(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    stand_in: bool = True
    from_text: list[str] = []


class Rules(Entry, kw_only=True):
    """Every number the rules use that is not printed on a card or sheet. [T] numbers are here too (the text's
    values) so an erratum is data; `from_text` names them, the rest are the completion rules' stand-ins."""

    ammo: Small  # Munición 6 [T]
    gun_shots: Small  # UL-S2
    torpedo_range: list[Mod]  # UL-S3 modifier at range 0, 1, 2 (its length is the torpedo range + 1)
    gun_range: list[Mod]  # UL-S3 modifier at range 0, 1
    heavy_target: Mod  # +1 to later attacks on a Heavy-damaged ship [T]
    fat_vs_merchant: Mod  # UL-S3
    t5_vs_escort: Mod  # UL-S3
    light_points: Small  # UL-S3
    heavy_points: Small  # UL-S3
    sink_points: Small  # UL-S3
    light_damage: Mod  # −1 speed / detection / attacks [T]
    heavy_damage: Mod  # −2 [T]
    detection_range: list[Small]  # surfaced, submerged [T]
    reveal_range: Small  # [T]
    escort_attack_range: list[Small]  # UL-S4 surfaced, submerged
    ship_attack_range: Small  # UL-S4
    deep_attack: Mod  # UL-S4/S6
    hit_sunk_on: D10  # UL-S5
    hit_light_stress: Small  # UL-S5
    hit_heavy_stress: Small  # UL-S5
    silent_stress: Small  # [T]
    combat_turns: Small  # UL-S7
    alerted_per_turn: Small  # UL-S7
    post_combat_stress: Small  # UL-S8
    intel_contact: Mod  # [T]
    seeker_contact: Mod  # [T]
    warning_contact: Mod  # [T]
    attacked_contact: Mod  # [T]
    attacked_join: Mod  # [T]
    wolfpack_stress: Small  # [T] stress to the active boat on a natural Stress result
    cool_refit: Small  # [T]
    supply_refit: Small  # [T]
    rr_stress: Small  # [T]
    raider_rolls: Small  # [T]
    raider_vp_at: D10  # [T]
    raider_range: Small  # [T] "trata los ataques como estando en el alcance 0"
    sunk_boat_vp: Small  # UL-S10


class Row(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """One row of a U-boat card: Initiative (A agresivo, C cauteloso), GS, TS, EV."""

    initiative: Literal["A", "C"]
    gs: Mod
    ts: Mod
    ev: Mod


class LevelCard(msgspec.Struct, forbid_unknown_fields=True):
    so: Small
    xp: Small | None  # XP to promote; null on the last level
    okay: Row
    shaken: Row


class UBoat(Entry, kw_only=True):
    boat: str
    cls: str = msgspec.field(name="class")
    service: list[Month]  # [first, last]
    ready: Small
    stored: Small
    gun: bool
    speed: list[Small]  # surfaced, submerged (the counter's two sides)
    abilities: list[Literal["infiltrator", "cool", "seeker"]] = []
    bands: list[Small]  # highest stress of Okay, of Shaken; Unfit above
    levels: dict[Level, LevelCard]


class Roll(msgspec.Struct, forbid_unknown_fields=True):
    """d10 + EV (the row in use; Unfit: Shaken) at most `at_most` → `stress`."""

    at_most: Annotated[int, msgspec.Meta(ge=-10, le=30)]
    stress: Small
    plus: Literal["ev"] = "ev"


class EventSection(msgspec.Struct, forbid_unknown_fields=True):
    years: list[Annotated[int, msgspec.Meta(ge=1939, le=1945)]]  # [first, last]
    stress: Small = 0
    contact: Mod = 0  # to this boat's Contact rolls to the end of the turn (UL-R3)
    roll: Roll | None = None
    text: str = ""


class EventCard(Entry, kw_only=True):
    number: Small
    name: str
    sections: list[EventSection]


class ConvoyCard(Entry, kw_only=True):
    number: Small
    type: Literal["L", "M", "N"]
    alerted: Small = 0
    conditions: list[str] = []  # special conditions in force (ids the engine implements: none yet)
    positions: list[list[str]]  # [label, display area]; the label's letter is its kind (L, M, N, E)

    @property
    def name(self) -> str:
        return f"Convoy card {self.number} ({self.type})"


class Ship(Entry, kw_only=True):
    number: Small
    name: str
    speed: Small
    vp: Small
    xp: Small
    tons: Annotated[int, msgspec.Meta(ge=0, le=100_000)]
    torpedo: list[Num]  # [light, heavy, sunk]
    gun: list[Num]
    attack: list[Num]  # merchants: [surfaced]; escorts and naval: [surfaced, submerged]
    detect: list[D10] = []  # escorts: [surfaced, submerged]
    is_escort: bool = False  # a Merchant card showing a misidentified Escort


class DisplayArea(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    kind: Literal["long", "medium", "short", "convoy", "wake"]
    adj: list[str]


class Display(Entry, kw_only=True):
    areas: list[DisplayArea]
    wake: str
    unknown_speed: dict[Kind, Small]


class Box(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    mission: Literal["mine", "attack", "raider"]
    events: Small
    naval: Small = 0  # attack boxes: Naval cards drawn
    vp_by_mines: list[list[Small]] = []  # mine boxes: [mines at least, VP], ascending


class MapArea(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str
    move: Small
    patrol: Small | None
    contacts_at: list[Annotated[int, msgspec.Meta(ge=-9, le=20)]]  # ≥ a → 1 contact, ≥ b → 2 …
    adj: list[str]
    no_stop: bool = False
    barred: list[str] = []  # classes that may not enter
    boxes: list[Box] = []


class Port(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str
    refit: Small
    adj: list[str]


class CampaignMap(msgspec.Struct, forbid_unknown_fields=True, dict=True):
    ports: list[Port]
    areas: list[MapArea]

    @functools.cached_property
    def area_by_id(self) -> dict[str, MapArea]:  # the first of each id; made once, as DataSet's look-ups
        return _first_by(self.areas, lambda a: a.id)

    @functools.cached_property
    def port_by_id(self) -> dict[str, Port]:
        return _first_by(self.ports, lambda p: p.id)


class Duration(msgspec.Struct, forbid_unknown_fields=True):
    patrols: Annotated[int, msgspec.Meta(ge=1, le=9999)]
    so: Small
    levels: list[tuple[str, Small]]  # [name, VP total], ascending


class SoNote(msgspec.Struct, forbid_unknown_fields=True):
    option: Literal[
        "air_search", "intel", "supply_ship", "rr", "radio_call", "advanced_torpedoes", "mine", "attack", "raider"
    ]
    cost: Small | None  # SO; null for advanced torpedoes (½ each, the text)
    max: Small | None  # per campaign; null = U (unlimited)
    areas: list[str] | None = None  # where its counter may go (null: any Area)


class Wolfpack(msgspec.Struct, forbid_unknown_fields=True):
    join_at: D10
    stress_on: list[D10]


class Campaign(Entry, kw_only=True, dict=True):
    id: str
    name: str
    dates: list[Month]  # [first, last]
    event_year: Annotated[int, msgspec.Meta(ge=1939, le=1945)]
    tactics: bool
    classes: list[str] | None = None  # classes allowed (null: all)
    remove_convoys: list[Small] = []
    wolfpack: Wolfpack
    durations: dict[Literal["short", "medium", "long"], Duration]
    so_notes: list[SoNote]
    map: CampaignMap

    @functools.cached_property
    def note_by_option(self) -> dict[str, SoNote]:  # the first of each option, made once
        return _first_by(self.so_notes, lambda n: n.option)


class DataSet(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, dict=True):
    """`dict=True` lets the geometry (distances.py) cache its distance tables on the set, off the schema."""

    about: str
    rules: Rules
    display: Display
    uboats: list[UBoat]
    events: list[EventCard]
    convoys: list[ConvoyCard]
    merchants: list[Ship]
    escorts: list[Ship]
    fleet_escorts: list[Ship]
    naval: list[Ship]
    tactics: list[list[Mod]]  # Escort Tactics counters: [detection, attack]
    campaigns: list[Campaign]

    def deck(self, name: str) -> list:
        if name == "tactics":
            return [Tactic(number=i + 1, detect=t[0], attack=t[1]) for i, t in enumerate(self.tactics)]
        return getattr(self, DECK_FIELDS[name])

    # The look-ups by key, made once per set (`dict=True`: cached_property keeps them beside the fields): the rules
    # ask thousands of times a campaign. The first item of each key counts.

    @functools.cached_property
    def _cards(self) -> dict[str, dict[int, Any]]:
        return {name: _first_by(self.deck(name), lambda c: c.number) for name in DECKS}

    @functools.cached_property
    def _uboats(self) -> dict[str, UBoat]:
        return _first_by(self.uboats, lambda u: u.boat)

    @functools.cached_property
    def _campaigns(self) -> dict[str, Campaign]:
        return _first_by(self.campaigns, lambda c: c.id)

    def card(self, deck: str, number: int):
        return self._cards[deck][number]

    def uboat(self, boat: str) -> UBoat:
        return self._uboats[boat]

    def campaign(self, cid: str) -> Campaign:
        return self._campaigns[cid]


def _first_by(items: Any, key: Callable[[Any], Any]) -> dict:
    got: dict = {}
    for x in items:
        got.setdefault(key(x), x)
    return got


class Tactic(msgspec.Struct, frozen=True):
    number: int
    detect: int
    attack: int

    @property
    def name(self) -> str:
        return f"Tactics +{self.detect}/+{self.attack}"


DECK_FIELDS = {
    "events": "events",
    "convoys": "convoys",
    "merchants": "merchants",
    "escorts": "escorts",
    "fleet": "fleet_escorts",
    "naval": "naval",
}
DECKS = ("events", "convoys", "merchants", "escorts", "fleet", "naval", "tactics")
