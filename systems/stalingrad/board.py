"""Queries and effects every Stalingrad system shares: the map, figures by square, sight, wounds,
kills, stuns and locks. Order: figures by entity id unless a rule says otherwise.
"""

from __future__ import annotations

from ecs_zombie.components import Engaged, Facing, Faction, Kind, Markers, Position, Tally, Wounds
from ecs_zombie.game import Game
from ecs_zombie.grid import GridMap, Sight, Square, adjacent, arc_of, sight
from ecs_zombie.systems.stalingrad.components import ActivationState, Arsenal, DoorState, StalingradRound
from ecs_zombie.systems.stalingrad.tables import Modifiers, Weapon, ZombieType

SURVIVORS, ZOMBIES = "survivors", "zombies"  # one side vocabulary in every game: the characters are survivors
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


def side_figures(game: Game, side: str) -> tuple[int, ...]:
    """Figures of one side on the board, by id. Kept by the world (`World.memo`): which entities have
    a `Position` and a `Faction` (frozen) changes only when figures come, go, or are placed or taken
    off the board, each of which drops it; a move changes neither."""
    return game.world.memo(("stalingrad.side", side), (Position, Faction), lambda: tuple(
        e for e, (_p, f) in game.world.query(Position, Faction) if f.side == side))


def side_positions(game: Game, side: str) -> tuple[tuple[int, Position], ...]:
    """`side_figures` with each figure's `Position` component: the loops over a side's squares read
    them here, with no look-up per figure. Kept by the world like `side_figures`: a move changes a
    `Position` in place (the same object, so the held one reads the new square), and replacing it
    (`World.add`) drops the memo. Read `(p.x, p.y)` for the square; never change it here."""
    return game.world.memo(("stalingrad.side_positions", side), (Position, Faction), lambda: tuple(
        (e, p) for e, (p, f) in game.world.query(Position, Faction) if f.side == side))


def characters(game: Game) -> tuple[int, ...]:
    return side_figures(game, SURVIVORS)


def zombies(game: Game) -> tuple[int, ...]:
    return side_figures(game, ZOMBIES)


def occupancy(game: Game) -> dict[Square, int]:
    """Square -> the figure on it (doors and search spots are not figures). Read it, never change it.

    A cache kept true by the world and by `move_figure`: the world drops it (`World.memo`) whenever a
    figure comes, goes, or is placed on or taken off the board; a figure moving on the board (which
    changes its `Position` in place, unseen by the world) moves through `move_figure`, which moves
    it in the cache too. So a zombie turn of Z zombies reads it Z times for the cost of building it
    once, not Z times."""
    return game.world.memo(("stalingrad.occupancy",), (Position, Faction), lambda: {
        (p.x, p.y): e for e, (p, _f) in game.world.query(Position, Faction)})


def move_figure(game: Game, ent: int, sq: Square) -> None:
    """Move a figure on the board to the free square `sq`: the only way a Stalingrad figure moves
    (its `Position` changes in place), so that `occupancy` stays true."""
    occ = occupancy(game)
    p = game.world.get(ent, Position)
    if occ.get((p.x, p.y)) == ent:
        del occ[(p.x, p.y)]
    p.x, p.y = sq
    occ[sq] = ent


def closed_doors(game: Game) -> frozenset[Square]:
    """The squares of closed doors. A cache kept true by the world (doors are made once, at setup) and
    by `set_door`, the only way a door opens or closes. (`_doors`, read in one call: it is asked
    tens of thousands of times a game.)"""
    return game.world.memo(_CLOSED, _DOOR_TYPES, lambda: _closed(game))[0]


def _doors(game: Game) -> list[frozenset[Square]]:
    return game.world.memo(_CLOSED, _DOOR_TYPES, lambda: _closed(game))


def _closed(game: Game) -> list[frozenset[Square]]:
    return [frozenset((p.x, p.y) for _e, (d, p) in game.world.query(DoorState, Position) if not d.open)]


_CLOSED = ("stalingrad.closed",)
_DOOR_TYPES = (DoorState, Position)


def set_door(game: Game, sq: Square, is_open: bool) -> None:
    """Open or close the door on square `sq` (keeping `closed_doors` true)."""
    for _e, (door, p) in game.world.query(DoorState, Position):
        if (p.x, p.y) == sq:
            door.open = is_open
    held = _doors(game)
    held[0] = held[0] - {sq} if is_open else held[0] | {sq}


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
    """Adjacent with a legal step between them (no wall corner in the way): looked up in the map's
    `touch_squares` for these doors."""
    g = gmap(game)
    x, y = a
    if 0 <= x < g.width and 0 <= y < g.height:
        return b in g.touch_squares(closed_doors(game) if closed is None else closed)[y * g.width + x]
    return adjacent(a, b) and g.can_step(a, b, closed_doors(game) if closed is None else closed)


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
    """One hit (normal fire 5a): a zombie of hit statistic 1 dies; otherwise "follow the instructions
    in the zombie type's special abilities": it takes the hit and dies at its hits, and a hit that
    does not kill stuns it only when its type has the `tough` ability (zombies.yaml). A type of more
    than 1 hit without it just takes the hit. True when it died."""
    zt = ztype(game, ent)
    w = game.world.get(ent, Wounds)
    w.taken += 1
    if zt.hits <= 1 or w.taken >= w.limit:
        kill_zombie(game, ent, by)
        return True
    game.log("zombie_hit", zombie=ent, taken=w.taken, hits=w.limit)
    if "tough" in zt.abilities:
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
