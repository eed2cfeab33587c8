"""The generic clicker: builds a command's arguments from an `awaiting` entry alone, with random picks among what it
offers, as a UI that knows no ruleset would (issue 30). It reads the entry as the API answers it (plain JSON), so
what it proves is what a client gets.

`click(entry, rng)` uses `choices` when they are listed (or the `ui` descriptor where the entry has both, when it
offers a kind not yet `used`, else one time in `UI_SHARE`, so every descriptor kind is exercised), else the
descriptor, else the `default`. Among `variants` it prefers one with a kind not yet used, and among an `items`
control's optional items it includes one whose controls hold such a kind, where it may include any.
"""

from __future__ import annotations

import random
from typing import Any

UI_SHARE = 2  # where an entry offers both, the descriptor is used one time in this many


class Unrenderable(AssertionError):
    """An entry a UI cannot draw: no choices, no descriptor, no default."""


def click(entry: dict[str, Any], rng: random.Random, used: set[str] | None = None) -> dict[str, Any]:
    """The arguments (without `type`) a click-only UI sends for this entry. `used` collects the descriptor kinds
    that built them."""
    ui, choices = entry.get("ui"), entry.get("choices")
    used = used if used is not None else set()
    if ui is not None and (not choices or kinds(ui) - used or rng.randrange(UI_SHARE) == 0):
        return fill(ui, rng, used)
    if choices:
        used.add("choices")
        return dict(rng.choice(choices))
    if entry.get("default") is not None:
        used.add("default")
        return dict(entry["default"])
    raise Unrenderable(f"{entry['type']}: no choices, no ui, no default")


ARGUMENTS = ("fixed", "value")  # a command's arguments in a descriptor: a `kind` there is a field (a torpedo's)


def kinds(node) -> set[str]:
    """Every descriptor kind in a tree (not a `kind` among the arguments it carries)."""
    if isinstance(node, dict):
        here = {node["kind"]} if isinstance(node.get("kind"), str) else set()
        return here.union(*(kinds(v) for k, v in node.items() if k not in ARGUMENTS))
    if isinstance(node, list):
        return set().union(*(kinds(v) for v in node))
    return set()


def fill(ui: dict[str, Any], rng: random.Random, used: set[str]) -> dict[str, Any]:
    """A descriptor's arguments: a `form`'s controls, or a table-drawing form's own shape."""
    kind = ui["kind"]
    used.add(kind)
    if kind == "form":
        return _controls(ui["controls"], rng, used, Purse(ui.get("budgets", [])))
    return FORMS[kind](ui, rng)


class Purse:
    """What is left of a form's budgets: a choice is offered only while its `spend` fits (as a UI disables it)."""

    def __init__(self, budgets: list[dict]):
        self.left = {b["id"]: b["limit"] for b in budgets}
        self.broke = False  # a control had nothing that fit and took something anyway

    def fits(self, spend: dict[str, int], units: int = 1) -> bool:
        return all(self.left[k] >= v * units for k, v in spend.items() if k in self.left)

    def take(self, spend: dict[str, int], units: int = 1) -> None:
        for k, v in spend.items():
            if k in self.left:
                self.left[k] -= v * units

    def most(self, spend: dict[str, int], hi: int) -> int:
        """The most units of `spend` that fit, at most `hi`."""
        return min([hi] + [self.left[k] // v for k, v in spend.items() if k in self.left and v > 0])


def _controls(controls: list[dict], rng: random.Random, used: set[str], purse: Purse) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for control in controls:
        used.add(control["kind"])
        if control["kind"] == "variants":
            fitting = [v for v in control["variants"] if purse.fits(v.get("spend", {}))] or control["variants"]
            variant = rng.choice([v for v in fitting if kinds(v) - used] or fitting)
            purse.take(variant.get("spend", {}))
            out.update(variant.get("fixed", {}))
            out.update(_controls(variant.get("controls", []), rng, used, purse))
            continue
        value = _value(control, rng, used, purse)
        if value is not _OMIT:
            out[control["field"]] = value
    return out


_OMIT = object()


def _some(offered: list[dict], count: int, rng: random.Random, purse: Purse, again: bool = False) -> list[dict]:
    """Up to `count` of `offered` (each `spend`ing from the purse), at random, each once unless `again`."""
    chosen: list[dict] = []
    pool = list(offered)
    rng.shuffle(pool)
    while len(chosen) < count and pool:
        x = pool.pop() if not again else rng.choice(pool)
        if purse.fits(x.get("spend", {})):
            purse.take(x.get("spend", {}))
            chosen.append(x)
        elif again:
            pool.remove(x)
    return chosen


def _value(control: dict, rng: random.Random, used: set[str], purse: Purse) -> Any:
    kind = control["kind"]
    if kind == "select":
        fitting = [o for o in control["options"] if purse.fits(o.get("spend", {}))]
        if (control.get("optional") and rng.randrange(4) == 0) or (control.get("optional") and not fitting):
            return _OMIT
        purse.broke |= not fitting
        option = rng.choice(fitting or control["options"])
        purse.take(option.get("spend", {}))
        return option["value"]
    if kind == "number":
        if control.get("optional") and rng.randrange(4) == 0:
            return _OMIT
        spend = control.get("spend", {})
        value = rng.randint(control["min"], max(control["min"], purse.most(spend, control["max"])))
        purse.take(spend, value)
        return value
    if kind == "text":
        texts = ["", "steady", "Engage the enemy more closely"]
        return rng.choice([t for t in texts if len(t) >= control.get("min_length", 0)])[: control["max_length"]]
    if kind == "pick":  # the required values first (what the pick's variant stands for), then some of the others
        required = [o for o in control["options"] if o["value"] in control.get("required", [])]
        options = [o for o in control["options"] if o not in required]
        for o in required:
            purse.take(o.get("spend", {}))
        hi = len(control["options"]) if control.get("max") is None else min(control["max"], len(control["options"]))
        lo = max(control.get("min", 0), len(required))
        more = _some(options, rng.randint(lo, hi) - len(required), rng, purse)
        return [o["value"] for o in [*required, *more]]
    if kind == "items":
        required = [i for i in control["items"] if i.get("required")]
        optional = [i for i in control["items"] if not i.get("required")]
        for i in required:
            purse.take(i.get("spend", {}))
        hi = len(control["items"]) if control.get("max") is None else control["max"]
        lo = max(control.get("min", 0), len(required))
        extra = rng.randint(max(0, lo - len(required)), max(0, min(hi - len(required), len(optional))))
        made = [(i, {**i["fixed"], **_controls(i.get("controls", []), rng, used, purse)}) for i in required]
        pool = [i for i in _some(optional, extra, rng, Purse([]), again=bool(control.get("repeatable")))]
        fresh = [i for i in optional if kinds(i.get("controls", [])) - used]
        if fresh and not any(i in fresh for i in pool) and hi > len(required):  # a kind not clicked yet: one such item
            pool = [rng.choice(fresh), *pool][: max(1, extra)]
        for item in pool:  # an item whose own controls cannot fit what is left is not included
            left, broke = dict(purse.left), purse.broke
            if purse.fits(item.get("spend", {})):
                purse.take(item.get("spend", {}))
                built = {**item["fixed"], **_controls(item.get("controls", []), rng, used, purse)}
                if not purse.broke:
                    made.append((item, built))
                    continue
            purse.left, purse.broke = left, broke
        if control.get("ordered"):  # in the order the items are offered (Battlefleet's arrows, first executed first)
            offered = [id(i) for i in control["items"]]
            made.sort(key=lambda pair: offered.index(id(pair[0])))
        else:
            rng.shuffle(made)  # any order: the descriptor does not ask for one
        return [built for _, built in made]
    if kind == "repeat":
        lo, hi = control.get("min", 0), control.get("max", 1)  # omitted at their defaults (omit_defaults)
        return [_controls(control["controls"], rng, used, purse) for _ in range(rng.randint(lo, hi))]
    if kind == "group":
        return _controls(control["controls"], rng, used, purse)
    raise Unrenderable(f"unknown control kind {kind!r}")


def turns_need(division: dict, turns: list[int]) -> int:
    """The distance a `move` division's `turns_need` says these turns take (its description's arithmetic, BF-R5)."""
    t = division["turns_need"]
    if t is None or not any(turns):
        return 0
    cost = sum(-(-355 * t["radius_mm"] * abs(x) // 20340) for x in turns)  # each turn's arc, rounded up
    return min(division["distance_mm"]["max"], t["base_mm"] + cost)


def _move(ui: dict, rng: random.Random) -> dict:
    """Battlefleet's Movement Phase: each division a distance in its limits and one turn per band (BF-R5, BF-R6)."""
    divisions = []
    for d in ui["divisions"]:
        if rng.randrange(3) == 0:
            continue  # keeps its speed and makes each arrow's least turn
        turns = []
        for band in d["turns"]:
            deg = rng.randint(band["min_deg"], band["max_deg"])
            port = band["to"] == "port" or (band["to"] == "either" and rng.randrange(2) == 0)
            turns.append(-deg if port else deg)
        lo, hi = max(d["distance_mm"]["min"], turns_need(d, turns)), d["distance_mm"]["max"]
        divisions.append({"division": d["division"], "distance_mm": rng.randint(lo, hi), "turns_deg": turns})
    return {"divisions": divisions}


def _fire(ui: dict, rng: random.Random) -> dict:
    """Battlefleet's Gunnery Phase: some ships each fire some of their mounts at one target with one estimate."""
    salvos = []
    for ship in ui["ships"]:
        if not ship["mounts"] or not ui["targets"] or rng.randrange(3) == 0:
            continue
        ammo = [o["value"] for o in ui["ammo"]]
        salvo_ammo = rng.choice(ammo)  # one for the salvo where the form says so (BF-R15), else each gun its own
        mounts = rng.sample(ship["mounts"], rng.randint(1, len(ship["mounts"])))
        guns = [
            {
                "mount": m["mount"],
                "side": m["side"],
                "guns": rng.randint(1, m["guns"]) if m["side"] is not None else None,
                "cycles": rng.randint(1, m["cycles"]),
                "ammo": salvo_ammo if ui["one_ammo_a_salvo"] else rng.choice(ammo),
            }
            for m in mounts
        ]
        lo, hi = ui["estimate_mm"]["min"], ui["estimate_mm"]["max"]
        target = rng.choice(ui["targets"])["ship"]
        salvos.append({"ship": ship["ship"], "target": target, "estimate_mm": rng.randint(lo, hi), "guns": guns})
    return {"salvos": salvos}


def _steps(ui: dict, rng: random.Random) -> dict:
    """U-Boat Leader's Operations step: a boat and one of its own steps."""
    boat = rng.choice([b for b in ui["boats"] if b["steps"]])
    return {"boat": boat["boat"], "to": rng.choice(boat["steps"])["to"]}


def _sides(ui: dict, rng: random.Random) -> dict:
    """U-Boat Leader's Tactical move: a boat, one of its sides and where that side may end (or off)."""
    boat = rng.choice([b for b in ui["boats"] if b["sides"]])
    side = rng.choice(boat["sides"])
    ends = side["to"] + (["off"] if side["off"] else [])
    return {"boat": boat["boat"], "side": side["side"], "to": rng.choice(ends)}


FORMS = {"move": _move, "fire": _fire, "steps": _steps, "sides": _sides}
