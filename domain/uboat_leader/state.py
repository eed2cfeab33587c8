"""The flotilla campaign's state: plain data only (dataclasses of ints, strs, bools, lists, dicts and tuples; the data
set from one field). Only `evolve` (evolve.py) changes it, one event at a time, in O(1) per event; decide runs on a
working copy (domain/procedure.py). Append-only records (a boat's history, the finished turns) are `Record`s of frozen
Structs, shared by the working copy; everything else is small and copied.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

from domain.editions import Edition
from domain.procedure import Memo
from domain.uboat_leader.data import DECKS, Campaign, DataSet, Duration, LevelCard, Row, UBoat
from domain.uboat_leader.editions import EDITIONS

KINDS = ("normal", "FAT", "T5")


@dataclass(frozen=True)
class Record:
    """An append-only record shared by the working copy: full chunks of CHUNK entries and a short tail, so an append
    copies at most the tail and, once a chunk fills, the tuple of chunk references — O(1) amortized however long the
    campaign (a plain tuple copied on every append grew with the log)."""

    CHUNK = 64
    chunks: tuple[tuple, ...] = ()
    tail: tuple = ()

    def append(self, item) -> Record:
        tail = (*self.tail, item)
        if len(tail) == self.CHUNK:
            return Record((*self.chunks, tail), ())
        return Record(self.chunks, tail)

    def __iter__(self):
        for chunk in self.chunks:
            yield from chunk
        yield from self.tail

    def __len__(self) -> int:
        return len(self.chunks) * self.CHUNK + len(self.tail)


class LogEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One line of a U-boat's log."""

    turn: int
    what: str  # event | move | patrol | contact | attack | sunk | hit | stress | promoted | mission | fate | port
    text: str
    vp: int = 0
    xp: int = 0
    tons: int = 0


class TurnLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One finished turn of the campaign sheet."""

    turn: int
    so_spent_half: int
    options: list[str]
    vp: int
    ships_sunk: int
    tons: int
    boats_lost: int
    contacts: int
    battles: int


@dataclass
class Tally:
    """The turn in progress (becomes a TurnLine when the next turn begins)."""

    so_spent_half: int = 0
    options: list[str] = field(default_factory=list)
    vp: int = 0
    ships_sunk: int = 0
    tons: int = 0
    boats_lost: int = 0
    contacts: int = 0
    battles: int = 0

    def line(self, turn: int) -> TurnLine:
        """The sheet's line for this turn: what a finished turn keeps, and what the sheet shows of the one in play."""
        return TurnLine(
            turn=turn,
            so_spent_half=self.so_spent_half,
            options=list(self.options),
            vp=self.vp,
            ships_sunk=self.ships_sunk,
            tons=self.tons,
            boats_lost=self.boats_lost,
            contacts=self.contacts,
            battles=self.battles,
        )


@dataclass
class Boat:
    boat: str
    cls: str
    level: str
    where: str  # a port, an Area or a Special Mission box
    space: str  # port | open | search | box
    ready: dict[str, int]
    stored: dict[str, int]
    ammo: int
    stress: int = 0
    band: str = "okay"
    xp: int = 0
    patrols: int = 0
    mines: int = 0  # mines aboard
    mine_loads: tuple[int, ...] = ()  # the mines each Mines counter was bought with, in order (UL-R50, UL-E3-6)
    # beside each load, the (FAT, T5) torpedoes its mines replaced (UL-E5-2): what a cancelled mission gives back
    mine_advanced: tuple[tuple[int, int], ...] = ()
    missions: list[str] = field(default_factory=list)  # Special Mission counters carried
    came_from: str | None = None  # where its last step began (UL-R10)
    attacked: bool = False  # the Attacked counter (UL-R24)
    contact_mod: int = 0  # Event modifiers to its Contact rolls this turn (UL-R3)
    retired: bool = False
    sunk: bool = False
    vp: int = 0
    ships: int = 0
    tons: int = 0
    history: Record = Record()  # of LogEntry

    @property
    def in_play(self) -> bool:
        return not (self.sunk or self.retired)

    @property
    def at_sea(self) -> bool:
        return self.in_play and self.space != "port"

    @property
    def torpedoes(self) -> int:
        return sum(self.ready.values()) + sum(self.stored.values())


@dataclass
class BoxRun:
    """A Special Mission being resolved in its box (Operations)."""

    boat: str
    box: str
    area: str
    mission: str
    pre: int  # Patrol value Events first (up to 3.0.0, a boat that started the segment in the box's Area, UL-R7)
    events: int  # the box's Event cards still to draw
    total: int  # the box's Event cards
    stage: str = "events"  # events | fire | raider
    targets: list[int] = field(default_factory=list)  # Naval cards drawn (Attack)
    damage: dict[str, int] = field(default_factory=dict)  # Naval card number -> damage points
    rolls: int = 0  # Raider rolls made


@dataclass
class Ops:
    moving: str | None = None
    done: list[str] = field(default_factory=list)  # boats that moved or patrolled this segment
    box: BoxRun | None = None


@dataclass
class Activation:
    boat: str
    stage: str = "roll"  # roll | draw | choose | engage | place | wolfpack | combat | post | next
    contacts: int = 0  # Convoy cards still to draw
    drawn: list[int] = field(default_factory=list)  # Convoy cards drawn for this contact (two with Air Search)
    card: int | None = None
    withdrew: bool = False
    to_place: list[str] = field(default_factory=list)
    called: list[str] = field(default_factory=list)  # boats rolled for (or called by radio) this contact
    rolled: bool = False  # a Wolfpack roll was made: too late for a Radio Call
    first: bool = False  # this contact's card is the boat's first Convoy card drawn in the Area (UL-R14, UL-E8-1)
    attackers: list[str] = field(default_factory=list)  # other boats that attacked in this activation (UL-R24)


@dataclass
class Piece:
    """A ship counter on the Tactical Display; `number` None while Unknown."""

    label: str
    kind: str  # L | M | N | E (its position on the Convoy card)
    area: str
    escort: bool  # acts as an Escort (E, a Fleet Escort, or a misidentified Merchant)
    deck: str | None = None
    number: int | None = None
    damage: int = 0  # points: Light 1, Heavy 2 (UL-S3)
    tactic: int | None = None


@dataclass
class Sub:
    """A U-boat counter on the Tactical Display."""

    boat: str
    area: str
    side: str
    detected: bool = False
    silent: bool = False
    deep: bool = False
    bearing: int | None = None
    attacked: bool = False  # rolled an attack in this combat turn (UL-37, UL-R49: one attack a turn)


@dataclass
class Battle:
    number: int  # the Convoy card
    area: str  # the campaign Area (the Battle Situation counter)
    ships: dict[str, Piece] = field(default_factory=dict)
    subs: dict[str, Sub] = field(default_factory=dict)
    alerted: int = 0
    turn: int = 1
    step: str = "move"
    queue: list[str] = field(default_factory=list)
    ordered: bool = False  # the escorts' order is set for this turn
    declared: bool = False  # Bearing speeds declared this turn
    ref_speed: int = 0  # the Reference Ship's speed this turn
    searched: str | None = None  # the escort whose detection rolls are made (it moves next)
    acted: tuple[str, ...] = ()  # the escorts that have detected and moved in this turn's escort step (UL-E3-8)
    fired: bool = False  # a boat attacked this turn (UL-S7)
    placed: list[str] = field(default_factory=list)  # every boat that was on the display (UL-S8)
    attackers: list[str] = field(default_factory=list)  # boats that rolled an attack (UL-R24)
    cards: dict[str, list[int]] = field(default_factory=dict)  # deck -> cards drawn for this battle (UL-R25)
    sunk: list[list] = field(default_factory=list)  # [boat, vp, xp] to score in Post-Combat


@dataclass
class State(Memo):
    data: DataSet
    campaign: str
    duration: str
    edition: Edition  # the rules this game plays under (domain/editions.py)
    segment: str = "setup"  # setup | strategic | operations | tactical | refit | over
    turn: int = 0
    so_half: int = 0
    vp: int = 0
    bought: dict[str, int] = field(default_factory=dict)  # option -> purchases this campaign
    rr_turn: bool = False  # R&R bought this turn
    counters: dict[str, list[str]] = field(default_factory=dict)  # Area -> air_search, intel, supply_ship, battle
    warnings: dict[str, int] = field(default_factory=dict)  # Area -> Warning counters
    warned: list[list[str]] = field(default_factory=list)  # [boat, area]: a Warning placed for that boat there (UL-R14)
    # (boat, area): the boat has drawn a Convoy card there, withdrawn or not (UL-R14, UL-E8-1); a tuple with a plain
    # default, so a snapshot pickled before the field existed loads with it
    drew: tuple[tuple[str, str], ...] = ()
    boats: dict[str, Boat] = field(default_factory=dict)
    decks: dict[str, list[int]] = field(default_factory=dict)  # the cards left, in data-set order
    discards: dict[str, list[int]] = field(default_factory=dict)
    ops: Ops | None = None
    act: Activation | None = None
    battle: Battle | None = None
    lines: Record = Record()  # of TurnLine
    tally: Tally = field(default_factory=Tally)
    ships_sunk: int = 0
    tons: int = 0
    boats_lost: int = 0
    result: str | None = None
    result_index: int | None = None
    final_vp: int | None = None
    abandoned: bool = False  # ended by end_campaign with patrols owed: no result (UL-S10, UL-E3-4)
    over: bool = False

    # ---- what the rules read ----

    @property
    def camp(self) -> Campaign:
        return self.data.campaign(self.campaign)

    @property
    def dur(self) -> Duration:
        return self.camp.durations[self.duration]

    @property
    def rules(self):
        return self.data.rules

    def card(self, boat: str) -> UBoat:
        return self.data.uboat(boat)

    def level(self, boat: str) -> LevelCard:
        return self.card(boat).levels[self.boats[boat].level]

    def row(self, boat: str) -> Row:  # UL-3
        """The card row in use: Okay, or Shaken (Unfit boats use the Shaken row's EV, UL-3)."""
        b = self.boats[boat]
        lv = self.level(boat)
        return lv.okay if b.band == "okay" else lv.shaken

    def fit(self, boat: str) -> bool:
        b = self.boats[boat]
        return b.in_play and b.band != "unfit"

    def area(self, area_id: str):
        return self.camp.map.area_by_id.get(area_id)

    def port(self, port_id: str):
        return self.camp.map.port_by_id.get(port_id)

    def box(self, box_id: str):
        return next(((a, b) for a in self.camp.map.areas for b in a.boxes if b.id == box_id), None)

    def area_of(self, boat: str) -> str:
        """The Area a boat is in (a box's Area for a boat in a box)."""
        b = self.boats[boat]
        if b.space == "box":
            return self.box(b.where)[0].id
        return b.where


def band_of(card: UBoat, stress: int) -> str:
    """UL-3: Okay up to the card's first band, Shaken up to the second, Unfit above."""
    okay, shaken = card.bands
    return "okay" if stress <= okay else "shaken" if stress <= shaken else "unfit"


def initial_state(created, options, data: DataSet) -> State:
    """UL-7: the decks hold their cards in data-set order (nothing is shuffled: a draw picks by one roll, decks.py);
    the sheet's Convoy cards are removed, the Fleet Escorts set aside as their own pool, Tactics only when used."""
    s = State(
        data=data, campaign=options.campaign, duration=options.duration, edition=EDITIONS.of(created.ruleset.version)
    )
    camp = s.camp
    s.so_half = s.dur.so * 2
    for deck in DECKS:
        cards = [] if deck == "tactics" and not camp.tactics else [c.number for c in data.deck(deck)]
        if deck == "convoys":
            cards = [n for n in cards if n not in camp.remove_convoys]
        s.decks[deck] = cards
        s.discards[deck] = []
    return s
