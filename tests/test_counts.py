"""Instruction counts (issue 35, benchmarks/counts.py): the guard's rule, what a committed table is trusted for, and
that callgrind's count of one path repeats exactly (it is what lets the guard be tight)."""

from __future__ import annotations

import os

import pytest

from benchmarks import counts
from benchmarks.instructions import available, per_command


def test_a_rise_of_more_than_5_percent_fails_and_less_does_not():
    before = {"I1 raid": 1_000_000.0, "I7 floor": 32_000.0}
    assert counts.compare({"I1 raid": 1_049_000.0, "I7 floor": 20_000.0}, before) == []
    [line] = counts.compare({"I1 raid": 1_051_000.0, "I7 floor": 32_000.0}, before)
    assert line.startswith("FAIL I1 raid: 1,051,000 instructions, +5.1% against 1,000,000")
    assert counts.compare({"I9 new": 5.0}, before) == []  # a path the reference lacks is reported, not guarded


def test_the_committed_counts_are_a_reference_only_on_the_machine_and_versions_they_were_counted_on(tmp_path, monkeypatch):
    saved = tmp_path / "counts.json"
    monkeypatch.setattr(counts, "COMMITTED", saved)
    here = counts.machine()
    assert set(here) == {"cpu", "python", "sqlite", "packages"} and here["packages"]["fastapi"]
    import json

    saved.write_text(json.dumps({"machine": here, "counts": {"I1 raid": 5.0}}))
    assert counts.reference(None, 1, print) == ({"I1 raid": 5.0}, "benchmarks/counts.json (this machine and versions)")
    other = {**here, "python": "2.7.18"}
    saved.write_text(json.dumps({"machine": other, "counts": {"I1 raid": 5.0}}))
    found, why = counts.reference(None, 1, print)
    assert found is None and "another machine" in why


def test_the_table_gives_each_command_path_its_ratio_to_the_floor_of_its_kind():
    now = {name: float(i + 1) * 1000 for i, (name, *_rest) in enumerate(counts.PATHS)}
    rows = {r["figure"]: r for r in counts.table(now, None)}
    endpoint = now["I5 floor: bare FastAPI endpoint, same answer size"]
    raid = "I1 aa1942 raid, HTTP via the ASGI app"
    assert rows[raid]["ratio"] == f"{now[raid] / endpoint:.1f}x the floor"
    assert rows["I7 floor: one HMAC die"]["ratio"] == "-"


def test_callgrind_counts_a_path_exactly_alike_twice():
    if not available():
        if os.environ.get("CI") == "true":
            raise AssertionError("CI counts instructions: .ci/run installs valgrind")
        pytest.skip("no valgrind (apt-get install valgrind)")
    a = per_command("benchmarks.counts:hmac_die", ["50"], 50)
    b = per_command("benchmarks.counts:hmac_die", ["50"], 50)
    assert a == b and 5_000 < a < 500_000
