"""rules/sealing.py and the fog (BATTLEFLEET.md §4, BF-R48): fresh offsets per sighting, overlap warnings that
say nothing of where an enemy ship truly lies (issue 17 item 2; BF-E4-20, BF-E4-22)."""

from __future__ import annotations

import pytest

from domain.battlefleet_1900.rules import movement, sealing
from events.core import SubmissionSealed
from tests.battlefleet_1900.scenario import ctx, make_state, of, place


def offsets(c, seat: str) -> dict[str, tuple[int, int]]:
    s = c.state
    return {n: (p.x - s.pose(n).x, p.y - s.pose(n).y) for n, p in s.sealed[seat].sighting.items()}


@pytest.mark.parametrize("edition, same", [("4.0.0", False), ("3.0.0", True)])
def test_BFR48_issue17_each_sighting_draws_fresh_offsets(edition, same):
    """Issue 17 item 2 (BF-E4-20): turn 1 has two sightings, at the start (of the scenario's public positions) and
    after the move. Keyed by the turn (3.0.0) they drew one offset, so the start gave it away; keyed by the
    sighting (4.0.0) they draw two. Here nobody moves between them: a ship lying still is sighted afresh too."""
    s = make_state(fog="blur", edition=edition)
    c = ctx(s)
    sealing.sightings(c, "start")
    first = offsets(c, "russia")
    sealing.sightings(c, "moved")
    second = offsets(c, "russia")
    assert set(first) == set(second) == set(s.own("japan"))
    assert any(first[n] != (0, 0) for n in first)  # a blur there is
    if same:
        assert first == second  # the leak: the start's offset is the move's
    else:
        assert all(first[n] != second[n] for n in first), (first, second)


def test_BFR48_the_label_names_the_sighting_not_the_turn():
    s = make_state(fog="blur")
    labels = {sealing.fog_label(s, m, "russia", "Mikasa") for m in ("start", "moved")}
    s.turn = 2
    labels |= {sealing.fog_label(s, m, "russia", "Mikasa") for m in ("start", "moved")}
    assert len(labels) == 4
    old = make_state(fog="blur", edition="3.0.0")
    assert sealing.fog_label(old, "start", "russia", "Mikasa") == sealing.fog_label(old, "moved", "russia", "Mikasa")


@pytest.mark.parametrize("edition", ["5.0.0", "4.0.0", "3.0.0"])
def test_BFR29_issue17_an_overlap_warning_never_places_an_enemy_ship(edition):
    """BF-R29's overlap warning after a move, under fog blur (BF-E4-22): a pair of a seat's own ships is its own
    business; a pair with an enemy ship said where that ship truly lies, so from 4.0.0 it is the referee's only.
    Mikasa and Tsesarevich lie on one spot, at a stop; Asahi's and Shikishima's bases are placed touching."""
    s = make_state(fog="blur", step="movement", edition=edition)
    place(s, "Mikasa", 2000, 1200, 90, last=0)
    place(s, "Tsesarevich", 2000, 1200, 90, last=0)
    for n in ("Asahi", "Shikishima"):  # both at a stop, 10 mm apart: their 40 mm bases overlap
        place(s, n, 1000 + 10 * (n == "Asahi"), 1800, 90, last=0)
    s.sealed["japan"].waypoints.clear()
    c = ctx(s)
    movement.resolve(c)
    told = {e.seat: e.content.get("overlaps", []) for e in of(c, SubmissionSealed) if e.kind == "poses"}
    mixed = ["Mikasa", "Tsesarevich"]
    assert ["Asahi", "Shikishima"] in told["japan"]  # its own ships: told
    if edition != "3.0.0":
        assert mixed not in told["japan"] and mixed not in told["russia"]
        assert told["referee"] == [mixed]
    else:
        assert mixed in told["japan"] and mixed in told["russia"] and "referee" not in told


@pytest.mark.parametrize("edition, sealed", [("5.0.0", True), ("4.0.0", False)])
def test_BFR29_BFE5_1_the_referees_overlap_record_is_sealed_after_every_move_under_blur(edition, sealed):
    """BF-E5-1 (issue 31): the referee's record of the pairs with an enemy ship (BF-E4-22) is sealed after every
    Movement Phase under fog blur, empty when no such pair touches, so that its presence (public: a seat, a kind and a
    commitment) says nothing. 4.0.0 sealed it only when a pair touched. Here only two Japanese bases touch."""
    s = make_state(fog="blur", step="movement", edition=edition)
    for n in ("Asahi", "Mikasa"):  # both at a stop, 10 mm apart: their 40 mm bases overlap
        place(s, n, 1000 + 10 * (n == "Asahi"), 1800, 90, last=0)
    s.sealed["japan"].waypoints.clear()
    c = ctx(s)
    movement.resolve(c)
    told = {e.seat: e.content.get("overlaps", []) for e in of(c, SubmissionSealed) if e.kind == "poses"}
    assert told["japan"] == [["Mikasa", "Asahi"]] and told["russia"] == []
    assert ("referee" in told) == sealed
    if sealed:
        assert told["referee"] == []


def test_BFR29_BFE5_1_open_fog_seals_no_overlap_record():
    """Under fog `open` every pose and overlap is public (one `ShipsMoved`): nothing is sealed, for the referee
    neither."""
    s = make_state(fog="open", step="movement", edition="5.0.0")
    c = ctx(s)
    movement.resolve(c)
    assert [e for e in of(c, SubmissionSealed) if e.kind == "poses"] == []


@pytest.mark.parametrize("edition", [None, "5.0.0"])
def test_BFR20_BFR34_BFE6_2_the_boat_gun_crews_are_public_from_the_start(edition):
    """BF-E6-2 (6.0.0): the crews an armoured-deck ship logs in its sealed `start` are announced at the setup reveal
    (`BoatGunsManned`, as give_orders' changes are, BF-R34), and every reader, the other seat and the public too,
    reads them: the ship log shows them and a ship whose boat guns stand down has none able to fire for anyone
    (BF-R3's `owes` reads them as they are). Up to 5.0.0 they stayed sealed and read as manned to the others."""
    from domain.battlefleet_1900.rules import gunnery, orders, turn
    from domain.battlefleet_1900.views import ship_log
    from events import battlefleet_1900 as ev

    s = make_state(fog="blur", edition=edition, step="setup")
    decked = [n for n in s.own("russia") if len(orders.crews(s, n)) > 1]
    assert decked, "the scenario has armoured-deck ships"
    ship = decked[0]
    s.sealed["russia"].pending["start"] = {"ships": [{"ship": ship, "boat_guns_manned": False}]}
    c = ctx(s)
    turn.begin(c)
    announced = {e.ship: e.manned for e in of(c, ev.BoatGunsManned)}
    public = sealing.redact(c.state, None)
    logged = {e.ship: e.boat_guns_manned for e in ship_log(c.state, "japan").ships}
    if edition is None:
        assert announced == {n: n != ship for n in s.ships if len(orders.crews(s, n)) > 1}
        assert public.sealed["russia"].manned[ship] is False and logged[ship] is False
    else:
        assert announced == {} and public.sealed["russia"].manned == {} and logged[ship] is None
    boat = next((w.id for w in c.state.cls(ship).weapons if w.boat), None)
    if boat is not None and edition is None:  # its boat guns are silent to everyone's reckoning
        assert all(
            gunnery.capacity(public, ship, boat, side)[0] == 0 for side in ("port", "starboard")
        )
