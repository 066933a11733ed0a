"""Queries and effects every Stalingrad system shares: the map, figures by square, sight, wounds,
kills, stuns and locks. Order: figures by entity id unless a rule says otherwise.
"""

from __future__ import annotations

from ecs_zombie.components import Engaged, Facing, Faction, Kind, Markers, Position, Tally, Wounds
from ecs_zombie.game import Game
from ecs_zombie.grid import GridMap, Sight, Square, adjacent, arc_of, sight
from ecs_zombie.systems.stalingrad.components import ActivationState, Arsenal, DoorState, StalingradRound
from ecs_zombie.systems.stalingrad.tables import Modifiers, Weapon, ZombieType

CHARACTERS, ZOMBIES = "characters", "zombies"
PLAYER = "player:0"


def gmap(game: Game) -> GridMap:
    return game.tables["stalingrad.map"]  # type: ignore[no-any-return]


def mods(game: Game) -> Modifiers:
    return game.tables["stalingrad.modifiers"]  # type: ignore[no-any-return]


def weapon(game: Game, name: str) -> Weapon:
    return game.tables["stalingrad.weapons"][name]  # type: ignore[no-any-return]


def ztype(game: Game, ent: int) -> ZombieType:
    return game.tables["stalingrad.zombies"][game.world.get(ent, Kind).name]  # type: ignore[no-any-return]


def state(game: Game) -> tuple[StalingradRound, Tally]:
    """The game's own entity: the round's order and the running tallies."""
    for _e, (rs, tally) in game.world.query(StalingradRound, Tally):
        return rs, tally
    raise KeyError("no StalingradRound entity")


def bump(game: Game, key: str, by: int = 1) -> None:
    state(game)[1].bump(key, by)


def pos(game: Game, ent: int) -> Square:
    p = game.world.get(ent, Position)
    return p.x, p.y


def side_figures(game: Game, side: str) -> list[int]:
    """Figures of one side on the board, by id."""
    return [e for e, (_p, f) in game.world.query(Position, Faction) if f.side == side]


def characters(game: Game) -> list[int]:
    return side_figures(game, CHARACTERS)


def zombies(game: Game) -> list[int]:
    return side_figures(game, ZOMBIES)


def occupancy(game: Game) -> dict[Square, int]:
    """Square -> the figure on it (doors and search spots are not figures)."""
    return {(p.x, p.y): e for e, (p, _f) in game.world.query(Position, Faction)}


def closed_doors(game: Game) -> frozenset[Square]:
    return frozenset((p.x, p.y) for _e, (d, p) in game.world.query(DoorState, Position) if not d.open)


def is_zombie(game: Game, ent: int) -> bool:
    return game.world.get(ent, Faction).side == ZOMBIES


def stunned(game: Game, ent: int) -> bool:
    return game.world.get(ent, Markers).has("stunned")


def locked(game: Game, ent: int) -> bool:
    return bool(game.world.get(ent, Engaged).opponents)


def line(game: Game, a: Square, b: Square, occ: dict[Square, int] | None = None,
         closed: frozenset[Square] | None = None) -> Sight:
    return sight(gmap(game), a, b, closed_doors(game) if closed is None else closed,
                 occupancy(game) if occ is None else occ)


def arc(game: Game, ent: int, target: Square) -> str:
    m = mods(game)
    return arc_of(game.world.get(ent, Facing).direction, pos(game, ent), target, m.front_half_angle,
                  m.rear_half_angle)


def touching(game: Game, a: Square, b: Square, closed: frozenset[Square] | None = None) -> bool:
    """Adjacent with a legal step between them (no wall corner in the way)."""
    return adjacent(a, b) and gmap(game).can_step(a, b, closed_doors(game) if closed is None else closed)


def lof_modifier(game: Game, s: Sight) -> int:
    m = mods(game)
    return m.intervening_figure * len(s.intervening) + m.obstructive * s.obstructive


def first_intervening_character(game: Game, s: Sight, occ: dict[Square, int]) -> int | None:
    for sq in s.intervening:
        ent = occ.get(sq)
        if ent is not None and not is_zombie(game, ent):
            return ent
    return None


# -- effects --------------------------------------------------------------------------------------


def release_locks(game: Game, zombie: int) -> None:
    """Killing or stunning a zombie removes the locked tokens it placed."""
    for e, eng in game.world.query1(Engaged):
        if zombie in eng.opponents:
            eng.opponents.remove(zombie)
            game.log("unlocked", character=e, zombie=zombie, why="zombie out of action")


def kill_zombie(game: Game, ent: int, by: int | None) -> None:
    release_locks(game, ent)
    game.log("zombie_killed", zombie=ent, type=game.world.get(ent, Kind).name, by=by)
    bump(game, "zombies_killed")
    game.world.delete(ent)


def stun_zombie(game: Game, ent: int) -> None:
    game.world.get(ent, Markers).add("stunned")
    release_locks(game, ent)
    game.log("zombie_stunned", zombie=ent)


def hit_zombie(game: Game, ent: int, by: int | None) -> bool:
    """One hit: a 1-hit zombie dies; a tough one takes the hit, dies at its hits and is otherwise
    stunned (its special ability). True when it died."""
    zt = ztype(game, ent)
    w = game.world.get(ent, Wounds)
    w.taken += 1
    if zt.hits <= 1 or w.taken >= w.limit:
        kill_zombie(game, ent, by)
        return True
    game.log("zombie_hit", zombie=ent, taken=w.taken, hits=w.limit)
    stun_zombie(game, ent)
    return False


def wound_character(game: Game, ent: int, why: str) -> bool:
    """One wound; the character dies at its limit. True when it died."""
    w = game.world.get(ent, Wounds)
    w.taken += 1
    bump(game, "wounds_taken")
    game.log("wound", character=ent, taken=w.taken, why=why)
    if w.taken >= w.limit:
        game.log("character_killed", character=ent, piece=game.world.get(ent, Kind).name)
        bump(game, "characters_killed")
        game.world.delete(ent)
        return True
    return False


def spend_ammo(game: Game, ent: int, name: str) -> None:
    arms = game.world.get(ent, Arsenal)
    left = arms.ammo.get(name, 0)
    if left > 0:
        arms.ammo[name] = left - 1
        bump(game, "ammo_spent")
        game.log("ammo", character=ent, weapon=name, left=left - 1)


def cover_tokens(game: Game) -> list[int]:
    """Characters on the board holding a covering token, by id."""
    return [e for e, (a, _p) in game.world.query(ActivationState, Position) if a.covering >= 0]
