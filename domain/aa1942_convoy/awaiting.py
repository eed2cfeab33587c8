"""What `awaiting` shows: each legal command with what it does, a label per choice, and an argument schema
narrowed to what the rules allow now (bounds, enumerations, and one `oneOf` branch per origin where a field
depends on another), so a UI built from it alone never offers an illegal move; where the choices are too many to
list, a `ui` descriptor (domain/decisions.py) says the same per zone. The legality itself is the rule modules'
(`legal_*`, `max_spend`, `move_origins`, …); this module only describes it."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any, NamedTuple

import msgspec

from domain import entries
from domain.aa1942_convoy import commands as c
from domain.aa1942_convoy.rules import purchase, raid, submarines, territory
from domain.aa1942_convoy.rules.turn import income_of, last_turn
from domain.aa1942_convoy.state import CAPITALS, CONVOY_ZONES, PHASES, SIDE, TURN_ORDER, State
from domain.decisions import Form, Number, Option, Select, Variant, Variants, descriptors_wanted
from domain.engine import (
    HOLE,
    MAX_CHOICES,
    REFEREE,
    CommandSpec,
    command_schema,
    cut,
    premade,
    spec_of,
    tag,
)
from domain.procedure import memoized
from events import aa1942_convoy as ev

_json = msgspec.json.encode


def _int(**bounds: int) -> dict[str, Any]:
    return {"type": "integer", **bounds}


def _object(props: dict[str, Any], one_of: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }
    if one_of:
        out["oneOf"] = one_of
    return out


def _branch(**props: dict[str, Any]) -> dict[str, Any]:
    return {"properties": props}


def _listed(choices: Iterable[dict], label: Callable[[dict], str]) -> tuple[list[dict] | None, list[str] | None]:
    """The choices and their labels when there are at most MAX_CHOICES (only one more is ever generated)."""
    head = list(islice(choices, MAX_CHOICES + 1))
    if len(head) > MAX_CHOICES:
        return None, None
    return head, [label(x) for x in head]


def _counted(fleets: list[int]) -> int:
    """How many choices fleets of these sizes make: len(submarines.counts(n)) each, counted without the ranges."""
    return sum([n if n < c.MAX_COUNT else c.MAX_COUNT for n in fleets])


def _n(count: int, what: str = "submarine") -> str:
    return f"{count} {what}{'' if count == 1 else 's'}"


# ---- descriptors, built only where the choices are not listed (the same bounds as the schemas) ---------------


def _count(n: int, label: str = "How many submarines") -> Number:
    """A command's `count` for n submarines: at most MAX_COUNT a command (`submarines.counts`)."""
    return Number(field="count", label=label, min=1, max=min(c.MAX_COUNT, n))


def _per_zone(label: str, variants: list[Variant]) -> Form:
    """One variant per zone (its arguments fixed, its own controls): a zone's counts are its own."""
    return Form(controls=[Variants(label=label, variants=variants)])


# ---- one builder per command: (state, seats) -> CommandSpec, or None where the command is not legal now -------


def _chips_of(state: State) -> str:
    """AA-11: the chips the acting power's payment will remove, e.g. "SZ 7: 2, SZ 10: 3"."""
    return ", ".join(f"SZ {sz}: {n}" for sz, n in sorted(state.chips.items()) if CONVOY_ZONES[sz] == state.power)


def purchase_spec(state: State, seats: list[str]) -> CommandSpec:
    top = purchase.max_spend(state)
    why = "its treasury" if state.holds_capital(state.power) else "nothing: its capital is in enemy hands"
    choices, labels = _listed(
        ({"spend": n} for n in range(top + 1)),
        lambda x: f"Spend {_n(x['spend'], 'IPC')}" if x["spend"] else "Spend nothing",
    )
    return CommandSpec(
        type="purchase",
        seats=seats,
        choices=choices,
        labels=labels,
        schema=_object({"spend": _int(minimum=0, maximum=top)}),
        ui=None if choices is not None else Form(
            controls=[Number(field="spend", label="IPCs to spend", min=0, max=top, unit="IPC")]
        ),
        description=f"Purchase & Repair: {state.power} spends 0 to {top} IPCs ({why})"
        + (f"; paying removes the raid chips under its markers ({chips})." if (chips := _chips_of(state)) else "."),
    )


def move_spec(state: State, seats: list[str]) -> CommandSpec | None:
    origins = list(submarines.move_origins(state))
    if not origins:
        return None
    choices, labels = _listed(
        submarines.legal_moves(state),
        lambda x: f"Move {_n(x['count'])} from sea zone {x['from_sz']} to sea zone {x['to_sz']}",
    )
    if state.phase == "combat-move":
        phase = "Combat move: submarines that have not moved"
    else:
        phase = "Noncombat move: submarines that neither moved, raided" + (
            ", fought nor retreated" if state.edition.has(submarines.RETREAT) else " nor fought"
        )
    open_ = f"; canals open to {SIDE[state.power]}: {', '.join(state.canals_open) or 'none'}"
    return CommandSpec(
        type="move_submarines",
        seats=seats,
        choices=choices,
        labels=labels,
        schema=_from_to_schema(origins),
        ui=None if choices is not None else _from_to_ui(
            "Submarines of sea zone",
            "To sea zone",
            origins,
            lambda sz, n: f"{_n(n)} free to move in sea zone {sz}",
            lambda reach: _reach_options(tuple(reach.items())),
            _count,
        ),
        description=f"{phase} go up to {submarines.SUBMARINE_MOVE} sea zones{open_}.",
    )


def _from_to_schema(origins: list[tuple[int, int, Any]]) -> dict[str, Any]:
    """The schema of a command taking `count` submarines from `from_sz` to `to_sz` (`move_submarines`,
    `retreat_submarines`), from its origins (zone, how many, the zones it reaches): a `oneOf` branch per origin."""
    return _object(
        {
            "from_sz": _int(enum=[sz for sz, _, _ in origins]),
            "to_sz": _int(enum=sorted({to for _, _, reach in origins for to in reach})),
            "count": _int(minimum=1, maximum=min(c.MAX_COUNT, max(n for _, n, _ in origins))),
        },
        [
            _branch(from_sz={"const": sz}, to_sz={"enum": list(reach)}, count=_int(maximum=min(c.MAX_COUNT, n)))
            for sz, n, reach in origins
        ],
    )


def _from_to_ui(
    label: str,
    to_label: str,
    origins: list[tuple[int, int, Any]],
    variant_label: Callable[[int, int], str],
    options: Callable[[Any], list[Option]],
    count: Callable[[int], Number],
) -> Form:
    """The same command's descriptor: a variant per origin, its zone fixed, a zone it reaches and how many."""
    return _per_zone(
        label,
        [
            Variant(
                label=variant_label(sz, n),
                fixed={"from_sz": sz},
                controls=[Select(field="to_sz", label=to_label, options=options(reach)), count(n)],
            )
            for sz, n, reach in origins
        ],
    )


@functools.lru_cache(maxsize=1024)
def _reach_options(reach: tuple[tuple[int, int], ...]) -> list[Option]:
    """AA-R8: the zones one origin reaches, with their distance (shared between entries: nobody mutates one)."""
    return [Option(value=to, label=f"Sea zone {to} ({_n(d, 'move')})") for to, d in reach]


@functools.lru_cache(maxsize=1024)
def _raid_label(sz: int, cap_left: int) -> str:
    return f"Raid sea zone {sz} ({CONVOY_ZONES[sz]}, {cap_left} IPCs left under the cap) with a submarine"


def raid_spec(state: State, seats: list[str]) -> CommandSpec | None:
    legal = list(raid.legal_raids(state))
    if not legal:
        return None
    choices, labels = _listed(legal, lambda x: _raid_label(x["sz"], state.cap_left(x["sz"])))
    return CommandSpec(
        type="raid",
        seats=seats,
        choices=choices,
        labels=labels,
        schema=_object({"sz": _int(enum=[x["sz"] for x in legal])}),
        description="Combat step 1: one submarine raids the enemy convoy zone it is in (1d6: 1-3 as rolled, 4-6 "
        "nothing, +1), up to what the zone's 4 chips leave.",
    )


def _raid_raided(spec: CommandSpec, state: State, raids: tuple[ev.ConvoyRaided, ...]) -> CommandSpec | None:
    """The `raid` entry after `raids`: the same while each took nothing (its zone's chips, and so its cap's label, as
    they were: a zone at its cap of 4) and left a submarine in its zone that may raid; else None (built again)."""
    for e in raids:
        if e.damage or state.may_raid_with(e.sz) <= 0:
            return None
    return spec


class _Part(NamedTuple):
    """A zone's (`fight`) or a fleet's (`lose_submarines`) part of its per-zone entry, shared between entries (nobody
    mutates one): the entries are built again when a fleet moves, is placed or lost, and a raid changes one part
    (`_fight_raided`, `_loss_raided`)."""

    branch: dict[str, Any]  # its schema branch
    variant: Variant
    branch_json: bytes  # their JSON, for the entry's premade bytes (engine.premade)
    variant_json: bytes


def _part(fixed: dict[str, Any], n: int, label: str, how_many: str) -> _Part:
    """The part of the group of n submarines `fixed` names: at most n of them in a command."""
    branch = _branch(**{k: {"const": v} for k, v in fixed.items()}, count=_int(maximum=min(c.MAX_COUNT, n)))
    variant = Variant(label=label, fixed=fixed, controls=[_count(n, how_many)])
    return _Part(branch, variant, _json(branch), _json(variant))


@functools.lru_cache(maxsize=4096)
def _fight_zone(sz: int, n: int) -> _Part:
    return _part({"sz": sz}, n, f"Sea zone {sz}: {_n(n)} that may fight", "How many fight")


def fight_spec(state: State, seats: list[str]) -> CommandSpec | None:
    may = state.zones_that_may_raid()
    if not may:
        return None
    zones = sorted(may)
    counts = [may[sz] for sz in zones]
    return _fight_entry(state, seats, _Parts.of(tuple(zones), (tuple(zones),), counts, map(_fight_zone, zones, counts)))


def _fight_entry(state: State, seats: list[str], parts: _Parts) -> CommandSpec:
    top = max(parts.counts)
    choices, labels = (None, None) if _too_many(parts.counts, top) else _listed(
        submarines.legal_fights(state),
        lambda x: f"Commit {_n(x['count'])} in sea zone {x['sz']} to general combat",
    )
    return _from_parts(_fight, _fight_shell, seats, (*parts.named, top), choices, labels, parts)


def _too_many(counts: list[int], top: int) -> bool:
    """Whether groups of these sizes (the largest `top`) make more than MAX_CHOICES choices (a count each, up to
    MAX_COUNT): at once where the largest alone does (a raid's case in big fleets: no sum then)."""
    return min(top, c.MAX_COUNT) > MAX_CHOICES or _counted(counts) > MAX_CHOICES


class _Parts(NamedTuple):
    """A per-zone entry's parts (a zone's for `fight`, a fleet's for `lose_submarines`), column by column, kept on the
    entry (`_from_parts`) for a raid's patch to change the part the raid changed (`_fight_raided`, `_loss_raided`):
    `keys[i]` names the zone or fleet of `counts[i]` and of each column's i-th item, `at[keys[i]] == i`."""

    keys: tuple
    at: dict[Any, int]
    named: tuple  # the zones (and powers) the entry's shell names: a patch changes no key, so none of these
    counts: list[int]
    branches: list[dict[str, Any]]
    variants: list[Variant]
    branches_json: list[bytes]
    variants_json: list[bytes]

    @staticmethod
    def of(keys: tuple, named: tuple, counts: list[int], parts: Iterable[_Part]) -> _Parts:
        branches, variants, branches_json, variants_json = map(list, zip(*parts))
        at = {k: i for i, k in enumerate(keys)}
        return _Parts(keys, at, named, counts, branches, variants, branches_json, variants_json)

    def patched(self, changed: Iterable[tuple[Any, int, _Part]]) -> _Parts:
        """These parts with those of `changed` (key, count, part) in their keys' places (nobody mutates a column)."""
        counts, branches, variants = self.counts[:], self.branches[:], self.variants[:]
        branches_json, variants_json = self.branches_json[:], self.variants_json[:]
        for key, n, (branch, variant, branch_json, variant_json) in changed:
            i = self.at[key]
            counts[i], branches[i], variants[i], branches_json[i], variants_json[i] = (
                n, branch, variant, branch_json, variant_json
            )
        return _Parts(self.keys, self.at, self.named, counts, branches, variants, branches_json, variants_json)


def _parts_of(spec: CommandSpec) -> _Parts | None:
    """The parts a per-zone entry was made of (`_from_parts`), or None where its choices are listed."""
    return spec.__dict__.get("parts")


def _from_parts(build, shell, seats: list[str], what: tuple, choices, labels, parts: _Parts) -> CommandSpec:
    """A per-zone entry (`fight`, `lose_submarines`): `build(seats, *what, choices, labels, branches, variants)`
    from its parts, and where it is answered with descriptors, its JSON spliced from `shell(seats, *what)` (the
    entry but its parts, the same for every raid on them) and its parts' own, made once each (engine.premade)."""
    if choices is not None:  # its entry shows the choices alone
        return build(seats, *what, choices, labels, parts.branches, None)
    spec = build(seats, *what, None, None, parts.branches, parts.variants)
    spec.__dict__["parts"] = parts  # `_parts_of`, for a raid's patch
    if not descriptors_wanted():  # a bot's (never encoded)
        return spec
    return premade(spec, shell(tuple(seats), *what), parts.branches_json, parts.variants_json)


def _same_shell(spec: CommandSpec, parts: _Parts) -> CommandSpec | None:
    """The per-zone entry `spec` with the parts `parts` (a raid's patch changed some), where all but its parts stay
    as they were: its choices still too many to list and its largest count's bound the same; else None (built again
    from its parts, `_fight_entry`, `_lose_entry`). The schema, descriptor and JSON are `spec`'s with the parts
    swapped in: building them again from the state cost a raid about 30 k instructions an entry (counted)."""
    counts = parts.counts
    top = max(counts)
    bound = spec.schema["properties"]["count"]["maximum"]
    if bound != min(c.MAX_COUNT, top) or not _too_many(counts, top):
        return None
    ui = spec.ui
    assert isinstance(ui, Form)  # `_per_zone`'s
    form = ui.controls[0]
    patched = msgspec.structs.replace(
        spec,
        schema={**spec.schema, "oneOf": parts.branches},
        ui=msgspec.structs.replace(ui, controls=[msgspec.structs.replace(form, variants=parts.variants)]),
    )
    patched.__dict__["parts"] = parts
    shell = spec.__dict__.get("shell")
    if shell is None:  # a bot's (never encoded)
        return patched
    return premade(patched, shell, parts.branches_json, parts.variants_json)


def _fight_raided(spec: CommandSpec, state: State, raids: tuple[ev.ConvoyRaided, ...]) -> CommandSpec | None:
    """The `fight` entry after `raids`: each leaves one submarine fewer that may fight in its zone (AA-R1), the other
    zones' parts as they were; None (built again) where its choices are listed or a zone has none left (it leaves the
    entry). As `_loss_raided`: a loop each, the cheaper for being written out (a shared one with a function per part
    cost a raid 10 k instructions, counted)."""
    parts = _parts_of(spec)
    if parts is None:
        return None
    changed = []
    for e in raids:
        n = state.may_raid_with(e.sz)
        if n <= 0:
            return None
        changed.append((e.sz, n, _fight_zone(e.sz, n)))
    parts = parts.patched(changed)
    return _same_shell(spec, parts) or _fight_entry(state, spec.seats, parts)


def _fight(seats: list[str], zones: tuple[int, ...], top: int, choices, labels, branches, variants) -> CommandSpec:
    """The `fight` entry (`top`: the most submarines a zone may fight with); its `branches` and `variants` (a zone's
    each) may be HOLEs (`_fight_shell`)."""
    return CommandSpec(
        type="fight",
        seats=seats,
        choices=choices,
        labels=labels,
        schema=_object(
            {"sz": _int(enum=list(zones)), "count": _int(minimum=1, maximum=min(c.MAX_COUNT, top))}, branches
        ),
        ui=None if variants is None else _per_zone("Sea zone", variants),
        description="Commit submarines to general combat (step 3): they no longer raid this turn, and raids end.",
    )


@functools.lru_cache(maxsize=256)
def _fight_shell(seats: tuple[str, ...], zones: tuple[int, ...], top: int) -> list[bytes]:
    """The `fight` entry's JSON but its zones' parts (engine.cut): the same for every raid on these zones."""
    return cut(_fight(list(seats), zones, top, None, None, HOLE, HOLE))


def retreat_spec(state: State, seats: list[str]) -> CommandSpec | None:
    """AA-R18 (5.0.0, AA-E5-1): one variant per zone where the acting power's submarines fought this turn, with the
    adjacent zones they may retreat to and how many; absent before 5.0.0, before general combat and when none fought."""
    origins = list(submarines.retreat_origins(state))
    if not origins:
        return None
    choices, labels = _listed(
        submarines.legal_retreats(state),
        lambda x: f"Retreat {_n(x['count'])} that fought in sea zone {x['from_sz']} to sea zone {x['to_sz']}",
    )
    return CommandSpec(
        type="retreat_submarines",
        seats=seats,
        choices=choices,
        labels=labels,
        schema=_from_to_schema(origins),
        ui=None if choices is not None else _from_to_ui(
            "Submarines that fought in sea zone",
            "Retreat to sea zone",
            origins,
            lambda sz, n: f"{_n(n)} that fought in sea zone {sz}",
            lambda reach: [Option(value=to, label=f"Sea zone {to}") for to in reach],
            lambda n: _count(n, "How many retreat"),
        ),
        description=f"General combat: {state.power}'s submarines that fought in a zone retreat one sea move, to a "
        "friendly zone the attack came from (your word); they do nothing more this turn and are not lost in this "
        "combat. A raider never retreats (AA-7); one that submerges stays and needs no record (AA-R18).",
    )


@functools.lru_cache(maxsize=4096)
def _loss_fleet(power: str, sz: int, n: int, raided: int, retreated: int = 0) -> _Part:
    """A fleet's part of the `lose_submarines` entry: the n submarines that may be recorded lost, and those of it that
    raided this turn (AA-E4-1) or retreated there (AA-E5-1) and may not."""
    stay = f" (and {raided} that raided this turn, not lost in this combat)" if raided else ""
    if retreated:
        but = f"{raided} that raided this turn and " if raided else ""
        stay = f" (and {but}{retreated} that retreated there, not lost in this combat)"
    label = f"{_n(n, power + ' submarine')} in sea zone {sz}{stay}"
    return _part({"power": power, "sz": sz}, n, label, "How many lost")


def lose_spec(state: State, seats: list[str]) -> CommandSpec | None:
    powers: list[str] = []
    zones: set[int] = set()
    keys: list[tuple[str, int]] = []
    counts: list[int] = []
    parts: list[_Part] = []  # a part a fleet, with those that raided (AA-E4-1)
    for p in TURN_ORDER:
        if may := submarines.losable(state, p):  # zone -> how many
            powers.append(p)
            zones.update(may)
            for sz in sorted(may):
                keys.append((p, sz))
                counts.append(n := may[sz])
                parts.append(_fleet_part(state, p, sz, n))
    if not parts:
        return None
    return _lose_entry(state, seats, _Parts.of(tuple(keys), (tuple(powers), tuple(sorted(zones))), counts, parts))


def _fleet_part(state: State, power: str, sz: int, n: int) -> _Part:
    """The part of `power`'s fleet in sz, of which n may be recorded lost: the rest raided (AA-E4-1) or retreated there
    (AA-E5-1) this turn, which only the acting power's do."""
    used = state.used.get(sz) if power == state.power else None
    back = used.retreated if used is not None else 0
    return _loss_fleet(power, sz, n, state.subs[power][sz] - n - back, back)


def _lose_entry(state: State, seats: list[str], parts: _Parts) -> CommandSpec:
    top = max(parts.counts)
    choices, labels = (None, None) if _too_many(parts.counts, top) else _listed(
        submarines.legal_losses(state),
        lambda x: f"Record {_n(x['count'], x['power'] + ' submarine')} lost in sea zone {x['sz']}",
    )
    description = _lose_description(state.power, state.edition.has("AA-E4-1"), state.edition.has("AA-E5-1"))
    what = (*parts.named, top, description)
    return _from_parts(_lose, _lose_shell, seats, what, choices, labels, parts)


def _loss_raided(spec: CommandSpec, state: State, raids: tuple[ev.ConvoyRaided, ...]) -> CommandSpec | None:
    """The `lose_submarines` entry after `raids`: from 4.0.0 (AA-E4-1) each leaves one of the acting power's submarines
    fewer that may be recorded lost in its zone, the other fleets' parts as they were; None (built again) where its
    choices are listed or a fleet has none left (it leaves the entry). 3.0.0: a raid changes nothing of it (any
    power's submarines, all)."""
    if not state.edition.has("AA-E4-1"):
        return spec
    parts = _parts_of(spec)
    if parts is None:
        return None
    power = state.power
    may = submarines.losable(state, power)
    changed = []
    for e in raids:
        n = may.get(e.sz, 0)
        if n <= 0:
            return None
        changed.append(((power, e.sz), n, _fleet_part(state, power, e.sz, n)))
    parts = parts.patched(changed)
    return _same_shell(spec, parts) or _lose_entry(state, spec.seats, parts)


@functools.lru_cache(maxsize=16)
def _lose_description(power: str, rewritten: bool, retreats: bool = False) -> str:
    """AA-R10 as `power`'s combat applies it (`rewritten`: from 4.0.0, AA-E4-1; `retreats`: from 5.0.0, AA-E5-1)."""
    if not rewritten:
        return f"Record submarines of any power sunk in {power}'s combat (general combat begins)."
    if retreats:
        return (
            f"Record submarines sunk in {power}'s combat: its enemies', and its own that fought, moved or are unused, "
            "never those that raided or retreated this turn nor its allies' (AA-R10, AA-R18; general combat begins)."
        )
    return (
        f"Record submarines sunk in {power}'s combat: its enemies', and its own that fought, moved or are unused, "
        "never those that raided this turn nor its allies' (AA-R10; general combat begins)."
    )


def _lose(
    seats: list[str], powers, zones, top: int, description: str, choices, labels, branches, variants
) -> CommandSpec:
    """The `lose_submarines` entry (`top`: the most submarines of a fleet that may be recorded lost); its `branches`
    and `variants` (a fleet's each) may be HOLEs (`_lose_shell`)."""
    return CommandSpec(
        type="lose_submarines",
        seats=seats,
        choices=choices,
        labels=labels,
        schema=_object(
            {
                "power": {"type": "string", "enum": list(powers)},
                "sz": _int(enum=list(zones)),
                "count": _int(minimum=1, maximum=min(c.MAX_COUNT, top)),
            },
            branches,
        ),
        ui=None if variants is None else _per_zone("Fleet", variants),
        description=description,
    )


@functools.lru_cache(maxsize=256)
def _lose_shell(
    seats: tuple[str, ...], powers: tuple[str, ...], zones: tuple[int, ...], top: int, description: str
) -> list[bytes]:
    """The `lose_submarines` entry's JSON but its fleets' parts (engine.cut): the same for every raid on these fleets
    that leaves the largest what it was."""
    return cut(_lose(list(seats), powers, zones, top, description, None, None, HOLE, HOLE))


def capture_spec(state: State, seats: list[str]) -> CommandSpec | None:
    legal = territory.legal_captures(state)
    if not legal:
        return None
    choices, labels = _listed(legal, lambda x: f"Capture {x['territory']} from {state.control[x['territory']]}")
    return CommandSpec(
        type="capture",
        seats=seats,
        choices=choices,
        labels=labels,
        schema=_object({"territory": {"type": "string", "enum": [x["territory"] for x in legal]}}),
        description=f"{state.power} takes an enemy-held territory of the enemy side (a capital takes its "
        "treasury; a convoy zone it borders may go face down).",
    )


def liberate_spec(state: State, seats: list[str]) -> CommandSpec | None:
    legal = territory.legal_liberations(state)
    if not legal:
        return None

    def label(x: dict) -> str:
        t = x["territory"]
        return f"Liberate {t} from {state.control[t]} ({state.map.land_territories[t].original_owner}'s)"

    choices, labels = _listed(legal, label)
    return CommandSpec(
        type="liberate",
        seats=seats,
        choices=choices,
        labels=labels,
        schema=_object({"territory": {"type": "string", "enum": [x["territory"] for x in legal]}}),
        description=f"{state.power} retakes an enemy-held territory of its own side; a freed capital brings its "
        "power's territories back from its allies.",
    )


def place_spec(state: State, seats: list[str]) -> CommandSpec | None:
    """AA-R9: any sea zone of the map (the ledger does not know where a power may place; each command places in one
    zone); AA-R17 (4.0.0): at most what this turn's spending bought at 6 IPCs each, in all, and no entry when that is
    none (a `place_submarines` sent then is refused with the reason). 3.0.0: any count a command carries."""
    left = submarines.place_left(state)
    if left == 0:
        return None
    top = c.MAX_COUNT if left is None else min(c.MAX_COUNT, left)
    zones = sorted(int(sz) for sz in state.map.sea_zones)
    bound = "" if left is None else (
        f"; at most {left} more this turn: {_n(state.spent.get(state.power, 0), 'IPC')} spent in Purchase & "
        f"Repair pay for {_n(submarines.bought(state))} at {submarines.SUBMARINE_COST} IPCs each (AA-R17)"
    )
    return CommandSpec(
        type="place_submarines",
        seats=seats,
        choices=None,
        schema=_object({"sz": _int(enum=zones), "count": _int(minimum=1, maximum=top)}),
        ui=Form(
            controls=[
                Select(
                    field="sz",
                    label="Sea zone",
                    options=[Option(value=sz, label=_zone_label(state, sz)) for sz in zones],
                    default=_home_zone(state, zones),
                ),
                # all it bought (from 4.0.0, AA-R17; 3.0.0 knows no count bought)
                msgspec.structs.replace(_count(top, "How many new submarines"), default=None if left is None else top),
            ]
        ),
        description=f"Mobilize: place {state.power}'s new submarines in a sea zone (the ledger takes your word for "
        f"where they may go){bound}.",
    )


def _zone_label(state: State, sz: int) -> str:
    """A sea zone with the land it borders, so a player finds it without the board's numbers."""
    land = state.map.sea_zones[str(sz)].bordering_land
    return f"Sea zone {sz} ({', '.join(land)})" if land else f"Sea zone {sz}"


def _home_zone(state: State, zones: list[int]) -> int | None:
    """The zone a placement form starts on: off the power's capital, else off a territory it holds (a play trial:
    every power's form started on sea zone 1, off Eastern Canada, Japan's too). Only where the form starts: the
    ledger takes the player's word for where new submarines go (AA-R9)."""
    for held in (lambda t: t == CAPITALS[state.power], lambda t: state.control.get(t) == state.power):
        for sz in zones:
            if any(held(t) for t in state.map.sea_zones[str(sz)].bordering_land):
                return sz
    return None


def end_phase_spec(state: State, seats: list[str]) -> CommandSpec:
    if state.phase == "mobilize":
        nxt = "the game ends" if last_turn(state) else f"{TURN_ORDER[(state.turn + 1) % len(TURN_ORDER)]} is next"
        label = f"End the turn: collect {income_of(state, state.power)} IPCs income; {nxt}"
    else:
        label = f"End {state.phase.replace('-', ' ')}; {PHASES[PHASES.index(state.phase) + 1].replace('-', ' ')} next"
    return CommandSpec(
        type="end_phase",
        seats=seats,
        choices=[{}],
        labels=[label],
        schema=_object({}),
        description=f"End {state.power}'s {state.phase.replace('-', ' ')} phase.",
    )


def end_game_spec(state: State, seats: list[str]) -> CommandSpec:
    description = "Referee: the game is over (victory cities are outside this ledger)."
    return spec_of(c.EndGame, seats, [{}], command_schema(c.EndGame), description, ["End the game"])


# (command, the legal choices or None when any argument the schema allows is legal, the full entry): the choices
# judge a command (`only=`, a replay), the builder answers `awaiting` (and says None where the choices are none)
Entry = tuple[
    type, Callable[[State], Iterator[dict] | list[dict]] | None, Callable[[State, list[str]], CommandSpec | None]
]
PHASE_COMMANDS: dict[str, list[Entry]] = {
    "purchase": [(c.Purchase, lambda s: iter([{}]), purchase_spec)],
    "combat-move": [(c.MoveSubmarines, submarines.legal_moves, move_spec)],
    "combat": [
        (c.Raid, raid.legal_raids, raid_spec),
        (c.Fight, submarines.legal_fights, fight_spec),
        (c.RetreatSubmarines, submarines.legal_retreats, retreat_spec),
        (c.LoseSubmarines, submarines.legal_losses, lose_spec),
        (c.Capture, territory.any_capture, capture_spec),
        (c.Liberate, territory.any_liberation, liberate_spec),
    ],
    "noncombat-move": [(c.MoveSubmarines, submarines.legal_moves, move_spec)],
    "mobilize": [(c.PlaceSubmarines, submarines.legal_placements, place_spec)],
}


# What each entry reads of the state (domain/entries.py keeps it while that is unchanged): the answer to a raid
# patches the fight entry's and (from 4.0.0) the loss entry's raided zone (`_fight_raided`, `_loss_raided`), and rebuilds the raid entry
# when a zone's cap or last submarine goes. An entry without one here (purchase, move) is built every time.
def _losses(s: State) -> Any:
    """What `submarines.losable` and the labels read: the edition, every power's fleets and, from 4.0.0 (AA-E4-1), how
    many of the acting power's submarines raided where. From 4.0.0 each raid changes what the acting power may record
    lost, so once one did, no later state of the turn matches: no key (asking and keeping it cost a raid 25 k
    instructions); 3.0.0's entry stays the same through every raid, kept by its key."""
    if s.edition.has("AA-E4-1") and any(u.raided or u.retreated for u in s.used.values()):
        return entries.UNKEYED  # a retreat (5.0.0) too: the fleets' counts alone no longer say what may be lost
    return s.turn, s.edition.version, tuple((p, tuple(s.subs.get(p, {}).items())) for p in TURN_ORDER)


def _placing(s: State) -> tuple:
    """What the place entry reads: the map's sea zones, the acting power, (AA-R17, 4.0.0) what it may still place and
    what its spending bought, and who holds which territory (where its form starts)."""
    return s.turn, id(s.map), s.edition.version, submarines.place_left(s), s.spent.get(s.power, 0), _control(s)


@memoized  # the capture and liberate entries' key
def _control(s: State) -> tuple:
    return s.turn, id(s.map), tuple(s.control.values())  # setup names every territory once; only their holders change


def _raids(s: State) -> tuple:
    """What `raid.why_not_raid` and the labels read: the step, the deactivated zones, the chips, and which zones hold a
    submarine that may still raid."""
    chips = s.chips
    return s.turn, s.combat_step, tuple(s.inactive), tuple(chips), tuple(chips.values()), tuple(s.zones_that_may_raid())


def _phase_end(s: State) -> tuple:
    return s.turn, s.phase, (income_of(s, s.power), last_turn(s)) if s.phase == "mobilize" else None


class Reads(NamedTuple):
    """What a builder reads of the state, for domain/entries.py: `key`, its value (the entry is kept while it is
    unchanged, across states), and `fields`, the state's fields it reads, its key's included (the state keeps the entry
    across the events that write none of them, evolve.WRITES, so a raid's answer asks no key of the loss, capture,
    liberate, place and end entries). tests/test_awaiting_incremental.py holds `fields` to what each builder reads in
    bot games."""

    key: Callable[[State], Any] | None  # None: no later state matches (entries.kept)
    fields: frozenset[str]
    patch: entries.Patch | None = None  # the events it follows rather than being built again


# A raid changes one zone's part of the `fight` and `lose_submarines` entries, of some 20: the answer to a raid patches
# that part rather than building the entries again (entries.Patch); and the `raid` entry only where it took IPCs or
# its zone's last raider.
_RAIDED = frozenset({ev.ConvoyRaided})


READS: dict[Callable, Reads] = {
    raid_spec: Reads(
        _raids, frozenset({"turn", "combat_step", "inactive", "chips", "subs", "used"}), entries.Patch(_RAIDED, _raid_raided)
    ),
    fight_spec: Reads(None, frozenset({"turn", "subs", "used"}), entries.Patch(_RAIDED, _fight_raided)),
    # AA-R18 (5.0.0): kept on the state alone, like `fight` (a fight or retreat changes it)
    retreat_spec: Reads(
        None, frozenset({"edition", "phase", "combat_step", "used", "subs", "turn", "map", "canals_open"})
    ),
    lose_spec: Reads(_losses, frozenset({"turn", "subs", "used", "edition"}), entries.Patch(_RAIDED, _loss_raided)),
    capture_spec: Reads(_control, frozenset({"turn", "control", "map"})),
    liberate_spec: Reads(_control, frozenset({"turn", "control", "map"})),
    place_spec: Reads(_placing, frozenset({"turn", "map", "edition", "spent", "placed", "control"})),
    end_phase_spec: Reads(_phase_end, frozenset({"turn", "phase", "control", "map", "round", "rounds"})),
    end_game_spec: Reads(lambda s: None, frozenset()),
}


def _built(build: Callable[[State, list[str]], CommandSpec | None], state: State, seats: list[str]) -> CommandSpec | None:
    reads = READS.get(build)
    if reads is None:
        return build(state, seats)
    return entries.kept(build, reads.key, state, seats, reads.fields, reads.patch)


def legal_commands(state: State, only: str | None = None) -> list[CommandSpec]:
    """What may be sent now; with `only`, just whether that command is legal and by whom (the command path)."""
    if state.over:
        return []
    seat = [state.seat_of[state.power]]
    entries = [(cmd, legal, build, seat) for cmd, legal, build in PHASE_COMMANDS[state.phase]]
    if state.phase != "purchase":
        entries.append((c.EndPhase, None, end_phase_spec, seat))
    entries.append((c.EndGame, None, end_game_spec, [REFEREE]))
    out: list[CommandSpec] = []
    for cmd, legal, build, seats in entries:
        if only is None:
            spec = _built(build, state, seats)
            if spec is not None:
                out.append(spec)
        elif tag(cmd) == only and (legal is None or next(iter(legal(state)), None) is not None):
            out.append(CommandSpec(type=only, seats=seats, choices=None, schema=command_schema(cmd)))
    return out
