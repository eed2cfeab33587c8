"""U-boat attacks (UL-S2, UL-S3): the to-hit roll against a target card's [light, heavy, sunk] numbers.

The text gives the ingredients (TS for torpedoes, GS for the gun, the card's base numbers, Heavy damage's +1 to
later attacks, "N/A" numbers); the roll itself, range and advanced-torpedo modifiers and damage points are the
completion rule UL-S3, every number in the data set's `rules`.
"""

from __future__ import annotations

from domain import decisions as ui
from domain.engine import IllegalCommand
from domain.procedure import memoized
from domain.uboat_leader import commands as c
from domain.uboat_leader.distances import distance, from_area
from domain.uboat_leader.el_dado import d10, stand_in
from domain.uboat_leader.legal import RULEBOOK, option, require, spec
from domain.uboat_leader.rules.ships import piece_name
from domain.uboat_leader.state import State
from events import uboat_leader as ev

RESULTS = ("light", "heavy", "sunk")


def numbers(card, weapon: str) -> list[int | None]:
    return card.torpedo if weapon == "torpedo" else card.gun


def hit_result(nums: list[int | None], total: int) -> str:
    """UL-S3: the highest card number reached applies; null ("N/A") is never reached."""
    for i in (2, 1, 0):
        need = nums[i]
        if need is not None and total >= need:
            return RESULTS[i]
    return "miss"


def damage_after(s: State, damage: int, result: str) -> int:
    """UL-S3: damage points add (Light 1, Heavy 2); a sunk result, or reaching the sink points, sinks."""
    r = s.rules
    if result == "sunk":
        return r.sink_points
    return min(r.sink_points, damage + {"miss": 0, "light": r.light_points, "heavy": r.heavy_points}[result])


ESCORT_DECKS = ("escorts", "fleet")


def modifiers(s: State, boat: str, weapon: str, kind: str, rng: int, damage: int, deck: str) -> list:
    """UL-S3: TS (torpedo) or GS (gun) of the row in use, range, +1 against a Heavy-damaged target [T], FAT +1 against
    a Merchant or Lone ship (a Merchant card: the FAT is "para usarlos contra los Mercantes" [T], so not against a
    Naval ship), T5 +2 against an escort ("contra los Escoltas" [T]). `deck` is the target card's deck."""
    r = s.rules
    row = s.row(boat)
    table = r.torpedo_range if weapon == "torpedo" else r.gun_range
    mods = [
        ("TS" if weapon == "torpedo" else "GS", row.ts if weapon == "torpedo" else row.gs),
        (f"range {rng}", table[rng]),
    ]
    if damage >= r.heavy_points:
        mods.append(("target Heavy-damaged", r.heavy_target))
    if kind == "FAT" and deck == "merchants":
        mods.append(("FAT against a Merchant", r.fat_vs_merchant))
    if kind == "T5" and deck in ESCORT_DECKS:
        mods.append(("T5 against an escort", r.t5_vs_escort))
    return mods


def shoot(
    ctx,
    boat: str,
    target: str,
    card,
    deck: str,
    damage: int,
    weapon: str,
    kind: str,
    slot: str,
    rng: int,
    heading: str,
) -> int:
    """One attack roll and its effect; returns the target's damage points after it (sink_points: sunk)."""
    s = ctx.state
    nums = numbers(card, weapon)
    mods = modifiers(s, boat, weapon, kind, rng, damage, deck)
    _, total = d10(
        ctx,
        f"{boat}: {kind if weapon == 'torpedo' else 'gun'} at {card.name} ({target}), range {rng}",
        stand_in("UL-S3", heading),
        mods,
        target=next((n for n in nums if n is not None), None),
        judge=lambda f, t: hit_result(nums, t),
    )
    result = hit_result(nums, total)
    after = damage_after(s, damage, result)
    shown = "sunk" if after >= s.rules.sink_points else result
    ctx.emit(
        ev.AttackRolled(
            boat=boat,
            target=target,
            name=card.name,
            weapon=weapon,
            kind="gun" if weapon == "gun" else kind,
            slot=slot,
            result=shown,
            damage=after,
        )
    )
    if after >= s.rules.sink_points:
        ctx.emit(
            ev.ShipSunk(
                boat=boat,
                target=target,
                deck=deck,
                number=card.number,
                name=card.name,
                vp=card.vp,
                xp=card.xp,
                tons=card.tons,
            )
        )
    return after


def slot_for(s: State, boat: str, kind: str, stored_too: bool) -> str | None:
    """UL-R32: a torpedo comes from Ready, then (missions only) from Stored."""
    b = s.boats[boat]
    if b.ready[kind] > 0:
        return "ready"
    if stored_too and b.stored[kind] > 0:
        return "stored"
    return None


# ---- the attack steps of a combat turn (UL-37, UL-S2) ------------------------------------------------------


def attack_step(ctx, step: str) -> None:
    """UL-37: Agresivo boats attack before the enemy ships, Cauteloso boats after; Unfit boats never attack. The
    row in use is read when the step begins, so a boat the enemy's hits made Shaken is Cautious by then; but "Un
    U-Boat Agresivo ataca antes que el enemigo en cada turno. Un U-Boat Cauteloso ataca después": one attack a
    turn, so a boat that attacked in the Aggressive step is not queued again (UL-R49, UL-E3-1)."""
    s = ctx.state
    initiative = "A" if step == "aggressive" else "C"
    once = s.edition.has("UL-E3-1")
    boats = [
        b
        for b, sub in s.battle.subs.items()
        if s.fit(b) and s.row(b).initiative == initiative and not (once and sub.attacked)
    ]
    ctx.emit(ev.CombatStep(turn=s.battle.turn, step=step, queue=boats))


def weapon_range(s: State, weapon: str) -> int:
    return len(s.rules.torpedo_range if weapon == "torpedo" else s.rules.gun_range) - 1


@memoized  # asked by the decision awaited, its entries and the command's judgement
def targets(s: State, boat: str, weapon: str) -> list[str]:
    """UL-S2, UL-R23: revealed ships within the weapon's range whose card gives that weapon a number to reach."""
    bt = s.battle
    here = from_area(s.data, bt.subs[boat].area)
    reach = weapon_range(s, weapon)
    out = []
    for lb, p in bt.ships.items():
        if p.number is None or here.get(p.area, 99) > reach:
            continue
        if any(n is not None for n in numbers(s.data.card(p.deck, p.number), weapon)):
            out.append(lb)
    return out


@memoized  # asked by the decision awaited, its entries and the command's judgement
def weapons(s: State, boat: str) -> list[str]:
    """UL-S2: a boat not Unfit, Silent or Deep attacks once a turn: Ready torpedoes, or (surfaced, with a gun and
    Ammo) the gun."""
    sub = s.battle.subs[boat]
    b = s.boats[boat]
    if not s.fit(boat) or sub.silent or sub.deep:
        return []
    out = ["torpedo"] if sum(b.ready.values()) and targets(s, boat, "torpedo") else []
    if sub.side == "surfaced" and s.card(boat).gun and b.ammo and targets(s, boat, "gun"):
        out.append("gun")
    return out


def can_attack(s: State, boat: str) -> bool:
    return boat in s.battle.subs and bool(weapons(s, boat))


def why_not_attack(s: State, cmd) -> str | None:
    bt = s.battle
    if cmd.boat not in bt.queue or cmd.weapon not in weapons(s, cmd.boat):
        able = {b: weapons(s, b) for b in bt.queue}
        return f"{cmd.boat} cannot attack with the {cmd.weapon} now; boats to attack and their weapons: {able} (UL-37, UL-S2)"
    b = s.boats[cmd.boat]
    legal = targets(s, cmd.boat, cmd.weapon)
    if any(x.target not in legal for x in cmd.shots):
        return f"{cmd.weapon} targets in range now: {legal} (UL-S2, UL-R23)"
    if cmd.weapon == "gun":
        most = min(s.rules.gun_shots, b.ammo)
        return f"up to {most} gun rolls (UL-S2)" if len(cmd.shots) > most else None
    for kind in b.ready:
        if sum(1 for x in cmd.shots if x.kind == kind) > b.ready[kind]:
            return f"{cmd.boat} has {b.ready[kind]} {kind} torpedoes Ready (UL-S2)"
    return None


def attack(ctx, cmd) -> None:
    """UL-S2, UL-S3: the shots are rolled in the order given; a shot at a ship sunk by an earlier one is not fired
    (UL-R31); Heavy damage's +1 counts from the next roll (UL-R23)."""
    s = ctx.state
    why = why_not_attack(s, cmd)
    if why:
        raise IllegalCommand(why)
    gun = cmd.weapon == "gun"
    shots = [ev.AttackShot(target=x.target, kind="gun" if gun else x.kind) for x in cmd.shots]
    ctx.emit(ev.AttackDeclared(boat=cmd.boat, weapon=cmd.weapon, shots=shots))
    for x in shots:
        p = s.battle.ships.get(x.target)
        if p is None:
            continue
        card = s.data.card(p.deck, p.number)
        rng = distance(s.data, s.battle.subs[cmd.boat].area, p.area)
        shoot(
            ctx,
            cmd.boat,
            x.target,
            card,
            p.deck,
            p.damage,
            cmd.weapon,
            x.kind,
            "ammo" if gun else "ready",
            rng,
            "Ataque, U-Boats Agresivos / Cautelosos (UL-37)",
        )


def hold(ctx, cmd) -> None:
    require(cmd, [{"boat": b} for b in ctx.state.battle.queue], f"{cmd.boat} has no attack to make in this step (UL-R42)")
    ctx.emit(ev.AttackHeld(boat=cmd.boat))


def specs(s: State) -> list:
    """UL-R42: the boats of the step attack in the player's order (any boat still to act); one with no possible
    attack holds without being asked (tactical.advance)."""
    bt = s.battle
    arms = {b: weapons(s, b) for b in bt.queue if b in bt.subs}
    able = [b for b in bt.queue if arms.get(b)]
    aims = {(b, w): targets(s, b, w) for b in able for w in arms[b]}  # once for the schema and the form
    out = [spec(c.Hold, [{"boat": b} for b in able], [f"{b} holds fire" for b in able])]
    every = sorted({t for ts in aims.values() for t in ts})
    most = max(max(sum(s.boats[b].ready.values()), s.rules.gun_shots) for b in able)
    kinds = sorted({k for b in able for k, n in s.boats[b].ready.items() if n})
    narrow = {
        "boat": {"enum": able},
        "weapon": {"enum": sorted({w for b in able for w in arms[b]})},
        "shots": {"maxItems": most},
        "shots.target": {"enum": every},
        "shots.kind": {"enum": kinds or ["normal"]},
    }
    out.append(spec(c.Attack, None, narrow=narrow, form=lambda: attack_ui(s, aims)))
    return out


def attack_ui(s: State, reach: dict[tuple[str, str], list[str]]) -> ui.Form:
    """UL-S2, UL-R42: a variant per boat of the step and weapon it may use now (`weapons`), its shots at the targets
    THAT weapon reaches from THAT boat (`targets`; `reach` holds both, in the step's order): torpedoes up to those
    Ready of each kind, gun rolls up to `gun_shots` and the Ammo left — the bounds why_not_attack refuses beyond."""
    variants = []
    for (boat, weapon), ships in reach.items():
        b = s.boats[boat]
        aims = target_select(s, boat, weapon, ships)
        if weapon == "torpedo":
            shots = shots_control(aims, {k: n for k, n in b.ready.items() if n}, least=1)
        else:
            most = min(s.rules.gun_shots, b.ammo)
            shots = ui.Repeat(field="shots", label="gun rolls", controls=[aims], min=1, max=most, rulebook="Cañón")
        said = "torpedoes" if weapon == "torpedo" else "gun"
        variants.append(
            ui.Variant(
                label=f"{boat}: {said}",
                fixed={"boat": boat, "weapon": weapon},
                controls=[shots],
                rulebook=RULEBOOK[weapon],
            )
        )
    return ui.Form(controls=[ui.Variants(label="attack", variants=variants, rulebook="Ataque")])


def target_select(s: State, boat: str, weapon: str, ships: list[str]) -> ui.Select:
    """The revealed ships `boat`'s `weapon` may shoot at now (`targets`), each with its card's name and its range."""
    bt = s.battle
    opts = []
    for lb in ships:
        rng = distance(s.data, bt.subs[boat].area, bt.ships[lb].area)
        opts.append(ui.Option(value=lb, label=f"{piece_name(s, lb)} (range {rng})"))
    return ui.Select(field="target", label="target", options=opts, rulebook="Blanco")


def shots_control(aims: ui.Select, counts: dict[str, int], least: int) -> ui.Repeat | ui.Items:
    """One entry per torpedo, at one of `aims`, at most `counts[kind]` of each kind (the boat's torpedoes by kind):
    with one kind a count of shots; with several kinds one item per torpedo, so no kind is fired more often than the
    boat carries it (a repeat cannot bound a kind); with none, the empty list."""
    if len(counts) == 1:
        [(kind, n)] = counts.items()
        kinds = ui.Select(field="kind", label="torpedo", options=[option(kind, kind)])
        return ui.Repeat(field="shots", label="torpedoes", controls=[aims, kinds], min=least, max=n)
    items = [
        ui.Item(label=f"{kind} torpedo {i} of {n}", fixed={"kind": kind}, controls=[aims], rulebook=RULEBOOK[kind])
        for kind, n in counts.items()
        for i in range(1, n + 1)
    ]
    return ui.Items(field="shots", label="torpedoes", items=items, min=least)
