"""The digest of a U-Boat Leader campaign: what happened since a version, a line per meaningful event (docs/api.md
"Since my last turn"). Solitaire, and nothing in the state or the events is hidden (a deck has no order until a card
is drawn), so every reader reads the same lines."""

from __future__ import annotations

from domain.digest import core_line, count, listed
from domain.engine import Reader
from domain.uboat_leader.state import State
from events import uboat_leader as ev
from events.vocabulary import Event

RESULTS = {"miss": "a miss", "light": "light damage", "heavy": "heavy damage", "sunk": "sunk"}
WEAPONS = {"normal": "torpedo", "FAT": "FAT torpedo", "T5": "T5 torpedo", "gun": "gun"}
LOST = {
    "left": "it left the display",
    "wake": "it fell into the wake",
    "turns": "time ran out",
    "no-ships": "no ships left",
}


def digest(before: State, events: list[Event], reader: Reader = None) -> list[str]:
    # the boats Detected so far: from 6.0.0 an escort rolls against a boat already Detected too (UL-E6-1), and its
    # success changes nothing, so it is no news ("E1 detected U-47" again would read as a new detection)
    detected = {b for b, sub in before.battle.subs.items() if sub.detected} if before.battle else set()
    lines = []
    for e in events:
        if isinstance(e, ev.ContactEngaged):
            detected.clear()
        elif isinstance(e, ev.SilentRunning) and e.escaped:
            detected.discard(e.boat)
        elif isinstance(e, ev.DetectionRolled) and e.detected:
            if e.boat in detected:
                continue
            detected.add(e.boat)
        if line := _line(e):
            lines.append(line)
    return lines


def _line(e: Event) -> str | None:
    if isinstance(e, ev.SegmentBegan):
        return f"Turn {e.turn}: the {e.segment} segment began"
    if isinstance(e, ev.UBoatsSelected):
        return "The flotilla: " + listed([f"{p.boat} ({p.level}, {p.port})" for p in e.picks])
    if isinstance(e, ev.MissionAssigned):
        return f"{e.boat} was given a {e.mission} mission"
    if isinstance(e, ev.EventResolved):
        return f"{e.boat}: {e.name}, {e.text}"
    if isinstance(e, ev.MissionBegan):
        return f"{e.boat} began its {e.mission} mission in {e.box}"
    if isinstance(e, ev.MissionEnded):
        return f"{e.boat}'s {e.mission} mission: {e.outcome}"
    if isinstance(e, ev.MinesLaid):
        return f"{e.boat} laid {count(e.mines, 'mine')} in {e.box}: {e.vp} VP"
    if isinstance(e, ev.AttackRolled):
        return f"{e.boat}'s {WEAPONS[e.kind]} attack on {e.name} ({e.target}): {RESULTS[e.result]}"
    if isinstance(e, ev.ShipSunk):
        return f"{e.boat} sank {e.name} ({e.target}), {e.tons:,} tons: {e.vp} VP"
    if isinstance(e, ev.RaiderRolled):
        return f"{e.boat} raided shipping: {e.vp} VP"
    if isinstance(e, ev.ContactsRolled):
        return f"{e.boat} found {count(e.contacts, 'contact')}"
    if isinstance(e, ev.ContactEngaged):
        return f"Convoy {e.number} engaged in {e.area}"
    if isinstance(e, ev.ShipRevealed):
        return f"{e.label} is {e.name}" + (", an escort" if e.escort else "")
    if isinstance(e, ev.WolfpackCalled) and e.joined:
        return f"{e.boat} joined the wolfpack"
    if isinstance(e, ev.DetectionRolled) and e.detected:
        return f"{e.escort} detected {e.boat}"
    if isinstance(e, ev.EnemyAttacked):
        return f"{e.ship} attacked {e.boat}: {'a hit' if e.hit else 'a miss'}"
    if isinstance(e, ev.UBoatHit) and e.result != "sunk":
        return f"{e.boat} was hit: {e.result} damage"
    if isinstance(e, ev.UBoatSunk):
        return f"{e.boat} was sunk"
    if isinstance(e, ev.ContactLost):
        return f"{e.boat} lost contact: {LOST[e.cause]}"
    if isinstance(e, ev.CombatEnded):
        return f"The battle ended: {e.reason}"
    if isinstance(e, ev.PatrolCompleted):
        return f"{e.boat} completed patrol {e.patrols}, back in {e.port}"
    if isinstance(e, ev.Promoted):
        return f"{e.boat} was promoted to {e.level}"
    if isinstance(e, ev.UBoatRetired):
        return f"{e.boat} retired after {count(e.patrols, 'patrol')}"
    if isinstance(e, ev.OptionBought):
        return f"Bought {e.option.replace('_', ' ')}" + (f" in {e.area}" if e.area else "")
    if isinstance(e, ev.CampaignEnded):
        return f"The campaign ended: {e.level}, {e.final_vp} VP, {count(e.boats_sunk, 'U-boat')} lost"
    if isinstance(e, ev.CampaignAbandoned):
        return f"The campaign was abandoned with {e.vp} VP and {count(e.patrols_owed, 'patrol')} owed"
    return core_line(e, str, {})
