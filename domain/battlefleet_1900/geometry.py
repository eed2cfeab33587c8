"""Integer geometry of the table (BATTLEFLEET.md §3): millimetres, whole degrees, half-degree arcs.

x runs east and y north, in mm; a heading is whole degrees clockwise from north. Directions come from the
committed table `U` (2^30 sin and cos per half-degree); every decision uses integers, `isqrt`, cross
products and `Fraction`s (Cyrus-Beck), never float trigonometry, so every machine computes the same table.
No state here: poses in, points and numbers out.
"""

from __future__ import annotations

from math import isqrt
from typing import NamedTuple

# round(2^30 * sin(a/2 degrees)) for a = 0..180 (0..90 degrees); tests/battlefleet_1900/test_geometry.py
# regenerates it with exact arithmetic. The other quadrants follow by exact symmetry.
# fmt: off
SIN_QUARTER = (
    0, 9370046, 18739379, 28107284, 37473049, 46835961, 56195305, 65550370, 74900443,
    84244813, 93582766, 102913593, 112236583, 121551025, 130856211, 140151432, 149435979, 158709147,
    167970228, 177218517, 186453311, 195673906, 204879599, 214069690, 223243478, 232400266, 241539355,
    250660051, 259761657, 268843482, 277904834, 286945021, 295963357, 304959154, 313931728, 322880394,
    331804471, 340703281, 349576144, 358422386, 367241333, 376032312, 384794656, 393527696, 402230767,
    410903207, 419544355, 428153553, 436730145, 445273479, 453782903, 462257770, 470697435, 479101254,
    487468587, 495798798, 504091252, 512345318, 520560366, 528735772, 536870912, 544965168, 553017922,
    561028562, 568996477, 576921062, 584801711, 592637825, 600428808, 608174066, 615873009, 623525051,
    631129609, 638686104, 646193961, 653652607, 661061475, 668420001, 675727625, 682983788, 690187940,
    697339532, 704438018, 711482859, 718473518, 725409462, 732290163, 739115098, 745883746, 752595592,
    759250125, 765846838, 772385229, 778864800, 785285058, 791645512, 797945680, 804185082, 810363241,
    816479688, 822533958, 828525588, 834454122, 840319110, 846120104, 851856663, 857528349, 863134732,
    868675383, 874149882, 879557810, 884898757, 890172315, 895378084, 900515665, 905584669, 910584710,
    915515405, 920376381, 925167266, 929887697, 934537312, 939115760, 943622690, 948057759, 952420630,
    956710970, 960928454, 965072759, 969143570, 973140576, 977063475, 980911966, 984685757, 988384560,
    992008094, 995556083, 999028257, 1002424350, 1005744105, 1008987269, 1012153594, 1015242840, 1018254771,
    1021189159, 1024045778, 1026824413, 1029524851, 1032146887, 1034690320, 1037154959, 1039540613, 1041847103,
    1044074252, 1046221891, 1048289855, 1050277989, 1052186140, 1054014162, 1055761918, 1057429273, 1059016101,
    1060522280, 1061947697, 1063292242, 1064555814, 1065738315, 1066839657, 1067859754, 1068798530, 1069655912,
    1070431836, 1071126243, 1071739079, 1072270298, 1072719860, 1073087729, 1073373879, 1073578288, 1073700939,
    1073741824,
)
# fmt: on


def _unit(a: int) -> tuple[int, int]:
    """(2^30 sin, 2^30 cos) of a half-degrees clockwise from north."""
    a %= 720
    q, r = divmod(a, 180)
    s, c = SIN_QUARTER[r], SIN_QUARTER[180 - r]
    return ((s, c), (c, -s), (-s, -c), (-c, s))[q]


U: tuple[tuple[int, int], ...] = tuple(_unit(a) for a in range(720))


class Pt(NamedTuple):
    x: int
    y: int


# Pt(x, y) runs NamedTuple's __new__, Python code, for each point; the hot functions below call what it calls
# itself, `_pt(Pt, (x, y))`, and make the same Pt without it
_pt = tuple.__new__


def rnd(n: int) -> int:
    """A U-scaled number back to whole mm, halves rounding up."""
    return (n + (1 << 29)) >> 30


def forward(h: int) -> tuple[int, int]:
    return U[(2 * h) % 720]


def starboard(h: int) -> tuple[int, int]:
    return U[(2 * h + 180) % 720]


_HALF = 1 << 29  # rnd's half, for the lines below that round as it does without a call per coordinate


def point(x: int, y: int, h: int, along: int, lat: int) -> Pt:
    """The point `along` mm aft of the bow (x, y) and `lat` mm to starboard, for heading h."""
    fx, fy = U[(2 * h) % 720]
    sx, sy = U[(2 * h + 180) % 720]
    return _pt(Pt, (x + ((-along * fx + lat * sx + _HALF) >> 30), y + ((-along * fy + lat * sy + _HALF) >> 30)))


def base(x: int, y: int, h: int, length: int, width: int) -> tuple[Pt, ...]:
    """The base's corners (bow port, bow starboard, stern starboard, stern port): along 0..L, lat +-W/2; each one
    exactly `point`'s (tests/battlefleet_1900/test_geometry.py), the heading's vectors read once."""
    w = width // 2
    fx, fy = U[(2 * h) % 720]
    sx, sy = U[(2 * h + 180) % 720]
    lx, ly, wx, wy = length * fx, length * fy, w * sx, w * sy
    return (
        _pt(Pt, (x + ((-wx + _HALF) >> 30), y + ((-wy + _HALF) >> 30))),
        _pt(Pt, (x + ((wx + _HALF) >> 30), y + ((wy + _HALF) >> 30))),
        _pt(Pt, (x + ((-lx + wx + _HALF) >> 30), y + ((-ly + wy + _HALF) >> 30))),
        _pt(Pt, (x + ((-lx - wx + _HALF) >> 30), y + ((-ly - wy + _HALF) >> 30))),
    )


def centre(x: int, y: int, h: int, length: int) -> Pt:
    """The middle of a base whose bow is at (x, y): `point(x, y, h, length // 2, 0)`, without its starboard terms."""
    fx, fy = U[(2 * h) % 720]
    along = length // 2
    return _pt(Pt, (x + ((-along * fx + _HALF) >> 30), y + ((-along * fy + _HALF) >> 30)))


def rim(length: int, width: int) -> int:
    """A distance from `centre` within which every corner of a base lies, whole-mm rounding included (half the
    diagonal, rounded up, + 3): bases whose centres are further apart than their two rims cannot touch."""
    return isqrt(((length + 1) // 2) ** 2 + (width // 2) ** 2) + 3


def dist2(p: tuple[int, int], q: tuple[int, int]) -> int:
    return (q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2


# ---- arcs ---------------------------------------------------------------------------------------


def cw(p: tuple[int, int], q: tuple[int, int]) -> int:
    """Positive when q lies clockwise of p (less than 180 degrees round)."""
    return p[1] * q[0] - p[0] * q[1]


def in_arc(h: int, a: int, b: int, v: tuple[int, int]) -> bool:
    """Whether direction v lies in the arc from a to b half-degrees clockwise off a heading h (edges inclusive)."""
    if v == (0, 0):
        return True
    ua, ub = U[(2 * h + a) % 720], U[(2 * h + b) % 720]
    if b - a <= 360:
        return cw(ua, v) >= 0 and cw(v, ub) >= 0
    return not (cw(ub, v) > 0 and cw(v, ua) > 0)


def in_arcs(h: int, arcs: list[list[int]], v: tuple[int, int]) -> bool:
    return any(in_arc(h, a, b, v) for a, b in arcs)


def aspect(h: int, frm: tuple[int, int], to: tuple[int, int]) -> str:
    """Where `to` lies seen from `frm` on heading h: ahead (within 30 degrees of the bow), astern (150 or more),
    else port or starboard: the embattled side when `to` is the firer."""
    v = (to[0] - frm[0], to[1] - frm[1])
    if in_arc(h, -60, 60, v):
        return "ahead"
    if in_arc(h, 300, 420, v):
        return "astern"
    return "starboard" if in_arc(h, 0, 360, v) else "port"


# ---- ranging ------------------------------------------------------------------------------------


def clip(
    f: tuple[int, int], d: tuple[int, int], poly: tuple[Pt, ...]
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Cyrus-Beck: the t (>= 0) where the ray f + t*d enters and leaves a convex polygon, or None; each t as a
    fraction (numerator, denominator > 0), compared by cross-multiplying (no Fraction: Python code per operation)."""
    area2 = sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(poly, poly[1:] + poly[:1]))
    sign = 1 if area2 > 0 else -1  # outward normals for either winding
    in_n, in_d = 0, 1
    out: tuple[int, int] | None = None
    for p, q in zip(poly, poly[1:] + poly[:1]):
        nx, ny = sign * (q[1] - p[1]), -sign * (q[0] - p[0])
        num = nx * (p[0] - f[0]) + ny * (p[1] - f[1])
        den = nx * d[0] + ny * d[1]
        if den == 0:
            if num < 0:
                return None
            continue
        if den < 0:  # entering: the latest entry
            if -num * in_d > in_n * -den:
                in_n, in_d = -num, -den
        elif out is None or num * out[1] < out[0] * den:  # leaving: the earliest exit
            out = (num, den)
    if out is None or in_n * out[1] > out[0] * in_d:
        return None
    return (in_n, in_d), out


class Measure(NamedTuple):
    """What the tape shows for one estimate: distances along the funnel line, in mm."""

    length: int  # funnel to funnel
    lead: int  # to where the line first meets the target's base
    exit: int  # to where it leaves it
    bracket: int  # 1..4 by the leading edge (5 and over: out of range)
    danger: int  # the danger zone beyond the leading edge
    outcome: str  # hit | short | over | out_of_range
    marker: Pt  # where the estimate lands


def measure(f: Pt, t: Pt, target: tuple[Pt, ...], bracket_mm: int, brackets: int, estimate: int) -> Measure:
    """BF-R15, 4.3: hit iff lead <= E <= max(exit, lead + DZ); DZ is B/2 in bracket 1, B/4 in bracket 2."""
    d = (t[0] - f[0], t[1] - f[1])
    length = isqrt(d[0] * d[0] + d[1] * d[1])
    ts = clip(f, d, target) if length else None
    lead, exit_ = (ts[0][0] * length // ts[0][1], -(-ts[1][0] * length // ts[1][1])) if ts else (length, length)
    k = max(1, -(-lead // bracket_mm))
    danger = {1: bracket_mm // 2, 2: bracket_mm // 4}.get(k, 0)
    if lead > brackets * bracket_mm:
        outcome = "out_of_range"
    elif estimate < lead:
        outcome = "short"
    elif estimate <= max(exit_, lead + danger):
        outcome = "hit"
    else:
        outcome = "over"
    marker = Pt(f[0] + estimate * d[0] // length, f[1] + estimate * d[1] // length) if length else Pt(*f)
    return Measure(length, lead, exit_, k, danger, outcome, marker)


# ---- line of sight ------------------------------------------------------------------------------


def orient(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> int:
    v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (v > 0) - (v < 0)


def _on(a, b, p) -> bool:
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def segments_touch(a, b, c, d) -> bool:
    """Closed segments ab and cd share a point."""
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    if o1 != o2 and o3 != o4:
        return True
    return (
        (o1 == 0 and _on(a, b, c))
        or (o2 == 0 and _on(a, b, d))
        or (o3 == 0 and _on(c, d, a))
        or (o4 == 0 and _on(c, d, b))
    )


def inside(p: tuple[int, int], poly) -> bool:
    """p inside or on a simple polygon (crossing number, with the boundary counted in)."""
    edges = list(zip(poly, poly[1:] + poly[:1]))
    if any(orient(a, b, p) == 0 and _on(a, b, p) for a, b in edges):
        return True
    crossings = 0
    for a, b in edges:
        if (a[1] > p[1]) != (b[1] > p[1]):  # the edge spans p's horizontal: count it when it passes east of p
            crossings += orient(a, b, p) > 0 if b[1] > a[1] else orient(a, b, p) < 0
    return crossings % 2 == 1


def _apart(p1, p2) -> bool:
    """The bounding boxes do not meet (a quick test before the exact one)."""
    return (
        max(p[0] for p in p1) < min(p[0] for p in p2)
        or max(p[0] for p in p2) < min(p[0] for p in p1)
        or max(p[1] for p in p1) < min(p[1] for p in p2)
        or max(p[1] for p in p2) < min(p[1] for p in p1)
    )


def segment_meets(a: tuple[int, int], b: tuple[int, int], poly) -> bool:
    """The closed segment ab touches the polygon (edge or interior)."""
    if _apart((a, b), poly):
        return False
    if inside(a, poly) or inside(b, poly):
        return True
    return any(segments_touch(a, b, p, q) for p, q in zip(poly, poly[1:] + poly[:1]))


def polygons_touch(p1, p2) -> bool:
    if _apart(p1, p2):
        return False
    if any(inside(p, p2) for p in p1) or any(inside(p, p1) for p in p2):
        return True
    return any(segments_touch(a, b, c, d) for a, b in zip(p1, p1[1:] + p1[:1]) for c, d in zip(p2, p2[1:] + p2[:1]))


# ---- movement -----------------------------------------------------------------------------------


def straight(x: int, y: int, h: int, d: int) -> Pt:
    fx, fy = U[(2 * h) % 720]
    return _pt(Pt, (x + ((d * fx + _HALF) >> 30), y + ((d * fy + _HALF) >> 30)))  # rnd, inline


def turn(x: int, y: int, h: int, radius: int, theta: int) -> tuple[Pt, int]:
    """The bow after turning theta whole degrees (+ starboard, - port) on a circle of the radius: (bow, heading)."""
    if theta >= 0:
        sx, sy = U[(2 * h + 180) % 720]
        ux, uy = U[(2 * (h + theta) - 180) % 720]
    else:
        sx, sy = U[(2 * h - 180) % 720]
        ux, uy = U[(2 * (h + theta) + 180) % 720]
    cx, cy = x + ((radius * sx + _HALF) >> 30), y + ((radius * sy + _HALF) >> 30)  # rnd, inline
    return _pt(Pt, (cx + ((radius * ux + _HALF) >> 30), cy + ((radius * uy + _HALF) >> 30))), (h + theta) % 360


def straight_steps(x: int, y: int, h: int, n: int) -> tuple[list[int], list[int]]:
    """`straight(x, y, h, j)` for j = 1..n (a track's whole mm) as a list of x and a list of y, the heading's vector
    read once (no object per point)."""
    fx, fy = U[(2 * h) % 720]
    steps = range(1, n + 1)
    return [x + ((j * fx + _HALF) >> 30) for j in steps], [y + ((j * fy + _HALF) >> 30) for j in steps]


def arc_costs(radius: int, n: int) -> list[int]:
    """`arc_cost(radius, j)` for j = 1..n."""
    c = 355 * radius
    return [-(-c * j // 20340) for j in range(1, n + 1)]


def turn_steps(x: int, y: int, h: int, radius: int, sign: int, n: int) -> tuple[list[int], list[int], list[int]]:
    """`turn(x, y, h, radius, sign * j)` for j = 1..n (a track's degrees) as lists of bow x, bow y and heading, the
    circle's centre worked out once (no object per point)."""
    if sign >= 0:
        sx, sy, back = *U[(2 * h + 180) % 720], -180
    else:
        sx, sy, back = *U[(2 * h - 180) % 720], 180
    cx, cy = x + ((radius * sx + _HALF) >> 30), y + ((radius * sy + _HALF) >> 30)
    headings = [h + sign * j for j in range(1, n + 1)]
    units = [U[(2 * a + back) % 720] for a in headings]
    return (
        [cx + ((radius * ux + _HALF) >> 30) for ux, _ in units],
        [cy + ((radius * uy + _HALF) >> 30) for _, uy in units],
        [a % 360 for a in headings],
    )


def arc_cost(radius: int, theta: int) -> int:
    """The movement a turn of theta degrees costs: its arc length, with pi as 355/113, rounded up."""
    return -(-355 * radius * abs(theta) // 20340)


def turn_within(radius: int, rem: int) -> int:
    """The whole degrees of turn `rem` mm of movement covers."""
    return rem * 20340 // (355 * radius)


def within_quarter_bracket(p: tuple[int, int], q: tuple[int, int], bracket_mm: int) -> bool:
    return 16 * dist2(p, q) <= bracket_mm * bracket_mm
