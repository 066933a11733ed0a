"""The player turn (Escape from Stalingrad Z, "Player turn", "Character activation", "Locked",
"Movement actions", "Covering", "Searching").

Start phase: covering and attacked tokens come off. Action phase: the player activates characters
one at a time in the order they choose; each declares running (8 MPs), walking (4), stationary (0)
or searching, then takes movement actions (from the movement table) and at most one attack, in any
order, until it ends its activation. A character that could have attacked but did not takes a
covering token (0 stationary, 2 walked, 4 ran).

DESIGN CHOICES: a "move" action goes to any square the character can reach with its MPs, along the
cheapest path (steps and diagonal steps priced by the movement table); the figure then faces its last
step. Entering a square touching a zombie that is not stunned (its zone of control: the eight
squares around it) ends the move and costs every MP left. Characters may pass through each other's
squares but not stop on them, and never pass a zombie. Turning costs the table's `turn` per 90° or
part. Every weapon carried is readied. A character stepping onto an exit square leaves the board
(escapes). The unlock attempt is offered once, at the start of a locked character's activation.
"""

from __future__ import annotations

from collections.abc import Generator
from functools import lru_cache
from typing import Any

from ecs_zombie.components import Engaged, Facing, Markers, Position, Wounds
from ecs_zombie.decisions import Decision
from ecs_zombie.errors import GameError
from ecs_zombie.game import Game
from ecs_zombie.grid import DIRECTIONS, GridMap, Sight, Square, reach_indices, turn_steps
from ecs_zombie.schedule import system
from ecs_zombie.systems.stalingrad.attack import (
    ATTACK_CALL,
    attack_modifier,
    attack_options_reach,
    h2h_targets,
    hit_number,
    visible_zombies,
)
from ecs_zombie.systems.stalingrad.board import (
    PLAYER,
    SURVIVORS,
    ZOMBIES,
    bump,
    characters,
    closed_doors,
    gmap,
    line,
    locked,
    lof_modifier,
    mods,
    move_figure,
    occupancy,
    pos,
    set_door,
    side_positions,
    weapon,
)
from ecs_zombie.systems.stalingrad.components import ActivationState, Arsenal, DoorState, SearchSpot
from ecs_zombie.systems.stalingrad.spawn import reveal, settle_pending
from ecs_zombie.systems.stalingrad.tables import MoveCosts

Option = list[Any]


@system("stalingrad.player_start", reads=("ActivationState",), writes=("ActivationState",))
def player_start(game: Game) -> None:
    """Start phase of the player turn: remove covering and attacked tokens."""
    for _e, act in game.world.query1(ActivationState):
        act.covering = -1
        act.attacked = False
        act.activated = False
        act.mode = ""
        act.mp = 0


def zoc_squares(game: Game, closed: frozenset[Square]) -> set[Square]:
    """Every square in the zone of control of a zombie that is not stunned (the eight squares one
    legal step from it). The legal steps are the map's, looked up per set of closed doors
    (`GridMap.neighbour_squares`)."""
    g = gmap(game)
    out: set[Square] = set()
    keep = mods(game).zoc_while_stunned
    near = g.neighbour_squares(closed)
    w, h = g.width, g.height
    get = game.world.get
    for z, p in side_positions(game, ZOMBIES):
        if get(z, Markers).has("stunned") and not keep:
            continue
        x, y = p.x, p.y
        if 0 <= x < w and 0 <= y < h:
            out.update(near[y * w + x])
    return out


def search_choices(game: Game, ent: int) -> list[Square]:
    """Unsearched search squares: the character's own or one of its four orthogonal neighbours."""
    if not game.tables["stalingrad.search"].allowed:
        return []
    x, y = pos(game, ent)
    near = {(x, y), (x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)}
    return sorted(((p.x, p.y) for _e, (s, p) in game.world.query(SearchSpot, Position)
                   if not s.searched and (p.x, p.y) in near), key=lambda s: (s[1], s[0]))


def escape(game: Game, ent: int) -> None:
    game.log("escaped", character=ent, square=list(pos(game, ent)))
    bump(game, "escaped")
    game.world.delete(ent)


def move_options(game: Game, ent: int, costs: MoveCosts, mp: int) -> tuple[list[Option], dict[Square, tuple[int, int]]]:
    """The `move` options (squares by row, then column) and what `reach` found (square -> cost, last
    step's direction)."""
    options, found = _move_options(game, ent, costs, mp)
    squares = gmap(game).squares_by_index()
    return options, {squares[k]: v for k, v in found.items()}


def _move_options(game: Game, ent: int, costs: MoveCosts, mp: int) -> tuple[list[Option], dict[int, tuple[int, int]]]:
    """`move_options` with what `reach` found keyed by square index. Squares are worked as map
    indices (the order by row then column is the order by index); the zombies' zones of control and
    the exits end a move, zombies' squares block it."""
    found, ordered = _reached(game, ent, costs, mp)
    occ = occupancy(game)
    return [["move", sq[0], sq[1]] for sq in ordered if sq not in occ], found


def _reached(game: Game, ent: int, costs: MoveCosts, mp: int
             ) -> tuple[dict[int, tuple[int, int]], tuple[Square, ...]]:
    """What `reach` finds for the character now, by square index, and the squares reached in index
    order (`_reach`'s answer, asked with this moment's zombies)."""
    g = gmap(game)
    p = game.world.get(ent, Position)
    return _reach(g, p.y * g.width + p.x, mp, costs.step, costs.diagonal, closed_doors(game), _zombie_key(game, g))


def _zombie_key(game: Game, g: GridMap) -> tuple[int, ...]:
    """What a move needs of the zombies, small enough to ask `_reach` with: each zombie on the map,
    in id order, as twice its square's index, plus 1 when its zone of control holds (it is not
    stunned, or the modifiers keep the zone while stunned). A zombie's square is where its
    `Position` says: the square the occupancy holds it on (`move_figure` keeps the two together;
    one figure a square)."""
    keep = mods(game).zoc_while_stunned
    w, h = g.width, g.height
    table = game.world.raw()
    return tuple([2 * (p.y * w + p.x) + (1 if keep or "stunned" not in table[z][Markers].tags else 0)
                  for z, p in side_positions(game, ZOMBIES) if 0 <= p.x < w and 0 <= p.y < h])


def _move_bounds(game: Game, g: GridMap, closed: frozenset[Square]) -> tuple[frozenset[int], frozenset[int]]:
    """The squares a move may not enter (zombies' squares) and those that end it (the zones of
    control of the zombies that are not stunned, and the exits), as map indices."""
    return _bounds(g, closed, _zombie_key(game, g))


def _bounds(g: GridMap, closed: frozenset[Square], zombies: tuple[int, ...]) -> tuple[frozenset[int], frozenset[int]]:
    """`_move_bounds` from the zombies as `_zombie_key` gives them (a pure function of its arguments)."""
    near = g.neighbour_indices(closed)
    stop = set(g.label_indices("exit"))
    for k in zombies:
        if k & 1:
            stop.update(near[k >> 1])
    return frozenset(k >> 1 for k in zombies), frozenset(stop)


@lru_cache(maxsize=512)
def _reach(g: GridMap, start: int, budget: int, step: int, diagonal: int, closed: frozenset[Square],
           zombies: tuple[int, ...]) -> tuple[dict[int, tuple[int, int]], tuple[Square, ...]]:
    """`ecs_zombie.grid.reach` by square index, with the squares reached in index order, the zombies
    blocking and stopping moves as `_bounds` says: kept for the same question (a pure function of
    its arguments: the zombies asked as `_zombie_key`, no square sets built and hashed on every
    call), since the squares offered to a move are asked again by the `move` step that makes it,
    and the same board comes back (a game's first moves, from game to game). Read the result,
    never change it."""
    blocked, stop = _bounds(g, closed, zombies)
    found = reach_indices(g, start, budget, step, diagonal, closed, blocked, stop)
    squares = g.squares_by_index()
    return found, tuple([squares[k] for k in sorted(found)])


def _path(g: GridMap, start: Square, goal: Square, found: dict[int, tuple[int, int]]) -> list[Square]:
    """`ecs_zombie.grid.path_to` over what `reach` found keyed by square index: the squares of the
    cheapest path, start excluded, goal included."""
    w = g.width
    out = [goal]
    x, y = goal
    while True:
        dx, dy = DIRECTIONS[found[y * w + x][1]]
        x, y = x - dx, y - dy
        if (x, y) == start:
            break
        out.append((x, y))
    out.reverse()
    return out


def _in_zoc(game: Game, sq: Square, closed: frozenset[Square]) -> bool:
    """`sq in zoc_squares(game, closed)`, asked of the zombies one by one (no set built): a square
    one legal step from a zombie that is not stunned."""
    g = gmap(game)
    keep = mods(game).zoc_while_stunned
    near = g.neighbour_squares(closed)
    w, h = g.width, g.height
    table = game.world.raw()
    for z, p in side_positions(game, ZOMBIES):
        x, y = p.x, p.y
        if 0 <= x < w and 0 <= y < h and sq in near[y * w + x] and (keep or "stunned" not in table[z][Markers].tags):
            return True
    return False


def turn_cost(costs: MoveCosts, a: int, b: int) -> int:
    return costs.turn * ((turn_steps(a, b) + 1) // 2)


def actions(game: Game, ent: int, costs: MoveCosts) -> list[Option]:
    """Every legal action now: moves, turns, doors, passing gear, an attack, and ending."""
    return actions_seen(game, ent, costs)[0]


def actions_seen(game: Game, ent: int, costs: MoveCosts
                 ) -> tuple[list[Option], list[tuple[int, int, Sight]] | None]:
    """`actions`, with the zombies in view it found while listing the attacks (None: not looked),
    for `estimates` of the same moment."""
    options, seen, _h2h = _actions_seen(game, ent, costs)
    return options, seen


def _actions_seen(game: Game, ent: int, costs: MoveCosts) -> tuple[
        list[Option], list[tuple[int, int, Sight]] | None, dict[str, list[tuple[int, int, Sight]]] | None]:
    """`actions_seen`, with each weapon's H2H targets it found (None: not looked), for `estimates`
    of the same moment. The character's square and the figures' are read once."""
    get = game.world.get
    act = get(ent, ActivationState)
    seen = None
    reach = None
    out: list[Option] = []
    mp = act.mp
    if mp > 0 and not locked(game, ent):
        moves, _found = _move_options(game, ent, costs, mp)
        out += moves
        facing = get(ent, Facing).direction
        turn = costs.turn
        out += [["face", d] for d in range(8) if d != facing and turn * _TURN_UNITS[(d - facing) % 8] <= mp]
        me = get(ent, Position)
        mx, my = me.x, me.y
        occ = occupancy(game)
        for _d, (door, p) in game.world.query(DoorState, Position):
            dx, dy = p.x - mx, p.y - my
            if not ((dx or dy) and -1 <= dx <= 1 and -1 <= dy <= 1):  # not adjacent
                continue
            if not door.open and costs.open_door <= mp:
                out.append(["open", p.x, p.y])
            elif door.open and (p.x, p.y) not in occ and costs.close_door <= mp:
                out.append(["close", p.x, p.y])
        if costs.pass_gear <= mp:
            gear = get(ent, Arsenal).gear
            if gear:
                items = sorted(set(gear))
                for other, p in side_positions(game, SURVIVORS):
                    dx, dy = p.x - mx, p.y - my
                    if other != ent and (dx or dy) and -1 <= dx <= 1 and -1 <= dy <= 1:
                        out += [["pass", item, other] for item in items]
    if not act.attacked:
        attacks, seen, reach = attack_options_reach(game, ent)
        out += attacks
    out.append(["end"])
    return out, seen, reach


# Turning by (new - old) % 8 eighths costs this many times the table's `turn` (per 90 degrees or part).
_TURN_UNITS = tuple((turn_steps(0, d) + 1) // 2 for d in range(8))


def estimates(game: Game, ent: int, options: list[Option],
              visible: list[tuple[int, int, Sight]] | None = None,
              h2h: dict[str, list[tuple[int, int, Sight]]] | None = None) -> dict[int, int]:
    """For the heuristic: the final hit # against the nearest target of each attack option
    (`visible`: `visible_zombies` now, if known; `h2h`: each weapon's `h2h_targets` now, if known)."""
    out: dict[int, int] = {}
    attacks = [i for i, opt in enumerate(options) if opt[0] == "attack"]
    if not attacks:
        return out
    if visible is None:
        visible = visible_zombies(game, ent)
    modifier = attack_modifier(game, ent)
    m = mods(game)
    per_figure, per_rubble = m.intervening_figure, m.obstructive
    for i in attacks:
        opt = options[i]
        if opt[1] == "grenade":
            continue
        w = weapon(game, opt[2])
        if opt[1] == "h2h":
            known = None if h2h is None else h2h.get(opt[2])
            targets = h2h_targets(game, ent, w, visible) if known is None else known
        else:
            targets = visible
        if targets:
            rng, _z, s = targets[0]
            base = w.hit if opt[1] == "h2h" else hit_number(w, rng)
            out[i] = base + modifier + (per_figure * len(s.intervening) + per_rubble * s.obstructive)
    return out


def try_unlock(game: Game, ent: int) -> Generator[Decision, object, None]:
    """Locked: a free roll of the H2H hit # or more on 1d12 (regular modifiers) removes the lock."""
    eng = game.world.get(ent, Engaged)
    if not eng.opponents:
        return
    answer = yield from game.decide(PLAYER, "stalingrad.unlock", ["try", "skip"], character=ent)
    if answer != "try":
        return
    zombie = eng.opponents[0]
    arms = game.world.get(ent, Arsenal)
    h2h_weapons = [weapon(game, n) for n in arms.weapons if not weapon(game, n).grenade]
    base = min((w.hit for w in h2h_weapons), default=12)
    me = pos(game, ent)
    s = line(game, me, pos(game, zombie))
    need = base + attack_modifier(game, ent) + lof_modifier(game, s)
    roll = game.roll("1d12", "unlock")
    game.log("unlock_attempt", character=ent, zombie=zombie, need=need, roll=roll)
    if roll >= need:
        eng.opponents.remove(zombie)
        game.log("unlocked", character=ent, zombie=zombie, why="broke free")


def search(game: Game, ent: int, choices: list[Square]) -> Generator[Decision, object, None]:
    """Searching: the scenario's search table, rolled for one square next to or under the character."""
    choice = yield from game.decide(PLAYER, "stalingrad.search_square", [list(c) for c in choices], character=ent)
    sq = (choice[0], choice[1])
    for _e, (spot, p) in game.world.query(SearchSpot, Position):
        if (p.x, p.y) == sq:
            spot.searched = True
    table = game.tables["stalingrad.search"]
    roll = game.roll(table.die, "search")
    result, amount, item = table.result(roll)
    arms = game.world.get(ent, Arsenal)
    if result == "ammo":
        firearms = [n for n in arms.weapons if weapon(game, n).fire]
        if firearms:
            arms.ammo[firearms[0]] = arms.ammo.get(firearms[0], 0) + amount
    elif result == "grenade":
        grenades = [n for n, w in sorted(game.tables["stalingrad.weapons"].items()) if w.grenade]
        if grenades:
            if grenades[0] not in arms.weapons:
                arms.weapons.append(grenades[0])
            arms.ammo[grenades[0]] = arms.ammo.get(grenades[0], 0) + amount
    elif result == "bandage":
        w = game.world.get(ent, Wounds)
        w.taken = max(0, w.taken - amount)
    elif result == "gear" and item:
        arms.gear.append(item)
        arms.gear.sort()
    if list(arms.ammo) != sorted(arms.ammo):  # a canonical state: ammo listed by weapon name
        arms.ammo = {k: arms.ammo[k] for k in sorted(arms.ammo)}
    game.log("searched", character=ent, square=list(sq), roll=roll, result=result, amount=amount, item=item)


MOVE_READS = ("ActivationState", "Position", "Faction", "Markers", "DoorState", "Facing", "Kind", "Wounds",
              "Engaged", "Arsenal", "StalingradRound", "Tally")


@system("stalingrad.move", reads=MOVE_READS, writes=("ActivationState", "Position", "Facing", "Tally"),
        calls={"zone_of_control": ("character", "square")})
def move(game: Game, character: int, destination: list[int]) -> Generator[Decision, object, None]:
    """The "move" movement action (step `move`): the character goes to `destination` along the
    cheapest path its movement points allow, faces its last step and pays the path's cost; then the
    `zone_of_control` step is run for the square it stopped on; a character on an exit square leaves
    the board (escapes).

    Parameters, plain data, so that another game's activation can move a figure this way and another
    game can supply its own `move` step taking the same:
    - `character`: the moving figure's entity id (its `ActivationState` holds the declared mode and
      the movement points left; costs come from the `stalingrad.movement` table for that mode);
    - `destination`: `[x, y]`, a square the character can reach now (one of the `move` options).
    Square map only (the path is a Dijkstra search over the map's legal steps)."""
    act = game.world.get(character, ActivationState)
    costs = game.tables["stalingrad.movement"][act.mode]
    dest = (destination[0], destination[1])
    g = gmap(game)
    start = pos(game, character)
    found, _ordered = _reached(game, character, costs, act.mp)
    got = found.get(dest[1] * g.width + dest[0]) if g.inside(dest) else None
    if got is None or dest in occupancy(game):
        raise GameError(f"character {character} cannot move to {list(dest)} with {act.mp} MPs left")
    path = _path(g, start, dest, found)
    cost, last_dir = got
    move_figure(game, character, dest)
    game.world.get(character, Facing).direction = last_dir
    act.mp -= cost
    game.log("moved", character=character, path=[list(s) for s in path], cost=cost, mp=act.mp)
    yield from game.run_step("zone_of_control", {"character": character, "square": list(dest)})
    if dest in gmap(game).squares("exit"):
        escape(game, character)


@system("stalingrad.zone_of_control", reads=("ActivationState", "Position", "Faction", "Markers", "DoorState"),
        writes=("ActivationState",))
def zone_of_control(game: Game, character: int, square: list[int]) -> None:
    """Zone of control (step `zone_of_control`): "a character loses all remaining MPs when they move
    into a zombie's zone of control (unless zombie is stunned)"; the zone is the eight squares one
    legal step from the zombie.

    Parameters, plain data: `character`, the entity id of the figure that moved (its
    `ActivationState.mp` goes to 0); `square`, `[x, y]`, the square it moved into. Another game can
    supply its own `zone_of_control` step taking the same. (Where a move may stop is the `move`
    step's: its path never leaves a square of a zone of control.)"""
    sq = (square[0], square[1])
    if _in_zoc(game, sq, closed_doors(game)):
        game.world.get(character, ActivationState).mp = 0
        game.log("zone_of_control", character=character, square=list(sq))


def activate(game: Game, ent: int) -> Generator[Decision, object, None]:
    """One character's activation, from declaration to covering."""
    act = game.world.get(ent, ActivationState)
    act.activated = True
    table = game.tables["stalingrad.movement"]
    modes = ["running", "walking", "stationary"]
    choices = [] if locked(game, ent) else search_choices(game, ent)
    if choices:
        modes.append("searching")
    mode = yield from game.decide(PLAYER, "stalingrad.mode", modes, character=ent)
    costs = table[mode]
    act.mode = mode
    act.mp = costs.mp
    game.log("activated", character=ent, mode=mode)
    if mode == "searching":
        act.mp = 0
        yield from search(game, ent, choices)
        return
    yield from try_unlock(game, ent)
    while game.world.exists(ent):
        options, seen, reach = _actions_seen(game, ent, costs)
        choice = yield from game.decide(PLAYER, "stalingrad.action", options, character=ent, mp=act.mp,
                                        estimates=estimates(game, ent, options, seen, reach))
        kind = choice[0]
        if kind == "end":
            break
        if kind == "move":
            yield from game.run_step("move", {"character": ent, "destination": [choice[1], choice[2]]})
            if not game.world.exists(ent):  # escaped
                return
        elif kind == "face":
            act.mp -= turn_cost(costs, game.world.get(ent, Facing).direction, choice[1])
            game.world.get(ent, Facing).direction = choice[1]
            game.log("turned", character=ent, facing=choice[1], mp=act.mp)
        elif kind in ("open", "close"):
            act.mp -= costs.open_door if kind == "open" else costs.close_door
            set_door(game, (choice[1], choice[2]), kind == "open")
            game.log("door", character=ent, square=[choice[1], choice[2]], open=kind == "open", mp=act.mp)
        elif kind == "pass":
            act.mp -= costs.pass_gear
            game.world.get(ent, Arsenal).gear.remove(choice[1])
            other = game.world.get(choice[2], Arsenal).gear
            other.append(choice[1])
            other.sort()
            game.log("gear_passed", character=ent, to=choice[2], item=choice[1])
        elif kind == "attack":
            act.attacked = True
            yield from game.run_step("attack", {"character": ent, "mode": choice[1], "weapon": choice[2]})
    if game.world.exists(ent) and not act.attacked:
        act.covering = mods(game).covering.get(act.mode, 0)
        game.log("covering", character=ent, token=act.covering)


@system("stalingrad.activations",
        reads=("ActivationState", "Position", "Faction", "Facing", "Arsenal", "Engaged", "Markers", "DoorState",
               "SearchSpot", "Wounds", "Kind", "AwaitingSpawn", "StalingradRound"),
        writes=("ActivationState", "Position", "Facing", "Arsenal", "Engaged", "Markers", "DoorState", "SearchSpot",
                "Wounds", "Tally"),
        creates=("Position", "Facing", "AwaitingSpawn"), removes=("AwaitingSpawn",),
        calls={"move": ("character", "destination"), **ATTACK_CALL},
        decides=("stalingrad.action", "stalingrad.activate", "stalingrad.grenade_square", "stalingrad.mode",
                 "stalingrad.search_square", "stalingrad.spread_target", "stalingrad.target",
                 "stalingrad.unlock", "stalingrad.cover", "stalingrad.cover_attack"))
def activations(game: Game) -> Generator[Decision, object, None]:
    """Action phase of the player turn: the player activates characters one at a time, in any order."""
    while not game.over:
        waiting = [e for e in characters(game) if not game.world.get(e, ActivationState).activated]
        if not waiting:
            return
        ent = yield from game.decide(PLAYER, "stalingrad.activate", waiting)
        yield from activate(game, ent)
        yield from settle_pending(game)
        reveal(game)
        if not characters(game):
            return


