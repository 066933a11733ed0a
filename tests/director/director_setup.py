"""Set-ups for Director-game rule tests: a laid start tile, survivors and zombies on exact hexes,
forced dice and cards, then one system at a time."""

from __future__ import annotations

from typing import Any

from ecs_zombie import Game
from ecs_zombie.components import Card, Deck, Faction, Health, Markers, Owner, Position
from ecs_zombie.systems.director.board import ammo_deck, director, survivors
from ecs_zombie.systems.director.components import AttackHand, FloorItem, LadderLink, MapTile
from tests.helpers import force as force  # re-exported for the rule tests
from tests.helpers import run_system as run_system


def setup(game: Game, keep_map: bool = False) -> list[int]:
    """Run the set-up, then (unless `keep_map`) leave only the start tile, its exit closed, and no
    zombies or items. Returns the survivors by seat."""
    game.tick = 1
    run_system(game, "director.setup")
    if not keep_map:
        world = game.world
        tiles = world.query1(MapTile)
        start = min(e for e, _t in tiles)
        for ent, tile in tiles:
            if ent == start:
                for ex in tile.exits:
                    ex["state"] = "closed"
            else:
                world.delete(ent)
        for ent, _z in world.query1(Faction):
            if world.get(ent, Faction).side == "zombies":
                world.delete(ent)
        for ent, _i in world.query1(FloorItem):
            world.delete(ent)
        for ent, _l in world.query1(LadderLink):
            world.delete(ent)
        stack = game.deck("tiles")[1]  # the tiles laid by the set-up go back on top of the stack
        stack.draw.extend(stack.discard)
        stack.discard.clear()
    return by_seat(game)


def by_seat(game: Game) -> list[int]:
    return sorted(survivors(game), key=lambda e: game.world.get(e, Owner).player)


def director_hand(game: Game, faces: list[str]) -> list[int]:
    """Take these director cards (by face) out of the director deck into the director's hand."""
    deck = game.deck("director")[1]
    out = []
    for face in faces:
        cid = next(c for c in deck.draw if game.world.get(c, Card).face == face)
        deck.draw.remove(cid)
        out.append(cid)
    director(game)[1].hand = out
    return out


def put(game: Game, ent: int, q: int, r: int) -> None:
    pos = game.world.get(ent, Position)
    pos.x, pos.y = q, r


def at(game: Game, ent: int) -> tuple[int, int]:
    pos = game.world.get(ent, Position)
    return (pos.x, pos.y)


def zombie(game: Game, q: int, r: int, *tags: str) -> int:
    comps = game.ruleset.prefabs["zombie"].build({"Position": {"x": q, "y": r}})
    ent = game.world.create(*comps)
    for t in tags:
        game.world.get(ent, Markers).add(t)
    return ent


def zombies_at(game: Game) -> dict[tuple[int, int], int]:
    out = {}
    for ent, f in game.world.query1(Faction):
        if f.side == "zombies":
            out[at(game, ent)] = ent
    return out


def hp(game: Game, ent: int, value: int | None = None) -> int:
    h = game.world.get(ent, Health)
    if value is not None:
        h.current = value
    return h.current


def tags(game: Game, ent: int) -> list[str]:
    return list(game.world.get(ent, Markers).tags)


def give_hand(game: Game, ent: int, faces: list[str], weapon: str = "pistol") -> list[int]:
    """Put exactly these attack cards (by face) in the survivor's hand for `weapon`."""
    deck = ammo_deck(game, ent, weapon)
    hand = game.world.get(ent, AttackHand)
    deck.discard.extend(hand.cards.get(weapon, []))
    chosen: list[int] = []
    for face in faces:
        for pile in (deck.draw, deck.discard):
            cid = next((c for c in pile if game.world.get(c, Card).face == face and c not in chosen), None)
            if cid is not None:
                pile.remove(cid)
                chosen.append(cid)
                break
        else:
            raise AssertionError(f"no {face} left in {weapon}")
    hand.cards[weapon] = chosen
    return chosen


def faces(game: Game, cards: list[int]) -> list[str]:
    return [game.world.get(c, Card).face for c in cards]


def deck_named(game: Game, name: str) -> Deck:
    return game.deck(name)[1]


def state(game: Game) -> Any:
    return director(game)[1]
