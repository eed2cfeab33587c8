"""domain/battlefleet_1900/bot.py: the bot's own arithmetic (its choices are judged by the rules like anyone's)."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from domain.battlefleet_1900 import geometry as geo
from domain.battlefleet_1900.bot import bearing_to

coordinate = st.integers(-5000, 5000)


@given(coordinate, coordinate, coordinate, coordinate)
@example(0, 0, 0, 0)  # no line at all: north
@example(0, 0, 0, -100)  # due north (y grows southward on the table)
@example(0, 0, 1, 1)  # between two half-degree directions
@example(0, 0, -1, -1000)  # just west of north, near the wrap of the table
def test_the_bearing_is_the_first_nearest_of_all_720_directions(ax, ay, bx, by):
    """The coarse-then-fine search gives what a search of every half degree gives (issue 36: the same games, fewer
    instructions): the first direction the line runs most along."""
    v = (bx - ax, by - ay)
    whole = max(range(720), key=lambda i: geo.U[i][0] * v[0] + geo.U[i][1] * v[1]) // 2
    assert bearing_to((ax, ay), (bx, by)) == whole
