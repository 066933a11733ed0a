"""The `heuristic` policy's answers for Singapore Zombie Apocalypse: sensible play, not perfect play.

Characters cure the infected, heal when badly hurt, shoot what they see, fight what they can reach,
and otherwise head for the current event's aim (`aim` in the event graph) and act on it. The game
master spawns zombies near the party, gives every zombie a different victim where it can (else the
nearest, the book's "Play Criteria"), and finishes off the weakest.
"""

from __future__ import annotations

from ecs_zombie.components import Health, Position
from ecs_zombie.decisions import Decision, heuristic
from ecs_zombie.game import Game
from ecs_zombie.systems.sza.actions import vehicle_of
from ecs_zombie.systems.sza.board import UNSEEN
from ecs_zombie.systems.sza.components import Arms, Character, Stage
from ecs_zombie.systems.sza.moves import allowance
from ecs_zombie.systems.sza.state import board_of, cell_of, characters, opponents, stage_of, zombies
from ecs_zombie.systems.sza.zombies import victims_of_others


def _pick(d: Decision, *wanted: str) -> int | None:
    """The first option equal to one of `wanted` (or starting with it, for a `verb:` prefix)."""
    for w in wanted:
        if w.endswith(":"):
            for i, o in enumerate(d.options):
                if o.startswith(w):
                    return i
        elif w in d.options:
            return d.options.index(w)
    return None


@heuristic("sza.action")
def action(game: Game, d: Decision) -> int:
    me = int(d.context["piece"])
    aim = str(d.context.get("aim", ""))
    world = game.world
    _e, stage = stage_of(game)
    board = board_of(game, stage)
    opts: list[str] = d.options
    h = world.get(me, Health)
    for prefix in ("ability:intravenous_injection:", "ability:vial_of_antidote:"):
        for i, o in enumerate(opts):
            if o.startswith(prefix):
                t = int(o.split(":")[2])
                th = world.get(t, Health)
                if th.current <= 0 or (prefix.startswith("ability:vial") and th.current * 3 < th.maximum):
                    return i
    low = h.current * 2 < h.maximum
    if low:
        got = _pick(d, "ability:fire_suit", "water", "bandage")
        if got is not None:
            return got
    if "attack" in opts:
        got = _pick(d, "ability:motivational_speech") if len(opponents(game, me)) > 1 else None
        return got if got is not None else opts.index("attack")
    got = _pick(d, "ability:tending_to_wounds")
    if got is not None and not any(o.startswith("engage:") for o in opts):
        return got
    cell = cell_of(board, world.get(me, Position))
    dist = board.graph(stage.opened).from_(cell)
    shots = [o for o in opts if o.startswith("shoot:")]
    if shots:
        return opts.index(min(shots, key=lambda o: (world.get(int(o.split(":")[1]), Health).current, o)))
    if "reload" in opts and world.get(me, Arms).rounds == 0:
        return opts.index("reload")
    engages = [o for o in opts if o.startswith("engage:")]
    if engages:
        walk = allowance(game, me, board)[0]
        dexter = "one_shot_one_kill" in world.get(me, Character).abilities

        def key(o: str) -> tuple[int, int, str]:
            z = int(o.split(":")[1])
            dz = dist.get(cell_of(board, world.get(z, Position)), UNSEEN)
            want_run = dexter or dz > walk
            return (dz, 0 if (o.endswith(":run") == want_run) else 1, o)

        return opts.index(min(engages, key=key))
    for verb in ("safe:", "unlock:", "fuse:", "salvage:", "drive", "board", "break_in"):
        got = _pick(d, verb)
        if got is not None and _useful(game, stage, opts[got], aim):
            return got
    if aim == "hunt" or (aim in ("", "bush") and zombies(game)):
        approaches = [o for o in opts if o.startswith("approach:")]
        if approaches:
            return opts.index(min(approaches, key=lambda o: (
                dist.get(cell_of(board, world.get(int(o.split(":")[1]), Position)), UNSEEN), o)))
    if aim and f"goto:{aim}" in opts:
        return opts.index(f"goto:{aim}")
    got = _pick(d, "bandage") if h.current < h.maximum - 5 else None
    if got is not None:
        return got
    approaches = [o for o in opts if o.startswith("approach:")]
    if approaches:
        return opts.index(approaches[0])
    return opts.index("wait")


def _useful(game: Game, stage: Stage, option: str, aim: str) -> bool:
    """Act on a feature when it is the aim, or when it is free loot (never dither at a window)."""
    if option == "drive":  # once everyone who fits is aboard
        veh = vehicle_of(game)
        return veh is not None and len(veh[1].passengers) >= min(veh[1].capacity, len(characters(game)))
    if option in ("board", "break_in"):
        return aim == "vehicle"
    if option.startswith("fuse:"):
        return aim == "fuse"
    if option.startswith("unlock:"):
        board = board_of(game, stage)
        return aim == "locked_door" or board.feature(int(option.split(":")[1])) == "locked_cabinet"
    return True


@heuristic("sza.zombie_target")
def zombie_target(game: Game, d: Decision) -> int:
    """A different character for each zombie where possible, otherwise the nearest ("Play Criteria").

    First the characters no other zombie has gone for this turn, then those fewest other zombies
    hold in melee, then the nearest (then the weakest)."""
    z = int(d.context["zombie"])
    world = game.world
    _e, stage = stage_of(game)
    board = board_of(game, stage)
    zc = cell_of(board, world.get(z, Position))
    reach = board.graph(stage.opened).from_(zc)
    chosen = victims_of_others(game, z)  # whom the other zombies went for this turn
    held: dict[int, int] = {}
    for other in zombies(game):
        if other != z:
            for c in opponents(game, other):
                held[c] = held.get(c, 0) + 1
    return min(range(len(d.options)), key=lambda i: (
        chosen.get(d.options[i], 0), held.get(d.options[i], 0),
        reach.get(cell_of(board, world.get(d.options[i], Position)), UNSEEN),
        world.get(d.options[i], Health).current, d.options[i]))


@heuristic("sza.melee_target")
def melee_target(game: Game, d: Decision) -> int:
    """Finish off the weakest."""
    return min(range(len(d.options)), key=lambda i: (game.world.get(d.options[i], Health).current, d.options[i]))


heuristic("sza.k9_target")(melee_target)


@heuristic("sza.spawn_point")
def spawn_point(game: Game, d: Decision) -> int:
    """Near the party, but not on top of it: the closest spawn square at least 3 squares away."""
    _e, stage = stage_of(game)
    board = board_of(game, stage)
    graph = board.graph(stage.opened)
    cells = [cell_of(board, game.world.get(c, Position)) for c in characters(game)]
    best, best_key = 0, (UNSEEN, UNSEEN)
    for i, s in enumerate(d.options):
        near = min((graph.from_(s).get(c, UNSEEN) for c in cells), default=UNSEEN)
        key = (near if near >= 3 else UNSEEN - 1, i)
        if key < best_key:
            best, best_key = i, key
    return best


@heuristic("sza.rest")
def rest(game: Game, d: Decision) -> int:
    h = game.world.get(int(d.context["piece"]), Health)
    missing = h.maximum - h.current
    if missing >= 10 and "water" in d.options:
        return d.options.index("water")
    if missing >= 5 and "bandage" in d.options:
        return d.options.index("bandage")
    return d.options.index("done")


@heuristic("sza.start_square")
def start_square(game: Game, d: Decision) -> int:
    return 0


@heuristic("sza.event_choice")
def event_choice(game: Game, d: Decision) -> int:
    """The party takes the choice the scenario lists first (its author's suggested course)."""
    return 0
