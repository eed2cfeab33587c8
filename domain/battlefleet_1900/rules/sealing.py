"""BATTLEFLEET.md §4 Hidden information: sealed records, the fog's sightings, and the one redaction.

Every player-input step is a sealed, simultaneous submission (BF-R1). Under fog `blur` the exact poses are
sealed to their owners, the markers and true distances to the referee, and each seat sees the enemy through
offsets keyed by HMAC (not rolls). `redact` is the only place secrets leave the state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from math import isqrt
from typing import TYPE_CHECKING

import msgspec

from domain.battlefleet_1900.geometry import dist2
from domain.battlefleet_1900.state import Secrets, State, top_box
from domain.engine import REFEREE, Reader
from domain.procedure import working_copy
from events import battlefleet_1900 as ev
from events.core import SubmissionSealed, SubmissionsRevealed

if TYPE_CHECKING:
    from domain.procedure import Ctx


def seal(ctx: Ctx, seat: str, kind: str, content: msgspec.Struct | dict) -> None:
    """A sealed record for one seat (or the referee): only its commitment is public until revealed."""
    body = content if isinstance(content, dict) else msgspec.to_builtins(content)
    ctx.emit(SubmissionSealed(seat=seat, kind=kind, content=body))


def reveal(ctx: Ctx, kinds: list[str]) -> None:
    """Open the seals of these kinds ([] = every one still closed, at the end of the battle)."""
    ctx.emit(SubmissionsRevealed(kinds=kinds))


def lines_sealed(state: State) -> bool:
    """Lines reversed (BF-R57) and arrows converted (BF-R4) are public events, but under fog `blur` from 6.0.0
    (BF-E6-1) they are sealed to their seat (`seal_line_changes`). Both follow from the lead's exact heading against
    the line's bearing, which the sealed move set to the degree: public, their presence or absence told everyone
    whether a turn was, say, 178 or 180 degrees."""
    return state.fog == "blur" and state.edition.has("BF-E6-1")


def public_line(state: State, division: str) -> list[str]:
    """The division's line in its last public order: its own seat's sealed reversals (BF-E6-1) undone. The order
    every reader can know, its own seat as well as the others."""
    d = state.divisions[division]
    return d.ships[::-1] if division in state.sealed[d.seat].reversed else d.ships


def aspects_sealed(state: State) -> bool:
    """Under fog `blur` from 9.0.0 (BF-E9-1) a public roll's purpose names no aspect taken from sealed poses: the
    side of a ship a flooding hit falls on (BF-R32), a torpedo's beam or ends and half range (BF-R27). The dice,
    their target and what they did stay public; the words told everyone a secret geometry, down to one mm."""
    return state.fog == "blur" and state.edition.has("BF-E9-1")


def seal_line_changes(ctx: Ctx, reversed_: Sequence[str] = (), converted: Sequence[ev.Conversion] = ()) -> None:
    """BF-E6-1: each seat's own line changes, sealed to it after every Command reveal and Movement Phase (`line`, an
    empty one too, so that a record's presence says nothing)."""
    s = ctx.state
    for seat in s.seats:
        mine = ev.LineChanges(
            reversed=[d for d in reversed_ if s.divisions[d].seat == seat],
            converted=[c for c in converted if s.divisions[c.division].seat == seat],
        )
        seal(ctx, seat, "line", mine)


def blurred(pose: ev.Pose, key: bytes, reach: int, step: int) -> ev.Pose:
    """BATTLEFLEET.md §4: each axis offset by up to `reach` mm, the heading to the nearest `step` degrees."""
    span = 2 * reach + 1
    dx = int.from_bytes(key[0:8], "big") % span - reach
    dy = int.from_bytes(key[8:16], "big") % span - reach
    return ev.Pose(pose.x + dx, pose.y + dy, (pose.h + step // 2) // step * step % 360)


def fog_label(state: State, moment: str, seat: str, ship: str) -> str:
    """The HMAC label of one ship's offsets in one sighting (BF-R48). From 4.0.0 (BF-E4-20) it names the sighting,
    the turn and the moment (`start`: the scenario's public positions before turn 1; `moved`: after a Movement
    Phase), so no two sightings share an offset: 3.0.0 keyed it by the turn alone, and turn 1's two sightings drew
    the same one, which the public start positions gave away."""
    if state.edition.has("BF-E4-20"):
        return f"bf1900:sighting:{state.turn}:{moment}:{seat}:{ship}"
    return f"bf1900:fog:{state.turn}:{seat}:{ship}"


def sightings(ctx: Ctx, moment: str) -> None:
    """Fog `blur`: what each seat sees of the enemy at `moment` (`start` or `moved`), sealed to it (BF-R48: the
    offset scales with the distance bow to bow to the viewer's nearest ship on the table)."""
    s = ctx.state
    if s.fog != "blur":
        return
    fog = s.data.fog
    for seat in s.seats:
        mine = [s.pose(n) for n in s.own(seat) if s.ships[n].on_table]
        seen = []
        for name in s.own(s.enemy(seat)):
            if not s.ships[name].on_table:
                continue
            p = s.pose(name)
            near = isqrt(min((dist2((p.x, p.y), (q.x, q.y)) for q in mine), default=0))
            key = ctx.dice.keyed(fog_label(s, moment, seat, name))  # not a roll: HMAC(game seed, label)
            b = blurred(p, key, fog.blur_pct * near // 100, fog.heading_step)
            seen.append(ev.ShipPose(ship=name, x=b.x, y=b.y, h=b.h))
        seal(ctx, seat, "sighting", ev.Sighting(turn=s.turn, ships=seen))


def redact(state: State, reader: Reader) -> State:
    """The state as `reader` may see it: its own secrets, and of the others only what the fog makes public."""
    if state.over or reader == REFEREE:
        return state
    public = state.fog == "open"
    out = {}
    for seat, sec in state.sealed.items():
        if seat == reader:
            out[seat] = sec
        elif public:
            out[seat] = Secrets(
                poses=sec.poses,
                last_move=sec.last_move,
                line_bearing=sec.line_bearing,
                waypoints=sec.waypoints,
                markers=sec.markers,
                manned=sec.manned if state.edition.has("BF-E6-2") else {},
            )
        elif state.edition.has("BF-E6-2"):  # the boat gun crews are public (BF-R20)
            out[seat] = Secrets(manned=sec.manned)
        else:
            out[seat] = Secrets()
    return replace(state, sealed=out, divisions=_public_lines(state, reader))


def _public_lines(state: State, reader: Reader) -> dict:
    """The divisions as `reader` knows them: another seat's lines in their last public order and its orders as given
    (BF-E6-1: the reversals and conversions sealed to that seat are its own)."""
    out = state.divisions
    for seat, sec in state.sealed.items():
        if seat == reader or not (sec.reversed or sec.converted):
            continue
        out = dict(out) if out is state.divisions else out
        for name in sec.reversed:
            out[name] = replace(out[name], ships=public_line(state, name))
        for name, i in sec.converted:
            orders = list(out[name].orders)
            orders[i] = ev.Arrow(turn="succession", to=orders[i].to, arrow=orders[i].arrow)
            out[name] = replace(out[name], orders=orders)
    return out


def imagine(view: State, seat: str) -> State:
    """Issue 36: the battle as `seat` may picture it, to play its own odds on. `view` is redact(state, seat), so
    nothing here can read what the seat may not; what it may not read is re-drawn (`REDRAWN`): the other side's
    ships where this seat last saw them (its sighting under fog `blur`, the scenario's public start before any;
    under `open` where they are), their lines in their last public order, each one's last move its top speed box,
    its torpedoes at normal depth, no pivots, messages or referee's markers pending, and the other side's sealed
    command of this step not given yet (its bot gives it again in each continuation)."""
    s = working_copy(view)
    enemy = s.enemy(seat)
    theirs, mine = s.sealed[enemy], s.sealed[seat]
    ships = s.own(enemy)
    divisions = [d for d in s.divisions.values() if d.seat == enemy and d.ships]
    if s.fog == "open":
        poses, bearings = dict(theirs.poses), dict(theirs.line_bearing)
        last, waypoints = dict(theirs.last_move), {n: list(w) for n, w in theirs.waypoints.items()}
    else:
        start = {
            sh.name: ev.Pose(sh.bow[0], sh.bow[1], sh.heading)
            for side in s.data.scenarios[s.scenario].sides
            for d in side.divisions
            for sh in d.ships
        }
        poses = {n: mine.sighting.get(n, start.get(n)) for n in ships if n in mine.sighting or n in start}
        bearings = {d.id: poses[d.ships[0]].h for d in divisions if d.ships[0] in poses}
        last, waypoints = {n: top_box(s, n) for n in ships}, {}
    s.sealed[enemy] = Secrets(
        poses=poses,
        last_move=last,
        line_bearing=bearings,
        waypoints=waypoints,
        manned=dict(theirs.manned),
        sighting={n: s.pose(n) for n in s.own(seat) if s.ships[n].on_table},
    )
    s.sealed[REFEREE] = Secrets()
    s.submitted.pop(enemy, None)
    return s


def redraw(picture: State, seat: str, keyed: Callable[[str], bytes]) -> None:
    """Issue 36: in each continuation of `seat`'s own odds, the other side's ships it last saw under fog `blur` are
    drawn again within what that sighting's blur could hide (BF-R48: each axis up to the blur's reach, the reach
    measured from the sighting to this seat's nearest ship, which has not moved since; the heading within half a
    heading step), from the continuation's own `keyed` bytes: each continuation pictures them somewhere else, and
    none reads where they are. Ships seen only at the scenario's public start, and fog `open`, keep their poses."""
    if picture.fog != "blur":
        return
    fog = picture.data.fog
    mine = [picture.pose(n) for n in picture.own(seat) if picture.ships[n].on_table]
    enemy = picture.sealed[picture.enemy(seat)]
    for name, seen in picture.sealed[seat].sighting.items():
        if name not in enemy.poses:
            continue
        near = isqrt(min((dist2((seen.x, seen.y), (q.x, q.y)) for q in mine), default=0))
        reach, half = fog.blur_pct * near // 100, fog.heading_step // 2
        key = keyed(f"bf1900:whatif:{seat}:{name}")
        drawn = blurred(seen, key, reach, 1)
        turn = int.from_bytes(key[16:24], "big") % (2 * half + 1) - half
        enemy.poses[name] = ev.Pose(drawn.x, drawn.y, (seen.h + turn) % 360)
    for d in picture.divisions.values():  # a line's bearing is its lead's heading (`imagine`)
        if d.seat != seat and d.ships and d.ships[0] in enemy.poses and d.id in enemy.line_bearing:
            enemy.line_bearing[d.id] = enemy.poses[d.ships[0]].h


REDRAWN = (
    "what this seat may not read: the other side's sealed command of this step (its bot gives it again in each "
    "continuation); under fog blur its ships stand where this seat last saw them, in their lines' last public "
    "order, each last moved at its top speed box, and each continuation draws again where each one is within what "
    "that sighting's blur could hide; its torpedoes run at normal depth; the referee's markers are cleared; and the "
    "server seed: each continuation rolls dice of its own"
)
