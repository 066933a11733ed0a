"""Small Stalingrad scenarios written to a temporary folder, and helpers to place figures and run one
rule with forced dice (imported by the test files beside it).

The game's own names (sides, the player, declared activations, markers) are imported from its modules
or named once here, and components are reached only through the helpers below, so that a rename of a
component or a constant touches this file alone.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import yaml

from ecs_zombie import Game, new_game
from ecs_zombie.components import Engaged, Facing, Kind, Markers, Position, Wounds
from ecs_zombie.decisions import Decision
from ecs_zombie.dice import DiceScript
from ecs_zombie.schedule import lookup
from ecs_zombie.systems.stalingrad.board import PLAYER, SURVIVORS, ZOMBIES, characters, move_figure, state, zombies
from ecs_zombie.systems.stalingrad.components import ActivationState, Arsenal, AwaitingSpawn, DoorState
from ecs_zombie.systems.stalingrad.round import setup
from ecs_zombie.systems.stalingrad.spawn import STRUCK
from ecs_zombie.systems.stalingrad.tables import MODES
from tests.helpers import drive

__all__ = ["ARRIVED", "CHARACTERS", "HIDDEN", "PLAYER", "RUNNING", "SEARCHING", "STATIONARY", "STRUCK", "STUNNED",
           "WALKING", "ZOMBIES"]

RUNNING, WALKING, STATIONARY, SEARCHING = MODES
CHARACTERS = SURVIVORS  # the characters' side (one side vocabulary in every game)
# Markers the systems put on zombies.
STUNNED, HIDDEN, ARRIVED = "stunned", "hidden", "arrived"

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
    "B": {"terrain": "open", "labels": ["spawn:B"]},
    "C": {"terrain": "open", "labels": ["spawn:C"]},
    "?": {"terrain": "open", "labels": ["search"]},
    "E": {"terrain": "open", "labels": ["exit"]},
}


def write_scenario(folder: Path, rows: list[str] | None = None, entities: list[dict[str, Any]] | None = None,
                   track: str = "-S", waves: list[dict[str, Any]] | None = None, allowed: bool = True,
                   ruleset: str = "stalingrad", escape_needed: int = 1, decks: bool = False,
                   shipped: tuple[str, ...] = (), extra: dict[str, Any] | None = None) -> str:
    """A scenario file beside its own map, track, spawn, search and victory tables; the tables named
    in `shipped` are the default scenario's (prefabs/stalingrad/<name>.yaml) instead; `extra` adds
    other tables of the ruleset (`{"weapons": {...}}` replaces stalingrad.weapons)."""
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
        **(extra or {}),
    }
    for name, body in tables.items():
        if name not in shipped:
            (folder / f"{name}.yaml").write_text(yaml.safe_dump(body, sort_keys=False))
    doc: dict[str, Any] = {
        "ruleset": ruleset,
        "name": "test",
        "tables": {f"stalingrad.{n}": f"stalingrad/{n}.yaml" if n in shipped else f"{n}.yaml" for n in tables},
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


def run(game: Game, steps: Generator[Decision, object, Any] | None,
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


# -- reading and setting components ----------------------------------------------------------------

def where(game: Game, ent: int) -> tuple[int, int]:
    p = game.world.get(ent, Position)
    return p.x, p.y


def move_to(game: Game, ent: int, x: int, y: int) -> None:
    move_figure(game, ent, (x, y))


def facing(game: Game, ent: int) -> int:
    return game.world.get(ent, Facing).direction


def wounds(game: Game, ent: int) -> int | None:
    """Wounds (or hits) taken; None once the figure has left the board."""
    return game.world.get(ent, Wounds).taken if game.world.exists(ent) else None


def set_wounds(game: Game, ent: int, taken: int) -> None:
    game.world.get(ent, Wounds).taken = taken


def wound_limit(game: Game, ent: int) -> int:
    return game.world.get(ent, Wounds).limit


def kind(game: Game, ent: int) -> str:
    return game.world.get(ent, Kind).name


def ammo(game: Game, ent: int) -> dict[str, int]:
    return dict(game.world.get(ent, Arsenal).ammo)


def set_ammo(game: Game, ent: int, weapon: str, n: int) -> None:
    game.world.get(ent, Arsenal).ammo[weapon] = n


def weapons(game: Game, ent: int) -> list[str]:
    return list(game.world.get(ent, Arsenal).weapons)


def gear(game: Game, ent: int) -> list[str]:
    return list(game.world.get(ent, Arsenal).gear)


def act_state(game: Game, ent: int) -> ActivationState:
    return game.world.get(ent, ActivationState)


def covering(game: Game, ent: int) -> int:
    return game.world.get(ent, ActivationState).covering


def set_covering(game: Game, ent: int, token: int) -> None:
    game.world.get(ent, ActivationState).covering = token


def declare(game: Game, ent: int, mode: str, mp: int | None = None) -> ActivationState:
    """As if the character had declared `mode` (with `mp` movement points left)."""
    act = game.world.get(ent, ActivationState)
    act.mode = mode
    if mp is not None:
        act.mp = mp
    return act


def has(game: Game, ent: int, tag: str) -> bool:
    return game.world.get(ent, Markers).has(tag)


def mark(game: Game, ent: int, tag: str) -> None:
    game.world.get(ent, Markers).add(tag)


def lock(game: Game, character: int, zombie_ent: int) -> None:
    game.world.get(character, Engaged).opponents.append(zombie_ent)


def waiting(game: Game) -> list[int]:
    """Zombies held off the board for their spawn square."""
    return [e for e, _a in game.world.query1(AwaitingSpawn)]


def door_open(game: Game, x: int, y: int) -> bool:
    for _e, (d, p) in game.world.query(DoorState, Position):
        if (p.x, p.y) == (x, y):
            return d.open
    raise KeyError((x, y))


def first(game: Game) -> str:
    """Who takes the first turn this round (after the initiative segment)."""
    return state(game)[0].first


def tally(game: Game) -> dict[str, int]:
    return dict(state(game)[1].counts)


def spawned(game: Game) -> int:
    return state(game)[0].spawned


def asked(decisions: list[Decision], kind_name: str) -> list[Decision]:
    return [d for d in decisions if d.kind == kind_name]


def whys(game: Game) -> list[str]:
    """The reason given with every die roll, in order."""
    return [e["why"] for e in events(game, "roll")]


def gone(game: Game, ent: int) -> bool:
    """The figure has left the board (killed, or escaped)."""
    return not game.world.exists(ent)


def remove(game: Game, ent: int) -> None:
    """Take a figure off the board (as if killed elsewhere)."""
    game.world.delete(ent)


def heuristic_choice(game: Game, kind_name: str, options: list[Any], **context: Any) -> Any:
    """What the `heuristic` policy answers to a decision of `kind_name` with these options."""
    from ecs_zombie.decisions import PolicyTable

    d = Decision(PLAYER, kind_name, list(options), context)
    return d.options[PolicyTable("heuristic").choose(game, d)]


def rule(game: Game, name: str, answers: dict[str, Any] | None = None, **params: Any) -> list[Decision]:
    """Run the registered system `name` as the game's ruleset schedules it: with the parameters the
    ruleset binds to it (`$name` read from the game's parameters), `params` overriding; decisions as
    `run` answers them."""
    spec = lookup(name)
    assert spec is not None, name
    bound: dict[str, Any] = {}
    for step in game.ruleset.scheduled():
        if step.label == name or step.spec.name == name:
            bound = dict(step.bound(game.params))
            break
    return drive(game, spec.run(game, {**bound, **params}), answers, policy="first")
