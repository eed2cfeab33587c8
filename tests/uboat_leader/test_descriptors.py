"""The decision descriptors (`awaiting[].ui`, issue 30): each offers what the rule that refuses the command accepts,
enumerated here into every argument object it can build and judged by that rule. Where a list of choices exists the
descriptor builds exactly it; the flotilla (UL-8) is the one descriptor that offers a part of what is legal (no
budget in the vocabulary), every part of it legal."""

from __future__ import annotations

import itertools
import json

import msgspec
import pytest

from domain import decisions as ui
from domain.uboat_leader import commands as c
from domain.uboat_leader.commands import Options
from domain.uboat_leader.legal import MAX_CHOICES, args_of
from domain.uboat_leader.rules import bearing, contact, escorts, strategic, wolfpack
from domain.uboat_leader.rules.attack import targets, weapons, why_not_attack
from domain.uboat_leader.rules.missions import why_not_fire
from domain.uboat_leader.rules.setup import eligible, why_not_select
from domain.uboat_leader.state import Activation, initial_state
from tests.genesis import genesis
from tests.uboat_leader.scenario import DATA, battle, data_with, deck, legal, new_state, put, send
from tests.uboat_leader.test_strategic import with_advanced


def expand(controls: list) -> list[dict]:
    """Every argument object a list of controls can fill (a descriptor's whole offer)."""
    out: list[dict] = [{}]
    for ctl in controls:
        if isinstance(ctl, ui.Variants):
            alts = [{**v.fixed, **x} for v in ctl.variants for x in expand(v.controls)]
        else:
            alts = [{ctl.field: v} for v in values(ctl)] + ([{}] if getattr(ctl, "optional", False) else [])
        out = [{**a, **b} for a in out for b in alts]
    return out


def values(ctl) -> list:
    if isinstance(ctl, ui.Select):
        return [o.value for o in ctl.options]
    if isinstance(ctl, ui.Number):
        return list(range(ctl.min, ctl.max + 1))
    if isinstance(ctl, ui.Pick):
        vals = [o.value for o in ctl.options]
        hi = len(vals) if ctl.max is None else ctl.max
        how = itertools.permutations if ctl.ordered else itertools.combinations
        picks = [list(x) for n in range(ctl.min, hi + 1) for x in how(vals, n)]
        return [x for x in picks if set(ctl.required) <= set(x)]
    if isinstance(ctl, ui.Group):
        return expand(ctl.controls)
    if isinstance(ctl, ui.Repeat):
        one = expand(ctl.controls)
        return [list(x) for n in range(ctl.min, ctl.max + 1) for x in itertools.product(one, repeat=n)]
    if isinstance(ctl, ui.Items):
        hi = len(ctl.items) if ctl.max is None else ctl.max
        out = []
        for n in range(max(ctl.min, sum(i.required for i in ctl.items)), hi + 1):
            for chosen in itertools.combinations(ctl.items, n):
                if all(i in chosen for i in ctl.items if i.required):
                    parts = [[{**i.fixed, **x} for x in expand(i.controls)] for i in chosen]
                    out += [list(x) for x in itertools.product(*parts)]
        return out
    raise AssertionError(f"no expansion for {ctl}")


def offer(spec) -> list[dict]:
    assert isinstance(spec.ui, ui.Form), spec.type
    return expand(spec.ui.controls)


def canon(objs) -> list[str]:
    return sorted(json.dumps(x, sort_keys=True) for x in objs)


def command(cls, args: dict):
    return msgspec.convert({"type": cls.__struct_config__.tag, **args}, cls)


# ---- select_uboats (UL-8, UL-R2) ------------------------------------------------------------------------


def fresh(duration: str = "short", data=None):
    """The game as created: the flotilla still to select."""
    return initial_state(genesis("uboat-leader", None), Options(duration=duration), data or DATA)


@pytest.mark.parametrize("duration", ["short", "medium", "long"])
def test_UL8_UL_R2_a_flotilla_fits_the_descriptors_so_budget_exactly_when_the_rules_accept_it(duration):
    """Every flotilla of eligible boats at levels their cards have (each boat absent or at one level; the port is any,
    UL-8) fits the descriptor's budget, its levels' printed SO costs within the campaign's SO, iff why_not_select
    accepts it; at least one boat; the rules have no default."""
    s = fresh(duration)
    (spec,) = legal(s).values()
    assert spec.type == "select_uboats" and spec.choices is None and spec.default is None, "the rules have no default"
    form = spec.ui
    (picks,) = form.controls
    (budget,) = form.budgets
    assert isinstance(picks, ui.Items) and picks.min == 1 and budget.limit == s.so_half
    port = s.camp.map.ports[0].id
    levels = {i.fixed["boat"]: {o.value: o.spend["so_half"] for o in i.controls[0].options} for i in picks.items}
    cards = [u for u in s.data.uboats if eligible(s, u)]
    assert set(levels) <= {u.boat for u in cards}
    tried = accepted = 0
    for combo in itertools.product(*[[None, *u.levels] for u in cards]):
        chosen = [(u.boat, lv) for u, lv in zip(cards, combo) if lv is not None]
        fits = bool(chosen) and all(lv in levels.get(b, {}) for b, lv in chosen) and sum(
            levels[b][lv] for b, lv in chosen
        ) <= budget.limit
        # at least one boat: the command's schema (picks min_length 1) refuses none before the rule is asked
        ok = bool(chosen) and why_not_select(s, [c.PickArg(b, lv, port) for b, lv in chosen]) is None
        assert fits == ok, (chosen, fits, ok)
        tried, accepted = tried + 1, accepted + ok
    assert accepted > 10 and tried > accepted


def test_UL8_the_texts_example_flotilla_fits_the_short_campaigns_budget():
    """"Eliges el U-43 con la Tripulación Entrenada (8 puntos de SO), el U-47 con Tripulación Entrenada (7 …)": U-43,
    U-47, U-51 Trained and U-56 Ace, 29 of 32 SO, are offered and fit; U-43 Ace with three Green boats too."""
    s = fresh("short")
    form = legal(s)["select_uboats"].ui
    (picks,) = form.controls
    cost = {(i.fixed["boat"], o.value): o.spend["so_half"] for i in picks.items for o in i.controls[0].options}
    example = [("U-43", "trained"), ("U-47", "trained"), ("U-51", "trained"), ("U-56", "ace")]
    assert sum(cost[x] for x in example) == 58 <= form.budgets[0].limit


def test_UL8_UL_R54_a_boat_whose_service_years_do_not_hold_the_campaign_is_never_offered():
    def short_service(d):
        next(u for u in d["uboats"] if u["boat"] == "U-47")["service"] = ["1939-09", "1940-01"]

    s = fresh("short", data_with(short_service))
    assert not eligible(s, s.card("U-47"))
    assert all(p["boat"] != "U-47" for x in offer(legal(s)["select_uboats"]) for p in x["picks"])


# ---- attack (UL-S2, UL-S3, UL-R42) ---------------------------------------------------------------------


def fight(s, ships, subs, queue):
    return battle(s, ships, subs, step="aggressive", queue=list(queue))


def attack_commands(s) -> list[dict]:
    """Every single-shot attack the rules accept now, over every boat, weapon and ship label."""
    return [
        {"boat": b, "weapon": w, "shots": [{"target": t}]}
        for b in s.battle.queue
        for w in ("torpedo", "gun")
        for t in s.battle.ships
        if why_not_attack(s, command(c.Attack, {"boat": b, "weapon": w, "shots": [{"target": t}]})) is None
    ]


def test_ULS2_UL_R42_the_attack_descriptor_pairs_each_boat_and_weapon_only_with_the_targets_in_its_range():
    """U-47 (S1) reaches M1 (range 1) with both weapons and M2 (range 2) with torpedoes only; U-51 (submerged: no
    gun) is in range of M2 only; M3 is an Unknown counter at range 1 of U-47: never a target (UL-R23)."""
    s = new_state(boats=(("U-47", "trained"), ("U-51", "trained")))
    fight(
        s,
        {"M1": ("C1", "merchants", 56), "M2": ("C3", "merchants", 78), "M3": ("C2", None, None)},
        {"U-47": ("S1", "surfaced"), "U-51": ("S4", "submerged")},
        queue=("U-47", "U-51"),
    )
    s.boats["U-47"].ammo = 1
    spec = legal(s)["attack"]
    (variants,) = spec.ui.controls
    said = {(v.fixed["boat"], v.fixed["weapon"]): v.controls[0] for v in variants.variants}
    assert set(said) == {(b, w) for b in ("U-47", "U-51") for w in weapons(s, b)}
    assert ("U-51", "gun") not in said, "submerged: no gun (UL-S2)"
    for (boat, weapon), shots in said.items():
        aims = next(x for x in shots.controls if x.field == "target")
        assert [o.value for o in aims.options] == targets(s, boat, weapon)
        assert "M3" not in [o.value for o in aims.options] and "M3" not in json.dumps(msgspec.to_builtins(aims))
    assert (said[("U-47", "torpedo")].max, said[("U-47", "gun")].max) == (5, 1), "5 Ready; 1 Ammo left of 2 rolls"
    built = offer(spec)
    assert all(why_not_attack(s, command(c.Attack, x)) is None for x in built)
    singles = [x for x in built if len(x["shots"]) == 1]
    strip = [{**x, "shots": [{"target": sh["target"]} for sh in x["shots"]]} for x in singles]
    assert canon(strip) == canon(attack_commands(s)), "every single shot the rules accept is offered"


def test_ULS2_a_boat_with_two_kinds_ready_is_offered_one_item_per_torpedo_never_more_of_a_kind_than_it_has():
    s = new_state()
    fight(s, {"M1": ("C1", "merchants", 56)}, {"U-47": ("S1", "submerged")}, queue=("U-47",))
    s.boats["U-47"].ready.update(normal=2, FAT=1)
    spec = legal(s)["attack"]
    (variant,) = spec.ui.controls[0].variants
    (shots,) = variant.controls
    assert isinstance(shots, ui.Items) and [i.fixed["kind"] for i in shots.items] == ["normal", "normal", "FAT"]
    built = offer(spec)
    assert len(built) == 7 and all(why_not_attack(s, command(c.Attack, x)) is None for x in built)
    two_fat = {"boat": "U-47", "weapon": "torpedo", "shots": [{"target": "M1", "kind": "FAT"}] * 2}
    assert why_not_attack(s, command(c.Attack, two_fat)) and two_fat not in built


# ---- fire_torpedoes (UL-18, UL-R32) ----------------------------------------------------------------------


def test_UL18_UL_R32_the_fire_descriptor_offers_the_naval_cards_drawn_and_each_torpedo_ready_or_stored():
    s = new_state(segment="operations")
    put(s, "U-47", "north-sea", missions=["attack"])
    s.boats["U-47"].ready.update(normal=1, FAT=1)
    s.boats["U-47"].stored.update(normal=2)
    deck(s, "events", 8, 9, 10)
    deck(s, "naval", 3)
    send(s, "move", 1, boat="U-47", to="north-sea-attack")
    send(s, "continue_attack", 1)
    send(s, "continue_attack", 1)
    send(s, "continue_attack", 1, 1)
    spec = legal(s)["fire_torpedoes"]
    boat, shots = spec.ui.controls
    assert [i.fixed["kind"] for i in shots.items] == ["normal"] * 3 + ["FAT"], "Ready and Stored (UL-R32)"
    assert {o.value for i in shots.items for o in i.controls[0].options} == {"3"}
    built = offer(spec)
    # every subset of the four torpedoes but the empty one (7.0.0, UL-E7-1: at least one), each accepted
    assert len(built) == 2**4 - 1 and all(why_not_fire(s, command(c.FireTorpedoes, x)) is None for x in built)


# ---- the Strategic Segment (UL-9…UL-19) ------------------------------------------------------------------


def test_UL16_UL17_UL_R6_the_mission_descriptor_builds_exactly_the_legal_missions_and_mine_counts():
    """Up to 4.0.0 a Mines mission gives its count only (UL-R29 decides which torpedoes go)."""
    s = new_state(boats=(("U-43", "trained"), ("U-47", "trained"), ("U-23", "green")), edition="4.0.0")
    put(s, "U-23", "north-sea")  # at sea: no Mines
    s.boats["U-43"].stored["normal"] = 40
    choices = strategic.mission_choices(s)
    assert len(choices) > MAX_CHOICES, "46 mine counts for the U-43 alone: the choices are not listed"
    spec = legal(s)["assign_mission"]
    built = [{k: v for k, v in args_of(command(c.AssignMission, x)).items() if k != "replaced"} for x in offer(spec)]
    assert spec.choices is None and canon(built) == canon(choices)
    u23 = next(v for v in spec.ui.controls[0].variants if v.fixed["boat"] == "U-23")
    assert "mine" not in [m.fixed["mission"] for m in u23.controls[0].variants]
    assert {v.rulebook for v in u23.controls[0].variants} <= set(strategic.RULEBOOK.values())


@pytest.mark.parametrize("edition", ["5.0.0", "4.0.0"])
def test_UL17_ULE5_2_the_mines_descriptor_offers_each_section_and_kind_aboard_every_build_accepted(edition):
    """From 5.0.0 the Mines variant names the torpedoes replaced: an item per section and kind aboard (U-47: 5 Ready
    normal, 7 Stored normal, 2 Stored FATs), each 1 to what is there; every command it builds is accepted, and the
    missions offered are the legal ones. `choices` lists every legal argument object or none (docs/api.md): the
    count-only list would leave out every named one, so from 5.0.0 none is listed; 4.0.0's 16 choices are all."""
    s = new_state(boats=(("U-47", "trained"), ("U-23", "green")), edition=edition)
    put(s, "U-23", "north-sea")  # at sea: no Mines
    s.boats["U-47"].stored.update(normal=7, FAT=2)
    spec = legal(s)["assign_mission"]
    if edition == "4.0.0":
        assert canon(spec.choices) == canon(strategic.mission_choices(s)) and len(spec.choices) == 12 + 4  # 1-12 mines, two missions a boat
        return
    assert spec.choices is None and spec.labels is None
    built = offer(spec)
    mines = [x for x in built if x["mission"] == "mine"]
    assert {x["boat"] for x in mines} == {"U-47"} and len(mines) == 5 + 7 + 2 + 5 * 7 + 5 * 2 + 7 * 2 + 5 * 7 * 2
    assert all(strategic.why_not_mission(s, x["boat"], x["mission"], 0, command(c.AssignMission, x).replaced) is None for x in built)
    assert {(x["boat"], x["mission"]) for x in built} == {(m["boat"], m["mission"]) for m in strategic.mission_choices(s)}
    over = c.Replaced(slot="stored", kind="FAT", count=3)
    assert "carries 2 stored FAT" in strategic.why_not_mission(s, "U-47", "mine", 0, [over])


def test_UL9_UL_R5_the_option_descriptor_builds_exactly_the_options_on_sale():
    s = new_state()
    choices = strategic.option_choices(s)
    built = expand(strategic.option_ui(s, choices).controls)
    assert canon(args_of(command(c.BuyOption, x)) for x in built) == canon(choices), "R&R: the default area"


def test_UL14_the_advanced_torpedo_descriptor_is_bounded_by_the_normal_torpedoes_of_the_section_and_the_SO():
    s = new_state(boats=(("U-47", "trained"), ("U-51", "trained")), data=data_with(with_advanced), so_half=6)
    s.boats["U-51"].stored["normal"] = 0
    spec = legal(s)["buy_advanced_torpedoes"]
    built = offer(spec)
    assert all(strategic.why_not_advanced(s, command(c.BuyAdvancedTorpedoes, x)) is None for x in built)
    most = {(x["boat"], x["slot"]): max(y["count"] for y in built if y["boat"] == x["boat"] and y["slot"] == x["slot"])
            for x in built}
    assert most == {("U-47", "ready"): 5, ("U-47", "stored"): 6, ("U-51", "ready"): 5}, "5 Ready; 3 SO is 6"
    beyond = {"boat": "U-47", "kind": "T5", "slot": "stored", "count": 7}
    assert strategic.why_not_advanced(s, command(c.BuyAdvancedTorpedoes, beyond))


# ---- the Tactical Segment --------------------------------------------------------------------------------


def test_UL27_UL_R17_the_place_descriptor_builds_exactly_the_legal_placements():
    s = new_state()
    s.act = contact_activation(s, ["U-47"])
    choices = contact.place_choices(s)
    assert canon(expand(contact.place_ui(choices).controls)) == canon(choices)


def contact_activation(s, to_place):
    return Activation(boat=to_place[0], stage="place", card=37, to_place=list(to_place))


def test_UL15_the_radio_call_descriptor_builds_exactly_the_subsets_of_the_areas_boats():
    boats = ["U-43", "U-51", "U-56"]
    subsets = [{"boats": list(x)} for n in range(1, 4) for x in itertools.combinations(boats, n)]
    assert canon(expand(wolfpack.radio_ui(boats, "1").controls)) == canon(subsets)


@pytest.mark.parametrize("edition", ["2.0.0", "3.0.0"])
def test_UL34_UL_R46_the_escort_order_descriptor_names_every_escort_once_or_the_next_one(edition):
    """2.0.0: five escorts are 120 orders, too many to list: the descriptor is an ordered pick of all five; 3.0.0:
    the next one. An Unknown escort is named by its label only (its card is not drawn yet, UL-31)."""
    s = new_state(edition=edition)
    ships = {f"E{i}": ("L1", "escorts", 79 + i) for i in range(1, 5)} | {"E5": ("L2", None, None)}
    battle(s, ships, {"U-47": ("L5", "submerged")}, step="escorts", queue=[])
    spec = legal(s)["escort_order"]
    (pick,) = escorts.order_ui(s, escorts.to_act(s) if edition == "3.0.0" else escorts.escorts_on(s), 1).controls
    if edition == "2.0.0":
        (pick,) = spec.ui.controls
    assert pick.ordered and pick.min == pick.max == (5 if edition == "2.0.0" else 1)
    assert next(o.label for o in pick.options if o.value == "E5") == "E5"
    if edition == "2.0.0":
        assert spec.choices is None and len(offer(spec)) == 120
        assert all(sorted(x["labels"]) == sorted(escorts.escorts_on(s)) for x in offer(spec))
    else:
        assert canon(expand([pick])) == canon(spec.choices)


def test_UL33_UL_R19_the_bearing_descriptor_gives_each_boat_0_to_its_sides_speed():
    s = new_state(boats=(("U-47", "trained"), ("U-51", "trained")))
    battle(s, {"M1": ("C1", "merchants", 56)}, {"U-47": ("L5", "surfaced"), "U-51": ("L6", "submerged")})
    opts = {b: bearing.bearing_options(s, b) for b in s.battle.subs}
    (group,) = bearing.bearing_ui(opts).controls
    assert [(n.field, n.min, n.max) for n in group.controls] == [("U-47", 0, 2), ("U-51", 0, 1)]
    combos = [{"speeds": {"U-47": a, "U-51": b}} for a in opts["U-47"] for b in opts["U-51"]]
    assert canon(expand([group])) == canon(combos)
