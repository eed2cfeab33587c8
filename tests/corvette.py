"""Helpers for corvette-command tests: a state at a chosen moment, and dice chosen per roll or per purpose."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

import msgspec

from domain.corvette_command.commands import Options
from domain.corvette_command.editions import EDITIONS
from domain.corvette_command.evolve import evolve
from domain.corvette_command.state import Convoy, Engagement, Sheet, State, Waiting
from domain.dice import ChosenDice, Dice
from domain.procedure import Ctx
from events.core import DiceRolled
from service.rulesets import RULESETS

DATA = RULESETS["corvette-command"].data
SKILLS = {"lookout": 1, "asdic": 1, "aa": 1, "gun": 1, "depth_charge": 1, "engineer": 1}


def make_state(
    year: int = 1941,
    month: int = 5,
    options: dict | None = None,
    skills: dict | None = None,
    weather: str = "good",
    position=(1, 4),
    speed: str = "fast",
    direction: str = "east",
    equipment: Sequence[str] = (),
    engagement: dict | None = None,
    escorts: Sequence[str] = ("captain",),
    edition: str = EDITIONS.newest,
) -> State:
    opts = msgspec.convert({"year": year, "month": month, **(options or {})}, Options)
    day = datetime.date(year, month, 1).toordinal()
    s = State(data=DATA, options=opts, date=day, edition=EDITIONS.of(edition), awaiting=None)
    s.escorts, s.active, s.deciding = list(escorts), escorts[0], escorts[0]
    s.sheets = {e: Sheet(skills={**SKILLS, **(skills or {})}, equipment=list(equipment)) for e in escorts}
    if "hedgehog" in equipment:
        s.sheet.hedgehog = 15
    s.convoy = Convoy(
        number=1,
        card="HX-1",
        code="HX",
        speed=speed,
        direction=direction,
        start_port="Halifax",
        destination="Liverpool",
        size=60,
        orders="AO-1",
        channel=0,
        map="standard",
        sailed=day,
        position=list(position),
        weather=weather,
    )
    s.decks = {"uboats": [u.id for u in DATA.uboats], "convoys": [], "orders": []}  # every card known, none face down
    s.discards = {"uboats": [], "convoys": [], "orders": []}
    for z in DATA.maps["standard"].zones:
        u, r = z.pool.get("U", 0), z.pool.get("R", 0)
        s.pools[z.name] = {"U": u, "R": r, "blank": len(z.boxes) - u - r}
    if engagement is not None:
        base = {
            "uboat": "U-47",
            "type": "VII",
            "attack": 5,
            "evade": 3,
            "profile": "M/C",
            "range": 0,
            "surfaced": False,
            "night": False,
            "attacks_left": 3,
            "wolfpack": False,
            "decoys": False,
            "step": "detect",
        }
        base["designated"] = engagement.get("range", 0)  # sighted at the range it is at, unless told
        s.engagement = Engagement(**{**base, **engagement})
        s.decks["uboats"].remove(s.engagement.uboat)
    return s


def ctx(state: State, *faces) -> Ctx:
    """A context whose rolls take the chosen faces in order (every one must be used: see `done`)."""
    return Ctx(state, ChosenDice(*faces), evolve)


def done(c: Ctx) -> list:
    assert c.dice.unused == 0, f"{c.dice.unused} chosen roll(s) left unused"
    return c.events


def rolls(c: Ctx) -> list[DiceRolled]:
    return [e for e in c.events if isinstance(e, DiceRolled)]


def of(c: Ctx, cls) -> list:
    return [e for e in c.events if isinstance(e, cls)]


class PurposeDice(Dice):
    """Chosen faces for the rolls of named purposes (in order), seeded dice for every other roll."""

    def __init__(self, chosen: dict[str, list], seed: bytes = bytes(32), next_roll: int = 0):
        super().__init__(seed, next_roll)
        self.chosen = {k: list(v) for k, v in chosen.items()}

    def roll(self, sides, purpose, rule):
        queue = self.chosen.get(purpose)
        if queue:
            faces = queue.pop(0)
            faces = list(faces) if isinstance(faces, (list, tuple)) else [faces]
            k = self.next_roll
            self.next_roll += 1
            return DiceRolled(k=k, sides=list(sides), faces=faces, purpose=purpose, rule=rule)
        return super().roll(sides, purpose, rule)


def roll(c: Ctx, purpose: str, i: int = 0) -> DiceRolled:
    """The i-th roll made for `purpose` (instead of indexing rolls(c) by position)."""
    return [r for r in rolls(c) if r.purpose == purpose][i]


def purposes(c: Ctx) -> list[str]:
    return [r.purpose for r in rolls(c)]


def waiting(s: State, escort: str = "captain", wolfpack: bool = False) -> State:
    """Queue a U-boat to attack `escort`'s section."""
    s.queue.append(Waiting(escort=escort, wolfpack=wolfpack))
    return s


def queue_of(s: State) -> list[tuple[str, bool]]:
    return [(w.escort, w.wolfpack) for w in s.queue]


def only(s: State, zone: str, kind: str) -> State:
    """Leave a single counter face down in `zone`'s pool, so the box revealed there is `kind` without a roll."""
    s.pools[zone] = {"U": 0, "R": 0, "blank": 0} | {kind: 1}
    return s
