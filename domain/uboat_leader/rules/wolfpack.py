"""Formar Wolfpacks (UL-28, UL-R15, UL-R41) and the Radio Call (UL-15): the active boat calls the Area's other boats."""

from __future__ import annotations

from itertools import combinations

from domain import decisions as ui
from domain.engine import IllegalCommand
from domain.uboat_leader import commands as c
from domain.uboat_leader.el_dado import d10
from domain.uboat_leader.legal import RULEBOOK, require, so_text, spec
from domain.uboat_leader.rules import strategic
from domain.uboat_leader.rules.crew import add_stress
from domain.uboat_leader.state import State
from events import uboat_leader as ev

WOLFPACK = "Formar Wolfpacks (UL-28)"


def candidates(s: State) -> list[str]:
    """UL-24, UL-R12: a boat not in port and not Unfit, in an Area's open space (not its Search box)."""
    return [b.boat for b in s.boats.values() if b.at_sea and b.space == "open" and s.fit(b.boat)]


def pack(s: State) -> list[str]:
    """UL-28, UL-R15, UL-R41: fit boats in the Area's open space (never its Search box), each called once per
    contact in the player's order."""
    area = s.area_of(s.act.boat)
    return [
        b
        for b in candidates(s)
        if b != s.act.boat and s.boats[b].where == area and b not in s.act.called and b not in s.battle.subs
    ]


def call_wolfpack(ctx, cmd: c.CallWolfpack) -> None:
    """UL-28: roll for a boat to join (−2 if it has an Attacked counter); a natural Stress result adds 1 stress to the
    active boat and an Alerted counter (both may happen, UL-R15)."""
    s = ctx.state
    require(cmd, [{"boat": b} for b in pack(s)], f"{cmd.boat} cannot be called to this pack (UL-28, UL-R41)")
    wp = s.camp.wolfpack
    face, total = d10(
        ctx,
        f"{cmd.boat}: join {s.act.boat}'s Wolfpack (joins on {wp.join_at}+, natural {wp.stress_on}: Stress)",
        WOLFPACK,
        [("Attacked", s.rules.attacked_join if s.boats[cmd.boat].attacked else 0)],
        target=wp.join_at,
        judge=lambda f, t: (
            ("joins" if t >= wp.join_at else "does not join") + (", Stress" if f in wp.stress_on else "")
        ),
    )
    stress = face in wp.stress_on
    ctx.emit(ev.WolfpackCalled(boat=cmd.boat, joined=total >= wp.join_at, stress=stress))
    if stress:
        add_stress(ctx, s.act.boat, s.rules.wolfpack_stress, "Wolfpack roll: Stress")
        ctx.emit(ev.AlertedRaised(alerted=s.battle.alerted + 1, cause="Wolfpack roll: Stress (UL-28)"))


def why_not_radio(s: State, boats: list[str]) -> str | None:
    """UL-15, UL-R15: Llamada por la Radio is bought before any Wolfpack roll; the boats named join freely. From 8.0.0
    (UL-E8-2) once a contact: "Puedes elegir libremente a otros U-Boats en el Área" is that one call's choice, so a
    second would make the player pay again for what the first gave."""
    if s.edition.has("UL-E8-2") and radioed(s):
        return (
            "a Radio Call was bought for this contact already: the one call, before the first roll, chooses freely "
            "which of the Area's boats join (\"Puedes elegir libremente a otros U-Boats en el Área\"); the others may "
            "still be rolled for (UL-15, UL-R15)"
        )
    why = strategic.why_not_spend(s, "radio_call")
    if why:
        return why
    if s.act.rolled:
        return "a Radio Call is bought before any Wolfpack roll (UL-15)"
    if not boats or len(set(boats)) != len(boats) or any(b not in pack(s) for b in boats):
        return f"a Radio Call names some of {pack(s)}, each once (UL-15)"
    return None


def radioed(s: State) -> bool:
    """A Radio Call was bought in this contact and no Wolfpack roll made since: a boat was called with no roll yet
    (`called` is emptied as a contact is engaged, and only a roll or a Radio Call adds to it). After a roll this says
    no, and `why_not_radio` refuses a call for the roll instead (UL-15)."""
    return bool(s.act.called) and not s.act.rolled


def radio_call(ctx, cmd: c.RadioCall) -> None:
    s = ctx.state
    why = why_not_radio(s, cmd.boats)
    if why:
        raise IllegalCommand(why)
    half = strategic.cost_half(s, "radio_call")
    ctx.emit(ev.RadioCalled(boats=list(cmd.boats), cost_half=half, so_half=s.so_half - half))


def specs(s: State) -> list:
    out = [spec(c.StartCombat, [{}], ["begin the combat"])]
    boats = pack(s)
    if boats:
        out.append(spec(c.CallWolfpack, [{"boat": b} for b in boats], [f"call {b} (roll to join)" for b in boats]))
        if why_not_radio(s, boats[:1]) is None:
            subsets = [list(x) for n in range(1, len(boats) + 1) for x in combinations(boats, n)]
            cost = so_text(strategic.cost_half(s, "radio_call"))
            out.append(
                spec(
                    c.RadioCall,
                    [{"boats": x} for x in subsets],
                    [f"Radio Call ({cost} SO): {', '.join(x)} join" for x in subsets],
                    narrow={"boats": {"maxItems": len(boats), "items": {"enum": boats}}},
                    form=lambda: radio_ui(boats, cost),
                )
            )
    return out


def radio_ui(boats: list[str], cost: str) -> ui.Form:
    """UL-15: some of the Area's boats, each once, at least one (why_not_radio)."""
    opts = [ui.Option(value=b, label=b) for b in boats]
    said = f"Radio Call ({cost} SO): the boats that join"
    return ui.Form(controls=[ui.Pick(field="boats", label=said, options=opts, min=1, rulebook=RULEBOOK["radio_call"])])
