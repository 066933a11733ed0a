"""Components that are Escape from Stalingrad Z's own: arms and ammo, a character's activation,
doors, search squares, zombies waiting for a spawn square, and the round's order.

Everything else (position, facing, wounds, markers, locks as `Engaged`, tallies) is a core component.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ecs_zombie.components import component


@component
@dataclass(slots=True)
class Arsenal:
    """A character's weapons (names in the weapons table, every one readied), ammo per weapon that
    uses it, and gear (items that may be passed to an adjacent character)."""

    weapons: list[str] = field(default_factory=list)
    ammo: dict[str, int] = field(default_factory=dict)
    gear: list[str] = field(default_factory=list)


@component
@dataclass(slots=True)
class ActivationState:
    """This round's activation of a character: the declared mode, movement points left, whether it
    has activated and attacked, and its covering token's value (-1: no token)."""

    mode: str = ""
    mp: int = 0
    activated: bool = False
    attacked: bool = False
    covering: int = -1


@component
@dataclass(slots=True)
class DoorState:
    """A door on a door square of the map (the entity's `Position`); open or closed."""

    open: bool = False


@component
@dataclass(slots=True)
class SearchSpot:
    """A square the scenario lets characters search, once."""

    searched: bool = False


@component
@dataclass(slots=True)
class AwaitingSpawn:
    """A zombie held off the board until its spawn square (x, y) is free."""

    x: int = 0
    y: int = 0


@component
@dataclass(slots=True)
class StalingradRound:
    """The round's order (`characters` or `zombies` first) and whether the game's setup is done."""

    first: str = "survivors"
    setup: bool = False
    spawned: int = 0
