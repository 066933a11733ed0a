"""Board set-ups for Shambling rule tests: exact figures in exact zones, then one system at a time.

The game's own names (zones, sides, stances, piece kinds) are imported from its modules and
re-exported here, and components are reached only through the small helpers below, so that a rename
of a component or a constant touches this file alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ecs_zombie import Game
from ecs_zombie.components import Engaged, Faction, Kind, Markers, Owner, Wounds, Zone
from ecs_zombie.decisions import Decision
from ecs_zombie.engagement import engage
from ecs_zombie.schedule import lookup
from ecs_zombie.systems.shambling.board import DECK, FRONT, SUPPORT, SURVIVORS, ZOMBIES, board_state, figures
from ecs_zombie.systems.shambling.engage import CHARGE, STAND
from tests.helpers import drive
from tests.helpers import force as force  # re-exported for the rule tests
from tests.helpers import run_system as run_system

__all__ = ["CHARGE", "DECK", "FRONT", "HERO", "NARRATOR", "STAND", "SUPPORT", "SURVIVOR", "SURVIVORS", "ZOMBIE",
           "ZOMBIES", "force", "run_system"]

# The pieces' prefab names (the figures' `Kind`), as the scenario and the systems spell them.
HERO, SURVIVOR, ZOMBIE = "hero", "survivor", "zombie"
NARRATOR = "narrator"
TRACK = "shambling.narration"


def player(seat: int = 0) -> str:
    """The side name of a seat's survivor player."""
    return f"player:{seat}"


def board(game: Game, front: Sequence[tuple[str, int]] = (), support: Sequence[tuple[str, int]] = (),
          zombies_front: int | Sequence[int] = 0, zombies_support: int | Sequence[int] = 0,
          seat: int = 0) -> dict[str, list[int]]:
    """Replace seat's figures with the given ones: (kind, wounds) per survivor, and for zombies a
    count or a list of wounds per zombie. Every other value (the wound limit included) comes from
    the ruleset's prefab. Returns ids by group: front, support, zombies_front, zombies_support."""
    for ent in figures(game, seat):
        game.world.delete(ent)
    prefabs = game.ruleset.prefabs
    out: dict[str, list[int]] = {FRONT: [], SUPPORT: [], f"zombies_{FRONT}": [], f"zombies_{SUPPORT}": []}
    for zone, specs in ((FRONT, front), (SUPPORT, support)):
        for kind_name, taken in specs:
            comps = prefabs[kind_name].build({"Zone": {"board": seat, "name": zone}, "Owner": {"player": seat},
                                              "Wounds": {"taken": taken}})
            out[zone].append(game.world.create(*comps))
    for zone, spec in ((FRONT, zombies_front), (SUPPORT, zombies_support)):
        hurt = [0] * spec if isinstance(spec, int) else list(spec)
        for taken in hurt:
            comps = prefabs[ZOMBIE].build({"Zone": {"board": seat, "name": zone}, "Wounds": {"taken": taken}})
            out[f"zombies_{zone}"].append(game.world.create(*comps))
    return out


def run_unbound(game: Game, name: str, answers: dict[str, Any] | None = None, **params: Any) -> list[Decision]:
    """Run a system with only `params` (its own defaults for the rest), not the ruleset's bindings."""
    spec = lookup(name)
    assert spec is not None, name
    return drive(game, spec.run(game, params), answers)


def at_turn(game: Game, turn: int) -> Game:
    """Set the narration track's turn (the tick) as if the game had reached it."""
    game.tick = turn
    return game


def narrate(game: Game, turn: int, answers: dict[str, Any] | None = None) -> list[Decision]:
    """Run turn `turn`'s narrated steps (the track's `steps`, before the battle)."""
    return run_system(at_turn(game, turn), "core.narration", answers, track=TRACK)


def dice_left(game: Game) -> int:
    return len(game.dice_script.values) - game.dice_script.pos


def wounds(game: Game, ent: int) -> int | None:
    """Wounds a figure carries; None once it has left play."""
    return game.world.get(ent, Wounds).taken if game.world.exists(ent) else None


def set_wounds(game: Game, ent: int, taken: int) -> None:
    game.world.get(ent, Wounds).taken = taken


def undeployed(game: Game, seat: int = 0) -> list[int]:
    """The seat's figures not yet placed in a zone (a new game's, before deployment)."""
    return [e for e, z in game.world.query1(Zone) if z.board == seat and z.name == ""]


def wound_limit(game: Game, ent: int) -> int:
    return game.world.get(ent, Wounds).limit


def zone_of(game: Game, ent: int) -> str:
    return game.world.get(ent, Zone).name


def survivors(game: Game, zone: str | None = None, seat: int = 0) -> list[int]:
    return list(figures(game, seat, SURVIVORS, zone))


def zombies(game: Game, zone: str | None = None, seat: int = 0) -> list[int]:
    return list(figures(game, seat, ZOMBIES, zone))


def contacts(game: Game, ent: int) -> list[int]:
    return list(game.world.get(ent, Engaged).opponents)


def kind(game: Game, ent: int) -> str:
    return game.world.get(ent, Kind).name


def tags(game: Game, ent: int) -> list[str]:
    return list(game.world.get(ent, Markers).tags)


def mark(game: Game, ent: int, tag: str) -> None:
    game.world.get(ent, Markers).add(tag)


def owner(game: Game, ent: int) -> int:
    return game.world.get(ent, Owner).player


def has_owner(game: Game, ent: int) -> bool:
    return game.world.has(ent, Owner)


def side(game: Game, ent: int) -> str:
    return game.world.get(ent, Faction).side


def link(game: Game, a: int, b: int) -> None:
    """Put two enemy figures in contact, as the battle's assignment would."""
    engage(game.world, a, b)


def counter_charged(game: Game, chargers: Sequence[int], seat: int = 0) -> None:
    """The board's state after a counter-charge by `chargers` (what the pursuit roll reads)."""
    for ent in chargers:
        mark(game, ent, "charging")
    board_markers(game, seat).add("counter_charge")


def board_markers(game: Game, seat: int = 0) -> Markers:
    return board_state(game, seat)[0]


def board_fallen(game: Game, seat: int = 0) -> bool:
    return board_markers(game, seat).has("fallen")


def tally(game: Game, seat: int = 0) -> dict[str, int]:
    counts: dict[str, int] = board_state(game, seat)[1].counts
    return counts


def cards_in_deck(game: Game) -> list[int]:
    _e, deck = game.deck(DECK)
    return deck.draw + deck.discard


def events(game: Game, kind_name: str) -> list[dict[str, Any]]:
    """The data of every logged event of one kind, in order."""
    return [e[2] for e in game.events if e[1] == kind_name]


def timed(game: Game, kind_name: str) -> list[tuple[int, dict[str, Any]]]:
    """(turn, data) of every logged event of one kind, in order."""
    return [(e[0], e[2]) for e in game.events if e[1] == kind_name]


def strikes(game: Game) -> list[dict[str, Any]]:
    return events(game, "strike")


def rolls(game: Game) -> list[tuple[str, list[int]]]:
    """Every die roll: (why, values)."""
    return [(e["why"], e["values"]) for e in events(game, "roll")]


def asked(decisions: Sequence[Decision], kind_name: str) -> list[Decision]:
    return [d for d in decisions if d.kind == kind_name]

