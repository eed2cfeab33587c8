"""Distances on the Tactical Display and on a campaign map (Áreas Adyacentes, UL-1): "usa siempre el camino más
corto" for range and movement. Breadth-first over the data set's adjacency lists, in their order (no set or hash
order decides anything); the tables are cached on the data set, which never changes.
"""

from __future__ import annotations

from collections import deque

from domain.uboat_leader.data import Campaign, DataSet

OFF = "off"  # a U-boat that moves off the display from a Long area


def _bfs(adj: dict[str, list[str]], start: str, barred: tuple[str, ...] = ()) -> dict[str, int]:
    dist = {start: 0}
    todo = deque([start])
    while todo:
        a = todo.popleft()
        for b in adj[a]:
            if b not in dist and b not in barred:
                dist[b] = dist[a] + 1
                todo.append(b)
    return dist


def _cache(data: DataSet) -> dict:
    return data.__dict__.setdefault("_geometry", {})


def display_adj(data: DataSet) -> dict[str, list[str]]:
    c = _cache(data)
    if "adj" not in c:
        c["adj"] = {a.id: list(a.adj) for a in data.display.areas}
        c["kind"] = {a.id: a.kind for a in data.display.areas}
    return c["adj"]


def kind(data: DataSet, area: str) -> str:
    display_adj(data)
    return _cache(data)["kind"][area]


def _table(data: DataSet) -> dict[str, dict[str, int]]:
    """Every display area's distances to every other, worked out once per data set: the tactical rules and the bot
    ask tens of thousands of times a campaign."""
    try:  # the table once made: read straight off the set (tens of thousands of calls a campaign)
        return data.__dict__["_geometry"]["all"]
    except KeyError:
        adj = display_adj(data)
        table = _cache(data)["all"] = {a: _bfs(adj, a) for a in adj}
        return table


def distance(data: DataSet, a: str, b: str) -> int:
    """Shortest path between two display areas (the Wake included)."""
    return _table(data)[a].get(b, 99)


def from_area(data: DataSet, a: str) -> dict[str, int]:
    """Area a's distance to every area it reaches (`.get(b, 99)`, as `distance`): for asking many at once."""
    return _table(data)[a]


def areas(data: DataSet, *kinds: str) -> list[str]:
    return [a.id for a in data.display.areas if not kinds or a.kind in kinds]


def to_edge(data: DataSet, a: str) -> int:
    """Areas to move to leave the display: to the nearest Long area, plus 1 to step off (UL-R20)."""
    edge = _cache(data).setdefault("edge", {})
    if a not in edge:
        edge[a] = min(distance(data, a, b) for b in areas(data, "long")) + 1
    return edge[a]


def within(data: DataSet, a: str, n: int, stay: bool = False) -> list[str]:
    """Display areas at most n from a, in data order (a shared list: callers copy before changing it). Not the Wake,
    but with `stay` a itself when a is the Wake (a piece standing there may stay: UL-R28)."""
    near = _cache(data).setdefault("within", {})
    key = (a, n, stay and a == data.display.wake)
    if key not in near:
        near[key] = [b for b in areas(data) if (b != data.display.wake or key[2]) and distance(data, a, b) <= n]
    return near[key]


def steps_toward(data: DataSet, a: str, goal: str, n: int) -> list[str]:
    """The areas a piece may end in after n steps, each one nearer `goal`, stopping on reaching it (UL-R19,
    UL-S1); only a drift enters the Wake. More than one means the player breaks the tie (UL-R26)."""
    wake = data.display.wake
    table, adj = _table(data), display_adj(data)
    ends = [a]
    for _ in range(n):
        nxt: list[str] = []
        for x in ends:
            here = table[x].get(goal, 99)
            nearer = [y for y in adj[x] if table[y].get(goal, 99) < here and (y != wake or y == goal)]
            nxt += [y for y in (nearer if x != goal else [x]) if y not in nxt]
        ends = nxt
    return [x for x in areas(data) if x in ends]


# ---- the campaign map -------------------------------------------------------------------------------


def map_adj(camp: Campaign) -> dict[str, list[str]]:
    return {p.id: list(p.adj) for p in camp.map.ports} | {a.id: list(a.adj) for a in camp.map.areas}


def map_distances(data: DataSet, camp: Campaign, start: str, cls: str) -> dict[str, int]:
    """Steps from `start` over the areas a boat of class `cls` may enter."""
    key = ("map", camp.id, start, cls)
    c = _cache(data)
    if key not in c:
        barred = tuple(a.id for a in camp.map.areas if cls in a.barred)
        c[key] = _bfs(map_adj(camp), start, barred)
    return c[key]
