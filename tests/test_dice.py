"""The umpire1 scheme (spec/DICE.md) against the spec's vectors, and its properties."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from domain.dice import (
    EMPTY_CLIENT_SEED,
    SCHEME,
    ChosenDice,
    Dice,
    apply_shuffle,
    block,
    client_seed_from_passphrase,
    faces_for,
    game_seed,
    server_commit,
    shuffle_sides,
)

V = json.loads((Path(__file__).parent / "dice_vectors.json").read_text())
SERVER_SEED = bytes.fromhex(V["server_seed"])
GAME_SEED = game_seed(SERVER_SEED, V["game_id"], V["client_seeds"])


def test_commit_is_sha256_of_the_server_seed():
    assert server_commit(SERVER_SEED) == V["server_commit"]


def test_game_seed_and_first_block():
    assert GAME_SEED.hex() == V["game_seed"]
    assert block(GAME_SEED, 0, 0).hex() == V["block_0_0"]


def test_every_roll_vector():
    for roll in V["rolls"]:
        assert faces_for(GAME_SEED, roll["k"], roll["sides"]) == roll["faces"], f"k={roll['k']}"


def test_rejection_sampling_discards_lanes_above_the_limit():
    # k=7 uses 3*2^30-sided dice: a quarter of the lanes are rejected, so more than one block is read
    roll = next(r for r in V["rolls"] if r["k"] == 7)
    assert faces_for(GAME_SEED, 7, roll["sides"]) == roll["faces"]


def test_shuffle_of_ten_at_k10():
    faces = faces_for(GAME_SEED, 10, shuffle_sides(10))
    assert apply_shuffle(list(range(10)), faces) == V["shuffle_k10_range10"]


def test_game_seed_with_the_vectors_beacon():
    with_beacon = game_seed(SERVER_SEED, V["game_id"], V["client_seeds"], V["beacon"])
    assert with_beacon.hex() == V["game_seed_with_beacon"]
    # the beacon is appended to the seed message as ":" + beacon (spec/DICE.md, Derivation 1)
    msg = "umpire1:seed:" + V["game_id"] + "".join(":" + c for c in V["client_seeds"]) + ":" + V["beacon"]
    assert with_beacon == hmac.digest(SERVER_SEED, msg.encode("ascii"), "sha256")


def test_digest_of_20000_rolls():
    """The vector's own encoding: the compact JSON array of the faces of rolls k = 0..19999, sides [6, 6, 20, 3]."""
    entry = V["digest_k0_19999_sides_6_6_20_3"]
    faces = [faces_for(GAME_SEED, k, [6, 6, 20, 3]) for k in range(20000)]
    encoded = json.dumps(faces, separators=(",", ":")).encode("ascii")
    assert encoded.startswith(b"[[") and b" " not in encoded
    assert hashlib.sha256(encoded).hexdigest() == entry["sha256"]


def test_every_entry_of_the_vector_file_is_checked():
    """A new entry in the spec's file must get a test here: this list names the entries the tests above check."""
    checked = {
        "scheme",
        "server_seed",
        "server_commit",
        "game_id",
        "client_seeds",
        "game_seed",
        "beacon",
        "game_seed_with_beacon",
        "block_0_0",
        "rolls",
        "shuffle_k10_range10",
        "digest_k0_19999_sides_6_6_20_3",
    }
    assert set(V) == checked
    assert V["scheme"] == SCHEME


def test_empty_client_seed_and_passphrase_derivation():
    assert EMPTY_CLIENT_SEED == hashlib.sha256(b"").hexdigest()
    assert EMPTY_CLIENT_SEED.startswith("e3b0c442") and EMPTY_CLIENT_SEED.endswith("b855")
    assert client_seed_from_passphrase("convoy") == hashlib.sha256(b"convoy").hexdigest()


@given(
    st.binary(min_size=32, max_size=32), st.lists(st.integers(1, 2**32), min_size=1, max_size=12), st.integers(0, 10**9)
)
def test_faces_are_in_range_and_reproducible(seed, sides, k):
    faces = faces_for(seed, k, sides)
    assert len(faces) == len(sides)
    assert all(1 <= f <= s for f, s in zip(faces, sides))
    assert faces_for(seed, k, sides) == faces


@given(
    st.binary(min_size=32, max_size=32),
    st.integers(0, 1000),
    st.lists(st.sampled_from([2, 3, 6, 10, 20]), min_size=1, max_size=30),
)
def test_dice_hand_out_gapless_k(seed, start, sides_seq):
    dice = Dice(seed, start)
    rolls = [dice.roll([s], "p", "r") for s in sides_seq]
    assert [r.k for r in rolls] == list(range(start, start + len(sides_seq)))
    assert all(r.faces == faces_for(seed, r.k, [s]) for r, s in zip(rolls, sides_seq))


@given(st.binary(min_size=32, max_size=32), st.integers(2, 60), st.integers(0, 10**6))
def test_a_shuffle_is_a_permutation(seed, n, k):
    out = apply_shuffle(list(range(n)), faces_for(seed, k, shuffle_sides(n)))
    assert sorted(out) == list(range(n))


def test_chosen_dice_refuse_faces_that_do_not_fit():
    import pytest

    with pytest.raises(AssertionError):
        ChosenDice(7).roll([6], "p", "r")


@given(st.binary(min_size=0, max_size=200), st.integers(0, 2**40), st.integers(0, 99))
def test_a_block_is_hmac_sha256_of_its_message_for_keys_of_any_length(key, k, j):
    """DICE.md: block(seed, k, j) = HMAC-SHA256(seed, "umpire1:roll:k:j"), the key schedule kept between rolls
    (domain/dice.py `_padded`) included: keys shorter than, as long as and longer than SHA-256's 64-byte block."""
    assert block(key, k, j) == hmac.digest(key, f"umpire1:roll:{k}:{j}".encode("ascii"), "sha256")
    assert block(key, k, j) == block(key, k, j)  # the kept hashes are copied, never updated


def test_the_hand_check_in_docs_dice_md_gives_a_recorded_face():
    """docs/dice.md "Checking a roll without this software", run as a referee pastes it (bash, xxd, openssl), with a
    golden bundle's values in its placeholders: the commit and a recorded d6 come out (a new-user trial found `K` used
    and never set, so the block checked roll '' and gave a wrong face)."""
    import re
    import shutil
    import subprocess

    import pytest

    if not all(shutil.which(t) for t in ("bash", "xxd", "openssl", "sha256sum")):
        pytest.fail("the hand check needs bash, xxd, openssl and sha256sum on this machine")
    root = Path(__file__).resolve().parent.parent
    text = (root / "docs" / "dice.md").read_text()
    block = re.search(r"## Checking a roll without this software\n.*?```sh\n(.*?)```", text, re.S).group(1)
    bundle = json.loads((root / "replays" / "aa1942-pacific.3.0.0.json").read_text())
    dice = bundle["dice"]
    bodies = [e["body"] for e in bundle["events"]]
    rolls = [b["data"] for b in bodies if b["type"] == "DiceRolled" and b["data"]["sides"][0] == 6]
    roll = rolls[len(rolls) // 2]
    values = {
        "<server_seed hex>": dice["server_seed"],
        "<game id>": bundle["game"],
        "<cs_0>:<cs_1>:...": ":".join(dice["client_seeds"]),
        "<the roll's k>": str(roll["k"]),
    }
    for placeholder, value in values.items():
        assert placeholder in block, placeholder
        block = block.replace(placeholder, value)
    out = subprocess.run(["bash", "-c", block], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == dice["server_commit"]
    assert int(out[-1]) == roll["faces"][0]
