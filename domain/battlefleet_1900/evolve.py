"""The only code that changes a battle's state: one handler per event type, and the events that change nothing.

`evolve` applies one event (the table is set by state.py's `initial_state`). Checks belong to decide: a stored
event is never refused here.
"""

from __future__ import annotations

from dataclasses import replace

import msgspec

from domain.battlefleet_1900.state import (
    Division,
    Due,
    Marker,
    Message,
    SalvoLine,
    State,
    Waypoint,
    dc_dice,
    propulsion_hit,
)
from domain.procedure import Handler, fold
from events import battlefleet_1900 as ev
from events.core import (
    SubmissionSealed,
)
from events.vocabulary import Event

# ---- handlers -----------------------------------------------------------------------------------


def _sealed(s: State, e: SubmissionSealed) -> None:
    """A sealed record: a seat's submission for this step, or a record the rules seal (rules/sealing.py)."""
    sec = s.sealed[e.seat]
    if e.kind == "poses":
        _moves(s, msgspec.convert(e.content, ev.Moves))
    elif e.kind == "sighting":
        sight = msgspec.convert(e.content, ev.Sighting)
        sec.sighting = {p.ship: ev.Pose(p.x, p.y, p.h) for p in sight.ships}
    elif e.kind == "markers":
        sec.markers = [Marker(**msgspec.to_builtins(m)) for m in msgspec.convert(e.content, ev.Markers).markers]
    elif e.kind == "line":  # fog blur, 6.0.0 (BF-E6-1): the seat's own line changes, sealed to it
        changes = msgspec.convert(e.content, ev.LineChanges)
        for c in changes.converted:
            _converted(s, ev.OrderConverted(division=c.division, index=c.index))
            sec.converted.append((c.division, c.index))
        for d in changes.reversed:
            _reversed(s, ev.LineReversed(division=d))
            sec.reversed ^= {d}
    elif e.kind == "torpedo_runs":  # fog blur, 11.0.0 (BF-E11-4): the referee's record only, read by no rule
        pass
    elif e.kind == "message":  # the sender's copy, then the addressee's once delivered (BF-R12)
        n = msgspec.convert(e.content, ev.Note)
        sec.messages.append(Message(n.turn, n.from_seat, n.to_seat, n.text, n.signal, delivered=e.seat != n.from_seat))
    else:
        sec.pending[e.kind] = e.content or {}  # folded with its content (the engine's, never the public's)
        s.submitted[e.seat] = e.commitment


def _moves(s: State, m: ev.Moves) -> None:
    for sp in m.ships:
        sec = s.sealed[s.ships[sp.ship].seat]
        sec.poses[sp.ship] = ev.Pose(sp.x, sp.y, sp.h)
        sec.last_move[sp.ship] = 0 if sp.stopped else sp.moved_mm
        sec.waypoints[sp.ship] = [Waypoint(t.x, t.y, list(t.turns)) for t in sp.route]
    for b in m.bearings:
        s.sealed[s.divisions[b.division].seat].line_bearing[b.division] = b.bearing


def _battle_started(s: State, e: ev.BattleStarted) -> None:
    """1.4/5.0: the ship logs' pre-game entries, from each seat's sealed `start`."""
    for seat in s.seats:
        sec = s.sealed[seat]
        for entry in sec.pending.get("start", {}).get("ships", []):
            sec.depth[entry["ship"]] = entry.get("torpedo_depth", "normal")
            sec.manned[entry["ship"]] = entry.get("boat_guns_manned", True)


def _turn_started(s: State, e: ev.TurnStarted) -> None:
    s.turn = e.turn
    for ship in s.ships.values():
        ship.sink_minus = False
    for d in s.divisions.values():
        d.orders = []
        d.dropped_out = False
    s.sealed["referee"].markers = []
    for sec in s.sealed.values():
        sec.converted = []


def _step_started(s: State, e: ev.StepStarted) -> None:
    s.step = e.step
    s.owing = list(e.owing)
    s.submitted = {}
    for sec in s.sealed.values():
        sec.pending = {}


def _ordered(s: State, e: ev.DivisionOrdered) -> None:
    s.divisions[e.division].orders = list(e.orders)
    s.orders_log.append((s.turn, e.division, tuple(e.orders)))


def _lapsed(s: State, e: ev.OrdersLapsed) -> None:
    """BF-E12-1: no orders left (`orders_log` keeps them as given), nor a sealed conversion of one (BF-E6-1)."""
    d = s.divisions[e.division]
    d.orders = []
    sec = s.sealed[d.seat]
    sec.converted = [c for c in sec.converted if c[0] != e.division]


def _converted(s: State, e: ev.OrderConverted) -> None:
    arrow = s.divisions[e.division].orders[e.index]
    s.divisions[e.division].orders[e.index] = ev.Arrow(turn="together", to=arrow.to, arrow=arrow.arrow)


def _out_of_line(s: State, division: str, name: str) -> None:
    """`name` leaves `division`'s line. From 11.0.0 (BF-E11-3) a lead's leaving keeps the line's formation: its bearing
    turns with the new lead as it lay to the old one ("the ship behind it … close the existing divisional formation";
    BF-R4 reads the formation off the lead's heading and the bearing, and a lead that had turned in succession ahead
    of the rest left a bearing the column behind it did not yet follow)."""
    d = s.divisions[division]
    lead = d.ships[0] == name
    d.ships.remove(name)
    if lead and d.ships and s.edition.has("BF-E11-3"):
        sec = s.sealed[d.seat]
        off = (sec.poses[name].h - sec.line_bearing[division]) % 360
        sec.line_bearing[division] = (sec.poses[d.ships[0]].h - off) % 360


def _dropped(s: State, e: ev.ShipDroppedOut) -> None:
    ship = s.ships[e.ship]
    _out_of_line(s, e.division, e.ship)
    if s.divisions[e.division].flagship == e.ship:  # a flagship dropping out with no heir (BF-R35, 4.0.0)
        s.divisions[e.division].flagship = None
    s.divisions[e.new_division] = Division(e.new_division, ship.seat, [e.ship], e.ship, dropped_out=True)
    ship.division = e.new_division
    sec = s.sealed[ship.seat]
    sec.line_bearing[e.new_division] = sec.poses[e.ship].h
    sec.waypoints.pop(e.ship, None)


def _transferred(s: State, e: ev.CommandTransferred) -> None:
    s.divisions[e.division].flagship = e.to_ship
    if e.fleet:
        s.fleet_flagship[s.divisions[e.division].seat] = e.to_ship


def _leave_line(s: State, name: str) -> None:
    """Out of its division's line (rules/orders.leave passes a flagship's command)."""
    d = s.divisions[s.ships[name].division]
    if name in d.ships:
        _out_of_line(s, d.id, name)
    if d.flagship == name:
        d.flagship = None
    if s.fleet_flagship[d.seat] == name:
        s.fleet_flagship[d.seat] = None


def _delivered(s: State, e: ev.MessageDelivered) -> None:
    if not e.delayed:
        s.sealed[e.from_seat].messages[e.index].delivered = True


def _surrendered(s: State, e: ev.ShipSurrendered) -> None:
    s.ships[e.ship].lost = "surrendered"
    _leave_line(s, e.ship)


def _withdrew(s: State, e: ev.ShipWithdrew) -> None:
    s.ships[e.ship].lost = "withdrawn"
    _leave_line(s, e.ship)


def _reversed(s: State, e: ev.LineReversed) -> None:
    d = s.divisions[e.division]
    d.ships.reverse()
    sec = s.sealed[d.seat]
    sec.line_bearing[e.division] = (sec.line_bearing[e.division] + 180) % 360
    for name in d.ships:
        sec.waypoints.pop(name, None)


def _measured(s: State, e: ev.SalvoMeasured) -> None:
    s.log.append(SalvoLine(s.turn, e.firer, e.target, e.estimate, e.outcome, e.bracket, e.rounds, tuple(e.guns)))
    ship = s.ships[e.firer]
    for g in e.guns:
        if g.rounds:
            if g.mount in ship.mounts:
                ship.mounts[g.mount].fired = s.turn
            else:
                ship.fired[f"{g.mount}:{g.side}"] = s.turn
    if e.outcome == "hit":
        s.due.append(Due("salvo", e.firer, e.target, bracket=e.bracket, guns=list(e.guns)))


def _torpedoes(s: State, e: ev.TorpedoesResolved) -> None:
    ship = s.ships[e.ship]
    key = f"{e.mount}:{e.side}" if e.side else e.mount
    ship.tubes[key] -= e.count
    if e.hits:
        tube = next(t for t in s.cls(e.ship).torpedoes if t.id == e.mount)
        halved = e.depth == "shallow" and s.cls(e.target).flood_protection in ("good", "great")  # BF-R27
        s.due.append(Due("torpedo", e.ship, e.target, hits=e.hits, size=tube.size // 2 if halved else tube.size))


def _damaged(s: State, e: ev.DamageApplied) -> None:
    ship = s.ships[e.ship]
    k = e.kind
    if k == "propulsion":
        ship.destroyed, ship.damaged, ship.margin = propulsion_hit(ship.destroyed, ship.damaged, ship.margin, e.destroy)
    elif k in ("main", "secondary", "tertiary", "boat"):
        if e.location in ship.mounts:
            m = ship.mounts[e.location]
            m.destroyed = m.destroyed or e.destroy
            m.slashes += not e.destroy
        else:
            wid, i = e.location.split(":")
            guns = ship.guns[wid]
            guns[int(i)] = "destroyed" if e.destroy or guns[int(i)] == "destroyed" else "damaged"
    elif k == "dc":
        ship.dc_damaged = min(ship.dc_damaged + 1, dc_dice(s, e.ship))
    elif k == "steering":
        ship.tr += 1
    elif k == "rudder":
        ship.rudder = e.location
    elif k == "bridge":
        ship.bridge_x = ship.bridge_x or e.destroy
        ship.bridge += not e.destroy
    elif k == "ct":
        ship.ct += 1
    elif k == "searchlight":
        ship.searchlight += 1
    if e.source.startswith("salvo:"):
        _, firer, target = e.source.split(":")
        at = next(
            (i for i in range(len(s.log) - 1, -1, -1) if (s.log[i].firer, s.log[i].target) == (firer, target)), None
        )
        if at is not None:
            s.log[at] = replace(s.log[at], codes=(*s.log[at].codes, e.code))


def _flooded(s: State, e: ev.FloodingChanged) -> None:
    ship = s.ships[e.ship]
    ship.flooding[e.compartment] = e.level
    if e.how == "counterflood" and e.compartment not in ship.counterflooded:
        ship.counterflooded.append(e.compartment)
    if e.how == "hit" and e.level >= 3:  # BF-R21: a new heavy or severe hit undoes containment and counter-flooding
        for lst in (ship.contained, ship.counterflooded):
            if e.compartment in lst:
                lst.remove(e.compartment)
    if e.level == 4 and e.compartment in ship.contained:  # 6.3: "severe flooding events cannot be contained"
        ship.contained.remove(e.compartment)


def _fire(s: State, e: ev.FireChanged) -> None:
    s.ships[e.ship].fires_ext, s.ships[e.ship].fires_int = e.external, e.internal


def _dc(s: State, e: ev.DcResolved) -> None:
    if not e.success:
        return
    ship, f, t = s.ships[e.ship], e.function, e.target
    if f == "repair_propulsion":
        if ship.margin:
            ship.margin -= 1
        else:
            ship.damaged -= 1
    elif f == "repair_bridge":
        ship.bridge -= 1
    elif f in ("repair_main", "repair_secondary", "repair_tertiary"):
        if t in ship.mounts:
            ship.mounts[t].slashes -= 1
        else:
            wid, i = t.split(":")
            ship.guns[wid][int(i)] = "ok"
    elif f == "repair_steering":
        ship.tr -= 1
    elif f == "contain_flooding":
        ship.contained.append(t)
    elif f == "repair_dc":
        ship.dc_damaged -= 1
    elif f == "repair_rudder":
        ship.rudder = None
    elif f in ("secure_rudder", "free_rudder"):
        ship.secured = f == "secure_rudder"
    elif f == "sink_minus_1":
        ship.sink_minus = True
    elif f == "flood_magazine":
        ship.mounts[t].flooded = True
    elif f == "recover_ct":
        ship.ct = 0


def _listing(s: State, e: ev.ListingChanged) -> None:
    ship = s.ships[e.ship]
    ship.list, ship.trim, ship.list_boxes = e.list, e.trim, e.boxes


def _sinking(s: State, e: ev.ShipSinking) -> None:
    s.ships[e.ship].sinking = e.turns
    _leave_line(s, e.ship)


def _lost(s: State, e: ev.VesselLost) -> None:
    s.ships[e.ship].lost = e.how
    s.ships[e.ship].sinking = None
    _leave_line(s, e.ship)


def _turn_ended(s: State, e: ev.TurnEnded) -> None:
    s.due = []


def _ended(s: State, e: ev.BattleEnded) -> None:
    s.over = True
    s.result = e.result


HANDLERS: dict[type[Event], Handler[State]] = {
    SubmissionSealed: _sealed,
    ev.BattleStarted: _battle_started,
    ev.TurnStarted: _turn_started,
    ev.StepStarted: _step_started,
    ev.DivisionOrdered: _ordered,
    ev.OrderConverted: _converted,
    ev.OrdersLapsed: _lapsed,
    ev.ShipDroppedOut: _dropped,
    ev.CommandTransferred: _transferred,
    ev.BoatGunsManned: lambda s, e: s.sealed[s.ships[e.ship].seat].manned.__setitem__(e.ship, e.manned),
    ev.MessageDelivered: _delivered,
    ev.ShipSurrendered: _surrendered,
    ev.ShipsMoved: lambda s, e: _moves(s, e.moves),
    ev.LineReversed: _reversed,
    ev.ShipWithdrew: _withdrew,
    ev.GunsAbandoned: lambda s, e: setattr(s.ships[e.ship], "abandoned", True),
    ev.SalvoMeasured: _measured,
    ev.TorpedoesResolved: _torpedoes,
    ev.DamageApplied: _damaged,
    ev.FloodingChanged: _flooded,
    ev.FireChanged: _fire,
    ev.ScuttlingBegun: lambda s, e: setattr(s.ships[e.ship], "scuttling", True),
    ev.DcResolved: _dc,
    ev.ListingChanged: _listing,
    ev.ShipSinking: _sinking,
    ev.VesselLost: _lost,
    ev.TurnEnded: _turn_ended,
    ev.BattleEnded: _ended,
}
# Records that change no state: rolls and accounts. The core's events are the fold's: the reveal changes nothing (the
# state holds every content already), a GameEnded ends the battle where BattleEnded has not (the referee's end).
NO_STATE_CHANGE = (
    ev.CriticalRolled,
    ev.HitsRolled,
    ev.SinkRolled,
    ev.TableRevealed,
)


evolve = fold(HANDLERS, NO_STATE_CHANGE, __name__)
