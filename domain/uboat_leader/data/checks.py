"""The cross-checks of a uboat-leader data set: each returns the problems it finds (parse_data reports all at once)."""

from __future__ import annotations

from domain.uboat_leader.data.schema import DECK_FIELDS, DECKS, Campaign, DataSet, Display, Rules


def check_rules(r: Rules) -> list[str]:
    out = []
    for name, n in (("torpedo_range", None), ("gun_range", None), ("detection_range", 2), ("escort_attack_range", 2)):
        v = getattr(r, name)
        if not v or (n is not None and len(v) != n):
            out.append(f"rules.{name}: {'exactly ' + str(n) if n else 'at least one'} value(s)")
    if r.sink_points < 1:
        out.append("rules.sink_points must be at least 1")
    return out


def check_display(d: Display) -> list[str]:
    out = []
    ids = [a.id for a in d.areas]
    if len(set(ids)) != len(ids):
        out.append("display: area ids must be unique")
    adj = {a.id: a.adj for a in d.areas}
    for a in d.areas:
        for b in a.adj:
            if b not in adj or a.id not in adj[b]:
                out.append(f"display: adjacency {a.id}–{b} is not symmetric")
    kinds = {a.kind for a in d.areas}
    if {"long", "convoy"} - kinds or d.wake not in adj or next(a.kind for a in d.areas if a.id == d.wake) != "wake":
        out.append("display: needs long and convoy areas and a wake area named by `wake`")
    if set(d.unknown_speed) != {"L", "M", "N", "E"}:
        out.append("display.unknown_speed: give L, M, N and E")
    return out


def check_cards(data: DataSet) -> list[str]:
    out = []
    for deck in DECKS[:-1]:
        cards = data.deck(deck)
        numbers = [c.number for c in cards]
        if len(set(numbers)) != len(numbers) or not numbers:
            out.append(f"{DECK_FIELDS[deck]}: card numbers must be unique and at least one card given")
    boats = [u.boat for u in data.uboats]
    if len(set(boats)) != len(boats) or not boats:
        out.append("uboats: boat ids must be unique and at least one given")
    for u in data.uboats:
        where = f"uboats {u.boat}"
        if not u.gun and not u.cls.startswith(("II", "XXI")) or u.gun and u.cls.startswith(("II", "XXI")):
            out.append(f"{where}: `gun: false` exactly for Types II and XXI (they carry no deck gun)")
        if len(u.speed) != 2 or len(u.bands) != 2 or u.bands[0] > u.bands[1] or len(u.service) != 2:
            out.append(f"{where}: speed [surfaced, submerged], bands [okay max, shaken max], service [first, last]")
        if not u.levels:
            out.append(f"{where}: at least one level")
    for deck in ("merchants", "escorts", "fleet", "naval"):
        for s in data.deck(deck):
            where = f"{DECK_FIELDS[deck]} {s.number}"
            if len(s.torpedo) != 3 or len(s.gun) != 3:
                out.append(f"{where}: torpedo and gun are [light, heavy, sunk]")
            if deck in ("escorts", "fleet") and (len(s.detect) != 2 or len(s.attack) != 2):
                out.append(f"{where}: an escort has detect and attack [surfaced, submerged]")
            if deck == "naval" and len(s.attack) != 2:
                out.append(f"{where}: a naval card has attack [surfaced, submerged]")
            if deck == "merchants" and len(s.attack) != 1:
                out.append(f"{where}: a merchant card has one surface attack number")
    for e in data.events:
        if not e.sections:
            out.append(f"events {e.number}: at least one section")
    if any(len(t) != 2 for t in data.tactics):
        out.append("tactics: each counter is [detection, attack]")
    areas = {a.id for a in data.display.areas}
    for c in data.convoys:
        labels = [p[0] for p in c.positions if len(p) == 2]
        if len(labels) != len(c.positions) or len(set(labels)) != len(labels):
            out.append(f"convoys {c.number}: positions are distinct [label, area] pairs")
            continue
        for label, area in c.positions:
            if label[:1] not in ("L", "M", "N", "E") or area not in areas:
                out.append(f"convoys {c.number}: {label} at {area} (labels start L/M/N/E, areas are display areas)")
        if c.conditions:
            out.append(f"convoys {c.number}: special conditions {c.conditions} are not implemented (none are yet)")
        if c.type == "N" and sum(lb.startswith("E") for lb in labels) > len(data.fleet_escorts):
            out.append(f"convoys {c.number}: more E positions than Fleet Escorts ({len(data.fleet_escorts)})")
    return out


def check_campaign(c: Campaign, data: DataSet) -> list[str]:
    out, where = [], f"campaign {c.id}"
    nodes = {p.id: p.adj for p in c.map.ports} | {a.id: a.adj for a in c.map.areas}
    boxes = [b.id for a in c.map.areas for b in a.boxes]
    if len(nodes) != len(c.map.ports) + len(c.map.areas) or len(set(boxes)) != len(boxes) or set(boxes) & set(nodes):
        out.append(f"{where}: port, area and box ids must be unique")
    if not c.map.ports:
        out.append(f"{where}: at least one port")
    for n, adj in nodes.items():
        for m in adj:
            if m not in nodes or n not in nodes[m]:
                out.append(f"{where}: adjacency {n}–{m} is not symmetric")
    for a in c.map.areas:
        if a.contacts_at != sorted(a.contacts_at):
            out.append(f"{where}: {a.id} contacts_at must ascend")
        if a.patrol is None and not a.no_stop:
            out.append(f"{where}: {a.id} needs a Patrol value (only a no-stop area has none)")
        for b in a.boxes:
            if b.mission == "mine" and not b.vp_by_mines:
                out.append(f"{where}: mine box {b.id} needs vp_by_mines")
    for note in c.so_notes:
        if (note.cost is None) != (note.option == "advanced_torpedoes"):
            out.append(f"{where}: so_notes {note.option}: cost is null exactly for advanced torpedoes (½ each)")
        for area in note.areas or []:
            if area not in nodes:
                out.append(f"{where}: so_notes {note.option}: no area {area}")
    if len({n.option for n in c.so_notes}) != len(c.so_notes):
        out.append(f"{where}: one so_notes entry per option")
    numbers = {cv.number for cv in data.convoys}
    if any(n not in numbers for n in c.remove_convoys) or len(numbers - set(c.remove_convoys)) == 0:
        out.append(f"{where}: remove_convoys names cards of the set and leaves at least one")
    for name, d in c.durations.items():
        if [v for _, v in d.levels] != sorted(v for _, v in d.levels) or not d.levels:
            out.append(f"{where}: duration {name} levels ascend by VP")
    return out


TACTICS_FROM = "1942-06"  # UL-7: "…que empieza en junio de 1942 o más tarde, coloca las fichas Tácticas"


def check_tactics_dates(c: Campaign) -> str | None:
    """UL-7, UL-R22: Escort Tactics counters are used exactly in a campaign that starts in June 1942 or later ("…que
    empieza en junio de 1942 o más tarde, coloca las fichas Tácticas"; "…que acaba antes de junio de 1942, no uses
    estas fichas"; one that starts before and ends after, as Drumbeat, Feb–Jun 1942: off, UL-R22). Checked when a game
    is created (check_setup), not in parse_data: a game already recorded with such a set still loads and replays."""
    first, last = c.dates
    want = first >= TACTICS_FROM
    if c.tactics == want:
        return None
    if c.tactics:
        why = "ends before June 1942" if last < TACTICS_FROM else "starts before June 1942"
        return (
            f"campaign {c.id} ({first} to {last}) has tactics: true but {why}: UL-7 (Preparación de los Mazos) uses "
            "the Escort Tactics counters only in a campaign that starts in June 1942 or later (UL-R22)"
        )
    return (
        f"campaign {c.id} ({first} to {last}) has tactics: false but starts in June 1942 or later: UL-7 (Preparación "
        'de los Mazos) "coloca las fichas Tácticas" for such a campaign'
    )


def check_event_year(c: Campaign) -> str | None:
    """UL-6, UL-R53: "Usa el evento para el año de la Campaña que actualmente estés jugando": the sheet's `event_year`
    is a year the campaign is played in. Checked when a game is created (check_setup), as check_tactics_dates."""
    first, last = int(c.dates[0][:4]), int(c.dates[1][:4])
    if first <= c.event_year <= last:
        return None
    return (
        f"campaign {c.id} ({c.dates[0]} to {c.dates[1]}) has event_year {c.event_year}: UL-6 (Cartas de Evento) uses "
        "the Event section of a year the campaign is played in (UL-R53)"
    )
