"""What-if on a uboat-leader game: the odds from a position of the golden bundle, its real outcome placed in them."""

from __future__ import annotations

from pathlib import Path

from domain.uboat_leader.bot import categories, outcomes
from events.bundle import decode_bundle
from service.whatif import fold_bundle, odds

SHORT = Path(__file__).resolve().parents[2] / "replays" / "uboat-short.2.0.0.json"


def test_the_odds_from_the_middle_of_the_golden_campaign_report_every_outcome_with_the_real_one_placed():
    b = decode_bundle(SHORT.read_bytes())
    at = b.commands[len(b.commands) // 2].seqs[1]  # a command's end
    got = odds(b, at, 12, seed=5)
    real = outcomes(fold_bundle(b).state)
    figures = got["figures"]
    assert got["finished"] and list(figures) == list(real) == [
        "final_vp",
        "result_level",
        "vp",
        "boats_lost",
        "ships_sunk",
        "tons_sunk",
        "turns",
    ]
    quantities = {k: v for k, v in real.items() if k != "result_level"}
    assert all(figures[k]["actual"] == v and 0 <= figures[k]["percentile"] <= 100 for k, v in quantities.items())
    level = categories(fold_bundle(b).state)["result_level"][real["result_level"]]
    assert figures["result_level"] == {"shares": figures["result_level"]["shares"], "actual_label": level}  # a category
    assert odds(b, at, 12, seed=5) == got, "the same seed, the same odds"
