"""The zombie turn (Escape from Stalingrad Z, "Zombie turn", "Zombie activation", "Zombie movement",
"Zombie attack").

Action phase: zombies activate one at a time from the bottom row up, left to right within a row. A
stunned zombie does not activate but loses its marker. A zombie not adjacent to a character moves up
to its move statistic toward the character it has the shortest unblocked path to (the player breaks
ties); a zombie adjacent to a character, or that reached one with moves to spare, attacks: it wounds
a locked adjacent character (the player choosing among several), otherwise locks an adjacent one and
turns it to face the zombie. Final phase: stunned markers come off, then the spawn step runs.

Movement uses one shared distance field per zombie turn (`ecs_zombie.grid.distance_field`, from every
character at once, looked up again only when a character leaves the board), never a search per zombie;
the map keeps the fields it was asked for (`kept_distance_field`: characters stand on the same squares
often, from turn to turn and from game to game).

DESIGN CHOICES: the activation order is fixed when the action phase starts (zombies arriving later do
not activate). Paths ignore other zombies (a crowd shuffles); a zombie steps only to a free square
one step nearer its target, preferring the step closest in direction to the target, and waits when
none is free. Zombies cannot open doors. Covering characters are offered their attack after each
zombie's move, before it attacks.
"""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie.components import Engaged, Facing, Kind, Markers, Position
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.grid import UNREACHABLE, Field, direction_to, kept_distance_field
from ecs_zombie.schedule import system
from ecs_zombie.systems.stalingrad.attack import ATTACK_CALL, offer_cover, seen_by_covering
from ecs_zombie.systems.stalingrad.board import (
    PLAYER,
    SURVIVORS,
    ZOMBIES,
    characters,
    closed_doors,
    gmap,
    locked,
    move_figure,
    occupancy,
    pos,
    side_positions,
    stunned,
    touching,
    wound_character,
)
from ecs_zombie.systems.stalingrad.spawn import reveal, settle_pending

ZOMBIE_READS = ("Position", "Faction", "Kind", "Markers", "Engaged", "Facing", "Wounds", "ActivationState", "Arsenal",
                "DoorState", "AwaitingSpawn")
ZOMBIE_WRITES = ("Position", "Facing", "Markers", "Engaged", "Wounds", "Arsenal", "ActivationState", "Tally")


def activation_order(game: Game) -> list[int]:
    """Bottom row first (largest y), then left to right."""
    return [z for z, _p in sorted(side_positions(game, ZOMBIES), key=_bottom_up)]


def _bottom_up(item: tuple[int, Position]) -> tuple[int, int, int]:
    return -item[1].y, item[1].x, item[0]


def walk(game: Game, z: int, field: Field, target_index: int, target_sq: tuple[int, int], moves: int,
         steps: tuple[tuple[tuple[int, int], ...], ...]) -> int:
    """Step along the field toward one character; returns the moves left (`steps`: the map's legal
    steps with this turn's doors, `GridMap.open_steps`)."""
    g = field.grid
    squares = g.squares_by_index()
    bit = 1 << target_index
    p = game.world.get(z, Position)
    cur = g.index((p.x, p.y))
    occ = occupancy(game)
    dist, mask = field.dist, field.mask
    path = []
    facing = game.world.get(z, Facing)
    while moves > 0:
        here = squares[cur]
        if dist[cur] <= 1:
            break
        want = direction_to(here, target_sq)
        best = None
        nearer = dist[cur] - 1
        for nb, d in steps[cur]:
            if dist[nb] != nearer or not mask[nb] & bit or squares[nb] in occ:
                continue
            turn = (d - want) % 8
            key = (min(turn, 8 - turn), d)
            if best is None or key < best[0]:
                best = (key, nb, d)
        if best is None:
            break
        cur = best[1]
        moves -= 1
        path.append(squares[cur])
        facing.direction = best[2]
    if path:
        move_figure(game, z, path[-1])
        game.log("zombie_moved", zombie=z, path=[list(s) for s in path])
    return moves


def zombie_attack(game: Game, z: int) -> Generator[Decision, object, None]:
    """Wound a locked adjacent character, else lock an adjacent one (the player picks among several)."""
    zs = pos(game, z)
    closed = closed_doors(game)
    near = [c for c, p in side_positions(game, SURVIVORS) if touching(game, zs, (p.x, p.y), closed)]
    if not near:
        return
    held = [c for c in near if locked(game, c)]
    if held:
        victim = yield from game.decide(PLAYER, "stalingrad.wound_target", held, zombie=z)
        wound_character(game, victim, "zombie")
        return
    victim = yield from game.decide(PLAYER, "stalingrad.lock_target", near, zombie=z)
    game.world.get(victim, Engaged).opponents.append(z)
    game.world.get(victim, Facing).direction = direction_to(pos(game, victim), zs)
    game.log("locked", character=victim, zombie=z)


@system("stalingrad.zombie_activations",
        reads=(*ZOMBIE_READS, "StalingradRound"),
        writes=ZOMBIE_WRITES,
        creates=("Position", "Facing"),
        calls=ATTACK_CALL,
        decides=("stalingrad.cover", "stalingrad.cover_attack", "stalingrad.lock_target", "stalingrad.target",
                 "stalingrad.wound_target", "stalingrad.zombie_target", "stalingrad.spread_target"))
def zombie_activations(game: Game) -> Generator[Decision, object, None]:
    """Action phase of the zombie turn: every zombie, bottom row up and left to right."""
    yield from settle_pending(game)
    g = gmap(game)
    field: Field | None = None
    targets: tuple[int, ...] = ()
    closed = closed_doors(game)
    steps = g.open_steps(closed)
    touch = g.touch_squares(closed)
    w = g.width
    for z in activation_order(game):
        chars = characters(game)
        if game.over or not chars:
            return
        # The zombie's components, read in one look-up (the table asked afresh for each zombie: a
        # game may be reloaded into a new world while this step waits for a decision).
        comps = game.world.raw().get(z)
        if comps is None or Position not in comps:
            continue
        markers = comps[Markers]
        if "arrived" in markers.tags:
            continue
        if "stunned" in markers.tags:
            markers.discard("stunned")
            game.log("zombie_recovers", zombie=z)
            continue
        moves = game.tables["stalingrad.zombies"][comps[Kind].name].move
        p = comps[Position]
        zs = (p.x, p.y)
        if g.inside(zs):
            near = touch[zs[1] * w + zs[0]]
            adjacent_now = any((p.x, p.y) in near for _c, p in side_positions(game, SURVIVORS))
        else:
            adjacent_now = any(touching(game, zs, pos(game, c), closed) for c in chars)
        if not adjacent_now:
            if field is None or targets != chars:
                targets = chars
                field = kept_distance_field(g, tuple(pos(game, c) for c in chars), closed)
            here = field.dist[g.index(zs)]
            if here >= UNREACHABLE:
                continue
            tied = field.nearest(zs)
            choice = yield from game.decide(PLAYER, "stalingrad.zombie_target", [targets[i] for i in tied], zombie=z)
            index = targets.index(choice)
            seen = seen_by_covering(game, z)
            moves = walk(game, z, field, index, pos(game, choice), moves, steps)
            yield from offer_cover(game, z, seen)
            if not game.world.exists(z) or stunned(game, z):
                continue
            zs = pos(game, z)
            if moves <= 0:
                continue
        yield from zombie_attack(game, z)
    reveal(game)


@system("stalingrad.zombie_final",
        reads=("Markers", "Faction", "ActivationState", "Arsenal", "AwaitingSpawn", "DoorState", "Facing", "Kind",
               "Position", "Engaged", "StalingradRound", "Tally", "Wounds"),
        writes=("Markers", "ActivationState", "Engaged", "Tally", "Wounds", "Arsenal"),
        calls={"spawn": (), **ATTACK_CALL},
        creates=("AwaitingSpawn", "Facing", "Position"), removes=("AwaitingSpawn",),
        decides=("stalingrad.cover", "stalingrad.cover_attack", "stalingrad.target", "stalingrad.spread_target"))
def zombie_final(game: Game) -> Generator[Decision, object, None]:
    """Final phase of the zombie turn: remove stunned markers, then the ruleset's `spawn` step."""
    for _e, m in game.world.query1(Markers):
        m.discard("stunned")
        m.discard("arrived")
    yield from game.run_step("spawn", {})
    yield from settle_pending(game, arrived=False)
    reveal(game)
