"""What Stalingrad's attacks measure on a board: range, the squares between two targets, touching,
line of fire and arcs, looked up by the board's grid (`Position.grid`), so that the fire modes (ROF
dice pools, spread fire, H2H, covering fire) can run on another game's board.

Stalingrad's own board is the square map (`stalingrad.map`, `ecs_zombie.grid`): `SquareGeometry`.
A hybrid on hex cells registers a geometry for `hex` with `register_geometry` (a subclass of
`HexGeometry`, which takes its distances from `ecs_zombie.boards.distance` and leaves the line of
fire and the arcs to the board that knows its walls and facings). The attack step then measures
every range, spread and touch with it.

What stays on squares, and why:
- **Line of fire and arcs on hexes.** The engine has no hex line of fire (`ecs_zombie.boards` gives
  distance and neighbours only) and the Director game's shooting lines are routes over its tiles
  (`systems/director/board.py`, `shots_from`: the shortest route that passes no zombie, with the
  survivors it passes), not straight lines; `Facing` is 0..7 on squares and the Director game has
  no facing at all. A hex geometry must therefore say how it sees (`sight`: clear, the intervening
  figures' cells in order, obstructive cells crossed) and what its front arc is (`arc`).
- **Grenades.** The throw's rings (range 8, diagonals 2), the deviation table's eight compass
  directions and the clamp at the map's edge are the square map's: a geometry that is not
  `SquareGeometry` offers no grenade attack (`grenades = False`).
- **Movement and zones of control** (`activation.py`) walk the square map's legal steps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ecs_zombie import boards
from ecs_zombie.components import HEX, SQUARE, Facing, Position
from ecs_zombie.errors import GameError
from ecs_zombie.game import Game
from ecs_zombie.grid import Sight, Square, adjacent, arc_of, grid_range, sight
from ecs_zombie.systems.stalingrad.board import closed_doors, gmap, mods
from ecs_zombie.systems.stalingrad.components import DoorState


class Geometry:
    """The measures of one board, built for one question (doors do not change while it is used)."""

    grid = SQUARE
    grenades = False
    kept = False  # True: built once per game (it reads what changes, such as doors, when asked)

    def __init__(self, game: Game) -> None:
        self.game = game

    def range(self, a: Square, b: Square) -> int:
        """Normal fire step 2: cells counted from `a` (not included) to `b` (included)."""
        raise NotImplementedError

    def between(self, a: Square, b: Square) -> int:
        """Spread fire: the cells between two targets (`ecs_zombie.boards.distance` minus one)."""
        return max(0, boards.distance(Position(a[0], a[1], self.grid), Position(b[0], b[1], self.grid)) - 1)

    def touching(self, a: Square, b: Square) -> bool:
        """H2H range 1 and zombie attacks: next to each other with nothing between."""
        raise NotImplementedError

    def sight(self, a: Square, b: Square, occupied: Mapping[Square, int]) -> Sight:
        """The line of fire from `a` to `b`: clear or not, the intervening figures' cells in order
        from `a`, the obstructive cells crossed (`occupied`: cell -> the figure on it)."""
        raise NotImplementedError

    def arc(self, facing: int, origin: Square, target: Square) -> str:
        """`front`, `side` or `rear` of a figure at `origin` facing `facing`."""
        raise NotImplementedError

    def facing_arc(self, ent: int, target: Square) -> str:
        p = self.game.world.get(ent, Position)
        return self.arc(self.game.world.get(ent, Facing).direction, (p.x, p.y), target)


class SquareGeometry(Geometry):
    """Stalingrad's square map: range with diagonals counting 2, touching = one legal step (no wall
    corner between), the line-of-fire rule of `ecs_zombie.grid.sight`, arcs from the modifiers table.
    It reads the doors as they are when asked, so one serves the whole game."""

    grid = SQUARE
    grenades = True
    kept = True  # one per game (`geometry` keeps it)

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.map = gmap(game)
        m = mods(game)
        self.front, self.rear = m.front_half_angle, m.rear_half_angle

    @property
    def closed(self) -> frozenset[Square]:
        return closed_doors(self.game)

    def range(self, a: Square, b: Square) -> int:
        return grid_range(a, b)

    def touching(self, a: Square, b: Square) -> bool:
        return adjacent(a, b) and self.map.can_step(a, b, closed_doors(self.game))

    def sight(self, a: Square, b: Square, occupied: Mapping[Square, int]) -> Sight:
        return sight(self.map, a, b, closed_doors(self.game), occupied)

    def arc(self, facing: int, origin: Square, target: Square) -> str:
        return arc_of(facing, origin, target, self.front, self.rear)


class HexGeometry(Geometry):
    """Hex cells (axial): range, spread and touching by `ecs_zombie.boards.distance`; a subclass
    registered by the hybrid gives `sight` and `arc` (see the module docstring)."""

    grid = HEX

    def range(self, a: Square, b: Square) -> int:
        return boards.distance(Position(a[0], a[1], HEX), Position(b[0], b[1], HEX))

    def touching(self, a: Square, b: Square) -> bool:
        return self.range(a, b) == 1

    def sight(self, a: Square, b: Square, occupied: Mapping[Square, int]) -> Sight:
        raise GameError("Stalingrad's fire modes on hex cells need the hex board's line of fire: register a "
                        "HexGeometry subclass with stalingrad.geometry.register_geometry('hex', ...)")

    def arc(self, facing: int, origin: Square, target: Square) -> str:
        raise GameError("Stalingrad's fire modes on hex cells need the hex board's arcs: register a "
                        "HexGeometry subclass with stalingrad.geometry.register_geometry('hex', ...)")


GEOMETRIES: dict[str, Callable[[Game], Geometry]] = {SQUARE: SquareGeometry}


def register_geometry(grid: str, make: Callable[[Game], Geometry]) -> None:
    """Measure attacks by figures standing on `grid` cells with `make(game)` (code, like a system):
    called for every question, unless `make.kept` (then once per game, kept by the world)."""
    GEOMETRIES[grid] = make


def geometry(game: Game, ent: int) -> Geometry:
    """The geometry of the board the figure `ent` stands on."""
    grid = game.world.get(ent, Position).grid
    make = GEOMETRIES.get(grid)
    if make is None:
        raise GameError(f"Stalingrad's attacks have no geometry for {grid} cells (known: "
                        f"{', '.join(sorted(GEOMETRIES))}); register one with stalingrad.geometry.register_geometry")
    if make is SquareGeometry:  # the usual board: its key built once (asked at every look and shot)
        return game.world.memo(_SQUARE_KEY, _KEPT_WITH, lambda: SquareGeometry(game))
    if getattr(make, "kept", False):  # kept with the doors (made at setup), which it reads live
        return game.world.memo(("stalingrad.geometry", grid, make), _KEPT_WITH, lambda: make(game))
    return make(game)


_SQUARE_KEY = ("stalingrad.geometry", SQUARE, SquareGeometry)
_KEPT_WITH = (DoorState, Position)
