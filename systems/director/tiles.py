"""The map: the start tile, laying tiles at open exits, ladders over blocked exits, tile cards,
and removing vacated tiles.

Rules ("New Tile Required?", "Place New Tile", "Draw Tile Card", "Blocked Exits", "Remove Vacated
Tiles"): when a player moves onto a tile with open exits, the top tile of the face-down stack is
laid against each open exit, entry aligned to exit, and a tile card is drawn for it; an exit that
would put the new tile over one already laid becomes a ladder/sewer to a tile laid apart.
"""

from __future__ import annotations

from ecs_zombie import hexgrid
from ecs_zombie.components import HEX, Faction, Kind, Position
from ecs_zombie.game import Game
from ecs_zombie.hexgrid import Hex
from ecs_zombie.schedule import system
from ecs_zombie.systems.director.board import (
    Board,
    director,
    hex_of,
    spawn_zombie,
    survivors,
    tally,
)
from ecs_zombie.systems.director.components import FloorItem, LadderLink, MapTile
from ecs_zombie.systems.director.tables import ENTRY, ENTRY_DIR, RADIUS, TileCard, TileDef, TileSet

TILE_STACK, TILE_CARDS = "tiles", "tile_cards"


def tileset(game: Game) -> TileSet:
    table = game.tables["director.tiles"]
    assert isinstance(table, TileSet)
    return table


def footprint(tile: MapTile) -> list[Hex]:
    """Every hex the tile covers, walls included (a radius-2 hexagon about its centre)."""
    return hexgrid.within((tile.center[0], tile.center[1]), RADIUS)


def lay(game: Game, tdef: TileDef, rotation: int, offset: Hex, parent: int, depth: int, main: bool,
        section: int) -> int:
    """Create a tile entity at a rotation and offset (see `hexgrid.placement`)."""
    _d, state, _t = director(game)
    state.tiles_placed += 1

    def at(h: Hex) -> list[int]:
        return list(hexgrid.transform(h, rotation, offset))

    tile = MapTile(
        name=tdef.name, order=state.tiles_placed, center=at((0, 0)),
        hexes=sorted(at(h) for h in tdef.hexes), spawn=[at(h) for h in tdef.spawn], hazards=[],
        exits=[{"hex": at(h), "dir": (d + rotation) % 6, "state": "open", "to": 0} for h, d in tdef.exits],
        entry=at(ENTRY), parent=parent, depth=depth, main=main, section=section, safe=tdef.safe,
    )
    ent = game.world.create(tile)
    tally(game).bump("tiles_placed")
    game.log("tile_placed", tile=ent, name=tdef.name, center=tile.center, rotation=rotation)
    return ent


def place_start(game: Game) -> int:
    """The start tile, laid at the origin unrotated."""
    ts = tileset(game)
    return lay(game, ts.tiles[ts.start], 0, (0, 0), 0, 0, True, 0)


def _covered(game: Game) -> set[Hex]:
    out: set[Hex] = set()
    for _e, tile in game.world.query1(MapTile):
        out.update(footprint(tile))
    return out


def explore(game: Game, tile_ent: int) -> None:
    """Lay a tile against each open exit of `tile_ent` (rule "Place New Tile"), each with its card."""
    world = game.world
    tile = world.get(tile_ent, MapTile)
    ts = tileset(game)
    _de, stack = game.deck(TILE_STACK)
    for i, ex in enumerate(tile.exits):
        if ex["state"] != "open":
            continue
        if not stack.draw:  # DESIGN CHOICE: once the stack is spent, remaining exits are dead ends
            ex["state"] = "closed"
            game.log("exit_closed", tile=tile_ent, exit=i)
            continue
        _cid, card = game.draw(stack, "new tile")
        tdef = ts.tiles[card.face]
        exit_hex = (ex["hex"][0], ex["hex"][1])
        rotation, offset = hexgrid.placement(ENTRY, ENTRY_DIR, exit_hex, ex["dir"])
        center = hexgrid.transform((0, 0), rotation, offset)
        covered = _covered(game)
        main = tile.main and i == 0
        if any(h in covered for h in hexgrid.within(center, RADIUS)):
            # Blocked Exits: a ladder/sewer on the exit, the new tile laid apart, its entrance the other end.
            k = 2 * RADIUS + 2
            while True:
                dq, dr = hexgrid.DIRECTIONS[ex["dir"]]
                far_exit = (exit_hex[0] + dq * k, exit_hex[1] + dr * k)
                rotation, offset = hexgrid.placement(ENTRY, ENTRY_DIR, far_exit, ex["dir"])
                center = hexgrid.transform((0, 0), rotation, offset)
                if all(hexgrid.distance(center, h) > RADIUS + 1 for h in covered):
                    break
                k += 1
            new = lay(game, tdef, rotation, offset, tile_ent, tile.depth + 1, main, tile.section + 1)
            entry = world.get(new, MapTile).entry
            cost = game.params["ladder_cost"]
            world.create(Kind("ladder"), Position(exit_hex[0], exit_hex[1], HEX), LadderLink(list(entry), cost))
            world.create(Kind("ladder"), Position(entry[0], entry[1], HEX), LadderLink(list(exit_hex), cost))
            ex["state"] = "ladder"
            tally(game).bump("ladders")
            game.log("ladder", tile=tile_ent, exit=i, to=new, at=list(exit_hex), far=entry)
        else:
            new = lay(game, tdef, rotation, offset, tile_ent, tile.depth + 1, main, tile.section)
            ex["state"] = "placed"
        ex["to"] = new
        if not tdef.safe:
            tile_card(game, new)


def _free_spawn(board: Board, tile: MapTile, number: int, occupied: set[Hex]) -> Hex | None:
    """Spawn hex `number` (1..6), or the next numbered hex that is free, or None."""
    for k in range(6):
        q, r = tile.spawn[(number - 1 + k) % 6]
        h = (q, r)
        if board.free(h) and h not in occupied:
            return h
    return None


def tile_card(game: Game, tile_ent: int) -> None:
    """Draw Tile Card: its initial zombies (inactive, lying down), items and hazard hexes go on
    the numbered hexes a D6 gives; an ongoing effect is kept beside the tile (`effects`)."""
    _de, deck = game.deck(TILE_CARDS)
    _cid, card = game.draw(deck, "tile card")
    row = game.tables["director.tile_cards"].rows[card.face]
    assert isinstance(row, TileCard)
    tile = game.world.get(tile_ent, MapTile)
    tile.card = row.face
    tile.director_mod = row.director
    if row.ongoing:
        tile.effects = sorted([row.name] + (["zombies_here"] if row.placement == "here" else []))
    game.log("tile_card", tile=tile_ent, card=row.face)
    board = Board(game)
    taken: set[Hex] = set()
    for _ in range(row.zombies):
        h = _free_spawn(board, tile, game.roll("1d6", "tile card zombie hex"), taken)
        if h is not None:
            spawn_zombie(game, h, active=False)
            taken.add(h)
    items = game.tables["director.items"]
    for name in row.items:
        if name not in items:
            continue
        h = _free_spawn(board, tile, game.roll("1d6", "tile card item hex"), set(board.items))
        if h is not None and h not in board.items:
            board.items[h] = game.world.create(Kind("item"), Position(h[0], h[1], HEX), FloorItem(name))
            game.log("item_placed", item=name, at=list(h))
    for _ in range(row.hazards):
        q, r = tile.spawn[game.roll("1d6", "tile card hazard hex") - 1]
        if [q, r] not in tile.hazards:
            tile.hazards.append([q, r])
            tile.hazards.sort()


def open_exits(tile: MapTile) -> bool:
    return any(ex["state"] == "open" for ex in tile.exits)


# -- Admin: Remove Vacated Tiles ------------------------------------------------------------------


def _adjacent_tiles(tiles: dict[int, MapTile], tile_of: dict[Hex, int]) -> dict[int, set[int]]:
    """Which tiles touch which (a hex of one next to a hex of the other), from which tile each hex
    is on (`Board.tile_of`): each pair of neighbouring hexes looked at once (three directions of six)."""
    out: dict[int, set[int]] = {e: set() for e in tiles}
    get = tile_of.get
    for (q, r), ent in tile_of.items():
        for n in ((q + 1, r), (q + 1, r - 1), (q, r - 1)):
            other = get(n)
            if other is not None and other != ent:
                out[ent].add(other)
                out[other].add(ent)
    return out


@system("director.remove_tiles",
        reads=("MapTile", "Position", "Faction", "LadderLink", "FloorItem", "DirectorState", "Kind", "Markers",
               "Owner", "Tally"),
        writes=("MapTile", "Tally"))
def remove_tiles(game: Game) -> None:
    """Admin, "Remove Vacated Tiles": a tile with no player on it or on an adjacent tile goes, and
    so does every section all players have left through a ladder or sewer. DESIGN CHOICE for "only
    along the main route where the route branched": while any player stands on a branch tile
    nothing is removed, and a tile is only removed when it lies behind every player (its depth is
    below the shallowest player's), so a branch ahead of the team stays."""
    world = game.world
    tiles = {e: t for e, t in world.query1(MapTile)}
    board = Board(game)
    on: dict[int, int] = {}
    for s in survivors(game):
        ent = board.tile_of.get(hex_of(world.get(s, Position)))
        if ent is not None:
            on[s] = ent
    if not on or any(not tiles[t].main for t in on.values()):
        return
    occupied = set(on.values())
    shallowest = min(tiles[t].depth for t in occupied)
    low_section = min(tiles[t].section for t in occupied)
    # which tiles touch changes only when a tile is laid or goes (a tile's hexes never change)
    adj = world.memo(("director/touching",), (MapTile,), lambda: _adjacent_tiles(tiles, board.tile_of))
    doomed = []
    for ent in sorted(tiles):
        t = tiles[ent]
        if ent in occupied or t.safe:  # DESIGN CHOICE: the safe room, once laid, stays
            continue
        left_behind = t.section < low_section
        vacated = not (adj[ent] & occupied) and t.depth < shallowest
        if left_behind or vacated:
            doomed.append(ent)
    for ent in doomed:
        _remove_tile(game, ent, tiles[ent])


def _remove_tile(game: Game, ent: int, tile: MapTile) -> None:
    """Take a tile off the table with everything on it (zombies, items, ladder ends)."""
    world = game.world
    hexes = {(q, r) for q, r in tile.hexes}
    for e, pos in world.query1(Position):
        if (pos.x, pos.y) not in hexes:
            continue
        fac = world.try_get(e, Faction)
        if fac is not None and fac.side == "survivors":
            continue
        world.delete(e)
    world.delete(ent)
    tally(game).bump("tiles_removed")
    game.log("tile_removed", tile=ent, name=tile.name)
