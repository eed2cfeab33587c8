"""rules/orders.py: 2.0-2.1 divisional orders, drop-outs, transfers of command, messages and surrender."""

from __future__ import annotations

import msgspec
import pytest

from domain.battlefleet_1900 import geometry as geo
from domain.battlefleet_1900.commands import GiveOrders
from domain.battlefleet_1900.rules import movement, orders, sealing
from domain.engine import IllegalCommand
from events import battlefleet_1900 as ev
from events.core import SubmissionSealed
from tests.battlefleet_1900.scenario import ctx, done, make_state, of, place, rolls


def check(s, seat="japan", **content):
    orders.check_orders(s, seat, msgspec.convert({"type": "give_orders", **content}, GiveOrders))


def reveal(s, faces=(), **by_seat):
    for seat, content in by_seat.items():
        s.sealed[seat].pending["give_orders"] = content
    c = ctx(s, *faces)
    orders.resolve(c)
    done(c)
    return c


def arrow(turn="succession", to="starboard", a=90):
    return {"turn": turn, "to": to, "arrow": a}


def j1(*arrows):
    return {"divisions": [{"division": "J1", "orders": list(arrows)}]}


@pytest.mark.parametrize(
    "orders_, why",
    [
        ([{"stop": True}, arrow()], "stands alone"),
        ([{"turn": "together", "to": "port"}], "an arrow gives turn"),
        ([arrow("succession"), arrow("together")], "all in succession or all together"),
        ([arrow(a=90), arrow(a=90), arrow(a=45)], "too little for arrow 3"),
    ],
)
def test_BF2_1_BFR35_orders_are_judged_on_the_ship_log(orders_, why):
    with pytest.raises(IllegalCommand, match=why):
        check(make_state(), **j1(*orders_))


def test_BF2_1_BFR5_a_later_arrow_needs_the_leads_movement_allowance():
    """Mikasa moved 92 mm: up to 115 this turn; a 90-degree arc at radius 70 costs 110, a 45 one 55."""
    s = make_state()
    check(s, **j1(arrow(a=90), arrow(a=90)))
    check(s, **j1(arrow(a=45), arrow(a=45), arrow(a=90)))
    with pytest.raises(IllegalCommand, match="arrow 3"):
        check(s, **j1(arrow(a=90), arrow(a=45), arrow(a=45)))


def test_BF6_1_BFR30_a_flagship_with_a_bridge_hit_gives_one_arrow_and_with_a_ct_hit_none():
    s = make_state()
    s.ships["Mikasa"].bridge = 1
    check(s, **j1(arrow()))
    with pytest.raises(IllegalCommand, match="bridge hit"):
        check(s, **j1(arrow(), arrow()))
    s.ships["Mikasa"].ct = 1
    with pytest.raises(IllegalCommand, match="conning tower"):
        check(s, **j1(arrow()))
    check(s, **j1())  # straight on is always allowed


def test_BF2_1_BFR4_succession_outside_line_ahead_becomes_a_simultaneous_turn():
    s = make_state()
    for n, x in (("Mikasa", 1400), ("Asahi", 1400), ("Shikishima", 1400), ("Fuji", 1400)):
        place(
            s, n, x, {"Mikasa": 1800, "Asahi": 1650, "Shikishima": 1500, "Fuji": 1350}[n], 0
        )  # heading north, line bearing 90
    c = reveal(s, japan=j1(arrow(), arrow(to="port", a=45)))
    assert [(e.division, e.index) for e in of(c, ev.OrderConverted)] == [("J1", 0), ("J1", 1)]
    assert [a.turn for a in c.state.divisions["J1"].orders] == ["together", "together"]
    assert [e.division for e in of(c, ev.DivisionOrdered)] == ["J1", "J2", "R1", "R2"]  # every column, each turn


def test_BF2_1_BFR9_BFR35_dropping_out_needs_one_more_propulsion_hit_than_the_ship_aft():
    s = make_state()
    with pytest.raises(IllegalCommand, match="one more propulsion box hit"):
        check(s, drop_out=["Fuji"])  # the last ship needs at least one
    s.ships["Fuji"].margin = 3  # the margin does not count
    with pytest.raises(IllegalCommand, match="one more propulsion box hit"):
        check(s, drop_out=["Fuji"])
    s.ships["Fuji"].damaged = 1
    check(s, drop_out=["Fuji"])
    s.ships["Shikishima"].damaged = 1
    with pytest.raises(IllegalCommand, match="one more"):
        check(s, drop_out=["Shikishima"])  # Fuji, next aft, has as many
    s.ships["Shikishima"].destroyed = 1
    check(s, drop_out=["Shikishima"])
    s.ships["Mikasa"].damaged = 5
    check(s, drop_out=["Mikasa"])  # 4.0.0: a flagship too (BF-R35)
    old = make_state(edition="3.0.0")
    old.ships["Mikasa"].damaged = 5
    with pytest.raises(IllegalCommand, match="flagship"):
        check(old, drop_out=["Mikasa"])


def test_BFR35_BF2_1_a_flagship_may_drop_out_and_its_division_keeps_a_leader():
    """2.1 Dropping Out: "This may only be done if the vessel in question has at least one more propulsion box hit
    than the next vessel(s) immediately aft": the only condition, so a flagship may drop out (3.0.0 refused it,
    issue 18 F5). The division it leaves passes to its closest qualified ship (Asahi); the fleet's command stays
    with Mikasa, which still commands (now a one-ship division)."""
    s = make_state()
    s.ships["Mikasa"].damaged = 1
    c = reveal(s, japan={"drop_out": ["Mikasa"]})
    t = of(c, ev.CommandTransferred)[0]
    assert (t.division, t.from_ship, t.to_ship, t.how, t.fleet) == ("J1", "Mikasa", "Asahi", "dropped_out", False)
    assert c.state.divisions["J1"].ships == ["Asahi", "Shikishima", "Fuji"]
    assert c.state.divisions["J1"].flagship == "Asahi" and c.state.divisions["J1/Mikasa"].flagship == "Mikasa"
    assert c.state.fleet_flagship["japan"] == "Mikasa"


def test_BFR35_BFR10_a_flagship_transfers_the_flag_and_drops_out_in_the_same_orders():
    """Today's orders may do both (issue 18 F5: it was refused even then): the voluntary transfer comes first."""
    s = make_state()
    s.ships["Mikasa"].damaged = 1
    place(s, "Mikasa", 1400, 1800, 90, last=23)
    place(s, "Asahi", 1275, 1800, 90, last=23)
    c = reveal(s, japan={"drop_out": ["Mikasa"], "transfer": [{"division": "J1", "to": "Asahi"}]})
    assert [(t.to_ship, t.how) for t in of(c, ev.CommandTransferred)] == [("Asahi", "voluntary")]
    assert c.state.divisions["J1"].flagship == "Asahi" and c.state.fleet_flagship["japan"] == "Asahi"


def test_BF2_1_BFR9_a_ship_that_drops_out_is_a_division_of_its_own():
    s = make_state()
    s.ships["Fuji"].damaged = 1
    c = reveal(s, japan={"drop_out": ["Fuji"]})
    e = of(c, ev.ShipDroppedOut)[0]
    assert (e.ship, e.division, e.new_division) == ("Fuji", "J1", "J1/Fuji")
    d = c.state.divisions["J1/Fuji"]
    assert d.ships == ["Fuji"] and d.flagship == "Fuji" and d.dropped_out
    assert c.state.divisions["J1"].ships == ["Mikasa", "Asahi", "Shikishima"]


def test_BF2_1_BFR10_voluntary_transfer():
    s = make_state()
    with pytest.raises(IllegalCommand, match="more than 1/6"):
        check(s, transfer=[{"division": "J1", "to": "Asahi"}])
    place(s, "Mikasa", 1400, 1800, 90, last=23)
    place(s, "Asahi", 1275, 1800, 90, last=23)  # 125 mm: a quarter bracket exactly
    check(s, transfer=[{"division": "J1", "to": "Asahi"}])
    place(s, "Asahi", 1274, 1800, 90, last=23)
    with pytest.raises(IllegalCommand, match="quarter bracket"):
        check(s, transfer=[{"division": "J1", "to": "Asahi"}])
    place(s, "Asahi", 1275, 1800, 90, last=23)
    c = reveal(s, japan={"transfer": [{"division": "J1", "to": "Asahi"}]})
    t = of(c, ev.CommandTransferred)[0]
    assert (t.from_ship, t.to_ship, t.how, t.fleet) == ("Mikasa", "Asahi", "voluntary", True)
    s.ships["Mikasa"].ct = 1
    with pytest.raises(IllegalCommand, match="conning tower"):
        check(s, transfer=[{"division": "J1", "to": "Asahi"}])


@pytest.mark.parametrize("face, moved", [(4, False), (5, True)])
def test_BF2_1_BFR11_involuntary_transfer_on_5_or_6(face, moved):
    s = make_state()
    s.ships["Mikasa"].tr = 1
    c = reveal(s, [face])
    assert bool(of(c, ev.CommandTransferred)) == moved
    if moved:
        assert c.state.divisions["J1"].flagship == "Asahi" and c.state.fleet_flagship["japan"] == "Asahi"


def test_BF2_1_BFR11_the_texts_example_is_automatic():
    """2.1: a CT hit, six fires and three points of uneven flooding: +3 and +1, so no die is rolled."""
    s = make_state()
    sh = s.ships["Mikasa"]
    sh.ct, sh.fires_ext, sh.fires_int = 1, 4, 2
    sh.flooding["PA"] = 3
    c = reveal(s)
    assert of(c, ev.CommandTransferred)[0].how == "involuntary"


def test_BF2_1_BFR11_BFR49_half_points_and_the_closest_ship_ties_to_the_earlier():
    s = make_state()
    sh = s.ships["Mikasa"]
    sh.tr, sh.fires_ext = 1, 3  # +1 (3 halves)
    place(s, "Shikishima", 1400, 1950, 90)  # 150 mm, as Asahi: Asahi is earlier in line
    c = reveal(s, [4])
    assert of(c, ev.CommandTransferred)[0].to_ship == "Asahi"


def test_BFR11_BFR44_no_roll_without_a_ship_to_take_command():
    s = make_state()
    s.ships["Mikasa"].tr = 1
    for n in ("Asahi", "Shikishima", "Fuji"):
        s.ships[n].ct = 1
    c = reveal(s)
    assert not of(c, ev.CommandTransferred)


def test_BF2_1_BFR13_surrender_is_public_and_passes_command():
    s = make_state()
    c = reveal(s, russia={"surrender": ["Tsesarevich"]})
    assert of(c, ev.ShipSurrendered)[0].ship == "Tsesarevich" and c.state.ships["Tsesarevich"].lost == "surrendered"
    t = of(c, ev.CommandTransferred)[0]
    assert (t.to_ship, t.how, t.fleet) == ("Retvizan", "flagship_lost", True)


def test_BFR20_boat_gun_crews_change_in_the_orders():
    s = make_state()
    c = reveal(s, japan={"boat_guns": [{"ship": "Mikasa", "manned": False}]})
    assert not c.state.sealed["japan"].manned["Mikasa"]
    t = make_state("torpedo-attack")
    with pytest.raises(IllegalCommand, match="no armoured deck"):
        check(t, boat_guns=[{"ship": "Ikazuchi", "manned": False}])


def _message(c, seat):
    return [e for e in c.events if isinstance(e, SubmissionSealed) and e.kind == "message" and e.seat == seat]


@pytest.mark.parametrize(
    "bridge, face, delivered", [(False, 3, True), (False, 2, False), (True, 4, False), (True, 5, True)]
)
def test_BF2_0_BF6_3_BFR12_the_fleet_flagship_reads_messages(bridge, face, delivered):
    s = make_state()
    s.ships["Tsesarevich"].bridge = int(bridge)
    c = reveal(s, [face], japan={"messages": [{"to_seat": "russia", "signal": "we_surrender", "text": "terms?"}]})
    assert _message(c, "japan")  # the sender's own copy
    assert bool(_message(c, "russia")) == delivered
    assert of(c, ev.MessageDelivered)[0].delayed == (not delivered)
    if not delivered:  # a failure delays it a turn: it is read at the next Command Phase
        c2 = ctx(c.state, 6)
        orders.deliver(c2)
        assert _message(c2, "russia") and c2.state.sealed["russia"].messages[0].text == "terms?"


def test_BFR12_never_read_with_a_ct_hit_and_no_roll_without_the_option():
    s = make_state()
    s.ships["Tsesarevich"].ct = 1
    c = reveal(s, [1], japan={"messages": [{"to_seat": "russia", "text": "x"}]})  # 1: R1's transfer roll fails
    assert of(c, ev.MessageDelivered)[0].delayed and len([e for e in c.events if type(e).__name__ == "DiceRolled"]) == 1
    s = make_state(read_message_rolls=False)
    c = reveal(s, japan={"messages": [{"to_seat": "russia", "text": "x"}]})
    assert _message(c, "russia")


def test_BFR36_the_fleets_command_passes_to_the_next_division_when_none_of_its_own_can_take_it():
    s = make_state()
    for n in ("Asahi", "Shikishima", "Fuji"):
        s.ships[n].ct = 1
    from domain.battlefleet_1900.rules.damage import lose

    c = ctx(s)
    lose(c, "Mikasa", "sunk")
    t = of(c, ev.CommandTransferred)[0]
    assert (t.division, t.to_ship, t.fleet) == ("J2", "Yakumo", True) and c.state.fleet_flagship["japan"] == "Yakumo"
    assert c.state.divisions["J1"].flagship is None  # BF-R11: with none, the division goes straight
    with pytest.raises(IllegalCommand, match="goes straight"):
        check(c.state, **j1(arrow()))


def test_BFR50_a_ship_dropping_out_never_takes_the_flag():
    """2.1: a dropped-out ship "becomes a one-ship division": it cannot also lead the division it leaves."""
    s = make_state()
    place(s, "Mikasa", 1400, 1800, 90, last=23)
    place(s, "Asahi", 1275, 1800, 90, last=23)
    s.ships["Asahi"].damaged = 2
    with pytest.raises(IllegalCommand, match="drops out"):
        check(s, transfer=[{"division": "J1", "to": "Asahi"}], drop_out=["Asahi"])
    s.ships["Mikasa"].ct = 1  # the involuntary heir is the closest ship that stays: Shikishima, not Asahi
    c = reveal(s, [6], japan={"drop_out": ["Asahi"]})
    assert of(c, ev.CommandTransferred)[0].to_ship == "Shikishima"
    j1_ = c.state.divisions["J1"]
    assert j1_.flagship == "Shikishima" and j1_.ships == ["Mikasa", "Shikishima", "Fuji"]
    assert c.state.divisions["J1/Asahi"].flagship == "Asahi" and c.state.fleet_flagship["japan"] == "Shikishima"


@pytest.mark.parametrize(
    "content",
    [
        {"drop_out": ["Fuji", "Fuji"]},
        {"surrender": ["Fuji", "Fuji"]},
        {"transfer": [{"division": "J1", "to": "Asahi"}, {"division": "J1", "to": "Shikishima"}]},
    ],
)
def test_BFR50_each_ship_or_division_at_most_once(content):
    """Twice in one order would make a second, empty one-ship division (or hand the flag on twice in one phase)."""
    s = make_state()
    s.ships["Fuji"].damaged = 1
    for n in ("Mikasa", "Asahi", "Shikishima"):
        place(s, n, s.pose(n).x, 1800, 90, last=23)
    place(s, "Asahi", 1290, 1800, 90, last=23)
    place(s, "Shikishima", 1290, 1810, 90, last=23)
    with pytest.raises(IllegalCommand, match="at most once"):
        check(s, **content)


def test_BFR35_a_flagship_dropping_out_with_no_qualified_heir_leaves_its_division_without_one():
    s = make_state()
    s.ships["Mikasa"].damaged = 1
    for n in ("Asahi", "Shikishima", "Fuji"):
        s.ships[n].ct = 1
    c = reveal(s, japan={"drop_out": ["Mikasa"]})
    assert not of(c, ev.CommandTransferred) and c.state.divisions["J1"].flagship is None
    assert c.state.divisions["J1/Mikasa"].flagship == "Mikasa"


def test_issue17_a_seat_naming_the_other_sides_ship_or_division_is_told_what_is_wrong():
    """A Russian command naming Japan's Mikasa or division J1 says so, instead of "list each at most once"."""
    from domain.battlefleet_1900.commands import Move, Start
    from domain.battlefleet_1900.rules import movement
    from domain.battlefleet_1900.rules.turn import check_start

    s = make_state(step="setup")
    start = msgspec.convert({"type": "start", "ships": [{"ship": "Mikasa"}]}, Start)
    with pytest.raises(IllegalCommand, match="'Mikasa' is not one of your ships"):
        check_start(s, "russia", start)
    twice = msgspec.convert({"type": "start", "ships": [{"ship": "Mikasa"}, {"ship": "Mikasa"}]}, Start)
    with pytest.raises(IllegalCommand, match="'Mikasa' is listed twice"):
        check_start(s, "japan", twice)
    with pytest.raises(IllegalCommand, match="'J1' is not one of your divisions"):
        check(make_state(), "russia", divisions=[{"division": "J1"}])
    with pytest.raises(IllegalCommand, match="'J1' is listed twice"):
        check(make_state(), "japan", divisions=[{"division": "J1"}, {"division": "J1"}])
    move = msgspec.convert({"type": "move", "divisions": [{"division": "J1"}]}, Move)
    with pytest.raises(IllegalCommand, match="'J1' is not one of your divisions"):
        movement.check_move(make_state(step="move"), "russia", move)


@pytest.mark.parametrize(
    "fog, edition, heir", [("blur", None, "Asahi"), ("open", None, "Fuji"), ("blur", "5.0.0", "Fuji")]
)
def test_BF2_1_BFR11_BFE6_3_under_blur_the_heir_is_the_closest_along_the_line(fog, edition, heir):
    """BF-E6-3 (6.0.0): under fog blur the heir of an involuntary transfer is the qualified ship the fewest places
    from the flagship in the line (Asahi, next astern of Mikasa), not the one truly nearest (Fuji, last in line but
    moved beside Mikasa): the heir is public and the true distance the fog's. Under fog open, and under 5.0.0, the
    true distance between funnels decides (BF-R49)."""
    s = make_state(fog=fog, edition=edition)
    assert s.divisions["J1"].ships[:4] == ["Mikasa", "Asahi", "Shikishima", "Fuji"]
    m = s.sealed["japan"].poses["Mikasa"]
    place(s, "Fuji", m.x, m.y + 60, m.h)  # beside the flagship, nearer than Asahi 150 mm astern
    s.ships["Mikasa"].tr = 1
    c = reveal(s, [5])
    assert of(c, ev.CommandTransferred)[0].to_ship == heir


def _reversed(s, division="J1"):
    """A line its seat reversed in secret under fog blur (BF-E6-1): the true order runs the other way, the public
    order is the last announced one."""
    d = s.divisions[division]
    d.ships = d.ships[::-1]
    s.sealed[d.seat].reversed.add(division)


@pytest.mark.parametrize("edition", ["8.0.0", "7.0.0"])
def test_BF2_1_BFR9_BFE8_1_a_drop_out_is_judged_on_the_line_as_last_announced_under_blur(edition):
    """2.1 Dropping Out: "at least one more propulsion box hit than the next vessel(s) immediately aft". The drop-out
    is public at the reveal (`ShipDroppedOut`); judged on a line reversed in secret (BF-E6-1), its acceptance told the
    enemy which way the line ran (the second cold audit of issue 31, F1). Two worlds alike in all the enemy reads:
    Shikishima (1 hit) between Asahi (0) and Fuji (1); in world B the line runs Fuji first, in secret."""
    verdicts = []
    for world in ("A", "B"):
        s = make_state(fog="blur", edition=edition)
        s.ships["Shikishima"].damaged = s.ships["Fuji"].damaged = 1
        if world == "B":
            _reversed(s)
        try:
            check(s, drop_out=["Shikishima"])
            verdicts.append("accepted")
        except IllegalCommand as e:
            verdicts.append(str(e))
    if edition == "7.0.0":  # truly next aft: Fuji (1 hit, refused) in A, Asahi (0 hits, accepted) in B
        assert verdicts[0].endswith("(BF:2.1, BF-R54)") and verdicts[1] == "accepted"
    else:  # next aft as last announced: Fuji in both, refused in both, the same words
        assert verdicts[0] == verdicts[1]
        assert "than Fuji, next aft in the line as last announced" in verdicts[0] and "BF-E8-1" in verdicts[0]


def test_BF2_1_BFR9_BFE8_1_open_fog_and_an_unreversed_line_judge_the_true_ship_aft():
    """BF-E8-1 changes nothing where the line has no secret: under fog `open` the true ship aft decides."""
    s = make_state(fog="open")
    s.ships["Shikishima"].damaged = s.ships["Fuji"].damaged = 1
    s.divisions["J1"].ships = s.divisions["J1"].ships[::-1]  # a reversal is public under open fog
    check(s, drop_out=["Shikishima"])  # Asahi, now truly aft, has none
    s = make_state(fog="blur")
    s.ships["Shikishima"].damaged = 1
    check(s, drop_out=["Shikishima"])  # Fuji, aft in both orders, has none


@pytest.mark.parametrize("edition", ["8.0.0", "7.0.0"])
def test_BF2_1_BFR5_BFE8_2_multiple_arrows_are_judged_on_public_facts_under_blur(edition):
    """2.1: "Divisions with sufficient movement allowance may be issued multiple commands". The orders are public at
    the reveal (`DivisionOrdered`); judged on the lead's one-box limit from its sealed last move (BF-R6), how many
    arrows were accepted told everyone a bound on that move (the second cold audit of issue 31, F2). Mikasa's top
    box is 138 mm; a 90° arrow's least arc on its 70 mm radius costs 110 mm. World A: it moved 92 mm last (limit
    115); world B: 69 mm (limit 92)."""
    verdicts = []
    for last in (92, 69):
        s = make_state(fog="blur", edition=edition)
        s.sealed["japan"].last_move["Mikasa"] = last
        try:
            check(s, **j1(arrow(a=90), arrow(a=45)))
            verdicts.append("accepted")
        except IllegalCommand as e:
            verdicts.append(str(e))
        runs = orders.arrow_runs(s, "J1")
        verdicts.append((90,) in runs)  # the descriptor offers what the check accepts
    if edition == "7.0.0":
        assert verdicts[0] == "accepted" and verdicts[1] is True
        assert "Mikasa has 92 mm, too little for arrow 2" in verdicts[2] and verdicts[3] is False
    else:
        assert verdicts == ["accepted", True, "accepted", True]
        s = make_state(fog="blur", edition=edition)
        with pytest.raises(IllegalCommand, match="at most 138 mm, too little for arrow 3.*BF-E8-2"):
            check(s, **j1(arrow(a=90), arrow(a=90), arrow(a=45)))  # 220 mm of least arcs: beyond its top box too


def test_BF2_1_BFR5_BFE8_2_the_public_lead_of_a_line_reversed_in_secret_is_judged():
    """Under blur the lead judged is the line's first in its last public order: Mikasa, though Fuji truly leads a line
    reversed in secret; a damaged Fuji (top box 92 mm) does not make the orders refused, which would tell the enemy
    of the reversal. Under fog `open` the true lead's allowance decides."""
    s = make_state(fog="blur")
    s.ships["Fuji"].damaged = 2  # 138 and 115 marked: at most 92 mm
    _reversed(s)
    check(s, **j1(arrow(a=90), arrow(a=45)))
    s = make_state(fog="open")
    s.ships["Fuji"].damaged = 2
    s.divisions["J1"].ships = s.divisions["J1"].ships[::-1]
    with pytest.raises(IllegalCommand, match="Fuji has 92 mm, too little for arrow 2"):
        check(s, **j1(arrow(a=90), arrow(a=45)))


@pytest.mark.parametrize("edition", ["10.0.0", "9.0.0"])
def test_BF2_1_BFR5_BFE10_1_arrows_are_judged_on_the_lead_left_once_the_drop_outs_have_gone(edition):
    """2.1 Dropping Out: a ship announced as dropping out "becomes a one-ship division", and "the ship behind it"
    closes the line: the division's arrows are executed by the ship that then leads, so "sufficient movement
    allowance" (Multiple Commands) is that ship's (the narrow cold pass over BF-E8, F2). A 90° arrow's least arc on a
    70 mm radius costs 110 mm. Mikasa with two propulsion hits makes at most 92 mm; Asahi, next aft with none, 115."""
    s = make_state(fog="open", edition=edition)
    s.ships["Mikasa"].damaged = 2
    assert orders.why_not_drop_out(s, "japan", "Mikasa") is None
    assert [movement.limits(s, n)[1] for n in ("Mikasa", "Asahi")] == [92, 115]
    two = j1(arrow(a=90), arrow(a=45))
    if edition == "9.0.0":  # judged on Mikasa, which leaves: refused though Asahi leads the turn
        with pytest.raises(IllegalCommand, match="Mikasa has 92 mm, too little for arrow 2"):
            check(s, **two, drop_out=["Mikasa"])
        return
    check(s, **two, drop_out=["Mikasa"])
    with pytest.raises(IllegalCommand, match=r"Mikasa has 92 mm, too little for arrow 2 \(BF-R5"):
        check(s, **two)  # Mikasa stays in the lead


@pytest.mark.parametrize("edition", ["10.0.0", "9.0.0"])
def test_BF2_1_BFR5_BFE10_1_a_slow_ship_behind_a_dropping_lead_makes_its_arrows_too_many(edition):
    """The other way: Mikasa (one hit, moved 115 mm last: up to 115) drops out and Asahi (moved 69 mm: up to 92)
    leads; the second arrow needs 110 mm of Asahi's 92. 9.0.0 judged Mikasa's 115 and accepted orders Asahi then could
    not make."""
    s = make_state(fog="open", edition=edition)
    s.ships["Mikasa"].damaged = 1
    s.sealed["japan"].last_move.update(Mikasa=115, Asahi=69)
    assert [movement.limits(s, n)[1] for n in ("Mikasa", "Asahi")] == [115, 92]
    two = j1(arrow(a=90), arrow(a=45))
    check(s, **two)  # Mikasa leads: 115 mm
    if edition == "9.0.0":
        check(s, **two, drop_out=["Mikasa"])
        return
    with pytest.raises(IllegalCommand, match=r"Asahi \(once Mikasa drops out\) has 92 mm, too little for arrow 2.*BF-E10-1"):
        check(s, **two, drop_out=["Mikasa"])


def test_BF2_1_BFR5_BFE8_2_BFE10_1_under_blur_the_public_lead_left_after_the_drop_outs_is_judged():
    """Under fog blur the line is the one last announced and the speed the top box (BF-E8-2): Mikasa (two hits: top
    box 92) drops out, and Asahi (138) is judged, whatever their sealed last moves."""
    s = make_state(fog="blur")
    s.ships["Mikasa"].damaged = 2
    s.sealed["japan"].last_move.update(Asahi=23)  # sealed: its one-box limit would be 46 mm
    check(s, **j1(arrow(a=90), arrow(a=45)), drop_out=["Mikasa"])
    with pytest.raises(IllegalCommand, match="Mikasa, its lead as last announced, makes at most 92 mm"):
        check(s, **j1(arrow(a=90), arrow(a=45)))


@pytest.mark.parametrize("edition", ["10.0.0", "9.0.0"])
def test_BF2_1_BFR5_BFE10_2_a_later_arrow_needs_movement_left_over(edition):
    """2.1: "If, once it has fulfilled the minimum requirement of its order, it has remaining movement, it may …
    execute further multiple orders": Mikasa moved 87 mm last, so makes at most 110 mm, exactly a 90° arrow's least
    arc on its 70 mm radius: nothing is left for a second arrow (the narrow cold pass over BF-E8, F3). 9.0.0 accepted
    it, and the second arrow turned 0°. The descriptor offers what the check accepts."""
    s = make_state(fog="open", edition=edition)
    s.sealed["japan"].last_move["Mikasa"] = 87
    assert movement.limits(s, "Mikasa")[1] == 110 == geo.arc_cost(70, movement.BANDS[90][0])
    two = j1(arrow(a=90), arrow(a=45))
    if edition == "9.0.0":
        check(s, **two)
        assert (90,) in orders.arrow_runs(s, "J1")
        return
    with pytest.raises(IllegalCommand, match=r"Mikasa has 110 mm, too little for arrow 2 \(BF-R5, BF-E10-2"):
        check(s, **two)
    assert (90,) not in orders.arrow_runs(s, "J1") and (45,) in orders.arrow_runs(s, "J1")
    s.sealed["japan"].last_move["Mikasa"] = 88  # 111 mm: 1 mm left over
    check(s, **two)


@pytest.mark.parametrize("edition", ["11.0.0", "10.0.0"])
def test_BF2_1_BFE11_1_a_division_every_ship_of_which_drops_out_takes_no_orders(edition):
    """2.1 Dropping Out: each ship announced "becomes a one-ship division and receives its own movement order": J2
    (Yakumo 3 hits, Nisshin 2, Kasuga 1) dropping out whole has no line left to order. 10.0.0 judged its arrows on no
    ship and accepted six 90° arrows (the cold pass over 10.0.0, F1)."""
    s = make_state(edition=edition)
    for ship, hits in (("Yakumo", 3), ("Nisshin", 2), ("Kasuga", 1)):
        s.ships[ship].damaged = hits
    every = ["Yakumo", "Nisshin", "Kasuga"]
    six = {"divisions": [{"division": "J2", "orders": [arrow(a=90)] * 6}]}
    check(s, drop_out=every)
    if edition == "10.0.0":
        check(s, **six, drop_out=every)
        return
    with pytest.raises(IllegalCommand, match=r"J2: every ship of it drops out.*BF-E11-1"):
        check(s, **six, drop_out=every)


@pytest.mark.parametrize("edition", ["11.0.0", "10.0.0"])
def test_BF2_1_BFR35_BFE11_2_a_flagship_dropping_out_with_no_heir_leaves_its_division_going_straight(edition):
    """BF-R35: a flagship that drops out with no ship able to take command leaves its division with no flagship, and
    it goes straight (BF-R30). Mikasa (2 hits) drops out; Asahi, Shikishima and Fuji have conning tower hits. 10.0.0
    judged the orders on Mikasa and then executed the arrows of a division with none (the cold pass, F2)."""
    s = make_state(edition=edition)
    s.ships["Mikasa"].damaged = 2
    for ship in ("Asahi", "Shikishima", "Fuji"):
        s.ships[ship].ct = 1
    if edition == "10.0.0":
        check(s, **j1(arrow(a=45)), drop_out=["Mikasa"])
        return
    with pytest.raises(IllegalCommand, match=r"J1: its flagship drops out and no ship of it may take command"):
        check(s, **j1(arrow(a=45)), drop_out=["Mikasa"])
    check(s, drop_out=["Mikasa"])  # steaming on is what it may do


@pytest.mark.parametrize("edition", ["11.0.0", "10.0.0"])
def test_BF_glossary_BR_BFE11_2_a_bridge_hit_counts_on_the_flagship_the_division_has_after_the_drop_outs(edition):
    """Glossary BR: a flagship with a bridge hit gives one arrow. Mikasa, with one, drops out (2 propulsion hits) and
    Asahi takes command (BF-R35): the division's orders are Asahi's, two arrows allowed. 10.0.0 refused them on
    Mikasa's bridge."""
    s = make_state(edition=edition)
    s.ships["Mikasa"].damaged, s.ships["Mikasa"].bridge = 2, 1
    two = j1(arrow(a=45), arrow(a=45))
    if edition == "10.0.0":
        with pytest.raises(IllegalCommand, match="Mikasa has a bridge hit"):
            check(s, **two, drop_out=["Mikasa"])
        return
    check(s, **two, drop_out=["Mikasa"])
    with pytest.raises(IllegalCommand, match="Mikasa has a bridge hit"):
        check(s, **two)


@pytest.mark.parametrize("edition", ["11.0.0", "10.0.0"])
def test_BF2_1_BFR35_BFE6_3_BFE11_2_the_heir_is_named_on_the_line_as_the_orders_found_it(edition):
    """Under fog blur the heir is the qualified ship the fewest places from the flagship (BF-E6-3). Shikishima, J1's
    flagship, and Asahi drop out: on the line as the orders found it (Mikasa, Asahi, Shikishima, Fuji) Fuji is one
    place away, Mikasa two. From 11.0.0 that line names the heir whatever the order the drop-outs are listed in, as
    the check judged it (the cold pass over 11.0.0, F2a: listing Asahi first named Mikasa, bridge hit and all, after
    two arrows were judged under Fuji). 10.0.0 named the heir on the line left by the drop-outs listed before."""
    heirs = []
    for listed in (["Shikishima", "Asahi"], ["Asahi", "Shikishima"]):
        s = make_state(fog="blur", edition=edition)
        s.divisions["J1"].flagship = "Shikishima"
        s.ships["Asahi"].damaged, s.ships["Shikishima"].damaged, s.ships["Mikasa"].bridge = 2, 1, 1
        if edition == "11.0.0":
            assert orders.flagship_after(s, "J1", tuple(listed)) == "Fuji"
            check(s, **j1(arrow(a=45), arrow(a=45)), drop_out=listed)
        c = reveal(s, japan={"drop_out": listed})
        heirs.append(of(c, ev.CommandTransferred)[0].to_ship)
    assert heirs == (["Fuji", "Fuji"] if edition == "11.0.0" else ["Fuji", "Mikasa"])


def test_BF2_1_BFR35_BFE11_2_a_flagship_transferring_and_dropping_out_has_the_orders_judged_under_its_choice():
    """BF-R35: the same orders may transfer the flag first, then drop the old flagship out: the ship the transfer
    names commands, and the orders are judged under it (the cold pass over 11.0.0, F2b: they were judged under the
    closest heir). Mikasa (2 hits) transfers to Fuji and drops out; Asahi, closest, has a bridge hit, Fuji none: two
    arrows are Fuji's to give. With the bridge hit on Fuji instead, one."""
    s = make_state()
    s.ships["Mikasa"].damaged, s.ships["Asahi"].bridge = 2, 1
    s.sealed["japan"].last_move.update(Mikasa=0, Fuji=0)
    place(s, "Fuji", *(lambda p: (p.x, p.y + 50, p.h))(s.sealed["japan"].poses["Mikasa"]))  # within a quarter bracket
    assert orders.why_not_transfer(s, "japan", "J1", "Fuji") is None
    two = {**j1(arrow(a=45), arrow(a=45)), "transfer": [{"division": "J1", "to": "Fuji"}], "drop_out": ["Mikasa"]}
    check(s, **two)
    s.ships["Asahi"].bridge, s.ships["Fuji"].bridge = 0, 1
    with pytest.raises(IllegalCommand, match="Fuji has a bridge hit"):
        check(s, **two)


@pytest.mark.parametrize("edition", ["12.0.0", "11.0.0"])
def test_BF2_1_BFR30_BFE12_1_a_division_whose_flagship_surrenders_with_no_heir_goes_straight(edition):
    """Mikasa, J1's flagship, strikes its colours in the orders that give J1 two 45° arrows, and every other ship of
    J1 has a conning tower hit: no ship may take command. BF-R30: a division "that has none goes straight: no arrow
    and no free turn"; from 12.0.0 its orders lapse (`OrdersLapsed`) and its log keeps them as given (BF-R63: they
    were judged as given). 11.0.0 executed them (the second pass over the give_orders form, F1)."""
    s = make_state(edition=edition)
    for n in ("Asahi", "Shikishima", "Fuji"):
        s.ships[n].ct = 1
    c = reveal(s, japan={**j1(arrow("together", "port", 45), arrow("together", "port", 45)), "surrender": ["Mikasa"]})
    j1_ = c.state.divisions["J1"]
    assert j1_.flagship is None and j1_.ships == ["Asahi", "Shikishima", "Fuji"]
    given = tuple(msgspec.convert([arrow("together", "port", 45)] * 2, list[ev.Arrow]))
    assert [x[2] for x in c.state.orders_log if x[1] == "J1"] == [given]
    if edition == "12.0.0":
        assert [e.division for e in of(c, ev.OrdersLapsed)] == ["J1"] and j1_.orders == []
    else:
        assert not of(c, ev.OrdersLapsed) and len(j1_.orders) == 2


@pytest.mark.parametrize("edition", ["12.0.0", "11.0.0"])
@pytest.mark.parametrize("face", [4, 5])
def test_BF2_1_BFR11_BFR35_BFR64_a_flagship_dropping_out_takes_its_involuntary_roll_first(face, edition):
    """Mikasa, fleet and J1 flagship, has a steering (TR) hit and drops out (two propulsion hits, Asahi none). 2.1:
    its player "must roll for transfer of command", and BF-R1 resolves the rolls before the drop-outs (BF-R64): on a
    5 Asahi assumes "command of the division (and of the fleet if it is replacing the fleet flagship)"; on a 4 the
    drop-out hands J1 to Asahi and the fleet's command stays with Mikasa (BF-R35). Both editions alike."""
    s = make_state(edition=edition)
    s.ships["Mikasa"].tr, s.ships["Mikasa"].damaged = 1, 2
    c = reveal(s, [face], japan={"drop_out": ["Mikasa"]})
    (t,) = of(c, ev.CommandTransferred)
    assert (t.from_ship, t.to_ship) == ("Mikasa", "Asahi") and c.state.divisions["J1"].flagship == "Asahi"
    assert [r.purpose for r in rolls(c)] == ["involuntary transfer of J1 from Mikasa"]
    if face == 5:
        assert (t.how, t.fleet, c.state.fleet_flagship["japan"]) == ("involuntary", True, "Asahi")
    else:
        assert (t.how, t.fleet, c.state.fleet_flagship["japan"]) == ("dropped_out", False, "Mikasa")


@pytest.mark.parametrize("edition", ["12.0.0", "11.0.0"])
def test_BF2_1_BFR30_BFE12_1_a_stop_order_lapses_too_when_the_flagship_surrenders_with_no_heir(edition):
    """A stop is refused to a division whose flagship has a CT hit or that has none (check_arrows, BF-R30: it "goes
    straight"), so a division the Command Phase leaves with no flagship loses its stop too (the fourth pass, F1;
    a stop that stood would bind a division no commander could have given it to)."""
    s = make_state(edition=edition)
    for n in ("Asahi", "Shikishima", "Fuji"):
        s.ships[n].ct = 1
    c = reveal(s, japan={"divisions": [{"division": "J1", "orders": [{"stop": True}]}], "surrender": ["Mikasa"]})
    if edition == "12.0.0":
        assert [e.division for e in of(c, ev.OrdersLapsed)] == ["J1"] and c.state.divisions["J1"].orders == []
    else:
        assert not of(c, ev.OrdersLapsed) and [a.stop for a in c.state.divisions["J1"].orders] == [True]


def test_BFE6_1_BFE12_1_a_lapsed_division_leaves_no_sealed_conversion_behind():
    """Under fog blur a succession arrow of a division out of line ahead is converted in a record sealed to its seat
    (BF-E6-1); when the division's orders then lapse (BF-E12-1) the record goes with them, and every reader's view
    is drawn (the third pass, F1: the other seat's read failed on the lapsed arrow's index)."""
    s = make_state(fog="blur")
    for n in ("Asahi", "Shikishima", "Fuji"):
        s.ships[n].ct = 1
    s.sealed["japan"].line_bearing["J1"] = 0  # abreast: not in line ahead
    c = reveal(s, japan={**j1(arrow("succession", "port", 45)), "surrender": ["Mikasa"]})
    assert [e.division for e in of(c, ev.OrdersLapsed)] == ["J1"]
    assert c.state.sealed["japan"].converted == []
    for reader in ("russia", "japan", None):
        assert sealing.redact(c.state, reader).divisions["J1"].orders == []
