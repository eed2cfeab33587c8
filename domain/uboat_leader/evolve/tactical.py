"""State changes of the Tactical Segment: the active boat, its contacts, the battle on the Tactical Display and
Post-Combat."""

from __future__ import annotations

from domain.procedure import Handler
from domain.uboat_leader.evolve.campaign import log, spend
from domain.uboat_leader.state import (
    Activation,
    Battle,
    Piece,
    State,
    Sub,
)
from events import uboat_leader as ev
from events.vocabulary import Event


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
    s.warned.append([e.boat, e.area])


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
    spend(s, e.cost_half, e.so_half, "radio_call")
    s.bought["radio_call"] = s.bought.get("radio_call", 0) + 1
    s.act.called += e.boats
    s.act.to_place += e.boats


def _step(s: State, e: ev.CombatStep) -> None:
    bt = s.battle
    bt.step, bt.turn, bt.queue = e.step, e.turn, list(e.queue)
    bt.ordered, bt.declared, bt.acted = bool(e.queue), False, ()
    s.act.stage = "combat"


def _manoeuvred(s: State, e: ev.UBoatManoeuvred) -> None:
    s.battle.queue.remove(e.boat)
    if e.to == "off":  # off the display: out of the battle at once (ContactLost follows)
        del s.battle.subs[e.boat]
        return
    sub = s.battle.subs[e.boat]
    sub.side, sub.area = e.side, e.to


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
    s.battle.acted = (*s.battle.acted, e.escort)


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
        sub.silent = sub.deep = sub.attacked = False
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
    if s.battle is not None:  # UL-R24: the Attacked counters wait for the end of the activation
        a.attackers.extend([b for b in s.battle.attackers if b != a.boat and b not in a.attackers])
    a.stage, a.card, a.drawn, a.withdrew, a.to_place, a.called, a.rolled = "next", None, [], False, [], [], False
    s.battle = None


def _activation_ended(s: State, e: ev.ActivationEnded) -> None:
    s.act = None
    s.battle = None


HANDLERS: dict[type[Event], Handler[State]] = {
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
}
