"""A character's turn (SZA "Game Turn"): move, attack (melee or ranged), reload, use a class
ability, stay put, or another action (salvage, trade, open, break, heal).

The character's player picks one action from the legal ones (decision `sza.action`, options as
strings such as `engage:12:run`, `shoot:12`, `goto:safe`, `salvage:140`, `ability:inspire:5`):
- engaged (locked in melee, "cannot move out of combat"): attack up to Morale engaged zombies
  stationary, use an ability or an item, or wait;
- otherwise: engage a zombie within walking or running reach (moving onto its square), approach
  one, shoot (SAR-21), reload, go towards a feature, act on an adjacent feature, trade (any item:
  `give:<item>:<ally>`), heal, wait.
DESIGN CHOICE: "other actions take the place of movement": salvaging, opening, trading, healing
and using an ability each take the character's whole turn (the Paramedic and Costa's texts say so).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ecs_zombie.components import Engaged, Markers, Position, Wounds
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.systems.sza.board import UNSEEN, Board
from ecs_zombie.systems.sza.combat import engagement, range_modifier, shoot
from ecs_zombie.systems.sza.components import Arms, Character, Infection, Inventory, Stage, Vehicle
from ecs_zombie.systems.sza.dice import percentile
from ecs_zombie.systems.sza.moves import Reach, allowance, can_run, step_towards
from ecs_zombie.systems.sza.state import (
    cell_of,
    characters,
    check,
    cure,
    harm,
    has_ability,
    heal,
    morale,
    morale_targets,
    opponents,
    rules,
    side_of,
    smarts,
    tally,
    zombie_ids,
)

GOALS = ("stairs", "counter", "cabinet", "op_cabinet", "locked_cabinet", "fuse", "ceiling", "locked_door", "safe",
         "vehicle", "safehouse", "bush")
STAY = ("safehouse", "bush", "vehicle")  # once there, there is nowhere further to go
SALVAGE = ("cabinet", "counter", "op_cabinet", "ceiling", "locked_cabinet")


def vehicle_of(game: Game) -> tuple[int, Vehicle] | None:
    for ent, v in game.world.query1(Vehicle):
        return ent, v
    return None


def _open_goal(kind: str, cell: int, stage: Stage) -> bool:
    if kind in SALVAGE or kind == "safe":
        return cell not in stage.looted
    if kind == "locked_door":
        return cell not in stage.opened
    if kind == "fuse":
        return "lights" not in stage.flags
    return True


def memo_for(board: Board, stage: Stage) -> dict[Any, Any]:
    """What `nearest_feature` and `goals` found on this board under the stage's opened squares,
    looted features and lights: pure functions of the board and those, kept per board (a cache, never
    state), one dictionary per such state so that a look-up needs no key of the whole state."""
    opened, looted, lights = stage.opened, stage.looted, "lights" in stage.flags
    last = board.last_found  # the state asked last, most often asked again: compared, not hashed
    if last is not None and last[2] == lights and last[0] == opened and last[1] == looted:
        found: dict[Any, Any] = last[3]
        return found
    key = (tuple(opened), tuple(looted), lights)
    memo = board.memo
    got: dict[Any, Any] | None = memo.get(key)
    if got is None:
        if len(memo) > 1_000:  # bounded so that long batches do not grow it forever
            memo.clear()
        got = memo[key] = {}
    board.last_found = (list(opened), list(looted), lights, got)  # one assignment: games in threads see it whole
    return got


def nearest_feature(board: Board, stage: Stage, cell: int, kind: str) -> int | None:
    """The nearest square of a feature kind still worth going to (by path, then square number);
    a gate (a locked door, a window, the vehicle) counts from the squares around it."""
    found = memo_for(board, stage)
    key = (cell, kind)
    if key in found:
        got: int | None = found[key]
        return got
    dist = board.graph(stage.opened).from_(cell)
    best: tuple[int, int] | None = None
    for c in board.features.get(kind, ()):
        if c == cell or not _open_goal(kind, c, stage):
            continue
        d = dist.get(c)
        if d is None:
            d = min((dist[n] + 1 for n in board.around(c) if n in dist), default=None)
        if d is not None and (best is None or (d, c) < best):
            best = (d, c)
    found[key] = best[1] if best else None
    return found[key]


def goals(board: Board, stage: Stage, cell: int) -> tuple[str, ...]:
    """The `goto:` options from `cell`: each feature kind of `GOALS` on the board with a square
    still worth going to, except the shelter the character already stands in (`STAY`)."""
    found = memo_for(board, stage)
    key = (cell, "goto")
    got: tuple[str, ...] | None = found.get(key)
    if got is None:
        here = board.feature(cell)
        got = found[key] = tuple(f"goto:{kind}" for kind in GOALS
                                 if kind in board.features and not (kind == here and kind in STAY)
                                 and nearest_feature(board, stage, cell, kind) is not None)
    return got


def _around(board: Board, cell: int) -> list[int]:
    return list(board.around(cell))


def _interactions(game: Game, ent: int, board: Board, stage: Stage, cell: int, clear: bool) -> list[str]:
    """Actions on features on or next to the character's square (`clear`: no zombie on the board)."""
    out = []
    opened, looted = stage.opened, stage.looted
    for c, kind in board.near_features(cell):
        if kind in SALVAGE and c not in looted and (kind != "locked_cabinet" or c in opened):
            out.append(f"salvage:{c}")
        if kind in ("locked_door", "locked_cabinet") and c not in opened:
            out.append(f"unlock:{c}")
        if kind == "safe" and c not in looted:
            out.append(f"safe:{c}")
        if kind == "fuse" and "lights" not in stage.flags:
            out.append(f"fuse:{c}")
        if kind == "window" and c not in opened:
            out.append(f"window:{c}")
    veh = vehicle_of(game)
    if veh is not None:
        vent, v = veh
        vcell = cell_of(board, game.world.get(vent, Position))
        if clear and ent not in v.passengers and board.chebyshev(vcell, cell) <= 1:
            if not v.unlocked:
                out.append("break_in")
            elif len(v.passengers) < v.capacity:
                out.append("board")
        if v.passengers and v.passengers[0] == ent:
            out.append("drive")
        if ent in v.passengers:
            out.append("alight")
    return out


def options(game: Game, ent: int, board: Board, stage: Stage, allies: list[int] | None = None) -> list[str]:
    """Every legal action of the character this turn, in a fixed order."""
    world = game.world
    if allies is None:
        allies = characters(game)
    table = world.raw()
    mine = table[ent]
    pos = mine[Position]
    cell = pos.y * board.width + pos.x
    markers = mine[Markers]
    arms = mine[Arms]
    inv = mine[Inventory]
    health = mine[Wounds]
    infected = mine[Infection].infected
    opts: list[str] = []
    ops = mine[Engaged].opponents
    engaged = list(filter(table.__contains__, ops)) if ops else []  # `opponents`: those still in play
    aboard = "aboard" in markers.tags
    traded = "traded" in markers.tags
    zs = zombie_ids(game)
    if engaged:
        if not traded:
            opts.append("attack")
    elif not traded:
        if not aboard and zs:
            dist = board.graph(stage.opened).from_(cell)
            reach: Reach | None = None
            for z in zs:
                zc = cell_of(board, table[z][Position])
                if dist.get(zc, UNSEEN) >= UNSEEN:
                    continue
                # an engagement is offered when the move ends on the zombie's square: a door to a
                # building or another enemy on the way stops it; none by running onto grass
                if reach is None:
                    reach = Reach(game, ent, board, stage)
                walks, runs = reach.paces(zc)
                if walks:
                    opts.append(f"engage:{z}:walk")
                if runs:
                    opts.append(f"engage:{z}:run")
                elif not walks:
                    opts.append(f"approach:{z}")
        if arms.ranged and arms.rounds > 0:
            for z in zs:
                n = board.sight(cell, cell_of(board, table[z][Position]), stage.opened)
                if n is not None and range_modifier(game, arms.ranged, n) is not None:
                    opts.append(f"shoot:{z}")
        if not aboard:
            opts.extend(goals(board, stage, cell))
        opts.extend(_interactions(game, ent, board, stage, cell, not zs))
    if arms.ranged and arms.magazines > 0 and not engaged \
            and arms.rounds < int(rules(game).ranged[arms.ranged]["magazine"]):
        opts.append("reload")
    if not infected:
        opts.extend(_abilities(game, ent, board, stage, cell, bool(zs), allies, table))
        if 0 < health.left < health.limit:
            items = inv.items
            if items.get("bandage", 0) > 0:
                opts.append("bandage")
            if items.get("water", 0) > 0:
                opts.append("water")
    if inv.items and not engaged:  # Trading: any item (bandages, water, a key, a magazine, ...)
        beside = board.orthogonals(cell)
        w = board.width
        for ally in allies:
            if ally != ent:
                pos = table[ally][Position]
                if pos.y * w + pos.x in beside:
                    opts.extend(f"give:{item}:{ally}" for item in sorted(inv.items))
    opts.append("wait")
    return opts


# The abilities `_abilities` may offer as an action; every other one is passive.
ACTIONS = frozenset({"fire_suit", "morale_boost", "motivational_speech", "inspire", "tending_to_wounds",
                     "vial_of_antidote", "intravenous_injection"})


def _within(board: Board, table: dict[int, dict[type, Any]], cell: int, ent: int, rng: int) -> bool:
    """Whether the piece `ent` stands within `rng` squares of `cell`."""
    pos = table[ent][Position]
    return board.chebyshev(cell, pos.y * board.width + pos.x) <= rng


def _abilities(game: Game, ent: int, board: Board, stage: Stage, cell: int, combat: bool,
               allies: list[int], table: dict[int, dict[type, Any]] | None = None) -> list[str]:
    """The abilities the character may use as its action (`table`: the world's, when the caller has it)."""
    if table is None:
        table = game.world.raw()
    mine = table[ent]
    ch = mine[Character]
    if not ch.abilities:
        return []
    markers = mine[Markers]
    abil = rules(game).abilities
    out: list[str] = []

    for a in ch.abilities:
        if a not in ACTIONS:  # passive: applied where its rule is resolved, never an option
            continue
        spec = abil.get(a, {})
        once = spec.get("once")
        if once == "game" and a in ch.used:
            continue
        if once == "combat" and f"spent:{a}" in markers.tags:
            continue
        if a == "fire_suit":
            h = mine[Wounds]
            if h.left < h.limit:
                out.append("ability:fire_suit")
        elif a in ("morale_boost", "motivational_speech") and combat:
            out.append(f"ability:{a}")
        elif a == "inspire" and combat:
            rng = int(spec["range"])
            for t in allies:  # loops, not comprehensions: this function's names stay plain locals
                if _within(board, table, cell, t, rng):
                    out.append(f"ability:inspire:{t}")
        elif a == "tending_to_wounds":
            rng = int(spec["range"])
            for t in allies:
                if _within(board, table, cell, t, rng):
                    h = table[t][Wounds]
                    if 0 < h.left < h.limit and not table[t][Infection].infected:
                        out.append("ability:tending_to_wounds")
                        break
        elif a == "vial_of_antidote":
            rng = int(spec["range"])
            for t in allies:
                h = table[t][Wounds]
                if _within(board, table, cell, t, rng) and (table[t][Infection].infected or h.left < h.limit):
                    out.append(f"ability:vial_of_antidote:{t}")
        elif a == "intravenous_injection":
            rng = int(spec["range"])
            for t in allies:
                if _within(board, table, cell, t, rng) and table[t][Infection].infected \
                        and not table[t][Character].injected:
                    out.append(f"ability:intravenous_injection:{t}")
    return out


def k9(game: Game, ent: int, board: Board, stage: Stage) -> Generator[Decision, object, None]:
    """K9 Companion: on CPL Teoh's command the dog attacks a zombie next to him (DESIGN CHOICE:
    a free attack each turn, on a zombie on his square or adjacent); 1d6 of 5+ deals 3 damage."""
    if not has_ability(game, ent, "k9_companion"):
        return
    spec = rules(game).abilities["k9_companion"]
    cell = cell_of(board, game.world.get(ent, Position))
    near = [z for z in zombie_ids(game)
            if board.chebyshev(cell, cell_of(board, game.world.get(z, Position))) <= int(spec["range"])]
    if not near:
        return
    target = yield from game.decide(side_of(game, ent), "sza.k9_target", near, piece=ent)
    roll = game.roll(str(spec["die"]), "K9 companion")
    game.log("k9", handler=ent, target=target, roll=roll)
    if roll >= int(spec["target"]):
        harm(game, target, int(spec["damage"]), board, stage, "k9")


def act(game: Game, ent: int, board: Board, stage: Stage, aim: str,
        allies: list[int] | None = None) -> Generator[Decision, object, None]:
    """One character's activation (`allies`: the characters on the board, when the caller knows them)."""
    world = game.world
    tags = world.get(ent, Markers).tags
    if "speech" in tags:  # `Markers.discard`
        tags.remove("speech")
    if has_ability(game, ent, "k9_companion"):
        yield from k9(game, ent, board, stage)
        if not world.exists(ent):
            return
        tags = world.get(ent, Markers).tags
    if "offboard" in tags:
        return
    opts = options(game, ent, board, stage, allies)
    choice = yield from game.decide(side_of(game, ent), "sza.action", opts, piece=ent, aim=aim)
    if choice.partition(":")[0] in FIGHTS:
        yield from _fight(game, ent, choice, board, stage)
    else:
        _settle(game, ent, choice, board, stage)


FIGHTS = ("attack", "engage")  # the actions that may ask a choice or run a strike as they are carried out


def perform(game: Game, ent: int, choice: str, board: Board, stage: Stage) -> Generator[Decision, object, None]:
    """Carry out the character's chosen action (an option of `options`)."""
    if choice.partition(":")[0] in FIGHTS:
        yield from _fight(game, ent, choice, board, stage)
    else:
        _settle(game, ent, choice, board, stage)


def _fight(game: Game, ent: int, choice: str, board: Board, stage: Stage) -> Generator[Decision, object, None]:
    """`perform` for an attack or an engagement: Morale's choice of targets, strikes."""
    world = game.world
    parts = choice.split(":")
    verb = parts[0]
    game.log("action", piece=ent, action=choice)
    if verb == "attack":
        targets = opponents(game, ent)
        if len(targets) <= morale(game, ent):  # every one of them: Morale leaves nothing to choose
            chosen = targets
        else:
            chosen = yield from morale_targets(game, ent, targets, "sza.melee_target", piece=ent)
        for t in chosen:
            if world.exists(ent) and world.exists(t):
                yield from game.run_step("melee_strike", {"attacker": ent, "target": t, "pace": "still",
                                                          "why": "melee"})  # `run_strike`
    elif verb == "engage":
        z, pace = int(parts[1]), parts[2]
        zc = cell_of(board, world.get(z, Position))
        walk, run = allowance(game, ent, board)
        reached = step_towards(game, ent, zc, walk if pace == "walk" else run, board, stage, pace == "run")
        if reached == zc:
            yield from engagement(game, ent, z, pace, board, stage)


def _settle(game: Game, ent: int, choice: str, board: Board, stage: Stage) -> None:
    """`perform` for every other action: none asks a choice as it is carried out."""
    world = game.world
    parts = choice.split(":")
    verb = parts[0]
    cell = cell_of(board, world.get(ent, Position))
    r = rules(game)
    game.log("action", piece=ent, action=choice)
    if verb == "approach":
        z = int(parts[1])
        runs = can_run(game, ent, board)
        run = allowance(game, ent, board)[1 if runs else 0]
        step_towards(game, ent, cell_of(board, world.get(z, Position)), run, board, stage, runs)
    elif verb == "shoot":
        shoot(game, ent, int(parts[1]), board, stage)
    elif verb == "reload":
        arms = world.get(ent, Arms)
        arms.magazines -= 1
        arms.rounds = int(r.ranged[arms.ranged]["magazine"])
        game.log("reload", piece=ent, magazines=arms.magazines)
    elif verb == "goto":
        target = nearest_feature(board, stage, cell, parts[1])
        if target is not None:
            graph = board.graph(stage.opened)
            if graph.from_(cell).get(target, UNSEEN) >= UNSEEN:  # a gate: stop next to it
                around = [n for n in _around(board, target) if graph.from_(cell).get(n, UNSEEN) < UNSEEN]
                target = min(around, key=lambda n: (graph.from_(cell)[n], n)) if around else target
            runs = can_run(game, ent, board)
            run = allowance(game, ent, board)[1 if runs else 0]
            if game.params["free_exploration"] and not zombie_ids(game):
                # "Non-Combat Time": free to explore the map without any movement constraints
                step_towards(game, ent, target, board.width * board.height, board, stage, False, doors=False)
            else:
                step_towards(game, ent, target, run, board, stage, runs)
    elif verb == "salvage":
        salvage(game, ent, int(parts[1]), board, stage)
    elif verb == "unlock":
        unlock(game, ent, int(parts[1]), board, stage)
    elif verb == "safe":
        c = int(parts[1])
        if check(game, ent, "safe", board, stage):
            loot(game, ent, c, board, stage)
    elif verb == "fuse":
        if check(game, ent, "fuse", board, stage):
            stage.flags.append("lights")
            stage.flags.sort()
            game.log("lights_on", piece=ent)
    elif verb == "window":
        c = int(parts[1])
        if check(game, ent, "window", board, stage):
            _open(stage, c)
            game.log("window_broken", piece=ent, cell=c)
    elif verb in ("break_in", "board", "drive", "alight"):
        vehicle_action(game, ent, verb, board, stage)
    elif verb == "give":
        give(game, ent, int(parts[2]), parts[1])
    elif verb == "bandage":
        if world.get(ent, Inventory).take("bandage"):
            heal(game, ent, int(r.numbers["bandage"]))
    elif verb == "water":
        if world.get(ent, Inventory).take("water"):
            heal(game, ent, int(r.numbers["water"]))
    elif verb == "ability":
        use_ability(game, ent, parts[1], int(parts[2]) if len(parts) > 2 else ent, board, stage)


def give(game: Game, ent: int, ally: int, item: str) -> None:
    """Trading: one item to an orthogonally adjacent character; neither may move or attack until
    the next round. A bottle of mineral water changes hands with the uses left in it (up to
    `water_uses`); a magazine goes into a Soldier's SAR-21 spares, so that it can be reloaded."""
    world = game.world
    inv = world.get(ent, Inventory)
    n = min(inv.items.get(item, 0), int(rules(game).numbers["water_uses"])) if item == "water" else 1
    if n <= 0 or not inv.take(item, n):
        return
    arms = world.get(ally, Arms)
    if item == "magazine" and arms.ranged:
        arms.magazines += n
    else:
        world.get(ally, Inventory).add(item, n)
    world.get(ent, Markers).add("traded")
    world.get(ally, Markers).add("traded")
    game.log("trade", giver=ent, taker=ally, item=item, n=n)


def _open(stage: Stage, cell: int) -> None:
    if cell not in stage.opened:
        stage.opened.append(cell)
        stage.opened.sort()


def _flag(stage: Stage, flag: str) -> None:
    if flag not in stage.flags:
        stage.flags.append(flag)
        stage.flags.sort()


def unlock(game: Game, ent: int, cell: int, board: Board, stage: Stage) -> None:
    """Locked doors and cabinets: Lock-Picking opens them; the panic room key opens a locked door;
    otherwise a Strength check forces them (DESIGN CHOICE: `force_door` and `lock` checks)."""
    kind = board.feature(cell)
    how = ""
    if has_ability(game, ent, "lock_picking"):
        how = "lock-picking"
    elif kind == "locked_door" and any(game.world.get(c, Inventory).items.get("key", 0) for c in characters(game)
                                       if board.chebyshev(cell, cell_of(board, game.world.get(c, Position))) <= 1):
        how = "key"
    elif check(game, ent, "force_door" if kind == "locked_door" else "lock", board, stage):
        how = "force"
    if how:
        _open(stage, cell)
        _flag(stage, f"opened_{kind}")
        game.log("unlocked", piece=ent, cell=cell, how=how)


def salvage(game: Game, ent: int, cell: int, board: Board, stage: Stage) -> None:
    """Salvaging: a d100 at or under total Smarts (+ `salvage_bonus`) finds the feature's loot
    (DESIGN CHOICE); a failed search may be tried again."""
    target = smarts(game, ent, board, stage) + int(rules(game).numbers["salvage_bonus"])
    roll = percentile(game, "salvage")
    ok = roll <= target
    game.log("salvage", piece=ent, cell=cell, roll=roll, target=target, success=ok)
    if ok:
        loot(game, ent, cell, board, stage)


def loot(game: Game, ent: int, cell: int, board: Board, stage: Stage) -> None:
    kind = board.feature(cell)
    found = rules(game).loot.get(kind, {})
    inv = game.world.get(ent, Inventory)
    arms = game.world.get(ent, Arms)
    for item, n in sorted(found.items()):
        if item == "magazine" and arms.ranged:
            arms.magazines += n
        else:
            inv.add(item, n)
    if cell not in stage.looted:
        stage.looted.append(cell)
        stage.looted.sort()
    _flag(stage, f"looted_{kind}")
    tally(game).bump("salvaged")
    game.log("looted", piece=ent, cell=cell, items=found)


def vehicle_action(game: Game, ent: int, verb: str, board: Board, stage: Stage) -> None:
    """Vehicles: break in by a check (DESIGN CHOICE: 1d10 + the better of the Smarts and Strength
    bonuses >= 6), board up to capacity, drive 15 squares on road, 13 when the way crosses grass,
    get out (DESIGN CHOICE: getting in or out takes the turn; a passenger gets out on the vehicle's
    square, and the first aboard drives, whether or not zombies have come back since: "All zombies
    have to be eliminated before the vehicle may be approached" bars approaching it, not leaving)."""
    veh = vehicle_of(game)
    if veh is None:
        return
    vent, v = veh
    world = game.world
    vpos = world.get(vent, Position)
    if verb == "break_in":
        if check(game, ent, "vehicle", board, stage):
            v.unlocked = True
            game.log("vehicle_open", piece=ent)
    elif verb == "board":
        v.passengers.append(ent)
        pos = world.get(ent, Position)
        pos.x, pos.y = vpos.x, vpos.y
        world.get(ent, Markers).add("aboard")
        game.log("boarded", piece=ent)
    elif verb == "alight":
        v.passengers.remove(ent)
        world.get(ent, Markers).discard("aboard")
        game.log("alighted", piece=ent)
    elif verb == "drive":
        start = cell_of(board, vpos)
        goal = nearest_feature(board, stage, start, "safehouse")
        if goal is None:
            return
        graph = board.graph(stage.opened)
        dist = graph.from_(goal)
        speed = rules(game).numbers["vehicle_speed"]
        cur, steps, limit = start, 0, int(speed["road"])
        while cur != goal and steps < limit:
            nxt = min((n for n in graph.neighbours.get(cur, ()) if dist.get(n, UNSEEN) < dist.get(cur, UNSEEN)),
                      key=lambda n: (board.feature(n) == "grass", n), default=None)
            if nxt is None:
                break
            if board.feature(nxt) == "grass":
                limit = min(limit, int(speed["grass"]))
                if steps >= limit:
                    break
            cur = nxt
            steps += 1
        vpos.x, vpos.y = board.xy(cur)
        for p in v.passengers:
            if world.exists(p):
                ppos = world.get(p, Position)
                ppos.x, ppos.y = vpos.x, vpos.y
        game.log("drove", driver=ent, to=[vpos.x, vpos.y], squares=steps)


def use_ability(game: Game, ent: int, ability: str, target: int, board: Board, stage: Stage) -> None:
    """The class and signature abilities that take an action (SZA class ability table, pre-generated
    characters). Passive ones (Fire Helmet, CQC, Sharp Shooter, Lock-Picking, Quick-Step, Bright
    Yellow Fire Suit, One Shot One Kill, Combat Awareness) apply where their rule is resolved."""
    world = game.world
    ch = world.get(ent, Character)
    spec = rules(game).abilities[ability]
    markers = world.get(ent, Markers)
    if spec.get("once") == "game":
        ch.used.append(ability)
        ch.used.sort()
    elif spec.get("once") == "combat":
        markers.add(f"spent:{ability}")
    tally(game).bump("abilities_used")
    game.log("ability", piece=ent, ability=ability, target=target)
    cell = cell_of(board, world.get(ent, Position))
    if ability == "fire_suit":
        heal(game, ent, int(spec["heal"]))
    elif ability == "morale_boost":
        for c in characters(game):
            world.get(c, Markers).add("boosted")
    elif ability == "inspire":
        world.get(target, Markers).add("inspired")
    elif ability == "tending_to_wounds":
        rng = int(spec["range"])
        for c in characters(game):
            near = board.chebyshev(cell, cell_of(board, world.get(c, Position))) <= rng
            if near and not world.get(c, Infection).infected:
                heal(game, c, int(spec["heal"]))
    elif ability == "vial_of_antidote":
        if world.get(target, Infection).infected:
            cure(game, target, "vial of antidote")
        else:
            h = world.get(target, Wounds)
            h.left = h.limit
    elif ability == "intravenous_injection":
        if world.get(target, Infection).infected and not world.get(target, Character).injected:
            world.get(target, Character).injected = True
            cure(game, target, "intravenous injection")
    elif ability == "motivational_speech":
        markers.add("speech")
