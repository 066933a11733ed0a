"""The Director game's board as text: the hex tiles laid so far with the pieces on them (what
`replay --show`, `view` and the replay page draw; a ruleset names it with `board: director`).

Layout: pointy-top hexes in axial coordinates, one text row per hex row `r`, each hex at column
`2q + r` (so a row sits half a hex to the right of the one above, as on the table). Each hex is one
character; the character between two hexes of one row is `|` where they are on different tiles
that do not connect (tiles meet only where an exit meets the next tile's entry), else a space.

    A..D  a survivor by seat (lower case: down, at 0 hit points or less)
    Z     an active zombie;  z  an inactive one;  x  a stunned one
    +     an item on the floor;  #  a ladder or sewer end;  ~  a hazard (tile hazard, acid, fire)
    1..9  an empty hex of the tile laid in that order (the start tile is 1; the count goes on 0, 1,
          ... after 9)

Below the map: the tiles in the order laid (name, tile card, open exits, the safe room), each
survivor's hit points, what is in hand and who pins them, and the director's hand.

A drawing only reads: it builds its own view of the map (no memo written, no event logged).
"""

from __future__ import annotations

from ecs_zombie.components import Faction, Markers, Owner, Position, Wounds
from ecs_zombie.game import Game
from ecs_zombie.hexgrid import Hex
from ecs_zombie.registry import board
from ecs_zombie.systems.core.pacing import PacerState
from ecs_zombie.systems.director.board import SURVIVORS, ZOMBIES, _tile_map
from ecs_zombie.systems.director.components import (
    AreaHazard,
    DirectorState,
    FloorItem,
    HeldBy,
    LadderLink,
    Loadout,
    MapTile,
)

SEATS = "ABCD"
LEGEND = "A-D survivor (a-d down)  Z/z/x zombie active/inactive/stunned  + item  # ladder  ~ hazard  1-9 tile  | wall"


def _survivor_mark(game: Game, ent: int) -> str:
    seat = game.world.get(ent, Owner).player
    mark = SEATS[seat] if 0 <= seat < len(SEATS) else "?"
    return mark.lower() if game.world.get(ent, Wounds).left <= 0 else mark


def _zombie_mark(game: Game, ent: int) -> str:
    markers = game.world.try_get(ent, Markers)
    if markers is not None and markers.has("stun"):
        return "x"
    if markers is not None and markers.has("inactive"):
        return "z"
    return "Z"


def cells(game: Game) -> dict[Hex, str]:
    """Each hex of the map and the character drawn on it (pieces over items over ladders over
    hazards over the tile's number)."""
    world = game.world
    tiles = world.query1(MapTile)
    drawn: dict[Hex, str] = {}
    for _ent, tile in tiles:
        for q, r in tile.hexes:
            drawn[(q, r)] = str(tile.order % 10)
        for q, r in tile.hazards:
            drawn[(q, r)] = "~"
    for _ent, area in world.query1(AreaHazard):
        for q, r in area.hexes:
            if (q, r) in drawn:
                drawn[(q, r)] = "~"
    pieces: list[tuple[Hex, str]] = []  # (hex, mark) in drawing order: a figure over an item over a ladder
    for _ent, (pos, _link) in world.query(Position, LadderLink):
        pieces.append(((pos.x, pos.y), "#"))
    for _ent, (pos, _item) in world.query(Position, FloorItem):
        pieces.append(((pos.x, pos.y), "+"))
    for ent, (pos, fac) in world.query(Position, Faction):
        if fac.side == ZOMBIES:
            pieces.append(((pos.x, pos.y), _zombie_mark(game, ent)))
        elif fac.side == SURVIVORS:
            pieces.append(((pos.x, pos.y), _survivor_mark(game, ent)))
    for h, mark in pieces:
        if h in drawn:
            drawn[h] = mark
    return drawn


def map_lines(game: Game) -> list[str]:
    """The hex map alone, one line per row of hexes, trailing blanks removed."""
    tiles = game.world.query1(MapTile)
    drawn = cells(game)
    if not drawn:
        return ["(no tile laid yet)"]
    layout = _tile_map(tiles)
    tile_of, seams = layout.tile_of, layout.crossings
    left = min(2 * q + r for q, r in drawn)
    rows = sorted({r for _q, r in drawn})
    lines = []
    for r in range(rows[0], rows[-1] + 1):
        chars: dict[int, str] = {}
        for (q, rr), mark in drawn.items():
            if rr != r:
                continue
            col = 2 * q + r - left
            chars[col] = mark
            east = (q + 1, r)
            if east in drawn and tile_of[east] != tile_of[(q, r)] and ((q, r), east) not in seams:
                chars[col + 1] = "|"
        width = max(chars, default=-1) + 1
        lines.append("".join(chars.get(c, " ") for c in range(width)).rstrip())
    return lines


def _tile_line(tile: MapTile) -> str:
    notes = [tile.card] if tile.card else []
    open_exits = [ex for ex in tile.exits if ex["state"] == "open"]
    if open_exits:
        notes.append(f"{len(open_exits)} open exit{'s' if len(open_exits) > 1 else ''}")
    if tile.safe:
        notes.append("safe room")
    if not tile.main:
        notes.append("branch")
    return f"{tile.order % 10}={tile.name}" + (f" ({', '.join(notes)})" if notes else "")


@board("director")
def draw(game: Game) -> list[str]:
    """The hex tiles with their pieces, then the tiles, the survivors and the director in words."""
    world = game.world
    lines = map_lines(game)
    tiles = sorted((t for _e, t in world.query1(MapTile)), key=lambda t: t.order)
    lines.append("tiles: " + "  ".join(_tile_line(t) for t in tiles))
    seats = sorted((world.get(e, Owner).player, e) for e, f in world.query1(Faction) if f.side == SURVIVORS)
    for _seat, ent in seats:
        wounds, pos = world.get(ent, Wounds), world.get(ent, Position)
        loadout, held = world.try_get(ent, Loadout), world.try_get(ent, HeldBy)
        words = [f"{_survivor_mark(game, ent)} ({pos.x},{pos.y}) {wounds.left}/{wounds.limit} hp"]
        if loadout is not None and loadout.hand:
            words.append(f"{loadout.hand} in hand")
        if held is not None:
            words.append(f"held by a {held.by}")
        lines.append(", ".join(words))
    for _e, state in world.query1(DirectorState):
        words = [f"director: {len(state.hand)} card{'s' if len(state.hand) != 1 else ''} in hand",
                 f"{len(state.lurking)} lurking"]
        for _p, pacer in world.query1(PacerState):
            words.append(f"pacing {pacer.mode.replace('_', ' ')}")
        lines.append(", ".join(words))
    lines.append(LEGEND)
    return lines
