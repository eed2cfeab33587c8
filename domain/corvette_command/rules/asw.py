"""Corvette action: detection (CC-26, CC-R7), range (CC-27), patterns and kill grades (CC-22, CC-28),
boarding (CC-29), awards (CC-30), withdrawal and the wolfpack (CC-31)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.corvette_command.rules.resolution import matching, plain, task
from domain.corvette_command.state import STATIONS, Engagement, State, kill_grade, pattern_grade
from domain.engine import IllegalCommand
from domain.procedure import Ctx
from events import corvette_command as ev
from events.core import RollResult

R = "CC:Corvette Action"


def evade(state: State) -> int:
    """The U-boat's Evade, +1 when submerged with BOLD decoys out (CC-40, CC-R32, CC-R41)."""
    g = state.engagement
    return g.evade + (1 if g.decoys and not g.surfaced else 0)


def contact_held(g: Engagement) -> bool:
    """CC-26's +3: the U-boat found by the last search, or contact not lost after a Hedgehog miss (CC-R41)."""
    return g.consecutive >= 1 or g.contact == "kept"


def detect(ctx: Ctx) -> None:
    s, g = ctx.state, ctx.state.engagement
    bonus = 3 if contact_held(g) else 0
    mods = [
        ("close range", 1 if g.range == 0 else 0, "active"),
        ("long range", 1 if g.range == 2 else 0, "passive"),
        ("contact held (consecutive detection, or no loss of contact after a Hedgehog miss)", bonus, "active"),
        ("ASDIC damaged (Task Harder)", s.sheet.counters("asdic"), "passive"),
    ]
    partner = s.partner(s.active)
    if partner:  # CC-44: the escort free of its own U-boat adds its ASDIC skill; CC-R38: and its counters
        mods.append(("the other escort's ASDIC (two-player)", s.sheets[partner].skills["asdic"], "active"))
        mods.append(("the other escort's ASDIC damaged (Task Harder)", s.sheets[partner].counters("asdic"), "passive"))
    t = task(
        ctx.dice, "asdic-detection", f"{R}/Detection Phase (CC-26, CC-R7)", s.sheet.skills["asdic"], evade(s), mods
    )
    ctx.emit(t.roll)
    if not t.success and s.convoy.luck:  # Luck of the Irish (CC-17): the second result stands
        ctx.emit(ev.EffectApplied(effect="reroll_used", detail="Luck of the Irish: the failed search is re-rolled"))
        again = task(
            ctx.dice,
            "asdic-detection",
            f"{R}/Detection Phase (CC-26, Luck of the Irish)",
            s.sheet.skills["asdic"],
            evade(s),
            mods,
        )
        ctx.emit(replace(again.roll, rerolls=t.roll.k))
        t = again
    if t.success:
        rng, consecutive = max(g.range - 1, 0), g.consecutive + 1
    else:  # CC-27: it opens one band, two while engineering is damaged
        rng, consecutive = g.range + (2 if s.sheet.damaged("engineer") else 1), 0
    ctx.emit(ev.DetectionResolved(detected=t.success, range=min(rng, 3), consecutive=consecutive, contact="normal"))


def weapons(state: State) -> list[str]:
    out = []
    if state.sheet.depth_charges > 0:
        out.append("depth-charges")
    if state.fitted("hedgehog") and state.sheet.hedgehog > 0:
        out.append("hedgehog")
    return out


def drop_pattern(ctx: Ctx, weapon: str) -> None:
    """CC-22, CC-28, CC-30: a pattern, the U-boat's grade after it and its award."""
    s, g = ctx.state, ctx.state.engagement
    if weapon not in weapons(s):
        raise IllegalCommand(f"no {weapon} to drop: {weapons(s) or 'nothing'} left (CC-4, CC-R19)")
    area = "depth_charge" if weapon == "depth-charges" else "hedgehog"
    dice = 3 if s.sheet.damaged(area) else 4  # CC-33: a damaged station rolls only 3 dice (CC-29: a lost officer)
    skill = s.sheet.skills["depth_charge"]  # Hedgehog falls under the Depth Charge skill
    roll, hits = matching(ctx.dice, skill, evade(s), dice, f"{weapon}-pattern", f"{R}/Depth Charge attack (CC-22)")
    ctx.emit(roll)
    total = g.hits + hits
    before = g.grade
    grade = kill_grade(weapon, hits, total, before)
    ctx.emit(
        ev.PatternDropped(
            weapon=weapon,
            hits=hits,
            total_hits=total,
            grade=grade,
            out=grade == "confirmed" or total >= 4,
            depth_charges=s.sheet.depth_charges - (weapon == "depth-charges"),
            hedgehog=s.sheet.hedgehog - (weapon == "hedgehog"),
            surfaced=surfaces(weapon, hits),
        )
    )
    if grade == "confirmed":
        ctx.emit(ev.AwardGranted(award="DSC", reason=f"{g.uboat} confirmed sunk"))  # CC-30
    elif probable_pattern(s, weapon, hits, total, before):
        ctx.emit(ev.AwardGranted(award="Mentioned in Despatches", reason=f"{g.uboat} probably sunk"))


def probable_pattern(s: State, weapon: str, hits: int, total: int, before: str | None) -> bool:
    """CC-30: "If you score 3 hits in one pattern ... This will be counted as a "probable" kill. Your Commanding Officer
    will be awarded a Mentioned in Despatches": the pattern's own sentence gives the award (a Hedgehog salvo of 1 hit
    too, CC-R15), also at 4 hits in all (CC-E5-1; 4.0.0 gave none there), and from 8.0.0 (CC-E8-4) a depth-charge
    pattern's on a boat already probable in this convoy too: each such pattern's commander scored it (7.0.0 gave one a
    boat, so in the two-player game the second escort's 3 hits went unawarded)."""
    if pattern_grade(weapon, hits, total) != "probable" or (total >= 4 and not s.edition.has("CC-E5-1")):
        return False
    # the Hedgehog's award is the ruling's (CC-R15: the text gives its salvo a grade, no award): once a boat, so that
    # salvoes of 1 hit do not earn one each up to the 4 in all
    return before != "probable" or (s.edition.has("CC-E8-4") and weapon == "depth-charges")


def surfaces(weapon: str, hits: int) -> bool:
    """CC-28, CC-29: "If all 4d6 are hits, the submarine floats to the surface": depth charges only (a Hedgehog
    hit explodes; it is not all four dice of a pattern), so only then may a boarding party go."""
    return weapon == "depth-charges" and hits >= 4


def board(ctx: Ctx, officer: str | None) -> None:
    """CC-29: an officer leads a boarding party; d20: 20 captures an Enigma, 1 loses the officer and party."""
    s, g = ctx.state, ctx.state.engagement
    if officer is None:
        ctx.emit(ev.BoardingResolved(officer=None, roll=None, result="declined"))
    else:
        if officer not in STATIONS or officer in s.sheet.officers_lost:
            raise IllegalCommand(f"no officer at {officer!r} to lead a boarding party (lost: {s.sheet.officers_lost}; CC-29)")
        roll = plain(ctx.dice, [20], "enigma-boarding", f"{R}/Depth Charge attack/Enigma (CC-29)")
        result = "enigma" if roll.faces[0] == 20 else "lost" if roll.faces[0] == 1 else "nothing"
        ctx.emit(replace(roll, result=RollResult(outcome=result, total=roll.faces[0])))
        ctx.emit(ev.BoardingResolved(officer=officer, roll=roll.faces[0], result=result))
        if result == "enigma":
            ctx.emit(
                ev.AwardGranted(
                    award="DSC (from the King; VC recommended)", reason=f"Enigma and code books taken from {g.uboat}"
                )
            )
    leave(ctx, "confirmed")


def boarding_choices(state: State) -> list[dict]:
    return [{"type": "board", "officer": o} for o in STATIONS if o not in state.sheet.officers_lost] + [
        {"type": "board", "officer": None}
    ]


def nothing_to_drop(ctx: Ctx) -> None:
    """CC-R28: with no depth charges and no Hedgehog left, a U-boat found at close range slips away: from 8.0.0
    (CC-E8-1) it evades as one beyond long range does; before, it left as if it escaped a pattern, and rolled the
    WOLFPACK table unhurt with its attacks left, which no sentence gives it."""
    if ctx.state.edition.has("CC-E8-1"):
        evaded(ctx)
    else:
        leave(ctx, "escaped")


def may_hold(state: State) -> bool:
    """CC-R28 (8.0.0, CC-E8-2): "If you are successful, you have detected the U-Boat and may drop *another* Depth
    Charge pattern", and after a pattern's new search "If you succeed, then you may Depth Charge the U-Boat": once the
    corvette has attacked the boat since it last attacked the convoy. Found at close range after its attack (or for
    the first time), "your Corvette commences its Depth Charge attack": no choice."""
    return state.edition.has("CC-E8-2") and state.engagement.attacked_since


def hold_pattern(ctx: Ctx) -> None:
    """CC-R28 (8.0.0, CC-E8-2): the captain keeps the charges, and the U-boat evades as one beyond long range does."""
    if not ctx.state.edition.has("CC-E8-2"):
        raise IllegalCommand("hold_pattern is a rule of edition 8.0.0 (CC-R28); this game plays an earlier one")
    if not may_hold(ctx.state):
        raise IllegalCommand(
            "the first pattern on a U-boat found at close range, or the first since it attacked the convoy, is not a "
            "choice: the corvette \"commences its Depth Charge attack\"; drop_pattern now, and hold only another "
            "(CC-22, CC-R28)"
        )
    evaded(ctx)


def evaded(ctx: Ctx) -> None:
    """Beyond long range (and, from 8.0.0, found at close range and left alone, CC-R28): it re-engages from its
    designated range (CC-R40) while it has attacks and is unhurt; else it leaves."""
    s, g = ctx.state, ctx.state.engagement
    if g.attacks_left > 0 and not g.barred:
        ctx.emit(ev.UBoatDived(range=g.designated))
        return
    # CC-31: spent, it "will withdraw"; a pattern's hits make it "attempt to escape" (from 9.0.0, CC-E9-1, the guns'
    # hits alone no longer do: they bar no attack, CC-R27)
    hurt = (g.barred or g.grade) if s.edition.has("CC-E9-1") else (g.hits or g.grade)
    leave(ctx, "escaped" if hurt else "withdrew")


def leave(ctx: Ctx, fate: str) -> None:
    """CC-31: a U-boat that leaves hurt (1-2 hits, or 3 in all) or with its attacks spent calls the wolfpack,
    unless it is probably sunk or came with the wolfpack; d6 - 1 per damage point."""
    g = ctx.state.engagement
    fate = g.grade if fate == "escaped" and g.grade else fate
    summons = g.summons and fate in ("escaped", "withdrew")
    out = fate in ("confirmed", "possible") or g.hits >= 4  # CC-28, CC-R15: 4 hits in all, out of the game
    ctx.emit(ev.UBoatLeft(uboat=g.uboat, fate=fate, hits=g.hits, summons=summons, out=out))
    if summons:  # CC-44: in the two-player game each escort rolls for its own section
        for escort in ctx.state.escorts:
            roll = plain(ctx.dice, [6], "wolfpack", "CC:Corvette Action/WOLFPACK Table (CC-31)")
            total = roll.faces[0] - g.hits
            n = wolfpack_size(total)
            ctx.emit(replace(roll, result=RollResult(outcome=f"{n} U-boat(s) at {escort}'s section", total=total)))
            ctx.emit(ev.WolfpackRolled(escort=escort, roll=roll.faces[0], drm=-g.hits, uboats=n))


def wolfpack_size(total: int) -> int:
    """CC-31: 1-2 none, 3 one, 4-5 two, 6 three (modified totals below 1 are none)."""
    return 0 if total <= 2 else 1 if total == 3 else 2 if total <= 5 else 3
