"""The component registry and the core components every ruleset shares.

Components are plain slotted dataclasses registered under a stable name: the name is what saves,
scenarios and `inspect` use, so renaming a class never breaks a save. Field values are limited to
what msgpack round-trips unchanged (int, str, bool, None, list, dict with str keys); tuples and sets
would come back as lists, so they are not allowed.

Core components are deliberately generic (a zone, wounds, a faction, markers, a card, a deck) so
that a hybrid ruleset can run one game's systems over another game's pieces.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, TypeVar

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


@component
@dataclass(slots=True)
class Position:
    """A cell on a board: a square (x, y) or a hex in axial coordinates (q, r)."""

    x: int = 0
    y: int = 0


@component
@dataclass(slots=True)
class Facing:
    """Direction a figure faces: 0..7 clockwise from north on squares, 0..5 on hexes."""

    direction: int = 0


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
    """Wounds taken; a figure with `limit` wounds is removed from play."""

    taken: int = 0
    limit: int = 2


@component
@dataclass(slots=True)
class Health:
    """Hit points (or Stamina) for games that count down rather than up."""

    current: int = 1
    maximum: int = 1


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

    player: int = 0


@component
@dataclass(slots=True)
class Engaged:
    """Enemy pieces this one is in contact with (base to base, locked, engaged), by entity id, sorted."""

    opponents: list[int] = field(default_factory=list)


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
    draw: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)


@component
@dataclass(slots=True)
class Tally:
    """Running counts a ruleset keeps (zombies destroyed, figures fled, ...), by name."""

    counts: dict[str, int] = field(default_factory=dict)

    def bump(self, key: str, by: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + by
        if list(self.counts) != sorted(self.counts):
            self.counts = {k: self.counts[k] for k in sorted(self.counts)}
