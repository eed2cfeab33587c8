"""State changes of the Operations Segment: moves and patrols, cards drawn, discarded and re-formed, Event cards,
mission boxes, attacks, sinkings and scores."""

from __future__ import annotations

from domain.procedure import Handler
from domain.uboat_leader.decks import in_order
from domain.uboat_leader.evolve.campaign import log
from domain.uboat_leader.state import (
    BoxRun,
    State,
)
from events import uboat_leader as ev
from events.vocabulary import Event


def _moved(s: State, e: ev.UBoatMoved) -> None:
    b = s.boats[e.boat]
    b.came_from = b.where
    b.where, b.space = e.to, e.space
    if s.ops is not None:
        s.ops.moving = e.boat
        if e.boat not in s.ops.done:
            s.ops.done.append(e.boat)
    log(s, e.boat, "move", f"moves to {e.to}")


def _patrolled(s: State, e: ev.UBoatPatrolled) -> None:
    s.ops.done.append(e.boat)
    log(s, e.boat, "patrol", f"patrols {s.boats[e.boat].where}")


def _move_ended(s: State, e: ev.MoveEnded) -> None:
    s.ops.moving = None


def _to_search(s: State, e: ev.ToSearchBox) -> None:
    b = s.boats[e.boat]
    b.where, b.space = e.area, "search"
    if s.ops is not None:
        if s.ops.moving == e.boat:
            s.ops.moving = None
        if s.ops.box is not None and s.ops.box.boat == e.boat:
            s.ops.box = None
    log(s, e.boat, "move", f"to the Search box of {e.area} ({e.cause})")


def _drawn(s: State, e: ev.CardDrawn) -> None:
    s.decks[e.deck].remove(e.number)
    if s.battle is not None and e.deck in ("merchants", "escorts", "fleet", "naval", "tactics"):
        s.battle.cards.setdefault(e.deck, []).append(e.number)
    elif e.deck == "convoys" and s.act is not None:
        if not s.act.drawn:  # a contact's first card (Air Search draws a second beside it: one draw)
            s.act.contacts -= 1
            s.tally.contacts += 1
            drew = (s.act.boat, s.area_of(s.act.boat))
            s.act.first = drew not in s.drew
            if s.act.first:
                s.drew = (*s.drew, drew)
        s.act.drawn.append(e.number)
        s.act.stage = "choose" if len(s.act.drawn) == 2 else "engage"
    elif e.deck == "naval" and s.ops is not None and s.ops.box is not None:
        s.ops.box.targets.append(e.number)


def _reformed(s: State, e: ev.DeckRefilled) -> None:
    s.decks[e.deck] = in_order(s.data, e.deck, s.decks[e.deck] + s.discards[e.deck])
    s.discards[e.deck] = []


def _returned(s: State, e: ev.CardsReturned) -> None:
    s.decks[e.deck] = in_order(s.data, e.deck, s.decks[e.deck] + e.numbers)


def _discarded(s: State, e: ev.CardsDiscarded) -> None:
    s.discards[e.deck].extend(e.numbers)
    if s.battle is not None and e.deck in s.battle.cards:
        s.battle.cards[e.deck] = [n for n in s.battle.cards[e.deck] if n not in e.numbers]


def _event(s: State, e: ev.EventResolved) -> None:
    b = s.boats[e.boat]
    b.contact_mod += e.contact
    box = s.ops.box if s.ops is not None else None
    if box is not None and box.boat == e.boat:
        if box.pre:
            box.pre -= 1
        elif box.events:
            box.events -= 1
    log(s, e.boat, "event", f"Event {e.name}: {e.text}")


def _mission_began(s: State, e: ev.MissionBegan) -> None:
    area = s.box(e.box)[0].id
    s.ops.box = BoxRun(
        boat=e.boat, box=e.box, area=area, mission=e.mission, pre=e.patrol_events, events=e.events, total=e.events
    )


def _mission_stage(s: State, e: ev.MissionStage) -> None:
    s.ops.box.stage = e.stage


def _patrol_done(s: State, e: ev.PatrolCompleted) -> None:
    s.boats[e.boat].patrols = e.patrols
    log(s, e.boat, "port", f"enters {e.port}: patrol {e.patrols} completed")


def _mission_ended(s: State, e: ev.MissionEnded) -> None:
    b = s.boats[e.boat]
    if e.outcome in ("done", "cancelled") and e.mission in b.missions:
        b.missions.remove(e.mission)
    if e.outcome == "cancelled" and e.mission == "mine" and b.mines:  # UL-R8: mines revert to torpedoes
        fat, t5 = (sum(x[i] for x in b.mine_advanced) for i in (0, 1))  # the FATs and T5s named (UL-E5-2)
        b.stored["FAT"] += fat
        b.stored["T5"] += t5
        b.stored["normal"] += b.mines - fat - t5
        b.mines, b.mine_loads, b.mine_advanced = 0, (), ()
    log(s, e.boat, "mission", f"{e.mission} mission {e.outcome}")


def _mines_laid(s: State, e: ev.MinesLaid) -> None:
    b = s.boats[e.boat]
    b.mines -= e.mines  # every mine aboard before UL-E3-6; the first counter's load from it (UL-R50)
    b.mine_loads, b.mine_advanced = b.mine_loads[1:], b.mine_advanced[1:]
    log(s, e.boat, "mission", f"lays {e.mines} mines in {e.box}", vp=e.vp)


def _use(s: State, boat: str, kind: str, slot: str) -> None:
    b = s.boats[boat]
    if slot == "ammo":
        b.ammo -= 1
    else:
        (b.ready if slot == "ready" else b.stored)[kind] -= 1


def _attack_rolled(s: State, e: ev.AttackRolled) -> None:
    _use(s, e.boat, e.kind, e.slot)
    if s.battle is not None:
        s.battle.ships[e.target].damage = e.damage
    elif s.ops is not None and s.ops.box is not None:
        s.ops.box.damage[e.target] = e.damage
    log(s, e.boat, "attack", f"{e.kind} at {e.name}: {e.result}")


def _raider_rolled(s: State, e: ev.RaiderRolled) -> None:
    _use(s, e.boat, e.kind, e.slot)
    s.ops.box.rolls += 1
    log(s, e.boat, "attack", f"raider {e.kind} attack: {e.vp} VP", vp=e.vp)


def _sunk(s: State, e: ev.ShipSunk) -> None:
    b = s.boats[e.boat]
    b.ships += 1
    b.tons += e.tons
    s.ships_sunk += 1
    s.tons += e.tons
    s.tally.ships_sunk += 1
    s.tally.tons += e.tons
    if s.battle is not None:
        del s.battle.ships[e.target]
        s.battle.sunk.append([e.boat, e.vp, e.xp])
    log(s, e.boat, "sunk", f"sinks {e.name}", vp=e.vp, xp=e.xp, tons=e.tons)


def _scored(s: State, e: ev.Scored) -> None:
    s.vp = e.total
    s.tally.vp += e.vp
    if e.boat is not None:
        s.boats[e.boat].vp += e.vp


def _xp(s: State, e: ev.XpGained) -> None:
    s.boats[e.boat].xp = e.total


HANDLERS: dict[type[Event], Handler[State]] = {
    ev.UBoatMoved: _moved,
    ev.UBoatPatrolled: _patrolled,
    ev.MoveEnded: _move_ended,
    ev.ToSearchBox: _to_search,
    ev.CardDrawn: _drawn,
    ev.DeckRefilled: _reformed,
    ev.CardsDiscarded: _discarded,
    ev.CardsReturned: _returned,
    ev.EventResolved: _event,
    ev.MissionBegan: _mission_began,
    ev.MissionStage: _mission_stage,
    ev.PatrolCompleted: _patrol_done,
    ev.MissionEnded: _mission_ended,
    ev.MinesLaid: _mines_laid,
    ev.AttackRolled: _attack_rolled,
    ev.RaiderRolled: _raider_rolled,
    ev.ShipSunk: _sunk,
    ev.Scored: _scored,
    ev.XpGained: _xp,
}
