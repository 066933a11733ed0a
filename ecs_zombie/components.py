"""The component registry and the core components every ruleset shares.

Components are plain slotted dataclasses registered under a stable name: the name is what saves,
scenarios and `inspect` use, so renaming a class never breaks a save. Field values are limited to
what msgpack round-trips unchanged (int, str, bool, None, list, dict with str keys); tuples and sets
would come back as lists, so they are not allowed.

A field's annotation is its type, checked wherever a value comes from outside: prefab and scenario
YAML, and saves, which are decoded against it (`ecs_zombie.fields`). A field may say more in its
metadata: `entity_ids()` marks a field whose whole numbers are entity ids (`Engaged.opponents`,
`Deck.draw`; a save whose ids name no entity, or no entity with the named component, is refused),
`within(lo, hi)` bounds a number, `one_of(...)` lists the values a field takes.

Core components are deliberately generic (a zone, wounds, a faction, markers, a card, a deck) so
that a hybrid ruleset can run one game's systems over another game's pieces.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, TypeVar

from ecs_zombie.limits import MAX_PLAYERS

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ComponentType:
    """What the registry knows of a component class."""

    name: str
    cls: type
    fields: tuple[str, ...]
    getter: Callable[[Any], Any]


_BY_NAME: dict[str, ComponentType] = {}
_BY_CLASS: dict[type, ComponentType] = {}
# Entity-id fields declared by name for components whose class cannot say it itself (`declare_ids`).
_DECLARED_IDS: dict[str, dict[str, str]] = {}


def entity_ids(component: str = "") -> dict[str, Any]:
    """Field metadata: every whole number in the field's value is an entity id (of an entity that has
    `component`, when named): `draw: list[int] = field(default_factory=list, metadata=entity_ids("Card"))`."""
    return {"entity_ids": component}


def within(lo: int, hi: int) -> dict[str, Any]:
    """Field metadata: a number from `lo` to `hi` inclusive."""
    return {"within": (lo, hi)}


def one_of(*values: Any) -> dict[str, Any]:
    """Field metadata: one of these values."""
    return {"one_of": tuple(values)}


def points(size: int) -> dict[str, Any]:
    """Field metadata: a list of points, each a list of `size` whole numbers (hexes, squares), so
    that a rule may unpack each one: `hexes: list[list[int]] = field(..., metadata=points(2))`."""
    return {"points": size}


def declare_ids(name: str, **fields: str) -> None:
    """Which fields of the component registered as `name` hold entity ids (field -> the component
    those entities must have, or ""): for a component class that cannot carry `entity_ids()` metadata."""
    _DECLARED_IDS.setdefault(name, {}).update(fields)


def id_fields(name: str) -> dict[str, str]:
    """Field -> required component ("" for any) of every field of component `name` holding entity ids."""
    ctype = _BY_NAME.get(name)
    out = {}
    if ctype is not None:
        for f in dataclasses.fields(ctype.cls):
            if "entity_ids" in f.metadata:
                out[f.name] = f.metadata["entity_ids"]
    out.update(_DECLARED_IDS.get(name, {}))
    return out


def component(cls: type[T] | None = None, *, name: str | None = None) -> Any:
    """Register a dataclass as a component under `name` (default: the class name)."""

    def wrap(c: type[T]) -> type[T]:
        if not dataclasses.is_dataclass(c):
            c = dataclass(slots=True)(c)
        key = name or c.__name__
        names = tuple(f.name for f in dataclasses.fields(c))  # type: ignore[arg-type]
        known = _BY_NAME.get(key)
        if known is not None and (known.cls.__module__, known.cls.__qualname__) != (c.__module__, c.__qualname__):
            # Names are what saves store: two rulesets sharing one would load each other's pieces.
            raise ValueError(f"component name {key!r} is already registered by {known.cls.__module__}."
                             f"{known.cls.__qualname__}")
        getter: Callable[[Any], Any]
        if len(names) > 1:
            getter = attrgetter(*names)
        elif names:
            getter = _single(names[0])
        else:
            getter = _empty
        ctype = ComponentType(key, c, names, getter)
        _BY_NAME[key] = ctype
        _BY_CLASS[c] = ctype
        return c

    return wrap(cls) if cls is not None else wrap


def _single(name: str) -> Callable[[Any], tuple[Any]]:
    def get(obj: Any) -> tuple[Any]:
        return (getattr(obj, name),)

    return get


def _empty(obj: Any) -> tuple[()]:
    return ()


def by_name(name: str) -> ComponentType | None:
    return _BY_NAME.get(name)


def by_class(cls: type) -> ComponentType:
    return _BY_CLASS[cls]


def registered_components() -> dict[str, type]:
    """Registered component names and classes, sorted by name."""
    return {k: _BY_NAME[k].cls for k in sorted(_BY_NAME)}


# ---------------------------------------------------------------------------------------------
# Core components shared by every ruleset.
# ---------------------------------------------------------------------------------------------


SQUARE, HEX = "square", "hex"


@component
@dataclass(slots=True)
class Position:
    """A cell on a board that says which board: `grid` is `square` (x the column, y the row from the
    top; Stalingrad, Singapore) or `hex` (axial coordinates: x is q, y is r; the Director game).
    Games played in zones (Shambling) use `Zone` instead. A rule written for one grid checks it."""

    x: int = 0
    y: int = 0
    grid: str = field(default=SQUARE, metadata=one_of(SQUARE, HEX))


@component
@dataclass(slots=True)
class Facing:
    """Direction a figure faces: 0..7 clockwise from north on squares, 0..5 on hexes."""

    direction: int = field(default=0, metadata=within(0, 7))


@component
@dataclass(frozen=True, slots=True)
class Zone:
    """An abstract board area: the board (one per player where each has their own) and the zone's name.

    Frozen: moving a piece replaces its Zone (`world.add(ent, Zone(board, name))`), which is a
    structural change, so results memoised per zone (`World.memo`) can never go stale."""

    board: int = 0
    name: str = ""


@component
@dataclass(slots=True)
class Wounds:
    """Damage: `taken` counts up from 0 against what the figure can take, `limit`. Every game uses
    it: wounds (Shambling, Stalingrad: at `limit` the figure is out), hit points (the Director
    game) and Stamina (Singapore Zombie Apocalypse) are `left`, which may go below 0 where a game
    lets a figure fall past it. What happens at the limit is each game's own rule."""

    taken: int = 0
    limit: int = 2

    @property
    def left(self) -> int:
        """Hit points or Stamina left: `limit - taken`."""
        return self.limit - self.taken

    @left.setter
    def left(self, value: int) -> None:
        self.taken = self.limit - value


@component
@dataclass(frozen=True, slots=True)
class Faction:
    """Which side a piece fights for (`survivors`, `zombies`, ...).

    Frozen, like `Zone`: a piece changing sides gets a new Faction (`world.add`), so indexes and
    memoised values keyed by side stay true."""

    side: str = ""


@component
@dataclass(slots=True)
class Kind:
    """The piece's type in the game's own words (`survivor`, `hero`, `zombie`, `walker`, ...)."""

    name: str = ""


@component
@dataclass(slots=True)
class Markers:
    """Status markers and tokens, kept sorted so that equal sets encode equally."""

    tags: list[str] = field(default_factory=list)

    def has(self, tag: str) -> bool:
        return tag in self.tags

    def add(self, tag: str) -> None:
        if tag not in self.tags:
            self.tags.append(tag)
            self.tags.sort()

    def discard(self, tag: str) -> None:
        if tag in self.tags:
            self.tags.remove(tag)


@component
@dataclass(slots=True)
class Owner:
    """The player (seat index) a piece belongs to."""

    player: int = field(default=0, metadata=within(0, MAX_PLAYERS - 1))


@component
@dataclass(slots=True)
class Engaged:
    """Enemy pieces this one is in contact with (base to base, locked, engaged), by entity id, sorted."""

    opponents: list[int] = field(default_factory=list, metadata=entity_ids())


@component
@dataclass(frozen=True, slots=True)
class Card:
    """A card: its face as printed (`7H`, `JK`, `MISS`), its value, its suit and the deck it belongs to.

    Frozen: what is printed never changes, and snapshots reuse the encoding of a card from tick to tick."""

    face: str = ""
    value: int = 0
    suit: str = ""
    deck: str = ""


@component
@dataclass(slots=True)
class Deck:
    """A deck's piles as lists of card entity ids; the top of `draw` is its last element."""

    name: str = ""
    draw: list[int] = field(default_factory=list, metadata=entity_ids("Card"))
    discard: list[int] = field(default_factory=list, metadata=entity_ids("Card"))


@component
@dataclass(slots=True)
class Tally:
    """Running counts a ruleset keeps (zombies destroyed, figures fled, ...), by name."""

    counts: dict[str, int] = field(default_factory=dict)

    def bump(self, key: str, by: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + by
        if list(self.counts) != sorted(self.counts):
            self.counts = {k: self.counts[k] for k in sorted(self.counts)}
