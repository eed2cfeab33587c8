"""SEGMENTO ESTRATÉGICO: spend Special Option points (UL-9…UL-15) and assign Special Missions (UL-16).

SO is kept in integer half-points (UL-R2), paid on purchase and never negative.
"""

from __future__ import annotations

from domain import decisions as ui
from domain.engine import IllegalCommand
from domain.uboat_leader import commands as c
from domain.uboat_leader.distances import map_distances
from domain.uboat_leader.legal import RULEBOOK, option, require, so_text, spec
from domain.uboat_leader.rules import campaign
from domain.uboat_leader.rules.crew import add_stress
from domain.uboat_leader.state import State
from events import uboat_leader as ev

AREA_OPTIONS = ("air_search", "intel", "supply_ship")
ADVANCED_HALF = 1  # UL-14: "Cada Torpedo avanzado cuesta ½ punto de SO" (the text; half-points)
NAMES = {
    "air_search": "Air Search",
    "intel": "Intel",
    "supply_ship": "Supply Ship",
    "rr": "R&R",
    "radio_call": "Radio Call",
    "mine": "Mines",
    "attack": "Attack",
    "raider": "Raider",
}


def note(s: State, option: str):
    return s.camp.note_by_option.get(option)


def why_not_spend(s: State, option: str, units: int = 1) -> str | None:
    """UL-9: an option the sheet's notes offer, at its cost, at most its maximum per campaign ("U": unlimited)."""
    n = note(s, option)
    if n is None:
        return f"{NAMES.get(option, option)} is not offered in {s.camp.name} (UL-9)"
    if n.max is not None and (bought := s.bought.get(option, 0)) + units > n.max:
        asked = f"; {units} asked" if units > 1 else ""  # UL-R59: each advanced torpedo is one purchase
        return (
            f"{NAMES.get(option, option)} may be bought {n.max} time(s) in this campaign; bought {bought} time(s) "
            f"so far{asked} (UL-9)"
        )
    if cost_half(s, option, units) > s.so_half:
        return f"{NAMES.get(option, option)} costs {so_text(cost_half(s, option, units))} SO; {so_text(s.so_half)} left (UL-9, UL-R2)"
    return None


def cost_half(s: State, option: str, units: int = 1) -> int:
    n = note(s, option)
    return units * (ADVANCED_HALF if option == "advanced_torpedoes" else n.cost * 2)


def why_not_option(s: State, option: str, area: str | None) -> str | None:
    """UL-10…UL-13, UL-R5: Air Search, Intel and Supply Ship go on an Area the notes allow, one of each per Area;
    R&R takes no Area and is bought once a Strategic Segment."""
    why = why_not_spend(s, option)
    if why:
        return why
    if option == "rr":
        if area is not None:
            return "R&R takes no area: it helps every boat in port (UL-13)"
        return "R&R may be bought once per Strategic Segment (UL-13)" if s.rr_turn else None
    allowed = note(s, option).areas or [a.id for a in s.camp.map.areas]
    if area not in allowed:
        return f"{NAMES[option]} goes on one of {allowed} (UL-9, UL-R5)"
    if option in s.counters.get(area, []):
        return f"{area} has its {NAMES[option]} counter already (one per Area; UL-R5)"
    return None


def option_choices(s: State) -> list[dict]:
    out: list[dict[str, str | None]] = [{"option": o, "area": a.id} for o in AREA_OPTIONS for a in s.camp.map.areas]
    out.append({"option": "rr", "area": None})
    return [x for x in out if why_not_option(s, x["option"], x["area"]) is None]


def buy_option(ctx, cmd: c.BuyOption) -> None:
    s = ctx.state
    require(cmd, option_choices(s), why_not_option(s, cmd.option, cmd.area) or f"{cmd.option} is not offered now (UL-9)")
    half = cost_half(s, cmd.option)
    ctx.emit(ev.OptionBought(option=cmd.option, area=cmd.area, cost_half=half, so_half=s.so_half - half))
    if cmd.option == "rr":
        rr(ctx)


def rr(ctx) -> None:
    """UL-13, UL-R4: Prioridad R&R removes 4 stress from every boat in a Port box, when bought."""
    s = ctx.state
    for b in s.boats.values():
        if b.in_play and b.space == "port":
            add_stress(ctx, b.boat, -s.rules.rr_stress, "Prioridad R&R (UL-13)")


# ---- advanced torpedoes (UL-14) ----------------------------------------------------------------------


def why_not_advanced(s: State, cmd: c.BuyAdvancedTorpedoes) -> str | None:
    """UL-14: FAT or T5 torpedoes replace normal ones in the Ready or Stored section of a boat in a Port box."""
    why = why_not_spend(s, "advanced_torpedoes", cmd.count)
    if why:
        return why
    b = s.boats.get(cmd.boat)
    if b is None or not b.in_play or b.space != "port":
        return f"advanced torpedoes are loaded in a Port box; boats in port: {in_port(s)} (UL-14)"
    have = (b.ready if cmd.slot == "ready" else b.stored)["normal"]
    if cmd.count > have:
        return f"{cmd.boat} has {have} normal torpedoes {cmd.slot} (UL-14)"
    return None


def in_port(s: State) -> list[str]:
    return [b.boat for b in s.boats.values() if b.in_play and b.space == "port"]


def buy_advanced(ctx, cmd: c.BuyAdvancedTorpedoes) -> None:
    s = ctx.state
    why = why_not_advanced(s, cmd)
    if why:
        raise IllegalCommand(why)
    half = cost_half(s, "advanced_torpedoes", cmd.count)
    ctx.emit(
        ev.TorpedoesLoaded(
            boat=cmd.boat, kind=cmd.kind, slot=cmd.slot, count=cmd.count, cost_half=half, so_half=s.so_half - half
        )
    )


# ---- Special Missions (UL-16) -------------------------------------------------------------------------


def boxes_within_reach(s: State, boat: str, mission: str) -> list[str]:
    """UL-R6: the boxes of a mission's type the boat can reach (its class may enter their Areas)."""
    b = s.boats[boat]
    dist = map_distances(s.data, s.camp, s.area_of(boat), b.cls)
    return [x.id for a in s.camp.map.areas for x in a.boxes if x.mission == mission and a.id in dist]


def why_not_mission(s: State, boat: str, mission: str, mines: int, replaced: list | tuple = ()) -> str | None:
    """UL-16…UL-19: Mines only for a boat in port (mines replace torpedoes, UL-R29: from 5.0.0 those the player names,
    UL-E5-2); Attack and Raider for a boat that is not Unfit; no Unfit boat takes a mission (UL-3); a mission no
    reachable box allows is refused (UL-R6)."""
    why = why_not_spend(s, mission)
    if why:
        return why
    b = s.boats.get(boat)
    if b is None or not b.in_play:
        return f"{boat} is not in the flotilla (UL-16)"
    if b.band == "unfit":
        return f"{boat} is Unfit: it cannot carry out Special Missions (UL-3)"
    if replaced and not s.edition.has("UL-E5-2"):
        return "naming the torpedoes mines replace comes with edition 5.0.0 (UL-E5-2): send `mines` alone (UL-R29)"
    if mission == "mine":
        normal = b.ready["normal"] + b.stored["normal"]
        if b.space != "port":
            return "a Mines mission is bought for a boat in a Port box (UL-17)"
        why = why_not_replaced(b, mines, replaced) if replaced else None
        if why:
            return why
        if not replaced and not 1 <= mines <= normal:
            return f"{boat} can replace 1 to {normal} normal torpedoes by mines (UL-17, UL-R29)"
    elif mines or replaced:
        return "only a Mines mission carries mines (UL-17)"
    if not boxes_within_reach(s, boat, mission):
        return f"no {NAMES[mission]} box that {boat} ({b.cls}) can reach (UL-16, UL-42)"
    return None


def why_not_replaced(b, mines: int, replaced: list | tuple) -> str | None:
    """UL-17, UL-E5-2: "Puedes sustituir cualquier número de Torpedos 'Listos' o 'Almacenados' del U-Boat por Minas":
    each section and kind named once, no more than the boat carries there, summing to `mines` when it is given."""
    seen = set()
    for r in replaced:
        aboard = (b.ready if r.slot == "ready" else b.stored)[r.kind]
        if (r.slot, r.kind) in seen:
            return f"replaced: name {r.slot} {r.kind} torpedoes once (UL-17, UL-E5-2)"
        seen.add((r.slot, r.kind))
        if r.count > aboard:
            return f"{b.boat} carries {aboard} {r.slot} {r.kind} torpedoes (UL-17, UL-E5-2)"
    total = sum(r.count for r in replaced)
    if mines and mines != total:
        return f"mines: {mines}, but the torpedoes replaced add up to {total} (UL-17, UL-E5-2)"
    return None


def mission_choices(s: State) -> list[dict]:
    out = []
    for b in s.boats.values():
        for m in ("mine", "attack", "raider"):
            counts = range(1, b.ready["normal"] + b.stored["normal"] + 1) if m == "mine" else (0,)
            # the number of mines is checked against the range offered alone: the first count answers for all
            if counts and not why_not_mission(s, b.boat, m, counts[0]):
                out += [{"boat": b.boat, "mission": m, "mines": n} for n in counts]
    return out


def named_mines(s: State) -> list[str]:
    """UL-E5-2: the boats that may take a Mines mission naming the torpedoes replaced (any one torpedo aboard will
    do): the form offers them, though a boat whose torpedoes are all FAT or T5 has no count-only choice."""
    if not s.edition.has("UL-E5-2"):
        return []
    out = []
    for b in s.boats.values():
        one = [c.Replaced(slot=slot, kind=k, count=1) for slot, aboard in (("ready", b.ready), ("stored", b.stored))
               for k, n in aboard.items() if n][:1]  # fmt: skip
        if one and why_not_mission(s, b.boat, "mine", 0, one) is None:
            out.append(b.boat)
    return out


def assign_mission(ctx, cmd: c.AssignMission) -> None:
    s = ctx.state
    why = why_not_mission(s, cmd.boat, cmd.mission, cmd.mines, cmd.replaced)
    if why:
        raise IllegalCommand(why)
    half = cost_half(s, cmd.mission)
    # named torpedoes (UL-E5-2) are loaded by MinesLoaded; a count alone by MissionAssigned in UL-R29's order, the
    # events of 4.0.0's commands
    ctx.emit(
        ev.MissionAssigned(
            boat=cmd.boat, mission=cmd.mission, mines=0 if cmd.replaced else cmd.mines, cost_half=half,
            so_half=s.so_half - half,
        )
    )  # fmt: skip
    if cmd.replaced:
        replaced = [ev.MineLoad(slot=r.slot, kind=r.kind, count=r.count) for r in cmd.replaced]
        ctx.emit(ev.MinesLoaded(boat=cmd.boat, replaced=replaced))


def end_strategic(ctx) -> None:
    ctx.emit(ev.SegmentBegan(turn=ctx.state.turn, segment="operations"))


def why_not_end_campaign(s: State) -> str | None:
    """UL-S10: before UL-E3-4 the player may end (and score) the campaign in a Strategic Segment with no boat at sea;
    from it, abandoning scores nothing, so it may be done in any Strategic Segment."""
    if s.edition.has("UL-E3-4"):
        return None
    at_sea = [b.boat for b in s.boats.values() if b.at_sea]
    return f"boats are at sea: {at_sea}; bring them into port first (UL-S10)" if at_sea else None


def end_campaign(ctx) -> None:
    """UL-22, UL-S10: "Acaba la Campaña cuando todos los U-Boats han llegado a su límite de Patrulla". A player may
    stop playing (a game must be closable), but from UL-E3-4 a campaign stopped with patrols owed is abandoned: no
    result level, no final VP, so stopping early never locks in a result nor dodges the −2 VP of boats lost later."""
    why = why_not_end_campaign(ctx.state)
    if why:
        raise IllegalCommand(why)
    if ctx.state.edition.has("UL-E3-4"):
        campaign.abandon(ctx, "the commander abandoned the campaign with patrols owed: no result (UL-S10)")
    else:
        campaign.finish(ctx, "the commander ended the campaign (remaining patrols forfeit, UL-S10)")


def specs(s: State) -> list:
    out = [spec(c.EndStrategic, [{}], ["end the Strategic Segment"])]
    opts = option_choices(s)
    if opts:
        out.append(spec(c.BuyOption, opts, [option_label(s, x) for x in opts], form=lambda: option_ui(s, opts)))
    missions, named = mission_choices(s), named_mines(s)
    if missions or named:
        narrow = {
            "boat": {"enum": sorted({m["boat"] for m in missions} | set(named))},
            "mission": {"enum": sorted({m["mission"] for m in missions} | ({"mine"} if named else set()))},
            "mines": {"maximum": max((m["mines"] for m in missions), default=0)},
        }
        # from 5.0.0 a Mines mission names the torpedoes it replaces (UL-E5-2): too many ways to list, so no choices
        # (`choices` lists every legal argument object or none, docs/api.md) and the form says them all
        listed = missions if missions and not named else None
        out.append(
            spec(
                c.AssignMission,
                listed,
                [mission_label(s, m) for m in missions] if listed else None,
                narrow,
                form=lambda: mission_ui(s, missions, named),
            )
        )
    loads = advanced_loads(s)
    if loads:
        narrow = {
            "boat": {"enum": sorted({b for b, _ in loads})},
            "slot": {"enum": sorted({slot for _, slot in loads})},
            "count": {"maximum": max(loads.values())},
        }
        out.append(spec(c.BuyAdvancedTorpedoes, None, narrow=narrow, form=lambda: advanced_ui(s, loads)))
    if why_not_end_campaign(s) is None:
        said = "abandon the campaign: no result level" if s.edition.has("UL-E3-4") else "end the campaign now"
        out.append(spec(c.EndCampaign, [{}], [f"{said} (remaining patrols forfeit)"]))
    return out


def option_ui(s: State, opts: list[dict]) -> ui.Form:
    """UL-9…UL-13: a variant per option on sale now, with the Areas it may go on (`option_choices`)."""
    variants = []
    for o in dict.fromkeys(x["option"] for x in opts):
        areas = [x["area"] for x in opts if x["option"] == o]
        label = f"{NAMES[o]}: {so_text(cost_half(s, o))} SO"
        controls = [] if areas == [None] else [ui.Select(field="area", label="Area", options=area_options(s, areas))]
        variants.append(ui.Variant(label=label, fixed={"option": o}, controls=controls, rulebook=RULEBOOK[o]))
    return ui.Form(controls=[ui.Variants(label="Special Option", variants=variants, rulebook="Opción Especial")])


def area_options(s: State, areas: list[str]) -> list[ui.Option]:
    names = {a.id: a.name for a in s.camp.map.areas}
    return [ui.Option(value=a, label=names[a]) for a in areas]


def mission_ui(s: State, missions: list[dict], named: list[str]) -> ui.Form:
    """UL-16…UL-19, UL-R6: a variant per boat, then per mission legal for it (`mission_choices`); Mines with the
    number of torpedoes it replaces, 1 to the normal torpedoes aboard, or from 5.0.0 (UL-E5-2, `named_mines`) which
    torpedoes, each section and kind aboard with how many."""
    offered = {(m["boat"], m["mission"]) for m in missions} | {(boat, "mine") for boat in named}
    boats = []
    for boat in [b for b in s.boats if any(x == b for x, _ in offered)]:
        kinds = []
        for mission in [m for m in ("mine", "attack", "raider") if (boat, m) in offered]:
            label = f"{NAMES[mission]}: {so_text(cost_half(s, mission))} SO"
            controls = [mines_ui(s, boat, missions)] if mission == "mine" else []
            kinds.append(
                ui.Variant(label=label, fixed={"mission": mission}, controls=controls, rulebook=RULEBOOK[mission])
            )
        which = ui.Variants(label="mission", variants=kinds)
        boats.append(ui.Variant(label=boat, fixed={"boat": boat}, controls=[which]))
    return ui.Form(controls=[ui.Variants(label="U-boat", variants=boats, rulebook="Asignar Misiones Especiales")])


def mines_ui(s: State, boat: str, missions: list[dict]) -> ui.Items | ui.Number:
    """The mines of a Mines mission: how many (UL-R29), or from 5.0.0 which torpedoes they replace (UL-E5-2)."""
    if s.edition.has("UL-E5-2"):
        return replaced_ui(s.boats[boat])
    mines = [m["mines"] for m in missions if m["boat"] == boat and m["mission"] == "mine"]
    return ui.Number(field="mines", label="mines", min=min(mines), max=max(mines), rulebook="Minas")


def replaced_ui(b) -> ui.Items:
    """UL-17, UL-E5-2: the torpedoes aboard by section and kind, each with how many mines replace."""
    items = [
        ui.Item(
            label=f"{slot} {kind} torpedoes ({n} aboard)",
            fixed={"slot": slot, "kind": kind},
            controls=[ui.Number(field="count", label="replaced by mines", min=1, max=n)],
        )
        for slot, torpedoes in (("ready", b.ready), ("stored", b.stored))
        for kind, n in torpedoes.items()
        if n
    ]
    return ui.Items(field="replaced", label="torpedoes replaced by mines", items=items, min=1, rulebook="Minas")


def advanced_loads(s: State) -> dict[tuple[str, str], int]:
    """UL-14: for each boat in port and section holding normal torpedoes, the most it may replace now (the most
    `why_not_advanced` accepts: the normal torpedoes there, the SO, the sheet's maximum)."""
    out = {}
    for boat in in_port(s):
        for slot in ("ready", "stored"):
            n = 0
            while why_not_advanced(s, c.BuyAdvancedTorpedoes(boat=boat, kind="FAT", slot=slot, count=n + 1)) is None:
                n += 1
            if n:
                out[(boat, slot)] = n
    return out


def advanced_ui(s: State, loads: dict[tuple[str, str], int]) -> ui.Form:
    """UL-14: a variant per boat in port, FAT or T5, and a variant per section with how many it may replace."""
    kinds = ui.Select(field="kind", label="torpedo", options=[option(k, k) for k in ("FAT", "T5")])
    boats = []
    for boat in dict.fromkeys(b for b, _ in loads):
        slots = [
            ui.Variant(
                label=f"{slot} ({n} at most)",
                fixed={"slot": slot},
                controls=[ui.Number(field="count", label="torpedoes", min=1, max=n, unit="½ SO each")],
                rulebook=RULEBOOK[slot],
            )
            for (b, slot), n in loads.items()
            if b == boat
        ]
        boats.append(
            ui.Variant(label=boat, fixed={"boat": boat}, controls=[kinds, ui.Variants(label="section", variants=slots)])
        )
    return ui.Form(controls=[ui.Variants(label="U-boat in port", variants=boats, rulebook="Torpedos Avanzados")])


def option_label(s: State, x: dict) -> str:
    where = f" on {x['area']}" if x["area"] else " (boats in port: -4 stress)"
    return f"{NAMES[x['option']]}{where}: {so_text(cost_half(s, x['option']))} SO"


def mission_label(s: State, m: dict) -> str:
    mines = f" with {m['mines']} mines" if m["mines"] else ""
    return f"{m['boat']}: {NAMES[m['mission']]} mission{mines}, {so_text(cost_half(s, m['mission']))} SO"
