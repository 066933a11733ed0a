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

from ecs_zombie.components import Faction, Position
from ecs_zombie.game import Game
from ecs_zombie.systems.sza.board import UNSEEN, Board, Graph
from ecs_zombie.systems.sza.components import Character, Stage
from ecs_zombie.systems.sza.state import SIDES, cell_of, engage_square, has_ability, rules, side_pieces

_NOWHERE: frozenset[int] = frozenset()


def allowance(game: Game, ent: int, board: Board) -> tuple[int, int]:
    """(walk, run) squares for this piece on this board."""
    r = rules(game)
    where = "outdoor" if board.outdoor else "indoor"
    ch = game.world.try_get(ent, Character)
    if ch is not None and ch.cls in r.classes:
        walk, run = r.classes[ch.cls][where]
    else:
        walk, run = r.numbers["zombie_move"][where]
    if not board.outdoor and ch is not None and "quick_step" in ch.abilities \
            and has_ability(game, ent, "quick_step"):  # the character read above: most have no Quick-Step
        extra = int(r.abilities["quick_step"]["squares"])
        walk, run = walk + extra, run + extra
    return int(walk), int(run)


def enemy_cells(game: Game, ent: int, board: Board) -> set[int]:
    """The squares of the piece's enemies on the board (a move stops on one: landing engages):
    the pieces of the other side of the two (of both, for a piece of neither), not off the board."""
    side = game.world.get(ent, Faction).side
    w = board.width
    enemies = [pieces for s, pieces in zip(SIDES, side_pieces(game), strict=True) if s != side]
    return {pos.y * w + pos.x for pieces in enemies for _e, pos, markers in pieces if "offboard" not in markers.tags}


def on_grass(game: Game, ent: int, board: Board, cell: int) -> bool:
    """Whether `cell` is a grass patch that hinders this piece (Combat Awareness ignores it)."""
    return board.outdoor and cell in board.grass and not has_ability(game, ent, "combat_awareness")


def _way(game: Game, ent: int, board: Board, graph: Graph, cur: int, goal: int, squares: int, walk: int,
         running: bool, doors: bool, enemies: set[int]) -> list[int]:
    """`path` from `cur`, with what it needs already known (the mover's walk, its enemies' squares)."""
    if squares <= 0 or cur == goal:
        return []
    if graph.from_(goal).get(cur, UNSEEN) >= UNSEEN:
        return []
    stops = board.entrances if doors else _NOWHERE
    step = graph.step
    grass = board.grass if running and board.outdoor else _NOWHERE
    hindered: bool | None = None  # whether grass hinders this mover: asked only when it matters
    out: list[int] = []
    for i in range(squares):
        if cur == goal:
            break
        nxt = step(cur, goal)
        if nxt < 0:
            break
        if i >= walk and nxt in grass:
            if hindered is None:
                hindered = not has_ability(game, ent, "combat_awareness")
            if hindered:
                break  # grass patches: only walking
        cur = nxt
        out.append(cur)
        if cur in enemies or cur in stops:
            break
    return out


def path(game: Game, ent: int, goal: int, squares: int, board: Board, stage: Stage, running: bool = False,
         doors: bool = True) -> list[int]:
    """The squares a move of up to `squares` towards `goal` passes through, in order (empty when it
    cannot start). It stops on an enemy's square, on a door to a building (unless `doors` is False:
    free exploration), and a run stops before grass once a walk's worth is spent."""
    return _path(game, ent, goal, squares, board, stage, running, doors)[0]


def _path(game: Game, ent: int, goal: int, squares: int, board: Board, stage: Stage, running: bool,
          doors: bool) -> tuple[list[int], set[int] | None]:
    """`path`, and the enemies' squares when it looked them up (None when it stopped before)."""
    cur = cell_of(board, game.world.get(ent, Position))
    if squares <= 0 or cur == goal:
        return [], None
    graph = board.graph(stage.opened)
    if graph.from_(goal).get(cur, UNSEEN) >= UNSEEN:
        return [], None
    # the walk allowance only matters to a run on a board with grass (`_way` stops it there)
    walk = allowance(game, ent, board)[0] if running and board.outdoor else 0
    enemies = enemy_cells(game, ent, board)
    return _way(game, ent, board, graph, cur, goal, squares, walk, running, doors, enemies), enemies


class Reach:
    """Where one piece's walk and run would end this turn, towards any goal: what the piece's
    allowance, its square and its enemies' squares decide, found once for all the goals a choice
    weighs (nothing moves while it is made). One way serves both paces: a run's first `walk`
    squares are a walk's (a run is only stopped by grass after a walk's worth)."""

    __slots__ = ("_enemies", "board", "can_run", "cur", "ent", "far", "game", "graph", "run", "walk")

    def __init__(self, game: Game, ent: int, board: Board, stage: Stage, enemies: set[int] | None = None) -> None:
        self.game, self.ent, self.board = game, ent, board
        self.graph = board.graph(stage.opened)
        pos = game.world.get(ent, Position)
        self.cur = pos.y * board.width + pos.x
        self.walk, self.run = allowance(game, ent, board)
        self.far = max(self.walk, self.run)
        self.can_run = can_run(game, ent, board)
        self._enemies = enemies  # looked up when a way is first walked

    @property
    def enemies(self) -> set[int]:
        """The squares of the piece's enemies (`enemy_cells`)."""
        found = self._enemies
        if found is None:
            found = self._enemies = enemy_cells(self.game, self.ent, self.board)
        return found

    def way(self, goal: int) -> list[int]:
        """The squares of a run towards `goal` (as far as either pace goes); a walk is its first `walk`."""
        return _way(self.game, self.ent, self.board, self.graph, self.cur, goal, self.far, self.walk, True, True,
                    self.enemies)

    def paces(self, goal: int) -> tuple[bool, bool]:
        """(a walk ends on `goal`, a run ends on `goal`): where `path` at each pace ends. Each step of a
        way brings the mover one square nearer, so a goal farther than either pace goes is not walked."""
        if self.graph.from_(goal).get(self.cur, UNSEEN) > self.far:
            return False, False
        return self.ends(goal, self.way(goal))

    def ends(self, goal: int, way: list[int]) -> tuple[bool, bool]:
        """`paces`, from the piece's `way` towards `goal` (when the caller has walked it)."""
        if not way or way[-1] != goal:
            return False, False
        n = len(way)
        return n <= self.walk, (n <= self.run and self.can_run
                                and not on_grass(self.game, self.ent, self.board, goal))


def step_towards(game: Game, ent: int, goal: int, squares: int, board: Board, stage: Stage,
                 running: bool, doors: bool = True) -> int:
    """Move up to `squares` along a shortest path to `goal` (see `path`); returns the square reached.
    `doors=False` (free exploration out of combat) lets a door to a building not stop the move."""
    way, enemies = _path(game, ent, goal, squares, board, stage, running, doors)
    return move_along(game, ent, way, board, running, enemies)


def move_along(game: Game, ent: int, way: list[int], board: Board, running: bool,
               enemies: set[int] | None = None) -> int:
    """Move the piece to the end of `way` (a `path`), engaging there when an enemy stands on it;
    returns the square reached. `enemies`: the enemies' squares when already known (the mover's own
    move changes none of them)."""
    pos = game.world.get(ent, Position)
    if not way:
        return cell_of(board, pos)
    cur = way[-1]
    pos.x, pos.y = board.xy(cur)
    game.log("move", piece=ent, to=[pos.x, pos.y], running=running)
    if cur in (enemy_cells(game, ent, board) if enemies is None else enemies):
        engage_square(game, ent)
    return cur


def can_run(game: Game, ent: int, board: Board) -> bool:
    """Grass patches allow walking only (Combat Awareness ignores it)."""
    return not on_grass(game, ent, board, cell_of(board, game.world.get(ent, Position)))
