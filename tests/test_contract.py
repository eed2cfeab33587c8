"""The typed contract, for every ruleset (issue #8 item 1): every view renders exactly its model (no field the schema
does not declare), every event's data is exactly its Struct, every `awaiting` entry has a description and a label per
choice. Checked along every golden bundle in replays/, as each reader sees it."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from domain import engine
from domain.engine import REFEREE
from events.bodies import event_from_body
from events.bundle import decode_bundle
from events.vocabulary import decode_event
from service.replay import fold_bundle
from service.rulesets import RULESETS
from tests.drivers import served

SERVED = served()  # every served ruleset and the test-only ones
BUNDLES = sorted((Path(__file__).resolve().parent.parent / "replays").glob("*.json"))


@pytest.mark.parametrize("ruleset", sorted(SERVED))
def test_every_view_model_refuses_undeclared_fields(ruleset):
    for name, view in SERVED[ruleset].ruleset.views.items():
        assert view.model is not None, f"{ruleset}/{name} has no model"
        assert view.model.__struct_config__.forbid_unknown_fields, f"{ruleset}/{name}"


def folded(b, upto: int) -> list:
    """The events `fold_bundle(b, upto)` folds into the state: a view's history is folded from the same."""
    return [event_from_body(e.body) for e in b.events[1:upto]]


@pytest.mark.parametrize("path", BUNDLES, ids=[p.stem for p in BUNDLES])
def test_views_events_and_awaiting_match_their_schemas_along_a_real_game(path):
    b = decode_bundle(path.read_bytes())
    ruleset = RULESETS[b.ruleset.id].ruleset
    for e in b.events:  # each event's data is exactly its Struct (unknown fields refused)
        decode_event(e.body["type"], e.body["v"], e.body["data"])
    game = fold_bundle(b, upto=1)
    readers = [None, REFEREE, *game.seats]
    step = max(1, len(b.events) // 12)
    for at in range(1, len(b.events) + 1, step):
        game = fold_bundle(b, upto=at)
        for reader in readers:
            for name, view in ruleset.views.items():
                out = engine.render(view, game.state, reader, lambda: ruleset.history.fold(folded(b, at)))
                rendered = msgspec.to_builtins(out)
                msgspec.convert(rendered, view.model)  # raises on a field the model does not declare
            for spec in engine.awaiting(game, reader):
                assert spec.description, (path.name, at, spec.type)
                if spec.choices is not None:
                    assert spec.labels is not None and len(spec.labels) == len(spec.choices), (path.name, at, spec.type)
