"""Board set-ups for Shambling rule tests: exact figures in exact zones, then one system at a time."""

from __future__ import annotations

from typing import Any

from ecs_zombie import Game
from ecs_zombie.components import Deck, Engaged, Faction, Kind, Markers, Wounds, Zone
from ecs_zombie.systems.shambling.board import figures
from tests.helpers import force as force  # re-exported for the rule tests
from tests.helpers import run_system as run_system


def board(game: Game, front: list[tuple[str, int]] = (), support: list[tuple[str, int]] = (),  # type: ignore[assignment]
          zombies_front: int = 0, zombies_support: int = 0, seat: int = 0) -> dict[str, list[int]]:
    """Replace seat's figures with the given ones: (kind, wounds) per survivor; returns ids by group."""
    for ent in figures(game, seat):
        game.world.delete(ent)
    prefabs = game.ruleset.prefabs
    out: dict[str, list[int]] = {"front": [], "support": [], "zombies_front": [], "zombies_support": []}
    for zone, specs in (("front", front), ("support", support)):
        for kind, wounds in specs:
            comps = prefabs[kind].build({"Zone": {"board": seat, "name": zone}, "Owner": {"player": seat},
                                         "Wounds": {"taken": wounds, "limit": 2}})
            out[zone].append(game.world.create(*comps))
    for zone, n in (("front", zombies_front), ("support", zombies_support)):
        for _ in range(n):
            comps = prefabs["zombie"].build({"Zone": {"board": seat, "name": zone}})
            out[f"zombies_{zone}"].append(game.world.create(*comps))
    return out


def dice_left(game: Game) -> int:
    return len(game.dice_script.values) - game.dice_script.pos


def wounds(game: Game, ent: int) -> int | None:
    return game.world.get(ent, Wounds).taken if game.world.exists(ent) else None


def zone_of(game: Game, ent: int) -> str:
    return game.world.get(ent, Zone).name


def survivors(game: Game, zone: str | None = None, seat: int = 0) -> list[int]:
    return list(figures(game, seat, "survivors", zone))


def zombies(game: Game, zone: str | None = None, seat: int = 0) -> list[int]:
    return list(figures(game, seat, "zombies", zone))


def contacts(game: Game, ent: int) -> list[int]:
    return list(game.world.get(ent, Engaged).opponents)


def kind(game: Game, ent: int) -> str:
    return game.world.get(ent, Kind).name


def tags(game: Game, ent: int) -> list[str]:
    return list(game.world.get(ent, Markers).tags)


def side(game: Game, ent: int) -> str:
    return game.world.get(ent, Faction).side


def cards_in_deck(game: Game) -> list[int]:
    _e, deck = game.deck("shambling")
    return deck.draw + deck.discard


def strikes(game: Game) -> list[dict[str, Any]]:
    return [e[2] for e in game.events if e[1] == "strike"]


_ = Deck
