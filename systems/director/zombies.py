"""The Zombie phase: move, activate, wound, pin, remove stun markers (one system per step).

Rules ("Zombie Phase"): active zombies without a stun marker move X hexes toward the nearest
player (ties: least hit points, then the most recent first player) by the shortest path, always
their full distance until adjacent; they may pass through zombies but not end on one, never enter
a player's hex, trigger no hex effects, and still approach players at 0 hit points or less.
"""

from __future__ import annotations

from ecs_zombie import hexgrid
from ecs_zombie.components import Markers, Position, Wounds
from ecs_zombie.game import Game
from ecs_zombie.hexgrid import Hex
from ecs_zombie.schedule import system
from ecs_zombie.systems.director.board import (
    Board,
    damage,
    hex_of,
    pin,
    recency,
    survivors,
    zombies,
)


def approach_fields(game: Game, board: Board) -> list[tuple[int, dict[Hex, int]]]:
    """Per survivor: steps from every hex to a hex adjacent to them (0 there), moving through
    zombies but never through a survivor, from tile to tile only where an exit meets an entry;
    computed once per phase (survivors do not move in it). Each field reaches as far as the
    farthest zombie on it and no farther: a zombie steps only down its field, toward the survivor."""
    players = board.players
    steps = board.steps
    zombies = board.zombies  # a walk need go no farther than the farthest zombie it reaches
    out = []
    for ent in survivors(game):
        me = hex_of(game.world.get(ent, Position))
        starts = [n for n in steps.get(me, ()) if n not in players]
        out.append((ent, board.bfs_avoiding(starts, players, zombies)))
    return out


def step_toward(field: dict[Hex, int], h: Hex, moves: int, taken: set[Hex], board: Board) -> Hex:
    """Where a zombie at `h` ends after `moves` steps down the field (a shortest path), stopping
    once adjacent. "Always move their full distance" but "may not finish moving" on a zombie: of
    every shortest path, one whose end hex is free is taken (hexes in direction order along the
    first path, then the others); only when every end hex is taken does the zombie stop short
    (DESIGN CHOICE: on the farthest free hex of its shortest paths, else where it stands)."""
    start = field.get(h)
    if start is None:
        return h
    players, steps = board.players, board.steps
    layers = [[h]]
    for _ in range(min(moves, start)):
        seen: set[Hex] = set()
        nxt: list[Hex] = []
        for at in layers[-1]:
            d = field[at] - 1
            for n in steps.get(at, ()):
                if n not in seen and field.get(n) == d and n not in players:
                    seen.add(n)
                    nxt.append(n)
        if not nxt:
            break
        layers.append(nxt)
    for layer in reversed(layers[1:]):
        for spot in layer:
            if spot not in taken:
                return spot
    return h


@system("director.zombie_move",
        reads=("Position", "Faction", "Markers", "Wounds", "MapTile", "Owner", "DirectorState", "FloorItem",
               "LadderLink", "Tally"),
        writes=("Position",))
def zombie_move(game: Game, moves: int = 2) -> None:
    """Move Zombies: each active, unstunned zombie (by id) moves X (`zombie_move`) hexes toward the
    nearest survivor by the shortest path, stopping when adjacent."""
    board = Board(game)
    fields = approach_fields(game, board)
    if not fields:
        return
    world = game.world
    rank = {e: (world.get(e, Wounds).left, recency(game, e)) for e, _f in fields}
    taken = set(board.zombies)
    for z in zombies(game):
        markers = world.get(z, Markers)
        if markers.has("inactive") or markers.has("stun"):
            continue
        pos = world.get(z, Position)
        h = hex_of(pos)
        reach = [(f[h], rank[e], e, f) for e, f in fields if h in f]
        if not reach:
            continue
        _d, _r, target, field = min(reach, key=lambda t: (t[0], t[1], t[2]))
        dest = step_toward(field, h, moves, taken - {h}, board)
        if dest != h:
            taken.discard(h)
            taken.add(dest)
            pos.x, pos.y = dest
            game.log("zombie_moved", zombie=z, to=list(dest), target=target)


@system("director.activate",
        reads=("Position", "Faction", "Markers", "MapTile", "FloorItem", "LadderLink"),
        writes=("Markers",))
def activate(game: Game) -> None:
    """Activate Inactive Zombies: inactive zombies next to a player stand up (they attack this round
    but did not move)."""
    board = Board(game)
    for z in zombies(game):
        markers = game.world.get(z, Markers)
        if markers.has("inactive") and any(n in board.players for n in board.around(
                hex_of(game.world.get(z, Position)))):
            markers.discard("inactive")
            game.log("zombie_activated", zombie=z)


@system("director.zombie_attack",
        reads=("Position", "Faction", "Markers", "MapTile", "Owner", "DirectorState", "FloorItem", "LadderLink"),
        writes=("Wounds", "Markers", "Tally"))
def zombie_attack(game: Game) -> None:
    """Wound Players Adjacent to Zombies: 1 hit point per adjacent active zombie without a stun marker."""
    board = Board(game)
    for ent in survivors(game):
        damage(game, ent, len(attackers_of(game, board, ent)), "zombies")


def attackers_of(game: Game, board: Board, ent: int) -> list[int]:
    """The zombies that attack survivor `ent` this round: the active ones next to it (no wall
    between) without a stun marker (a hybrid resolves their attacks its own way: `director-sza`)."""
    world = game.world
    out = []
    for z in board.adjacent_zombies(hex_of(world.get(ent, Position))):
        m = world.get(z, Markers)
        if not m.has("stun") and not m.has("inactive"):
            out.append(z)
    return out


@system("director.pin",
        reads=("Position", "Faction", "Wounds", "MapTile", "Owner", "DirectorState", "FloorItem", "LadderLink",
               "Tally"),
        writes=("Markers",))
def pin_players(game: Game) -> None:
    """Pin Players: a player at 0 hit points or less, or with zombies on all six neighbouring hexes,
    is pinned."""
    board = Board(game)
    world = game.world
    for ent in survivors(game):
        me = hex_of(world.get(ent, Position))
        if world.get(ent, Wounds).left <= 0:
            pin(game, ent, "0 hit points")
        elif all(n in board.zombies for n in hexgrid.neighbours(me)):
            pin(game, ent, "surrounded")


@system("director.unstun", reads=("Faction", "Markers"), writes=("Markers",))
def unstun(game: Game) -> None:
    """Remove Zombie Stun Markers."""
    for z in zombies(game):
        game.world.get(z, Markers).discard("stun")
