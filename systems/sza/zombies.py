"""The zombies' side (SZA "Play Criteria"): the game master moves and attacks with every zombie.

"The reader has the option to decide which NPC zombie will attack but should try to have each NPC
zombie attack a different player character, whenever possible. If not, the NPC zombie should
attack the nearest character." The choice is the decision `sza.zombie_target` (side `gm`; a risen
character's player answers for it); the default policy follows the sentence above. Each zombie's
victims of the turn are kept as `victim:<id>` markers on it (cleared when the next turn starts), so
that the game master's later choices in the turn can see who is already taken.

A zombie locked in melee attacks (stationary) up to its Morale engaged characters; otherwise it
walks onto its target's square when in walking reach, runs when only a run reaches (engaging with
surprise; never a run ending on grass), and else runs towards it. Characters hiding in a pipe room
cannot be attacked ("No zombie may attack a character that is hiding inside this room"); characters
in a bush are not spotted ("The zombies will not spot characters if they hide in them"), so no
zombie goes for them, but a bush does not part a zombie already locked in melee on that square from
its victim. Bright Yellow Fire Suit: every zombie next to Bruce Long attacks him instead of others.
"""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie.components import Markers, Position
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.systems.sza.board import UNSEEN, Board
from ecs_zombie.systems.sza.combat import engagement
from ecs_zombie.systems.sza.components import Stage
from ecs_zombie.systems.sza.moves import Reach, move_along
from ecs_zombie.systems.sza.state import (
    cell_of,
    characters,
    has_ability,
    morale,
    morale_targets,
    opponents,
    side_of,
    zombie_ids,
)


def sheltered(game: Game, ent: int, board: Board) -> bool:
    """Hiding in a pipe room: no zombie may attack the character there."""
    room = board.room(cell_of(board, game.world.get(ent, Position)))
    return room is not None and room.hide


def hidden(game: Game, ent: int, board: Board) -> bool:
    """Hiding in a pipe room, or unspotted (in a bush, or a room zombies do not see into)."""
    cell = cell_of(board, game.world.get(ent, Position))
    room = board.room(cell)
    if room is not None and (room.hide or not room.spot):
        return True
    return board.feature(cell) == "bush" and not game.world.get(ent, Markers).has("aboard")


def yellow(game: Game, z: int, candidates: list[int], board: Board) -> list[int]:
    """Bright Yellow Fire Suit: zombies next to Bruce Long attack him instead of others."""
    zc = cell_of(board, game.world.get(z, Position))
    bruce = [c for c in candidates if has_ability(game, c, "bright_yellow_fire_suit")
             and board.chebyshev(zc, cell_of(board, game.world.get(c, Position))) <= 1]
    return bruce or candidates


def zombie_act(game: Game, z: int, board: Board, stage: Stage) -> Generator[Decision, object, None]:
    world = game.world
    engaged = opponents(game, z)
    if engaged:
        targets = yellow(game, z, [c for c in engaged if not sheltered(game, c, board)], board)
        if len(targets) <= morale(game, z):  # every one of them: Morale leaves nothing to choose
            chosen = targets
        else:
            chosen = yield from morale_targets(game, z, targets, "sza.zombie_target", zombie=z)
        for t in chosen:
            mark_victim(game, z, t)
        for t in chosen:
            yield from game.run_step("melee_strike", {"attacker": z, "target": t, "pace": "still",
                                                      "why": "melee"})  # `run_strike`
        return
    candidates = yellow(game, z, [c for c in characters(game) if not hidden(game, c, board)], board)
    zc = cell_of(board, world.get(z, Position))
    graph = board.graph(stage.opened)
    dist = graph.from_(zc)
    candidates = [c for c in candidates if dist.get(cell_of(board, world.get(c, Position)), UNSEEN) < UNSEEN]
    if not candidates:
        return
    target = yield from game.decide(side_of(game, z), "sza.zombie_target", candidates, zombie=z)
    mark_victim(game, z, target)
    tc = cell_of(board, world.get(target, Position))
    # One way towards the target serves every pace: a walk is its first `walk` squares, a run its
    # first `run` (grass patches: walking only, for zombies as for characters).
    reach = Reach(game, z, board, stage)
    way = reach.way(tc)
    walks, runs = reach.ends(tc, way)
    if walks:
        move_along(game, z, way[:reach.walk], board, False, reach.enemies)
        yield from engagement(game, z, target, "walk", board, stage, not hidden(game, target, board))
    elif runs:
        move_along(game, z, way[:reach.run], board, True, reach.enemies)
        yield from engagement(game, z, target, "run", board, stage, not hidden(game, target, board))
    else:
        move_along(game, z, way[:reach.run] if reach.can_run else way[:reach.walk], board, reach.can_run,
                   reach.enemies)


def mark_victim(game: Game, z: int, victim: int) -> None:
    """Remember, for this turn, whom the zombie goes for ("a different player character")."""
    game.world.get(z, Markers).add(f"victim:{victim}")


def victims_of_others(game: Game, z: int) -> dict[int, int]:
    """How many other zombies have already gone for each character this turn."""
    out: dict[int, int] = {}
    for ent in zombie_ids(game):
        if ent == z:
            continue
        for tag in game.world.get(ent, Markers).tags:
            if tag.startswith("victim:"):
                c = int(tag[7:])
                out[c] = out.get(c, 0) + 1
    return out
