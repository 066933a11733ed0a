"""One game's entities and components, on esper, sealed from every other game in the process.

esper keeps its database in module globals switched by world name. `World` owns a private world
name and switches to it before every call, so two games interleaved in one process can never see
each other's entities; one process-wide lock around each switch and esper call keeps games in
different threads as separate as games in different processes (reads go through the world's own
table and take no lock). Queries come back sorted by entity id (esper's own order is set order)
and as tuples (esper returns its cached lists by reference).
"""

from __future__ import annotations

import copy
import itertools
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar, overload

import esper

from ecs_zombie.index import GroupIndex, Groups, KeyFn

if TYPE_CHECKING:
    from ecs_zombie.saved_entities import SavedEntities

C = TypeVar("C")
C2 = TypeVar("C2")
C3 = TypeVar("C3")
C4 = TypeVar("C4")
T = TypeVar("T")

_serial = itertools.count(1)
# esper's module globals are one database at a time: every switch and every esper call holds this.
_ESPER = threading.RLock()


def _clone(value: Any) -> Any:
    """A copy of a component field value sharing nothing mutable (lists and mappings copied)."""
    if type(value) is list:
        return [v if type(v) in (int, str, bool, float) or v is None else _clone(v) for v in value]
    if type(value) is dict:
        return {k: v if type(v) in (int, str, bool, float) or v is None else _clone(v) for k, v in value.items()}
    return copy.deepcopy(value) if isinstance(value, list | dict) else value


def clone_component(comp: Any) -> Any:
    """A copy of a component: the same object when frozen (it never changes), else a fresh one."""
    cls = type(comp)
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and params.frozen:
        return comp
    fields = getattr(cls, "__dataclass_fields__", None)
    if fields is None:
        return copy.deepcopy(comp)
    return cls(*[_clone(getattr(comp, name)) for name in fields])


class World:
    """A private esper world. Call `close()` (or let the game do it) to free it."""

    __slots__ = ("_closed", "_comps", "_ents", "_indexes", "_memos", "_name", "_queries", "changes", "next_id")

    def __init__(self) -> None:
        self._name = f"ecs-zombie/{next(_serial)}"
        self._closed = False
        self.next_id = 1
        # Sorted query results by component types, and memoised values by (key, the component types
        # they depend on). A structural change (create, delete, add, remove) drops only the entries
        # whose types the changed entity has: a zombie dying leaves the deck's query cached.
        self._queries: dict[tuple[type, ...], tuple[Any, ...]] = {}
        self._memos: dict[tuple[Any, ...], tuple[frozenset[type], Any]] = {}
        self._indexes: dict[str, GroupIndex] = {}
        # Entities created, deleted, or given, relieved of or replaced a component since whoever
        # set this (the state encoder, `ecs_zombie.state`) last emptied it; None: nobody watches.
        # A change in place to a mutable component is not a change here: such entities are read
        # afresh every time.
        self.changes: set[int] | None = None
        with _ESPER:
            esper.switch_world(self._name)
            # This world's own entity table. esper swaps its module globals between worlds but keeps
            # each world's dict object for the world's lifetime, so reading through it needs no switch.
            self._ents: dict[int, dict[type, Any]] = esper._entities
            self._comps: dict[type, set[int]] = esper._components  # type -> its entities (no empty sets)

    def _refile(self, ent: int, changed: type | None = None) -> None:
        """Keep group indexes true after `ent` came, changed (`changed` type) or is about to go."""
        comps = self._ents.get(ent, {})
        for index in self._indexes.values():
            if changed is None or changed in index.types:
                index.place(ent, comps)

    def _changed(self, types: Iterable[type], changed: type | None = None) -> None:
        """Drop cached results an entity with component `types` could be part of (all of them when
        `changed` is None: the entity came or went; else only those involving the `changed` type)."""
        have = set(types)
        if changed is not None:
            have.add(changed)
        for key in [k for k in self._queries if (changed is None or changed in k) and have.issuperset(k)]:
            del self._queries[key]
        for key in [k for k, (dep, _v) in self._memos.items()
                    if (changed is None or changed in dep) and have.issuperset(dep)]:
            del self._memos[key]

    def _open(self) -> None:
        if self._closed:
            raise RuntimeError("this game's world has been closed")

    def _use(self) -> None:
        if esper.current_world != self._name:
            if self._closed:
                raise RuntimeError("this game's world has been closed")
            esper.switch_world(self._name)

    def close(self) -> None:
        """Delete the esper world. Afterwards every change raises RuntimeError and reads find an
        empty world (reads stay unchecked: they are the hot path)."""
        if self._closed:
            return
        self._closed = True
        self._ents = {}
        self._comps = {}
        self._queries.clear()
        self._memos.clear()
        self._indexes.clear()
        with _ESPER:
            if esper.current_world == self._name:
                esper.switch_world("default")
            esper.delete_world(self._name)

    def fork(self) -> World:
        """An independent copy: the same entities under the same ids with copies of their
        components (frozen ones shared: they never change), and the same next id."""
        other = type(self)()
        with _ESPER:
            other._use()
            for ent in sorted(self._ents):
                esper._entity_count = itertools.count(ent)  # the current world's counter
                esper.create_entity(*[clone_component(c) for c in self._ents[ent].values()])
            esper._entity_count = itertools.count(self.next_id)
        other.next_id = self.next_id
        return other

    # -- entities ------------------------------------------------------------------------------

    def create(self, *components: Any) -> int:
        self._open()
        if self._queries or self._memos:
            self._changed([type(c) for c in components])
        with _ESPER:
            self._use()
            ent = esper.create_entity(*components)
        self.next_id = ent + 1
        if self._indexes:
            self._refile(ent)
        if self.changes is not None:
            self.changes.add(ent)
        return ent

    def create_with_id(self, ent: int, components: Iterable[Any]) -> None:
        """Recreate an entity under a given id (loading a save); ids must come in increasing order."""
        self._queries.clear()
        self._memos.clear()
        self._indexes.clear()
        with _ESPER:
            self._use()
            esper._entity_count = itertools.count(ent)  # the current world's counter
            made = esper.create_entity(*components)
        assert made == ent
        self.next_id = ent + 1
        if self.changes is not None:
            self.changes.add(ent)

    def load(self, entities: SavedEntities, next_id: int) -> None:
        """Fill an empty world with a save's entities (`saved_entities.read_entities`: their tables
        and which entities hold each component) in one go, the id count going on at `next_id`: what
        `create_with_id` does one entity at a time. The tables become the world's own."""
        self._open()
        if self._ents:
            raise RuntimeError("load() fills an empty world")
        self._queries.clear()
        self._memos.clear()
        self._indexes.clear()
        with _ESPER:
            self._use()
            ents: dict[int, dict[type, Any]] = esper._entities
            comps: dict[type, set[int]] = esper._components
            ents.update(entities.tables)
            for t, holders in entities.holders.items():
                found = comps.get(t)
                if found is None:
                    comps[t] = holders
                else:
                    found.update(holders)
            esper._entity_count = itertools.count(next_id)
            esper.clear_cache()
        self.next_id = next_id
        if self.changes is not None:
            self.changes.update(ent for ent, _table in entities.tables)

    def set_next_id(self, next_id: int) -> None:
        """Continue the id count exactly where a saved game stopped."""
        with _ESPER:
            self._use()
            esper._entity_count = itertools.count(next_id)
        self.next_id = next_id

    def delete(self, ent: int) -> None:
        self._open()
        self._changed(self._ents[ent])
        if self._indexes:
            for index in self._indexes.values():
                index.place(ent, {})
        with _ESPER:
            self._use()
            esper.delete_entity(ent, immediate=True)
        if self.changes is not None:
            self.changes.add(ent)

    def exists(self, ent: int) -> bool:
        return ent in self._ents

    def entities(self) -> list[int]:
        self._open()
        return sorted(self._ents)

    def table(self) -> dict[int, dict[type, Any]]:
        """esper's own table, unchecked even in strict mode: for the engine's encoders and checkers."""
        return self._ents

    def raw(self) -> dict[int, dict[type, Any]]:
        """esper's own table, entity -> component type -> component: for encoders, and for rules that
        read several components of many figures in a loop (one look-up per figure instead of one call
        per component). Read it and change components in place; add or remove them, or entities, only
        through the World, which keeps its caches and indexes true."""
        return self._ents

    # -- components ----------------------------------------------------------------------------

    def add(self, ent: int, comp: Any) -> None:
        """Add a component, or replace the entity's component of that type."""
        self._open()
        self._changed(self._ents[ent], type(comp))
        with _ESPER:
            self._use()
            esper.add_component(ent, comp)
        if self._indexes:
            self._refile(ent, type(comp))
        if self.changes is not None:
            self.changes.add(ent)

    def remove(self, ent: int, ctype: type[C]) -> C | None:
        self._open()
        if ent in self._ents:
            self._changed(self._ents[ent], ctype)
        with _ESPER:
            self._use()
            removed = esper.try_remove_component(ent, ctype)
        if self._indexes and ent in self._ents:
            self._refile(ent, ctype)
        if self.changes is not None:
            self.changes.add(ent)
        return removed

    def get(self, ent: int, ctype: type[C]) -> C:
        return self._ents[ent][ctype]  # type: ignore[no-any-return]

    def try_get(self, ent: int, ctype: type[C]) -> C | None:
        comps = self._ents.get(ent)
        return None if comps is None else comps.get(ctype)

    def has(self, ent: int, ctype: type) -> bool:
        return ctype in self._ents[ent]

    # -- queries, sorted by entity id, as tuples (shared between callers: immutable) -------------

    def query1(self, ctype: type[C]) -> tuple[tuple[int, C], ...]:
        key = (ctype,)
        hit = self._queries.get(key)
        if hit is None:
            self._open()
            ents = self._ents
            hit = self._queries[key] = tuple((e, ents[e][ctype]) for e in sorted(self._comps.get(ctype, ())))
        return hit

    @overload
    def query(self, c1: type[C], c2: type[C2], /) -> tuple[tuple[int, tuple[C, C2]], ...]: ...
    @overload
    def query(self, c1: type[C], c2: type[C2], c3: type[C3], /) -> tuple[tuple[int, tuple[C, C2, C3]], ...]: ...
    @overload
    def query(
        self, c1: type[C], c2: type[C2], c3: type[C3], c4: type[C4], /
    ) -> tuple[tuple[int, tuple[C, C2, C3, C4]], ...]: ...
    def query(self, *ctypes: type) -> tuple[tuple[int, tuple[Any, ...]], ...]:
        hit = self._queries.get(ctypes)
        if hit is None:
            self._open()
            hit = self._queries[ctypes] = self._query(ctypes)
        return hit

    def _query(self, ctypes: tuple[type, ...]) -> tuple[tuple[int, tuple[Any, ...]], ...]:
        """Entities having every one of `ctypes`, by id, with those components: read from the
        world's own tables (esper's cached query would need its globals, and the lock)."""
        sets = [self._comps.get(t) for t in ctypes]
        if not all(sets):
            return ()
        common = set.intersection(*sorted(sets, key=len))  # type: ignore[arg-type]
        ents = self._ents
        return tuple((e, tuple(ents[e][t] for t in ctypes)) for e in sorted(common))

    def memo(self, key: tuple[Any, ...], depends: tuple[type, ...], compute: Callable[[], T]) -> T:
        """A value computed from the entities having all of `depends`, kept until one of them
        comes, goes, or has one of those components added, removed or replaced.

        Only for values that depend on which entities have those components, or on their frozen
        fields (such as `Zone`'s): changing a mutable component in place does not clear it."""
        hit = self._memos.get(key)
        if hit is None:
            value = compute()
            self._memos[key] = (frozenset(depends), value)
            return value
        return hit[1]  # type: ignore[no-any-return]

    def index(self, name: str, types: tuple[type, ...], keys: KeyFn) -> Groups:
        """The groups of the index `name` (built on first use, then kept up to date by every
        structural change): `groups[key]` -> entity ids in id order. See `ecs_zombie.index`."""
        found = self._indexes.get(name)
        if found is None:
            found = self._indexes[name] = GroupIndex(types, keys)
            found.build(self._ents)
        return found.groups

    def count(self, ctype: type) -> int:
        return len(self._comps.get(ctype, ()))

    def component_types(self) -> frozenset[type]:
        """The component types at least one entity has."""
        return frozenset(self._comps)


class StrictWorld(World):
    """A world in strict mode: every access is checked by `guard` (an `ecs_zombie.strict.Guard`)
    against the declarations of the system running. Plays exactly as `World` does."""

    __slots__ = ("guard",)

    def __init__(self) -> None:
        super().__init__()
        self.guard: Any = None

    def create(self, *components: Any) -> int:
        self._open()
        ent = World.create(self, *components)
        if self.guard is not None:
            self.guard.created(ent, components)
        return ent

    def add(self, ent: int, comp: Any) -> None:
        if self.guard is not None:
            self.guard.added(ent, comp, type(comp) in self._ents[ent])
        World.add(self, ent, comp)

    def remove(self, ent: int, ctype: type[C]) -> C | None:
        if self.guard is not None and ent in self._ents and ctype in self._ents[ent]:
            self.guard.removed(ent, ctype)
        return World.remove(self, ent, ctype)

    def delete(self, ent: int) -> None:
        self._open()
        if self.guard is not None:
            self.guard.deleted(ent, tuple(self._ents[ent]))
        World.delete(self, ent)

    def get(self, ent: int, ctype: type[C]) -> C:
        if self.guard is not None:
            self.guard.read(ctype)
        return World.get(self, ent, ctype)

    def try_get(self, ent: int, ctype: type[C]) -> C | None:
        if self.guard is not None:
            self.guard.read(ctype)
        return World.try_get(self, ent, ctype)

    def has(self, ent: int, ctype: type) -> bool:
        if self.guard is not None:
            self.guard.read(ctype)
        return World.has(self, ent, ctype)

    def query1(self, ctype: type[C]) -> tuple[tuple[int, C], ...]:
        if self.guard is not None:
            self.guard.read(ctype)
        return World.query1(self, ctype)

    def query(self, *ctypes: type) -> tuple[tuple[int, tuple[Any, ...]], ...]:  # type: ignore[override]
        if self.guard is not None:
            for ctype in ctypes:
                self.guard.read(ctype)
        return World.query(self, *ctypes)

    def memo(self, key: tuple[Any, ...], depends: tuple[type, ...], compute: Callable[[], T]) -> T:
        if self.guard is not None:
            for ctype in depends:
                self.guard.read(ctype)
        return World.memo(self, key, depends, compute)

    def index(self, name: str, types: tuple[type, ...], keys: KeyFn) -> Groups:
        if self.guard is not None:
            for ctype in types:
                self.guard.read(ctype)
        return World.index(self, name, types, keys)

    def count(self, ctype: type) -> int:
        if self.guard is not None:
            self.guard.read(ctype)
        return World.count(self, ctype)

    def raw(self) -> dict[int, dict[type, Any]]:
        if self.guard is None or self.guard.frame is None:
            return World.raw(self)
        from ecs_zombie.strict import checked_table

        return checked_table(World.raw(self), self.guard)
