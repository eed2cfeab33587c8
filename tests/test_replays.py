"""Every bundle in replays/ and tests/fixtures/ replays and verifies under its own edition; regenerating the newest
edition's is byte-identical and never overwrites an archived one; tampering is named by seq."""

from __future__ import annotations

import copy
import functools
import importlib.util
import json
import sys
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from service.cli import app as cli
from service.replay import verify
from service.rulesets import RULESETS

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _retired(path: Path) -> bool:
    """A bundle of a major superseded before its ruleset's first released edition (never released, so never run)."""
    from domain.editions import major

    made = json.loads(path.read_text())["ruleset"]
    return major(made["version"]) in RULESETS[made["id"]].ruleset.editions.retired


BUNDLES = sorted([*REPLAYS.glob("*.json"), *(p for p in FIXTURES.glob("*.json") if not _retired(p))])


@functools.cache
def _gen():
    """replays/generate.py (not a package): its table of golden games and the code that plays them."""
    spec = importlib.util.spec_from_file_location("replays_generate", REPLAYS / "generate.py")
    gen = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = gen  # its dataclass resolves its annotations through the module
    spec.loader.exec_module(gen)
    return gen


def test_there_are_bundles():
    assert len(BUNDLES) >= 3


def test_every_edition_each_ruleset_runs_has_golden_bundles_named_with_it():
    """Editions: the bundles of an edition stay when a new one ships, so each edition run keeps being replayed."""
    named = {}
    for path in REPLAYS.glob("*.json"):
        made = json.loads(path.read_text())["ruleset"]
        assert path.name.endswith(f".{made['version']}.json"), f"{path.name} is not named with its edition"
        named.setdefault(made["id"], set()).add(made["version"])
    for rid, loaded in RULESETS.items():
        assert named.get(rid) == set(loaded.ruleset.editions.run), rid


@pytest.mark.parametrize("path", BUNDLES, ids=lambda p: p.name)
def test_every_bundle_in_replays_verifies(path):
    report = verify(path.read_bytes())
    assert report["verdict"] == "verified", report
    assert report["checks"]["sealed"]["unrevealed"] == []  # a finished game opens every seal


GOLDEN_BUNDLES = sorted(REPLAYS.glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN_BUNDLES, ids=lambda p: p.name)
def test_every_golden_bundle_shows_what_its_game_is_kept_for(path):
    """replays/generate.py's table names each golden game's ruleset and the events its bundles must contain."""
    bundle = json.loads(path.read_text())
    golden = _gen().BY_NAME[path.name.removesuffix(f".{bundle['ruleset']['version']}.json")]
    assert bundle["ruleset"]["id"] == golden.ruleset
    assert golden.must_show <= {e["body"]["type"] for e in bundle["events"]}


def test_the_corvette_bundles_cover_both_directions_and_quick_play():
    assigned = {}
    for path in BUNDLES:
        b = json.loads(path.read_text())
        for e in b["events"]:
            if e["body"]["type"] == "ConvoyAssigned":
                assigned.setdefault(b["events"][0]["body"]["data"]["options"].get("quick_play") is not None, set()).add(
                    e["body"]["data"]["direction"]
                )
    assert assigned[False] == {"east", "west"} and assigned[True]


def test_regenerating_the_newest_editions_bundles_is_byte_identical(tmp_path):
    made = _gen().generate(tmp_path)
    assert made, "generate wrote nothing"
    for path in made:
        assert path.read_bytes() == (REPLAYS / path.name).read_bytes(), path.name


def test_make_replays_refuses_to_overwrite_a_bundle_with_other_bytes(tmp_path, monkeypatch):
    """An archived bundle is never regenerated: a rules change that alters it belongs to a new edition."""
    gen = _gen()
    monkeypatch.setattr(gen, "play", lambda svc, name: {"game": name})
    target = gen.newest("corvette-eastbound", tmp_path)
    target.write_text("the archived bytes\n")
    with pytest.raises(gen.Archived, match=target.name):
        gen.generate(tmp_path)
    assert target.read_text() == "the archived bytes\n"
    assert not gen.newest("uboat-short", tmp_path).exists()  # refused whole: nothing written


@pytest.fixture(scope="module")
def bundle():
    return json.loads((REPLAYS / "aa1942-north-atlantic.3.0.0.json").read_text())


def test_an_edited_event_is_named_by_its_seq(bundle):
    b = copy.deepcopy(bundle)
    b["events"][21]["body"]["data"]["damage"] = 0
    report = verify(json.dumps(b).encode())
    assert report["verdict"] == "failed" and report["checks"]["chain"]["first_bad_seq"] == 22


@pytest.mark.parametrize("sides", [[0], [-6], ["6"]])
def test_a_roll_of_sides_no_die_has_says_so(bundle, sides):
    """A new-user trial: `sides: [0]` failed as "the seed gives None"; the check names the roll and says why."""
    b = copy.deepcopy(bundle)
    roll = next(e for e in b["events"] if e["body"]["type"] == "DiceRolled")
    roll["body"]["data"]["sides"] = sides
    dice = verify(json.dumps(b).encode())["checks"]["dice"]
    assert dice["status"] == "fail" and dice["first_bad_k"] == 0 and dice["first_bad_seq"] == roll["body"]["seq"]
    assert f"its sides {sides!r} are not dice" in dice["detail"] and "None" not in dice["detail"], dice["detail"]


def test_a_rehashed_edit_is_caught_by_the_dice_or_the_replay(bundle):
    """An editor who recomputes the whole chain still cannot change a face or an outcome unseen."""
    from events.canonical import GENESIS_HASH, chain_hash

    def rechain(b):
        h = GENESIS_HASH
        for e in b["events"]:
            h = chain_hash(h, e["body"])
            e["hash"] = h.hex()
        b["head"] = h.hex()
        return b

    roll = next(e for e in bundle["events"] if e["body"]["type"] == "DiceRolled")
    b = copy.deepcopy(bundle)
    e = next(x for x in b["events"] if x["body"]["seq"] == roll["body"]["seq"])
    e["body"]["data"]["faces"] = [7 - roll["body"]["data"]["faces"][0]]
    report = verify(json.dumps(rechain(b)).encode())
    assert report["checks"]["chain"]["status"] == "pass"
    assert (
        report["checks"]["dice"]["first_bad_k"] == 0
        and report["checks"]["dice"]["first_bad_seq"] == roll["body"]["seq"]
    )

    b = copy.deepcopy(bundle)
    raid = next(x for x in b["events"] if x["body"]["type"] == "ConvoyRaided")
    raid["body"]["data"]["treasury"] += 1
    report = verify(json.dumps(rechain(b)).encode())
    assert report["checks"]["replay"]["first_bad_seq"] == raid["body"]["seq"]
    assert report["checks"]["replay"]["diff"] == [
        {
            "path": "data.treasury",
            "recorded": raid["body"]["data"]["treasury"],
            "replayed": raid["body"]["data"]["treasury"] - 1,
        }
    ]


def test_a_changed_client_seed_fails_the_dice_check(bundle):
    b = copy.deepcopy(bundle)
    b["dice"]["client_seeds"][0] = "00" * 32
    assert verify(json.dumps(b).encode())["checks"]["dice"]["status"] == "fail"


def test_cli_verify_exit_codes_and_the_seq_it_names(tmp_path, bundle):
    runner = CliRunner()
    good = runner.invoke(cli, ["verify", str(REPLAYS / "aa1942-north-atlantic.3.0.0.json")])
    assert good.exit_code == 0 and "verified" in good.output
    b = copy.deepcopy(bundle)
    b["events"][40]["body"]["data"]["round"] = 9
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(b))
    bad = runner.invoke(cli, ["verify", str(path)], terminal_width=200)
    assert bad.exit_code == 1 and "event seq 41 does not verify" in bad.output
    missing = runner.invoke(cli, ["verify", str(tmp_path / "none.json")])
    assert missing.exit_code == 3 and "cannot read" in missing.output  # it checked nothing: no verdict's code
    unrevealed = copy.deepcopy(bundle)  # the seed not yet revealed: chain verified, dice and replay wait
    unrevealed["dice"]["server_seed"] = None
    unrevealed["events"] = [e for e in unrevealed["events"] if e["body"]["type"] != "ServerSeedRevealed"]
    unrevealed["head"] = unrevealed["events"][-1]["hash"]
    unrevealed["commands"] = [c for c in unrevealed["commands"] if c["seqs"][1] <= len(unrevealed["events"])]  # its too
    path = tmp_path / "unrevealed.json"
    path.write_text(json.dumps(unrevealed))
    partial = runner.invoke(cli, ["verify", str(path)])
    assert partial.exit_code == 2 and "partial" in partial.output


def test_cli_replay_shows_the_first_divergence_as_a_diff(tmp_path, bundle):
    b = copy.deepcopy(bundle)
    raid = next(x for x in b["events"] if x["body"]["type"] == "ConvoyRaided")
    raid["body"]["data"]["removed"] = 99
    path = tmp_path / "diverged.json"
    path.write_text(json.dumps(b))
    out = CliRunner().invoke(cli, ["replay", str(path)], terminal_width=200)
    assert out.exit_code == 1
    assert f"event seq {raid['body']['seq']} differs" in out.output and "data.removed" in out.output
    assert CliRunner().invoke(cli, ["replay", str(REPLAYS / "aa1942-pacific.3.0.0.json")]).exit_code == 0


def test_cli_export_writes_the_bundle_of_a_stored_game(tmp_path):
    from events.store import SQLiteStore
    from service.games import GameService

    db = tmp_path / "u.db"
    svc = GameService(SQLiteStore(str(db)))
    gid = svc.creation.create("aa1942-convoy", {}, None, "fair", None, None, None)["game_id"]
    out = tmp_path / "b.json"
    r = CliRunner().invoke(cli, ["export", gid, "--db", str(db), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert json.loads(out.read_text())["game"] == gid
    assert out.read_bytes() == svc.bundles.bundle_bytes(gid)  # the same bytes as GET /games/{id}/bundle
    unknown = CliRunner().invoke(cli, ["export", "nope", "--db", str(db)])
    assert unknown.exit_code == 1 and "umpire games --db" in unknown.output  # CLI advice, not HTTP advice


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_genesis_records_only_the_options_set_so_new_defaults_keep_old_bundles_identical(ruleset):
    from domain import engine

    loaded = RULESETS[ruleset]
    made = engine.creation_events(loaded.ruleset, loaded.data, loaded.data_sha256, "g", {}, None, "fair", bytes(32))
    # what a ruleset's new_game_options fills in is recorded on purpose (aa1942 AA-R16: a new game records its setup,
    # whose absence in an older genesis means "empty"); nothing else is
    filled = loaded.ruleset.new_game_options
    assert made[0].options == (msgspec.to_builtins(filled(engine.decode_options(loaded.ruleset, {}))) if filled else {})


def test_a_bundle_of_another_major_version_verifies_its_chain_and_dice_and_names_the_engine_to_replay_it():
    """A bundle made by aa1942-convoy 1.0.0: its chain and dice check here, but this engine runs another major
    version, so the replay is not run (partial, exit 2) and says which version re-runs it, instead of reporting
    the genesis as a changed body."""
    old = Path(__file__).parent / "fixtures" / "aa1942-north-atlantic-1.0.0.json"
    report = verify(old.read_bytes())
    assert report["checks"]["chain"]["status"] == "pass" and report["checks"]["dice"]["status"] == "pass"
    replayed = report["checks"]["replay"]
    assert replayed["status"] == "skipped" and "aa1942-convoy 1.0.0" in replayed["detail"], replayed
    assert report["verdict"] == "partial"
    out = CliRunner().invoke(cli, ["verify", str(old)], terminal_width=200)
    assert out.exit_code == 2 and "1.0.0" in out.output
