"""aa1942-convoy's typed contract for frontends (issue #8): every view's output matches its model's JSON Schema,
every event and view field is typed, and `awaiting` alone renders a UI: a description per command, a label per
listed choice, and schemas narrowed so that whatever they allow the rules accept and whatever they exclude the
rules refuse (e.g. `spend` = maximum + 1 is outside the schema and illegal)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product
from typing import Any

import jsonschema_rs
import msgspec
import pytest

from domain import engine
from domain.aa1942_convoy import RULESET
from domain.aa1942_convoy.sheet import Sheet
from domain.aa1942_convoy.state import TURN_ORDER
from domain.aa1942_convoy.views import VIEWS
from events import aa1942_convoy as ev
from events.vocabulary import Event
from service.rulesets import RULESETS
from service.simulate import play_on, seed_for
from tests.test_aa1942_properties import new_game

SEED = b"contract"


def walk(game: engine.Game, seed: bytes, check: Callable[[engine.Game, Sheet], None], every: int = 1) -> int:
    """Play the bot to the end (service/simulate.py `play_on`), calling `check` with the game and its campaign sheet
    (the ruleset's history, folded alongside) before every `every`-th command; returns the positions checked."""
    n = checked = 0
    assert RULESET.history is not None
    sheet = RULESET.history.fold([])

    def before_the_next(_payload: object = None, events: Sequence[Event] = ()) -> None:
        nonlocal n, checked
        for e in events:
            RULESET.history.evolve(sheet, e)
        if n % every == 0 and engine.awaiting(game):
            check(game, sheet)
            checked += 1
        n += 1

    before_the_next()
    play_on(game, seed, on_command=before_the_next)
    return checked


# ---- views --------------------------------------------------------------------------------------------------


VALIDATORS = {name: jsonschema_rs.validator_for(msgspec.json.schema(v.model)) for name, v in VIEWS.items()}


def check_views(game: engine.Game, sheet: Sheet) -> None:
    for name, view in VIEWS.items():
        out = engine.render(view, game.state, None, lambda: sheet)
        assert isinstance(out, view.model), name
        raw = msgspec.json.encode(out)
        VALIDATORS[name].validate(msgspec.json.decode(raw))  # no field the schema does not declare, every type right
        assert msgspec.json.decode(raw, type=view.model) == out


@pytest.mark.slow  # bot campaigns: `make test`, not `make quick`
def test_every_view_matches_its_model_over_bot_games():
    for i, options in enumerate([{}, {"rounds": 3, "setup": "empty", "submarines": {"Germany": {"17": 1}}}]):
        assert walk(new_game(f"views-{i}", options), seed_for(8, i), check_views, every=3) > 30


def untyped(schema: Any, path: str = "") -> list[str]:
    """Where a JSON Schema accepts anything (an empty schema, or an object with free-form properties)."""
    if isinstance(schema, dict):
        if schema == {} or schema.get("additionalProperties") is True:
            return [path or "(root)"]
        return [p for k, v in schema.items() for p in untyped(v, f"{path}.{k}")]
    if isinstance(schema, list):
        return [p for i, v in enumerate(schema) for p in untyped(v, f"{path}[{i}]")]
    return []


@pytest.mark.parametrize("model", [v.model for v in VIEWS.values()] + list(ev.EVENTS), ids=lambda m: m.__name__)
def test_every_view_model_and_event_is_typed_throughout(model):
    schema = msgspec.json.schema(model)
    assert untyped(schema) == []
    defs = schema.get("$defs", {})
    assert all(d.get("additionalProperties") is False for d in defs.values() if d.get("type") == "object")


# ---- awaiting -----------------------------------------------------------------------------------------------


def _props(schema: dict, branch: dict) -> dict[str, dict]:
    return {k: {**v, **branch.get("properties", {}).get(k, {})} for k, v in schema["properties"].items()}


def _values(prop: dict) -> list:
    if "const" in prop:
        return [prop["const"]]
    if "enum" in prop:
        return list(prop["enum"])
    lo, hi = prop["minimum"], prop["maximum"]
    return sorted({lo, (lo + hi) // 2, hi})


def allowed(spec: engine.CommandSpec) -> list[dict]:
    """Argument objects the schema allows: every enumerated value, integer ranges at their ends and middle."""
    out = []
    for branch in spec.schema.get("oneOf", [{}]):
        props = {k: v for k, v in _props(spec.schema, branch).items() if k in spec.schema.get("required", [])}
        out += [dict(zip(props, combo)) for combo in product(*(_values(p) for p in props.values()))]
    return out


def excluded(game: engine.Game, spec: engine.CommandSpec) -> list[dict]:
    """For each narrowed field of each branch, an otherwise allowed object with that field just outside."""
    zones = sorted(int(sz) for sz in game.state.map.sea_zones)
    lands = sorted(game.state.map.land_territories)
    out = []
    for branch in spec.schema.get("oneOf", [{}]):
        props = _props(spec.schema, branch)
        base = {k: _values(p)[0] for k, p in props.items() if k in spec.schema.get("required", [])}
        for k, p in props.items():
            if k not in base or "const" in p:
                continue
            if "maximum" in p:
                out.append(base | {k: p["maximum"] + 1})
            if "enum" in p:
                pool = zones if p.get("type") == "integer" else lands if k == "territory" else list(TURN_ORDER)
                outside = [x for x in pool if x not in p["enum"]]
                if outside:
                    out.append(base | {k: outside[len(outside) // 2]})
    return out


def refused(game: engine.Game, seat: str, payload: dict) -> bool:
    try:
        engine.decide_command(game, seat, engine.parse_command(RULESET, payload), SEED)
    except engine.Rejected:
        return True
    return False


def ends(controls: list[dict]) -> tuple[list[dict], list[dict]]:
    """What a descriptor's controls offer at their ends (each option at the ends of its list, each number at its
    minimum and maximum, each variant) and, for each number, an otherwise offered object one past its maximum."""
    offered, past = [{}], []
    for control in controls:
        if control["kind"] == "variants":
            parts = [(v["fixed"], *ends(v.get("controls", []))) for v in control["variants"]]
            first = parts[0][0] | parts[0][1][0]
            past = [p | first for p in past]
            past += [x | fixed | p for x in offered[:1] for fixed, _, ps in parts for p in ps]
            offered = [x | fixed | o for x in offered for fixed, os, _ in parts for o in os]
        elif control["kind"] == "select":
            values = [o["value"] for o in control["options"]]
            offered = [x | {control["field"]: v} for x in offered for v in {values[0], values[-1]}]
            past = [p | {control["field"]: values[0]} for p in past]
        elif control["kind"] == "number":
            f, lo, hi = control["field"], control["min"], control["max"]
            past = [p | {f: lo} for p in past] + [x | {f: hi + 1} for x in offered[:1]]
            offered = [x | {f: n} for x in offered for n in {lo, hi}]
        else:
            raise AssertionError(f"aa1942-convoy offers no {control['kind']}")
    return offered, past


def check_awaiting(game: engine.Game, seen: set) -> None:
    for spec in engine.awaiting(game):
        seen.add((spec.type, spec.choices is None))
        assert spec.description, spec.type
        assert (spec.ui is None) == (spec.choices is not None), spec.type  # a descriptor exactly where none are listed
        if spec.ui is not None:
            offered, past = ends(msgspec.to_builtins(spec.ui)["controls"])
            for args in offered:
                assert not refused(game, spec.seats[0], {"type": spec.type, **args}), (spec.type, args, "offered")
            for args in past:
                assert refused(game, spec.seats[0], {"type": spec.type, **args}), (spec.type, args, "past the max")
        schema = jsonschema_rs.validator_for(spec.schema)
        seat = spec.seats[0]
        if spec.choices is not None:
            assert spec.labels is not None and len(spec.labels) == len(spec.choices) and all(spec.labels)
            assert len(set(spec.labels)) == len(spec.labels), spec.labels
            for choice in spec.choices:
                assert schema.is_valid(choice), (spec.type, choice)
        for args in allowed(spec):
            assert schema.is_valid(args), (spec.type, args)
            assert not refused(game, seat, {"type": spec.type, **args}), (spec.type, args, "allowed but refused")
        for args in excluded(game, spec):
            assert not schema.is_valid(args), (spec.type, args, "outside the schema")
            assert refused(game, seat, {"type": spec.type, **args}), (spec.type, args, "excluded but legal")


@pytest.mark.slow  # bot campaigns: `make test`, not `make quick`
def test_awaiting_schemas_allow_exactly_what_the_rules_allow_over_bot_games():
    seen: set = set()
    for i, options in enumerate([{}, {"setup": "empty", "submarines": {"Germany": {"5": 3, "17": 2, "19": 1}}}]):
        walk(new_game(f"awaiting-{i}", options), seed_for(9, i), lambda g, _sheet: check_awaiting(g, seen), every=2)
    listed = {t for t, too_many in seen if not too_many}
    narrowed = {t for t, too_many in seen if too_many}
    commands = {c.__struct_config__.tag for c in RULESET.command_types}
    assert listed | narrowed == commands
    assert {"purchase", "place_submarines"} <= narrowed  # too many to list: the schema alone says what is legal


def test_purchase_schema_maximum_is_what_may_be_spent_now():
    game = new_game("spend", {})
    (spec,) = engine.awaiting(game)[:1]
    top = game.state.treasury["USSR"]
    assert spec.schema["properties"]["spend"] == {"type": "integer", "minimum": 0, "maximum": top}
    assert spec.labels[0] == "Spend nothing" and spec.labels[1] == "Spend 1 IPC" and spec.labels[12] == "Spend 12 IPCs"
    assert refused(game, "USSR", {"type": "purchase", "spend": top + 1})
    assert not refused(game, "USSR", {"type": "purchase", "spend": top})


def test_move_schema_offers_each_origin_only_the_zones_it_reaches():
    game = new_game("moves", {"setup": "empty", "submarines": {"Germany": {"17": 1, "5": 2}}})
    while (game.state.power, game.state.phase) != ("Germany", "combat-move"):
        payload = {"type": "purchase", "spend": 0} if game.state.phase == "purchase" else {"type": "end_phase"}
        for e in engine.decide_command(game, game.state.power, engine.parse_command(RULESET, payload), SEED):
            engine.evolve(game, e)
    (spec,) = [s for s in engine.awaiting(game) if s.type == "move_submarines"]
    branches = {b["properties"]["from_sz"]["const"]: b["properties"] for b in spec.schema["oneOf"]}
    assert sorted(branches) == [5, 17] and branches[5]["count"]["maximum"] == 2
    assert 34 not in branches[17]["to_sz"]["enum"] and 15 in branches[17]["to_sz"]["enum"]  # Suez closed to Axis
    assert "Move 1 submarine from sea zone 17 to sea zone 15" in spec.labels


def test_a_zone_of_more_submarines_than_one_command_carries_offers_counts_up_to_that_limit():
    """A zone may hold more than 99 submarines (the setup's 2 and 99 more), but a command's `count` is at most 99:
    the schemas and choices offer no count the command type refuses."""
    game = new_game("many", {"setup": "1942.2", "submarines": {"Germany": {"5": 99}}})
    assert game.state.subs["Germany"][5] == 101
    while (game.state.power, game.state.phase) != ("Germany", "combat-move"):
        payload = {"type": "purchase", "spend": 0} if game.state.phase == "purchase" else {"type": "end_phase"}
        for e in engine.decide_command(game, game.state.power, engine.parse_command(RULESET, payload), SEED):
            engine.evolve(game, e)
    assert not refused(game, "Germany", {"type": "move_submarines", "from_sz": 5, "to_sz": 6, "count": 99})
    checked = []
    for _ in range(2):  # combat move (move_submarines), then combat (fight, lose_submarines)
        for spec in engine.awaiting(game):
            if spec.type in ("move_submarines", "fight", "lose_submarines"):
                assert spec.schema["properties"]["count"]["maximum"] == 99, spec.type
                assert all(b["properties"]["count"]["maximum"] <= 99 for b in spec.schema["oneOf"])
                assert all(x["count"] <= 99 for x in spec.choices or [])
                checked.append(spec.type)
        end = engine.parse_command(RULESET, {"type": "end_phase"})
        for e in engine.decide_command(game, "Germany", end, SEED):
            engine.evolve(game, e)
    assert sorted(checked) == ["fight", "lose_submarines", "move_submarines"]


def test_the_map_view_gives_a_frontend_the_adjacency_and_the_canals():
    board = VIEWS["map"].render(new_game("map", {}).state, None)
    adjacency = {z.sz: set(z.adjacent_sea_zones) for z in board.sea_zones}
    assert all(a in adjacency[b] for a, near in adjacency.items() for b in near)  # both ways
    assert {(c.name, tuple(c.sea_zones)) for c in board.canals} == {
        ("Suez Canal", (17, 34)),
        ("Panama Canal", (18, 19)),
    }
    assert [c.open_this_turn for c in board.canals] == [True, True]  # the USSR's turn: the Allies hold both
    assert RULESETS["aa1942-convoy"].ruleset.views["map"].model is type(board)


def test_awaiting_counts_a_fleets_choices_as_the_rules_list_them():
    """awaiting lists the fight and loss choices only up to 64 (else the narrowed schema): the number it counts for a
    fleet of n submarines is how many counts the rules offer for it (submarines.counts: 1..min(n, 99))."""
    from domain.aa1942_convoy.awaiting import _counted
    from domain.aa1942_convoy.rules.submarines import counts

    for n in range(1, 250):
        assert _counted([n]) == len(counts(n))
    assert _counted([3, 120, 1]) == len(counts(3)) + len(counts(120)) + len(counts(1))
