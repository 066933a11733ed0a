"""Movement (SZA "Movement"): walking and running allowances from the Movement Tables, indoors
or outdoors, diagonals included; a door stops movement until the next turn; grass allows walking
only; Quick-Step adds 2 squares indoors. Paths are shortest paths on the board.

DESIGN CHOICE: a mover may not pass through a square holding an enemy: landing on it engages.
Among equally short ways a mover keeps off grass, then takes the lowest-numbered square.
"""

from __future__ import annotations

from ecs_zombie.components import Faction, Markers, Position
from ecs_zombie.game import Game
from ecs_zombie.systems.sza.board import DOORS, UNSEEN, Board
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


def step_towards(game: Game, ent: int, goal: int, squares: int, board: Board, stage: Stage,
                 running: bool = False, doors: bool = True) -> int:
    """Move up to `squares` along a shortest path to `goal`; returns the square reached.
    `doors=False` (free exploration out of combat) lets a door not stop the move."""
    pos = game.world.get(ent, Position)
    start = cur = cell_of(board, pos)
    if squares <= 0 or cur == goal:
        return cur
    graph = board.graph(stage.opened)
    dist = graph.from_(goal)
    if dist.get(cur, UNSEEN) >= UNSEEN:
        return cur
    enemies = enemy_cells(game, ent, board)
    walk = allowance(game, ent, board)[0]
    aware = has_ability(game, ent, "combat_awareness")
    for i in range(squares):
        if cur == goal:
            break
        here = dist[cur]
        nxt = min((n for n in graph.neighbours.get(cur, ()) if dist.get(n, UNSEEN) < here),
                  key=lambda n: (board.feature(n) == "grass", n), default=None)
        if nxt is None:
            break
        if running and board.outdoor and not aware and i >= walk and board.feature(nxt) == "grass":
            break  # grass patches: only walking
        cur = nxt
        if cur in enemies or (doors and board.feature(cur) in DOORS):
            break
    if cur != start:
        pos.x, pos.y = board.xy(cur)
        game.log("move", piece=ent, to=[pos.x, pos.y], running=running)
        if cur in enemies:
            engage_square(game, ent)
    return cur


def can_run(game: Game, ent: int, board: Board) -> bool:
    """Grass patches allow walking only (Combat Awareness ignores it)."""
    if not board.outdoor or has_ability(game, ent, "combat_awareness"):
        return True
    return board.feature(cell_of(board, game.world.get(ent, Position))) != "grass"
