"""Components that are the Director game's own: tiles, inventories, hands, the director.

Everything else (positions, hit points, markers, cards, decks, tallies, and the pacing's
`Intensity` and `PacerState` of `systems/core/pacing.py`) is a core component.
Hexes are stored as `[q, r]` lists (saves keep no tuples).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ecs_zombie.components import component, points


@component
@dataclass(slots=True)
class MapTile:
    """A map tile laid on the table ("Place New Tile"), in map coordinates.

    `hexes` are walkable hexes; `spawn` the hexes numbered 1..6 (index 0 is hex 1); each exit is
    `{hex, dir, state, to}` with state `open`, `placed` (a tile is laid against it), `ladder`
    (blocked: a ladder/sewer link to a tile laid apart), or `closed` (the stack ran out). `depth`
    counts tiles from the start along the route, `main` is False on a branch, `section` grows at
    each ladder. `effects` are the ongoing effects of its tile card, kept beside the tile."""

    name: str = ""
    order: int = 0
    center: list[int] = field(default_factory=list)
    hexes: list[list[int]] = field(default_factory=list, metadata=points(2))
    spawn: list[list[int]] = field(default_factory=list, metadata=points(2))
    hazards: list[list[int]] = field(default_factory=list, metadata=points(2))
    exits: list[dict[str, Any]] = field(default_factory=list)
    entry: list[int] = field(default_factory=list)
    parent: int = 0
    depth: int = 0
    main: bool = True
    section: int = 0
    safe: bool = False
    card: str = ""
    director_mod: int = 0
    effects: list[str] = field(default_factory=list)


@component
@dataclass(slots=True)
class LadderLink:
    """A ladder or sewer: stepping from this hex to the other end costs `cost` movement points."""

    to: list[int] = field(default_factory=list)
    cost: int = 2


@component
@dataclass(slots=True)
class FloorItem:
    """An item lying on a hex (named after its row in the items table)."""

    name: str = ""


@component
@dataclass(slots=True)
class Loadout:
    """What a survivor carries: `hand` is the weapon or item in hand; the rest by name, sorted."""

    hand: str = ""
    weapons: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)


@component
@dataclass(slots=True)
class AttackHand:
    """Attack cards in hand, per weapon (card entity ids); the rest of a weapon's cards are in its deck."""

    cards: dict[str, list[int]] = field(default_factory=dict)


@component
@dataclass(slots=True)
class HeldBy:
    """A special infected holding this survivor: its kind, rounds left and damage per round."""

    by: str = ""
    rounds: int = 0
    damage: int = 0


@component
@dataclass(slots=True)
class AreaHazard:
    """An area effect on the map (Spitter acid, fire): hexes, damage per round, rounds left."""

    kind: str = ""
    hexes: list[list[int]] = field(default_factory=list)
    damage: int = 1
    rounds: int = 1


@component
@dataclass(slots=True)
class DirectorState:
    """The director's table: cards in hand and lurking, the suppressing-fire pile as [card, seat],
    this round's numbers, queued special attacks, the first player, and where this round's new
    zombies go when the director (not a card) says (`placement`, cleared once they are placed)."""

    first: int = 0
    hand: list[int] = field(default_factory=list)
    lurking: list[int] = field(default_factory=list)
    pile: list[list[int]] = field(default_factory=list)
    horde: int = 0
    suppress: int = 0
    spawned: int = 0
    specials: list[str] = field(default_factory=list)
    placement: str = ""
    tiles_placed: int = 0


@component
@dataclass(slots=True)
class StatusTimers:
    """Rounds left on timed status markers (e.g. `slimed`), by marker name, sorted."""

    left: dict[str, int] = field(default_factory=dict)
