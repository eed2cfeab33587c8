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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from events.store import Store  # noqa: E402
from service.games import GameService  # noqa: E402

HERE = Path(__file__).resolve().parent


class Game:
    def __init__(self, svc: GameService, name: str, seed_byte: int, options: dict, seats=None, client_seeds=None):
        self.svc = svc
        created = svc.create(
            "aa1942-convoy", options, seats, "public-seed", f"{seed_byte:02x}" * 32, client_seeds, None, game_id=name
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
        ledger = self.svc.view(self.id, "ipc-ledger", None)["data"]["powers"]
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
        return self.svc.bundle(self.id)


def mv(a: int, b: int, n: int = 1) -> dict:
    return {"from_sz": a, "to_sz": b, "count": n}


def raid(sz: int) -> dict:
    return {"type": "raid", "sz": sz}


def north_atlantic(svc: GameService) -> dict:
    """Germany's U-boats against the UK's Atlantic zones; Archangel falls (SZ 4 off) and is liberated; the USA
    and then the USSR raid Germany's SZ 5 across the round's end, under one 4-chip cap (AA-R5)."""
    g = Game(
        svc,
        "north-atlantic",
        0x11,
        {
            "rounds": 3,
            "submarines": {"Germany": {"5": 1, "7": 2, "9": 1}, "UK": {"7": 1}, "USA": {"5": 1}, "USSR": {"5": 1}},
        },
    )
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


def pacific(svc: GameService) -> dict:
    """Japan's submarines against US and UK Pacific zones; the USA takes the Philippines (SZ 48 off) and passes
    the Panama Canal (AA-R15)."""
    g = Game(
        svc,
        "pacific",
        0x22,
        {"rounds": 2, "submarines": {"Japan": {"53": 1, "56": 1, "45": 1, "35": 1}, "USA": {"48": 1, "19": 1}}},
    )
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


def two_sides(svc: GameService) -> dict:
    """Axis and Allies seats; Moscow falls and its treasury goes; the UK frees Karelia, which returns to the USSR
    when Moscow is liberated (AA-R14) and SZ 4 turns face up again."""
    uk = [3, 7, 8, 10, 23, 34, 35, 45]
    g = Game(
        svc,
        "two-sides",
        0x33,
        {"rounds": 2, "submarines": {"Germany": {str(sz): 1 for sz in uk} | {"4": 1}}},
        seats=["Axis", "Allies"],
        client_seeds={"Allies": "ab" * 32},
    )
    g.seed("Axis", "Berlin")
    g.turn("USSR", 24)
    g.turn(
        "Germany",
        41,
        combat=[raid(sz) for sz in uk]
        + [raid(4), {"type": "capture", "territory": "Russia"}, {"type": "capture", "territory": "Karelia S.S.R."}],
    )
    g.turn("UK", 0, combat=[{"type": "liberate", "territory": "Karelia S.S.R."}])
    g.turn("Japan", 10)
    g.turn("USA", 40)
    g.turn("USSR", 0, combat=[{"type": "liberate", "territory": "Russia"}])
    g.turn("Germany", 20, combat=[raid(sz) for sz in uk[:4]])
    g.turn("UK", 10)
    g.turn("Japan", 10)
    g.turn("USA", 40)
    return g.finish()


def corvette(svc: GameService, name: str, seed_byte: int, options: dict, side: str) -> dict:
    """A corvette-command game played by the bot (domain/corvette_command/bot.py) through the service,
    the first convoy sailing from `side`."""
    from domain.corvette_command import bot
    from domain.engine import awaiting

    made = svc.create(
        "corvette-command", options, None, "public-seed", f"{seed_byte:02x}" * 32, None, None, game_id=name
    )
    token, n = made["seats"][0]["token"], 0
    while True:
        game = svc._cached(name).game
        legal = awaiting(game)
        if not legal:
            break
        n += 1
        payload = bot.choose(game.rules, legal)
        if payload["type"] == "choose_start_port":
            payload["side"] = side
        svc.command(name, token, {**payload, "command_id": f"{name}-{n:04d}"})
    svc.reveal(name, made["referee_token"], command_id=f"{name}-reveal")
    return svc.bundle(name)


CORVETTE = {  # name: (options, seed byte, first side)
    "corvette-eastbound": ({"convoys": 1, "year": 1942, "month": 11}, 0x44, "canada"),  # with RADAR, HF/DF, Hedgehog
    "corvette-westbound": ({"convoys": 1, "year": 1941, "month": 10, "time_of_contact": True}, 0x6D, "liverpool"),
    "corvette-quick-play": (
        {"quick_play": {"direction": "west"}, "year": 1943, "month": 4, "revised_map": True},
        0x66,
        "liverpool",
    ),
}


def battlefleet(svc: GameService, name: str, seed_byte: int, options: dict) -> dict:
    """A battlefleet-1900 battle between two bots (domain/battlefleet_1900/bot.py), each seat choosing from what its
    own token may read, through the service; the referee reveals the seed at the end."""
    from domain.battlefleet_1900 import bot, redact
    from domain.engine import awaiting, waiting_for

    made = svc.create("battlefleet-1900", options, None, "public-seed", f"{seed_byte:02x}" * 32, None, None, game_id=name)
    tokens, n = {s["seat"]: s["token"] for s in made["seats"]}, 0
    while awaiting(game := svc._cached(name).game):
        seat = waiting_for(game)[0]
        n += 1
        payload = bot.choose(redact(game.rules, seat), awaiting(game, seat), seat)
        svc.command(name, tokens[seat], {**payload, "command_id": f"{name}-{n:04d}"})
    svc.reveal(name, made["referee_token"], command_id=f"{name}-reveal")
    return svc.bundle(name)


def uboat(svc: GameService, name: str, seed_byte: int, options: dict) -> dict:
    """A uboat-leader campaign played by its bot (domain/uboat_leader/bot.py) through the service, to its end."""
    from domain.engine import awaiting
    from domain.uboat_leader import bot

    made = svc.create("uboat-leader", options, None, "public-seed", f"{seed_byte:02x}" * 32, None, None, game_id=name)
    token, n = made["seats"][0]["token"], 0
    while legal := awaiting(svc._cached(name).game):
        n += 1
        payload = bot.choose(svc._cached(name).game.rules, legal)
        svc.command(name, token, {**payload, "command_id": f"{name}-{n:04d}"})
    svc.reveal(name, made["referee_token"], command_id=f"{name}-reveal")
    return svc.bundle(name)


UBOAT = {"uboat-short": ({"duration": "short"}, 0x88)}  # name: (options, seed byte): missions, a wolfpack, a loss


BATTLEFLEET = {  # name: (options, seed byte): seeds whose battles lose ships, hit with torpedoes and pass command
    "battlefleet-yellow-sea-1904": ({"scenario": "yellow-sea-1904", "turns": 8}, 0x08),  # fog blur (the default)
    "battlefleet-torpedo-attack": ({"scenario": "torpedo-attack", "fog": "open", "turns": 8}, 0x06),
}
GAMES = {"north-atlantic": north_atlantic, "pacific": pacific, "two-sides": two_sides}


def render(bundle: dict) -> str:
    return json.dumps(bundle, ensure_ascii=False, indent=1) + "\n"


def generate(out_dir: Path = HERE) -> list[Path]:
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        svc = GameService(Store(str(Path(tmp) / "replays.db")))
        for name, play in GAMES.items():
            path = out_dir / f"aa1942-{name}.json"
            path.write_text(render(play(svc)), encoding="utf-8")
            written.append(path)
        for name, (options, seed_byte, side) in CORVETTE.items():
            path = out_dir / f"{name}.json"
            path.write_text(render(corvette(svc, name, seed_byte, options, side)), encoding="utf-8")
            written.append(path)
        for name, (options, seed_byte) in UBOAT.items():
            path = out_dir / f"{name}.json"
            path.write_text(render(uboat(svc, name, seed_byte, options)), encoding="utf-8")
            written.append(path)
        for name, (options, seed_byte) in BATTLEFLEET.items():
            path = out_dir / f"{name}.json"
            path.write_text(render(battlefleet(svc, name, seed_byte, options)), encoding="utf-8")
            written.append(path)
    return written


if __name__ == "__main__":
    for p in generate():
        print(f"wrote {p.relative_to(HERE.parent)}")
