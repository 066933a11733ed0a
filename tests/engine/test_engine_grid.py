"""Square-grid geometry (ecs_zombie/grid.py) against the rules its docstring states, on small maps
drawn in the tests, every expected value worked out by hand: directions 0..7 clockwise from north
(0 = y - 1); a diagonal step may not cut past an impassable square; range |dx| + |dy|; arcs by the
angle to the facing, boundaries to the narrower arc; lines of fire square by square with corner
pairs; a multi-source distance field with masks; reach by movement points."""

from __future__ import annotations

import pytest

from ecs_zombie import grid as g

LEGEND = {
    ".": g.Cell(),
    "#": g.Cell(g.WALL),
    "o": g.Cell(g.OBSTRUCTIVE),
    "D": g.Cell(g.DOOR),  # closed at the start
    "d": g.Cell(g.DOOR, door_open=True),
    "S": g.Cell(g.OPEN, ("spawn:A", "start")),
    "E": g.Cell(g.OPEN, ("exit",)),
}


def grid(*rows: str) -> g.GridMap:
    return g.parse_map(list(rows), LEGEND)


N, NE, E, SE, S, SW, W, NW = range(8)


# -- the map --------------------------------------------------------------------------------------


def test_parse_map_terrain_labels_and_doors() -> None:
    m = grid("S.#",
             "oDd",
             "..E")
    assert (m.width, m.height) == (3, 3)
    assert m.terrain == ("open", "open", "wall", "obstructive", "door", "door", "open", "open", "open")
    assert dict(m.labels) == {"exit": ((2, 2),), "spawn:A": ((0, 0),), "start": ((0, 0),)}
    assert list(m.labels) == ["exit", "spawn:A", "start"]  # sorted
    assert dict(m.doors) == {(1, 1): False, (2, 1): True}
    assert m.squares("exit") == ((2, 2),) and m.squares("nosuch") == ()
    assert m.index((2, 1)) == 5 and m.square(5) == (2, 1) and m.square(7) == (1, 2)
    assert m.inside((2, 2)) and not m.inside((3, 0)) and not m.inside((0, 3)) and not m.inside((-1, 0))
    assert m.terrain_at((2, 0)) == "wall" and m.terrain_at((0, 1)) == "obstructive"
    assert m.terrain_at((-1, 1)) == m.terrain_at((1, 3)) == "wall"  # off the map reads as wall


@pytest.mark.parametrize(("rows", "message", "row", "col"), [
    ([], "at least one row", None, None),
    ([""], "row is empty", 0, 0),
    (["...", "..", "..."], "row 1 is 2 squares wide, the first row is 3", 1, 2),
    (["..x"], "character 'x' is not in the legend", 0, 2),
])
def test_parse_map_errors_say_where(rows: list[str], message: str, row: int | None, col: int | None) -> None:
    """The message is the error's whole text (what the loader puts after the file and line), the
    square apart in `row` and `col`, not the constructor's arguments as a tuple."""
    with pytest.raises(g.MapError, match=message) as info:
        g.parse_map(rows, LEGEND)
    assert (info.value.row, info.value.col) == (row, col)
    assert str(info.value).endswith(message) and info.value.args == (str(info.value),)


def test_unknown_terrain_in_the_legend() -> None:
    with pytest.raises(g.MapError, match="unknown terrain 'lava'") as info:
        g.parse_map([".", "~"], {".": g.Cell(), "~": g.Cell("lava")})
    assert (info.value.row, info.value.col) == (1, 0)


def test_passable_and_sight_blocking_by_terrain_and_door_state() -> None:
    m = grid(".#oD")
    closed = {(3, 0)}
    assert [m.passable((x, 0)) for x in range(4)] == [True, False, False, True]
    assert [m.passable((x, 0), closed) for x in range(4)] == [True, False, False, False]
    assert [m.blocks_sight((x, 0)) for x in range(4)] == [False, True, False, False]
    assert [m.blocks_sight((x, 0), closed) for x in range(4)] == [False, True, False, True]
    assert not m.passable((4, 0)) and m.blocks_sight((4, 0))


def test_steps_never_cut_a_corner() -> None:
    """From (1, 1): the diagonal to (2, 0) passes (2, 1) and (1, 0); rubble at (1, 0) forbids it."""
    m = grid(".o.",
             "...",
             "...")
    assert m.can_step((1, 1), (2, 1)) and m.can_step((1, 1), (2, 2)) and m.can_step((1, 1), (0, 2))
    assert not m.can_step((1, 1), (2, 0)) and not m.can_step((1, 1), (0, 0))  # both cut past (1, 0)
    assert not m.can_step((1, 1), (1, 0))  # into rubble
    assert not m.can_step((1, 1), (1, 1)) and not m.can_step((0, 2), (2, 2))  # not a neighbour
    assert m.neighbours((1, 1)) == [(2, 1), (2, 2), (1, 2), (0, 2), (0, 1)]  # E, SE, S, SW, W
    assert m.neighbours((0, 0)) == [(0, 1)]  # E is rubble; SE cuts past it
    assert m.neighbours((5, 5)) == []


def test_a_step_looks_at_where_it_goes_not_where_it_starts() -> None:
    """Only the square stepped into (and, on a diagonal, the two corners beside the step) must be
    passable: a figure standing in a doorway whose door is shut steps out straight, but not
    diagonally past the shut door's own square."""
    m = grid("...",
             ".D.",
             "...")
    shut = {(1, 1)}
    assert m.can_step((1, 1), (2, 1), shut) and m.can_step((1, 1), (1, 0), shut)
    assert not m.can_step((0, 1), (1, 1), shut)  # into the shut door
    assert m.can_step((0, 0), (1, 0), shut) and not m.can_step((0, 1), (1, 0), shut)  # past the door's corner


def test_neighbours_follow_the_doors_state() -> None:
    m = grid("...",
             ".D.",
             "...")
    assert m.neighbours((1, 1)) == [(1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1), (0, 0)]  # N..NW
    assert (1, 1) in m.neighbours((0, 0))
    assert (1, 1) not in m.neighbours((0, 0), {(1, 1)})
    assert m.neighbours((0, 0), {(1, 1)}) == [(1, 0), (0, 1)]  # the diagonal step needs the door open
    assert m.can_step((0, 0), (1, 1)) and not m.can_step((0, 0), (1, 1), {(1, 1)})
    # a diagonal step past a closed door: (1, 0) -> (0, 1) cuts past (0, 0) and (1, 1)
    assert m.can_step((1, 0), (0, 1)) and not m.can_step((1, 0), (0, 1), {(1, 1)})
    assert (0, 1) not in m.neighbours((1, 0), {(1, 1)}) and (0, 1) in m.neighbours((1, 0))


def test_adjacency_lists_the_doors_each_step_needs() -> None:
    m = grid(".D",
             "..")
    steps = {m.square(nb): (d, doors) for nb, d, doors in m.adjacency[m.index((0, 1))]}
    assert steps == {(0, 0): (N, ()), (1, 0): (NE, (1,)), (1, 1): (E, ())}
    assert {m.square(nb) for nb, _d, _doors in m.adjacency[m.index((1, 0))]} == {(1, 1), (0, 1), (0, 0)}


# -- distances, directions, arcs ------------------------------------------------------------------


def test_range_counts_diagonals_as_two() -> None:
    assert g.grid_range((0, 0), (0, 0)) == 0
    assert g.grid_range((0, 0), (1, 1)) == 2
    assert g.grid_range((3, 1), (0, 5)) == 7
    assert g.adjacent((2, 2), (3, 3)) and g.adjacent((2, 2), (2, 1)) and not g.adjacent((2, 2), (2, 2))
    assert not g.adjacent((2, 2), (4, 2)) and not g.adjacent((2, 2), (2, 4))


@pytest.mark.parametrize(("target", "facing"), [
    ((0, -1), N), ((1, -1), NE), ((1, 0), E), ((1, 1), SE), ((0, 1), S), ((-1, 1), SW), ((-1, 0), W),
    ((-1, -1), NW), ((0, 0), N), ((2, -1), NE), ((3, -1), E), ((5, 2), E), ((-1, 2), SW),
])
def test_direction_to(target: tuple[int, int], facing: int) -> None:
    """Clockwise from north: (2, -1) is at 63.4°, nearest 45 (NE); (3, -1) 71.6°, nearest 90 (E);
    (5, 2) 111.8°, nearer 90 (E) than 135; (-1, 2) 206.6°, nearer 225 (SW) than 180. A tie (an odd
    multiple of 22.5°) cannot occur between squares."""
    assert g.direction_to((0, 0), target) == facing
    assert g.direction_to((10, 10), (10 + target[0], 10 + target[1])) == facing
    assert g.direction_to((3, 8), (3 + target[0], 8 + target[1])) == facing  # x and y apart


def test_turn_steps() -> None:
    assert [g.turn_steps(0, b) for b in range(8)] == [0, 1, 2, 3, 4, 3, 2, 1]
    assert g.turn_steps(7, 1) == 2 and g.turn_steps(2, 6) == 4 and g.turn_steps(6, 5) == 1


@pytest.mark.parametrize(("target", "arc"), [
    ((0, -3), "front"), ((1, -1), "front"), ((3, -3), "front"),  # 45° exactly: front
    ((2, -1), "side"), ((1, 0), "side"), ((3, 0), "side"), ((1, 1), "side"),  # 135° exactly: side
    ((-1, 1), "side"), ((0, 1), "rear"), ((1, 2), "rear"), ((-1, 2), "rear"), ((-3, -2), "side"),
    ((0, 0), "front"),
])
def test_arcs_facing_north(target: tuple[int, int], arc: str) -> None:
    """Facing north: (1, -1) and (3, -3) are at 45° exactly (front); (2, -1) at 63.4° and (-3, -2) at
    56.3° are side; (1, 1) and (-1, 1) at 135° exactly are side; (1, 2) at 153.4° is rear."""
    origin = (5, 5)
    t = (origin[0] + target[0], origin[1] + target[1])
    assert g.arc_of(N, origin, t) == arc


def test_arcs_follow_the_facing_and_the_half_angles() -> None:
    o = (0, 0)
    assert g.arc_of(E, o, (3, 0)) == "front" and g.arc_of(E, o, (-3, 0)) == "rear"
    assert g.arc_of(E + 8, o, (3, 0)) == "front"  # facing taken mod 8
    assert g.arc_of(SE, o, (1, 0)) == "front" and g.arc_of(SE, o, (-1, 0)) == "side"
    # wider front (90°): a square straight to the side is in front; narrower rear (10°)
    assert g.arc_of(N, o, (1, 0), front_half_angle=90.0) == "front"
    assert g.arc_of(N, o, (1, 2), rear_half_angle=10.0) == "side"  # 153.4° <= 170
    assert g.arc_of(N, o, (0, 2), rear_half_angle=10.0) == "rear"


# -- line of fire ---------------------------------------------------------------------------------


def test_line_steps_by_hand() -> None:
    """From the centre of (0, 0): to (3, 1) the line crosses x = 2 at y = 1 exactly, a corner;
    to (2, 2) it passes two corners; to (-2, 1) it enters (-1, 0) then (-1, 1)."""
    assert g.line_steps(3, 1) == (((1, 0),), ((2, 0), (1, 1)), ((2, 1),))
    assert g.line_steps(2, 2) == (((1, 0), (0, 1)), ((1, 1),), ((2, 1), (1, 2)))
    assert g.line_steps(-2, 1) == (((-1, 0),), ((-1, 1),))
    assert g.line_steps(0, 3) == (((0, 1),), ((0, 2),))
    assert g.line_steps(0, -2) == (((0, -1),),)
    assert g.line_steps(-3, 0) == (((-1, 0),), ((-2, 0),))
    assert g.line_steps(1, -3) == (((0, -1),), ((1, -1), (0, -2)), ((1, -2),))  # the corner at (1, -1)
    assert g.line_steps(1, 0) == () and g.line_steps(1, 1) == (((1, 0), (0, 1)),)


def test_sight_walls_doors_obstructions_and_figures() -> None:
    m = grid("......",
             ".o.D#.",
             "......")
    assert g.sight(m, (0, 1), (0, 1)) == g.Sight(True)
    assert g.sight(m, (0, 1), (3, 1)) == g.Sight(True, (), 1)  # over the rubble at (1, 1), door open
    assert g.sight(m, (0, 1), (3, 1), closed={(3, 1)}) == g.Sight(True, (), 1)  # the target's own square
    assert g.sight(m, (0, 1), (5, 1)) == g.Sight(False)  # the wall at (4, 1)
    # (2, 1) to (5, 0) crosses (3, 1) first (then the corner (4,1)/(3,0), then (4, 0)): the door
    assert g.sight(m, (2, 1), (5, 0), closed={(3, 1)}) == g.Sight(False)
    # (0, 1) to (4, 0) crosses (1, 1) rubble, (2, 1), (2, 0), (3, 0)
    assert g.sight(m, (0, 1), (4, 0)) == g.Sight(True, (), 1)
    blocked = g.sight(m, (2, 1), (5, 1), closed={(3, 1)})
    assert blocked == g.Sight(False)
    figures = {(1, 1): "a", (2, 1): "b", (3, 1): "target"}
    assert g.sight(m, (0, 1), (3, 1), occupied=figures) == g.Sight(True, ((1, 1), (2, 1)), 1)


def test_sight_runs_along_the_edges_and_the_edge_blocks_it_like_a_wall() -> None:
    """Squares of the first column and row are squares like any other; beyond the edge is wall, so a
    line to a square off the map is blocked where it leaves the map, whichever side it leaves by."""
    m = grid("....",
             "....",
             "....")
    assert g.sight(m, (0, 0), (0, 2)) == g.Sight(True)
    assert g.sight(m, (0, 0), (0, 2), occupied={(0, 1): "a"}) == g.Sight(True, ((0, 1),))
    assert g.sight(m, (0, 0), (3, 0), occupied={(1, 0): "a", (2, 0): "b"}) == g.Sight(True, ((1, 0), (2, 0)))
    for beyond in [(1, -3), (6, 1), (1, 5), (-3, 1)]:
        assert g.sight(m, (1, 1), beyond) == g.Sight(False), beyond


def test_sight_through_a_corner_gives_the_benefit_of_the_doubt() -> None:
    """(0, 0) to (2, 2) passes the corners (1,0)/(0,1) and (2,1)/(1,2), and the square (1, 1)."""
    one_wall = grid(".#.",
                    "...",
                    "...")
    assert g.sight(one_wall, (0, 0), (2, 2)).clear
    both = grid(".#.",
                "#..",
                "...")
    assert g.sight(both, (0, 0), (2, 2)) == g.Sight(False)
    closed_door_and_wall = grid(".D.",
                                "#..",
                                "...")
    assert g.sight(closed_door_and_wall, (0, 0), (2, 2)).clear
    assert g.sight(closed_door_and_wall, (0, 0), (2, 2), closed={(1, 0)}) == g.Sight(False)
    rubble = grid(".o.",
                  "o..",
                  "...")
    assert g.sight(rubble, (0, 0), (2, 2)) == g.Sight(True, (), 1)
    half_rubble = grid(".o.",
                       "...",
                       "...")
    assert g.sight(half_rubble, (0, 0), (2, 2)) == g.Sight(True, (), 0)
    open_map = grid("...", "...", "...")
    assert g.sight(open_map, (0, 0), (2, 2), occupied={(1, 0): 1}).intervening == ()
    assert g.sight(open_map, (0, 0), (2, 2), occupied={(1, 0): 1, (0, 1): 2}).intervening == ((1, 0),)
    assert g.sight(open_map, (0, 0), (2, 2), occupied={(1, 1): 1, (2, 1): 2, (1, 2): 3}).intervening == \
        ((1, 1), (2, 1))


# -- fields and reach -----------------------------------------------------------------------------


def test_distance_field_from_several_sources() -> None:
    """Two sources at the ends of a 5-square corridor: the middle square is 2 from both."""
    m = grid(".....")
    f = g.distance_field(m, [(0, 0), (4, 0)])
    assert [f.at((x, 0)) for x in range(5)] == [0, 1, 2, 1, 0]
    assert [f.nearest((x, 0)) for x in range(5)] == [[0], [0], [0, 1], [1], [1]]
    assert f.at((9, 9)) == g.UNREACHABLE


def test_distance_field_walls_doors_and_diagonals() -> None:
    m = grid("..#..",
             "..D..",
             "..#..")
    open_door = g.distance_field(m, [(0, 1)])
    assert [open_door.at((x, 1)) for x in range(5)] == [0, 1, 2, 3, 4]
    assert open_door.at((4, 0)) == 4  # a diagonal step from (3, 1) counts one
    assert open_door.at((3, 2)) == 4  # not 3: the diagonal from the door would cut past the wall (2, 2)
    assert open_door.at((2, 0)) == g.UNREACHABLE
    shut = g.distance_field(m, [(0, 1)], closed=[(2, 1)])
    assert [shut.at((x, 1)) for x in range(5)] == [0, 1, g.UNREACHABLE, g.UNREACHABLE, g.UNREACHABLE]
    assert shut.nearest((4, 1)) == []


def test_distance_field_masks_every_equally_near_source() -> None:
    """Sources (0, 0) [0], (2, 0) [1] and an off-map one [2] (ignored, its bit unused); (1, 1) is
    1 from both real sources; a source listed twice keeps both bits."""
    m = grid("...",
             "...")
    f = g.distance_field(m, [(0, 0), (2, 0), (7, 7), (0, 0)])
    assert f.at((1, 1)) == 1 and f.nearest((1, 1)) == [0, 1, 3]
    assert f.nearest((0, 1)) == [0, 3] and f.nearest((2, 1)) == [1]
    assert f.at((0, 0)) == 0 and f.nearest((0, 0)) == [0, 3]


def test_reach_costs_blocked_and_stop_squares() -> None:
    """Orthogonal steps cost 2, diagonal 3 (as a ruleset might say); budget 4 from (0, 0)."""
    m = grid("....",
             ".#..",
             "....")
    got = g.reach(m, (0, 0), 4, 2, 3, set(), set(), set())
    assert got == {(1, 0): (2, E), (2, 0): (4, E), (0, 1): (2, S), (0, 2): (4, S)}  # (1,1) is a wall
    diag = g.reach(grid("...", "...", "..."), (0, 0), 3, 2, 3, set(), set(), set())
    assert diag == {(1, 0): (2, E), (0, 1): (2, S), (1, 1): (3, SE)}
    cheap = g.reach(grid("...", "...", "..."), (0, 0), 2, 1, 1, set(), {(1, 0)}, {(0, 1)})
    # (1, 0) cannot be entered; (0, 1) can but ends the move, so (0, 2) comes only via (1, 1)
    assert cheap == {(0, 1): (1, S), (1, 1): (1, SE), (2, 1): (2, E), (2, 2): (2, SE), (1, 2): (2, S),
                     (0, 2): (2, SW), (2, 0): (2, NE)}
    assert (0, 0) not in cheap


def test_reach_files_blocked_and_stop_squares_by_x_and_y_on_a_board_wider_than_tall() -> None:
    """Blocked and stop squares are looked up by their own x and y (a 4 x 3 board, so a mix-up of
    the two shows), and those off the board are ignored rather than wrapped onto another square."""
    m = grid("....",
             "....",
             "....")
    walled = g.reach(m, (0, 0), 4, 1, 1, set(), {(1, 0), (1, 1), (4, 0), (-1, 1), (0, 3)}, {(0, 1), (4, 1), (-1, 2)})
    assert walled == {(0, 1): (1, S)}  # every way on is blocked, and (0, 1) ends the move
    assert (3, 0) not in g.reach(m, (0, 0), 3, 1, 1, set(), {(3, 0)}, set())
    free = g.reach(m, (2, 0), 3, 1, 1, set(), {(0, 2), (9, 0), (0, 9)}, {(3, -1)})
    assert sorted(free) == sorted((x, y) for x in range(4) for y in range(3) if (x, y) not in ((2, 0), (0, 2)))
    assert (free[(0, 0)], free[(1, 2)], free[(3, 2)]) == ((2, W), (2, S), (2, SE))
    # a stop square on the top row, and one past the right edge (not to be wrapped onto the next row)
    gate = g.reach(m, (0, 0), 4, 1, 1, set(), {(1, 1), (1, 2)}, {(1, 0), (4, 0)})
    assert gate == {(1, 0): (1, E), (0, 1): (1, S), (0, 2): (2, S)}
    # a stop square whose x is past the board's height
    assert g.reach(m, (3, 2), 4, 1, 1, set(), {(2, 1), (2, 2)}, {(3, 1)}) == {(3, 1): (1, N)}


def test_reach_stops_at_closed_doors_and_its_path() -> None:
    m = grid(".D..")
    assert g.reach(m, (0, 0), 5, 1, 1, {(1, 0)}, set(), set()) == {}
    got = g.reach(m, (0, 0), 5, 1, 1, set(), set(), set())
    assert got == {(1, 0): (1, E), (2, 0): (2, E), (3, 0): (3, E)}
    assert g.path_to(m, (0, 0), (3, 0), got) == [(1, 0), (2, 0), (3, 0)]
    bent = g.reach(grid("...", "##.", "..."), (0, 0), 9, 1, 1, set(), set(), set())
    # no diagonal past the walls' corners: round by (2, 0), (2, 1), (2, 2)
    assert g.path_to(grid("...", "##.", "..."), (0, 0), (0, 2), bent) == [(1, 0), (2, 0), (2, 1), (2, 2), (1, 2),
                                                                           (0, 2)]
    assert bent[(0, 2)] == (6, W)


def test_clamp() -> None:
    m = grid("...", "...")
    assert g.clamp(m, (-4, 9)) == (0, 1) and g.clamp(m, (5, -1)) == (2, 0) and g.clamp(m, (1, 1)) == (1, 1)


def test_checks_away_from_the_diagonal() -> None:
    """Squares whose x and y differ, where mixing up the two coordinates would show; a line of fire
    through an open door; a facing above 7 taken mod 8."""
    assert g.adjacent((5, 2), (4, 3)) and g.adjacent((5, 2), (6, 2)) and not g.adjacent((5, 2), (5, 4))
    assert not g.adjacent((5, 2), (2, 5)) and not g.adjacent((1, 7), (2, 5))
    assert g.arc_of(N, (6, 2), (6, 0)) == "front" and g.arc_of(N, (6, 2), (8, 2)) == "side"
    assert g.arc_of(N, (6, 2), (6, 5)) == "rear" and g.arc_of(E, (2, 6), (4, 6)) == "front"
    assert g.arc_of(E + 8, (0, 0), (1, 1)) == "front"  # facing 10 is east: (1, 1) at 45 degrees
    m = grid(".....", "..d..")
    assert g.sight(m, (0, 1), (4, 1)) == g.Sight(True)  # through the open door
    assert g.sight(m, (0, 1), (4, 1), closed={(2, 1)}) == g.Sight(False)
    assert g.sight(m, (0, 0), (4, 0), closed={(2, 0)}) == g.Sight(True)  # "closed" open ground blocks nothing
    still = g.sight(m, (1, 1), (1, 1))
    assert (still.clear, still.intervening, still.obstructive) == (True, (), 0)


def test_the_kept_lines_and_fields_stay_within_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines of fire and distance fields are kept per map up to a bound (for huge maps); past it the
    kept ones are dropped, and every answer is still the one worked out afresh."""
    m = grid("......", "..#...", "......")
    monkeypatch.setattr(g, "_SIGHT_KEPT", 3)
    pairs = [((0, 0), (5, 2)), ((0, 1), (4, 1)), ((1, 0), (3, 2)), ((0, 2), (5, 0)), ((2, 0), (2, 2))]
    for a, b in pairs:
        assert g.sight(m, a, b).clear == (g._sight_terrain(m, a, b, frozenset()) is not None)
        assert len(m.memo[("sight", frozenset())]) <= 3
    monkeypatch.setattr(g, "_FIELD_SQUARES_KEPT", 2 * 18)  # two fields of this 6 x 3 map
    for src in ((0, 0), (5, 2), (3, 0), (0, 0)):
        kept = g.kept_distance_field(m, (src,), frozenset())
        assert kept.dist == g.distance_field(m, [src]).dist
        assert len(m.memo[("fields",)]) <= 2
