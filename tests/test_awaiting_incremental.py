"""The incremental `awaiting` (domain/entries.py keeps an entry while what it reads is unchanged; each entry keeps its
encoded bytes, engine.answered, which service/cache.py splices into the answer) answers byte for byte what a
recomputation from scratch answers, after every command of bot games of every ruleset, for the referee and each seat."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import msgspec
import pytest

from domain import engine, entries
from domain.decisions import without_descriptors
from domain.engine import REFEREE
from events.store import SQLiteStore
from service.bots import bot_choose
from service.games import GameService
from service.http import Encoded, _encode

# (ruleset, options): whole games, each ended by its rules within MOST commands (90 to 130 with these seeds)
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("aa1942-convoy", {"rounds": 2}),
    ("aa1942-convoy", {"rounds": 3, "submarines": {"Germany": {"3": 5, "7": 4}, "Japan": {"10": 2}}}),
    # fleets too big to list (more than 64 choices): `fight` and `lose_submarines` as per-zone variants, as a raid
    # answers them in the benchmark (each raid changes one zone's variant)
    ("aa1942-convoy", {"rounds": 1, "submarines": {"Germany": {"3": 40, "7": 30, "8": 25}, "UK": {"7": 20}}}),
    ("corvette-command", {"convoys": 1}),
    ("uboat-leader", {}),
    ("battlefleet-1900", {}),
]
MOST = 1000


def spliced(answer: Encoded) -> bytes:
    """The JSON an answer's `awaiting` is made of: its entries' kept JSON (msgspec.Raw, joined as bytes)."""
    return b"[" + b",".join(answer.parts) + b"]"


def recomputed(game: engine.Game, reader: engine.Reader) -> bytes:
    """`awaiting` as `reader` reads it, every entry built and encoded from scratch."""
    assert game.ruleset is not None
    with entries.recomputed():
        specs = game.ruleset.legal_commands(game.state) if not game.over else []
    return msgspec.json.encode([engine.entry(s) for s in engine.awaiting(game, reader, specs)])


@pytest.mark.parametrize(("ruleset", "options"), GAMES, ids=[f"{g[0]}-{i}" for i, g in enumerate(GAMES)])
def test_incremental_awaiting_answers_the_bytes_of_a_full_recomputation_after_every_command(
    tmp_path, monkeypatch, ruleset: str, options: dict[str, Any]
) -> None:
    patched = _counting_patches(monkeypatch)  # entries brought up to date with a raid rather than built again
    svc = GameService(SQLiteStore(str(tmp_path / "g.db")))
    made = svc.creation.create(ruleset, options, None, "public-seed", "35" * 32, None, None, game_id="g-inc")
    gid, tokens = made["game_id"], {s["seat"]: s["token"] for s in made["seats"]}
    rules = svc.rulesets[ruleset].ruleset
    commands = {engine.tag(c): c for c in rules.command_types}
    # entries answered at a later version as the very CommandSpec and bytes of an earlier one (kept), and entries
    # whose bytes changed from one answer to the next
    kept = changed = 0
    # every entry answered (held: no id names another)
    answered: dict[int, tuple[engine.CommandSpec, msgspec.Raw, int]] = {}
    before: dict[tuple[engine.Reader, str], msgspec.Raw] = {}
    types: Counter[str] = Counter()
    redescribed: Counter[str] = Counter()  # entries with a `ui` descriptor whose bytes changed, by type
    for _ in range(MOST):
        with svc.cache.game(gid) as c:
            game = c.game
            at = game.version
            for reader in [REFEREE, *game.seats]:
                answer = c.awaiting(reader)
                assert spliced(answer) == recomputed(game, reader), f"{reader} at version {game.version}"
                assert _encode({"awaiting": answer}) == msgspec.json.encode({"awaiting": list(answer)})
                for spec in engine.awaiting(game, reader):
                    now = engine.answered(spec)[1]
                    earlier = answered.get(id(spec))
                    if earlier is not None and earlier[0] is spec and earlier[1] is now:
                        kept += earlier[2] < at
                    else:
                        answered[id(spec)] = (spec, now, at)
                    moved = before.get((reader, spec.type), now) != now
                    changed += moved
                    if moved and spec.ui is not None:
                        redescribed[spec.type] += 1
                    before[(reader, spec.type)] = now
                    types[spec.type] += 1
                    # each builder copies its command type's mark (docs/api.md "Entries that end the game")
                    assert spec.ends_game is engine.ends_game_of(commands[spec.type]), spec.type
                    assert spec.always_open is engine.always_open_of(commands[spec.type]), spec.type
            if not game.over:  # a bot's entries (no descriptors), kept and patched apart from a reader's, alike
                with without_descriptors():
                    for_bots = game.ruleset.legal_commands(game.state)
                    with entries.recomputed():
                        assert for_bots == game.ruleset.legal_commands(game.state), f"bots at version {at}"
            turn = next(
                ((s, m) for s in engine.awaited_seats(game) if (m := [x for x in engine.awaiting(game, s) if s in x.seats])),
                None,
            )
            if turn is None:
                break
            seat, mine = turn
            payload = bot_choose(rules, game.state, mine, seat)
        if payload is None:
            break
        answer = svc.command(gid, tokens[seat], payload)
        assert spliced(answer["awaiting"]) == recomputed(svc.cache.cached(gid).game, seat)
    assert svc.cache.cached(gid).game.over, f"{ruleset}: the bot game did not end within {MOST} commands"
    # the comparison proves something only where entries were both kept and rebuilt with new bytes
    assert kept > 0, f"{ruleset}: no entry was ever answered from the bytes kept"
    assert changed > 0, f"{ruleset}: no entry's bytes ever changed: {types}"
    if ruleset == "aa1942-convoy" and options["rounds"] == 1:  # the per-zone variants, rebuilt raid after raid
        assert redescribed["fight"] > 5, redescribed
        assert redescribed["lose_submarines"] > 5, redescribed
        assert patched["fight_spec"] > 0 and patched["lose_spec"] > 0, patched  # the bot raids now and then


def _counting_patches(monkeypatch) -> Counter[str]:
    """How often each aa1942 entry that follows raids (awaiting.READS, entries.Patch) answered a patched entry."""
    from domain.aa1942_convoy import awaiting as aa

    patched: Counter[str] = Counter()
    for build, reads in list(aa.READS.items()):
        if reads.patch is not None:

            def counting(spec: Any, state: Any, events: tuple, apply: Any = reads.patch.apply, name: str = build.__name__):
                out = apply(spec, state, events)
                if out is not None and out is not spec:
                    patched[name] += 1
                return out

            monkeypatch.setitem(aa.READS, build, reads._replace(patch=reads.patch._replace(apply=counting)))
    return patched


def _counting_shells(monkeypatch) -> Counter[str]:
    """How often a patched aa1942 entry was answered with its parts swapped into its shell (`_same_shell`), by type."""
    from domain.aa1942_convoy import awaiting as aa

    shells: Counter[str] = Counter()
    same_shell = aa._same_shell

    def counting(spec: Any, parts: Any) -> Any:
        out = same_shell(spec, parts)
        shells[spec.type] += out is not None
        return out

    monkeypatch.setattr(aa, "_same_shell", counting)
    return shells


@pytest.mark.parametrize("edition", ["3.0.0", None])
def test_aa1942_raids_folded_before_an_answer_patch_each_raided_zone(monkeypatch, edition: str | None) -> None:
    """The `fight` and `lose_submarines` entries follow raids (entries.Patch): several raids folded before the next
    answer, one emptying its zone's raiders (that zone leaves `fight`; its fleet leaves `lose_submarines` from 4.0.0,
    AA-E4-1), answer what a recomputation answers; 3.0.0's loss entry is the same through raids (any power's
    submarines, all of them)."""
    from domain.aa1942_convoy.commands import EndPhase, Purchase, Raid
    from service import simulate

    options = {"submarines": {"Germany": {"3": 40, "7": 30, "8": 1}, "UK": {"7": 20}}}
    game = simulate.new_game("aa1942-convoy", options, b"seed", "patched", edition=edition)
    seed = b"seed"
    for seat, command in [("USSR", Purchase(spend=0))] + [("USSR", EndPhase())] * 4 + [
        ("Germany", Purchase(spend=0)),
        ("Germany", EndPhase()),
    ]:
        engine.decide_in_place(game, seat, command, seed)
    assert game.state.phase == "combat" and game.state.power == "Germany"

    def answers() -> list[bytes]:
        return [engine.answered(s)[1] for s in engine.awaiting(game, "Germany")]

    def from_scratch() -> list[bytes]:
        with entries.recomputed():
            specs = game.ruleset.legal_commands(game.state)
        return [msgspec.json.encode(engine.entry(s)) for s in engine.awaiting(game, "Germany", specs)]

    patched = _counting_patches(monkeypatch)
    shells = _counting_shells(monkeypatch)
    before = {e.type: e for e in engine.awaiting(game, "Germany")}
    assert {"fight", "lose_submarines"} <= set(before)
    for sz in (3, 7, 3):  # three raids folded before the next answer, two of them in one zone
        engine.decide_in_place(game, "Germany", Raid(sz=sz), seed)
    assert [bytes(b) for b in answers()] == from_scratch()
    assert patched == ({"fight_spec": 1} if edition == "3.0.0" else {"fight_spec": 1, "lose_spec": 1})
    after = {e.type: e for e in engine.awaiting(game, "Germany")}
    if edition == "3.0.0":
        assert after["lose_submarines"] is before["lose_submarines"]

    patched.clear()
    for sz in (7, 7):  # SZ 3 keeps the largest count (the bound of `count`): each entry's parts swapped into its shell
        engine.decide_in_place(game, "Germany", Raid(sz=sz), seed)
    assert [bytes(b) for b in answers()] == from_scratch()
    assert patched == ({"fight_spec": 1} if edition == "3.0.0" else {"fight_spec": 1, "lose_spec": 1})
    assert shells == ({"fight": 1} if edition == "3.0.0" else {"fight": 1, "lose_submarines": 1})

    patched.clear()
    engine.decide_in_place(game, "Germany", Raid(sz=8), seed)  # SZ 8's one submarine: none left there to fight
    assert [bytes(b) for b in answers()] == from_scratch()
    fighting = [v.fixed["sz"] for v in engine.awaiting(game, "Germany")[1].ui.controls[0].variants]
    assert 8 not in fighting and {3, 7} <= set(fighting), fighting
    assert "fight_spec" not in patched  # its zone left the entry: built again
    assert "lose_spec" not in patched  # from 4.0.0 its fleet leaves the loss entry (AA-E4-1); 3.0.0: unchanged


@pytest.mark.parametrize("sz", [3, 7])
def test_aa1942_a_raid_that_brings_the_fight_entry_to_64_choices_lists_them(sz: int) -> None:
    """A patched per-zone entry whose choices fall to MAX_CHOICES (64) is answered with them listed, as a build
    answers it: 65 submarines in four zones make 65 choices, one raid leaves 64; in the largest zone (the bound of
    `count` changes too) or another (it does not)."""
    from domain.aa1942_convoy.awaiting import MAX_CHOICES
    from domain.aa1942_convoy.commands import EndPhase, Purchase, Raid
    from service import simulate

    options = {"submarines": {"Germany": {"3": 40, "7": 21}}}  # and the setup's 2 in SZ 5 and 2 in SZ 9
    game = simulate.new_game("aa1942-convoy", options, b"seed", "listed")
    for seat, command in [("USSR", Purchase(spend=0))] + [("USSR", EndPhase())] * 4 + [
        ("Germany", Purchase(spend=0)),
        ("Germany", EndPhase()),
    ]:
        engine.decide_in_place(game, seat, command, b"seed")
    fight = next(s for s in engine.awaiting(game, "Germany") if s.type == "fight")
    assert fight.choices is None and sum(game.state.zones_that_may_raid().values()) == MAX_CHOICES + 1
    engine.decide_in_place(game, "Germany", Raid(sz=sz), b"seed")
    fight = next(s for s in engine.awaiting(game, "Germany") if s.type == "fight")
    assert fight.choices is not None and len(fight.choices) == MAX_CHOICES
    with entries.recomputed():
        built = next(s for s in game.ruleset.legal_commands(game.state) if s.type == "fight")
    assert bytes(engine.answered(fight)[1]) == msgspec.json.encode(engine.entry(built))


def test_aa1942_kept_entries_declare_every_field_their_builders_read_and_events_every_field_they_write(monkeypatch):
    """A state keeps an aa1942 entry across the events that write none of the fields its builder reads
    (awaiting.READS, evolve.WRITES, domain/procedure.py `Fold`): at every event of bot games (every phase, the
    per-zone variants of big fleets among them), each builder of the phase, built from scratch, reads only fields
    it declares, and each event's handler writes only fields its type declares."""
    from domain.aa1942_convoy import awaiting as aa
    from domain.aa1942_convoy.evolve import WRITES
    from domain.aa1942_convoy.state import State
    from domain.procedure import working_copy
    from service import simulate
    from service.simulate import seed_for
    from tests import test_aa1942_properties as aa1942_bot_games

    fields = [f.name for f in dataclasses.fields(State)]
    declared_reads = {build: reads.fields for build, reads in aa.READS.items()}
    named = set().union(*declared_reads.values(), *WRITES.values())
    assert named <= set(fields), f"declared fields the state does not have: {named - set(fields)}"
    plain = State.__getattribute__
    read: set[str] = set()

    def recording(self: State, name: str) -> Any:
        if name in fields:
            read.add(name)
        return plain(self, name)

    undeclared: dict[str, set[str]] = {}
    before: list[State] = []

    def check(game: engine.Game, e: Any) -> None:
        s = game.state
        written = {f for f in fields if getattr(before[0], f) != getattr(s, f)}
        declared = WRITES.get(type(e))
        if declared is not None and written - declared:
            undeclared.setdefault(type(e).__name__, set()).update(written - declared)
        if not s.over:
            for build in [b for _, _, b in aa.PHASE_COMMANDS[s.phase]] + [aa.end_phase_spec, aa.end_game_spec]:
                if build not in declared_reads:
                    continue
                read.clear()
                with entries.recomputed(), monkeypatch.context() as m:
                    m.setattr(State, "__getattribute__", recording)
                    build(s, ["x"])
                if read - declared_reads[build]:
                    undeclared.setdefault(build.__name__, set()).update(read - declared_reads[build])
        before[0] = working_copy(s)

    # the bot games of tests/test_aa1942_properties.py (every event type among them) and the big fleets above
    seen: set[type] = set()
    games = [(i, opts, seed_for(1942, i)) for i, opts in enumerate(aa1942_bot_games.OPTIONS * 3)]
    for i, opts, seed in [*games, (99, GAMES[2][1], seed_for(35, 0))]:
        rest = {k: v for k, v in opts.items() if k != "seats"}
        game = simulate.new_game("aa1942-convoy", rest, b"seed", f"fields-{i}", opts.get("seats"))
        before[:] = [working_copy(game.state)]
        simulate.play_on(game, seed, lambda g, e: (seen.add(type(e)), check(g, e)))
        assert game.over
    assert set(WRITES) <= seen, f"never applied: {set(WRITES) - seen}"
    assert not undeclared, f"read or written but not declared: {undeclared}"


def test_aa1942_a_raid_that_takes_nothing_leaves_the_raid_entry_as_it_was() -> None:
    """The `raid` entry follows raids (entries.Patch): a raid on a zone at its cap of 4 chips (AA-R5) takes nothing, so
    the zone's label ("0 IPCs left under the cap") and every zone's legality are as they were: the very same entry,
    answering what a recomputation answers. A raid that takes IPCs, or the zone's last raider, builds it again."""
    from domain.aa1942_convoy.commands import EndPhase, Purchase, Raid
    from service import simulate

    game = simulate.new_game("aa1942-convoy", {"submarines": {"Germany": {"3": 6}}}, b"seed", "raid")
    for seat, command in [("USSR", Purchase(spend=0))] + [("USSR", EndPhase())] * 4 + [
        ("Germany", Purchase(spend=0)),
        ("Germany", EndPhase()),
    ]:
        engine.decide_in_place(game, seat, command, b"seed")

    def raid_entry() -> engine.CommandSpec:
        return next(s for s in engine.awaiting(game, "Germany") if s.type == "raid")

    def rebuilt() -> bytes:
        with entries.recomputed():
            built = next(s for s in game.ruleset.legal_commands(game.state) if s.type == "raid")
        return msgspec.json.encode(engine.entry(built))

    while game.state.cap_left(3) > 0:  # every raid takes 1 to 4 IPCs up to the cap (AA-8, AA-R2): 4 raids at most
        before = raid_entry()
        engine.decide_in_place(game, "Germany", Raid(sz=3), b"seed")
        assert raid_entry() is not before and bytes(engine.answered(raid_entry())[1]) == rebuilt()
    assert game.state.may_raid_with(3) >= 2
    while game.state.may_raid_with(3) > 1:  # at the cap: each takes nothing, and leaves a raider
        before = raid_entry()
        engine.decide_in_place(game, "Germany", Raid(sz=3), b"seed")
        assert game.state.chips[3] == 4
        assert raid_entry() is before and bytes(engine.answered(before)[1]) == rebuilt()
    engine.decide_in_place(game, "Germany", Raid(sz=3), b"seed")  # the last raider, taking nothing: SZ 3 leaves it
    with entries.recomputed():
        assert "raid" not in [s.type for s in game.ruleset.legal_commands(game.state)]  # Germany's others: no target
    assert "raid" not in [s.type for s in engine.awaiting(game, "Germany")]
