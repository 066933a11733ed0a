"""Set-ups for Director-game rule tests: a laid start tile, survivors and zombies on exact hexes,
forced dice and cards, then one system at a time.

Rule tests reach components and names through the helpers here (`loadout`, `markers`, `SURVIVORS`,
deck names, ...), so that a rename of a component or a vocabulary word touches this file only.
`run_system` runs a system with the parameters its ruleset's YAML gives it (`$name` bound to the
game's parameters), which is how a game runs it; `run_defaults` runs it with its Python defaults."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ecs_zombie import Game
from ecs_zombie.components import HEX, Card, Deck, Faction, Kind, Markers, Owner, Position, Wounds
from ecs_zombie.decisions import Decision
from ecs_zombie.schedule import lookup
from ecs_zombie.systems.core.pacing import BUILD_UP as BUILD_UP  # re-exported: mode names
from ecs_zombie.systems.core.pacing import FADE as FADE
from ecs_zombie.systems.core.pacing import RELAX as RELAX
from ecs_zombie.systems.core.pacing import SUSTAIN as SUSTAIN
from ecs_zombie.systems.core.pacing import Intensity, PacerState, pacer_state
from ecs_zombie.systems.director.board import BOX as BOX  # re-exported: the ammo box's deck name
from ecs_zombie.systems.director.board import SURVIVORS, ZOMBIES, ammo_deck, director, side, survivors
from ecs_zombie.systems.director.components import (
    AttackHand,
    FloorItem,
    HeldBy,
    LadderLink,
    Loadout,
    MapTile,
    StatusTimers,
)
from ecs_zombie.systems.director.director import DIRECTOR_DECK
from ecs_zombie.systems.director.tiles import TILE_CARDS as TILE_CARDS  # re-exported: deck names
from ecs_zombie.systems.director.tiles import TILE_STACK, explore
from tests.helpers import ROOT, drive
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
            if world.get(ent, Faction).side == ZOMBIES:
                world.delete(ent)
        for ent, _i in world.query1(FloorItem):
            world.delete(ent)
        for ent, _l in world.query1(LadderLink):
            world.delete(ent)
        stack = game.deck(TILE_STACK)[1]  # the tiles laid by the set-up go back on top of the stack
        stack.draw.extend(stack.discard)
        stack.discard.clear()
    return by_seat(game)


def by_seat(game: Game) -> list[int]:
    return sorted(survivors(game), key=lambda e: game.world.get(e, Owner).player)


def pacer(game: Game) -> PacerState:
    """The adaptive director's pacing state (made as its first run would)."""
    return pacer_state(game)


def zombies_just_appeared(game: Game) -> None:
    """As if new zombies had appeared last round: the pacer's next look finds a zombie newer than
    the last it saw, so its growth starts again from 0."""
    pacer(game).zombie_mark = -1


def director_hand(game: Game, faces: list[str]) -> list[int]:
    """Take these director cards (by face) out of the director deck into the director's hand."""
    deck = game.deck(DIRECTOR_DECK)[1]
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
        if f.side == ZOMBIES:
            out[at(game, ent)] = ent
    return out


def hp(game: Game, ent: int, value: int | None = None) -> int:
    h = game.world.get(ent, Wounds)
    if value is not None:
        h.left = value
    return h.left


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


# -- running systems as the ruleset does ------------------------------------------------------------


def run_defaults(game: Game, name: str, answers: dict[str, Any] | None = None) -> list[Decision]:
    """Run system `name` with its own Python defaults, not the parameters the ruleset binds
    (`run_system` binds those, as a game does)."""
    spec = lookup(name)
    assert spec is not None, name
    return drive(game, spec.run(game, {}), answers)


def events(game: Game, kind: str, since: int = 0) -> list[dict[str, Any]]:
    """The data of every logged event of `kind` (from position `since` of the log)."""
    return [e[2] for e in game.events[since:] if e[1] == kind]


def mark(game: Game) -> int:
    """The log's current length, for `events(game, kind, since=mark(game))`."""
    return len(game.events)


def only(seat: int, answer: Any, others: Any = "none") -> Callable[[Decision], Any]:
    """An answer for the survivor in `seat`; every other survivor gives `others`."""
    me = side(seat)
    return lambda d: answer if d.side == me else (others(d) if callable(others) else others)


def stay(d: Decision) -> Any:
    """A move decision's answer: stay where you are."""
    return d.context["at"]


# -- components, reached through one place ---------------------------------------------------------


def loadout(game: Game, ent: int) -> Loadout:
    return game.world.get(ent, Loadout)


def markers(game: Game, ent: int) -> Markers:
    return game.world.get(ent, Markers)


def held(game: Game, ent: int) -> HeldBy | None:
    return game.world.try_get(ent, HeldBy)


def timers(game: Game, ent: int) -> dict[str, int]:
    return game.world.get(ent, StatusTimers).left


def intensity(game: Game, ent: int, value: int | None = None) -> int:
    i = game.world.get(ent, Intensity)
    if value is not None:
        i.value = value
    return i.value


def max_hp(game: Game, ent: int) -> int:
    return game.world.get(ent, Wounds).limit


def set_max_hp(game: Game, ent: int, value: int) -> None:
    """Both the maximum and the hit points left."""
    w = game.world.get(ent, Wounds)
    w.limit, w.taken = value, 0


def hand_faces(game: Game, ent: int, weapon: str = "pistol") -> list[str]:
    return faces(game, game.world.get(ent, AttackHand).cards.get(weapon, []))


def equip(game: Game, ent: int, hand: str, items: list[str] | None = None) -> None:
    """Put `hand` in the survivor's hand (and these items in their inventory)."""
    inv = loadout(game, ent)
    if items is not None:
        inv.items = sorted(items)
    inv.hand = hand


def item(game: Game, name: str, q: int, r: int) -> int:
    """An item lying on hex (q, r)."""
    return game.world.create(Kind("item"), Position(q, r, HEX), FloorItem(name))


def floor_items(game: Game) -> list[tuple[int, int, str]]:
    return sorted((game.world.get(e, Position).x, game.world.get(e, Position).y, i.name)
                  for e, i in game.world.query1(FloorItem))


def ladders(game: Game) -> dict[tuple[int, int], list[int]]:
    return {(p.x, p.y): link.to for _e, (p, link) in game.world.query(Position, LadderLink)}


# -- the map ---------------------------------------------------------------------------------------


def tiles(game: Game) -> dict[int, MapTile]:
    return dict(game.world.query1(MapTile))


def start_tile(game: Game) -> tuple[int, MapTile]:
    ent = min(tiles(game))
    return ent, tiles(game)[ent]


def tile(game: Game, ent: int) -> MapTile:
    return game.world.get(ent, MapTile)


def lay_after(game: Game, parent: int, cards: list[str], dice: list[int] | None = None) -> list[int]:
    """Lay tiles at the open exits of `parent` with these tiles and tile cards forced (in draw
    order: tile, its card, next tile, its card, ...) and these dice; returns the new tiles."""
    before = set(tiles(game))
    force(game, dice=dice or [], cards=cards)
    explore(game, parent)
    return sorted(set(tiles(game)) - before)


def east_tile(game: Game, face: str = "ALLEY", card: str = "QUIET", dice: list[int] | None = None) -> int:
    """Open the start tile's exit and lay `face` against it (unrotated, centre (5, 0))."""
    start, t = start_tile(game)
    t.exits[0]["state"] = "open"
    (new,) = lay_after(game, start, [face, card], dice)
    return new


def survivor_hexes(game: Game) -> dict[tuple[int, int], int]:
    return {at(game, e): e for e, f in game.world.query1(Faction) if f.side == SURVIVORS}


# -- replaced tables --------------------------------------------------------------------------------

SHIPPED = ROOT / "prefabs" / "director"

SCENARIO = """ruleset: director
name: a scenario with one table replaced
players: 2
tables: {{{table}: bad.yaml}}
entities:
  - {{prefab: director}}
  - {{prefab: survivor, per_player: true, set: {{Owner: {{player: $player}}}}}}
decks:
  - {{name: director, table: director.cards}}
  - {{name: tiles, table: director.tiles}}
  - {{name: tile_cards, table: director.tile_cards}}
  - {{name: ammo, table: director.weapons}}
"""


def scenario_with(tmp_path: Path, table: str, file: str, old: str | None, new: str) -> Path:
    """A scenario whose `table` is the shipped `file` with `old` replaced by `new` (or, with `old`
    None, the whole table replaced by `new`)."""
    text = (SHIPPED / file).read_text()
    if old is None:
        text = new
    else:
        assert old in text, old
        text = text.replace(old, new, 1)
    (tmp_path / "bad.yaml").write_text(text)
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO.format(table=table))
    return path
