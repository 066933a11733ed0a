"""Spawning zombies (Escape from Stalingrad Z, "Spawn zombies").

On rounds the round track marks "S", the scenario's spawn section says how many zombies arrive at
which spawn squares and (by a die) of what type. A new zombie is placed face down (type hidden)
unless a character has LOF to its square (arcs do not matter); a type with the `hidden` ability is
always placed face down. A character on the spawn square takes 1 wound and is pushed to a square of
the player's choice; a zombie on it holds the new zombie off the board until the square is free, and
the zombie then arrives without activating that turn. A zombie arriving in a covering character's
front arc and LOF (or next to him) gives him the chance to fire (see `attack.offer_cover`).

DESIGN CHOICES: a character is pushed to a free square it could step to (not an exit); with none free
it stays and the new zombie waits as if a zombie held the square (the character takes that zombie's
one wound only once, however often it tries to arrive). Waiting zombies are placed in id
order whenever the game checks (after every activation, at the start of the zombie action phase and
when spawning). A face-down zombie turns face up once any character has LOF to it at those checks.
Waves place their zombies round the squares of their label in map order.
"""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie.components import Facing, Kind, Markers, Position, Wounds
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.grid import Square, direction_to
from ecs_zombie.schedule import system
from ecs_zombie.systems.stalingrad.attack import offer_cover
from ecs_zombie.systems.stalingrad.board import (
    PLAYER,
    characters,
    closed_doors,
    gmap,
    is_zombie,
    line,
    occupancy,
    pos,
    state,
    wound_character,
    zombies,
)
from ecs_zombie.systems.stalingrad.components import AwaitingSpawn

STRUCK = "struck"  # a waiting zombie that has already wounded the character standing on its square
SPAWN_CREATES = ("Position", "Facing", "Kind", "Faction", "Wounds", "Markers", "AwaitingSpawn")


def in_any_lof(game: Game, sq: Square) -> bool:
    occ = occupancy(game)
    closed = closed_doors(game)
    return any(line(game, pos(game, c), sq, occ, closed).clear for c in characters(game))


def new_zombie(game: Game, type_name: str, sq: Square) -> int:
    """A zombie of the type, waiting off the board for square `sq`."""
    zt = game.tables["stalingrad.zombies"][type_name]
    parts = game.ruleset.prefabs["zombie"].make(Kind(type_name), Wounds(0, zt.hits))
    parts = [p for p in parts if not isinstance(p, Position | Facing)]
    ent = game.world.create(*parts, AwaitingSpawn(sq[0], sq[1]))
    game.log("zombie_spawned", zombie=ent, type=type_name, square=list(sq))
    state(game)[0].spawned += 1
    return ent


def place(game: Game, ent: int, arrived: bool) -> None:
    p = game.world.get(ent, AwaitingSpawn)
    sq = (p.x, p.y)
    game.world.remove(ent, AwaitingSpawn)
    g = gmap(game)
    cx, cy = g.width // 2, g.height // 2
    game.world.add(ent, Position(sq[0], sq[1]))
    game.world.add(ent, Facing(direction_to(sq, (cx, cy))))
    markers = game.world.get(ent, Markers)
    markers.discard(STRUCK)
    hidden_type = "hidden" in game.tables["stalingrad.zombies"][game.world.get(ent, Kind).name].abilities
    if hidden_type or not in_any_lof(game, sq):
        markers.add("hidden")
    if arrived:
        markers.add("arrived")
    game.log("zombie_placed", zombie=ent, square=list(sq), hidden=markers.has("hidden"), arrived=arrived)


def arrive(game: Game, ent: int, arrived: bool = False) -> Generator[Decision, int, bool]:
    """Try to put a waiting zombie on its square; True when placed."""
    p = game.world.get(ent, AwaitingSpawn)
    sq = (p.x, p.y)
    holder = occupancy(game).get(sq)
    if holder is not None and is_zombie(game, holder):
        game.log("zombie_held", zombie=ent, square=list(sq), by=holder)
        return False
    if holder is not None:
        g = gmap(game)
        closed = closed_doors(game)
        occ = occupancy(game)
        exits = set(g.squares("exit"))
        free = [n for n in g.neighbours(sq, closed) if n not in occ and n not in exits]
        # One wound per spawning zombie: a character who cannot be pushed is not wounded again each
        # time the waiting zombie tries to arrive (the marker comes off when it is placed).
        markers = game.world.get(ent, Markers)
        died = False
        if not markers.has(STRUCK):
            markers.add(STRUCK)
            died = wound_character(game, holder, "spawn")
        if not died:
            if not free:
                game.log("zombie_held", zombie=ent, square=list(sq), by=holder)
                return False
            dest = yield from game.decide(PLAYER, "stalingrad.push", [list(n) for n in free], character=holder)
            hp = game.world.get(holder, Position)
            hp.x, hp.y = dest[0], dest[1]
            game.log("pushed", character=holder, to=dest)
    place(game, ent, arrived)
    yield from offer_cover(game, ent, {})
    return True


def settle_pending(game: Game, arrived: bool = True) -> Generator[Decision, int, None]:
    """Zombies held off the board arrive, in id order, wherever their square is free (marked as
    arrived: they do not activate in the zombie turn of this round)."""
    for ent, _p in game.world.query1(AwaitingSpawn):
        if game.world.exists(ent) and game.world.has(ent, AwaitingSpawn):
            yield from arrive(game, ent, arrived=arrived)


def reveal(game: Game) -> None:
    """Face-down zombies any character has LOF to are turned face up."""
    hidden = [z for z in zombies(game) if game.world.get(z, Markers).has("hidden")]
    for z in hidden:
        if in_any_lof(game, pos(game, z)):
            game.world.get(z, Markers).discard("hidden")
            game.log("zombie_revealed", zombie=z, type=game.world.get(z, Kind).name)


def spawn_at(game: Game, type_name: str, sq: Square) -> Generator[Decision, int, None]:
    """One new zombie for square `sq` (placed now, or held off the board)."""
    ent = new_zombie(game, type_name, sq)
    yield from arrive(game, ent)


def spawn_squares(game: Game, label: str) -> tuple[Square, ...]:
    return gmap(game).squares(f"spawn:{label}")


def all_spawn_squares(game: Game) -> list[Square]:
    g = gmap(game)
    out: list[Square] = []
    for label in sorted(g.labels):
        if label.startswith("spawn:"):
            out += g.labels[label]
    return out


def roll_type(game: Game) -> str:
    section = game.tables["stalingrad.spawn"]
    return str(section.type_for(game.roll(section.type_die, "zombie type")))


def count_of(game: Game, count: str, why: str) -> int:
    return int(count) if count.isdigit() else game.roll(count, why)


@system("stalingrad.spawn", reads=("Position", "Faction", "Kind", "Markers", "AwaitingSpawn", "StalingradRound"),
        writes=("Position", "Wounds", "Markers", "StalingradRound", "Tally"), creates=SPAWN_CREATES)
def spawn(game: Game) -> Generator[Decision, int, None]:
    """Final phase of the zombie turn on an "S" round: the scenario's spawn section."""
    if not game.tables["stalingrad.track"].spawns(game.tick):
        return
    section = game.tables["stalingrad.spawn"]
    for label, count in section.waves:
        squares = spawn_squares(game, label)
        for i in range(count_of(game, count, f"spawn wave {label}")):
            yield from spawn_at(game, roll_type(game), squares[i % len(squares)])


