"""The U-boat attack sequence: range (CC-18), surfaced (CC-19, CC-42), spotting (CC-20), gunnery (CC-13,
CC-21), the attack on the convoy (CC-23), tonnage (CC-24) and the torpedo at the corvette (CC-25)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.corvette_command.rules import equipment, hazards
from domain.corvette_command.rules.decks import draw_uboat
from domain.corvette_command.rules.resolution import matching, plain, task
from domain.corvette_command.rules.victory import score_years
from domain.corvette_command.state import State, ymd
from domain.procedure import Ctx
from events import corvette_command as ev
from events.core import GameEnded, RollResult

R = "CC:U-Boat attack Sequence"


def attack_range(profile: str, weather: str) -> int | None:
    """CC-18 with CC-12: 0 close, 1 medium, 2 long; None when the weather lets this commander attack at no range."""
    if weather == "storm":
        return None
    if profile == "C":
        return 0
    if profile == "M/C":
        return 0 if weather == "fog" else 1
    best = {"good": 2, "poor": 1, "fog": 0}[weather]  # L/M/C and L/M stand off as far as the weather allows
    if profile == "L/M" and best == 0:
        return None  # L/M will not attack from close range
    return best


def surfaced_from_2d6(total: int) -> tuple[bool, bool]:
    """CC-19: (surfaced, night): 2-3 night submerged, 4-7 night surfaced, 8-10 day submerged, 11-12 day surfaced."""
    if total <= 3:
        return False, True
    if total <= 7:
        return True, True
    return (total >= 11), False


TIME_ROWS = {1: 0, 2: 0, 3: 6, 4: 12, 5: 18, 6: 18}


def hour_of_contact(row_die: int, col_die: int) -> int:
    """CC-42: the first d6 picks the row, the second the column; CC-R16: row 5-6 runs on past 19:00 to 23:00."""
    return TIME_ROWS[row_die] + col_die - 1


def dark(month: int, hour: int) -> bool:
    """CC-42: darkness 20:00-07:00 (Oct-Mar), 22:00-05:00 (Apr-Sep)."""
    if 4 <= month <= 9:
        return hour >= 22 or hour < 5
    return hour >= 20 or hour < 7


def minutes_of_contact(tens_die: int, units_die: int) -> int:
    """CC-42: 1d6 - 1 tens of minutes (0-50) and 1d10 units, the 10 counting as 0 (0-59)."""
    return (tens_die - 1) * 10 + units_die % 10


def start_engagement(ctx: Ctx) -> None:
    """CC-6, CC-R42: the next U-boat is drawn now (CC-E5-4: not the one calling it); CC-18: its designated range;
    CC-19/CC-42: surfaced or not; CC-E5-5: the attacks it has left in this convoy."""
    s = ctx.state
    waiting = s.queue[0]
    caller = waiting.caller if s.edition.has("CC-E5-4") else None
    uboat = draw_uboat(ctx, passed_over=caller)
    if uboat is None:
        if s.decks["uboats"] or s.discards["uboats"] or s.type_ix_face_down:
            detail = f"no U-boat but {caller} itself is left to answer its call: one fewer comes (CC-E5-4)"
            ctx.emit(ev.EffectApplied(effect="unanswered", detail=detail))
        else:
            ctx.emit(ev.EffectApplied(effect="no-uboats", detail="every U-boat of the deck is sunk (CC-R29)"))
        return
    card = s.data.uboat(uboat)
    back = s.convoy.departed.get(card.id) if s.edition.has("CC-E5-5") else None
    rng = attack_range(card.profile, s.convoy.weather)
    if rng is None:
        ctx.emit(
            ev.UBoatStandsOff(
                uboat=card.id, reason=f"{card.profile} in {s.convoy.weather}: no range it will attack from"
            )
        )
        return
    surfaced, night, time = False, False, None
    if rng >= 1 or s.convoy.weather == "fog":
        surfaced, night, time = surface_check(ctx)
    ctx.emit(
        ev.UBoatSighted(
            uboat=card.id,
            escort=waiting.escort,
            type=card.type,
            attack=card.attack,
            evade=card.evade,
            profile=card.profile,
            range=rng,
            surfaced=surfaced,
            night=night,
            attacks_left=card.attacks if back is None else back.attacks_left,  # CC-E5-5: the maximum is a convoy's
            wolfpack=waiting.wolfpack,
            time=time,
        )
    )


def surface_check(ctx: Ctx) -> tuple[bool, bool, str | None]:
    """(surfaced, night, time of contact): the 2d6 table (CC-19), or with the option the time and 1d6 (CC-42)."""
    s = ctx.state
    if not s.options.time_of_contact:
        roll = plain(ctx.dice, [6, 6], "surfaced", f"{R}/Detection of U-Boat (CC-19)")
        surfaced, night = surfaced_from_2d6(sum(roll.faces))
        ctx.emit(
            replace(
                roll,
                result=RollResult(
                    outcome=f"{'night' if night else 'day'}, {'surfaced' if surfaced else 'submerged'}",
                    total=sum(roll.faces),
                ),
            )
        )
        return surfaced, night, None
    rule = "CC:Optional Advanced Rules/Time of Contact (CC-42)"
    t = plain(ctx.dice, [6, 6], "time-of-contact", rule)
    hour = hour_of_contact(*t.faces)
    night = dark(ymd(s.date)[1], hour)
    ctx.emit(replace(t, result=RollResult(outcome=f"{hour:02d}:00, {'dark' if night else 'daylight'}", total=hour)))
    m = plain(ctx.dice, [6, 10], "minutes-of-contact", rule)
    time = f"{hour:02d}:{minutes_of_contact(*m.faces):02d}"
    ctx.emit(replace(m, result=RollResult(outcome=time, total=minutes_of_contact(*m.faces))))
    roll = plain(ctx.dice, [6], "surfaced", rule)
    surfaced = roll.faces[0] >= (3 if night else 6)
    ctx.emit(
        replace(
            roll,
            result=RollResult(
                outcome="surfaced" if surfaced else "submerged", target=3 if night else 6, total=roll.faces[0]
            ),
        )
    )
    return surfaced, night, time


def electronics_skill(state: State, eq: str, escort: str | None = None) -> int:
    """CC-R17: without operators (CC-41), RADAR and HF/DF are worked by the ASDIC operator."""
    sheet = state.sheets[escort or state.active]
    return sheet.skills.get(eq, sheet.skills["asdic"])


def electronics_counters(state: State, eq: str, escort: str | None = None) -> int:
    """CC-R25: without operators the ASDIC/RADAR/HF-DF station is one area (its counters are on `asdic`)."""
    sheet = state.sheets[escort or state.active]
    if eq == "asdic" or not state.options.radar_hfdf_operators:
        return sheet.counters("asdic")
    return sheet.counters(eq)


def ew_equipment(state: State) -> list[str]:
    """CC-20: RADAR and HF/DF as fitted; CC-40: from November 1942 the EW roll includes ASDIC (L234)."""
    return [eq for eq in ("radar", "hfdf") if state.fitted(eq)] + (["asdic"] if state.on("ew") else [])


def spot(ctx: Ctx) -> None:
    """CC-20 / CC-R3: each EW set rolls vs Evade; any success gives +2 Lookout once; the Lookout vs 4."""
    s, g = ctx.state, ctx.state.engagement
    found = {}
    partner = s.partner(s.active)
    for eq in ew_equipment(s):
        mods = [(f"{eq} damaged (Task Harder)", electronics_counters(s, eq), "passive")]
        if eq in ("hfdf", "asdic") and partner and (eq == "asdic" or s.fitted("hfdf", partner)):
            # CC-44: the escorts add their ASDIC and HF/DF skills; CC-R38: with the helper's own counters
            mods.append((f"the other escort's {eq} (two-player)", electronics_skill(s, eq, partner), "active"))
            mods.append((f"the other escort's {eq} damaged", electronics_counters(s, eq, partner), "passive"))
        t = task(
            ctx.dice,
            "asdic-ew-detection" if eq == "asdic" else f"{eq}-detection",
            f"{R}/Engaging a U-Boat on the Surface (CC-20{', CC-40' if eq == 'asdic' else ''})",
            electronics_skill(s, eq),
            g.evade,
            mods,
        )
        ctx.emit(t.roll)
        found[eq] = t.success
    mods = [
        ("at night", 3 if g.night else 0, "passive"),
        ("at long range", 3 if g.range == 2 else 0, "passive"),
        ("at medium range", 2 if g.range == 1 else 0, "passive"),
        ("at close range", 1 if g.range == 0 else 0, "active"),
        ("detected by electronic warfare (RADAR, HF/DF, ASDIC)", 2 if any(found.values()) else 0, "active"),
        ("weather poor", 2 if s.convoy.weather == "poor" else 0, "passive"),
        ("weather fog/snow", 3 if s.convoy.weather == "fog" else 0, "passive"),
        ("lookout damaged (Task Harder)", s.sheet.counters("lookout"), "passive"),
    ]
    t = task(
        ctx.dice,
        "lookout-spotting",
        f"{R}/Engaging a U-Boat on the Surface (CC-20, CC-R3)",
        s.sheet.skills["lookout"],
        4,
        mods,
    )
    ctx.emit(t.roll)
    ctx.emit(
        ev.SpottingResolved(
            radar=found.get("radar"), hfdf=found.get("hfdf"), asdic=found.get("asdic"), spotted=t.success
        )
    )


GUNS = {"gun": (2, (0, 1, 2), 3, {2: 3, 1: 2}), "aa": (3, (0, 1), 2, {1: 3})}  # shots, ranges, damage d6, range mods


def guns_in_range(rng: int) -> list[str]:
    return [gun for gun, (_, ranges, _, _) in GUNS.items() if rng in ranges]


def fire_guns(ctx: Ctx) -> None:
    """CC-21 / CC-R4: 4\" 2 shots at L/M/C, AA 3 shots at M/C; each hit rolls the damage dice (CC-13)."""
    s, g = ctx.state, ctx.state.engagement
    shots, hits = [], 0
    for gun in guns_in_range(g.range):
        n, _, dmg, range_mods = GUNS[gun]
        skill = s.sheet.skills[gun]
        for _ in range(n):
            mods = [
                (
                    f"{'4in' if gun == 'gun' else 'AA'} at {('close', 'medium', 'long')[g.range]}",
                    range_mods.get(g.range, 0),
                    "passive",
                ),
                (f"{gun} damaged (Task Harder)", s.sheet.counters(gun), "passive"),
            ]
            t = task(ctx.dice, f"{gun}-shot", f"{R}/Engaging a U-Boat on the Surface (CC-21)", skill, g.evade, mods)
            ctx.emit(t.roll)
            damage = 0
            if t.success:
                roll, damage = matching(ctx.dice, skill, g.evade, dmg, f"{gun}-damage", "CC:Gun damage dice (CC-13)")
                ctx.emit(roll)
            shots.append(ev.Shot(gun=gun, hit=t.success, damage_hits=damage))
            hits += damage
    total = g.hits + hits
    ctx.emit(ev.GunneryResolved(shots=shots, hits=hits, total_hits=total, out=total >= 4))
    if total < 4:  # CC-R4: it crash-dives and comes back submerged to its designated range
        ctx.emit(ev.UBoatDived(range=g.designated))


def attack(ctx: Ctx) -> None:
    """CC-23, CC-25: 1d20 = 1 targets the corvette; else Attack (+1 close) vs convoy 1 (2 at long).
    CC-R40: from the designated range; CC-R32: the decoy roll is made as it attacks; CC-R43: no ship, no target."""
    s, g = ctx.state, ctx.state.engagement
    rng = g.designated
    decoys = False
    if s.on("decoys"):
        d = plain(ctx.dice, [3], "decoys", "CC:June 1942 (CC-40, CC-R32)", "3: +1 Evade while submerged")
        ctx.emit(d)
        decoys = d.faces[0] == 3
    target = plain(ctx.dice, [20], "torpedo-target", f"{R}/Torpedo Attacks versus the Corvette (CC-25)")
    at_corvette = target.faces[0] == 1
    ctx.emit(
        replace(
            target,
            result=RollResult(outcome="the corvette" if at_corvette else "the convoy", target=1, total=target.faces[0]),
        )
    )
    left = g.attacks_left - 1
    if at_corvette:
        ctx.emit(ev.ConvoyAttacked(target="corvette", hit=False, attacks_left=left, range=rng, decoys=decoys))
        torpedo_at_corvette(ctx, start_range=rng)
        return
    if s.convoy.ships_left == 0:
        ctx.emit(ev.ConvoyAttacked(target="no-ship-left", hit=False, attacks_left=left, range=rng, decoys=decoys))
        return
    mods = [("at close range", 1 if rng == 0 else 0, "active")]
    t = task(
        ctx.dice,
        "uboat-attack",
        f"{R}/The U-Boat Attack Sequence (CC-23, CC-R40)",
        g.attack,
        2 if rng == 2 else 1,
        mods,
    )
    ctx.emit(t.roll)
    ctx.emit(ev.ConvoyAttacked(target="convoy", hit=t.success, attacks_left=left, range=rng, decoys=decoys))
    if t.success:
        ship_lost(ctx, f"torpedoed by {g.uboat}")


VITAL = {
    1: ("ammunition ship", 0),
    2: ("tanker", 0),
    3: ("tanker", 1),
    4: ("tanker", 2),
    5: ("tanker", 3),
    6: ("rescue ship", None),
}


def tonnage(ctx: Ctx) -> tuple[int, str | None]:
    """CC-24: 6,000 + black d6 x 1,000 - white d6 x 1,000; a double is a vital ship."""
    roll = plain(ctx.dice, [6, 6], "tonnage", "CC:Ship Tonnage Losses (CC-24)")
    black, white = roll.faces
    if black != white:
        tons = 6000 + black * 1000 - white * 1000
        ctx.emit(replace(roll, result=RollResult(outcome=f"{tons} t", total=tons)))
        return tons, None
    kind, plus = VITAL[black]
    ctx.emit(replace(roll, result=RollResult(outcome=f"double {black}: a vital ship ({kind})", total=black)))
    if plus is None:
        return 1700, kind
    t = plain(ctx.dice, [6, 6], "vital-tonnage", "CC:Ship Tonnage Losses/vital ship (CC-24)")
    tons = (sum(t.faces) + plus) * 1000
    ctx.emit(
        replace(
            t,
            result=RollResult(outcome=f"{kind}: (2d6{'+' + str(plus) if plus else ''}) x 1,000 = {tons} t", total=tons),
        )
    )
    return tons, kind


def ship_lost(ctx: Ctx, cause: str) -> None:
    """CC-24; CC-R10, CC-R22: a vital ship lost delays the next of RADAR and HF/DF a month (L82, L233)."""
    tons, vital = tonnage(ctx)
    ctx.emit(ev.ShipLost(tonnage=tons, vital=vital, cause=cause))
    if vital:
        equipment.move_date(ctx, equipment.ELECTRONICS, 1, f"a vital ship lost ({vital})")


DAMAGE_AREAS = {1: 0, 2: 0, 3: 0, 4: 1, 5: 2, 6: 3}


def torpedo_at_corvette(ctx: Ctx, start_range: int) -> None:
    """CC-25 / CC-R6: Lookout vs 4 and ASDIC vs 3 at each band down to close, then the manoeuvre roll."""
    s = ctx.state
    w = s.convoy.weather
    rule = f"{R}/Torpedo Attacks versus the Corvette (CC-25, CC-R6)"
    torpedo_mods = [
        ("attack begins at long range", 1 if start_range == 2 else 0, "passive"),
        ("weather poor", 1 if w == "poor" else 0, "passive"),
        ("fog/snow, attack at close range at once", 1 if (w == "fog" and start_range == 0) else 0, "passive"),
    ]
    seen_before, lookout_spots = 0, 0
    for band in range(start_range, -1, -1):
        look = task(
            ctx.dice,
            "torpedo-lookout",
            rule,
            s.sheet.skills["lookout"],
            4,
            torpedo_mods
            + [
                ("weather good", 1 if w == "good" else 0, "active"),
                ("torpedo at close range (not in fog/snow)", 1 if band == 0 and w != "fog" else 0, "active"),
                ("torpedo detected in earlier bands", seen_before, "active"),
                ("lookout damaged (Task Harder)", s.sheet.counters("lookout"), "passive"),
            ],
        )
        ctx.emit(look.roll)
        sonar = task(
            ctx.dice,
            "torpedo-asdic",
            rule,
            s.sheet.skills["asdic"],
            3,
            torpedo_mods
            + [
                ("torpedo at close range", 1 if band == 0 else 0, "active"),
                ("torpedo detected in earlier bands", seen_before, "active"),
                ("ASDIC damaged (Task Harder)", s.sheet.counters("asdic"), "passive"),
            ],
        )
        ctx.emit(sonar.roll)
        ctx.emit(ev.TorpedoTracked(range=band, lookout=look.success, asdic=sonar.success))
        lookout_spots += look.success
        seen_before += 1 if (look.success or sonar.success) else 0
    falke = 2 if (s.on("falke") and not s.fitted("foxer")) else 0
    dodge = task(
        ctx.dice,
        "torpedo-manoeuvre",
        rule,
        4,
        4,
        [
            ("Lookout spotted the torpedo", lookout_spots, "active"),
            ("hull damage", s.sheet.hull, "passive"),
            ("engineering damaged", 1 if s.sheet.damaged("engineer") else 0, "passive"),
            ("Falke homing torpedo (CC-40)", falke, "passive"),
        ],
    )
    ctx.emit(dodge.roll)
    if dodge.success:
        ctx.emit(ev.TorpedoResolved(hit=False))
        return
    dmg = plain(ctx.dice, [6], "torpedo-damage", "CC:Torpedo damage table (CC-25)")
    ctx.emit(dmg)
    hull = plain(ctx.dice, [3], "hull-damage", "CC:Torpedo damage table (CC-25)")
    ctx.emit(hull)
    areas = DAMAGE_AREAS[dmg.faces[0]]
    ctx.emit(ev.TorpedoResolved(hit=True, damage_roll=dmg.faces[0], hull=hull.faces[0], areas=areas))
    total = s.sheet.hull + hull.faces[0]
    ctx.emit(ev.HullDamaged(escort=s.active, points=hull.faces[0], hull=min(total, 3), sunk=total >= 3))
    if total >= 3:
        if s.edition.has("CC-E4-1"):
            score_years(ctx, campaign_over=True)  # CC-R24: the campaign's end scores the year it ends in
        ctx.emit(GameEnded(reason="the corvette was sunk (3 hull damage)"))
        return
    for _ in range(areas):
        hazards.damage_area(ctx, "torpedo", s.active)
