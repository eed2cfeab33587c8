"""Make the bundles in replays/ by playing real games through the service (`make replays`).

Public-seed mode with fixed seeds and command ids, so the files come out byte-identical every time
(tests/test_replays.py regenerates them and compares). Each aa1942 game starts from the standard 1942.2
setup plus the submarines it names and runs a few rounds with purchases, raids (a cut by the 4-chip cap
among them), a capture that deactivates a convoy zone and a liberation that reactivates it.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.engine import awaiting, waiting_for  # noqa: E402
from events.store import SQLiteStore  # noqa: E402
from service.bots import bot_choose  # noqa: E402
from service.games import GameService  # noqa: E402
from service.rulesets import BUILTIN, RULESETS  # noqa: E402

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Golden:
    """One golden game: its bundles are `<name>.<edition>.json`, one per edition its ruleset has released since."""

    name: str
    ruleset: str
    must_show: frozenset[str]  # event types every bundle of it contains: what the game is kept to prove
    options: dict[str, Any] = field(default_factory=dict)
    seed_byte: int = 0  # the public server seed is this byte 32 times
    script: Callable[[GameService, Golden], dict] | None = None  # a game of chosen commands; None: the bot plays
    arguments: dict[str, dict[str, Any]] = field(default_factory=dict)  # command type -> arguments the bot must send
    game_id: str | None = None  # the game's id in its bundle, where it is not `name`

    @property
    def id(self) -> str:
        return self.game_id or self.name

    @property
    def seed(self) -> str:
        return f"{self.seed_byte:02x}" * 32


class Game:
    """A scripted aa1942 game: its seats and its commands are chosen, its options and seed are its Golden's."""

    def __init__(self, svc: GameService, golden: Golden, seats=None, client_seeds=None):
        self.svc = svc
        name = golden.id
        created = svc.creation.create(
            golden.ruleset, golden.options, seats, "public-seed", golden.seed, client_seeds, None, game_id=name
        )
        self.id = name
        self.tokens = {s["seat"]: s["token"] for s in created["seats"]}
        self.referee = created["referee_token"]
        self.n = 0

    def seat(self, power: str) -> str:
        return power if power in self.tokens else ("Axis" if power in ("Germany", "Japan") else "Allies")

    def send(self, who: str, /, **payload) -> dict:
        self.n += 1
        token = self.referee if who == "referee" else self.tokens[self.seat(who)]
        return self.svc.command(self.id, token, {**payload, "command_id": f"{self.id}-{self.n:03d}"})

    def seed(self, seat: str, passphrase: str) -> None:
        self.svc.contribute_seed(self.id, self.tokens[seat], None, passphrase, command_id=f"{self.id}-seed-{seat}")

    def turn(self, power: str, spend: int, move=(), combat=(), noncombat=(), place=()) -> None:
        """One power's turn: purchase (up to `spend`), combat move, combat, noncombat move, mobilize, income."""
        ledger = self.svc.reads.view(self.id, "ipc-ledger", None)["data"]["powers"]
        line = next(p for p in ledger if p["power"] == power)
        self.send(power, type="purchase", spend=min(spend, line["treasury"]) if line["holds_capital"] else 0)
        for m in move:
            self.send(power, type="move_submarines", **m)
        self.send(power, type="end_phase")
        for c in combat:
            self.send(power, **c)
        self.send(power, type="end_phase")
        for m in noncombat:
            self.send(power, type="move_submarines", **m)
        self.send(power, type="end_phase")
        for p in place:
            self.send(power, type="place_submarines", **p)
        self.send(power, type="end_phase")

    def finish(self) -> dict:
        self.svc.reveal(self.id, self.referee, command_id=f"{self.id}-reveal")
        return self.svc.bundles.bundle(self.id)


def mv(a: int, b: int, n: int = 1) -> dict:
    return {"from_sz": a, "to_sz": b, "count": n}


def raid(sz: int) -> dict:
    return {"type": "raid", "sz": sz}


def north_atlantic(svc: GameService, golden: Golden) -> dict:
    """Germany's U-boats against the UK's Atlantic zones; Archangel falls (SZ 4 off) and is liberated; the USA
    and then the USSR raid Germany's SZ 5 across the round's end, under one 4-chip cap (AA-R5)."""
    g = Game(svc, golden)
    g.seed("UK", "Scapa Flow")
    g.seed("Germany", "Wilhelmshaven")
    # round 1
    g.turn("USSR", 12)
    g.turn(
        "Germany",
        20,
        move=[mv(9, 8), mv(5, 3)],
        combat=[raid(7), raid(7), raid(8), raid(3), {"type": "capture", "territory": "Archangel"}],
        place=[{"sz": 5, "count": 1}],
    )
    g.turn("UK", 25, combat=[{"type": "lose_submarines", "power": "Germany", "sz": 7, "count": 1}])
    g.turn("Japan", 15)
    g.turn("USA", 30, combat=[raid(5)])
    # round 2: the chips on the UK's zones came off in its purchase; the USSR raids SZ 5, whose chips wait for
    # Germany's purchase, and retakes Archangel
    g.turn("USSR", 10, combat=[raid(5), {"type": "liberate", "territory": "Archangel"}])
    g.turn("Germany", 20, move=[mv(5, 6)], combat=[raid(7), raid(8), raid(3)])
    g.turn("UK", 20)
    g.turn("Japan", 10)
    g.turn("USA", 30)
    # round 3
    g.turn("USSR", 10)
    g.turn("Germany", 15, move=[mv(6, 7)], combat=[raid(7), raid(7), raid(8)])
    g.turn("UK", 20)
    g.turn("Japan", 10)
    g.turn("USA", 30)
    return g.finish()


def pacific(svc: GameService, golden: Golden) -> dict:
    """Japan's submarines against US and UK Pacific zones; the USA takes the Philippines (SZ 48 off) and passes
    the Panama Canal (AA-R15)."""
    g = Game(svc, golden)
    g.seed("Japan", "Kure")
    g.seed("USA", "Pearl")
    g.turn("USSR", 10)
    g.turn("Germany", 20)
    g.turn("UK", 20)
    g.turn(
        "Japan",
        20,
        combat=[raid(53), raid(56), raid(45), raid(35), {"type": "capture", "territory": "Eastern Australia"}],
    )  # SZ 45 goes off after its raid
    g.turn("USA", 30, move=[mv(19, 18)], combat=[{"type": "capture", "territory": "Philippine Islands"}])
    g.turn("USSR", 10)
    g.turn("Germany", 20)
    g.turn("UK", 20, combat=[{"type": "liberate", "territory": "Eastern Australia"}])
    g.turn(
        "Japan",
        20,
        move=[mv(53, 54)],
        combat=[raid(56), raid(35), {"type": "liberate", "territory": "Philippine Islands"}],
    )
    g.turn("USA", 30)
    return g.finish()


TWO_SIDES_RAIDED = [3, 7, 8, 10, 23, 34, 35, 45]  # the UK's zones Germany raids in two-sides


def two_sides(svc: GameService, golden: Golden) -> dict:
    """Axis and Allies seats; Moscow falls and its treasury goes; the UK frees Karelia, which returns to the USSR
    when Moscow is liberated (AA-R14) and SZ 4 turns face up again."""
    g = Game(svc, golden, seats=["Axis", "Allies"], client_seeds={"Allies": "ab" * 32})
    g.seed("Axis", "Berlin")
    g.turn("USSR", 24)
    g.turn(
        "Germany",
        41,
        combat=[raid(sz) for sz in TWO_SIDES_RAIDED]
        + [raid(4), {"type": "capture", "territory": "Russia"}, {"type": "capture", "territory": "Karelia S.S.R."}],
    )
    g.turn("UK", 0, combat=[{"type": "liberate", "territory": "Karelia S.S.R."}])
    g.turn("Japan", 10)
    g.turn("USA", 40)
    g.turn("USSR", 0, combat=[{"type": "liberate", "territory": "Russia"}])
    g.turn("Germany", 20, combat=[raid(sz) for sz in TWO_SIDES_RAIDED[:4]])
    g.turn("UK", 10)
    g.turn("Japan", 10)
    g.turn("USA", 40)
    return g.finish()


def retreat(svc: GameService, golden: Golden) -> dict:
    """From edition 5.0.0 (AA-R18): Germany's two U-boats from SZ 9 go to the UK's SZ 7; one raids, the other fights
    and retreats to SZ 9 (the raider stays, AA-7). The UK sinks the raider on its turn; the next round the one that
    retreated must move back to raid SZ 7 again."""
    g = Game(svc, golden)
    g.seed("Germany", "Kiel")
    g.turn("USSR", 12)
    g.turn(
        "Germany",
        12,
        move=[mv(9, 7, 2)],
        combat=[
            raid(7),
            {"type": "fight", "sz": 7, "count": 1},
            {"type": "retreat_submarines", "from_sz": 7, "to_sz": 9, "count": 1},
        ],
    )
    g.turn("UK", 20, combat=[{"type": "lose_submarines", "power": "Germany", "sz": 7, "count": 1}])
    g.turn("Japan", 10)
    g.turn("USA", 30)
    g.turn("USSR", 12)
    g.turn("Germany", 12, move=[mv(9, 7)], combat=[raid(7)])
    g.turn("UK", 20)
    g.turn("Japan", 10)
    g.turn("USA", 30)
    return g.finish()


def bot_game(svc: GameService, golden: Golden) -> dict:
    """A game its ruleset's bot plays through the service, each seat choosing from what its own token may read (a
    sealed step: the first seat that still owes; else the first seat offered anything), to its end; then the
    referee reveals the seed. `golden.arguments` replace the bot's own arguments of a command type (a chosen start)."""
    name = golden.id
    made = svc.creation.create(golden.ruleset, golden.options, None, "public-seed", golden.seed, None, None, game_id=name)
    tokens, n = {s["seat"]: s["token"] for s in made["seats"]}, 0
    while legal := awaiting(game := svc.cache.cached(name).game):
        seat = (waiting_for(game) or [s for spec in legal for s in spec.seats])[0]
        payload = bot_choose(game.ruleset, game.state, awaiting(game, seat), seat)
        payload |= golden.arguments.get(payload["type"], {})
        n += 1
        svc.command(name, tokens[seat], {**payload, "command_id": f"{name}-{n:04d}"})
    svc.reveal(name, made["referee_token"], command_id=f"{name}-reveal")
    return svc.bundles.bundle(name)


def render(bundle: dict) -> str:
    return json.dumps(bundle, ensure_ascii=False, indent=1) + "\n"


AA1942_TRAFFIC = frozenset(  # raids, a capture that deactivates a zone, a liberation, purchases
    {"ConvoyRaided", "PurchaseMade", "TerritoryCaptured", "ConvoyZoneDeactivated", "TerritoryLiberated",
     "ConvoyZoneReactivated"}
)
A_WHOLE_CONVOY = frozenset(  # from sailing to port
    {"ConvoyAssigned", "ConvoyMoved", "UBoatSighted", "DetectionResolved", "ConvoyArrived", "ConvoyScored"}
)
A_WHOLE_BATTLE = frozenset(  # sealed steps, hits, losses, every seal open
    {"SubmissionSealed", "SubmissionsRevealed", "SalvoMeasured", "TorpedoesResolved", "DamageApplied", "ShipSinking",
     "VesselLost", "BattleEnded", "TableRevealed"}
)
A_WHOLE_CAMPAIGN = frozenset(  # missions, wolfpacks, combat, refit, the end
    {"UBoatsSelected", "MissionBegan", "WolfpackCalled", "ShipRevealed", "DetectionRolled", "ShipSunk", "UBoatSunk",
     "DeckRefilled", "MapReset", "CampaignEnded"}
)

# Every golden game: what it is made of and what it must show. `make replays` plays each under its ruleset's newest
# edition; tests/test_replays.py checks every bundle of each name (every edition) for its events. A scripted game
# (aa1942's, which send chosen commands) names its script; the others are played by their ruleset's bot.
GOLDEN = (
    Golden(
        "aa1942-north-atlantic", "aa1942-convoy", AA1942_TRAFFIC,
        {
            "rounds": 3,
            "submarines": {"Germany": {"5": 1, "7": 2, "9": 1}, "UK": {"7": 1}, "USA": {"5": 1}, "USSR": {"5": 1}},
        },
        0x11, script=north_atlantic, game_id="north-atlantic",
    ),
    Golden(
        "aa1942-pacific", "aa1942-convoy", AA1942_TRAFFIC,
        {"rounds": 2, "submarines": {"Japan": {"53": 1, "56": 1, "45": 1, "35": 1}, "USA": {"48": 1, "19": 1}}},
        0x22, script=pacific, game_id="pacific",
    ),
    Golden(
        "aa1942-two-sides", "aa1942-convoy", AA1942_TRAFFIC,
        {"rounds": 2, "submarines": {"Germany": {str(sz): 1 for sz in TWO_SIDES_RAIDED} | {"4": 1}}},
        0x33, script=two_sides, game_id="two-sides",
    ),
    Golden(  # from aa1942-convoy 5.0.0 (AA-R18): a submarine that fought retreats, a raider stays
        "aa1942-retreat", "aa1942-convoy",
        frozenset({"ConvoyRaided", "SubmarinesFought", "SubmarinesRetreated", "SubmarinesLost", "SubmarinesMoved"}),
        {"rounds": 2}, 0x55, script=retreat, game_id="retreat",
    ),
    # the first convoy sails from the side each names: both directions and quick play are covered
    Golden(  # with RADAR, HF/DF, Hedgehog
        "corvette-eastbound", "corvette-command", A_WHOLE_CONVOY, {"convoys": 1, "year": 1942, "month": 11}, 0x44,
        arguments={"choose_start_port": {"side": "canada"}},
    ),
    Golden(
        "corvette-westbound", "corvette-command", A_WHOLE_CONVOY,
        {"convoys": 1, "year": 1941, "month": 10, "time_of_contact": True}, 0x6D,
        arguments={"choose_start_port": {"side": "liverpool"}},
    ),
    Golden(
        "corvette-quick-play", "corvette-command", A_WHOLE_CONVOY,
        {"quick_play": {"direction": "west"}, "year": 1943, "month": 4, "revised_map": True}, 0x66,
        arguments={"choose_start_port": {"side": "liverpool"}},
    ),
    Golden(  # from corvette-command 10.0.0 (CC-E10-1): a wolfpack at both sections, escort-a's two boats and escort-b's one
        "corvette-two-player", "corvette-command", A_WHOLE_CONVOY | {"WolfpackRolled"},
        {"convoys": 1, "two_player": True, "year": 1942, "month": 3}, 0x71,
    ),
    # seeds whose battles lose ships, hit with torpedoes and pass command. 4.0.0's bots fight other battles (every
    # base an obstacle, one ammunition per target, the abandon roll, fresh fog offsets): these are the first seeds
    # after the 3.0.0 ones (0x08, 0x06) whose battles launch a torpedo
    Golden(  # fog blur (the default)
        "battlefleet-yellow-sea-1904", "battlefleet-1900", A_WHOLE_BATTLE, {"scenario": "yellow-sea-1904", "turns": 8},
        0x18,
    ),
    Golden(
        "battlefleet-torpedo-attack", "battlefleet-1900", A_WHOLE_BATTLE,
        {"scenario": "torpedo-attack", "fog": "open", "turns": 8}, 0x29,
    ),
    Golden("uboat-short", "uboat-leader", A_WHOLE_CAMPAIGN, {"duration": "short"}, 0x88),  # missions, wolfpacks, a loss
)
# a ruleset served with no row yet gets one bot game on its default options, named after it (`make replays` then
# writes its first bundle); a row of its own chooses its options and says what its bundles must show
BY_NAME = {g.name: g for g in GOLDEN} | {
    rid: Golden(rid, rid, frozenset()) for rid in sorted(BUILTIN) if rid not in {g.ruleset for g in GOLDEN}
}


def newest(name: str, out_dir: Path = HERE) -> Path:
    """The bundle `name` of its ruleset's newest edition: `<name>.<edition>.json`. Bundles of older editions stay
    beside it for good (archived: never regenerated), and the tests replay each under its own edition."""
    return out_dir / f"{name}.{RULESETS[BY_NAME[name].ruleset].ruleset.version}.json"


def play(svc: GameService, name: str) -> dict:
    """Play the golden game `name` through `svc`; its bundle."""
    golden = BY_NAME[name]
    return golden.script(svc, golden) if golden.script is not None else bot_game(svc, golden)


class Archived(Exception):
    """Writing would change a bundle that is already there: archived bundles are never regenerated."""


def generate(out_dir: Path = HERE) -> list[Path]:
    """Play every game under its ruleset's newest edition and write its bundle. A bundle that is already there with
    other bytes is refused (Archived), never overwritten: a rules change that alters it belongs to a new edition
    (domain/<ruleset>/editions.py), whose bundles get new names. Delete a new edition's file yourself while that
    edition is still being made."""
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        svc = GameService(SQLiteStore(str(Path(tmp) / "replays.db")))
        made = {name: render(play(svc, name)) for name in BY_NAME}
    changed = [n for n, text in made.items() if newest(n, out_dir).exists() and newest(n, out_dir).read_text(encoding="utf-8") != text]
    if changed:
        raise Archived(
            f"{', '.join(newest(n, out_dir).name for n in changed)} would change: an archived bundle is never "
            "regenerated. A rules change that alters what recorded commands decide goes into a new edition "
            "(domain/<ruleset>/editions.py); its bundles are written beside the old ones."
        )
    for name, text in made.items():
        path = newest(name, out_dir)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    try:
        for p in generate():
            print(f"wrote {p.relative_to(HERE.parent)}")
    except Archived as e:
        sys.exit(f"make replays: {e}")
