"""rules/turn.py and rules/sealing.py through the engine: the sealed, simultaneous steps of the turn (BF-R1, R2),
the fog (BATTLEFLEET.md §4) and the end of the battle (BF-R31)."""

from __future__ import annotations

from math import isqrt

import pytest

from domain import engine
from domain.battlefleet_1900 import redact
from domain.battlefleet_1900.geometry import dist2
from domain.battlefleet_1900.rules.turn import shares, winner
from domain.engine import Forbidden, IllegalCommand
from events import battlefleet_1900 as ev
from events.core import GameEnded, SubmissionSealed, SubmissionsRevealed
from tests.battlefleet_1900.scenario import make_state, table


def started(options=None):
    t = table(options)
    t.send("japan", "start")
    t.send("russia", "start", ships=[{"ship": "Tsesarevich", "boat_guns_manned": False}])
    return t


def names(evs) -> list[str]:
    return [type(e).__name__ for e in evs]


def test_BFR1_start_is_sealed_then_the_battle_begins_at_the_command_phase():
    t = table()
    first = t.send("japan", "start")
    assert names(first) == ["SeedLocked", "SubmissionSealed"] and first[1].seat == "japan"
    second = t.send("russia", "start", ships=[{"ship": "Tsesarevich", "boat_guns_manned": False}])
    assert names(second)[:2] == ["SubmissionSealed", "BattleStarted"]
    crews = [e for e in second if type(e).__name__ == "BoatGunsManned"]  # start's public part (BF-E6-2)
    assert crews and {e.ship: e.manned for e in crews}["Tsesarevich"] is False
    assert names(second)[2 + len(crews) : 4 + len(crews)] == ["TurnStarted", "StepStarted"]
    assert t.state.step == "command" and t.state.owing == ["japan", "russia"]
    assert t.state.sealed["russia"].manned["Tsesarevich"] is False  # the log's pre-game entry
    assert not any(isinstance(e, SubmissionsRevealed) for e in second)  # BF-R34: start stays sealed to the end


def test_BFR1_BFR2_one_sealed_submission_per_seat_and_the_last_one_resolves_the_step():
    t = started()
    out = t.send("japan", "give_orders")
    assert names(out) == ["SubmissionSealed"]
    assert [s.seats for s in t.legal().values() if s.type == "give_orders"] == [["russia"]]
    assert engine.waiting_for(t.game) == ["russia"]
    with pytest.raises(Forbidden):
        t.send("japan", "give_orders")
    out = t.send("russia", "give_orders")
    assert "DivisionOrdered" in names(out) and t.state.step == "movement"


def test_BFR1_awaiting_shows_each_seat_only_its_own_entry_with_its_own_names():
    t = started()
    mine = engine.awaiting(t.game, "japan")
    orders = [s for s in mine if s.type == "give_orders"]
    assert len(orders) == 1 and orders[0].seats == ["japan"] and orders[0].choices is None
    division = orders[0].schema["properties"]["divisions"]["items"]["properties"]["division"]
    assert division["enum"] == ["J1", "J2"]
    assert any(s.type == "concede" and s.seats == ["japan", "russia"] for s in mine)
    assert all(s.description for s in mine)


def _turn(t, fire=None):
    t.send("japan", "give_orders")
    t.send("russia", "give_orders")
    t.send("japan", "move")
    t.send("russia", "move")
    t.send("japan", "fire", **(fire or {}))
    t.send("russia", "fire")
    t.send("japan", "launch_torpedoes")
    t.send("russia", "launch_torpedoes")
    t.send("japan", "damage_control")
    return t.send("russia", "damage_control")


def test_BF1_4_BFR1_a_whole_turn_in_order_and_the_next_one_begins():
    t = started()
    out = _turn(t)
    steps = [e.step for e in t.log if isinstance(e, ev.StepStarted)]
    assert steps[-9:] == [
        "command",
        "movement",
        "gunnery",
        "torpedo",
        "fire_flooding",
        "hits",
        "damage_control",
        "sinking",
        "command",
    ]
    assert "TurnEnded" in names(out) and t.state.turn == 2


def test_BFR1_a_step_nobody_owes_is_skipped():
    t = started()
    for n in t.state.ships.values():
        n.tubes = {k: 0 for k in n.tubes}
    t.send("japan", "give_orders")
    t.send("russia", "give_orders")
    t.send("japan", "move")
    t.send("russia", "move")
    t.send("japan", "fire")
    out = t.send("russia", "fire")
    torpedo = next(e for e in out if isinstance(e, ev.StepStarted) and e.step == "torpedo")
    assert torpedo.owing == [] and t.state.step == "damage_control"


def test_BF4_0_estimates_are_revealed_and_measured_when_all_are_in():
    t = started()
    t.send("japan", "give_orders")
    t.send("russia", "give_orders")
    t.send("japan", "move")
    t.send("russia", "move")
    salvo = {"ship": "Mikasa", "target": "Tsesarevich", "estimate_mm": 1000, "guns": [{"mount": "A"}]}
    first = t.send("japan", "fire", salvos=[salvo])
    assert names(first) == ["SubmissionSealed"] and "estimate_mm" not in str(first[0].commitment)
    out = t.send("russia", "fire")
    reveal = next(e for e in out if isinstance(e, SubmissionsRevealed))
    assert reveal.kinds == ["fire"] and [x.seat for x in reveal.entries] == ["japan", "russia"]
    assert next(e for e in out if isinstance(e, ev.SalvoMeasured)).estimate == 1000


def test_BFR31_concede_ends_the_battle_and_opens_every_seal():
    t = started()
    t.send("japan", "give_orders", messages=[{"to_seat": "russia", "text": "surrender"}])
    out = t.send("russia", "concede")
    ended = next(e for e in out if isinstance(e, ev.BattleEnded))
    assert ended.result == "japan" and "russia conceded" in ended.reason
    assert names(out)[-3:] == ["SubmissionsRevealed", "TableRevealed", "GameEnded"]
    assert t.game.unrevealed == {} and t.game.over and engine.awaiting(t.game) == []


@pytest.mark.parametrize(
    "lost, result",
    [
        ({"Mikasa": "sunk"}, "russia"),
        ({"Mikasa": "sunk", "Tsesarevich": "blown_up"}, "russia"),  # 60/330 against 50/290
        ({"Fuji": "sunk", "Tsesarevich": "blown_up"}, "japan"),  # 50/330 against 50/290
        ({}, "draw"),
        ({"Yakumo": "surrendered", "Tsesarevich": "capsized"}, "japan"),
    ],
)
def test_BFR31_the_lower_share_of_starting_size_lost_wins(lost, result):
    """Japan starts with 330 of size, Russia with 290."""
    s = make_state()
    for n, how in lost.items():
        s.ships[n].lost = how
    assert winner(s) == result


def test_BFR39_BFR47_a_ship_going_under_at_the_end_counts_as_lost_and_a_withdrawn_one_does_not():
    s = make_state()
    s.ships["Fuji"].sinking = 2
    s.ships["Asahi"].lost = "withdrawn"
    japan = shares(s)[0]
    assert (japan.ships_lost, japan.size_lost, japan.size_start) == (1, 50, 330)


def test_BFR31_the_battle_ends_after_its_last_turn():
    t = started({"turns": 1})
    out = _turn(t)
    assert any(isinstance(e, ev.BattleEnded) and "turn 1, the last" in e.reason for e in out)
    assert isinstance(out[-1], GameEnded)


def test_BFR31_a_side_with_nothing_left_in_play_ends_the_battle():
    t = started()
    t.send("japan", "give_orders")
    out = t.send(
        "russia", "give_orders", surrender=["Tsesarevich", "Retvizan", "Pobeda", "Peresvet", "Sevastopol", "Poltava"]
    )
    ended = next(e for e in out if isinstance(e, ev.BattleEnded))
    assert ended.result == "japan" and "russia has no ship left in play" in ended.reason


def test_fog_BFR48_blur_seals_exact_poses_to_their_owners_and_sightings_to_the_viewer():
    t = started({"fog": "blur"})
    _turn(t)
    s = t.state
    assert not any(isinstance(e, ev.ShipsMoved) for e in t.log)
    poses = [e for e in t.log if isinstance(e, SubmissionSealed) and e.kind == "poses"]
    assert sorted(e.seat for e in poses) == ["japan", "referee", "russia"]  # the referee's overlaps too (BF-E5-1)
    mine = redact(s, "japan")
    assert mine.sealed["japan"].poses and not mine.sealed["russia"].poses
    seen = mine.sealed["japan"].sighting
    assert sorted(seen) == sorted(s.own("russia"))
    offsets = []
    for name, p in seen.items():
        exact = s.pose(name)
        near = min(isqrt(dist2((exact.x, exact.y), (q.x, q.y))) for q in mine.sealed["japan"].poses.values())
        reach = s.data.fog.blur_pct * near // 100  # up to blur_pct % of the distance to the viewer's nearest ship
        assert p.h % 5 == 0 and abs(p.h - exact.h) <= 2
        assert abs(p.x - exact.x) <= reach and abs(p.y - exact.y) <= reach
        offsets.append((p.x - exact.x, p.y - exact.y))
    assert len(set(offsets)) == len(offsets) > 1  # each ship its own offset
    public = redact(s, None)
    assert all(not sec.poses and not sec.sighting for sec in public.sealed.values())
    assert redact(s, "referee") is s


def test_fog_offsets_are_keyed_to_the_game_not_rolled():
    a, b = started({"fog": "blur"}), started({"fog": "blur"})
    assert a.state.sealed["japan"].sighting == b.state.sealed["japan"].sighting
    k = a.game.next_roll
    assert k == 0  # no die was rolled for the fog


def test_fog_open_makes_poses_public():
    t = started()
    _turn(t)
    assert any(isinstance(e, ev.ShipsMoved) for e in t.log)
    assert redact(t.state, None).sealed["russia"].poses == t.state.sealed["russia"].poses


def test_errors_name_what_is_awaited():
    t = started()
    with pytest.raises(IllegalCommand):
        t.send("japan", "move")
    with pytest.raises(IllegalCommand, match="'R1' is not one of your divisions; yours to order"):
        t.send("japan", "give_orders", divisions=[{"division": "R1"}])


def test_BFR34_give_orders_stays_sealed_to_the_end_its_public_parts_announced():
    t = started()
    t.send(
        "japan",
        "give_orders",
        divisions=[{"division": "J1", "orders": [{"turn": "together", "to": "port", "arrow": 45}]}],
    )
    out = t.send("russia", "give_orders")
    assert not any(isinstance(e, SubmissionsRevealed) for e in out)
    assert next(e for e in out if isinstance(e, ev.DivisionOrdered)).orders[0].to == "port"
    assert sorted(e.kind for e in t.game.unrevealed.values()) == ["give_orders", "give_orders", "start", "start"]
    out = t.send("japan", "concede")
    assert t.game.unrevealed == {}


def test_BF1_3_only_six_sided_dice_are_rolled():
    """1.3: "six sided dice (one of which is referred to as 1D6)" are all a battle rolls (BF-R32 picks too)."""
    from events.core import DiceRolled
    from service.simulate import play

    sides: set[int] = set()
    play(
        "battlefleet-1900",
        {"turns": 4},
        bytes(range(32)),
        on_event=lambda g, e: sides.update(e.sides) if isinstance(e, DiceRolled) else None,
    )
    assert sides == {6}


def test_BFR47_a_side_with_only_ships_going_under_has_lost_the_battle():
    s = make_state()
    from domain.battlefleet_1900.rules.turn import finished

    for n in s.own("russia"):
        s.ships[n].sinking = 2
    assert finished(s) == "russia has no ship left in play"
