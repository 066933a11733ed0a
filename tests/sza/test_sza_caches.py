"""What the rules keep to play quickly gives what working it out again gives: the next step towards a
goal kept per board graph, the squares next to a square, one way serving both paces (`Reach`), the
goals and nearest features kept per looted/opened state, the board's last graph, and the sides'
pieces kept by `World.memo` as entities come, go, change sides or leave the board."""

from __future__ import annotations

from typing import Any

from sza_helpers import STREET, alone, ctx, laid_out, markers, put, reaches, who, zombie

from ecs_zombie.components import Faction
from ecs_zombie.game import Game
from ecs_zombie.systems.sza.actions import goals, nearest_feature
from ecs_zombie.systems.sza.board import UNSEEN, Board
from ecs_zombie.systems.sza.components import Stage
from ecs_zombie.systems.sza.moves import Reach, enemy_cells
from ecs_zombie.systems.sza.state import ZOMBIES, characters, engage_square, side_pieces, zombie_ids, zombies


def _open_squares(board: Board, stage: Stage) -> list[int]:
    return sorted(board.graph(stage.opened).neighbours)


def test_the_next_step_is_the_movement_rules_choice(make_game: Any) -> None:
    """`Graph.step`: of the neighbours nearer the goal, the lowest-numbered off grass, else the
    lowest-numbered (checked on the street, which has grass, towards every tenth square)."""
    game = laid_out(make_game, STREET)
    board, stage = ctx(game)
    graph = board.graph(stage.opened)
    squares = _open_squares(board, stage)
    assert board.grass, "the street map has grass patches"
    for goal in squares[::10]:
        dist = graph.from_(goal)
        for cur in squares:
            if cur == goal or cur not in dist:
                continue
            nearer = [n for n in graph.neighbours[cur] if dist.get(n, UNSEEN) < dist[cur]]
            want = min(nearer, key=lambda n: (board.feature(n) == "grass", n), default=-1)
            assert graph.step(cur, goal) == want


def test_squares_next_to_a_square(make_game: Any) -> None:
    """`near_features` and `orthogonals` list what `around`, `feature` and `orthogonal` say."""
    game = laid_out(make_game)
    board, _stage = ctx(game)
    for cell in range(board.width * board.height):
        near = sorted((cell, *board.around(cell)))
        assert board.near_features(cell) == tuple((c, board.feature(c)) for c in near if board.feature(c))
        beside = {c for c in range(board.width * board.height) if board.orthogonal(cell, c)}
        assert board.orthogonals(cell) & set(range(board.width * board.height)) == beside


def _check_reach(game: Game, ent: int) -> int:
    """`Reach.paces` against `reaches` at each pace, towards every open square; the goals reached."""
    board, stage = ctx(game)
    reach = Reach(game, ent, board, stage)
    reached = 0
    for goal in _open_squares(board, stage):
        walks, runs = reach.paces(goal)
        assert walks == reaches(game, ent, goal, "walk", board, stage), (ent, goal)
        assert runs == reaches(game, ent, goal, "run", board, stage), (ent, goal)
        reached += walks or runs
    return reached


def test_one_way_serves_both_paces(make_game: Any) -> None:
    """A walk's way is a run's first squares: `Reach` gives what `reaches` gives, indoors with an
    enemy in the way and outdoors among the grass patches, for characters and zombies."""
    game = laid_out(make_game)
    dexter = alone(game, "Dexter", 4, 4)
    z = zombie(game, 5, 2)  # two squares off, in the same room
    assert _check_reach(game, dexter) > 0
    assert _check_reach(game, z) > 0
    street = laid_out(make_game, STREET)
    board, _stage = ctx(street)
    for name in ("Dexter", "Bruce Long"):
        ent = who(street, name)
        for cell in sorted(board.grass)[:3]:
            put(street, ent, *board.xy(cell))
            _check_reach(street, ent)
    walker = zombie(street, *board.xy(sorted(board.grass)[0]))
    _check_reach(street, walker)


def test_goals_follow_what_is_looted_and_opened(make_game: Any) -> None:
    """The goals and nearest features kept per state are those found afresh, as features are
    looted, doors opened and the lights fixed, and back again (the board's last state is compared,
    not trusted)."""
    game = laid_out(make_game)
    board, stage = ctx(game)
    cell = board.cell(4, 4)

    def fresh() -> tuple[tuple[str, ...], dict[str, int | None]]:
        board.memo.clear()
        board.last_found = None
        return goals(board, stage, cell), {k: nearest_feature(board, stage, cell, k) for k in board.features}

    before = fresh()
    kept = goals(board, stage, cell), {k: nearest_feature(board, stage, cell, k) for k in board.features}
    assert kept == before
    target = nearest_feature(board, stage, cell, "cabinet")
    assert target is not None
    stage.looted.append(target)
    stage.looted.sort()
    looted = goals(board, stage, cell), {k: nearest_feature(board, stage, cell, k) for k in board.features}
    assert looted == fresh() and looted != before
    stage.looted.remove(target)
    assert (goals(board, stage, cell), {k: nearest_feature(board, stage, cell, k) for k in board.features}) == before
    stage.flags.append("lights")  # the fuse box fixed: no longer a goal, the rest as before
    lit = goals(board, stage, cell), {k: nearest_feature(board, stage, cell, k) for k in board.features}
    assert lit == fresh() and lit[1]["fuse"] is None and before[1]["fuse"] is not None
    stage.flags.remove("lights")
    assert (goals(board, stage, cell), {k: nearest_feature(board, stage, cell, k) for k in board.features}) == before


def test_the_last_state_is_compared_field_by_field(make_game: Any) -> None:
    """The state asked last is compared with the one asked now field by field (opened with opened,
    looted with looted): an opened set equal to the last looted one is another state."""
    game = laid_out(make_game)
    board, stage = ctx(game)
    cell = board.cell(31, 5)
    door = board.features["locked_door"][0]

    def found() -> tuple[tuple[str, ...], int | None]:
        return goals(board, stage, cell), nearest_feature(board, stage, cell, "locked_door")

    def fresh() -> tuple[tuple[str, ...], int | None]:
        board.memo.clear()
        board.last_found = None
        return found()

    stage.looted[:] = [door]
    shut = fresh()
    stage.opened[:] = [door]  # now opened as well: the looted list of the last state, not its opened
    assert found() == fresh() != shut
    assert shut[1] == door and found()[1] is None


def test_the_last_graph_is_the_opened_sets_own(make_game: Any) -> None:
    """`Board.graph` answers each opened set with its own graph, asked in turn and again."""
    game = laid_out(make_game)
    board, stage = ctx(game)
    door = board.features["locked_door"][0]
    shut = board.graph([])
    opened = board.graph([door])
    assert shut is not opened and door in opened.neighbours and door not in shut.neighbours
    assert board.graph([]) is shut and board.graph([door]) is opened and board.graph(list(stage.opened)) is shut


def test_the_sides_follow_the_world(make_game: Any) -> None:
    """Characters, zombies and each side's pieces (kept by `World.memo`) follow the world: a zombie
    brought in and destroyed, a character leaving the board or rising as a zombie."""
    game = laid_out(make_game)
    world = game.world
    board, _stage = ctx(game)
    mary = alone(game, "Mary Jacobs", 4, 4)
    chars = characters(game)
    assert zombies(game) == [] and list(zombie_ids(game)) == []
    z = zombie(game, 4, 4)
    assert zombies(game) == [z] and enemy_cells(game, mary, board) == {board.cell(4, 4)}
    assert [e for e, _p, _m in side_pieces(game)[1]] == [z]
    assert engage_square(game, mary) == [z] and board.cell(4, 4) in enemy_cells(game, z, board)
    markers(game, mary).add("offboard")  # the others are parked elsewhere: Mary alone stood here
    assert mary not in characters(game) and board.cell(4, 4) not in enemy_cells(game, z, board)
    markers(game, mary).discard("offboard")
    world.add(mary, Faction(ZOMBIES))  # rising: a new Faction
    assert mary not in characters(game) and zombies(game) == sorted([z, mary])
    assert characters(game) == [c for c in chars if c != mary]
    world.delete(z)
    assert zombies(game) == [mary] and [e for e, _p, _m in side_pieces(game)[1]] == [mary]
