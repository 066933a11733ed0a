"""Attacks (Escape from Stalingrad Z, "Attack action", "Normal fire", "Spread fire", "Grenade",
"Hand to hand", "Covering").

Every attack uses the normal-fire process: a target, its range, the hit # (primary within PB range,
+1 for each RM squares or part beyond it, plus modifiers; above 12 the attack fails), d12s rolled one
by one: hit # + 3 or more is a hit, hit # or more a stun, a 2 wounds the first intervening character,
a 1 costs the weapon one ammo where the attack type uses ammo.

DESIGN CHOICES (values in `stalingrad.modifiers`): attack modifiers are the declared activation's
(stationary 0, walking +2, running +4: the covering tokens' values); a covering attack uses its
token's value instead. LOF modifiers: +1 per intervening figure, +2 per obstructive square crossed.
H2H reaches the eight touching squares (range 1 read as "adjacent"), an H weapon also any square within
its PB range in LOF; firearms used in H2H roll one die, H2H-only weapons their ROF. Spread fire counts
the squares between two targets as the king-move distance minus one (no stopping before the ROF is
rolled, unless no zombie is left within reach of the dice left). A grenade blast hit on a
character is one wound; a stun result does nothing to a character.
"""

from __future__ import annotations

from collections.abc import Generator
from functools import lru_cache
from typing import Any

from ecs_zombie.components import Facing
from ecs_zombie.decisions import Decision
from ecs_zombie.errors import GameError
from ecs_zombie.game import Game
from ecs_zombie.grid import DIRECTIONS, GridMap, Sight, Square, arc_of, clamp, sight
from ecs_zombie.grid import arc_at as _arc
from ecs_zombie.schedule import system
from ecs_zombie.systems.stalingrad.board import (
    PLAYER,
    ZOMBIES,
    closed_doors,
    cover_tokens,
    first_intervening_character,
    gmap,
    hit_zombie,
    is_zombie,
    lof_modifier,
    mods,
    occupancy,
    pos,
    side_positions,
    spend_ammo,
    stun_zombie,
    weapon,
    wound_character,
    zombies,
)
from ecs_zombie.systems.stalingrad.components import ActivationState, Arsenal
from ecs_zombie.systems.stalingrad.geometry import Geometry, SquareGeometry, geometry
from ecs_zombie.systems.stalingrad.tables import Weapon

MAX_HIT = 12
ATTACK_TYPES = ("normal", "spread", "grenade", "h2h")
GRENADE_RANGE = 8
Option = list[Any]


def hit_number(w: Weapon, rng: int) -> int:
    """Primary hit # within PB range; +1 for each RM squares (or part) beyond it."""
    if rng <= w.pb:
        return w.hit
    return w.hit + -(-(rng - w.pb) // w.rm)


def attack_modifier(game: Game, ent: int, covering: int | None = None) -> int:
    if covering is not None:
        return covering
    mode = game.world.get(ent, ActivationState).mode
    return mods(game).attack.get(mode, 0)


# -- targets --------------------------------------------------------------------------------------


def visible_zombies(game: Game, ent: int, geo: Geometry | None = None, within: int | None = None
                    ) -> list[tuple[int, int, Sight]]:
    """Zombies in the character's front arc and LOF: (range, zombie, sight), nearest first (only
    those at range `within` or less, when given: the others' lines are not looked at)."""
    geo = geo or geometry(game, ent)
    me = pos(game, ent)
    facing = game.world.get(ent, Facing).direction
    occ = occupancy(game)
    out = []
    if type(geo) is SquareGeometry:  # the square map's measures, inlined (the same values)
        g, closed, front, rear = geo.map, closed_doors(game), geo.front, geo.rear
        mx, my = me
        facing %= 8
        far = 1 << 30 if within is None else within
        for z, p in side_positions(game, ZOMBIES):
            dx, dy = p.x - mx, p.y - my
            if abs(dx) + abs(dy) > far or _arc(facing, dx, dy, front, rear) != "front":
                continue
            s = sight(g, me, (p.x, p.y), closed, occ)
            if s.clear:
                out.append((abs(dx) + abs(dy), z, s))
    else:
        for z in zombies(game):
            zs = pos(game, z)
            if geo.arc(facing, me, zs) != "front":
                continue
            s = geo.sight(me, zs, occ)
            if s.clear:
                rng = geo.range(me, zs)
                if within is None or rng <= within:
                    out.append((rng, z, s))
    out.sort(key=_range_then_id)
    return out


def _range_then_id(t: tuple[int, int, Sight]) -> tuple[int, int]:
    return t[0], t[1]


def h2h_targets(game: Game, ent: int, w: Weapon, visible: list[tuple[int, int, Sight]] | None = None,
                geo: Geometry | None = None) -> list[tuple[int, int, Sight]]:
    """Zombies within H2H reach in the front arc: touching ones at range 1, and for an H weapon
    those within its PB range in LOF. Closest first. (`visible`: `visible_zombies` if known.)"""
    geo = geo or geometry(game, ent)
    me = pos(game, ent)
    out = []
    limit = max(2, w.pb if w.h else 2)
    for rng, z, s in visible_zombies(game, ent, geo, limit) if visible is None else visible:
        if rng > limit:
            break  # nearest first: the rest are farther still
        zs = pos(game, z)
        if geo.touching(me, zs):
            out.append((1, z, Sight(True)))
        elif w.h and rng <= w.pb:
            out.append((rng, z, s))
    out.sort(key=lambda t: (t[0], t[1]))
    return out


def forced_h2h(game: Game, ent: int, geo: Geometry | None = None) -> bool:
    """A zombie touching the character in its front arc forces H2H."""
    geo = geo or geometry(game, ent)
    me = pos(game, ent)
    facing = game.world.get(ent, Facing).direction
    if type(geo) is SquareGeometry:  # touching (a legal step) and the front arc, inlined
        g, closed, front, rear = geo.map, closed_doors(game), geo.front, geo.rear
        mx, my = me
        for _z, p in side_positions(game, ZOMBIES):
            dx, dy = p.x - mx, p.y - my
            if (dx or dy) and -1 <= dx <= 1 and -1 <= dy <= 1 and g.can_step(me, (p.x, p.y), closed) \
                    and _arc(facing % 8, dx, dy, front, rear) == "front":
                return True
        return False
    return any(geo.touching(me, zs) and geo.arc(facing, me, zs) == "front"
               for zs in (pos(game, z) for z in zombies(game)))


def _in_front(game: Game, ent: int, geo: SquareGeometry) -> tuple[bool, list[tuple[int, int, Sight]]]:
    """`forced_h2h` and `visible_zombies` on the square map, in one pass over the zombies: both ask
    the front arc of each (a touching zombie forces H2H whatever the LOF; one in LOF is in view)."""
    me = pos(game, ent)
    facing = game.world.get(ent, Facing).direction % 8
    occ = occupancy(game)
    g, closed, front, rear = geo.map, closed_doors(game), geo.front, geo.rear
    mx, my = me
    forced = False
    out = []
    for z, p in side_positions(game, ZOMBIES):
        dx, dy = p.x - mx, p.y - my
        if _arc(facing, dx, dy, front, rear) != "front":
            continue
        zs = (p.x, p.y)
        if not forced and (dx or dy) and -1 <= dx <= 1 and -1 <= dy <= 1 and g.can_step(me, zs, closed):
            forced = True
        s = sight(g, me, zs, closed, occ)
        if s.clear:
            out.append((abs(dx) + abs(dy), z, s))
    out.sort(key=_range_then_id)
    return forced, out


def nearest(targets: list[tuple[int, int, Sight]]) -> list[tuple[int, int, Sight]]:
    if not targets:
        return []
    best = targets[0][0]
    return [t for t in targets if t[0] == best]


def grenade_squares(game: Game, ent: int, first_only: bool = False) -> list[Square]:
    """Target squares for a throw: within range 8, in the front or side arc, where a grenade can lie
    (nearest rings first; `first_only` stops at the first found, looked up: `_first_throw_square`).
    Square map only."""
    geo = SquareGeometry(game)
    g = geo.map
    me = pos(game, ent)
    closed = geo.closed
    facing = game.world.get(ent, Facing).direction
    if first_only:
        first = _first_throw_square(g, closed, me, facing, geo.front, geo.rear)
        return [] if first is None else [first]
    out = []
    for r in range(1, GRENADE_RANGE + 1):
        for dx in range(-r, r + 1):
            rest = r - abs(dx)
            for dy in ((-rest, rest) if rest else (0,)):
                sq = (me[0] + dx, me[1] + dy)
                if not g.passable(sq, closed):
                    continue
                if geo.arc(facing, me, sq) != "rear":
                    out.append(sq)
    out.sort(key=lambda s: (s[1], s[0]))
    return out


@lru_cache(maxsize=4096)
def _first_throw_square(g: GridMap, closed: frozenset[Square], me: Square, facing: int, front: float,
                        rear: float) -> Square | None:
    """The first square `grenade_squares` finds, nearest rings first (None: none): a pure function
    of the map, the closed doors, the thrower's square and facing and the arcs' angles, so kept (a
    character is asked whether it can throw at every action it weighs)."""
    for r in range(1, GRENADE_RANGE + 1):
        for dx in range(-r, r + 1):
            rest = r - abs(dx)
            for dy in ((-rest, rest) if rest else (0,)):
                sq = (me[0] + dx, me[1] + dy)
                if g.passable(sq, closed) and arc_of(facing, me, sq, front, rear) != "rear":
                    return sq
    return None


def attack_options(game: Game, ent: int, covering: bool = False) -> list[Option]:
    """The attacks the character may make now: ["attack", type, weapon] (covering: no grenades)."""
    return attack_options_reach(game, ent, covering)[0]


def attack_options_reach(game: Game, ent: int, covering: bool = False) -> tuple[
        list[Option], list[tuple[int, int, Sight]], dict[str, list[tuple[int, int, Sight]]]]:
    """`attack_options`, with the `visible_zombies` it looked at (for the estimates of the same
    moment, which would otherwise look again) and each H2H weapon's `h2h_targets` (by weapon name)."""
    arms = game.world.get(ent, Arsenal)
    geo = geometry(game, ent)
    if type(geo) is SquareGeometry:
        forced, visible = _in_front(game, ent, geo)
    else:
        forced = forced_h2h(game, ent, geo)
        visible = visible_zombies(game, ent, geo)
    out: list[Option] = []
    reach: dict[str, list[tuple[int, int, Sight]]] = {}
    for name in arms.weapons:
        w = weapon(game, name)
        if w.grenade:
            if (geo.grenades and not forced and not covering and arms.ammo.get(name, 0) > 0
                    and grenade_squares(game, ent, True)):
                out.append(["attack", "grenade", name])
            continue
        targets = reach[name] = h2h_targets(game, ent, w, visible, geo)
        if targets:
            out.append(["attack", "h2h", name])
        if forced or not w.fire or arms.ammo.get(name, 0) <= 0:
            continue
        if visible:
            out.append(["attack", "normal", name])
            if w.rof >= 2:
                out.append(["attack", "spread", name])
    return out, visible, reach


# -- resolving dice -------------------------------------------------------------------------------


def resolve(game: Game, shooter: int, target: int, final_hit: int, dice: int, s: Sight,
            occ: dict[Square, int], ammo_weapon: str | None, why: str) -> None:
    """Step 5 of normal fire, die by die (the target may be a zombie or, for grenades, a character)."""
    if final_hit > MAX_HIT:
        game.log("attack_fails", shooter=shooter, target=target, hit=final_hit)
        return
    values = game.roll_dice(f"{dice}d12", why)
    game.log("attack", shooter=shooter, target=target, hit=final_hit, values=values)
    bystander = first_intervening_character(game, s, occ)
    for v in values:
        alive = game.world.exists(target)
        if alive and v >= final_hit + 3:
            if is_zombie(game, target):
                hit_zombie(game, target, shooter)
            else:
                wound_character(game, target, "grenade")
        elif alive and v >= final_hit and is_zombie(game, target):
            stun_zombie(game, target)
        if v == 2 and bystander is not None and game.world.exists(bystander):
            wound_character(game, bystander, "friendly fire")
        if v == 1 and ammo_weapon is not None and game.world.exists(shooter):
            spend_ammo(game, shooter, ammo_weapon)


def choose_target(game: Game, ent: int, targets: list[tuple[int, int, Sight]], kind: str
                  ) -> Generator[Decision, object, tuple[int, int, Sight]]:
    """The nearest target; the player breaks ties."""
    tied = nearest(targets)
    z = yield from game.decide(PLAYER, kind, [t[1] for t in tied], character=ent)
    return next(t for t in tied if t[1] == z)


def normal_fire(game: Game, ent: int, name: str, covering: int | None = None) -> Generator[Decision, object, None]:
    """Normal fire: ROF dice at the nearest zombie in front arc and LOF."""
    w = weapon(game, name)
    targets = visible_zombies(game, ent)
    if not targets:
        return
    rng, z, s = yield from choose_target(game, ent, targets, "stalingrad.target")
    final = hit_number(w, rng) + attack_modifier(game, ent, covering) + lof_modifier(game, s)
    resolve(game, ent, z, final, w.rof, s, occupancy(game), name, f"normal fire ({name})")


def spread_fire(game: Game, ent: int, name: str, covering: int | None = None) -> Generator[Decision, object, None]:
    """Spread fire: one die per attack, ROF dice in all, one fewer per square between targets."""
    w = weapon(game, name)
    geo = geometry(game, ent)
    targets = visible_zombies(game, ent, geo)
    if not targets:
        return
    rng, z, s = yield from choose_target(game, ent, targets, "stalingrad.target")
    left = w.rof
    mod = attack_modifier(game, ent, covering)
    while True:
        zsq = pos(game, z)
        final = hit_number(w, rng) + mod + lof_modifier(game, s)
        resolve(game, ent, z, final, 1, s, occupancy(game), name, f"spread fire ({name})")
        left -= 1
        if left <= 0 or not game.world.exists(ent):
            return
        # The dice are rolled until the weapon's ROF is reached: no stopping early; the attack ends
        # only when no zombie in front arc and LOF can still be reached with the dice left.
        options: list[Any] = []
        found = {}
        for t in visible_zombies(game, ent, geo):
            if geo.between(zsq, pos(game, t[1])) < left:
                options.append(t[1])
                found[t[1]] = t
        if not options:
            return
        choice = yield from game.decide(PLAYER, "stalingrad.spread_target", options, character=ent, dice=left,
                                        previous=list(zsq))
        rng, z, s = found[choice]
        cost = geo.between(zsq, pos(game, z))
        left -= cost
        game.log("spread_shift", character=ent, target=z, dice_lost=cost, dice_left=left)


def h2h(game: Game, ent: int, name: str, covering: int | None = None) -> Generator[Decision, object, None]:
    """H2H: the closest zombie in reach in the front arc; a 1 costs no ammo."""
    w = weapon(game, name)
    targets = h2h_targets(game, ent, w)
    if not targets:
        return
    _rng, z, s = yield from choose_target(game, ent, targets, "stalingrad.target")
    final = w.hit + attack_modifier(game, ent, covering) + lof_modifier(game, s)
    dice = w.rof if (w.h or not w.fire) else 1
    resolve(game, ent, z, final, dice, s, occupancy(game), None, f"h2h ({name})")


def deviate(game: Game, target: Square) -> Square:
    """Deviation table: a direction and a distance; onto obstructive terrain (or a wall, a closed
    door, or past the map's edge, clamped) it deviates again from there."""
    dev = game.tables["stalingrad.deviation"]
    g = gmap(game)
    closed = closed_doors(game)
    sq = target
    for _ in range(dev.max_tries):
        d = dev.directions[game.roll(dev.direction_die, "grenade deviation direction") - 1]
        n = game.roll(dev.distance_die, "grenade deviation distance")
        dx, dy = DIRECTIONS[d]
        aimed = (sq[0] + dx * n, sq[1] + dy * n)
        new = clamp(g, aimed)
        game.log("deviation", start=list(sq), to=list(new), direction=d, squares=n)
        if new == aimed and g.passable(new, closed):  # past the edge (clamped): deviates again
            return new
        sq = new
    return target


def grenade(game: Game, ent: int, name: str) -> Generator[Decision, object, None]:
    """Throw to a square (range 8, front or side arc), deviate on a miss, then attack every figure in
    LOF of the landing square (ROF 1, LOF modifiers only, skipping hit # above 12, a 1 costs nothing)."""
    w = weapon(game, name)
    if not geometry(game, ent).grenades:
        raise GameError("grenades are thrown on the square map only (the deviation table's eight directions)")
    squares = grenade_squares(game, ent)
    if not squares:
        return
    choice = yield from game.decide(PLAYER, "stalingrad.grenade_square", [list(s) for s in squares], character=ent)
    target = (choice[0], choice[1])
    me = pos(game, ent)
    geo = SquareGeometry(game)
    s = geo.sight(me, target, occupancy(game))
    throw = geo.range(me, target) + (2 if geo.facing_arc(ent, target) == "side" else 0) + (0 if s.clear else 4)
    throw += attack_modifier(game, ent) + (lof_modifier(game, s) if s.clear else 0)
    roll = game.roll("1d12", "grenade throw")
    spend_ammo(game, ent, name)
    land = target if roll >= throw else deviate(game, target)
    game.log("grenade", character=ent, target=list(target), throw=throw, roll=roll, landed=list(land))
    blast(game, ent, w, land)


def blast(game: Game, thrower: int, w: Weapon, land: Square) -> None:
    """A separate attack on each figure in LOF of the landing square (the landing square is range 1)."""
    geo = SquareGeometry(game)
    for v in sorted(occupancy(game).values()):
        if not game.world.exists(v):
            continue
        occ = occupancy(game)
        vs = pos(game, v)
        s = geo.sight(land, vs, occ)
        if not s.clear:
            continue
        final = hit_number(w, geo.range(land, vs) + 1) + lof_modifier(game, s)
        if final > MAX_HIT:
            continue
        resolve(game, thrower, v, final, 1, s, occ, None, "grenade blast")


# What an attack touches: figures' places, facings and arms to aim; wounds, stuns, locks released,
# ammo and tallies as it resolves; killed figures deleted (so every component a figure may have is read).
ATTACK_READS = ("Position", "Faction", "Facing", "Kind", "Wounds", "Markers", "Engaged", "Arsenal", "ActivationState",
                "DoorState", "StalingradRound", "Tally")
ATTACK_WRITES = ("Wounds", "Markers", "Engaged", "Arsenal", "Tally")
ATTACK_DECIDES = ("stalingrad.target", "stalingrad.spread_target", "stalingrad.grenade_square")
# The parameters every caller of the `attack` step passes (for its `calls` declaration).
ATTACK_CALL = {"attack": ("character", "mode", "weapon", "covering")}


@system("stalingrad.attack", reads=ATTACK_READS, writes=ATTACK_WRITES, decides=ATTACK_DECIDES)
def attack_step(game: Game, character: int, mode: str, weapon: str, covering: int = -1
                ) -> Generator[Decision, object, None]:
    """The attack action (step `attack`): one attack by a character with a readied weapon.

    Parameters, plain data, so that another game's activation can ask for Stalingrad's fire modes
    and another game can supply its own `attack` step taking the same:
    - `character`: the attacking figure's entity id (a `Position`, `Facing` and `Arsenal`);
    - `mode`: the attack type, `normal` (ROF dice at the nearest zombie in front arc and LOF),
      `spread` (ROF dice one by one, shifting targets), `h2h` or `grenade` (square map only);
    - `weapon`: the weapon's name in the `stalingrad.weapons` table;
    - `covering`: the value of the covering token discarded for this attack (it replaces the attack
      modifier), or -1 for an attack in the character's own activation.
    Range, spreads, touching, line of fire and arcs come from `stalingrad.geometry` for the board
    the character stands on."""
    yield from attack(game, character, mode, weapon, None if covering < 0 else covering)


def attack(game: Game, ent: int, kind: str, name: str, covering: int | None = None
           ) -> Generator[Decision, object, None]:
    """Resolve one attack of `kind` with weapon `name` (the `stalingrad.attack` step's rule)."""
    if kind not in ATTACK_TYPES:
        raise GameError(f"unknown attack type {kind!r} (known: {', '.join(ATTACK_TYPES)})")
    if name not in game.tables["stalingrad.weapons"]:
        raise GameError(f"unknown weapon {name!r}: not in the stalingrad.weapons table")
    game.log("attack_declared", character=ent, type=kind, weapon=name, covering=covering)
    if kind == "normal":
        yield from normal_fire(game, ent, name, covering)
    elif kind == "spread":
        yield from spread_fire(game, ent, name, covering)
    elif kind == "h2h":
        yield from h2h(game, ent, name, covering)
    elif kind == "grenade":
        yield from grenade(game, ent, name)


def offer_cover(game: Game, zombie: int, seen_before: dict[int, bool]) -> Generator[Decision, object, None]:
    """Covering: when a zombie enters a covering character's front arc and LOF, or becomes adjacent,
    the player may discard the token for an H2H, normal or spread fire attack (hit # + token value)."""
    for c in cover_tokens(game):
        if not game.world.exists(zombie):
            return
        if not game.world.exists(c) or game.world.get(c, ActivationState).covering < 0:
            continue  # killed (friendly fire) or token gone since the list was taken: the others still may
        zs, cs = pos(game, zombie), pos(game, c)
        geo = geometry(game, c)
        # Not touching: only a zombie coming into view (not seen before the move) is offered; the
        # view is looked at only then.
        if not geo.touching(cs, zs) and (seen_before.get(c, False) or not (
                geo.facing_arc(c, zs) == "front" and geo.sight(cs, zs, occupancy(game)).clear)):
            continue
        options = attack_options(game, c, covering=True)
        if not options:
            continue
        act = game.world.get(c, ActivationState)
        answer = yield from game.decide(PLAYER, "stalingrad.cover", ["hold", "fire"], character=c, zombie=zombie)
        if answer == "hold":
            continue
        chosen = yield from game.decide(PLAYER, "stalingrad.cover_attack", options, character=c, zombie=zombie)
        value = act.covering
        act.covering = -1
        game.log("covering_fire", character=c, zombie=zombie, token=value)
        yield from game.run_step("attack", {"character": c, "mode": chosen[1], "weapon": chosen[2],
                                            "covering": value})


def seen_by_covering(game: Game, zombie: int) -> dict[int, bool]:
    """Which covering characters already had the zombie in front arc and LOF (before it moves)."""
    out: dict[int, bool] = {}
    if not game.world.exists(zombie):
        return out
    zs = pos(game, zombie)
    for c in cover_tokens(game):
        cs = pos(game, c)
        geo = geometry(game, c)
        if type(geo) is SquareGeometry:  # figures never block a square line: no occupancy asked
            out[c] = geo.facing_arc(c, zs) == "front" and sight(geo.map, cs, zs, closed_doors(game)).clear
        else:
            out[c] = geo.facing_arc(c, zs) == "front" and geo.sight(cs, zs, occupancy(game)).clear
    return out


__all__ = ["ATTACK_CALL", "attack", "attack_options", "attack_step", "hit_number", "offer_cover", "seen_by_covering"]
