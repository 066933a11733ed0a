"""The look-ups that make Stalingrad quick give exactly what the plain computations gave.

`ecs_zombie.grid` keeps, on each map, values that are pure functions of the map and a set of closed
doors (legal steps, neighbours, touching squares, the terrain's part of every line of fire) and
reach and the distance field read them. Each is checked here against the plain computation it
replaced (written out below as it was), on seeded random maps, closed doors given as sets and as
frozensets, each look-up asked twice (built, then read back). The grenade heuristic's `bound` is
checked never to fall under the blast's value on the boards of played games, and the activation's
look-ups (blocking and stopping squares, move options, estimates, the first throw square, blast
values, kept distance fields) against the plain computations at every action decision of played
games.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from ecs_zombie import grid, new_game
from ecs_zombie.components import Facing
from ecs_zombie.decisions import Decision, PolicyTable
from ecs_zombie.game import Game
from ecs_zombie.grid import DOOR, OBSTRUCTIVE, WALL, Cell, GridMap, Sight, Square, line_steps, parse_map
from ecs_zombie.rng import derive
from ecs_zombie.systems.stalingrad import activation, attack, board, heuristics
from ecs_zombie.systems.stalingrad.board import gmap
from ecs_zombie.systems.stalingrad.components import ActivationState
from ecs_zombie.systems.stalingrad.geometry import SquareGeometry, geometry
from tests.stalingrad.stalingrad_support import OPEN_MAP, at, char, declare, make, mark, zombie

LEGEND = {".": Cell("open"), "#": Cell("wall"), "%": Cell("obstructive"), "+": Cell("door"),
          "/": Cell("door", (), True)}


def random_maps(seed: str, count: int) -> Iterator[tuple[GridMap, list[Square], Any]]:
    """Seeded maps of walls, rubble, open and closed doors; the closed doors (with a square that is
    no door, which closes nothing), as a set or a frozenset."""
    gen = derive(7, seed)
    for n in range(count):
        w, h = 1 + gen.below(12), 1 + gen.below(12)
        rows = ["".join(".#%+/"[gen.below(5)] if gen.below(3) == 0 else "." for _x in range(w)) for _y in range(h)]
        g = parse_map(rows, LEGEND)
        closed = [d for d in sorted(g.doors) if gen.below(2)] + [(gen.below(w), gen.below(h))]
        squares = [(x, y) for y in range(h) for x in range(w)]
        yield g, squares, set(closed) if n % 2 else frozenset(closed)


def plain_sight(g: GridMap, a: Square, b: Square, closed: Any, occupied: Mapping[Square, Any] | None) -> Sight:
    """The line of fire walked square by square on every call (the code before the look-up)."""
    if a == b:
        return Sight(True)
    occ = occupied or {}
    intervening: list[Square] = []
    obstructive = 0
    ax, ay = a
    for entry in line_steps(b[0] - ax, b[1] - ay):
        if len(entry) == 1:
            x, y = ax + entry[0][0], ay + entry[0][1]
            t = g.terrain_at((x, y))
            if t == WALL or (t == DOOR and (x, y) in closed):
                return Sight(False)
            if t == OBSTRUCTIVE:
                obstructive += 1
            if (x, y) in occ:
                intervening.append((x, y))
        else:
            s1 = (ax + entry[0][0], ay + entry[0][1])
            s2 = (ax + entry[1][0], ay + entry[1][1])
            if g.blocks_sight(s1, closed) and g.blocks_sight(s2, closed):
                return Sight(False)
            if g.terrain_at(s1) == OBSTRUCTIVE and g.terrain_at(s2) == OBSTRUCTIVE:
                obstructive += 1
            if s1 in occ and s2 in occ:
                intervening.append(s1)
    return Sight(True, tuple(intervening), obstructive)


def plain_reach(g: GridMap, start: Square, budget: int, step: int, diagonal: int, closed: Any,
                blocked: set[Square], stop: set[Square]) -> dict[Square, tuple[int, int]]:
    """Reach as it was: the door test on every step looked at, squares converted on the way."""
    closed_idx = {g.index(q) for q in closed if g.inside(q)}
    blocked_idx = {g.index(q) for q in blocked if g.inside(q)}
    stop_idx = {g.index(q) for q in stop if g.inside(q)}
    s0 = g.index(start)
    best: dict[int, tuple[int, int]] = {s0: (0, -1)}
    buckets: dict[int, list[int]] = {0: [s0]}
    for cost in range(budget + 1):
        for c in sorted(buckets.pop(cost, [])):
            if best[c][0] != cost or (c in stop_idx and c != s0):
                continue
            for nb, d, doors in g.adjacency[c]:
                if nb in blocked_idx or (doors and not closed_idx.isdisjoint(doors)):
                    continue
                nc = cost + (diagonal if d & 1 else step)
                if nc <= budget and (nb not in best or nc < best[nb][0]):
                    best[nb] = (nc, d)
                    buckets.setdefault(nc, []).append(nb)
    del best[s0]
    return {g.square(k): v for k, v in best.items()}


def test_lines_of_fire_looked_up_are_the_lines_walked() -> None:
    """Every pair of squares of 40 seeded maps, with figures on a third of the squares (corner pairs
    half held and fully held), and with none: the same sight as the walk, asked twice."""
    gen = derive(7, "figures")
    for g, squares, closed in random_maps("sight", 40):
        occupied = {sq: i for i, sq in enumerate(squares) if gen.below(3) == 0}
        for a in squares:
            for b in squares:
                for occ in (occupied, None, {}):
                    want = plain_sight(g, a, b, closed, occ)
                    assert grid.sight(g, a, b, closed, occ) == want, (a, b, closed)
                    assert grid.sight(g, a, b, closed, occ) == want


def test_steps_neighbours_and_touching_looked_up_are_the_rules() -> None:
    """The legal steps with doors shut are the adjacency's with the door test; neighbours, their
    indices and the touching squares are what `can_step` allows, in direction order."""
    for g, squares, closed in random_maps("steps", 150):
        shut = {g.index(q) for q in closed if g.inside(q)}
        for sq in squares:
            k = g.index(sq)
            steps = [(nb, d) for nb, d, doors in g.adjacency[k] if not (doors and not shut.isdisjoint(doors))]
            assert list(g.open_steps(closed)[k]) == steps
            assert g.neighbours(sq, closed) == [g.square(nb) for nb, _d in steps]
            assert list(g.neighbour_indices(closed)[k]) == [nb for nb, _d in steps]
            around = {(sq[0] + dx, sq[1] + dy) for dx, dy in grid.DIRECTIONS}
            assert g.touch_squares(closed)[k] == {b for b in around if g.can_step(sq, b, closed)}
        assert g.touch_squares(closed) is g.touch_squares(frozenset(closed))  # kept per set of doors


def test_reach_by_index_is_the_plain_reach() -> None:
    """Reach, by square and by index, against the plain search: the same squares, costs, last steps
    and order, with zombies' squares blocked and zones of control stopping, at walking and running
    prices and budgets from -1 to 9."""
    gen = derive(7, "reach")
    for g, squares, closed in random_maps("reach", 150):
        start = squares[gen.below(len(squares))]
        blocked = {sq for sq in squares if gen.below(6) == 0 and sq != start}
        stop = {sq for sq in squares if gen.below(5) == 0}
        for budget in range(-1, 10):
            for step, diagonal in ((1, 2), (2, 3)):
                want = plain_reach(g, start, budget, step, diagonal, closed, blocked, stop)
                got = grid.reach(g, start, budget, step, diagonal, closed, blocked, stop)
                assert list(got.items()) == list(want.items())
                by_index = grid.reach_indices(g, g.index(start), budget, step, diagonal, closed,
                                              {g.index(q) for q in blocked}, {g.index(q) for q in stop})
                assert [(g.square(k), v) for k, v in by_index.items()] == list(want.items())


def test_small_maps_search_square_by_square_and_large_ones_on_bit_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both ways give one field: the bit boards forced on small maps, and the square-by-square
    search forced on a large one."""
    for g, squares, closed in random_maps("fields", 150):
        sources = squares[:: 1 + len(squares) // 5][:8]
        plain = grid._distance_field_squares(g, sources, closed)
        monkeypatch.setattr(grid, "_SMALL_MAP", 0)
        bits = grid.distance_field(g, sources, closed)
        monkeypatch.undo()
        assert (bits.dist, bits.mask) == (plain.dist, plain.mask)
    large = parse_map(["." * 40] * 30, LEGEND)
    assert large.width * large.height > grid._SMALL_MAP
    sources = [(0, 0), (39, 29), (20, 15)]
    assert grid.distance_field(large, sources) == grid._distance_field_squares(large, sources)


class _Checking:
    """The heuristic, calling `check` with the acting character at every action decision first."""

    name = "checking"

    def __init__(self) -> None:
        self.policy = PolicyTable("heuristic")
        self.checked = 0

    def choose(self, game: Game, decision: Decision) -> int:
        if decision.kind == "stalingrad.action":
            self.check(game, decision.context["character"])
        return self.policy.choose(game, decision)

    def check(self, game: Game, ent: int) -> None:
        raise NotImplementedError


class _CheckingBound(_Checking):
    """At every action decision, the grenade's bound is at or above the blast's value on every
    square of the map."""

    def check(self, game: Game, ent: int) -> None:
        blast = heuristics._Blast.of(game, ent)
        if blast is not None:
            g = gmap(game)
            for y in range(g.height):
                for x in range(g.width):
                    bound = blast.bound((x, y))
                    assert bound is not None and bound >= blast.value((x, y)), (x, y)
                    self.checked += 1


def test_the_grenade_bound_is_never_under_the_blast() -> None:
    """On the boards of three played games, at every action decision of a character with grenades."""
    policy = _CheckingBound()
    for seed in (1, 2, 3):
        game = new_game("stalingrad", seed)
        game.play(policy)  # type: ignore[arg-type]
        game.close()
    assert policy.checked > 1000


class _CheckingMoves(_Checking):
    """The heuristic, checking at every action decision of played games that the activation's
    look-ups give what the plain computations give: the squares that block and end a move (one pass
    over the zombies) against the occupancy, `zoc_squares` and the exits; the move options against
    `grid.reach` over squares; the zone-of-control test against the set; the estimates with the H2H
    targets the listing found against those looked for again; the zombies forcing H2H and in view,
    found in one pass, against `forced_h2h` and `visible_zombies` (and those within a range against
    the nearest of all in view); the first square a grenade could be
    thrown to against the rings walked; the blast's values kept per board and landing square
    against the values weighed again; the grenade heuristic's choice against every square weighed; and every
    distance field the map kept against a fresh one."""

    def check(self, game: Game, ent: int) -> None:
        g = gmap(game)
        closed = board.closed_doors(game)
        occ = board.occupancy(game)
        undead = set(board.zombies(game))
        zoc = activation.zoc_squares(game, closed)
        assert zoc == plain_zoc(game, closed)
        blocked, stop = activation._move_bounds(game, g, closed)
        assert blocked == {g.index(sq) for sq, e in occ.items() if e in undead and g.inside(sq)}
        assert stop == {g.index(sq) for sq in zoc} | {g.index(sq) for sq in g.squares("exit")}
        for sq in g.squares_by_index():
            assert activation._in_zoc(game, sq, closed) == (sq in zoc)
        act = game.world.get(ent, ActivationState)
        costs = game.tables["stalingrad.movement"][act.mode]
        options, seen, reach = activation._actions_seen(game, ent, costs)
        assert (options, seen) == activation.actions_seen(game, ent, costs)
        assert activation.estimates(game, ent, options, seen, reach) == activation.estimates(game, ent, options)
        if act.mp > 0 and not board.locked(game, ent):
            want = grid.reach(g, board.pos(game, ent), act.mp, costs.step, costs.diagonal, closed,
                              {sq for sq, e in occ.items() if e in undead}, zoc | set(g.squares("exit")))
            moves = [o for o in options if o[0] == "move"]
            assert moves == [["move", x, y] for x, y in sorted(want, key=lambda q: (q[1], q[0])) if (x, y) not in occ]
            _options, reached = activation.move_options(game, ent, costs, act.mp)
            assert reached == want
        geo = geometry(game, ent)
        assert isinstance(geo, SquareGeometry)
        visible = attack.visible_zombies(game, ent, geo)
        assert attack._in_front(game, ent, geo) == (attack.forced_h2h(game, ent, geo), visible)
        for within in (0, 1, 2, 3, 5):
            assert attack.visible_zombies(game, ent, geo, within) == [t for t in visible if t[0] <= within]
        first = plain_first_throw_square(game, ent)
        assert attack.grenade_squares(game, ent, True) == ([] if first is None else [first])
        assert first is None or first in attack.grenade_squares(game, ent)
        blast = heuristics._Blast.of(game, ent)
        if blast is not None:
            for _z, p in board.side_positions(game, board.ZOMBIES):
                sq = (p.x, p.y)
                assert blast.value(sq) == blast._value(sq) == blast.value(sq)
            for land, kept in list(blast.values.items()):  # every value kept for this board so far
                assert kept == blast._value(land), land
        assert heuristics.best_grenade(game, ent) == plain_best_grenade(game, ent)
        self.checked += 1


def plain_zoc(game: Game, closed: frozenset[Square]) -> set[Square]:
    """Every square one legal step from a zombie that is not stunned (unless the modifiers keep the
    zone while stunned), a figure off the map having none (the code before the look-up)."""
    g = gmap(game)
    keep = board.mods(game).zoc_while_stunned
    out: set[Square] = set()
    for z in board.zombies(game):
        if keep or not board.stunned(game, z):
            out.update(g.neighbours(board.pos(game, z), closed))
    return out


def plain_best_grenade(game: Game, ent: int) -> tuple[float, Square | None]:
    """The grenade heuristic's choice with every zombie's square in throwing range weighed (no
    bound, no order): the highest value first, then by row, then column; then the throw's value.
    None without two zombies within range 2 of each other, one of them in throwing range."""
    mx, my = board.pos(game, ent)
    blast = heuristics._Blast.of(game, ent)
    if blast is None:
        return 0.0, None
    squares = [(p.x, p.y) for _z, p in board.side_positions(game, board.ZOMBIES)]
    if not any(0 < abs(a[0] - b[0]) + abs(a[1] - b[1]) <= 2 and abs(mx - a[0]) + abs(my - a[1]) <= 8
               for a in squares for b in squares):
        return 0.0, None
    weighed = [((-blast._value(sq), sq[1], sq[0]), sq) for sq in squares if abs(mx - sq[0]) + abs(my - sq[1]) <= 8]
    if not weighed:
        return 0.0, None
    key, sq = min(weighed)
    if -key[0] < heuristics.GRENADE_WORTH:
        return 0.0, None
    full = heuristics.throw_value(game, ent, sq, blast)
    return (full, sq) if full > 0.0 else (0.0, None)


def plain_first_throw_square(game: Game, ent: int) -> Square | None:
    """The first square a grenade could be thrown to, rings in order, walked (not looked up)."""
    g = gmap(game)
    closed = board.closed_doors(game)
    m = board.mods(game)
    me = board.pos(game, ent)
    facing = game.world.get(ent, Facing).direction
    for r in range(1, attack.GRENADE_RANGE + 1):
        for dx in range(-r, r + 1):
            rest = r - abs(dx)
            for dy in ((-rest, rest) if rest else (0,)):
                sq = (me[0] + dx, me[1] + dy)
                if g.passable(sq, closed) and grid.arc_of(facing, me, sq, m.front_half_angle,
                                                          m.rear_half_angle) != "rear":
                    return sq
    return None


def test_move_look_ups_are_the_plain_computations() -> None:
    """On three played games of each Tractor Works ruleset, at every action decision; then every
    distance field the map kept is a fresh `distance_field` of its sources and doors."""
    policy = _CheckingMoves()
    for ruleset in ("stalingrad", "stalingrad-shambling"):
        for seed in (1, 2, 3):
            game = new_game(ruleset, seed)
            game.play(policy)  # type: ignore[arg-type]
            g = gmap(game)
            game.close()
            kept = g.memo[("fields",)]
            assert kept
            for (sources, closed), field in kept.items():
                fresh = grid.distance_field(g, list(sources), closed)
                assert (field.dist, field.mask) == (fresh.dist, fresh.mask)
    assert policy.checked > 200


def test_kept_distance_fields_are_kept_per_sources_and_doors(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same sources and doors give the same (kept) field, other doors another; a full store is
    emptied before it grows past its bound."""
    g = parse_map(["....", ".+..", "...."], LEGEND)
    first = grid.kept_distance_field(g, ((0, 0),), frozenset())
    assert grid.kept_distance_field(g, ((0, 0),), frozenset()) is first
    shut = grid.kept_distance_field(g, ((0, 0),), frozenset({(1, 1)}))
    assert shut is not first and shut.at((1, 1)) == grid.UNREACHABLE and first.at((1, 1)) == 1
    monkeypatch.setattr(grid, "_FIELD_SQUARES_KEPT", 12 * 20)
    bound = grid._FIELD_SQUARES_KEPT // (g.width * g.height)
    for x in range(bound + 5):
        grid.kept_distance_field(g, ((x % 4, 0), (x, 9)), frozenset())
    assert len(g.memo[("fields",)]) <= bound


def test_figures_off_the_map_touch_nothing_and_hold_no_zone(tmp_path: Path) -> None:
    """A hand-made scenario may stand a zombie beyond the map's edge (one square past each side):
    the look-ups indexed by square never read such a figure as the square that index would name
    (one row down, one row up), and the squares along the edges are read as themselves. Checked
    as the played games are (`_CheckingMoves`), with the zombies beside the edges stunned and not."""
    w, h = len(OPEN_MAP[0]), len(OPEN_MAP)
    off = [(w, 0), (0, h), (-1, 3), (3, -1), (w, h - 2)]
    edge = [(0, 2), (w - 1, 1), (2, h - 1)]
    game = make(tmp_path, [char("commissar", 1, 1), *(zombie("walker", x, y) for x, y in off + edge)])
    ent = at(game, 1, 1)
    declare(game, ent, "running", 6)
    policy = _CheckingMoves()
    policy.check(game, ent)
    mark(game, at(game, 0, 2), "stunned")
    policy.check(game, ent)
    g = gmap(game)
    closed = board.closed_doors(game)
    ring = [(x, y) for y in range(-1, h + 1) for x in range(-1, w + 1)]
    for a in ring:
        for b in ring:
            if max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 2:
                want = grid.adjacent(a, b) and g.can_step(a, b, closed)
                assert board.touching(game, a, b) == want == board.touching(game, a, b, closed), (a, b)
    assert board.touching(game, (w, 0), (0, 1)) is False  # index w is square (0, 1)
