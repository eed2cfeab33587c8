"""Canonical encoding and the hash chain (spec/EVENTS.md): any mutation is caught at its seq."""

from __future__ import annotations

import copy
import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.canonical import GENESIS_HASH, canonical, canonical_reference, chain_hash, first_broken_link


def test_canonical_sorts_keys_without_whitespace_and_keeps_non_ascii():
    assert canonical({"b": 1, "a": {"d": [1, "é"], "c": None}}) == '{"a":{"c":null,"d":[1,"é"]},"b":1}'.encode()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    max_leaves=25,
)


@pytest.mark.slow  # 500 generated values: `make test`, not `make quick`
@settings(max_examples=500)
@given(JSON)
def test_canonical_is_byte_for_byte_the_specs_json_dumps(value):
    assert canonical({"data": value}) == canonical_reference({"data": value})


def test_no_event_type_can_hold_a_float():
    import msgspec.inspect as mi

    import service.rulesets  # noqa: F401 - registers every ruleset's events
    from events.vocabulary import EVENT_TYPES

    def floats(t, seen=()) -> bool:
        if isinstance(t, mi.FloatType):
            return True
        if isinstance(t, mi.StructType):
            return t.cls not in seen and any(floats(f.type, seen + (t.cls,)) for f in t.fields)
        for attr in ("item_type", "key_type", "value_type"):
            if hasattr(t, attr) and floats(getattr(t, attr), seen):
                return True
        return any(floats(x, seen) for x in getattr(t, "types", ()) or getattr(t, "item_types", ()))

    assert not [name for name, cls in EVENT_TYPES.items() if floats(mi.type_info(cls))]


def test_chain_links_each_hash_to_the_previous():
    b1, b2 = {"seq": 1, "x": 1}, {"seq": 2, "x": 2}
    h1 = hashlib.sha256(GENESIS_HASH + canonical(b1)).digest()
    assert chain_hash(GENESIS_HASH, b1) == h1
    assert chain_hash(h1, b2) == hashlib.sha256(h1 + canonical(b2)).digest()


def make_chain(n: int) -> list[tuple[dict, str]]:
    out, h = [], GENESIS_HASH
    for seq in range(1, n + 1):
        body = {"game": "g", "seq": seq, "type": "T", "v": 1, "command": "c", "data": {"n": seq, "s": "é" * (seq % 3)}}
        h = chain_hash(h, body)
        out.append((body, h.hex()))
    return out


MUTATIONS = ["edit", "drop", "swap", "duplicate", "hash"]


@settings(max_examples=300)
@given(st.integers(2, 30), st.data())
def test_any_mutation_of_any_event_is_detected_at_its_seq(n, data):
    chain = make_chain(n)
    assert first_broken_link(chain)[0] is None
    kind = data.draw(st.sampled_from(MUTATIONS))
    i = data.draw(st.integers(0, n - 1))
    bad = copy.deepcopy(chain)
    if kind == "edit":
        field = data.draw(st.sampled_from(["game", "type", "v", "command", "data"]))
        bad[i][0][field] = {"edited": True}
    elif kind == "drop":
        del bad[i]
    elif kind == "swap":
        i = min(i, n - 2)
        bad[i], bad[i + 1] = bad[i + 1], bad[i]
    elif kind == "duplicate":
        bad.insert(i + 1, bad[i])
    else:
        bad[i] = (bad[i][0], "0" * 64)
    expected = i + 2 if kind == "duplicate" else i + 1
    if kind == "drop" and i == n - 1:
        # dropping the last event leaves a valid shorter chain: the head no longer matches (verify checks it)
        assert first_broken_link(bad) == (None, chain[-2][1])
    else:
        assert first_broken_link(bad)[0] == expected


@pytest.mark.parametrize("value", [1e16, 0.5, 1e-7, 2.0])
def test_a_body_with_a_float_breaks_the_chain_at_its_seq_however_it_was_hashed(value):
    """EVENTS.md "The event": no floats, anywhere in an event. The spec's canonical bytes of a float (json.dumps:
    `1e+16`) and this encoder's (`1e16`) differ, so a forged body hashed either way must fail at its seq, and the
    verify report says why."""
    from events.bundle import decode_bundle
    from service.replay import verify_chain

    for encode in (canonical, canonical_reference):
        chain, h = [], GENESIS_HASH
        for seq in (1, 2, 3):
            data = {"n": value if seq == 2 else seq}
            body = {"game": "g", "seq": seq, "type": "T", "v": 1, "command": "c", "data": data}
            h = hashlib.sha256(h + encode(body)).digest()
            chain.append((body, h.hex()))
        assert first_broken_link(chain)[0] == 2, encode
    bundle = decode_bundle(
        {
            "format": "umpire-bundle/1", "engine": "x", "game": "g", "head": chain[-1][1], "commands": [],
            "ruleset": {"id": "r", "version": "1", "data_sha256": "0" * 64},
            "dice": {"scheme": "umpire1", "mode": "fair", "server_commit": "0" * 64, "server_seed": None, "client_seeds": []},
            "events": [{"body": b, "hash": x} for b, x in chain],
        }
    )  # fmt: skip
    report = verify_chain(bundle)
    assert report["status"] == "fail" and report["first_bad_seq"] == 2 and "fraction or an exponent" in report["detail"]
