"""Answers people read (issue 36 item 4): a category (a winner, a result level) as shares, never a mean; a quantity with
its mean's 95% interval; progress with the time left on long runs, also when nobody watches a terminal."""

from __future__ import annotations

import json
import time
from pathlib import Path

import jsonschema_rs
from typer.testing import CliRunner

from events.store import SQLiteStore
from service import cli
from service.cli import app
from service.games import GameService
from service.simulate import ci95, shares, summarize
from service.whatif import OddsJobs
from tests.conftest import auth, new_game
from tests.drivers import SHORT

EASTBOUND = Path(__file__).resolve().parent.parent / "replays" / "corvette-eastbound.3.0.0.json"
REAL_GAME = {"histogram", "actual", "percentile", "actual_label"}  # what the odds from a position add to a figure


def test_a_category_is_reported_as_shares_in_percent_and_a_quantity_as_mean_interval_and_percentiles():
    labels = {"winner": {1: "japan", 2: "russia", 0: "drawn", -1: "not over"}}
    results = [{"winner": w, "turns": t} for w, t in [(1, 10), (1, 12), (2, 9), (0, 12), (1, 11)]]
    out = summarize(results, labels)
    assert out["winner"] == {"shares": {"japan": 60.0, "russia": 20.0, "drawn": 20.0}}  # no mean of seats
    assert out["turns"]["mean"] == 10.8 and out["turns"]["ci95"] == ci95([10, 12, 9, 12, 11])
    lo, hi = out["turns"]["ci95"]
    assert lo < 10.8 < hi


def test_shares_name_values_without_a_label_and_the_odds_keep_the_real_games_category_and_nothing_of_its_code():
    assert shares([3, 3, 7], {3: "three"}) == {"three": 66.7, "7": 33.3}
    runs = [{"winner": w, "turns": t} for w, t in [(1, 9), (2, 10), (2, 12), (2, 11)]]
    f = summarize(runs, {"winner": {1: "japan", 2: "russia"}}, {"winner": 1, "turns": 10})
    assert f["winner"] == {"shares": {"japan": 25.0, "russia": 75.0}, "actual_label": "japan"}  # no code, mean, pct
    assert f["turns"]["actual"] == 10 and f["turns"]["percentile"] == 37.5 and f["turns"]["histogram"]


def test_a_mean_s_interval_stays_within_what_the_games_gave():
    """mean ± 1.96 errors of 19 games of 0 and one of 1 reaches below 0: no count is, so no mean can be."""
    lo, hi = ci95([0] * 19 + [1])
    assert lo == 0.0 and 0.05 < hi < 0.2
    assert ci95([-3, -3, -3, -3, 3])[0] == -3.0  # the games' least, not 0: a convoy's VP may be negative
    assert all(min(v) <= x <= max(v) for v in ([1, 1, 1, 2], [0, 5], [7]) for x in ci95(v))


def test_a_figure_is_shaped_alike_by_simulate_and_by_simulate_from_a_position():
    """The trial's report: `--from` gave `corvette sunk` a mean of its 0/1 codes and a ci95 below 0, where plain
    `umpire simulate` gave its shares. Both read the figure as one function does; `--from` only adds the real game."""
    at = str(json.loads(EASTBOUND.read_text())["commands"][8]["seqs"][1])
    plain = CliRunner().invoke(app, ["simulate", "corvette-command", "--games", "6", "--json"])
    there = CliRunner().invoke(
        app, ["simulate", "corvette-command", "--from", str(EASTBOUND), "--at", at, "--games", "6", "--json"]
    )
    assert plain.exit_code == 0 and there.exit_code == 0, plain.output + there.output
    plain_f, there_f = json.loads(plain.stdout)["figures"], json.loads(there.stdout)["figures"]
    assert list(plain_f) == list(there_f)
    for name, f in there_f.items():
        assert set(f) - REAL_GAME == set(plain_f[name]), name
    assert set(plain_f["corvette sunk"]) == {"shares"}
    assert set(there_f["corvette sunk"]) == {"shares", "actual_label"}
    assert there_f["corvette sunk"]["actual_label"] in {"afloat", "sunk"}
    for f in [*plain_f.values(), *there_f.values()]:
        if "ci95" in f:
            assert f["min"] <= f["ci95"][0] <= f["ci95"][1] <= f["max"]


def cells(line: str, bar: str) -> list[str]:
    """A rich table row's cells: `bar` is the header's ┃ or a body row's │."""
    return [c.strip() for c in line.strip().strip(bar).split(bar)]


def header(table: str) -> list[str]:
    """A rich table's column names, from its header row (one line: the table as wide as its cells)."""
    return cells(next(x for x in table.splitlines() if x.startswith("┃")), "┃")


def test_simulate_from_a_position_prints_each_quantitys_mean_and_interval_as_plain_simulate_does(monkeypatch):
    """The trial's report: the `--from` table had the percentiles, the real value and its percentile, but not the mean
    and its 95% interval that plain `umpire simulate` prints for a quantity. Now the same columns, the same cells,
    then the real game's; each row's mean and interval are the JSON's. A terminal 200 wide: every cell on one line
    (the console is made at import; a test worker's COLUMNS=80 would fix it at 80)."""
    monkeypatch.setattr(cli, "console", cli._Console(width=200))
    at = str(json.loads(EASTBOUND.read_text())["commands"][8]["seqs"][1])
    args = ["simulate", "corvette-command", "--from", str(EASTBOUND), "--at", at, "--games", "6"]
    plain = CliRunner().invoke(app, ["simulate", "corvette-command", "--games", "6"])
    there = CliRunner().invoke(app, args)
    doc = CliRunner().invoke(app, [*args, "--json"])
    assert plain.exit_code == there.exit_code == doc.exit_code == 0, plain.output + there.output + doc.output
    assert header(there.stdout) == [*header(plain.stdout), "real", "pct"]
    assert header(there.stdout)[1:3] == ["mean", "95% interval"]
    rows = {r[0]: r[1:] for r in (cells(x, "│") for x in there.stdout.splitlines() if x.startswith("│"))}
    quantities = {n: f for n, f in json.loads(doc.stdout)["figures"].items() if "ci95" in f}
    assert quantities and set(rows) == set(quantities)
    for name, f in quantities.items():
        lo, hi = f["ci95"]
        assert rows[name][:2] == [f"{f['mean']:,.1f}", f"{lo:,.1f}–{hi:,.1f}"], name
        assert rows[name][-2] == f"{f['actual']:,}", name


def test_a_seats_odds_over_the_api_give_a_category_as_shares_as_the_schema_says(client):
    """`POST /games/{id}/odds` with a seat's token, then `GET /jobs/{id}` (the trial's steps): `corvette sunk` is its
    shares and the real game's category, no mean or interval of codes; the job is what `OddsJob` describes."""
    g = new_game(client, SHORT["corvette-command"], ruleset="corvette-command")
    seat, token = next((s, t) for s, t in g["tokens"].items() if t)
    at = client.get(f"/games/{g['game_id']}").json()["version"]
    for headers in (auth(token), {}):  # the seat's own odds, and the public's
        r = client.post(f"/games/{g['game_id']}/odds", json={"at": at, "games": 6, "seed": 1}, headers=headers)
        assert r.status_code == 202, r.text
        job = r.json()
        for _ in range(600):
            job = client.get(f"/jobs/{job['job_id']}", headers=headers).json()
            if job["status"] != "running":
                break
            time.sleep(0.05)
        assert job["status"] == "done", job
        assert job["result"].get("as_seat") == (seat if headers else None)
        sunk = job["result"]["figures"]["corvette sunk"]
        assert set(sunk) == {"shares", "actual_label"} and sunk["actual_label"] == "afloat", sunk
        assert abs(sum(sunk["shares"].values()) - 100) < 0.2
        tonnage = job["result"]["figures"]["tonnage lost"]
        assert "shares" not in tonnage and tonnage["min"] <= tonnage["ci95"][0] <= tonnage["ci95"][1] <= tonnage["max"]
        doc = client.app.openapi()
        schema = {"$ref": "#/components/schemas/OddsJob", "components": doc["components"]}
        assert jsonschema_rs.validator_for(schema).is_valid(job)


def test_simulate_prints_the_winner_as_shares_and_progress_lines_off_a_terminal_when_asked():
    r = CliRunner().invoke(app, ["simulate", "battlefleet-1900", "--games", "4", "--progress"])
    assert r.exit_code == 0, r.output
    winner = next(line for line in r.output.splitlines() if line.startswith("winner: "))
    parts = [p.rsplit(" ", 1) for p in winner.removeprefix("winner: ").split(", ")]
    assert {label for label, _ in parts} <= {"japan", "russia", "drawn", "not over"}
    assert abs(sum(float(pct.rstrip("%")) for _, pct in parts) - 100) < 0.2
    assert "battlefleet-1900: 4/4 (100%)" in r.output and "left" in r.output  # the progress line, with the time left
    assert "│ winner" not in r.output  # not in the table of quantities
    doc = json.loads(CliRunner().invoke(app, ["simulate", "battlefleet-1900", "--games", "2", "--json"]).stdout)
    assert set(doc["figures"]["winner"]) == {"shares"} and "ci95" in doc["figures"]["turns"]


def test_an_odds_job_frees_the_server_for_the_next_before_it_reads_as_ended(tmp_path, monkeypatch):
    """One job at a time per process (429 beyond): a job is free before its end is written, so a client that starts
    the next job when it sees one end is never refused for a thread that had not yet got that far (seen under load)."""
    svc = GameService(SQLiteStore(str(tmp_path / "o.db")))
    jobs = OddsJobs(svc)
    game = svc.creation.create("corvette-command", SHORT["corvette-command"], None, "fair", None, None, None)
    free_as_it_ended: list[bool] = []
    update = svc.store.update_job

    def watched(job_id: str, status: str, *rest) -> None:
        if status != "running":
            free = jobs._busy.acquire(blocking=False)
            if free:
                jobs._busy.release()
            free_as_it_ended.append(free)
        update(job_id, status, *rest)

    monkeypatch.setattr(svc.store, "update_job", watched)
    job = jobs.start(game["game_id"], svc.store.head(game["game_id"])[0], 2, 1)
    for _ in range(1200):  # the job's own row, waited on (a minute at most)
        if svc.store.job(job["job_id"]).status != "running":
            break
        time.sleep(0.05)
    assert svc.store.job(job["job_id"]).status == "done"
    assert free_as_it_ended == [True]
