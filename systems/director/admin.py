"""Set-up, the Admin phase, the end of the game, intensity and the game's numbers.

Set-up (DESIGN CHOICE, the text has none): the director, tile-card and tile decks are shuffled with
the safe room put at the bottom of the tile stack; the start tile is laid and the survivors stand
on it nearest its entry, each with a pistol, its ammo stack and a loaded clip; then the start
tile's open exits get their tiles, as for any tile a player enters.

Victory (DESIGN CHOICE, the text gives none): the survivors win when every survivor above 0 hit
points stands on the safe-room tile (the bottom of the tile stack); the zombies win when every
survivor is pinned at 0 hit points or less. `max_ticks` stops the rest ("timeout").
"""

from __future__ import annotations

from typing import Any

from ecs_zombie import hexgrid
from ecs_zombie.boards import HEX, require_grid
from ecs_zombie.components import Card, Markers, Position, Wounds
from ecs_zombie.errors import GameError
from ecs_zombie.game import Game
from ecs_zombie.registry import metrics
from ecs_zombie.schedule import system
from ecs_zombie.systems.core.pacing import Intensity, PacerState
from ecs_zombie.systems.director.board import (
    STACKS_PER_PLAYER,
    Board,
    director,
    hex_of,
    pinned,
    survivors,
    tally,
    zombies,
)
from ecs_zombie.systems.director.components import Loadout, MapTile
from ecs_zombie.systems.director.director import DIRECTOR_DECK
from ecs_zombie.systems.director.players import acquire_weapon
from ecs_zombie.systems.director.tables import ENTRY
from ecs_zombie.systems.director.tiles import TILE_CARDS, TILE_STACK, explore, place_start, tileset


@system("director.setup",
        reads=("DirectorState", "Deck", "Card", "Loadout", "Position", "Owner", "Faction"),
        writes=("Deck", "Position", "Loadout", "AttackHand", "DirectorState", "Tally"),
        creates=("MapTile", "Deck", "Position", "Kind", "FloorItem", "LadderLink", "Faction", "Markers"),
        uses=("ladder_cost",))
def setup(game: Game) -> None:
    """Before round 1: shuffle the decks, lay the start tile, arm the survivors, lay the first tiles."""
    if game.tick != 1:
        return
    require_grid(game.world.query1(Position), HEX, "the Director game")
    ents = survivors(game)
    copies = game.tables["director.weapons"].copies
    if len(ents) * STACKS_PER_PLAYER > copies:
        raise GameError(f"the Director game takes at most {copies // STACKS_PER_PLAYER} players (the ammo box "
                        f"holds {copies} stacks, {STACKS_PER_PLAYER} a player)")
    for name in (DIRECTOR_DECK, TILE_CARDS):
        game.shuffle(game.deck(name)[1], "start of game")
    _e, stack = game.deck(TILE_STACK)
    game.shuffle(stack, "start of game")
    safe = tileset(game).safe
    bottom = next(c for c in stack.draw if game.world.get(c, Card).face == safe)
    stack.draw.remove(bottom)
    stack.draw.insert(0, bottom)
    start = place_start(game)
    tile = game.world.get(start, MapTile)
    entry = (tile.entry[0], tile.entry[1])
    spots = sorted(((hexgrid.distance(entry, (q, r)), (q, r)) for q, r in tile.hexes), key=lambda t: (t[0], t[1]))
    for ent, (_d, h) in zip(ents, spots, strict=False):
        pos = game.world.get(ent, Position)
        pos.x, pos.y = h
        inv = game.world.get(ent, Loadout)
        for w in list(inv.weapons):
            acquire_weapon(game, ent, w)
        if not inv.hand:
            inv.hand = inv.weapons[0] if inv.weapons else ""
    game.log("setup", start=list(ENTRY))
    explore(game, start)


@system("director.rotate",
        reads=("DirectorState", "Owner", "Faction", "Markers", "Tally"),
        writes=("DirectorState", "Markers"))
def rotate(game: Game) -> None:
    """Move the First Player token clockwise by one player; this round's damage flags are cleared."""
    state = director(game)[1]
    state.first = (state.first + 1) % max(1, game.players)
    for ent in survivors(game):
        game.world.get(ent, Markers).discard("hurt")
    game.log("first_player", seat=state.first)


@system("director.victory",
        reads=("Position", "Faction", "Wounds", "Markers", "MapTile", "Owner", "DirectorState", "FloorItem",
               "LadderLink", "Tally"))
def victory(game: Game) -> None:
    """The game ends: the survivors' when every survivor above 0 hit points is on the safe-room tile,
    the zombies' when every survivor is pinned at 0 hit points or less."""
    ents = survivors(game)
    world = game.world
    if all(pinned(game, e) and world.get(e, Wounds).left <= 0 for e in ents):
        game.end("zombies")
        return
    board = Board(game)
    up = [e for e in ents if world.get(e, Wounds).left > 0]
    if up and all((t := board.tile_at(hex_of(world.get(e, Position)))) is not None and t.safe for e in up):
        game.end("survivors")


@metrics("director.metrics")
def director_metrics(game: Game) -> dict[str, Any]:
    world = game.world
    ents = survivors(game)
    board = Board(game)
    values = [world.get(e, Intensity).value for e in ents if world.try_get(e, Intensity) is not None]
    counts = tally(game).counts
    safe = sum(1 for e in ents if (t := board.tile_at(hex_of(world.get(e, Position)))) is not None and t.safe)
    pacer = next((p for _e, p in world.query1(PacerState)), None)
    return {
        "survivors_up": sum(1 for e in ents if world.get(e, Wounds).left > 0),
        "survivors_down": sum(1 for e in ents if world.get(e, Wounds).left <= 0),
        "in_safe_room": safe,
        "hit_points": sum(max(0, world.get(e, Wounds).left) for e in ents),
        "zombies_on_map": len(zombies(game)),
        "zombies_spawned": counts.get("zombies_spawned", 0),
        "zombies_killed": counts.get("zombies_killed", 0),
        "specials": counts.get("specials", 0),
        "tiles_placed": counts.get("tiles_placed", 0),
        "ladders": counts.get("ladders", 0),
        "damage_taken": counts.get("damage_taken", 0),
        "intensity_mean": round(sum(values) / len(values), 2) if values else 0.0,
        "intensity_max": max(values, default=0),
        "director_mode": pacer.mode if pacer is not None else "none",
        "pacer_cycles": pacer.cycles if pacer is not None else 0,
    }
