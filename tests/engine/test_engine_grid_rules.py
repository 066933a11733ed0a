"""The square-grid geometry in `ecs_zombie.grid` as Escape from Stalingrad Z's rules use it (range,
arcs, lines of fire, steps, distance fields on bit boards against the square-by-square search,
reach). With the engine's tests, so that a change to the grid is judged by them."""

from __future__ import annotations

import pytest

from ecs_zombie import grid
from ecs_zombie.grid import Cell, arc_of, distance_field, grid_range, line_steps, parse_map, reach, sight

LEGEND = {".": Cell("open"), "#": Cell("wall"), "%": Cell("obstructive"), "+": Cell("door"),
          "E": Cell("open", ("exit",))}


def test_range_counts_diagonals_as_two() -> None:
    """Range: the target's square counted, the origin's not, diagonals 2."""
    assert grid_range((0, 0), (1, 0)) == 1
    assert grid_range((0, 0), (1, 1)) == 2
    assert grid_range((2, 2), (4, 5)) == 5


def test_arcs_from_facing() -> None:
    """Arcs: front up to 45° from the facing, rear beyond 135°, side between (boundaries inward)."""
    east = 2
    assert [arc_of(east, (0, 0), t) for t in [(3, 0), (3, 3), (3, -3), (0, 3), (-3, 3), (-3, 0)]] == \
        ["front", "front", "front", "side", "side", "rear"]
    assert arc_of(0, (5, 5), (5, 1)) == "front"


def test_line_steps_and_corner_pairs() -> None:
    """LOF: the squares a centre-to-centre line crosses; exact corners give a pair."""
    assert line_steps(3, 0) == (((1, 0),), ((2, 0),))
    assert line_steps(2, 2) == (((1, 0), (0, 1)), ((1, 1),), ((2, 1), (1, 2)))


def test_sight_walls_doors_figures_and_rubble() -> None:
    """LOF: walls and closed doors block; a corner pair blocks only if both squares block; figures and
    obstructive squares are reported."""
    g = parse_map(["......", ".#....", "..%...", "......"], LEGEND)
    assert not sight(g, (0, 1), (3, 1)).clear
    s = sight(g, (0, 2), (4, 2), occupied={(1, 2): 7})
    assert s.clear and s.intervening == ((1, 2),) and s.obstructive == 1
    assert not sight(g, (0, 0), (2, 2)).clear  # through the wall's centre
    corner = parse_map(["...", ".#.", "..."], LEGEND)
    assert sight(corner, (0, 1), (1, 0)).clear  # past one blocking square of a corner pair
    g2 = parse_map(["......", "..#...", ".#....", "......"], LEGEND)
    assert not sight(g2, (1, 1), (2, 2)).clear  # both squares of the corner pair are walls
    d = parse_map(["..+..."], LEGEND)
    assert not sight(d, (0, 0), (4, 0), closed={(2, 0)}).clear
    assert sight(d, (0, 0), (4, 0)).clear


def test_no_diagonal_step_past_a_wall_corner() -> None:
    """Steps: a diagonal step may not cut past an impassable square."""
    g = parse_map(["...", ".#.", "..."], LEGEND)
    assert not g.can_step((0, 1), (1, 0))
    assert not g.can_step((0, 0), (1, 1))
    g2 = parse_map(["..", "#."], LEGEND)
    assert not g2.can_step((0, 0), (1, 1))
    assert g2.can_step((0, 0), (1, 0))


def test_distance_field_masks_ties() -> None:
    """Distance field: steps to the nearest source and which sources are that near."""
    g = parse_map(["........."] * 5, LEGEND)
    f = distance_field(g, [(0, 2), (8, 2)])
    assert f.at((4, 2)) == 4 and f.nearest((4, 2)) == [0, 1]
    assert f.at((2, 0)) == 2 and f.nearest((2, 0)) == [0]
    walled = parse_map(["..#..", "..#..", "..+.."], LEGEND)
    assert distance_field(walled, [(0, 0)], closed=[(2, 2)]).at((4, 0)) == grid.UNREACHABLE
    assert distance_field(walled, [(0, 0)]).at((4, 0)) == 6  # round by the door, no corner cutting


def test_distance_field_on_bit_boards_is_the_square_by_square_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The distance field computed on bit boards gives, square for square, the distance and the tied
    sources of a plain breadth-first search: on 600 seeded maps of walls, rubble, open and closed
    doors (and a "closed" square that is no door, which closes nothing), with up to 8 sources, some
    off the map or on walls. (The bit boards forced: small maps are searched square by square.)"""
    from ecs_zombie.rng import derive

    monkeypatch.setattr(grid, "_SMALL_MAP", 0)

    legend = {**LEGEND, "/": Cell("door", (), True)}
    gen = derive(5, "field property")
    for _ in range(600):
        w, h = 1 + gen.below(18), 1 + gen.below(18)
        rows = ["".join(".#%+/"[gen.below(5)] if gen.below(3) == 0 else "." for _x in range(w)) for _y in range(h)]
        g = parse_map(rows, legend)
        sources = [(gen.below(w + 2) - 1, gen.below(h + 2) - 1) for _s in range(gen.below(9))]
        closed = [d for d in sorted(g.doors) if gen.below(2)] + [(gen.below(w), gen.below(h))]
        fast, slow = distance_field(g, sources, closed), grid._distance_field_squares(g, sources, closed)
        assert (fast.dist, fast.mask) == (slow.dist, slow.mask), (rows, sources, closed)


def test_distance_field_beyond_the_bit_boards() -> None:
    """More than 8 sources, or a path longer than 254 steps: the same field, by the plain search."""
    corridor = parse_map(["." * 300], LEGEND)
    f = distance_field(corridor, [(0, 0)])
    assert f.at((299, 0)) == 299 and f.nearest((299, 0)) == [0]
    room = parse_map(["." * 12] * 3, LEGEND)
    f = distance_field(room, [(x, 0) for x in range(10)])
    assert f.at((11, 2)) == 2 and f.nearest((11, 2)) == [9]
    assert f.nearest((4, 2)) == [2, 3, 4, 5, 6]


def test_reach_prices_diagonals_and_stops() -> None:
    """Reach: steps 1, diagonals 2 (walking); `stop` squares end the move."""
    g = parse_map(["......"] * 3, LEGEND)
    r = reach(g, (0, 0), 4, 1, 2, frozenset(), frozenset(), frozenset({(1, 0)}))
    assert r[(1, 1)][0] == 2 and r[(1, 0)][0] == 1
    assert r[(2, 0)][0] == 4  # not through the stop square (1, 0): round by (1, 1)
    assert (4, 0) not in r


def test_a_field_within_the_bit_boards_reach_is_never_searched_square_by_square(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Up to 8 sources and 254 steps the field comes from the bit boards alone: the square-by-square
    search (the slower way, for beyond) is not called, and the field is right."""
    def refused(*args: object) -> None:
        raise AssertionError("searched square by square")

    room = parse_map(["." * 40] * 30, LEGEND)
    expected = distance_field(room, [(0, 0), (39, 29)])
    monkeypatch.setattr(grid, "_distance_field_squares", refused)
    field = distance_field(room, [(0, 0), (39, 29)])
    assert (field.dist, field.mask) == (expected.dist, expected.mask)
    assert field.at((20, 0)) == 20 and field.nearest((20, 9)) == [0, 1]  # 20 steps from each
