"""The only code that changes a campaign's state: one handler per event type, and the events that change nothing
(domain.procedure.fold). Checks belong to decide: a stored event is never refused here."""

from __future__ import annotations

import itertools

import msgspec

from domain.corvette_command.data import DataSet
from domain.corvette_command.state import (
    BOX_STEPS,
    DEPTH_CHARGES,
    GRADES,
    HEDGEHOG_SALVOES,
    ONCE_PER_BOX,
    STATIONS,
    Award,
    BoxStep,
    Convoy,
    Departure,
    Encounter,
    Engagement,
    Growth,
    State,
    Waiting,
    iso,
    pattern_grade,
    ymd,
)
from domain.procedure import Handler, fold
from events import corvette_command as ev
from events.core import (
    GameEnded,
)
from events.vocabulary import Event

# ---- handlers, one per event type -----------------------------------------------------------------


def _campaign_began(s: State, e: ev.CampaignBegan) -> None:
    for line in e.skills:
        s.sheets[line.escort].skills = {st: getattr(line, st) for st in STATIONS}
        s.sheets[line.escort].depth_charges = e.depth_charges
    s.decks["uboats"] = list(e.uboat_deck)
    s.type_ix_face_down = e.type_ix_face_down
    s.discards["uboats"] = []
    for deck in ("convoys", "orders"):
        s.decks[deck] = [c.id for c in getattr(s.data, deck)]
        s.discards[deck] = []


def _skills_allocated(s: State, e: ev.SkillsAllocated) -> None:
    s.quick_faces = []


def _deck_reformed(s: State, e: ev.DeckReformed) -> None:
    """The discards go back: the deck is again a multiset of its cards, kept in data-set order (CC-R42)."""
    back = set(s.decks[e.deck]) | set(e.cards)
    s.decks[e.deck] = [c for c in card_ids(s.data, e.deck) if c in back]
    s.discards[e.deck] = [c for c in s.discards[e.deck] if c not in e.cards]


def card_ids(data: DataSet, deck: str) -> list[str]:
    return [c.id for c in getattr(data, deck)]


def _counters_placed(s: State, e: ev.CountersPlaced) -> None:
    s.pools[e.zone] = {"U": e.u, "R": e.r, "blank": e.blank}


def _equipment_fitted(s: State, e: ev.EquipmentFitted) -> None:
    sheet = s.sheets[e.escort]
    sheet.equipment.append(e.equipment)
    if e.skill is not None:
        sheet.skills[e.equipment] = e.skill
    if e.equipment == "hedgehog":
        sheet.hedgehog = HEDGEHOG_SALVOES


def _date_moved(s: State, e: ev.EquipmentDateMoved) -> None:
    s.delays[e.equipment] = s.delays.get(e.equipment, 0) + e.months


def _convoy_assigned(s: State, e: ev.ConvoyAssigned) -> None:
    s.convoy = Convoy(
        number=e.number,
        card=e.card,
        code=e.code,
        speed=e.speed,
        direction=e.direction,
        start_port=e.start_port,
        destination=e.destination,
        size=e.size,
        orders=e.orders,
        channel=e.channel,
        map=e.map,
        sailed=e.date,
        position=e.start_port,
        path=[e.start_port],
    )
    s.date, s.half = e.date, 0
    s.revealed = {}
    for deck, card in (("convoys", e.card), ("orders", e.orders)):
        s.decks[deck].remove(card)
        s.discards[deck].append(card)


def _weather_set(s: State, e: ev.WeatherSet) -> None:
    s.convoy.weather = e.weather
    s.convoy.weather_track.append(e.weather)
    if e.cause == "change":
        _step_done(s, "weather")


def _convoy_moved(s: State, e: ev.ConvoyMoved) -> None:
    c = s.convoy
    forward = isinstance(e.to, str) or not isinstance(c.position, list) or e.to[1] != c.position[1]
    c.last_move = "forward" if forward else "sideways"
    c.position = e.to if isinstance(e.to, str) else list(e.to)
    c.path.append(c.position)
    c.half_days += e.half_days
    total = s.half + e.half_days
    s.date, s.half = e.date, total % 2
    if isinstance(e.to, str):
        c.arrived = True
        s.box_steps = []
    else:  # CC-R1 per box; CC-44: each escort has its own collision, mechanical and repair steps
        s.box_steps = [
            BoxStep(name=step, escort=escort)
            for step in BOX_STEPS
            for escort in ([None] if step in ONCE_PER_BOX else s.escorts)
        ]


def _step_done(s: State, name: str, escort: str | None = None) -> None:
    """The box step `name` is made (CC-R1): it leaves the front of the box's steps."""
    if s.box_steps and s.box_steps[0].name == name and s.box_steps[0].escort == escort:
        s.box_steps.pop(0)


def _collision_checked(s: State, e: ev.CollisionChecked) -> None:
    _step_done(s, "collision", e.escort)
    s.convoy.stragglers += e.stragglers


def _mechanical_checked(s: State, e: ev.MechanicalChecked) -> None:
    _step_done(s, "mechanical", e.escort)


def _counter_revealed(s: State, e: ev.CounterRevealed) -> None:
    _step_done(s, "reveal")
    if e.kind != "spent":
        s.revealed[s.box_key(e.box)] = e.kind
        s.pools[e.zone][e.kind] -= 1
        if e.kind == "U" and s.convoy.weather != "storm":
            s.queue.append(Waiting(escort=e.section))


def _repair_attempted(s: State, e: ev.RepairAttempted) -> None:
    _step_done(s, "repair", e.escort)
    sheet = s.sheets[e.escort]
    if e.success and e.area:
        sheet.harder[e.area].pop(0)
        if not sheet.harder[e.area]:
            del sheet.harder[e.area]
        sheet.used["engineer"] = True
    if e.area:
        s.convoy.repair_bonus = False


def _area_damaged(s: State, e: ev.AreaDamaged) -> None:
    s.sheets[e.escort].harder.setdefault(e.area, []).append(e.difficulty)


def _hull_damaged(s: State, e: ev.HullDamaged) -> None:
    s.sheets[e.escort].hull = e.hull


def _effect_applied(s: State, e: ev.EffectApplied) -> None:
    s.convoy.stragglers += e.stragglers
    if e.effect == "reroll_token":
        s.convoy.luck = True
    elif e.effect == "reroll_used":
        s.convoy.luck = False
    elif e.effect == "repair_bonus":
        s.convoy.repair_bonus = True
    elif e.effect == "uboat":
        s.queue.append(Waiting(escort=s.active))
    elif e.effect == "no-uboats":
        s.queue = []
    elif e.effect == "unanswered":  # CC-E5-4: no U-boat but its caller was left to answer a wolfpack's call
        s.queue.pop(0)


def _drawn(s: State, uboat: str) -> None:
    """A U-boat card leaves the deck: a known card, or one of the face-down Type IX (CC-6, CC-R42)."""
    if uboat in s.decks["uboats"]:
        s.decks["uboats"].remove(uboat)
    else:
        s.type_ix_face_down -= 1


def _approach_ends(g: Engagement) -> str:
    """The step after the sighting (and any gunfire): its attack, or the search for a U-boat barred from attacking
    (CC-28: "will not attack again", "can't make any further attacks") or with no attack left ("a maximum of 3 or 4
    times"); only a boat drawn again in the convoy it left comes so (CC-E5-2, CC-E5-5)."""
    return "detect" if g.barred or g.attacks_left == 0 else "attack"


def _uboat_sighted(s: State, e: ev.UBoatSighted) -> None:
    _drawn(s, e.uboat)
    # CC-E5-2: a U-boat that left comes back in the same convoy as it left (its hits, grade and bars; its attacks
    # left are the event's, CC-E5-5; whether it may still call the wolfpack, CC-E5-6)
    back = s.convoy.departed.get(e.uboat) if s.edition.has("CC-E5-2") else None
    s.engagement = g = Engagement(
        uboat=e.uboat,
        type=e.type,
        attack=e.attack,
        evade=e.evade,
        profile=e.profile,
        range=e.range,
        designated=e.range,
        surfaced=e.surfaced,
        night=e.night,
        attacks_left=e.attacks_left,
        wolfpack=e.wolfpack,
        step="spot",
        summons=not e.wolfpack and (back is None or back.summons),
        wolfpack_earlier=back is not None and back.came_with_wolfpack,
    )
    if back is not None:
        g.hits, g.grade, g.barred, g.hit_by = back.hits, back.grade, back.barred, back.hit_by
    if not e.surfaced:
        g.step = _approach_ends(g)
    s.queue.pop(0)
    s.active = e.escort


def _stands_off(s: State, e: ev.UBoatStandsOff) -> None:
    _drawn(s, e.uboat)
    s.discards["uboats"].append(e.uboat)
    waiting = s.queue.pop(0)
    s.convoy.encounters.append(Encounter(uboat=e.uboat, escort=waiting.escort, fate="stood-off", hits=0))


def _spotting(s: State, e: ev.SpottingResolved) -> None:
    s.engagement.spotted = e.spotted
    s.engagement.step = "guns" if e.spotted else _approach_ends(s.engagement)
    if e.asdic:
        s.sheet.used["asdic"] = True
    if e.spotted:
        s.sheet.used["lookout"] = True
        for eq in ("radar", "hfdf"):  # CC-41: an operator grows only when its contact led to a spot
            if getattr(e, eq):
                s.sheet.used[eq] = True


def _fire_held(s: State, e: ev.FireHeld) -> None:
    s.engagement.step = _approach_ends(s.engagement)


def _gunnery(s: State, e: ev.GunneryResolved) -> None:
    g = s.engagement
    g.hits = e.total_hits
    for shot in e.shots:
        if shot.hit:
            s.sheet.used[shot.gun] = True
    if e.out:  # CC-28: four hits in all: at least a possible kill, out of the game
        g.grade, g.step = g.grade or "possible", "gone"  # CC-R15: a grade earned is kept
        if g.barred and s.edition.has("CC-E6-1"):  # CC-R45: a pattern's hits had their part in it (not the guns alone)
            if s.active in g.hit_by or not s.edition.has("CC-E8-3"):  # from 8.0.0: this escort's own pattern
                s.sheet.kill_since_review = True


def _dived(s: State, e: ev.UBoatDived) -> None:
    g = s.engagement
    g.range, g.surfaced, g.step, g.consecutive, g.contact = e.range, False, _approach_ends(g), 0, "normal"


def _attacked(s: State, e: ev.ConvoyAttacked) -> None:
    """CC-R40: the search after an attack starts from the range it attacked from; CC-R41: it is submerged."""
    g = s.engagement
    g.attacks_left = e.attacks_left
    g.range, g.surfaced, g.decoys = e.range, False, e.decoys
    g.consecutive, g.contact = 0, "normal"
    g.attacked_since = False  # after its attack, the corvette "commences its Depth Charge attack" again (CC-R28)
    g.step = "detect"


def _ship_lost(s: State, e: ev.ShipLost) -> None:
    s.convoy.ships_lost += 1
    s.convoy.tonnage += e.tonnage
    if e.vital:
        s.convoy.vital.append(e.vital)
    if e.cause == "straggler":
        s.convoy.stragglers -= 1


def _detection(s: State, e: ev.DetectionResolved) -> None:
    g = s.engagement
    searched_at = g.range
    g.range, g.consecutive, g.contact = e.range, e.consecutive, e.contact
    if e.detected:
        s.sheet.used["asdic"] = True
        # CC-27 (L168, L171): found at close, attack; found further out, it comes one band closer and must be
        # found again at close (with the consecutive +3) before a pattern
        g.step = "pattern" if searched_at == 0 else "detect"
    elif e.range >= 3:
        g.step = "evaded"
    elif not g.depth_charged and g.attacks_left > 0 and not g.barred:
        g.step = "attack"  # not yet depth charged: it may attack again before the next search (CC-R14)
    else:
        g.step = "detect"


def _pattern(s: State, e: ev.PatternDropped) -> None:
    g = s.engagement
    g.hits = e.total_hits
    g.depth_charged = True
    g.attacked_since = True
    s.sheet.depth_charges, s.sheet.hedgehog = e.depth_charges, e.hedgehog
    if e.hits:
        s.sheet.used["depth_charge"] = True
        g.barred = True
        if s.active not in g.hit_by:
            g.hit_by += (s.active,)
    if e.grade:
        # CC-38: a kill its depth charges had their part in (CC-R45); from 7.0.0 only a pattern that hit (CC-E7-2):
        # one that missed a boat another escort had graded scored no sinking; from 8.0.0 only a pattern that scored a
        # grade itself (CC-E8-3): 1 hit on a boat the other escort had made probable is not a sinking scored
        if s.edition.has("CC-E8-3"):
            scored = pattern_grade(e.weapon, e.hits, e.total_hits) is not None
        else:
            scored = e.hits > 0 or not s.edition.has("CC-E7-2")
        s.sheet.kill_since_review = s.sheet.kill_since_review or scored
        g.grade = e.grade
    if e.grade == "probable":
        g.summons = False  # badly damaged: no further attacks and no wolfpack
    elif e.hits and not (g.wolfpack or g.wolfpack_earlier) and s.edition.has("CC-E7-1"):
        # CC-28: hit 1 or 2 times, or to 3 in all, it "will try to summon the rest of the WOLFPACK. If it does escape
        # roll on the WOLFPACK Table": each such pattern, though it called earlier in the convoy (CC-E5-6 kept it once);
        # never a boat that came with a wolfpack in this convoy, now or before (CC-31: "do NOT summon the WOLFPACK")
        g.summons = True
    if e.surfaced:
        g.step = "board"
    elif e.out:
        g.step = "gone"
    else:
        g.step = "detect"
        g.consecutive = 0
        g.contact = "kept" if (e.weapon == "hedgehog" and e.hits == 0) else "broken"


def _boarding(s: State, e: ev.BoardingResolved) -> None:
    if e.result == "lost":
        s.sheet.officers_lost.append(e.officer)
    s.engagement.step = "gone"


def _award(s: State, e: ev.AwardGranted) -> None:
    s.sheet.awards.append(Award(award=e.award, reason=e.reason, date=iso(s.date)))


def _uboat_left(s: State, e: ev.UBoatLeft) -> None:
    g, c = s.engagement, s.convoy
    c.encounters.append(Encounter(uboat=e.uboat, escort=s.active, fate=e.fate, hits=e.hits))
    before = c.departed.get(e.uboat) if s.edition.has("CC-E5-2") else None
    credited = e.fate in GRADES and (before is None or before.grade != e.fate)
    if credited:
        if before is not None and before.grade:  # CC-R15: a boat is credited once, with the best grade it earned
            s.sheets[before.escort].kills[before.grade] -= 1
        s.sheet.kills[e.fate] = s.sheet.kills.get(e.fate, 0) + 1
    if e.out:  # CC-28, CC-R15: out of the game for good
        s.sunk_uboats.append(e.uboat)
    else:  # read if the boat is drawn again in this convoy (CC-E5-2, CC-E5-5, CC-E5-6)
        s.discards["uboats"].append(e.uboat)
        c.departed[e.uboat] = Departure(
            escort=s.active if before is None or credited else before.escort,  # where its best grade is credited
            hits=g.hits,
            grade=g.grade,
            barred=g.barred,
            attacks_left=g.attacks_left,
            summons=g.summons and not (e.summons and s.edition.has("CC-E5-6")),  # CC-E5-6: once, till a new hit (CC-E7-1)
            came_with_wolfpack=g.wolfpack or g.wolfpack_earlier,
            hit_by=g.hit_by,
        )
    s.engagement = None


def _wolfpack(s: State, e: ev.WolfpackRolled) -> None:
    caller = s.convoy.encounters[-1].uboat  # the U-boat that has just left (its UBoatLeft comes first) and calls
    boats = [Waiting(escort=e.escort, wolfpack=True, caller=caller) for _ in range(e.uboats)]
    if s.edition.has("CC-E10-1"):  # two-player: the other section's boats of this call, rolled just before, in turn
        boats = _in_turn(_take_called(s.queue, caller, e.escort), boats)
    s.queue.extend(boats)


def _take_called(queue: list[Waiting], caller: str, escort: str) -> list[Waiting]:
    """The boats at the end of `queue` that `caller`'s wolfpack sends at another section than `escort`'s: the ones
    the WOLFPACK roll just before this one sent (each section rolls in turn, CC-44), taken off the queue."""
    n = 0
    while n < len(queue) and (w := queue[-1 - n]).wolfpack and w.caller == caller and w.escort != escort:
        n += 1
    taken = queue[len(queue) - n :]
    del queue[len(queue) - n :]
    return taken


def _in_turn(first: list[Waiting], second: list[Waiting]) -> list[Waiting]:
    """CC-44, CC-R38 (CC-E10-1): the two sections' boats one of each in turn, the section with more first (the first
    rolled on equal numbers): an escort is free to help once no boat of its own section waits, so the other section's
    boats beyond its own number are fought with its help, whichever section has more."""
    lead, other = (second, first) if len(second) > len(first) else (first, second)
    return [w for pair in itertools.zip_longest(lead, other) for w in pair if w is not None]


def _decision_required(s: State, e: ev.DecisionRequired) -> None:
    s.awaiting, s.deciding = e.decision, e.seat


def _random_event(s: State, e: ev.RandomEventDrawn) -> None:
    s.active = e.escort


def _decision_taken(s: State, e: ev.DecisionTaken) -> None:
    s.awaiting = None


def _torpedo_tracked(s: State, e: ev.TorpedoTracked) -> None:
    for station in ("lookout", "asdic"):
        if getattr(e, station):
            s.sheet.used[station] = True


def _skill_dice(s: State, e: ev.SkillDiceRolled) -> None:
    s.quick_faces = list(e.faces)


def _collision_pending(s: State, e: ev.CollisionPending) -> None:
    s.pending_collision = [e.k, e.roll]


def _arrived(s: State, e: ev.ConvoyArrived) -> None:
    s.convoy.position = e.port


def _straggler(s: State, e: ev.StragglerResolved) -> None:
    if e.survived:
        s.convoy.stragglers -= 1


def _repaired(s: State, e: ev.ShipRepaired) -> None:
    for escort, sheet in s.sheets.items():
        sheet.harder = {}
        sheet.hull = 0
        sheet.officers_lost = []  # CC-29: the lost officer is replaced in port
        sheet.depth_charges = DEPTH_CHARGES
        if s.fitted("hedgehog", escort):
            sheet.hedgehog = HEDGEHOG_SALVOES
    s.date, s.half = e.date, 0


def _scored(s: State, e: ev.ConvoyScored) -> None:
    c = s.convoy
    year = ymd(s.date)[0]
    if not (s.options.quick_play and s.edition.has("CC-E4-2")):  # CC-45: quick play has no yearly table
        s.years[year] = s.years.get(year, 0) + e.vp
    s.convoys_done += 1
    s.log.append(msgspec.structs.replace(c.line(), arrived=iso(s.date), vp=e.vp, result=e.result))


def _year(s: State, e: ev.YearScored) -> None:
    s.year_status[e.year] = e.status


def _improved(s: State, e: ev.CrewImproved) -> None:
    s.sheets[e.escort].skills[e.station] = e.after
    s.growth.append(
        Growth(escort=e.escort, station=e.station, roll=e.roll, before=e.before, after=e.after, date=iso(s.date))
    )


def _reviewed(s: State, e: ev.CrewReviewed) -> None:
    s.sheets[e.escort].used = {}
    s.sheets[e.escort].kill_since_review = False


def _ended(s: State, e: GameEnded) -> None:
    s.over = True
    s.awaiting = None


# recorded for the reader, read by no rule: the torpedo's end (its damage comes as HullDamaged and AreaDamaged), the
# tech-delay roll (its delay comes as EquipmentDateMoved); the core's events are the fold's (the dice: what they decide
# comes as the rule's own event), but for GameEnded: here the end also closes the decision under way
NO_STATE_CHANGE = (ev.TorpedoResolved, ev.TechDelayRolled)

HANDLERS: dict[type[Event], Handler[State]] = {
    ev.CampaignBegan: _campaign_began,
    ev.SkillsAllocated: _skills_allocated,
    ev.DeckReformed: _deck_reformed,
    ev.CountersPlaced: _counters_placed,
    ev.EquipmentFitted: _equipment_fitted,
    ev.EquipmentDateMoved: _date_moved,
    ev.ConvoyAssigned: _convoy_assigned,
    ev.WeatherSet: _weather_set,
    ev.ConvoyMoved: _convoy_moved,
    ev.CollisionChecked: _collision_checked,
    ev.MechanicalChecked: _mechanical_checked,
    ev.CounterRevealed: _counter_revealed,
    ev.RepairAttempted: _repair_attempted,
    ev.AreaDamaged: _area_damaged,
    ev.HullDamaged: _hull_damaged,
    ev.EffectApplied: _effect_applied,
    ev.UBoatSighted: _uboat_sighted,
    ev.UBoatStandsOff: _stands_off,
    ev.SpottingResolved: _spotting,
    ev.FireHeld: _fire_held,
    ev.GunneryResolved: _gunnery,
    ev.TorpedoTracked: _torpedo_tracked,
    ev.UBoatDived: _dived,
    ev.ConvoyAttacked: _attacked,
    ev.ShipLost: _ship_lost,
    ev.DetectionResolved: _detection,
    ev.PatternDropped: _pattern,
    ev.BoardingResolved: _boarding,
    ev.AwardGranted: _award,
    ev.UBoatLeft: _uboat_left,
    ev.WolfpackRolled: _wolfpack,
    ev.DecisionRequired: _decision_required,
    ev.RandomEventDrawn: _random_event,
    ev.DecisionTaken: _decision_taken,
    ev.ConvoyArrived: _arrived,
    ev.StragglerResolved: _straggler,
    ev.ShipRepaired: _repaired,
    ev.ConvoyScored: _scored,
    ev.YearScored: _year,
    ev.CrewImproved: _improved,
    ev.CrewReviewed: _reviewed,
    ev.SkillDiceRolled: _skill_dice,
    ev.CollisionPending: _collision_pending,
    GameEnded: _ended,
}


evolve = fold(HANDLERS, NO_STATE_CHANGE, __name__)
