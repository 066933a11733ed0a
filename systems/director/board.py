"""The map as systems see it, and the effects several rules share: damage, kills, the weakest
player, the first-player order, ammo stacks and attack cards.

`Board` is a view built from components at the start of a system (never stored): which tile each
hex belongs to, who stands where, items, ladders and hazard hexes. Every walk over survivors goes
from the first player clockwise (by seat); every walk over zombies goes by entity id.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Container

from ecs_zombie import hexgrid
from ecs_zombie.components import HEX, Card, Deck, Faction, Markers, Owner, Position, Tally, Wounds
from ecs_zombie.errors import GameError
from ecs_zombie.game import Game
from ecs_zombie.hexgrid import Hex
from ecs_zombie.systems.core.pacing import Intensity
from ecs_zombie.systems.director.components import (
    AttackHand,
    DirectorState,
    FloorItem,
    HeldBy,
    LadderLink,
    Loadout,
    MapTile,
    StatusTimers,
)
from ecs_zombie.systems.director.tables import Armoury, Weapon

SURVIVORS, ZOMBIES = "survivors", "zombies"
PINNING = ("smoker", "hunter", "charger")
BOX = "ammo"
# A fresh stack of max ammo comes beside a hand of up to a clip, so each player may have out up to
# two full stacks' worth of a gun's cards (per face: its count in the stack plus at most as many in hand).
STACKS_PER_PLAYER = 2


def side(seat: int) -> str:
    return f"player:{seat}"


def hex_of(pos: Position) -> Hex:
    return (pos.x, pos.y)


class Board:
    """Who and what is where, now.

    The map (which tile each hex is on, the seams, and each hex's `steps`) comes from a memo the
    world keeps until a tile comes or goes (see `_map_key` for what else it is keyed on). The
    pieces (`players`, `zombies`), `items`, `links` and `hazards` are read from the world when
    first asked for: every system builds its board right before reading it, so the view is the
    same as one read at construction (a system that changes pieces keeps the dictionaries it
    already read up to date, or builds a new board)."""

    __slots__ = ("_hazards", "_items", "_links", "_map", "_players", "_zombies", "crossings", "map_key", "tile_of",
                 "tiles", "world")

    def __init__(self, game: Game) -> None:
        world = self.world = game.world
        tiles = world.query1(MapTile)
        self.tiles: dict[int, MapTile] = dict(tiles)
        self.map_key = _map_key(tiles)
        self._map: TileMap = world.memo(self.map_key, (MapTile,), lambda: _tile_map(tiles))
        self.tile_of: dict[Hex, int] = self._map.tile_of
        self.crossings: frozenset[tuple[Hex, Hex]] = self._map.crossings
        self._hazards: set[Hex] | None = None
        self._players: dict[Hex, int] | None = None
        self._zombies: dict[Hex, int] | None = None
        self._items: dict[Hex, int] | None = None
        self._links: dict[Hex, tuple[Hex, int]] | None = None

    def _pieces(self) -> None:
        players: dict[Hex, int] = {}
        zombies: dict[Hex, int] = {}
        for ent, (pos, fac) in self.world.query(Position, Faction):
            if fac.side == SURVIVORS:
                players[(pos.x, pos.y)] = ent
            elif fac.side == ZOMBIES:
                zombies[(pos.x, pos.y)] = ent
        self._players, self._zombies = players, zombies

    @property
    def players(self) -> dict[Hex, int]:
        """Survivor by hex."""
        if self._players is None:
            self._pieces()
        assert self._players is not None
        return self._players

    @property
    def zombies(self) -> dict[Hex, int]:
        """Zombie by hex."""
        if self._zombies is None:
            self._pieces()
        assert self._zombies is not None
        return self._zombies

    @property
    def items(self) -> dict[Hex, int]:
        """Floor item by hex."""
        if self._items is None:
            self._items = {(pos.x, pos.y): ent for ent, (pos, _item) in self.world.query(Position, FloorItem)}
        return self._items

    @items.setter
    def items(self, value: dict[Hex, int]) -> None:
        self._items = value

    @property
    def links(self) -> dict[Hex, tuple[Hex, int]]:
        """Ladder and sewer ends on the map: hex -> (the other end, its cost)."""
        if self._links is None:
            tile_of = self.tile_of
            self._links = {(pos.x, pos.y): ((link.to[0], link.to[1]), link.cost)
                           for _ent, (pos, link) in self.world.query(Position, LadderLink)
                           if (link.to[0], link.to[1]) in tile_of}
        return self._links

    @property
    def steps(self) -> dict[Hex, tuple[Hex, ...]]:
        """Each hex of the map -> the neighbours a piece on it can step to (`linked`), in direction order."""
        return self._map.steps

    @property
    def hazards(self) -> set[Hex]:
        """Hazard hexes (tile cards add them to a tile in place: read from the tiles, not memoised)."""
        if self._hazards is None:
            self._hazards = {(q, r) for _e, t in self.tiles.items() for q, r in t.hazards}
        return self._hazards

    def free(self, h: Hex) -> bool:
        """On the map and holding neither a zombie nor a survivor."""
        return h in self.tile_of and h not in self.zombies and h not in self.players

    def linked(self, a: Hex, b: Hex) -> bool:
        """Whether a piece may step between neighbouring hexes `a` and `b`: both on the map and on one
        tile, or across the seam where a tile's exit meets the entry of the tile laid against it.
        Elsewhere the edges of tiles that touch are walls ("the entry point aligns with the current
        exit point": tiles connect there only)."""
        tile_of = self.tile_of
        ta = tile_of.get(a)
        if ta is None:
            return False
        tb = tile_of.get(b)
        return tb is not None and (ta == tb or (a, b) in self.crossings)

    def around(self, h: Hex) -> list[Hex]:
        """The neighbours of `h` a piece on it can step to (`linked`), in direction order."""
        return list(self.steps.get(h, ()))

    def adjacent_zombies(self, h: Hex) -> list[int]:
        """Zombies next to `h` with no wall between (`linked`)."""
        zs = self.zombies
        return [zs[n] for n in self.steps.get(h, ()) if n in zs]

    def bfs(self, starts: list[Hex], passable: Callable[[Hex], bool]) -> dict[Hex, int]:
        """Steps from the nearest start to every hex reachable through `passable` hexes, stepping
        only between `linked` hexes (starts count 0 whatever `passable` says of them)."""
        dist: dict[Hex, int] = {}
        frontier: list[Hex] = []
        for s in starts:
            if s not in dist:
                dist[s] = 0
                frontier.append(s)
        steps = self.steps
        d = 0
        # layer by layer: the order a first-in first-out queue visits hexes in
        while frontier:
            d += 1
            nxt: list[Hex] = []
            for h in frontier:
                for n in steps.get(h, ()):
                    if n not in dist and passable(n):
                        dist[n] = d
                        nxt.append(n)
            frontier = nxt
        return dist

    def bfs_avoiding(self, starts: list[Hex], blocked: Container[Hex],
                     targets: Collection[Hex] | None = None) -> dict[Hex, int]:
        """`bfs` through every hex of the map but the `blocked` ones (a predicate-free `bfs`).

        With `targets`, the walk stops after the layer in which the last of them is reached: every
        hex up to that distance is in the result (with the same count as a full walk), none beyond."""
        dist: dict[Hex, int] = {}
        frontier: list[Hex] = []
        for s in starts:
            if s not in dist:
                dist[s] = 0
                frontier.append(s)
        left = -1 if targets is None else len(targets) - sum(1 for t in targets if t in dist)
        steps = self.steps
        d = 0
        while frontier and left != 0:
            d += 1
            nxt: list[Hex] = []
            for h in frontier:
                for n in steps.get(h, ()):
                    if n not in dist and n not in blocked:
                        dist[n] = d
                        nxt.append(n)
            frontier = nxt
            if targets is not None:
                left -= sum(1 for n in nxt if n in targets)
        return dist

    def tile_at(self, h: Hex) -> MapTile | None:
        ent = self.tile_of.get(h)
        return self.tiles[ent] if ent is not None else None


def _map_key(tiles: tuple[tuple[int, MapTile], ...]) -> tuple[object, ...]:
    """The memo key of the map. Which tile each hex is on changes only when a tile is laid or goes
    (the world drops the memo); an exit getting its tile (a seam) changes the tile in place, so
    the state of every exit is part of the key."""
    return ("director/map", tuple([ex["state"] for _e, t in tiles for ex in t.exits]))


class TileMap:
    """The map as the tiles lie: which tile each hex is on, the seams between tiles, and (worked
    out when first asked for, once per map rather than hex by hex in every walk) each hex's
    `linked` neighbours in direction order. Memoised by the world for `Board` (see `_map_key`)."""

    __slots__ = ("_steps", "crossings", "tile_of")

    def __init__(self, tile_of: dict[Hex, int], crossings: frozenset[tuple[Hex, Hex]]) -> None:
        self.tile_of = tile_of
        self.crossings = crossings
        self._steps: dict[Hex, tuple[Hex, ...]] | None = None

    @property
    def steps(self) -> dict[Hex, tuple[Hex, ...]]:
        if self._steps is None:
            self._steps = _steps(self.tile_of, self.crossings)
        return self._steps


def _tile_map(tiles: tuple[tuple[int, MapTile], ...]) -> TileMap:
    """Which tile each hex is on, and the seams between tiles: each exit with a tile laid against
    it joins the exit hex and that tile's entry hex (both ways)."""
    tile_of: dict[Hex, int] = {}
    by_ent = dict(tiles)
    seams: set[tuple[Hex, Hex]] = set()
    for ent, tile in tiles:
        tile_of.update(dict.fromkeys(((q, r) for q, r in tile.hexes), ent))
        for ex in tile.exits:
            other = by_ent.get(ex["to"]) if ex["state"] == "placed" else None
            if other is not None and other.entry:
                a, b = (ex["hex"][0], ex["hex"][1]), (other.entry[0], other.entry[1])
                seams.update(((a, b), (b, a)))
    return TileMap(tile_of, frozenset(seams))


def _steps(tile_of: dict[Hex, int], seams: frozenset[tuple[Hex, Hex]]) -> dict[Hex, tuple[Hex, ...]]:
    """Each hex's neighbours on its own tile, in direction order; then, for the few hexes on a
    seam, their neighbours again with the seam's far side among them (`Board.linked`)."""
    get = tile_of.get
    steps: dict[Hex, tuple[Hex, ...]] = {}
    for h, ent in tile_of.items():
        q, r = h
        steps[h] = tuple([n for n in ((q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1), (q, r + 1))
                          if get(n) == ent])
    for h, _far in seams:
        own = get(h)
        if own is not None:
            q, r = h
            steps[h] = tuple([n for n in ((q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1),
                                          (q, r + 1))
                              if (t := get(n)) is not None and (t == own or (h, n) in seams)])
    return steps


# -- pieces --------------------------------------------------------------------------------------


def director(game: Game) -> tuple[int, DirectorState, Tally]:
    for ent, (d, tally) in game.world.query(DirectorState, Tally):
        return ent, d, tally
    raise GameError("the Director game has no director entity")


def tally(game: Game) -> Tally:
    return director(game)[2]


def survivors(game: Game) -> list[int]:
    """Every survivor from the first player on, clockwise (seat order)."""
    world = game.world
    # which entities are survivors changes only when a piece comes or goes (`Faction` is frozen);
    # seats are read each time (`Owner` is not)
    ents: tuple[int, ...] = world.memo(("director/survivors",), (Faction,), lambda: tuple(
        e for e, f in world.query1(Faction) if f.side == SURVIVORS))
    if not ents:
        return []
    seats = sorted([(world.get(e, Owner).player, e) for e in ents])
    first = director(game)[1].first
    for i, (seat, _e) in enumerate(seats):
        if seat >= first:
            return [e for _s, e in seats[i:]] + [e for _s, e in seats[:i]]
    return [e for _s, e in seats]


def zombies(game: Game) -> list[int]:
    """Every zombie, by id (kept by the world until a piece comes or goes: `Faction` is frozen)."""
    world = game.world
    return list(world.memo(("director/zombies",), (Faction,), lambda: tuple(
        e for e, f in world.query1(Faction) if f.side == ZOMBIES)))


def seat_of(game: Game, ent: int) -> int:
    return game.world.get(ent, Owner).player


def recency(game: Game, ent: int) -> int:
    """0 for the first player, 1 for the one first before them, ...: "the player who was most
    recently first player" breaks ties (the token passes clockwise, to the next seat)."""
    return (director(game)[1].first - seat_of(game, ent)) % max(1, game.players)


def weakest(game: Game, among: list[int] | None = None) -> int | None:
    """The survivor with least hit points; ties to the most recent first player (Placing New Zombies)."""
    cands = survivors(game) if among is None else among
    if not cands:
        return None
    return min(cands, key=lambda e: (game.world.get(e, Wounds).left, recency(game, e), e))


def pinned(game: Game, ent: int) -> bool:
    return game.world.get(ent, Markers).has("pinned")


def held_by(game: Game, ent: int) -> str:
    held = game.world.try_get(ent, HeldBy)
    return held.by if held is not None else ""


def pin(game: Game, ent: int, why: str) -> None:
    markers = game.world.get(ent, Markers)
    if not markers.has("pinned"):
        markers.add("pinned")
        game.log("pinned", survivor=ent, why=why)


def damage(game: Game, ent: int, amount: int, why: str) -> None:
    """Take `amount` hit points from a survivor (they may go below 0: "0HP or less")."""
    if amount <= 0:
        return
    world = game.world
    world.get(ent, Wounds).left -= amount
    world.get(ent, Markers).add("hurt")
    tally(game).bump("damage_taken", amount)
    game.log("damage", survivor=ent, amount=amount, hp=world.get(ent, Wounds).left, why=why)


def heal(game: Game, ent: int, amount: int, why: str) -> None:
    """Hit points back, never above the maximum."""
    h = game.world.get(ent, Wounds)
    h.left = min(h.limit, h.left + amount)
    game.log("heal", survivor=ent, hp=h.left, why=why)


def set_timer(game: Game, ent: int, tag: str, rounds: int) -> None:
    game.world.get(ent, Markers).add(tag)
    timers = game.world.get(ent, StatusTimers)
    timers.left[tag] = max(timers.left.get(tag, 0), rounds)
    timers.left = {k: timers.left[k] for k in sorted(timers.left)}


def slime(game: Game, ent: int, why: str) -> None:
    rounds = game.tables["director.specials"]["boomer"].rounds
    set_timer(game, ent, "slimed", rounds)
    game.log("slimed", survivor=ent, why=why)


def kill_zombie(game: Game, zombie: int, why: str) -> None:
    """Remove a zombie; a Boomer's bile zombie slimes the survivors next to it as it dies; each
    survivor within 2 hexes counts a kill nearby (intensity)."""
    world = game.world
    pos = world.get(zombie, Position)
    h = hex_of(pos)
    bile = world.get(zombie, Markers).has("bile")
    for s in survivors(game):
        sh = hex_of(world.get(s, Position))
        d = hexgrid.distance(sh, h)
        if bile and d == 1:
            slime(game, s, "bile zombie killed")
        inten = world.try_get(s, Intensity)
        if inten is not None and d <= 2:
            inten.kills += 1
    tally(game).bump("zombies_killed")
    game.log("zombie_killed", zombie=zombie, at=list(h), why=why)
    world.delete(zombie)


def spawn_zombie(game: Game, h: Hex, active: bool, tags: tuple[str, ...] = ()) -> int:
    comps = game.ruleset.prefabs["zombie"].make(Position(h[0], h[1], HEX))
    ent = game.world.create(*comps)
    markers = game.world.get(ent, Markers)
    if not active:
        markers.add("inactive")
    for t in tags:
        markers.add(t)
    game.log("zombie_placed", zombie=ent, at=list(h), active=active)
    return ent


# -- weapons and attack cards --------------------------------------------------------------------


def armoury(game: Game) -> Armoury:
    table = game.tables["director.weapons"]
    assert isinstance(table, Armoury)
    return table


def weapon(game: Game, name: str) -> Weapon | None:
    return armoury(game).weapons.get(name)


def pistol_of(game: Game, ent: int) -> str | None:
    inv = game.world.get(ent, Loadout)
    for w in inv.weapons:
        wd = weapon(game, w)
        if wd is not None and wd.pistol:
            return w
    return None


def _stack(game: Game, ent: int, name: str) -> Deck | None:
    deck_name = f"ammo/{seat_of(game, ent)}/{name}"
    for _e, deck in game.world.query1(Deck):
        if deck.name == deck_name:
            return deck
    return None


def _deal_stack(game: Game, name: str, deck: Deck) -> None:
    """Move one full stack of the weapon's cards (max ammo) from the ammo box into `deck`'s draw
    pile, the lowest card ids of each face first."""
    wd = weapon(game, name)
    if wd is None:
        raise GameError(f"unknown weapon {name!r}")
    _b, box = game.deck(BOX)
    wanted = sorted(face for face, _v in wd.cards)
    taken: list[int] = []
    world = game.world
    for cid in sorted(box.draw):
        card = world.get(cid, Card)
        if card.suit == name and card.face in wanted:
            wanted.remove(card.face)
            taken.append(cid)
    if wanted:
        raise GameError(f"the ammo box has no full stack of {name} left (more players than it holds?)")
    box.draw = [c for c in box.draw if c not in taken]
    deck.draw.extend(taken)


def ammo_deck(game: Game, ent: int, name: str) -> Deck:
    """The survivor's ammo stack for a weapon (a full stack from the ammo box the first time)."""
    deck = _stack(game, ent, name)
    if deck is not None:
        return deck
    deck = Deck(f"ammo/{seat_of(game, ent)}/{name}", [], [])
    _deal_stack(game, name, deck)
    game.world.create(deck)
    game.shuffle(deck, f"new ammo stack: {name}")
    return game.deck(deck.name)[1]


def hand_cards(game: Game, ent: int, name: str) -> list[int]:
    return game.world.get(ent, AttackHand).cards.get(name, [])


def draw_to_hand(game: Game, ent: int, name: str, count: int) -> int:
    """Draw up to `count` attack cards from the weapon's stack into hand; an empty stack gives no
    more (out of ammo), except a pistol's, whose spent cards are reshuffled (DESIGN CHOICE:
    pistols never run dry, as in Left 4 Dead)."""
    deck = ammo_deck(game, ent, name)
    hand = game.world.get(ent, AttackHand)
    cards = hand.cards.setdefault(name, [])
    got = 0
    wd = weapon(game, name)
    for _ in range(count):
        if not deck.draw:
            if not (wd is not None and wd.pistol and deck.discard):
                break
        cid, _card = game.draw(deck, f"attack card ({name})")
        deck.discard.remove(cid)
        cards.append(cid)
        got += 1
    hand.cards = {k: hand.cards[k] for k in sorted(hand.cards)}
    return got


def spend(game: Game, ent: int, name: str, cid: int) -> None:
    """An attack card from hand onto its stack's discard pile."""
    hand_cards(game, ent, name).remove(cid)
    ammo_deck(game, ent, name).discard.append(cid)


def restock(game: Game, ent: int, name: str) -> None:
    """A fresh ammo stack ("discard all their current Attack Cards (discarded and spare) for that
    weapon (except those in hand) and replace them with a new stack equal to the Weapons Max
    Ammo"): the stack's cards go back to the ammo box and a full stack is dealt and shuffled; the
    hand is kept. The first stack of a gun is dealt the same way."""
    deck = _stack(game, ent, name)
    if deck is None:
        ammo_deck(game, ent, name)
        return
    _b, box = game.deck(BOX)
    box.draw = sorted([*box.draw, *deck.draw, *deck.discard])
    deck.draw, deck.discard = [], []
    _deal_stack(game, name, deck)
    game.shuffle(deck, f"ammo restock: {name}")


def card_value(game: Game, cid: int) -> int:
    return game.world.get(cid, Card).value


# -- shooting lines ------------------------------------------------------------------------------


def any_shot(board: Board, start: Hex, max_range: int) -> bool:
    """Whether `shots_from` would find any zombie: one within `max_range` steps by a route that
    passes no zombie (a walk by layers that stops at the first, with no routes to keep)."""
    if max_range <= 0:
        return False
    steps, zs = board.steps, board.zombies
    seen = {start}
    frontier = [start]
    for _d in range(max_range):
        nxt: list[Hex] = []
        for h in frontier:
            for n in steps.get(h, ()):
                if n in zs:
                    return True
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        if not nxt:
            return False
        frontier = nxt
    return False


def shots_from(board: Board, start: Hex, max_range: int, shooter: int) -> dict[int, tuple[int, list[int]]]:
    """Zombies within `max_range` by the shortest route from `start` that passes no zombie:
    {zombie: (distance, survivors the route passes through)}. Routes through survivors are
    allowed (each is wounded), but of two equally short routes the one through fewer is taken.
    DESIGN CHOICE: a shot crosses from tile to tile where a piece could step (`Board.linked`), not
    through the walls where tiles merely touch."""
    # A route's cost (steps, survivors passed) packed in one number, steps * `per_step` + passed:
    # ordered as the pair is, since no route within range passes more survivors than it has steps.
    per_step = max(max_range, 0) + 1
    best: dict[Hex, int] = {start: 0}
    parent: dict[Hex, Hex] = {}
    heap: list[tuple[int, Hex]] = [(0, start)]
    out: dict[int, tuple[int, list[int]]] = {}
    steps, zs, ps = board.steps, board.zombies, board.players
    beyond = (max_range + 1) * per_step
    last = max_range * per_step  # the cheapest cost at max_range steps
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        cost, h = pop(heap)
        if best.get(h, cost) < cost:
            continue
        if h in zs:
            if zs[h] not in out:
                path = []
                x = parent[h]
                while x != start:
                    if x in ps and ps[x] != shooter:
                        path.append(ps[x])
                    x = parent[x]
                out[zs[h]] = (cost // per_step, sorted(path))
            continue
        if cost >= last:
            continue
        c1 = (cost // per_step + 1) * per_step + cost % per_step
        for n in steps.get(h, ()):
            nc = c1 + 1 if n in ps else c1
            if nc < best.get(n, beyond):
                best[n] = nc
                parent[n] = h
                push(heap, (nc, n))
    return out
