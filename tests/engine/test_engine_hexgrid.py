"""Hex geometry (ecs_zombie/hexgrid.py) against its documented conventions, with every expected
value worked out by hand from the module docstring: axial (q, r); direction d counter-clockwise from
east, 0 east (+1, 0), 1 north-east (+1, -1), 2 north-west (0, -1), 3 west (-1, 0), 4 south-west
(-1, +1), 5 south-east (0, +1); distance (|dq| + |dr| + |dq + dr|) / 2; rotation (q, r) -> (q + r, -q)
per sixth of a turn; breadth-first search in direction order."""

from __future__ import annotations

import pytest

from ecs_zombie import hexgrid as hx

EAST, NORTH_EAST, NORTH_WEST, WEST, SOUTH_WEST, SOUTH_EAST = range(6)


def test_neighbours_in_direction_order() -> None:
    assert hx.neighbours((2, -1)) == [(3, -1), (3, -2), (2, -2), (1, -1), (1, 0), (2, 0)]
    assert [hx.neighbour((2, -1), d) for d in range(6)] == hx.neighbours((2, -1))
    assert hx.neighbour((0, 0), 6) == (1, 0) and hx.neighbour((0, 0), -1) == (0, 1)  # taken mod 6


@pytest.mark.parametrize(("a", "b", "steps"), [
    ((0, 0), (0, 0), 0), ((0, 0), (1, 0), 1), ((0, 0), (1, -1), 1), ((0, 0), (2, -1), 2),
    ((0, 0), (3, 0), 3), ((0, 0), (2, 2), 4), ((0, 0), (-2, 3), 3), ((1, 1), (-2, -1), 5), ((4, -2), (1, 3), 5),
])
def test_distance(a: tuple[int, int], b: tuple[int, int], steps: int) -> None:
    """e.g. (0,0)-(2,2): dq = dr = -2, (2 + 2 + 4) / 2 = 4; (1,1)-(-2,-1): 3, 2, 5 -> 5."""
    assert hx.distance(a, b) == hx.distance(b, a) == steps
    assert hx.adjacent(a, b) == (steps == 1)


def test_direction_of_and_opposites() -> None:
    assert [hx.direction_of((5, 5), n) for n in hx.neighbours((5, 5))] == [0, 1, 2, 3, 4, 5]
    assert hx.direction_of((0, 0), (2, 0)) is None and hx.direction_of((0, 0), (0, 0)) is None
    assert [hx.opposite(d) for d in range(6)] == [3, 4, 5, 0, 1, 2]
    assert hx.add((1, -2), (3, 4)) == (4, 2) and hx.sub((1, -2), (3, 4)) == (-2, -6)


def test_rotation_turns_directions_counter_clockwise() -> None:
    """(q, r) -> (q + r, -q): east (1, 0) -> (1, -1) north-east -> (0, -1) north-west ..."""
    assert [hx.rotate((1, 0), k) for k in range(6)] == [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    assert hx.rotate((2, 1), 1) == (3, -2) and hx.rotate((2, 1), 2) == (1, -3) and hx.rotate((2, 1), 7) == (3, -2)
    assert hx.rotate((2, 1), -1) == hx.rotate((2, 1), 5) == (-1, 3)


def test_within_radius() -> None:
    assert hx.within((0, 0), 0) == [(0, 0)]
    assert hx.within((0, 0), 1) == sorted([(0, 0), *hx.neighbours((0, 0))])
    two = hx.within((1, -1), 2)
    assert len(two) == 19 and two == sorted(two)  # 1 + 6 + 12
    assert all(hx.distance((1, -1), h) <= 2 for h in two)
    assert (3, -3) in two and (3, -1) in two and (1, 1) in two and (-1, -1) in two
    assert (3, 0) not in two and (-1, -2) not in two  # 3 steps away


def test_line_stops_before_the_first_impassable_hex() -> None:
    open_hexes = {(1, 0), (2, 0), (3, 0), (5, 0)}
    assert hx.line((0, 0), EAST, open_hexes.__contains__) == [(1, 0), (2, 0), (3, 0)]
    assert hx.line((0, 0), WEST, open_hexes.__contains__) == []


def test_bfs_counts_steps_from_the_nearest_start() -> None:
    """A corridor q = 0..4 on r = 0 with a gap at (2, 0) bridged by (2, -1)-(3, -1)."""
    passable = {(0, 0), (1, 0), (3, 0), (4, 0), (2, -1), (3, -1)}.__contains__
    dist = hx.bfs([(0, 0)], passable)
    # (1, 0) -> NE (2, -1) -> E (3, -1) -> SE (3, 0) -> E (4, 0): (3, 0) is no neighbour of (2, -1)
    assert dist == {(0, 0): 0, (1, 0): 1, (2, -1): 2, (3, -1): 3, (3, 0): 4, (4, 0): 5}
    assert hx.bfs([(0, 0)], passable, limit=2) == {(0, 0): 0, (1, 0): 1, (2, -1): 2}
    assert hx.bfs([(0, 0), (4, 0)], passable) == {(0, 0): 0, (1, 0): 1, (2, -1): 2, (3, -1): 2, (3, 0): 1,
                                                   (4, 0): 0}
    assert hx.bfs([(9, 9)], lambda h: False) == {(9, 9): 0}  # a start counts whatever passable says


def test_shortest_path_prefers_the_first_direction_and_may_end_on_an_impassable_goal() -> None:
    everywhere = lambda h: True  # noqa: E731
    assert hx.shortest_path((0, 0), (0, 0), everywhere) == []
    assert hx.shortest_path((0, 0), (2, 0), everywhere) == [(1, 0), (2, 0)]
    # (0,0) to (1,1): distance 2; neighbours in order 0..5 -> east (1, 0) first, then (1, 1) is its SE.
    assert hx.shortest_path((0, 0), (1, 1), everywhere) == [(1, 0), (1, 1)]
    blocked_goal = lambda h: h != (2, 0)  # noqa: E731
    assert hx.shortest_path((0, 0), (2, 0), blocked_goal) == [(1, 0), (2, 0)]
    walled = lambda h: h not in {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}  # noqa: E731
    assert hx.shortest_path((0, 0), (3, 0), walled) is None
    # a detour: (1, 0) blocked, so (0,0) -> NE (1,-1) -> SE (1,0)? blocked; -> E (2,-1) -> SE (2,0)
    no_east = lambda h: h != (1, 0)  # noqa: E731
    assert hx.shortest_path((0, 0), (2, 0), no_east) == [(1, -1), (2, -1), (2, 0)]


def test_weighted_paths_cheapest_cost_within_budget() -> None:
    """The step (0, 0) -> (1, 0) costs 3 (a river), every other step 1; (2, 0) is forbidden; a ladder
    links (0, 0) to (5, 5) for 2."""

    def cost(a: tuple[int, int], b: tuple[int, int]) -> int | None:
        if b == (2, 0):
            return None
        return 3 if (a, b) == ((0, 0), (1, 0)) else 1

    best, parent = hx.weighted_paths((0, 0), cost, 3, {(0, 0): [((5, 5), 2)]})
    assert best[(0, 0)] == 0
    assert best[(1, -1)] == 1 and best[(1, 0)] == 2  # around through (1, -1) or (0, 1): 1 + 1 < 3
    assert parent[(1, 0)] == (1, -1)  # tie (1,-1) and (0,1) both at 1: the first found (direction 1) wins
    assert (2, 0) not in best
    assert best[(5, 5)] == 2 and parent[(5, 5)] == (0, 0)
    assert best[(3, -1)] == 3 and (4, -1) not in best  # the budget is the limit, inclusive
    assert hx.path_to(parent, (0, 0), (1, 0)) == [(1, -1), (1, 0)]
    assert hx.path_to(parent, (0, 0), (0, 0)) == []
    assert max(best.values()) == 3


def test_placement_lays_a_tile_entry_against_an_exit() -> None:
    """Exit at map hex (3, 0) facing east: the tile's entry must land on (4, 0) facing west (3).
    A tile whose entry (0, 0) opens west needs no rotation: offset (4, 0). One whose entry (1, 0)
    opens north-west (2) turns by (3 - 2) = 1 sixth: (1, 0) -> (1, -1), offset (4,0) - (1,-1) = (3, 1)."""
    assert hx.placement((0, 0), WEST, (3, 0), EAST) == (0, (4, 0))
    rotation, offset = hx.placement((1, 0), NORTH_WEST, (3, 0), EAST)
    assert (rotation, offset) == (1, (3, 1))
    assert hx.transform((1, 0), rotation, offset) == (4, 0)
    # the entry's open side now faces west: local NW (0, -1) rotated once is (-1, 0), west
    assert hx.rotate(hx.DIRECTIONS[NORTH_WEST], rotation) == hx.DIRECTIONS[WEST]
    assert hx.placement((0, 0), SOUTH_EAST, (0, 0), SOUTH_WEST) == ((1 - 5) % 6, (-1, 1))
