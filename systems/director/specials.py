"""Special infected, one system each: the attack a director card's condition triggers, and its
damage every round it lasts. The text sketches them ("tbc"); the numbers are the
`director.specials` table (DESIGN CHOICE) and the details below are design choices too:

- The victim is the weakest living survivor (above 0 hit points) not already held (least hit
  points, ties to the most recent first player), like new zombies; with none, the attack is lost.
  A special attack deals its damage at once and again each round it lasts (`rounds`), then lets
  go; the victim stays pinned until the un-pin check.
- "Tile edge in a random direction": a D6 gives the direction (1 east, then counter-clockwise);
  the victim is dragged hex by hex while the next hex is on the same tile and free.
"""

from __future__ import annotations

from collections.abc import Iterator

from ecs_zombie import hexgrid
from ecs_zombie.components import Markers, Position, Wounds
from ecs_zombie.game import Game
from ecs_zombie.hexgrid import Hex
from ecs_zombie.schedule import system
from ecs_zombie.systems.director.board import (
    Board,
    damage,
    director,
    hex_of,
    pin,
    slime,
    spawn_zombie,
    survivors,
    weakest,
)
from ecs_zombie.systems.director.components import AreaHazard, HeldBy, StatusTimers
from ecs_zombie.systems.director.tables import Special

READS = ("DirectorState", "Position", "Wounds", "Owner", "Faction", "HeldBy", "Markers", "MapTile")


def spec(game: Game, name: str) -> Special:
    out: Special = game.tables["director.specials"][name]
    return out


def take_attacks(game: Game, name: str) -> int:
    """How many `name` attacks the director cards queued this round (they are taken off the queue)."""
    state = director(game)[1]
    n = state.specials.count(name)
    if n:
        state.specials = [s for s in state.specials if s != name]
    return n


def victim(game: Game) -> int | None:
    """Special infected choose living victims: the weakest survivor above 0 hit points that no
    special infected holds."""
    world = game.world
    free = [e for e in survivors(game) if world.try_get(e, HeldBy) is None and world.get(e, Wounds).left > 0]
    return weakest(game, free)


def victims(game: Game, name: str) -> Iterator[int]:
    """The victim of each queued `name` attack, chosen as it strikes, until no survivor is free."""
    for _ in range(take_attacks(game, name)):
        ent = victim(game)
        if ent is None:
            return
        yield ent


def grab(game: Game, ent: int, name: str) -> Special:
    s = spec(game, name)
    game.world.add(ent, HeldBy(name, s.rounds, s.damage))
    game.log("special_grab", special=name, survivor=ent)
    if s.pins:
        pin(game, ent, name)
    damage(game, ent, s.damage, name)
    return s


def ongoing(game: Game, name: str) -> None:
    """Damage per round to everyone `name` still holds; those whose time is up are let go."""
    for ent in survivors(game):
        held = game.world.try_get(ent, HeldBy)
        if held is None or held.by != name:
            continue
        held.rounds -= 1
        if held.rounds <= 0:
            game.world.remove(ent, HeldBy)
            game.log("special_release", special=name, survivor=ent)
            continue
        damage(game, ent, held.damage, name)


def drag(game: Game, ent: int, direction: int, through_players: bool) -> list[int]:
    """Drag a survivor along `direction` to the edge of their tile; returns survivors passed."""
    board = Board(game)
    pos = game.world.get(ent, Position)
    start = hex_of(pos)
    tile = board.tile_of.get(start)
    passed: list[int] = []
    at = start
    h = hexgrid.neighbour(start, direction)
    while board.tile_of.get(h) == tile and h not in board.zombies:
        other = board.players.get(h)
        if other is not None:
            if not through_players:
                break
            passed.append(other)
        else:
            at = h
        h = hexgrid.neighbour(h, direction)
    if at != start:
        pos.x, pos.y = at
        game.log("dragged", survivor=ent, to=list(at), direction=direction)
    return passed


def _direction(game: Game, why: str) -> int:
    return game.roll("1d6", why) - 1


@system("director.smoker",
        reads=(*READS, "FloorItem", "LadderLink", "Tally"),
        writes=("Position", "Wounds", "Markers", "DirectorState", "HeldBy", "Tally"),
        creates=("HeldBy",), removes=("HeldBy",))
def smoker(game: Game) -> None:
    """Smoker: the victim is dragged to the tile edge in a random direction and pinned; damage per round."""
    ongoing(game, "smoker")
    for ent in victims(game, "smoker"):
        drag(game, ent, _direction(game, "smoker drag direction"), through_players=False)
        grab(game, ent, "smoker")


@system("director.hunter",
        reads=(*READS, "Tally"),
        writes=("Wounds", "Markers", "DirectorState", "HeldBy", "Tally"),
        creates=("HeldBy",), removes=("HeldBy",))
def hunter(game: Game) -> None:
    """Hunter: the victim is pinned where they stand and takes heavier damage each round."""
    ongoing(game, "hunter")
    for ent in victims(game, "hunter"):
        grab(game, ent, "hunter")


@system("director.charger",
        reads=(*READS, "Tally", "FloorItem", "LadderLink"),
        writes=("Position", "Wounds", "Markers", "DirectorState", "HeldBy", "Tally"),
        creates=("HeldBy",), removes=("HeldBy",))
def charger(game: Game) -> None:
    """Charger: the victim is carried to the tile edge in a random direction and pinned; survivors
    in the line are knocked down (pinned) where they stand; damage per round to the victim."""
    ongoing(game, "charger")
    for ent in victims(game, "charger"):
        for other in drag(game, ent, _direction(game, "charger direction"), through_players=True):
            pin(game, other, "charger line")
            # pinned by a special attack: no suppressing fire until they get up (marker gone at un-pin)
            game.world.get(other, Markers).add("knocked_down")
        grab(game, ent, "charger")


@system("director.jockey",
        reads=(*READS, "FloorItem", "LadderLink", "Tally"),
        writes=("Position", "Wounds", "Markers", "DirectorState", "HeldBy", "Tally"),
        creates=("HeldBy",), removes=("HeldBy",))
def jockey(game: Game) -> None:
    """Jockey (player phase): the ridden survivor is steered `steps` hexes in random directions (a
    D6 each; a blocked step, or one into a wall between tiles, is lost), is not pinned but cannot
    fire, and takes damage each round. DESIGN CHOICE: a rider who is pinned (on the ground) is not
    steered: nobody walks lying down."""
    ongoing(game, "jockey")
    for ent in victims(game, "jockey"):
        grab(game, ent, "jockey")
    steps = spec(game, "jockey").steps
    for ent in survivors(game):
        held = game.world.try_get(ent, HeldBy)
        if held is None or held.by != "jockey" or game.world.get(ent, Markers).has("pinned"):
            continue
        for _ in range(steps):
            board = Board(game)
            pos = game.world.get(ent, Position)
            h = hexgrid.neighbour(hex_of(pos), _direction(game, "jockey steers"))
            if board.free(h) and board.linked(hex_of(pos), h):
                pos.x, pos.y = h
                game.log("steered", survivor=ent, to=list(h))


@system("director.boomer",
        reads=(*READS, "StatusTimers", "FloorItem", "LadderLink", "Tally"),
        writes=("Markers", "StatusTimers", "DirectorState"),
        creates=("Position", "Faction", "Kind", "Markers"))
def boomer(game: Game) -> None:
    """Boomer: the victim takes the table's `damage` as it strikes (none in the shipped table: the
    book's Boomer slimes, it does not hurt), the victim and survivors within `radius` are slimed for
    `rounds` rounds (their suppressing fire and attack cards are drawn blind) and `spawn` bile
    zombies appear next to the victim (killing one slimes the survivors next to it), never in the
    safe room nor across a wall between tiles. Slime wears off here each round."""
    for ent in survivors(game):
        timers = game.world.get(ent, StatusTimers)
        if "slimed" in timers.left:
            timers.left["slimed"] -= 1
            if timers.left["slimed"] <= 0:
                del timers.left["slimed"]
                game.world.get(ent, Markers).discard("slimed")
                game.log("slime_gone", survivor=ent)
    s = spec(game, "boomer")
    for grabbed in victims(game, "boomer"):
        center = hex_of(game.world.get(grabbed, Position))
        game.log("special_grab", special="boomer", survivor=grabbed)
        damage(game, grabbed, s.damage, "boomer")  # every special's strike deals its table's damage
        for other in survivors(game):
            if hexgrid.distance(hex_of(game.world.get(other, Position)), center) <= s.radius:
                slime(game, other, "boomer")
        for _z in range(s.spawn):
            board = Board(game)
            free: list[Hex] = [n for n in board.around(center)
                               if board.free(n) and not board.tiles[board.tile_of[n]].safe]
            if free:
                spawn_zombie(game, free[0], active=True, tags=("bile",))


@system("director.spitter",
        reads=(*READS, "AreaHazard", "Tally"),
        writes=("Wounds", "Markers", "DirectorState", "AreaHazard", "Tally"),
        creates=("AreaHazard",))
def spitter(game: Game) -> None:
    """Spitter: acid on the victim's hex and within `radius` for `rounds` rounds; every survivor in
    it takes `damage` each round (the round it lands included). Zombies are unharmed."""
    s = spec(game, "spitter")
    for ent in victims(game, "spitter"):
        center = hex_of(game.world.get(ent, Position))
        area = [list(h) for h in hexgrid.within(center, s.radius)]
        game.world.create(AreaHazard("acid", area, s.damage, s.rounds))
        game.log("special_grab", special="spitter", survivor=ent, at=list(center))
    for hz_ent, hz in list(game.world.query1(AreaHazard)):
        if hz.kind != "acid":
            continue
        cells = {(q, r) for q, r in hz.hexes}
        for ent in survivors(game):
            if hex_of(game.world.get(ent, Position)) in cells:
                damage(game, ent, hz.damage, "acid")
        hz.rounds -= 1
        if hz.rounds <= 0:
            game.world.delete(hz_ent)
