"""Answers people read (issue 36 item 4): a category (a winner, a result level) as shares, never a mean; a quantity with
its mean's 95% interval; progress with the time left on long runs, also when nobody watches a terminal."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from service.cli import app
from service.simulate import ci95, shares, summarize
from service.whatif import figures


def test_a_category_is_reported_as_shares_in_percent_and_a_quantity_as_mean_interval_and_percentiles():
    labels = {"winner": {1: "japan", 2: "russia", 0: "drawn", -1: "not over"}}
    results = [{"winner": w, "turns": t} for w, t in [(1, 10), (1, 12), (2, 9), (0, 12), (1, 11)]]
    out = summarize(results, labels)
    assert out["winner"] == {"shares": {"japan": 60.0, "russia": 20.0, "drawn": 20.0}}  # no mean of seats
    assert out["turns"]["mean"] == 10.8 and out["turns"]["ci95"] == ci95([10, 12, 9, 12, 11])
    lo, hi = out["turns"]["ci95"]
    assert lo < 10.8 < hi


def test_shares_name_values_without_a_label_and_the_odds_keep_the_real_games_category():
    assert shares([3, 3, 7], {3: "three"}) == {"three": 66.7, "7": 33.3}
    f = figures([{"winner": 1}, {"winner": 2}, {"winner": 2}, {"winner": 2}], {"winner": 1}, {"winner": {1: "japan", 2: "russia"}})
    assert f["winner"]["shares"] == {"japan": 25.0, "russia": 75.0} and f["winner"]["actual_label"] == "japan"
    assert f["winner"]["percentile"] == 12.5  # still there for a client that plots it


def test_simulate_prints_the_winner_as_shares_and_progress_lines_when_stderr_is_not_a_terminal():
    r = CliRunner().invoke(app, ["simulate", "battlefleet-1900", "--games", "4"])
    assert r.exit_code == 0, r.output
    winner = next(line for line in r.output.splitlines() if line.startswith("winner: "))
    parts = [p.rsplit(" ", 1) for p in winner.removeprefix("winner: ").split(", ")]
    assert {label for label, _ in parts} <= {"japan", "russia", "drawn", "not over"}
    assert abs(sum(float(pct.rstrip("%")) for _, pct in parts) - 100) < 0.2
    assert "battlefleet-1900: 4/4 (100%)" in r.output and "left" in r.output  # the progress line, with the time left
    assert "│ winner" not in r.output  # not in the table of quantities
    doc = json.loads(CliRunner().invoke(app, ["simulate", "battlefleet-1900", "--games", "2", "--json"]).stdout)
    assert set(doc["figures"]["winner"]) == {"shares"} and "ci95" in doc["figures"]["turns"]
