"""One conformance suite over every ruleset and every edition it runs (the test-only ones included: tests/drivers.py
`TEST_RULESETS`).

For each: bot games to the end through the service; at every step `decide` leaves the state it was given alone
(asked dry first, then sent for real), every offered choice of what is awaited is accepted by the rules, the rolls
are gapless and every view validates against its model for every reader; at the end the bundle verifies in full
(chain, dice, seals, replay). Per-ruleset test files keep only their own invariants.
"""

from __future__ import annotations

import hashlib
import pickle

import msgspec
import pytest

import events.core
from domain import engine
from domain.engine import REFEREE, IllegalCommand
from events.store import SQLiteStore
from events.vocabulary import Event
from service.bots import bot_choose
from service.games import GameService
from service.replay import verify
from service.snapshots import take_snapshot
from tests.drivers import SHORT, served

CHOICES_CHECKED = 12  # per awaited command and step: enough to catch an offer the rules refuse


SERVED = served()  # every served ruleset and the test-only ones, handed to the service


def cases():
    return [(rid, e) for rid in sorted(SERVED) for e in SERVED[rid].ruleset.editions.run]


def _state_of(game) -> bytes:
    """The game as a snapshot would save it, without the seed it caches (a cache of the engine, not state)."""
    cached, game.seed_cache = game.seed_cache, None
    try:
        return take_snapshot(game)
    finally:
        game.seed_cache = cached


def _views_validate(ruleset, game, svc: GameService) -> None:
    for name, view in ruleset.views.items():
        for reader in (None, REFEREE, *game.seats):
            out = engine.render(view, game.state, reader, lambda: svc.cache.history(game.game_id, game.version))
            if view.model is not None:
                msgspec.convert(msgspec.to_builtins(out), view.model)


def _core_events(ruleset) -> set[type]:
    """The core's events an evolve may see: all but the genesis (it starts the state, it is never folded), and the
    sealed submissions only where the ruleset has sealed commands."""
    core = {
        cls
        for cls in vars(events.core).values()
        if isinstance(cls, type) and issubclass(cls, Event) and cls.__module__ == "events.core"
    } - {events.core.GameCreated}
    if not ruleset.sealed_commands:
        core -= {events.core.SubmissionSealed, events.core.SubmissionsRevealed}
    return core


@pytest.mark.parametrize("ruleset_id", sorted(SERVED))
def test_evolve_is_total_a_handler_or_a_named_no_op_for_every_event_and_an_error_for_any_other(ruleset_id):
    """Evolve is the fold (domain/procedure.py) and total over the ruleset's events and the core's: each has a handler
    or is named a no-op, so a new event fails here rather than in a game; an event it does not know is an error,
    never skipped in silence; and it pickles by reference, as a snapshot needs."""
    loaded = SERVED[ruleset_id]
    evolve = loaded.ruleset.evolve
    assert set(loaded.ruleset.event_types) | _core_events(loaded.ruleset) <= set(evolve.handlers) | set(evolve.no_change)
    assert pickle.loads(pickle.dumps(evolve)) is evolve
    created = engine.creation_events(loaded.ruleset, loaded.data, loaded.data_sha256, "g", {}, None, "fair", bytes(32))
    game = engine.start(loaded.ruleset, loaded.data, loaded.data_sha256, "g", created[0])

    class Unknown(msgspec.Struct):
        pass

    with pytest.raises(TypeError, match="no handler for Unknown"):
        evolve(game.state, Unknown())


@pytest.mark.parametrize("ruleset_id, edition", cases())
def test_a_bot_game_of_every_edition_conforms(tmp_path, ruleset_id, edition):
    """Each case plays the same game every run (its dice, and so its bots' picks), so a failure reproduces: the game
    seed hashes the server seed and the game id (domain/dice.py `game_seed`), both fixed per case here (the API
    would make a fresh id)."""
    svc = GameService(SQLiteStore(str(tmp_path / "c.db")), rulesets=SERVED)
    seed = hashlib.sha256(f"{ruleset_id}/{edition}".encode()).hexdigest()
    options = SHORT.get(ruleset_id, {})
    gid = f"g-{ruleset_id}-{edition}"
    made = svc.creation.create(ruleset_id, options, None, "public-seed", seed, None, None, game_id=gid, edition=edition)
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    ruleset = SERVED[ruleset_id].ruleset
    server_seed = bytes.fromhex(seed)
    assert svc.reads.summary(gid)["result"] is None  # while the game runs
    for step in range(5000):
        game = svc.cache.cached(gid).game
        assert game.state.edition.version == edition
        owed = [(s, [x for x in engine.awaiting(game, s) if s in x.seats and x.type != "concede"]) for s in game.seats]
        owed = [(s, legal) for s, legal in owed if legal]
        if not owed:
            break
        seat, legal = owed[0]
        before = _state_of(game)
        for spec in legal:  # every offer is one the rules take (asked dry: nothing is sent)
            if spec.choices is not None:  # issue 20: listed choices carry their button labels, one string each
                assert spec.labels is not None and len(spec.labels) == len(spec.choices), (step, spec.type)
                assert all(isinstance(x, str) and x for x in spec.labels), (step, spec.type, spec.labels)
            for choice in (spec.choices or [])[:CHOICES_CHECKED]:
                command = engine.parse_command(ruleset, {"type": spec.type, **choice})
                try:
                    engine.decide_command(game, seat, command, server_seed)
                except IllegalCommand as e:
                    pytest.fail(f"step {step}: {seat} was offered {spec.type} {choice}, refused: {e.detail}")
        payload = bot_choose(ruleset, game.state, legal, seat)
        engine.decide_command(game, seat, engine.parse_command(ruleset, payload), server_seed)
        assert _state_of(game) == before, f"step {step}: decide changed the state it was given"
        svc.command(gid, tokens[seat], payload)
        if step % 25 == 0:
            _views_validate(ruleset, svc.cache.cached(gid).game, svc)
    else:
        pytest.fail("the game did not end within 5000 commands")
    _views_validate(ruleset, svc.cache.cached(gid).game, svc)
    if ruleset.outcomes is not None:  # the summary says how it came out: every figure, a category by its label
        final = svc.cache.cached(gid).game.state
        labels = ruleset.categories(final) if ruleset.categories is not None else {}
        result = svc.reads.summary(gid)["result"]
        assert result is not None and set(result) == set(ruleset.outcomes(final))
        assert all(result[name] == labels[name][v] for name, v in ruleset.outcomes(final).items() if name in labels)
    svc.reveal(gid, made["referee_token"])
    bundle = svc.bundles.bundle(gid)
    ks = [e["body"]["data"]["k"] for e in bundle["events"] if e["body"]["type"] == "DiceRolled"]
    assert ks == list(range(len(ks)))
    report = verify(msgspec.json.encode(bundle), rulesets=SERVED)
    assert report["verdict"] == "verified", report["checks"]


@pytest.mark.parametrize("ruleset_id", sorted(SERVED))
def test_the_desk_serves_each_rulesets_data_set_or_says_it_has_none(ruleset_id):
    """GET /desk/data/<id>.json: the exact bytes of the default set a new game pins, or, for a ruleset with no data
    set (`data_file = ""`, as sealed-bid), a 404 problem saying so (not a 500 from reading the package's folder)."""
    from fastapi.testclient import TestClient

    from service.app import create_app

    loaded = SERVED[ruleset_id]
    with TestClient(create_app(service=GameService(SQLiteStore(":memory:"), rulesets=SERVED))) as client:
        r = client.get(f"/desk/data/{ruleset_id}.json")
    if loaded.ruleset.data_file:
        assert r.status_code == 200 and hashlib.sha256(r.content).hexdigest() == loaded.data_sha256
    else:
        assert r.status_code == 404 and r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["code"] == "no-data-set" and "has no data set" in r.json()["detail"]


@pytest.mark.parametrize("ruleset_id", sorted(SERVED))
def test_a_new_game_with_seats_of_other_names_is_refused_or_awaited_from_them(ruleset_id):
    """A cold review: a uboat-leader game made with the seat 'nemo' awaited 'commander', a seat it did not have, so no
    command could ever be sent. Every ruleset's new game either refuses seats named otherwise than its defaults or
    awaits its first decision from the seats it was given."""
    loaded = SERVED[ruleset_id]
    svc = GameService(SQLiteStore(":memory:"), rulesets=SERVED)
    defaults = loaded.ruleset.default_seats(engine.new_game_options(loaded.ruleset, SHORT.get(ruleset_id, {})))
    others = [f"player-{i}" for i in range(len(defaults))]
    try:
        g = svc.creation.create(ruleset_id, SHORT.get(ruleset_id, {}), others, "fair", None, None, None)
    except engine.InvalidInput as e:
        assert e.code == "invalid-seats", e.detail
        return
    with svc.cache.game(g["game_id"]) as c:
        awaited = set(engine.awaited_seats(c.game))
    assert awaited and awaited <= set(others), awaited


@pytest.mark.parametrize("ruleset_id", sorted(SERVED))
def test_a_game_the_referee_ends_says_how_it_came_out_and_nothing_not_over(ruleset_id):
    """A cold review: a battle the referee ended read `winner: not over` in the summary's result of a game over. A
    category the rules never decided reads `undecided`."""
    loaded = SERVED[ruleset_id]
    svc = GameService(SQLiteStore(":memory:"), rulesets=SERVED)
    g = svc.creation.create(ruleset_id, SHORT.get(ruleset_id, {}), None, "fair", None, None, None)
    svc.end(g["game_id"], g["referee_token"])
    result = svc.reads.summary(g["game_id"])["result"]
    if loaded.ruleset.outcomes is None:
        assert result is None
        return
    assert result is not None and set(result) == set(loaded.ruleset.outcomes(svc.cache.cached(g["game_id"]).game.state))
    assert "not over" not in result.values()
