"""Small Stalingrad scenarios written to a temporary folder, and helpers to place figures and run one
rule with forced dice (imported by the test files beside it)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import yaml

from ecs_zombie import Game, new_game
from ecs_zombie.components import Engaged, Facing, Position
from ecs_zombie.decisions import Decision
from ecs_zombie.dice import DiceScript
from ecs_zombie.systems.stalingrad.board import characters, zombies
from ecs_zombie.systems.stalingrad.components import ActivationState
from ecs_zombie.systems.stalingrad.round import setup
from tests.helpers import drive

OPEN_MAP = [
    "............",
    "............",
    "............",
    "............",
    "............",
    "............",
    "............",
    "............",
]

LEGEND = {
    ".": {"terrain": "open"},
    "#": {"terrain": "wall"},
    "%": {"terrain": "obstructive"},
    "+": {"terrain": "door"},
    "/": {"terrain": "door", "open": True},
    "A": {"terrain": "open", "labels": ["spawn:A"]},
    "?": {"terrain": "open", "labels": ["search"]},
    "E": {"terrain": "open", "labels": ["exit"]},
}


def write_scenario(folder: Path, rows: list[str] | None = None, entities: list[dict[str, Any]] | None = None,
                   track: str = "-S", waves: list[dict[str, Any]] | None = None, allowed: bool = True,
                   ruleset: str = "stalingrad", escape_needed: int = 1, decks: bool = False) -> str:
    """A scenario file beside its own map, track, spawn, search and victory tables."""
    folder.mkdir(parents=True, exist_ok=True)
    if waves is None:
        waves = [{"square": "A", "count": 1}] if any("A" in r for r in rows or OPEN_MAP) else []
    tables = {
        "map": {"legend": LEGEND, "rows": rows or OPEN_MAP},
        "track": {"rounds": track},
        "spawn": {"waves": waves, "type_die": "1d12",
                  "types": [{"upto": 12, "type": "walker"}]},
        "search": {"allowed": allowed, "die": "1d12",
                   "results": [{"upto": 4, "result": "nothing"}, {"upto": 8, "result": "ammo", "amount": 2},
                               {"upto": 12, "result": "bandage", "amount": 1}]},
        "victory": {"escape_needed": escape_needed},
    }
    for name, body in tables.items():
        (folder / f"{name}.yaml").write_text(yaml.safe_dump(body, sort_keys=False))
    doc: dict[str, Any] = {
        "ruleset": ruleset,
        "name": "test",
        "tables": {f"stalingrad.{n}": f"{n}.yaml" for n in tables},
        "entities": [{"prefab": "game"}, *(entities or [])],
    }
    if decks:
        doc["decks"] = [{"name": "shambling", "table": "shambling.deck"}]
    path = folder / "scenario.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return str(path)


def char(prefab: str, x: int, y: int, facing: int = 2, **extra: Any) -> dict[str, Any]:
    sets: dict[str, Any] = {"Position": {"x": x, "y": y}, "Facing": {"direction": facing}}
    sets.update(extra)
    return {"prefab": prefab, "set": sets}


def zombie(kind: str, x: int, y: int) -> dict[str, Any]:
    return {"prefab": "zombie", "set": {"Kind": {"name": kind}, "Position": {"x": x, "y": y}}}


def make(folder: Path, entities: list[dict[str, Any]], seed: int = 1, **kw: Any) -> Game:
    """A game of a small scenario, set up (doors, search squares), at round 1."""
    game = new_game(write_scenario(folder, entities=entities, **{k: v for k, v in kw.items() if k != "dice"}), seed)
    game.tick = 1
    setup(game)
    game.dice_script = DiceScript(list(kw.get("dice", [])))
    return game


def dice(game: Game, values: list[int]) -> None:
    game.dice_script = DiceScript(values)


def run(game: Game, steps: Generator[Decision, int, Any] | None,
        answers: dict[str, Any] | None = None) -> list[Decision]:
    """Drive a rule's generator; `answers` maps a decision kind to an option or a function of it."""
    return [] if steps is None else drive(game, steps, answers, policy="first")


def events(game: Game, kind: str) -> list[dict[str, Any]]:
    return [e[2] for e in game.events if e[1] == kind]


def rolls(game: Game) -> list[list[int]]:
    return [e["values"] for e in events(game, "roll")]


def at(game: Game, x: int, y: int) -> int:
    for e in characters(game) + zombies(game):
        p = game.world.get(e, Position)
        if (p.x, p.y) == (x, y):
            return e
    raise KeyError((x, y))


def set_mode(game: Game, ent: int, mode: str) -> None:
    game.world.get(ent, ActivationState).mode = mode


def face(game: Game, ent: int, direction: int) -> None:
    game.world.get(ent, Facing).direction = direction


def lockers(game: Game, ent: int) -> list[int]:
    return list(game.world.get(ent, Engaged).opponents)


Answer = Callable[[Decision], Any]
