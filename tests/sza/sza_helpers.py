"""Helpers for the Singapore Zombie Apocalypse tests: a laid-out board, pieces placed by hand."""

from __future__ import annotations

from typing import Any

from conftest import drive

from ecs_zombie import Game
from ecs_zombie.components import Health, Position
from ecs_zombie.dice import DiceScript
from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza.board import Board
from ecs_zombie.systems.sza.components import Character, Stage
from ecs_zombie.systems.sza.state import board_of, engage_square, stage_of

BUNGALOW = "prefabs/scenarios/sza/bungalow.yaml"
STREET = "prefabs/scenarios/sza/street.yaml"
CAMPAIGN = "prefabs/scenarios/sza/campaign.yaml"


def laid_out(make_game: Any, target: str = BUNGALOW, **kw: Any) -> Game:
    """A game whose first scenario's board is built (characters on their start squares, no zombies)."""
    game: Game = make_game(target, seed=kw.pop("seed", 1), **kw)
    drive(game, stage_mod.build(game))
    return game


def ctx(game: Game) -> tuple[Board, Stage]:
    _e, stage = stage_of(game)
    return board_of(game, stage), stage


def who(game: Game, name: str) -> int:
    for ent, ch in game.world.query1(Character):
        if ch.name == name:
            return ent
    raise KeyError(name)


def put(game: Game, ent: int, x: int, y: int) -> None:
    pos = game.world.get(ent, Position)
    pos.x, pos.y = x, y


def zombie(game: Game, x: int, y: int, stamina: int = 30) -> int:
    z = game.world.create(*game.ruleset.prefabs["zombie"].build(
        {"Position": {"x": x, "y": y}, "Health": {"current": stamina, "maximum": stamina}}))
    engage_square(game, z)
    return z


def dice(game: Game, *values: int) -> None:
    """Force the next dice (a d10 of 10 is the face 0)."""
    game.dice_script = DiceScript(list(values))


def stamina(game: Game, ent: int) -> int:
    return game.world.get(ent, Health).current


def clear_others(game: Game, keep: list[int]) -> None:
    """Park every other character in a far corner so that they stay out of the way."""
    for ent, _ch in game.world.query1(Character):
        if ent not in keep:
            put(game, ent, 1, 11)  # the level 1 pipe room
