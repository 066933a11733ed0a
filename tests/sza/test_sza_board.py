"""The square grid's geometry on a small board made for the purpose ("Movement": "*diagonal movement
included"; "Combat Sequence (Ranged)": direct sight "horizontally and vertically", "Targets behind a
wall also not do count"; DESIGN CHOICE: no cutting a wall's corner, the staircase joins two squares).

    x 0123456        rooms: a (1..3, 1..2), b (5, 1..3); a door at (4, 2); a window at (0, 1);
 y 0 .......         debris at (2, 2); a staircase (1, 1) <-> (5, 3); a car at (3, 1)
   1 W/aV.b.
   2 .a#aDb.
   3 ...../.         ('.' is a wall: every square no room covers)
"""

from __future__ import annotations

from typing import Any

import pytest

from ecs_zombie.systems.sza.board import UNSEEN, Board, compile_board

DOC: dict[str, Any] = {
    "title": "Test", "size": [7, 4],
    "rooms": {"a": {"title": "A", "area": [1, 1, 3, 2], "hide": True, "smarts": -2},
              "b": {"title": "B", "area": [5, 1, 1, 3], "dark": True, "zombie_accuracy": -1, "spot": False}},
    "features": [{"kind": "window", "at": [0, 1]}, {"kind": "door", "at": [4, 2]}, {"kind": "debris", "at": [2, 2]},
                 {"kind": "stairs", "at": [1, 1], "to": [5, 3]}, {"kind": "vehicle", "at": [3, 1], "vehicle": "truck"}],
    "spawns": {"s": [[5, 1]]}, "start": "a",
}


@pytest.fixture
def board() -> Board:
    return compile_board("test", DOC)


def c(board: Board, x: int, y: int) -> int:
    return board.cell(x, y)


def test_compiled_board(board: Board) -> None:
    """Rooms with their effects, features by square (sorted), the staircase's link both ways, spawns,
    the start room's squares in order, the vehicle's kind; an unspecified room has no effect."""
    a, b = board.rooms["a"], board.rooms["b"]
    assert (a.hide, a.dark, a.smarts, a.zombie_accuracy, a.spot) == (True, False, -2, 0, True)
    assert (b.hide, b.dark, b.smarts, b.zombie_accuracy, b.spot) == (False, True, 0, -1, False)
    assert board.features["stairs"] == [c(board, 1, 1), c(board, 5, 3)]
    assert board.feature(c(board, 5, 3)) == "stairs" and board.feature(c(board, 6, 0)) == ""
    assert board.links == {8: 26, 26: 8}
    assert board.spawns == {"s": [12]} and board.start == [8, 9, 10, 15, 16, 17] and board.vehicle == "truck"
    assert board.room(c(board, 2, 1)) == a and board.room(c(board, 0, 0)) is None
    assert (board.xy(26), board.cell(5, 3), board.outdoor) == ((5, 3), 26, False)


def test_around(board: Board) -> None:
    """The up to eight squares next to a square, in square order, never across the board's edges."""
    assert board.around(c(board, 0, 0)) == (1, 7, 8)
    assert board.around(c(board, 6, 0)) == (5, 12, 13)
    assert board.around(c(board, 3, 2)) == (9, 10, 11, 16, 18, 23, 24, 25)
    assert board.around(c(board, 6, 3)) == (19, 20, 26)
    assert board.around(c(board, 0, 2)) == (7, 8, 15, 21, 22)


def test_passable_and_neighbours(board: Board) -> None:
    """Room squares and doors are open; walls and debris never; a window or a vehicle once opened.
    Diagonal steps need both squares beside them open; the staircase is a step."""
    g = board.graph([])
    assert g.neighbours[c(board, 1, 1)] == (c(board, 2, 1), c(board, 1, 2), c(board, 5, 3))
    assert g.neighbours[c(board, 2, 1)] == (c(board, 1, 1),)  # not past the debris' or the car's corner
    assert g.neighbours[c(board, 3, 2)] == (c(board, 4, 2),)
    assert g.neighbours[c(board, 5, 3)] == (c(board, 1, 1), c(board, 5, 2))  # not past the wall's corner to the door
    assert c(board, 3, 1) not in g.neighbours and c(board, 0, 1) not in g.neighbours
    opened = board.graph([c(board, 0, 1), c(board, 3, 1)])
    assert opened.neighbours[c(board, 0, 1)] == (c(board, 1, 1),)  # (1, 2) is past the corner of (0, 2)
    assert opened.neighbours[c(board, 3, 1)] == (c(board, 2, 1), c(board, 3, 2))
    assert board.graph([c(board, 2, 2)]).neighbours.get(c(board, 2, 2)) is None  # debris stays shut


def test_distances(board: Board) -> None:
    """Breadth-first squares, diagonals included, through the door and by the stairs."""
    g = board.graph([])
    assert g.distance(c(board, 1, 2), c(board, 5, 1)) == 4  # by the stairs
    assert g.distance(c(board, 1, 1), c(board, 5, 3)) == 1
    assert g.distance(c(board, 1, 1), c(board, 0, 0)) == UNSEEN
    assert g.from_(c(board, 3, 2)) == {c(board, 3, 2): 0, c(board, 4, 2): 1, c(board, 5, 2): 2, c(board, 5, 1): 3,
                                       c(board, 5, 3): 3, c(board, 1, 1): 4, c(board, 2, 1): 5, c(board, 1, 2): 5}


def test_chebyshev_and_orthogonal(board: Board) -> None:
    assert board.chebyshev(c(board, 0, 0), c(board, 6, 3)) == 6
    assert board.chebyshev(c(board, 2, 3), c(board, 4, 0)) == 3
    assert board.chebyshev(c(board, 3, 0), c(board, 1, 3)) == 3
    assert [board.orthogonal(c(board, 3, 2), c(board, *xy)) for xy in ((3, 1), (4, 2), (2, 2), (3, 3), (4, 3),
                                                                       (3, 2), (5, 2))] == \
        [True, True, True, True, False, False, False]


def test_sight(board: Board) -> None:
    """Squares along a row or column with nothing in the way between; walls, debris, an unopened
    window and the vehicle (opened or not) block; the ends themselves do not."""
    assert board.sight(c(board, 1, 2), c(board, 3, 2), []) is None  # the debris at (2, 2)
    assert board.sight(c(board, 3, 2), c(board, 5, 2), []) == 2
    assert board.sight(c(board, 5, 2), c(board, 3, 2), []) == 2
    assert board.sight(c(board, 5, 1), c(board, 5, 3), []) == 2
    assert board.sight(c(board, 5, 3), c(board, 5, 1), []) == 2
    assert board.sight(c(board, 1, 1), c(board, 2, 2), []) is None  # not along a row or column
    assert board.sight(c(board, 2, 1), c(board, 2, 1), []) == 0
    assert board.sight(c(board, 2, 1), c(board, 5, 1), []) is None  # the car and a wall
    assert board.sight(c(board, 2, 1), c(board, 5, 1), [c(board, 3, 1), c(board, 4, 1)]) is None  # the car still
    assert board.sight(c(board, 3, 3), c(board, 3, 0), []) is None  # walls at (3, 3)..(3, 0)'s way
    assert board.sight(c(board, 1, 1), c(board, 1, 2), []) == 1


def test_no_step_across_the_boards_edge() -> None:
    """A square on the right edge has no neighbour on the left edge of the next row, nor one on the
    left edge a neighbour on the right edge of the row above; the left edge's squares are neighbours
    (the street is open floor to both edges)."""
    from ecs_zombie.ruleset import load_ruleset

    street = load_ruleset("sza").tables["sza.maps"]["street"]
    g = street.graph([])
    assert g.neighbours[street.cell(23, 1)] == tuple(sorted(street.cell(x, y) for x, y in
                                                            ((22, 0), (23, 0), (22, 1), (22, 2), (23, 2))))
    assert g.distance(street.cell(23, 1), street.cell(0, 2)) == 23
    assert g.neighbours[street.cell(0, 1)] == tuple(sorted(street.cell(x, y) for x, y in
                                                           ((0, 0), (1, 0), (1, 1), (0, 2), (1, 2))))
    assert street.cell(0, 1) in g.neighbours[street.cell(1, 1)]


def test_a_window_joins_the_garden_only_once_broken() -> None:
    """A window joins the room it is in to the square outside that the map names, once broken: the
    garden square (12, 13) outside the window at (12, 11) steps into it only after it is broken."""
    from ecs_zombie.ruleset import load_ruleset

    bungalow = load_ruleset("sza").tables["sza.maps"]["bungalow"]
    window, garden = bungalow.cell(12, 11), bungalow.cell(12, 13)
    assert bungalow.links[garden] == window
    assert window not in bungalow.graph([]).neighbours[garden]
    assert window in bungalow.graph([window]).neighbours[garden]


def test_features_listed_in_square_order() -> None:
    """However the map lists them, a kind's squares are kept in square order."""
    doc = dict(DOC, features=[{"kind": "window", "at": [6, 3]}, {"kind": "window", "at": [0, 1]},
                              {"kind": "window", "at": [3, 0]}])
    assert compile_board("test", doc).features["window"] == [3, 7, 27]
