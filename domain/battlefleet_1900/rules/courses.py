"""A ship's course through one Movement Phase (3.0, 2.1, BF-R5, R8, R29): straight runs and turns on its circle,
each from the pose the last one stored, the succession pivots still ahead of it, and stopping short of a base it
was clear of (checked per whole mm and degree): in 3.0.0 a sinking base, met by each course alone; from 4.0.0 any
base, every course run in lockstep with the others (`first_touch`, BF-R29)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from math import isqrt

from domain.battlefleet_1900 import geometry as geo
from domain.battlefleet_1900.state import State, Waypoint
from events.battlefleet_1900 import Pose


@dataclass
class Track:
    """A ship's track through the phase (4.0.0): after each whole mm or degree, from the start, how far it has moved
    and its bow and heading, as one list of each (sample i is index i of all four: no object per sample)."""

    moved: list[int]
    x: list[int]
    y: list[int]
    h: list[int]

    def __len__(self) -> int:
        return len(self.moved)

    def add(self, moved: int, p: Pose) -> None:
        self.moved.append(moved)
        self.x.append(p.x)
        self.y.append(p.y)
        self.h.append(p.h)


@dataclass
class Path:
    pose: Pose
    moved: int = 0
    stopped_by: str | None = None
    route: list[Waypoint] = field(default_factory=list)
    pivot: Pose | None = None  # where its own turns began (a succession lead's pivot, BF-R8)
    executed: list[int] = field(default_factory=list)  # its own turns as made
    budget: int = 0  # the distance it set out to move (its speed through the phase, for the lockstep)
    track: Track | None = None  # 4.0.0: where it was after each whole mm or degree, from the start


class Mover:
    """One ship's path this phase: straight runs and turns, each from the pose the last stored, stopping short of
    a sinking base it was clear of (3.0.0, BF-R29: checked per whole mm and degree). From 4.0.0 it meets no base
    itself: it records its track, and stops after `cap` = (whole steps, the ship) that the lockstep allows it."""

    def __init__(
        self,
        state: State,
        ship: str,
        budget: int,
        radius: int,
        obstacles: bool = True,
        track: bool = False,
        cap: tuple[int, str] | None = None,
    ):
        self.state, self.ship = state, ship
        self.p = Path(state.pose(ship), budget=budget)
        self.rem = budget
        self.r = radius
        k = state.cls(ship)
        self.size = (k.base_mm[0], k.base_mm[1])
        self.obstacles = self._obstacles(budget) if obstacles else []
        self.cap, self.steps = cap, 0
        if track:
            self.p.track = Track([0], [self.p.pose.x], [self.p.pose.y], [self.p.pose.h])
        self.careful = bool(self.obstacles) or track or cap is not None  # step by step, not in one stride

    def _obstacles(self, budget: int) -> list[tuple[str, tuple]]:
        s, me = self.state, self.p.pose
        out = []
        for name, other in s.ships.items():
            if other.sinking is None or not other.on_table or name == self.ship:
                continue
            q = s.pose(name)
            reach = budget + 2 * max(self.size[0], s.cls(name).base_mm[0]) + 10
            if geo.dist2((me.x, me.y), (q.x, q.y)) <= reach * reach:
                poly = geo.base(q.x, q.y, q.h, *s.cls(name).base_mm)
                if not geo.polygons_touch(self._base(me), poly):
                    out.append((name, poly))
        return out

    def _base(self, p: Pose) -> tuple:
        return geo.base(p.x, p.y, p.h, *self.size)

    def _blocked(self, p: Pose) -> str | None:
        return next((n for n, poly in self.obstacles if geo.polygons_touch(self._base(p), poly)), None)

    def _step(self, j: int, p: Pose, moved: int) -> bool:
        """Whether this run's j-th whole step (to pose p, `moved` in all) may be taken; if not, what stops it."""
        if self.cap is not None and self.steps + j > self.cap[0]:
            self.p.stopped_by = self.cap[1]
            return False
        if (hit := self._blocked(p)) is not None:
            self.p.stopped_by = hit
            return False
        if self.p.track is not None:
            self.p.track.add(moved, p)
        return True

    def _allowed(self, n: int) -> int:
        """With no base to meet (the lockstep's own runs), the whole steps of n the cap lets this run take: what
        `_step` answers step by step, at once."""
        if self.cap is not None and self.steps + n > self.cap[0]:
            self.p.stopped_by = self.cap[1]
            return max(0, self.cap[0] - self.steps)
        return n

    @property
    def done(self) -> bool:
        return self.rem <= 0 or self.p.stopped_by is not None

    def straight(self, d: int) -> None:
        d = min(d, self.rem)
        start = self.p.pose
        if self.careful and not self.obstacles:
            d = self._allowed(d)
            if (t := self.p.track) is not None:
                xs, ys = geo.straight_steps(start.x, start.y, start.h, d)
                t.moved += range(self.p.moved + 1, self.p.moved + d + 1)
                t.x += xs
                t.y += ys
                t.h += [start.h] * d
        elif self.careful:
            for j in range(1, d + 1):
                pt = geo.straight(start.x, start.y, start.h, j)
                if not self._step(j, Pose(pt.x, pt.y, start.h), self.p.moved + j):
                    d = j - 1
                    break
        pt = geo.straight(start.x, start.y, start.h, d)
        self.p.pose, self.p.moved, self.rem = Pose(pt.x, pt.y, start.h), self.p.moved + d, self.rem - d
        self.steps += d

    def turn(self, theta: int) -> int:
        """Turn theta degrees (+ starboard) as far as the movement left allows; the degrees made."""
        if self.done or theta == 0:
            return 0
        sign = 1 if theta > 0 else -1
        made = min(abs(theta), geo.turn_within(self.r, self.rem))
        start = self.p.pose
        if self.careful and not self.obstacles:
            made = self._allowed(made)
            if (t := self.p.track) is not None:
                moved, rem = self.p.moved, self.rem
                xs, ys, hs = geo.turn_steps(start.x, start.y, start.h, self.r, sign, made)
                t.moved += [moved + (c if c < rem else rem) for c in geo.arc_costs(self.r, made)]
                t.x += xs
                t.y += ys
                t.h += hs
        elif self.careful:
            for j in range(1, made + 1):
                pt, h = geo.turn(start.x, start.y, start.h, self.r, sign * j)
                if not self._step(j, Pose(pt.x, pt.y, h), self.p.moved + min(geo.arc_cost(self.r, j), self.rem)):
                    made = j - 1
                    break
        pt, h = geo.turn(start.x, start.y, start.h, self.r, sign * made)
        cost = min(geo.arc_cost(self.r, made), self.rem)
        self.p.pose, self.p.moved, self.rem = Pose(pt.x, pt.y, h), self.p.moved + cost, self.rem - cost
        self.steps += made
        self.p.executed.append(sign * made)
        return made

    def turns(self, thetas: list[int]) -> list[int]:
        """BF-R5: arrows in order; one cut short is done as far as possible and the rest lapse."""
        made = []
        for t in thetas:
            got = self.turn(t)
            made.append((1 if t > 0 else -1) * got)
            if got < abs(t):
                break
        return made

    def to_pivot(self, w: Waypoint) -> list[int] | None:
        """BF-R8, R40: run on to the pivot, then make its turns: the turns still to make there (finished next move), or
        None if not reached."""
        p = self.p.pose
        fx, fy = geo.forward(p.h)
        ahead = geo.rnd((w.x - p.x) * fx + (w.y - p.y) * fy)
        if ahead > 0:
            if ahead > self.rem:
                self.straight(self.rem)
                return None
            self.straight(ahead)
            if self.p.stopped_by:
                return None
            self.p.pose = Pose(w.x, w.y, p.h)  # on the lead's track: at the pivot itself
            if (t := self.p.track) is not None:
                t.moved[-1], t.x[-1], t.y[-1], t.h[-1] = self.p.moved, w.x, w.y, p.h
        made = self.turns(w.turns)
        partial = [t - m for t, m in zip(w.turns, made) if t != m]
        return partial + w.turns[len(made) :]


def least(state: State, ship: str, budget: int, radius: int, own_turns: list[int], route: list[Waypoint]) -> int:
    """BF-R5 (4.0.0): the movement a ship needs to finish its own turns this move (after the pivots still ahead of
    it), on its own pose and circle only (BF-R3: no other base is read); `budget` when that cannot finish them (2.1:
    "it will complete as much of the turn as possible", using all available movement)."""
    if not any(own_turns):
        return 0
    m = Mover(state, ship, budget, radius, obstacles=False)
    left = _pivots(m, route)
    if left or m.turns(own_turns) != own_turns:
        return budget
    return m.p.moved


def run_through(state: State, ship: str, budget: int, radius: int, route: list[Waypoint]) -> int:
    """The movement `least` spends before the ship's own turns: the run through the pivots still ahead; `budget` when
    it does not reach them all (its turns can then not be finished: `least` is the budget)."""
    m = Mover(state, ship, budget, radius, obstacles=False)
    return budget if _pivots(m, route) else m.p.moved


def least_through(state: State, ship: str, budget: int, radius: int, route: list[Waypoint]) -> int:
    """BF-R5 (4.0.0, BF-E4-8): the movement a follower in succession needs to finish the turns of every pivot ahead
    that it reaches with all its movement; `budget` when it reaches one whose turns it cannot finish (2.1: "it will
    complete as much of the turn as possible"); 0 when it reaches none."""
    m = Mover(state, ship, budget, radius, obstacles=False)
    need = 0
    for w in route:
        rest = m.to_pivot(w)
        if rest is None:  # not reached with all its movement: no turn it must make this move
            break
        if rest:
            return budget
        need = m.p.moved
    return need


def _pivots(m: Mover, route: list[Waypoint]) -> list[Waypoint]:
    """Run on through the pivots still ahead (BF-R8, R40); the ones left for the next move."""
    left = list(route)
    while left and not m.done:
        rest = m.to_pivot(left[0])
        if rest is None:
            break
        left.pop(0)
        if rest:
            left.insert(0, Waypoint(m.p.pose.x, m.p.pose.y, rest))
            break
    return left


def run(
    state: State,
    ship: str,
    distance: int,
    radius: int,
    own_turns: list[int],
    route: list[Waypoint],
    lockstep: bool = False,
    cap: tuple[int, str] | None = None,
) -> Path:
    """A ship's whole move: the pivots still ahead of it (succession), then its own turns, then straight on. With
    `lockstep` (4.0.0) it records its track and meets other bases only through `cap` (`first_touch`)."""
    m = Mover(state, ship, distance, radius, obstacles=not lockstep, track=lockstep, cap=cap)
    left = _pivots(m, route)
    m.p.route = left
    m.p.executed = []  # its own turns only: the pivots' turns were the lead's
    if not left:
        m.p.pivot = m.p.pose
        m.turns(own_turns)
    m.straight(m.rem)
    return m.p


def first_touch(
    state: State, paths: dict[str, Path], kept: dict[str, tuple[Track, int, list[int], list[int]]] | None = None
) -> dict[str, tuple[int, str]]:
    """BF-R29 (4.0.0, BF-E4-6): 6.0 "a vessel will remain a navigational and line-of-sight obstacle to other ships"
    until it goes under, so every base on the table is one. The moves are simultaneous: each ship runs its track at
    its own even speed through the phase (tick k of K, K the longest move in mm: a ship that set out to move D mm has
    moved k*D//K), and at the first tick where two bases that were clear of each other as the phase began touch,
    the ship whose own step closes the gap stops at its pose of the tick before (both, when each one's step alone
    would touch, or neither alone would). A ship at rest (not moving, sinking, dead in the water) never gives way.
    Returns, for the ships that stop, (the whole steps they may take, the ship they would touch); the caller moves
    everything again with those caps and asks once more, until nothing touches, handing over `kept` each time: each
    track's ticks and walk, which a later round reads again for a track it did not move anew."""
    names = [n for n, sh in state.ships.items() if sh.on_table]
    track = {n: (paths[n].track if n in paths else None) or _at_rest(state.pose(n)) for n in names}
    speed = {n: paths[n].budget if n in paths and paths[n].track and len(paths[n].track) > 1 else 0 for n in names}
    size = {n: tuple(state.cls(n).base_mm) for n in names}
    K = max(speed.values(), default=0)
    if K == 0:
        return {}

    corners: dict[tuple[str, int], tuple] = {}

    def base(n: str, i: int) -> tuple:  # each track sample's corners once, however many ticks and pairs ask
        got = corners.get((n, i))
        if got is None:
            t = track[n]
            got = corners[n, i] = geo.base(t.x[i], t.y[i], t.h[i], *size[n])
        return got

    # two bases whose centres are further apart than their rims cannot touch: a test far cheaper than theirs
    rim = {n: geo.rim(*size[n]) for n in names}
    centres: dict[tuple[str, int], geo.Pt] = {}

    def centre(n: str, i: int) -> geo.Pt:
        got = centres.get((n, i))
        if got is None:
            t = track[n]
            got = centres[n, i] = geo.centre(t.x[i], t.y[i], t.h[i], size[n][0])
        return got

    def touch(a: str, i: int, b: str, j: int, reach: int) -> bool:
        ta, tb = track[a], track[b]
        dx, dy = ta.x[i] - tb.x[j], ta.y[i] - tb.y[j]
        if dx * dx + dy * dy > reach * reach:  # bows too far apart: the cheapest test first
            return False
        if geo.dist2(centre(a, i), centre(b, j)) > (rim[a] + rim[b]) ** 2:
            return False
        return geo.polygons_touch(base(a, i), base(b, j))

    pairs = []
    for x, a in enumerate(names):
        for b in names[x + 1 :]:
            if not (speed[a] or speed[b]):
                continue
            reach = sum(size[a]) + sum(size[b])  # a bow-to-bow distance beyond which two bases cannot touch
            far = speed[a] + speed[b] + reach
            ta, tb = track[a], track[b]
            if geo.dist2((ta.x[0], ta.y[0]), (tb.x[0], tb.y[0])) > far * far or touch(a, 0, b, 0, reach):
                continue  # out of each other's reach this phase, or touching as it began (only a warning)
            pairs.append((a, b, reach))
    moving = {n for a, b, _ in pairs for n in (a, b) if speed[n]}
    kept = {} if kept is None else kept
    for n in moving:
        was = kept.get(n)
        if was is None or was[0] is not track[n] or was[1] != K:
            kept[n] = (track[n], K, _ticks(track[n].moved, speed[n], K), _walked(track[n]))
    at = {n: kept[n][2] if n in moving else [0] * (K + 1) for n in names}  # the sample each tick has reached
    walked = {n: kept[n][3] if n in moving else [0] for n in names}
    # each pair's first touching tick, sooner than any found so far (up to the soonest tick itself: two pairs may
    # touch at once), tried only where the bows come within reach
    first: dict[tuple[str, str], int] = {}
    soonest = K
    for a, b, reach in pairs:
        for k in _near_ticks(track[a], at[a], walked[a], track[b], at[b], walked[b], reach, soonest):
            if touch(a, at[a][k], b, at[b][k], reach):
                first[a, b] = soonest = k
                break
    if not first:
        return {}
    k = soonest  # the first tick at which two bases touch: who stops, in the order of the pairs
    stop: dict[str, tuple[int, str]] = {}
    for a, b, reach in pairs:
        if first.get((a, b)) != k:
            continue
        ia, ib, ba, bb = at[a][k], at[b][k], at[a][k - 1], at[b][k - 1]
        by_a = ia != ba and touch(a, ia, b, bb, reach)
        by_b = ib != bb and touch(a, ba, b, ib, reach)
        for n, other, closes in ((a, b, by_a or not by_b), (b, a, by_b or not by_a)):
            if closes and speed[n] and n not in stop:
                stop[n] = (at[n][k - 1], other)
    return stop


def _at_rest(p: Pose) -> Track:
    return Track([0], [p.x], [p.y], [p.h])


def _ticks(moved: list[int], speed: int, K: int) -> list[int]:
    """The index of the track sample a ship moving `speed` mm evenly over K ticks has reached at each tick 0..K (at
    tick k it has moved k*speed//K, so a sample `moved` mm on is reached from tick ceil(moved*K/speed) on)."""
    out, last = [0], 0
    for i in range(1, len(moved)):
        k = -(-moved[i] * K // speed) or 1  # tick 0 is the start, whatever follows it
        if k > K:
            break
        out += [last] * (k - len(out))
        last = i
    out += [last] * (K + 1 - len(out))
    return out


def _walked(t: Track) -> list[int]:
    """For each track sample, a bound on how far its bow has come along the track (each step's |dx| + |dy|, summed):
    two samples' bows lie no further apart than the difference of theirs."""
    out, total = [0], 0
    xs, ys = t.x, t.y
    for x0, x1, y0, y1 in zip(xs, xs[1:], ys, ys[1:]):
        total += abs(x1 - x0) + abs(y1 - y0)
        out.append(total)
    return out


def _near_ticks(a: Track, ta: list[int], wa: list[int], b: Track, tb: list[int], wb: list[int], reach: int, last: int) -> Iterator[int]:
    """The ticks 1..last, in order, where one of two ships (tracks a and b, their samples at each tick ta and tb and
    `_walked` wa and wb) reaches a new sample with the bows within `reach` of each other: where alone they may touch.
    Bows d > reach apart close by at most what the two walk between them, so the ticks before they have walked
    d - reach more are passed over at once (the first one found by halving)."""
    ax, ay, bx, by = a.x, a.y, b.x, b.y
    k = 1
    while k <= last:
        i, j = ta[k], tb[k]
        if i == ta[k - 1] and j == tb[k - 1]:
            k += 1
            continue
        dx, dy = ax[i] - bx[j], ay[i] - by[j]
        d2 = dx * dx + dy * dy
        if d2 <= reach * reach:
            yield k
            k += 1
            continue
        goal = wa[i] + wb[j] + isqrt(d2) - reach  # before the two have walked this far in all, they stay apart
        lo, hi = k + 1, last + 1
        while lo < hi:
            mid = (lo + hi) // 2
            if wa[ta[mid]] + wb[tb[mid]] >= goal:
                hi = mid
            else:
                lo = mid + 1
        k = lo
