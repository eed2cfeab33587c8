"""The `umpire1` dice scheme (spec/DICE.md), the only source of randomness in a game.

Integers only: a face is drawn from 32-bit lanes of HMAC-SHA256 blocks by rejection sampling,
so every roll can be recomputed alone from (game_seed, k, sides).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import struct
from collections.abc import Sequence
from typing import Any, TypeVar

from events.canonical import canonical
from events.core import DiceRolled

SCHEME = "umpire1"
EMPTY_CLIENT_SEED = hashlib.sha256(b"").hexdigest()
_TWO_32 = 1 << 32
_LANES = struct.Struct(">8I")  # a block read as eight 32-bit big-endian lanes
_IPAD, _OPAD = bytes(x ^ 0x36 for x in range(256)), bytes(x ^ 0x5C for x in range(256))  # RFC 2104's, as tables


def server_commit(server_seed: bytes) -> str:
    return hashlib.sha256(server_seed).hexdigest()


def client_seed_from_passphrase(passphrase: str) -> str:
    return hashlib.sha256(passphrase.encode("utf-8")).hexdigest()


def game_seed(server_seed: bytes, game_id: str, client_seeds: Sequence[str], beacon: str | None = None) -> bytes:
    msg = "umpire1:seed:" + game_id + "".join(":" + cs for cs in client_seeds)
    if beacon is not None:
        msg += ":" + beacon
    return hmac.digest(server_seed, msg.encode("ascii"), "sha256")


def block(seed: bytes, k: int, j: int) -> bytes:
    """HMAC-SHA256(seed, "umpire1:roll:k:j") (RFC 2104), hashed on from copies of the seed's padded-key hashes: hmac
    set the key up again for every die, which cost a raid a third of its die (tests/test_dice.py checks it against
    hmac.digest)."""
    inner, outer = _padded(seed)
    h = inner.copy()
    h.update(f"umpire1:roll:{k}:{j}".encode("ascii"))
    o = outer.copy()
    o.update(h.digest())
    return o.digest()


@functools.lru_cache(maxsize=1024)
def _padded(key: bytes) -> tuple[hashlib._Hash, hashlib._Hash]:
    """RFC 2104's start: SHA-256 of the key (hashed first if longer than a block) padded and XORed with ipad, and with
    opad. Nobody updates these: rolls hash on from copies."""
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = key.ljust(64, b"\0")
    return hashlib.sha256(key.translate(_IPAD)), hashlib.sha256(key.translate(_OPAD))


def faces_for(seed: bytes, k: int, sides: Sequence[int]) -> list[int]:
    """The faces of roll k: each die takes the next 32-bit lane, rejecting lanes above the fair limit."""
    faces: list[int] = []
    j = 0
    lanes: tuple[int, ...] = ()
    pos = 0
    for s in sides:
        if not 1 <= s <= _TWO_32:
            raise ValueError(f"a die has 1..2^32 sides, not {s}")
        limit = _TWO_32 - (_TWO_32 % s)
        while True:
            if pos == len(lanes):
                lanes = _LANES.unpack(block(seed, k, j))
                j += 1
                pos = 0
            x = lanes[pos]
            pos += 1
            if x < limit:
                faces.append(x % s + 1)
                break
    return faces


def sealing_salt(server_seed: bytes, game_id: str, seq: int) -> str:
    """The salt of the sealed record at `seq` (spec/EVENTS.md): deterministic, and nothing of the seed shows."""
    return hmac.digest(server_seed, f"umpire1:salt:{game_id}:{seq}".encode("ascii"), "sha256").hex()


def commitment(content: dict[str, Any], salt: str) -> str:
    """SHA-256 of canonical({"content": content, "salt": salt}), lowercase hex."""
    return hashlib.sha256(canonical({"content": content, "salt": salt})).hexdigest()


def shuffle_sides(n: int) -> list[int]:
    """The dice of a shuffle of n items: [n, n-1, ..., 2]."""
    return list(range(n, 1, -1))


T = TypeVar("T")


def apply_shuffle(items: Sequence[T], faces: Sequence[int]) -> list[T]:
    """Fisher-Yates from the top; faces[0] is the n-sided die, faces[-1] the 2-sided one."""
    a = list(items)
    n = len(a)
    if len(faces) != max(n - 1, 0):
        raise ValueError(f"a shuffle of {n} items takes {max(n - 1, 0)} dice, got {len(faces)}")
    for idx, i in enumerate(range(n - 1, 0, -1)):
        j = faces[idx] - 1
        a[i], a[j] = a[j], a[i]
    return a


class Dice:
    """Hands out rolls k = next_roll, next_roll+1, ... from a game seed."""

    def __init__(self, seed: bytes, next_roll: int):
        self._seed = seed
        self.next_roll = next_roll

    def keyed(self, label: str) -> bytes:
        """HMAC-SHA256(game_seed, label): a reproducible value that is not a roll (e.g. Battlefleet's fog offsets).
        Secret until the server seed is revealed, so it may only feed sealed records."""
        return hmac.digest(self._seed, label.encode("utf-8"), "sha256")

    def roll(self, sides: Sequence[int], purpose: str, rule: str) -> DiceRolled:
        k = self.next_roll
        self.next_roll += 1
        return DiceRolled(k=k, sides=list(sides), faces=faces_for(self._seed, k, sides), purpose=purpose, rule=rule)


class ChosenDice(Dice):
    """Dice whose faces the caller chooses, roll by roll, so a test makes a rule's branch certain."""

    def __init__(self, *faces: Sequence[int] | int, next_roll: int = 0):
        super().__init__(b"", next_roll)
        self._queue: list[list[int]] = [[f] if isinstance(f, int) else list(f) for f in faces]

    def roll(self, sides: Sequence[int], purpose: str, rule: str) -> DiceRolled:
        if not self._queue:
            raise AssertionError(f"no chosen faces left for roll {purpose!r} ({rule})")
        faces = self._queue.pop(0)
        if len(faces) != len(sides) or any(not 1 <= f <= s for f, s in zip(faces, sides)):
            raise AssertionError(f"chosen faces {faces} do not fit dice {list(sides)} for {purpose!r}")
        k = self.next_roll
        self.next_roll += 1
        return DiceRolled(k=k, sides=list(sides), faces=faces, purpose=purpose, rule=rule)

    @property
    def unused(self) -> int:
        return len(self._queue)
