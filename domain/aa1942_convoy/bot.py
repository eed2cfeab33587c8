"""A documented policy that picks a legal command, for simulation (what-if from any position), property tests
and demos. It plays every seat, and as referee it ends a game that has no last round.

Every choice is deterministic from the state: a SHA-256 of the position picks among the options, so the same
position always gets the same command, while other positions (other dice, other choices before) take other
branches. Over a few games it takes every branch of the ledger:

- purchase: spend nothing, everything, half, or an amount between;
- combat move: mostly send a free submarine to an enemy convoy zone it can raid, sometimes another legal move;
- combat: raid where it can (now and then it commits submarines to general combat instead); then liberate a
  territory of its side (sometimes a capital first), capture an enemy territory (now and then a capital), record a lost
  submarine (an enemy's in a zone it shares, or its own that did not raid), or end the phase; from 5.0.0, once
  submarines fought, now and then it retreats one of them to an adjacent zone;
- noncombat move: now and then a legal move;
- mobilize: place one submarine per 6 IPCs spent (at most 3), in a zone of its fleet or one of its convoy zones;
- without option `rounds`, the referee ends the game when round HORIZON is over.

It terminates: every command but `end_phase` uses something up for the rest of the phase (a free submarine, a
submarine, a submarine that fought and may retreat, an enemy-held territory), so each phase ends, and the game ends
with its last round or HORIZON.
"""

from __future__ import annotations

import hashlib
from typing import Any

from domain.aa1942_convoy.rules import purchase, raid, submarines, territory
from domain.aa1942_convoy.state import CAPITALS, CONVOY_ZONES, SIDE, TURN_ORDER, State
from domain.engine import REFEREE, CommandSpec

HORIZON = 8  # rounds a game without option `rounds` lasts under the bot


def _key(state: State) -> bytes:
    """The position, as far as the bot's choices go (dicts keep their insertion order: no hash order here)."""
    return repr(
        (
            state.round,
            state.turn,
            state.phase,
            state.combat_step,
            tuple(state.treasury.values()),
            tuple((p, tuple(zones.items())) for p, zones in state.subs.items()),
            # a retreat's count (5.0.0) only where there is one, so that the older editions' positions hash as before
            tuple(
                (sz, u.moved, u.raided, u.fought, *((u.retreated,) if u.retreated else ()))
                for sz, u in state.used.items()
            ),
            tuple(state.chips.items()),
            tuple(state.inactive),
            sum(1 for holder in state.control.values() if holder == state.power),
        )
    ).encode()


def roll(state: State, salt: str, n: int) -> int:
    """A number in 0..n-1 fixed by the position and the question asked."""
    digest = hashlib.sha256(_key(state) + b"|" + salt.encode()).digest()
    return int.from_bytes(digest[:8], "big") % n


def pick(state: State, salt: str, options: list) -> Any:
    return options[roll(state, salt, len(options))]


def choose(state: State, awaiting: list[CommandSpec], seat: str) -> dict[str, Any] | None:
    legal = {s.type: s for s in awaiting}
    if not legal:
        return None
    if "end_game" in legal and state.rounds is None and state.round > HORIZON:
        return {"type": "end_game", "reason": f"the bot's horizon: round {HORIZON} is over"}
    mine = {t: s for t, s in legal.items() if REFEREE not in s.seats}
    if "purchase" in mine:
        return {"type": "purchase", "spend": spend(state)}
    if "move_submarines" in mine:
        move = combat_move(state) if state.phase == "combat-move" else noncombat_move(state)
        if move is not None:
            return {"type": "move_submarines", **move}
    if state.phase == "combat":
        return combat(state, mine)
    if state.phase == "mobilize" and "place_submarines" in mine:
        placed = place(state)
        if placed is not None:
            return {"type": "place_submarines", **placed}
    if "end_phase" in mine:
        return {"type": "end_phase"}
    return None


def spend(state: State) -> int:
    top = purchase.max_spend(state)
    return pick(state, "spend", [0, top, top // 2, roll(state, "amount", top + 1)])


def combat_move(state: State) -> dict | None:
    """Mostly a free submarine to an enemy convoy zone it may raid (one per zone), sometimes any legal move."""
    moves = list(submarines.legal_moves(state))
    to_raid = [
        m
        for m in moves
        if m["count"] == 1
        and (owner := CONVOY_ZONES.get(m["to_sz"])) is not None
        and SIDE[owner] != SIDE[state.power]
        and m["to_sz"] not in state.inactive
        and state.cap_left(m["to_sz"]) > 0
        and m["to_sz"] not in state.used
    ]
    if to_raid and roll(state, "raid-move", 6):
        return pick(state, "which-raid-move", to_raid)
    if moves and not roll(state, "other-move", 4):
        return pick(state, "which-move", moves)
    return None


def noncombat_move(state: State) -> dict | None:
    moves = list(submarines.legal_moves(state))
    return pick(state, "which-move", moves) if moves and not roll(state, "move", 3) else None


def combat(state: State, legal: dict[str, CommandSpec]) -> dict[str, Any] | None:
    if "raid" in legal:
        if "fight" in legal and not roll(state, "fight-instead", 10):
            return {"type": "fight", **pick(state, "which-fight", _ones(submarines.legal_fights(state)))}
        return {"type": "raid", **pick(state, "which-raid", list(raid.legal_raids(state)))}
    if "retreat_submarines" in legal and not roll(state, "retreat", 3):  # 5.0.0 (AA-R18): only once some fought
        return {"type": "retreat_submarines", **pick(state, "which-retreat", _ones(submarines.legal_retreats(state)))}
    what = pick(
        state, "combat", [*["liberate"] * 3, "capture", "capture", "capital", "lose", "fight", "end", "end", "end"]
    )
    if what == "liberate" and "liberate" in legal:
        choices = territory.legal_liberations(state)
        capitals = [c for c in choices if c["territory"] in CAPITALS.values()]
        if capitals and not roll(state, "free-capital", 3):
            return {"type": "liberate", **capitals[0]}
        return {"type": "liberate", **pick(state, "which-liberation", choices)}
    if what in ("capture", "capital") and "capture" in legal:
        choices = territory.legal_captures(state)
        capitals = [c for c in choices if c["territory"] in CAPITALS.values()]
        if what == "capital" and capitals and not roll(state, "capital", 4):
            return {"type": "capture", **pick(state, "which-capital", capitals)}
        return {"type": "capture", **pick(state, "which-capture", choices)}
    if what == "lose" and "lose_submarines" in legal:
        shared = [
            {"power": p, "sz": sz, "count": 1}
            for p in TURN_ORDER
            if SIDE[p] != SIDE[state.power]
            for sz in state.subs.get(p, {})
            if state.subs_in(state.power, sz)
        ]
        # its own that may be lost: not one that raided this turn, from 4.0.0 (AA-E4-1)
        own = [{"power": state.power, "sz": sz, "count": 1} for sz in submarines.losable(state, state.power)]
        anyone = _ones(submarines.legal_losses(state))
        return {"type": "lose_submarines", **pick(state, "which-loss", shared or own or anyone)}
    if what == "fight" and "fight" in legal:
        return {"type": "fight", **pick(state, "which-fight", _ones(submarines.legal_fights(state)))}
    return {"type": "end_phase"} if "end_phase" in legal else None


def _ones(choices) -> list[dict]:
    return [c for c in choices if c["count"] == 1]


def place(state: State) -> dict | None:
    count = min(submarines.bought(state), 3)  # within AA-R17's bound (4.0.0): it places once a turn
    if state.placed.get(state.power) or count == 0:
        return None
    zones = sorted(state.subs.get(state.power, {})) + sorted(
        sz for sz, owner in CONVOY_ZONES.items() if owner == state.power
    )
    return {"sz": pick(state, "where", zones), "count": count}


def outcomes(state: State) -> dict[str, int]:
    """What a game of the ledger comes to, for `umpire simulate` and the odds from a position: each power's
    treasury, the raid damage each side suffered, and the rounds played."""
    out = {f"treasury {p}": state.treasury[p] for p in TURN_ORDER}
    for side in ("Axis", "Allies"):
        out[f"raid damage to {side}"] = sum(state.raid_damage_suffered.get(p, 0) for p in TURN_ORDER if SIDE[p] == side)
    out["rounds"] = state.round
    return out
