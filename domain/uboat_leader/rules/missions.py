"""Resolver las Misiones Especiales: Sembrar Minas (UL-17), Ataque (UL-18), Incursor (UL-19), in their boxes.

Entering a box draws its Events, after the Area's Move value if the boat began the segment in that Area (its Patrol
value up to 3.0.0: UL-R7, UL-R56, UL-E4-2); an Event that makes the boat Unfit fails the mission and the boat goes to
the Search box, keeping the counter (UL-R8).
"""

from __future__ import annotations

from domain import decisions as ui
from domain.engine import IllegalCommand
from domain.uboat_leader import commands as c
from domain.uboat_leader import decks
from domain.uboat_leader.el_dado import d10
from domain.uboat_leader.legal import spec
from domain.uboat_leader.rules.attack import shoot, shots_control, slot_for
from domain.uboat_leader.rules.event_cards import draw_events
from domain.uboat_leader.state import State
from events import uboat_leader as ev

KINDS = ("normal", "FAT", "T5")


def awaited(s: State) -> str | None:
    """UL-18, UL-R45: "Puedes elegir abortar el ataque antes de robar todas las cartas de Evento": the Attack mission
    may be aborted before each of its box's Event cards, the first included (UL-E3-3; before it, only between
    them), once any Patrol value Events are drawn (up to 3.0.0, UL-R7)."""
    box = s.ops.box
    if box.stage == "fire":
        return "fire"
    if box.stage == "raider":
        return "raider" if box.rolls < s.rules.raider_rolls and raider_weapons(s, box.boat) else None
    last = box.total if s.edition.has("UL-E3-3") else box.total - 1
    if box.pre == 0 and box.mission == "attack" and 0 < box.events <= last:
        return "attack_box"
    return None


def advance(ctx) -> None:
    s = ctx.state
    box = s.ops.box
    if box.stage == "raider":
        return finish(ctx, "done", "Raider mission over")
    if box.pre or box.events:
        draw_events(ctx, box.boat, 1, f"{box.mission} mission box {box.box}")
        if s.boats[box.boat].band == "unfit":
            finish(ctx, "failed", "Unfit by an Event: mission failed")
        return
    if box.mission == "mine":
        lay_mines(ctx)
    elif box.mission == "attack":
        x = s.box(box.box)[1]
        for _ in range(x.naval):
            decks.draw(ctx, "naval", f"Attack mission targets in {box.box}")
        ctx.emit(ev.MissionStage(boat=box.boat, stage="fire", targets=list(s.ops.box.targets)))
    else:
        ctx.emit(ev.MissionStage(boat=box.boat, stage="raider", targets=[]))


def finish(ctx, outcome: str, cause: str) -> None:
    box = ctx.state.ops.box
    ctx.emit(ev.MissionEnded(boat=box.boat, mission=box.mission, outcome=outcome))
    ctx.emit(ev.ToSearchBox(boat=box.boat, area=box.area, cause=cause))


def mines_vp(table: list[list[int]], mines: int) -> int:
    """UL-17: the box's VP by the number of torpedoes replaced by mines ([EX] British Isles: 8 mines, 4 VP)."""
    return max((vp for at_least, vp in table if mines >= at_least), default=0)


def lay_mines(ctx) -> None:
    """UL-17: the mines are laid, the box's VP won (no XP, UL-R9), the counter removed, the boat to the Search box.
    "Puedes asignar más de una Misión Especial a un solo U-Boat" and the VP "se basa en el número de Torpedos
    sustituidos por minas": each Mines counter lays the mines it was bought with (UL-R50, UL-E3-6; before it, every
    mine aboard, whose count a second counter had overwritten)."""
    s = ctx.state
    box = s.ops.box
    b = s.boats[box.boat]
    mines = b.mine_loads[0] if s.edition.has("UL-E3-6") and b.mine_loads else b.mines
    vp = mines_vp(s.box(box.box)[1].vp_by_mines, mines)
    ctx.emit(ev.MinesLaid(boat=b.boat, box=box.box, mines=mines, vp=vp))
    if vp:
        ctx.emit(ev.Scored(vp=vp, total=s.vp + vp, cause=f"mines laid in {box.box}", boat=b.boat))
    finish(ctx, "done", "mines laid")


def continue_attack(ctx) -> None:
    box = ctx.state.ops.box
    draw_events(ctx, box.boat, 1, f"attack mission box {box.box}")
    if ctx.state.boats[box.boat].band == "unfit":
        finish(ctx, "failed", "Unfit by an Event: mission failed")


def abort_attack(ctx) -> None:
    """UL-18: the attack may be aborted before all its Events are drawn; the boat keeps the counter (UL-R8). "Si
    abortas el ataque, el U-Boat se mueve al Recuadro de Búsqueda": from 5.0.0 (UL-E5-1, UL-R56) that move leaves the
    box, and "cuando … sale de un recuadro de Misión Especial, roba … para Moverse en el Área": the Area's Move value.
    An Event that makes the boat Unfit leaves it where UL-21 would send it, in that Search box."""
    s = ctx.state
    boat, box = s.ops.box.boat, s.ops.box.box
    finish(ctx, "aborted", "attack aborted")
    draw_events(ctx, boat, abort_events(s, box), f"leave the attack mission box {box}")


def abort_events(s: State, box: str) -> int:
    """The Event cards leaving `box` by an abort draws: its Area's Move value from 5.0.0 (UL-E5-1), else none."""
    return (s.box(box)[0].move or 0) if s.edition.has("UL-E5-1") else 0


def why_not_fire(s: State, cmd: c.FireTorpedoes) -> str | None:
    box = s.ops.box
    b = s.boats[box.boat]
    if cmd.boat != box.boat:
        return f"{box.boat} is the boat in the Attack box (UL-18)"
    if not cmd.shots and must_fire(s):
        return (
            f"one round of torpedoes \"contra alguna o todas las cartas Objetivo\" (at some or all of the Naval cards): "
            f"fire at least one of the {b.torpedoes} {b.boat} carries (UL-18, UL-R32)"
        )
    targets = [str(n) for n in box.targets]
    for shot in cmd.shots:
        if shot.target not in targets:
            return f"target {shot.target} is not one of the Naval cards drawn: {targets} (UL-18)"
    for k in KINDS:
        n = sum(1 for x in cmd.shots if x.kind == k)
        if n > b.ready[k] + b.stored[k]:
            return f"{b.boat} carries {b.ready[k] + b.stored[k]} {k} torpedoes (UL-18, UL-R32)"
    return None


def must_fire(s: State) -> bool:
    """UL-18 (7.0.0, UL-E7-1): "lleva a cabo 1 ronda de ataques con Torpedos contra alguna o todas las cartas Objetivo"
    (carry out 1 round of torpedo attacks at some or all of the target cards): at least one torpedo, where the boat in
    the box carries any and a Naval card was drawn (a boat that carries none, or a box of a game's own data set that
    draws none, fires none); 6.0.0 and earlier took an empty round."""
    box = s.ops.box
    return s.edition.has("UL-E7-1") and s.boats[box.boat].torpedoes > 0 and bool(box.targets)


def fire(ctx, cmd: c.FireTorpedoes) -> None:
    """UL-18, UL-R32: one round of torpedoes, Ready and Stored, at some or all Naval cards, at range 0 with the normal
    procedure (UL-S3); shots at a ship already sunk are not fired (UL-R31); only sunk ships score, VP and XP."""
    s = ctx.state
    why = why_not_fire(s, cmd)
    if why:
        raise IllegalCommand(why)
    box = s.ops.box
    for shot in cmd.shots:
        damage = box.damage.get(shot.target, 0)
        if damage >= s.rules.sink_points:
            continue
        card = s.data.card("naval", int(shot.target))
        slot = slot_for(s, box.boat, shot.kind, stored_too=True)
        shoot(
            ctx,
            box.boat,
            shot.target,
            card,
            "naval",
            damage,
            "torpedo",
            shot.kind,
            slot,
            0,
            "Misión Especial: Ataque (UL-18), roll as Ataque",
        )
    sunk = [int(t) for t, d in box.damage.items() if d >= s.rules.sink_points]
    vp = sum(s.data.card("naval", n).vp for n in sunk)
    xp = sum(s.data.card("naval", n).xp for n in sunk)
    if vp:
        ctx.emit(ev.Scored(vp=vp, total=s.vp + vp, cause="Attack mission", boat=box.boat))
    if xp:
        ctx.emit(ev.XpGained(boat=box.boat, xp=xp, total=s.boats[box.boat].xp + xp))
    decks.discard(ctx, "naval", list(box.targets))  # UL-R25
    finish(ctx, "done", "Attack mission over")


def fire_ui(s: State) -> ui.Form:
    """UL-18, UL-R32: the boat in the box fires some of its torpedoes, Ready and Stored, at the Naval cards drawn,
    no more of a kind than it carries, and from 7.0.0 at least one (why_not_fire)."""
    box = s.ops.box
    b = s.boats[box.boat]
    cards = [ui.Option(value=str(n), label=s.data.card("naval", n).name) for n in box.targets]
    aims = ui.Select(field="target", label="Naval card", options=cards, rulebook="Misión Especial: Ataque")
    counts = {k: b.ready[k] + b.stored[k] for k in KINDS if b.ready[k] + b.stored[k] and cards}
    boat = ui.Select(field="boat", label="boat", options=[ui.Option(value=box.boat, label=box.boat)])
    return ui.Form(controls=[boat, shots_control(aims, counts, least=1 if must_fire(s) else 0)])


def raider_weapons(s: State, boat: str) -> list[str]:
    """UL-19: one roll per gun Ammo (boats with a gun) or torpedo, Ready or Stored."""
    b = s.boats[boat]
    out = ["gun"] if s.card(boat).gun and b.ammo > 0 else []
    return out + [k for k in KINDS if b.ready[k] + b.stored[k] > 0]


def raider_roll(ctx, weapon: str) -> None:
    """UL-19, UL-R9, UL-R44: up to 10 rolls, range 0, every normal modifier (GS and the gun's range-0 modifier, or TS,
    the torpedo's and the FAT's +1: the U-boat helps raiders "que están atacando un convoy", so its targets are the
    convoy's merchants; from UL-E3-10 no T5 +2, which is "para usarlos contra los Escoltas"); each total of 8 or more
    is 1 VP; no XP."""
    s = ctx.state
    box = s.ops.box
    if weapon not in raider_weapons(s, box.boat):
        raise IllegalCommand(f"{box.boat} has no {weapon} to fire; it has {raider_weapons(s, box.boat)} (UL-19, UL-R44)")
    r = s.rules
    row = s.row(box.boat)
    slot: str | None
    if weapon == "gun":
        mods, slot = [("GS", row.gs), ("range 0", r.gun_range[r.raider_range])], "ammo"
    else:
        mods = [("TS", row.ts), ("range 0", r.torpedo_range[r.raider_range])]
        if weapon == "FAT":
            mods.append(("FAT", r.fat_vs_merchant))
        elif weapon == "T5" and not s.edition.has("UL-E3-10"):  # UL-R44: no escort is a Raider target (UL-E3-10)
            mods.append(("T5", r.t5_vs_escort))
        slot = slot_for(s, box.boat, weapon, stored_too=True)
    _, total = d10(
        ctx,
        f"{box.boat}: Raider {weapon} roll {box.rolls + 1} of {r.raider_rolls}",
        "Misión Especial: Incursor (UL-19)",
        mods,
        target=r.raider_vp_at,
        judge=lambda f, t: "1 VP" if t >= r.raider_vp_at else "no VP",
    )
    vp = 1 if total >= r.raider_vp_at else 0
    ctx.emit(ev.RaiderRolled(boat=box.boat, kind=weapon, slot=slot, vp=vp))
    if vp:
        ctx.emit(ev.Scored(vp=vp, total=s.vp + vp, cause="Raider mission", boat=box.boat))


def leaving(events: int) -> str:
    return f", drawing {events} Event card{'' if events == 1 else 's'} as it leaves the box" if events else ""


def specs(s: State, decision: str) -> list:
    box = s.ops.box
    if decision == "attack_box":
        return [
            spec(c.ContinueAttack, [{}], [f"draw the next of {box.total} Events ({box.events} left)"]),
            spec(c.AbortAttack, [{}], [f"abort: to the Search box, keeping the counter{leaving(abort_events(s, box.box))}"]),
        ]
    if decision == "fire":
        b = s.boats[box.boat]
        kinds = [k for k in KINDS if b.ready[k] + b.stored[k] > 0]
        narrow = {
            "boat": {"enum": [box.boat]},
            "shots": {"maxItems": b.torpedoes, **({"minItems": 1} if must_fire(s) else {})},
            "shots.target": {"enum": [str(n) for n in box.targets]},
            "shots.kind": {"enum": kinds},
        }
        return [spec(c.FireTorpedoes, None, narrow=narrow, form=lambda: fire_ui(s))]
    weapons = raider_weapons(s, box.boat)
    return [
        spec(c.RaiderRoll, [{"weapon": w} for w in weapons], [f"roll with the {w}" for w in weapons]),
        spec(c.RaiderStop, [{}], ["stop: the mission is over"]),
    ]
