"""A ship's course through one Movement Phase (3.0, 2.1, BF-R5, R8, R29): straight runs and turns on its circle,
each from the pose the last one stored, the succession pivots still ahead of it, and stopping short of a sinking
base it was clear of (checked per whole mm and degree)."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.battlefleet_1900 import geometry as geo
from domain.battlefleet_1900.state import State, Waypoint
from events.battlefleet_1900 import Pose


@dataclass
class Path:
    pose: Pose
    moved: int = 0
    stopped_by: str | None = None
    route: list[Waypoint] = field(default_factory=list)
    pivot: Pose | None = None  # where its own turns began (a succession lead's pivot, BF-R8)
    executed: list[int] = field(default_factory=list)  # its own turns as made


class Mover:
    """One ship's path this phase: straight runs and turns, each from the pose the last stored, stopping short of
    a sinking base it was clear of (BF-R29: checked per whole mm and degree)."""

    def __init__(self, state: State, ship: str, budget: int, radius: int):
        self.state, self.ship = state, ship
        self.p = Path(state.pose(ship))
        self.rem = budget
        self.r = radius
        k = state.cls(ship)
        self.size = (k.base_mm[0], k.base_mm[1])
        self.obstacles = self._obstacles(budget)

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

    @property
    def done(self) -> bool:
        return self.rem <= 0 or self.p.stopped_by is not None

    def straight(self, d: int) -> None:
        d = min(d, self.rem)
        start = self.p.pose
        if self.obstacles:
            for j in range(1, d + 1):
                pt = geo.straight(start.x, start.y, start.h, j)
                if (hit := self._blocked(Pose(pt.x, pt.y, start.h))) is not None:
                    self.p.stopped_by, d = hit, j - 1
                    break
        pt = geo.straight(start.x, start.y, start.h, d)
        self.p.pose, self.p.moved, self.rem = Pose(pt.x, pt.y, start.h), self.p.moved + d, self.rem - d

    def turn(self, theta: int) -> int:
        """Turn theta degrees (+ starboard) as far as the movement left allows; the degrees made."""
        if self.done or theta == 0:
            return 0
        sign = 1 if theta > 0 else -1
        made = min(abs(theta), geo.turn_within(self.r, self.rem))
        start = self.p.pose
        if self.obstacles:
            for j in range(1, made + 1):
                pt, h = geo.turn(start.x, start.y, start.h, self.r, sign * j)
                if (hit := self._blocked(Pose(pt.x, pt.y, h))) is not None:
                    self.p.stopped_by, made = hit, j - 1
                    break
        pt, h = geo.turn(start.x, start.y, start.h, self.r, sign * made)
        cost = min(geo.arc_cost(self.r, made), self.rem)
        self.p.pose, self.p.moved, self.rem = Pose(pt.x, pt.y, h), self.p.moved + cost, self.rem - cost
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
        made = self.turns(w.turns)
        partial = [t - m for t, m in zip(w.turns, made) if t != m]
        return partial + w.turns[len(made) :]


def run(state: State, ship: str, distance: int, radius: int, own_turns: list[int], route: list[Waypoint]) -> Path:
    """A ship's whole move: the pivots still ahead of it (succession), then its own turns, then straight on."""
    m = Mover(state, ship, distance, radius)
    left = list(route)
    while left and not m.done:
        rest = m.to_pivot(left[0])
        if rest is None:
            break
        left.pop(0)
        if rest:
            left.insert(0, Waypoint(m.p.pose.x, m.p.pose.y, rest))
            break
    m.p.route = left
    m.p.executed = []  # its own turns only: the pivots' turns were the lead's
    if not left:
        m.p.pivot = m.p.pose
        m.turns(own_turns)
    m.straight(m.rem)
    return m.p
