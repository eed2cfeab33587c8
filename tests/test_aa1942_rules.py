"""aa1942-convoy: each rule (AA-n) and ruling (AA-Rn) of docs/rules/aa1942-convoy.md, with chosen faces."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgspec
import pytest

from domain import engine
from domain.aa1942_convoy import RULESET, data, views
from domain.aa1942_convoy.data import parse_map
from domain.aa1942_convoy.rules import territory
from domain.aa1942_convoy.rules.raid import raid_value
from domain.aa1942_convoy.rules.submarines import legal_moves
from domain.aa1942_convoy.rules.turn import income_of
from domain.aa1942_convoy.state import CONVOY_ZONES, STARTING_INCOME, TURN_ORDER
from domain.aa1942_convoy.views import digest, sz_status
from domain.engine import Forbidden, IllegalCommand, InvalidInput, Rejected
from events import aa1942_convoy as ev
from events.core import DeadlineRule, DiceRolled, GameEnded
from events.vocabulary import decode_event
from service.rulesets import RULESETS
from tests.conftest import Table


def table(*, setup: str = "empty", seats: list[str] | None = None, edition: str | None = None, **options) -> Table:
    """A game on the empty setup unless a test asks for another (AA-R16), so each test names its submarines; of the
    newest edition unless `edition` names another (docs/rules/aa1942-convoy.md "Editions")."""
    return Table(options={"setup": setup, **options}, seats=seats, edition=edition)


def seat(t: Table) -> str:
    return t.state.seat_of[t.state.power]


def advance(t: Table, power: str, phase: str) -> None:
    """Play empty phases (spend nothing) until `power` is in `phase`."""
    for _ in range(60):
        if (t.state.power, t.state.phase) == (power, phase):
            return
        if t.state.phase == "purchase":
            t.send(seat(t), "purchase", spend=0)
        else:
            t.send(seat(t), "end_phase")
    raise AssertionError(f"never reached {power} {phase}")


def of(events, cls):
    return [e for e in events if isinstance(e, cls)]


# ---- AA-1, AA-2: the facts of the text -------------------------------------------------------------


def test_AA1_convoy_zones_and_owners_are_those_of_the_text():
    text = {
        "USSR": [4],
        "UK": [3, 7, 8, 10, 23, 34, 35, 45],
        "USA": [2, 11, 18, 22, 53, 55, 56, 57, 65],
        "Germany": [5, 15],
        "Japan": [36, 37, 47, 48, 60, 61, 62],
    }
    assert {p: sorted(sz for sz, o in CONVOY_ZONES.items() if o == p) for p in text} == text


def test_AA2_starting_treasuries_and_the_map_give_the_texts_incomes():
    t = table()
    assert t.state.treasury == {"USSR": 24, "UK": 31, "USA": 42, "Germany": 41, "Japan": 30}
    # the shipped map data must give the same incomes the text states
    assert {p: income_of(t.state, p) for p in TURN_ORDER} == STARTING_INCOME


def test_AA2_AA3_turn_order_and_phases_then_income_and_a_new_round():
    t = table()
    assert (t.state.power, t.state.phase) == ("USSR", "purchase")
    seen = []
    for _ in range(len(TURN_ORDER)):
        p = t.state.power
        seen.append(p)
        t.send(p, "purchase", spend=5)
        phases = [t.state.phase]
        for _ in range(3):
            t.send(p, "end_phase")
            phases.append(t.state.phase)
        assert phases == ["combat-move", "combat", "noncombat-move", "mobilize"]
        evs = t.send(p, "end_phase")
        (income,) = of(evs, ev.IncomeCollected)
        assert income.power == p and income.income == STARTING_INCOME[p]
        assert t.state.treasury[p] == STARTING_INCOME[p] - 5 + STARTING_INCOME[p]
    assert seen == ["USSR", "Germany", "UK", "Japan", "USA"]
    assert t.state.round == 2 and (t.state.power, t.state.phase) == ("USSR", "purchase")


def test_AA3_only_the_acting_powers_seat_may_act():
    t = table()
    with pytest.raises(Forbidden) as e:
        t.send("Germany", "purchase", spend=0)
    assert e.value.code == "not-your-turn"


def test_AA3_a_command_out_of_its_phase_says_what_the_seat_may_send_or_whose_turn_it_is():
    """AA-3's sequence: a refusal with no rule of its own names, in its words too (the problem's `legal` has the
    entries), what the sender may send now, or whose turn it is (an operator's trial read only "(AA-3)")."""
    t = table()
    with pytest.raises(IllegalCommand) as e:
        t.send("USSR", "capture", territory="Norway")
    assert e.value.detail == "'capture' is not legal now (AA-3); USSR may send now: purchase"
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "end_phase")
    assert e.value.detail == (
        "'end_phase' is not legal now (AA-3); nothing is awaited from Germany now, the turn is USSR's"
    )
    with pytest.raises(IllegalCommand) as e:  # its end_game is open all game: not what it owes now
        t.send("referee", "end_phase")
    assert e.value.detail == (
        "'end_phase' is not legal now (AA-3); nothing is awaited from referee now, the turn is USSR's"
    )


def test_AA3_purchase_cannot_spend_more_than_the_treasury():
    t = table()
    with pytest.raises(IllegalCommand):
        t.send("USSR", "purchase", spend=25)
    t.send("USSR", "purchase", spend=24)
    assert t.state.treasury["USSR"] == 0


def test_AA3_a_purchase_may_spend_a_whole_treasury_past_10000_ipcs_as_awaiting_offers():
    """AA-3: the power spends up to its treasury, which the text never caps: Germany holding every territory from round
    1 passes 10,000 IPCs by round 70 or so, and `awaiting`'s number up to its treasury is what the command takes (the
    cold audit of 5.0.0, F1: the command stopped at 10,000, refusing what `awaiting` offered)."""
    t = table(rounds=99)
    advance(t, "Germany", "combat")
    for x in list(territory.legal_captures(t.state)):
        t.send("Germany", "capture", territory=x["territory"])
    while True:
        advance(t, "Germany", "purchase")
        if t.state.treasury["Germany"] > 10_000:
            break
        t.send("Germany", "purchase", spend=0)
    top = t.state.treasury["Germany"]
    (number,) = msgspec.to_builtins(t.legal()["purchase"].ui)["controls"]
    assert number["max"] == top
    assert not accepts(t, "Germany", "purchase", spend=top + 1)
    t.send("Germany", "purchase", spend=top)
    assert t.state.treasury["Germany"] == 0


# ---- AA-8: the raid roll -----------------------------------------------------------------------


@pytest.mark.parametrize("face,ipcs", [(1, 2), (2, 3), (3, 4), (4, 1), (5, 1), (6, 1)])
def test_AA8_raid_damage_is_1_to_3_as_rolled_4_to_6_nothing_plus_one(face, ipcs):
    assert raid_value(face) == ipcs
    t = table(submarines={"Germany": {"7": 1}})
    advance(t, "Germany", "combat")
    evs = t.send("Germany", "raid", [face], sz=7)
    (roll,) = of(evs, DiceRolled)
    (raid,) = of(evs, ev.ConvoyRaided)
    assert roll.sides == [6] and roll.faces == [face] and roll.purpose == "convoy-raid" and "AA-8" in roll.rule
    assert (raid.rolled, raid.damage, raid.removed) == (ipcs, ipcs, ipcs)
    assert t.state.treasury["UK"] == 31 - ipcs


# ---- AA-4: deactivation ------------------------------------------------------------------------


def test_AA4_a_zone_is_deactivated_while_an_owner_territory_on_it_is_held_by_another_and_then_reactivated():
    t = table(submarines={"Germany": {"4": 1}})
    advance(t, "Germany", "combat")
    evs = t.send("Germany", "capture", territory="Archangel")
    (deact,) = of(evs, ev.ConvoyZoneDeactivated)
    assert (deact.sz, deact.owner, deact.lost) == (4, "USSR", ["Archangel"])
    with pytest.raises(IllegalCommand):  # a deactivated zone cannot be raided
        t.send("Germany", "raid", [1], sz=4)
    evs = t.send("Germany", "capture", territory="Karelia S.S.R.")
    assert not of(evs, ev.ConvoyZoneDeactivated)  # already face down
    assert t.state.inactive[4] == ["Archangel", "Karelia S.S.R."]
    advance(t, "USSR", "combat")
    assert not of(t.send("USSR", "liberate", territory="Archangel"), ev.ConvoyZoneReactivated)
    (react,) = of(t.send("USSR", "liberate", territory="Karelia S.S.R."), ev.ConvoyZoneReactivated)
    assert react.sz == 4 and 4 not in t.state.inactive


def test_AA4_only_the_owners_original_territories_count():
    # SZ 5 (Germany) borders Karelia, an original USSR territory: USSR holding it changes nothing
    t = table()
    assert 5 not in t.state.inactive
    advance(t, "UK", "combat")
    evs = t.send("UK", "capture", territory="Norway")  # a German original on SZ 3 (UK) and SZ 5 (Germany)
    assert [(e.sz, e.owner) for e in of(evs, ev.ConvoyZoneDeactivated)] == [(5, "Germany")]


# ---- AA-5, AA-6, AA-7, AA-R1: who raids, when ------------------------------------------------------


def test_AA5_only_a_submarine_raids():
    t = table()
    advance(t, "Germany", "combat")
    assert "raid" not in t.legal()
    with pytest.raises(IllegalCommand):
        t.send("Germany", "raid", [1], sz=7)


def test_AA5_each_submarine_raids_or_fights_not_both():
    t = table(submarines={"Germany": {"7": 2}})
    advance(t, "Germany", "combat")
    t.send("Germany", "raid", [4], sz=7)
    with pytest.raises(IllegalCommand):
        t.send("Germany", "fight", sz=7, count=2)  # one has raided
    t.send("Germany", "fight", sz=7, count=1)
    assert "raid" not in t.legal() and "fight" not in t.legal()


def test_AA5_AAR13_raids_happen_in_combat_step_1_before_general_combat():
    t = table(submarines={"Germany": {"7": 1, "8": 1}})
    advance(t, "Germany", "combat")
    t.send("Germany", "fight", sz=8, count=1)  # general combat begins
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "raid", [1], sz=7)
    assert "step 1" in e.value.detail


def test_AA6_a_raid_happens_even_with_enemy_ships_in_the_zone():
    t = table(submarines={"Germany": {"7": 1}, "UK": {"7": 3}})
    advance(t, "Germany", "combat")
    assert of(t.send("Germany", "raid", [2], sz=7), ev.ConvoyRaided)[0].damage == 3


def test_AA7_a_submarine_that_raided_cannot_retreat():
    t = table(submarines={"Germany": {"7": 1, "6": 1}})
    advance(t, "Germany", "combat")
    t.send("Germany", "raid", [4], sz=7)
    t.send("Germany", "end_phase")
    moves = t.legal()["move_submarines"].choices
    assert moves and all(m["from_sz"] == 6 for m in moves)
    with pytest.raises(IllegalCommand):
        t.send("Germany", "move_submarines", from_sz=7, to_sz=6, count=1)


def test_AAR1_only_a_power_at_war_with_the_owner_raids_in_its_own_combat_phase():
    t = table(submarines={"Japan": {"5": 1, "7": 1}, "Germany": {"7": 1}})
    advance(t, "Germany", "combat-move")
    assert "raid" not in t.legal()  # not the combat phase
    advance(t, "Japan", "combat")
    with pytest.raises(IllegalCommand) as e:
        t.send("Japan", "raid", [1], sz=5)  # Germany's zone: an ally
    assert "not to the enemy" in e.value.detail
    assert t.legal()["raid"].choices == [{"sz": 7}]


# ---- AA-9, AA-10, AA-11 and rulings AA-R2, R3, R5 (revised), R6 ----------------------------------------------


def test_AA9_AAR2_the_cap_cuts_a_raid_and_the_roll_is_still_recorded():
    t = table(submarines={"Germany": {"7": 2}})
    advance(t, "Germany", "combat")
    first = of(t.send("Germany", "raid", [2], sz=7), ev.ConvoyRaided)[0]  # 3
    evs = t.send("Germany", "raid", [3], sz=7)  # rolls 4, only 1 left
    (roll,) = of(evs, DiceRolled)
    (second,) = of(evs, ev.ConvoyRaided)
    assert first.damage == 3
    assert (second.rolled, second.cap_left, second.damage, second.roll_k) == (4, 1, 1, roll.k)
    assert t.state.treasury["UK"] == 31 - 4 and t.state.chips[7] == 4


@pytest.mark.parametrize(
    "edition,first,second",
    [
        (None, "(4 left before this raid, 1 after)", "(1 left before this raid, 0 after)"),
        ("5.0.0", "(4 left)", "(1 left)"),
    ],
)
def test_AAR2_AAE6_1_the_raid_rolls_outcome_says_what_the_cap_left_before_the_raid_and_after(edition, first, second):
    """AA-R2: `cap_left` is the cap before the raid, which cut it; from 6.0.0 the roll's outcome says the cap after it
    too (AA-E6-1: "(4 left)" beside a damage of 3 read as what is left after it); 5.0.0 games keep their words."""
    t = table(submarines={"Germany": {"7": 2}}, edition=edition)
    advance(t, "Germany", "combat")
    outcomes = [of(t.send("Germany", "raid", [face], sz=7), DiceRolled)[0].result.outcome for face in (2, 3)]
    assert outcomes == [
        f"3 IPC rolled (1-3 count as rolled, +1); 3 within the cap of 4 chips a zone holds {first}; 3 removed from UK",
        f"4 IPC rolled (1-3 count as rolled, +1); 1 within the cap of 4 chips a zone holds {second}; 1 removed from UK",
    ]


def test_AAR19_AAE6_2_a_game_takes_no_turn_clock_from_6_0_0():
    """AA-R19: nothing may act for a power whose time runs out (the bot would record a move nobody made at the table),
    so from 6.0.0 a game takes no clock; a 5.0.0 game takes one, as it did."""
    loaded = RULESETS["aa1942-convoy"]
    args = (loaded.ruleset, loaded.data, loaded.data_sha256, "clocked", {}, None, "public-seed", b"\x01" * 32)
    clock = DeadlineRule(turn_seconds=3600, on_expiry="default")
    with pytest.raises(InvalidInput) as e:
        engine.creation_events(*args, deadlines=clock)
    assert e.value.code == "invalid-deadlines" and "(AA-E6-2)" in e.value.detail
    assert engine.creation_events(*args, deadlines=clock, edition="5.0.0")[0].deadlines == clock


def test_AA9_the_cap_is_per_zone_whatever_the_number_of_raiding_powers():
    # Germany and Japan both raid the USA's SZ 11 before the USA's purchase clears the chips
    t = table(submarines={"Germany": {"11": 1}, "Japan": {"11": 1}})
    advance(t, "Germany", "combat")
    t.send("Germany", "raid", [3], sz=11)  # 4: the cap is full
    advance(t, "Japan", "combat")
    (r,) = of(t.send("Japan", "raid", [3], sz=11), ev.ConvoyRaided)
    assert (r.rolled, r.cap_left, r.damage) == (4, 0, 0)


def uk_round(t: Table, n: int) -> dict:
    """The UK's line of the ipc-ledger for table round `n` (USSR to USA)."""
    uk = next(p for p in t.view("ipc-ledger")["powers"] if p["power"] == "UK")
    return next(r for r in uk["rounds"] if r["round"] == n)


def test_AAR5_a_round_1_raids_chips_cap_a_round_2_raid_of_another_power_before_the_owners_purchase():
    """AA-R5's second consequence (docs/rules/aa1942-convoy.md): the USA raids Germany's SZ 5 last in round 1 (face 1:
    2 chips); in round 2 the USSR, which moves before Germany's purchase, raids it with a 4 (face 3), cut to the 2
    the round-1 chips leave. A zone never holds more than 4 chips; Germany's purchase then frees the cap."""
    t = table(submarines={"USA": {"5": 1}, "USSR": {"5": 1}})
    advance(t, "USA", "combat")
    (first,) = of(t.send("USA", "raid", [1], sz=5), ev.ConvoyRaided)
    assert (t.state.round, first.damage) == (1, 2)
    advance(t, "USSR", "combat")
    assert t.state.round == 2 and t.state.chips == {5: 2}
    (r,) = of(t.send("USSR", "raid", [3], sz=5), ev.ConvoyRaided)
    assert (r.rolled, r.cap_left, r.damage, r.removed) == (4, 2, 2, 2)
    assert t.state.chips == {5: 4} and t.state.treasury["Germany"] == 41 + 41 - 2 - 2  # its round-1 income between
    advance(t, "Germany", "combat-move")
    assert t.state.chips == {} and t.state.cap_left(5) == 4


def test_AAR5_germany_then_japan_may_take_8_ipcs_from_one_zone_in_one_table_round():
    """AA-R5's first consequence (docs/rules/aa1942-convoy.md): in table round 1 (USSR to USA) Germany raids the
    UK's SZ 7 for 4 (face 3); the UK's purchase, between Germany's turn and Japan's, removes the chips; Japan then
    raids SZ 7 for its full 4 (face 3). One zone worth 4 gave 8 IPCs in one table round."""
    t = table(submarines={"Germany": {"7": 1}, "Japan": {"7": 1}})
    advance(t, "Germany", "combat")
    t.send("Germany", "raid", [3], sz=7)
    advance(t, "UK", "combat-move")
    assert t.state.chips == {}
    advance(t, "Japan", "combat")
    (r,) = of(t.send("Japan", "raid", [3], sz=7), ev.ConvoyRaided)
    assert (r.rolled, r.cap_left, r.damage) == (4, 4, 4)
    assert t.state.round == 1 and t.state.chips == {7: 4}
    raids = [e for e in t.log if isinstance(e, ev.ConvoyRaided) and e.sz == 7]
    assert [(e.raider, e.damage) for e in raids] == [("Germany", 4), ("Japan", 4)]
    assert (uk_round(t, 1)["raid_damage_suffered"], uk_round(t, 1)["raid_ipcs_lost"]) == (8, 8)  # the ledger's round 1
    assert t.state.treasury["UK"] == 31 - 4 + 31 - 4  # its round-1 income between


def test_AAR5_AA11_chips_wait_for_the_owners_purchase_and_the_sz_status_view_shows_chips_and_cap_left():
    def sz10(t):
        return next(z for z in sz_status(t.state).convoy_zones if z.sz == 10)

    t = table(submarines={"Japan": {"10": 1}})
    advance(t, "Japan", "combat")
    t.send("Japan", "raid", [2], sz=10)  # 3 IPCs on the UK's SZ 10 in round 1
    assert (sz10(t).chips, sz10(t).cap_left) == (3, 1)
    advance(t, "USSR", "purchase")
    assert t.state.round == 2 and (sz10(t).chips, sz10(t).cap_left) == (3, 1)  # a new round frees nothing
    advance(t, "Germany", "purchase")
    t.send("Germany", "purchase", spend=0)
    assert t.state.chips == {10: 3}  # not Germany's marker
    advance(t, "UK", "purchase")
    t.send("UK", "purchase", spend=0)
    assert t.state.chips == {} and (sz10(t).chips, sz10(t).cap_left) == (0, 4)
    removed = [e for e in t.log if isinstance(e, ev.ChipsRemoved)]
    assert [(r.power, [(z.sz, z.chips) for z in r.zones]) for r in removed] == [("UK", [(10, 3)])]


def test_AA11_the_chips_stay_until_the_owner_pays_in_step_2_of_purchase_and_repair():
    """L54: the chips are removed "during Convoy SZ's owner 1. Purchase and Repair Units. Step 2: Pay for Units and
    Repair": while the UK is still choosing its purchase (step 1) they are under its marker; paying removes them."""
    t = table(submarines={"Germany": {"7": 1}})
    advance(t, "Germany", "combat")
    t.send("Germany", "raid", [1], sz=7)  # face 1: 1 + 1 = 2 chips on the UK's SZ 7
    advance(t, "UK", "purchase")
    zone7 = next(z for z in sz_status(t.state).convoy_zones if z.sz == 7)
    assert t.state.chips == {7: 2} and (zone7.chips, zone7.cap_left) == (2, 2)
    evs = t.send("UK", "purchase", spend=5)
    assert [type(e) for e in evs] == [ev.PurchaseMade, ev.ChipsRemoved, ev.PhaseBegan]
    (removed,) = of(evs, ev.ChipsRemoved)
    assert (removed.power, [(z.sz, z.chips) for z in removed.zones]) == ("UK", [(7, 2)])
    assert t.state.chips == {}


def test_AA10_AAR3_AAR6_damage_leaves_the_treasury_at_once_never_below_zero():
    uk_zones = [3, 7, 8, 10, 23, 34, 35, 45]  # 8 zones x 4 IPCs = 32 > the UK's 31
    t = table(submarines={"Germany": {str(sz): 1 for sz in uk_zones}})
    advance(t, "Germany", "combat")
    for sz in uk_zones[:7]:
        (r,) = of(t.send("Germany", "raid", [3], sz=sz), ev.ConvoyRaided)
        assert r.removed == 4
    assert t.state.treasury["UK"] == 3
    (r,) = of(t.send("Germany", "raid", [3], sz=45), ev.ConvoyRaided)
    assert (r.rolled, r.damage, r.removed, r.treasury) == (4, 4, 3, 0)
    assert t.state.treasury["UK"] == 0
    assert t.state.chips[45] == 4 and t.state.cap_left(45) == 0  # AA-R6: the damage counts in full


def test_AA11_one_chip_per_ipc_of_damage():
    t = table(submarines={"Germany": {"7": 1, "8": 1}})
    advance(t, "Germany", "combat")
    t.send("Germany", "raid", [1], sz=7)
    t.send("Germany", "raid", [5], sz=8)
    assert t.state.chips == {7: 2, 8: 1}


# ---- AA-R7, AA-R14: capture, liberation, capitals ------------------------------------------------------------


def test_AAR7_capturing_a_capital_takes_the_treasury_and_stops_income_and_purchases():
    t = table()
    advance(t, "Japan", "combat")
    (cap,) = of(t.send("Japan", "capture", territory="Russia"), ev.TerritoryCaptured)
    assert (cap.from_power, cap.plundered) == ("USSR", 48)  # 24 at start + its round-1 income
    assert t.state.treasury["USSR"] == 0 and t.state.treasury["Japan"] == 30 + 48
    advance(t, "USSR", "purchase")
    assert t.legal()["purchase"].choices == [{"spend": 0}]
    assert income_of(t.state, "USSR") == 0


def test_AAR7_capture_is_for_enemy_originals_liberate_for_friendly_ones():
    t = table()
    advance(t, "Germany", "combat")
    t.send("Germany", "capture", territory="Egypt")
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "liberate", territory="India")  # enemy-held, but not an Axis original
    assert "use capture" in e.value.detail
    advance(t, "USA", "combat")
    with pytest.raises(IllegalCommand):
        t.send("USA", "capture", territory="Egypt")  # a UK original: liberate it
    (lib,) = of(t.send("USA", "liberate", territory="Egypt"), ev.TerritoryLiberated)
    assert (lib.from_power, lib.to_power) == ("Germany", "UK")  # UK holds London: it returns to the UK
    with pytest.raises(IllegalCommand):
        t.send("USA", "capture", territory="Sweden")  # neutral


def test_AAR7_a_liberated_territory_stays_with_the_liberator_while_its_owners_capital_is_lost():
    t = table()
    advance(t, "Germany", "combat")
    t.send("Germany", "capture", territory="United Kingdom")
    t.send("Germany", "capture", territory="Egypt")
    advance(t, "USA", "combat")
    (lib,) = of(t.send("USA", "liberate", territory="Egypt"), ev.TerritoryLiberated)
    assert lib.to_power == "USA"


def test_AAR7_the_digest_says_who_holds_a_liberated_territory():
    """AA-R7 in the digest: a territory an ally liberates while its owner's capital is lost stays with the ally, so the
    line says so, not that it is the liberator's "again" (the cold audit of 4.0.0, F3); its owner's own liberation
    gives it back "again"."""
    t = table()
    advance(t, "Germany", "combat")
    t.send("Germany", "capture", territory="United Kingdom")
    t.send("Germany", "capture", territory="Egypt")
    t.send("Germany", "capture", territory="Karelia S.S.R.")
    advance(t, "UK", "combat")
    evs = t.send("UK", "liberate", territory="Karelia S.S.R.")  # the USSR holds Russia: Karelia is the USSR's again
    assert "UK liberated Karelia S.S.R. from Germany: it is USSR's again" in digest(t.state, evs)
    advance(t, "USA", "combat")
    evs = t.send("USA", "liberate", territory="Egypt")
    assert t.state.control["Egypt"] == "USA"
    assert digest(t.state, evs) == [
        "USA liberated Egypt from Germany and holds it while UK's capital is lost",
        *digest(t.state, evs[1:]),
    ]


def test_AAR14_a_power_that_regains_its_capital_regains_its_territories_its_allies_hold():
    t = table()
    advance(t, "Germany", "combat")
    t.send("Germany", "capture", territory="United Kingdom")
    t.send("Germany", "capture", territory="Egypt")
    assert {7, 8, 34} <= set(t.state.inactive)  # London borders SZ 7 and 8, Egypt SZ 34
    advance(t, "USA", "combat")
    t.send("USA", "liberate", territory="Egypt")  # AA-R7: the UK has lost its capital, so the USA holds Egypt
    assert t.state.control["Egypt"] == "USA" and 34 in t.state.inactive
    advance(t, "UK", "combat")
    evs = t.send("UK", "liberate", territory="United Kingdom")
    assert t.state.control["Egypt"] == "UK" and not {7, 8, 34} & set(t.state.inactive)
    (back,) = of(evs, ev.TerritoriesReturned)
    assert (back.power, back.capital, [(r.territory, r.from_power) for r in back.territories]) == (
        "UK",
        "United Kingdom",
        [("Egypt", "USA")],
    )
    assert sorted(e.sz for e in of(evs, ev.ConvoyZoneReactivated)) == [7, 8, 34]
    uk = next(line for line in t.view("campaign-sheet")["rounds"][-1]["powers"] if line["power"] == "UK")
    assert uk["returned"] == ["Egypt"]


def test_AAR14_an_ally_freeing_a_capital_gives_back_what_the_allies_hold_not_what_the_enemy_holds():
    t = table()
    advance(t, "Germany", "combat")
    for land in ("Russia", "Archangel", "Karelia S.S.R."):
        t.send("Germany", "capture", territory=land)
    advance(t, "UK", "combat")
    t.send("UK", "liberate", territory="Archangel")  # the USSR has no capital: the UK holds Archangel
    assert t.state.control["Archangel"] == "UK"
    advance(t, "USA", "combat")
    evs = t.send("USA", "liberate", territory="Russia")
    assert (t.state.control["Russia"], t.state.control["Archangel"]) == ("USSR", "USSR")
    assert t.state.control["Karelia S.S.R."] == "Germany"  # the enemy's is not given back
    (back,) = of(evs, ev.TerritoriesReturned)
    assert [(r.territory, r.from_power) for r in back.territories] == [("Archangel", "UK")]
    assert t.state.inactive[4] == ["Karelia S.S.R."]  # SZ 4 stays face down while Karelia is German


# ---- AA-R8, R9, R10, R15: submarines ------------------------------------------------------------------


def test_AAR8_submarines_move_up_to_two_sea_zones():
    t = table(submarines={"Germany": {"5": 1}})
    advance(t, "Germany", "combat-move")
    with pytest.raises(IllegalCommand):
        t.send("Germany", "move_submarines", from_sz=5, to_sz=2, count=1)  # 5-6-3-2: three zones
    (m,) = of(t.send("Germany", "move_submarines", from_sz=5, to_sz=3, count=1), ev.SubmarinesMoved)
    assert m.distance == 2


def test_AAR8_moved_submarines_do_not_move_again_this_turn():
    t = table(submarines={"Germany": {"6": 2}})
    advance(t, "Germany", "combat-move")
    t.send("Germany", "move_submarines", from_sz=6, to_sz=7, count=1)
    with pytest.raises(IllegalCommand):
        t.send("Germany", "move_submarines", from_sz=7, to_sz=8, count=1)
    advance(t, "Germany", "noncombat-move")
    assert t.legal()["move_submarines"].choices[0]["from_sz"] == 6  # only the unmoved one
    t.send("Germany", "move_submarines", from_sz=6, to_sz=5, count=1)
    assert "move_submarines" not in t.legal()


def test_AAR9_submarines_are_placed_in_mobilize():
    t = table()
    advance(t, "Germany", "purchase")
    t.send("Germany", "purchase", spend=12)  # two submarines' worth (AA-R17)
    advance(t, "Germany", "mobilize")
    t.send("Germany", "place_submarines", sz=9, count=2)
    assert t.state.subs["Germany"] == {9: 2}


def buy_and_mobilize(t: Table, power: str, spend: int) -> None:
    """`power` spends `spend` IPCs in its Purchase & Repair, then the table plays on to its mobilize phase."""
    advance(t, power, "purchase")
    t.send(power, "purchase", spend=spend)
    advance(t, power, "mobilize")


def test_AAR9_the_placement_form_starts_off_the_powers_own_coast_with_all_it_bought():
    """A play trial: every power's placement form started on sea zone 1 (off Eastern Canada, Japan's too) and a count
    of 1, so USA took six sends for six submarines. It starts off the capital (else a territory the power holds), each
    zone named with the land it borders, and on the count bought; the ledger still takes any zone (AA-R9)."""
    t = table()
    buy_and_mobilize(t, "Germany", 20)
    controls = {x.field: x for x in t.legal()["place_submarines"].ui.controls}
    assert controls["sz"].default == 5 and controls["count"].default == 3  # sz 5 borders Germany; 20 IPCs buy 3
    labels = {o.value: o.label for o in controls["sz"].options}
    assert labels[5] == "Sea zone 5 (Baltic States, Finland, Germany, Karelia S.S.R., Northwestern Europe, Norway, Sweden)"
    t.send("Germany", "place_submarines", sz=9, count=3)  # any zone still, on the player's word
    assert t.state.subs["Germany"].get(9) == 3
    old = table(edition="3.0.0")  # no count bought in 3.0.0 (AA-R17 came in 4.0.0): no count preset, not 99
    buy_and_mobilize(old, "Germany", 20)
    assert {x.field: x for x in old.legal()["place_submarines"].ui.controls}["count"].default is None


def test_AAR17_AAE4_2_a_power_places_at_most_one_submarine_per_6_ipcs_it_spent_this_turn():
    """"6 IPCs Submarines": 20 IPCs spent in Germany's Purchase & Repair pay for 3 (2 IPCs are left over), placed
    over as many commands and zones as it likes; the fourth is refused, and the entry goes when none is left."""
    t = table()
    buy_and_mobilize(t, "Germany", 20)
    spec = t.legal()["place_submarines"]
    assert spec.schema["properties"]["count"]["maximum"] == 3
    assert "at most 3 more this turn: 20 IPCs spent in Purchase & Repair pay for 3 submarines" in spec.description
    assert "(AA-R17)" in spec.description
    t.send("Germany", "place_submarines", sz=5, count=2)
    assert t.legal()["place_submarines"].schema["properties"]["count"]["maximum"] == 1
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "place_submarines", sz=9, count=2)
    assert "Germany may place 1 more submarine(s) this turn" in e.value.detail and "(AA-R17)" in e.value.detail
    t.send("Germany", "place_submarines", sz=9, count=1)
    assert "place_submarines" not in t.legal() and t.state.subs["Germany"] == {5: 2, 9: 1}
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "place_submarines", sz=9, count=1)
    assert "Germany may place 0 more" in e.value.detail and "spent 20 IPCs" in e.value.detail
    assert "(AA-R17)" in e.value.detail


@pytest.mark.parametrize("spend", [0, 5])
def test_AAR17_AAE4_2_a_power_that_spent_less_than_6_ipcs_places_none(spend):
    t = table()
    buy_and_mobilize(t, "Germany", spend)
    assert [s.type for s in engine.awaiting(t.game, "Germany")] == ["end_phase", "end_game"]  # no place entry
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "place_submarines", sz=5, count=1)
    assert f"it spent {spend} IPCs in this turn's Purchase & Repair, which pays for 0" in e.value.detail
    assert "(AA-R17)" in e.value.detail


def test_AAR17_AAR7_a_power_without_its_capital_spends_nothing_and_places_no_submarine():
    """The cold audit's case: Moscow taken, the USSR may spend nothing (AA-R7), so it places nothing either; 3.0.0
    took 99 submarines a command, in any number of zones."""
    t = table(edition="4.0.0")
    advance(t, "Germany", "combat")
    t.send("Germany", "capture", territory="Russia")
    buy_and_mobilize(t, "USSR", 0)
    assert "place_submarines" not in t.legal()
    with pytest.raises(IllegalCommand) as e:
        t.send("USSR", "place_submarines", sz=5, count=99)
    assert "its capital is in enemy hands: it spends nothing, AA-R7" in e.value.detail
    assert "(AA-R17)" in e.value.detail and t.state.subs.get("USSR", {}) == {}


def test_AAR9_AAE4_2_a_3_0_0_game_places_any_number_as_before():
    """A game made under 3.0.0 keeps its rules: the ledger takes the player's word for how many, also from a power
    that spent nothing or cannot spend (AA-R7)."""
    t = table(edition="3.0.0")
    advance(t, "Germany", "combat")
    t.send("Germany", "capture", territory="Russia")
    buy_and_mobilize(t, "USSR", 0)
    spec = t.legal()["place_submarines"]
    assert spec.schema["properties"]["count"]["maximum"] == 99 and "AA-R17" not in spec.description
    for sz in (5, 15, 60):
        t.send("USSR", "place_submarines", sz=sz, count=99)
    assert t.state.subs["USSR"] == {5: 99, 15: 99, 60: 99}
    assert t.legal()["place_submarines"] is spec  # still any count: the entry is the same


def test_AAR10_losses_of_enemy_and_own_submarines_are_recorded_in_the_acting_powers_combat():
    t = table(submarines={"Germany": {"7": 2}, "UK": {"7": 1}})
    advance(t, "Germany", "combat")
    t.send("Germany", "lose_submarines", power="UK", sz=7, count=1)
    t.send("Germany", "lose_submarines", power="Germany", sz=7, count=1)
    with pytest.raises(IllegalCommand):
        t.send("Germany", "lose_submarines", power="UK", sz=7, count=1)
    assert t.state.subs["Germany"] == {7: 1} and t.state.subs["UK"] == {}


RAIDER_AND_ALLIES = {"Germany": {"7": 2}, "UK": {"7": 2}, "Japan": {"7": 1, "60": 1}}


def raided_once(edition: str) -> Table:
    """Germany's combat: one of its two submarines in UK's SZ 7 raided (the other did nothing yet); two UK submarines
    share the zone, and Japan, Germany's ally, has one there and one in its own SZ 60."""
    t = table(submarines=RAIDER_AND_ALLIES, edition=edition)
    advance(t, "Germany", "combat")
    t.send("Germany", "raid", [6], sz=7)
    assert (t.state.used[7].raided, t.state.fresh(7)) == (1, 1)
    return t


def test_AAR10_AA6_AA7_AAE4_1_a_submarine_that_raided_and_an_allys_are_not_lost_in_the_acting_powers_combat():
    """"Once the raid is done, Submarine cannot retreat and must stay in raided SZ." "There is no defense roll and any
    enemy Destroyer within the SZ cannot do anything about it. It is up to the Convoy SZ owner's to use Destroyers (and
    more) on his turn's attack phase to sink Subs." And allies do not attack together in A&A 1942.2: Japan's
    submarines take no part in Germany's combat (the cold audit of 3.0.0, F2)."""
    t = raided_once("4.0.0")
    spec = t.legal()["lose_submarines"]
    assert spec.choices == [
        {"power": "Germany", "sz": 7, "count": 1},
        {"power": "UK", "sz": 7, "count": 1},
        {"power": "UK", "sz": 7, "count": 2},
    ]
    assert "never those that raided this turn nor its allies'" in spec.description
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "lose_submarines", power="Germany", sz=7, count=2)
    assert "1 of Germany's submarines in sea zone 7 raided this turn" in e.value.detail
    assert "may record at most 1 of its own lost there" in e.value.detail and "AA-R10" in e.value.detail
    with pytest.raises(IllegalCommand) as e:  # more than the fleet: what may be recorded, not the fleet's size (N1)
        t.send("Germany", "lose_submarines", power="Germany", sz=7, count=3)
    assert "may record at most 1 of its own lost there" in e.value.detail and "has 2" not in e.value.detail
    for sz, count in ((7, 1), (60, 1), (7, 2)):
        with pytest.raises(IllegalCommand) as e:
            t.send("Germany", "lose_submarines", power="Japan", sz=sz, count=count)
        assert "Japan is Germany's ally and takes no part in its combat" in e.value.detail
        assert "records the losses of its enemies' submarines and of its own that did not raid (AA-R10)" in (
            e.value.detail
        )
    t.send("Germany", "lose_submarines", power="Germany", sz=7, count=1)  # the one that did not raid
    assert t.state.subs["Germany"] == {7: 1} and t.state.used[7].raided == 1
    assert [c["power"] for c in t.legal()["lose_submarines"].choices] == ["UK", "UK"]
    with pytest.raises(IllegalCommand) as e:  # the raider stays, for UK's turn
        t.send("Germany", "lose_submarines", power="Germany", sz=7, count=1)
    assert "may record at most 0 of its own" in e.value.detail
    advance(t, "UK", "combat")  # the convoy zone's owner sinks it on its own turn
    t.send("UK", "lose_submarines", power="Germany", sz=7, count=1)
    assert t.state.subs["Germany"] == {}


def test_AAR10_AAE4_1_a_3_0_0_game_still_records_its_raiders_and_its_allies_submarines_lost():
    """A game made under 3.0.0 keeps its rules: any power's submarines, the acting power's raiders last."""
    t = raided_once("3.0.0")
    spec = t.legal()["lose_submarines"]
    assert {(c["power"], c["sz"]) for c in spec.choices} == {("Germany", 7), ("UK", 7), ("Japan", 7), ("Japan", 60)}
    assert spec.description == "Record submarines of any power sunk in Germany's combat (general combat begins)."
    t.send("Germany", "lose_submarines", power="Germany", sz=7, count=2)  # the raider too
    t.send("Germany", "lose_submarines", power="Japan", sz=7, count=1)
    t.send("Germany", "lose_submarines", power="Japan", sz=60, count=1)
    assert t.state.subs["Germany"] == {} and t.state.subs["Japan"] == {}


def moves_to(t: Table, to_sz: int) -> list[dict]:
    return [m for m in legal_moves(t.state) if m["to_sz"] == to_sz]


def test_AAR15_a_side_passes_a_canal_only_while_it_holds_the_canals_territories():
    t = table(submarines={"Germany": {"17": 1, "15": 1}, "UK": {"17": 1}, "Japan": {"19": 1}, "USA": {"19": 1}})
    advance(t, "Germany", "combat-move")
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "move_submarines", from_sz=17, to_sz=34, count=1)  # Suez: Egypt and Trans-Jordan
    assert "the Suez Canal is closed to Axis this turn" in e.value.detail
    with pytest.raises(IllegalCommand):
        t.send("Germany", "move_submarines", from_sz=15, to_sz=34, count=1)  # 15-17-34, through Suez
    assert moves_to(t, 34) == []
    advance(t, "UK", "combat-move")
    (m,) = of(t.send("UK", "move_submarines", from_sz=17, to_sz=34, count=1), ev.SubmarinesMoved)
    assert m.distance == 1
    advance(t, "Japan", "combat-move")
    with pytest.raises(IllegalCommand):
        t.send("Japan", "move_submarines", from_sz=19, to_sz=18, count=1)  # Panama: Central America
    advance(t, "USA", "combat-move")
    t.send("USA", "move_submarines", from_sz=19, to_sz=18, count=1)


def test_AAR15_control_counts_as_the_moving_sides_turn_begins():
    t = table(submarines={"Germany": {"17": 2}, "UK": {"34": 1}})
    advance(t, "Germany", "combat")
    t.send("Germany", "capture", territory="Egypt")
    t.send("Germany", "capture", territory="Trans-Jordan")
    advance(t, "Germany", "noncombat-move")
    with pytest.raises(IllegalCommand):
        t.send("Germany", "move_submarines", from_sz=17, to_sz=34, count=1)  # taken this turn: not yet
    advance(t, "UK", "combat-move")
    with pytest.raises(IllegalCommand):
        t.send("UK", "move_submarines", from_sz=34, to_sz=17, count=1)  # lost before the UK's turn began
    advance(t, "Germany", "combat-move")
    t.send("Germany", "move_submarines", from_sz=17, to_sz=34, count=1)


def test_AAR15_a_canal_split_between_the_sides_is_closed_to_both():
    t = table(submarines={"Germany": {"17": 1}, "UK": {"17": 1}})
    advance(t, "Germany", "combat")
    t.send("Germany", "capture", territory="Egypt")  # Trans-Jordan stays British
    advance(t, "UK", "combat-move")
    assert moves_to(t, 34) == []
    advance(t, "Germany", "combat-move")
    assert moves_to(t, 34) == []


# ---- AA-R16: the setup -------------------------------------------------------------------------------------

STANDARD_1942_2 = {"USSR": {4: 1}, "Germany": {5: 2, 9: 2}, "UK": {39: 1}, "Japan": {44: 1}, "USA": {53: 1}}


def fleets(t: Table) -> dict:
    return {p: zones for p, zones in t.state.subs.items() if zones}


def test_AAR16_a_new_game_starts_from_the_standard_setup_recorded_in_its_genesis():
    t = Table()  # no options, as a client creating a game sends none
    assert t.log[0].options == {"setup": "1942.2"}
    assert fleets(t) == STANDARD_1942_2


def test_AAR16_setup_empty_is_recorded_too_and_option_submarines_add_to_the_setup():
    t = Table(options={"setup": "empty"})
    assert t.log[0].options == {"setup": "empty"} and fleets(t) == {}
    t = Table(options={"submarines": {"Germany": {"5": 1, "7": 1}}})
    assert fleets(t) == STANDARD_1942_2 | {"Germany": {5: 3, 7: 1, 9: 2}}


def test_AAR16_a_stored_game_of_ruleset_1_is_refused_and_told_which_engine_replays_it():
    """A game recorded by ruleset 1.0.0 (options without `setup`: it began with no submarines) may mean something
    else under 2.x, so this engine refuses it instead of folding it into another game, on its own data set or
    today's, and says which editions it runs (1.x was never released: docs/rules/aa1942-convoy.md "Editions")."""
    bundle = json.loads((Path(__file__).parent / "fixtures" / "aa1942-north-atlantic-1.0.0.json").read_text())
    genesis = decode_event("GameCreated", 1, bundle["events"][0]["body"]["data"])
    assert genesis.ruleset.version == "1.0.0" and "setup" not in genesis.options
    today = json.loads((Path(data.__file__).parent / RULESET.data_file.rsplit("/", 1)[-1]).read_bytes())
    pinned = json.dumps({k: v for k, v in today.items() if k != "canals"}, indent=1, ensure_ascii=False).encode()
    assert hashlib.sha256(pinned).hexdigest() == genesis.ruleset.data_sha256  # the 1.x data set: no canals
    loaded = RULESETS["aa1942-convoy"]
    for data_set, sha in ((loaded.data, loaded.data_sha256), (parse_map(pinned), genesis.ruleset.data_sha256)):
        with pytest.raises(Rejected) as e:
            engine.start(RULESET, data_set, sha, bundle["game"], genesis)
        assert e.value.code == "edition-not-run" and "aa1942-convoy 1.0.0" in e.value.detail
        assert e.value.extra["editions"] == RULESET.editions.run


def fleets_of(state) -> dict:
    return {p: zones for p, zones in state.subs.items() if zones}


# ---- AA-R11, AA-R12: end and seats -----------------------------------------------------------------


def test_AAR11_the_game_ends_after_the_last_round_of_the_option():
    t = table(rounds=1)
    advance(t, "USA", "mobilize")
    evs = t.send("USA", "end_phase")
    assert of(evs, GameEnded) and t.game.over and t.legal() == {}
    with pytest.raises(Rejected) as e:
        t.send("USSR", "purchase", spend=0)
    assert e.value.code == "game-over"


def test_AAR11_the_last_turns_end_phase_says_the_game_ends():
    """The end of the last power's turn of the last round of `rounds` ends the game (AA-R11), and its label says so
    rather than naming the next power (the cold audit of 4.0.0, F4); the same turn of an earlier round names it."""
    t = table(rounds=2)
    advance(t, "USA", "mobilize")
    assert t.legal()["end_phase"].labels[0].endswith("; USSR is next")
    t.send("USA", "end_phase")
    advance(t, "USA", "mobilize")
    assert t.state.round == 2
    assert t.legal()["end_phase"].labels[0].endswith("; the game ends")
    assert of(t.send("USA", "end_phase"), GameEnded) and t.game.over


def test_AAR11_the_referee_ends_the_game():
    t = table()
    with pytest.raises(Forbidden):
        t.send("USSR", "end_game")
    (end,) = of(t.send("referee", "end_game", reason="Moscow fell"), GameEnded)
    assert end.reason == "Moscow fell" and t.game.over


def test_AAR12_side_seats_play_their_powers():
    t = table(seats=["Axis", "Allies"])
    t.send("Allies", "purchase", spend=0)
    advance(t, "Germany", "purchase")
    with pytest.raises(Forbidden):
        t.send("Allies", "purchase", spend=0)
    t.send("Axis", "purchase", spend=0)


def test_AAR12_seats_must_cover_every_power():
    with pytest.raises(InvalidInput) as e:
        table(seats=["Axis", "UK"])
    assert "no seat plays" in e.value.detail


# ---- the engine around the rules --------------------------------------------------------------------


def test_the_first_command_locks_the_seed_before_any_roll():
    t = table(submarines={"Germany": {"7": 1}})
    assert t.game.lock is None
    t.send("USSR", "purchase", spend=0)
    assert t.game.lock is not None and t.game.next_roll == 0


def test_a_rejected_command_changes_nothing():
    t = table(submarines={"Germany": {"7": 1}})
    advance(t, "Germany", "combat")
    before = (t.game.version, t.game.next_roll, repr(t.state))
    with pytest.raises(IllegalCommand):
        t.send("Germany", "raid", sz=10)
    assert (t.game.version, t.game.next_roll, repr(t.state)) == before


def test_a_refusal_lists_what_is_legal_in_the_shape_of_awaiting():
    t = table(submarines={"Germany": {"6": 1}})
    with pytest.raises(IllegalCommand) as e:
        t.send("USSR", "purchase", spend=25)
    assert "at most 24 IPCs" in e.value.detail
    assert e.value.legal == [engine.entry(s) for s in engine.awaiting(t.game, "USSR")]
    assert e.value.legal[0]["choices"][-1] == {"spend": 24} and e.value.legal[0]["description"]
    advance(t, "Germany", "combat-move")
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "move_submarines", from_sz=6, to_sz=10, count=1)  # 6-7-9-10: three zones
    assert [x["type"] for x in e.value.legal] == ["move_submarines", "end_phase", "end_game"]


# ---- awaiting's descriptors: what a `ui` offers is what the rules accept, at its bounds ----------------------


def accepts(t: Table, seat_: str, type_: str, **args) -> bool:
    """Whether the rules take this command now (judged, not applied: the state is left as it was)."""
    try:
        engine.decide_command(t.game, seat_, engine.parse_command(t.loaded.ruleset, {"type": type_, **args}), b"t")
    except Rejected:
        return False
    return True


def variants(spec: engine.CommandSpec) -> dict[tuple, dict[str, dict]]:
    """A per-zone descriptor: each variant's fixed arguments -> its controls by field."""
    (control,) = msgspec.to_builtins(spec.ui)["controls"]
    assert control["kind"] == "variants"
    return {tuple(v["fixed"].values()): {c["field"]: c for c in v["controls"]} for v in control["variants"]}


def test_AAR7_AA3_past_64_choices_purchase_is_a_number_up_to_what_may_be_spent():
    t = table()
    advance(t, "Germany", "purchase")
    t.send("Germany", "purchase", spend=0)
    t.send("Germany", "end_phase")
    advance(t, "Germany", "purchase")  # round 2: its 41 and a round's income
    top = t.state.treasury["Germany"]
    spec = t.legal()["purchase"]
    assert top > 63 and spec.choices is None  # 0..top: more than 64 choices
    (number,) = msgspec.to_builtins(spec.ui)["controls"]
    assert (number["kind"], number["field"], number["min"], number["max"]) == ("number", "spend", 0, top)
    assert not accepts(t, "Germany", "purchase", spend=top + 1)
    assert accepts(t, "Germany", "purchase", spend=top) and accepts(t, "Germany", "purchase", spend=0)


def test_AAR8_AAR15_past_64_choices_each_group_of_submarines_offers_its_own_reach_and_count():
    t = table(submarines={"Germany": {"5": 40, "17": 2}})
    advance(t, "Germany", "combat-move")
    spec = t.legal()["move_submarines"]
    assert spec.choices is None
    offered = variants(spec)
    legal = list(legal_moves(t.state))
    for (sz,), controls in offered.items():
        assert controls["to_sz"]["kind"] == "select" and controls["count"]["min"] == 1
        reach = [o["value"] for o in controls["to_sz"]["options"]]
        assert reach == sorted({m["to_sz"] for m in legal if m["from_sz"] == sz})  # what the rules accept, no more
        top = controls["count"]["max"]
        assert top == {5: 40, 17: 2}[sz]
        assert not accepts(t, "Germany", "move_submarines", from_sz=sz, to_sz=reach[-1], count=top + 1)
        assert accepts(t, "Germany", "move_submarines", from_sz=sz, to_sz=reach[-1], count=top)
    assert sorted(offered) == [(5,), (17,)]
    reach_17 = [o["value"] for o in offered[(17,)]["to_sz"]["options"]]
    assert 15 in reach_17 and 34 not in reach_17  # AA-R15: Suez is closed to the Axis
    assert not accepts(t, "Germany", "move_submarines", from_sz=17, to_sz=34, count=1)


def test_AAR8_a_group_larger_than_a_command_offers_counts_up_to_the_commands_limit():
    t = table(setup="1942.2", submarines={"Germany": {"5": 99}})  # the setup's 2 and 99 more
    advance(t, "Germany", "combat-move")
    assert t.state.subs["Germany"][5] == 101
    controls = variants(t.legal()["move_submarines"])[(5,)]
    assert controls["count"]["max"] == 99
    assert accepts(t, "Germany", "move_submarines", from_sz=5, to_sz=6, count=99)
    assert not accepts(t, "Germany", "move_submarines", from_sz=5, to_sz=6, count=100)  # the command's limit


def test_AAR9_placing_is_any_sea_zone_of_the_map_and_up_to_99_a_command():
    """3.0.0: the count is any a command carries (from 4.0.0 AA-R17 bounds it, the test below)."""
    t = table(edition="3.0.0")
    advance(t, "Germany", "mobilize")
    spec = t.legal()["place_submarines"]
    zone, count = msgspec.to_builtins(spec.ui)["controls"]
    zones = [o["value"] for o in zone["options"]]
    assert zone["kind"] == "select" and zones == sorted(int(sz) for sz in t.state.map.sea_zones) == list(range(1, 66))
    assert (count["kind"], count["field"], count["min"], count["max"]) == ("number", "count", 1, 99)
    assert accepts(t, "Germany", "place_submarines", sz=65, count=99)
    assert accepts(t, "Germany", "place_submarines", sz=1, count=1)
    assert not accepts(t, "Germany", "place_submarines", sz=65, count=100)
    assert not accepts(t, "Germany", "place_submarines", sz=66, count=1)


def test_AAR9_AAR17_placing_is_any_sea_zone_of_the_map_and_up_to_what_this_turns_spending_bought():
    t = table()
    buy_and_mobilize(t, "Germany", 41)  # 6 submarines' worth
    spec = t.legal()["place_submarines"]
    zone, count = msgspec.to_builtins(spec.ui)["controls"]
    assert [o["value"] for o in zone["options"]] == list(range(1, 66))
    assert (count["kind"], count["field"], count["min"], count["max"]) == ("number", "count", 1, 6)
    assert accepts(t, "Germany", "place_submarines", sz=65, count=6)
    assert not accepts(t, "Germany", "place_submarines", sz=65, count=7)
    assert not accepts(t, "Germany", "place_submarines", sz=66, count=1)
    t.send("Germany", "place_submarines", sz=5, count=4)
    (_, count), = [msgspec.to_builtins(t.legal()["place_submarines"].ui)["controls"]]
    assert count["max"] == 2 and accepts(t, "Germany", "place_submarines", sz=1, count=2)
    assert not accepts(t, "Germany", "place_submarines", sz=1, count=3)


def test_AA5_past_64_choices_each_zone_offers_the_submarines_that_may_still_fight():
    t = table(submarines={"Germany": {"7": 40, "10": 30}})
    advance(t, "Germany", "combat")
    t.send("Germany", "raid", 6, sz=7)  # one of zone 7's has raided: it may no longer fight (AA-5)
    spec = t.legal()["fight"]
    assert spec.choices is None
    offered = variants(spec)
    assert {sz: c["count"]["max"] for (sz,), c in offered.items()} == {7: 39, 10: 30}
    for (sz,), controls in offered.items():
        top = controls["count"]["max"]
        assert not accepts(t, "Germany", "fight", sz=sz, count=top + 1)
        assert accepts(t, "Germany", "fight", sz=sz, count=top)


def test_AAR10_past_64_choices_each_fleet_of_any_power_offers_its_own_count():
    t = table(submarines={"Germany": {"7": 40}, "UK": {"7": 30, "8": 5}})
    advance(t, "Germany", "combat")
    spec = t.legal()["lose_submarines"]
    assert spec.choices is None
    offered = variants(spec)
    assert {k: c["count"]["max"] for k, c in offered.items()} == {("Germany", 7): 40, ("UK", 7): 30, ("UK", 8): 5}
    for (power, sz), controls in offered.items():
        top = controls["count"]["max"]
        assert not accepts(t, "Germany", "lose_submarines", power=power, sz=sz, count=top + 1)
        assert accepts(t, "Germany", "lose_submarines", power=power, sz=sz, count=top)


def test_AAR10_AAE4_1_past_64_choices_the_fleets_offered_are_the_enemies_and_the_own_that_did_not_raid():
    t = table(submarines={"Germany": {"7": 40}, "UK": {"7": 30}, "Japan": {"7": 10, "8": 3}})
    advance(t, "Germany", "combat")
    t.send("Germany", "raid", [6], sz=7)
    t.send("Germany", "raid", [6], sz=7)
    spec = t.legal()["lose_submarines"]
    assert spec.choices is None
    offered = variants(spec)
    assert {k: c["count"]["max"] for k, c in offered.items()} == {("Germany", 7): 38, ("UK", 7): 30}
    (control,) = msgspec.to_builtins(spec.ui)["controls"]
    assert control["variants"][0]["label"] == (
        "38 Germany submarines in sea zone 7 (and 2 that raided this turn, not lost in this combat)"
    )
    assert not accepts(t, "Germany", "lose_submarines", power="Germany", sz=7, count=39)
    assert accepts(t, "Germany", "lose_submarines", power="Germany", sz=7, count=38)
    assert not accepts(t, "Germany", "lose_submarines", power="Japan", sz=8, count=1)


def test_listed_choices_carry_no_descriptor_and_the_descriptor_is_kept_with_its_entry():
    """Issue 21: a descriptor is built only where the choices are not listed, and a kept entry keeps it (3.0.0, whose
    place entry is the same all the phase; from 4.0.0 each placing changes its count)."""
    t = table(submarines={"Germany": {"5": 1}}, edition="3.0.0")
    advance(t, "Germany", "combat-move")
    assert t.legal()["move_submarines"].choices and t.legal()["move_submarines"].ui is None
    advance(t, "Germany", "mobilize")
    before = t.legal()["place_submarines"]
    t.send("Germany", "place_submarines", sz=9, count=2)
    assert t.legal()["place_submarines"] is before  # built once for the map and the power, kept across commands


def test_AAR4_the_views_follow_the_ledger():
    t = table(submarines={"Germany": {"7": 1}})
    advance(t, "Germany", "combat")
    t.send("Germany", "raid", [2], sz=7)  # 3 IPCs
    ledger = {p["power"]: p for p in t.view("ipc-ledger")["powers"]}
    assert ledger["UK"]["treasury"] == 28 and ledger["UK"]["rounds"][0]["raid_damage_suffered"] == 3
    assert ledger["Germany"]["rounds"][0]["raid_damage_inflicted"] == 3 and ledger["Germany"]["rounds"][0]["raids"] == 1
    assert ledger["Germany"]["totals"]["raids"] == 1 and ledger["UK"]["totals"]["raid_ipcs_lost"] == 3
    sz7 = next(z for z in t.view("sz-status")["convoy_zones"] if z["sz"] == 7)
    assert (sz7["owner"], sz7["active"], sz7["chips"], sz7["cap_left"], sz7["submarines"]) == (
        "UK",
        True,
        3,
        1,
        {"Germany": 1},
    )
    t.send("Germany", "capture", territory="Archangel")
    sheet = t.view("campaign-sheet")
    assert sheet["rounds"][0]["powers"][1]["captured"] == ["Archangel"]
    assert {"territory": "Archangel", "original_owner": "USSR", "held_by": "Germany"} in sheet["occupied"]
    board = t.view("map")
    zones = {z["sz"]: z for z in board["sea_zones"]}
    assert len(zones) == 65 and zones[4]["convoy_owner"] == "USSR" and zones[17]["adjacent_sea_zones"] == [15, 34]
    assert {"name": "Archangel", "original_owner": "USSR", "held_by": "Germany", "ipc": 1} in board["territories"]
    suez = next(c for c in board["canals"] if c["name"] == "Suez Canal")
    assert (suez["sea_zones"], suez["held_by"], suez["open_this_turn"]) == ([17, 34], "Allies", False)


# ---- AA-R18 (5.0.0, AA-E5-1): a submarine that fought may retreat; a raider may not ----------------------------------

RETREAT_TEXT = "Once the raid is done, Submarine cannot retreat and must stay in raided SZ"


def fought_in_7(edition: str | None = None, **subs: dict[str, int]) -> Table:
    """The cold audit of 4.0.0, F2: Germany moves a submarine 9 -> 7 and commits it to general combat there."""
    t = table(submarines={"Germany": {"9": 1, **subs}}, edition=edition)
    advance(t, "Germany", "combat-move")
    t.send("Germany", "move_submarines", from_sz=9, to_sz=7, count=1)
    t.send("Germany", "end_phase")
    t.send("Germany", "fight", sz=7, count=1)
    return t


def test_AAR18_AAE5_1_a_submarine_that_fought_retreats_and_next_turn_cannot_raid_the_battle_zone_without_moving_back():
    """The text singles out raiders ("Once the raid is done, Submarine cannot retreat"): one in a regular attack may
    retreat, as in A&A 1942.2, to an adjacent zone (the player's word that the attack came from it)."""
    t = fought_in_7()
    spec = t.legal()["retreat_submarines"]
    assert spec.choices == [{"from_sz": 7, "to_sz": to, "count": 1} for to in (2, 3, 6, 8, 9)]
    assert spec.labels[-1] == "Retreat 1 submarine that fought in sea zone 7 to sea zone 9"
    before = t.state
    evs = t.send("Germany", "retreat_submarines", from_sz=7, to_sz=9, count=1)
    assert [type(e) for e in evs] == [ev.SubmarinesRetreated]
    assert msgspec.to_builtins(evs[0]) == {"power": "Germany", "from_sz": 7, "to_sz": 9, "count": 1}
    assert views.digest(before, evs) == ["Germany retreated one submarine that fought in sea zone 7 to sea zone 9"]
    assert t.state.subs["Germany"] == {9: 1}
    assert (t.state.used[7].fought, t.state.used[9].retreated) == (0, 1)
    # done for the turn: no raid, fight, second retreat, loss in this combat, nor noncombat move
    assert {"raid", "fight", "retreat_submarines"}.isdisjoint(t.legal())
    for cmd, args in [("fight", {"sz": 9, "count": 1}), ("retreat_submarines", {"from_sz": 9, "to_sz": 7, "count": 1})]:
        assert not accepts(t, "Germany", cmd, **args)
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "lose_submarines", power="Germany", sz=9, count=1)
    assert "1 of Germany's submarines in sea zone 9 retreated there from their battle this turn" in e.value.detail
    assert "AA-R18" in e.value.detail
    t.send("Germany", "end_phase")
    assert "move_submarines" not in t.legal()
    with pytest.raises(IllegalCommand) as e:  # the refusal names the retreat among what keeps a submarine in place
        t.send("Germany", "move_submarines", from_sz=9, to_sz=7, count=1)
    assert "(subs that moved, raided, fought or retreated this turn stay; AA-7, AA-R8)" in e.value.detail
    # the next turn the ledger has it in 9: no raid on 7 without moving back
    advance(t, "Germany", "combat")
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "raid", [1], sz=7)
    assert "Germany has no submarine in sea zone 7" in e.value.detail
    advance(t, "Germany", "combat-move")
    t.send("Germany", "move_submarines", from_sz=9, to_sz=7, count=1)
    t.send("Germany", "end_phase")
    assert of(t.send("Germany", "raid", [1], sz=7), ev.ConvoyRaided)


def test_AAR18_AA7_a_submarine_that_raided_cannot_retreat():
    t = table(submarines={"Germany": {"7": 2, "8": 1}})
    advance(t, "Germany", "combat")
    t.send("Germany", "raid", [6], sz=7)
    t.send("Germany", "raid", [6], sz=8)
    t.send("Germany", "fight", sz=7, count=1)  # the other one in 7
    assert t.legal()["retreat_submarines"].choices == [{"from_sz": 7, "to_sz": to, "count": 1} for to in (2, 3, 6, 8, 9)]
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "retreat_submarines", from_sz=7, to_sz=9, count=2)
    assert "Germany has 1 submarine(s) in sea zone 7 that fought there this turn and may retreat (AA-R18)" in (
        e.value.detail
    )
    assert f'1 raided there: "{RETREAT_TEXT}" (AA-7)' in e.value.detail
    with pytest.raises(IllegalCommand) as e:  # a zone where its only submarine raided
        t.send("Germany", "retreat_submarines", from_sz=8, to_sz=9, count=1)
    assert "has 0 submarine(s) in sea zone 8 that fought" in e.value.detail and RETREAT_TEXT in e.value.detail
    t.send("Germany", "retreat_submarines", from_sz=7, to_sz=9, count=1)
    assert t.state.subs["Germany"] == {7: 1, 8: 1, 9: 1}  # the raiders stay in the raided zones


def test_AAR18_submarines_that_did_not_fight_unused_or_only_moved_cannot_retreat():
    t = table(submarines={"Germany": {"9": 2, "6": 1, "3": 1}})
    advance(t, "Germany", "combat-move")
    t.send("Germany", "move_submarines", from_sz=6, to_sz=7, count=1)  # moved, and nothing else
    t.send("Germany", "end_phase")
    t.send("Germany", "fight", sz=9, count=1)  # one of the two in 9
    assert t.legal()["retreat_submarines"].choices == [
        {"from_sz": 9, "to_sz": to, "count": 1} for to in (2, 7, 8, 10, 12, 13)
    ]
    for sz, why in [(9, "that fought there"), (7, "has 0 submarine(s) in sea zone 7"), (3, "in sea zone 3")]:
        with pytest.raises(IllegalCommand) as e:
            t.send("Germany", "retreat_submarines", from_sz=sz, to_sz=2, count=2 if sz == 9 else 1)
        assert why in e.value.detail and "they made no attack to retreat from" in e.value.detail


def test_AAR18_AAR15_a_retreat_goes_one_sea_move_to_an_adjacent_zone():
    t = fought_in_7()
    for to, why in [(10, "not adjacent to sea zone 7"), (7, "not adjacent to sea zone 7"), (13, "one sea move")]:
        with pytest.raises(IllegalCommand) as e:  # 13 is two moves away (7-8-13 or 7-9-13)
            t.send("Germany", "retreat_submarines", from_sz=7, to_sz=to, count=1)
        assert why in e.value.detail and "AA-R18" in e.value.detail
    # the Suez Canal (17-34) closed to the Axis: adjacent on the map, but no retreat across it (AA-R15), and the
    # refusal says that, not that the zones are not adjacent
    t = table(submarines={"Germany": {"17": 1}})
    advance(t, "Germany", "combat")
    t.send("Germany", "fight", sz=17, count=1)
    assert t.legal()["retreat_submarines"].choices == [{"from_sz": 17, "to_sz": 15, "count": 1}]
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "retreat_submarines", from_sz=17, to_sz=34, count=1)
    assert "the Suez Canal is closed to Axis this turn" in e.value.detail and "not adjacent" not in e.value.detail


def test_AAR18_no_more_retreat_than_fought():
    t = table(submarines={"Germany": {"7": 3}})
    advance(t, "Germany", "combat")
    t.send("Germany", "fight", sz=7, count=2)
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "retreat_submarines", from_sz=7, to_sz=8, count=3)
    assert "Germany has 2 submarine(s) in sea zone 7 that fought there this turn" in e.value.detail
    t.send("Germany", "retreat_submarines", from_sz=7, to_sz=8, count=1)
    t.send("Germany", "lose_submarines", power="Germany", sz=7, count=1)  # a loss takes one that fought first
    assert "retreat_submarines" not in t.legal()
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "retreat_submarines", from_sz=7, to_sz=8, count=1)
    assert "Germany has 0 submarine(s) in sea zone 7 that fought" in e.value.detail
    assert t.state.subs["Germany"] == {7: 1, 8: 1}


def test_AAR18_AAR13_no_retreat_before_general_combat():
    t = table(submarines={"Germany": {"7": 1}})
    advance(t, "Germany", "combat-move")
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "retreat_submarines", from_sz=7, to_sz=8, count=1)
    assert "once general combat has begun (AA-R13, AA-R18)" in e.value.detail
    t.send("Germany", "end_phase")
    assert t.state.combat_step == 1 and "retreat_submarines" not in t.legal()
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "retreat_submarines", from_sz=7, to_sz=8, count=1)
    assert "commit them with `fight` first" in e.value.detail


def test_AAR18_AAE5_1_a_4_0_0_game_has_no_retreat_and_plays_as_before():
    """The auditor's proof, which a 4.0.0 game keeps: the submarine that fought stays in 7 and raids it next turn."""
    t = fought_in_7("4.0.0")
    assert set(fought_in_7().legal()) - set(t.legal()) == {"retreat_submarines"}  # the 5.0.0 twin's, less the retreat
    assert "retreated" not in t.legal()["lose_submarines"].description
    with pytest.raises(IllegalCommand) as e:
        t.send("Germany", "retreat_submarines", from_sz=7, to_sz=9, count=1)
    assert e.value.detail.startswith("'retreat_submarines' is not legal now: aa1942-convoy 4.0.0 has no")
    assert "the retreat came in edition 5.0.0, AA-E5-1" in e.value.detail
    assert all(s.type != "retreat_submarines" for s in engine.legal(t.game))
    assert RULESET.legal_commands(t.state, only="retreat_submarines") == []
    assert t.state.subs["Germany"] == {7: 1}
    advance(t, "UK", "purchase")
    advance(t, "Germany", "combat")  # the next round: it raids 7 without moving
    assert of(t.send("Germany", "raid", [1], sz=7), ev.ConvoyRaided)
    t3 = fought_in_7("3.0.0")
    assert not accepts(t3, "Germany", "retreat_submarines", from_sz=7, to_sz=9, count=1)


@pytest.mark.parametrize("subs", [{"7": 2, "9": 1, "17": 1}, {"7": 40, "9": 30}])
def test_AAR18_awaiting_offers_exactly_the_retreats_the_rules_accept(subs):
    t = table(submarines={"Germany": subs, "UK": {"7": 1}})
    advance(t, "Germany", "combat")
    for sz, n in subs.items():
        t.send("Germany", "fight", sz=int(sz), count=n - 1 if n > 1 else 1)
    spec = t.legal()["retreat_submarines"]
    if spec.choices is not None:
        offered = {(x["from_sz"], x["to_sz"], x["count"]) for x in spec.choices}
        assert len(offered) == len(spec.choices) == len(spec.labels)
    else:  # past 64 choices: one variant per zone where submarines fought
        offered = {
            (fixed[0], to["value"], n)
            for fixed, controls in variants(spec).items()
            for to in controls["to_sz"]["options"]
            for n in range(1, controls["count"]["max"] + 1)
        }
    tops = {int(sz): n - 1 if n > 1 else 1 for sz, n in subs.items()}
    tried = {
        (a, b, n) for a in (*tops, 8, 10) for b in range(1, 66) for n in range(1, tops.get(a, 1) + 2)
        if b in (2, 3, 6, 7, 8, 9, 10, 12, 13, 15, 34, 17)
    }
    accepted = {x for x in tried if accepts(t, "Germany", "retreat_submarines", from_sz=x[0], to_sz=x[1], count=x[2])}
    assert offered == accepted
