"""State changes of the campaign's course: the flotilla, the turn's segments, Special Options and missions bought,
stress, refit and the end."""

from __future__ import annotations

from domain.procedure import Handler
from domain.uboat_leader.state import (
    Boat,
    LogEntry,
    Ops,
    State,
    Tally,
)
from events import uboat_leader as ev
from events.vocabulary import Event


def log(s: State, boat: str, what: str, text: str, vp: int = 0, xp: int = 0, tons: int = 0) -> None:
    """A line of the boat's log (an append-only Record: the working copy shares it)."""
    b = s.boats[boat]
    b.history = b.history.append(LogEntry(turn=s.turn, what=what, text=text, vp=vp, xp=xp, tons=tons))


def _selected(s: State, e: ev.UBoatsSelected) -> None:
    for p in e.picks:
        card = s.data.uboat(p.boat)
        s.boats[p.boat] = Boat(
            boat=p.boat,
            cls=card.cls,
            level=p.level,
            where=p.port,
            space="port",
            ready={"normal": card.ready, "FAT": 0, "T5": 0},
            stored={"normal": card.stored, "FAT": 0, "T5": 0},
            ammo=s.rules.ammo if card.gun else 0,
        )
        log(s, p.boat, "fate", f"joins the flotilla at {p.level} level in {p.port}")
    s.so_half = e.so_half


def _segment(s: State, e: ev.SegmentBegan) -> None:
    if e.segment == "strategic" and s.turn >= 1:
        s.lines = s.lines.append(s.tally.line(s.turn))
        s.tally = Tally()
    s.segment, s.turn = e.segment, e.turn
    s.ops = Ops() if e.segment == "operations" else None
    s.act = None


def spend(s: State, cost_half: int, so_half: int, what: str) -> None:
    s.so_half = so_half
    s.tally.so_spent_half += cost_half
    s.tally.options.append(what)


def _option(s: State, e: ev.OptionBought) -> None:
    spend(s, e.cost_half, e.so_half, e.option + (f"@{e.area}" if e.area else ""))
    s.bought[e.option] = s.bought.get(e.option, 0) + 1
    if e.area:
        s.counters.setdefault(e.area, []).append(e.option)
    if e.option == "rr":
        s.rr_turn = True


def _loaded(s: State, e: ev.TorpedoesLoaded) -> None:
    spend(s, e.cost_half, e.so_half, f"{e.count} {e.kind}@{e.boat}")
    slot = s.boats[e.boat].ready if e.slot == "ready" else s.boats[e.boat].stored
    slot["normal"] -= e.count
    slot[e.kind] += e.count
    s.bought["advanced_torpedoes"] = s.bought.get("advanced_torpedoes", 0) + e.count
    log(s, e.boat, "mission", f"loads {e.count} {e.kind} torpedoes ({e.slot})")


def _assigned(s: State, e: ev.MissionAssigned) -> None:
    spend(s, e.cost_half, e.so_half, f"{e.mission}@{e.boat}")
    b = s.boats[e.boat]
    b.missions.append(e.mission)
    s.bought[e.mission] = s.bought.get(e.mission, 0) + 1
    if e.mines:  # UL-R29: Stored normal torpedoes first, then Ready (named ones: MinesLoaded, UL-E5-2)
        from_stored = min(e.mines, b.stored["normal"])
        b.stored["normal"] -= from_stored
        b.ready["normal"] -= e.mines - from_stored
        _load_mines(s, e.boat, e.mines, (0, 0))
    log(s, e.boat, "mission", f"assigned a {e.mission} mission" + (f" with {e.mines} mines" if e.mines else ""))


def _load_mines(s: State, boat: str, mines: int, advanced: tuple[int, int]) -> None:
    b = s.boats[boat]
    if s.edition.has("UL-E3-6"):  # UL-R50: a second Mines counter adds its mines; each keeps its own load
        b.mines += mines
        b.mine_loads = (*b.mine_loads, mines)
        b.mine_advanced = (*b.mine_advanced, advanced)
    else:
        b.mines = mines


def _mines_loaded(s: State, e: ev.MinesLoaded) -> None:
    b = s.boats[e.boat]
    for r in e.replaced:
        (b.ready if r.slot == "ready" else b.stored)[r.kind] -= r.count
    advanced = tuple(sum(r.count for r in e.replaced if r.kind == k) for k in ("FAT", "T5"))
    _load_mines(s, e.boat, sum(r.count for r in e.replaced), (advanced[0], advanced[1]))
    said = ", ".join(f"{r.count} {r.slot} {r.kind}" for r in e.replaced)
    log(s, e.boat, "mission", f"loads mines in place of {said} torpedoes")


def _stress(s: State, e: ev.StressChanged) -> None:
    b = s.boats[e.boat]
    b.stress, b.band = e.stress, e.band
    log(s, e.boat, "stress", f"{e.delta:+d} stress ({e.cause}): {e.stress}, {e.band}")


# ---- refit and the end -----------------------------------------------------------------------------


def _promoted(s: State, e: ev.Promoted) -> None:
    b = s.boats[e.boat]
    b.level, b.xp = e.level, 0
    log(s, e.boat, "promoted", f"promoted to {e.level}")


def _retired(s: State, e: ev.UBoatRetired) -> None:
    s.boats[e.boat].retired = True
    log(s, e.boat, "fate", f"leaves the campaign after {e.patrols} patrol(s)")


def _replenished(s: State, e: ev.Replenished) -> None:
    b = s.boats[e.boat]
    b.ready, b.stored, b.ammo, b.mines = dict(e.ready), dict(e.stored), e.ammo, 0


def _reset(s: State, e: ev.MapReset) -> None:
    s.counters, s.warnings, s.warned, s.drew, s.rr_turn = {}, {}, [], (), False
    for b in s.boats.values():
        b.attacked, b.contact_mod = False, 0
        if b.space == "search":
            b.space = "open"


def _ended(s: State, e: ev.CampaignEnded) -> None:
    s.result, s.result_index, s.final_vp = e.level, e.level_index, e.final_vp
    s.segment = "over"


def _abandoned(s: State, e: ev.CampaignAbandoned) -> None:
    s.result, s.result_index, s.final_vp, s.abandoned = None, None, None, True
    s.segment = "over"


HANDLERS: dict[type[Event], Handler[State]] = {
    ev.UBoatsSelected: _selected,
    ev.SegmentBegan: _segment,
    ev.OptionBought: _option,
    ev.TorpedoesLoaded: _loaded,
    ev.MissionAssigned: _assigned,
    ev.MinesLoaded: _mines_loaded,
    ev.StressChanged: _stress,
    ev.Promoted: _promoted,
    ev.UBoatRetired: _retired,
    ev.Replenished: _replenished,
    ev.MapReset: _reset,
    ev.CampaignEnded: _ended,
    ev.CampaignAbandoned: _abandoned,
}
