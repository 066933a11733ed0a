"""Singapore Zombie Apocalypse paced by the adaptive director (the hybrid `sza-paced`).

The core pacer (`core.pacer`, the Director game's adaptive director) runs the step `summon` with a
number of zombies. SZA brings zombies in with its event step `spawn` (`sza.spawn`: `count` zombies at
one of the board's spawn areas, while the scenario's counters last, each on a square the game master
picks). `hybrids.sza_summon` joins the two: the game master picks the spawn area (decision
`hybrids.spawn_area`) and SZA's own spawn brings them there.
"""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie.components import Position
from ecs_zombie.decisions import Decision, decision_kind, heuristic
from ecs_zombie.env.spec import action_forms
from ecs_zombie.game import Game
from ecs_zombie.schedule import system
from ecs_zombie.systems.sza.state import board_of, characters, stage_of

decision_kind("hybrids.spawn_area", "gm", "spawn area label of the board",
              "Where the zombies the adaptive director summons come in (SZA's game master picks).")
action_forms("hybrids.spawn_area", "{nth:8}")  # the board's spawn areas in label order (ecs_zombie.env)


@system("hybrids.sza_summon",
        reads=("SzaStage", "Faction", "Markers", "SzaCharacter"),
        calls={"spawn": ("count", "at")},
        decides=("hybrids.spawn_area",))
def sza_summon(game: Game, count: int) -> Generator[Decision, object, None]:
    """The pacer's `summon` on an SZA board: `count` zombies through SZA's `spawn` step at a spawn
    area the game master picks; nothing before a scenario's board is laid out or when it has none."""
    _ent, stage = stage_of(game)
    if not stage.built or count <= 0:
        return
    areas = sorted(board_of(game, stage).spawns)
    if not areas:
        return
    at = yield from game.decide("gm", "hybrids.spawn_area", areas, count=count)
    yield from game.run_step("spawn", {"count": count, "at": at})


@heuristic("hybrids.spawn_area")
def spawn_area(game: Game, d: Decision) -> int:
    """The area whose nearest spawn square is farthest from every character (squares, diagonals
    counting 1), then the first: as Left 4 Dead's director spawns out of the survivors' sight."""
    _ent, stage = stage_of(game)
    board = board_of(game, stage)
    where = [game.world.get(c, Position) for c in characters(game)]

    def nearest(label: object) -> int:
        cells = board.spawns.get(str(label), [])
        return min((max(abs(x - p.x), abs(y - p.y)) for x, y in map(board.xy, cells) for p in where), default=0)

    return min(range(len(d.options)), key=lambda i: (-nearest(d.options[i]), i))
