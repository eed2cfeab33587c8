"""BATTLEFLEET.md §3: integer geometry with exact expectations (no float anywhere)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from domain.battlefleet_1900 import geometry as geo

BITS = 160
ONE = Fraction(1, 1 << BITS)


def trunc(x: Fraction) -> Fraction:
    return Fraction(x.numerator * (1 << BITS) // x.denominator, 1 << BITS)


@cache
def pi() -> Fraction:
    """Machin's formula in exact rational arithmetic truncated to 2^-160."""

    def atan_inv(n: int) -> Fraction:
        total, term, k = Fraction(0), Fraction(1, n), 1
        while term > ONE:
            total += trunc(term / k) * (1 if k % 4 == 1 else -1)
            term, k = trunc(term / (n * n)), k + 2
        return total

    return 16 * atan_inv(5) - 4 * atan_inv(239)


def exact_sin_cos(a: int) -> tuple[Fraction, Fraction, Fraction]:
    """sin and cos of a half-degrees as Fractions, with a bound on their error: the Taylor series in exact
    rational arithmetic truncated to 2^-160 (no libm)."""
    one = ONE
    x = trunc(pi() * a / 360)
    s = c = Fraction(0)
    term, n = x, 1
    while abs(term) > one:
        s += term
        term, n = trunc(-term * x * x / ((n + 1) * (n + 2))), n + 2
    term, n = Fraction(1), 0
    while abs(term) > one:
        c += term
        term, n = trunc(-term * x * x / ((n + 1) * (n + 2))), n + 2
    return s, c, 200 * ONE  # generous: a few hundred truncations of 2^-160, pi's error times 7


def test_U_table_regenerated_with_exact_arithmetic():
    """§3: U[a] = (round(2^30 sin), round(2^30 cos)) for every half-degree a; each value is far from a rounding
    tie, so the error bound cannot change a single entry."""
    for a in range(720):
        s, c, err = exact_sin_cos(a)
        for got, v in zip(geo.U[a], (s, c)):
            scaled = v * (1 << 30)
            assert got == round(scaled), a
            assert abs(abs(scaled - round(scaled)) - Fraction(1, 2)) > err * (1 << 30), a


@given(st.integers(0, 719))
def test_U_symmetries(a):
    sx, sy = geo.U[a]
    assert geo.U[(a + 360) % 720] == (-sx, -sy)
    assert geo.U[(720 - a) % 720] == (-sx, sy)
    assert abs(sx * sx + sy * sy - (1 << 60)) < (1 << 32)


def test_rnd_rounds_halves_up():
    assert [geo.rnd(x) for x in ((1 << 29) - 1, 1 << 29, -(1 << 29), -(1 << 29) - 1)] == [0, 1, 0, -1]


def test_points_and_base_corners_at_heading_90():
    """§3: the point `along` aft and `lat` to starboard; the base along 0..L, lat +-W/2; the funnel along funnel_mm."""
    assert geo.point(1400, 1800, 90, 16, 0) == (1384, 1800)
    assert geo.base(1400, 1800, 90, 40, 12) == ((1400, 1806), (1400, 1794), (1360, 1794), (1360, 1806))
    assert geo.point(0, 0, 45, 100, 0) == (-71, -71)


def test_straight_moves_along_the_heading():
    assert geo.straight(1400, 1800, 90, 92) == (1492, 1800)
    assert geo.straight(0, 0, 30, 100) == (50, 87)


def test_turning_circles_starboard_port_and_round():
    """§3: C = P + R s; P' = C + R U[2(h+theta) - 180]; port is the mirror."""
    assert geo.turn(0, 0, 0, 70, 90) == ((70, 70), 90)
    assert geo.turn(0, 0, 0, 70, -90) == ((-70, 70), 270)
    assert geo.turn(0, 0, 0, 70, 180) == ((140, 0), 180)
    assert geo.turn(0, 0, 90, 70, 45) == ((49, -21), 135)
    assert geo.turn(0, 0, 0, 70, 0) == ((0, 0), 0)


def test_arc_cost_and_partial_turn():
    """§3: a turn costs ceil(355 R theta / 20340) mm; rem mm cover floor(rem 20340 / (355 R)) degrees."""
    assert geo.arc_cost(70, 90) == 110
    assert geo.arc_cost(70, 45) == 55
    assert geo.arc_cost(105, 90) == 165
    assert geo.turn_within(70, 110) == 90
    assert geo.turn_within(70, 109) == 89
    assert geo.turn_within(70, 30) == 24


@pytest.mark.parametrize(
    "a, b, inside_at, outside_at",
    [
        (-265, 265, [-265, 0, 265], [-266, 266, 360]),  # A: 265 degrees
        (95, 625, [95, 360, 625], [94, 626, 0]),  # Z
        (-270, 95, [-270, 0, 95], [-271, 96]),  # B
        (0, 270, [0, 270], [-1, 271]),  # E / pattern bow (starboard)
        (120, 240, [120, 180, 240], [119, 241]),  # side tube
        (0, 360, [0, 180, 360], [-1, 361]),  # a half-plane: both edges in
    ],
)
def test_arcs_at_their_edges(a, b, inside_at, outside_at):
    """§3: boundaries inclusive, no epsilon; arcs over 180 degrees by the complement."""
    for h in (0, 37, 90, 271):
        for x in inside_at:
            assert geo.in_arc(h, a, b, geo.U[(2 * h + x) % 720]), (h, a, b, x)
        for x in outside_at:
            assert not geo.in_arc(h, a, b, geo.U[(2 * h + x) % 720]), (h, a, b, x)


def test_aspect_thirty_and_one_fifty_degrees():
    """§3 embattled side: ahead within 30 degrees of the bow (inclusive), astern from 150, else a beam."""
    h = 0

    def at(x):
        return geo.U[(2 * h + x) % 720]

    assert geo.aspect(h, (0, 0), at(60)) == "ahead"
    assert geo.aspect(h, (0, 0), at(61)) == "starboard"
    assert geo.aspect(h, (0, 0), at(300)) == "astern"
    assert geo.aspect(h, (0, 0), at(-299)) == "port"


def test_line_of_sight_blocked_by_a_base_and_touching_counts():
    """4.1: the closed segment funnel to funnel touches another base (an edge or a corner is enough)."""
    base = geo.base(500, 506, 90, 40, 12)  # y 500..512, x 460..500
    assert geo.segment_meets((480, 0), (480, 1000), base)
    assert geo.segment_meets((500, 0), (500, 1000), base)  # along its bow edge
    assert geo.segment_meets((0, 512), (1000, 512), base)  # along its port side
    assert not geo.segment_meets((501, 0), (501, 1000), base)
    assert not geo.segment_meets((0, 513), (1000, 513), base)
    assert geo.segment_meets((470, 505), (490, 507), base)  # wholly inside


def test_land_polygons_block_and_may_be_concave():
    land = [(0, 0), (100, 0), (100, 100), (50, 30), (0, 100)]  # a notch from the top
    assert geo.inside((50, 10), land)
    assert not geo.inside((50, 60), land)
    assert geo.segment_meets((-10, 50), (110, 50), land)
    assert not geo.segment_meets((40, 90), (60, 90), land)


def test_measure_hit_short_over_and_the_danger_zones():
    """4.3, BF-R15: hit iff lead <= E <= max(exit, lead + DZ); DZ B/2 in bracket 1, B/4 in bracket 2, 0 beyond."""
    f = geo.Pt(0, 0)
    # target broadside on the line: funnel 300 mm north, base 12 mm deep (y 294..306)
    tb = geo.base(16, 300, 90, 40, 12)
    m = geo.measure(f, geo.Pt(0, 300), tb, 500, 4, 294)
    assert (m.length, m.lead, m.exit, m.bracket, m.danger, m.outcome) == (300, 294, 306, 1, 250, "hit")
    assert geo.measure(f, geo.Pt(0, 300), tb, 500, 4, 293).outcome == "short"
    assert geo.measure(f, geo.Pt(0, 300), tb, 500, 4, 544).outcome == "hit"  # lead + B/2
    assert geo.measure(f, geo.Pt(0, 300), tb, 500, 4, 545).outcome == "over"
    tb2 = geo.base(16, 700, 90, 40, 12)
    m2 = geo.measure(f, geo.Pt(0, 700), tb2, 500, 4, 819)
    assert (m2.lead, m2.bracket, m2.danger, m2.outcome) == (694, 2, 125, "hit")
    assert geo.measure(f, geo.Pt(0, 700), tb2, 500, 4, 820).outcome == "over"
    tb3 = geo.base(16, 1200, 90, 40, 12)
    m3 = geo.measure(f, geo.Pt(0, 1200), tb3, 500, 4, 1206)
    assert (m3.lead, m3.exit, m3.bracket, m3.danger, m3.outcome) == (1194, 1206, 3, 0, "hit")
    assert geo.measure(f, geo.Pt(0, 1200), tb3, 500, 4, 1207).outcome == "over"
    assert m3.marker == (0, 1206)


def test_measure_bow_on_target_is_deeper_and_out_of_range_beyond_four_brackets():
    f = geo.Pt(0, 0)
    bow_on = geo.base(0, 1016, 180, 40, 12)  # heading south toward the firer: funnel at (0, 1032)
    m = geo.measure(f, geo.Pt(0, 1032), bow_on, 500, 4, 1040)
    assert (m.lead, m.exit, m.outcome) == (1016, 1056, "hit")
    far = geo.base(16, 2100, 90, 40, 12)
    assert geo.measure(f, geo.Pt(0, 2100), far, 500, 4, 2000).outcome == "out_of_range"


def test_quarter_bracket_test_is_exact():
    """§3: a quarter bracket iff 16 |D|^2 <= B^2."""
    assert geo.within_quarter_bracket((0, 0), (125, 0), 500)
    assert not geo.within_quarter_bracket((0, 0), (125, 1), 500)


pose = st.tuples(st.integers(-3000, 3000), st.integers(-3000, 3000), st.integers(0, 359))
size = st.tuples(st.integers(10, 260), st.integers(4, 60))


@given(pose, size, st.tuples(st.integers(-400, 400), st.integers(-400, 400), st.integers(0, 359)), size)
@example((0, 0, 90), (100, 20), (30, 0, 90), (100, 20))  # one base 30 mm ahead of the other, overlapping
@example((0, 0, 0), (100, 20), (0, 0, 180), (100, 20))  # bow to bow, head on
def test_BFR29_bases_whose_centres_lie_beyond_their_rims_never_touch(a, size_a, offset, size_b):
    """The lockstep's cheap test (courses.first_touch, BF-E4-6) may only skip pairs that cannot touch: whenever two
    bases touch, their centres lie within their two rims (so the skipped pairs' answer is the polygons' own)."""
    b = (a[0] + offset[0], a[1] + offset[1], offset[2])
    pa, pb = geo.base(*a, *size_a), geo.base(*b, *size_b)
    if geo.polygons_touch(pa, pb):
        ca, cb = geo.centre(*a, size_a[0]), geo.centre(*b, size_b[0])
        assert geo.dist2(ca, cb) <= (geo.rim(*size_a) + geo.rim(*size_b)) ** 2


@given(pose, size)
def test_a_bases_corners_are_the_points_at_its_bow_and_stern_edges(a, size_a):
    """`base` computes its four corners inline (issue 36: fewer instructions); each is `point` at along 0 or the
    length, a half width to port or starboard, rounded as `rnd` rounds."""
    x, y, h = a
    length, w = size_a[0], size_a[1] // 2
    reference = (
        geo.Pt(x + geo.rnd(-w * geo.starboard(h)[0]), y + geo.rnd(-w * geo.starboard(h)[1])),
        geo.Pt(x + geo.rnd(w * geo.starboard(h)[0]), y + geo.rnd(w * geo.starboard(h)[1])),
        *(
            geo.Pt(
                x + geo.rnd(-length * geo.forward(h)[0] + lat * geo.starboard(h)[0]),
                y + geo.rnd(-length * geo.forward(h)[1] + lat * geo.starboard(h)[1]),
            )
            for lat in (w, -w)
        ),
    )
    assert geo.base(x, y, h, *size_a) == reference
    assert [geo.point(x, y, h, al, lat) for al, lat in ((0, -w), (0, w), (length, w), (length, -w))] == list(reference)


@given(pose, size)
def test_every_corner_of_a_base_lies_within_its_rim(a, size_a):
    """What the line-of-sight and lockstep shortcuts rest on (a base wholly beyond a box or circle is skipped)."""
    c, r = geo.centre(a[0], a[1], a[2], size_a[0]), geo.rim(*size_a)
    assert all(geo.dist2(c, p) <= r * r for p in geo.base(*a, *size_a))


@given(pose, size)
def test_a_bases_centre_lies_within_half_its_length_and_1_mm_of_its_bow(a, size_a):
    """`centre` is the point half its length aft of the bow (worked out inline), and what line of sight's first,
    cheapest test rests on (gunnery.sight_blocked): within length // 2 + 1 of the bow."""
    c = geo.centre(a[0], a[1], a[2], size_a[0])
    assert c == geo.point(a[0], a[1], a[2], size_a[0] // 2, 0)
    assert geo.dist2(c, a[:2]) <= (size_a[0] // 2 + 1) ** 2


@given(pose, st.integers(20, 400), st.sampled_from([1, -1]), st.integers(0, 200))
def test_a_turns_steps_are_the_turns_of_each_whole_degree(a, radius, sign, n):
    """`turn_steps` (a track's degrees, the circle's centre worked out once) gives `turn` of every degree."""
    turns = (geo.turn(*a, radius, sign * j) for j in range(1, n + 1))
    assert list(zip(*geo.turn_steps(*a, radius, sign, n))) == [(bow.x, bow.y, h) for bow, h in turns]


@given(pose, st.integers(0, 300), st.integers(20, 400))
def test_a_tracks_whole_steps_are_straight_and_arc_cost_of_each(a, n, radius):
    """`straight_steps` and `arc_costs` (a track's mm and degrees at once) give `straight` and `arc_cost` of each."""
    assert list(zip(*geo.straight_steps(*a, n))) == [geo.straight(*a, j) for j in range(1, n + 1)]
    assert geo.arc_costs(radius, n) == [geo.arc_cost(radius, j) for j in range(1, n + 1)]


def _clip_in_fractions(f, d, poly):
    """Cyrus-Beck in Fractions, as geometry.clip was written before it compared by cross-multiplying."""
    area2 = sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(poly, poly[1:] + poly[:1]))
    sign = 1 if area2 > 0 else -1
    t_in, t_out = Fraction(0), None
    for p, q in zip(poly, poly[1:] + poly[:1]):
        nx, ny = sign * (q[1] - p[1]), -sign * (q[0] - p[0])
        num = nx * (p[0] - f[0]) + ny * (p[1] - f[1])
        den = nx * d[0] + ny * d[1]
        if den == 0:
            if num < 0:
                return None
            continue
        t = Fraction(num, den)
        if den < 0:
            t_in = max(t_in, t)
        else:
            t_out = t if t_out is None else min(t_out, t)
    if t_out is None or t_in > t_out:
        return None
    return t_in, t_out


offset = st.tuples(st.integers(-600, 600), st.integers(-600, 600))


@given(pose, size, offset, offset)
def test_BFR15_clip_finds_the_fractions_of_the_line_inside_a_base(a, size_a, off, d):
    """`clip` (the tape's entry and exit, 4.3) gives the very fractions the Fraction arithmetic gave."""
    poly, f = geo.base(*a, *size_a), (a[0] + off[0], a[1] + off[1])
    got, want = geo.clip(f, d, poly), _clip_in_fractions(f, d, poly)
    assert (got is None) == (want is None)
    if got is not None:
        assert (Fraction(*got[0]), Fraction(*got[1])) == want
