"""The data set of `uboat-leader`: the sheets, cards and tables the rule text names but does not print.

The Structs below are its schema (UBOAT_LEADER.md §2); `parse_data` decodes a set (ours or a user's) and
cross-checks it, collecting every problem before it refuses. Every entry says whether it is a stand-in
(`stand_in`) and which of its fields the text gives (`from_text`). `rules` holds every number of the
completion rules UL-S1…S10, so a user who owns the full rules replaces them by data alone.
"""

from __future__ import annotations

from typing import Annotated, Literal

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


class CampaignMap(msgspec.Struct, forbid_unknown_fields=True):
    ports: list[Port]
    areas: list[MapArea]


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


class Campaign(Entry, kw_only=True):
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


class DataSet(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, dict=True):
    """`dict=True` lets the geometry (display.py) cache its distance tables on the set, off the schema."""

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

    def card(self, deck: str, number: int):
        return next(c for c in self.deck(deck) if c.number == number)

    def uboat(self, boat: str) -> UBoat:
        return next(u for u in self.uboats if u.boat == boat)

    def campaign(self, cid: str) -> Campaign:
        return next(c for c in self.campaigns if c.id == cid)


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


def parse_data(raw: bytes) -> DataSet:
    """Decode and cross-check; every problem found is reported at once."""
    data = msgspec.json.decode(raw, type=DataSet)
    problems: list[str] = []
    problems += _check_rules(data.rules)
    problems += _check_display(data.display)
    problems += _check_cards(data)
    for camp in data.campaigns:
        problems += _check_campaign(camp, data)
    if len({c.id for c in data.campaigns}) != len(data.campaigns) or not data.campaigns:
        problems.append("campaigns: ids must be unique and at least one given")
    if problems:
        raise ValueError("; ".join(problems))
    return data


def _check_rules(r: Rules) -> list[str]:
    out = []
    for name, n in (("torpedo_range", None), ("gun_range", None), ("detection_range", 2), ("escort_attack_range", 2)):
        v = getattr(r, name)
        if not v or (n is not None and len(v) != n):
            out.append(f"rules.{name}: {'exactly ' + str(n) if n else 'at least one'} value(s)")
    if r.sink_points < 1:
        out.append("rules.sink_points must be at least 1")
    return out


def _check_display(d: Display) -> list[str]:
    out = []
    ids = [a.id for a in d.areas]
    if len(set(ids)) != len(ids):
        out.append("display: area ids must be unique")
    adj = {a.id: a.adj for a in d.areas}
    for a in d.areas:
        for b in a.adj:
            if b not in adj or a.id not in adj[b]:
                out.append(f"display: adjacency {a.id}–{b} is not symmetric")
    kinds = {a.kind for a in d.areas}
    if {"long", "convoy"} - kinds or d.wake not in adj or next(a.kind for a in d.areas if a.id == d.wake) != "wake":
        out.append("display: needs long and convoy areas and a wake area named by `wake`")
    if set(d.unknown_speed) != {"L", "M", "N", "E"}:
        out.append("display.unknown_speed: give L, M, N and E")
    return out


def _check_cards(data: DataSet) -> list[str]:
    out = []
    for deck in DECKS[:-1]:
        cards = data.deck(deck)
        numbers = [c.number for c in cards]
        if len(set(numbers)) != len(numbers) or not numbers:
            out.append(f"{DECK_FIELDS[deck]}: card numbers must be unique and at least one card given")
    boats = [u.boat for u in data.uboats]
    if len(set(boats)) != len(boats) or not boats:
        out.append("uboats: boat ids must be unique and at least one given")
    for u in data.uboats:
        where = f"uboats {u.boat}"
        if not u.gun and not u.cls.startswith(("II", "XXI")) or u.gun and u.cls.startswith(("II", "XXI")):
            out.append(f"{where}: `gun: false` exactly for Types II and XXI (they carry no deck gun)")
        if len(u.speed) != 2 or len(u.bands) != 2 or u.bands[0] > u.bands[1] or len(u.service) != 2:
            out.append(f"{where}: speed [surfaced, submerged], bands [okay max, shaken max], service [first, last]")
        if not u.levels:
            out.append(f"{where}: at least one level")
    for deck in ("merchants", "escorts", "fleet", "naval"):
        for s in data.deck(deck):
            where = f"{DECK_FIELDS[deck]} {s.number}"
            if len(s.torpedo) != 3 or len(s.gun) != 3:
                out.append(f"{where}: torpedo and gun are [light, heavy, sunk]")
            if deck in ("escorts", "fleet") and (len(s.detect) != 2 or len(s.attack) != 2):
                out.append(f"{where}: an escort has detect and attack [surfaced, submerged]")
            if deck == "naval" and len(s.attack) != 2:
                out.append(f"{where}: a naval card has attack [surfaced, submerged]")
            if deck == "merchants" and len(s.attack) != 1:
                out.append(f"{where}: a merchant card has one surface attack number")
    for e in data.events:
        if not e.sections:
            out.append(f"events {e.number}: at least one section")
    if any(len(t) != 2 for t in data.tactics):
        out.append("tactics: each counter is [detection, attack]")
    areas = {a.id for a in data.display.areas}
    for c in data.convoys:
        labels = [p[0] for p in c.positions if len(p) == 2]
        if len(labels) != len(c.positions) or len(set(labels)) != len(labels):
            out.append(f"convoys {c.number}: positions are distinct [label, area] pairs")
            continue
        for label, area in c.positions:
            if label[:1] not in ("L", "M", "N", "E") or area not in areas:
                out.append(f"convoys {c.number}: {label} at {area} (labels start L/M/N/E, areas are display areas)")
        if c.conditions:
            out.append(f"convoys {c.number}: special conditions {c.conditions} are not implemented (none are yet)")
        if c.type == "N" and sum(lb.startswith("E") for lb in labels) > len(data.fleet_escorts):
            out.append(f"convoys {c.number}: more E positions than Fleet Escorts ({len(data.fleet_escorts)})")
    return out


def _check_campaign(c: Campaign, data: DataSet) -> list[str]:
    out, where = [], f"campaign {c.id}"
    nodes = {p.id: p.adj for p in c.map.ports} | {a.id: a.adj for a in c.map.areas}
    boxes = [b.id for a in c.map.areas for b in a.boxes]
    if len(nodes) != len(c.map.ports) + len(c.map.areas) or len(set(boxes)) != len(boxes) or set(boxes) & set(nodes):
        out.append(f"{where}: port, area and box ids must be unique")
    if not c.map.ports:
        out.append(f"{where}: at least one port")
    for n, adj in nodes.items():
        for m in adj:
            if m not in nodes or n not in nodes[m]:
                out.append(f"{where}: adjacency {n}–{m} is not symmetric")
    for a in c.map.areas:
        if a.contacts_at != sorted(a.contacts_at):
            out.append(f"{where}: {a.id} contacts_at must ascend")
        if a.patrol is None and not a.no_stop:
            out.append(f"{where}: {a.id} needs a Patrol value (only a no-stop area has none)")
        for b in a.boxes:
            if b.mission == "mine" and not b.vp_by_mines:
                out.append(f"{where}: mine box {b.id} needs vp_by_mines")
    for note in c.so_notes:
        if (note.cost is None) != (note.option == "advanced_torpedoes"):
            out.append(f"{where}: so_notes {note.option}: cost is null exactly for advanced torpedoes (½ each)")
        for a in note.areas or []:
            if a not in nodes:
                out.append(f"{where}: so_notes {note.option}: no area {a}")
    if len({n.option for n in c.so_notes}) != len(c.so_notes):
        out.append(f"{where}: one so_notes entry per option")
    numbers = {cv.number for cv in data.convoys}
    if any(n not in numbers for n in c.remove_convoys) or len(numbers - set(c.remove_convoys)) == 0:
        out.append(f"{where}: remove_convoys names cards of the set and leaves at least one")
    for name, d in c.durations.items():
        if [v for _, v in d.levels] != sorted(v for _, v in d.levels) or not d.levels:
            out.append(f"{where}: duration {name} levels ascend by VP")
    return out
