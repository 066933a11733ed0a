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
