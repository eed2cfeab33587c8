"""Every decision by click (issue 30): in games of every ruleset and edition, every `awaiting` entry can be drawn from
itself alone (listed `choices`, or a `ui` descriptor of the typed vocabulary, or both), and a generic clicker
(tests/clicker.py) that builds commands only from the entries, picking at random among what they offer, plays each
game to its end. A descriptor-built command the rules refuse fails the test unless its rule is in CANNOT_SAY: the
few rules the vocabulary cannot express, each with its id and why (the list may shrink, never grow)."""

from __future__ import annotations

import hashlib
import json
import random

import msgspec
import pytest

from domain import engine
from domain.decisions import FORMS, KINDS, Ui
from domain.engine import IllegalCommand
from events.store import SQLiteStore
from service.games import GameService
from service.openapi_dump import document
from tests.clicker import click, kinds
from tests.drivers import SHORT, served

SERVED = served()  # every served ruleset and the test-only ones

# (ruleset, command, a phrase of the refusal) -> why the vocabulary cannot say it. Keep it short.
CANNOT_SAY: dict[tuple[str, str, str], str] = {}  # BF-R5's larger turns were the last: `move` says them (turns_need)
MAX_CANNOT_SAY = 0  # the list may shrink, never grow

GAMES = 2  # clicked games per ruleset and edition


def cases():
    return [(rid, e) for rid in sorted(SERVED) for e in SERVED[rid].ruleset.editions.run]


def _said(entry: dict) -> None:
    """An entry a UI can draw: non-empty choices with a label each, or a typed descriptor (or both)."""
    assert entry["choices"] or entry["ui"] is not None or entry["default"] is not None, entry["type"]
    assert entry["choices"] or entry["ui"] is not None, f"{entry['type']}: schema only (no choices, no ui)"
    if entry["choices"]:
        assert entry["labels"] and len(entry["labels"]) == len(entry["choices"]), entry["type"]
    if entry["ui"] is not None:
        msgspec.convert(entry["ui"], Ui)  # of the vocabulary, as the OpenAPI document types it


def _cannot_say(ruleset_id: str, kind: str, detail: str) -> bool:
    return any(r == ruleset_id and k == kind and phrase in detail for (r, k, phrase) in CANNOT_SAY)


def test_the_list_of_rules_the_vocabulary_cannot_say_does_not_grow():
    assert len(CANNOT_SAY) <= MAX_CANNOT_SAY
    assert all(why for why in CANNOT_SAY.values())


@pytest.mark.parametrize("ruleset_id, edition", cases())
def test_a_clicker_plays_every_ruleset_to_its_end_from_the_entries_alone(tmp_path, ruleset_id, edition, options=None):
    """`options`: another setup than SHORT's (a ruleset's other mode, clicked by its own test below)."""
    used: set[str] = set()
    offered: set[str] = set()  # every descriptor kind of the entries the clicker chose: each must have been clicked
    for g in range(GAMES):
        svc = GameService(SQLiteStore(str(tmp_path / f"d{g}.db")), rulesets=SERVED)
        mode = "" if options is None else "/" + json.dumps(options, sort_keys=True)
        seed = hashlib.sha256(f"click/{ruleset_id}/{edition}/{g}{mode}".encode()).hexdigest()
        made = svc.creation.create(
            ruleset_id,
            SHORT.get(ruleset_id, {}) if options is None else options,
            None,
            "public-seed",
            seed,
            None,
            None,
            game_id=f"click-{seed[:16]}",  # the dice follow the game id too: a fresh one made each run another game
            edition=edition,
        )
        gid, tokens = made["game_id"], {s["seat"]: s["token"] for s in made["seats"]}
        rng = random.Random(seed)
        for step in range(6000):
            game = svc.cache.cached(gid).game
            owed = []
            for seat in game.seats:
                entries = [msgspec.to_builtins(engine.entry(x)) for x in engine.awaiting(game, seat)]
                for entry in entries:
                    _said(entry)
                mine = [e for e in entries if seat in e["seats"] and e["type"] != "concede"]
                if mine:
                    owed.append((seat, mine))
            if not owed:
                break
            seat, mine = rng.choice(owed)
            entry = rng.choice(mine)
            offered |= kinds(entry["ui"])  # a game may end before an entry it did not choose comes back
            args = click(entry, rng, used)
            try:
                svc.command(gid, tokens[seat], {"type": entry["type"], **args})
            except IllegalCommand as e:
                if not _cannot_say(ruleset_id, entry["type"], e.detail):
                    pytest.fail(f"game {g} step {step}: {seat} built {entry['type']} {args} from its entry; refused: "
                                f"{e.detail}")
                fallback = entry["choices"][0] if entry["choices"] else entry["default"]
                svc.command(gid, tokens[seat], {"type": entry["type"], **fallback})
        else:
            pytest.fail(f"game {g} did not end within 6000 clicks")
    assert offered <= used, f"descriptor kinds offered but never clicked: {sorted(offered - used)}"


@pytest.mark.parametrize("edition", SERVED["corvette-command"].ruleset.editions.run)
def test_a_clicker_plays_corvette_command_quick_play_to_its_end(tmp_path, edition):
    """CC-45: quick play's setup (the six dice allocated) is clicked too, not only the campaign's."""
    quick = {"quick_play": {"direction": "east"}}
    test_a_clicker_plays_every_ruleset_to_its_end_from_the_entries_alone(tmp_path, "corvette-command", edition, quick)



def test_every_kind_of_the_vocabulary_is_in_the_openapi_document():
    schemas = json.loads(document())["components"]["schemas"]
    for kind in (*KINDS, *FORMS):
        assert any(
            s.get("properties", {}).get("kind", {}).get("enum") == [kind] for s in schemas.values()
        ), kind
