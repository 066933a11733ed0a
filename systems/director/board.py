"""The map as systems see it, and the effects several rules share: damage, kills, the weakest
player, the first-player order, ammo stacks and attack cards.

`Board` is a view built from components at the start of a system (never stored): which tile each
hex belongs to, who stands where, items, ladders and hazard hexes. Every walk over survivors goes
from the first player clockwise (by seat); every walk over zombies goes by entity id.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable

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
    """Who and what is where, now."""

    __slots__ = ("crossings", "hazards", "items", "links", "players", "tile_of", "tiles", "zombies")

    def __init__(self, game: Game) -> None:
        world = game.world
        tiles = world.query1(MapTile)
        self.tiles: dict[int, MapTile] = dict(tiles)
        self.tile_of: dict[Hex, int]
        self.hazards: set[Hex]
        self.crossings: frozenset[tuple[Hex, Hex]]
        # Which tile each hex is on changes only when a tile is laid or goes (the world drops the
        # memo), a tile gains a hazard hex or an exit gets its tile (both part of the key).
        key = ("director/map", tuple((len(t.hazards), sum(1 for ex in t.exits if ex["state"] == "placed"))
                                     for _e, t in tiles))
        self.tile_of, self.hazards, self.crossings = world.memo(key, (MapTile,), lambda: _tile_map(tiles))
        self.players: dict[Hex, int] = {}
        self.zombies: dict[Hex, int] = {}
        for ent, (pos, fac) in world.query(Position, Faction):
            if fac.side == SURVIVORS:
                self.players[(pos.x, pos.y)] = ent
            elif fac.side == ZOMBIES:
                self.zombies[(pos.x, pos.y)] = ent
        self.items: dict[Hex, int] = {}
        for ent, (pos, _item) in world.query(Position, FloorItem):
            self.items[(pos.x, pos.y)] = ent
        self.links: dict[Hex, tuple[Hex, int]] = {}
        for _ent, (pos, link) in world.query(Position, LadderLink):
            if tuple(link.to) in self.tile_of:
                self.links[(pos.x, pos.y)] = ((link.to[0], link.to[1]), link.cost)

    def on_board(self, h: Hex) -> bool:
        return h in self.tile_of

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
        return [n for n in hexgrid.neighbours(h) if self.linked(h, n)]

    def adjacent_zombies(self, h: Hex) -> list[int]:
        """Zombies next to `h` with no wall between (`linked`)."""
        zs = self.zombies
        return [zs[n] for n in hexgrid.neighbours(h) if n in zs and self.linked(h, n)]

    def bfs(self, starts: list[Hex], passable: Callable[[Hex], bool]) -> dict[Hex, int]:
        """Steps from the nearest start to every hex reachable through `passable` hexes, stepping
        only between `linked` hexes (starts count 0 whatever `passable` says of them)."""
        dist: dict[Hex, int] = {}
        queue: deque[Hex] = deque()
        for s in starts:
            if s not in dist:
                dist[s] = 0
                queue.append(s)
        linked = self.linked
        while queue:
            h = queue.popleft()
            d = dist[h] + 1
            for n in hexgrid.neighbours(h):
                if n not in dist and passable(n) and linked(h, n):
                    dist[n] = d
                    queue.append(n)
        return dist

    def tile_at(self, h: Hex) -> MapTile | None:
        ent = self.tile_of.get(h)
        return self.tiles[ent] if ent is not None else None


def _tile_map(tiles: tuple[tuple[int, MapTile], ...]
              ) -> tuple[dict[Hex, int], set[Hex], frozenset[tuple[Hex, Hex]]]:
    """Which tile each hex is on, the hazard hexes, and the seams between tiles: each exit with a
    tile laid against it joins the exit hex and that tile's entry hex (both ways)."""
    tile_of: dict[Hex, int] = {}
    hazards: set[Hex] = set()
    by_ent = dict(tiles)
    seams: set[tuple[Hex, Hex]] = set()
    for ent, tile in tiles:
        tile_of.update(dict.fromkeys(((q, r) for q, r in tile.hexes), ent))
        hazards.update((q, r) for q, r in tile.hazards)
        for ex in tile.exits:
            other = by_ent.get(ex["to"]) if ex["state"] == "placed" else None
            if other is not None and other.entry:
                a, b = (ex["hex"][0], ex["hex"][1]), (other.entry[0], other.entry[1])
                seams.update(((a, b), (b, a)))
    return tile_of, hazards, frozenset(seams)


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
    seats = [(world.get(e, Owner).player, e) for e, f in world.query1(Faction) if f.side == SURVIVORS]
    seats.sort()
    if not seats:
        return []
    first = director(game)[1].first
    n = len(seats)
    start = next((i for i, (s, _e) in enumerate(seats) if s >= first), 0)
    return [seats[(start + i) % n][1] for i in range(n)]


def zombies(game: Game) -> list[int]:
    return [e for e, f in game.world.query1(Faction) if f.side == ZOMBIES]


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


def shots_from(board: Board, start: Hex, max_range: int, shooter: int) -> dict[int, tuple[int, list[int]]]:
    """Zombies within `max_range` by the shortest route from `start` that passes no zombie:
    {zombie: (distance, survivors the route passes through)}. Routes through survivors are
    allowed (each is wounded), but of two equally short routes the one through fewer is taken.
    DESIGN CHOICE: a shot crosses from tile to tile where a piece could step (`Board.linked`), not
    through the walls where tiles merely touch."""
    best: dict[Hex, tuple[int, int]] = {start: (0, 0)}
    parent: dict[Hex, Hex] = {}
    heap: list[tuple[int, int, Hex]] = [(0, 0, start)]
    out: dict[int, tuple[int, list[int]]] = {}
    tile_of, zs, ps = board.tile_of, board.zombies, board.players
    while heap:
        d, c, h = heapq.heappop(heap)
        if best.get(h, (d, c)) < (d, c):
            continue
        if h in zs:
            if zs[h] not in out:
                path = []
                x = parent[h]
                while x != start:
                    if x in ps and ps[x] != shooter:
                        path.append(ps[x])
                    x = parent[x]
                out[zs[h]] = (d, sorted(path))
            continue
        if d >= max_range:
            continue
        for n in hexgrid.neighbours(h):
            if n not in tile_of or not board.linked(h, n):
                continue
            cost = (d + 1, c + (1 if n in ps else 0))
            if cost < best.get(n, (max_range + 1, 0)):
                best[n] = cost
                parent[n] = h
                heapq.heappush(heap, (cost[0], cost[1], n))
    return out
