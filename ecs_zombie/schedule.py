"""The system registry: every rule is a registered function with declared component access.

A system is `fn(game, **params)`. When the rule involves a choice it is a generator that yields
`Decision`s; otherwise a plain function. It declares by registered component name what it `reads`,
what it `writes` (changes in place) and what it `creates` (adds to new or existing entities), so a
ruleset can be checked when it is loaded: every component a system reads must come from a prefab
or from a system that creates it.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ecs_zombie.decisions import Decision

if TYPE_CHECKING:
    from ecs_zombie.game import Game

SystemResult = Generator[Decision, Any, None] | None
SystemFn = Callable[..., SystemResult]


@dataclass(frozen=True, slots=True)
class SystemSpec:
    """A registered system."""

    name: str
    fn: SystemFn
    reads: tuple[str, ...]
    writes: tuple[str, ...]
    creates: tuple[str, ...]
    doc: str

    def run(self, game: Game, params: dict[str, Any]) -> Iterator[Decision]:
        # A rule with a choice is a generator function; asking its result (rather than inspecting the
        # function) holds for compiled systems too, which `inspect` cannot see into.
        result = self.fn(game, **params)
        return _NO_DECISIONS if result is None else result


_REGISTRY: dict[str, SystemSpec] = {}
_NO_DECISIONS: Iterator[Decision] = iter(())  # exhausted for good, so one serves every call


def system(
    name: str,
    *,
    reads: tuple[str, ...] = (),
    writes: tuple[str, ...] = (),
    creates: tuple[str, ...] = (),
) -> Callable[[SystemFn], SystemFn]:
    """Register `fn` as the system `name` (`<ruleset>.<rule>`, e.g. `shambling.combat`)."""

    def wrap(fn: SystemFn) -> SystemFn:
        known = _REGISTRY.get(name)
        if known is not None and (known.fn.__module__, known.fn.__qualname__) != (fn.__module__, fn.__qualname__):
            raise ValueError(f"system {name!r} registered twice")
        doc = inspect.getdoc(fn) or ""
        _REGISTRY[name] = SystemSpec(
            name, fn, tuple(reads), tuple(writes), tuple(creates), doc.splitlines()[0] if doc else "",
        )
        return fn

    return wrap


def load_package(package: str) -> None:
    """Import `ecs_zombie.systems.<package>` so that its systems register themselves."""
    importlib.import_module(f"ecs_zombie.systems.{package}")


def lookup(name: str) -> SystemSpec | None:
    if name not in _REGISTRY and "." in name:
        try:
            load_package(name.split(".", 1)[0])
        except ModuleNotFoundError:
            return None
    return _REGISTRY.get(name)

