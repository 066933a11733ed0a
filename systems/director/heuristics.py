"""The `heuristic` policy's answers for the Director game: sensible co-op play, not perfect play.

Survivors push toward the next open exit (the safe room once it is laid), avoid ending next to
zombies, revive and heal downed or hurt friends, shoot the zombie nearest any survivor with the
highest card that reaches it, melee when nothing can be shot, reload when the hand is empty, and
feed Miss and low cards to suppressing fire.
"""

from __future__ import annotations

from ecs_zombie import hexgrid
from ecs_zombie.components import Card, Health, Position
from ecs_zombie.decisions import Decision, heuristic
from ecs_zombie.game import Game
from ecs_zombie.hexgrid import Hex
from ecs_zombie.systems.director.board import Board, hand_cards, hex_of, shots_from, survivors, weapon
from ecs_zombie.systems.director.components import Loadout, MapTile
from ecs_zombie.systems.director.players import gun_for_action


def goal(game: Game, board: Board) -> Hex | None:
    """Where the team heads: the safe room once laid, else the deepest tile (the main route first)."""
    tiles: list[MapTile] = [board.tiles[e] for e in sorted(board.tiles)]
    if not tiles:
        return None
    best = max(tiles, key=lambda t: (t.safe, t.main, t.depth, t.order))
    return (best.center[0], best.center[1])


def _index(d: Decision, value: object) -> int:
    return d.options.index(value)


@heuristic("director.move")
def move(game: Game, d: Decision) -> int:
    board = Board(game)
    target = goal(game, board)
    me = d.context.get("survivor")
    start = (d.context["at"][0], d.context["at"][1])
    downed = [hex_of(game.world.get(e, Position)) for e in survivors(game)
              if e != me and game.world.get(e, Health).current <= 0]

    def score(opt: list[int]) -> tuple[int, int]:
        h = (opt[0], opt[1])
        s = 0
        if target is not None:
            s += 2 * hexgrid.distance(h, target)
        s += 3 * len(board.adjacent_zombies(h))
        near = [hexgrid.distance(h, x) for x in downed if hexgrid.distance(start, x) <= 4]
        if near:
            s += 3 * min(near)
        if h in board.items:
            s -= 1
        if h in board.hazards:
            s += 2
        return s, 0

    best = min(range(len(d.options)), key=lambda i: (score(d.options[i]), i))
    return best


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
    board = Board(game)
    players = list(board.players)

    def near(opt: list[int]) -> int:
        return min((hexgrid.distance((opt[0], opt[1]), p) for p in players), default=0)

    return min(range(len(d.options)), key=lambda i: (near(d.options[i]), i))


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
    ent = d.context["survivor"]
    opts = d.options
    world = game.world
    hp = world.get(ent, Health)
    inv = world.get(ent, Loadout)
    if "revive" in opts:
        return _index(d, "revive")
    if "use" in opts:
        return _index(d, "use")
    if "shoot" in opts and _clean_shot(game, ent):
        return _index(d, "shoot")
    if "melee" in opts:
        return _index(d, "melee")
    wd = weapon(game, inv.hand)
    if "reload" in opts and wd is not None and len(hand_cards(game, ent, inv.hand)) < wd.clip:
        return _index(d, "reload")
    items = game.tables["director.items"]
    for o in opts:
        if isinstance(o, str) and o.startswith("swap:"):
            row = items.get(o[5:])
            if row is not None and row.kind == "heal" and hp.current <= hp.maximum - row.heal:
                return _index(d, o)
            new = weapon(game, o[5:])
            if new is not None and not new.pistol and (wd is None or wd.pistol):
                return _index(d, o)
    if "reload" in opts:
        return _index(d, "reload")
    return _index(d, "none")


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
        return min(range(len(opts)), key=lambda i: (game.world.get(opts[i], Health).current, i))
    board = Board(game)

    def hits(opt: list[int]) -> int:
        return sum(1 for z in board.zombies if hexgrid.distance(z, (opt[0], opt[1])) <= 1)

    return max(range(len(opts)), key=lambda i: (hits(opts[i]), -i))


@heuristic("director.revive")
def revive(game: Game, d: Decision) -> int:
    return 0
