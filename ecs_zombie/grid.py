"""Square-grid geometry for board games on a map of squares: pure functions and frozen data, no esper.

Any ruleset on squares (Escape from Stalingrad Z, Singapore Zombie Apocalypse, ...) can reuse it.

Coordinates are `(x, y)`: `x` the column from the left, `y` the row from the top of the ASCII map.
Directions are 0..7 clockwise from north (0 = north = `y - 1`, 2 = east, 4 = south, 6 = west),
the same numbering as the core `Facing` component.

What is decided here, once, for every ruleset that uses it:

- **Terrain.** Each square is `open`, `obstructive` (rubble, wreckage: no figure enters it, sight
  passes over it), `wall` (nothing enters or sees through it) or `door` (a wall while closed, open
  ground while open; the open/closed state is the caller's, since it changes during a game).
- **Steps.** A figure steps to any of its eight neighbours. A diagonal step is illegal when either
  square it cuts past is impassable (no squeezing between a wall's corner and rubble).
- **Range** counts squares from the origin, not including its own square but including the target's,
  with diagonals counting 2: the sum `|dx| + |dy|`.
- **Arcs.** The angle between the facing and the line to the target decides: up to
  `front_half_angle` (45°) is the front arc, up to `180 - rear_half_angle` (135°) a side arc, beyond
  it the rear arc. Boundary lines belong to the narrower-angle arc (a square exactly at 45° is in front).
- **Line of fire.** The segment between the two squares' centres is walked square by square (the
  squares whose interior it crosses, in order, origin and target excluded). Where it passes exactly
  through a corner the shooter gets the benefit of the doubt: the two squares beside that corner
  count as one "corner pair" that blocks only if both block, adds an obstruction only if both are
  obstructive, and holds an intervening figure only if both hold one (then the one in the same row
  as the line's previous square is named). Walls and closed doors block; obstructive squares and
  figures do not block but are reported so rules can modify the hit number.
- **Distance field.** One breadth-first search from every target square at once gives, for every
  square, the number of steps to the nearest target and a bit mask of which targets are that near.
  Following any neighbour whose distance is one less and whose mask holds a chosen target walks a
  shortest path to that target, so one field serves every mover of a turn.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

Square = tuple[int, int]
T = TypeVar("T")

OPEN, OBSTRUCTIVE, WALL, DOOR = "open", "obstructive", "wall", "door"
TERRAINS = (OPEN, OBSTRUCTIVE, WALL, DOOR)
DIRECTIONS: tuple[Square, ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
UNREACHABLE = 1 << 30


@dataclass(frozen=True, slots=True)
class Cell:
    """What a legend character means: a terrain and any labels (`spawn:A`, `search`, `exit`, `start`)."""

    terrain: str = OPEN
    labels: tuple[str, ...] = ()
    door_open: bool = False


class MapError(ValueError):
    """A map problem, with the row and column (0-based) where it is when known."""

    def __init__(self, message: str, row: int | None = None, col: int | None = None) -> None:
        super().__init__(message)
        self.row = row
        self.col = col


@dataclass(frozen=True, slots=True, eq=False)
class GridMap:
    """A rectangular map of squares. Immutable: door states and figures belong to the game state."""

    width: int
    height: int
    terrain: tuple[str, ...]
    labels: Mapping[str, tuple[Square, ...]]
    doors: Mapping[Square, bool]  # door square -> open at the start
    # Precomputed by `build_adjacency`: for each square index, the legal steps out of it ignoring
    # doors' state, each (neighbour index, direction, door squares that must be open).
    adjacency: tuple[tuple[tuple[int, int, tuple[int, ...]], ...], ...] = field(default=())  # see build_adjacency
    # Values computed from the map alone (and, where keyed so, a set of closed doors): pure functions
    # of immutable data, so they can never be stale; shared by every game on this map. See `derived`.
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def inside(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def index(self, sq: Square) -> int:
        return sq[1] * self.width + sq[0]

    def square(self, index: int) -> Square:
        return index % self.width, index // self.width

    def terrain_at(self, sq: Square) -> str:
        return self.terrain[sq[1] * self.width + sq[0]] if self.inside(sq) else WALL

    def squares(self, label: str) -> tuple[Square, ...]:
        return self.labels.get(label, ())

    def passable(self, sq: Square, closed: frozenset[Square] | set[Square] = frozenset()) -> bool:
        """A figure may stand here: open ground, or a door that is open."""
        t = self.terrain_at(sq)
        return t == OPEN or (t == DOOR and sq not in closed)

    def blocks_sight(self, sq: Square, closed: frozenset[Square] | set[Square] = frozenset()) -> bool:
        t = self.terrain_at(sq)
        return t == WALL or (t == DOOR and sq in closed)

    def can_step(self, a: Square, b: Square, closed: frozenset[Square] | set[Square] = frozenset()) -> bool:
        """A one-square step from `a` to neighbouring `b` (diagonals may not cut an impassable corner)."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        if max(abs(dx), abs(dy)) != 1 or not self.passable(b, closed):
            return False
        if dx and dy:
            return self.passable((a[0] + dx, a[1]), closed) and self.passable((a[0], a[1] + dy), closed)
        return True

    def neighbours(self, sq: Square, closed: frozenset[Square] | set[Square] = frozenset()) -> list[Square]:
        """Squares one legal step away, in direction order (N, NE, E, ... NW)."""
        if not self.inside(sq):
            return []
        return list(self.neighbour_squares(closed)[sq[1] * self.width + sq[0]])

    def derived(self, key: tuple[Any, ...], make: Callable[[], T]) -> T:
        """`make()`, computed once per map and `key`: only for values that are a pure function of
        the map and the key (kept for as long as the map, shared by every game that plays on it)."""
        found = self.memo.get(key, _MISSING)
        if found is _MISSING:
            found = self.memo[key] = make()
        return found  # type: ignore[no-any-return]

    def squares_by_index(self) -> tuple[Square, ...]:
        """Every square, by index (`square(i)` without the arithmetic)."""
        return self.derived(("squares",), lambda: tuple((i % self.width, i // self.width)
                                                         for i in range(self.width * self.height)))

    def open_steps(self, closed: frozenset[Square] | set[Square] = frozenset()
                   ) -> tuple[tuple[tuple[int, int], ...], ...]:
        """For each square index, the legal steps out of it with the doors `closed` shut, each
        (neighbour index, direction), in direction order: `adjacency` with the door test done once
        per set of closed doors instead of once per step looked at."""
        key = closed if type(closed) is frozenset else frozenset(closed)
        found = self.memo.get(("steps", key))
        if found is None:
            w = self.width
            shut = {q[1] * w + q[0] for q in key if self.inside(q)}
            found = self.memo[("steps", key)] = tuple(
                tuple((nb, d) for nb, d, doors in steps if not (doors and not shut.isdisjoint(doors)))
                for steps in self.adjacency)
        return found  # type: ignore[no-any-return]

    def neighbour_indices(self, closed: frozenset[Square] | set[Square] = frozenset()
                          ) -> tuple[tuple[int, ...], ...]:
        """For each square index, the indices of the squares one legal step away with the doors
        `closed` shut, in direction order."""
        key = closed if type(closed) is frozenset else frozenset(closed)
        found = self.memo.get(("targets", key))
        if found is None:
            found = self.memo[("targets", key)] = tuple(tuple(nb for nb, _d in steps)
                                                        for steps in self.open_steps(key))
        return found  # type: ignore[no-any-return]

    def touch_squares(self, closed: frozenset[Square] | set[Square] = frozenset()) -> tuple[frozenset[Square], ...]:
        """For each square index, the squares `can_step` allows from it with the doors `closed` shut
        (touching: next to it with nothing between), looked up per set of closed doors."""
        key = closed if type(closed) is frozenset else frozenset(closed)
        found = self.memo.get(("touch", key))
        if found is None:
            found = self.memo[("touch", key)] = tuple(
                frozenset(b for b in ((x + dx, y + dy) for dx, dy in DIRECTIONS) if self.can_step((x, y), b, key))
                for x, y in self.squares_by_index())
        return found  # type: ignore[no-any-return]

    def label_indices(self, label: str) -> frozenset[int]:
        """The indices of the squares labelled `label`."""
        return self.derived(("label", label), lambda: frozenset(q[1] * self.width + q[0]
                                                                 for q in self.squares(label)))

    def neighbour_squares(self, closed: frozenset[Square] | set[Square] = frozenset()
                          ) -> tuple[tuple[Square, ...], ...]:
        """For each square index, the squares one legal step away with the doors `closed` shut, in
        direction order (what `neighbours` gives, looked up)."""
        key = closed if type(closed) is frozenset else frozenset(closed)
        found = self.memo.get(("neighbours", key))
        if found is None:
            sq = self.squares_by_index()
            found = self.memo[("neighbours", key)] = tuple(tuple(sq[nb] for nb, _d in steps)
                                                           for steps in self.open_steps(key))
        return found  # type: ignore[no-any-return]


Adjacency = tuple[tuple[tuple[int, int, tuple[int, ...]], ...], ...]
_MISSING = object()


def build_adjacency(width: int, height: int, terrain: tuple[str, ...]) -> Adjacency:
    """Every step legal when all doors are open, with the door squares the step needs open."""

    def ok(x: int, y: int) -> bool:
        return 0 <= x < width and 0 <= y < height and terrain[y * width + x] in (OPEN, DOOR)

    out = []
    for y in range(height):
        for x in range(width):
            steps: list[tuple[int, int, tuple[int, ...]]] = []
            if ok(x, y):
                for d, (dx, dy) in enumerate(DIRECTIONS):
                    nx, ny = x + dx, y + dy
                    if not ok(nx, ny):
                        continue
                    needed = [(nx, ny)]
                    if dx and dy:
                        if not (ok(x + dx, y) and ok(x, y + dy)):
                            continue
                        needed += [(x + dx, y), (x, y + dy)]
                    doors = tuple(sorted(qy * width + qx for qx, qy in needed if terrain[qy * width + qx] == DOOR))
                    steps.append((ny * width + nx, d, doors))
            out.append(tuple(steps))
    return tuple(out)


def parse_map(rows: list[str], legend: Mapping[str, Cell]) -> GridMap:
    """A map from ASCII rows (all the same width) and a legend of characters; raises `MapError`."""
    if not rows:
        raise MapError("a map needs at least one row")
    width = len(rows[0])
    if width == 0:
        raise MapError("a map row is empty", 0, 0)
    terrain: list[str] = []
    labels: dict[str, list[Square]] = {}
    doors: dict[Square, bool] = {}
    for y, row in enumerate(rows):
        if len(row) != width:
            raise MapError(f"row {y} is {len(row)} squares wide, the first row is {width}", y, len(row))
        for x, ch in enumerate(row):
            cell = legend.get(ch)
            if cell is None:
                raise MapError(f"character {ch!r} is not in the legend", y, x)
            if cell.terrain not in TERRAINS:
                raise MapError(f"unknown terrain {cell.terrain!r}", y, x)
            terrain.append(cell.terrain)
            if cell.terrain == DOOR:
                doors[(x, y)] = cell.door_open
            for label in cell.labels:
                labels.setdefault(label, []).append((x, y))
    t = tuple(terrain)
    return GridMap(width, len(rows), t, {k: tuple(v) for k, v in sorted(labels.items())}, doors,
                   build_adjacency(width, len(rows), t))


# -- distances, directions, arcs ------------------------------------------------------------------


def grid_range(a: Square, b: Square) -> int:
    """Range from `a` to `b`: squares counted, the target's included, diagonals counting 2."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def adjacent(a: Square, b: Square) -> bool:
    """The eight neighbours (terrain aside)."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def direction_to(a: Square, b: Square) -> int:
    """The facing (0..7) nearest the line from `a` to `b`; exact for neighbours; ties turn clockwise."""
    return _direction(b[0] - a[0], b[1] - a[1])


@lru_cache(maxsize=65536)
def _direction(dx: int, dy: int) -> int:
    """`direction_to` by offset (a pure function, kept: a zombie's every step asks it)."""
    if dx == 0 and dy == 0:
        return 0
    angle = math.degrees(math.atan2(dx, -dy)) % 360.0  # 0 = north, clockwise
    return math.floor(angle / 45.0 + 0.5) % 8


def turn_steps(a: int, b: int) -> int:
    """How many 45° steps separate two facings (0..4)."""
    d = (b - a) % 8
    return min(d, 8 - d)


def arc_of(facing: int, origin: Square, target: Square, front_half_angle: float = 45.0,
           rear_half_angle: float = 45.0) -> str:
    """`front`, `side` or `rear`: where `target` lies seen from `origin` facing `facing`."""
    return _arc(facing % 8, target[0] - origin[0], target[1] - origin[1], front_half_angle, rear_half_angle)


def arc_at(facing: int, dx: int, dy: int, front_half_angle: float = 45.0, rear_half_angle: float = 45.0) -> str:
    """`arc_of` for a facing already in 0..7 and the target's offset `(dx, dy)` from the origin."""
    return _arc(facing, dx, dy, front_half_angle, rear_half_angle)


@lru_cache(maxsize=65536)
def _arc(facing: int, dx: int, dy: int, front_half_angle: float, rear_half_angle: float) -> str:
    if dx == 0 and dy == 0:
        return "front"
    fx, fy = DIRECTIONS[facing]
    dot = fx * dx + fy * dy
    norm = math.hypot(fx, fy) * math.hypot(dx, dy)
    angle = math.degrees(math.acos(max(-1.0, min(1.0, dot / norm))))
    angle = round(angle, 6)
    if angle <= front_half_angle:
        return "front"
    if angle <= 180.0 - rear_half_angle:
        return "side"
    return "rear"


# -- line of fire ---------------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def line_steps(dx: int, dy: int) -> tuple[tuple[Square, ...], ...]:
    """The squares a line from (0, 0) to (dx, dy) crosses, in order, both ends excluded.

    Each entry is one square `((x, y),)` or a corner pair `((x1, y1), (x2, y2))` where the line
    passes exactly through the corner between them."""
    nx, ny = abs(dx), abs(dy)
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    x = y = ix = iy = 0
    out: list[tuple[Square, ...]] = []
    while ix < nx or iy < ny:
        decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
        if decision == 0:
            out.append(((x + sx, y), (x, y + sy)))
            x += sx
            y += sy
            ix += 1
            iy += 1
        elif decision < 0:
            x += sx
            ix += 1
        else:
            y += sy
            iy += 1
        if (x, y) != (dx, dy):
            out.append(((x, y),))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Sight:
    """A line of fire: whether it is clear, the intervening figures' squares in order from the origin,
    and how many obstructive squares it crosses."""

    clear: bool
    intervening: tuple[Square, ...] = ()
    obstructive: int = 0


def sight(grid: GridMap, a: Square, b: Square, closed: frozenset[Square] | set[Square] = frozenset(),
          occupied: Mapping[Square, Any] | None = None) -> Sight:
    """The line of fire from square `a` to square `b` (see the module docstring for the rule).

    What the terrain and the doors decide (blocked or not, the obstructive squares crossed, the
    squares where a figure would intervene) is walked once per map, closed doors and pair of squares
    (`_sight_terrain`, kept on the map); only the figures are looked at on every call."""
    if a == b:
        return _CLEAR
    key = closed if type(closed) is frozenset else frozenset(closed)
    lines = grid.memo.get(("sight", key))
    if lines is None:
        lines = grid.memo[("sight", key)] = {}
    found = lines.get((a, b), _MISSING)
    if found is _MISSING:
        if len(lines) >= _SIGHT_KEPT:  # a bound for huge maps: dropping pure values loses nothing
            lines.clear()
        found = lines[(a, b)] = _sight_terrain(grid, a, b, key)
    if found is None:
        return _BLOCKED
    if not occupied:
        return found[0]  # type: ignore[no-any-return]
    clear, crossed, checks = found
    if crossed is not None:  # no corner pair on the way: the squares crossed, in order
        if not crossed:
            return clear  # nothing between (neighbours, or a straight line of one step)
        intervening = [sq for sq in crossed if sq in occupied]
    else:
        intervening = [sq for sq, other in checks if sq in occupied and (other is None or other in occupied)]
    if not intervening:
        return clear  # type: ignore[no-any-return]
    return Sight(True, tuple(intervening), clear.obstructive)


_CLEAR = Sight(True)
_BLOCKED = Sight(False)
_SIGHT_KEPT = 1 << 18  # lines kept per map and set of closed doors (a 20 x 12 map has 57,600 pairs)


def _sight_terrain(grid: GridMap, a: Square, b: Square, closed: frozenset[Square]
                   ) -> tuple[Sight, tuple[Square, ...] | None, tuple[tuple[Square, Square | None], ...]] | None:
    """The line from `a` to `b` as the terrain and doors make it: None when blocked, else the sight
    with no figure about, the squares crossed when the line passes no corner (else None), and in
    order from `a`, where a figure would intervene: `(square, None)` for a square the line crosses,
    `(s1, s2)` for a corner pair (a figure on both intervenes, named s1)."""
    obstructive = 0
    checks: list[tuple[Square, Square | None]] = []
    w, h, terrain = grid.width, grid.height, grid.terrain
    ax, ay = a
    for entry in line_steps(b[0] - ax, b[1] - ay):
        if len(entry) == 1:
            x, y = ax + entry[0][0], ay + entry[0][1]
            t = terrain[y * w + x] if 0 <= x < w and 0 <= y < h else WALL
            if t == WALL or (t == DOOR and (x, y) in closed):
                return None
            if t == OBSTRUCTIVE:
                obstructive += 1
            checks.append(((x, y), None))
        else:
            s1 = (ax + entry[0][0], ay + entry[0][1])
            s2 = (ax + entry[1][0], ay + entry[1][1])
            if grid.blocks_sight(s1, closed) and grid.blocks_sight(s2, closed):
                return None
            if grid.terrain_at(s1) == OBSTRUCTIVE and grid.terrain_at(s2) == OBSTRUCTIVE:
                obstructive += 1
            checks.append((s1, s2))
    crossed = None if any(other is not None for _sq, other in checks) else tuple(sq for sq, _o in checks)
    return Sight(True, (), obstructive), crossed, tuple(checks)


# -- fields and reach -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Field:
    """Steps to the nearest source for every square (`UNREACHABLE` if none) and which sources are that near."""

    grid: GridMap
    dist: list[int]
    mask: list[int]

    def at(self, sq: Square) -> int:
        return self.dist[self.grid.index(sq)] if self.grid.inside(sq) else UNREACHABLE

    def nearest(self, sq: Square) -> list[int]:
        """Indices of the sources at the shortest distance from `sq`, ascending."""
        m = self.mask[self.grid.index(sq)]
        return [i for i in range(m.bit_length()) if m >> i & 1]


def distance_field(grid: GridMap, sources: list[Square], closed: Iterable[Square] = ()) -> Field:
    """One multi-source breadth-first search over legal steps (8 neighbours), closed doors impassable.

    Movers are not obstacles in the field (a crowd shuffles; the mover checks its next square).

    Computed on bit boards (Python's big integers, one bit a square): each breadth-first layer is a
    handful of shifts and masks per source over the whole map at once, so a 120 x 120 map costs
    about a tenth of a square-by-square search; the layers are then spread back to one distance and
    one mask per square. Up to 8 sources and 254 steps; beyond, the square-by-square search
    (`_distance_field_squares`, which gives the same field; so does a big-endian machine)."""
    if len(sources) > 8 or sys.byteorder != "little" or grid.width * grid.height <= _SMALL_MAP:
        return _distance_field_squares(grid, sources, closed)
    n, s = grid.width * grid.height, grid.width + 1
    closed_idx = frozenset(grid.index(q) for q in closed if grid.inside(q))
    starts, passable, dne, dnw, dse, dsw = _boards(grid, closed_idx)
    seeds = [1 << (sq[1] * s + sq[0]) if grid.inside(sq) else 0 for sq in sources]
    visited = 0
    for seed in seeds:
        visited |= seed
    fronts = [seed & starts for seed in seeds]  # a source where no step starts stays put (as in the search)
    regions = list(seeds)  # per source: the squares where it is among the nearest
    planes: list[int] = []  # planes[k]: the squares whose distance has bit k set
    unvisited = passable & ~visited
    sm, sp = s - 1, s + 1
    d = 0
    while True:
        d += 1
        layer = 0
        for i, x in enumerate(fronts):
            if x:
                x = (((x >> s) | (x << s) | (x >> 1) | (x << 1))
                     | ((x >> sm) & dne) | ((x >> sp) & dnw) | ((x << sp) & dse) | ((x << sm) & dsw)) & unvisited
                fronts[i] = x
                layer |= x
                regions[i] |= x
        if not layer:
            break
        if d > 254:
            return _distance_field_squares(grid, sources, closed)
        unvisited ^= layer
        visited |= layer
        k, e = 0, d
        while e:
            if e & 1:
                planes.extend([0] * (k + 1 - len(planes)))
                planes[k] |= layer
            e >>= 1
            k += 1
    code = 0
    for k, plane in enumerate(planes):
        code |= int.from_bytes(_square_bytes(grid, plane), "little") << k
    lanes = bytearray(4 * n)  # one int32 a square: the distance, or UNREACHABLE (its top byte 0x40)
    lanes[0::4] = code.to_bytes(n, "little")
    lanes[3::4] = _square_bytes(grid, ((1 << (grid.height * s)) - 1) & ~visited).translate(_UNREACHED)
    dist = memoryview(lanes).cast("i").tolist()
    code = 0
    for i, region in enumerate(regions):
        if region:
            code |= int.from_bytes(_square_bytes(grid, region), "little") << i
    lanes = bytearray(4 * n)
    lanes[0::4] = code.to_bytes(n, "little")
    return Field(grid, dist, memoryview(lanes).cast("i").tolist())


_BIT = tuple(bytes((b >> j) & 1 for b in range(256)) for j in range(8))  # byte -> its bit j
_UNREACHED = bytes(UNREACHABLE >> 24 if b else 0 for b in range(256))  # 1 -> UNREACHABLE's top byte


@lru_cache(maxsize=64)
def _boards(grid: GridMap, closed: frozenset[int]) -> tuple[int, int, int, int, int, int]:
    """The map as bit boards, bit `y * (width + 1) + x` a square (the extra column stays empty, so no
    shift carries a square into the next row): where a step may start (open ground or a door), where
    a figure may step (passable: closed doors excluded), and for each diagonal (NE, NW, SE, SW) the
    squares it may step into (passable, and both squares it cuts past passable). A pure function of
    the map and the closed doors, so kept."""
    w = grid.width
    starts = ["1" if t == OPEN or t == DOOR else "0" for t in grid.terrain]
    passable = list(starts)
    for k in closed:
        if grid.terrain[k] == DOOR:  # only a door closes (as in `GridMap.adjacency`)
            passable[k] = "0"

    def board(bits: list[str]) -> int:
        rows = ["".join(bits[y * w:(y + 1) * w]) + "0" for y in range(grid.height)]
        return int("".join(rows)[::-1] or "0", 2)

    s, p = w + 1, board(passable)
    return (board(starts), p, p & (p >> s) & (p << 1), p & (p >> s) & (p >> 1), p & (p << s) & (p << 1),
            p & (p << s) & (p >> 1))


def _square_bytes(grid: GridMap, board: int) -> bytes:
    """A bit board as one byte (0 or 1) a square, in square-index order."""
    w, s, h = grid.width, grid.width + 1, grid.height
    packed = board.to_bytes((h * s + 7) // 8, "little")
    spread = bytearray(len(packed) * 8)
    for j in range(8):
        spread[j::8] = packed.translate(_BIT[j])
    return b"".join(spread[y * s:y * s + w] for y in range(h))


def _distance_field_squares(grid: GridMap, sources: list[Square], closed: Iterable[Square] = ()) -> Field:
    """`distance_field` square by square: a list-based multi-source breadth-first search over the
    map's legal steps with these doors shut (`GridMap.open_steps`, looked up once per set of doors).
    On a small map (up to `_SMALL_MAP` squares) it is quicker than the bit boards' spreading back."""
    n = grid.width * grid.height
    dist = [UNREACHABLE] * n
    mask = [0] * n
    targets = grid.neighbour_indices(closed if type(closed) is frozenset else frozenset(closed))
    frontier: list[int] = []
    w, h = grid.width, grid.height
    for i, sq in enumerate(sources):
        if not (0 <= sq[0] < w and 0 <= sq[1] < h):
            continue
        k = sq[1] * w + sq[0]
        if dist[k] != 0:
            dist[k] = 0
            frontier.append(k)
        mask[k] |= 1 << i
    d = 0
    while frontier:
        d += 1
        nxt: list[int] = []
        for c in frontier:
            mc = mask[c]
            for nb in targets[c]:
                dn = dist[nb]
                if dn == UNREACHABLE:
                    dist[nb] = d
                    mask[nb] = mc
                    nxt.append(nb)
                elif dn == d:
                    mask[nb] |= mc
        frontier = nxt
    return Field(grid, dist, mask)


_SMALL_MAP = 512  # squares: up to here the square-by-square search is the quicker on a walled map (see distance_field)


def kept_distance_field(grid: GridMap, sources: tuple[Square, ...], closed: frozenset[Square]) -> Field:
    """`distance_field`, kept on the map per sources and closed doors: a pure function of the map
    and its arguments, so a kept field can never be stale, and the same few squares (figures'
    starting squares, a character beside a door) are asked for again and again, within a game and
    from game to game. The field is shared: read it, never change it. Bounded like the lines of
    fire (dropping pure values loses nothing)."""
    fields = grid.memo.get(("fields",))
    if fields is None:
        fields = grid.memo[("fields",)] = {}
    key = (sources, closed)
    found: Field | None = fields.get(key)
    if found is None:
        if len(fields) * max(1, grid.width * grid.height) >= _FIELD_SQUARES_KEPT:
            fields.clear()
        found = fields[key] = distance_field(grid, list(sources), closed)
    return found


_FIELD_SQUARES_KEPT = 1 << 20  # squares summed over the fields kept per map (two ints a square each)


def reach(grid: GridMap, start: Square, budget: int, step_cost: int, diagonal_cost: int,
          closed: frozenset[Square] | set[Square], blocked: frozenset[Square] | set[Square],
          stop: frozenset[Square] | set[Square]) -> dict[Square, tuple[int, int]]:
    """Squares reachable from `start` within `budget` movement points (Dijkstra over the legal steps,
    costs at least 1), each with its cost and the direction of the last step. `blocked` squares
    cannot be entered; `stop` squares can be entered but not left (entering them ends the move).
    The start square is excluded.

    Ties go to the first path found: cost buckets in order, squares within a bucket by index, steps
    in direction order. The legal steps with these doors shut, and their prices, are looked up
    (`priced_steps`), not tested step by step."""
    w, h = grid.width, grid.height
    found = reach_indices(grid, start[1] * w + start[0], budget, step_cost, diagonal_cost, closed,
                          {q[1] * w + q[0] for q in blocked if 0 <= q[0] < w and 0 <= q[1] < h},
                          {q[1] * w + q[0] for q in stop if 0 <= q[0] < w and 0 <= q[1] < h})
    squares = grid.squares_by_index()
    return {squares[k]: v for k, v in found.items()}


def reach_indices(grid: GridMap, s0: int, budget: int, step_cost: int, diagonal_cost: int,
                  closed: frozenset[Square] | set[Square], blocked: frozenset[int] | set[int],
                  stop: frozenset[int] | set[int]) -> dict[int, tuple[int, int]]:
    """`reach` by square index (`start`, `blocked` and `stop` as indices, the result keyed by index,
    in the order the squares were first reached): for callers that keep their squares as indices.
    A start off the map reaches nothing. Costs are kept in a list by square index (no dict)."""
    if budget < 0:
        return {}
    steps = grid.derived(("priced", closed if type(closed) is frozenset else frozenset(closed), step_cost,
                          diagonal_cost), lambda: priced_steps(grid, closed, step_cost, diagonal_cost))
    n = len(steps)
    if not 0 <= s0 < n:
        return {}  # a start off the map: no legal step out of it
    # Per square index: its cost so far, `budget + 1` while unreached (so one comparison asks both
    # "within the budget" and "cheaper"); blocked squares at -1, never bettered, so never entered.
    unreached = budget + 1
    cost_of = [unreached] * n
    for k in blocked:
        if 0 <= k < n:
            cost_of[k] = -1
    cost_of[s0] = 0
    dir_of = [0] * n
    order: list[int] = []  # the squares in the order first reached
    buckets: list[list[int]] = [[] for _ in range(unreached)]
    buckets[0].append(s0)
    for cost in range(unreached):
        layer = buckets[cost]
        if not layer:
            continue
        if len(layer) > 1:
            layer.sort()
        for c in layer:
            if cost_of[c] != cost or (c in stop and c != s0):
                continue
            for nb, d, price in steps[c]:
                nc = cost + price
                old = cost_of[nb]
                if nc < old:
                    if old == unreached:
                        order.append(nb)
                    cost_of[nb] = nc
                    dir_of[nb] = d
                    buckets[nc].append(nb)
    return {k: (cost_of[k], dir_of[k]) for k in order}


def priced_steps(grid: GridMap, closed: frozenset[Square] | set[Square], step_cost: int, diagonal_cost: int
                 ) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each square index, its legal steps with the doors `closed` shut: (neighbour index,
    direction, movement points), in direction order."""
    return tuple(tuple((nb, d, diagonal_cost if d & 1 else step_cost) for nb, d in steps)
                 for steps in grid.open_steps(closed))


def path_to(grid: GridMap, start: Square, goal: Square, reached: dict[Square, tuple[int, int]]) -> list[Square]:
    """The squares of the cheapest path `reach` found, start excluded, goal included."""
    out = [goal]
    sq = goal
    while True:
        d = reached[sq][1]
        dx, dy = DIRECTIONS[d]
        sq = (sq[0] - dx, sq[1] - dy)
        if sq == start:
            break
        out.append(sq)
    out.reverse()
    return out


def clamp(grid: GridMap, sq: Square) -> Square:
    return min(max(sq[0], 0), grid.width - 1), min(max(sq[1], 0), grid.height - 1)
