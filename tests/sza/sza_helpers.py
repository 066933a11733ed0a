"""Helpers for the Singapore Zombie Apocalypse tests: a laid-out board, pieces placed by hand, and
small accessors for the components a test reads or sets.

Tests reach components only through the accessors below (and name sides and turn orders through the
constants re-exported here, taken from the game's own modules), so that a renamed component or
side word touches this file alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ecs_zombie import Game
from ecs_zombie.components import Engaged, Faction, Kind, Markers, Owner, Position, Wounds
from ecs_zombie.dice import DiceScript
from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza.board import Board
from ecs_zombie.systems.sza.components import Arms, Attributes, Character, Infection, Inventory, Stage, Vehicle
from ecs_zombie.systems.sza.moves import allowance, can_run, on_grass, path
from ecs_zombie.systems.sza.state import SURVIVORS, ZOMBIES, board_of, engage_square, stage_of
from ecs_zombie.systems.sza.turn import HUMANS, ZOMBIE_SIDE
from tests.helpers import drive, events, run_system

__all__ = ["HUMANS", "SURVIVORS", "ZOMBIES", "ZOMBIE_SIDE", "drive", "run_system"]

BUNGALOW = "prefabs/scenarios/sza/bungalow.yaml"
STREET = "prefabs/scenarios/sza/street.yaml"
CAMPAIGN = "prefabs/scenarios/sza/campaign.yaml"
NAMES = ("Bruce Long", "Mary Jacobs", "Dexter", "Costa Wang", "SGT Connor", "CPL Teoh")
PARK = (1, 11)  # a square of the level 1 pipe room, far from everything: where idle characters wait


# -- games and boards ---------------------------------------------------------------------------

def laid_out(make_game: Any, target: str = BUNGALOW, **kw: Any) -> Game:
    """A game whose first scenario's board is built (characters on their start squares, no zombies)."""
    game: Game = make_game(target, seed=kw.pop("seed", 1), **kw)
    drive(game, stage_mod.build(game))
    return game


def ctx(game: Game) -> tuple[Board, Stage]:
    _e, stage = stage_of(game)
    return board_of(game, stage), stage


def stage(game: Game) -> Stage:
    return stage_of(game)[1]


def who(game: Game, name: str) -> int:
    for ent, ch in game.world.query1(Character):
        if ch.name == name:
            return ent
    raise KeyError(name)


def put(game: Game, ent: int, x: int, y: int) -> None:
    pos = game.world.get(ent, Position)
    pos.x, pos.y = x, y


def at(game: Game, ent: int) -> tuple[int, int]:
    pos = game.world.get(ent, Position)
    return pos.x, pos.y


def zombie(game: Game, x: int, y: int, stamina: int | None = None) -> int:
    """An NPC zombie from the ruleset's prefab on (x, y), engaging whoever stands there. `stamina`
    overrides its Stamina (current and total) where a test needs a sturdier or frailer one."""
    over: dict[str, Any] = {"Position": {"x": x, "y": y}}
    if stamina is not None:
        over["Wounds"] = {"taken": 0, "limit": stamina}
    z = game.world.create(*game.ruleset.prefabs["zombie"].build(over))
    engage_square(game, z)
    return z


def clear_others(game: Game, keep: list[int]) -> None:
    """Park every other character in a far corner so that they stay out of the way."""
    for ent, _ch in game.world.query1(Character):
        if ent not in keep:
            put(game, ent, *PARK)


def alone(game: Game, name: str, x: int, y: int) -> int:
    """The named character on (x, y), every other one parked."""
    ent = who(game, name)
    clear_others(game, [ent])
    put(game, ent, x, y)
    return ent


# -- dice ---------------------------------------------------------------------------------------

def dice(game: Game, *values: int) -> None:
    """Force the next dice (a d10 of 10 is the face 0)."""
    game.dice_script = DiceScript(list(values))


def d100(n: int) -> list[int]:
    """The two d10s (tens, units; a face 0 is scripted as 10) that read as the percentile `n`."""
    assert 1 <= n <= 100
    tens, units = divmod(n % 100, 10)
    return [tens or 10, units or 10]


def kinds(game: Game, *wanted: str) -> list[str]:
    """The kinds of the logged events, in order (only those in `wanted`, when given)."""
    return [e[1] for e in game.events if not wanted or e[1] in wanted]


def logged(game: Game, kind: str, **match: Any) -> list[dict[str, Any]]:
    """Every event of `kind` whose fields include `match`."""
    return [d for d in events(game, kind) if all(d.get(f) == v for f, v in match.items())]


def rolled(game: Game, why: str) -> list[tuple[str, list[int]]]:
    """Every roll logged with reason `why`: (dice notation, values)."""
    return [(d["dice"], d["values"]) for d in logged(game, "roll", why=why)]


# -- components ---------------------------------------------------------------------------------

def stamina(game: Game, ent: int) -> int:
    return game.world.get(ent, Wounds).left


def total_stamina(game: Game, ent: int) -> int:
    return game.world.get(ent, Wounds).limit


def set_stamina(game: Game, ent: int, current: int, total: int | None = None) -> None:
    h = game.world.get(ent, Wounds)
    if total is not None:
        h.limit = total  # the total first: Stamina left is counted against it
    h.left = current


def attrs(game: Game, ent: int) -> Attributes:
    return game.world.get(ent, Attributes)


def set_attrs(game: Game, ent: int, **values: int) -> None:
    a = attrs(game, ent)
    for name, value in values.items():
        setattr(a, name, value)


def arms(game: Game, ent: int) -> Arms:
    return game.world.get(ent, Arms)


def items(game: Game, ent: int) -> dict[str, int]:
    return game.world.get(ent, Inventory).items


def add_item(game: Game, ent: int, item: str, n: int = 1) -> None:
    game.world.get(ent, Inventory).add(item, n)


def infection(game: Game, ent: int) -> Infection:
    return game.world.get(ent, Infection)


def character(game: Game, ent: int) -> Character:
    return game.world.get(ent, Character)


def give(game: Game, ent: int, *abilities: str) -> None:
    """The character's special abilities become exactly these."""
    character(game, ent).abilities = list(abilities)


def side(game: Game, ent: int) -> str:
    return game.world.get(ent, Faction).side


def kind(game: Game, ent: int) -> str:
    return game.world.get(ent, Kind).name


def owner(game: Game, ent: int) -> int:
    return game.world.get(ent, Owner).player


def markers(game: Game, ent: int) -> Markers:
    return game.world.get(ent, Markers)


def engaged_with(game: Game, ent: int) -> list[int]:
    return list(game.world.get(ent, Engaged).opponents)


def exists(game: Game, ent: int) -> bool:
    return game.world.exists(ent)


def vehicle(game: Game) -> tuple[int, Vehicle]:
    ent, v = game.world.query1(Vehicle)[0]
    return ent, v


def zombies_on_board(game: Game) -> list[int]:
    return [e for e, f in game.world.query1(Faction) if f.side == ZOMBIES]


# -- custom boards ------------------------------------------------------------------------------

def custom_scenario(tmp_path: Path, board: str, scenario: str, entities: str) -> str:
    """A scenario file in `tmp_path` with its own maps and scenarios tables (YAML texts), for rules
    that need a board the shipped maps do not have (a road all of grass, a motorcycle, ...)."""
    (tmp_path / "maps.yaml").write_text(board)
    (tmp_path / "scenarios.yaml").write_text(scenario)
    (tmp_path / "test.yaml").write_text(
        "ruleset: sza\ntables: {sza.maps: maps.yaml, sza.scenarios: scenarios.yaml}\nentities:\n" + entities)
    return str(tmp_path / "test.yaml")


def with_rules(tmp_path: Path, scenario: str, **changes: Any) -> str:
    """`scenario` (a shipped scenario file) playing with the shipped rules table, some top-level
    entries or ability entries changed: `with_rules(tmp, BUNGALOW, salvage_bonus=10,
    abilities={"cqc": {"accuracy": 3}})`. For the readings and knobs the YAML offers."""
    import yaml

    root = Path(__file__).resolve().parents[2]
    doc = yaml.safe_load((root / "prefabs" / "sza" / "rules.yaml").read_text())
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(doc.get(key), dict):
            for sub, entry in value.items():
                if isinstance(entry, dict):
                    doc[key][sub].update(entry)
                else:
                    doc[key][sub] = entry
        else:
            doc[key] = value
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    (tmp_path / "s.yaml").write_text((root / scenario).read_text() + "tables: {sza.rules: rules.yaml}\n")
    return str(tmp_path / "s.yaml")


# -- a reference for the movement caches ------------------------------------------------------------

def reaches(game: Game, ent: int, goal: int, pace: str, board: Board, stage: Stage) -> bool:
    """Whether a walk (`pace` "walk") or a run ("run") ends on `goal` this turn, worked out the plain
    way from `path` (what `moves.Reach` keeps): "Movement Tables" allowances, and a running engagement
    never ends on grass ("Only the walking movement is allowed")."""
    walk, run = allowance(game, ent, board)
    if pace == "run" and (not can_run(game, ent, board) or on_grass(game, ent, board, goal)):
        return False
    way = path(game, ent, goal, walk if pace == "walk" else run, board, stage, pace == "run")
    return bool(way) and way[-1] == goal
