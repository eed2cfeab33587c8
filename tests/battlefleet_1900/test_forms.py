"""awaiting's forms for start, give_orders, launch_torpedoes and damage_control, and move's least distance: each
offers exactly what the rules accept (issue 30). Every test walks a universe of well-formed arguments through the
rule's own check and compares what it accepts with what the form offers."""

from __future__ import annotations

import itertools
from typing import get_args

import jsonschema_rs
import msgspec
import pytest

from domain.battlefleet_1900 import awaiting
from domain.battlefleet_1900.commands import DamageControl, DcFunction, GiveOrders, LaunchTorpedoes, Move, Start
from domain.battlefleet_1900.data import COMPARTMENTS
from domain.battlefleet_1900.rules import damage_control as dc
from domain.battlefleet_1900.rules import movement, orders, torpedoes
from domain.battlefleet_1900.rules.turn import check_start
from domain.engine import IllegalCommand
from events import battlefleet_1900 as ev
from tests.battlefleet_1900.scenario import ctx, data_with, make_state, of, place
from tests.clicker import turns_need


def form(builder, state, seat="japan") -> dict:
    """A form as the API answers it (plain JSON), by its controls' fields."""
    return {x.get("field", x["kind"]): x for x in msgspec.to_builtins(builder(state, seat))["controls"]}


def accepts(check, state, cmd_type, seat="japan", **content) -> bool:
    try:
        check(state, seat, msgspec.convert({"type": cmd_type.__struct_config__.tag, **content}, cmd_type))
    except IllegalCommand:
        return False
    return True


def options(control: dict) -> list:
    return [o["value"] for o in control["options"]]


# ---- give_orders ----------------------------------------------------------------------------------


def offered_columns(state, division: str) -> set[tuple]:
    """Every (turn, arrow kinds) the division's item offers, and ("stop",) for the stop dot."""
    (item,) = [i for i in form(awaiting.orders_ui, state)["divisions"]["items"] if i["fixed"]["division"] == division]
    (variants,) = item["controls"]
    out = set()
    for v in variants["variants"]:
        (column,) = v["controls"]
        if column["items"][0]["fixed"].get("stop"):
            out.add(("stop",))
            continue
        *run, last = column["items"]
        turn = last["fixed"]["turn"]
        kinds = [i["fixed"]["arrow"] for i in run]
        assert {i["fixed"]["turn"] for i in run} <= {turn}
        (kind,) = [c for c in last["controls"] if c["field"] == "arrow"]
        out |= {(turn, *kinds, k) for k in options(kind)}
    return out


def accepted_columns(state, division: str, drop_out: list[str] | None = None) -> set[tuple]:
    """Every (turn, arrow kinds) of up to six arrows, and ("stop",), that check_orders accepts for `division` with the
    ships `drop_out` dropping out in the same orders."""

    def ok(column: list[dict]) -> bool:
        cmd = {"divisions": [{"division": division, "orders": column}], "drop_out": drop_out or []}
        return accepts(orders.check_orders, state, GiveOrders, **cmd)

    out = {("stop",)} if ok([{"stop": True}]) else set()
    for turn in ("succession", "together"):
        for n in range(1, 7):
            for kinds in itertools.product((45, 90), repeat=n):
                if ok([{"turn": turn, "to": "port", "arrow": k} for k in kinds]):
                    out.add((turn, *kinds))
    return out


def mikasa_slow(s):
    s.sealed["japan"].last_move["Mikasa"] = 46  # up to 69 mm this turn: a 45 arc costs 55, a 90 one 110
    return s


def mikasa_bridge(s):
    s.ships["Mikasa"].bridge = 1
    return s


@pytest.mark.parametrize(
    "scenario, division, change",
    [
        ("yellow-sea-1904", "J1", lambda s: s),  # Mikasa: up to 115 mm
        ("yellow-sea-1904", "J1", mikasa_slow),
        ("yellow-sea-1904", "J1", mikasa_bridge),
        ("torpedo-attack", "D1", lambda s: s),  # Ikazuchi: up to 234 mm, radius 50
    ],
    ids=["Mikasa", "Mikasa-slow", "Mikasa-bridge-hit", "Ikazuchi"],
)
def test_BF2_1_BFR5_BFR35_glossary_BR_the_columns_offered_are_exactly_those_check_arrows_accepts(
    scenario, division, change
):
    """Every run of up to six arrows, in succession or together: offered iff accepted (a later arrow needs the lead's
    speed to cover the least arcs before it, BF-R5; one arrow with a bridge hit; never mixed, BF-R35)."""
    s = change(make_state(scenario))
    offered = offered_columns(s, division)
    assert offered == accepted_columns(s, division)
    assert ("stop",) in offered and ("together", 45) in offered


def test_BF2_1_glossary_CT_a_flagship_with_a_conning_tower_hit_is_offered_no_column():
    s = make_state()
    s.ships["Mikasa"].ct = 1
    divisions = [i["fixed"]["division"] for i in form(awaiting.orders_ui, s)["divisions"]["items"]]
    assert divisions == ["J2"] and accepted_columns(s, "J1") == set()


def drop_and_transfer_state():
    """Mikasa and Asahi slowed to 1/6 speed and 110 mm apart: Asahi may take command of J1 (BF-R10); Asahi has one
    more propulsion hit than Shikishima and Fuji, the last, one: both may drop out (BF-R9)."""
    s = make_state()
    place(s, "Asahi", 1290, 1800, 90, last=20)
    s.sealed["japan"].last_move["Mikasa"] = 20
    s.ships["Asahi"].damaged = 1
    s.ships["Fuji"].damaged = 1
    return s


def offered_splits(state) -> set[tuple]:
    """Every (drop_out, transfers) the form offers: its drop_out pick's subsets with each division's transfer."""
    controls = form(awaiting.orders_ui, state)
    ways = [controls]
    if "variants" in controls:
        ways = [{c["field"]: c for c in v["controls"]} for v in controls["variants"]["variants"]]
    out = set()
    for way in ways:
        drop = options(way["drop_out"]) if "drop_out" in way else []
        transfer = way.get("transfer", {}).get("items", [])
        heirs = [[None] + [(i["fixed"]["division"], t) for t in options(i["controls"][0])] for i in transfer]
        for k in range(len(drop) + 1):
            for out_ in itertools.combinations(drop, k):
                for t in itertools.product(*heirs):
                    out.add((frozenset(out_), frozenset(x for x in t if x)))
    return out


def test_BF2_1_BFR9_BFR10_BFR50_drop_out_and_transfer_offer_exactly_what_check_orders_accepts():
    """Asahi may drop out or take command, not both (BF-R50): two variants; every other pairing of drop-outs and
    transfers among Japan's ships is offered iff check_orders accepts it."""
    s = drop_and_transfer_state()
    ships, divisions = s.own("japan"), {"J1": s.divisions["J1"].ships, "J2": s.divisions["J2"].ships}
    accepted = set()
    for k in range(3):
        for out in itertools.combinations(ships, k):
            for t in itertools.product(*[[None] + [(d, n) for n in names] for d, names in divisions.items()]):
                transfer = [{"division": d, "to": n} for d, n in filter(None, t)]
                if accepts(orders.check_orders, s, GiveOrders, drop_out=list(out), transfer=transfer):
                    accepted.add((frozenset(out), frozenset(filter(None, t))))
    offered = {x for x in offered_splits(s) if len(x[0]) < 3}
    assert offered == accepted
    assert (frozenset({"Asahi"}), frozenset()) in offered and (frozenset(), frozenset({("J1", "Asahi")})) in offered
    assert (frozenset({"Asahi"}), frozenset({("J1", "Asahi")})) not in offered


def test_BFR20_boat_gun_crews_are_offered_where_they_may_stand_down_and_default_to_the_log():
    s = make_state()
    s.sealed["japan"].manned["Fuji"] = False
    items = {i["fixed"]["ship"]: i["controls"][0] for i in form(awaiting.orders_ui, s)["boat_guns"]["items"]}
    assert set(items) == set(s.own("japan")) and items["Fuji"]["default"] is False and items["Mikasa"]["default"]
    assert all(options(c) == [True, False] for c in items.values())


# ---- start ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scenario", ["yellow-sea-1904", "torpedo-attack"])
def test_BF5_0_BFR20_start_offers_each_ships_depths_and_crews_exactly(scenario):
    """Shallow running only where a tube carries surface skimmers (5.0), crews standing down only on an armoured
    deck (6.2); a ship with no choice is not listed (its log keeps the defaults)."""
    s = make_state(scenario, step="setup")
    logs = form(awaiting.start_ui, s)["ships"]["items"]
    items = {i["fixed"]["ship"]: {c["field"]: options(c) for c in i["controls"]} for i in logs}
    for ship in s.own("japan"):
        mine = items.get(ship, {})
        for depth, manned in itertools.product(("normal", "shallow"), (True, False)):
            said = depth in mine.get("torpedo_depth", ["normal"]) and manned in mine.get("boat_guns_manned", [True])
            row = {"ship": ship, "torpedo_depth": depth, "boat_guns_manned": manned}
            assert accepts(check_start, s, Start, ships=[row]) == said, row
    assert ("Ikazuchi" in items) == (scenario == "torpedo-attack")


def _torpedo_less(raw: dict) -> None:
    """torpedo-attack with Sazanami an armoured cruiser that carries no torpedoes (and Kasuga's class none at all):
    Japan's seat mixes destroyers with surface skimmers and no armoured deck and a ship with a deck and no tube."""
    raw["classes"]["Kasuga"]["torpedoes"] = []
    raw["scenarios"]["torpedo-attack"]["sides"][0]["divisions"][0]["ships"][3]["cls"] = "Kasuga"


@pytest.mark.parametrize(
    ("scenario", "change"),
    [("yellow-sea-1904", None), ("torpedo-attack", None), ("torpedo-attack", _torpedo_less)],
    ids=["yellow-sea", "torpedo-attack", "torpedo-less-ship"],
)
def test_BF5_0_BFR20_start_schema_offers_what_the_form_and_check_do(scenario, change):
    """5.0, 6.2 (BF-R20): the `start` entry's schema lets each ship log a running depth and boat gun crews the form
    offers and check_start accepts, no other: shallow only with surface skimmers, so a ship that carries no torpedoes
    (or none that run shallow) may send only the default, normal, which the form leaves out and the check takes;
    crews standing down only on an armoured deck."""
    s = make_state(scenario, step="setup", **({"data": data_with(change)} if change else {}))
    s.owing = list(s.seats)
    entries = {e.seats[0]: e for e in awaiting.legal_commands(s) if e.type == "start"}
    assert set(entries) == set(s.seats)
    for seat, entry in entries.items():
        schema = jsonschema_rs.validator_for(entry.schema)
        logs = msgspec.to_builtins(entry.ui)["controls"][0]["items"] if entry.ui.controls else []
        offered = {i["fixed"]["ship"]: {c["field"]: options(c) for c in i["controls"]} for i in logs}
        for ship in s.own(seat):
            form_says = offered.get(ship, {})
            for depth, manned in itertools.product(("normal", "shallow"), (True, False)):
                said = depth in form_says.get("torpedo_depth", ["normal"]) and manned in form_says.get(
                    "boat_guns_manned", [True]
                )
                row = {"ship": ship, "torpedo_depth": depth, "boat_guns_manned": manned}
                accepted = accepts(check_start, s, Start, seat, ships=[row])
                assert schema.is_valid({"ships": [row]}) == said == accepted, (seat, row)
    if change:
        assert torpedoes.depths(s, "Sazanami") == ["normal"] and not s.cls("Sazanami").torpedoes
        assert not jsonschema_rs.validator_for(entries["japan"].schema).is_valid(
            {"ships": [{"ship": "Sazanami", "torpedo_depth": "shallow"}]}
        )


# ---- launch_torpedoes -------------------------------------------------------------------------------


def test_BF5_0_BFR13_BFR27_launches_offer_each_mount_with_torpedoes_left_and_every_enemy_in_play():
    """Yellow Sea: side tubes, a side each. Asahi has spent its port tubes, Fuji is sinking (6.0: no launch),
    Retvizan has surrendered (BF-R13: no target). Every (ship, mount, side, count, target) is offered iff accepted."""
    s = make_state(step="torpedo")
    s.ships["Asahi"].tubes["tubes:port"] = 0
    s.ships["Fuji"].sinking = 2
    s.ships["Retvizan"].lost = "surrendered"
    items = form(awaiting.launch_ui, s)["launches"]["items"]
    offered = {}
    for i in items:
        target, count = i["controls"]
        offered[tuple(i["fixed"].values())] = (set(options(target)), count["max"])
    assert ("Asahi", "tubes", "port") not in offered and ("Asahi", "tubes", "starboard") in offered
    assert not [k for k in offered if k[0] == "Fuji"]
    for ship, side, count, target in itertools.product(s.own("japan"), (None, "port", "starboard"), (1, 2, 3), s.ships):
        aims, most = offered.get((ship, "tubes", side), (set(), 0))
        row = {"ship": ship, "mount": "tubes", "side": side, "count": count, "target": target}
        said = target in aims and count <= most
        assert accepts(torpedoes.check_launch, s, LaunchTorpedoes, launches=[row]) == said, row


def test_BF5_0_BFR27_a_launch_out_of_arc_is_offered_accepted_and_spent():
    """Arc is an outcome (BF-R3): Poltava lies astern of Ikazuchi, outside its centre-line tubes' arc; it is offered
    and accepted, and at the reveal the torpedoes run out of arc and are crossed off."""
    s = make_state("torpedo-attack", step="torpedo")
    place(s, "Ikazuchi", 1000, 1000, 0)
    place(s, "Poltava", 1000, 700, 90)
    (item,) = [i for i in form(awaiting.launch_ui, s)["launches"]["items"] if i["fixed"]["ship"] == "Ikazuchi"]
    assert "Poltava" in options(item["controls"][0])
    row = {"ship": "Ikazuchi", "mount": "tubes", "target": "Poltava", "count": 2}
    assert accepts(torpedoes.check_launch, s, LaunchTorpedoes, launches=[row])
    s.sealed["japan"].pending["launch_torpedoes"] = {"launches": [row]}
    c = ctx(s)
    torpedoes.resolve(c)
    assert of(c, ev.TorpedoesResolved)[0].outcome == "out_of_arc" and c.state.ships["Ikazuchi"].tubes["tubes"] == 0


# ---- damage_control ---------------------------------------------------------------------------------


def battered(s):
    """Mikasa with something for most functions: margin, bridge, steering, DC box, a jammed rudder, slashes on A and
    on a 15 cm and a boat gun, heavy flooding forward, medium flooding to port (uneven: counterflood)."""
    sh = s.ships["Mikasa"]
    sh.margin, sh.damaged, sh.bridge, sh.tr, sh.dc_damaged, sh.rudder = 1, 2, 1, 1, 1, "port"
    sh.mounts["A"].slashes = 2
    sh.guns["15cm"][3] = "damaged"
    sh.guns["boat"][0] = "damaged"
    sh.flooding["F"], sh.flooding["PA"] = 3, 2
    return s


def well_formed(s, ship: str) -> list[dict]:
    """Every action of the ship with the arguments its function takes: a mount for gun repairs and magazines (every
    position, every pattern gun), a compartment for containment, a compartment and a level for a counterflood."""
    sh = s.ships[ship]
    guns = [*sh.mounts, *(f"{w}:{i}" for w, g in sh.guns.items() for i in range(len(g)))]
    out = []
    for f in get_args(DcFunction):
        if f in ("repair_main", "repair_secondary", "repair_tertiary", "flood_magazine"):
            out += [{"ship": ship, "function": f, "mount": m} for m in guns]
        elif f == "contain_flooding":
            out += [{"ship": ship, "function": f, "compartment": c} for c in COMPARTMENTS]
        elif f == "counterflood":
            levels = itertools.product(COMPARTMENTS, range(1, 5))
            out += [{"ship": ship, "function": f, "compartment": c, "level": n} for c, n in levels]
        else:
            out.append({"ship": ship, "function": f})
    return out


def offered_actions(s) -> dict[tuple, int]:
    """Each action the form offers (its level chosen), with how many items (DC dice) it has."""
    out: dict[tuple, int] = {}
    for i in form(awaiting.dc_ui, s)["actions"]["items"]:
        for level in options(i["controls"][0]) if i.get("controls") else [None]:
            key = tuple(sorted({**i["fixed"], **({"level": level} if level else {})}.items()))
            out[key] = out.get(key, 0) + 1
    return out


@pytest.mark.parametrize("edition", ["3.0.0", "4.0.0"])
@pytest.mark.parametrize("ct", [False, True])
def test_BF6_3_BFR24_BFR38_damage_control_offers_exactly_the_actions_check_dc_accepts(edition, ct):
    """Every well-formed action of a battered Mikasa, alone, is offered iff accepted (an intact magazine only from
    4.0.0, BF-R38; no command function with a CT hit, BF-R24); an action offered n times is accepted n times (one
    die per damage event: two slashes on A, two boxes behind the margin) and refused once more."""
    s = battered(make_state(step="damage_control", edition=edition))
    s.ships["Mikasa"].ct = int(ct)
    offered = offered_actions(s)
    for a in well_formed(s, "Mikasa"):
        key = tuple(sorted(a.items()))
        assert accepts(dc.check_dc, s, DamageControl, actions=[a]) == (key in offered), a
        if key in offered and a["function"] != "counterflood":  # a counterflood's levels are one event
            n = offered[key]
            assert accepts(dc.check_dc, s, DamageControl, actions=[a] * n), a
            assert not accepts(dc.check_dc, s, DamageControl, actions=[a] * (n + 1)), a
    repairs = {k: n for k, n in offered.items() if dict(k)["ship"] == "Mikasa" and dict(k)["function"] == "repair_main"}
    assert repairs == {(("function", "repair_main"), ("mount", "A"), ("ship", "Mikasa")): 2}
    mine = [dict(k)["function"] for k in offered if dict(k)["ship"] == "Mikasa"]
    assert ("flood_magazine" in mine, "counterflood" in mine, "recover_ct" in mine) == (not ct, not ct, ct)


def test_BF6_3_BFR25_BFR58_a_scuttling_ship_is_offered_no_counterflood_nor_scuttling_again_and_fewer_dice():
    """A ship already scuttling rolls its counter-floods first from its dice: none of its own is offered, its items
    are at most the dice left after those rolls, and it is not offered for scuttling again (nor is a CT-hit ship)."""
    s = battered(make_state(step="damage_control"))
    s.ships["Mikasa"].scuttling = True
    s.ships["Asahi"].ct = 1
    controls = form(awaiting.dc_ui, s)
    mikasa = [i for i in controls["actions"]["items"] if i["fixed"]["ship"] == "Mikasa"]
    assert mikasa and not [i for i in mikasa if i["fixed"]["function"] == "counterflood"]
    rolls = dc.scuttle_rolls(s, "Mikasa")
    assert dc.action_dice(s, "Mikasa") == dc.dice_left(s, "Mikasa") - rolls == 1
    assert max(sum(1 for i in mikasa if i["label"] == x["label"]) for x in mikasa) <= 1
    assert "Mikasa" not in options(controls["scuttle"]) and "Asahi" not in options(controls["scuttle"])
    assert "Shikishima" in options(controls["scuttle"])
    one = mikasa[0]["fixed"]
    assert accepts(dc.check_dc, s, DamageControl, actions=[one])
    assert not accepts(dc.check_dc, s, DamageControl, actions=[one, mikasa[1]["fixed"]])


def within(form_json: dict, actions: list[dict], scuttle: list[str]) -> bool:
    """Whether these actions (items of the form, by their fixed arguments) and scuttlings fit the form's budgets."""
    spent: dict[str, int] = {}
    items = {tuple(sorted(i["fixed"].items())): i for i in form_json["controls"][0]["items"]}
    chosen = [items[tuple(sorted(a.items()))] for a in actions]
    scuttles = [o for o in form_json["controls"][1]["options"] if o["value"] in scuttle] if scuttle else []
    for x in [*chosen, *scuttles]:
        for k, v in x.get("spend", {}).items():
            spent[k] = spent.get(k, 0) + v
    return all(spent.get(b["id"], 0) <= b["limit"] for b in form_json.get("budgets", []))


def test_BFR24_BFR25_BFR58_the_dc_forms_budgets_say_what_check_dc_refuses_across_items_and_fields():
    """BF-R24: a ship's actions within its DC dice; BF-R25: scuttling it now takes its scuttling rolls from them
    first; 6.3/BF-R58: a ship that scuttles counter-floods by those rolls, not by an action. Each combination of a
    battered Mikasa's distinct actions, with and without scuttling her, fits the form's budgets iff check_dc takes it."""
    s = battered(make_state(step="damage_control"))
    built = msgspec.to_builtins(awaiting.dc_ui(s, "japan"))
    assert {b["id"] for b in built["budgets"]} >= {"dice:Mikasa", "flood:Mikasa"}
    mine = [i["fixed"] for i in built["controls"][0]["items"] if i["fixed"]["ship"] == "Mikasa" and not i.get("controls")]
    distinct = list({tuple(sorted(a.items())): a for a in mine}.values())
    item = next(i for i in built["controls"][0]["items"] if i["fixed"].get("function") == "counterflood"
                and i["fixed"]["ship"] == "Mikasa")
    flood = {**item["fixed"], "level": options(item["controls"][0])[0]}
    tried = 0
    for n in range(0, dc.dice_left(s, "Mikasa") + 2):
        for actions in itertools.islice(itertools.combinations(distinct, n), 12):
            for scuttle in ([], ["Mikasa"]):
                acts = list(actions)
                assert within(built, acts, scuttle) == accepts(
                    dc.check_dc, s, DamageControl, actions=acts, scuttle=scuttle
                ), (acts, scuttle)
                tried += 1
    fixed_flood = {k: v for k, v in flood.items() if k != "level"}
    assert not within(built, [fixed_flood], ["Mikasa"])
    assert not accepts(dc.check_dc, s, DamageControl, actions=[flood], scuttle=["Mikasa"])
    assert within(built, [fixed_flood], []) and accepts(dc.check_dc, s, DamageControl, actions=[flood])
    assert tried > 20


# ---- move -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition, least", [("3.0.0", False), ("4.0.0", True)])
def test_BF2_1_BFR5_the_move_forms_least_distance_is_what_each_arrows_least_turn_needs(edition, least):
    """Mikasa under a horizontal arrow (least turn 90°, 110 mm on its circle), 69-115 mm this turn: from 4.0.0
    (BF-E4-1) the form's least distance is 110 and `move` refuses 109 with the least turn; 3.0.0 cut the turn short
    at any distance from 69."""
    s = make_state(step="movement", edition=edition)
    s.divisions["J1"].orders = [ev.Arrow(turn="succession", to="starboard", arrow=90)]
    (j1,) = [d for d in msgspec.to_builtins(awaiting.move_ui(s, "japan"))["divisions"] if d["division"] == "J1"]
    lo, hi = movement.limits(s, "Mikasa")
    assert (lo, hi) == (69, 115) and j1["distance_mm"] == {"min": 110 if least else 69, "max": 115}
    at = j1["distance_mm"]["min"]
    assert accepts(movement.check_move, s, Move, divisions=[{"division": "J1", "distance_mm": at}])
    if least:
        short = msgspec.convert({"type": "move", "divisions": [{"division": "J1", "distance_mm": at - 1}]}, Move)
        with pytest.raises(IllegalCommand, match="Mikasa must move at least 110 mm to finish its turns"):
            movement.check_move(s, "japan", short)


def runs_of(column: dict) -> set[tuple]:
    """The (turn, arrow kinds) of a division's column variants, the last arrow's kinds expanded."""
    out = set()
    for v in column["variants"]:
        (items,) = v["controls"]
        if items["items"][0]["fixed"].get("stop"):
            out.add(("stop",))
            continue
        *run, last = items["items"]
        (kind,) = [c for c in last["controls"] if c["field"] == "arrow"]
        out |= {(last["fixed"]["turn"], *[i["fixed"]["arrow"] for i in run], k) for k in options(kind)}
    return out


@pytest.mark.parametrize("edition", ["10.0.0", "9.0.0"])
def test_BF2_1_BFR5_BFE10_1_a_lead_that_may_drop_out_gives_a_variant_for_each_lead_offering_exactly_what_is_accepted(
    edition,
):
    """Mikasa (two hits: at most 92 mm) may drop out, and then Asahi (115 mm) leads J1: its arrows are judged on Asahi
    (BF-E10-1). The form offers a variant per lead: Mikasa leading (it may not drop out) and Asahi leading (Mikasa
    required to drop out, `Pick.required`), each offering exactly the columns the check accepts with those drop-outs.
    9.0.0 judged Mikasa alone, whoever led: no such variants."""
    s = make_state(edition=edition)
    s.ships["Mikasa"].damaged = 2
    controls = form(awaiting.orders_ui, s)
    if edition == "9.0.0":
        assert "divisions" in controls and "variants" not in controls
        return
    assert "divisions" not in controls
    leads = controls["variants"]
    assert [v["label"] for v in leads["variants"]] == ["Mikasa leads J1", "Asahi leads J1 (Mikasa dropping out)"]
    for variant, dropping in zip(leads["variants"], ([], ["Mikasa"])):
        by_field = {c.get("field", c["kind"]): c for c in variant["controls"]}
        drop = by_field.get("drop_out", {"options": []})  # with Mikasa kept, no other ship may drop out
        assert drop.get("required", []) == dropping and ("Mikasa" in options(drop)) == bool(dropping)
        (j1,) = [i for i in by_field["divisions"]["items"] if i["fixed"]["division"] == "J1"]
        assert runs_of(j1["controls"][0]) == accepted_columns(s, "J1", dropping), variant["label"]
    assert ("succession", 90, 45) in runs_of(j1["controls"][0])  # Asahi's 115 mm cover a 90° arc's 110


def _every_variant_offers_what_is_accepted(s, division: str) -> list[str]:
    """For each variant of the leads: the columns offered for `division` are exactly those check_orders accepts with
    the variant's required drop-outs (none offered: none accepted, the stop dot included). Returns the labels."""
    leads = form(awaiting.orders_ui, s)["variants"]
    for variant in leads["variants"]:
        by_field = {c.get("field", c["kind"]): c for c in variant["controls"]}
        pick = by_field.get("drop_out", {"options": []})
        required = pick.get("required", [])
        items = [i for i in by_field.get("divisions", {"items": []})["items"] if i["fixed"]["division"] == division]
        offered = runs_of(items[0]["controls"][0]) if items else set()
        # the required drop-outs alone, and with each other ship the variant lets drop out too
        for dropping in [required, *[[*required, x] for x in options(pick) if x not in required]]:
            assert offered == accepted_columns(s, division, dropping), (variant["label"], dropping)
    return [v["label"] for v in leads["variants"]]


def test_BF2_1_BFE11_1_BFE11_2_a_division_dropping_out_whole_or_losing_its_flagship_is_offered_exactly():
    """11.0.0: J2 (Yakumo 3 hits, Nisshin 2, Kasuga 1) may drop out whole, and then takes no orders (BF-E11-1); J1's
    Mikasa (2 hits) may drop out with no ship able to take command (conning tower hits), and then J1 goes straight
    (BF-E11-2). Each way is a variant offering exactly the columns the check accepts with its drop-outs."""
    s = make_state()
    for ship, hits in (("Yakumo", 3), ("Nisshin", 2), ("Kasuga", 1)):
        s.ships[ship].damaged = hits
    labels = _every_variant_offers_what_is_accepted(s, "J2")
    assert "every ship of J2 drops out" in labels
    s = make_state()
    s.ships["Mikasa"].damaged = 2
    for ship in ("Asahi", "Shikishima", "Fuji"):
        s.ships[ship].ct = 1
    labels = _every_variant_offers_what_is_accepted(s, "J1")
    assert "Asahi leads J1 (Mikasa dropping out); no ship may take command: it goes straight" in labels


@pytest.mark.parametrize("edition", ["11.0.0", "10.0.0"])
def test_BF2_1_BFE11_2_a_flagship_behind_the_lead_and_its_heir_may_all_drop_out_offered_exactly(edition):
    """Asahi, second in J1's line, holds the flag; Mikasa (the lead), Asahi and its heir Shikishima may each drop out;
    Mikasa and Fuji have bridge hits. From 11.0.0 each way the lead and the command may go is a variant (the flagship
    dropping out, then its heir too), each offering exactly what the check accepts with its drop-outs and any other
    the variant allows (the cold pass over 11.0.0, F3: a variant offered arrows its heir's dropping out made
    illegal). 10.0.0 judged the flagship it had, and its form still offers Asahi's drop-out (F4)."""
    s = make_state(edition=edition)
    s.divisions["J1"].flagship = "Asahi"
    for ship, hits in (("Mikasa", 3), ("Asahi", 2), ("Shikishima", 1)):
        s.ships[ship].damaged = hits
    s.ships["Mikasa"].bridge = s.ships["Fuji"].bridge = 1
    labels = _every_variant_offers_what_is_accepted(s, "J1")
    if edition == "11.0.0":
        assert any("Shikishima commands it" in x for x in labels) and any("Fuji commands it" in x for x in labels)


def offered_orders(state, division: str) -> set[tuple]:
    """Every (drop_out, transfer, column) the give_orders form offers for `division`: each variant of the leads, each
    way of splitting drop-outs from transfers (BF-R50), the drop-outs it requires with any others it allows, each
    division's transfer (a required one always named) and each column of `division` (None: it steams on)."""
    controls = form(awaiting.orders_ui, state)
    # the leads' variants each hold the division items; without them the top level does, beside any BF-R50 split
    leads = [{"controls": list(controls.values())}] if "divisions" in controls else controls["variants"]["variants"]
    out = set()
    for lead in leads:
        by_field = {c.get("field", c["kind"]): c for c in lead["controls"]}
        items = [i for i in by_field.get("divisions", {"items": []})["items"] if i["fixed"]["division"] == division]
        columns = [None, *(runs_of(items[0]["controls"][0]) if items else ())]
        splits = [by_field]
        if "variants" in by_field:
            splits = [{c.get("field", c["kind"]): c for c in v["controls"]} for v in by_field["variants"]["variants"]]
        for split in splits:
            pick = split.get("drop_out", {"options": []})
            required = frozenset(pick.get("required", []))
            free = [x for x in options(pick) if x not in required]
            names = []
            for item in split.get("transfer", {"items": []})["items"]:
                named = [(item["fixed"]["division"], t) for t in options(item["controls"][0])]
                names.append(named if item.get("required") else [None, *named])
            for k in range(len(free) + 1):
                for more in itertools.combinations(free, k):
                    for t in itertools.product(*names):
                        out |= {(required | set(more), frozenset(filter(None, t)), col) for col in columns}
    return out


def accepted_orders(state, division: str) -> set[tuple]:
    """Every (drop_out, transfer, column) check_orders accepts, over the ships that may drop out (BF-R9), each
    division's transfer to any of its ships, and every column of up to six arrows (None: `division` steams on)."""
    seat = "japan"
    droppable = [n for n in state.own(seat) if orders.why_not_drop_out(state, seat, n) is None]
    transfers = [[None, *((d.id, n) for n in d.ships)] for d in state.divisions.values() if d.seat == seat]
    columns = [None, ("stop",)] + [
        (turn, *kinds) for turn in ("succession", "together") for n in range(1, 7) for kinds in itertools.product((45, 90), repeat=n)
    ]
    out = set()
    for k in range(len(droppable) + 1):
        for drop in itertools.combinations(droppable, k):
            for t in itertools.product(*transfers):
                named = [x for x in t if x]
                for col in columns:
                    given = [] if col is None else [{"stop": True}] if col == ("stop",) else [
                        {"turn": col[0], "to": "port", "arrow": a} for a in col[1:]
                    ]
                    cmd = {
                        "divisions": [] if col is None else [{"division": division, "orders": given}],
                        "drop_out": list(drop),
                        "transfer": [{"division": d, "to": n} for d, n in named],
                    }
                    if accepts(orders.check_orders, state, GiveOrders, **cmd):
                        out.add((frozenset(drop), frozenset(named), col))
                    elif col is None:
                        break  # the drop-outs and transfers alone are refused: no column makes them legal
    return out


@pytest.mark.parametrize("fog", ["open", "blur"])
def test_BF2_1_BFE11_2_BFR62_a_flagship_dropping_out_and_naming_its_successor_is_offered_exactly_what_is_accepted(fog):
    """Asahi holds J1's flag and may drop out (one more propulsion hit than Shikishima); Shikishima (bridge hit) and
    Fuji lie within a quarter bracket of it, all three slowed, so Asahi may transfer the flag to either. A flagship
    that drops out and names its successor in the same orders has them judged under that ship (BF-E11-2: the
    transfer comes first): naming Shikishima allows one arrow (glossary BR), naming Fuji as many as Mikasa's speed
    covers, whoever the heir is (Shikishima, first of the nearest in line, under `open`; Mikasa, the earlier of the
    two places either side, under `blur`). The form offers exactly what the check accepts (the last cold pass over
    11.0.0, F-A: without a variant for the transfer it offered every column with either)."""
    s = make_state(fog=fog)
    s.divisions["J1"].flagship = "Asahi"
    s.ships["Asahi"].damaged = 1
    s.ships["Shikishima"].bridge = 1
    place(s, "Asahi", 1250, 1800, 90, last=20)
    place(s, "Shikishima", 1140, 1800, 90, last=20)
    place(s, "Fuji", 1250, 1690, 90, last=20)
    offered, accepted = offered_orders(s, "J1"), accepted_orders(s, "J1")
    assert offered == accepted, (sorted(offered - accepted, key=str)[:5], sorted(accepted - offered, key=str)[:5])
    dropping = frozenset({"Asahi"})
    to_shikishima, to_fuji = frozenset({("J1", "Shikishima")}), frozenset({("J1", "Fuji")})
    assert (dropping, to_shikishima, ("succession", 45)) in offered
    assert (dropping, to_shikishima, ("succession", 45, 45)) not in offered
    assert (dropping, to_fuji, ("succession", 45, 45)) in offered
    assert (frozenset(), to_shikishima, ("succession", 45, 45)) in offered  # BF-R62: Asahi stays, its orders


def _mikasa_may_drop(s):
    s.ships["Mikasa"].damaged = 2


def _j2_may_drop_whole(s):
    for ship, hits in (("Yakumo", 3), ("Nisshin", 2), ("Kasuga", 1)):
        s.ships[ship].damaged = hits


def _no_heir(s):
    s.ships["Mikasa"].damaged = 2
    for ship in ("Asahi", "Shikishima", "Fuji"):
        s.ships[ship].ct = 1


def _flag_behind_the_lead(s):
    s.divisions["J1"].flagship = "Asahi"
    for ship, hits in (("Mikasa", 3), ("Asahi", 2), ("Shikishima", 1)):
        s.ships[ship].damaged = hits
    s.ships["Mikasa"].bridge = s.ships["Fuji"].bridge = 1


def _flag_may_drop_and_transfer(s):
    """Mikasa (bridge hit, two propulsion hits) and Asahi slowed and close: Mikasa may drop out and name Asahi."""
    s.ships["Mikasa"].damaged, s.ships["Mikasa"].bridge = 2, 1
    place(s, "Asahi", 1290, 1800, 90, last=20)
    s.sealed["japan"].last_move["Mikasa"] = 20


def _asahi_may_drop_or_command(s):
    """drop_and_transfer_state's position: the BF-R50 split alone, at the form's top level."""
    place(s, "Asahi", 1290, 1800, 90, last=20)
    s.sealed["japan"].last_move["Mikasa"] = 20
    s.ships["Asahi"].damaged = s.ships["Fuji"].damaged = 1


@pytest.mark.parametrize("fog", ["open", "blur"])
@pytest.mark.parametrize("edition", ["11.0.0", "10.0.0", "9.0.0", "7.0.0"])
@pytest.mark.parametrize(
    "change, division",
    [
        (_mikasa_may_drop, "J1"),
        (_j2_may_drop_whole, "J2"),
        (_no_heir, "J1"),
        (_flag_behind_the_lead, "J1"),
        (_flag_may_drop_and_transfer, "J1"),
        (_asahi_may_drop_or_command, "J1"),
    ],
    ids=["lead-may-drop", "whole-division", "no-heir", "flag-behind-lead", "flag-drops-and-names", "drop-or-command"],
)
def test_BF2_1_BFR5_BFR9_BFR10_BFR50_give_orders_offers_every_accepted_drop_out_transfer_and_column(
    change, division, edition, fog
):
    """The whole of give_orders' drop-outs, transfers and one division's columns, walked through check_orders: the
    form offers exactly what it accepts (BF-R5 arrows, BF-R9 drop-outs, BF-R10 transfers, BF-R50 not both; from
    10.0.0 judged on the lead left, BF-E10-1; from 11.0.0 under the flagship left, BF-E11-1, BF-E11-2)."""
    s = make_state(fog=fog, edition=edition)
    change(s)
    offered, accepted = offered_orders(s, division), accepted_orders(s, division)
    assert any(len(drop) for drop, _, _ in accepted)  # the case is about drop-outs: some must be legal
    assert offered == accepted, (sorted(offered - accepted, key=str)[:5], sorted(accepted - offered, key=str)[:5])


def test_BFR63_BFE10_1_a_lead_striking_its_colours_leaves_its_divisions_orders_judged_as_given():
    """Mikasa leads J1 with two propulsion hits (92 mm), Asahi behind it slowed (46 mm at most): dropping Mikasa out,
    the division's two 45° arrows are judged on Asahi and refused (BF-E10-1: "at which time it becomes a one-ship
    division"; a 45° arc costs 55 mm); Mikasa surrendering in the same orders, they are judged as given and accepted
    (BF-R63: a surrender is a fleet order, resolved after the orders, BF-R1; the lead left cuts short what it cannot
    make, BF-R5). The form offers them whatever the surrender pick says."""
    s = make_state()
    s.ships["Mikasa"].damaged = 2
    s.sealed["japan"].last_move["Asahi"] = 20
    arrows = [{"turn": "succession", "to": "port", "arrow": 45}, {"turn": "succession", "to": "port", "arrow": 45}]
    two = {"divisions": [{"division": "J1", "orders": arrows}]}
    assert not accepts(orders.check_orders, s, GiveOrders, **two, drop_out=["Mikasa"])
    assert accepts(orders.check_orders, s, GiveOrders, **two, surrender=["Mikasa"])
    controls = form(awaiting.orders_ui, s)
    mikasa_leads = controls["variants"]["variants"][0]
    assert mikasa_leads["label"] == "Mikasa leads J1"
    by_field = {c.get("field", c["kind"]): c for c in mikasa_leads["controls"]}
    (j1,) = [i for i in by_field["divisions"]["items"] if i["fixed"]["division"] == "J1"]
    assert ("succession", 45, 45) in runs_of(j1["controls"][0]) and "Mikasa" in options(controls["surrender"])


def test_BF2_1_BFR5_the_move_form_says_what_each_turn_needs_and_move_accepts_exactly_that():
    """A frontend trial: Mikasa under a horizontal arrow (90-180° to starboard, 69-115 mm this turn) was offered a
    turn of 180° at 110 mm, which `move` refused (a larger turn needs more). `turns_need` says it: at every turn of
    the band the least distance it gives is accepted and one millimetre less is refused."""
    s = make_state(step="movement", edition="4.0.0")
    s.divisions["J1"].orders = [ev.Arrow(turn="succession", to="starboard", arrow=90)]
    (j1,) = [d for d in msgspec.to_builtins(awaiting.move_ui(s, "japan"))["divisions"] if d["division"] == "J1"]
    assert j1["turns_need"] is not None and turns_need(j1, [90]) == j1["distance_mm"]["min"] == 110
    lo = movement.limits(s, "Mikasa")[0]
    band = j1["turns"][0]
    for deg in range(band["min_deg"], band["max_deg"] + 1):
        need = max(lo, turns_need(j1, [deg]))
        move = {"division": "J1", "turns_deg": [deg]}
        assert accepts(movement.check_move, s, Move, divisions=[{**move, "distance_mm": need}]), deg
        if need - 1 >= lo:
            assert not accepts(movement.check_move, s, Move, divisions=[{**move, "distance_mm": need - 1}]), deg
    assert turns_need(j1, [180]) == 115  # the trial's refused move: 110 mm is too short for 180°


@pytest.mark.parametrize("scenario", ["yellow-sea-1904", "torpedo-attack"])
def test_BFR5_turns_need_is_least_mm_for_every_turn_of_every_band_in_bot_battles(scenario):
    """At every Movement Phase of bot battles, for each division the form offers and each band's every turn (the
    other bands at their least and at their greatest), `turns_need`'s arithmetic is the rule's own least_mm."""
    from service import simulate
    from service.simulate import seed_for

    checked = 0
    seen: set[tuple] = set()

    def check(game, e) -> None:
        nonlocal checked
        s = game.state
        if s.over or s.step != "movement" or (game.game_id, s.turn) in seen:
            return
        seen.add((game.game_id, s.turn))  # once a Movement Phase, as it begins
        for seat in ("japan", "russia"):
            for j in msgspec.to_builtins(awaiting.move_ui(s, seat))["divisions"]:
                d, bands = s.divisions[j["division"]], j["turns"]
                signs = [(-1,) if b["to"] == "port" else (1,) if b["to"] == "starboard" else (1, -1) for b in bands]
                for i, b in enumerate(bands):
                    for rest in ("min_deg", "max_deg"):
                        for deg in range(b["min_deg"], b["max_deg"] + 1):
                            for sign in signs[i]:
                                turns = [signs[k][0] * o[rest] for k, o in enumerate(bands)]
                                turns[i] = sign * deg
                                want = movement.least_mm(s, d, j["lead"], turns) if movement.can_move(s, j["lead"]) else 0
                                assert turns_need(j, turns) == want, (j["division"], turns)
                                checked += 1

    for i in range(2):
        game = simulate.new_game("battlefleet-1900", {"scenario": scenario}, b"seed", f"need-{i}")
        simulate.play_on(game, seed_for(1900, i), check)
        assert game.over
    assert checked > 1000, checked
