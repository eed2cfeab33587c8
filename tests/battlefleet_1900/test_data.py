"""The data set (BATTLEFLEET.md §2): the default parses, every cross-check has a failing fixture, and the values
the text or the note fixes are what they say."""

from __future__ import annotations

import re

import pytest

from tests.battlefleet_1900.scenario import DATA, data_with


def test_default_data_marks_fixed_and_stand_in_values():
    assert DATA.scale.fixed == {"brackets": "4.1"} and DATA.scale.stand_in
    assert DATA.speed.fixed == {"boxes": "6.2", "accel_boxes": "3.0"}
    assert DATA.dc_dice.fixed == "6.3" and (DATA.dc_dice.large, DATA.dc_dice.small) == (6, 3)
    assert all(p.fixed == "4.1" for p in DATA.positions.values())
    assert all(k.stand_in for k in DATA.classes.values()) and all(sc.stand_in for sc in DATA.scenarios.values())
    assert DATA.tables.stand_in and DATA.fog.stand_in


@pytest.mark.parametrize("cls, knots", [("Mikasa", 18), ("Yakumo", 20), ("Poltava", 16), ("Ikazuchi", 30)])
def test_speed_boxes_follow_the_notes_formula(cls, knots):
    """§2: six equal boxes; the top box is floor(kn * 157 / 20) down to a multiple of 6 (16 kn: the text's 120/20)."""
    top = knots * 157 // 20 // 6 * 6
    assert DATA.classes[cls].speed_boxes == [top * (6 - i) // 6 for i in range(6)]


def test_text_example_speeds():
    assert DATA.classes["Poltava"].speed_boxes[0] == 120 and DATA.classes["Poltava"].speed_boxes[-1] == 20


def test_the_position_arcs_are_the_notes():
    arcs = {k: v.arcs for k, v in DATA.positions.items()}
    assert arcs["A"] == [[-265, 265]] and arcs["Z"] == [[95, 625]] and arcs["X"] == [[265, 630]]
    assert arcs["centre-line"] == [[85, 275], [-275, -85]] and arcs["stem"] == [[-95, 95]]
    assert DATA.patterns == {"bow": [0, 270], "beam": [45, 315], "stern": [90, 360]}
    assert DATA.tube_arcs["side"] == [[120, 240]] and DATA.tube_arcs["centre-line"] == [[85, 275], [-275, -85]]


def _set(path: str, value):
    def change(raw):
        node = raw
        keys = path.split(".")
        for k in keys[:-1]:
            node = node[int(k)] if k.isdigit() else node[k]
        node[int(keys[-1]) if keys[-1].isdigit() else keys[-1]] = value

    return change


@pytest.mark.parametrize(
    "change, message",
    [
        (_set("classes.Mikasa.speed_boxes", [138, 115, 92, 69, 46, 20]), "six equal steps"),
        (_set("classes.Mikasa.weapons.0.pattern", 1), "either pos + guns or pattern + per_side"),
        (_set("classes.Mikasa.weapons.0.pos", ["A", "Q"]), "position 'Q' is unknown"),
        (_set("classes.Mikasa.weapons.1.per_side", [2, 5, 1]), "pattern 1 has 1 gun(s) at bow and stern"),
        (_set("classes.Poltava.weapons.2.per_side", [1, 2, 1]), "pattern 0 guns are all on the beam"),
        (_set("classes.Mikasa.weapons.2.cat", "secondary"), "boat guns (boat) are a tertiary beam pattern"),
        (_set("classes.Mikasa.weapons.1.id", "A"), "is used twice or is a position letter"),
        (_set("classes.Mikasa.torpedoes.0.per_side", None), "per_side for side tubes"),
        (_set("classes.Mikasa.torpedoes.0.shallow_ok", True), "may carry surface skimmers"),
        (_set("classes.Mikasa.funnel_mm", 41), "the forward funnel lies on the base"),
        (_set("tables.shell.HE.0.2", ["F", "F", "F"]), "a row needs 4 results"),
        (_set("tables.shell.HE.0.2", ["F", "F", "F", "Q"]), "unknown code 'Q'"),
        (_set("tables.critical.main.0", [2, 3, "BOOM"]), "cover each face once"),
        (_set("glossary.M.if_missing", "Z9"), "if_missing names an unknown code"),
        (
            _set("scenarios.yellow-sea-1904.sides.0.fleet_flagship", "Asahi"),
            "fleet flagship must be a division flagship",
        ),
        (_set("scenarios.yellow-sea-1904.sides.0.divisions.0.flagship", "Yakumo"), "flagship is not in it"),
        (_set("scenarios.yellow-sea-1904.sides.0.divisions.0.ships.0.cls", "Dreadnought"), "has no class"),
        (_set("scenarios.yellow-sea-1904.sides.0.divisions.0.ships.0.bow", [4000, 10]), "starts off the table"),
        (_set("scenarios.yellow-sea-1904.sides.1.divisions.0.ships.0.name", "Mikasa"), "must be unique"),
        (_set("scenarios.yellow-sea-1904.sides.1.seat", "japan"), "two seats"),
        (_set("scenarios.yellow-sea-1904.land", [[[0, 0], [10, 10]]]), "at least 3 points"),
    ],
)
def test_each_cross_check_fails_with_its_own_message(change, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        data_with(change)


def test_schema_bounds_are_enforced():
    with pytest.raises(ValueError):
        data_with(_set("scale.brackets", 5))  # 4.1: four brackets
    with pytest.raises(ValueError):
        data_with(_set("scale.bracket_mm", 502))  # the quarter bracket must be whole: 4 | B


def test_a_game_brings_its_own_data_set_pinned_by_its_hash():
    import hashlib
    import json

    from domain import engine
    from domain.engine import InvalidInput
    from events.canonical import canonical
    from service.rulesets import RULESETS
    from tests.battlefleet_1900.scenario import RAW

    loaded = RULESETS["battlefleet-1900"]
    own = json.loads(json.dumps(RAW))
    own["scenarios"]["yellow-sea-1904"]["sides"][0]["seat"] = "togo"
    own["classes"]["Mikasa"]["armour"] = [12, 7]
    made = engine.creation_events(
        loaded.ruleset, loaded.data, loaded.data_sha256, "own", {"data": own}, None, "fair", bytes(32)
    )
    assert made[0].seats == ["togo", "russia"]
    assert made[0].ruleset.data_sha256 == hashlib.sha256(canonical(own)).hexdigest() != loaded.data_sha256
    game = engine.start(loaded.ruleset, loaded.data, loaded.data_sha256, "own", made[0])
    assert game.state.cls("Mikasa").armour == [12, 7] and game.state.seats == ["togo", "russia"]
    bad = json.loads(json.dumps(RAW))
    bad["classes"]["Mikasa"]["speed_boxes"][5] = 1
    with pytest.raises(InvalidInput, match="six equal steps"):
        engine.creation_events(
            loaded.ruleset, loaded.data, loaded.data_sha256, "bad", {"data": bad}, None, "fair", bytes(32)
        )
    with pytest.raises(InvalidInput, match="played by the seats"):
        engine.creation_events(loaded.ruleset, loaded.data, loaded.data_sha256, "x", {}, ["a", "b"], "fair", bytes(32))


def test_the_scenario_options_examples_are_the_default_data_sets_scenarios():
    """BF-R2: `GET /rulesets/battlefleet-1900` offers the default data set's scenarios as the option's `examples` (a
    new-user trial found only a refused create named them), so a new-game form can list them."""
    import msgspec

    from domain.battlefleet_1900.commands import Options

    scenario = msgspec.json.schema(Options)["$defs"]["Options"]["properties"]["scenario"]
    assert sorted(scenario["examples"]) == sorted(DATA.scenarios)


def test_the_fog_option_says_the_blur_the_default_data_set_uses():
    """BF-R48: the `fog` option's description told players "up to 5 %" while the default data set blurs by 20 % (the
    calibrated stand-in, data/README.md): a player's trial measured 15-19 % and could not tell which was wrong."""
    import msgspec

    from domain.battlefleet_1900.commands import Options

    (_, components) = msgspec.json.schema_components([Options])
    fog = components["Options"]["properties"]["fog"]["description"]
    assert f"`fog.blur_pct` % ({DATA.fog.blur_pct} in the default data)" in fog
