"""A tiny square-grid game paced by the core pacer (tests/director/test_director_core_pacer.py):
zombies come in at one square and shamble at one survivor who bites back. Nothing of the Director
game (no hex, no tile, no director card): it shows that `core.pacer` and `core.intensity` need only
figures with `Intensity` and `Wounds` and a `summon` step (issue 11, point 7)."""

from __future__ import annotations

from typing import Any

from ecs_zombie.boards import distance, require_grid
from ecs_zombie.components import SQUARE, Faction, Kind, Position, Tally, Wounds
from ecs_zombie.game import Game
from ecs_zombie.registry import metrics
from ecs_zombie.schedule import system
from ecs_zombie.systems.core.pacing import Intensity


def _figures(game: Game, side: str) -> list[tuple[int, Position]]:
    found = [(e, game.world.get(e, Position))
             for e, f in game.world.query1(Faction) if f.side == side]
    return sorted(found)


@system("square.summon",
        reads=("Position", "Faction"),
        creates=("Kind", "Faction", "Position", "Wounds"))
def summon(game: Game, count: int, x: int = 0, y: int = 0) -> None:
    """The pacer's summons on a square grid: `count` zombies at the spawn square (x, y)."""
    for _ in range(count):
        game.world.create(Kind("zombie"), Faction("zombies"), Position(x, y, SQUARE), Wounds(0, 1))
    game.log("zombies_arrive", count=count, x=x, y=y)


@system("square.shamble",
        reads=("Position", "Faction", "Wounds", "Kind"),
        writes=("Position", "Wounds", "Intensity"))
def shamble(game: Game) -> None:
    """Each zombie steps one square (a king's move) towards the survivor, or bites them (one wound)
    when next to them; the survivor then kills one zombie beside them on a 4+ (a nearby kill)."""
    survivors = _figures(game, "survivors")
    zombies = _figures(game, "zombies")
    require_grid(survivors + zombies, SQUARE, "square.shamble")
    if not survivors:
        return
    hero, spot = survivors[0]
    for _ent, pos in zombies:
        if distance(pos, spot) <= 1:
            game.world.get(hero, Wounds).taken += 1
        else:
            pos.x += (spot.x > pos.x) - (spot.x < pos.x)
            pos.y += (spot.y > pos.y) - (spot.y < pos.y)
    beside = [e for e, pos in zombies if distance(pos, spot) <= 1]
    if beside and game.roll("1d6", "bite back") >= 4:
        game.world.delete(beside[0])
        game.world.get(hero, Intensity).kills += 1


@system("square.end", reads=("Wounds", "Faction", "Position", "Tally"), writes=("Tally",))
def end(game: Game) -> None:
    """The survivor falls at their wound limit."""
    game.world.query1(Tally)[0][1].bump("rounds")
    for ent, _pos in _figures(game, "survivors"):
        wounds = game.world.get(ent, Wounds)
        if wounds.taken >= wounds.limit:
            game.end("zombies")


@metrics("square.metrics")
def square_metrics(game: Game) -> dict[str, Any]:
    return {}
