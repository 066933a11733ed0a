"""Hex geometry (ecs_zombie/hexgrid.py): the documented neighbour, distance and rotation rules,
shortest paths and tile placement aligning an entry point to an exit point."""

from __future__ import annotations

from ecs_zombie import hexgrid


def test_neighbours_in_direction_order() -> None:
    """Directions 0..5 counter-clockwise from east: (+1,0) (+1,-1) (0,-1) (-1,0) (-1,+1) (0,+1)."""
    assert hexgrid.neighbours((0, 0)) == [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    assert all(hexgrid.distance((0, 0), n) == 1 for n in hexgrid.neighbours((0, 0)))
    assert hexgrid.direction_of((2, 3), (2, 4)) == 5 and hexgrid.direction_of((0, 0), (2, 0)) is None


def test_distance_is_cube_distance() -> None:
    """(|dq| + |dr| + |dq + dr|) / 2."""
    assert hexgrid.distance((0, 0), (2, -1)) == 2
    assert hexgrid.distance((-2, 0), (2, 0)) == 4
    assert hexgrid.distance((1, 1), (-1, -1)) == 4
    assert len(hexgrid.within((0, 0), 2)) == 19


def test_rotation_maps_direction_d_to_d_plus_k() -> None:
    for d in range(6):
        for k in range(6):
            assert hexgrid.rotate(hexgrid.DIRECTIONS[d], k) == hexgrid.DIRECTIONS[(d + k) % 6]


def test_shortest_path_goes_around_blockers() -> None:
    blocked = {(0, 0)}
    path = hexgrid.shortest_path((-2, 0), (2, 0), lambda h: h not in blocked and hexgrid.distance(h, (0, 0)) <= 3)
    assert path is not None and len(path) == 5 and (0, 0) not in path and path[-1] == (2, 0)
    assert hexgrid.shortest_path((-2, 0), (2, 0), lambda h: h == (-1, 0)) is None
    dist = hexgrid.bfs([(0, 0)], lambda h: hexgrid.distance(h, (0, 0)) <= 2)
    assert len(dist) == 19 and max(dist.values()) == 2


def test_placement_aligns_entry_to_exit() -> None:
    """Place New Tile: the new tile's entry lands on the hex beyond the exit, facing back."""
    for exit_dir in range(6):
        rot, off = hexgrid.placement((-2, 0), 3, (2, 0), exit_dir)
        assert hexgrid.transform((-2, 0), rot, off) == hexgrid.neighbour((2, 0), exit_dir)
        facing = hexgrid.rotate(hexgrid.DIRECTIONS[3], rot)
        assert facing == hexgrid.DIRECTIONS[hexgrid.opposite(exit_dir)]


def test_weighted_paths_with_a_ladder() -> None:
    """A ladder link costs its own price; the budget stops short of it."""
    area = set(hexgrid.within((0, 0), 1)) | {(9, 0)}
    best, parent = hexgrid.weighted_paths((0, 0), lambda a, b: 1 if b in area else None, 3, {(1, 0): [((9, 0), 2)]})
    assert best[(9, 0)] == 3 and hexgrid.path_to(parent, (0, 0), (9, 0)) == [(1, 0), (9, 0)]
    best, _ = hexgrid.weighted_paths((0, 0), lambda a, b: 1 if b in area else None, 2, {(1, 0): [((9, 0), 2)]})
    assert (9, 0) not in best


def test_directions_wrap_and_opposites() -> None:
    """Direction d is taken mod 6; d + 3 is its opposite."""
    assert hexgrid.neighbour((3, -1), 6) == (4, -1) and hexgrid.neighbour((3, -1), -1) == (3, 0)
    assert [hexgrid.neighbour((0, 0), d) for d in range(6)] == list(hexgrid.DIRECTIONS)
    assert [hexgrid.opposite(d) for d in range(6)] == [3, 4, 5, 0, 1, 2]
    assert hexgrid.adjacent((2, -1), (1, 0)) and not hexgrid.adjacent((2, -1), (0, 0))
    assert not hexgrid.adjacent((1, 1), (1, 1))
    assert [hexgrid.direction_of((1, 1), n) for n in hexgrid.neighbours((1, 1))] == [0, 1, 2, 3, 4, 5]
    assert hexgrid.add((1, -2), (3, 5)) == (4, 3) and hexgrid.sub((1, -2), (3, 5)) == (-2, -7)


def test_distance_is_symmetric_and_counts_each_axis() -> None:
    """Cube distance, on each axis and mixed: (|dq| + |dr| + |dq + dr|) / 2."""
    assert [hexgrid.distance((0, 0), h) for h in ((3, 0), (0, 3), (3, -3), (-3, 0), (2, 1), (-1, -2))] == [
        3, 3, 3, 3, 3, 3]
    assert hexgrid.distance((5, -7), (2, -1)) == hexgrid.distance((2, -1), (5, -7)) == 6
    assert hexgrid.distance((4, 4), (4, 4)) == 0


def test_rotation_one_sixth_and_a_full_turn() -> None:
    """(q, r) -> (q + r, -q) per sixth; six sixths (or none) leave it; negative k turns back."""
    assert hexgrid.rotate((2, -1), 1) == (1, -2)
    assert hexgrid.rotate((2, -1), 6) == (2, -1) and hexgrid.rotate((2, -1), 0) == (2, -1)
    assert hexgrid.rotate((2, -1), -1) == hexgrid.rotate((2, -1), 5) == (1, 1)


def test_within_a_radius() -> None:
    """Every hex at most `radius` away, sorted: 1, 7, 19 hexes."""
    assert hexgrid.within((3, 4), 0) == [(3, 4)]
    assert hexgrid.within((3, 4), 1) == [(2, 4), (2, 5), (3, 3), (3, 4), (3, 5), (4, 3), (4, 4)]
    assert len(hexgrid.within((-7, 2), 2)) == 19
    assert all(hexgrid.distance((-7, 2), h) <= 2 for h in hexgrid.within((-7, 2), 2))


def test_a_straight_line_until_blocked() -> None:
    """`line`: the hexes straight along a direction while passable, the start excluded."""
    ok = {(1, -1), (2, -2), (3, -3), (5, -5)}
    assert hexgrid.line((0, 0), 1, lambda h: h in ok) == [(1, -1), (2, -2), (3, -3)]
    assert hexgrid.line((0, 0), 0, lambda h: h in ok) == []


def test_bfs_limit_and_starts() -> None:
    """Steps from the nearest start; a start counts whatever `passable` says; `limit` stops it."""
    dist = hexgrid.bfs([(0, 0), (4, 0)], lambda h: h[1] == 0 and -9 < h[0] < 9, limit=1)
    assert dist == {(0, 0): 0, (4, 0): 0, (1, 0): 1, (-1, 0): 1, (3, 0): 1, (5, 0): 1}
    assert hexgrid.bfs([(0, 0)], lambda h: False) == {(0, 0): 0}
    assert hexgrid.bfs([(0, 0)], lambda h: h[1] == 0 and 0 <= h[0] <= 3) == {(0, 0): 0, (1, 0): 1, (2, 0): 2, (3, 0): 3}


def test_shortest_path_ties_go_in_direction_order_and_the_goal_need_not_be_passable() -> None:
    """Of equally short paths the one through the lower direction first: to (2, -1) via (1, 0)
    (east) rather than (1, -1); the goal itself may be a blocked hex (a target)."""
    assert hexgrid.shortest_path((0, 0), (2, -1), lambda h: True) == [(1, 0), (2, -1)]
    assert hexgrid.shortest_path((0, 0), (1, 0), lambda h: False) == [(1, 0)]
    assert hexgrid.shortest_path((0, 0), (0, 0), lambda h: False) == []
    walls = {(1, 0)}
    assert hexgrid.shortest_path((0, 0), (2, -1), lambda h: h not in walls) == [(1, -1), (2, -1)]


def test_weighted_paths_prices_budget_and_ties() -> None:
    """Cheapest cost within the budget; forbidden steps (None) are not taken; ties go to the step
    found first (neighbours in direction order)."""
    def cost(_a: tuple[int, int], b: tuple[int, int]) -> int | None:
        return None if b == (1, 0) else (3 if b == (0, -1) else 1)

    best, parent = hexgrid.weighted_paths((0, 0), cost, 2)
    assert (1, 0) not in best and (0, -1) not in best and best[(1, -1)] == 1 and best[(2, -1)] == 2
    assert parent[(2, -1)] == (1, -1) and best[(0, 0)] == 0
    assert max(best.values()) == 2
    best, parent = hexgrid.weighted_paths((0, 0), lambda a, b: 1, 2)
    # (1, 0) was reached first (east), so it extends first
    assert hexgrid.path_to(parent, (0, 0), (2, -1)) == [(1, 0), (2, -1)]
    assert hexgrid.path_to(parent, (0, 0), (0, 0)) == []


def test_placement_for_a_turned_exit() -> None:
    """A tile whose entry [-2, 0] faces west, laid at an exit (2, -2) opening north-east: turned
    one sixth, its entry on (3, -3), so its centre lands on (5, -5)."""
    rot, off = hexgrid.placement((-2, 0), 3, (2, -2), 1)
    assert rot == 1 and hexgrid.transform((-2, 0), rot, off) == (3, -3)
    assert hexgrid.transform((0, 0), rot, off) == (5, -5)


def test_bfs_reaches_the_six_neighbours_in_one_step() -> None:
    """On an open plane, one step reaches exactly the six neighbours (and two steps 12 more)."""
    dist = hexgrid.bfs([(3, -2)], lambda h: True, limit=2)
    assert sorted(h for h, d in dist.items() if d == 1) == sorted(hexgrid.neighbours((3, -2)))
    assert sum(1 for d in dist.values() if d == 2) == 12


def test_placement_for_any_entry_facing() -> None:
    """Whatever way a tile's entry faces, the placed entry lands beyond the exit, facing back."""
    for entry_dir in range(6):
        for exit_dir in range(6):
            rot, off = hexgrid.placement((1, -1), entry_dir, (4, 2), exit_dir)
            assert hexgrid.transform((1, -1), rot, off) == hexgrid.neighbour((4, 2), exit_dir)
            assert hexgrid.rotate(hexgrid.DIRECTIONS[entry_dir], rot) == hexgrid.DIRECTIONS[hexgrid.opposite(exit_dir)]
