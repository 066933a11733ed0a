"""Square-grid geometry for Singapore Zombie Apocalypse's maps: rooms, walls, doors, stairs, sight.

The map tables (`sza.maps`) compile into a `Board`: every square has a number (y * width + x), a
room (or none: a wall), and maybe a feature. What changes during play (doors unlocked, windows
broken, the vehicle open to approach) is a list of opened squares kept in the `Stage` component;
passability is the board's static part plus that list. Distances are breadth-first over the
squares, diagonals included ("*diagonal movement included", Movement Tables) but never cutting a
wall's corner; the staircase joins its two squares, and a window joins the room it is in to the
square outside it that the map names (`to`), once broken. Results are cached per board and opened
set: they are pure functions of the data and the saved state, so a cache never changes a game.

Doors to a building ("They must stop moving once they reach a door to a building"): a door or a
window that joins an indoor room to an outdoor one (a room marked `outdoor`, or every room of an
outdoor board). Doors between two rooms of a building do not stop anyone ("Characters may also
freely move inside the buildings").
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

BLOCKING = frozenset({"debris"})
GATES = frozenset({"locked_door", "window", "vehicle"})  # passable only once opened
OPENINGS = frozenset({"door", "locked_door", "window"})  # a way through a wall: a door to a building if it leads out
UNSEEN = 10**6


@dataclass(frozen=True, slots=True)
class Room:
    """A room of a map, every field given by the map table (its defaults are the table's)."""

    id: str
    title: str
    hide: bool
    dark: bool
    smarts: int
    zombie_accuracy: int
    spot: bool
    outdoor: bool


@dataclass(slots=True)
class Graph:
    """Neighbours under one opened set, and breadth-first distances from squares asked so far.

    `grass`: the board's grass squares, which a mover keeps off among equally short ways; `steps`:
    for a goal, the square a mover on each square steps to next (see `step`), filled as asked.
    Like the distances, a pure function of the board and the opened set: a cache never changes a game."""

    neighbours: dict[int, tuple[int, ...]]
    dist: dict[int, dict[int, int]] = field(default_factory=dict)
    grass: frozenset[int] = frozenset()
    steps: dict[int, dict[int, int]] = field(default_factory=dict)

    def from_(self, cell: int) -> dict[int, int]:
        got = self.dist.get(cell)
        if got is None:
            got = {cell: 0}
            queue = deque([cell])
            nb = self.neighbours
            while queue:
                c = queue.popleft()
                d = got[c] + 1
                for n in nb.get(c, ()):
                    if n not in got:
                        got[n] = d
                        queue.append(n)
            self.dist[cell] = got
        return got

    def distance(self, a: int, b: int) -> int:
        return self.from_(b).get(a, UNSEEN)

    def step(self, cur: int, goal: int) -> int:
        """The square a mover on `cur` steps to along a shortest way to `goal`, -1 when none: of the
        neighbours nearer the goal, the lowest-numbered off grass, else the lowest-numbered (the
        movement rule's order, `min` by (grass, square); neighbours are listed in square order).
        `cur` must reach `goal`."""
        toward = self.steps.get(goal)
        if toward is None:
            toward = self.steps[goal] = {}
        nxt = toward.get(cur)
        if nxt is None:
            dist = self.from_(goal)
            here = dist[cur]
            grass = self.grass
            nxt = -1
            for n in self.neighbours.get(cur, ()):
                if dist.get(n, UNSEEN) < here:
                    if n not in grass:
                        nxt = n
                        break
                    if nxt == -1:  # the first one nearer, while none off grass is found
                        nxt = n
            toward[cur] = nxt
        return nxt


@dataclass(slots=True)
class Board:
    id: str
    title: str
    width: int
    height: int
    outdoor: bool
    rooms: dict[str, Room]
    room_at: dict[int, str]
    feature_at: dict[int, str]
    features: dict[str, list[int]]
    links: dict[int, int]
    spawns: dict[str, list[int]]
    start: list[int]
    vehicle: str = ""
    entrances: frozenset[int] = frozenset()  # doors (and windows) to a building: movement stops on them
    _graphs: dict[tuple[int, ...], Graph] = field(default_factory=dict)
    _last_graph: tuple[list[int], Graph] | None = None
    _around: dict[int, tuple[int, ...]] = field(default_factory=dict)
    _near: dict[int, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    _orthogonal: dict[int, frozenset[int]] = field(default_factory=dict)
    memo: dict[Any, Any] = field(default_factory=dict)  # pure functions of (board, saved state) only
    last_found: tuple[list[int], list[int], bool, dict[Any, Any]] | None = None  # memo's last hit, for look-ups
    grass: frozenset[int] = frozenset()  # grass squares (from `feature_at`, when made)

    def __post_init__(self) -> None:
        self.grass = frozenset(c for c, kind in self.feature_at.items() if kind == "grass")

    def around(self, cell: int) -> tuple[int, ...]:
        """The up to eight squares next to `cell`, in square order."""
        got = self._around.get(cell)
        if got is None:
            x, y = cell % self.width, cell // self.width
            got = tuple((y + dy) * self.width + x + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                        if (dx or dy) and 0 <= x + dx < self.width and 0 <= y + dy < self.height)
            self._around[cell] = got
        return got

    def near_features(self, cell: int) -> tuple[tuple[int, str], ...]:
        """(square, feature) of the squares on or next to `cell` that hold a feature, in square
        order: what a character there may act on. From the map alone, so kept per board."""
        got = self._near.get(cell)
        if got is None:
            got = self._near[cell] = tuple((c, self.feature_at[c]) for c in sorted((cell, *self.around(cell)))
                                           if self.feature_at.get(c))
        return got

    def orthogonals(self, cell: int) -> frozenset[int]:
        """The squares `orthogonal` to `cell` (of those numbered 0 or more): one look-up where a
        rule tests many squares against one. Kept per board."""
        got = self._orthogonal.get(cell)
        if got is None:
            w = self.width
            x = cell % w
            got = self._orthogonal[cell] = frozenset(
                [cell - w, cell + w] + ([cell - 1] if x > 0 else []) + ([cell + 1] if x < w - 1 else []))
        return got

    def cell(self, x: int, y: int) -> int:
        return y * self.width + x

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width

    def room(self, cell: int) -> Room | None:
        rid = self.room_at.get(cell)
        return self.rooms[rid] if rid else None

    def feature(self, cell: int) -> str:
        return self.feature_at.get(cell, "")

    def passable(self, cell: int, opened: frozenset[int] | set[int]) -> bool:
        kind = self.feature_at.get(cell, "")
        if kind in BLOCKING:
            return False
        if kind in GATES:
            return cell in opened
        return cell in self.room_at or kind == "door"

    def graph(self, opened: list[int]) -> Graph:
        """The board's graph with the squares `opened` open (built once per opened set)."""
        last = self._last_graph  # the set asked last, most often asked again: compared, not hashed
        if last is not None and last[0] == opened:
            return last[1]
        key = tuple(opened)
        g = self._graphs.get(key)
        if g is None:
            g = self._graphs[key] = self._build(frozenset(opened))
        self._last_graph = (list(opened), g)  # one assignment: games in threads see it whole
        return g

    def _build(self, opened: frozenset[int]) -> Graph:
        w, h = self.width, self.height
        ok = {c for c in range(w * h) if self.passable(c, opened)}
        nb: dict[int, tuple[int, ...]] = {}
        for c in sorted(ok):
            x, y = c % w, c // w
            out = []
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    if not (dx or dy):
                        continue
                    nx, ny = x + dx, y + dy
                    if not 0 <= nx < w:  # across the left or right edge (off the top or bottom is no square of ok)
                        continue
                    n = ny * w + nx
                    if n not in ok:
                        continue
                    # no corner cutting: a diagonal step needs both orthogonal squares open
                    if dx and dy and ((y * w + nx) not in ok or (ny * w + x) not in ok):
                        continue
                    out.append(n)
            link = self.links.get(c)
            if link is not None and link in ok and link not in out:
                out.append(link)
            nb[c] = tuple(sorted(out))
        return Graph(nb, grass=self.grass)

    def chebyshev(self, a: int, b: int) -> int:
        ax, ay = a % self.width, a // self.width
        bx, by = b % self.width, b // self.width
        return max(abs(ax - bx), abs(ay - by))

    def orthogonal(self, a: int, b: int) -> bool:
        ax, ay = a % self.width, a // self.width
        bx, by = b % self.width, b // self.width
        return abs(ax - bx) + abs(ay - by) == 1

    def sight(self, a: int, b: int, opened: list[int]) -> int | None:
        """Squares between a and b along a row or column with nothing in the way, else None.

        Ranged rule: "direct sight ... horizontally and vertically on the map"; "Targets behind a
        wall also not do count". Walls, unbroken windows, locked doors and debris block sight."""
        ax, ay = a % self.width, a // self.width
        bx, by = b % self.width, b // self.width
        if ax != bx and ay != by:
            return None
        n = abs(ax - bx) + abs(ay - by)
        if n == 0:
            return 0
        sx = (bx > ax) - (bx < ax)
        sy = (by > ay) - (by < ay)
        op = set(opened)
        for i in range(1, n):
            c = (ay + sy * i) * self.width + ax + sx * i
            if not self.passable(c, op) or self.feature_at.get(c) == "vehicle":
                return None
        return n


def compile_board(name: str, doc: dict[str, Any]) -> Board:
    """A board from a validated map entry (see `tables.maps`)."""
    w, h = doc["size"]
    outdoor = bool(doc.get("outdoor", False))
    rooms: dict[str, Room] = {}
    room_at: dict[int, str] = {}
    for rid, r in doc["rooms"].items():
        rooms[rid] = Room(rid, r["title"], bool(r.get("hide", False)), bool(r.get("dark", False)),
                          int(r.get("smarts", 0)), int(r.get("zombie_accuracy", 0)), bool(r.get("spot", True)),
                          bool(r.get("outdoor", outdoor)))
        x0, y0, rw, rh = r["area"]
        for y in range(y0, y0 + rh):
            for x in range(x0, x0 + rw):
                room_at[y * w + x] = rid
    feature_at: dict[int, str] = {}
    features: dict[str, list[int]] = {}
    links: dict[int, int] = {}
    vehicle = ""
    for f in doc["features"]:
        for c in _cells(f, w):
            feature_at[c] = f["kind"]
            features.setdefault(f["kind"], []).append(c)
        if f["kind"] in ("stairs", "window") and "to" in f:
            a = f["at"][1] * w + f["at"][0]
            b = f["to"][1] * w + f["to"][0]
            links[a], links[b] = b, a
            if f["kind"] == "stairs":
                feature_at[b] = "stairs"
                features.setdefault("stairs", []).append(b)
        if f["kind"] == "vehicle":
            vehicle = str(f.get("vehicle", "car"))
    for cells in features.values():
        cells.sort()
    spawns = {k: [y * w + x for x, y in v] for k, v in doc.get("spawns", {}).items()}
    if "start_area" in doc:
        start = _cells({"area": doc["start_area"]}, w)
    else:
        sid = doc["start"]
        start = sorted(c for c, r in room_at.items() if r == sid)
    board = Board(name, doc["title"], w, h, outdoor, rooms, room_at, feature_at, features, links, spawns,
                  sorted(start), vehicle)
    board.entrances = frozenset(c for c, kind in feature_at.items() if kind in OPENINGS and _leads_out(board, c))
    return board


def _leads_out(board: Board, cell: int) -> bool:
    """Whether an opening joins an indoor room and an outdoor one (through its wall or its link)."""
    near = [n for n in board.around(cell) if board.orthogonal(cell, n)]
    if cell in board.links:
        near.append(board.links[cell])
    sides = {board.rooms[board.room_at[n]].outdoor for n in near if n in board.room_at}
    return sides == {False, True}


def _cells(f: dict[str, Any], w: int) -> list[int]:
    if "at" in f:
        x, y = f["at"]
        return [y * w + x]
    x0, y0, aw, ah = f["area"]
    return [y * w + x for y in range(y0, y0 + ah) for x in range(x0, x0 + aw)]
