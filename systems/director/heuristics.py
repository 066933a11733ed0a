"""The `heuristic` policy's answers for the Director game: sensible co-op play, not perfect play.

Survivors walk toward the goal tile (the safe room once it is laid, else the tile whose open exits
lay the next tiles) by the length of the route along the tiles (through exits and ladders, never
across the walls where tiles merely touch), avoid ending next to zombies, and revive a downed
friend only when no zombie is beside them (a revived survivor keeps 1 hit point and stays pinned:
next to a zombie they are down again before they can act, and the reviver's action was wasted).
They shoot the zombie nearest any survivor with the highest card that reaches it, melee when
nothing can be shot, and otherwise reload a pistol hand short of its clip (free: the pistol's
spent cards are reshuffled) or any hand holding nothing above a 1, never a full hand worth
keeping. Suppressing fire gets the highest card while there is a horde: a card there keeps its
value in zombies off the board, in a shot it kills one (docs/director.md, "The heuristic policy").
A carried pipe bomb or molotov is taken in hand when it would catch three zombies. Stacked
zombies go where they are farthest from the survivors.
"""

from __future__ import annotations

import heapq

from ecs_zombie import hexgrid
from ecs_zombie.components import Card, Markers, Position, Wounds
from ecs_zombie.decisions import Decision, heuristic
from ecs_zombie.game import Game
from ecs_zombie.hexgrid import Hex
from ecs_zombie.systems.director.board import Board, hand_cards, hex_of, shots_from, survivors, weapon
from ecs_zombie.systems.director.components import Loadout, MapTile
from ecs_zombie.systems.director.players import gun_for_action
from ecs_zombie.systems.director.tiles import open_exits

FAR = 999  # the route length of a hex from which the goal cannot be reached


def goal_tile(board: Board) -> MapTile | None:
    """Where the team heads: the safe room once laid, else the deepest tile with open exits (the
    main route first; stepping onto it lays the next tiles), else the deepest tile."""
    tiles: list[MapTile] = [board.tiles[e] for e in sorted(board.tiles)]
    if not tiles:
        return None
    return max(tiles, key=lambda t: (t.safe, open_exits(t), t.main, t.depth, t.order))


def route(board: Board) -> dict[Hex, int]:
    """Steps from each hex of the map to the goal along the tiles: between hexes a piece may step
    between (`Board.linked`: across tiles only where an exit meets an entry) and up or down ladders
    at their cost, pieces ignored (they move). A hex of the goal tile counts its steps to the tile's
    centre, so that survivors walk in and do not stop on the entry, blocking it for the others.

    It depends on the map and the ladders alone (the goal tile on the tiles and their exits'
    states), so the world keeps it with the map: keyed on the map's key and the ladders, dropped
    when a tile comes or goes. Shared: never change the dictionary returned."""
    key = ("director/route", board.map_key, tuple(board.links.items()))
    return board.world.memo(key, (MapTile,), lambda: _route(board))


def _route(board: Board) -> dict[Hex, int]:
    tile = goal_tile(board)
    if tile is None:
        return {}
    centre = (tile.center[0], tile.center[1])
    best: dict[Hex, int] = {}
    heap: list[tuple[int, Hex]] = []
    for q, r in sorted(tile.hexes):
        h = (q, r)
        best[h] = hexgrid.distance(h, centre)
        heap.append((best[h], h))
    heapq.heapify(heap)
    links, steps = board.links, board.steps
    while heap:
        d, h = heapq.heappop(heap)
        if d > best[h]:
            continue
        d1 = d + 1
        for n in steps.get(h, ()):
            if d1 < best.get(n, FAR):
                best[n] = d1
                heapq.heappush(heap, (d1, n))
        link = links.get(h)
        if link is not None:
            n, cost = link
            if d + cost < best.get(n, FAR):
                best[n] = d + cost
                heapq.heappush(heap, (d + cost, n))
    return best


def _index(d: Decision, value: object) -> int:
    return d.options.index(value)


def revivable(game: Game, board: Board, ent: int) -> bool:
    """A downed survivor worth reviving: no zombie beside them (else they are down again in the
    next Zombie phase, still pinned, before they could act)."""
    return not board.adjacent_zombies(hex_of(game.world.get(ent, Position)))


@heuristic("director.move")
def move(game: Game, d: Decision) -> int:
    """2 a step of route to the goal (`route`), 3 a zombie beside the hex, 3 a hex of distance to a
    revivable downed friend within 4 hexes of the start (unless the mover was hurt this round), -1
    an item, +2 a hazard; the first option on a tie."""
    board = Board(game)
    steps = route(board)
    me = d.context.get("survivor")
    start = (d.context["at"][0], d.context["at"][1])
    # a survivor hurt this round cannot revive this round ("only ... if they took no damage"):
    # they keep going rather than wait beside a friend they cannot help
    can_revive = me is not None and not game.world.get(me, Markers).has("hurt")
    downed = [hex_of(game.world.get(e, Position)) for e in survivors(game)
              if can_revive and e != me and game.world.get(e, Wounds).left <= 0 and revivable(game, board, e)]

    near_start = [x for x in downed if hexgrid.distance(start, x) <= 4]
    items, hazards, zombies, around = board.items, board.hazards, board.zombies, board.steps

    def score(opt: list[int]) -> int:
        h = (opt[0], opt[1])
        s = 2 * steps.get(h, FAR) if steps else 0
        s += 3 * sum(1 for n in around.get(h, ()) if n in zombies)  # `Board.adjacent_zombies`
        if near_start:
            s += 3 * min(hexgrid.distance(h, x) for x in near_start)
        if h in items:
            s -= 1
        if h in hazards:
            s += 2
        return s

    return min(range(len(d.options)), key=lambda i: (score(d.options[i]), i))


@heuristic("director.suppress")
def suppress(game: Game, d: Decision) -> int:
    """Suppressing fire is worth a card's value in zombies that never appear, a shot only one
    zombie: when there is a horde, add the highest card."""
    if d.context.get("horde", 0) <= 0:
        return 0
    if "blind" in d.options:
        return _index(d, "blind")
    return _highest_card(game, d, [c for c in d.options if isinstance(c, int)])


@heuristic("director.stack")
def stack(game: Game, d: Decision) -> int:
    """The first player puts a stacked zombie where it is farthest from every survivor still up (by
    steps along the tiles; a hex no survivor can reach is farthest), the first option on a tie."""
    board = Board(game)
    up = [h for h, e in sorted(board.players.items()) if game.world.get(e, Wounds).left > 0]
    spots = [(o[0], o[1]) for o in d.options]
    # every hex of the map is passable; the walk goes as far as the farthest option it reaches
    steps = board.bfs_avoiding(up or sorted(board.players), (), spots)
    return max(range(len(spots)), key=lambda i: (steps.get(spots[i], FAR), -i))


@heuristic("director.pickup")
def pickup(game: Game, d: Decision) -> int:
    return _index(d, "take") if "take" in d.options else 0


@heuristic("director.equip")
def equip(game: Game, d: Decision) -> int:
    ent = d.context["survivor"]
    hand = game.world.get(ent, Loadout).hand
    wd = weapon(game, hand)
    item = str(d.context.get("item", ""))
    new = weapon(game, item)
    return _index(d, "equip") if new is not None and (wd is None or wd.pistol) else 0


@heuristic("director.action")
def action(game: Game, d: Decision) -> int:
    """Revive a friend worth reviving; else use the item in hand; else take a carried throwable in
    hand when it would catch `THROW_AT` zombies (a shot kills one a card); else a clean shot; else
    melee; else reload a poor hand (`poor_hand`); else take a needed heal or a better gun in hand;
    else nothing (a reload would throw away a hand worth keeping)."""
    ent = d.context["survivor"]
    opts = d.options
    world = game.world
    hp = world.get(ent, Wounds)
    inv = world.get(ent, Loadout)
    if "revive" in opts and _revive_target(game, ent) is not None:
        return _index(d, "revive")
    if "use" in opts:
        return _index(d, "use")
    items = game.tables["director.items"]
    for o in opts:
        if isinstance(o, str) and o.startswith("swap:"):
            row = items.get(o[5:])
            if row is not None and row.kind == "throw" and _blast(game, ent, row.range, row.radius) >= THROW_AT:
                return _index(d, o)
    if "shoot" in opts and _clean_shot(game, ent):
        return _index(d, "shoot")
    if "melee" in opts:
        return _index(d, "melee")
    wd = weapon(game, inv.hand)
    if "reload" in opts and poor_hand(game, ent):
        return _index(d, "reload")
    for o in opts:
        if isinstance(o, str) and o.startswith("swap:"):
            row = items.get(o[5:])
            if row is not None and row.kind == "heal" and hp.left <= hp.limit - row.heal:
                return _index(d, o)
            new = weapon(game, o[5:])
            if new is not None and not new.pistol and (wd is None or wd.pistol):
                return _index(d, o)
    return _index(d, "none")


THROW_AT = 3  # zombies a thrown item must catch for a survivor to take it in hand


def _blast(game: Game, ent: int, reach: int, radius: int) -> int:
    """The most zombies a thrown item (`reach` hexes, killing within `radius`) would catch."""
    board = Board(game)
    me = hex_of(game.world.get(ent, Position))
    spots = [z for z in sorted(board.zombies) if hexgrid.distance(me, z) <= reach]
    return max((sum(1 for z in board.zombies if hexgrid.distance(z, h) <= radius) for h in spots), default=0)


def poor_hand(game: Game, ent: int) -> bool:
    """A hand worth reloading: with the pistol, one short of its clip or holding nothing above a 1
    (Misses and 1s: short shots, little suppressing fire); the pistol's spent cards are reshuffled,
    so a reload costs it nothing, and a full hand is what suppressing fire feeds on. With another
    gun, whose stack runs dry, only a hand that is empty or holds nothing above a 1. Never a full
    hand of better cards (a reload throws the hand away)."""
    gun = gun_for_action(game, ent)
    wd = weapon(game, gun) if gun else None
    if gun is None or wd is None:
        return False
    values = [game.world.get(c, Card).value for c in hand_cards(game, ent, gun)]
    junk = max(values, default=0) <= 1
    return junk or (wd.pistol and len(values) < wd.clip)


def _revive_target(game: Game, ent: int) -> int | None:
    """The downed friend beside `ent` to revive: one with no zombie beside them, the lowest entity."""
    board = Board(game)
    me = hex_of(game.world.get(ent, Position))
    for n in board.around(me):
        other = board.players.get(n)
        if other is not None and game.world.get(other, Wounds).left <= 0 and revivable(game, board, other):
            return other
    return None


def _clean_shot(game: Game, ent: int) -> bool:
    """Some zombie can be shot with a card in hand without hitting a friend."""
    gun = gun_for_action(game, ent)
    wd = weapon(game, gun) if gun else None
    if gun is None or wd is None:
        return False
    top = max((game.world.get(c, Card).value for c in hand_cards(game, ent, gun)), default=0)
    board = Board(game)
    shots = shots_from(board, hex_of(game.world.get(ent, Position)), top * wd.range, ent)
    return any(not through for _d, through in shots.values())


def _threat(game: Game, board: Board, z: int) -> int:
    h = hex_of(game.world.get(z, Position))
    return min((hexgrid.distance(h, p) for p in board.players), default=99)


def _highest_card(game: Game, d: Decision, cards: list[int]) -> int:
    """The option of the highest-valued card (the earliest dealt on a tie); the first option if none."""
    if not cards:
        return 0
    return _index(d, max(cards, key=lambda c: (game.world.get(c, Card).value, -c)))


@heuristic("director.card")
def card(game: Game, d: Decision) -> int:
    if "blind" in d.options:
        return _index(d, "blind")
    return _highest_card(game, d, [c for c in d.options if isinstance(c, int) and game.world.get(c, Card).value > 0])


@heuristic("director.target")
def target(game: Game, d: Decision) -> int:
    """The zombie nearest any survivor, never through a friend when another target will do."""
    board = Board(game)
    crossings = d.context.get("crossings") or [0] * len(d.options)
    return min(range(len(d.options)), key=lambda i: (crossings[i], _threat(game, board, d.options[i]), i))


@heuristic("director.melee")
def melee(game: Game, d: Decision) -> int:
    return max(range(len(d.options)), key=lambda i: (len(d.options[i]), -i))


@heuristic("director.item_target")
def item_target(game: Game, d: Decision) -> int:
    opts = d.options
    if opts and isinstance(opts[0], int):
        return min(range(len(opts)), key=lambda i: (game.world.get(opts[i], Wounds).left, i))
    board = Board(game)

    def hits(opt: list[int]) -> int:
        return sum(1 for z in board.zombies if hexgrid.distance(z, (opt[0], opt[1])) <= 1)

    return max(range(len(opts)), key=lambda i: (hits(opts[i]), -i))


@heuristic("director.revive")
def revive(game: Game, d: Decision) -> int:
    """A downed friend with no zombie beside them first (`revivable`), else the first offered."""
    board = Board(game)
    worth = [i for i, e in enumerate(d.options) if revivable(game, board, e)]
    return worth[0] if worth else 0
