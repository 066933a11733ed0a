"""The `heuristic` policy's answers for Stalingrad's decisions: sensible play, not perfect play.

Characters head for the exit at a run, fire only at good odds (final hit # 8 or less), always fight
back when locked or forced into H2H, always try to break a lock, use covering tokens as soon as they
can, and throw a grenade into a pack of three or more zombies with no friend near. Wounds go to the
character with the most left.
"""

from __future__ import annotations

from functools import lru_cache

from ecs_zombie.decisions import Decision, heuristic
from ecs_zombie.game import Game
from ecs_zombie.grid import UNREACHABLE, Field, GridMap, Square, distance_field
from ecs_zombie.systems.stalingrad.attack import forced_h2h
from ecs_zombie.systems.stalingrad.board import characters, closed_doors, gmap, locked, pos, zombies

GOOD_SHOT = 8


@lru_cache(maxsize=64)
def exit_field(g: GridMap, closed: frozenset[Square]) -> Field:
    """Steps to the nearest exit (a pure function of the map and the closed doors)."""
    return distance_field(g, list(g.squares("exit")), closed)


@heuristic("stalingrad.mode")
def mode(game: Game, d: Decision) -> int:
    ent = d.context["character"]
    if locked(game, ent) or forced_h2h(game, ent):
        return d.options.index("stationary")
    return d.options.index("running")


@heuristic("stalingrad.initiative_order")
def initiative_order(game: Game, d: Decision) -> int:
    return d.options.index("first")


def _pack_score(game: Game, sq: list[int]) -> int:
    x, y = sq
    score = 0
    for z in zombies(game):
        zx, zy = pos(game, z)
        score += abs(zx - x) <= 1 and abs(zy - y) <= 1
    for c in characters(game):
        cx, cy = pos(game, c)
        if abs(cx - x) <= 2 and abs(cy - y) <= 2:
            score -= 10
    return score


@heuristic("stalingrad.action")
def action(game: Game, d: Decision) -> int:
    opts = d.options
    ent = d.context["character"]
    est: dict[int, int] = d.context.get("estimates", {})
    attacks = [i for i, o in enumerate(opts) if o[0] == "attack"]
    h2h = [i for i in attacks if opts[i][1] == "h2h" and i in est]
    if h2h and (locked(game, ent) or forced_h2h(game, ent)):
        return min(h2h, key=lambda i: (est[i], i))
    good = [i for i in attacks if i in est and est[i] <= GOOD_SHOT]
    if good:
        return min(good, key=lambda i: (est[i], opts[i][1] != "spread", i))
    grenades = [i for i in attacks if opts[i][1] == "grenade"]
    if grenades and len(zombies(game)) >= 3:
        me = pos(game, ent)
        near = [z for z in zombies(game) if abs(pos(game, z)[0] - me[0]) + abs(pos(game, z)[1] - me[1]) <= 8]
        if len(near) >= 3:
            best = max(_pack_score(game, list(pos(game, z))) for z in near)
            if best >= 3:
                return grenades[0]
    g = gmap(game)
    closed = closed_doors(game)
    field = exit_field(g, closed)
    here = field.at(pos(game, ent))
    if here >= UNREACHABLE:
        opens = [i for i, o in enumerate(opts) if o[0] == "open"]
        if opens:
            return opens[0]
        field = exit_field(g, frozenset())
        here = field.at(pos(game, ent))
    moves = [i for i, o in enumerate(opts) if o[0] == "move"]
    if moves:
        best_i = min(moves, key=lambda i: (field.at((opts[i][1], opts[i][2])), i))
        if field.at((opts[best_i][1], opts[best_i][2])) < here:
            return best_i
    fair = [i for i in attacks if i in est and est[i] <= 10]
    if fair:
        return min(fair, key=lambda i: (est[i], i))
    return opts.index(["end"])


@heuristic("stalingrad.wound_target")
def wound_target(game: Game, d: Decision) -> int:
    from ecs_zombie.components import Wounds

    return max(range(len(d.options)), key=lambda i: (game.world.get(d.options[i], Wounds).limit
                                                     - game.world.get(d.options[i], Wounds).taken, -i))


@heuristic("stalingrad.spread_target")
def spread_target(game: Game, d: Decision) -> int:
    prev = d.context.get("previous")
    for i, z in enumerate(d.options):
        if prev is not None and list(pos(game, z)) == prev:
            return i
    return 0


@heuristic("stalingrad.grenade_square")
def grenade_square(game: Game, d: Decision) -> int:
    return max(range(len(d.options)), key=lambda i: (_pack_score(game, d.options[i]), -i))


@heuristic("stalingrad.cover")
def cover(game: Game, d: Decision) -> int:
    return d.options.index("fire")
