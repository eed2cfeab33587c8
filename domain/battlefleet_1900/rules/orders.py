"""2.0-2.1 Command: divisional orders, dropping out, transfer of command, boat gun crews, fleet orders, surrender.

`check_orders` judges a seat's `give_orders` on its own state (BF-R3); `resolve` runs the Command Phase once
every seat is in: its public parts are announced by typed events, messages go sealed to their addressees
(BF-R12), and the submission itself stays sealed until the end (BF-R34).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from domain.battlefleet_1900 import geometry as geo
from domain.battlefleet_1900.commands import MAX_ORDERS, GiveOrders
from domain.battlefleet_1900.rules import movement, sealing
from domain.battlefleet_1900.state import State
from domain.engine import IllegalCommand
from events import battlefleet_1900 as ev

if TYPE_CHECKING:
    from domain.procedure import Ctx


def funnel(state: State, ship: str) -> geo.Pt:
    p = state.pose(ship)
    return geo.point(p.x, p.y, p.h, state.cls(ship).funnel_mm, 0)


def qualified(state: State, ship: str) -> bool:
    """BF-R10, R11: a ship that may take command: afloat, in play, not sinking, without a CT hit."""
    s = state.ships[ship]
    return s.in_play and s.sinking is None and s.ct == 0


def closest(
    state: State, division: str, to: str, leaving: tuple[str, ...] = (), line: list[str] | None = None
) -> str | None:
    """2.1 "the ship closest to the flagship", BF-R49: least |D|^2 between forward funnels, ties to the earlier in
    line; BF-R50: never a ship dropping out of the division in this Command Phase (`leaving`). Under fog `blur`
    from 6.0.0 (BF-E6-3) closest along the line (`line`: the division's line as it was with `to` in it): the fewest
    places from it, ties to the earlier in the scenario's order. The heir is public, and true distances are the
    fog's secret: measured between poses, the choice told everyone which ship truly lay nearer; places in the line
    are the same whichever way the line runs (BF-E6-1 keeps a reversal to its seat)."""
    line = line if line is not None else state.divisions[division].ships
    others = [n for n in state.divisions[division].ships if n != to and n not in leaving and qualified(state, n)]
    if state.fog == "blur" and state.edition.has("BF-E6-3") and to in line:
        order = list(state.ships)
        return min(others, key=lambda n: (abs(line.index(n) - line.index(to)), order.index(n)), default=None)
    f = funnel(state, to)
    return min(others, key=lambda n: geo.dist2(f, funnel(state, n)), default=None)


def flag_hit(state: State, ship: str) -> bool:
    """Glossary BR: a flagship with a bridge hit gives at most one arrow."""
    s = state.ships[ship]
    return s.bridge > 0 or s.bridge_x


# ---- validation ---------------------------------------------------------------------------------


def check_orders(state: State, seat: str, cmd: GiveOrders) -> None:
    seen = set()
    for do in cmd.divisions:
        d = state.divisions.get(do.division)
        if d is None or d.seat != seat or not d.ships:
            raise IllegalCommand(f"{do.division!r} is not one of your divisions; yours to order: {ordered(state, seat)} (BF-R2)")
        if do.division in seen:
            raise IllegalCommand(f"division {do.division!r} is listed twice; order each of your divisions at most once (BF-R2)")
        seen.add(do.division)
        transfer = next((t.to for t in cmd.transfer if t.division == d.id), None)
        # the ships dropping out leave before the orders are judged; those surrendering do not (BF-R63)
        check_arrows(state, d.id, do.orders, tuple(cmd.drop_out), transfer)
    for ship in cmd.drop_out:
        if (why := why_not_drop_out(state, seat, ship)) is not None:
            raise IllegalCommand(f"{ship} may not drop out: {why}")
    for t in cmd.transfer:
        if (why := why_not_transfer(state, seat, t.division, t.to)) is not None:
            raise IllegalCommand(f"no transfer of {t.division} to {t.to}: {why}")
        if t.to in cmd.drop_out:
            raise IllegalCommand(f"no transfer of {t.division} to {t.to}: it drops out of the division (BF-R50)")
    for field, names in (
        ("drop_out", cmd.drop_out),
        ("transfer", [t.division for t in cmd.transfer]),
        ("surrender", cmd.surrender),
    ):
        if len(set(names)) != len(names):
            raise IllegalCommand(f"{field}: name each ship or division at most once (BF-R50)")
    for b in cmd.boat_guns:
        if b.ship not in state.own(seat) or not state.ships[b.ship].in_play:
            raise IllegalCommand(f"boat guns: {b.ship!r} is not one of your ships in play (BF-R20)")
        if b.manned not in crews(state, b.ship):
            raise IllegalCommand(f"{b.ship} has no armoured deck: its boat guns are always manned (BF:6.2)")
    for msg in cmd.messages:
        if msg.to_seat not in state.seats or msg.to_seat == seat:
            raise IllegalCommand(f"a message goes to another seat: {[x for x in state.seats if x != seat]} (BF-R12)")
        if not msg.text and msg.signal is None:
            raise IllegalCommand("a message needs a text or a signal (BF-R12)")
    for ship in cmd.surrender:
        if ship not in state.own(seat) or not state.ships[ship].in_play:
            raise IllegalCommand(f"surrender: {ship!r} is not one of your ships in play (BF-R13)")


def check_arrows(
    state: State, division: str, orders: list[ev.Arrow], leaving: tuple[str, ...] = (), transfer: str | None = None
) -> None:
    """2.1: a stop alone; arrows complete, all in succession or all together (BF-R35); BR one arrow; CT none;
    each later arrow needs the lead's speed to cover the least arcs before it (BF-R5), the lead the division has once
    the ships `leaving` (dropping out in the same orders) have left it (BF-E10-1), its flagship the one it has then
    (BF-E11-2); a division every ship of which drops out takes none (BF-E11-1)."""
    if not orders:
        return
    if state.edition.has("BF-E11-1") and judged_lead(state, division, leaving)[0] is None:
        raise IllegalCommand(
            f"division {division}: every ship of it drops out, each a one-ship division of its own: no orders for it"
            " (BF:2.1, BF-E11-1)"
        )
    if not may_order(state, division, leaving, transfer):
        if flagship_after(state, division, leaving, transfer) is None and state.divisions[division].flagship in leaving:
            raise IllegalCommand(
                f"division {division}: its flagship drops out and no ship of it may take command: it goes straight"
                " (BF-R30, BF-R35, BF-E11-2)"
            )
        raise IllegalCommand(f"division {division}'s flagship has a conning tower hit or none leads: it goes straight (BF-R30)")
    if any(a.stop for a in orders):
        if len(orders) != 1 or orders[0].turn or orders[0].to or orders[0].arrow:
            raise IllegalCommand("the stop order stands alone: [{'stop': true}] (BF:2.1)")
        return
    for a in orders:
        if a.turn is None or a.to is None or a.arrow is None:
            raise IllegalCommand("an arrow gives turn (succession|together), to (port|starboard) and arrow (45|90) (BF:2.1)")
    if len({a.turn for a in orders}) > 1:
        raise IllegalCommand(f"division {division}: its arrows are all in succession or all together (BF-R35)")
    if len(orders) > most_arrows(state, division, leaving, transfer):
        flag = flagship_after(state, division, leaving, transfer)
        raise IllegalCommand(f"{flag} has a bridge hit: one arrow at most (glossary BR, BF-R30)")
    if (i := short_at(state, division, [a.arrow for a in orders if a.arrow is not None], leaving)) is not None:
        lead, top = judged_lead(state, division, leaving)
        gone = [n for n in leaving if n in state.divisions[division].ships and state.edition.has("BF-E10-1")]
        after = f" (once {' and '.join(gone)} {'drops' if len(gone) == 1 else 'drop'} out)" if gone else ""
        also = [*(["BF-E8-2"] if publicly_judged(state) else []), *(["BF-E10-1"] if gone else [])]
        also += ["BF-E10-2: some must be left over"] if state.edition.has("BF-E10-2") else []
        more = "".join(f", {x}" for x in also)
        if publicly_judged(state):
            raise IllegalCommand(
                f"division {division}: {lead}, its lead as last announced{after}, makes at most {top} mm, too little"
                f" for arrow {i + 1} (BF-R5{more})"
            )
        raise IllegalCommand(f"division {division}: {lead}{after} has {top} mm, too little for arrow {i + 1} (BF-R5{more})")


def flagship_after(
    state: State, division: str, leaving: tuple[str, ...] = (), transfer: str | None = None
) -> str | None:
    """The flagship a division's orders are given under: the one that wrote them, the flagship now; from 11.0.0
    (BF-E11-2), when it drops out in the same orders (`leaving`), the ship that takes its command at once (BF-R35):
    the one its voluntary transfer in the same orders names (`transfer`: the transfer comes first), else the heir
    `resolve` names, None when no ship qualifies. A flagship that stays and transfers judges them itself (BF-R62: it
    gave them before it passed the flag)."""
    flag = state.divisions[division].flagship
    if flag is None or flag not in leaving or not state.edition.has("BF-E11-2"):
        return flag
    return transfer if transfer is not None else closest(state, division, flag, leaving)


def may_order(state: State, division: str, leaving: tuple[str, ...] = (), transfer: str | None = None) -> bool:
    """Glossary CT (BF-R30), BF-R11: a division gives orders only when its flagship has no conning tower hit; BF-R35:
    a flagship dropping out with no heir leaves it none (`flagship_after`)."""
    flag = flagship_after(state, division, leaving, transfer)
    return flag is not None and state.ships[flag].command_ok


def most_arrows(state: State, division: str, leaving: tuple[str, ...] = (), transfer: str | None = None) -> int:
    """Glossary BR: a flagship with a bridge hit gives at most one arrow; else the command column's six boxes."""
    flag = flagship_after(state, division, leaving, transfer)
    return 1 if flag is not None and flag_hit(state, flag) else MAX_ORDERS


def judged_lead(state: State, division: str, leaving: tuple[str, ...] = ()) -> tuple[str | None, int]:
    """The lead a division's later arrows are judged on (BF-R5) and its top speed this turn; None when no ship stays.
    From 10.0.0 (BF-E10-1) the first ship not dropping out in the same orders (2.1: a ship announced as dropping out
    "becomes a one-ship division" then, and the ship behind it closes up and leads). Under fog `blur` from 8.0.0
    (BF-E8-2) the line is the one in its last public order and the top speed the top box its damage leaves (BF-R23),
    not the last move's one-box limit (BF-R6): the orders are public at the reveal, and judged on the sealed last
    move and a sealed reversal, the arrows a division was allowed told everyone both."""
    public = publicly_judged(state)
    line = judged_line(state, division)
    if state.edition.has("BF-E10-1"):
        line = [n for n in line if n not in leaving]
    if not line:
        return None, 0
    return line[0], movement.top_box(state, line[0]) if public else movement.limits(state, line[0])[1]


def judged_line(state: State, division: str) -> list[str]:
    """The line a division's lead is judged in (`judged_lead`): its last public order under fog blur (BF-E8-2)."""
    return sealing.public_line(state, division) if publicly_judged(state) else state.divisions[division].ships


def lead_changes(state: State, seat: str, division: str) -> list[tuple[str, ...]]:
    """The drop-outs that would change how `division`'s orders are judged: who leads it (BF-E10-1: none, then its
    lead, then its lead and the next, … as long as each may drop out, a drop-out behind the lead changing no lead, up
    to all of them: from 11.0.0 the division then takes no orders, BF-E11-1, and before, any) and, from 11.0.0, who
    commands it (its flagship dropping out, BF-E11-2)."""
    out: list[tuple[str, ...]] = [()]
    if state.edition.has("BF-E10-1"):
        line = judged_line(state, division)
        for k in range(len(line)):
            if why_not_drop_out(state, seat, line[k]) is not None:
                break
            out.append(tuple(line[: k + 1]))
    if state.edition.has("BF-E11-2"):  # the flagship dropping out, then its heir too, …
        for way in list(out):
            while (flag := flagship_after(state, division, way)) is not None and flag not in way:
                if why_not_drop_out(state, seat, flag) is not None:
                    break
                way = (*way, flag)
                if set(way) not in [set(w) for w in out]:
                    out.append(way)
    return out


def short_at(state: State, division: str, arrows: list[int], leaving: tuple[str, ...] = ()) -> int | None:
    """BF-R5 "sufficient movement allowance": the index of the first arrow (45 or 90, in order) the lead's top speed
    does not reach after the least arcs of the arrows before it, or None when it reaches every one (`judged_lead`).
    2.1: "If, once it has fulfilled the minimum requirement of its order, it has remaining movement, it may …
    execute further multiple orders": from 10.0.0 (BF-E10-2) some movement must be left over; 9.0.0 and earlier
    accepted an arrow with exactly none left."""
    lead, top = judged_lead(state, division, leaving)
    if lead is None:
        return None  # every ship leaves the division: the orders move nobody
    room = top - 1 if state.edition.has("BF-E10-2") else top
    r = movement.radius(state, lead)
    need = 0
    for i in range(1, len(arrows)):
        need += geo.arc_cost(r, movement.BANDS[arrows[i - 1]][0])
        if need > room:
            return i
    return None


def arrow_runs(
    state: State, division: str, leaving: tuple[str, ...] = (), transfer: str | None = None
) -> list[tuple[int, ...]]:
    """Every run of arrows (45 or 90, in order) but the last that the division may give before one more arrow, of
    either kind, with the ships `leaving` dropping out and its transfer naming `transfer`: the runs `check_arrows`
    accepts (BF-R5, glossary BR), shortest first."""
    most = most_arrows(state, division, leaving, transfer)
    runs: list[tuple[int, ...]] = [()]
    out: list[tuple[int, ...]] = []
    while runs:
        run = runs.pop(0)
        out.append(run)
        if len(run) + 2 <= most:  # the last arrow's own arc is never counted: any kind stands for it
            runs += [run + (k,) for k in movement.BANDS if short_at(state, division, [*run, k, 45], leaving) is None]
    return out


def crews(state: State, ship: str) -> list[bool]:
    """5.0, 6.2, BF-R20: whether a ship's boat guns may be manned (always) or stand down (on an armoured deck)."""
    return [True, False] if state.cls(ship).armoured_deck else [True]


def ordered(state: State, seat: str) -> list[str]:
    return [d.id for d in state.divisions.values() if d.seat == seat and d.ships]


def why_not_drop_out(state: State, seat: str, ship: str) -> str | None:
    """2.1, BF-R9, R54: at least one more propulsion box hit than the ship next aft (the last ship: at least one);
    under fog `blur` from 8.0.0 next aft in the line's last public order (BF-E8-1)."""
    s = state.ships.get(ship)
    if s is None or s.seat != seat or not s.in_play or s.sinking is not None:
        return "it is not one of your ships in a division (BF-R9)"
    d = state.divisions[s.division]
    if len(d.ships) < 2 or ship not in d.ships:
        return "it is alone in its division (BF-R9)"
    if ship == d.flagship and not state.edition.has("BF-E4-4"):  # 2.1 sets one condition only (BF-R35, 4.0.0)
        return "it is the division's flagship: transfer the flag first (BF-R35)"
    line = sealing.public_line(state, d.id) if publicly_judged(state) else d.ships  # BF-E8-1
    i = line.index(ship)
    aft = state.ships[line[i + 1]] if i + 1 < len(line) else None
    hits = s.destroyed + s.damaged
    if hits < (aft.destroyed + aft.damaged if aft else 0) + 1:
        if publicly_judged(state):
            than = f"{line[i + 1]}, next aft in the line as last announced" if aft else "none (last in the line as last announced)"
            return f"it needs at least one more propulsion box hit than {than} (BF:2.1, BF-R54, BF-E8-1)"
        return "it needs at least one more propulsion box hit than the ship next aft (BF:2.1, BF-R54)"
    return None


def publicly_judged(state: State) -> bool:
    """BF-E8-1, BF-E8-2: under fog `blur` from 8.0.0 a drop-out and a division's multiple arrows are judged on what
    every reader knows (the line in its last public order, the damage), not on a sealed reversal (BF-E6-1) or the
    sealed last move: both are public at the Command reveal, and judged on secrets their acceptance told them."""
    return state.fog == "blur" and state.edition.has("BF-E8-1")


def why_not_transfer(state: State, seat: str, division: str, to: str) -> str | None:
    """2.1 voluntary, BF-R10: no CT hit; both at most 1/6 of the original speed; within a quarter bracket."""
    d = state.divisions.get(division)
    if d is None or d.seat != seat or d.flagship is None:
        return "not one of your divisions with a flagship (BF-R10)"
    flag = d.flagship
    if state.ships[flag].ct:
        return f"{flag} has a conning tower hit (BF:2.1)"
    if to == flag or to not in d.ships or not qualified(state, to):
        return f"{to} is not another ship of {division} able to command (BF-R10)"
    last = state.sealed[seat].last_move
    for n in (flag, to):
        if 6 * last[n] > state.cls(n).speed_boxes[0]:
            return f"{n} moved {last[n]} mm, more than 1/6 of its original speed (BF-R10)"
    if not geo.within_quarter_bracket(funnel(state, flag), funnel(state, to), state.data.scale.bracket_mm):
        return "they are more than a quarter bracket apart (BF-R10, BF-R49)"
    return None


# ---- the phase ----------------------------------------------------------------------------------


def resolve(ctx: Ctx) -> None:
    """BF-R1: orders, conversions, voluntary transfers, involuntary rolls, drop-outs, crews, messages, surrenders;
    from 12.0.0 then the orders of a division left with no flagship to command lapse (BF-E12-1)."""
    s = ctx.state
    cmds = {seat: msgspec.convert(s.sealed[seat].pending.get("give_orders", {}), GiveOrders) for seat in s.seats}
    converted: list[ev.Conversion] = []
    for seat, cmd in cmds.items():
        given = {do.division: do.orders for do in cmd.divisions}
        for d in [x for x in s.divisions.values() if x.seat == seat and x.ships]:
            ctx.emit(ev.DivisionOrdered(division=d.id, orders=given.get(d.id, [])))
            if movement.formation(s, d.id) != "line_ahead":
                for i, a in enumerate(d.orders):
                    if a.turn != "succession":  # 2.1: a succession arrow is treated as a simultaneous turn (BF-R4)
                        continue
                    if sealing.lines_sealed(s):
                        converted.append(ev.Conversion(division=d.id, index=i))
                    else:
                        ctx.emit(ev.OrderConverted(division=d.id, index=i))
        for t in cmd.transfer:
            _transfer(ctx, t.division, t.to, "voluntary")
    if sealing.lines_sealed(s):
        sealing.seal_line_changes(ctx, converted=converted)
    leaving = tuple(ship for cmd in cmds.values() for ship in cmd.drop_out)
    for seat in s.seats:
        for d in [x for x in s.divisions.values() if x.seat == seat and x.ships]:
            involuntary(ctx, d.id, leaving)
    # BF-E11-2: the heir is named on the line as the orders found it, whatever the order of the drop-outs listed
    lines = {d.id: list(d.ships) for d in s.divisions.values()} if s.edition.has("BF-E11-2") else {}
    for seat, cmd in cmds.items():
        for ship in cmd.drop_out:
            old = s.ships[ship].division
            if s.divisions[old].flagship == ship:  # BF-R35 (4.0.0): the division it leaves keeps a leader
                heir = closest(s, old, ship, leaving, lines.get(old))
                if heir is not None:
                    ctx.emit(
                        ev.CommandTransferred(division=old, from_ship=ship, to_ship=heir, how="dropped_out", fleet=False)
                    )
            ctx.emit(ev.ShipDroppedOut(ship=ship, division=old, new_division=f"{old}/{ship}"))
        for b in cmd.boat_guns:
            ctx.emit(ev.BoatGunsManned(ship=b.ship, manned=b.manned))
        for msg in cmd.messages:
            sealing.seal(
                ctx,
                seat,
                "message",
                ev.Note(turn=s.turn, from_seat=seat, to_seat=msg.to_seat, text=msg.text, signal=msg.signal),
            )
    deliver(ctx)
    for seat, cmd in cmds.items():
        for ship in cmd.surrender:
            leave(ctx, ship, ev.ShipSurrendered(ship=ship))  # BF-R13: public at once
    if s.edition.has("BF-E12-1"):  # BF-R30: a division the phase left with no flagship to command goes straight,
        # a stop order lapsing too, as check_arrows refuses one to a division with a CT flagship or none
        for d in s.divisions.values():
            if d.ships and d.orders and not (d.flagship and s.ships[d.flagship].command_ok):
                ctx.emit(ev.OrdersLapsed(division=d.id))


def _transfer(ctx: Ctx, division: str, to: str, how: str) -> None:
    s = ctx.state
    d = s.divisions[division]
    fleet = s.fleet_flagship[d.seat] == d.flagship
    ctx.emit(ev.CommandTransferred(division=division, from_ship=d.flagship, to_ship=to, how=how, fleet=fleet))


def involuntary(ctx: Ctx, division: str, leaving: tuple[str, ...] = ()) -> None:
    """2.1, BF-R11: a flagship with a steering or CT hit rolls 1D6 + (fires + uneven) // 2 >= 5 each command
    phase; a bonus of 4 or more is automatic (no die). The closest qualified ship not dropping out takes command. A
    flagship dropping out in the same orders rolls first (BF-R64: the text's "must roll", BF-R1's order)."""
    s = ctx.state
    d = s.divisions[division]
    flag = d.flagship
    if flag is None or not (s.ships[flag].tr or s.ships[flag].ct):
        return
    heir = closest(s, division, flag, leaving)
    if heir is None:
        return  # BF-R11, R44: nobody to take over, no die
    f = s.ships[flag]
    uneven = abs(f.flooding["PA"] - f.flooding["SA"]) + abs(f.flooding["F"] - f.flooding["A"])
    bonus = (f.fires_ext + f.fires_int + uneven) // 2
    if bonus < 4 and not ctx.passes(
        f"involuntary transfer of {division} from {flag}",
        "BF:2.1 BF-R11",
        5,
        [("half a point per fire and per point of uneven flooding", bonus)],
    ):
        return
    _transfer(ctx, division, heir, "involuntary")


def leave(ctx: Ctx, ship: str, event) -> None:
    """A ship leaves its line (sinking, lost, surrendered, withdrawn): a flagship's command passes at once (2.1)."""
    s = ctx.state
    d = s.divisions[s.ships[ship].division]
    flag, fleet = d.flagship == ship, s.fleet_flagship[d.seat] == ship
    line = list(d.ships)  # as it was with the ship in it (BF-E6-3)
    ctx.emit(event)
    if flag or fleet:
        pass_command(ctx, d.id, ship, flag, fleet, line)


def pass_command(ctx: Ctx, division: str, was: str, flag: bool, fleet: bool, line: list[str]) -> None:
    """2.1: "If a flagship blows up, or otherwise sinks, involuntary transfer is immediate and automatic": to the
    closest qualified ship of its division, the fleet's command with it, or to the first division still led
    (BF-R36)."""
    s = ctx.state
    d = s.divisions[division]
    if flag:
        heir = closest(s, division, was, line=line)
        if heir is not None:
            ctx.emit(
                ev.CommandTransferred(division=division, from_ship=was, to_ship=heir, how="flagship_lost", fleet=fleet)
            )
            return
    if fleet:
        other = next((x for x in s.divisions.values() if x.seat == d.seat and x.flagship and x.ships), None)
        if other is not None:
            ctx.emit(
                ev.CommandTransferred(
                    division=other.id, from_ship=was, to_ship=other.flagship, how="flagship_lost", fleet=True
                )
            )


def deliver(ctx: Ctx) -> None:
    """BF-R12: messages reach their addressee at the Command reveal; with `read_message_rolls` the receiving fleet
    flagship must read them (6.3: flag 3, with a bridge hit the other row 5, never with a CT hit)."""
    s = ctx.state
    for seat in s.seats:
        for i, m in enumerate(s.sealed[seat].messages):
            if m.from_seat != seat or m.delivered:
                continue
            flag = s.fleet_flagship[m.to_seat]
            if s.read_message_rolls:
                dc = s.data.tables.dc
                if flag is None or s.ships[flag].ct:
                    ctx.emit(ev.MessageDelivered(from_seat=seat, to_seat=m.to_seat, index=i, delayed=True))
                    continue
                need = dc["read_message_other"] if flag_hit(s, flag) else dc["read_message_flag"]
                if not ctx.passes(f"{flag} reads a message from {seat}", "BF:6.3 BF-R12", need):
                    ctx.emit(ev.MessageDelivered(from_seat=seat, to_seat=m.to_seat, index=i, delayed=True))
                    continue
            sealing.seal(
                ctx,
                m.to_seat,
                "message",
                ev.Note(turn=m.turn, from_seat=seat, to_seat=m.to_seat, text=m.text, signal=m.signal),
            )
            ctx.emit(ev.MessageDelivered(from_seat=seat, to_seat=m.to_seat, index=i))
