"""The data set: every entry marked, schema-validated with every problem collected, replaceable, pinned by hash."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgspec
import pytest

from domain import engine
from domain.uboat_leader.data import parse_data
from events.store import SQLiteStore
from events.vocabulary import decode_event
from service.games import GameService
from service.replay import verify
from service.rulesets import RULESETS
from tests.uboat_leader.scenario import PACKAGE, RAW, RAWS, raw

LOADED = RULESETS["uboat-leader"]
REPLAYS = Path(__file__).resolve().parents[2] / "replays"


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_every_entry_of_the_stand_in_set_is_marked_and_names_its_text_fields():
    d = RAW
    entries = [d["rules"], d["display"], *d["uboats"], *d["events"], *d["convoys"], *d["merchants"]]
    entries += [*d["escorts"], *d["fleet_escorts"], *d["naval"], *d["campaigns"]]
    assert all(e["stand_in"] is True and isinstance(e["from_text"], list) for e in entries)


def test_the_stand_in_campaign_is_comienza_la_batalla_with_the_texts_numbers():
    c = LOADED.data.campaign("battle-begins")
    assert c.name == "Comienza la Batalla" and c.dates == ["1939-09", "1940-05"] and not c.tactics
    assert {k: (v.patrols, v.so) for k, v in c.durations.items()} == {
        "short": (1, 32),
        "medium": (2, 44),
        "long": (4, 60),
    }
    assert c.remove_convoys == [52]
    ns = c.map.areas[0]
    assert (ns.name, ns.move, ns.boxes[0].mission, ns.boxes[0].events, ns.boxes[0].naval) == (
        "North Sea",
        1,
        "attack",
        3,
        3,
    )


def bad(change) -> str:
    d = raw()
    change(d)
    with pytest.raises(ValueError) as e:
        parse_data(json.dumps(d).encode())
    return str(e.value)


def test_parse_data_collects_every_problem_at_once():
    def two(d):
        d["display"]["areas"][0]["adj"].append("C3")  # L1–C3 one way only
        d["uboats"][0]["gun"] = True  # a Type II with a deck gun

    msg = bad(two)
    assert "adjacency L1–C3 is not symmetric" in msg and "gun: false` exactly for Types II and XXI" in msg


@pytest.mark.parametrize(
    "change, says",
    [
        (lambda d: d["merchants"].append(dict(d["merchants"][0])), "card numbers must be unique"),
        (lambda d: d["uboats"][2].update(gun=False), "exactly for Types II and XXI"),
        (lambda d: d["campaigns"][0]["map"]["areas"][0]["adj"].append("n-atlantic"), "not symmetric"),
        (lambda d: d["convoys"][3]["positions"].extend([["E3", "S2"], ["E4", "S4"]]), "more E positions than Fleet"),
        (lambda d: d["campaigns"][0]["map"]["areas"][1]["contacts_at"].reverse(), "contacts_at must ascend"),
        (lambda d: d["campaigns"][0]["so_notes"][0].update(cost=None), "cost is null exactly for advanced"),
        (lambda d: d["campaigns"][0].update(remove_convoys=[99]), "remove_convoys names cards of the set"),
        (lambda d: d["campaigns"][0]["map"]["areas"][1]["boxes"][0].update(vp_by_mines=[]), "needs vp_by_mines"),
        (lambda d: d["convoys"][0]["positions"].append(["X1", "C1"]), "labels start L/M/N/E"),
        (lambda d: d["convoys"][0].update(conditions=["fog"]), "not implemented"),
        (lambda d: d["rules"].update(detection_range=[2]), "rules.detection_range"),
        (lambda d: d["display"].update(wake="L1"), "a wake area named by `wake`"),
    ],
)
def test_each_cross_check_refuses_its_fixture(change, says):
    assert says in bad(change)


def test_the_default_set_is_pinned_by_hash_and_a_game_can_bring_its_own():
    made = engine.creation_events(LOADED.ruleset, LOADED.data, LOADED.data_sha256, "g", {}, None, "fair", bytes(32))
    newest = PACKAGE / LOADED.ruleset.data_file_of(LOADED.ruleset.version)
    assert made[0].ruleset.data_sha256 == LOADED.data_sha256 == sha(newest)
    own = raw()
    own["rules"]["sunk_boat_vp"] = 5  # a user with the full rules replaces a completion rule's number by data
    made = engine.creation_events(
        LOADED.ruleset, LOADED.data, LOADED.data_sha256, "g", {"data": own}, None, "fair", bytes(32)
    )
    game = engine.start(LOADED.ruleset, LOADED.data, LOADED.data_sha256, "g", made[0])
    assert made[0].ruleset.data_sha256 != LOADED.data_sha256 and game.state.rules.sunk_boat_vp == 5


def test_a_bad_data_option_is_refused_with_what_is_wrong():
    own = raw()
    own["uboats"][1]["bands"] = [9, 3]
    with pytest.raises(engine.InvalidInput) as e:
        engine.creation_events(
            LOADED.ruleset, LOADED.data, LOADED.data_sha256, "g", {"data": own}, None, "fair", bytes(32)
        )
    assert "bands" in e.value.detail


def test_every_completion_rule_number_lives_in_the_rules_section():
    """UL-S1…S10: the numbers the code reads for the completion rules are all fields of `rules`."""
    r = RAW["rules"]
    for name in (
        "gun_shots",
        "torpedo_range",
        "gun_range",
        "fat_vs_merchant",
        "t5_vs_escort",
        "light_points",
        "heavy_points",
        "sink_points",
        "escort_attack_range",
        "ship_attack_range",
        "deep_attack",
        "hit_sunk_on",
        "hit_light_stress",
        "hit_heavy_stress",
        "combat_turns",
        "alerted_per_turn",
        "post_combat_stress",
        "sunk_boat_vp",
    ):
        assert name in r and name not in r["from_text"]


@pytest.mark.parametrize(
    "dates, tactics, says",
    [
        (["1939-09", "1940-05"], True, "ends before June 1942"),  # the text: "no uses estas fichas"
        (["1942-02", "1942-06"], True, "starts before June 1942"),  # Drumbeat: neither; UL-R22 off
        (["1942-07", "1943-06"], False, "starts in June 1942 or later"),  # La Presa: "coloca las fichas Tácticas"
    ],
)
def test_UL7_UL_R22_a_data_set_whose_tactics_contradict_the_campaign_dates_is_refused_at_creation(dates, tactics, says):
    """Preparación de los Mazos: "Si juegas una Campaña que empieza en junio de 1942 o más tarde, coloca las fichas
    Tácticas … Si juegas una Campaña que acaba antes de junio de 1942, no uses estas fichas." A data set that says
    otherwise is refused when a game is created (422 invalid-data naming the campaign and the rule); before, a
    1939–40 campaign with `tactics: true` was accepted and drew Tactics counters."""
    own = raw()
    own["campaigns"][0].update(dates=dates, tactics=tactics, event_year=int(dates[0][:4]))
    parse_data(json.dumps(own).encode())  # the set itself parses: a game already recorded with it still loads
    with pytest.raises(engine.InvalidInput) as e:
        engine.creation_events(
            LOADED.ruleset, LOADED.data, LOADED.data_sha256, "g", {"data": own}, None, "fair", bytes(32)
        )
    assert e.value.status == 422 and e.value.code == "invalid-data"
    assert "campaign battle-begins" in e.value.detail and says in e.value.detail and "UL-7" in e.value.detail
    own["campaigns"][0].update(dates=["1942-07", "1943-06"], tactics=True, event_year=1942)
    engine.creation_events(LOADED.ruleset, LOADED.data, LOADED.data_sha256, "g", {"data": own}, None, "fair", bytes(32))


def test_UL6_UL_R53_a_campaign_whose_event_year_is_not_one_of_its_years_is_refused_at_creation():
    """Cartas de Evento: "Usa el evento para el año de la Campaña que actualmente estés jugando". Comienza la Batalla
    (Sep-39 to May-40) with `event_year` 1944 drew the 1944 sections; it is refused (422 invalid-data) when a game is
    created, and 1940 is accepted."""
    own = raw()
    own["campaigns"][0]["event_year"] = 1944
    with pytest.raises(engine.InvalidInput) as e:
        engine.creation_events(
            LOADED.ruleset, LOADED.data, LOADED.data_sha256, "g", {"data": own}, None, "fair", bytes(32)
        )
    assert e.value.code == "invalid-data" and "event_year 1944" in e.value.detail and "UL-R53" in e.value.detail
    own["campaigns"][0]["event_year"] = 1940
    engine.creation_events(LOADED.ruleset, LOADED.data, LOADED.data_sha256, "g", {"data": own}, None, "fair", bytes(32))


# ---- data revisions: the data set is part of the edition (UL-E4-1) ----------------------------------------------


def test_UL42_ULE4_1_each_edition_plays_on_its_own_default_set_and_the_old_set_is_never_edited():
    """A data revision is one edition's: 2.0.0 and 3.0.0 keep data/default.json, the bytes every stored game and
    golden bundle of theirs hashed in its genesis; 4.0.0 ships data/default.4.0.0.json (Ruleset.data_file_of), which
    5.0.0 to 9.0.0, naming no revision of their own, keep."""
    files = {v: LOADED.ruleset.data_file_of(v) for v in LOADED.ruleset.editions.run}
    revised = "data/default.4.0.0.json"
    old = "data/default.json"
    assert files == {"2.0.0": old, "3.0.0": old} | {f"{n}.0.0": revised for n in range(4, 10)}
    for golden in ("uboat-short.2.0.0.json", "uboat-short.3.0.0.json"):
        assert json.loads((REPLAYS / golden).read_text())["ruleset"]["data_sha256"] == sha(PACKAGE / files["3.0.0"])
    for version, file in files.items():
        made = engine.creation_events(
            LOADED.ruleset, *LOADED.data_for(version), "g", {}, None, "fair", bytes(32), edition=version
        )
        assert made[0].ruleset.data_sha256 == sha(PACKAGE / file), version
    assert LOADED.data_for("3.0.0")[1] != LOADED.data_for("4.0.0")[1] == LOADED.data_sha256


@pytest.mark.parametrize("version, barred", [("3.0.0", ["IIB", "IIC"]), ("4.0.0", [])])
def test_UL42_ULE4_1_type_II_boats_may_enter_every_area_of_comienza_la_batalla_from_4(version, barred):
    """ "El Tipo II de U-Boat sólo puede moverse en las Áreas que se muestran en el Mapa de Campaña de 'Comienza la
    Batalla'" (a Type II moves only in the Areas shown on that campaign's map): every Area of that map is open to it.
    3.0.0's set barred the Western Approaches and the North Atlantic; its games keep that set."""
    areas = {a["id"]: a.get("barred", []) for a in RAWS[version]["campaigns"][0]["map"]["areas"]}
    assert areas["w-approaches"] == areas["n-atlantic"] == barred
    assert all(b == [] for a, b in areas.items() if a not in ("w-approaches", "n-atlantic"))


def test_ULE4_1_a_new_game_gets_the_revised_set_a_game_pinned_to_3_gets_the_old_set_and_both_verify(tmp_path):
    db = str(tmp_path / "g.db")
    made = {}
    for edition in (None, "3.0.0"):
        game = GameService(SQLiteStore(db)).creation.create("uboat-leader", {}, None, "fair", None, None, None, edition=edition)
        made[game["ruleset"]["version"]] = game
    assert sorted(made) == ["3.0.0", LOADED.ruleset.version]
    svc = GameService(SQLiteStore(db))  # another process: each game is folded cold from the store
    for version, m in made.items():
        assert m["ruleset"]["data_sha256"] == sha(PACKAGE / LOADED.ruleset.data_file_of(version)), version
        gid, token = m["game_id"], m["seats"][0]["token"]
        game = svc.cache.cached(gid).game
        assert game.state.edition.version == version and game.data is LOADED.data_for(version)[0]
        for _ in range(20):  # it plays on: the bot's first commands
            legal = [x for x in engine.awaiting(game, "commander") if x.type != "concede"]
            svc.command(gid, token, LOADED.ruleset.bot(game.state, legal, "commander"))
            game = svc.cache.cached(gid).game
        svc.end(gid, m["referee_token"])
        svc.reveal(gid, m["referee_token"])
        report = verify(msgspec.json.encode(svc.bundles.bundle(gid)))
        assert report["verdict"] == "verified", report["checks"]


def test_ULE4_1_the_3_0_0_golden_campaign_replays_on_the_old_set_and_is_refused_on_the_new_one():
    """The 3.0.0 bundle verifies (its genesis pins default.json's hash); the same genesis started on the 4.0.0 set
    is refused as data-mismatch, so no stored 3.0.0 game can be folded on the revised map by mistake."""
    raw_bundle = (REPLAYS / "uboat-short.3.0.0.json").read_bytes()
    assert verify(raw_bundle)["verdict"] == "verified"
    genesis = decode_event("GameCreated", 1, json.loads(raw_bundle)["events"][0]["body"]["data"])
    assert LOADED.start("g", genesis).state.area("w-approaches").barred == ["IIB", "IIC"]
    with pytest.raises(engine.Rejected) as e:
        engine.start(LOADED.ruleset, LOADED.data, LOADED.data_sha256, "g", genesis)
    assert e.value.code == "data-mismatch"


def test_ULE4_1_the_desk_serves_the_default_set_of_the_games_edition():
    """The desk checks a data set's SHA-256 against the genesis before drawing from it: it asks for the set of the
    game's edition (`?edition=`), the newest when none is named."""
    from fastapi.testclient import TestClient

    from service.app import create_app

    with TestClient(create_app(service=GameService(SQLiteStore(":memory:")))) as client:
        for edition, version in (("3.0.0", "3.0.0"), ("2.1.0", "2.0.0"), ("4.0.0", "4.0.0"), ("", "4.0.0")):
            r = client.get("/desk/data/uboat-leader.json", params={"edition": edition} if edition else {})
            assert r.status_code == 200 and hashlib.sha256(r.content).hexdigest() == LOADED.data_for(version)[1]
        assert client.get("/desk/data/uboat-leader.json", params={"edition": "99.0.0"}).status_code == 404
