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
from ecs_zombie.errors import GameError
from ecs_zombie.game import Game
from ecs_zombie.grid import Square, direction_to, sight
from ecs_zombie.schedule import system
from ecs_zombie.systems.stalingrad.attack import ATTACK_CALL, ATTACK_DECIDES, ATTACK_READS, ATTACK_WRITES, offer_cover
from ecs_zombie.systems.stalingrad.board import (
    PLAYER,
    SURVIVORS,
    closed_doors,
    gmap,
    is_zombie,
    move_figure,
    occupancy,
    pos,
    side_positions,
    state,
    wound_character,
    zombies,
)
from ecs_zombie.systems.stalingrad.components import AwaitingSpawn

STRUCK = "struck"  # a waiting zombie that has already wounded the character standing on its square
# What `spawn_at` touches, for the declarations of every system that spawns zombies with it (the
# newcomer's components; a character pushed or wounded; covering fire at the newcomer).
SPAWN_CREATES = ("Position", "Facing", "Kind", "Faction", "Wounds", "Markers", "AwaitingSpawn")
# A spawned zombie waits off the board without its prefab's Position and Facing, then is placed.
SPAWN_REMOVES = ("AwaitingSpawn", "Position", "Facing")
SPAWN_READS = tuple(sorted({"Position", "Faction", "Kind", "Markers", "AwaitingSpawn", "StalingradRound",
                            "ActivationState", "Arsenal", "DoorState", "Engaged", *ATTACK_READS}))
SPAWN_WRITES = tuple(sorted({"Position", "Wounds", "Markers", "StalingradRound", "Tally", "ActivationState", "Arsenal",
                             "Engaged", *ATTACK_WRITES}))
SPAWN_DECIDES = tuple(sorted({"stalingrad.cover", "stalingrad.cover_attack", "stalingrad.push", *ATTACK_DECIDES}))
SPAWN_CALLS = ATTACK_CALL  # covering fire at a newcomer


def in_any_lof(game: Game, sq: Square) -> bool:
    """Some character has LOF to `sq`. Figures never block a line (they only intervene), so the
    lines are asked without the occupancy (which a zombie just placed would make the world rebuild)."""
    closed = closed_doors(game)
    g = gmap(game)
    return any(sight(g, (p.x, p.y), sq, closed).clear for _c, p in side_positions(game, SURVIVORS))


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


def arrive(game: Game, ent: int, arrived: bool = False) -> Generator[Decision, object, bool]:
    """Try to put a waiting zombie on its square; True when placed."""
    held, sq, holder = _zombie_holds(game, ent)
    if held:
        return False
    return (yield from _arrive(game, ent, sq, holder, arrived))


def _zombie_holds(game: Game, ent: int) -> tuple[bool, Square, int | None]:
    """`arrive`'s first check, a plain call: whether a zombie holds the waiting zombie's square (then
    logged as held), the square, and the figure on it. A zombie held turn after turn is checked
    again after every activation; this spares it a generator each time."""
    p = game.world.get(ent, AwaitingSpawn)
    sq = (p.x, p.y)
    holder = occupancy(game).get(sq)
    if holder is not None and is_zombie(game, holder):
        game.log("zombie_held", zombie=ent, square=list(sq), by=holder)
        return True, sq, holder
    return False, sq, holder


def _arrive(game: Game, ent: int, sq: Square, holder: int | None, arrived: bool) -> Generator[Decision, object, bool]:
    """`arrive` once no zombie holds the square `sq` (`holder`: the character on it, or None)."""
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
            move_figure(game, holder, (dest[0], dest[1]))
            game.log("pushed", character=holder, to=dest)
    place(game, ent, arrived)
    yield from offer_cover(game, ent, {})
    return True


def settle_pending(game: Game, arrived: bool = True) -> Generator[Decision, object, None]:
    """Zombies held off the board arrive, in id order, wherever their square is free (marked as
    arrived: they do not activate in the zombie turn of this round)."""
    for ent, _p in game.world.query1(AwaitingSpawn):
        if game.world.exists(ent) and game.world.has(ent, AwaitingSpawn):
            held, sq, holder = _zombie_holds(game, ent)  # `arrive`, without its generator when held
            if not held:
                yield from _arrive(game, ent, sq, holder, arrived)


def reveal(game: Game) -> None:
    """Face-down zombies any character has LOF to are turned face up."""
    get = game.world.get
    hidden = [z for z in zombies(game) if get(z, Markers).has("hidden")]
    for z in hidden:
        if in_any_lof(game, pos(game, z)):
            game.world.get(z, Markers).discard("hidden")
            game.log("zombie_revealed", zombie=z, type=game.world.get(z, Kind).name)


def spawn_at(game: Game, type_name: str, sq: Square) -> Generator[Decision, object, None]:
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


def spawn_zombies(game: Game, count: int, squares: tuple[Square, ...] | list[Square], zombie_type: str = ""
                  ) -> Generator[Decision, object, None]:
    """`count` zombies placed round `squares` in order, each of `zombie_type` or, when it is empty,
    of the type the spawn section's die gives (rolled per zombie, just before it arrives)."""
    for i in range(count):
        yield from spawn_at(game, zombie_type or roll_type(game), squares[i % len(squares)])


def spawn_place(game: Game, where: str | list[int]) -> tuple[Square, ...]:
    """The squares a pacer's `where` names: a spawn label, a square [x, y], or (empty) every spawn
    square of the map."""
    g = gmap(game)
    if isinstance(where, list):
        if len(where) != 2 or not g.inside((where[0], where[1])) or not g.passable((where[0], where[1])):
            raise GameError(f"spawn: {where!r} is not a square of the map a zombie can stand on")
        return ((where[0], where[1]),)
    squares = tuple(all_spawn_squares(game)) if not where else spawn_squares(game, where)
    if not squares:
        raise GameError(f"spawn: the map has no spawn square {('labelled spawn:' + where) if where else ''}".strip())
    return squares


@system("stalingrad.spawn", reads=SPAWN_READS, writes=SPAWN_WRITES, creates=SPAWN_CREATES, removes=SPAWN_REMOVES,
        decides=SPAWN_DECIDES, calls=SPAWN_CALLS)
def spawn(game: Game, count: int = -1, where: str | list[int] = "", zombie_type: str = ""
          ) -> Generator[Decision, object, None]:
    """Spawn zombies (step `spawn`): by default the scenario's spawn section on an "S" round.

    Parameters, plain data, so that an outside pacer (a director deciding how many zombies come and
    where) can ask for zombies through this step (map it under another name, e.g. `summon:
    stalingrad.spawn`, and call `game.run_step("summon", {"count": n})`):
    - `count`: how many zombies arrive now, whatever the round track says; -1 (the default) plays the
      scenario's spawn section, and only on the round track's "S" rounds;
    - `where`: with a count, a spawn label (`"A"`: the squares marked `spawn:A`), a square `[x, y]`,
      or `""` (every spawn square of the map, labels in order); zombies are placed round them;
    - `zombie_type`: with a count, every zombie's type (a key of `stalingrad.zombies`); `""` rolls
      the spawn section's type die for each.
    Every new zombie is Stalingrad's (`spawn_at`): face down unless seen, a character on the square
    wounded and pushed, a zombie there holding the newcomer off the board."""
    if count >= 0:
        if zombie_type and zombie_type not in game.tables["stalingrad.zombies"]:
            raise GameError(f"spawn: unknown zombie type {zombie_type!r}")
        yield from spawn_zombies(game, count, spawn_place(game, where), zombie_type)
        return
    if not game.tables["stalingrad.track"].spawns(game.tick):
        return
    section = game.tables["stalingrad.spawn"]
    for label, wave in section.waves:
        yield from spawn_zombies(game, count_of(game, wave, f"spawn wave {label}"), spawn_squares(game, label))


