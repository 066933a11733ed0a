"""The `heuristic` policy's answers for Singapore Zombie Apocalypse: sensible play, not perfect play.

Characters cure the infected, heal when badly hurt, shoot what they see, fight what they can reach,
and otherwise head for the current event's aim (`aim` in the event graph) and act on it. Between
fights they hand healing and magazines to those who lack them and the nearest free character
salvages what is worth having (and fixes the lights); the Politician boosts morale when someone is
held by more zombies than it can fight and inspires an ally locked in melee. The party chooses each
event on its merits (docs/sza.md, "The default policy's choices"). The game master spawns zombies
near the party, gives every zombie a different victim where it can (else the nearest, the book's
"Play Criteria"), and finishes off the weakest.
"""

from __future__ import annotations

from ecs_zombie.components import Markers, Position, Wounds
from ecs_zombie.decisions import Decision, heuristic
from ecs_zombie.game import Game
from ecs_zombie.systems.sza.actions import memo_for, nearest_feature, vehicle_of
from ecs_zombie.systems.sza.board import UNSEEN, Board
from ecs_zombie.systems.sza.components import Arms, Character, Infection, Inventory, Stage
from ecs_zombie.systems.sza.moves import Reach, allowance
from ecs_zombie.systems.sza.state import (
    board_of,
    cell_of,
    characters,
    has_ability,
    morale,
    opponents,
    rules,
    scenario_def,
    stage_of,
    zombie_ids,
)
from ecs_zombie.systems.sza.zombies import victims_of_others


def _verbs(opts: list[str]) -> dict[str, list[int]]:
    """The indices of the options of each verb (`verb:...`), in order: each question the action
    heuristic asks of a kind of option is then a look-up instead of a scan of every option."""
    verbs: dict[str, list[int]] = {}
    get = verbs.get
    i = 0
    for o in opts:
        verb, colon, _rest = o.partition(":")
        if colon:
            found = get(verb)
            if found is None:
                verbs[verb] = [i]
            else:
                found.append(i)
        i += 1
    return verbs


@heuristic("sza.action")
def action(game: Game, d: Decision) -> int:
    me = int(d.context["piece"])
    aim = str(d.context.get("aim", ""))
    world = game.world
    opts: list[str] = d.options
    h = world.get(me, Wounds)
    abilities = [i for i, o in enumerate(opts) if o.startswith("ability:")]
    for prefix in ("ability:intravenous_injection:", "ability:vial_of_antidote:"):
        for i in abilities:
            o = opts[i]
            if o.startswith(prefix):
                t = int(o.split(":")[2])
                th = world.get(t, Wounds)
                if th.left <= 0 or (prefix.startswith("ability:vial") and th.left * 3 < th.limit):
                    return i
    low = h.left * 2 < h.limit
    if low:  # the list's own look-ups until the attack: few options, most often an attack
        for want in ("ability:fire_suit", "water", "bandage"):
            if want in opts:
                return opts.index(want)
    if "ability:morale_boost" in opts and _outnumbered(game):
        return opts.index("ability:morale_boost")
    if "attack" in opts:
        if len(opponents(game, me)) > 1 and "ability:motivational_speech" in opts:
            return opts.index("ability:motivational_speech")
        return opts.index("attack")
    first = {o: i for i, o in enumerate(opts)}  # each option's index (an action's options are distinct)
    _e, stage = stage_of(game)
    board = board_of(game, stage)
    verbs = _verbs(opts)
    none: list[int] = []
    engages = verbs.get("engage", none)
    got = first.get("ability:tending_to_wounds")
    if got is not None and not engages:
        return got
    inspire = _inspire(game, opts, abilities) if abilities else None
    if inspire is not None and (low or not engages):
        return inspire
    shots = verbs.get("shoot", none)
    if shots:
        return min(shots, key=lambda i: (world.get(int(opts[i].split(":")[1]), Wounds).left, opts[i]))
    if "reload" in first and world.get(me, Arms).rounds == 0:
        return first["reload"]
    if engages:
        dist = _distances(game, me, board, stage)
        walk = allowance(game, me, board)[0]
        dexter = "one_shot_one_kill" in world.get(me, Character).abilities

        def key(i: int) -> tuple[int, int, str]:
            o = opts[i]
            z = int(o.split(":")[1])
            dz = dist.get(cell_of(board, world.get(z, Position)), UNSEEN)
            want_run = dexter or dz > walk
            return (dz, 0 if (o.endswith(":run") == want_run) else 1, o)

        return min(engages, key=key)
    gives = verbs.get("give", none)
    gift = _gift(game, me, opts, gives) if gives else None
    if gift is not None:
        return gift
    for verb in ("safe", "unlock", "fuse", "salvage"):  # the first option `verb:...`, verb by verb
        found = verbs.get(verb)
        if found and _useful(game, stage, opts[found[0]], aim, me):
            return found[0]
    for verb in ("drive", "board", "break_in"):
        got = first.get(verb)
        if got is not None and _useful(game, stage, opts[got], aim, me):
            return got
    if aim == "vehicle" and "goto:safehouse" in first and _left_behind(game, me):
        return first["goto:safehouse"]
    detour = _detour(game, me, stage, board, aim)
    if detour is not None and detour in first:
        return first[detour]
    approaches = verbs.get("approach", none)
    if approaches and (aim == "hunt" or (aim in ("", "bush") and zombie_ids(game))):
        dist = _distances(game, me, board, stage)
        return min(approaches, key=lambda i: (
            dist.get(cell_of(board, world.get(int(opts[i].split(":")[1]), Position)), UNSEEN), opts[i]))
    if aim and f"goto:{aim}" in first:
        return first[f"goto:{aim}"]
    got = first.get("bandage") if h.left < h.limit - 5 else None
    if got is not None:
        return got
    if approaches:
        return approaches[0]
    return opts.index("wait")


def _distances(game: Game, me: int, board: Board, stage: Stage) -> dict[int, int]:
    """Squares from the character's square to every square it can reach (the board's cache)."""
    return board.graph(stage.opened).from_(cell_of(board, game.world.get(me, Position)))


def _useful(game: Game, stage: Stage, option: str, aim: str, me: int | None = None) -> bool:
    """Act on a feature when it is the aim, or when it is free loot (never dither at a window).
    The car is driven once everyone who fits is aboard (on foot, the driver takes those aboard
    along), and never once it stands at the safe house: a drive from there only moves it to the
    next safe-house square. The fuse box is fixed when it is the aim, or between fights."""
    if option == "drive":
        veh = vehicle_of(game)
        if veh is None:
            return False
        board = board_of(game, stage)
        if cell_of(board, game.world.get(veh[0], Position)) in board.features.get("safehouse", ()):
            return False
        return aim != "vehicle" or len(veh[1].passengers) >= min(veh[1].capacity, len(characters(game)))
    if option in ("board", "break_in"):
        return aim == "vehicle"
    if option.startswith("fuse:"):
        return aim == "fuse" or not zombie_ids(game)
    if option.startswith("unlock:"):
        board = board_of(game, stage)
        if board.feature(int(option.split(":")[1])) == "locked_cabinet":
            return True
        return aim == "locked_door" and (me is None or not _leave_it_to_the_picker(game, me))
    return True


def _leave_it_to_the_picker(game: Game, me: int) -> bool:
    """A character without Lock-Picking or the key does not force the panic room door (a Strength
    check a turn) while a Lock-Picker, free of melee, is in the party: the Lock-Picker opens it
    with no roll."""
    world = game.world
    if has_ability(game, me, "lock_picking") or any(
            world.get(c, Inventory).items.get("key", 0) for c in characters(game)):
        return False
    return any(has_ability(game, c, "lock_picking") and not opponents(game, c) for c in characters(game))


def _outnumbered(game: Game) -> bool:
    """Morale Boost is worth a turn when a character is locked in melee with more zombies than its
    Morale lets it attack (the boost's +1 Morale is one more attack each turn for the combat)."""
    return any(len(opponents(game, c)) > morale(game, c) for c in characters(game))


def _inspire(game: Game, opts: list[str], among: list[int]) -> int | None:
    """Inspire (+5 Strength, Accuracy and Smarts for the turn) on an ally within reach that is
    locked in melee, so that it fights better this turn: the one held by the most zombies, then the
    weakest. Not while the Politician can engage a zombie itself (its own attack is worth more),
    unless it is badly hurt (under half its Stamina): then it stays out of the melee."""
    world = game.world
    best: tuple[int, int, int] | None = None
    pick = None
    for i in among:  # the indices worth reading (those of the verb's options)
        o = opts[i]
        if o.startswith("ability:inspire:"):
            t = int(o.split(":")[2])
            held = len(opponents(game, t))
            if held and not world.get(t, Markers).has("inspired"):
                key = (-held, world.get(t, Wounds).left, t)
                if best is None or key < best:
                    best, pick = key, i
    return pick


def _healing(game: Game, ent: int) -> int:
    """Stamina the character's bandages and water would give back."""
    numbers = rules(game).numbers
    items = game.world.get(ent, Inventory).items
    return items.get("bandage", 0) * int(numbers["bandage"]) + items.get("water", 0) * int(numbers["water"])


def _gift(game: Game, me: int, opts: list[str], among: list[int]) -> int | None:
    """Trading, where it pays for the two turns it costs: healing to an ally 10 or more short that
    has none, from a giver whose remaining items still heal all it is missing (so that healing
    never goes back and forth between two hurt characters), a magazine to a SAR-21 carrier with no spare.
    Only between fights, or to an ally badly hurt and not locked in melee. The other items (the
    documents, the key, the oxygen canister, the rope) are worth nothing more in another's hands."""
    world = game.world
    mine = world.get(me, Wounds)
    for i in among:  # the indices worth reading (those of the verb's options)
        o = opts[i]
        if not o.startswith("give:"):
            continue
        _v, item, who = o.split(":")
        ally = int(who)
        if opponents(game, ally) or world.get(ally, Infection).infected:
            continue
        h = world.get(ally, Wounds)
        if zombie_ids(game) and h.left * 2 >= h.limit:
            continue
        if item in ("bandage", "water"):
            numbers = rules(game).numbers
            have = world.get(me, Inventory).items.get(item, 0)
            given = int(numbers[item]) * (min(have, int(numbers["water_uses"])) if item == "water" else 1)
            spare = _healing(game, me) - given >= mine.limit - mine.left  # what I keep still heals me
            if h.limit - h.left >= 10 and _healing(game, ally) == 0 and spare:
                return i
        elif item == "magazine":
            arms = world.get(ally, Arms)
            if arms.ranged and arms.magazines == 0 and not world.get(me, Arms).ranged:
                return i
    return None


def _left_behind(game: Game, me: int) -> bool:
    """Heading for the car that has no seat left (or has gone): walk to the safe house instead."""
    veh = vehicle_of(game)
    if veh is None:
        return True
    v = veh[1]
    return me not in v.passengers and len(v.passengers) >= v.capacity


DETOUR = 4  # squares a character goes out of its way for loot or the lights, between fights
DETOUR_TURNS = 25  # no detours once the scenario has run this many turns (the limit is 40)


def _worth(game: Game, stage: Stage, kind: str) -> bool:
    """Whether what a feature holds is worth a detour: healing always (the campaign goes on and
    every fight costs Stamina), a magazine when someone carries a SAR-21, the key while the panic
    room is locked and nobody has one, the lights while they are off."""
    if kind == "fuse":
        return "lights" not in stage.flags
    loot = rules(game).loot.get(kind, {})
    world = game.world
    chars = characters(game)
    if "bandage" in loot or "water" in loot:
        return True
    if "magazine" in loot:
        return any(world.get(c, Arms).ranged for c in chars)
    if "key" in loot:
        return "opened_locked_door" not in stage.flags and not any(
            world.get(c, Inventory).items.get("key", 0) for c in chars)
    return False


HURRY_TURN = 25  # from this turn of a scenario on, the party goes straight for the panic room door

DETOURS = ("counter", "cabinet", "op_cabinet", "locked_cabinet", "ceiling", "fuse")


def _detour(game: Game, me: int, stage: Stage, board: Board, aim: str) -> str | None:
    """With no zombie on the board, the free character nearest a salvage spot worth looting (or
    the fuse box) within `DETOUR` squares goes for it: one character per spot, the rest carry on."""
    if zombie_ids(game) or aim == "hunt" or stage.turn >= DETOUR_TURNS:
        return None
    if me not in characters(game):
        return None  # only a free character on the board goes out of its way
    table = game.world.raw()
    if "aboard" in table[me][Markers].tags:
        return None
    graph = board.graph(stage.opened)
    here = cell_of(board, table[me][Position])
    cells: dict[int, int] | None = None  # the other free characters' squares, read when a spot is near
    best: tuple[int, int, str] | None = None
    for kind, spot, mine in _spots(board, stage, here):
        if kind == aim or not _worth(game, stage, kind):
            continue
        if cells is None:
            cells = {c: cell_of(board, table[c][Position]) for c in characters(game)
                     if c != me and "aboard" not in table[c][Markers].tags}
        others = [(_reach(graph.from_(cell), board, spot), c) for c, cell in cells.items()]
        if any(o < (mine, me) for o in others):
            continue
        if best is None or (mine, DETOURS.index(kind), kind) < best:
            best = (mine, DETOURS.index(kind), kind)
    return f"goto:{best[2]}" if best else None


def _spots(board: Board, stage: Stage, here: int) -> tuple[tuple[str, int, int], ...]:
    """(kind, its nearest square, squares to it) of each kind of `DETOURS` on the board with a square
    within `DETOUR` of `here`, in `DETOURS` order: what a detour weighs before it looks at the party.
    A pure function of the board, its looted/opened state and `here`, kept with `nearest_feature`'s."""
    found = memo_for(board, stage)
    key = (here, "detour")
    got: tuple[tuple[str, int, int], ...] | None = found.get(key)
    if got is None:
        near = board.graph(stage.opened).from_(here)
        spots = []
        for kind in DETOURS:
            if kind in board.features:
                spot = nearest_feature(board, stage, here, kind)
                if spot is not None:
                    mine = _reach(near, board, spot)
                    if mine <= DETOUR:
                        spots.append((kind, spot, mine))
        got = found[key] = tuple(spots)
    return got


def _reach(dist: dict[int, int], board: Board, spot: int) -> int:
    """Squares to a feature, or to the square next to it when the feature itself is not walked on."""
    if spot in dist:
        return dist[spot]
    return min((dist[n] + 1 for n in board.around(spot) if n in dist), default=UNSEEN)


@heuristic("sza.zombie_target")
def zombie_target(game: Game, d: Decision) -> int:
    """A different character for each zombie where possible, otherwise the nearest ("Play Criteria":
    "try to have each NPC zombie to attack a different player character, whenever possible. If not,
    the NPC zombie should attack the nearest character").

    Where possible: a character that no other zombie has gone for this turn nor holds in melee, and
    that this zombie can attack this turn (it is engaged with it, or a walk or a run ends on it): the
    nearest of those. If there is none: the nearest character, then the one fewest other zombies
    claim; ties go to the weakest, then the lowest entity id."""
    z = int(d.context["zombie"])
    world = game.world
    _e, stage = stage_of(game)
    board = board_of(game, stage)
    zc = cell_of(board, world.get(z, Position))
    reach = board.graph(stage.opened).from_(zc)
    claimed = victims_of_others(game, z)  # whom the other zombies went for this turn
    for other in zombie_ids(game):
        if other != z:
            for c in opponents(game, other):
                claimed[c] = claimed.get(c, 0) + 1
    held = opponents(game, z)
    paces: list[Reach] = []  # the zombie's reach, found once when first needed

    def key(i: int) -> tuple[int, int, int, int, int]:
        c = d.options[i]
        free = False
        if claimed.get(c, 0) == 0:  # free when the zombie can attack it: engaged, or a walk or run ends on it
            free = c in held
            if not free:
                if not paces:
                    paces.append(Reach(game, z, board, stage))
                walks, runs = paces[0].paces(cell_of(board, world.get(c, Position)))
                free = walks or runs
        return (0 if free else 1, reach.get(cell_of(board, world.get(c, Position)), UNSEEN), claimed.get(c, 0),
                world.get(c, Wounds).left, c)

    return min(range(len(d.options)), key=key)


@heuristic("sza.melee_target")
def melee_target(game: Game, d: Decision) -> int:
    """Finish off the weakest."""
    return min(range(len(d.options)), key=lambda i: (game.world.get(d.options[i], Wounds).left, d.options[i]))


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
    h = game.world.get(int(d.context["piece"]), Wounds)
    missing = h.limit - h.left
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
    """The party's choice, on its merits (measured: docs/sza.md, "The default policy's choices"):

    - Scenario 1, event 1: fix the circuit breaker (the Level 2 corridors, where the fights on the
      stairs happen, are dark: -10 Accuracy) unless every character ignores darkness (Combat
      Awareness) or the lights are on; then the stairs. Scavenging first is never taken: it brings
      two more zombies onto level 1 for one bottle of water.
    - Event 5: search the false ceiling for the key first: event 6 brings no zombie, and the
      panic room door's two (event 7) and the safe's three (event 9) then come in separate waves;
      going straight for the door brings all three waves together (a Lock-Picker in the party
      included). Straight for the door only with the key in hand or from turn `HURRY_TURN` of the
      scenario on (the turn limit is 40). The operation room is never taken: two more zombies
      for bandages the store room's cabinet gives between fights.
    - Scenario 2, event 1: clear the street (the car may only be approached once it is clear, so
      creeping through the bushes only puts the fight off).
    - Event 4: the car when it seats every character; otherwise walk (those it cannot seat walk
      anyway, and the walk is what the party's arrival waits for).
    A choice the graph does not know is the first listed."""
    _e, stage = stage_of(game)
    scen = scenario_def(game, stage)
    event = str(d.context.get("event", ""))
    if event not in scen.events:
        return 0
    nexts = [dict(scen.events[event].choices).get(text, "") for text in d.options]
    world = game.world
    chars = characters(game)
    want: list[str] = []
    if scen.id == "bungalow" and event == "1":
        lit = "lights" in stage.flags or all(has_ability(game, c, "combat_awareness") for c in chars)
        want = ["2"] if lit else ["4", "2"]
    elif scen.id == "bungalow" and event == "5":
        key = any(world.get(c, Inventory).items.get("key", 0) for c in chars)
        want = ["7", "6"] if key or stage.turn >= HURRY_TURN else ["6", "7"]
    elif scen.id == "street" and event == "1":
        want = ["2"]
    elif scen.id == "street" and event == "4":
        veh = vehicle_of(game)
        seats = veh[1].capacity if veh is not None else 0
        want = ["5", "6"] if len(chars) <= seats else ["6", "5"]
    for w in want:
        if w in nexts:
            return nexts.index(w)
    return 0
