"""What `awaiting` shows of battlefleet-1900 (BF-R1): one entry per seat that still owes the step's sealed
command, its schema narrowed to the names that seat may use and a `ui` descriptor of every legal argument, built from
the seat's own view with the predicates the rules refuse with (docs/rules/battlefleet-1900.md "Decision
descriptors"), and `concede` for every seat."""

from __future__ import annotations

import copy
import functools
import itertools

import msgspec

from domain import decisions as ui
from domain import entries
from domain.battlefleet_1900 import commands as c
from domain.battlefleet_1900.commands import DcAction
from domain.battlefleet_1900.rules import damage_control as dc
from domain.battlefleet_1900.rules import gunnery, orders, torpedoes
from domain.battlefleet_1900.rules import movement as mv
from domain.battlefleet_1900.rules.damage import has_feature
from domain.battlefleet_1900.rules.sealing import redact
from domain.battlefleet_1900.state import State
from domain.battlefleet_1900.views import pose_for
from domain.engine import CommandSpec, command_schema, spec_of, tag

# 4.0: a gun order's `ammo` (c.GunOrder's values, its default first), offered in the fire form for a UI to draw
AMMO = [ui.Option(value="HE", label="HE (high explosive)"), ui.Option(value="AP", label="AP (armour piercing)")]

DESCRIPTIONS = {
    "start": "Log each ship's torpedo running depth and boat gun crews before the battle (sealed).",
    "give_orders": "Command Phase: each division's arrows or stop, drop-outs, transfers, boat guns, messages, surrenders (sealed).",
    "move": "Movement Phase: each division's distance and the degrees of each ordered turn (sealed).",
    "fire": "Gunnery Phase: estimate the range and fire a salvo at each target: guns, cycles, ammunition (sealed).",
    "launch_torpedoes": "Torpedo Phase: declare every launch and its target at once (sealed).",
    "damage_control": "Damage Phase Step 3: one DC die per repair or command function; scuttling (sealed).",
    "concede": "Concede the battle now: the other side wins.",
}


def _spec(
    cmd: type[msgspec.Struct], seats: list[str], schema: dict, choices: list[dict] | None = None, labels=None, default=None, ui=None
) -> CommandSpec:
    return spec_of(cmd, seats, choices, schema, DESCRIPTIONS[tag(cmd)], labels, default, ui)


def legal_commands(state: State, only: str | None = None) -> list[CommandSpec]:
    """One entry per seat that still owes this step's sealed command (choices null: they would leak or exceed 64;
    the schema is narrowed to that seat's own names; `ui` says every legal argument from the seat's own view), and
    `concede` for every seat."""
    if state.over:
        return []
    out = []
    # a bot's awaiting reads each entry's type and seats, never a schema or descriptor: it gets none (the schemas,
    # made once per process, cost a one-game simulation 5% of its instructions)
    bot = not ui.descriptors_wanted()
    cmd = c.STEP_COMMAND.get(state.step)
    if cmd is not None and only in (None, tag(cmd)):
        for seat in state.owing:
            if seat not in state.submitted:  # the command path (only) needs who, not the narrowed schema
                if only:
                    out.append(_spec(cmd, [seat], command_schema(cmd)))
                    continue
                # every step's command has a default: `{}` (steam on, keep speed, hold fire, no launch, no DC)
                if bot:
                    out.append(_spec(cmd, [seat], {}, default={}))
                    continue
                form = FORMS[cmd](state, seat)
                schema = start_schema(state, seat) if cmd is c.Start else narrowed(state, seat, cmd)
                out.append(_spec(cmd, [seat], schema, default={}, ui=form))
    if only in (None, "concede"):
        out.append(entries.kept(_concede_spec, entries.reads_nothing, state, list(state.seats)))
    return out


def _concede_spec(state: State, seats: list[str]) -> CommandSpec:
    """Open to every seat all game: the same entry (domain/entries.py keeps it, and the service its bytes)."""
    schema = command_schema(c.Concede) if ui.descriptors_wanted() else {}
    return _spec(c.Concede, seats, schema, [{}], ["concede the battle"])


def narrowed(state: State, seat: str, cmd: type) -> dict:
    """The command's schema with enums of what this seat may name now (its ships, divisions, the enemy in play)."""
    names = (
        ("ship", tuple(n for n in state.own(seat) if state.ships[n].in_play)),
        ("target", tuple(n for n in state.own(state.enemy(seat)) if state.ships[n].in_play)),
        ("division", tuple(d.id for d in state.divisions.values() if d.seat == seat and d.ships)),
        ("to_seat", tuple(x for x in state.seats if x != seat)),
    )
    return _narrowed(cmd, names)


@functools.lru_cache(maxsize=256)
def _narrowed(cmd: type, names: tuple) -> dict:
    """Cached: callers must not mutate it."""
    schema = copy.deepcopy(command_schema(cmd))
    enums = dict(names)

    def walk(node):
        if isinstance(node, dict):
            for key, prop in node.get("properties", {}).items():
                if key in enums and prop.get("type") == "string":
                    prop["enum"] = list(enums[key])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    return schema


def start_schema(state: State, seat: str) -> dict:
    """`start`'s narrowed schema with each ship's item narrowed to the values its form offers and check_start accepts:
    `torpedo_depth` shallow only where a tube carries surface skimmers (5.0, torpedoes.depths; a ship without them,
    or without torpedoes at all, logs only the default, normal), `boat_guns_manned` false only on an armoured deck
    (6.2, BF-R20, orders.crews). Where the seat's ships differ, one `oneOf` branch per set of values, naming its
    ships. Read from `redact(state, seat)` only."""
    view = redact(state, seat)
    schema = copy.deepcopy(narrowed(view, seat, c.Start))
    item = schema["properties"]["ships"]["items"]
    props = item["properties"]
    groups: dict[tuple[tuple[str, ...], tuple[bool, ...]], list[str]] = {}
    for name in props["ship"]["enum"]:
        groups.setdefault((tuple(torpedoes.depths(view, name)), tuple(orders.crews(view, name))), []).append(name)
    if not groups:
        return schema
    props["torpedo_depth"]["enum"] = [d for d in props["torpedo_depth"]["enum"] if any(d in g for g, _ in groups)]
    props["boat_guns_manned"]["enum"] = [m for m in (True, False) if any(m in g for _, g in groups)]
    if len(groups) > 1:
        item["oneOf"] = [
            {"properties": {"ship": {"enum": ships}, "torpedo_depth": {"enum": list(d)}, "boat_guns_manned": {"enum": list(m)}}}
            for (d, m), ships in groups.items()
        ]
    return schema


def move_ui(state: State, seat: str) -> ui.MoveForm:
    """What a UI draws for the Movement Phase (the seat's own entry only: its speeds are its own): each division that
    can move, its lead's pose, the distance its lead may go (BF-R6; exactly the least under a stop order; from 4.0.0
    at least what each arrow's least turn costs, BF-R5: a larger turn may need more, `turns_need` says how much), and
    the turns its orders allow, one entry per number of `turns_deg` in order (BF-R5: each arrow's band of degrees,
    given negative to port; with no arrow one free turn of -44..44 when the flagship can command; a dropped-out
    division one turn of 1-180 either way). Leaving `turns_deg` out makes each arrow's least turn; leaving
    `distance_mm` out keeps last turn's distance within the limits, raised to what the turns need. Read from
    `redact(state, seat)` only."""
    state = redact(state, seat)
    out = []
    for d in state.divisions.values():
        if d.seat != seat or not any(mv.can_move(state, n) for n in d.ships):
            continue
        lead = d.ships[0]
        lo, hi = mv.limits(state, lead)
        stop = any(a.stop for a in d.orders)
        arrows = [a for a in d.orders if not a.stop]
        if stop:
            turns = []
        elif d.dropped_out:
            turns = [ui.TurnBand(arrow=None, to="either", min_deg=1, max_deg=180)]
        elif arrows:
            turns = [
                ui.TurnBand(arrow=a.arrow, to=a.to, min_deg=mv.BANDS[a.arrow][0], max_deg=mv.BANDS[a.arrow][1])
                for a in arrows
            ]
        elif d.flagship is not None and state.ships[d.flagship].command_ok:
            turns = [ui.TurnBand(arrow=None, to="either", min_deg=0, max_deg=44)]
        else:
            turns = []
        pose = state.pose(lead)
        least = mv.least_mm(state, d, lead, mv.ordered_turns(d, c.DivisionMove(division=d.id)))
        out.append(
            ui.DivisionMove(
                division=d.id,
                lead=lead,
                ships=list(d.ships),
                pose=ui.Pose(x=pose.x, y=pose.y, h=pose.h),
                distance_mm=ui.Range(min=max(lo, least) if mv.can_move(state, lead) else lo, max=lo if stop else hi),
                keep_mm=mv.keep_speed_mm(state, d),
                stop=stop,
                turns=turns,
                turns_need=ui.TurnsNeed(base_mm=parts[0], radius_mm=parts[1])
                if mv.can_move(state, lead) and (parts := mv.least_parts(state, d, lead)) is not None
                else None,
            )
        )
    return ui.MoveForm(divisions=out)


def fire_ui(state: State, seat: str) -> ui.FireForm:
    """What a UI draws for the Gunnery Phase (the seat's own entry): each of its ships able to fire, with each gun
    position or beam pattern side that can fire this turn (BF-R14: its guns and cycles), its arcs (4.1, half-degrees
    clockwise off the bow as the data give them; a pattern side's by gun group, BF-R37) and how far its guns reach
    (the brackets its penetration covers; over half range one cycle a gun, 4.1); and the targets: every enemy ship
    in play (BF-R13) at the pose the seat's own view shows of it (views.pose_for: a fog sighting under `blur`, null
    when it sees none).

    Read from `redact(state, seat)` only. Which target lies in which arc, in range or in sight is left out on
    purpose: BATTLEFLEET.md §4 "Estimation" has `awaiting` never show in-arc, range or line-of-sight status before
    the tape measures it (BF-R3: they are outcomes), under either fog."""
    view = redact(state, seat)
    scale = view.data.scale
    ships = []
    for name in view.own(seat):
        if not gunnery.can_fire(view, name):
            continue
        pose = view.pose(name)
        mounts = []
        for mount, side in gunnery.mounts_of(view, name):
            guns, cycles = gunnery.capacity(view, name, mount, side)
            if not guns * cycles:
                continue
            weapon = gunnery.mount_weapon(view, name, mount)
            brackets = [i + 1 for i, pen in enumerate(weapon.pen) if pen is not None]
            mounts.append(
                ui.Mount(
                    mount=mount,
                    side=side,
                    weapon=weapon.id,
                    cat=weapon.cat,
                    bore=weapon.bore,
                    guns=guns,
                    cycles=cycles,
                    arcs=_arcs(view, name, mount, side),
                    brackets=brackets,
                    reach_mm=max(brackets, default=0) * scale.bracket_mm,
                )
            )
        ships.append(ui.Firer(ship=name, pose=ui.Pose(x=pose.x, y=pose.y, h=pose.h), mounts=mounts))
    targets = []
    for name in view.own(view.enemy(seat)):
        if not view.ships[name].in_play:
            continue
        seen = pose_for(view, seat, name)
        targets.append(
            ui.FireTarget(
                ship=name,
                cls=view.ships[name].cls,
                pose=None if seen is None else ui.SeenPose(x=seen.x, y=seen.y, h=seen.h, exact=seen.exact),
            )
        )
    return ui.FireForm(
        ships=ships,
        targets=targets,
        estimate_mm=ui.Range(min=1, max=scale.brackets * scale.bracket_mm),
        one_cycle_beyond_mm=scale.brackets // 2 * scale.bracket_mm,
        ammo=AMMO,
        one_ammo_a_salvo=view.edition.has("BF-E4-24"),
    )


def _arcs(state: State, ship: str, mount: str, side: str | None) -> list[ui.Arc]:
    """A position's arcs, every gun of it together; a pattern side's, one per gun group with a gun able to fire
    (gunnery.bearing: each undamaged gun of the side whose group's arc holds the target fires)."""
    s = state.ships[ship]
    if mount in s.mounts:
        guns = gunnery.mount_weapon(state, ship, mount).guns
        return [ui.Arc(group=None, guns=guns, half_deg=list(a)) for a in gunnery.arcs_of(state, ship, mount, None)]
    ok: dict[str, int] = {}
    for status, (gun_side, group) in zip(s.guns[mount], state.data.layout(s.cls, mount)):
        if gun_side == side and status == "ok":
            ok[group] = ok.get(group, 0) + 1
    return [
        ui.Arc(group=group, guns=ok[group], half_deg=list(a))
        for group in ("bow", "beam", "stern")
        if group in ok
        for a in gunnery.arcs_of(state, ship, mount, side, group)
    ]


# ---- the forms of the other steps: every id the seat's own view knows, each with its own legal values ----


def start_ui(state: State, seat: str) -> ui.Form:
    """Setup (`start`): one optional item per own ship with something to log besides the defaults: its torpedo
    running depth where a tube carries surface skimmers (5.0), its boat gun crews where it has an armoured deck
    (6.2, BF-R20)."""
    view = redact(state, seat)
    items = []
    for name in view.own(seat):
        depths = torpedoes.depths(view, name)
        depth = ui.Select(field="torpedo_depth", label="torpedo depth", options=ui.options(depths), default="normal")
        controls = _present(depth if len(depths) > 1 else None, _crews("boat_guns_manned", view, name, True))
        if controls:
            items.append(ui.Item(label=name, fixed={"ship": name}, controls=controls))
    return ui.Form(controls=_present(ui.Items(field="ships", label="ship logs", items=items)))


def orders_ui(state: State, seat: str) -> ui.Form:
    """Command Phase (`give_orders`): each division whose flagship may order (glossary CT) with the columns it may
    write (the stop dot, or a run of arrows all in succession or all together that its lead's speed covers, BF-R5;
    one with a bridge hit); the ships that may drop out (BF-R9) and, per division, those that may take command now
    (BF-R10; a ship that drops out takes none, BF-R50: where one may do either, a variant each way); boat gun crews
    (BF-R20); fleet orders to the other seats (BF-R12); surrenders (BF-R13). Where a lead's dropping out changes the
    runs its division may give (BF-E10-1: they are judged on the lead left), a variant for each lead it may have."""
    view = redact(state, seat)
    mine = [d for d in view.divisions.values() if d.seat == seat and d.ships]
    in_play = [n for n in view.own(seat) if view.ships[n].in_play]
    manned = view.sealed[seat].manned
    boats = [
        ui.Item(label=n, fixed={"ship": n}, controls=[crews])
        for n in in_play
        if has_feature(view, n, "boat") and (crews := _crews("manned", view, n, manned.get(n, True)))
    ]
    to = ui.Select(field="to_seat", label="to", options=ui.options([x for x in view.seats if x != seat]))
    text = ui.Text(field="text", label="text", max_length=c.MESSAGE_TEXT)
    signal = ui.Select(field="signal", label="flag signal", options=ui.options(c.SIGNALS, lambda x: x.replace("_", " ")))
    flag = ui.Variant(label="flag signal", controls=[signal, text])
    written = ui.Variant(label="written", controls=[msgspec.structs.replace(text, min_length=1)])  # BF-R12: not empty
    message = ui.Variants(label="a flag signal, or a written order (not empty)", variants=[flag, written])
    return ui.Form(
        controls=_present(
            *_leads(view, seat, mine),
            ui.Items(field="boat_guns", label="boat gun crews", items=boats),
            ui.Repeat(field="messages", label="fleet orders", controls=[to, message], max=c.MESSAGES),
            ui.Pick(
                field="surrender", label="strike their colours (irrevocable)", options=ui.options(in_play), irrevocable=True
            ),
        )
    )


def _leads(view: State, seat: str, mine: list) -> list:
    """The divisional orders with the drop-outs and transfers. Where a drop-out changes how a division's orders are
    judged (orders.lead_changes: who leads it, BF-E10-1; who commands it, and whether any ship is left to, BF-E11-1,
    BF-E11-2), or a flagship dropping out and naming its successor does (BF-E11-2: the transfer comes first), one
    variant per way: its columns judged that way, the ships it drops required to drop out, the transfer it names
    required, and its lead and flagship kept in the line."""
    choices: dict[str, list[Way]] = {}
    for d in mine:
        ways = _ways(view, seat, d.id)
        if len({_judged(view, d.id, *way) for way in ways}) > 1:
            choices[d.id] = ways

    def controls(way: dict[str, Way]) -> list:
        columns = [
            ui.Item(
                label=f"division {d.id} ({orders.flagship_after(view, d.id, *judged)})",
                fixed={"division": d.id},
                controls=[_column(view, d.id, *judged)],
            )
            for d in mine
            if _judged(view, d.id, *(judged := way.get(d.id, ((), None))))[0]
        ]
        forced = [n for w, _ in way.values() for n in w]
        # the ship that leads and, from 11.0.0, the one that commands in this way stay: their dropping is another way
        kept = {orders.judged_lead(view, d, w)[0] for d, (w, _) in way.items()}
        transfers: dict[str, tuple[list[str], bool]] = {}
        if view.edition.has("BF-E11-2"):
            kept |= {orders.flagship_after(view, d, w, to) for d, (w, to) in way.items()}
            transfers = {
                d: _named(view, seat, d, w, to) for d, (w, to) in way.items() if view.divisions[d].flagship in w
            }
        return _present(
            ui.Items(field="divisions", label="divisional orders (the others steam on)", items=columns),
            *_drop_and_transfer(view, seat, mine, forced, kept - set(forced) - {None}, transfers),
        )

    if not choices:
        return controls({})
    variants = []
    for pick in itertools.product(*choices.values()):
        way = dict(zip(choices, pick))
        said = "; ".join(_way_said(view, seat, d, *w) for d, w in way.items())
        variants.append(ui.Variant(label=said, controls=controls(way)))
    if view.edition.has("BF-E11-2"):
        label = "who leads and commands each division (its orders are judged so, BF-E10-1, BF-E11-2)"
    else:
        label = "who leads each division (its orders are judged on that lead, BF-E10-1)"
    return [ui.Variants(label=label, variants=variants)]


Way = tuple[tuple[str, ...], str | None]  # the ships dropping out of a division, and the ship its transfer names


def _ways(view: State, seat: str, division: str) -> list[Way]:
    """The ways a division's orders may be judged (`lead_changes`) and, from 11.0.0 (BF-E11-2), where its flagship
    drops out, each ship its voluntary transfer may name that commands it otherwise than its heir would."""
    out: list[Way] = []
    flag = view.divisions[division].flagship
    for leaving in orders.lead_changes(view, seat, division):
        out.append((leaving, None))
        if view.edition.has("BF-E11-2") and flag in leaving:
            heirs = _judged(view, division, leaving)
            out += [(leaving, to) for to in _successors(view, seat, division, leaving)
                    if _judged(view, division, leaving, to) != heirs]
    return out


def _successors(view: State, seat: str, division: str, leaving: tuple[str, ...]) -> list[str]:
    """The ships a voluntary transfer may name with the ships `leaving` dropping out (BF-R10; BF-R50: none of them)."""
    ships = view.divisions[division].ships
    return [n for n in ships if n not in leaving and orders.why_not_transfer(view, seat, division, n) is None]


def _named(view: State, seat: str, division: str, leaving: tuple[str, ...], to: str | None) -> tuple[list[str], bool]:
    """The ships a division's transfer may name in a way whose flagship drops out, and whether it must name one: the
    way's own (required), or, judged under the heir, any ship that commands it as the heir would (BF-E11-2)."""
    if to is not None:
        return [to], True
    same = _judged(view, division, leaving)
    return [n for n in _successors(view, seat, division, leaving) if _judged(view, division, leaving, n) == same], False


def _judged(
    view: State, division: str, leaving: tuple[str, ...], to: str | None = None
) -> tuple[bool, tuple[tuple[int, ...], ...]]:
    """How a division's orders are judged with the ships `leaving` gone and its transfer naming `to`: whether it
    takes any, and its runs (every ship of it dropping out: none from 11.0.0, BF-E11-1; before, any run its flagship
    may give, no lead's speed bounding them)."""
    gone = orders.judged_lead(view, division, leaving)[0] is None
    if not orders.may_order(view, division, leaving, to) or (gone and view.edition.has("BF-E11-1")):
        return False, ()
    return True, tuple(orders.arrow_runs(view, division, leaving, to))


def _way_said(view: State, seat: str, division: str, leaving: tuple[str, ...], to: str | None = None) -> str:
    lead = orders.judged_lead(view, division, leaving)[0]
    if lead is None:
        return f"every ship of {division} drops out"
    flag, now = orders.flagship_after(view, division, leaving, to), view.divisions[division].flagship
    said = f"{lead} leads {division}" + (f" ({' and '.join(leaving)} dropping out)" if leaving else "")
    if to is not None:
        said += f"; {to} takes command by transfer"
    elif flag != now:
        said += f"; {flag} commands it" if flag else "; no ship may take command: it goes straight"
        alike = _named(view, seat, division, leaving, None)[0] if flag and view.edition.has("BF-E11-2") else []
        if others := [n for n in alike if n != flag]:
            said += f", or {' or '.join(others)} if the transfer names it (judged alike)"
    return said


def _column(view: State, division: str, leaving: tuple[str, ...] = (), to: str | None = None) -> ui.Variants:
    """A division's command column: a run of arrows (orders.arrow_runs with the ships `leaving` it and its transfer
    naming `to`, each arrow's kind fixed) and one more arrow of either kind, all turning in succession or all together,
    each to port or starboard; or the stop dot alone, last, so a form that draws the first variant preselected never
    preselects a stop (a referee's trial: a division ticked to turn was sent stopped)."""
    to_side = ui.Select(field="to", label="to", options=ui.options(("port", "starboard")))
    kinds = [ui.Option(value=45, label="45° (a turn of 45-89°)"), ui.Option(value=90, label="90° (90-180°)")]
    kind = ui.Select(field="arrow", label="arrow", options=kinds)
    dot = ui.Item(label="the stop dot", fixed={"stop": True}, required=True)
    stop = ui.Items(field="orders", label="stop", items=[dot])
    variants = []
    for turn in ("succession", "together"):
        for run in orders.arrow_runs(view, division, leaving, to):
            arrows = [
                ui.Item(label=f"arrow {i + 1}: {k}°", fixed={"turn": turn, "arrow": k}, controls=[to_side], required=True)
                for i, k in enumerate(run)
            ]
            last = ui.Item(label=f"arrow {len(run) + 1}", fixed={"turn": turn}, controls=[to_side, kind], required=True)
            said = ", ".join(f"{k}°" for k in run)
            variants.append(
                ui.Variant(
                    label=f"{turn}: " + (f"{said}, then one more arrow" if run else "one arrow"),
                    controls=[ui.Items(field="orders", label="arrows", items=[*arrows, last], ordered=True)],
                )
            )
    return ui.Variants(label="orders", variants=[*variants, ui.Variant(label="stop", controls=[stop])])


def _drop_and_transfer(
    view: State, seat: str, mine: list, forced: list[str], kept: set[str], transfers: dict[str, tuple[list[str], bool]]
) -> list:
    """`drop_out` and `transfer`: a ship that may both drop out and take command does one or the other (BF-R50), so
    where there are such ships each way of splitting them is a variant. `forced`: ships that must drop out, `kept`:
    ships that may not (the leads and flagships of `_leads`' variant); `transfers`: a division whose flagship drops
    out in the variant, the ships its voluntary transfer may name there and whether it must (BF-E11-2: another ship
    would have the orders judged under another flagship)."""
    drop = [n for n in view.own(seat) if orders.why_not_drop_out(view, seat, n) is None and n not in kept]
    heirs = {d.id: _successors(view, seat, d.id, ()) for d in mine}
    heirs = {d: [n for n in h if d not in transfers or n in transfers[d][0]] for d, h in heirs.items()}
    both = [n for n in drop if any(n in h for h in heirs.values()) and n not in forced]

    def controls(dropping: set[str]) -> list:
        new = [
            ui.Item(
                label=d,
                fixed={"division": d},
                controls=[ui.Select(field="to", label="new flagship", options=to)],
                required=d in transfers and transfers[d][1],
            )
            for d, h in heirs.items()
            if (to := ui.options([n for n in h if n not in dropping]))
        ]
        out = ui.options([n for n in drop if n not in both or n in dropping])
        return _present(
            ui.Pick(field="drop_out", label="drop out", options=out, required=list(forced)),
            ui.Items(field="transfer", label="transfer of command", items=new),
        )

    if not both:
        return controls(set(forced))
    variants = []
    for way in itertools.product((True, False), repeat=len(both)):
        dropping = {n for n, d in zip(both, way) if d} | set(forced)
        said = "; ".join(f"{n} {'may drop out' if n in dropping else 'may take command'}" for n in both)
        variants.append(ui.Variant(label=said, controls=controls(dropping)))
    return [ui.Variants(label="who may drop out, who may take command (BF-R50)", variants=variants)]


def _crews(field: str, view: State, ship: str, now: bool) -> ui.Select | None:
    """Boat gun crews, where they may stand down (orders.crews: an armoured deck)."""
    values = orders.crews(view, ship)
    if len(values) < 2:
        return None
    labels = {True: "manned", False: "stood down"}
    return ui.Select(field=field, label="boat guns", options=ui.options(values, labels.get), default=now)


def launch_ui(state: State, seat: str) -> ui.Form:
    """Torpedo Phase (`launch_torpedoes`): one item per own tube mount (a side tube once a side) with torpedoes left
    on a ship that can launch, the enemy ships in play to aim at and how many of what is left (5.0, BF-R27). Every
    enemy in play is offered: arc, range and land are outcomes at the reveal (`out_of_arc`, `out_of_range`,
    `blocked`: the torpedoes are spent all the same), never reasons to refuse, and awaiting shows none (BF-R3, §4)."""
    view = redact(state, seat)
    aim = ui.Select(field="target", label="target", options=ui.options(gunnery.targets(view, seat)))
    items = [
        ui.Item(
            label=f"{ship} {mount}{' ' + side if side else ''}",
            fixed={"ship": ship, "mount": mount, "side": side},
            controls=[aim, ui.Number(field="count", label="torpedoes", min=1, max=left, default=1)],
        )
        for ship in view.own(seat)
        for mount, side, left in torpedoes.launchers(view, ship)
        if left
    ]
    return ui.Form(controls=_present(ui.Items(field="launches", label="launches", items=items)))


def dc_ui(state: State, seat: str) -> ui.Form:
    """Damage Phase Step Three (`damage_control`): each own ship's open actions (damage_control.open_actions: each
    function on each position, pattern gun or compartment it has something for; a counterflood with the levels it
    may take), one item per DC die it may spend on it, and the ships that may scuttle (BF-R25). Two budgets a ship
    say what check_dc refuses across items and fields: its DC dice for actions (BF-R24), of which scuttling it now
    takes its scuttling rolls first (BF-R25); and counter-flooding or scuttling it, not both (6.3, BF-R58: its
    scuttling rolls are its counter-floods)."""
    view = redact(state, seat)
    items, budgets, most = [], [], 0
    scuttle = [n for n in view.own(seat) if dc.may_scuttle(view, n)]
    for ship in view.own(seat):
        dice = dc.action_dice(view, ship)
        groups: dict[tuple, tuple[DcAction, int, list]] = {}
        for a, n in dc.open_actions(view, ship):
            groups.setdefault((a.function, dc.target_of(a)), (a, min(n, dice), []))[2].append(a.level)
        mine, floods = [], 0
        for (function, target), (a, n, levels) in groups.items():
            fixed = {"ship": ship, "function": function}
            fixed |= {"mount": a.mount} if a.mount else {"compartment": a.compartment} if a.compartment else {}
            level = [ui.Select(field="level", label="to", options=ui.options(levels, LEVELS.get))] if a.level else []
            said = f"{ship}: {DC_LABELS.get(function, function.replace('_', ' '))}{' ' + target if target else ''}"
            spend = {f"dice:{ship}": 1} | ({f"flood:{ship}": 1} if function == "counterflood" else {})
            floods += n if function == "counterflood" else 0
            mine += [
                ui.Item(label=said + (f" (die {i + 1} of {n})" if n > 1 else ""), fixed=fixed, controls=level,
                        spend=spend)
                for i in range(n)
            ]
        items += mine
        most += min(dice, len(mine))
        if mine:
            budgets.append(ui.Budget(id=f"dice:{ship}", label=f"{ship}'s DC dice for actions", limit=dice))
        if ship in scuttle and floods:
            budgets.append(ui.Budget(id=f"flood:{ship}", label=f"{ship}: counter-flood or scuttle", limit=floods))
    options = []
    for ship in scuttle:
        spend = {f"dice:{ship}": dc.action_dice(view, ship) - dc.action_dice(view, ship, (ship,))}
        spend |= {f"flood:{ship}": b.limit for b in budgets if b.id == f"flood:{ship}"}
        options.append(ui.Option(value=ship, label=ship, spend={k: v for k, v in spend.items() if v}))
    return ui.Form(
        controls=_present(
            ui.Items(field="actions", label="damage control, a DC die each", items=items, max=most),
            ui.Pick(field="scuttle", label="scuttle (irrevocable)", options=options, irrevocable=True),
        ),
        budgets=budgets,
    )


LEVELS = {1: "light", 2: "medium", 3: "heavy", 4: "severe"}
DC_LABELS = {"sink_minus_1": "-1 to the sink roll", "recover_ct": "recover from the CT hit"}


def _present(*controls) -> list:
    """The controls that offer something: none without an option or an item."""
    return [x for x in controls if x is not None and (x.items if isinstance(x, ui.Items) else _offers(x))]


def _offers(x) -> bool:
    return bool(x.options) if isinstance(x, (ui.Select, ui.Pick)) else True


FORMS = {
    c.Start: start_ui,
    c.GiveOrders: orders_ui,
    c.Move: move_ui,
    c.Fire: fire_ui,
    c.LaunchTorpedoes: launch_ui,
    c.DamageControl: dc_ui,
}
