"""Movement (SZA "Movement"): walking and running allowances from the Movement Tables, indoors
or outdoors, diagonals included; a door to a building stops movement until the next turn (doors
inside a building do not: "Characters may also freely move inside the buildings"); grass allows
walking only; Quick-Step adds 2 squares indoors. Paths are shortest paths on the board.

DESIGN CHOICE: a mover may not pass through a square holding an enemy: landing on it engages.
Among equally short ways a mover keeps off grass, then takes the lowest-numbered square.
An engagement is offered (to a character) or made (by a zombie) only when the move really ends on
the enemy's square: `path` walks the same squares `step_towards` will.
"""

from __future__ import annotations

from ecs_zombie.components import Faction, Markers, Position
from ecs_zombie.game import Game
from ecs_zombie.systems.sza.board import UNSEEN, Board
from ecs_zombie.systems.sza.components import Character, Stage
from ecs_zombie.systems.sza.state import SURVIVORS, ZOMBIES, cell_of, engage_square, has_ability, rules


def allowance(game: Game, ent: int, board: Board) -> tuple[int, int]:
    """(walk, run) squares for this piece on this board."""
    r = rules(game)
    where = "outdoor" if board.outdoor else "indoor"
    ch = game.world.try_get(ent, Character)
    if ch is not None and ch.cls in r.classes:
        walk, run = r.classes[ch.cls][where]
    else:
        walk, run = r.numbers["zombie_move"][where]
    if not board.outdoor and has_ability(game, ent, "quick_step"):
        extra = int(r.abilities["quick_step"].get("squares", 2))
        walk, run = walk + extra, run + extra
    return int(walk), int(run)


def enemy_cells(game: Game, ent: int, board: Board) -> set[int]:
    side = game.world.get(ent, Faction).side
    out = set()
    for other, (pos, fac, markers) in game.world.query(Position, Faction, Markers):
        if other != ent and fac.side in (SURVIVORS, ZOMBIES) and fac.side != side and not markers.has("offboard"):
            out.add(pos.y * board.width + pos.x)
    return out


def on_grass(game: Game, ent: int, board: Board, cell: int) -> bool:
    """Whether `cell` is a grass patch that hinders this piece (Combat Awareness ignores it)."""
    return board.outdoor and board.feature(cell) == "grass" and not has_ability(game, ent, "combat_awareness")


def path(game: Game, ent: int, goal: int, squares: int, board: Board, stage: Stage, running: bool = False,
         doors: bool = True) -> list[int]:
    """The squares a move of up to `squares` towards `goal` passes through, in order (empty when it
    cannot start). It stops on an enemy's square, on a door to a building (unless `doors` is False:
    free exploration), and a run stops before grass once a walk's worth is spent."""
    cur = cell_of(board, game.world.get(ent, Position))
    if squares <= 0 or cur == goal:
        return []
    graph = board.graph(stage.opened)
    dist = graph.from_(goal)
    if dist.get(cur, UNSEEN) >= UNSEEN:
        return []
    enemies = enemy_cells(game, ent, board)
    walk = allowance(game, ent, board)[0]
    out: list[int] = []
    for i in range(squares):
        if cur == goal:
            break
        here = dist[cur]
        nxt = min((n for n in graph.neighbours.get(cur, ()) if dist.get(n, UNSEEN) < here),
                  key=lambda n: (board.feature(n) == "grass", n), default=None)
        if nxt is None:
            break
        if running and i >= walk and on_grass(game, ent, board, nxt):
            break  # grass patches: only walking
        cur = nxt
        out.append(cur)
        if cur in enemies or (doors and board.entrance(cur)):
            break
    return out


def reaches(game: Game, ent: int, goal: int, pace: str, board: Board, stage: Stage) -> bool:
    """Whether a walk (`pace` "walk") or a run ("run") ends on `goal` this turn. A running
    engagement never ends on grass ("Only the walking movement is allowed")."""
    walk, run = allowance(game, ent, board)
    if pace == "run" and (not can_run(game, ent, board) or on_grass(game, ent, board, goal)):
        return False
    way = path(game, ent, goal, walk if pace == "walk" else run, board, stage, pace == "run")
    return bool(way) and way[-1] == goal


def step_towards(game: Game, ent: int, goal: int, squares: int, board: Board, stage: Stage,
                 running: bool = False, doors: bool = True) -> int:
    """Move up to `squares` along a shortest path to `goal` (see `path`); returns the square reached.
    `doors=False` (free exploration out of combat) lets a door to a building not stop the move."""
    pos = game.world.get(ent, Position)
    way = path(game, ent, goal, squares, board, stage, running, doors)
    if not way:
        return cell_of(board, pos)
    cur = way[-1]
    pos.x, pos.y = board.xy(cur)
    game.log("move", piece=ent, to=[pos.x, pos.y], running=running)
    if cur in enemy_cells(game, ent, board):
        engage_square(game, ent)
    return cur


def can_run(game: Game, ent: int, board: Board) -> bool:
    """Grass patches allow walking only (Combat Awareness ignores it)."""
    return not on_grass(game, ent, board, cell_of(board, game.world.get(ent, Position)))
