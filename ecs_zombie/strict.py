"""Strict mode: every system held to the access it declares, while it runs.

Loading checks what can be checked from declarations alone. Strict mode (`ECS_ZOMBIE_STRICT=1`,
`ecs-zombie run --strict`, `new_game(..., strict=True)`) checks what a system actually does:

- reading a component (`get`, `try_get`, `has`, queries, indexes, `raw()`) needs it in `reads`,
  `optional`, `writes` or `creates`;
- changing a component in place, or replacing one (`world.add` over an existing one), needs it in
  `writes`; adding one where there was none, or removing one, needs `creates` (or `writes`);
  deleting an entity needs every component it has among the declared ones (a system deletes only
  what it can see), except those the ruleset lists under `attached:` (components a hybrid adds to
  another game's figures, which go wherever the figure goes: made with it from its prefab by the
  other game's rule, deleted with it);
- `game.params[name]` needs `name` in `uses` (or bound with `$name` somewhere in the ruleset);
- `game.decide(side, kind, ...)` needs `kind` in `decides`; `game.run_step(name)` needs `name`
  in `calls` (or `calls="*"`: the steps its tables name, which loading checks).

An undeclared access raises `StrictError` naming the system's path, the component and the entity.
In-place writes are found by comparing each mutable component before and after every stretch a
system runs (between its decisions and around the steps it calls), so the system that wrote is
named even when it is a step deep inside another. Policies answering decisions run unchecked.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ecs_zombie import canonical
from ecs_zombie.components import by_class
from ecs_zombie.decisions import Decision
from ecs_zombie.errors import GameError

if TYPE_CHECKING:
    from ecs_zombie.game import Game
    from ecs_zombie.schedule import SystemSpec


class StrictError(GameError):
    """A system did something its declaration does not allow (strict mode)."""


def enabled() -> bool:
    return os.environ.get("ECS_ZOMBIE_STRICT", "") not in ("", "0")


@dataclass(slots=True)
class Frame:
    path: str
    spec: SystemSpec
    reads: frozenset[str]
    writes: frozenset[str]
    creates: frozenset[str]
    born: set[int]


def _frozen(t: type) -> bool:
    return bool(getattr(getattr(t, "__dataclass_params__", None), "frozen", False))


class Guard:
    """The checker of one game in strict mode (`game.guard`); the World asks it at each access."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.stack: list[Frame] = []
        self.before: dict[tuple[int, type], bytes] = {}
        self.bound = frozenset(ref for step in game.ruleset.scheduled() for _k, ref in step.refs)
        self.attached = frozenset(game.ruleset.attached)  # grafted onto other games' pieces (ruleset.py)

    # -- the frames of running systems -----------------------------------------------------------

    def run(self, path: str, spec: SystemSpec, params: dict[str, Any], caller: str | None = None
            ) -> Generator[Decision, Any, None]:
        """Run a system with its declarations enforced (`caller`: the path of the system that runs
        it as a step)."""
        if caller is not None and self.stack:
            self.check_call(path.rsplit("/", 1)[-1])
        self.enter(path, spec)
        gen: Iterator[Decision] = iter(())
        try:
            gen = spec.run(self.game, params)
            answer: Any = None
            first = True
            while True:
                try:
                    decision = next(gen) if first else gen.send(answer)  # type: ignore[attr-defined]
                except StopIteration:
                    return
                first = False
                self.leave()
                try:
                    answer = yield decision
                finally:
                    self.enter(path, spec)
        finally:
            self.leave()
            close = getattr(gen, "close", None)
            if close is not None:
                close()

    def enter(self, path: str, spec: SystemSpec) -> None:
        if self.stack:
            self._close_segment()
        self.stack.append(Frame(path, spec, frozenset((*spec.reads, *spec.writes, *spec.creates, *spec.optional,
                                           *spec.removes)),
                                frozenset(spec.writes), frozenset((*spec.creates, *spec.writes)), set()))
        self.before = self._snapshot()

    def leave(self) -> None:
        self._close_segment()
        self.stack.pop()
        self.before = self._snapshot() if self.stack else {}

    @property
    def frame(self) -> Frame | None:
        return self.stack[-1] if self.stack else None

    def _snapshot(self) -> dict[tuple[int, type], bytes]:
        out: dict[tuple[int, type], bytes] = {}
        for ent, comps in self.game.world.table().items():
            for t, comp in comps.items():
                if not _frozen(t):
                    out[(ent, t)] = canonical.pack(by_class(t).getter(comp))
        return out

    def _close_segment(self) -> None:
        frame = self.stack[-1]
        table = self.game.world.table()
        for (ent, t), was in self.before.items():
            comps = table.get(ent)
            comp = comps.get(t) if comps is not None else None
            if comp is None or ent in frame.born:
                continue
            name = by_class(t).name
            if name not in frame.writes and canonical.pack(by_class(t).getter(comp)) != was:
                self._fail(f"changed {name} of entity {ent}", "writes", frame.writes)

    def _fail(self, what: str, field: str, declared: frozenset[str]) -> None:
        frame = self.stack[-1]
        listed = ", ".join(sorted(declared)) or "nothing"
        message = (f"strict: system {frame.path} ({frame.spec.name}) {what} without declaring it "
                   f"({field}: {listed})")
        raise StrictError(message)

    # -- checks the World and the Game call --------------------------------------------------------

    def read(self, ctype: type) -> None:
        frame = self.frame
        if frame is not None:
            name = by_class(ctype).name
            if name not in frame.reads:
                self._fail(f"read {name}", "reads", frame.reads)

    def created(self, ent: int, components: Any) -> None:
        frame = self.frame
        if frame is None:
            return
        frame.born.add(ent)
        for comp in components:
            name = by_class(type(comp)).name
            if name not in frame.creates and name not in self.attached:
                self._fail(f"created entity {ent} with {name}", "creates", frame.creates)

    def added(self, ent: int, comp: Any, replaces: bool) -> None:
        frame = self.frame
        if frame is None or ent in frame.born:
            return
        name = by_class(type(comp)).name
        if replaces and name not in frame.writes:
            self._fail(f"replaced {name} of entity {ent}", "writes", frame.writes)
        if not replaces and name not in frame.creates:
            self._fail(f"added {name} to entity {ent}", "creates", frame.creates)

    def removed(self, ent: int, ctype: type) -> None:
        frame = self.frame
        if frame is not None and ent not in frame.born:
            name = by_class(ctype).name
            if name not in frame.spec.removes:
                self._fail(f"removed {name} from entity {ent}", "removes", frozenset(frame.spec.removes))

    def deleted(self, ent: int, types: Any) -> None:
        frame = self.frame
        if frame is None or ent in frame.born:
            return
        for t in types:
            name = by_class(t).name
            if name not in frame.reads and name not in self.attached:
                self._fail(f"deleted entity {ent}, which has {name}", "reads", frame.reads)

    def param(self, name: str) -> None:
        frame = self.frame
        if frame is not None and name not in frame.spec.uses and name not in self.bound:
            self._fail(f"read the ruleset parameter {name!r}", "uses", frozenset(frame.spec.uses))

    def decide(self, kind: str) -> None:
        frame = self.frame
        if frame is not None and kind not in frame.spec.decides:
            self._fail(f"asked a {kind} decision", "decides", frozenset(frame.spec.decides))

    def check_call(self, step: str) -> None:
        frame = self.frame
        if frame is None:
            return
        spec = frame.spec
        names = {name for name, _p in spec.calls}
        if "*" in names or step in names or spec.step_params:
            return
        self._fail(f"ran the step {step!r}", "calls", frozenset(names))


class StrictParams(dict[str, Any]):
    """The game's parameters in strict mode: reading one is checked against the running system's
    `uses` (what the game loop binds with `$name` is always allowed)."""

    guard: Guard | None = None

    def __getitem__(self, key: str) -> Any:
        if self.guard is not None:
            self.guard.param(key)
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        if self.guard is not None:
            self.guard.param(key)
        return dict.get(self, key, default)


class _CheckedComponents(dict[type, Any]):
    """One entity's components as `raw()` gives them in strict mode: each read is checked."""

    guard: Guard

    def __getitem__(self, ctype: type) -> Any:
        self.guard.read(ctype)
        return dict.__getitem__(self, ctype)

    def get(self, ctype: type, default: Any = None) -> Any:  # type: ignore[override]
        self.guard.read(ctype)
        return dict.get(self, ctype, default)

    def __contains__(self, ctype: object) -> bool:
        if isinstance(ctype, type):
            self.guard.read(ctype)
        return dict.__contains__(self, ctype)


def checked_table(table: dict[int, dict[type, Any]], guard: Guard) -> dict[int, dict[type, Any]]:
    """A copy of the world's table whose component reads are checked (components are the same
    objects, so changes made through it are the world's)."""
    out: dict[int, dict[type, Any]] = {}
    for ent, comps in table.items():
        checked = _CheckedComponents(comps)
        checked.guard = guard
        out[ent] = checked
    return out


def install(game: Game) -> Guard:
    """Put `game` in strict mode (its world must be a `StrictWorld`)."""
    guard = Guard(game)
    game.guard = guard
    game.world.guard = guard  # type: ignore[attr-defined]
    params = StrictParams(game.params)
    params.guard = guard
    game.params = params
    return guard
