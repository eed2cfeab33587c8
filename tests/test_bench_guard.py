"""`make bench`'s guard (benchmarks/run.py): a ratio worse than the committed table's by more than a third is a
failure line, in the direction its target says."""

from __future__ import annotations

from benchmarks.run import committed_table, guard, ratio_value


def rows(*items):
    return [{"figure": f, "value": "-", "reference": "-", "ratio": r, "target": t} for f, r, t in items]


def test_ratios_are_read_as_the_table_prints_them():
    assert ratio_value("17%") == 0.17 and ratio_value("1.1x") == 1.1 and ratio_value("13x faster") == 13
    assert ratio_value("-") is None and ratio_value("") is None


def test_a_drop_of_more_than_a_third_fails_and_a_smaller_one_does_not():
    old = rows(("P1 raid", "48%", ">= 50% of raw"), ("P5 at 1,000", "1.00x", "<= 1.2x"), ("P6 convoys", "-", "report"))
    assert guard(old, rows(("P1 raid", "33%", ">= 50% of raw"))) == []  # 31% worse: within the guard
    [line] = guard(old, rows(("P1 raid", "14%", ">= 50% of raw")))
    assert line.startswith("FAIL P1 raid: ratio 14% against 48%")
    assert guard(old, rows(("P5 at 1,000", "1.40x", "<= 1.2x"))) == []  # lower is better: 29% worse
    assert guard(old, rows(("P5 at 1,000", "1.60x", "<= 1.2x")))[0].startswith("FAIL P5")
    assert guard(old, rows(("P1 raid", "90%", ">= 50% of raw"), ("P9 new figure", "1%", ">= 50%"))) == []


def test_the_committed_table_is_read():
    table = committed_table("docs/performance.md")
    assert any(r["figure"].startswith("P1 aa1942 raid") for r in table)
    assert all(r["ratio"] for r in table)


def test_only_the_table_above_the_notes_is_read(tmp_path):
    """A table in the hand-written notes, with six columns and a figure's name (runs side by side), is not a row of
    the figures: written back, it would be kept as one."""
    from benchmarks.run import NOTES

    doc = tmp_path / "perf.md"  # outside the repository: read from disk
    doc.write_text(
        "# Performance\n\n| figure | value | reference | ratio | target | met? |\n|---|---|---|---|---|---|\n"
        "| P2 HTTP commands/s | 1 | 2 | 50% | >= 50% of bare | yes |\n\n" + NOTES + "\n\n"
        "| figure | run 1 | run 2 | run 3 | best | target |\n|---|---|---|---|---|---|\n"
        "| P2, % of the bare endpoint | 26% | 25% | 21% | 26% | 50% |\n",
        encoding="utf-8",
    )
    assert [r["figure"] for r in committed_table(str(doc))] == ["P2 HTTP commands/s"]
