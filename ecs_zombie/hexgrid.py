"""Hex geometry in axial coordinates: neighbours, distance, rotation, shortest paths, tile placement.

Pure functions over `(q, r)` tuples; nothing here knows esper, components or a ruleset.

Coordinates. A hex is `(q, r)` in axial form; its cube form is `(x, y, z) = (q, -q - r, r)`.

Neighbours. Direction `d` (0..5) counter-clockwise from east, "pointy-top" layout:

    0 east (+1, 0)   1 north-east (+1, -1)   2 north-west (0, -1)
    3 west (-1, 0)   4 south-west (-1, +1)   5 south-east (0, +1)

Direction `d + 3 (mod 6)` is the opposite of `d`.

Distance. The number of steps between two hexes: `(|dq| + |dr| + |dq + dr|) / 2` (the cube
distance, since `dy = -dq - dr`).

Rotation. `rotate(h, k)` turns a hex `k` sixths of a turn counter-clockwise about the origin,
`(q, r) -> (q + r, -q)` per step; it maps direction `d` to direction `d + k`.

Shortest paths. `bfs` counts steps from a start over hexes a predicate allows, visiting neighbours
in direction order 0..5, so ties between equally short paths always resolve the same way.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Iterable, Mapping

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def neighbour(h: Hex, d: int) -> Hex:
    """The hex one step from `h` in direction `d` (taken mod 6)."""
    dq, dr = DIRECTIONS[d % 6]
    return (h[0] + dq, h[1] + dr)


def neighbours(h: Hex) -> list[Hex]:
    """The six hexes around `h`, in direction order 0..5."""
    q, r = h
    return [(q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1), (q, r + 1)]


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes on an open board (the cube distance)."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def direction_of(a: Hex, b: Hex) -> int | None:
    """The direction from `a` to an adjacent `b`, or None when they are not neighbours."""
    step = (b[0] - a[0], b[1] - a[1])
    return DIRECTIONS.index(step) if step in DIRECTIONS else None


def opposite(d: int) -> int:
    return (d + 3) % 6


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Hex, b: Hex) -> Hex:
    return (a[0] - b[0], a[1] - b[1])


def rotate(h: Hex, k: int) -> Hex:
    """`h` turned `k` sixths of a turn counter-clockwise about the origin."""
    q, r = h
    for _ in range(k % 6):
        q, r = q + r, -q
    return (q, r)


def within(center: Hex, radius: int) -> list[Hex]:
    """Every hex at most `radius` steps from `center`, sorted (made in that order: q, then r, rising)."""
    out = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            out.append((center[0] + dq, center[1] + dr))
    return out


def line(start: Hex, d: int, passable: Callable[[Hex], bool]) -> list[Hex]:
    """The hexes from `start` (excluded) straight along direction `d` while `passable` holds."""
    out = []
    h = neighbour(start, d)
    while passable(h):
        out.append(h)
        h = neighbour(h, d)
    return out


def bfs(starts: Iterable[Hex], passable: Callable[[Hex], bool], limit: int | None = None) -> dict[Hex, int]:
    """Steps from the nearest start to every hex reachable through `passable` hexes.

    Starts are always included (distance 0) whatever `passable` says of them."""
    dist: dict[Hex, int] = {}
    queue: deque[Hex] = deque()
    for s in starts:
        if s not in dist:
            dist[s] = 0
            queue.append(s)
    while queue:
        h = queue.popleft()
        d = dist[h] + 1
        if limit is not None and d > limit:
            continue
        q, r = h
        for n in ((q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1), (q, r + 1)):
            if n not in dist and passable(n):
                dist[n] = d
                queue.append(n)
    return dist


def shortest_path(start: Hex, goal: Hex, passable: Callable[[Hex], bool]) -> list[Hex] | None:
    """The hexes after `start` up to and including `goal` on a shortest path, or None.

    `goal` need not be passable (a target's own hex); the hexes in between must be."""
    if start == goal:
        return []
    parent: dict[Hex, Hex] = {start: start}
    queue: deque[Hex] = deque([start])
    while queue:
        h = queue.popleft()
        for n in neighbours(h):
            if n in parent:
                continue
            if n == goal:
                path = [n]
                while h != start:
                    path.append(h)
                    h = parent[h]
                path.reverse()
                return path
            if passable(n):
                parent[n] = h
                queue.append(n)
    return None


def weighted_paths(start: Hex, cost: Callable[[Hex, Hex], int | None], budget: int,
                   extra: Mapping[Hex, list[tuple[Hex, int]]] | None = None
                   ) -> tuple[dict[Hex, int], dict[Hex, Hex]]:
    """Cheapest cost and predecessor of every hex reachable from `start` within `budget`.

    `cost(a, b)` is the price of stepping from `a` to its neighbour `b`, or None where it is
    forbidden; `extra` adds links that are not neighbours (ladders) with their own price. Ties go
    to the link found first (neighbours in direction order, then extra links)."""
    best: dict[Hex, int] = {start: 0}
    parent: dict[Hex, Hex] = {}
    heap: list[tuple[int, int, Hex]] = [(0, 0, start)]
    order = 0
    while heap:
        c, _o, h = heapq.heappop(heap)
        if c > best[h]:  # a stale entry: a cheaper way here was found after it was pushed
            continue
        steps = [(n, cost(h, n)) for n in neighbours(h)]
        if extra and h in extra:
            steps.extend(extra[h])
        for n, price in steps:
            if price is None:
                continue
            nc = c + price
            if nc <= budget and nc < best.get(n, budget + 1):
                best[n] = nc
                parent[n] = h
                order += 1
                heapq.heappush(heap, (nc, order, n))
    return best, parent


def path_to(parent: Mapping[Hex, Hex], start: Hex, goal: Hex) -> list[Hex]:
    """The hexes after `start` up to `goal`, from a predecessor map of `weighted_paths`."""
    path = []
    h = goal
    while h != start:
        path.append(h)
        h = parent[h]
    path.reverse()
    return path


def placement(entry: Hex, entry_dir: int, exit_hex: Hex, exit_dir: int) -> tuple[int, Hex]:
    """How to lay a tile so that its entry point meets an exit point: (rotation, offset).

    The tile's local `entry` hex, whose open side faces local direction `entry_dir`, must land on
    the hex beyond `exit_hex` in `exit_dir`, facing back (`opposite(exit_dir)`). A local hex `h`
    of the tile then lies at `add(rotate(h, rotation), offset)`."""
    rotation = (opposite(exit_dir) - entry_dir) % 6
    target = neighbour(exit_hex, exit_dir)
    offset = sub(target, rotate(entry, rotation))
    return rotation, offset


def transform(h: Hex, rotation: int, offset: Hex) -> Hex:
    """A tile's local hex on the map, after `placement`'s rotation and offset."""
    return add(rotate(h, rotation), offset)
