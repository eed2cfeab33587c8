"""What the captain reads: the ship log, the campaign sheet, the map and the engagement."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from domain.engine import View

from domain.corvette_command.state import (
    ALLIED_EQUIPMENT,
    AREAS,
    DATES,
    RANGES,
    State,
    convoy_line,
    iso,
    month_index,
)


def _now(s: State) -> dict[str, Any]:
    return {"date": iso(s.date), "awaiting": s.awaiting, "over": s.over, "convoys_done": s.convoys_done}


def ship_log(s: State) -> dict[str, Any]:
    """The corvette sheet of each escort (one, or two in the two-player game)."""
    return {"now": _now(s), "escorts": [{"seat": e, **sheet_view(s, e)} for e in s.escorts]}


def sheet_view(s: State, escort: str) -> dict[str, Any]:
    sh = s.sheets[escort]
    due = {}
    for eq in ALLIED_EQUIPMENT:
        y, m = DATES[eq]
        mi = month_index(y, m) + s.delays.get(eq, 0)
        due[eq] = {
            "fitted": s.fitted(eq, escort),
            "due": f"{mi // 12}-{mi % 12 + 1:02d}",
            "months_late": s.delays.get(eq, 0),
        }
    kills: dict[str, int] = {}
    for line in s.log + ([{"encounters": s.convoy.encounters}] if s.convoy and not s.convoy.arrived else []):
        for enc in line["encounters"]:
            if enc["fate"] in ("confirmed", "probable", "possible") and enc.get("escort") == escort:
                kills[enc["fate"]] = kills.get(enc["fate"], 0) + 1
    return {
        "skills": dict(sh.skills),
        "task_harder": {
            a: {
                "counters": sh.counters(a),
                "repair_difficulty": list(sh.harder.get(a, [])),
                "officer_lost": a in sh.officers_lost,
            }
            for a in AREAS
            if sh.counters(a)
        },
        "hull_damage": sh.hull,
        "depth_charges": {"left": sh.depth_charges, "of": 25},
        "hedgehog": {"left": sh.hedgehog, "of": 15} if s.fitted("hedgehog", escort) else None,
        "equipment": due,
        "awards": list(sh.awards),
        "officers_lost": list(sh.officers_lost),
        "kills": kills,
        "skills_used_since_review": sorted(k for k, v in sh.used.items() if v),
    }


def campaign_sheet(s: State) -> dict[str, Any]:
    current = convoy_line(s.convoy) if s.convoy and not s.convoy.arrived else None
    years = [{"year": y, "vp": vp, "status": s.year_status.get(y)} for y, vp in sorted(s.years.items())]
    return {"now": _now(s), "convoys": list(s.log), "current": current, "years": years, "skill_growth": list(s.growth)}


def map_view(s: State) -> dict[str, Any]:
    c = s.convoy
    if c is None:
        return {"now": _now(s), "map": None}
    m = s.data.maps[c.map]
    return {
        "now": _now(s),
        "map": c.map,
        "channels": m.channels,
        "columns": m.columns,
        "zones": [{"name": z.name, "boxes": z.boxes} for z in m.zones],
        "ports": {name: asdict_port(p) for name, p in m.ports.items()},
        "revealed": [{"box": [int(x) for x in k.split(",")], "kind": v} for k, v in sorted(s.revealed.items())],
        "convoy": {
            "position": c.position,
            "path": list(c.path),
            "direction": c.direction,
            "speed": c.speed,
            "orders_channel": c.channel,
            "destination": c.destination,
        },
        "weather": c.weather,
    }


def asdict_port(p) -> dict[str, Any]:
    return {"side": p.side, "boxes": p.boxes}


def engagement(s: State) -> dict[str, Any]:
    g = s.engagement
    out: dict[str, Any] = {"now": _now(s), "pending_uboats": s.pending_uboats, "uboat": None}
    if g is not None:
        d = asdict(g)
        d["range_band"] = RANGES[min(g.range, 3)]
        d["detected"] = g.consecutive > 0
        out["uboat"] = d
    return out


VIEWS = {
    "ship-log": View(lambda s, reader, f=ship_log: f(s)),
    "campaign-sheet": View(lambda s, reader, f=campaign_sheet: f(s)),
    "map": View(lambda s, reader, f=map_view: f(s)),
    "engagement": View(lambda s, reader, f=engagement: f(s)),
}
