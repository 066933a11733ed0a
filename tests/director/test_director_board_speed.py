"""The board's quick paths against the plain ones they replace, on positions from real games.

The map's per-hex `steps`, the memoised survivors, zombies, route and touching tiles, `any_shot`,
the packed costs of `shots_from`, the approach fields cut at the farthest zombie and `reachable`
are each checked against the straightforward computation (the code before the speed work, kept
here as the reference), after every round of a few whole games, and against changes the world's
memos must notice (a ladder laid, a survivor added, a tile taken away)."""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any

import pytest

from ecs_zombie import Game, hexgrid, new_game
from ecs_zombie.components import HEX, Faction, Kind, Owner, Position
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.hexgrid import Hex
from ecs_zombie.systems.director.board import (
    SURVIVORS,
    ZOMBIES,
    Board,
    any_shot,
    director,
    hex_of,
    shots_from,
    survivors,
    zombies,
)
from ecs_zombie.systems.director.components import LadderLink, MapTile
from ecs_zombie.systems.director.heuristics import _route, route
from ecs_zombie.systems.director.players import reachable
from ecs_zombie.systems.director.tiles import _adjacent_tiles
from ecs_zombie.systems.director.zombies import approach_fields

# -- the plain computations ------------------------------------------------------------------------


def plain_bfs(board: Board, starts: list[Hex], passable: Callable[[Hex], bool]) -> dict[Hex, int]:
    dist: dict[Hex, int] = {}
    queue: list[Hex] = []
    for s in starts:
        if s not in dist:
            dist[s] = 0
            queue.append(s)
    i = 0
    while i < len(queue):
        h = queue[i]
        i += 1
        for n in hexgrid.neighbours(h):
            if n not in dist and passable(n) and board.linked(h, n):
                dist[n] = dist[h] + 1
                queue.append(n)
    return dist


def plain_shots(board: Board, start: Hex, max_range: int, shooter: int) -> dict[int, tuple[int, list[int]]]:
    best: dict[Hex, tuple[int, int]] = {start: (0, 0)}
    parent: dict[Hex, Hex] = {}
    heap: list[tuple[int, int, Hex]] = [(0, 0, start)]
    out: dict[int, tuple[int, list[int]]] = {}
    zs, ps = board.zombies, board.players
    while heap:
        d, c, h = heapq.heappop(heap)
        if best.get(h, (d, c)) < (d, c):
            continue
        if h in zs:
            if zs[h] not in out:
                path = []
                x = parent[h]
                while x != start:
                    if x in ps and ps[x] != shooter:
                        path.append(ps[x])
                    x = parent[x]
                out[zs[h]] = (d, sorted(path))
            continue
        if d >= max_range:
            continue
        for n in hexgrid.neighbours(h):
            if n not in board.tile_of or not board.linked(h, n):
                continue
            cost = (d + 1, c + (1 if n in ps else 0))
            if cost < best.get(n, (max_range + 1, 0)):
                best[n] = cost
                parent[n] = h
                heapq.heappush(heap, (cost[0], cost[1], n))
    return out


def plain_survivors(game: Game) -> list[int]:
    world = game.world
    seats = sorted((world.get(e, Owner).player, e) for e, f in world.query1(Faction) if f.side == SURVIVORS)
    lead = director(game)[1].first
    start = next((i for i, (s, _e) in enumerate(seats) if s >= lead), 0)
    return [seats[(start + i) % len(seats)][1] for i in range(len(seats))] if seats else []


def plain_touching(tiles: dict[int, MapTile]) -> dict[int, set[int]]:
    where = {(q, r): ent for ent, t in tiles.items() for q, r in t.hexes}
    out: dict[int, set[int]] = {e: set() for e in tiles}
    for h, ent in where.items():
        for n in hexgrid.neighbours(h):
            other = where.get(n)
            if other is not None and other != ent:
                out[ent].add(other)
    return out


def plain_reachable(game: Game, board: Board, ent: int, budget: int) -> tuple[dict[Hex, int], dict[Hex, Hex]]:
    start = hex_of(game.world.get(ent, Position))

    def cost(a: Hex, b: Hex) -> int | None:
        return 1 if board.free(b) and board.linked(a, b) else None

    extra = {h: [(to, c)] for h, (to, c) in board.links.items() if board.free(to) or to == start}
    return hexgrid.weighted_paths(start, cost, budget, extra)


# -- the checks ------------------------------------------------------------------------------------


def check_position(game: Game) -> None:
    """Every quick path agrees with its plain computation on the game as it stands."""
    board = Board(game)
    for h in board.tile_of:
        assert board.steps[h] == tuple(n for n in hexgrid.neighbours(h) if board.linked(h, n))
    assert survivors(game) == plain_survivors(game)
    assert zombies(game) == [e for e, f in game.world.query1(Faction) if f.side == ZOMBIES]
    tiles = dict(game.world.query1(MapTile))
    assert _adjacent_tiles(tiles, board.tile_of) == plain_touching(tiles)
    assert route(board) == _route(board)
    for ent in survivors(game):
        me = hex_of(game.world.get(ent, Position))
        for reach in (0, 1, 2, 3, 5, 8, 13):
            shots = shots_from(board, me, reach, ent)
            assert shots == plain_shots(board, me, reach, ent)
            assert any_shot(board, me, reach) == bool(shots)
        for budget in (1, 4):
            _s, best, parent = reachable(game, board, ent, budget)
            assert (best, parent) == plain_reachable(game, board, ent, budget)
    players = board.players
    fields = approach_fields(game, board)
    for ent, field in fields:
        me = hex_of(game.world.get(ent, Position))
        starts = [n for n in board.around(me) if n not in players]
        full = plain_bfs(board, starts, lambda h: h in board.tile_of and h not in players)
        reached = [full[z] for z in board.zombies if z in full]
        if len(reached) < len(board.zombies):  # a zombie out of reach: the whole walk
            assert field == full
        else:
            assert field == {h: d for h, d in full.items() if d <= max(reached, default=0)}


@pytest.mark.parametrize("ruleset,seed,players", [("director", 1, None), ("director", 7, None),
                                                  ("director-adaptive", 3, None), ("director", 5, 4),
                                                  ("director-sza", 2, None)])
def test_quick_paths_agree_with_the_plain_ones_round_by_round(ruleset: str, seed: int, players: int | None) -> None:
    game = new_game(ruleset, seed, players=players)
    try:
        check_position(game)
        game.play(PolicyTable("heuristic"), on_tick=check_position)
    finally:
        game.close()


def test_the_route_follows_a_new_ladder_and_a_new_survivor_counts(make_game: Any) -> None:
    """The memoised route is keyed on the ladders: one laid between two hexes of the map shortens
    it at once; a survivor who comes is among `survivors()` at once (the memos notice)."""
    game = make_game("director")
    game.play(PolicyTable("heuristic"), stop_after=2)
    board = Board(game)
    steps = route(board)
    far = max(steps, key=lambda h: (steps[h], h))
    near = min(steps, key=lambda h: (steps[h], h))
    # ladders come in pairs, one end each way; the route walks out from the goal, so the end by it counts
    game.world.create(Kind("ladder"), Position(near[0], near[1], HEX), LadderLink([far[0], far[1]], 1))
    again = route(Board(game))
    assert again == _route(Board(game)) and again[far] == steps[near] + 1 < steps[far]
    before = survivors(game)
    seat = max(game.world.get(e, Owner).player for e in before) + 1
    new = game.world.create(Faction(SURVIVORS), Owner(seat), Position(near[0], near[1], HEX))
    assert new in survivors(game) and survivors(game) == plain_survivors(game)


def test_a_seam_joins_only_its_two_hexes() -> None:
    """Where a tile's exit meets the entry of the tile laid against it, the two tiles connect at that
    pair of hexes only ("the entry point aligns with the current exit point"): from the exit hex a
    piece steps to the entry hex and its own tile's hexes, never to the other tile's hexes that
    happen to touch it (here two of them, on either side of the entry)."""
    from ecs_zombie.systems.director.board import _steps

    exit_hex, entry = (1, 0), (2, 0)
    tile_of = {(0, 0): 1, exit_hex: 1, (0, 1): 1, entry: 2, (2, -1): 2, (1, 1): 2, (3, 0): 2}
    seams = frozenset({(exit_hex, entry), (entry, exit_hex)})
    steps = _steps(tile_of, seams)

    def linked(a: Hex, b: Hex) -> bool:
        return b in tile_of and (tile_of[a] == tile_of[b] or (a, b) in seams)

    for h in tile_of:
        assert steps[h] == tuple(n for n in hexgrid.neighbours(h) if linked(h, n)), h
    assert set(steps[exit_hex]) == {(0, 0), (0, 1), entry}


def test_the_route_counts_steps_to_the_goal_tiles_centre_and_ladders_at_their_cost(make_game: Any) -> None:
    """The route is the hexes' steps to the goal (the alley laid against the start tile's exit, its
    centre (5, 0)): on the alley, the hex distance to its centre; a ladder from the alley's centre
    to the start tile's far west hex (-2, 0) costs 3, so that hex is 3 from the goal and its
    neighbour (-1, 0) 4; a ladder costing more than the way by foot changes nothing."""
    from tests.director.director_setup import east_tile, setup, tile

    game = make_game("director")
    setup(game)
    alley = east_tile(game, "ALLEY", "QUIET")
    centre = (5, 0)
    steps = route(Board(game))
    for q, r in tile(game, alley).hexes:
        assert steps[(q, r)] == hexgrid.distance((q, r), centre)
    by_foot = steps[(-1, 0)]
    assert by_foot > 4
    near = (4, 0)  # one step from the centre
    game.world.create(Kind("ladder"), Position(centre[0], centre[1], HEX), LadderLink([-2, 0], 3))
    game.world.create(Kind("ladder"), Position(6, 0, HEX), LadderLink([near[0], near[1]], 3))  # 1 + 3 > 1
    steps = route(Board(game))
    assert steps[(-2, 0)] == 3 and steps[(-1, 0)] == 4 and steps[near] == 1
