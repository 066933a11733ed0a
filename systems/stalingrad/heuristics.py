"""The `heuristic` policy's answers for Stalingrad's decisions: sensible play, not perfect play.

What it does, and why (the figures behind each choice are in docs/stalingrad.md, "The heuristic"):

- **Declaration.** A locked character declares walking: the free roll breaks most locks, and a
  stationary character that broke free could not step away (walking's +2 on the roll costs less than
  staying put). A character with a zombie within `NEAR` squares walks (shots at +2, not running's
  +4, and still 4 MPs); one on or beside an unsearched square searches when no zombie is within
  `SAFE` squares and the round track leaves time; otherwise it runs for the exit.
- **Shots.** Good odds only (final hit # `GOOD_SHOT` or less; up to `FAIR_SHOT` when nothing better
  is left), never through a friend (a 2 wounds the first intervening character) unless fighting for
  its life in H2H; spread fire rather than normal fire at equal odds (the dice left shift to another
  zombie once the first dies: never worse).
- **Grenades.** Thrown where the blast's expected kills, less `FRIEND_COST` times the expected
  wounds to characters (the thrower included), are highest, when that is worth `GRENADE_WORTH`.
- **Turning.** With no good shot in front and a zombie in good range behind or beside, a character
  turns to face it and shoots; one ending its activation with MPs left faces the nearest zombie
  (covering fire and H2H need the front arc).
- **Doors.** Opened when that shortens the way to the exit; closed behind the character when that
  lengthens a zombie's way to it without lengthening any character's way out.
- **Covering fire** is held when its shot would cross a friend.
- **Activation order:** the character nearest the exit first (it clears the others' lines).
- Wounds go to the character with the most left. Never: passing gear (gear has no effect in the
  rules), skipping the free unlock roll, or taking the second turn (see docs/stalingrad.md).
"""

from __future__ import annotations

import math
from functools import lru_cache

from ecs_zombie.components import Facing, Kind, Wounds
from ecs_zombie.decisions import Decision, heuristic
from ecs_zombie.game import Game
from ecs_zombie.grid import (
    UNREACHABLE,
    Field,
    GridMap,
    Sight,
    Square,
    arc_of,
    distance_field,
    grid_range,
    kept_distance_field,
    sight,
    turn_steps,
)
from ecs_zombie.systems.stalingrad.attack import forced_h2h, hit_number, visible_zombies
from ecs_zombie.systems.stalingrad.board import (
    ZOMBIES,
    characters,
    closed_doors,
    gmap,
    is_zombie,
    line,
    locked,
    mods,
    occupancy,
    pos,
    side_positions,
    weapon,
    zombies,
)
from ecs_zombie.systems.stalingrad.components import ActivationState, Arsenal
from ecs_zombie.systems.stalingrad.tables import Weapon

GOOD_SHOT = 8  # final hit # at or under which a shot is taken before moving
FAIR_SHOT = 10  # ... and when nothing better is left to do
NEAR = 4  # a zombie this near (king moves): walk, not run
SAFE = 6  # no zombie this near (king moves): a search is safe
FRIEND_COST = 6.0  # a wound to a character weighs as much as this many zombie kills
GRENADE_WORTH = 0.6  # the expected net kills a grenade must be worth


@lru_cache(maxsize=64)
def exit_field(g: GridMap, closed: frozenset[Square]) -> Field:
    """Steps to the nearest exit (a pure function of the map and the closed doors)."""
    return distance_field(g, list(g.squares("exit")), closed)


def king(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def nearest_zombie(game: Game, sq: Square) -> int:
    """King-move distance to the nearest zombie on the board (a large number with none)."""
    x, y = sq
    return min((max(abs(x - p.x), abs(y - p.y)) for _z, p in side_positions(game, ZOMBIES)), default=99)


def rounds_left(game: Game) -> int:
    """Rounds left after this one before the scenario's last."""
    last = game.tables["stalingrad.victory"].by_round or game.tables["stalingrad.track"].rounds
    return int(last) - game.tick


def through_friend(game: Game, s: Sight) -> bool:
    """A character stands between shooter and target (a 2 rolled would wound him)."""
    occ = occupancy(game)
    return any(sq in occ and not is_zombie(game, occ[sq]) for sq in s.intervening)


@heuristic("stalingrad.mode")
def mode(game: Game, d: Decision) -> int:
    ent = d.context["character"]
    me = pos(game, ent)
    if locked(game, ent):
        return d.options.index("walking")
    if forced_h2h(game, ent):
        return d.options.index("walking")
    near = nearest_zombie(game, me)
    if "searching" in d.options and near > SAFE:
        here = exit_field(gmap(game), closed_doors(game)).at(me)
        if here < UNREACHABLE and rounds_left(game) >= -(-here // 8) + 1:
            return d.options.index("searching")
    if near > 2 and rounds_left(game) >= -(-exit_field(gmap(game), closed_doors(game)).at(me) // 4) + 2:
        standing = facing_shot(game, ent, game.world.get(ent, Facing).direction, "stationary")
        attack = mods(game).attack
        if standing <= GOOD_SHOT < standing + attack["walking"] - attack["stationary"]:
            return d.options.index("stationary")
    if near <= NEAR:
        return d.options.index("walking")
    return d.options.index("running")


@heuristic("stalingrad.initiative_order")
def initiative_order(game: Game, d: Decision) -> int:
    return d.options.index("first")


@heuristic("stalingrad.activate")
def activate(game: Game, d: Decision) -> int:
    """The character nearest the exit first (ties: the first listed)."""
    field = exit_field(gmap(game), closed_doors(game))
    return min(range(len(d.options)), key=lambda i: (field.at(pos(game, d.options[i])), i))


def blast_value(game: Game, land: Square, thrower: int) -> float:
    """Expected zombie kills less `FRIEND_COST` times expected character wounds, for a grenade
    landing on `land` (range from the landing square counts it as 1; hit # 2 + range - 1; a hit on
    a roll of hit # + 3 or more)."""
    blast = _Blast.of(game, thrower)
    return 0.0 if blast is None else blast.value(land)


def blast_chance(final: int) -> float:
    """The chance that a figure at hit # `final` from a grenade's landing square is hit: a d12 roll
    of `final` + 3 or more, (13 - (final + 3)) / 12, and 0 from hit # 10 on (above 12 the attack
    fails outright, and before that no roll is high enough)."""
    return max(0, 13 - (final + 3)) / 12


def blast_reach(w: Weapon) -> int:
    """The farthest range from the landing square at which grenade `w` can still hit a figure with no
    line-of-fire penalty (the landing square counts as range 1): beyond it `blast_chance` is 0."""
    reach = 0
    while blast_chance(hit_number(w, reach + 2)) > 0:
        reach += 1
    return reach


@lru_cache(maxsize=256)
def _blast_values(g: GridMap, closed: frozenset[Square], figures: tuple[tuple[Square, int], ...], hit: int, pb: int,
                  rm: int, per_figure: int, per_rubble: int) -> dict[Square, float]:
    """A store for `_Blast.value` by landing square, one per board and grenade: the value is a pure
    function of these arguments (the map, the closed doors, every figure's square and worth, the
    grenade's hit #, PB and RM, the LOF modifiers), so values kept under them are never stale."""
    return {}


class _Blast:
    """What `blast_value` reads that does not depend on the landing square, read once for the many
    landing squares one decision weighs (a value of the moment, never kept between decisions; the
    values it weighs are kept per board, `_blast_values`)."""

    __slots__ = ("closed", "figures", "grid", "m", "occ", "reach", "values", "w")

    def __init__(self, game: Game, w: Weapon) -> None:
        self.grid = gmap(game)
        self.closed = closed_doors(game)
        self.occ = occupancy(game)
        self.w = w
        self.m = mods(game)
        undead = set(zombies(game))
        types = game.tables["stalingrad.zombies"]
        get = game.world.get
        # In a fixed order (by square): the sum is the same after a reload. A zombie's kill counts
        # 1 / its hits; 0 hits: a character (its wound counts -FRIEND_COST).
        self.figures = [(sq, max(1, types[get(ent, Kind).name].hits) if ent in undead else 0)
                        for sq, ent in sorted(self.occ.items())]
        # `value` by landing square, each weighed once, and shared by every blast of the same board
        # and grenade (`_blast_values`): a character after another, or after an action that moved
        # no figure, weighs the same board.
        self.values = _blast_values(self.grid, self.closed, tuple(self.figures), w.hit, w.pb, w.rm,
                                    self.m.intervening_figure, self.m.obstructive)
        # Farther from the landing square than this, the grenade's hit # leaves no roll that hits
        # (7 for the book's grenade: hit # 9 + 3 = 12 at range 7, 13 at 8); only with no LOF
        # modifier below 0 can a figure there be skipped before its line of fire is looked at.
        self.reach = blast_reach(w) if min(self.m.intervening_figure, self.m.obstructive) >= 0 else None

    @staticmethod
    def of(game: Game, thrower: int) -> _Blast | None:
        name = next((n for n in game.world.get(thrower, Arsenal).weapons if weapon(game, n).grenade), None)
        return None if name is None else _Blast(game, weapon(game, name))

    def bound(self, land: Square) -> float | None:
        """A number never under `value(land)` (None: no bound, when a LOF modifier is negative),
        for no line of fire looked at: every zombie in range counted as in plain sight, characters
        not at all. Summed in `value`'s order with each term at least `value`'s term (a term left
        out counting 0), so rounding keeps it at or above the value."""
        w, reach = self.w, self.reach
        if reach is None:
            return None
        lx, ly = land
        total = 0.0
        for sq, hits in self.figures:
            if not hits:
                continue
            rng = abs(lx - sq[0]) + abs(ly - sq[1])
            if rng > reach:
                continue
            total += blast_chance(hit_number(w, rng + 1)) / hits
        return total

    def value(self, land: Square) -> float:
        found = self.values.get(land)
        if found is None:
            found = self.values[land] = self._value(land)
        return found

    def _value(self, land: Square) -> float:
        g, closed, occ, w, m, reach = self.grid, self.closed, self.occ, self.w, self.m, self.reach
        per_figure, per_rubble = m.intervening_figure, m.obstructive
        lx, ly = land
        value = 0.0
        for sq, hits in self.figures:
            rng = abs(lx - sq[0]) + abs(ly - sq[1])
            if reach is not None and rng > reach:  # no kill and no wound out there
                continue
            s = sight(g, land, sq, closed, occ)
            if not s.clear:
                continue
            p = blast_chance(hit_number(w, rng + 1) + per_figure * len(s.intervening) + per_rubble * s.obstructive)
            if not p:
                continue
            if hits:
                value += p / hits
            else:
                value -= FRIEND_COST * p
        return value


def throw_value(game: Game, ent: int, target: Square, blast: _Blast | None = None) -> float:
    """`blast_value` expected over the throw: landing on `target` with the chance the throw hit #
    gives (range, +2 in the side arc, +4 without LOF, the attack and LOF modifiers), else on one of
    the deviation table's eight directions at its middle distance, 2 squares (impassable ones left out).
    (`blast`: `_Blast.of(game, ent)`, if known.)"""
    me = pos(game, ent)
    g = gmap(game)
    closed = closed_doors(game)
    m = mods(game)
    s = line(game, me, target)
    facing = game.world.get(ent, Facing).direction
    throw = grid_range(me, target) + (2 if arc_of(facing, me, target, m.front_half_angle, m.rear_half_angle) == "side"
                                      else 0) + (0 if s.clear else 4)
    throw += m.attack.get(game.world.get(ent, ActivationState).mode, 0)
    if s.clear:
        throw += m.intervening_figure * len(s.intervening) + m.obstructive * s.obstructive
    p_land = min(1.0, max(0, 13 - throw) / 12)
    if blast is None:
        blast = _Blast.of(game, ent)
    value = p_land * (0.0 if blast is None else blast.value(target))
    if p_land < 1.0:
        spots = [(target[0] + 2 * dx, target[1] + 2 * dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
        spots = [q for q in spots if g.inside(q) and g.passable(q, closed)]
        if spots:
            value += (1 - p_land) * sum(0.0 if blast is None else blast.value(q) for q in spots) / len(spots)
    return value


def best_grenade(game: Game, ent: int) -> tuple[float, Square | None]:
    """The best landing square among zombies' squares within throwing range (by `blast_value`), and
    its expected value over the throw (`throw_value`); none without two zombies together in range."""
    mx, my = pos(game, ent)
    others = [(p.x, p.y) for _z, p in side_positions(game, ZOMBIES)]
    reach = [sq for sq in others if abs(mx - sq[0]) + abs(my - sq[1]) <= 8]
    best: tuple[float, Square | None] = (0.0, None)
    taken = set(others)
    if not any((x + dx, y + dy) in taken for x, y in reach for dx, dy in _WITHIN_2):
        return best  # no two zombies together: a lone zombie is worth at most 8 in 12 of a kill
    #                (less after the throw's odds), never the 0.6 asked
    blast = _Blast.of(game, ent)
    if blast is None:
        return best  # no grenade: every blast is worth 0
    # The first of the values ranked highest first (then by row, then column), weighed only where
    # it could be: a square whose `bound` is under GRENADE_WORTH, or under the best value found so
    # far, is neither the first nor worth a throw (the bound is never under the value). The squares
    # are weighed highest bound first, so the best values come early and prune the most; any order
    # finds the same first (every square that could be it is weighed).
    top: tuple[tuple[float, int, int], float, Square] | None = None
    floor = GRENADE_WORTH
    ranked: list[tuple[float, int, int]] = []
    for sq in reach:
        bound = blast.bound(sq)
        if bound is None:
            bound = math.inf  # no bound: weighed whatever
        elif bound < floor:
            continue
        ranked.append((-bound, sq[1], sq[0]))
    ranked.sort()
    for neg, y, x in ranked:
        if -neg < floor:
            break  # this bound and every later one are under the best value found
        sq = (x, y)
        v = blast.value(sq)
        key = (-v, y, x)
        if top is None or key < top[0]:
            top = (key, v, sq)
            floor = max(floor, v)
    if top is not None and top[1] >= GRENADE_WORTH:
        full = throw_value(game, ent, top[2], blast)
        if full > best[0]:
            best = (full, top[2])
    return best


# The offsets at range 1 or 2 (diagonals counting 2): where a second zombie makes a grenade worth weighing.
_WITHIN_2 = tuple((dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if 0 < abs(dx) + abs(dy) <= 2)


def shot_estimates(game: Game, ent: int, d: Decision) -> dict[int, int]:
    """The decision's hit # estimates, without the shots that would cross a friend."""
    est: dict[int, int] = d.context.get("estimates", {})
    if not any(e <= FAIR_SHOT and d.options[i][1] in ("normal", "spread") for i, e in est.items()):
        return est  # no shot that would be taken anyway
    visible = visible_zombies(game, ent)
    risky = bool(visible) and through_friend(game, visible[0][2])
    return {i: e for i, e in est.items() if not (risky and d.options[i][1] in ("normal", "spread"))}


def sighted(game: Game, ent: int) -> list[tuple[int, Square, Sight]]:
    """Every zombie in the character's LOF, whatever the arc: (range, square, sight), nearest first."""
    me = pos(game, ent)
    mx, my = me
    occ = occupancy(game)
    g, closed = gmap(game), closed_doors(game)
    found = []
    for _z, p in side_positions(game, ZOMBIES):  # the zombies' squares held by the world, in id order
        zs = (p.x, p.y)
        s = sight(g, me, zs, closed, occ)
        if s.clear:
            found.append((abs(mx - zs[0]) + abs(my - zs[1]), zs, s))
    found.sort(key=_range_then_square)
    return found


def _range_then_square(t: tuple[int, Square, Sight]) -> tuple[int, Square]:
    return t[0], t[1]


def facing_shot(game: Game, ent: int, direction: int, declared: str | None = None,
                seen: list[tuple[int, Square, Sight]] | None = None) -> int:
    """The best final hit # the character would have at the nearest zombie in its front arc if it
    faced `direction` (13: none), never counting a shot across a friend (`seen`: `sighted`, if known)."""
    me = pos(game, ent)
    m = mods(game)
    arms = game.world.get(ent, Arsenal)
    mode_mod = m.attack.get(declared or game.world.get(ent, ActivationState).mode, 0)
    found = next((t for t in (sighted(game, ent) if seen is None else seen)
                  if arc_of(direction, me, t[1], m.front_half_angle, m.rear_half_angle) == "front"), None)
    if found is None:
        return 13
    rng, _zs, s = found
    if through_friend(game, s):
        return 13
    best = 13
    for name in arms.weapons:
        w = weapon(game, name)
        if w.grenade or (w.fire and arms.ammo.get(name, 0) <= 0) or (not w.fire and rng > (w.pb if w.h else 1)):
            continue
        best = min(best, hit_number(w, rng) + mode_mod + m.intervening_figure * len(s.intervening)
                   + m.obstructive * s.obstructive)
    return best


@heuristic("stalingrad.action")
def action(game: Game, d: Decision) -> int:
    opts = d.options
    ent = d.context["character"]
    est = shot_estimates(game, ent, d)
    # The options by verb, each in the options' order (one pass over the options).
    attacks: list[int] = []
    moves: list[int] = []
    faces: list[int] = []
    doors: list[int] = []
    for i, o in enumerate(opts):
        verb = o[0]
        if verb == "move":
            moves.append(i)
        elif verb == "attack":
            attacks.append(i)
        elif verb == "face":
            faces.append(i)
        elif verb == "open" or verb == "close":
            doors.append(i)
    h2h = [i for i in attacks if opts[i][1] == "h2h" and i in est]
    if h2h and (locked(game, ent) or forced_h2h(game, ent)):
        return min(h2h, key=lambda i: (est[i], i))
    good = [i for i in attacks if i in est and est[i] <= GOOD_SHOT]
    if good:
        return min(good, key=lambda i: (est[i], opts[i][1] != "spread", i))
    grenades = [i for i in attacks if opts[i][1] == "grenade"]
    if grenades and nearest_zombie(game, pos(game, ent)) <= 8 and best_grenade(game, ent)[0] >= GRENADE_WORTH:
        return grenades[0]
    g = gmap(game)
    closed = closed_doors(game)
    field = exit_field(g, closed)
    me = pos(game, ent)
    here = field.at(me)
    for i in doors:
        o = opts[i]
        if o[0] == "open" and exit_field(g, closed - {(o[1], o[2])}).at(me) + 2 <= here:
            return i
    for i in doors:
        o = opts[i]
        if o[0] == "close" and worth_closing(game, ent, (o[1], o[2])):
            return i
    if here >= UNREACHABLE:
        field = exit_field(g, frozenset())
        here = field.at(me)
    if moves:
        # The first move to a square nearest the exit (field.at inlined).
        dist, w, h = field.dist, g.width, g.height
        best_i, best_d = -1, 0
        for i in moves:
            x, y = opts[i][1], opts[i][2]
            at = dist[y * w + x] if 0 <= x < w and 0 <= y < h else UNREACHABLE
            if best_i < 0 or at < best_d:
                best_i, best_d = i, at
        if best_d < here:
            return best_i
    fair = [i for i in attacks if i in est and est[i] <= FAIR_SHOT]
    if fair:
        return min(fair, key=lambda i: (est[i], opts[i][1] != "spread", i))
    act = game.world.get(ent, ActivationState)
    if faces and not act.attacked:
        facing = game.world.get(ent, Facing).direction
        seen = sighted(game, ent)
        shots = {i: facing_shot(game, ent, opts[i][1], seen=seen) for i in faces}
        best_face = min(faces, key=lambda i: (shots[i], turn_steps(facing, opts[i][1]), i))
        if shots[best_face] <= GOOD_SHOT:
            return best_face
    if faces and zombies(game):
        facing = game.world.get(ent, Facing).direction
        target = min((pos(game, z) for z in zombies(game)), key=lambda zs: (grid_range(me, zs), zs[1], zs[0]))
        m = mods(game)
        if king(me, target) <= 8 and arc_of(facing, me, target, m.front_half_angle, m.rear_half_angle) != "front":
            for i in sorted(faces, key=lambda i: (turn_steps(facing, opts[i][1]), i)):
                if arc_of(opts[i][1], me, target, m.front_half_angle, m.rear_half_angle) == "front":
                    return i
    return opts.index(["end"])


def worth_closing(game: Game, ent: int, door: Square) -> bool:
    """Closing `door` lengthens by 2 or more steps (or cuts) the way to the character of some zombie
    within 15 steps of it, and no character's way out gets longer."""
    g = gmap(game)
    closed = closed_doors(game)
    shut = closed | {door}
    now, then = exit_field(g, closed), exit_field(g, shut)
    for c in characters(game):
        if then.at(pos(game, c)) > now.at(pos(game, c)):
            return False
    me = pos(game, ent)
    before, after = kept_distance_field(g, (me,), closed), kept_distance_field(g, (me,), shut)
    for z in zombies(game):
        zs = pos(game, z)
        if before.at(zs) <= 15 and after.at(zs) >= before.at(zs) + 2:
            return True
    return False


@heuristic("stalingrad.wound_target")
def wound_target(game: Game, d: Decision) -> int:
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
    ent = d.context["character"]
    aim = best_grenade(game, ent)[1]
    if aim is not None and list(aim) in d.options:
        return d.options.index(list(aim))
    blast = _Blast.of(game, ent)
    return max(range(len(d.options)), key=lambda i: ((0.0 if blast is None else
                                                      blast.value((d.options[i][0], d.options[i][1])))
                                                     if nearest_zombie(game, (d.options[i][0], d.options[i][1])) <= 2
                                                     else -99.0, -i))


@heuristic("stalingrad.cover")
def cover(game: Game, d: Decision) -> int:
    """Fire, unless the shot would cross a friend (an adjacent zombie is fought in H2H: no friend between)."""
    c = d.context["character"]
    visible = visible_zombies(game, c)
    if visible and visible[0][0] > 1 and through_friend(game, visible[0][2]):
        return d.options.index("hold")
    return d.options.index("fire")



@heuristic("stalingrad.cover_attack")
def cover_attack(game: Game, d: Decision) -> int:
    """H2H when offered (the zombie is at hand), else spread fire rather than normal fire."""
    rank = {"h2h": 0, "spread": 1, "normal": 2}
    return min(range(len(d.options)), key=lambda i: (rank.get(d.options[i][1], 3), i))
