"""The system registry: every rule is a registered function with declared access.

A system is `fn(game, **params)`. When the rule involves a choice it is a generator that yields
`Decision`s; otherwise a plain function. It declares, by registered component name, what it
`reads`, what it `writes` (changes in place), what it `creates` (adds to new or existing
entities) and what it `removes` (takes from a piece that stays, or leaves out of a piece it builds
from a prefab: loading holds every piece of a kind to its prefab's components but these, see
`ecs_zombie.loading.kind_components`); the named steps it `calls` (with the parameters it passes
them), the parameters of its own that name steps (`step_params`), the decision kinds it `decides`,
and the ruleset parameters it reads from `game.params` (`uses`: for a setting that rules deep in a
game read; a system's own tunables are its function parameters, bound in YAML with `$name`), and
the components it reads only where they are present (`optional`: a seam that serves other games
too, which applies a rule of its own game only when that game's components are there). A ruleset
is checked against these declarations when it is loaded (an `optional` component needs no
provider), and strict mode (`ECS_ZOMBIE_STRICT=1`) holds every system to them while it runs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ecs_zombie.decisions import Decision

if TYPE_CHECKING:
    from ecs_zombie.game import Game

SystemResult = Generator[Decision, Any, None] | None
SystemFn = Callable[..., SystemResult]
Calls = tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True, slots=True)
class SystemSpec:
    """A registered system."""

    name: str
    fn: SystemFn
    reads: tuple[str, ...]
    writes: tuple[str, ...]
    creates: tuple[str, ...]
    doc: str
    calls: Calls = ()
    step_params: tuple[str, ...] = ()
    decides: tuple[str, ...] = ()
    uses: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    removes: tuple[str, ...] = ()

    def run(self, game: Game, params: dict[str, Any]) -> Iterator[Decision]:
        # A rule with a choice is a generator function; asking its result (rather than inspecting the
        # function) holds for compiled systems too, which `inspect` cannot see into.
        result = self.fn(game, **params)
        return _NO_DECISIONS if result is None else result

    @property
    def module(self) -> str:
        return getattr(self.fn, "__module__", "") or ""


_REGISTRY: dict[str, SystemSpec] = {}
_NO_DECISIONS: Iterator[Decision] = iter(())  # exhausted for good, so one serves every call


def _calls(calls: Mapping[str, Iterable[str]] | Iterable[str]) -> Calls:
    if isinstance(calls, str):
        calls = (calls,)
    if isinstance(calls, Mapping):
        return tuple(sorted((name, tuple(sorted(params))) for name, params in calls.items()))
    return tuple(sorted((name, ()) for name in calls))


def system(
    name: str,
    *,
    reads: tuple[str, ...] = (),
    writes: tuple[str, ...] = (),
    creates: tuple[str, ...] = (),
    calls: Mapping[str, Iterable[str]] | Iterable[str] = (),
    step_params: tuple[str, ...] = (),
    decides: tuple[str, ...] = (),
    uses: tuple[str, ...] = (),
    optional: tuple[str, ...] = (),
    removes: tuple[str, ...] = (),
) -> Callable[[SystemFn], SystemFn]:
    """Register `fn` as the system `name` (`<ruleset>.<rule>`, e.g. `shambling.combat`).

    `calls` names the steps the system runs with `game.run_step`: a list of names, or a mapping of
    each name to the parameters the system passes it (`{"strike": ("board", "zone", "side")}`), or
    `"*"` for a system that runs the steps its tables name (the table's `step_calls()` lists them,
    with what each entry passes, for loading to check)."""

    def wrap(fn: SystemFn) -> SystemFn:
        from ecs_zombie.signature import docstring

        known = _REGISTRY.get(name)
        if known is not None and (known.fn.__module__, known.fn.__qualname__) != (fn.__module__, fn.__qualname__):
            raise ValueError(f"system {name!r} registered twice")
        doc = docstring(fn)
        _REGISTRY[name] = SystemSpec(
            name, fn, tuple(reads), tuple(writes), tuple(creates), doc.splitlines()[0] if doc else "",
            _calls(calls), tuple(step_params), tuple(decides), tuple(uses), tuple(optional),
            tuple(removes),
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


def registered() -> dict[str, SystemSpec]:
    """Every registered system by name (those of the packages imported so far)."""
    return dict(sorted(_REGISTRY.items()))
