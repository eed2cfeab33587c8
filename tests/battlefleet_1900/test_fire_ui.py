"""awaiting.fire_ui: what a UI draws for the Gunnery Phase, and that it shows a seat nothing its own view does not."""

from __future__ import annotations

import msgspec

from domain import engine
from domain.battlefleet_1900 import redact
from domain.battlefleet_1900.awaiting import fire_ui as typed_fire_ui
from domain.battlefleet_1900.views import table
from service.simulate import play
from tests.battlefleet_1900.scenario import DATA, B, make_state, place


def duel(fog: str = "open"):
    """Mikasa steaming east at (1000, 1000), Tsesarevich 300 mm to her port (north), everyone else where the
    scenario puts them."""
    s = make_state(fog=fog, step="gunnery")
    place(s, "Mikasa", 1000, 1000, 90)
    place(s, "Tsesarevich", 1000, 1300, 90)
    return s


def fire_ui(state, seat) -> dict:
    """The descriptor as the API answers it (plain JSON)."""
    return msgspec.to_builtins(typed_fire_ui(state, seat))


def mounts(ui: dict, ship: str) -> dict[tuple, dict]:
    entry = next(x for x in ui["ships"] if x["ship"] == ship)
    return {(m["mount"], m["side"]): m for m in entry["mounts"]}


def test_BF4_1_a_position_shows_the_data_arcs_and_a_pattern_side_its_groups_port_mirrored():
    ui = fire_ui(duel(), "japan")
    mikasa = mounts(ui, "Mikasa")
    assert mikasa["Z", None]["arcs"] == [{"group": None, "guns": 2, "half_deg": DATA.positions["Z"].arcs[0]}]
    starboard = {a["group"]: a["half_deg"] for a in mikasa["15cm", "starboard"]["arcs"]}
    port = {a["group"]: a["half_deg"] for a in mikasa["15cm", "port"]["arcs"]}
    assert starboard == {g: list(DATA.patterns[g]) for g in ("bow", "beam", "stern")}
    assert port == {g: [-b, -a] for g, (a, b) in starboard.items()}
    assert ui["ships"][0]["pose"] == {"x": 1000, "y": 1000, "h": 90}


def test_BFR14_only_guns_able_to_fire_are_listed():
    """BF-R14: a damaged position is silent; ROF 1/2 rests the turn after firing; a pattern side counts its ok guns."""
    s = duel()
    s.ships["Mikasa"].mounts["A"].slashes = 1
    s.ships["Mikasa"].guns["15cm"] = ["destroyed"] + ["ok"] * (len(s.ships["Mikasa"].guns["15cm"]) - 1)
    mikasa = mounts(fire_ui(s, "japan"), "Mikasa")
    assert ("A", None) not in mikasa and ("Z", None) in mikasa
    port = mikasa["15cm", "port"]
    assert port["guns"] == 6 and "bow" not in {a["group"] for a in port["arcs"]}  # the port bow gun is gone
    rested = next(
        (n, m) for n in s.own("japan") for m, mt in s.ships[n].mounts.items() if s.weapon(n, mt.weapon).rof == "1/2"
    )
    s.turn = 3
    s.ships[rested[0]].mounts[rested[1]].fired = 1  # fired two turns ago: ready again
    assert mounts(fire_ui(s, "japan"), rested[0])[rested[1], None]["cycles"] == 1
    s.ships[rested[0]].mounts[rested[1]].fired = 2  # fired last turn: resting
    assert (rested[1], None) not in mounts(fire_ui(s, "japan"), rested[0])


def test_BF4_1_BFR41_reach_is_the_brackets_the_guns_penetrate():
    """Data pen null: the boat guns reach brackets 1-2 only, the 30 cm all four; estimates lie within four brackets."""
    ui = fire_ui(duel(), "japan")
    mikasa = mounts(ui, "Mikasa")
    assert (mikasa["boat", "port"]["brackets"], mikasa["boat", "port"]["reach_mm"]) == ([1, 2], 2 * B)
    assert mikasa["Z", None]["reach_mm"] == 4 * B
    assert ui["estimate_mm"] == {"min": 1, "max": 4 * B} and ui["one_cycle_beyond_mm"] == 2 * B


def test_BFR13_targets_are_the_enemy_in_play_and_never_say_arc_range_or_sight():
    """BF-R13: a surrendered ship is no target. BATTLEFLEET.md §4 Estimation: awaiting never shows in-arc, range or
    line-of-sight status before measuring (Tsesarevich lies in Z's arc, astern and to port, or not: not said)."""
    s = duel()
    s.ships["Retvizan"].lost = "surrendered"
    ui = fire_ui(s, "japan")
    names = [t["ship"] for t in ui["targets"]]
    assert "Retvizan" not in names and "Tsesarevich" in names and not set(names) & set(s.own("japan"))
    tses = next(t for t in ui["targets"] if t["ship"] == "Tsesarevich")
    exact = {"x": 1000, "y": 1300, "h": 90, "exact": True}  # fog open: the table shows everyone exactly
    assert tses == {"ship": "Tsesarevich", "cls": s.ships["Tsesarevich"].cls, "pose": exact}
    for m in mounts(ui, "Mikasa").values():
        assert set(m) == {"mount", "side", "weapon", "cat", "bore", "guns", "cycles", "arcs", "brackets", "reach_mm"}


def test_BF_fog_the_fire_ui_shows_a_seat_nothing_its_own_view_does_not():
    """Hidden information (BATTLEFLEET.md §4, fog `blur`): at every Gunnery Phase of a bot battle, each seat's fire ui
    is a function of its redacted state alone, and each target's pose is the one its own table view shows (a sighting,
    not the truth)."""
    checked, blurred = [], []

    def look(game, _event):
        state = game.state
        if state.over or state.step != "gunnery":
            return
        for seat in state.seats:
            entry = next((x for x in engine.awaiting(game, seat) if x.type == "fire"), None)
            if entry is None:
                continue
            assert msgspec.to_builtins(entry.ui) == fire_ui(redact(state, seat), seat)
            shown = {b.ship: b.pose for b in table(state, seat).bases}
            for t in msgspec.to_builtins(entry.ui)["targets"]:
                p = shown.get(t["ship"])
                assert t["pose"] == (None if p is None else {"x": p.x, "y": p.y, "h": p.h, "exact": p.exact})
                true = state.pose(t["ship"])
                blurred.append(t["pose"] is not None and (t["pose"]["x"], t["pose"]["y"]) != (true.x, true.y))
            checked.append(seat)

    play("battlefleet-1900", {"fog": "blur", "turns": 3}, b"fire-ui-fog", on_event=look)
    assert checked and any(blurred)


def test_BF4_0_BFR15_the_form_says_what_ammunition_a_gun_order_takes_and_whether_one_a_salvo():
    """4.0: a gun fires HE (the default) or AP; from 4.0.0 one for all the guns at one target (BF-R15, BF-E4-24). A UI
    that knows no ruleset drew only HE (a frontend author's trial): the form lists the values, the default first."""
    from typing import get_args, get_type_hints

    from domain.battlefleet_1900.commands import GunOrder

    ui = fire_ui(duel(), "japan")
    values = [o["value"] for o in ui["ammo"]]
    assert sorted(values) == sorted(get_args(get_args(get_type_hints(GunOrder, include_extras=True)["ammo"])[0]))
    assert values[0] == GunOrder(mount="A").ammo == "HE" and ui["one_ammo_a_salvo"] is True
    old = make_state(fog="open", step="gunnery", edition="3.0.0")
    assert fire_ui(old, "japan")["one_ammo_a_salvo"] is False
