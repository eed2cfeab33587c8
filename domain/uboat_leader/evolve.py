"""The only code that changes a State: one handler per event type, total over the ruleset's events (the no-ops are
named), O(1) per event. Checks live in decide; a stored event is never refused here."""

from __future__ import annotations

from domain.uboat_leader.decks import in_order
from domain.uboat_leader.state import (
    Activation,
    Battle,
    Boat,
    BoxRun,
    LogEntry,
    Ops,
    Piece,
    State,
    Sub,
    Tally,
    TurnLine,
)
from events import uboat_leader as ev
from events.core import ClientSeedContributed, DiceRolled, GameEnded, SeedLocked, ServerSeedRevealed
from events.vocabulary import Event


def evolve(s: State, e: Event) -> State:
    handler = HANDLERS.get(type(e))
    if handler is None:
        if type(e) not in NO_STATE_CHANGE:
            raise TypeError(f"uboat-leader has no handler for {type(e).__name__}")
        return s
    handler(s, e)
    return s


def log(s: State, boat: str, what: str, text: str, vp: int = 0, xp: int = 0, tons: int = 0) -> None:
    b = s.boats[boat]
    b.history = (*b.history, LogEntry(turn=s.turn, what=what, text=text, vp=vp, xp=xp, tons=tons))


# ---- setup and the turn ----------------------------------------------------------------------------


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
        t = s.tally
        s.lines = (
            *s.lines,
            TurnLine(
                turn=s.turn,
                so_spent_half=t.so_spent_half,
                options=list(t.options),
                vp=t.vp,
                ships_sunk=t.ships_sunk,
                tons=t.tons,
                boats_lost=t.boats_lost,
                contacts=t.contacts,
                battles=t.battles,
            ),
        )
        s.tally = Tally()
    s.segment, s.turn = e.segment, e.turn
    s.ops = Ops() if e.segment == "operations" else None
    s.act = None


def _spend(s: State, cost_half: int, so_half: int, what: str) -> None:
    s.so_half = so_half
    s.tally.so_spent_half += cost_half
    s.tally.options.append(what)


def _option(s: State, e: ev.OptionBought) -> None:
    _spend(s, e.cost_half, e.so_half, e.option + (f"@{e.area}" if e.area else ""))
    s.bought[e.option] = s.bought.get(e.option, 0) + 1
    if e.area:
        s.counters.setdefault(e.area, []).append(e.option)
    if e.option == "rr":
        s.rr_turn = True


def _loaded(s: State, e: ev.TorpedoesLoaded) -> None:
    _spend(s, e.cost_half, e.so_half, f"{e.count} {e.kind}@{e.boat}")
    slot = s.boats[e.boat].ready if e.slot == "ready" else s.boats[e.boat].stored
    slot["normal"] -= e.count
    slot[e.kind] += e.count
    s.bought["advanced_torpedoes"] = s.bought.get("advanced_torpedoes", 0) + e.count
    log(s, e.boat, "mission", f"loads {e.count} {e.kind} torpedoes ({e.slot})")


def _assigned(s: State, e: ev.MissionAssigned) -> None:
    _spend(s, e.cost_half, e.so_half, f"{e.mission}@{e.boat}")
    b = s.boats[e.boat]
    b.missions.append(e.mission)
    s.bought[e.mission] = s.bought.get(e.mission, 0) + 1
    if e.mines:  # UL-R29: Stored normal torpedoes first, then Ready
        from_stored = min(e.mines, b.stored["normal"])
        b.stored["normal"] -= from_stored
        b.ready["normal"] -= e.mines - from_stored
        b.mines = e.mines
    log(s, e.boat, "mission", f"assigned a {e.mission} mission" + (f" with {e.mines} mines" if e.mines else ""))


def _stress(s: State, e: ev.StressChanged) -> None:
    b = s.boats[e.boat]
    b.stress, b.band = e.stress, e.band
    log(s, e.boat, "stress", f"{e.delta:+d} stress ({e.cause}): {e.stress}, {e.band}")


# ---- operations --------------------------------------------------------------------------------------


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
        if not s.act.drawn:
            s.act.contacts -= 1
            s.tally.contacts += 1
        s.act.drawn.append(e.number)
        s.act.stage = "choose" if len(s.act.drawn) == 2 else "engage"
    elif e.deck == "naval" and s.ops is not None and s.ops.box is not None:
        s.ops.box.targets.append(e.number)


def _reformed(s: State, e: ev.DeckReformed) -> None:
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
        b.stored["normal"] += b.mines
        b.mines = 0
    log(s, e.boat, "mission", f"{e.mission} mission {e.outcome}")


def _mines_laid(s: State, e: ev.MinesLaid) -> None:
    s.boats[e.boat].mines = 0
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


# ---- the tactical segment ----------------------------------------------------------------------------


def _activated(s: State, e: ev.Activated) -> None:
    s.act = Activation(boat=e.boat)


def _contacts(s: State, e: ev.ContactsRolled) -> None:
    s.act.contacts = e.contacts
    s.act.stage = "draw"
    log(s, e.boat, "contact", f"{e.contacts} contact(s)")


def _chosen(s: State, e: ev.ConvoyChosen) -> None:
    s.act.drawn = [e.number]
    s.act.stage = "engage"


def _engaged(s: State, e: ev.ContactEngaged) -> None:
    s.act.card, s.act.stage = e.number, "place"
    s.act.called, s.act.rolled = [], False
    s.battle = Battle(number=e.number, area=e.area)
    s.tally.battles += 1
    if "battle" not in s.counters.get(e.area, []):
        s.counters.setdefault(e.area, []).append("battle")
    log(s, s.act.boat, "contact", f"engages convoy card {e.number}")


def _withdrawn(s: State, e: ev.ContactWithdrawn) -> None:
    s.act.card, s.act.withdrew, s.act.stage = e.number, True, "post"
    log(s, s.act.boat, "contact", f"withdraws from convoy card {e.number}")


def _warning(s: State, e: ev.WarningPlaced) -> None:
    s.warnings[e.area] = e.warnings
    s.warned.append(f"{e.boat}@{e.area}")


def _ships_placed(s: State, e: ev.ShipsPlaced) -> None:
    s.battle.ships = {p.label: Piece(label=p.label, kind=p.kind, area=p.area, escort=p.kind == "E") for p in e.pieces}
    s.battle.alerted = e.alerted
    s.act.to_place = [s.act.boat]


def _placed(s: State, e: ev.UBoatPlaced) -> None:
    s.battle.subs[e.boat] = Sub(boat=e.boat, area=e.area, side=e.side)
    s.battle.placed.append(e.boat)
    s.act.to_place.remove(e.boat)
    if s.act.stage == "place" and not s.act.to_place:
        s.act.stage = "wolfpack"


def _wolfpack(s: State, e: ev.WolfpackCalled) -> None:
    s.act.called.append(e.boat)
    s.act.rolled = True
    if e.joined:
        s.act.to_place.append(e.boat)


def _alerted(s: State, e: ev.AlertedRaised) -> None:
    s.battle.alerted = e.alerted


def _radio(s: State, e: ev.RadioCalled) -> None:
    _spend(s, e.cost_half, e.so_half, "radio_call")
    s.bought["radio_call"] = s.bought.get("radio_call", 0) + 1
    s.act.called += e.boats
    s.act.to_place += e.boats


def _step(s: State, e: ev.CombatStep) -> None:
    bt = s.battle
    bt.step, bt.turn, bt.queue = e.step, e.turn, list(e.queue)
    bt.ordered, bt.declared = bool(e.queue), False
    s.act.stage = "combat"


def _manoeuvred(s: State, e: ev.UBoatManoeuvred) -> None:
    sub = s.battle.subs[e.boat]
    sub.side, sub.area = e.side, e.to
    s.battle.queue.remove(e.boat)


def _silent(s: State, e: ev.SilentRunning) -> None:
    sub = s.battle.subs[e.boat]
    sub.silent, sub.side = True, "submerged"
    if e.escaped:
        sub.detected = False


def _deep(s: State, e: ev.DeepDived) -> None:
    s.battle.subs[e.boat].deep = True
    s.battle.queue.remove(e.boat)


def _bearing(s: State, e: ev.BearingDeclared) -> None:
    for boat, speed in e.speeds.items():
        s.battle.subs[boat].bearing = speed
    s.battle.queue = list(e.drifting)
    s.battle.declared = True
    s.battle.ref_speed = e.reference_speed


def _drifted(s: State, e: ev.Drifted) -> None:
    bt = s.battle
    bt.queue.remove(e.piece)
    if e.piece in bt.ships:
        if e.removed:
            del bt.ships[e.piece]
        else:
            bt.ships[e.piece].area = e.to
    elif not e.removed:
        bt.subs[e.piece].area = e.to


def _revealed(s: State, e: ev.ShipRevealed) -> None:
    p = s.battle.ships[e.label]
    p.deck, p.number, p.escort, p.tactic = e.deck, e.number, e.escort, e.tactic


def _piece_removed(s: State, e: ev.PieceRemoved) -> None:
    del s.battle.ships[e.label]
    if e.label in s.battle.queue:
        s.battle.queue.remove(e.label)


def _detection(s: State, e: ev.DetectionRolled) -> None:
    if e.detected:
        s.battle.subs[e.boat].detected = True


def _searched(s: State, e: ev.EscortSearched) -> None:
    s.battle.searched = e.escort


def _ordered(s: State, e: ev.EscortsOrdered) -> None:
    s.battle.queue, s.battle.ordered = list(e.labels), True


def _escort_moved(s: State, e: ev.EscortMoved) -> None:
    s.battle.ships[e.escort].area = e.to
    s.battle.queue.remove(e.escort)
    s.battle.searched = None


def _declared(s: State, e: ev.AttackDeclared) -> None:
    bt = s.battle
    bt.queue.remove(e.boat)
    bt.subs[e.boat].attacked = True
    bt.fired = True
    if e.boat not in bt.attackers:
        bt.attackers.append(e.boat)


def _held(s: State, e: ev.AttackHeld) -> None:
    s.battle.queue.remove(e.boat)


def _enemy(s: State, e: ev.EnemyAttacked) -> None:
    q = s.battle.queue
    del q[: q.index(e.ship) + 1]
    log(s, e.boat, "hit" if e.hit else "attack", f"attacked by {e.ship}: {'hit' if e.hit else 'missed'}")


def _boat_sunk(s: State, e: ev.UBoatSunk) -> None:
    s.boats[e.boat].sunk = True
    s.boats_lost += 1
    s.tally.boats_lost += 1
    if s.battle is not None:
        s.battle.subs.pop(e.boat, None)
        if e.boat in s.battle.queue:
            s.battle.queue.remove(e.boat)
    log(s, e.boat, "fate", "sunk")


def _lost(s: State, e: ev.ContactLost) -> None:
    s.battle.subs.pop(e.boat, None)
    if e.boat in s.battle.queue:
        s.battle.queue.remove(e.boat)
    log(s, e.boat, "contact", f"loses contact ({e.cause})")


def _turn_ended(s: State, e: ev.CombatTurnEnded) -> None:
    bt = s.battle
    bt.turn = e.turn + 1
    bt.fired = False
    for sub in bt.subs.values():
        sub.silent = sub.deep = False
        sub.bearing = None


def _combat_ended(s: State, e: ev.CombatEnded) -> None:
    s.act.stage = "post"


def _reloaded(s: State, e: ev.TorpedoesReloaded) -> None:
    b = s.boats[e.boat]
    for kind, n in e.moved.items():
        b.stored[kind] -= n
        b.ready[kind] += n


def _marked(s: State, e: ev.AttackedMarked) -> None:
    for boat in e.boats:
        s.boats[boat].attacked = True


def _resolved(s: State, e: ev.ContactResolved) -> None:
    a = s.act
    a.stage, a.card, a.drawn, a.withdrew, a.to_place, a.called, a.rolled = "next", None, [], False, [], [], False
    s.battle = None


def _activation_ended(s: State, e: ev.ActivationEnded) -> None:
    s.act = None
    s.battle = None


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
    s.counters, s.warnings, s.warned, s.rr_turn = {}, {}, [], False
    for b in s.boats.values():
        b.attacked, b.contact_mod = False, 0
        if b.space == "search":
            b.space = "open"


def _ended(s: State, e: ev.CampaignEnded) -> None:
    s.result, s.result_index, s.final_vp = e.level, e.level_index, e.final_vp
    s.segment = "over"


def _game_ended(s: State, e: GameEnded) -> None:
    s.over = True


HANDLERS = {
    ev.UBoatsSelected: _selected,
    ev.SegmentBegan: _segment,
    ev.OptionBought: _option,
    ev.TorpedoesLoaded: _loaded,
    ev.MissionAssigned: _assigned,
    ev.StressChanged: _stress,
    ev.UBoatMoved: _moved,
    ev.UBoatPatrolled: _patrolled,
    ev.MoveEnded: _move_ended,
    ev.ToSearchBox: _to_search,
    ev.CardDrawn: _drawn,
    ev.DeckReformed: _reformed,
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
    ev.Activated: _activated,
    ev.ContactsRolled: _contacts,
    ev.ConvoyChosen: _chosen,
    ev.ContactEngaged: _engaged,
    ev.ContactWithdrawn: _withdrawn,
    ev.WarningPlaced: _warning,
    ev.ShipsPlaced: _ships_placed,
    ev.UBoatPlaced: _placed,
    ev.WolfpackCalled: _wolfpack,
    ev.AlertedRaised: _alerted,
    ev.RadioCalled: _radio,
    ev.CombatStep: _step,
    ev.UBoatManoeuvred: _manoeuvred,
    ev.SilentRunning: _silent,
    ev.DeepDived: _deep,
    ev.BearingDeclared: _bearing,
    ev.Drifted: _drifted,
    ev.ShipRevealed: _revealed,
    ev.PieceRemoved: _piece_removed,
    ev.DetectionRolled: _detection,
    ev.EscortSearched: _searched,
    ev.EscortsOrdered: _ordered,
    ev.EscortMoved: _escort_moved,
    ev.AttackDeclared: _declared,
    ev.AttackHeld: _held,
    ev.EnemyAttacked: _enemy,
    ev.UBoatSunk: _boat_sunk,
    ev.ContactLost: _lost,
    ev.CombatTurnEnded: _turn_ended,
    ev.CombatEnded: _combat_ended,
    ev.TorpedoesReloaded: _reloaded,
    ev.AttackedMarked: _marked,
    ev.ContactResolved: _resolved,
    ev.ActivationEnded: _activation_ended,
    ev.Promoted: _promoted,
    ev.UBoatRetired: _retired,
    ev.Replenished: _replenished,
    ev.MapReset: _reset,
    ev.CampaignEnded: _ended,
    GameEnded: _game_ended,
}
# facts recorded for the log and the views, with no state of their own (their effects come as other events)
NO_STATE_CHANGE = (
    ev.ContactsPassed,
    ev.UBoatHit,
    DiceRolled,
    ClientSeedContributed,
    SeedLocked,
    ServerSeedRevealed,
)
